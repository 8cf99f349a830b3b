//! What an engine's `bestmove` means in a position where a castle was
//! expected (or must not be played): the exact KxR move, the castle in the
//! king's-destination notation of standard UCI (`e1g1`, a notation
//! failure, not an illegal move), another legal move, or an illegal one.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

use crate::notation::castling::{
    CastlingNotation, MoveError, Reading, king_destination_text, read_move,
};

/// The two ways to write a castle: `(KxR, king to its destination)`.
pub fn castle_notations(castle: Move) -> (String, String) {
    let kxr = UciMove::from_chess960(castle).to_string();
    let standard = king_destination_text(castle).unwrap_or_else(|| kxr.clone());
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

/// Reads `answer` in `pos` against `castle`, by the crate's one reading
/// rule ([`read_move`]) in either notation: the suite tells a castle written
/// as the king's destination (a notation failure) from a missed castle. The
/// one ambiguous text, a king step that is also the castle's king
/// destination (K f1, R h1: `f1g1`), counts as that castle in
/// king-destination notation: the position asks for the castle, and a
/// standard-UCI engine means it so.
pub fn classify(pos: &Chess, castle: Move, answer: &str) -> Answer {
    match read_move(pos, answer, CastlingNotation::KingTwoSquares) {
        Ok(Reading { mv, written }) if mv == castle => match written {
            CastlingNotation::KingTakesRook => Answer::CastleKxR,
            CastlingNotation::KingTwoSquares => Answer::CastleKingSquares,
        },
        Err(MoveError::Ambiguous(_)) if castle_notations(castle).1 == answer => {
            Answer::CastleKingSquares
        }
        Ok(_) | Err(MoveError::Ambiguous(_)) => Answer::OtherLegal(answer.to_string()),
        Err(_) => Answer::Illegal(answer.to_string()),
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
    read_move(pos, answer, CastlingNotation::KingTakesRook).is_ok()
}

/// The legal move `answer` names in KxR notation, if any.
pub fn legal_move(pos: &Chess, answer: &str) -> Option<Move> {
    match read_move(pos, answer, CastlingNotation::KingTakesRook) {
        Ok(Reading {
            mv,
            written: CastlingNotation::KingTakesRook,
        }) => Some(mv),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use shakmaty::Square;

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

    #[test]
    fn a_king_step_that_is_also_the_castles_destination_is_the_castle() {
        // K f1, R h1: f1g1 is a legal king step and the castle's king
        // destination; against the expected castle it is the castle.
        let pos = parse_position("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        let castle = Move::Castle {
            king: Square::F1,
            rook: Square::H1,
        };
        assert_eq!(classify(&pos, castle, "f1h1"), Answer::CastleKxR);
        assert_eq!(classify(&pos, castle, "f1g1"), Answer::CastleKingSquares);
        assert_eq!(
            classify(&pos, castle, "f1e1"),
            Answer::OtherLegal("f1e1".into())
        );
    }
}
