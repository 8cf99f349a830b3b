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

/// Books are read exactly (issue 26): an EPD book's `hmvc`/`fmvn` opcodes
/// and a 6-field line's own counters are the games' counters: in the PGN's
/// `FEN` tag, in its move numbers, and in every `position fen` Stockfish
/// is sent (read through a `tee` in front of it; Unix: the wrapper is a
/// shell line).
#[cfg(unix)]
#[test]
fn book_counters_reach_the_pgn_and_the_engine() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let dir = common::scratch_dir("conventions-counters");
    let book = dir.join("book.epd");
    // Black to move at move 7 after 3 quiet plies; White to move at move
    // 12 after 5.
    std::fs::write(
        &book,
        "nbnrkrbq/pp1ppppp/2p5/8/4PP2/8/PPPP2PP/BRNBKRQN b KQkq - hmvc 3; fmvn 7; ce 12;\n\
         qnbrkrnb/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/QNBRKR1B w KQkq - 5 12\n",
    )
    .unwrap();
    let log = dir.join("sent.txt");
    let pgn = dir.join("m.pgn");
    let tee = format!("arg=tee -a '{}' | exec '{}'", log.display(), sf.display());
    let sf = sf.display().to_string();
    let mut args = strs(&["--engine", "cmd=/bin/sh", "arg=-c", &tee, "name=teed"]);
    args.extend(strs(&[
        "nodes=300",
        "--engine",
        &format!("cmd={sf}"),
        "name=plain",
    ]));
    args.extend(strs(&["nodes=300", "--openings"]));
    args.push(format!("file={}", book.display()));
    args.extend(strs(&["format=epd", "order=sequential", "--games", "4"]));
    args.extend(strs(&[
        "--maxmoves",
        "12",
        "--seed",
        "1",
        "--quiet",
        "--pgn",
    ]));
    args.push(pgn.display().to_string());
    common::assert_ok(&run_match(&args));

    let want = [
        (
            "nbnrkrbq/pp1ppppp/2p5/8/4PP2/8/PPPP2PP/BRNBKRQN b",
            " 3 7",
            "7...",
        ),
        (
            "qnbrkrnb/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/QNBRKR1B w",
            " 5 12",
            "12.",
        ),
    ];
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = text.split("\n\n[Event").collect();
    assert_eq!(games.len(), 4, "{text}");
    for (i, g) in games.iter().enumerate() {
        // Openings in order, each played twice.
        let (board, counters, first_move) = want[i / 2];
        let fen = tag(g, "FEN");
        assert!(fen.starts_with(board) && fen.ends_with(counters), "{fen}");
        let moves = g.split("\n\n").nth(1).unwrap_or("");
        assert!(moves.starts_with(first_move), "game {}: {moves}", i + 1);
    }
    // Every position Stockfish was sent carries the book's counters.
    let sent = std::fs::read_to_string(&log).unwrap();
    let positions: Vec<&str> = sent
        .lines()
        .filter(|l| l.starts_with("position "))
        .collect();
    assert!(positions.len() >= 8, "{sent}");
    for p in &positions {
        let fen: Vec<&str> = p["position fen ".len()..].split(' ').take(6).collect();
        let known = want.iter().any(|(board, counters, _)| {
            format!("{} {}", fen[0], fen[1]) == *board
                && format!(" {} {}", fen[4], fen[5]) == *counters
        });
        assert!(known, "sent: {p}");
    }
    for (board, _, _) in want {
        assert!(positions.iter().any(|p| p.contains(board)), "{sent}");
    }
}

/// The SPRT's LLR under every model against an independent computation
/// from the definitions (tests/python/sprt_llr.py: empirical-likelihood
/// maxima by Newton steps, normalized Elo as a profile likelihood): on
/// real games (`match --json` and its printed line) and on large crafted
/// tables merged from state files, fastchess's published ones among them.
#[test]
fn sprt_llr_matches_an_independent_computation() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("conventions-sprt");
    let out = std::process::Command::new(py)
        .arg(format!(
            "{}/tests/python/sprt_llr.py",
            env!("CARGO_MANIFEST_DIR")
        ))
        .arg("run")
        .arg(common::uci960())
        .arg(&dir)
        .output()
        .expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let last = stdout.lines().last().unwrap_or("");
    let (checked, failed) = last
        .split_once(" checked, ")
        .unwrap_or_else(|| panic!("{stdout}"));
    // 3 real matches and 6 tables x 5 models, each as JSON and printed.
    assert_eq!(checked.parse::<u32>().unwrap(), 2 * (3 + 6 * 5), "{stdout}");
    assert_eq!(failed, "0 failed", "{stdout}");
}
