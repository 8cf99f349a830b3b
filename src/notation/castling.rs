//! Castling move notation: "king takes rook" (KxR, `e1h1`, the UCI_Chess960
//! form) and "king two squares" (`e1g1`, standard UCI).
//!
//! In Chess960 the king-two-squares form is ambiguous where the king moves a
//! single square (king f1, rook h1: `f1g1` is also a plain king move) and
//! has no form at all where the king does not move (king g1, rook h1). Those
//! cases are refused with [`Ambiguity`], never guessed.
//!
//! ```
//! use uci960::notation::castling::{translate, CastlingNotation, Translation};
//! use uci960::notation::fen::parse_position;
//! let pos = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
//! assert_eq!(
//!     translate(&pos, "e1h1", CastlingNotation::KingTakesRook, CastlingNotation::KingTwoSquares),
//!     Translation::Castle("e1g1".into())
//! );
//! assert_eq!(
//!     translate(&pos, "e1f1", CastlingNotation::KingTakesRook, CastlingNotation::KingTwoSquares),
//!     Translation::NotCastling
//! );
//! ```

use std::fmt;
use std::str::FromStr;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square};

/// How castling moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingNotation {
    /// King takes own rook (`e1h1`): UCI_Chess960 mode.
    KingTakesRook,
    /// King moves to the g or c file (`e1g1`): standard UCI.
    KingTwoSquares,
}

impl FromStr for CastlingNotation {
    type Err = String;
    fn from_str(s: &str) -> Result<CastlingNotation, String> {
        match s.to_ascii_lowercase().as_str() {
            "kxr" | "chess960" => Ok(CastlingNotation::KingTakesRook),
            "standard" | "king-two-squares" => Ok(CastlingNotation::KingTwoSquares),
            other => Err(format!(
                "unknown castling notation '{other}' (use kxr or standard)"
            )),
        }
    }
}

impl fmt::Display for CastlingNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingNotation::KingTakesRook => "kxr",
            CastlingNotation::KingTwoSquares => "standard",
        })
    }
}

/// Why a castle cannot be written or read unambiguously.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ambiguity {
    /// The king moves one square: the two-squares form is also a plain
    /// king move.
    #[error("'{text}' is both a castle and a plain king move")]
    AlsoKingMove { text: String },
    /// The king stays on its square: the two-squares form does not exist.
    #[error("castling with the king staying on {king} has no king-two-squares form")]
    KingStays { king: Square },
}

/// Why a move text is not a move of the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("'{0}' is not a UCI move")]
    Syntax(String),
    #[error("'{0}' is not legal here")]
    Illegal(String),
    #[error(transparent)]
    Ambiguous(#[from] Ambiguity),
}

/// The result of translating one move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Translation {
    /// Not a castle (or not a legal move at all): keep the text as it is.
    NotCastling,
    /// A castle; this is its text in the target notation (possibly equal to
    /// the input, e.g. `e1g1` in a standard position read as KxR).
    Castle(String),
    /// A castle that cannot be told apart or written: keep the text, warn.
    Ambiguous(Ambiguity),
}

/// The castle whose king goes from `from` to `to` (king-two-squares reading).
fn castle_by_king_target(pos: &Chess, from: Square, to: Square) -> Option<Move> {
    pos.legal_moves().into_iter().find(|m| match *m {
        Move::Castle { king, .. } => {
            king == from && m.castling_side().map(|s| s.king_to(pos.turn())) == Some(to)
        }
        _ => false,
    })
}

/// Reads a move text in `notation`.
pub fn parse_move(pos: &Chess, text: &str, notation: CastlingNotation) -> Result<Move, MoveError> {
    let uci: UciMove = text
        .parse()
        .map_err(|_| MoveError::Syntax(text.to_string()))?;
    let illegal = || MoveError::Illegal(text.to_string());
    match notation {
        CastlingNotation::KingTakesRook => {
            // In KxR notation a king move onto an own rook with the right is
            // a castle, anything else a plain move; shakmaty also reads
            // e1g1 as a castle in a standard setup, which is what Stockfish
            // does too, so that is kept.
            match uci.to_move(pos) {
                Ok(m) => Ok(m),
                // A two-squares castle that cannot be a plain king move.
                Err(_) => match uci {
                    UciMove::Normal {
                        from,
                        to,
                        promotion: None,
                    } => castle_by_king_target(pos, from, to).ok_or_else(illegal),
                    _ => Err(illegal()),
                },
            }
        }
        CastlingNotation::KingTwoSquares => {
            let UciMove::Normal {
                from,
                to,
                promotion: None,
            } = uci
            else {
                return uci.to_move(pos).map_err(|_| illegal());
            };
            if pos.board().role_at(from) != Some(Role::King)
                || pos.board().color_at(from) != Some(pos.turn())
            {
                return uci.to_move(pos).map_err(|_| illegal());
            }
            let castle = castle_by_king_target(pos, from, to);
            let plain = Move::Normal {
                role: Role::King,
                from,
                capture: pos.board().role_at(to),
                to,
                promotion: None,
            };
            let plain_legal =
                from != to && pos.board().color_at(to) != Some(pos.turn()) && pos.is_legal(plain);
            match (castle, plain_legal) {
                (Some(_), true) => Err(Ambiguity::AlsoKingMove {
                    text: text.to_string(),
                }
                .into()),
                (Some(c), false) => Ok(c),
                (None, true) => Ok(plain),
                // King takes own rook is never a plain move, so reading it
                // as a castle here is unambiguous (python-chess does too).
                (None, false) => uci.to_move(pos).map_err(|_| illegal()),
            }
        }
    }
}

/// Writes a legal move of `pos` in `notation`.
pub fn write_move(pos: &Chess, m: Move, notation: CastlingNotation) -> Result<String, Ambiguity> {
    match (m, notation) {
        (Move::Castle { king, .. }, CastlingNotation::KingTwoSquares) => {
            let side = m
                .castling_side()
                .unwrap_or(shakmaty::CastlingSide::KingSide);
            let to = side.king_to(pos.turn());
            if to == king {
                return Err(Ambiguity::KingStays { king });
            }
            let text = format!("{king}{to}");
            if king.distance(to) == 1 {
                return Err(Ambiguity::AlsoKingMove { text });
            }
            Ok(text)
        }
        (m, CastlingNotation::KingTakesRook) => {
            Ok(UciMove::from_move(m, CastlingMode::Chess960).to_string())
        }
        (m, CastlingNotation::KingTwoSquares) => {
            let text = UciMove::from_move(m, CastlingMode::Standard).to_string();
            // A plain king move that reads like a castle's king move.
            if let Move::Normal {
                role: Role::King,
                from,
                to,
                ..
            } = m
                && castle_by_king_target(pos, from, to).is_some()
            {
                return Err(Ambiguity::AlsoKingMove { text });
            }
            Ok(text)
        }
    }
}

/// Translates a move text from one castling notation to the other. Only
/// castles change; every other text, legal or not, is [`Translation::NotCastling`].
pub fn translate(
    pos: &Chess,
    text: &str,
    from: CastlingNotation,
    to: CastlingNotation,
) -> Translation {
    match parse_move(pos, text, from) {
        Ok(m @ Move::Castle { .. }) => match write_move(pos, m, to) {
            Ok(s) => Translation::Castle(s),
            Err(a) => Translation::Ambiguous(a),
        },
        Ok(_) | Err(MoveError::Syntax(_)) | Err(MoveError::Illegal(_)) => Translation::NotCastling,
        Err(MoveError::Ambiguous(a)) => Translation::Ambiguous(a),
    }
}

#[cfg(test)]
mod tests {
    use super::CastlingNotation::{KingTakesRook as Kxr, KingTwoSquares as Two};
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::start::StartPosition;
    use shakmaty::{Color, Position};

    fn pos(fen: &str) -> Chess {
        parse_position(fen).unwrap()
    }

    #[test]
    fn standard_castles_both_ways() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(
            translate(&p, "e1h1", Kxr, Two),
            Translation::Castle("e1g1".into())
        );
        assert_eq!(
            translate(&p, "e1a1", Kxr, Two),
            Translation::Castle("e1c1".into())
        );
        assert_eq!(
            translate(&p, "e1g1", Two, Kxr),
            Translation::Castle("e1h1".into())
        );
        assert_eq!(
            translate(&p, "e1c1", Two, Kxr),
            Translation::Castle("e1a1".into())
        );
        assert_eq!(translate(&p, "e1d1", Two, Kxr), Translation::NotCastling);
        assert_eq!(translate(&p, "a1a8", Two, Kxr), Translation::NotCastling);
        assert_eq!(translate(&p, "zz", Two, Kxr), Translation::NotCastling);
    }

    #[test]
    fn chess960_king_moving_far_is_unambiguous() {
        // King b1, rooks a1 and h1 (SP with RKR…): kingside castle moves the king 5 squares.
        let p = pos("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
        assert_eq!(
            translate(&p, "b1h1", Kxr, Two),
            Translation::Castle("b1g1".into())
        );
        assert_eq!(
            translate(&p, "b1g1", Two, Kxr),
            Translation::Castle("b1h1".into())
        );
        // Queenside: king b1 to c1 is one square, also a plain king move.
        assert!(matches!(
            translate(&p, "b1a1", Kxr, Two),
            Translation::Ambiguous(Ambiguity::AlsoKingMove { .. })
        ));
        assert!(matches!(
            translate(&p, "b1c1", Two, Kxr),
            Translation::Ambiguous(Ambiguity::AlsoKingMove { .. })
        ));
    }

    #[test]
    fn king_f1_rook_h1_is_refused() {
        let p = pos("5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1");
        assert!(matches!(
            translate(&p, "f1h1", Kxr, Two),
            Translation::Ambiguous(Ambiguity::AlsoKingMove { .. })
        ));
        assert!(matches!(
            parse_move(&p, "f1g1", Two),
            Err(MoveError::Ambiguous(_))
        ));
        // In KxR notation f1g1 is simply the king move.
        assert!(matches!(
            parse_move(&p, "f1g1", Kxr),
            Ok(Move::Normal { .. })
        ));
    }

    #[test]
    fn king_staying_has_no_two_squares_form() {
        let p = pos("6kr/8/8/8/8/8/8/6KR w Hh - 0 1");
        assert_eq!(
            translate(&p, "g1h1", Kxr, Two),
            Translation::Ambiguous(Ambiguity::KingStays { king: Square::G1 })
        );
    }

    #[test]
    fn plain_king_move_when_castle_is_illegal() {
        // The castle is blocked by a bishop on f1: e1g1 is no move at all.
        let p = pos("4k3/8/8/8/8/8/8/4KB1R w K - 0 1");
        assert_eq!(
            parse_move(&p, "e1g1", Two),
            Err(MoveError::Illegal("e1g1".into()))
        );
        assert!(matches!(
            parse_move(&p, "e1d1", Two),
            Ok(Move::Normal { .. })
        ));
    }

    /// Every legal move of every Chess960 start position (after clearing the
    /// pieces between king and rooks) round-trips or is refused as ambiguous.
    #[test]
    fn round_trip_all_start_positions() {
        let mut total = 0;
        for sp in 0..960 {
            let start = StartPosition::from_sp(sp).unwrap();
            let full = start.fen(crate::notation::fen::FenFlavour::Shredder);
            // Keep only king and rooks on the first ranks.
            let mut fields: Vec<String> = full.split(' ').map(str::to_string).collect();
            let rank = |r: &str, upper: bool| -> String {
                let mut out = String::new();
                let mut empty = 0;
                for c in r.chars() {
                    // Black keeps only its king, so no rook of its attacks
                    // White's back rank.
                    let keep = c == 'k' || (upper && matches!(c, 'K' | 'R'));
                    if keep && c.is_ascii_uppercase() == upper {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    } else {
                        empty += 1;
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            };
            let ranks: Vec<&str> = fields[0].split('/').collect();
            fields[0] = format!(
                "{}/8/8/8/8/8/8/{}",
                rank(ranks[0], false),
                rank(ranks[7], true)
            );
            fields[2] = fields[2].chars().filter(char::is_ascii_uppercase).collect();
            let p = pos(&fields.join(" "));
            assert_eq!(p.turn(), Color::White);
            let mut castles = 0;
            for m in p.legal_moves() {
                let kxr = write_move(&p, m, Kxr).unwrap();
                assert_eq!(parse_move(&p, &kxr, Kxr).unwrap(), m, "sp {sp} {kxr}");
                match write_move(&p, m, Two) {
                    Ok(two) => assert_eq!(parse_move(&p, &two, Two).unwrap(), m, "sp {sp} {two}"),
                    Err(_) => assert_eq!(m.role(), Role::King),
                }
                if m.is_castle() {
                    castles += 1;
                }
            }
            // Both castles, except where one rook blocks the other's castle.
            assert!(castles >= 1, "sp {sp}");
            total += castles;
        }
        assert!(total > 1800, "{total}");
    }
}
