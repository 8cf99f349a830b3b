//! The die method of the founding documents, table for table:
//!
//! | throw | places |
//! |---|---|
//! | 1 | dark-square bishop on a1/c1/e1/g1 for 1–4, throw again on 5–6 |
//! | 2 | light-square bishop on b1/d1/f1/h1 for 1–4, again on 5–6 |
//! | 3 | queen on the 1st..6th empty square |
//! | 4 | first knight on the 1st..5th empty square, again on 6 |
//! | 5 | second knight on the 1st..4th empty square, again on 5–6 |
//!
//! Then rook, king, rook fill the three squares left, left to right; Black
//! mirrors White. The rolls 2,3,3,2,3 give SP 518.

use shakmaty::Role;

use super::procedure::{DrawState, Event, Notes, Procedure, Transition};
use crate::start::{BackRank, StartPosition};

/// The die method.
#[derive(Clone, Copy, Debug)]
pub struct Die;

/// For each stage: what it places and how many throws place it (the rest
/// mean "throw again").
const STAGES: [(&str, u16); 5] = [
    ("the dark-square bishop", 4),
    ("the light-square bishop", 4),
    ("the queen", 6),
    ("the first knight", 5),
    ("the second knight", 4),
];

impl Procedure for Die {
    fn start(&self) -> DrawState {
        DrawState::default()
    }

    fn event(&self, state: &DrawState) -> Option<Event> {
        (usize::from(state.stage) < STAGES.len()).then(Event::throw)
    }

    fn finish(&self, state: &DrawState) -> (StartPosition, Notes) {
        let mut slots = state.slots;
        for role in [Role::Rook, Role::King, Role::Rook] {
            if let Some(slot) = slots.iter_mut().find(|s| s.is_none()) {
                *slot = Some(role);
            }
        }
        (StartPosition::mirrored(rank_of(slots)), Notes::default())
    }

    fn apply(&self, state: &mut DrawState, throw: u16) -> Transition {
        let stage = usize::from(state.stage);
        let Some(&(_, placing)) = STAGES.get(stage) else {
            return Transition::Again;
        };
        if throw == 0 || throw > placing {
            return Transition::Again;
        }
        let index = usize::from(throw - 1);
        let (file, role) = match stage {
            0 => (Some(index * 2), Role::Bishop),
            1 => (Some(index * 2 + 1), Role::Bishop),
            2 => (state.nth_empty(index), Role::Queen),
            _ => (state.nth_empty(index), Role::Knight),
        };
        let Some(file) = file else {
            return Transition::Again;
        };
        state.slots[file] = Some(role);
        state.stage += 1;
        Transition::Continue
    }

    fn describe(&self, state: &DrawState) -> String {
        STAGES
            .get(usize::from(state.stage))
            .map(|s| s.0.to_string())
            .unwrap_or_else(|| "nothing".into())
    }
}

/// The back rank of eight filled slots. Callers fill all eight with a valid
/// Chess960 arrangement; the fallback keeps a broken caller from panicking.
pub(super) fn rank_of(slots: [Option<Role>; 8]) -> BackRank {
    let roles = slots.map(|s| s.unwrap_or(Role::Pawn));
    BackRank::from_roles(roles).unwrap_or_else(|_| {
        debug_assert!(false, "method produced an invalid rank {roles:?}");
        BackRank::from_sp(u32::from(crate::start::STANDARD_SP)).unwrap_or_else(|_| unreachable!())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::start::method::procedure::{replay, split_tokens};

    #[test]
    fn rolls_23323_give_the_standard_position() {
        let run = replay(&Die, &split_tokens("2,3,3,2,3")).unwrap();
        assert_eq!(run.position.white.sp(), 518);
    }

    #[test]
    fn throws_again_are_recorded_and_skipped() {
        let run = replay(&Die, &split_tokens("5,6,2,5,3,3,6,2,5,3")).unwrap();
        assert_eq!(run.position.white.sp(), 518);
        assert_eq!(run.events.len(), 10);
    }

    #[test]
    fn bad_rolls_name_the_throw() {
        let err = replay(&Die, &split_tokens("2,7")).unwrap_err();
        assert_eq!(err.to_string(), "throw 2 is '7': a die shows 1 to 6, not 7");
        let err = replay(&Die, &split_tokens("2,3,3")).unwrap_err();
        assert!(
            err.to_string()
                .contains("the first knight still needs a throw"),
            "{err}"
        );
        let err = replay(&Die, &split_tokens("2,3,3,2,3,1")).unwrap_err();
        assert!(
            err.to_string().contains("throw 6 ('1') comes after"),
            "{err}"
        );
    }
}
