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
fn engine_flag_takes_the_keys_of_every_command() {
    let Some(stockfish) = common::require_engine("stockfish") else {
        return;
    };
    let program = format!("program={}", stockfish.display());
    let (code, stdout) = piped(&["--engine", &program, "option.Hash=16"], SCRIPT);
    assert_eq!(code, Some(0), "{stdout}");
    check(&stdout);
    // A key the proxy has no use for is refused, as in its config.
    let out = Command::new(common::uci960())
        .args(["proxy", "--engine", &program, "nodes=10"])
        .stdin(Stdio::null())
        .output()
        .expect("run proxy");
    assert_eq!(out.status.code(), Some(2));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("--engine: [engine] nodes"), "{said}");
}

/// The mock engine speaking standard castling notation in Chess960
/// (`--king-two-squares`) behind the proxy, `castles=` as given; returns
/// the GUI's lines and the proxy's log.
fn standard_castles_through_proxy(castles: &str) -> (String, String) {
    let dir = common::scratch_dir(&format!("proxy-castles-{castles}"));
    let log = dir.join("proxy.log");
    let mock = format!("program={}", common::mock_engine().display());
    let (code, stdout) = piped(
        &[
            "--log",
            log.to_str().expect("path"),
            "--engine",
            &mock,
            "arg=--king-two-squares",
            &format!("castles={castles}"),
        ],
        "uci\nsetoption name UCI_Chess960 value true\nisready\n\
         position fen 3k3r/pppppppp/8/8/8/8/PPPPPPPP/3K3R w Hh - 0 1 moves d1h1\ngo nodes 1\n",
    );
    assert_eq!(code, Some(0), "{stdout}");
    (stdout, std::fs::read_to_string(&log).expect("log"))
}

#[test]
fn castles_standard_engine_gets_and_gives_castles_in_its_notation() {
    let (stdout, log) = standard_castles_through_proxy("standard");
    // The GUI's king-takes-rook castle goes to the engine as d1g1, and the
    // engine's d8g8 comes back to the GUI as king takes rook, unremarked.
    assert!(
        log.lines()
            .any(|l| l.contains("proxy>engine") && l.ends_with("moves d1g1")),
        "{log}"
    );
    assert!(stdout.lines().any(|l| l == "bestmove d8h8"), "{stdout}");
    assert!(!stdout.contains("'d8g8'"), "{stdout}");
    // Without it the engine gets king takes rook and its castle is
    // reported as written in the wrong notation.
    let (stdout, log) = standard_castles_through_proxy("auto");
    assert!(
        log.lines()
            .any(|l| l.contains("proxy>engine") && l.ends_with("moves d1h1")),
        "{log}"
    );
    assert!(stdout.contains("'d8g8'"), "{stdout}");
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
