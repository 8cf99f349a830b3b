//! Diagnostics on stderr that never block the thread that says them
//! (issue 21): a stderr pipe that nobody reads used to hang the proxy and
//! `match` at their first note, and the signal watchdog with them (it
//! wrote before exiting), so only SIGKILL ended them.
//!
//! Decided: one bounded queue in memory, drained by one writer thread that
//! does plain blocking writes. [`line`] only queues (a lock held for a
//! copy, never across a write), so no caller waits on stderr, on any
//! system (Windows anonymous pipes cannot be polled) and without the race
//! of polling first (another writer on the same pipe, such as an engine
//! sharing it, could fill it between the `poll` and the `write`). When the
//! queue holds [`BOUND`] bytes a new line is dropped and counted; the next
//! line queued is preceded by `uci960: N lines to stderr were dropped
//! (stderr was not read)`, so the count sits where the gap is. A signal
//! or an exit waits for the writer only while it makes progress, at most
//! [`STALL`] for a write that does not finish ([`flush`]), then goes on
//! without it: the process ends, the stuck write with it.
//!
//! An engine's stderr (the proxy's engine) is [`forward`]ed through the
//! same queue, bytes as they are; its reader thread waits for room while
//! the writer makes progress (a slow reader of stderr loses nothing) and
//! drops when it is stuck (an engine never blocks on a stderr nobody
//! reads). If the writer thread cannot be started (no threads left), lines
//! are written by the caller if stderr takes them at once, else dropped.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The longest line queued in one piece (Linux's `PIPE_BUF`, so a line
/// goes out in one write when stderr is a pipe shared with others).
const MAX_LINE: usize = 4096;
/// Bytes the queue holds before lines are dropped: far beyond what a run
/// says, small next to any memory bound of the tool.
pub const BOUND: usize = 256 * 1024;
/// How long a write may last before the writer counts as stuck: an exit
/// waits no longer for it, a forwarded engine line no longer for room.
pub const STALL: Duration = Duration::from_millis(250);

struct State {
    lines: VecDeque<Vec<u8>>,
    /// Bytes in `lines`.
    bytes: usize,
    /// Lines dropped and not yet reported.
    dropped: u64,
    /// The writer is in a write.
    writing: bool,
    /// When the writer last started or finished a write.
    progress: Instant,
    /// stderr failed (closed): lines are discarded from then on.
    broken: bool,
    /// The writer thread runs.
    writer: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Lines arrived (for the writer).
    queued: Condvar,
    /// A write finished (for lines waiting for room, and [`flush`]).
    written: Condvar,
}

static SHARED: OnceLock<Shared> = OnceLock::new();

fn shared() -> &'static Shared {
    SHARED.get_or_init(|| Shared {
        state: Mutex::new(State {
            lines: VecDeque::new(),
            bytes: 0,
            dropped: 0,
            writing: false,
            progress: Instant::now(),
            broken: false,
            writer: false,
        }),
        queued: Condvar::new(),
        written: Condvar::new(),
    })
}

fn lock(s: &Shared) -> MutexGuard<'_, State> {
    s.state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `eprintln!` that never blocks nor panics: the formatted line goes
/// through [`line`] (queued for stderr, or dropped and counted).
#[macro_export]
macro_rules! diag_line {
    ($($arg:tt)*) => {
        $crate::platform::diag::line(&format!($($arg)*))
    };
}

/// Queues `text` and a line break for stderr, or drops it (counted) when
/// the queue is full. Never blocks on stderr, never panics.
pub fn line(text: &str) {
    let mut cut = text.len().min(MAX_LINE - 1);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut bytes = Vec::with_capacity(cut + 1);
    bytes.extend_from_slice(&text.as_bytes()[..cut]);
    bytes.push(b'\n');
    queue(bytes, false);
}

/// Queues `bytes` (already cut to a line); `patient`: wait for room while
/// the writer makes progress.
fn queue(bytes: Vec<u8>, patient: bool) {
    let s = shared();
    let mut st = lock(s);
    if !st.writer {
        st = start_writer(s, st);
    }
    if !st.writer {
        // No writer thread: the caller writes, if stderr takes it now.
        drop(st);
        if !super::imp::try_write_stderr(&bytes) {
            lock(s).dropped += 1;
        }
        return;
    }
    loop {
        if st.broken {
            return;
        }
        if st.bytes + bytes.len() <= BOUND {
            push_dropped_note(&mut st);
            st.bytes += bytes.len();
            st.lines.push_back(bytes);
            s.queued.notify_one();
            return;
        }
        let stuck_for = st.progress.elapsed();
        if !patient || (st.writing && stuck_for >= STALL) {
            st.dropped += 1;
            return;
        }
        let wait = if st.writing { STALL - stuck_for } else { STALL };
        st = s
            .written
            .wait_timeout(st, wait)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

/// Puts the count of dropped lines in the queue (over the bound: one
/// note per queued line at most).
fn push_dropped_note(st: &mut State) {
    let n = std::mem::take(&mut st.dropped);
    if n == 0 {
        return;
    }
    let note = format!(
        "uci960: {n} line{} to stderr {} dropped (stderr was not read)\n",
        if n == 1 { "" } else { "s" },
        if n == 1 { "was" } else { "were" }
    );
    st.bytes += note.len();
    st.lines.push_back(note.into_bytes());
}

/// Starts the writer thread (once); on failure lines are written by the
/// caller (see [`queue`]) and a later line tries again.
fn start_writer<'a>(s: &'static Shared, mut st: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
    let spawned = std::thread::Builder::new()
        .name("uci960-stderr".into())
        .stack_size(64 * 1024)
        .spawn(move || writer(s));
    st.writer = spawned.is_ok();
    st
}

fn writer(s: &'static Shared) {
    let mut st = lock(s);
    loop {
        let Some(bytes) = st.lines.pop_front() else {
            st = s.queued.wait(st).unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        st.bytes -= bytes.len();
        st.writing = true;
        st.progress = Instant::now();
        drop(st);
        let ok = super::imp::write_stderr(&bytes);
        st = lock(s);
        st.writing = false;
        st.progress = Instant::now();
        if !ok {
            // stderr is closed: nobody to tell, nothing to count.
            st.broken = true;
            st.lines.clear();
            st.bytes = 0;
        }
        s.written.notify_all();
    }
}

/// Waits until what is queued is written, the count of dropped lines
/// included, while the writer makes progress: at most [`STALL`] for a write
/// that does not finish (a stderr nobody reads), counted from the later of
/// the last progress and this call. For the end of the process and of a
/// signal.
pub fn flush() {
    let Some(s) = SHARED.get() else {
        return;
    };
    let mut st = lock(s);
    if st.dropped > 0 && st.writer && !st.broken {
        push_dropped_note(&mut st);
        s.queued.notify_one();
    }
    // The writer gets a whole STALL from now: a reader that starts
    // draining just as the process ends (stuck until then) still gets
    // everything, and a stderr nobody reads still costs at most STALL.
    let start = Instant::now();
    loop {
        if st.broken || !st.writer || (st.lines.is_empty() && !st.writing) {
            return;
        }
        let idle = st.progress.elapsed().min(start.elapsed());
        if idle >= STALL {
            return;
        }
        st = s
            .written
            .wait_timeout(st, STALL - idle)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

/// Lines dropped and not yet reported.
pub fn dropped() -> u64 {
    SHARED.get().map_or(0, |s| lock(s).dropped)
}

/// Forwards what `source` (an engine's stderr) says to stderr through the
/// queue, on a thread of its own, until its end: bytes as they are, lines
/// longer than [`MAX_LINE`] in pieces. A line waits for room while the
/// writer makes progress and is dropped (counted) when it is stuck.
pub fn forward(mut source: impl Read + Send + 'static) -> io::Result<()> {
    std::thread::Builder::new()
        .name("uci960-engine-stderr".into())
        .stack_size(64 * 1024)
        .spawn(move || {
            let mut buf = vec![0u8; MAX_LINE];
            let mut line: Vec<u8> = Vec::new();
            loop {
                let n = match source.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let mut rest = &buf[..n];
                while !rest.is_empty() {
                    let room = MAX_LINE - line.len();
                    let end = match rest.iter().position(|&b| b == b'\n') {
                        Some(i) if i < room => i + 1,
                        _ => rest.len().min(room),
                    };
                    line.extend_from_slice(&rest[..end]);
                    rest = &rest[end..];
                    if line.last() == Some(&b'\n') || line.len() == MAX_LINE {
                        queue(std::mem::take(&mut line), true);
                    }
                }
            }
            if !line.is_empty() {
                queue(line, true);
            }
        })
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_line_is_cut_at_a_character_boundary() {
        // Written to the test's stderr; only checks that nothing panics
        // on a cut inside a multi-byte character.
        super::line(&"é".repeat(1000));
        super::flush();
    }
}
