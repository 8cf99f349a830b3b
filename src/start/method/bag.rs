//! What both bag methods share, as the [`Procedure`] of every
//! [`BagRules`]: a full bag, a piece taken out onto the next empty square
//! (a1 first), how the next draw is described, and the full rank turned
//! into a position by the method's fixes. A method says only what differs:
//! what happens to a drawn piece and which fixes it applies.

use shakmaty::Role;

use super::procedure::{BAG_ROLES, Bag, DrawState, Event, Procedure, Transition};
use super::rank_fix::{Note, Notes, square};
use crate::start::StartPosition;

/// A fix of a full rank (a swap), with its note when it changed the rank.
pub type RankFix = fn(&mut [Option<Role>; 8]) -> Option<Note>;

/// What one bag method decides.
pub trait BagRules: Send + Sync {
    /// The fixes of the full rank, in order.
    const FIXES: &'static [RankFix];

    /// The effect of drawing the piece `label` names (by default: it goes
    /// onto the next square).
    fn draw(&self, state: &mut DrawState, label: u16) -> Transition {
        take_onto_next_square(state, label)
    }
}

impl<B: BagRules> Procedure for B {
    fn start(&self) -> DrawState {
        full_bag()
    }

    fn event(&self, state: &DrawState) -> Option<Event> {
        next_draw(state)
    }

    fn finish(&self, state: &DrawState) -> (StartPosition, Notes) {
        fixed_position(state, B::FIXES)
    }

    fn apply(&self, state: &mut DrawState, label: u16) -> Transition {
        self.draw(state, label)
    }

    fn describe(&self, state: &DrawState) -> String {
        describe_next_square(state)
    }
}

/// The state before the first draw: a full bag, an empty rank.
pub fn full_bag() -> DrawState {
    DrawState {
        bag: Bag::FULL,
        ..DrawState::default()
    }
}

/// The draw a bag state waits for: the next piece, until the bag is empty.
pub fn next_draw(state: &DrawState) -> Option<Event> {
    (!state.bag.is_empty()).then(|| Event::draw(state.bag))
}

/// The piece a draw label names.
pub fn piece(label: u16) -> Option<Role> {
    BAG_ROLES.get(usize::from(label)).copied()
}

/// Takes the piece `label` names out of the bag and puts it on the next
/// square.
pub fn take_onto_next_square(state: &mut DrawState, label: u16) -> Transition {
    let Some(role) = piece(label) else {
        return Transition::Again; // no such piece: nothing changes
    };
    let slot = usize::from(label);
    let Some(square) = state.slots.get_mut(usize::from(state.stage)) else {
        return Transition::Again; // the rank is full: nothing to place
    };
    *square = Some(role);
    state.bag.take(slot);
    state.stage += 1;
    Transition::Continue
}

/// The file of the leftmost bishop placed so far.
pub fn first_bishop_file(slots: &[Option<Role>; 8]) -> Option<usize> {
    slots.iter().position(|&s| s == Some(Role::Bishop))
}

/// The position of the full rank after `fixes`, in order, with the notes
/// of those that changed it.
pub fn fixed_position(state: &DrawState, fixes: &[RankFix]) -> (StartPosition, Notes) {
    let mut slots = state.slots;
    let mut notes = Notes::default();
    for fix in fixes {
        notes.push(fix(&mut slots));
    }
    (StartPosition::mirrored(super::die::rank_of(slots)), notes)
}

/// "the piece for e1": what the next draw decides, for replay errors.
pub fn describe_next_square(state: &DrawState) -> String {
    format!("the piece for {}", square(usize::from(state.stage)))
}
