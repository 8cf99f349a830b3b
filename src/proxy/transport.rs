//! How the proxy reaches its engine: a child process over pipes, or a
//! remote engine over TLS ([`crate::remote::client`]). Both hand the loop
//! in [`super::run`] the same two pipes, so the session and every proxy
//! feature run unchanged on this side of the network.

use std::process::{ChildStdin, ChildStdout};
use std::time::Duration;

use crate::remote::client::{self, Bridge, ClientSettings};
use crate::uci_client::process::{SpawnOptions, StderrMode};
use crate::uci_client::{EngineCommand, EngineProcess};

/// The engine the proxy is for.
#[derive(Clone, Debug)]
pub enum Target {
    Local(EngineCommand),
    Remote(ClientSettings),
}

impl Target {
    /// For messages and the log's `{engine}`.
    pub fn display(&self) -> String {
        match self {
            Target::Local(cmd) => cmd.display(),
            Target::Remote(r) => r.address.to_string(),
        }
    }
}

/// A started engine.
pub enum Transport {
    Local(EngineProcess),
    Remote { bridge: Bridge, name: String },
}

/// What [`Transport::start`] gives: the transport and the engine's pipes.
pub type Started = (Transport, ChildStdin, ChildStdout);

impl Transport {
    /// Starts the process or connects; the error is for the GUI to see.
    pub fn start(target: &Target) -> Result<Started, String> {
        match target {
            Target::Local(cmd) => {
                let opts = SpawnOptions {
                    stderr: StderrMode::Forward,
                    die_with_parent: true,
                };
                let mut engine = EngineProcess::spawn_with(cmd, opts).map_err(|e| e.to_string())?;
                let (stdin, stdout) = engine
                    .take_pipes()
                    .ok_or("the engine was started without pipes to talk to")?;
                Ok((Transport::Local(engine), stdin, stdout))
            }
            Target::Remote(settings) => {
                let connected = client::connect(settings).map_err(|e| e.to_string())?;
                if let Some(note) = &connected.pinned_now {
                    crate::platform::diag::line(&format!("uci960 proxy: {note}"));
                }
                let (bridge, stdin, stdout) =
                    client::bridge(connected).map_err(|e| format!("cannot start the link: {e}"))?;
                let name = settings.address.to_string();
                Ok((Transport::Remote { bridge, name }, stdin, stdout))
            }
        }
    }

    /// The engine's program or address (for the log).
    pub fn program(&self) -> &str {
        match self {
            Transport::Local(e) => e.program(),
            Transport::Remote { name, .. } => name,
        }
    }

    /// Ends the engine after `quit` went out (see
    /// [`EngineProcess::shutdown`]); says how it ended.
    pub fn shutdown(&mut self, grace: Duration) -> String {
        match self {
            Transport::Local(e) => {
                let report = e.shutdown(grace);
                format!("{} ({:?})", report.describe(), report.step)
            }
            Transport::Remote { bridge, .. } => bridge.shutdown(grace),
        }
    }

    /// The engine closed its output: how it ended, waiting up to `grace`
    /// (then killing it).
    pub fn reap(&mut self, grace: Duration) -> String {
        match self {
            Transport::Local(e) => match e.wait_timeout(grace) {
                Some(s) => crate::platform::describe_status(s),
                None => {
                    e.kill();
                    "closed its output and was killed".into()
                }
            },
            Transport::Remote { bridge, .. } => bridge
                .wait_end(grace)
                .unwrap_or_else(|| "closed its output".into()),
        }
    }

    /// Kills it (what is left of a process group; a remote link is cut).
    pub fn kill(&mut self) {
        match self {
            Transport::Local(e) => {
                e.kill();
            }
            Transport::Remote { bridge, .. } => bridge.kill(),
        }
    }
}
