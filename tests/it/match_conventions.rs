//! `uci960 match` speaks its users' language (issue 26): the PGN that
//! cutechess-cli and fastchess write and read back (`Variant`,
//! `TimeControl`, `GameStartTime`/`GameEndTime`/`GameDuration`), the live
//! lines they print (`Started game …`, `Finished game …`, standings every
//! `--rating-interval` games) when the output is not a terminal, and
//! `--quiet`.

use std::path::Path;

use crate::common::{self, check_pgn, run_match, strs};

/// The built-in engine against itself: `games` games, seed 7, PGN at `pgn`.
fn builtin_match(pgn: &Path, games: u64, more: &[&str]) -> (String, String) {
    let mut args = strs(&["--games", &games.to_string(), "--seed", "7", "--pgn"]);
    args.push(pgn.display().to_string());
    args.extend(strs(more));
    let out = run_match(&args);
    common::assert_ok(&out);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        std::fs::read_to_string(pgn).unwrap(),
    )
}

fn tag<'a>(game: &'a str, name: &str) -> &'a str {
    let start = format!("[{name} \"");
    let at = game
        .find(&start)
        .unwrap_or_else(|| panic!("no {name} tag in {game}"));
    let rest = &game[at + start.len()..];
    &rest[..rest.find("\"]").unwrap()]
}

/// `YYYY-MM-DDThh:mm:ss.zzz UTC`, cutechess-cli's timestamp.
fn is_cutechess_timestamp(t: &str) -> bool {
    let b = t.as_bytes();
    t.len() == 27
        && t.ends_with(" UTC")
        && [4, 7].iter().all(|&i| b[i] == b'-')
        && b[10] == b'T'
        && [13, 16].iter().all(|&i| b[i] == b':')
        && b[19] == b'.'
        && t[..19]
            .bytes()
            .enumerate()
            .all(|(i, c)| [4, 7, 10, 13, 16].contains(&i) || c.is_ascii_digit())
}

#[test]
fn live_lines_standings_and_cutechess_tags() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("conventions-live");
    let pgn = dir.join("m.pgn");
    // stdout is a pipe here: the lines must come anyway.
    let (stdout, text) = builtin_match(&pgn, 4, &["--rating-interval", "2"]);
    for g in 1..=4 {
        let started = format!("Started game {g} of 4 (");
        assert_eq!(stdout.matches(&started).count(), 1, "{stdout}");
        let finished = stdout
            .lines()
            .find(|l| l.starts_with(&format!("Finished game {g} (")))
            .unwrap_or_else(|| panic!("no Finished line for game {g}: {stdout}"));
        // `Finished game 3 (A vs B): 1-0 {White mates}`
        let (_, rest) = finished.split_once("): ").unwrap();
        let (result, reason) = rest.split_once(" {").unwrap();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{finished}");
        assert!(reason.ends_with('}') && reason.len() > 1, "{finished}");
        assert!(
            stdout.find(&started).unwrap() < stdout.find(finished).unwrap(),
            "{stdout}"
        );
    }
    // Interim standings after 2 games; after 4 it is the final table.
    assert_eq!(stdout.matches("Standings after").count(), 1, "{stdout}");
    assert!(stdout.contains("Standings after 2 of 4 games:"), "{stdout}");
    assert_eq!(stdout.matches("Elo vs field").count(), 2, "{stdout}");

    let games: Vec<&str> = text.split("\n\n[Event").collect();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(tag(g, "Variant"), "fischerandom");
        assert_eq!(tag(g, "TimeControl"), "inf");
        assert_eq!(tag(g, "SearchLimit"), "nodes=5000");
        let (start, end) = (tag(g, "GameStartTime"), tag(g, "GameEndTime"));
        assert!(is_cutechess_timestamp(start), "{start}");
        assert!(is_cutechess_timestamp(end), "{end}");
        assert!(start <= end, "{start} {end}");
        let d = tag(g, "GameDuration");
        assert!(d.len() == 8 && d.as_bytes()[2] == b':' && d.as_bytes()[5] == b':');
    }
    // python-chess reads `fischerandom` as Chess960 (check_pgn fails on a
    // board not in Chess960 mode) and replays every move.
    common::assert_each_round_once(&check_pgn(&py, &pgn), 4);

    // The other spelling, for those who want it: python-chess reads it too.
    let pgn2 = dir.join("c.pgn");
    let (_, text) = builtin_match(&pgn2, 2, &["--pgn-variant", "chess960"]);
    assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 2, "{text}");
    common::assert_each_round_once(&check_pgn(&py, &pgn2), 2);
}

#[test]
fn quiet_prints_only_the_final_table() {
    let dir = common::scratch_dir("conventions-quiet");
    let (stdout, _) = builtin_match(
        &dir.join("q.pgn"),
        2,
        &["--quiet", "--rating-interval", "1"],
    );
    assert!(!stdout.contains("Started game"), "{stdout}");
    assert!(!stdout.contains("Finished game"), "{stdout}");
    assert!(!stdout.contains("Standings after"), "{stdout}");
    assert!(stdout.contains("Elo vs field"), "{stdout}");
}
