//! Driving `uci960 proxy` as a raw client: write lines, read lines with a
//! timeout (so no test can hang), find the engine child by pid.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::common::line_reader;

pub const T: Duration = Duration::from_secs(30);

pub struct Proxy {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<(Instant, String)>,
    pub stderr: Receiver<(Instant, String)>,
    pub seen: Vec<String>,
}

impl Proxy {
    /// `uci960 proxy ARGS...`
    pub fn start(args: &[&str]) -> Proxy {
        let mut child = Command::new(crate::common::uci960())
            .arg("proxy")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start proxy");
        let lines = line_reader(child.stdout.take().expect("stdout"));
        let stderr = line_reader(child.stderr.take().expect("stderr"));
        Proxy {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    pub fn send_bytes(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        let mut buf = line.to_vec();
        buf.push(b'\n');
        stdin.write_all(&buf).expect("write to proxy");
    }

    /// Reads until a line satisfies `pred`; panics after `T` with what was seen.
    pub fn wait_for(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + T;
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
                        "proxy closed output waiting for {what}; seen:\n{}",
                        self.tail()
                    )
                }
            }
        }
    }

    pub fn wait_line(&mut self, prefix: &str) -> String {
        let p = prefix.to_string();
        self.wait_for(prefix, move |l| l.starts_with(&p))
    }

    fn tail(&self) -> String {
        let n = self.seen.len().saturating_sub(40);
        self.seen[n..].join("\n")
    }

    /// `uci` ... `uciok`.
    pub fn handshake(&mut self) {
        self.send("uci");
        self.wait_line("uciok");
    }

    /// Closes stdin and waits for the exit (killing after `T`).
    pub fn finish(mut self) -> (ExitStatus, Vec<String>, String) {
        self.stdin = None;
        let status = wait_exit(&mut self.child, T).expect("proxy did not exit");
        let mut rest: Vec<String> = self.lines.iter().map(|(_, l)| l).collect();
        let mut seen = std::mem::take(&mut self.seen);
        seen.append(&mut rest);
        let err: Vec<String> = self.stderr.iter().map(|(_, l)| l).collect();
        (status, seen, err.join("\n"))
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn wait_exit(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(Some(s)) = child.try_wait() {
            return Some(s);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Pids whose parent is `pid` (from /proc).
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(p) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) {
            // pid (comm) state ppid ...; comm may contain spaces.
            if let Some(after) = stat.rsplit_once(')').map(|(_, a)| a) {
                let ppid = after
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse::<u32>().ok());
                if ppid == Some(pid) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Whether a process exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .map(|(_, a)| a.split_whitespace().next() != Some("Z"))
            .unwrap_or(false),
        Err(_) => false,
    }
}

/// Waits until a pid is gone (or a zombie is reaped).
pub fn gone_within(pid: u32, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A fake engine script in tests/fakes.
pub fn fake(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fakes")
        .join(name)
}
