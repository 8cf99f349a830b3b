//! `uci960 castling-test` against real engines and against the mock engine
//! (examples/mock_engine.rs) with one castling bug each. Perft depth is kept low so the suite stays quick.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const CHECKS: [&str; 8] = [
    "declares-chess960",
    "perft-start",
    "perft-midgame",
    "perft-dfrc",
    "forced-castle",
    "castle-notation",
    "rights-tracking",
    "moves-list-castle",
];

fn run(engine: &[&str], extra: &[&str]) -> (Output, Value) {
    let dir = std::env::temp_dir().join(format!("uci960-castling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join(format!(
        "{}.json",
        engine
            .iter()
            .map(|s| Path::new(s)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned())
            .collect::<Vec<_>>()
            .join("_")
            + "builtin"
    ));
    let out = Command::new(common::uci960())
        .arg("castling-test")
        .args(["--dfrc-positions", "40", "--json"])
        .arg(&json)
        .args(extra)
        .args(if engine.is_empty() {
            &[][..]
        } else {
            &["--"][..]
        })
        .args(engine)
        .output()
        .unwrap();
    let report = std::fs::read_to_string(&json)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    (out, report)
}

fn result(report: &Value, check: &str) -> String {
    report["checks"][check]["result"]
        .as_str()
        .unwrap_or("missing")
        .to_string()
}

fn failing(report: &Value) -> Vec<String> {
    CHECKS
        .iter()
        .filter(|c| result(report, c) == "fail")
        .map(|c| c.to_string())
        .collect()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn stockfish_passes_every_check() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let (out, report) = run(&[sf.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for check in CHECKS {
        assert_eq!(result(&report, check), "pass", "{check}: {}", text(&out));
        assert!(report["checks"][check]["positions"].as_u64().unwrap() > 0);
    }
    assert_eq!(report["checks"]["perft-start"]["positions"], 960);
    assert_eq!(report["checks"]["perft-midgame"]["positions"], 960);
    assert!(
        text(&out).contains("perft-start         pass"),
        "{}",
        text(&out)
    );
}

#[test]
fn fairy_stockfish_passes_every_check() {
    let Some(e) = common::require_engine("fairy-stockfish") else {
        return;
    };
    let (out, report) = run(&[e.to_str().unwrap()], &["--depth", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(failing(&report).is_empty());
    assert_eq!(result(&report, "perft-midgame"), "pass");
}

#[test]
fn ethereal_passes_and_perft_is_skipped_with_the_reason() {
    let Some(e) = common::require_engine("ethereal-chess") else {
        return;
    };
    let (out, report) = run(&[e.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for check in ["perft-start", "perft-midgame", "perft-dfrc"] {
        assert_eq!(result(&report, check), "skip");
        assert!(
            report["checks"][check]["reason"]
                .as_str()
                .unwrap()
                .contains("go perft")
        );
    }
    for check in [
        "declares-chess960",
        "forced-castle",
        "castle-notation",
        "rights-tracking",
        "moves-list-castle",
    ] {
        assert_eq!(result(&report, check), "pass", "{check}");
    }
}

/// Glaurung 2.2 misreads Shredder-FEN castling fields whose black files
/// differ from White's: every failure is in a DFRC position, and the
/// report says so.
#[test]
fn glaurung_fails_only_dfrc_positions() {
    let Some(e) = common::require_engine("glaurung") else {
        return;
    };
    let (out, report) = run(&[e.to_str().unwrap()], &[]);
    assert_eq!(result(&report, "declares-chess960"), "pass");
    assert_eq!(result(&report, "perft-start"), "skip");
    assert_eq!(result(&report, "moves-list-castle"), "pass");
    for check in failing(&report) {
        let note = report["checks"][&check]["note"].as_str().unwrap_or("");
        assert!(
            note.contains("are DFRC positions"),
            "{check}: {}",
            text(&out)
        );
        for f in report["checks"][&check]["first_failures"]
            .as_array()
            .unwrap()
        {
            assert!(f["label"].as_str().unwrap().ends_with("dfrc"), "{f}");
        }
    }
}

/// Without the DFRC positions Glaurung passes every check that applies.
#[test]
fn glaurung_passes_without_dfrc() {
    let Some(e) = common::require_engine("glaurung") else {
        return;
    };
    let (out, report) = run(&[e.to_str().unwrap()], &["--skip-dfrc"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(result(&report, "perft-dfrc"), "skip");
    for check in [
        "declares-chess960",
        "forced-castle",
        "castle-notation",
        "rights-tracking",
        "moves-list-castle",
    ] {
        assert_eq!(result(&report, check), "pass", "{check}");
    }
}

#[test]
fn toga_fails_declares_chess960_and_the_rest_does_not_apply() {
    let Some(e) = common::require_engine("toga2") else {
        return;
    };
    let (out, report) = run(&[e.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(result(&report, "declares-chess960"), "fail");
    for check in &CHECKS[1..] {
        assert_eq!(result(&report, check), "skip");
        assert!(
            report["checks"][check]["reason"]
                .as_str()
                .unwrap()
                .contains("does not apply")
        );
    }
    assert!(text(&out).contains("does not declare UCI_Chess960"));
}

/// Runs the mock engine with one castling bug and returns the checks that
/// failed.
fn caught_by(flag: &str, extra: &[&str]) -> (Vec<String>, Value, String) {
    let mock = common::mock_engine();
    let (out, report) = run(&[mock.to_str().unwrap(), flag], extra);
    assert_eq!(out.status.code(), Some(1), "{flag}: {}", text(&out));
    (failing(&report), report, text(&out))
}

#[test]
fn fake_with_king_two_squares_notation_is_a_notation_failure() {
    let (failed, report, out) = caught_by("--king-two-squares", &["--depth", "2"]);
    assert_eq!(failed, ["castle-notation"], "{out}");
    let f = &report["checks"]["castle-notation"]["first_failures"][0];
    assert!(f["got"].as_str().unwrap().contains("standard-UCI"), "{f}");
    assert!(
        f["reproduce"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().starts_with("position fen "))
    );
    // It did castle: the forced-castle check itself passes.
    assert_eq!(result(&report, "forced-castle"), "pass");
}

#[test]
fn fake_that_keeps_lost_rights_is_caught_by_rights_tracking() {
    let (failed, report, out) = caught_by("--keeps-rights", &["--depth", "2"]);
    assert_eq!(failed, ["rights-tracking"], "{out}");
    let got = report["checks"]["rights-tracking"]["first_failures"][0]["got"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        got.contains("lost right") || got.contains("missing") || got.contains("not legal"),
        "{got}"
    );
}

#[test]
fn fake_that_drops_moves_at_a_castle_is_caught_by_moves_list_castle() {
    let (failed, report, out) = caught_by("--drops-castles", &["--depth", "2"]);
    assert_eq!(failed, ["moves-list-castle"], "{out}");
    let got = report["checks"]["moves-list-castle"]["first_failures"][0]["got"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(got.contains("dropped"), "{got}");
}

#[test]
fn fake_perft_missing_b_file_castles_is_caught_by_perft() {
    let (failed, report, out) = caught_by("--bfile-perft", &["--depth", "2"]);
    assert_eq!(failed, ["perft-midgame"], "{out}");
    let f = &report["checks"]["perft-midgame"]["first_failures"][0];
    assert!(f["got"].as_str().unwrap().contains('-'), "{f}");
}

/// No ENGINE: the built-in engine (`uci960 engine`). Skipped, with a
/// message, on a build without that subcommand.
#[test]
fn builtin_engine_passes_every_check() {
    // Depth 2: the test build of the built-in engine is not optimised.
    let (out, report) = run(&[], &["--depth", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(failing(&report).is_empty());
    for check in CHECKS {
        assert_eq!(result(&report, check), "pass", "{check}: {}", text(&out));
    }
}

/// An engine that dies mid-run: the suite fails the check it was running,
/// says why, skips the rest, and exits 1 without hanging.
#[test]
fn crashing_engine_is_reported_not_hung() {
    let mock = common::mock_engine();
    let (out, report) = run(&[mock.to_str().unwrap(), "--crash-exit=3"], &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(result(&report, "declares-chess960"), "pass");
    assert_eq!(result(&report, "perft-start"), "skip");
    assert_eq!(result(&report, "forced-castle"), "fail");
    let got = report["checks"]["forced-castle"]["first_failures"][0]["got"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(got.contains("exit"), "{got}");
    assert_eq!(result(&report, "moves-list-castle"), "skip");
}

#[test]
fn usage_errors_exit_2_and_a_missing_engine_3() {
    let out = Command::new(common::uci960())
        .args(["castling-test", "--only", "perft", "/usr/games/stockfish"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown check 'perft'"));
    let out = Command::new(common::uci960())
        .args(["castling-test", "/nonexistent/engine"])
        .output()
        .unwrap();
    // An engine that cannot start is a runtime failure (DESIGN: exit 3).
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start engine"));
}
