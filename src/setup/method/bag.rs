//! What both bag methods share: a full bag, a piece taken out onto the next
//! empty square (a1 first), and how the next draw is described.

use shakmaty::Role;

use super::procedure::{Bag, DrawState, Transition};
use super::rank_fix::square;

/// The state before the first draw: a full bag, an empty rank.
pub fn full_bag() -> DrawState {
    DrawState {
        bag: Bag::FULL,
        ..DrawState::default()
    }
}

/// Takes the piece of bag slot `label` (a `role`) out of the bag and puts
/// it on the next square.
pub fn take_onto_next_square(state: &mut DrawState, label: u16, role: Role) -> Transition {
    let slot = usize::from(label);
    let Some(square) = state.slots.get_mut(usize::from(state.stage)) else {
        return Transition::Again; // the rank is full: nothing to place
    };
    *square = Some(role);
    state.bag.take(slot);
    state.stage += 1;
    Transition::Continue
}

/// "the piece for e1": what the next draw decides, for replay errors.
pub fn describe_next_square(state: &DrawState) -> String {
    format!("the piece for {}", square(usize::from(state.stage)))
}
