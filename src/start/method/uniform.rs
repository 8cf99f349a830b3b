//! The computer's methods: `random` (SP uniform in 0..959) and `dfrc`
//! (Double Fischer Random: white and black SP independent and uniform).

use super::procedure::{DrawState, Event, Notes, Procedure, Transition};
use crate::start::{POSITIONS, StartPosition};

/// Uniform over the 960 (`double = false`) or over the 960 × 960 pairs.
#[derive(Clone, Copy, Debug)]
pub struct Uniform {
    pub double: bool,
}

impl Uniform {
    fn numbers_needed(&self) -> u8 {
        if self.double { 2 } else { 1 }
    }
}

impl Procedure for Uniform {
    fn start(&self) -> DrawState {
        DrawState::default()
    }

    fn event(&self, state: &DrawState) -> Option<Event> {
        (state.stage < self.numbers_needed()).then(|| Event::number(POSITIONS))
    }

    fn finish(&self, state: &DrawState) -> (StartPosition, Notes) {
        let [white, black] = state.numbers;
        let black = if self.double { black } else { white };
        // Numbers come from Event::number(960), so they are in range.
        let position = StartPosition::from_sp_pair(u32::from(white), u32::from(black))
            .unwrap_or_else(|_| unreachable!("number out of range"));
        (position, Notes::default())
    }

    fn apply(&self, state: &mut DrawState, label: u16) -> Transition {
        if label >= POSITIONS {
            return Transition::Again;
        }
        state.numbers[usize::from(state.stage.min(1))] = label;
        state.stage += 1;
        Transition::Continue
    }

    fn describe(&self, state: &DrawState) -> String {
        match (self.double, state.stage) {
            (true, 0) => "White's number".into(),
            (true, _) => "Black's number".into(),
            _ => "the number".into(),
        }
    }
}
