//! A scripted client that writes all its lines and closes its input at once
//! (`printf … | uci960 proxy`), as the README's example does: the proxy must
//! forward the lines it held during the handshake, send `quit` after them,
//! and relay the engine's last answer before it exits 0.

use crate::common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

fn piped(engine: &[&str], script: &str) -> (Option<i32>, String) {
    let mut child = Command::new(common::uci960())
        .arg("proxy")
        .args(["--seed", "3"])
        .args(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start proxy");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write script");
    // The pipe is closed here: EOF right after the last command.
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let _stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let status = common::wait_exit(&mut child, common::PATIENCE).expect("the proxy did not exit");
    let stdout = stdout.join().expect("stdout reader");
    (status.code(), String::from_utf8_lossy(&stdout).into_owned())
}

const SCRIPT: &str = "uci\nsetoption name uci960 Start value die\nucinewgame\nisready\nposition startpos\ngo depth 3\n";

fn check(stdout: &str) {
    let announce = stdout
        .lines()
        .find(|l| l.starts_with("info string uci960 start sp "))
        .unwrap_or_else(|| panic!("no announce line in:\n{stdout}"));
    let fen = announce.split(" fen ").nth(1).expect("fen in announce");
    let pos = uci960::notation::fen::parse_position(fen).expect("announced FEN is legal");
    let best = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in:\n{stdout}"));
    let mv = best.split_whitespace().next().expect("move");
    let uci: shakmaty::uci::UciMove = mv.parse().expect("UCI move");
    assert!(uci.to_move(&pos).is_ok(), "{mv} is not legal in {fen}");
    assert!(stdout.lines().any(|l| l == "readyok"));
}

#[test]
fn builtin_engine_answers_a_piped_script() {
    let (code, stdout) = piped(&[], SCRIPT);
    assert_eq!(code, Some(0), "{stdout}");
    check(&stdout);
}

#[test]
fn stockfish_answers_a_piped_script() {
    let Some(stockfish) = common::require_engine("stockfish") else {
        return;
    };
    let (code, stdout) = piped(&["--", stockfish.to_str().expect("path")], SCRIPT);
    assert_eq!(code, Some(0), "{stdout}");
    check(&stdout);
}

#[test]
fn engine_flag_is_another_spelling_of_the_trailing_engine() {
    let Some(stockfish) = common::require_engine("stockfish") else {
        return;
    };
    let path = stockfish.to_str().expect("path");
    let (code, stdout) = piped(&["--engine", path], SCRIPT);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.lines().any(|l| l == "uciok")
            && stdout.lines().any(|l| l.starts_with("id name Stockfish")),
        "{stdout}"
    );
    check(&stdout);
    let (code, stdout) = piped(&[&format!("--engine={path}")], "uci\n");
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.lines().any(|l| l == "uciok"), "{stdout}");
}

#[test]
fn engine_flag_and_trailing_engine_together_are_a_usage_error() {
    for args in [
        &[
            "--engine",
            "/usr/games/stockfish",
            "--",
            "/usr/games/stockfish",
        ][..],
        &["--engine", "/usr/games/stockfish", "/usr/games/stockfish"],
    ] {
        let out = Command::new(common::uci960())
            .arg("proxy")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run proxy");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--engine") && stderr.contains("cannot be used with"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: nothing for the GUI");
    }
}
