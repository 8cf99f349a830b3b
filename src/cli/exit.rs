//! How a command's error ends the process: the message (printed once) and
//! the exit status, the same for every command.
//!
//! | status | meaning |
//! |---|---|
//! | 0 | done |
//! | 1 | a check or a result failed (returned by the command itself) |
//! | 2 | usage or input error: a bad flag, file, line or value |
//! | 3 | runtime failure: an engine could not start or broke off, stdout or an output file could not be written (disk full) |
//! | 128+N | ended by signal N (returned by the command itself); 141 when stdout's reader went away |
//!
//! The statuses are decided here and nowhere else: the library returns
//! typed errors, never a status.
//!
//! An error is classified by the first typed error in its chain, outermost
//! first: an input error of a user file is 2 even though an I/O error sits
//! under it, an engine or output failure is 3, a bare I/O error (writing a
//! PGN or JSON file) is 3, anything else (parse and validation errors) is 2.

use std::process::ExitCode;

use crate::conformance::driver::DriverError;
use crate::engines::SetupError;
use crate::files::{LockError, ReplaceError};
use crate::output::{StdoutError, WriteError};
use crate::proxy::run::ProxyEnd;
use crate::tournament::merge::MergeError;
use crate::tournament::progress::OutputError;
use crate::tournament::session::TournamentError;
use crate::tournament::state::StateError;
use crate::uci_client::{EngineError, SpawnError};

/// Usage or input error.
pub const USAGE: u8 = 2;
/// Runtime failure.
pub const RUNTIME: u8 = 3;
/// 128 + SIGPIPE: stdout's reader went away.
pub const STDOUT_CLOSED: u8 = 141;

/// The exit status for an error.
pub fn code_of(err: &anyhow::Error) -> u8 {
    for cause in err.chain() {
        let stdout = match cause.downcast_ref::<WriteError>() {
            Some(WriteError::Stdout(out)) => Some(out),
            _ => cause.downcast_ref::<StdoutError>(),
        };
        if let Some(out) = stdout {
            return match out {
                StdoutError::Closed => STDOUT_CLOSED,
                StdoutError::Failed(_) => RUNTIME,
            };
        }
        if cause.is::<crate::files::FileError>() {
            return USAGE;
        }
        if cause.is::<EngineError>()
            || cause.is::<SpawnError>()
            || cause.is::<DriverError>()
            || cause.is::<std::io::Error>()
        {
            return RUNTIME;
        }
    }
    USAGE
}

/// The status of a tournament that could not run: 2 for what the user can
/// fix in the settings or input files, 3 for runtime failures (an engine
/// that cannot start, a disk that is full).
pub fn of_tournament(err: &TournamentError) -> u8 {
    use TournamentError as T;
    match err {
        T::Setup(SetupError::NoChess960(_)) => USAGE,
        T::Setup(SetupError::Start { .. }) => RUNTIME,
        T::Opening(_) | T::Resume(_) | T::ShardCount { .. } => USAGE,
        T::State(StateError::Damaged { .. } | StateError::Read(_)) => USAGE,
        T::Collision(_) | T::Lock(LockError::Held { .. }) | T::Replace(_) => USAGE,
        T::Output(OutputError::Append(e)) if e.is_usage() => USAGE,
        T::State(_) | T::Output(_) | T::Lock(_) => RUNTIME,
    }
}

/// The status of a proxy that ended: 0 when the GUI quit, 1 when the
/// engine ended on its own, 128 + the signal, 2 for refused settings, 3
/// when the engine could not start.
pub fn of_proxy(end: ProxyEnd) -> ExitCode {
    ExitCode::from(match end {
        ProxyEnd::Done => 0,
        ProxyEnd::EngineEnded => 1,
        ProxyEnd::Interrupted(sig) => crate::platform::interrupt::exit_code(sig),
        ProxyEnd::Refused => USAGE,
        ProxyEnd::EngineFailed => RUNTIME,
    })
}

/// The status of a merge that could not be done: 3 when the merged PGN
/// could not be written, 2 for everything about the inputs (and an output
/// that is not a regular file).
pub fn of_merge(err: &MergeError) -> u8 {
    match err {
        MergeError::Write(ReplaceError::Io { .. }) => RUNTIME,
        _ => USAGE,
    }
}

/// Whether uci960 itself ran out of resources (descriptors, threads,
/// memory, disk) somewhere in `err`'s chain (issue 21): such a run ends
/// with 3 and charges no engine.
pub fn out_of_resources(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(err);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && crate::platform::is_out_of_resources(io)
        {
            return true;
        }
        cause = e.source();
    }
    false
}

/// The error as one line: each cause once, joined by `: `. A cause whose
/// text its parent already shows (an error that prints its source inline)
/// is not repeated.
pub fn message(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if part.is_empty() || text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// Prints the error (unless stdout's reader went away: nothing to say)
/// and gives the exit status.
pub fn report(err: &anyhow::Error) -> ExitCode {
    let code = code_of(err);
    if code != STDOUT_CLOSED {
        // stderr itself may be gone or full: nothing more to do then.
        crate::output::note(message(err));
    }
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[derive(Debug, thiserror::Error)]
    #[error("outer says: {0}")]
    struct Inline(#[source] std::fmt::Error);

    #[test]
    fn a_cause_shown_inline_is_not_repeated() {
        let err = anyhow::Error::new(Inline(std::fmt::Error)).context("reading book");
        assert_eq!(
            message(&err),
            "reading book: outer says: an error occurred when formatting an argument"
        );
    }

    #[test]
    fn classes() {
        let closed = anyhow::Error::new(StdoutError::Closed).context("show");
        assert_eq!(code_of(&closed), STDOUT_CLOSED);
        let closed = anyhow::Error::new(WriteError::Stdout(StdoutError::Closed));
        assert_eq!(code_of(&closed), STDOUT_CLOSED);
        let full = anyhow::Error::new(StdoutError::from(std::io::Error::from(
            std::io::ErrorKind::StorageFull,
        )));
        assert_eq!(code_of(&full), RUNTIME);
        let io: anyhow::Result<()> = Err(std::io::Error::other("disk")).context("writing x.pgn");
        assert_eq!(code_of(&io.unwrap_err()), RUNTIME);
        assert_eq!(code_of(&anyhow::anyhow!("--games: not a number")), USAGE);
    }
}
