//! The terminal's two streams: [`emit`], the one way a command writes to
//! stdout, and [`note`], a line for the user on stderr.
//!
//! Commands never use `print!`: it panics when stdout fails. [`emit`] turns
//! a failed write into a [`StdoutError`] that ends the command like any
//! other error, and the CLI decides the status (`cli::exit`):
//! * the reader went away (`| head -1`, EPIPE): the command ends quietly
//!   with status 141, what the shell reports for a filter killed by SIGPIPE
//!   (`cat`, `seq`), so a pipeline never mistakes a cut-off run for a whole
//!   one and never sees an error message for it;
//! * any other failure (`> /dev/full`, disk full, I/O error): a message and
//!   status 3 (a runtime failure).

use std::io::Write as _;

/// Stdout could not take a command's output.
#[derive(Debug, thiserror::Error)]
pub enum StdoutError {
    /// The reader closed the pipe (EPIPE).
    #[error("stdout was closed by its reader")]
    Closed,
    /// Anything else: a full disk, an I/O error.
    #[error("cannot write to stdout: {0}")]
    Failed(std::io::Error),
}

impl From<std::io::Error> for StdoutError {
    fn from(e: std::io::Error) -> StdoutError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            StdoutError::Closed
        } else {
            StdoutError::Failed(e)
        }
    }
}

/// Writes `text` to stdout and flushes it (so that a full disk is seen
/// here, not lost in an ignored flush at exit).
pub fn emit(text: &str) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// A note for the user on stderr (`uci960: …`). Never panics nor blocks:
/// a closed or full stderr loses the note (counted), not the command
/// ([`crate::platform::diag`]; `eprintln!` would panic).
pub fn note(text: impl std::fmt::Display) {
    crate::platform::diag::line(&format!("uci960: {text}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_told_apart_from_a_full_disk() {
        let closed = StdoutError::from(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(matches!(closed, StdoutError::Closed));
        let full = StdoutError::from(std::io::Error::from(std::io::ErrorKind::StorageFull));
        assert!(
            full.to_string().starts_with("cannot write to stdout: "),
            "{full}"
        );
    }
}
