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

use shakmaty::fen::{Epd, Fen};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

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
    type Err = String;
    fn from_str(s: &str) -> Result<FenFlavour, String> {
        match s.to_ascii_lowercase().as_str() {
            "xfen" | "x-fen" => Ok(FenFlavour::XFen),
            "shredder" | "shredder-fen" => Ok(FenFlavour::Shredder),
            other => Err(format!(
                "unknown FEN flavour '{other}' (use xfen or shredder)"
            )),
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

/// Parses a FEN or EPD (4 to 6 fields) in either castling flavour and checks
/// it with shakmaty in Chess960 mode.
pub fn parse_position(text: &str) -> Result<Chess, FenError> {
    let text = text.trim();
    let fen: Fen = text
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| FenError::Syntax {
            fen: text.to_string(),
            reason: e.to_string(),
        })?;
    fen.into_position(CastlingMode::Chess960)
        .map_err(|e| FenError::Illegal {
            fen: text.to_string(),
            reason: e.to_string(),
        })
}

/// The castling field in Shredder form: rook files, White's first, each
/// colour highest file first (`HAha`), `-` when there are none.
pub fn shredder_castling_field(pos: &Chess) -> String {
    ShredderField::of(pos).as_str().to_string()
}

/// A Shredder castling field without allocating: at most four rook files.
struct ShredderField {
    bytes: [u8; 4],
    len: usize,
}

impl ShredderField {
    fn of(pos: &Chess) -> ShredderField {
        let mut field = ShredderField {
            bytes: [b'-'; 4],
            len: 0,
        };
        let rights = pos.castles().castling_rights();
        for color in Color::ALL {
            for sq in (rights & color.backrank()).into_iter().rev() {
                let c = sq.file().char() as u8;
                if field.len < 4 {
                    field.bytes[field.len] = if color.is_white() {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    };
                    field.len += 1;
                }
            }
        }
        field.len = field.len.max(1);
        field
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("-")
    }
}

/// The full FEN of a position in the chosen flavour.
pub fn position_fen(pos: &Chess, flavour: FenFlavour) -> String {
    let mut fen = String::with_capacity(90);
    push_fen(&mut fen, pos, flavour);
    fen
}

/// Appends the full FEN of a position in the chosen flavour to `out`,
/// allocating nothing else (book writers format millions of them).
pub fn push_fen(out: &mut String, pos: &Chess, flavour: FenFlavour) {
    let from = out.len();
    Fen::from_position(pos, EnPassantMode::Legal).append_to_string(out);
    set_castling_flavour(out, from, pos, flavour);
}

/// Appends the four EPD fields (board, turn, castling, en passant) of a
/// position in the chosen flavour to `out`.
pub fn push_epd_fields(out: &mut String, pos: &Chess, flavour: FenFlavour) {
    let from = out.len();
    Epd::from_position(pos, EnPassantMode::Legal).append_to_string(out);
    set_castling_flavour(out, from, pos, flavour);
}

/// shakmaty writes X-FEN; for Shredder, the castling field (between the
/// second and third spaces after `from`) is replaced in place.
fn set_castling_flavour(out: &mut String, from: usize, pos: &Chess, flavour: FenFlavour) {
    if flavour == FenFlavour::XFen {
        return;
    }
    let mut spaces = out[from..]
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b' ')
        .map(|(i, _)| from + i);
    if let (Some(_), Some(a), Some(b)) = (spaces.next(), spaces.next(), spaces.next()) {
        out.replace_range(a + 1..b, ShredderField::of(pos).as_str());
    }
}

/// The first four FEN fields (board, turn, castling, en passant): EPD.
pub fn position_epd(pos: &Chess, flavour: FenFlavour) -> String {
    let mut epd = String::with_capacity(80);
    push_epd_fields(&mut epd, pos, flavour);
    epd
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
