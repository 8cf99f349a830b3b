//! FEN castling flavours. Both are read; either is written.
//!
//! * X-FEN: `KQkq` for the outermost rook on each side, a file letter only
//!   for an inner rook. What Cute Chess, python-chess and lichess read, so
//!   it is what PGN `[FEN]` tags get.
//! * Shredder-FEN: the rook files (`HAha`). The UCI specification's form and
//!   what cutechess-cli and fastchess send engines.
//!
//! shakmaty writes only X-FEN; the Shredder field is built from the
//! position's castling rights (the rook squares), highest file first.
//!
//! ```
//! use uci960::notation::fen::{parse_position, position_fen, FenFlavour};
//! let pos = parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
//! assert_eq!(position_fen(&pos, FenFlavour::XFen), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
//! assert_eq!(position_fen(&pos, FenFlavour::Shredder), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
//! ```

use std::fmt;
use std::str::FromStr;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, PositionErrorKinds};

use crate::keyword::UnknownWord;

/// Which castling field a FEN carries.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FenFlavour {
    /// `KQkq`, file letters only for inner rooks.
    #[default]
    #[serde(rename = "xfen")]
    XFen,
    /// Rook files, `HAha`.
    Shredder,
}

impl FromStr for FenFlavour {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<FenFlavour, UnknownWord> {
        match s.to_ascii_lowercase().as_str() {
            "xfen" | "x-fen" => Ok(FenFlavour::XFen),
            "shredder" | "shredder-fen" => Ok(FenFlavour::Shredder),
            other => Err(UnknownWord::new("FEN flavour", other, "xfen or shredder")),
        }
    }
}

impl fmt::Display for FenFlavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenFlavour::XFen => "xfen",
            FenFlavour::Shredder => "shredder",
        })
    }
}

/// Why a FEN was refused: the FEN (shortened) and what is wrong with it.
#[derive(Debug, thiserror::Error)]
#[error("{} '{fen}': {fault}", fault.head())]
pub struct FenError {
    pub fen: String,
    pub fault: FenFault,
}

/// What is wrong with a FEN, without the FEN (for callers that name it
/// themselves, as a book does with its file and line).
#[derive(Debug, thiserror::Error)]
pub enum FenFault {
    #[error("no board field")]
    NoBoard,
    #[error("the board has {0} ranks separated by '/'; a board has 8")]
    RankCount(usize),
    #[error(
        "rank {rank} holds '{shown}', not a piece letter (pnbrqk, PNBRQK) or a count of empty squares (1-8)"
    )]
    NotAPiece { rank: usize, shown: String },
    #[error("rank {rank} has {squares} squares, not 8")]
    RankWidth { rank: usize, squares: u32 },
    /// Any other field shakmaty cannot read.
    #[error(transparent)]
    Field(#[from] shakmaty::fen::ParseFenError),
    /// Read, but not a legal Chess960 position.
    #[error("{}", illegal_reasons(*.0))]
    Illegal(PositionErrorKinds),
}

impl FenFault {
    /// The message's head: a FEN that does not read, or a position that
    /// is not legal.
    fn head(&self) -> &'static str {
        match self {
            FenFault::Illegal(_) => "illegal position",
            _ => "cannot parse FEN",
        }
    }
}

/// shakmaty's reasons in words: `missing king, invalid castling rights`.
fn illegal_reasons(kinds: PositionErrorKinds) -> String {
    let words: Vec<String> = kinds
        .iter_names()
        .map(|(name, _)| name.to_ascii_lowercase().replace('_', " "))
        .collect();
    if words.is_empty() {
        "no reason given".to_string()
    } else {
        words.join(", ")
    }
}

/// Parses a FEN or EPD (4 to 6 fields) in either castling flavour and checks
/// it with shakmaty in Chess960 mode.
pub fn parse_position(text: &str) -> Result<Chess, FenError> {
    let text = text.trim();
    let refuse = |fault: FenFault| FenError {
        fen: crate::excerpt::excerpt(text, 100),
        fault,
    };
    check_board_field(text.split_ascii_whitespace().next().unwrap_or("")).map_err(refuse)?;
    let fen: Fen = text
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| refuse(e.into()))?;
    fen.into_position(CastlingMode::Chess960)
        .map_err(|e| refuse(FenFault::Illegal(e.kinds())))
}

/// Checks the shape of a FEN's board field before shakmaty reads it, so
/// that the error names the real fault: shakmaty reads a ninth rank as a
/// crazyhouse pocket ("invalid pocket"), or silently drops it.
fn check_board_field(board: &str) -> Result<(), FenFault> {
    if board.is_empty() {
        return Err(FenFault::NoBoard);
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenFault::RankCount(ranks.len()));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let name = 8 - i;
        let mut squares = 0u32;
        for c in rank.chars() {
            squares += match c {
                '1'..='8' => c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => 1,
                other => {
                    return Err(FenFault::NotAPiece {
                        rank: name,
                        shown: other.escape_debug().collect(),
                    });
                }
            };
        }
        if squares != 8 {
            return Err(FenFault::RankWidth {
                rank: name,
                squares,
            });
        }
    }
    Ok(())
}

/// The castling field in Shredder form: rook files, White's first, each
/// colour highest file first (`HAha`), `-` when there are none.
pub fn shredder_castling_field(pos: &Chess) -> String {
    let mut field = String::new();
    push_castling_field(&mut field, pos, FenFlavour::Shredder);
    field
}

/// The full FEN of a position in the chosen flavour.
pub fn position_fen(pos: &Chess, flavour: FenFlavour) -> String {
    let mut fen = String::with_capacity(90);
    push_fen(&mut fen, pos, flavour);
    fen
}

/// The first four FEN fields (board, turn, castling, en passant): EPD.
pub fn position_epd(pos: &Chess, flavour: FenFlavour) -> String {
    let mut epd = String::with_capacity(80);
    push_epd_fields(&mut epd, pos, flavour);
    epd
}

/// Appends the full FEN of a position in the chosen flavour to `out`.
pub fn push_fen(out: &mut String, pos: &Chess, flavour: FenFlavour) {
    use std::fmt::Write as _;
    push_epd_fields(out, pos, flavour);
    let _ = write!(out, " {} {}", pos.halfmoves(), pos.fullmoves());
}

/// Appends the four EPD fields of a position in the chosen flavour to
/// `out`, allocating nothing else.
///
/// Written here rather than through shakmaty's `Epd`, which copies the
/// position into a `Setup` and looks the pieces up square by square: a book
/// writes millions of these, and this was most of its time. The X-FEN
/// field follows shakmaty's rule (`K`/`Q` for the outermost rook beyond the
/// king, a file letter otherwise); a unit test compares the output with
/// shakmaty's on thousands of positions.
pub fn push_epd_fields(out: &mut String, pos: &Chess, flavour: FenFlavour) {
    let board = pos.board();
    let mut mailbox = [0u8; 64];
    for color in Color::ALL {
        for role in shakmaty::Role::ALL {
            let piece = shakmaty::Piece { color, role };
            for sq in board.by_piece(piece) {
                mailbox[usize::from(sq)] = piece.char() as u8;
            }
        }
    }
    let mut text = [0u8; 96];
    let mut n = 0;
    let mut put = |b: u8, n: &mut usize| {
        text[*n] = b;
        *n += 1;
    };
    for rank in (0..8).rev() {
        let mut empty = 0u8;
        for c in &mailbox[rank * 8..rank * 8 + 8] {
            if *c == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    put(b'0' + empty, &mut n);
                    empty = 0;
                }
                put(*c, &mut n);
            }
        }
        if empty > 0 {
            put(b'0' + empty, &mut n);
        }
        if rank > 0 {
            put(b'/', &mut n);
        }
    }
    put(b' ', &mut n);
    put(pos.turn().char() as u8, &mut n);
    put(b' ', &mut n);
    // 64 squares and separators: at most 71 bytes so far; the rest fits.
    out.push_str(std::str::from_utf8(&text[..n]).unwrap_or_default());
    push_castling_field(out, pos, flavour);
    out.push(' ');
    match pos.ep_square(EnPassantMode::Legal) {
        Some(sq) => {
            out.push(sq.file().char());
            out.push(sq.rank().char());
        }
        None => out.push('-'),
    }
}

/// Appends the castling field in the chosen flavour: for each colour
/// (White first, upper case) the rights from the highest rook file down;
/// `-` when there are none.
fn push_castling_field(out: &mut String, pos: &Chess, flavour: FenFlavour) {
    let board = pos.board();
    let rights = pos.castles().castling_rights();
    if rights.is_empty() {
        out.push('-');
        return;
    }
    for color in Color::ALL {
        let king = board
            .king_of(color)
            .filter(|k| k.rank() == color.backrank());
        let rooks = board.by_piece(color.rook()) & color.backrank();
        for rook in (rights & color.backrank()).into_iter().rev() {
            let outer = flavour == FenFlavour::XFen && king.is_some();
            let c = match king {
                Some(k) if outer && Some(rook) == rooks.first() && rook < k => 'q',
                Some(k) if outer && Some(rook) == rooks.last() && k < rook => 'k',
                _ => rook.file().char(),
            };
            out.push(if color.is_white() {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
}

/// Whether a position needs Chess960 castling notation: some castling
/// right whose king or rook is not on its standard square.
pub fn needs_chess960(pos: &Chess) -> bool {
    let rights = pos.castles().castling_rights();
    if rights.is_empty() {
        return false;
    }
    let standard_rooks = shakmaty::Bitboard::CORNERS;
    if !(rights & !standard_rooks).is_empty() {
        return true;
    }
    Color::ALL.into_iter().any(|color| {
        !(rights & color.backrank()).is_empty()
            && pos.board().king_of(color)
                != Some(shakmaty::Square::from_coords(
                    shakmaty::File::E,
                    color.backrank(),
                ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_rook_gets_a_file_letter_in_xfen() {
        // White rooks on b1 and h1 and a third on g1 with rights: the inner
        // g-rook needs its letter in X-FEN.
        let pos = parse_position("4k3/8/8/8/8/8/8/1R2K1RR w GB - 0 1").unwrap();
        assert_eq!(
            position_fen(&pos, FenFlavour::XFen),
            "4k3/8/8/8/8/8/8/1R2K1RR w GQ - 0 1"
        );
        assert_eq!(
            position_fen(&pos, FenFlavour::Shredder),
            "4k3/8/8/8/8/8/8/1R2K1RR w GB - 0 1"
        );
    }

    /// The writer agrees with shakmaty's X-FEN everywhere, and its
    /// Shredder form reads back as the same position: random games from
    /// random Chess960 and DFRC starts, every position on the way.
    #[test]
    fn writer_agrees_with_shakmaty_on_random_games() {
        let mut seed = 0x9E37_79B9_u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let mut checked = 0;
        for _ in 0..300 {
            let start =
                crate::start::StartPosition::from_sp_pair(next(960) as u32, next(960) as u32)
                    .unwrap();
            let mut pos = start.to_chess();
            for _ in 0..80 {
                let theirs = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                assert_eq!(position_fen(&pos, FenFlavour::XFen), theirs);
                let shredder = position_fen(&pos, FenFlavour::Shredder);
                let back = parse_position(&shredder).unwrap();
                assert_eq!(
                    Fen::from_position(&back, EnPassantMode::Legal).to_string(),
                    theirs,
                    "{shredder}"
                );
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[next(moves.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn epd_fields_in_both_flavours() {
        let pos = parse_position("4k3/8/8/8/8/8/8/1R2K1RR w GB - 3 9").unwrap();
        assert_eq!(
            position_epd(&pos, FenFlavour::XFen),
            "4k3/8/8/8/8/8/8/1R2K1RR w GQ -"
        );
        assert_eq!(
            position_epd(&pos, FenFlavour::Shredder),
            "4k3/8/8/8/8/8/8/1R2K1RR w GB -"
        );
        let mut out = String::from("x ");
        push_fen(&mut out, &Chess::default(), FenFlavour::Shredder);
        assert_eq!(
            out,
            "x rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn bogus_castling_rights_are_refused() {
        let err =
            parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1").unwrap_err();
        assert!(matches!(err.fault, FenFault::Illegal(_)), "{err}");
        // The reason once, after the FEN (shakmaty's own message starts
        // with "illegal position" too).
        let msg = err.to_string();
        assert_eq!(msg.matches("illegal position").count(), 1, "{msg}");
        assert!(msg.ends_with("': invalid castling rights"), "{msg}");
    }

    #[test]
    fn standard_position_needs_no_chess960() {
        assert!(!needs_chess960(&Chess::default()));
        let pos =
            parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        assert!(needs_chess960(&pos));
    }
}
