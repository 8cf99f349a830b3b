//! The proxy's I/O edge: the engine process and one loop, on
//! [`crate::platform::Relay`], that reads the GUI and the engine in large
//! chunks, feeds each line to the [`Session`] and queues what it returns.
//! Queued bytes are written after each chunk, without blocking, so a burst
//! of engine lines costs one write and a lone line is written at once;
//! nothing waits on a timer.
//!
//! No peer can stall the proxy: writes never block (a side that does not
//! read keeps its bytes in a queue while the loop goes on reading both
//! sides), and a queue past [`QUEUE_BOUND`] pauses reading the side that
//! fills it, with a note, until it drains. A GUI writing 100k `go` lines at
//! once to a single-threaded engine therefore finishes instead of
//! deadlocking both pipes. Lines longer than [`MAX_LINE`] are reported and
//! skipped. SIGTERM/SIGINT/SIGHUP are seen by the same wait, whatever else
//! is pending, and end the proxy (engine included) well within a second.

use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use super::config::Settings;
use super::failed_start;
use super::log::{Direction, Log};
use super::session::{Out, Session};
use super::transport::{Target, Transport};
use crate::lines::{LineBuffer, MAX_LINE, StreamLine};
use crate::platform::{ReadOutcome, Relay, Side, Want, interrupt};

/// How long each shutdown step waits (`quit`, then SIGTERM, then SIGKILL).
const GRACE: Duration = Duration::from_secs(1);
/// The same after a signal: the whole shutdown fits in well under a second.
const SIGNAL_GRACE: Duration = Duration::from_millis(150);
/// How many bytes may wait for a side before the proxy stops reading the
/// side that produces them (the GUI for the engine's queue, the engine for
/// the GUI's). Far above any real burst: Stockfish's output for a whole
/// search is a few kilobytes.
pub const QUEUE_BOUND: usize = 1 << 20;

/// Bytes waiting to be written to one side (sans-IO).
#[derive(Default)]
struct Queue {
    buf: Vec<u8>,
    /// Bytes before `start` are written.
    start: usize,
}

impl Queue {
    fn push_line(&mut self, line: &[u8]) {
        if self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        }
        self.buf.extend_from_slice(line);
        self.buf.push(b'\n');
    }

    fn pending(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    fn len(&self) -> usize {
        self.buf.len() - self.start
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        if self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > self.buf.len() / 2 && self.start > 1 << 16 {
            // Keep the buffer from growing with the stream.
            self.buf.drain(..self.start);
            self.start = 0;
        }
    }

    fn clear(&mut self) {
        self.buf.clear();
        self.start = 0;
    }
}

#[derive(Clone, Copy)]
enum Source {
    Gui,
    Engine,
}

/// The GUI's output went away: the proxy ends quietly.
struct GuiClosed;

struct Io {
    relay: Relay,
    engine: Transport,
    log: Option<Log>,
    /// Bytes for each side, by [`Side::index`].
    queue: [Queue; 2],
    /// Whether each queue is past its bound (reading its source paused),
    /// and whether that was already said on stderr.
    paused: [bool; 2],
    warned: [bool; 2],
    /// The GUI sent `quit` or closed its input: the proxy is draining.
    close_requested: bool,
    /// `quit` went to the engine: it is sent (and logged) once.
    quit_sent: bool,
}

impl Io {
    fn log(&mut self, dir: Direction, line: &[u8]) {
        if let Some(log) = &mut self.log {
            log.line(dir, line);
        }
        self.report_log_failure();
    }

    /// A log that cannot be written is reported once (stderr and `info
    /// string`) and dropped; the proxy goes on.
    fn report_log_failure(&mut self) {
        if let Some(msg) = self.log.as_mut().and_then(Log::take_failure) {
            self.log = None;
            self.write_gui(format!("info string uci960: {msg}").as_bytes());
            self.note(&msg, true);
        }
    }

    /// `quit` to the engine, once.
    fn send_quit(&mut self) {
        if !self.quit_sent {
            self.quit_sent = true;
            self.write_engine(b"quit");
        }
    }

    fn write_gui(&mut self, line: &[u8]) {
        self.log(Direction::ProxyToGui, line);
        self.queue[Side::Gui.index()].push_line(line);
    }

    fn write_engine(&mut self, line: &[u8]) {
        self.log(Direction::ProxyToEngine, line);
        self.queue[Side::Engine.index()].push_line(line);
    }

    fn note(&mut self, text: &str, stderr: bool) {
        self.log(Direction::Note, text.as_bytes());
        if stderr {
            // Never `eprintln!`: stderr may be a full pipe nobody reads.
            crate::platform::diag::line(&format!("uci960 proxy: {text}"));
        }
    }

    fn set_log(&mut self, path: Option<&Path>) {
        self.log = None;
        if let Some(path) = path {
            match Log::open(path, self.engine.program()) {
                Ok(log) => self.log = Some(log),
                Err(e) => {
                    let msg = e.to_string();
                    self.write_gui(format!("info string uci960: {msg}").as_bytes());
                    self.note(&msg, true);
                }
            }
        }
    }

    /// Writes what each side takes now, without blocking. A write error
    /// to the engine means it is gone (its EOF reports that); to the GUI,
    /// that the proxy has no one to talk to.
    fn flush(&mut self) -> Result<(), GuiClosed> {
        if let Some(log) = &mut self.log {
            log.flush();
        }
        self.report_log_failure();
        for side in Side::BOTH {
            let queue = &mut self.queue[side.index()];
            while queue.len() > 0 {
                match self.relay.write(side, queue.pending()) {
                    Ok(0) => break,
                    Ok(n) => queue.consume(n),
                    Err(_) if side == Side::Gui => return Err(GuiClosed),
                    Err(_) => queue.clear(),
                }
            }
        }
        self.check_bounds();
        Ok(())
    }

    /// Pauses or resumes reading the side that fills a queue, saying so.
    fn check_bounds(&mut self) {
        for side in Side::BOTH {
            let i = side.index();
            let over = self.queue[i].len() >= QUEUE_BOUND;
            if over && !self.paused[i] {
                let (reader, other) = match side {
                    Side::Gui => ("GUI", "engine and the GUI"),
                    Side::Engine => ("engine", "GUI"),
                };
                let text = format!(
                    "the {reader} is not reading: {} bytes wait for it; \
                     reading from the {other} pauses until it catches up",
                    self.queue[i].len()
                );
                let stderr = !self.warned[i];
                self.note(&text, stderr);
                self.warned[i] = true;
            } else if !over && self.paused[i] {
                self.note("queue drained; reading resumes", false);
            }
            self.paused[i] = over;
        }
    }

    /// What the loop waits for.
    fn want(&self) -> Want {
        let g = Side::Gui.index();
        let e = Side::Engine.index();
        Want {
            // A GUI that does not read is not read either: its lines may
            // be answered by the proxy itself (issue 21: a flood of such
            // lines to a GUI that did not read grew the queue to 3.9 GB).
            read: [
                !self.close_requested && !self.paused[e] && !self.paused[g],
                !self.paused[g],
            ],
            write: [self.queue[g].len() > 0, self.queue[e].len() > 0],
        }
    }

    /// Writes what is queued for the GUI, waiting for it up to `within`
    /// (the last lines before exit: a status report, a `bestmove`).
    fn drain_gui(&mut self, within: Duration) {
        let deadline = Instant::now() + within;
        let gui = Side::Gui.index();
        let want = Want {
            write: [true, false],
            ..Want::default()
        };
        while self.flush().is_ok() {
            // Waited for even when the queue is empty: on Windows the last
            // bytes may still sit with the writer thread (writable = its
            // write is done), and exiting before it lost the engine's exit
            // report under load.
            let left = deadline.saturating_duration_since(Instant::now());
            match self.relay.wait(want, Some(left)) {
                Ok(r) if r.write[gui] && self.queue[gui].len() == 0 => return,
                Ok(r) if r.write[gui] => {}
                _ => return,
            }
        }
    }

    /// `quit` (as far as the engine takes it), end of its input, then
    /// SIGTERM and SIGKILL to its process group; the engine is reaped.
    fn shutdown(&mut self, why: &str, grace: Duration) {
        self.send_quit();
        let _ = self.flush();
        self.relay.close_engine_input();
        let report = self.engine.shutdown(grace);
        self.note(&format!("{why}: engine {report}"), false);
        if let Some(log) = &mut self.log {
            log.flush();
        }
    }
}

/// The environment variable that counts the proxies around this one.
pub const DEPTH_VAR: &str = "UCI960_PROXY_DEPTH";
/// The most proxies that may run inside one another (a proxy before a
/// proxy is a real set-up; five deep is a loop).
pub const MAX_DEPTH: u32 = 4;

/// A configuration whose engine is uci960 itself (its `args` line
/// forgotten, or a renamed copy naming itself) started proxies without
/// end: 2,305 processes after 5 s and nothing for the GUI (issue 21).
/// Each proxy tells its engine how deep it runs; one [`MAX_DEPTH`] deep
/// refuses to start another, with the reason as its handshake (see
/// [`failed_start`]). Counted rather than comparing executables, so a
/// renamed copy or a wrapper script is caught too. Returns the reason, or
/// `None` (and sets the count for the engine) when this proxy may run.
fn nesting_refused() -> Option<String> {
    let depth: u32 = std::env::var(DEPTH_VAR)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    if depth >= MAX_DEPTH {
        return Some(format!(
            "{depth} proxies already run inside one another: the engine of the \
             configuration starts uci960 proxy again (is the engine uci960 itself, \
             its args line missing?); refused"
        ));
    }
    // SAFETY: called first thing in the proxy, before any thread of ours
    // starts (the signal watchdog comes after); nothing reads the
    // environment concurrently.
    unsafe { std::env::set_var(DEPTH_VAR, (depth + 1).to_string()) };
    None
}

/// What stops the proxy before its loop can run, or breaks the loop.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    #[error("cannot install the signal handlers: {0}")]
    Signals(io::Error),
    #[error("cannot set up the engine's pipes: {0}")]
    EnginePipes(io::Error),
    #[error("waiting for the GUI and the engine failed: {0}")]
    Wait(io::Error),
}

/// How the proxy ended; `cli` turns it into the exit status (0, 1, 128 +
/// signal, 2, 3), the library never decides one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyEnd {
    /// The GUI quit or went away.
    Done,
    /// The engine ended on its own.
    EngineEnded,
    /// A signal arrived (its number).
    Interrupted(i32),
    /// The settings were refused before any engine started (a proxy that
    /// would start itself); the GUI was told why.
    Refused,
    /// The engine could not start or broke off in its handshake; the GUI
    /// was told why.
    EngineFailed,
}

/// Runs the proxy until the GUI quits, the engine ends or a signal
/// arrives ([`ProxyEnd`]). `fallback_seed` is used when
/// no seed is set.
///
/// One thread (on POSIX; see [`crate::platform::Relay`]) waiting on the
/// GUI, the engine and signals at once: no thread hand-offs on the data
/// path, which is what keeps a round trip close to a direct one.
pub fn run(
    target: &Target,
    settings: &Settings,
    fallback_seed: u64,
) -> Result<ProxyEnd, ProxyError> {
    if let Some(reason) = nesting_refused() {
        failed_start::run(&reason, &[]);
        return Ok(ProxyEnd::Refused);
    }
    // Signals first, so that none is missed between spawn and the loop.
    interrupt::install(None).map_err(ProxyError::Signals)?;

    let (engine, stdin, stdout) = match Transport::start(target) {
        Ok(started) => started,
        // The GUI is shown why (see `failed_start`).
        Err(e) => {
            failed_start::run(&e, &[]);
            return Ok(ProxyEnd::EngineFailed);
        }
    };
    let relay = Relay::new(stdin, stdout).map_err(ProxyError::EnginePipes)?;
    let mut io = Io {
        relay,
        engine,
        log: None,
        queue: Default::default(),
        paused: [false; 2],
        warned: [false; 2],
        close_requested: false,
        quit_sent: false,
    };
    // A log that cannot be opened is reported and the proxy goes on.
    io.set_log(settings.log.as_deref());
    let mut input = [LineBuffer::new(MAX_LINE), LineBuffer::new(MAX_LINE)];
    let mut session = Session::new(settings, fallback_seed, &target.display());
    let mut out = Vec::new();
    let mut awaiting = None;
    let mut deadline: Option<Instant> = None;
    let silence = settings.silence_timeout;
    // After the GUI's `quit` or EOF the proxy stops reading the GUI, sends
    // `quit` once the handshake is over (lines held for it go first), and
    // relays what the engine still prints (Stockfish answers a running `go`
    // with its `bestmove`) until the engine exits or `closing` passes.
    let mut closing: Option<Instant> = None;

    loop {
        if io.close_requested && !io.quit_sent && !session.in_handshake() {
            io.send_quit();
            closing = Some(Instant::now() + GRACE);
        } else if io.close_requested && closing.is_none() {
            closing = Some(Instant::now() + silence);
        }
        if closing.is_some_and(|c| Instant::now() >= c) {
            io.drain_gui(Duration::ZERO);
            io.shutdown("GUI is gone and the engine did not exit after quit", GRACE);
            return Ok(ProxyEnd::Done);
        }
        if io.flush().is_err() {
            io.shutdown("GUI output closed", GRACE);
            return Ok(ProxyEnd::Done);
        }
        let wake = match (deadline, closing) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let timeout = wake.map(|w| w.saturating_duration_since(Instant::now()));
        let mut want = io.want();
        if session.holding_full() {
            want.read[Side::Gui.index()] = false;
        }
        let ready = io.relay.wait(want, timeout).map_err(ProxyError::Wait)?;
        if let Some(sig) = ready.signal {
            io.note(&format!("signal {sig}"), false);
            let _ = io.flush();
            io.shutdown(&format!("signal {sig}"), SIGNAL_GRACE);
            return Ok(ProxyEnd::Interrupted(sig));
        }
        if ready.is_timeout() && deadline.is_some_and(|d| Instant::now() >= d) {
            session.on_silence(silence.as_secs_f64(), &mut out);
            deadline = None;
            if apply(&mut io, &mut session, &mut out, None).is_err() {
                io.shutdown("GUI output closed", GRACE);
                return Ok(ProxyEnd::Done);
            }
        }
        if ready.read[Side::Engine.index()] {
            let buf = &mut input[Side::Engine.index()];
            let ended = !matches!(
                io.relay.read(Side::Engine, buf),
                ReadOutcome::Data | ReadOutcome::WouldBlock
            );
            loop {
                let line = if ended { buf.finish() } else { buf.next_line() };
                let line = match line {
                    None => break,
                    Some(StreamLine::TooLong { limit }) => {
                        let text = format!("engine line longer than {limit} bytes skipped");
                        io.write_gui(format!("info string uci960: {text}").as_bytes());
                        io.note(&text, true);
                        continue;
                    }
                    Some(StreamLine::Complete(line)) => line,
                };
                io.log(Direction::EngineToProxy, line);
                session.from_engine(line, &mut out);
                if apply(
                    &mut io,
                    &mut session,
                    &mut out,
                    Some((Source::Engine, line)),
                )
                .is_err()
                {
                    io.shutdown("GUI output closed", GRACE);
                    return Ok(ProxyEnd::Done);
                }
            }
            if ended {
                if io.quit_sent {
                    io.drain_gui(GRACE);
                    io.shutdown("engine exited after quit", GRACE);
                    return Ok(ProxyEnd::Done);
                }
                if let Some(pending) = session.take_unanswered_handshake() {
                    let msg = engine_died_early(&mut io, session.engine_name());
                    // The relay gives stdout its blocking mode back.
                    drop(io);
                    failed_start::run(&msg, &pending);
                    return Ok(ProxyEnd::EngineFailed);
                }
                return Ok(engine_ended(&mut io, session.engine_name()));
            }
        }
        if ready.read[Side::Gui.index()] {
            let buf = &mut input[Side::Gui.index()];
            let ended = !matches!(
                io.relay.read(Side::Gui, buf),
                ReadOutcome::Data | ReadOutcome::WouldBlock
            );
            while !io.close_requested {
                let line = if ended { buf.finish() } else { buf.next_line() };
                let line = match line {
                    None => break,
                    Some(StreamLine::TooLong { limit }) => {
                        io.note(&format!("GUI line longer than {limit} bytes skipped"), true);
                        continue;
                    }
                    Some(StreamLine::Complete(line)) => line,
                };
                io.log(Direction::GuiToProxy, line);
                session.from_gui(line, &mut out);
                if apply(&mut io, &mut session, &mut out, Some((Source::Gui, line))).is_err() {
                    io.shutdown("GUI output closed", GRACE);
                    return Ok(ProxyEnd::Done);
                }
            }
            if ended && !io.close_requested {
                io.note("GUI closed its input", false);
                io.close_requested = true;
            }
        }
        if session.awaiting() != awaiting {
            awaiting = session.awaiting();
            deadline = awaiting.map(|_| Instant::now() + silence);
        }
    }
}

/// Carries out the session's actions for one input line.
fn apply(
    io: &mut Io,
    session: &mut Session,
    out: &mut Vec<Out>,
    input: Option<(Source, &[u8])>,
) -> Result<(), GuiClosed> {
    for o in out.drain(..) {
        match o {
            Out::Forward => match input {
                Some((Source::Gui, line)) => io.write_engine(line),
                Some((Source::Engine, line)) => io.write_gui(line),
                None => {}
            },
            Out::Gui(l) => {
                io.write_gui(&l);
                // Rewritten `info` lines reuse the buffer: no allocation
                // per line.
                session.recycle(l);
            }
            Out::Engine(l) => io.write_engine(&l),
            Out::Note { text, stderr } => io.note(&text, stderr),
            Out::SetLog(path) => io.set_log(path.as_deref()),
            Out::Quit => {
                io.note("GUI sent quit", false);
                io.close_requested = true;
            }
        }
    }
    // A large burst is written as it builds up, not only after the chunk.
    if io.queue.iter().any(|q| q.len() >= 1 << 16) {
        io.flush()?;
    }
    Ok(())
}

/// The engine died before its `uciok`: reaped and logged; the reason is
/// returned for [`failed_start`] to show the GUI.
fn engine_died_early(io: &mut Io, name: &str) -> String {
    let msg = format!("engine {name} {} before its uciok", reap(io));
    io.engine.kill(); // what is left of its process group
    io.log(Direction::Note, msg.as_bytes());
    io.drain_gui(GRACE);
    if let Some(log) = &mut io.log {
        log.flush();
    }
    msg
}

/// The engine closed its output: report its status, reap it, exit 1.
fn engine_ended(io: &mut Io, name: &str) -> ProxyEnd {
    let status = reap(io);
    let msg = format!("engine {name} {status}");
    io.write_gui(format!("info string uci960: {msg}").as_bytes());
    io.drain_gui(GRACE);
    io.note(&msg, true);
    io.engine.kill(); // what is left of its process group
    if let Some(log) = &mut io.log {
        log.flush();
    }
    ProxyEnd::EngineEnded
}

/// Waits for the engine that closed its output (killing it after
/// [`GRACE`]) and says how it ended.
fn reap(io: &mut Io) -> String {
    io.engine.reap(GRACE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_hands_out_its_bytes_in_order_and_stays_compact() {
        let mut q = Queue::default();
        let mut written = Vec::new();
        for i in 0..20_000 {
            q.push_line(format!("info depth {i}").as_bytes());
            // A reader that takes 7 bytes at a time, now and then.
            if i % 3 == 0 {
                let n = q.len().min(7);
                written.extend_from_slice(&q.pending()[..n]);
                q.consume(n);
            }
        }
        while q.len() > 0 {
            let n = q.len().min(4096);
            written.extend_from_slice(&q.pending()[..n]);
            q.consume(n);
        }
        let want: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("info depth {i}\n").into_bytes())
            .collect();
        assert_eq!(written, want);
        assert!(q.buf.is_empty());
    }
}
