//! A game under arbitration: legality of engine moves (shakmaty is the
//! arbiter), the rules that end a game, adjudication, clocks and PGN.

pub mod adjudication;
pub mod arbiter;
pub mod clock;
pub mod pgn;
pub mod termination;

pub use arbiter::{CastlingPolicy, Game};
pub use clock::{Clock, Limits, TimeControl};
pub use termination::{GameResult, Outcome, Termination};
