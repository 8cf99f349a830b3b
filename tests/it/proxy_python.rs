//! python-chess (`chess.engine`, what lichess-bot and many scripts use)
//! plays complete Chess960 games through `uci960 proxy`; python-chess
//! checks every move.

use crate::common;

use std::process::Command;

struct Summary {
    games: u64,
    kingside: u64,
    queenside: u64,
}

fn play(engine: &str, games: u32, limit: &str, seed: u32) -> Option<Summary> {
    let python = common::require_python_chess()?;
    let path = common::require_engine(engine)?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/play960.py");
    let out = Command::new(python)
        .arg(script)
        .args([games.to_string(), limit.to_string(), seed.to_string()])
        .arg(common::uci960())
        .args(["proxy", "--"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{engine}: {stdout}\n{stderr}");
    assert!(!stderr.contains("illegal"), "{stderr}");
    let summary = stdout
        .lines()
        .find_map(|l| l.strip_prefix("SUMMARY "))
        .unwrap_or_else(|| panic!("no summary: {stdout}\n{stderr}"));
    let v: serde_json::Value = serde_json::from_str(summary).unwrap();
    eprintln!("{engine}: {summary}");
    Some(Summary {
        games: v["games"].as_u64().unwrap(),
        kingside: v["kingside"].as_u64().unwrap(),
        queenside: v["queenside"].as_u64().unwrap(),
    })
}

#[test]
fn python_chess_plays_20_games_with_stockfish() {
    let Some(s) = play("stockfish", 20, "nodes:2000", 1) else {
        return;
    };
    assert_eq!(s.games, 20);
    assert!(
        s.kingside > 0 && s.queenside > 0,
        "castles on both wings: {} O-O, {} O-O-O",
        s.kingside,
        s.queenside
    );
}

#[test]
fn python_chess_plays_fairy_stockfish() {
    if let Some(s) = play("fairy-stockfish", 3, "nodes:2000", 2) {
        assert_eq!(s.games, 3);
    }
}

#[test]
fn python_chess_plays_ethereal() {
    if let Some(s) = play("ethereal-chess", 3, "nodes:2000", 3) {
        assert_eq!(s.games, 3);
    }
}

#[test]
fn python_chess_plays_glaurung() {
    // Glaurung answers `bestmove (none)` when a node limit ends its first
    // iteration (the proxy reports that as a missing move), so a depth.
    if let Some(s) = play("glaurung", 3, "depth:4", 4) {
        assert_eq!(s.games, 3);
    }
}
