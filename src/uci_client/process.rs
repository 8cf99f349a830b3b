//! A running engine process: spawn, line I/O, exit status, shutdown.
//!
//! stdout is split into lines (without their `\n`; a `\r` stays, so a relay
//! writes back exactly what it read), followed by [`EngineEvent::Eof`].
//! [`EngineProcess::recv_timeout`] reads them on the caller's thread
//! through [`crate::platform::PipeReader`] (on POSIX a `poll` with the
//! timeout, then one large `read`: no thread hand-off per line) into a
//! [`LineBuffer`]; [`EngineProcess::recv_into`] appends a line to the
//! caller's buffer instead of allocating one. Lines longer than
//! [`MAX_LINE`] are reported ([`EngineEvent::LineTooLong`]) and skipped.
//! Writing is synchronous from the owner's thread, one `write_all` per
//! line or per group of lines ([`EngineProcess::send_lines`]: `position` +
//! `go` wake the engine once); the proxy, which must never block, takes
//! both pipes instead ([`EngineProcess::take_pipes`]).
//!
//! The engine runs in its own process group (a Job Object on Windows, see
//! [`crate::platform`]): terminating or killing it reaches a wrapper
//! script's children too. Dropping an [`EngineProcess`] that has not been
//! shut down kills and reaps it, so no zombie and no orphan is left behind
//! whatever path the owner takes.

use std::io::{self, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::command::EngineCommand;
use crate::lines::{LineBuffer, MAX_LINE, StreamLine};
use crate::platform::{self, PipeReader, ProcessGroup, ReadOutcome};

pub use crate::platform::describe_status;

/// What reading the engine's stdout gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// One line, without its `\n`.
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`], skipped.
    LineTooLong { limit: usize },
    /// stdout closed (the engine exited or closed it).
    Eof,
    /// Reading failed; stdout is treated as closed after this.
    ReadError(String),
    /// Reading failed because uci960 is out of resources (memory; on
    /// Windows the reader thread could not start): not the engine's doing.
    OutOfResources(String),
}

/// Why no event came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecvError {
    #[error("timed out")]
    Timeout,
    /// `Eof` was already handed out.
    #[error("engine output closed")]
    Disconnected,
    /// A termination signal arrived (see [`crate::platform::interrupt`]).
    #[error("interrupted by signal {0}")]
    Interrupted(i32),
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
    /// uci960 itself is out of descriptors, processes or memory: not the
    /// engine's fault (issue 21: `ulimit -n 20` scored a game as a crash).
    #[error("cannot start engine '{program}': uci960 is out of resources: {source}")]
    Resources { program: String, source: io::Error },
}

/// Where the engine's stderr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StderrMode {
    /// Shared with this process (the proxy: the GUI shows or logs it).
    #[default]
    Inherit,
    /// Discarded (the match runner, many engines at once).
    Null,
    /// Read by a thread of ours and written to our stderr through
    /// [`crate::platform::diag`] (the proxy): the same text as `Inherit`,
    /// but an engine never blocks on a stderr nobody reads (issue 21), its
    /// lines are dropped (counted) instead.
    Forward,
}

/// Options for [`EngineProcess::spawn_with`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SpawnOptions {
    pub stderr: StderrMode,
    /// Linux: the kernel sends SIGKILL to the engine when the thread that
    /// spawned it ends (even if this process is SIGKILLed). Only set it when
    /// spawning from a thread that lives as long as the engine should (the
    /// proxy's main thread). Windows: every engine is in a kill-on-close
    /// Job Object anyway.
    pub die_with_parent: bool,
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

/// Where the stdout stream stands.
#[derive(Debug, PartialEq, Eq)]
enum Stream {
    Open,
    /// End of file seen: buffered lines still to hand out, then `Eof`.
    Ended,
    /// `Eof` handed out.
    Done,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    group: ProcessGroup,
    stdin: Option<ChildStdin>,
    /// stdout until the first read (or [`EngineProcess::take_pipes`]).
    stdout: Option<ChildStdout>,
    /// Made at the first read (on Windows it starts a thread).
    reader: Option<PipeReader>,
    lines: LineBuffer,
    stream: Stream,
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
        // A relative path with a directory part is relative to the engine's
        // working directory, on every system (POSIX resolves it after the
        // `chdir`, Windows before: joined here, both read it the same).
        let path = match &cmd.dir {
            Some(dir) if cmd.program.is_relative() && cmd.program.components().count() > 1 => {
                dir.join(&cmd.program)
            }
            _ => cmd.program.clone(),
        };
        let mut command = Command::new(&path);
        command
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match opts.stderr {
                StderrMode::Inherit => Stdio::inherit(),
                StderrMode::Null => Stdio::null(),
                StderrMode::Forward => Stdio::piped(),
            });
        if let Some(dir) = &cmd.dir {
            command.current_dir(dir);
        }
        platform::prepare(&mut command, opts.die_with_parent);
        let mut child = platform::spawn(&mut command).map_err(|e| spawn_error(&program, e))?;
        let group = match ProcessGroup::new(&child) {
            Ok(group) => group,
            Err(source) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(spawn_error(&program, source));
            }
        };
        if let Some(stderr) = child.stderr.take()
            && let Err(source) = platform::diag::forward(stderr)
        {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(&program, source));
        }
        let pid = child.id();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        Ok(EngineProcess {
            child,
            group,
            stdin,
            stdout,
            reader: None,
            lines: LineBuffer::new(MAX_LINE),
            stream: Stream::Open,
            pid,
            program,
            status: None,
            write_buf: Vec::with_capacity(256),
        })
    }

    /// The engine's stdin and stdout, for an I/O loop of the caller's own
    /// (the proxy's [`crate::platform::Relay`]); sending and receiving
    /// through this process fail from then on.
    pub fn take_pipes(&mut self) -> Option<(ChildStdin, ChildStdout)> {
        match (self.stdin.take(), self.stdout.take()) {
            (Some(stdin), Some(stdout)) => Some((stdin, stdout)),
            _ => None,
        }
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

    /// The next stdout event, waiting at most `timeout`: a line, then `Eof`
    /// once (after a `ReadError` if reading failed), then `Disconnected`.
    pub fn recv_timeout(&mut self, timeout: Duration) -> Result<EngineEvent, RecvError> {
        self.recv(Some(Instant::now() + timeout), None)
    }

    /// Like [`EngineProcess::recv_timeout`], but a line is appended to
    /// `out` and reported as an empty `Line`: the match runner reads every
    /// line into one reused buffer instead of allocating each.
    pub fn recv_into(
        &mut self,
        timeout: Duration,
        out: &mut Vec<u8>,
    ) -> Result<EngineEvent, RecvError> {
        self.recv(Some(Instant::now() + timeout), Some(out))
    }

    fn recv(
        &mut self,
        deadline: Option<Instant>,
        out: Option<&mut Vec<u8>>,
    ) -> Result<EngineEvent, RecvError> {
        loop {
            let line = match self.stream {
                Stream::Open => self.lines.next_line(),
                Stream::Ended => self.lines.finish(),
                Stream::Done => return Err(RecvError::Disconnected),
            };
            match line {
                Some(StreamLine::Complete(bytes)) => {
                    return Ok(match out {
                        Some(out) => {
                            out.extend_from_slice(bytes);
                            EngineEvent::Line(Vec::new())
                        }
                        None => EngineEvent::Line(bytes.to_vec()),
                    });
                }
                Some(StreamLine::TooLong { limit }) => {
                    return Ok(EngineEvent::LineTooLong { limit });
                }
                None if self.stream == Stream::Ended => {
                    self.stream = Stream::Done;
                    return Ok(EngineEvent::Eof);
                }
                None => {}
            }
            if self.reader.is_none() {
                self.reader = self.stdout.take().map(PipeReader::new);
            }
            let Some(reader) = self.reader.as_mut() else {
                self.stream = Stream::Ended;
                continue;
            };
            match reader.read(&mut self.lines, deadline) {
                ReadOutcome::Data | ReadOutcome::WouldBlock => {}
                ReadOutcome::Eof => self.stream = Stream::Ended,
                ReadOutcome::Error(e) => {
                    self.stream = Stream::Ended;
                    if platform::is_out_of_resources(&e) {
                        return Ok(EngineEvent::OutOfResources(e.to_string()));
                    }
                    return Ok(EngineEvent::ReadError(e.to_string()));
                }
                ReadOutcome::Timeout => return Err(RecvError::Timeout),
                ReadOutcome::Interrupted => {
                    let sig = platform::interrupt::received().unwrap_or(0);
                    return Err(RecvError::Interrupted(sig));
                }
            }
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

    /// Ends the engine: `quit` (unless its stdin was taken: the owner sent
    /// it), wait `grace`; terminate the group (SIGTERM), wait `grace`; kill
    /// the group (SIGKILL), wait. Always reaps the child, and kills what
    /// is left of its group (a wrapper's children).
    pub fn shutdown(&mut self, grace: Duration) -> ExitReport {
        let report = self.shutdown_steps(grace);
        self.group.kill();
        report
    }

    fn shutdown_steps(&mut self, grace: Duration) -> ExitReport {
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
        self.group.terminate();
        if let Some(status) = self.wait_timeout(grace) {
            return ExitReport {
                status: Some(status),
                step: StopStep::Terminated,
            };
        }
        self.kill();
        ExitReport {
            status: self.status,
            step: StopStep::Killed,
        }
    }

    /// Kills the engine and its group at once, and reaps it.
    pub fn kill(&mut self) -> Option<ExitStatus> {
        self.group.kill();
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

fn spawn_error(program: &str, e: io::Error) -> SpawnError {
    let program = program.to_string();
    match e.kind() {
        io::ErrorKind::NotFound => SpawnError::NotFound { program },
        _ if platform::is_not_executable(&e) => SpawnError::NotExecutable { program },
        _ if platform::is_out_of_resources(&e) => SpawnError::Resources { program, source: e },
        _ => SpawnError::Io { program, source: e },
    }
}

#[cfg(all(test, unix))]
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
        assert_eq!(p.recv_timeout(t), Err(RecvError::Disconnected));
        let status = p.wait_timeout(t).unwrap();
        assert_eq!(describe_status(status), "exited with code 3");
    }

    #[test]
    fn recv_into_appends_lines_and_times_out_between_them() {
        // The second half only comes after the test's own `go` line, so the
        // timeout in between is an event, not a race.
        let cmd = EngineCommand::new("sh")
            .with_args(["-c", "printf 'one\\ntwo\\n'; read x; printf 'three\\nfour'"]);
        let mut p = EngineProcess::spawn(&cmd).unwrap();
        let t = Duration::from_secs(10);
        let mut out = b"x".to_vec();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"xone");
        out.clear();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"two");
        assert_eq!(
            p.recv_into(Duration::from_millis(20), &mut out),
            Err(RecvError::Timeout)
        );
        assert_eq!(out, b"two");
        p.send(b"go").unwrap();
        out.clear();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"three");
        out.clear();
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Line(Vec::new())));
        assert_eq!(out, b"four", "a last line without \\n");
        assert_eq!(p.recv_into(t, &mut out), Ok(EngineEvent::Eof));
        assert_eq!(p.recv_into(t, &mut out), Err(RecvError::Disconnected));
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
    fn long_lines_are_kept_up_to_the_limit_and_skipped_past_it() {
        let cmd = EngineCommand::new("sh").with_args([
            "-c",
            "head -c 200000 /dev/zero | tr '\\0' x; echo; \
             head -c 3000000 /dev/zero | tr '\\0' y; echo; echo one",
        ]);
        let mut p = EngineProcess::spawn(&cmd).unwrap();
        let t = Duration::from_secs(10);
        match p.recv_timeout(t) {
            Ok(EngineEvent::Line(l)) => {
                assert_eq!(l.len(), 200_000);
                assert!(l.iter().all(|&b| b == b'x'));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            p.recv_timeout(t),
            Ok(EngineEvent::LineTooLong { limit: MAX_LINE })
        );
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Line(b"one".to_vec())));
        assert_eq!(p.recv_timeout(t), Ok(EngineEvent::Eof));
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
        // The shell ignores SIGTERM and says so once that is set up.
        let cmd =
            EngineCommand::new("sh").with_args(["-c", "trap '' TERM; echo ready; sleep 30 & wait"]);
        let mut p = EngineProcess::spawn(&cmd).unwrap();
        assert_eq!(
            p.recv_timeout(Duration::from_secs(10)),
            Ok(EngineEvent::Line(b"ready".to_vec()))
        );
        let report = p.shutdown(Duration::from_millis(200));
        assert_eq!(report.step, StopStep::Killed);
    }
}
