//! The one starter: every command starts an engine here, with one
//! handshake order:
//!
//! 1. `uci`, read until `uciok` (the engine's options and `id name`);
//! 2. `setoption name UCI_Chess960 value true` when the engine declares it
//!    (without it: refused, or — for the conformance suite, which reports
//!    on such engines — left as it is);
//! 3. the user's options, in the order given;
//! 4. `isready`, read until `readyok`.
//!
//! Decided: `UCI_Chess960` before the user's options (the match runner's
//! order since its start; the conformance driver sent it after, and now
//! follows this one). An engine that rebuilds state when the variant
//! changes (some reset their hash or castling notation) then sees the
//! user's options last, as it would in a GUI that sets the variant first.

use std::time::Duration;

use super::spec::EngineSpec;
use crate::uci_client::{EngineError, UciEngine};

/// What to do with an engine that does not declare `UCI_Chess960`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chess960 {
    /// Refuse it: it cannot play Chess960 games (match, book).
    Required,
    /// Start it anyway, without turning the option on (castling-test).
    IfDeclared,
}

/// Why an engine cannot take part at all.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("engine '{0}' does not declare the UCI_Chess960 option; it cannot play Chess960 games")]
    NoChess960(String),
    #[error("cannot start engine '{cmd}': {source}")]
    Start { cmd: String, source: EngineError },
}

impl SetupError {
    /// The start failed because uci960 itself is out of resources (see
    /// [`crate::platform::is_out_of_resources`]): the message, for a run
    /// that must end without charging the engine.
    pub fn runner_failure(&self) -> Option<String> {
        match self {
            SetupError::Start { source, .. } => source.runner_failure(),
            SetupError::NoChess960(_) => None,
        }
    }

    /// The engine's error, whichever way the start failed.
    pub fn into_engine_error(self) -> EngineError {
        match self {
            SetupError::Start { source, .. } => source,
            SetupError::NoChess960(name) => EngineError::Exited {
                engine: name,
                waiting_for: "UCI_Chess960",
                status: "option missing".into(),
            },
        }
    }
}

/// Starts an engine and configures it in the one handshake order (module
/// docs); `timeout` bounds the handshake and `isready`.
pub fn start_engine(
    spec: &EngineSpec,
    timeout: Duration,
    chess960: Chess960,
) -> Result<UciEngine, SetupError> {
    let start_err = |source| SetupError::Start {
        cmd: spec.cmd.display(),
        source,
    };
    let mut e = UciEngine::start(&spec.cmd, timeout).map_err(start_err)?;
    let declared = e.handshake().chess960();
    if !declared && chess960 == Chess960::Required {
        let name = e.name().to_string();
        e.quit();
        return Err(SetupError::NoChess960(name));
    }
    if declared {
        e.set_option("UCI_Chess960", "true").map_err(start_err)?;
    }
    for (n, v) in &spec.options {
        e.set_option(n, v).map_err(start_err)?;
    }
    e.is_ready(timeout).map_err(start_err)?;
    Ok(e)
}
