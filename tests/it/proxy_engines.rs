//! `uci960 proxy` with real engines: start-position injection, the
//! refusal path for an engine without Chess960, the log, clean exits.

use crate::common;
use crate::proxy_util;

use std::time::Duration;

use proxy_util::{Proxy, alive, children_of, gone_within};
use uci960::notation::castling::{CastlingNotation, parse_move};
use uci960::notation::fen::parse_position;

/// The injection scenario of the issue, for one engine.
fn injection(engine: &str) {
    let Some(path) = common::require_engine(engine) else {
        return;
    };
    let path = path.to_string_lossy().into_owned();
    let mut p = Proxy::start(&["--seed", "11", "--", &path]);
    p.send("uci");
    let id = p.wait_line("id name");
    assert!(id.ends_with(" (uci960)"), "{id}");
    p.wait_line("uciok");
    let engine_pid = children_of(p.pid());
    assert_eq!(engine_pid.len(), 1, "one engine child");
    for round in 0..2 {
        p.send("setoption name uci960 Start value die");
        p.send("ucinewgame");
        let announce = p.wait_line("info string uci960 start sp ");
        let fen = announce
            .split(" fen ")
            .nth(1)
            .unwrap_or_else(|| panic!("no fen in {announce}"));
        assert!(announce.contains(" method die "), "{announce}");
        let pos = parse_position(fen).unwrap();
        p.send("isready");
        p.wait_line("readyok");
        p.send("position startpos");
        p.send("go nodes 5000");
        let best = p.wait_line("bestmove");
        let mv = best.split_whitespace().nth(1).unwrap();
        parse_move(&pos, mv, CastlingNotation::KingTwoSquares)
            .unwrap_or_else(|e| panic!("{engine} round {round}: {best} in {fen}: {e}"));
        assert!(
            !p.seen.iter().any(|l| l.contains("illegal")),
            "{:?}",
            p.seen
        );
    }
    let (status, _, _) = p.finish();
    assert!(status.success(), "{status}");
    assert!(gone_within(engine_pid[0], Duration::from_secs(5)));
}

#[test]
fn injection_stockfish() {
    injection("stockfish");
}

#[test]
fn injection_fairy_stockfish() {
    injection("fairy-stockfish");
}

#[test]
fn injection_ethereal() {
    injection("ethereal-chess");
}

#[test]
fn injection_glaurung() {
    injection("glaurung");
}

#[test]
fn toga2_is_told_and_chess960_refused() {
    let Some(path) = common::require_engine("toga2") else {
        return;
    };
    let path = path.to_string_lossy().into_owned();
    let mut p = Proxy::start(&["--", &path]);
    p.send("uci");
    p.wait_for("warning", |l| {
        l.starts_with("info string uci960:") && l.contains("does not declare UCI_Chess960")
    });
    p.wait_line("uciok");
    p.send("position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    p.send("go nodes 1000");
    p.wait_for("refusal", |l| l.contains("does not support Chess960"));
    assert_eq!(p.wait_line("bestmove"), "bestmove 0000");
    // A standard game still plays.
    p.send("position startpos moves e2e4");
    p.send("go depth 3");
    let best = p.wait_line("bestmove");
    assert_ne!(best, "bestmove 0000");
    let (status, _, stderr) = p.finish();
    assert!(status.success());
    assert!(stderr.contains("does not declare UCI_Chess960"), "{stderr}");
}

#[test]
fn log_shows_injection_and_shredder_fen() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let dir = common::scratch_dir("proxy-log");
    let log = dir.join("proxy.log");
    std::fs::write(&log, "previous session\n").unwrap();
    let sf = sf.to_string_lossy().into_owned();
    let mut p = Proxy::start(&["--log", log.to_str().unwrap(), "--", &sf]);
    p.handshake();
    p.send("position fen 1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w KQkq - 0 1 moves e1c1");
    p.send("go nodes 2000");
    let best = p.wait_line("bestmove");
    let (status, _, _) = p.finish();
    assert!(status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("previous session\n"), "appends");
    let lines: Vec<&str> = text.lines().collect();
    let find = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("'{needle}' not in log:\n{text}"))
    };
    let inject = find("proxy>engine setoption name UCI_Chess960 value true");
    let pos = find(
        "proxy>engine position fen 1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w HBhb - 0 1 moves e1b1",
    );
    assert!(inject < pos);
    find(
        "gui>proxy    position fen 1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w KQkq - 0 1 moves e1c1",
    );
    find(&format!("proxy>gui    {best}"));
    find("engine>proxy uciok");
    // 2026-11-30T14:21:16.123456Z
    let ts = lines[1].split(' ').next().unwrap();
    assert_eq!(ts.len(), 27, "{ts}");
    assert!(ts.ends_with('Z') && ts.as_bytes()[19] == b'.');
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_engine_exits_3_with_a_clear_message() {
    let out = std::process::Command::new(common::uci960())
        .args(["proxy", "--", "/nonexistent/engine"])
        .output()
        .unwrap();
    // An engine that cannot start is a runtime failure (DESIGN: exit 3).
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'/nonexistent/engine' not found"), "{err}");
    let file = std::env::temp_dir().join(format!("uci960-noexec-{}", std::process::id()));
    std::fs::write(&file, "#!/bin/sh\n").unwrap();
    let out = std::process::Command::new(common::uci960())
        .args(["proxy", "--"])
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not executable"));
}

#[test]
fn sigterm_to_the_proxy_takes_the_engine_along() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let sf = sf.to_string_lossy().into_owned();
        let mut p = Proxy::start(&["--", &sf]);
        p.handshake();
        let kids = children_of(p.pid());
        assert_eq!(kids.len(), 1);
        assert!(alive(kids[0]));
        p.send("go infinite");
        p.wait_line("info depth");
        unsafe {
            libc::kill(p.pid() as i32, sig);
        }
        let status = proxy_util::wait_exit(&mut p.child, Duration::from_secs(10)).unwrap();
        assert!(!status.success());
        assert!(
            gone_within(kids[0], Duration::from_secs(5)),
            "engine outlived the proxy"
        );
    }
}

#[test]
fn config_file_with_engine_options_and_flags_that_win() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let dir = common::scratch_dir("proxy-config");
    let log = dir.join("proxy.log");
    let config = dir.join("proxy.toml");
    std::fs::write(
        &config,
        format!(
            "[engine]\nprogram = \"{}\"\n[engine.options]\nHash = 8\n[proxy]\nstart = \"sp:518\"\nseed = 1\nlog = \"{}\"\n",
            sf.display(),
            log.display()
        ),
    )
    .unwrap();
    // The command line's --start wins over the file's.
    let mut p = Proxy::start(&["--config", config.to_str().unwrap(), "--start", "sp:0"]);
    p.handshake();
    p.send("ucinewgame");
    let announce = p.wait_line("info string uci960 start");
    assert!(
        announce.starts_with("info string uci960 start sp 0 method sp fen bbqnnrkr/"),
        "{announce}"
    );
    p.send("position startpos");
    p.send("go nodes 1000");
    p.wait_line("bestmove");
    let (status, _, _) = p.finish();
    assert!(status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("proxy>engine setoption name Hash value 8"),
        "{text}"
    );
    assert!(text.contains(
        "proxy>engine position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    ));
    // A broken config is a clear error, exit 2.
    std::fs::write(&config, "[proxy]\nstart = \"dice\"\n").unwrap();
    let out = std::process::Command::new(common::uci960())
        .args(["proxy", "--config", config.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("proxy.toml") && err.contains("dice"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
