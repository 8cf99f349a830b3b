//! Diagnostics on stderr that never block (issue 21): a stderr pipe that
//! nobody reads used to hang the proxy and `match` at their first note,
//! and the signal watchdog with them (it wrote before exiting), so only
//! SIGKILL ended them.
//!
//! [`line`] writes one line only when it can go out at once; otherwise the
//! line is dropped and counted, and the next line that does go out is
//! preceded by `uci960: N lines to stderr were dropped (stderr was not
//! read)`. On POSIX a line is written only after `poll` says stderr takes
//! it (a pipe that polls writable takes a line of up to `PIPE_BUF` bytes
//! without blocking; lines are cut to that). Another writer to the same
//! pipe (an engine sharing our stderr in the proxy) can fill it between
//! the `poll` and the `write`: that window is the one way left to block.
//! On Windows anonymous pipes cannot be polled: stderr is written as
//! before (blocking).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Lines dropped since the last one written.
static DROPPED: AtomicU64 = AtomicU64::new(0);
/// One writer at a time, so the count and its line stay together.
static WRITING: Mutex<()> = Mutex::new(());

/// The longest line written in one piece (Linux's `PIPE_BUF`).
const MAX_LINE: usize = 4096;

/// Writes `text` and a line break to stderr if that does not block;
/// drops it (counted) otherwise. Never panics.
pub fn line(text: &str) {
    // try_lock: a thread stuck here must not stop another (the watchdog).
    let _guard = match WRITING.try_lock() {
        Ok(g) => Some(g),
        Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => None,
    };
    let dropped = DROPPED.load(Ordering::SeqCst);
    if dropped > 0 {
        let note = format!(
            "uci960: {dropped} line{} to stderr {} dropped (stderr was not read)\n",
            if dropped == 1 { "" } else { "s" },
            if dropped == 1 { "was" } else { "were" }
        );
        if !super::imp::try_write_stderr(note.as_bytes()) {
            DROPPED.fetch_add(1, Ordering::SeqCst);
            return;
        }
        DROPPED.fetch_sub(dropped, Ordering::SeqCst);
    }
    let mut bytes = Vec::with_capacity(text.len().min(MAX_LINE) + 1);
    let mut cut = text.len().min(MAX_LINE - 1);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    bytes.extend_from_slice(&text.as_bytes()[..cut]);
    bytes.push(b'\n');
    if !super::imp::try_write_stderr(&bytes) {
        DROPPED.fetch_add(1, Ordering::SeqCst);
    }
}

/// How many lines were dropped and not yet reported.
pub fn dropped() -> u64 {
    DROPPED.load(Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_line_is_cut_at_a_character_boundary() {
        // Written to the test's stderr; only checks that nothing panics
        // on a cut inside a multi-byte character.
        super::line(&"é".repeat(1000));
    }
}
