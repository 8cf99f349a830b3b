//! UCI move text in and out, with the castling notation of the session.
//!
//! Out: with `UCI_Chess960` on, a castle is king-takes-own-rook (`e1h1`).
//! With it off, a castle is the king's two-square move (`e1g1`) when the
//! position is standard (kings on e, castling rooks in the corners, see
//! [`needs_chess960`]); in any other position king-takes-rook is the only
//! unambiguous form, so it is used whatever the option says.
//!
//! In: king-takes-own-rook is always a castle (a king never captures its
//! own piece, so it is unambiguous); a move that is legal as written is that
//! move; otherwise a king move to the castling destination (g- or c-file)
//! of exactly one legal castle is that castle. So `f1g1` with king f1 and
//! rook h1 is the king step, and the castle must be written `f1h1`: the
//! literal reading wins and nothing is guessed.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, CastlingSide, Chess, Move, Position, Square};

use crate::notation::fen::needs_chess960;

/// The castling notation for moves out of `pos`.
pub fn notation_for(pos: &Chess, chess960_option: bool) -> CastlingMode {
    if chess960_option || needs_chess960(pos) {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// A move as UCI text in `mode`.
pub fn format_move(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

/// A line of moves (a PV) as UCI text, the notation chosen per position.
pub fn format_line(root: &Chess, line: &[Move], chess960_option: bool) -> String {
    let mode = notation_for(root, chess960_option);
    line.iter()
        .map(|&m| format_move(m, mode))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a move token was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("'{0}' is not a UCI move")]
    Syntax(String),
    #[error("'{0}' is not a legal move")]
    Illegal(String),
}

/// Reads a UCI move token in the context of `pos` (see the module docs).
pub fn parse_move(pos: &Chess, token: &str) -> Result<Move, MoveError> {
    let uci: UciMove = token
        .parse()
        .map_err(|_| MoveError::Syntax(token.to_string()))?;
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = uci
    else {
        return Err(MoveError::Illegal(token.to_string()));
    };
    let legal = pos.legal_moves();
    // Chess960 reading: castles are king-takes-rook, everything else literal.
    if let Some(&m) = legal.iter().find(|&&m| UciMove::from_chess960(m) == uci) {
        return Ok(m);
    }
    // Standard reading: the king's two-square move (or any king move onto
    // the castling destination) names the one castle that lands there.
    if promotion.is_none() {
        let mut castles = legal.iter().filter(|m| match **m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                king == from && to == Square::from_coords(side.king_to_file(), king.rank())
            }
            _ => false,
        });
        if let (Some(&m), None) = (castles.next(), castles.next()) {
            return Ok(m);
        }
    }
    Err(MoveError::Illegal(token.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    #[test]
    fn standard_position_castles_both_ways() {
        let pos = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let a = parse_move(&pos, "e1g1").unwrap();
        let b = parse_move(&pos, "e1h1").unwrap();
        assert_eq!(a, b);
        assert!(matches!(a, Move::Castle { .. }));
        assert_eq!(format_move(a, notation_for(&pos, false)), "e1g1");
        assert_eq!(format_move(a, notation_for(&pos, true)), "e1h1");
        let q = parse_move(&pos, "e1c1").unwrap();
        assert_eq!(format_move(q, notation_for(&pos, false)), "e1c1");
        assert_eq!(format_move(q, notation_for(&pos, true)), "e1a1");
    }

    #[test]
    fn chess960_literal_king_step_wins() {
        // King f1, rook h1: f1g1 is a king step, the castle is f1h1.
        let pos = parse_position("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        assert!(matches!(
            parse_move(&pos, "f1g1").unwrap(),
            Move::Normal { .. }
        ));
        assert!(matches!(
            parse_move(&pos, "f1h1").unwrap(),
            Move::Castle { .. }
        ));
        assert_eq!(notation_for(&pos, false), CastlingMode::Chess960);
    }

    #[test]
    fn chess960_two_square_castle_when_unambiguous() {
        // King b1, rook a1, queenside castle puts the king on c1 where a
        // king step could also go: literal. King e1 rook h1 with king on
        // d1? Use king c1, rook h1: king to g1 is only the castle.
        let pos = parse_position("4k3/8/8/8/8/8/8/2K4R w H - 0 1").unwrap();
        assert!(matches!(
            parse_move(&pos, "c1g1").unwrap(),
            Move::Castle { .. }
        ));
    }

    #[test]
    fn refusals() {
        let pos = Chess::default();
        assert_eq!(
            parse_move(&pos, "e2e5"),
            Err(MoveError::Illegal("e2e5".into()))
        );
        assert_eq!(
            parse_move(&pos, "hello"),
            Err(MoveError::Syntax("hello".into()))
        );
        assert!(parse_move(&pos, "0000").is_err());
    }
}
