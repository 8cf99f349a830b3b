//! The proxy's I/O edge: the engine process, a thread reading the GUI's
//! stdin, a signal thread, and one loop that feeds the [`Session`] and
//! writes what it returns. Output to the GUI is flushed whenever no more
//! input is queued, so a burst of engine lines costs one write, and a lone
//! line is written at once; nothing waits on a timer.

use std::io::{self, BufRead, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use crossbeam_channel::{after, never, select};

use super::config::Settings;
use super::log::{Direction, Log};
use super::session::{Out, Session};
use crate::engine::{EngineCommand, EngineEvent, EngineProcess, SpawnOptions};

/// How long each shutdown step waits (`quit`, then SIGTERM, then SIGKILL).
const GRACE: Duration = Duration::from_secs(1);

enum Source {
    Gui,
    Engine,
    Timer,
}

struct Io<W: Write> {
    gui: W,
    engine: EngineProcess,
    log: Option<Log>,
}

impl<W: Write> Io<W> {
    fn log(&mut self, dir: Direction, line: &[u8]) {
        if let Some(log) = &mut self.log {
            log.line(dir, line);
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
        self.gui.flush()
    }

    fn set_log(&mut self, path: Option<&Path>) {
        self.log = None;
        if let Some(path) = path {
            match Log::open(path) {
                Ok(log) => self.log = Some(log),
                Err(e) => {
                    let msg = format!("cannot open log '{}': {e}", path.display());
                    let _ = self.write_gui(format!("info string uci960: {msg}").as_bytes());
                    self.note(&msg, true);
                }
            }
        }
    }

    /// `quit`, then SIGTERM, then SIGKILL; the engine is reaped.
    fn shutdown(&mut self, why: &str) {
        let _ = self.flush();
        self.log(Direction::ProxyToEngine, b"quit");
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

/// Runs the proxy until the GUI quits (exit 0), the engine ends (exit 1)
/// or a signal arrives (exit 128 + signal). `fallback_seed` is used when
/// no seed is set.
pub fn run(
    cmd: &EngineCommand,
    settings: &Settings,
    fallback_seed: u64,
) -> anyhow::Result<ExitCode> {
    // Signals first, so that none is missed between spawn and the loop.
    let (sig_tx, sig_rx) = crossbeam_channel::unbounded();
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGHUP,
    ])
    .context("cannot install signal handlers")?;
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if sig_tx.send(sig).is_err() {
                break;
            }
        }
    });

    let log = match &settings.log {
        Some(p) => {
            Some(Log::open(p).with_context(|| format!("cannot open log '{}'", p.display()))?)
        }
        None => None,
    };
    let engine = EngineProcess::spawn_with(
        cmd,
        SpawnOptions {
            stderr: crate::engine::process::StderrMode::Inherit,
            die_with_parent: true,
        },
    )?;
    let engine_rx = engine.events().clone();

    let (gui_tx, gui_rx) = crossbeam_channel::unbounded::<Option<Vec<u8>>>();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut reader = stdin.lock();
        loop {
            let mut line = Vec::with_capacity(64);
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => {
                    let _ = gui_tx.send(None);
                    break;
                }
                Ok(_) => {
                    if line.last() == Some(&b'\n') {
                        line.pop();
                    }
                    if gui_tx.send(Some(line)).is_err() {
                        break;
                    }
                }
            }
        }
    });

    let stdout = io::stdout();
    let mut io = Io {
        gui: BufWriter::with_capacity(1 << 16, stdout.lock()),
        engine,
        log,
    };
    let mut session = Session::new(settings, fallback_seed, &cmd.display());
    let mut out = Vec::new();
    let mut awaiting = None;
    let mut deadline: Option<Instant> = None;
    let silence = settings.silence_timeout;

    loop {
        let timer = match deadline {
            Some(d) => after(d.saturating_duration_since(Instant::now())),
            None => never(),
        };
        let (source, line) = select! {
            recv(gui_rx) -> msg => match msg {
                Ok(Some(line)) => (Source::Gui, line),
                _ => {
                    io.shutdown("GUI closed its input");
                    return Ok(ExitCode::SUCCESS);
                }
            },
            recv(engine_rx) -> ev => match ev {
                Ok(EngineEvent::Line(line)) => (Source::Engine, line),
                Ok(EngineEvent::ReadError(e)) => {
                    io.note(&format!("reading the engine failed: {e}"), true);
                    continue;
                }
                Ok(EngineEvent::Eof) | Err(_) => {
                    return Ok(engine_ended(&mut io, session.engine_name()));
                }
            },
            recv(sig_rx) -> sig => {
                let sig = sig.unwrap_or(signal_hook::consts::SIGTERM);
                io.shutdown(&format!("signal {sig}"));
                return Ok(ExitCode::from(128u8.saturating_add(sig as u8)));
            },
            recv(timer) -> _ => {
                session.on_silence(silence.as_secs_f64(), &mut out);
                deadline = None;
                (Source::Timer, Vec::new())
            },
        };
        match source {
            Source::Timer => {}
            Source::Gui => {
                io.log(Direction::GuiToProxy, &line);
                session.from_gui(&line, &mut out);
            }
            Source::Engine => {
                io.log(Direction::EngineToProxy, &line);
                session.from_engine(&line, &mut out);
            }
        }
        let from_gui = matches!(source, Source::Gui);
        for o in out.drain(..) {
            let written = match o {
                Out::Forward if from_gui => {
                    io.write_engine(&line);
                    Ok(())
                }
                Out::Forward => io.write_gui(&line),
                Out::Gui(l) => io.write_gui(&l),
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
                    io.shutdown("GUI sent quit");
                    return Ok(ExitCode::SUCCESS);
                }
            };
            if written.is_err() {
                io.shutdown("GUI output closed");
                return Ok(ExitCode::SUCCESS);
            }
        }
        if session.awaiting() != awaiting {
            awaiting = session.awaiting();
            deadline = awaiting.map(|_| Instant::now() + silence);
        }
        if (engine_rx.is_empty() && gui_rx.is_empty()) && io.flush().is_err() {
            io.shutdown("GUI output closed");
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// The engine closed its output: report its status, reap it, exit 1.
fn engine_ended<W: Write>(io: &mut Io<W>, name: &str) -> ExitCode {
    let status = match io.engine.wait_timeout(GRACE) {
        Some(s) => crate::engine::describe_status(s),
        None => {
            io.engine.kill();
            "closed its output and was killed".into()
        }
    };
    let msg = format!("engine {name} {status}");
    let _ = io.write_gui(format!("info string uci960: {msg}").as_bytes());
    let _ = io.flush();
    io.note(&msg, true);
    if let Some(log) = &mut io.log {
        log.flush();
    }
    ExitCode::from(1)
}
