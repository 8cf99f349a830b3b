//! Where a tournament's results go: the PGN (games appended whole, flushed
//! and fsynced), the JSON summary (rewritten after every game), and the
//! progress bar on stderr. A failed write is an [`OutputError`]: the
//! tournament stops at once (exit 3) and keeps what was already written.

use std::fs::{File, OpenOptions};

use crate::platform::fs::open_for_writing;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::game::Outcome;
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
}

/// Why an output file could not be opened; a FIFO nobody reads is said
/// plainly (the open does not wait for a reader: see
/// [`crate::platform::fs::open_for_writing`]).
fn open_error(what: &'static str, path: &Path, source: std::io::Error) -> OutputError {
    let path = path.to_path_buf();
    if crate::platform::fs::is_fifo_without_reader(&source) {
        OutputError::NoReader { what, path }
    } else {
        OutputError::Open { what, path, source }
    }
}

/// The PGN file, appended to one whole game at a time.
pub struct PgnWriter {
    path: PathBuf,
    file: File,
    /// File length after the last game written.
    len: u64,
}

impl PgnWriter {
    /// Opens (creates) `path` for appending. `len` is its length now.
    pub fn open(path: &Path) -> Result<PgnWriter, OutputError> {
        let file = open_for_writing(OpenOptions::new().create(true).append(true), path)
            .map_err(|source| open_error("PGN file", path, source))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok(PgnWriter {
            path: path.to_path_buf(),
            file,
            len,
        })
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends one game's text, then flushes and fsyncs it (the state file
    /// written next must never count a game the disk does not hold).
    pub fn write_game(&mut self, text: &str) -> Result<(), OutputError> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .and_then(|_| match self.file.sync_data() {
                // Character devices and pipes cannot be synced.
                Err(e) if crate::platform::fs::is_unsyncable(&e) => Ok(()),
                other => other,
            })
            .map_err(|source| OutputError::Write {
                what: "PGN file",
                path: self.path.clone(),
                source,
            })?;
        self.len += text.len() as u64;
        Ok(())
    }
}

/// Writes the JSON summary, replacing the file's content each time.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), OutputError> {
    let err = |source| OutputError::Write {
        what: "JSON file",
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(value).map_err(|e| err(std::io::Error::other(e)))?;
    let mut file = open_for_writing(
        OpenOptions::new().create(true).write(true).truncate(true),
        path,
    )
    .map_err(|source| open_error("JSON file", path, source))?;
    file.write_all(text.as_bytes())
        .and_then(|_| file.write_all(b"\n"))
        .and_then(|_| file.flush())
        .map_err(err)
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
pub fn finished_line(number: u64, white: &str, black: &str, outcome: &Outcome) -> String {
    format!(
        "Finished game {number} ({white} vs {black}): {} {{{}}}",
        outcome.result.pgn(),
        outcome.detail
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_an_error_naming_the_file() {
        let Ok(mut w) = PgnWriter::open(Path::new("/dev/full")) else {
            return; // no /dev/full here
        };
        let err = w
            .write_game("[Event \"x\"]\n\n*\n\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("/dev/full"), "{err}");
        assert_eq!(w.len(), 0);
        assert!(write_json(Path::new("/dev/full"), &serde_json::json!({})).is_err());
    }
}
