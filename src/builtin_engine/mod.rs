//! The built-in engine (`uci960 engine`): a small, honest Chess960 UCI
//! engine on shakmaty, the default wherever a command needs an engine.
//!
//! One idea per module:
//! * [`eval`]: material and piece-square evaluation.
//! * [`search`]: iterative deepening alpha-beta with quiescence.
//! * [`tt`]: the transposition table.
//! * [`time`]: the time manager for clock-based `go` (the `go` line itself
//!   is read by [`crate::uci::GoParams`], shared with the proxy and client).
//! * [`perft`]: `go perft` divide.
//! * [`moves`]: UCI move text in both castling notations.
//! * [`session`]: the UCI protocol as a sans-IO state machine.
//! * [`driver`]: the threads and pipes around the session.
//!
//! See docs/ENGINE.md for the UCI surface and the limits.

pub mod driver;
pub mod eval;
pub mod moves;
pub mod perft;
pub mod search;
pub mod session;
pub mod time;
pub mod tt;
