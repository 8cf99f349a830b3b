//! Helpers shared by the integration tests: the binary under test, real
//! engines and python-chess. In CI (`CI=true`) a missing engine or
//! python-chess fails the test; elsewhere the test is skipped with a
//! visible message.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

/// The `uci960` binary built for this test run.
pub fn uci960() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_uci960"))
}

/// Whether the tests run in CI, where nothing may be skipped.
pub fn in_ci() -> bool {
    std::env::var("CI")
        .map(|v| v == "true" || v == "1")
        .unwrap_or(false)
}

/// Finds an engine on PATH or in /usr/games (Debian puts engines there).
/// `None` means: skip (only outside CI; in CI this panics).
pub fn require_engine(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.push(PathBuf::from("/usr/games"));
    for dir in dirs {
        let candidate = dir.join(name);
        if candidate.is_file() {
            return Some(candidate);
        }
    }
    missing(&format!("engine '{name}' (apt-get install {name})"))
}

/// Finds a python3 that can `import chess`.
pub fn require_python_chess() -> Option<PathBuf> {
    for python in ["python3", "python"] {
        let ok = Command::new(python)
            .args(["-c", "import chess, chess.engine"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if ok {
            return Some(PathBuf::from(python));
        }
    }
    missing("python-chess (pip install chess)")
}

fn missing<T>(what: &str) -> Option<T> {
    if in_ci() {
        panic!("{what} is missing, and CI must not skip tests that need it");
    }
    eprintln!("SKIPPED: {what} is not installed; run scripts/test.sh to install it");
    None
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
