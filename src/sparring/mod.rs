//! The built-in engine (`uci960 engine`): a small, honest Chess960 UCI
//! engine on shakmaty, the default wherever a command needs an engine.
//!
//! One idea per module:
//! * [`eval`]: material and piece-square evaluation.
//! * [`search`]: iterative deepening alpha-beta with quiescence.
//! * [`tt`]: the transposition table.
//! * [`time`]: the time manager for clock-based `go`.
//! * [`perft`]: `go perft` divide.
//! * [`moves`]: UCI move text in both castling notations.
//! * [`go`]: reading `go` commands.
//! * [`session`]: the UCI protocol as a sans-IO state machine.
//! * [`driver`]: the threads and pipes around the session.
//!
//! See docs/ENGINE.md for the UCI surface and the limits.

pub mod driver;
pub mod eval;
pub mod go;
pub mod moves;
pub mod perft;
pub mod search;
pub mod session;
pub mod time;
pub mod tt;

/// The command that runs the built-in engine as a child process: this very
/// executable with the argument `engine`. Commands that take an engine use
/// it when none is given, so the built-in engine is driven over the same UCI
/// path as any other. (Only meaningful inside the `uci960` binary; tests use
/// the binary's path instead.)
pub fn default_engine_command() -> std::io::Result<(std::path::PathBuf, Vec<String>)> {
    Ok((std::env::current_exe()?, vec!["engine".to_string()]))
}
