//! The computer's methods: `random` (SP uniform in 0..959) and `dfrc`
//! (Double Fischer Random: white and black SP independent and uniform).

use super::procedure::{DrawState, Event, Next, Procedure, Transition};
use crate::setup::{POSITIONS, StartPosition};

/// Uniform over the 960 (`double = false`) or over the 960 × 960 pairs.
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

    fn next(&self, state: &DrawState) -> Next {
        if state.stage < self.numbers_needed() {
            return Next::Event(Event::number(POSITIONS));
        }
        let [white, black] = state.numbers;
        let black = if self.double { black } else { white };
        match StartPosition::from_sp_pair(u32::from(white), u32::from(black)) {
            Ok(pos) => Next::Finished(pos, Vec::new()),
            // Numbers come from Event::number(960), so they are in range.
            Err(_) => unreachable!("number out of range"),
        }
    }

    fn apply(&self, state: &DrawState, label: u16) -> Transition {
        if label >= POSITIONS {
            return Transition::Again;
        }
        let mut next = *state;
        next.numbers[usize::from(state.stage.min(1))] = label;
        next.stage += 1;
        Transition::Continue(next)
    }

    fn describe(&self, state: &DrawState) -> String {
        match (self.double, state.stage) {
            (true, 0) => "White's number".into(),
            (true, _) => "Black's number".into(),
            _ => "the number".into(),
        }
    }
}
