//! The one UCI client of the tests: a child process (`uci960 engine`,
//! `uci960 proxy ...`, the mock engine, a real engine) driven line by line.
//! Every read has a deadline ([`PATIENCE`], a hang guard, not a timing
//! assertion), so no test can hang; every line read is kept in `seen` for
//! failure messages.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::process::wait_exit;

/// Long enough for any single answer on a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// What dropping a [`Client`] does to its process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnDrop {
    /// Sends `quit`, waits up to a few seconds, then kills.
    Quit,
    /// Kills at once.
    Kill,
}

pub struct Client {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    /// Every stdout line read so far.
    pub seen: Vec<String>,
    lines: Receiver<(Instant, String)>,
    stderr: Option<Receiver<(Instant, String)>>,
    on_drop: OnDrop,
}

impl Client {
    /// Starts `cmd` with piped stdin and stdout; stderr is captured (see
    /// [`Client::finish`]) when `capture_stderr`, else inherited.
    pub fn spawn(mut cmd: Command, capture_stderr: bool, on_drop: OnDrop) -> Client {
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        cmd.stderr(if capture_stderr {
            Stdio::piped()
        } else {
            Stdio::inherit()
        });
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        let lines = line_reader(child.stdout.take().expect("piped stdout"));
        let stderr = child.stderr.take().map(line_reader);
        Client {
            stdin: child.stdin.take(),
            child,
            seen: Vec::new(),
            lines,
            stderr,
            on_drop,
        }
    }

    /// Writes `line` and a newline.
    pub fn send(&mut self, line: &str) {
        let mut buf = line.as_bytes().to_vec();
        buf.push(b'\n');
        self.send_bytes(&buf);
    }

    /// Writes raw bytes (for input that isn't UTF-8), nothing added.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to the child");
        stdin.flush().expect("flush to the child");
    }

    /// Closes the child's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line with its arrival time, or `None` after `timeout`;
    /// panics when the child closed its output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((at, line)) => {
                self.seen.push(line.clone());
                Some((at, line))
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the child closed its output; seen:\n{}", self.tail())
            }
        }
    }

    /// Reads lines until one satisfies `done`; returns them all (the
    /// matching one last). Panics after [`PATIENCE`].
    pub fn until(&mut self, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((_, line)) = self.next_line(left) else {
                panic!("no answer in {PATIENCE:?}; lines so far:\n{}", self.tail());
            };
            let finished = done(&line);
            got.push(line);
            if finished {
                return got;
            }
        }
    }

    /// Reads until a line satisfies `pred` and returns it; `what` names it
    /// in the failure message.
    pub fn wait_for(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((_, line)) => {
                    self.seen.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timeout waiting for {what}; seen:\n{}", self.tail())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "output closed while waiting for {what}; seen:\n{}",
                        self.tail()
                    )
                }
            }
        }
    }

    /// The first line starting with `prefix`.
    pub fn wait_line(&mut self, prefix: &str) -> String {
        self.wait_for(prefix, |l| l.starts_with(prefix))
    }

    /// `uci` ... `uciok`.
    pub fn handshake(&mut self) {
        self.send("uci");
        self.wait_line("uciok");
    }

    /// `isready` round trip: the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `go ...`; the `bestmove` token and every line up to it.
    pub fn go(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .expect("bestmove token")
            .to_string();
        (best, lines)
    }

    pub fn set_chess960(&mut self, on: bool) {
        self.send(&format!("setoption name UCI_Chess960 value {on}"));
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes stdin and waits for the exit (killing after [`PATIENCE`]):
    /// the status, every stdout line, stderr (empty unless captured).
    pub fn finish(mut self) -> (ExitStatus, Vec<String>, String) {
        self.stdin = None;
        let status = wait_exit(&mut self.child, PATIENCE).expect("the child did not exit");
        let mut seen = std::mem::take(&mut self.seen);
        seen.extend(self.lines.iter().map(|(_, l)| l));
        let err: Vec<String> = match &self.stderr {
            Some(rx) => rx.iter().map(|(_, l)| l).collect(),
            None => Vec::new(),
        };
        (status, seen, err.join("\n"))
    }

    fn tail(&self) -> String {
        let n = self.seen.len().saturating_sub(40);
        self.seen[n..].join("\n")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if self.on_drop == OnDrop::Quit
            && let Some(stdin) = self.stdin.as_mut()
        {
            let _ = stdin.write_all(b"quit\n");
            let _ = stdin.flush();
            if wait_exit(&mut self.child, Duration::from_secs(5)).is_some() {
                return;
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads a child's output on a thread of its own: each line (lossy UTF-8,
/// without its `\n` or `\r\n`) with the moment it arrived. The channel
/// closes at end of file, so a reader with a timeout never hangs.
pub fn line_reader<R: Read + Send + 'static>(source: R) -> Receiver<(Instant, String)> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut source = BufReader::new(source);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match source.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf)
                        .trim_end_matches(['\n', '\r'])
                        .to_string();
                    if tx.send((Instant::now(), line)).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// The lines of `lines` before the first that equals `last`; panics with
/// what came if the channel closes or `guard` passes first.
pub fn lines_before(
    lines: &Receiver<(Instant, String)>,
    last: &str,
    guard: Duration,
) -> Vec<String> {
    let deadline = Instant::now() + guard;
    let mut said = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok((_, line)) if line == last => return said,
            Ok((_, line)) => said.push(line),
            Err(e) => panic!("{e:?} before {last:?}: {said:?}"),
        }
    }
}

/// A proxy in front of the mock engine (`mock_flag` its one flag) whose
/// stderr goes to `stderr`, after one `go depth 1` has been answered with a
/// bestmove: the start of the tests that a full or unread stderr blocks
/// nothing. Returns the proxy, its stdin and its stdout lines.
pub fn proxy_after_one_move(
    mock_flag: &str,
    stderr: impl Into<Stdio>,
) -> (Child, ChildStdin, Receiver<(Instant, String)>) {
    let mut child = Command::new(super::uci960())
        .args(["proxy", "--"])
        .arg(super::mock_engine())
        .arg(mock_flag)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("uci960 proxy starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let lines = line_reader(child.stdout.take().expect("piped stdout"));
    stdin
        .write_all(b"uci\nposition startpos\ngo depth 1\nisready\n")
        .expect("the proxy reads its stdin");
    let said = lines_before(&lines, "readyok", PATIENCE);
    assert!(
        said.iter().any(|l| l.starts_with("bestmove")),
        "{mock_flag}: {said:?}"
    );
    (child, stdin, lines)
}
