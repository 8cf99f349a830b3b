//! The second bag method of the founding documents: draw all eight pieces
//! onto a1..h1. If the bishops stand on the same colour, swap the leftmost
//! of the pairs a1-b1, c1-d1, e1-f1 that holds a bishop. If the king is not
//! between its rooks, swap it with the closer rook.

use shakmaty::Role;

use super::bag::{BagRules, RankFix, first_bishop_file};
use super::rank_fix::{Note, king_between_rooks};

/// The swap bag method.
#[derive(Clone, Copy, Debug)]
pub struct BagSwap;

impl BagRules for BagSwap {
    const FIXES: &'static [RankFix] = &[bishops_onto_opposite_colours, king_between_rooks];
}

/// Swaps the leftmost pair among a1-b1, c1-d1, e1-f1 that holds a bishop,
/// when both bishops stand on one colour.
fn bishops_onto_opposite_colours(slots: &mut [Option<Role>; 8]) -> Option<Note> {
    let first = first_bishop_file(slots)?;
    let second = slots.iter().rposition(|&s| s == Some(Role::Bishop))?;
    if first % 2 != second % 2 {
        return None;
    }
    // The leftmost bishop's pair is the leftmost pair holding a bishop; the
    // same-coloured pair can never sit in g1-h1 alone (those differ).
    let left = first / 2 * 2;
    if left > 4 {
        return None;
    }
    slots.swap(left, left + 1);
    Some(Note::PairSwapped { left: left as u8 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::start::method::procedure::{replay, split_tokens};

    #[test]
    fn same_colour_bishops_swap_the_leftmost_pair() {
        // Bishops on b1 and f1 (both light): pair a1-b1 swaps.
        let run = replay(&BagSwap, &split_tokens("RBNKQBNR")).unwrap();
        assert_eq!(run.position.white.to_string(), "BRNKQBNR");
        assert_eq!(run.notes.len(), 1);
    }

    #[test]
    fn both_fixes_apply_in_order() {
        // Bishops c1, g1 (dark): c1-d1 swaps -> K B; then the king on c1 is
        // left of the rooks on e1/f1 -> swaps with e1.
        let run = replay(&BagSwap, &split_tokens("NQBKRRBN")).unwrap();
        assert_eq!(run.position.white.to_string(), "NQRBKRBN");
        assert_eq!(run.notes.len(), 2);
    }
}
