//! A running engine process: spawn, line I/O, exit status, shutdown.
//!
//! stdout is split into lines (without their `\n`; a `\r` stays, so a relay
//! writes back exactly what it read), followed by [`EngineEvent::Eof`].
//! [`EngineProcess::recv_timeout`] reads them on the caller's thread (a
//! `poll` with the timeout, then one large `read`; see [`super::lines`] for
//! why: no thread hand-off per line). The first call to
//! [`EngineProcess::events`] moves the reading to a thread feeding a
//! crossbeam channel, for callers that `select!` over several sources; from
//! then on `recv_timeout` reads that channel; [`EngineProcess::recv_into`]
//! appends a line to the caller's buffer instead of allocating one. Writing
//! is synchronous from the owner's thread, one `write_all` per line or per
//! group of lines ([`EngineProcess::send_lines`]: `position` + `go` wake the
//! engine once). Nothing here spins on the data path; only the shutdown's
//! waits for exit use short sleeps.
//!
//! Dropping an [`EngineProcess`] that has not been shut down kills and reaps
//! the child, so no zombie is left behind whatever path the owner takes.

use std::io::{self, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::command::EngineCommand;
use super::lines::LineReader;

/// What the stdout reader thread reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// One line, without its `\n`.
    Line(Vec<u8>),
    /// stdout closed (the engine exited or closed it).
    Eof,
    /// Reading failed; stdout is treated as closed after this.
    ReadError(String),
}

/// Why an engine could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("engine '{program}' not found")]
    NotFound { program: String },
    #[error("engine '{program}' is not executable (check its permissions)")]
    NotExecutable { program: String },
    #[error("engine working directory '{dir}' does not exist")]
    NoDir { dir: String },
    #[error("cannot start engine '{program}': {source}")]
    Io { program: String, source: io::Error },
}

/// Where the engine's stderr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StderrMode {
    /// Shared with this process (the proxy: the GUI shows or logs it).
    #[default]
    Inherit,
    /// Discarded (the match runner, many engines at once).
    Null,
}

/// Options for [`EngineProcess::spawn_with`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SpawnOptions {
    pub stderr: StderrMode,
    /// Linux: the kernel sends SIGKILL to the engine when the thread that
    /// spawned it ends (even if this process is SIGKILLed). Only set it when
    /// spawning from a thread that lives as long as the engine should (the
    /// proxy's main thread).
    pub die_with_parent: bool,
    /// Leave stdout to the caller ([`EngineProcess::take_stdout`]) instead of
    /// reading lines from it; for a single-threaded `poll` loop (the proxy).
    pub raw_stdout: bool,
}

/// How a shutdown ended the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopStep {
    /// It had already exited.
    AlreadyExited,
    /// It exited after `quit`.
    Quit,
    /// It needed SIGTERM.
    Terminated,
    /// It needed SIGKILL.
    Killed,
}

/// The engine's end: status and which step ended it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitReport {
    pub status: Option<ExitStatus>,
    pub step: StopStep,
}

impl ExitReport {
    /// "exited with code 0", "killed by signal 9 (SIGKILL)", …
    pub fn describe(&self) -> String {
        match self.status {
            Some(s) => describe_status(s),
            None => "exit status unknown".into(),
        }
    }
}

/// A human description of an exit status.
pub fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with code {code}");
    }
    match status.signal() {
        Some(sig) => format!("killed by signal {sig} ({})", signal_name(sig)),
        None => "ended".into(),
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGBUS => "SIGBUS",
        _ => "signal",
    }
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines read on the caller's thread, until `events` is first asked for.
    reader: Mutex<Option<LineReader>>,
    /// The channel fed by a reader thread, once `events` was called.
    events: OnceLock<Receiver<EngineEvent>>,
    pid: u32,
    program: String,
    status: Option<ExitStatus>,
    write_buf: Vec<u8>,
}

impl EngineProcess {
    /// Starts an engine with stderr inherited.
    pub fn spawn(cmd: &EngineCommand) -> Result<EngineProcess, SpawnError> {
        EngineProcess::spawn_with(cmd, SpawnOptions::default())
    }

    /// Starts an engine.
    pub fn spawn_with(
        cmd: &EngineCommand,
        opts: SpawnOptions,
    ) -> Result<EngineProcess, SpawnError> {
        let program = cmd.program.display().to_string();
        if let Some(dir) = &cmd.dir
            && !dir.is_dir()
        {
            return Err(SpawnError::NoDir {
                dir: dir.display().to_string(),
            });
        }
        let mut command = Command::new(&cmd.program);
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match opts.stderr {
                StderrMode::Inherit => Stdio::inherit(),
                StderrMode::Null => Stdio::null(),
            });
        if let Some(dir) = &cmd.dir {
            command.current_dir(dir);
        }
        if opts.die_with_parent {
            // SAFETY: prctl is async-signal-safe; nothing else runs between
            // fork and exec here.
            unsafe {
                command.pre_exec(|| {
                    #[cfg(target_os = "linux")]
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
        }
        let mut child = command.spawn().map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => SpawnError::NotFound {
                program: program.clone(),
            },
            io::ErrorKind::PermissionDenied => SpawnError::NotExecutable {
                program: program.clone(),
            },
            _ if e.raw_os_error() == Some(libc::ENOEXEC) => SpawnError::NotExecutable {
                program: program.clone(),
            },
            _ => SpawnError::Io {
                program: program.clone(),
                source: e,
            },
        })?;
        let pid = child.id();
        let stdin = child.stdin.take();
        let reader = if opts.raw_stdout {
            None
        } else {
            child.stdout.take().map(LineReader::new)
        };
        Ok(EngineProcess {
            child,
            stdin,
            reader: Mutex::new(reader),
            events: OnceLock::new(),
            pid,
            program,
            status: None,
            write_buf: Vec::with_capacity(256),
        })
    }

    /// The engine's stdout, when spawned with `raw_stdout` (once).
    pub fn take_stdout(&mut self) -> Option<std::process::ChildStdout> {
        self.child.stdout.take()
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The program path as given (for messages).
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Writes one line (a `\n` is added) in a single write.
    pub fn send(&mut self, line: &[u8]) -> io::Result<()> {
        self.send_lines(&[line])
    }

    /// Closes the engine's stdin (after a last `quit`: a later
    /// [`EngineProcess::shutdown`] then sends nothing more).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Writes several lines (a `\n` added to each) in a single write.
    pub fn send_lines(&mut self, lines: &[&[u8]]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "engine stdin closed"))?;
        self.write_buf.clear();
        for line in lines {
            self.write_buf.extend_from_slice(line);
            self.write_buf.push(b'\n');
        }
        stdin.write_all(&self.write_buf)
    }

    /// Writes one text line.
    pub fn send_str(&mut self, line: &str) -> io::Result<()> {
        self.send(line.as_bytes())
    }

    /// The channel of stdout events, for `select!` with other channels.
    /// The first call starts a thread that reads stdout into it (lines
    /// already buffered come first); `recv_timeout` then reads the channel.
    pub fn events(&self) -> &Receiver<EngineEvent> {
        self.events.get_or_init(|| {
            let (tx, rx) = crossbeam_channel::unbounded();
            let reader = self
                .reader
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(mut reader) = reader {
                let on_fail = tx.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("engine-{}-stdout", self.pid))
                    .spawn(move || {
                        while let Ok(event) = reader.next_blocking() {
                            let eof = event == EngineEvent::Eof;
                            if tx.send(event).is_err() || eof {
                                break;
                            }
                        }
                    });
                if let Err(e) = spawned {
                    let _ = on_fail.send(EngineEvent::ReadError(format!(
                        "cannot start the stdout reader thread: {e}"
                    )));
                    let _ = on_fail.send(EngineEvent::Eof);
                }
            }
            rx
        })
    }

    /// The next stdout event, waiting at most `timeout` (a blocking wait,
    /// no spinning). After `Eof`, this returns `Disconnected`.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<EngineEvent, RecvTimeoutError> {
        if let Some(rx) = self.events.get() {
            return rx.recv_timeout(timeout);
        }
        let mut reader = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        match reader.as_mut() {
            Some(r) => r.next_timeout(timeout),
            None => {
                drop(reader);
                match self.events.get() {
                    Some(rx) => rx.recv_timeout(timeout),
                    None => Err(RecvTimeoutError::Disconnected),
                }
            }
        }
    }

    /// Like [`EngineProcess::recv_timeout`], but a line is appended to
    /// `out` and reported as an empty `Line`: the match runner reads every
    /// line into one reused buffer instead of allocating each.
    pub fn recv_into(
        &self,
        timeout: Duration,
        out: &mut Vec<u8>,
    ) -> Result<EngineEvent, RecvTimeoutError> {
        let event = if self.events.get().is_some() {
            None
        } else {
            let mut reader = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
            reader.as_mut().map(|r| r.next_into_timeout(timeout, out))
        };
        match event {
            Some(event) => event,
            None => match self.recv_timeout(timeout)? {
                EngineEvent::Line(line) => {
                    out.extend_from_slice(&line);
                    Ok(EngineEvent::Line(Vec::new()))
                }
                other => Ok(other),
            },
        }
    }

    /// The exit status if the engine has exited (reaps it).
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }

    /// Waits for the exit up to `timeout` (short sleeps: only used at the end
    /// of an engine's life, never on the data path).
    pub fn wait_timeout(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(s) = self.try_wait() {
                return Some(s);
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            std::thread::sleep((deadline - now).min(Duration::from_millis(5)));
        }
    }

    /// Sends a signal to the engine (if it has not been reaped yet).
    pub fn signal(&mut self, sig: i32) {
        if self.try_wait().is_none() {
            // SAFETY: plain kill(2) on our own child's pid, which is not
            // reaped yet, so it cannot have been reused.
            unsafe {
                libc::kill(self.pid as libc::pid_t, sig);
            }
        }
    }

    /// Ends the engine: `quit`, wait `grace`; SIGTERM, wait `grace`;
    /// SIGKILL, wait. Always reaps the child.
    pub fn shutdown(&mut self, grace: Duration) -> ExitReport {
        if let Some(status) = self.try_wait() {
            self.stdin = None;
            return ExitReport {
                status: Some(status),
                step: StopStep::AlreadyExited,
            };
        }
        let _ = self.send(b"quit");
        self.stdin = None; // EOF on the engine's stdin too
        if let Some(status) = self.wait_timeout(grace) {
            return ExitReport {
                status: Some(status),
                step: StopStep::Quit,
            };
        }
        self.signal(libc::SIGTERM);
        if let Some(status) = self.wait_timeout(grace) {
            return ExitReport {
                status: Some(status),
                step: StopStep::Terminated,
            };
        }
        let _ = self.child.kill();
        self.status = self.child.wait().ok();
        ExitReport {
            status: self.status,
            step: StopStep::Killed,
        }
    }

    /// Kills at once and reaps.
    pub fn kill(&mut self) -> Option<ExitStatus> {
        if self.try_wait().is_none() {
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
        }
        self.status
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_and_not_executable() {
        let err = EngineProcess::spawn(&EngineCommand::new("/nonexistent/engine")).err();
        assert!(matches!(err, Some(SpawnError::NotFound { .. })), "{err:?}");
        let file = std::env::temp_dir().join(format!("uci960-noexec-unit-{}", std::process::id()));
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        let err = EngineProcess::spawn(&EngineCommand::new(&file)).err();
        let _ = std::fs::remove_file(&file);
        assert!(
            matches!(err, Some(SpawnError::NotExecutable { .. })),
            "{err:?}"
        );
    }

    #[test]
    fn lines_eof_and_status() {
        let cmd = EngineCommand::new("sh").with_args(["-c", "printf 'a\\r\\nb\\nc'; exit 3"]);
        let mut p = EngineProcess::spawn(&cmd).unwrap();
        let t = Duration::from_secs(10);
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Line(b"a\r".to_vec())));
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Line(b"b".to_vec())));
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Line(b"c".to_vec())));
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Eof));
        assert_eq!(p.recv_timeout(t), Err(RecvTimeoutError::Disconnected));
        let status = p.wait_timeout(t).unwrap();
        assert_eq!(describe_status(status), "exited with code 3");
    }

    #[test]
    fn recv_into_appends_lines_on_either_path() {
        let cmd = EngineCommand::new("sh").with_args([
            "-c",
            "printf 'one\\ntwo\\n'; sleep 0.3; printf 'three\\nfour'",
        ]);
        let p = EngineProcess::spawn(&cmd).unwrap();
        let t = Duration::from_secs(10);
        let mut out = b"x".to_vec();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"xone");
        out.clear();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"two");
        assert_eq!(
            p.recv_into(Duration::from_millis(20), &mut out),
            Err(RecvTimeoutError::Timeout)
        );
        assert_eq!(out, b"two");
        // From the channel once `events()` took over the reading.
        let _ = p.events();
        out.clear();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"three");
        out.clear();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"four", "a last line without \\n");
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Eof));
        assert_eq!(
            p.recv_into(t, &mut out),
            Err(RecvTimeoutError::Disconnected)
        );
    }

    #[test]
    fn send_lines_writes_each_line_in_order() {
        // `head -n 3` echoes the three lines and exits.
        let cmd = EngineCommand::new("head").with_args(["-n", "3"]);
        let mut p = EngineProcess::spawn(&cmd).unwrap();
        p.send_lines(&[b"position startpos moves e2e4", b"go nodes 10"])
            .unwrap();
        p.send(b"quit").unwrap();
        let t = Duration::from_secs(10);
        for want in [
            &b"position startpos moves e2e4"[..],
            b"go nodes 10",
            b"quit",
        ] {
            assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Line(want.to_vec())));
        }
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Eof));
    }

    #[test]
    fn long_lines_timeouts_and_switch_to_channel() {
        // A line longer than the read buffer, a pause (timeout), then lines
        // read through the channel after `events()` took over.
        let cmd = EngineCommand::new("sh").with_args([
            "-c",
            "head -c 200000 /dev/zero | tr '\\0' x; echo; echo one; sleep 0.5; echo two; echo three",
        ]);
        let p = EngineProcess::spawn(&cmd).unwrap();
        let t = Duration::from_secs(10);
        match p.recv_timeout(t) {
            Ok(EngineEvent::Line(l)) => {
                assert_eq!(l.len(), 200_000);
                assert!(l.iter().all(|&b| b == b'x'));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Line(b"one".to_vec())));
        assert_eq!(
            p.recv_timeout(Duration::from_millis(50)),
            Err(RecvTimeoutError::Timeout)
        );
        let rx = p.events().clone();
        assert_eq!(rx.recv_timeout(t), Ok(EngineEvent::Line(b"two".to_vec())));
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Line(b"three".to_vec())));
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Eof));
        assert_eq!(p.recv_timeout(t), Err(RecvTimeoutError::Disconnected));
    }

    #[test]
    fn shutdown_escalates_to_sigterm() {
        // Ignores quit (reads nothing), dies on SIGTERM.
        let cmd = EngineCommand::new("sleep").with_args(["30"]);
        let mut p = EngineProcess::spawn(&cmd).unwrap();
        let report = p.shutdown(Duration::from_millis(200));
        assert_eq!(report.step, StopStep::Terminated);
        assert_eq!(report.describe(), "killed by signal 15 (SIGTERM)");
    }

    #[test]
    fn shutdown_escalates_to_sigkill() {
        let cmd = EngineCommand::new("sh").with_args(["-c", "trap '' TERM; sleep 30 & wait"]);
        let mut p = EngineProcess::spawn(&cmd).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let report = p.shutdown(Duration::from_millis(200));
        assert_eq!(report.step, StopStep::Killed);
    }
}
