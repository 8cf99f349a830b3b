//! Running a command of the binary under test (or python-chess) and
//! reading what it wrote: one way to check that it succeeded, to read its
//! JSON, to run `uci960 match` and to have python-chess check a PGN.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

/// Fails the test, with the command's stdout and stderr, unless it
/// succeeded.
pub fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "{:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The JSON a successful command printed on stdout.
pub fn stdout_json(out: &Output) -> Value {
    assert_ok(out);
    serde_json::from_slice(&out.stdout).expect("the command printed JSON")
}

/// The JSON in a file a command wrote.
pub fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Owned arguments from string slices.
pub fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// `--engine cmd=PATH` and then `more` (`name=…`, `nodes=…`,
/// `option.Hash=16`) for `uci960 match`.
pub fn engine_args(cmd: &Path, more: &[&str]) -> Vec<String> {
    let mut args = vec!["--engine".to_string(), format!("cmd={}", cmd.display())];
    args.extend(strs(more));
    args
}

/// A match whose games are the same on every run: the built-in engine at
/// depths 2 and 3, the die method from `seed`, two random plies, at most 40
/// moves, fresh processes every game, one game at a time.
pub fn deterministic_match(games: u32, seed: u32) -> Vec<String> {
    strs(&[
        "--engine",
        "name=a",
        "depth=2",
        "--engine",
        "name=b",
        "depth=3",
        "--games",
        &games.to_string(),
        "--seed",
        &seed.to_string(),
        "--start",
        "die",
        "--random-plies",
        "2",
        "--maxmoves",
        "40",
        "--restart",
        "on",
    ])
}

/// `uci960 match ARGS` with stdin closed.
pub fn run_match(args: &[String]) -> Output {
    Command::new(super::uci960())
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run uci960 match")
}

/// `uci960 match ARGS` started in the background, silent, with stdin
/// closed: for the tests that act on a run while it plays.
pub fn spawn_match(args: &[String]) -> Child {
    Command::new(super::uci960())
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start uci960 match")
}

/// python-chess's view of a PGN (tests/python/check_pgn.py).
pub fn check_pgn(python: &Path, pgn: &Path) -> Value {
    let out = Command::new(python)
        .arg(format!(
            "{}/tests/python/check_pgn.py",
            env!("CARGO_MANIFEST_DIR")
        ))
        .arg(pgn)
        .output()
        .expect("run python");
    stdout_json(&out)
}

/// python-chess found no problem in the PGN and read rounds 1 to `games`,
/// each once.
pub fn assert_each_round_once(report: &Value, games: u64) {
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert_eq!(
        report["rounds"],
        serde_json::json!((1..=games).collect::<Vec<_>>()),
        "each game once: {report}"
    );
}
