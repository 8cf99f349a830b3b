//! The [`Driver`] for a real engine process, on the UCI client of
//! [`crate::uci_client`]: handshake, `UCI_Chess960`, `ucinewgame`/`isready`,
//! `go depth`, and `go perft` read as a divide.
//!
//! An engine without perft usually treats `go perft N` as a plain `go`
//! and answers `bestmove`; one that starts an endless search instead gets
//! `stop` after a few seconds without a divide line. Either way the answer
//! is "no perft".
//!
//! [`Driver::restart`] ends the process (`quit`, SIGTERM, SIGKILL) and
//! starts a new one with the same command, options and handshake.

use std::time::{Duration, Instant};

use crate::engines::{Chess960, EngineSpec, SetupError, start_engine};
use crate::uci::GoParams;
use crate::uci_client::{EngineError, EngineEvent, RecvError, UciEngine};

use super::driver::{Driver, DriverError};
use super::perft::{Divide, DivideReader};

/// How long the handshake and `isready` may take.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a `go depth N` of the suite may take by default (`--timeout`):
/// depth 3 takes milliseconds; an engine silent this long has stalled.
pub const SEARCH_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one `go perft N` may take in total.
pub const PERFT_TIMEOUT: Duration = Duration::from_secs(300);
/// How long to wait for the first divide line before deciding that the
/// engine has no perft.
pub const PERFT_FIRST_LINE: Duration = Duration::from_secs(5);

pub struct EngineDriver {
    engine: UciEngine,
    declared: bool,
    spec: EngineSpec,
    /// How long a `go depth N` may take before the engine counts as stalled.
    search_timeout: Duration,
}

fn driver_error(err: EngineError) -> DriverError {
    match err {
        EngineError::Timeout {
            waiting_for, after, ..
        } => DriverError::Timeout {
            sent: format!("(waiting for {waiting_for})"),
            seconds: after.as_secs(),
        },
        other => DriverError::Exited(other.to_string()),
    }
}

impl EngineDriver {
    /// Starts the engine through the one starter ([`crate::engines::start`]);
    /// turns `UCI_Chess960` on when the engine declares it, and starts it
    /// anyway when it does not (the suite reports on that).
    pub fn start(spec: &EngineSpec, search_timeout: Duration) -> Result<EngineDriver, EngineError> {
        let (engine, declared) = Self::launch(spec)?;
        Ok(EngineDriver {
            engine,
            declared,
            spec: spec.clone(),
            search_timeout,
        })
    }

    fn launch(spec: &EngineSpec) -> Result<(UciEngine, bool), EngineError> {
        let engine = start_engine(spec, STARTUP_TIMEOUT, Chess960::IfDeclared)
            .map_err(SetupError::into_engine_error)?;
        let declared = engine.handshake().chess960();
        Ok((engine, declared))
    }

    /// `quit`, then terminate and kill if needed; always reaped.
    pub fn quit(self) {
        self.engine.quit();
    }

    fn next_line(&mut self, deadline: Instant) -> Result<Option<String>, DriverError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            return match self.engine.process_mut().recv_timeout(left) {
                Ok(EngineEvent::Line(bytes)) => {
                    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
                }
                // Skipped: no answer the suite reads is that long.
                Ok(EngineEvent::LineTooLong { .. }) => continue,
                Ok(EngineEvent::Eof) => Err(DriverError::Exited("end of output".into())),
                Ok(EngineEvent::ReadError(e) | EngineEvent::OutOfResources(e)) => {
                    Err(DriverError::Exited(e))
                }
                Err(RecvError::Timeout) => Ok(None),
                Err(RecvError::Disconnected) => Err(DriverError::Exited("output closed".into())),
                Err(e @ RecvError::Interrupted(_)) => Err(DriverError::Exited(e.to_string())),
            };
        }
    }
}

impl Driver for EngineDriver {
    fn name(&self) -> String {
        self.engine.name().to_string()
    }

    fn declares_chess960(&self) -> bool {
        self.declared
    }

    fn handshake_lines(&self) -> Vec<String> {
        let mut lines = vec!["uci".to_string()];
        if self.declared {
            lines.push("setoption name UCI_Chess960 value true".into());
        }
        for (name, value) in &self.spec.options {
            lines.push(format!("setoption name {name} value {value}"));
        }
        lines
    }

    fn new_game(&mut self) -> Result<(), DriverError> {
        self.engine.new_game().map_err(driver_error)?;
        self.engine.is_ready(STARTUP_TIMEOUT).map_err(driver_error)
    }

    fn best_move(&mut self, position: &str, go: &str) -> Result<String, DriverError> {
        self.engine.send(position).map_err(driver_error)?;
        let params = GoParams::parse(go);
        let result = self
            .engine
            .go(&params, self.search_timeout)
            .map_err(|e| match e {
                EngineError::Timeout { .. } => DriverError::Timeout {
                    sent: go.to_string(),
                    seconds: self.search_timeout.as_secs(),
                },
                other => driver_error(other),
            })?;
        Ok(result.bestmove.unwrap_or_else(|| "(none)".into()))
    }

    fn perft(&mut self, position: &str, depth: u32) -> Result<Option<Divide>, DriverError> {
        self.engine.send(position).map_err(driver_error)?;
        let go = format!("go perft {depth}");
        self.engine.send(&go).map_err(driver_error)?;
        let started = Instant::now();
        let mut reader = DivideReader::new();
        let mut seen_divide = false;
        loop {
            let deadline = if seen_divide {
                started + PERFT_TIMEOUT
            } else {
                started + PERFT_FIRST_LINE
            };
            match self.next_line(deadline)? {
                Some(line) => {
                    if line.starts_with("bestmove") {
                        return Ok(None);
                    }
                    match reader.feed(&line) {
                        Ok(Some(divide)) => return Ok(Some(divide)),
                        Ok(None) => {
                            seen_divide |= line.contains(':') && !line.starts_with("info");
                        }
                        Err(e) => return Err(DriverError::Protocol(e.to_string())),
                    }
                }
                None if seen_divide => {
                    return Err(DriverError::Timeout {
                        sent: go,
                        seconds: PERFT_TIMEOUT.as_secs(),
                    });
                }
                None => {
                    // Probably searching: stop it and take the bestmove.
                    self.engine
                        .stop(self.search_timeout)
                        .map_err(driver_error)?;
                    return Ok(None);
                }
            }
        }
    }

    fn restart(&mut self) -> Result<(), DriverError> {
        let (engine, declared) = Self::launch(&self.spec)
            .map_err(|e| DriverError::Exited(format!("cannot restart the engine: {e}")))?;
        std::mem::replace(&mut self.engine, engine).quit();
        self.declared = declared;
        Ok(())
    }
}
