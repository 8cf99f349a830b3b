//! What the suite needs from an engine, as a trait: the real
//! implementation drives a child process through the UCI client
//! (`crate::uci_client`), the unit tests use an engine made of shakmaty.

use super::diagnosis::{Diagnosis, FailureKind};
use super::perft::Divide;

/// An engine under test, after its `uci` handshake (and, when it declares
/// `UCI_Chess960`, after `setoption name UCI_Chess960 value true`).
pub trait Driver {
    /// What the engine calls itself (`id name`), for the report.
    fn name(&self) -> String;
    /// Whether the handshake listed `option name UCI_Chess960`.
    fn declares_chess960(&self) -> bool;
    /// The lines sent at start-up, for reproducers (`uci`, `setoption …`).
    fn handshake_lines(&self) -> Vec<String>;
    /// `ucinewgame` then `isready` … `readyok`.
    fn new_game(&mut self) -> Result<(), DriverError>;
    /// Sends `position` and `go` and returns the first token after
    /// `bestmove`.
    fn best_move(&mut self, position: &str, go: &str) -> Result<String, DriverError>;
    /// Sends `position` and `go perft depth`; the divide, or `None` when the
    /// engine does not answer `go perft` with one.
    fn perft(&mut self, position: &str, depth: u32) -> Result<Option<Divide>, DriverError>;
    /// Ends the engine process (after a crash, stall or unreadable answer)
    /// and starts a new one with the same handshake. An error means the
    /// engine cannot be started again.
    fn restart(&mut self) -> Result<(), DriverError>;
}

/// The engine failed to answer: the suite records the kind, restarts the
/// engine and goes on (or, with `--fail-fast`, stops).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DriverError {
    #[error("engine did not answer within {seconds} s after '{sent}'")]
    Timeout { sent: String, seconds: u64 },
    #[error("engine exited: {0}")]
    Exited(String),
    #[error("engine answer could not be read: {0}")]
    Protocol(String),
}

impl DriverError {
    pub fn kind(&self) -> FailureKind {
        match self {
            DriverError::Timeout { .. } => FailureKind::Stall,
            DriverError::Exited(_) => FailureKind::Crash,
            DriverError::Protocol(_) => FailureKind::Unreadable,
        }
    }

    pub fn diagnosis(&self) -> Diagnosis {
        match self {
            DriverError::Timeout { .. } => Diagnosis::Stall,
            DriverError::Exited(_) => Diagnosis::Crash,
            DriverError::Protocol(_) => Diagnosis::Unreadable,
        }
    }
}
