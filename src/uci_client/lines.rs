//! Splits an engine's stdout into lines on the owner's own thread.
//!
//! Reading where the lines are consumed costs one `poll` + one `read` per
//! chunk the engine writes, with no thread hand-off: a reader thread and a
//! channel would add a futex wake-up per line and the channel's
//! spin-then-park in every wait (what the match runner measured as most of
//! its own CPU). Reads are large (64 KiB) and split here, so a burst of
//! `info` lines is one syscall.
//!
//! The price: output is only drained while someone waits for it. An engine
//! only talks in answer to a command and its answers are far smaller than a
//! pipe buffer (64 KiB on Linux), so it never blocks on a full pipe in
//! practice; callers that need a channel use [`super::EngineProcess::events`],
//! which moves the reading to a thread.

use std::io::{self, Read};
use std::ops::Range;
use std::os::fd::AsRawFd;
use std::process::ChildStdout;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;

use super::process::EngineEvent;

const CHUNK: usize = 1 << 16;

/// Where the stream stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Open,
    /// The read failed; reported once, then `Eof`.
    Failed(String),
    /// End of file seen; buffered lines still to hand out, then `Eof`.
    Ended,
    /// `Eof` handed out: disconnected from now on.
    Done,
}

/// Buffered line reader over an engine's stdout.
pub(crate) struct LineReader {
    stdout: ChildStdout,
    /// `buf[start..end]` is unread; `buf` is zeroed once, never per read.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes before `start + scanned` hold no `\n`.
    scanned: usize,
    state: State,
}

impl LineReader {
    pub(crate) fn new(stdout: ChildStdout) -> LineReader {
        LineReader {
            stdout,
            buf: vec![0; CHUNK],
            start: 0,
            end: 0,
            scanned: 0,
            state: State::Open,
        }
    }

    /// The next event, waiting at most `timeout`: a line (without its
    /// `\n`), then `Eof` once (after a `ReadError` if reading failed), then
    /// `Disconnected`.
    pub(crate) fn next_timeout(
        &mut self,
        timeout: Duration,
    ) -> Result<EngineEvent, RecvTimeoutError> {
        self.next_into(Some(Instant::now() + timeout), None)
    }

    /// Like [`LineReader::next_timeout`], but a line is appended to `out`
    /// and reported as an empty `Line`: no allocation per line.
    pub(crate) fn next_into_timeout(
        &mut self,
        timeout: Duration,
        out: &mut Vec<u8>,
    ) -> Result<EngineEvent, RecvTimeoutError> {
        self.next_into(Some(Instant::now() + timeout), Some(out))
    }

    /// The next event, waiting as long as it takes.
    pub(crate) fn next_blocking(&mut self) -> Result<EngineEvent, RecvTimeoutError> {
        self.next_into(None, None)
    }

    /// A line goes to `out` when given (the event's `Line` is then empty),
    /// else into the event.
    fn next_into(
        &mut self,
        deadline: Option<Instant>,
        out: Option<&mut Vec<u8>>,
    ) -> Result<EngineEvent, RecvTimeoutError> {
        let line = |bytes: &[u8]| match out {
            Some(out) => {
                out.extend_from_slice(bytes);
                EngineEvent::Line(Vec::new())
            }
            None => EngineEvent::Line(bytes.to_vec()),
        };
        loop {
            if let Some(span) = self.take_line() {
                return Ok(line(&self.buf[span]));
            }
            match std::mem::replace(&mut self.state, State::Open) {
                State::Open => {}
                State::Failed(e) => {
                    self.state = State::Ended;
                    return Ok(EngineEvent::ReadError(e));
                }
                State::Ended => {
                    if self.start < self.end {
                        // A last line without `\n`.
                        self.state = State::Ended;
                        let span = self.start..self.end;
                        self.start = 0;
                        self.end = 0;
                        self.scanned = 0;
                        return Ok(line(&self.buf[span]));
                    }
                    self.state = State::Done;
                    return Ok(EngineEvent::Eof);
                }
                State::Done => {
                    self.state = State::Done;
                    return Err(RecvTimeoutError::Disconnected);
                }
            }
            if let Some(deadline) = deadline
                && !self.wait_readable(deadline)
            {
                return Err(RecvTimeoutError::Timeout);
            }
            self.fill();
        }
    }

    /// Where in `buf` the next complete buffered line is, if any (valid
    /// until the next `fill`).
    fn take_line(&mut self) -> Option<Range<usize>> {
        let from = self.start + self.scanned;
        match self.buf[from..self.end].iter().position(|&b| b == b'\n') {
            Some(i) => {
                let end = from + i;
                let span = self.start..end;
                self.start = end + 1;
                self.scanned = 0;
                Some(span)
            }
            None => {
                self.scanned = self.end - self.start;
                None
            }
        }
    }

    /// Waits until stdout is readable (data, EOF or error) or `deadline`.
    fn wait_readable(&self, deadline: Instant) -> bool {
        let mut pfd = libc::pollfd {
            fd: self.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Round up so a wait never ends before its deadline.
            let ms = left.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as libc::c_int;
            // SAFETY: one valid pollfd, count 1.
            let n = unsafe { libc::poll(&mut pfd, 1, ms) };
            if n > 0 {
                return true;
            }
            if n == 0 {
                if Instant::now() >= deadline {
                    return false;
                }
                continue;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                // Let the read report what is wrong.
                return true;
            }
        }
    }

    /// One read into the buffer (blocking); records EOF or failure.
    fn fill(&mut self) {
        if self.start > 0 && (self.start == self.end || self.buf.len() - self.end < CHUNK / 4) {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() - self.end < CHUNK / 4 {
            // A line longer than the buffer: grow.
            self.buf.resize(self.buf.len() * 2, 0);
        }
        loop {
            match self.stdout.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.state = State::Ended;
                    return;
                }
                Ok(n) => {
                    self.end += n;
                    return;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.state = State::Failed(e.to_string());
                    return;
                }
            }
        }
    }
}
