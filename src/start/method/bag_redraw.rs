//! The first bag method of the founding documents: draw the white pieces
//! from a bag one by one onto a1, b1, … h1. A second bishop that would land
//! on the first bishop's colour goes back into the bag and another piece is
//! drawn for that square. If that bishop is the only piece left, there is no
//! way on and the whole draw starts again (a restart). With the rank full,
//! a king outside its rooks swaps with the closer rook.
//!
//! Counting: every piece taken out of the bag is one event, including one
//! put back and the lone bishop taken out just before a restart (someone
//! reaches into the bag and looks at it).

use shakmaty::Role;

use super::bag::{BagRules, RankFix, first_bishop_file, piece, take_onto_next_square};
use super::procedure::{DrawState, Transition};
use super::rank_fix::king_between_rooks;

/// The redraw bag method.
#[derive(Clone, Copy, Debug)]
pub struct BagRedraw;

impl BagRules for BagRedraw {
    const FIXES: &'static [RankFix] = &[king_between_rooks];

    fn draw(&self, state: &mut DrawState, label: u16) -> Transition {
        let square = usize::from(state.stage);
        if piece(label) == Some(Role::Bishop)
            && let Some(first) = first_bishop_file(&state.slots)
            && first % 2 == square % 2
        {
            let left = state.bag.total();
            return if left > 1 {
                Transition::Again
            } else {
                Transition::Restart
            };
        }
        take_onto_next_square(state, label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::start::method::procedure::{Effect, replay, split_tokens};

    #[test]
    fn a_same_colour_bishop_goes_back() {
        // B on a1 (dark), then B for b1 is fine (light): no redraw, no swap.
        let run = replay(&BagRedraw, &split_tokens("BBNNRKRQ")).unwrap();
        assert_eq!(run.position.white.to_string(), "BBNNRKRQ");
        // B on a1, N on b1, B for c1 (dark) goes back, Q instead.
        let run = replay(&BagRedraw, &split_tokens("BNBQBRKRN")).unwrap();
        assert_eq!(run.events[2].effect, Effect::Again);
        assert_eq!(run.position.white.to_string(), "BNQBRKRN");
    }

    #[test]
    fn a_lone_wrong_bishop_restarts() {
        // h1 is light; the first bishop on b1 is light: the last bishop
        // cannot go there, so the draw starts over.
        let tokens = split_tokens("R B N N R K Q B R N B Q K B R N");
        let run = replay(&BagRedraw, &tokens).unwrap();
        assert_eq!(run.restarts, 1);
        assert_eq!(run.position.white.to_string(), "RNBQKBRN");
    }

    #[test]
    fn a_missing_piece_is_named() {
        let err = replay(&BagRedraw, &split_tokens("Q Q")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("draw 2 is 'Q': no such piece left in the bag"),
            "{err}"
        );
    }
}
