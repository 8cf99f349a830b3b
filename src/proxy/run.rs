//! The proxy's I/O edge: the engine process and one `poll(2)` loop that
//! reads the GUI and the engine in large chunks, feeds each line to the
//! [`Session`] and writes what it returns. Output to the GUI is flushed after
//! each chunk, so a burst of engine lines costs one write and a lone line is
//! written at once; nothing waits on a timer.

use std::io::{self, BufWriter, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::config::Settings;
use super::failed_start;
use super::log::{Direction, Log};
use super::session::{Out, Session};
use crate::uci_client::{EngineCommand, EngineProcess, SpawnOptions};

/// How long each shutdown step waits (`quit`, then SIGTERM, then SIGKILL).
const GRACE: Duration = Duration::from_secs(1);

#[derive(Clone, Copy)]
enum Source {
    Gui,
    Engine,
}

struct Io<W: Write> {
    gui: W,
    engine: EngineProcess,
    log: Option<Log>,
    /// The GUI sent `quit` or closed its input: the proxy is draining.
    close_requested: bool,
    /// `quit` went to the engine (and its stdin was closed, so the
    /// shutdown does not send it again).
    quit_sent: bool,
}

impl<W: Write> Io<W> {
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
            let _ = self.write_gui(format!("info string uci960: {msg}").as_bytes());
            self.note(&msg, true);
        }
    }

    fn write_gui(&mut self, line: &[u8]) -> io::Result<()> {
        self.log(Direction::ProxyToGui, line);
        self.gui.write_all(line)?;
        self.gui.write_all(b"\n")
    }

    fn write_engine(&mut self, line: &[u8]) {
        self.log(Direction::ProxyToEngine, line);
        // A write error means the engine is gone; its EOF reports that.
        let _ = self.engine.send(line);
    }

    fn note(&mut self, text: &str, stderr: bool) {
        self.log(Direction::Note, text.as_bytes());
        if stderr {
            eprintln!("uci960 proxy: {text}");
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(log) = &mut self.log {
            log.flush();
        }
        self.report_log_failure();
        self.gui.flush()
    }

    fn set_log(&mut self, path: Option<&Path>) {
        self.log = None;
        if let Some(path) = path {
            match Log::open(path, self.engine.program()) {
                Ok(log) => self.log = Some(log),
                Err(e) => {
                    let msg = e.to_string();
                    let _ = self.write_gui(format!("info string uci960: {msg}").as_bytes());
                    self.note(&msg, true);
                }
            }
        }
    }

    /// `quit`, then SIGTERM, then SIGKILL; the engine is reaped.
    fn shutdown(&mut self, why: &str) {
        let _ = self.flush();
        if !self.quit_sent {
            self.log(Direction::ProxyToEngine, b"quit");
        }
        let report = self.engine.shutdown(GRACE);
        self.note(
            &format!("{why}: engine {} ({:?})", report.describe(), report.step),
            false,
        );
        if let Some(log) = &mut self.log {
            log.flush();
        }
    }
}

/// Lines read from a file descriptor in large chunks.
struct LineReader {
    fd: RawFd,
    buf: Vec<u8>,
    /// Start of the first unconsumed byte.
    start: usize,
    eof: bool,
}

impl LineReader {
    fn new(fd: RawFd) -> LineReader {
        LineReader {
            fd,
            buf: Vec::with_capacity(1 << 16),
            start: 0,
            eof: false,
        }
    }

    /// One `read(2)` (the fd is readable, so it does not block).
    fn fill(&mut self) {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        if self.buf.capacity() - self.buf.len() < 1 << 15 {
            self.buf.reserve(1 << 16);
        }
        let spare = self.buf.capacity() - self.buf.len();
        // SAFETY: reading into the vector's spare capacity, then setting the
        // length to exactly what read(2) wrote.
        let n = unsafe {
            libc::read(
                self.fd,
                self.buf.as_mut_ptr().add(self.buf.len()).cast(),
                spare,
            )
        };
        if n > 0 {
            unsafe { self.buf.set_len(self.buf.len() + n as usize) };
        } else if n == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            self.eof = true;
        }
    }

    /// The next complete line (without `\n`); at EOF also a last partial one.
    fn next_line(&mut self) -> Option<(usize, usize)> {
        let rest = &self.buf[self.start..];
        match memchr::memchr(b'\n', rest) {
            Some(i) => {
                let line = (self.start, self.start + i);
                self.start += i + 1;
                Some(line)
            }
            None if self.eof && !rest.is_empty() => {
                let line = (self.start, self.buf.len());
                self.start = self.buf.len();
                Some(line)
            }
            None => None,
        }
    }
}

/// Runs the proxy until the GUI quits (exit 0), the engine ends (exit 1)
/// or a signal arrives (exit 128 + signal). `fallback_seed` is used when
/// no seed is set.
///
/// One thread and `poll(2)` over the GUI's stdin, the engine's stdout and
/// one self-pipe per signal: no thread hand-offs on the data path, which is
/// what keeps a round trip close to a direct one.
pub fn run(
    cmd: &EngineCommand,
    settings: &Settings,
    fallback_seed: u64,
) -> anyhow::Result<ExitCode> {
    // Signals first, so that none is missed between spawn and the loop.
    const SIGNALS: [i32; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];
    let mut sig_reads = Vec::new();
    for sig in SIGNALS {
        let (read, write) = UnixStream::pair().context("cannot create a signal pipe")?;
        read.set_nonblocking(true)?;
        signal_hook::low_level::pipe::register(sig, write)
            .context("cannot install signal handlers")?;
        sig_reads.push(read);
    }

    let spawned = EngineProcess::spawn_with(
        cmd,
        SpawnOptions {
            stderr: crate::uci_client::process::StderrMode::Inherit,
            die_with_parent: true,
            raw_stdout: true,
        },
    );
    let mut engine = match spawned {
        Ok(engine) => engine,
        // The GUI is shown why (see `failed_start`).
        Err(e) => return Ok(failed_start::run(&e.to_string(), &[], ExitCode::from(3))),
    };
    let engine_stdout = engine.take_stdout().context("engine stdout")?;
    let mut gui_in = LineReader::new(0);
    let mut engine_in = LineReader::new(engine_stdout.as_raw_fd());

    let stdout = io::stdout();
    let mut io = Io {
        gui: BufWriter::with_capacity(1 << 16, stdout.lock()),
        engine,
        log: None,
        close_requested: false,
        quit_sent: false,
    };
    // A log that cannot be opened is reported and the proxy goes on.
    io.set_log(settings.log.as_deref());
    let mut session = Session::new(settings, fallback_seed, &cmd.display());
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
            io.write_engine(b"quit");
            io.engine.close_stdin();
            io.quit_sent = true;
            closing = Some(Instant::now() + GRACE);
        } else if io.close_requested && closing.is_none() {
            closing = Some(Instant::now() + silence);
        }
        if closing.is_some_and(|c| Instant::now() >= c) {
            io.shutdown("GUI is gone and the engine did not exit after quit");
            return Ok(ExitCode::SUCCESS);
        }
        let mut fds = vec![
            libc::pollfd {
                // A negative fd is ignored by poll: the GUI is done.
                fd: if io.close_requested { -1 } else { 0 },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: engine_in.fd,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        for r in &sig_reads {
            fds.push(libc::pollfd {
                fd: r.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            });
        }
        let wake = match (deadline, closing) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let timeout_ms = match wake {
            Some(d) => d
                .saturating_duration_since(Instant::now())
                .as_millis()
                .clamp(1, i32::MAX as u128) as i32,
            None => -1,
        };
        // SAFETY: `fds` is a valid array of pollfd for the call's duration.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
        if n < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err).context("poll");
        }
        for (i, r) in sig_reads.iter_mut().enumerate() {
            if fds[2 + i].revents != 0 {
                let mut b = [0u8; 16];
                let _ = r.read(&mut b);
                let sig = SIGNALS[i];
                io.shutdown(&format!("signal {sig}"));
                return Ok(ExitCode::from(128u8.saturating_add(sig as u8)));
            }
        }
        if n == 0 {
            session.on_silence(silence.as_secs_f64(), &mut out);
            deadline = None;
            if let Some(code) = apply(&mut io, &mut session, &mut out, None) {
                return Ok(code);
            }
        }
        let ready = |i: usize| fds[i].revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0;
        if ready(1) {
            engine_in.fill();
            while let Some((a, b)) = engine_in.next_line() {
                let line = &engine_in.buf[a..b];
                io.log(Direction::EngineToProxy, line);
                session.from_engine(line, &mut out);
                if let Some(code) = apply(
                    &mut io,
                    &mut session,
                    &mut out,
                    Some((Source::Engine, line)),
                ) {
                    return Ok(code);
                }
            }
            if engine_in.eof {
                if io.quit_sent {
                    let _ = io.flush();
                    io.shutdown("engine exited after quit");
                    return Ok(ExitCode::SUCCESS);
                }
                return Ok(engine_ended(&mut io, &mut session));
            }
        }
        if ready(0) {
            gui_in.fill();
            while let Some((a, b)) = gui_in.next_line() {
                if io.close_requested {
                    break;
                }
                let line = &gui_in.buf[a..b];
                io.log(Direction::GuiToProxy, line);
                session.from_gui(line, &mut out);
                if let Some(code) =
                    apply(&mut io, &mut session, &mut out, Some((Source::Gui, line)))
                {
                    return Ok(code);
                }
            }
            if gui_in.eof {
                io.note("GUI closed its input", false);
                io.close_requested = true;
            }
        }
        if session.awaiting() != awaiting {
            awaiting = session.awaiting();
            deadline = awaiting.map(|_| Instant::now() + silence);
        }
        if io.flush().is_err() {
            io.shutdown("GUI output closed");
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// Carries out the session's actions for one input line; `Some(code)` when
/// the proxy must exit.
fn apply<W: Write>(
    io: &mut Io<W>,
    session: &mut Session,
    out: &mut Vec<Out>,
    input: Option<(Source, &[u8])>,
) -> Option<ExitCode> {
    for o in out.drain(..) {
        let written = match o {
            Out::Forward => match input {
                Some((Source::Gui, line)) => {
                    io.write_engine(line);
                    Ok(())
                }
                Some((Source::Engine, line)) => io.write_gui(line),
                None => Ok(()),
            },
            Out::Gui(l) => {
                let written = io.write_gui(&l);
                // Rewritten `info` lines reuse the buffer: no allocation
                // per line.
                session.recycle(l);
                written
            }
            Out::Engine(l) => {
                io.write_engine(&l);
                Ok(())
            }
            Out::Note { text, stderr } => {
                io.note(&text, stderr);
                Ok(())
            }
            Out::SetLog(path) => {
                io.set_log(path.as_deref());
                Ok(())
            }
            Out::Quit => {
                io.note("GUI sent quit", false);
                io.close_requested = true;
                Ok(())
            }
        };
        if written.is_err() {
            io.shutdown("GUI output closed");
            return Some(ExitCode::SUCCESS);
        }
    }
    None
}

/// The engine closed its output: report its status, reap it, exit 1; an
/// engine that died before its `uciok` leaves the GUI a handshake that
/// says so (exit 3).
fn engine_ended<W: Write>(io: &mut Io<W>, session: &mut Session) -> ExitCode {
    let name = session.engine_name().to_string();
    let status = match io.engine.wait_timeout(GRACE) {
        Some(s) => crate::uci_client::describe_status(s),
        None => {
            io.engine.kill();
            "closed its output and was killed".into()
        }
    };
    let msg = format!("engine {name} {status}");
    if let Some(pending) = session.take_unanswered_handshake() {
        let msg = format!("{msg} before its uciok");
        io.log(Direction::Note, msg.as_bytes());
        let _ = io.flush();
        return failed_start::run(&msg, &pending, ExitCode::from(3));
    }
    let _ = io.write_gui(format!("info string uci960: {msg}").as_bytes());
    let _ = io.flush();
    io.note(&msg, true);
    if let Some(log) = &mut io.log {
        log.flush();
    }
    ExitCode::from(1)
}
