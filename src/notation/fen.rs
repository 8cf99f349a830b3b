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
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

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

/// Why a FEN was refused.
#[derive(Debug, thiserror::Error)]
pub enum FenError {
    #[error("cannot parse FEN '{fen}': {reason}")]
    Syntax { fen: String, reason: String },
    #[error("illegal position '{fen}': {reason}")]
    Illegal { fen: String, reason: String },
}

impl FenError {
    /// Why, without the FEN (for callers that name it themselves).
    pub fn reason(&self) -> &str {
        match self {
            FenError::Syntax { reason, .. } | FenError::Illegal { reason, .. } => reason,
        }
    }
}

/// Parses a FEN or EPD (4 to 6 fields) in either castling flavour and checks
/// it with shakmaty in Chess960 mode.
pub fn parse_position(text: &str) -> Result<Chess, FenError> {
    let text = text.trim();
    if let Err(reason) = check_board_field(text.split_ascii_whitespace().next().unwrap_or("")) {
        return Err(FenError::Syntax {
            fen: crate::files::excerpt(text, 100),
            reason,
        });
    }
    let fen: Fen = text
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| FenError::Syntax {
            fen: crate::files::excerpt(text, 100),
            reason: e.to_string(),
        })?;
    fen.into_position(CastlingMode::Chess960)
        .map_err(|e| FenError::Illegal {
            fen: crate::files::excerpt(text, 100),
            reason: e.to_string(),
        })
}

/// Checks the shape of a FEN's board field before shakmaty reads it, so
/// that the error names the real fault: shakmaty reads a ninth rank as a
/// crazyhouse pocket ("invalid pocket"), or silently drops it.
fn check_board_field(board: &str) -> Result<(), String> {
    if board.is_empty() {
        return Err("no board field".into());
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the board has {} ranks separated by '/'; a board has 8",
            ranks.len()
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let name = 8 - i;
        let mut squares = 0u32;
        for c in rank.chars() {
            squares += match c {
                '1'..='8' => c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => 1,
                other => {
                    let shown: String = other.escape_debug().collect();
                    return Err(format!(
                        "rank {name} holds '{shown}', not a piece letter (pnbrqk, PNBRQK) or a count of empty squares (1-8)"
                    ));
                }
            };
        }
        if squares != 8 {
            return Err(format!("rank {name} has {squares} squares, not 8"));
        }
    }
    Ok(())
}

/// The castling field in Shredder form: rook files, White's first, each
/// colour highest file first (`HAha`), `-` when there are none.
pub fn shredder_castling_field(pos: &Chess) -> String {
    let rights = pos.castles().castling_rights();
    let mut field = String::new();
    for color in Color::ALL {
        for sq in (rights & color.backrank()).into_iter().rev() {
            let c = sq.file().char();
            field.push(if color.is_white() {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    if field.is_empty() {
        field.push('-');
    }
    field
}

/// The full FEN of a position in the chosen flavour.
pub fn position_fen(pos: &Chess, flavour: FenFlavour) -> String {
    let xfen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    match flavour {
        FenFlavour::XFen => xfen,
        FenFlavour::Shredder => replace_castling_field(&xfen, &shredder_castling_field(pos)),
    }
}

/// The first four FEN fields (board, turn, castling, en passant): EPD.
pub fn position_epd(pos: &Chess, flavour: FenFlavour) -> String {
    let fen = position_fen(pos, flavour);
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

fn replace_castling_field(fen: &str, castling: &str) -> String {
    fen.split(' ')
        .enumerate()
        .map(|(i, field)| if i == 2 { castling } else { field })
        .collect::<Vec<_>>()
        .join(" ")
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

    #[test]
    fn bogus_castling_rights_are_refused() {
        let err =
            parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1").unwrap_err();
        assert!(matches!(err, FenError::Illegal { .. }), "{err}");
    }

    #[test]
    fn standard_position_needs_no_chess960() {
        assert!(!needs_chess960(&Chess::default()));
        let pos =
            parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        assert!(needs_chess960(&pos));
    }
}
