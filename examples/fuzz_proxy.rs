//! Process-level fuzzer of `uci960 proxy` (issue 12): the real binary in
//! front of the Rust mock engine (`examples/mock_engine.rs`), fed random
//! and mutated GUI traffic in bursts (one write per batch); every fourth
//! session the mock answers each `go` with garbage (`--garbage`: invalid
//! UTF-8, a 1 MiB line, NUL bytes), so the engine side is hostile too. After every
//! batch it checks that
//! * `isready` is answered with `readyok` within 5 s,
//! * no stderr line holds `panicked`,
//! * the proxy's resident memory stays under 256 MiB,
//!
//! and at the end of each session (`quit`) that the proxy exits within 5 s
//! and leaves no engine process behind. A failure prints the session's
//! seed and the batch; the run exits 1.
//!
//! ```text
//! cargo build --example mock_engine --example fuzz_proxy && cargo build
//! target/debug/examples/fuzz_proxy [--seed N] [--sessions N] [--batches N] [--seconds N]
//! ```
//!
//! `--seconds N` starts no session after N seconds (a long run that must
//! end by a given time and still print its summary).
//!
//! Lines that would end the session or write files are left out of the
//! traffic: `quit`, `isready` (the checker's own), and anything naming a
//! log (`uci960 Log` would write where the fuzzer says).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

#[path = "fuzz_input/mod.rs"]
mod fuzz_input;
use fuzz_input::{Gen, corpus};

const ANSWER: Duration = Duration::from_secs(5);
const RSS_LIMIT_KB: u64 = 256 * 1024;

fn arg(args: &[String], flag: &str) -> Option<u64> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
}

/// The binaries beside this example: `target/<profile>/uci960` and
/// `target/<profile>/examples/mock_engine`.
fn binaries() -> (PathBuf, PathBuf) {
    let me = std::env::current_exe().expect("current exe");
    let examples = me.parent().expect("examples dir").to_path_buf();
    let profile = examples.parent().expect("profile dir").to_path_buf();
    (profile.join("uci960"), examples.join("mock_engine"))
}

fn lines_of<R: Read + Send + 'static>(source: R) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut source = BufReader::new(source);
        let mut buf = Vec::new();
        while matches!(source.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
            if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                return;
            }
            buf.clear();
        }
    });
    rx
}

fn children_of(pid: u32) -> Vec<u32> {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) else {
        return Vec::new();
    };
    text.split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect()
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            s.rsplit_once(')')
                .is_some_and(|(_, a)| a.split_whitespace().next() != Some("Z"))
        })
        .unwrap_or(false)
}

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Whether a generated line may go into the traffic. Besides `quit`,
/// `isready` and logs, a `go perft N` deeper than 4 is left out: the mock
/// (like Stockfish) counts a perft before it reads its next line, and a
/// depth-8 perft takes it hours, so `isready` would go unanswered by the
/// engine, not by the proxy (session 2029019085 of seed 2029 did that).
/// Tokens are split as the mock splits them.
fn allowed(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    let first = text
        .split([' ', '\t', '\r'])
        .find(|t| !t.is_empty())
        .unwrap_or("");
    let mut tokens = text.split_whitespace();
    let deep_perft = (tokens.next(), tokens.next()) == (Some("go"), Some("perft"))
        && tokens.next().and_then(|d| d.parse::<u64>().ok()) > Some(4);
    first != "quit" && first != "isready" && !text.contains("log") && !deep_perft
}

struct Stats {
    sessions: u64,
    batches: u64,
    lines: u64,
    bytes: u64,
    max_rss_kb: u64,
}

/// One session; `Err` describes a failed check.
fn session(
    inputs: &mut Gen,
    corpus: &[Vec<u8>],
    batches: u64,
    garbage: bool,
    stats: &mut Stats,
) -> Result<(), String> {
    let (uci960, mock) = binaries();
    let mut child: Child = Command::new(&uci960)
        .args(["proxy", "--seed", "1", "--"])
        .arg(&mock)
        .args(garbage.then_some("--garbage"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", uci960.display()))?;
    let pid = child.id();
    let out = lines_of(child.stdout.take().expect("stdout"));
    let err = lines_of(child.stderr.take().expect("stderr"));
    let mut stdin = child.stdin.take().expect("stdin");
    let result = (|| {
        let wait_for = |want: &str, count: usize| -> Result<(), String> {
            let deadline = Instant::now() + ANSWER;
            let mut seen = 0;
            while seen < count {
                let left = deadline.saturating_duration_since(Instant::now());
                match out.recv_timeout(left) {
                    Ok(line) if line.trim_end() == want => seen += 1,
                    Ok(_) => {}
                    Err(RecvTimeoutError::Timeout) => {
                        return Err(format!("no {want} within {ANSWER:?}"));
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(format!("the proxy closed its output waiting for {want}"));
                    }
                }
            }
            Ok(())
        };
        stdin
            .write_all(b"uci\n")
            .map_err(|e| format!("write uci: {e}"))?;
        wait_for("uciok", 1)?;
        let engine = children_of(pid);
        for batch in 0..batches {
            let mut burst = Vec::new();
            let mut lines = 0;
            for _ in 0..1 + inputs.below(40) {
                let kind = inputs.below(3) as u64;
                let data = inputs.input(kind, corpus);
                for line in data.split(|&b| b == b'\n') {
                    if allowed(line) {
                        burst.extend_from_slice(line);
                        burst.push(b'\n');
                        lines += 1;
                    }
                }
            }
            burst.extend_from_slice(b"isready\n");
            stdin
                .write_all(&burst)
                .map_err(|e| format!("batch {batch}: write: {e}"))?;
            stats.lines += lines + 1;
            stats.bytes += burst.len() as u64;
            wait_for("readyok", 1).map_err(|e| {
                format!(
                    "batch {batch}: {e}; the batch:\n{}",
                    String::from_utf8_lossy(&burst)
                )
            })?;
            stats.batches += 1;
            while let Ok(line) = err.try_recv() {
                if line.contains("panicked") {
                    return Err(format!("batch {batch}: panic: {line}"));
                }
            }
            let rss = rss_kb(pid);
            stats.max_rss_kb = stats.max_rss_kb.max(rss);
            if rss > RSS_LIMIT_KB {
                return Err(format!("batch {batch}: RSS {rss} kB"));
            }
        }
        stdin
            .write_all(b"quit\n")
            .map_err(|e| format!("write quit: {e}"))?;
        let deadline = Instant::now() + ANSWER;
        loop {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            if Instant::now() > deadline {
                return Err("the proxy did not exit after quit".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // The engine is reaped by the proxy, or at least dying.
        let deadline = Instant::now() + ANSWER;
        while engine.iter().any(|&p| alive(p)) {
            if Instant::now() > deadline {
                return Err(format!("engine {engine:?} outlived the proxy"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(())
    })();
    let _ = child.kill();
    let _ = child.wait();
    stats.sessions += 1;
    result
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed = arg(&args, "--seed").unwrap_or(1);
    let sessions = arg(&args, "--sessions").unwrap_or(20);
    let batches = arg(&args, "--batches").unwrap_or(5);
    let corpus = corpus("gui");
    let mut stats = Stats {
        sessions: 0,
        batches: 0,
        lines: 0,
        bytes: 0,
        max_rss_kb: 0,
    };
    let started = Instant::now();
    let mut failures = 0;
    // `--session-seed S`: replay one session of a report (session n of
    // seed s has seed s * 1000003 + n; every fourth has the garbage engine).
    let replay = arg(&args, "--session-seed");
    let sessions = if replay.is_some() { 1 } else { sessions };
    let budget = arg(&args, "--seconds").map(Duration::from_secs);
    for n in 0..sessions {
        if budget.is_some_and(|b| started.elapsed() >= b) {
            break;
        }
        let session_seed = replay.unwrap_or(seed.wrapping_mul(1_000_003).wrapping_add(n));
        let n = replay.map_or(n, |s| s.wrapping_sub(seed.wrapping_mul(1_000_003)));
        let mut inputs = Gen::new(session_seed);
        if let Err(e) = session(&mut inputs, &corpus, batches, n % 4 == 3, &mut stats) {
            failures += 1;
            println!("FAILURE session seed {session_seed}: {e}");
        }
        if (n + 1).is_multiple_of(1000) {
            println!(
                "  {} sessions, {} batches, {failures} failures, {:.0} s",
                n + 1,
                stats.batches,
                started.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "fuzz-proxy: {} sessions, {} batches, {} lines, {} bytes, max RSS {} kB, {failures} failures in {:.1} s (seed {seed})",
        stats.sessions,
        stats.batches,
        stats.lines,
        stats.bytes,
        stats.max_rss_kb,
        started.elapsed().as_secs_f64()
    );
    if failures > 0 {
        std::process::exit(1);
    }
}
