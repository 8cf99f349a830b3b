//! UCI move text in and out, with the castling notation of the session.
//!
//! Out: with `UCI_Chess960` on, a castle is king-takes-own-rook (`e1h1`).
//! With it off, a castle is the king's two-square move (`e1g1`) when the
//! position is standard (kings on e, castling rooks in the corners, see
//! [`needs_chess960`]); in any other position king-takes-rook is the only
//! unambiguous form, so it is used whatever the option says.
//!
//! In: [`crate::notation::castling::parse_move`] in king-takes-rook
//! notation, the crate's one reading rule: king-takes-own-rook is always a
//! castle; a move that is legal as written is that move; otherwise a king
//! move to a castle's destination (g- or c-file) is that castle. So `f1g1`
//! with king f1 and rook h1 is the king step, and the castle must be written
//! `f1h1`: the literal reading wins and nothing is guessed.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::castling::{CastlingNotation, parse_move};
    use crate::notation::fen::parse_position;

    #[test]
    fn standard_position_castles_both_ways() {
        let pos = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let kxr = CastlingNotation::KingTakesRook;
        let a = parse_move(&pos, "e1g1", kxr).unwrap();
        let b = parse_move(&pos, "e1h1", kxr).unwrap();
        assert_eq!(a, b);
        assert!(matches!(a, Move::Castle { .. }));
        assert_eq!(format_move(a, notation_for(&pos, false)), "e1g1");
        assert_eq!(format_move(a, notation_for(&pos, true)), "e1h1");
        let q = parse_move(&pos, "e1c1", kxr).unwrap();
        assert_eq!(format_move(q, notation_for(&pos, false)), "e1c1");
        assert_eq!(format_move(q, notation_for(&pos, true)), "e1a1");
    }

    #[test]
    fn chess960_positions_are_written_king_takes_rook() {
        let pos = parse_position("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        assert_eq!(notation_for(&pos, false), CastlingMode::Chess960);
    }
}
