//! `--tournament knockout` end to end with the built-in engine: the
//! seeded bracket, tiebreaks that end (identical engines), the PGN read
//! back by python-chess, and `--resume` rebuilding the same bracket from
//! the state file.

use std::path::Path;

use crate::common::{self, check_pgn, run_match, strs};
use crate::tournament::games;

/// `uci960 match --tournament knockout` of built-in engines (`name=depth`
/// pairs), concurrency 1, seed 5.
fn knockout(dir: &Path, engines: &[(&str, u32)], more: &[&str]) -> std::process::Output {
    let mut args = Vec::new();
    for (name, depth) in engines {
        args.extend(strs(&[
            "--engine",
            &format!("name={name}"),
            &format!("depth={depth}"),
        ]));
    }
    args.extend(strs(&[
        "--tournament",
        "knockout",
        "--games",
        "2",
        "--start",
        "die",
        "--seed",
        "5",
        "--maxmoves",
        "40",
        "--pgn",
    ]));
    args.push(dir.join("k.pgn").display().to_string());
    args.push("--json".into());
    args.push(dir.join("k.json").display().to_string());
    args.extend(strs(more));
    run_match(&args)
}

#[test]
fn identical_engines_finish_by_the_tiebreak_rule() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("knockout-identical");
    let names = [("k1", 1), ("k2", 1), ("k3", 1), ("k4", 1)];
    let out = knockout(&dir, &names, &[]);
    common::assert_ok(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let text = std::fs::read_to_string(dir.join("k.pgn")).unwrap();
    let played = games(&text);
    // 3 encounters (two semi-finals, a final), each at most 1 + 3 pairs.
    assert!(played.len() >= 6 && played.len() <= 24, "{}", played.len());
    common::assert_each_round_once(&check_pgn(&py, &dir.join("k.pgn")), played.len() as u64);
    assert!(stdout.contains("Knockout winner: "), "{stdout}");
    assert_eq!(stdout.matches(" goes through").count(), 3, "{stdout}");
    // Seeds 1 and 2 meet only in the final: the semi-finals are 1–4, 2–3.
    let first: Vec<(String, String)> = played[..4]
        .iter()
        .map(|g| (g.tags["White"].clone(), g.tags["Black"].clone()))
        .collect();
    assert_eq!(
        first,
        [("k1", "k4"), ("k4", "k1"), ("k2", "k3"), ("k3", "k2")]
            .map(|(w, b)| (w.to_string(), b.to_string()))
    );
    // The same engine on both sides of a pair replays the same game, so
    // pairs tie: the tiebreak pairs come, then the seed rule.
    if stdout.contains("better seed") {
        assert!(stdout.contains("Knockout winner: k1"), "{stdout}");
    }
    assert!(
        stdout.contains("Started game 1 of at most 24 (k1 vs k4)"),
        "{stdout}"
    );
    let summary = common::read_json(&dir.join("k.json"));
    assert_eq!(summary["games"], played.len() as u64);
}

#[test]
fn resume_rebuilds_the_bracket_from_the_state_file() {
    let dir = common::scratch_dir("knockout-resume");
    let names = [("d1", 1), ("d3", 3), ("d2", 2)];
    let out = knockout(&dir, &names, &[]);
    common::assert_ok(&out);
    let full = std::fs::read_to_string(dir.join("k.pgn")).unwrap();
    let all = games(&full);
    assert!(all.len() >= 4, "two encounters of a pair at least");
    // Cut the tournament back to its first two games, as an interrupt
    // after game 2 leaves it: state records and PGN bytes.
    let state_path = dir.join("k.pgn.state.json");
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state_path).unwrap()).unwrap();
    let records = state["games"].as_array().unwrap().clone();
    assert!(
        records
            .iter()
            .all(|r| r["white"].is_u64() && r["black"].is_u64())
    );
    state["games"] = serde_json::json!(records[..2]);
    let cut = full.match_indices("[Event ").nth(2).unwrap().0;
    state["pgn_bytes"] = serde_json::json!(cut);
    // Edited by hand: without its check (which would refuse the edit).
    state.as_object_mut().unwrap().remove("check");
    std::fs::write(&state_path, serde_json::to_string(&state).unwrap()).unwrap();
    // The PGN as that interrupt leaves it: a resume keeps text it cannot
    // prove it wrote (docs/RELIABILITY.md), so the later games go too.
    std::fs::write(dir.join("k.pgn"), &full[..cut]).unwrap();
    let out = knockout(&dir, &names, &["--resume"]);
    common::assert_ok(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("Started game 1 "), "{stdout}");
    assert!(!stdout.contains("Started game 2 "), "{stdout}");
    assert!(stdout.contains("Started game 3 "), "{stdout}");
    assert!(stdout.contains("Knockout winner: "), "{stdout}");
    let resumed = games(&std::fs::read_to_string(dir.join("k.pgn")).unwrap());
    // The same games, numbers, pairings and colours as the uninterrupted
    // run (the built-in engine at a fixed depth plays the same moves).
    let key = |g: &crate::tournament::Game| {
        (
            g.tags["Round"].clone(),
            g.tags["White"].clone(),
            g.tags["Black"].clone(),
            g.tags["Result"].clone(),
            g.sans.clone(),
        )
    };
    assert_eq!(
        resumed.iter().map(key).collect::<Vec<_>>(),
        all.iter().map(key).collect::<Vec<_>>()
    );
}

#[test]
fn knockout_refuses_rounds_and_sprt() {
    let dir = common::scratch_dir("knockout-refuse");
    let out = knockout(&dir, &[("a", 1), ("b", 1), ("c", 1)], &["--rounds", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--rounds must be 1"));
    let out = knockout(
        &dir,
        &[("a", 1), ("b", 1)],
        &["--sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("knockout"));
}
