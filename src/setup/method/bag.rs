//! What both bag methods share: a full bag, a piece taken out onto the next
//! empty square (a1 first), and how the next draw is described.

use shakmaty::Role;

use super::procedure::{DrawState, FULL_BAG};
use super::rank_fix::square;

/// The state before the first draw: a full bag, an empty rank.
pub fn full_bag() -> DrawState {
    DrawState {
        bag: FULL_BAG,
        ..DrawState::default()
    }
}

/// `state` with the piece of bag slot `label` (a `role`) taken out of the
/// bag and put on the next square.
pub fn take_onto_next_square(state: &DrawState, label: u16, role: Role) -> DrawState {
    let mut next = *state;
    let slot = usize::from(label);
    next.bag[slot] = next.bag[slot].saturating_sub(1);
    next.slots[usize::from(state.stage)] = Some(role);
    next.stage += 1;
    next
}

/// "the piece for e1": what the next draw decides, for replay errors.
pub fn describe_next_square(state: &DrawState) -> String {
    format!("the piece for {}", square(usize::from(state.stage)))
}
