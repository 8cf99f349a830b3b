//! A child engine: the command that starts it, the process with line I/O
//! (on the caller's thread, through [`crate::platform`]), timeouts and an
//! orderly shutdown, and the UCI client on top.
//!
//! ```no_run
//! use std::time::Duration;
//! use uci960::uci_client::{EngineCommand, UciEngine};
//! use uci960::uci::{GoParams, PositionCommand};
//! let cmd = EngineCommand::new("/usr/games/stockfish");
//! let mut engine = UciEngine::start(&cmd, Duration::from_secs(10))?;
//! if engine.handshake().chess960() {
//!     engine.set_option("UCI_Chess960", "true")?;
//! }
//! engine.new_game()?;
//! engine.is_ready(Duration::from_secs(10))?;
//! engine.position(&PositionCommand::fen(
//!     "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", vec![]))?;
//! let result = engine.go(&GoParams::nodes(2000), Duration::from_secs(10))?;
//! println!("{:?} after {:?}", result.bestmove, result.elapsed);
//! engine.quit();
//! # Ok::<(), uci960::uci_client::EngineError>(())
//! ```

pub mod client;
pub mod command;
pub mod process;

pub use client::{EngineError, Handshake, SearchCollector, SearchResult, UciEngine};
pub use command::EngineCommand;
pub use process::{
    EngineEvent, EngineProcess, ExitReport, RecvError, SpawnError, SpawnOptions, StopStep,
    describe_status,
};
