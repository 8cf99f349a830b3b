//! The built-in engine (`uci960 engine`): a small, honest Chess960 UCI
//! engine on shakmaty, the default wherever a command needs an engine.
//!
//! ```
//! use uci960::builtin_engine::session::{EngineEffect, EngineSession};
//! let mut engine = EngineSession::new();
//! let printed: Vec<String> = engine
//!     .handle("isready")
//!     .into_iter()
//!     .filter_map(|e| match e { EngineEffect::Print(line) => Some(line), _ => None })
//!     .collect();
//! assert_eq!(printed, ["readyok"]);
//! ```
//!
//! One idea per module:
//! * [`eval`]: material and piece-square evaluation.
//! * [`search`]: iterative deepening alpha-beta with quiescence.
//! * [`tt`]: the transposition table.
//! * [`time`]: the time manager for clock-based `go` (the `go` line itself
//!   is read by [`crate::uci::GoParams`], shared with the proxy and client).
//! * [`perft`]: `go perft` divide.
//! * [`moves`]: writing UCI move text in the session's castling notation
//!   (reading is [`crate::notation::castling::parse_move`]).
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
