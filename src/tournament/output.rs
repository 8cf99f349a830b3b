//! Where a tournament's results go: the PGN (games appended whole, flushed
//! and fsynced, through [`crate::files::Appender`]), the JSON summary
//! (replaced after every game, [`crate::files::replace`]), and the
//! progress bar on stderr. A failed write is an [`OutputError`]: the
//! tournament stops at once (exit 3) and keeps what was already written.

use std::path::{Path, PathBuf};

use crate::game::GameEnd;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A write that failed (runtime error, exit 3).
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot open {what} {path}: {source}")]
    Open {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{what} {path} is a FIFO that no process reads")]
    NoReader { what: &'static str, path: PathBuf },
    #[error("cannot write {what} {path}: {source}; the tournament stops (finished games are kept)")]
    Write {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Append(#[from] crate::files::AppendError),
    #[error(transparent)]
    Replace(#[from] crate::files::ReplaceError),
}

/// Writes the JSON summary, replacing the whole file atomically (a reader
/// polling it sees the old summary or the new, never an empty file).
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), OutputError> {
    let mut text = serde_json::to_string_pretty(value).map_err(|e| OutputError::Write {
        what: "JSON file",
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })?;
    text.push('\n');
    crate::files::replace("JSON file", path, text.as_bytes())?;
    Ok(())
}

/// The progress bar (hidden when not wanted).
pub struct Progress(ProgressBar);

impl Progress {
    pub fn new(show: bool, total: u64, done: u64, message: String) -> Progress {
        if !show {
            return Progress(ProgressBar::hidden());
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {elapsed_precise}  {msg}")
        {
            bar.set_style(style);
        }
        bar.set_position(done);
        bar.set_message(message);
        Progress(bar)
    }

    pub fn game_done(&self, message: String) {
        self.0.inc(1);
        self.0.set_message(message);
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }

    /// Runs `f` (which prints a line) with the bar cleared, then redraws
    /// it, so that lines and bar do not mix on a terminal.
    pub fn suspend(&self, f: impl FnOnce()) {
        self.0.suspend(f)
    }
}

/// `Started game 3 of 20 (A vs B)`, as cutechess-cli and fastchess print
/// it (`of at most 24` where the total is a bound: a knockout).
pub fn started_line(number: u64, total: u64, exact: bool, white: &str, black: &str) -> String {
    let bound = if exact { "" } else { "at most " };
    format!("Started game {number} of {bound}{total} ({white} vs {black})")
}

/// `Finished game 3 (A vs B): 1-0 {White mates}`, as cutechess-cli and
/// fastchess print it.
pub fn finished_line(number: u64, white: &str, black: &str, end: &GameEnd) -> String {
    format!(
        "Finished game {number} ({white} vs {black}): {} {{{}}}",
        end.result.pgn(),
        end.detail
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_an_error_naming_the_file() {
        let Ok(mut w) = crate::files::Appender::open("PGN file", Path::new("/dev/full")) else {
            return; // no /dev/full here
        };
        let err = w.append("[Event \"x\"]\n\n*\n\n").unwrap_err().to_string();
        assert!(err.contains("/dev/full"), "{err}");
        assert_eq!(w.len(), 0);
        assert!(write_json(Path::new("/dev/full"), &serde_json::json!({})).is_err());
    }
}
