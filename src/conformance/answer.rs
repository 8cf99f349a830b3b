//! What an engine's `bestmove` means in a position where a castle was
//! expected (or must not be played): the exact KxR move, the castle in the
//! king's-destination notation of standard UCI (`e1g1`, a notation
//! failure, not an illegal move), another legal move, or an illegal one.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, CastlingSide, Chess, Move, Position, Square};

/// The two ways to write a castle: `(KxR, king to its destination)`.
pub fn castle_notations(castle: Move) -> (String, String) {
    let kxr = UciMove::from_move(castle, CastlingMode::Chess960).to_string();
    let standard = match castle {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            format!(
                "{}{}",
                king,
                Square::from_coords(side.king_to_file(), king.rank())
            )
        }
        _ => kxr.clone(),
    };
    (kxr, standard)
}

/// The engine's answer, read against an expected castle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The castle, as king takes own rook.
    CastleKxR,
    /// The castle as the king's move to its destination square.
    CastleKingSquares,
    /// Some other legal move.
    OtherLegal(String),
    /// Not a legal move here (or not a move at all).
    Illegal(String),
}

/// Reads `answer` in `pos` against `castle`. The castle's notations are
/// tried first: where the king's-destination form is also a plain king
/// step (K f1, R h1: `f1g1`), the answer is read as the castle, as a
/// standard-UCI engine means it.
pub fn classify(pos: &Chess, castle: Move, answer: &str) -> Answer {
    let (kxr, standard) = castle_notations(castle);
    if answer == kxr {
        Answer::CastleKxR
    } else if answer == standard {
        Answer::CastleKingSquares
    } else if is_legal(pos, answer) {
        Answer::OtherLegal(answer.to_string())
    } else {
        Answer::Illegal(answer.to_string())
    }
}

/// Whether `answer` is a legal move in `pos`, read in Chess960 (KxR) form.
pub fn is_legal(pos: &Chess, answer: &str) -> bool {
    legal_move(pos, answer).is_some()
}

/// Whether `answer` is legal, or is a legal castle written as the king's
/// move to its destination: the engine understood the position, and the
/// notation is castle-notation's business.
pub fn is_legal_any_notation(pos: &Chess, answer: &str) -> bool {
    is_legal(pos, answer)
        || pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .any(|m| castle_notations(m).1 == answer)
}

/// The legal move `answer` names in KxR notation, if any.
pub fn legal_move(pos: &Chess, answer: &str) -> Option<Move> {
    let uci = UciMove::from_ascii(answer.as_bytes()).ok()?;
    let m = uci.to_move(pos).ok()?;
    // shakmaty also reads `e1g1` as a castle when the king stands on e1;
    // in Chess960 mode only KxR counts.
    (UciMove::from_move(m, CastlingMode::Chess960).to_string() == answer).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    #[test]
    fn castle_answers_are_told_apart() {
        let pos = parse_position("4k3/8/8/8/8/8/8/R3K2R w HA - 0 1").unwrap();
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(
            castle_notations(castle),
            ("e1h1".to_string(), "e1g1".to_string())
        );
        assert_eq!(classify(&pos, castle, "e1h1"), Answer::CastleKxR);
        assert_eq!(classify(&pos, castle, "e1g1"), Answer::CastleKingSquares);
        assert_eq!(
            classify(&pos, castle, "e1f1"),
            Answer::OtherLegal("e1f1".into())
        );
        assert_eq!(
            classify(&pos, castle, "e1e3"),
            Answer::Illegal("e1e3".into())
        );
        assert_eq!(
            classify(&pos, castle, "(none)"),
            Answer::Illegal("(none)".into())
        );
        assert!(!is_legal(&pos, "e1g1"), "king-two-squares is not KxR");
        assert!(is_legal_any_notation(&pos, "e1g1"));
        assert!(!is_legal_any_notation(&pos, "e1e3"));
        assert!(is_legal(&pos, "e1a1"));
    }
}
