//! A tournament as it goes: the progress bar on stderr, the live
//! `Started game …`/`Finished game …` lines, and [`OutputError`], a failed
//! write of the files kept after every game (the PGN, appended whole
//! through [`crate::files::Appender`]; the JSON summary, replaced whole,
//! laid out by [`crate::output::json`]): the tournament stops at once
//! (exit 3) and keeps what was already written.

use std::path::PathBuf;

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
    #[error(transparent)]
    Document(#[from] crate::output::WriteError),
    #[error(transparent)]
    Append(#[from] crate::files::AppendError),
    #[error(transparent)]
    Replace(#[from] crate::files::ReplaceError),
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
