//! Adjudication and clocks end to end: the built-in engine plays real games
//! through `uci960 match`, and the PGN must show each rule at work.

use crate::common;

use std::process::Command;

/// A PGN game: its tags and its movetext.
type Game = (Vec<(String, String)>, String);

/// Plays a match with the built-in engine; returns the PGN's games and the
/// process's stdout.
fn play(name: &str, args: &[&str]) -> (Vec<Game>, String) {
    let pgn = common::scratch_dir(&format!("adjudication-{name}")).join("games.pgn");
    let out = Command::new(common::uci960())
        .arg("match")
        .args(["--seed", "11", "--pgn"])
        .arg(&pgn)
        .args(args)
        .output()
        .expect("run uci960 match");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).expect("pgn written");
    let _ = std::fs::remove_file(&pgn);
    let mut games = Vec::new();
    for block in text.split("[Event ").skip(1) {
        let mut tags = vec![("Event".to_string(), String::new())];
        let mut moves = String::new();
        for line in block.lines() {
            if let Some(tag) = line.strip_prefix('[') {
                if let Some((k, v)) = tag.split_once(' ') {
                    tags.push((
                        k.to_string(),
                        v.trim_end_matches(']').trim_matches('"').to_string(),
                    ));
                }
            } else if !line.starts_with('"') {
                moves.push_str(line);
                moves.push(' ');
            }
        }
        games.push((tags, moves));
    }
    (games, stdout)
}

fn tag<'a>(tags: &'a [(String, String)], key: &str) -> &'a str {
    tags.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key} tag in {tags:?}"))
}

#[test]
fn max_moves_ends_every_game_as_a_draw_at_the_limit() {
    let (games, stdout) = play("max", &["--games", "4", "--depth", "2", "--maxmoves", "6"]);
    assert_eq!(games.len(), 4);
    for (tags, _) in &games {
        let plies: u32 = tag(tags, "PlyCount").parse().unwrap();
        if tag(tags, "Termination") == "adjudication: max moves" {
            assert_eq!(plies, 12);
            assert_eq!(tag(tags, "Result"), "1/2-1/2");
        } else {
            assert!(plies < 12, "{tags:?}");
        }
    }
    assert!(stdout.contains("adjudication: max moves"), "{stdout}");
}

#[test]
fn draw_adjudication_ends_quiet_games() {
    // Any score within ±1000 cp for 2 moves in a row from move 1 on: every
    // game not decided by then is adjudicated a draw within a few moves.
    let (games, _) = play(
        "draw",
        &[
            "--games",
            "4",
            "--depth",
            "2",
            "--draw",
            "movenumber=1",
            "movecount=2",
            "score=1000",
        ],
    );
    assert_eq!(games.len(), 4);
    for (tags, _) in &games {
        assert_eq!(tag(tags, "Termination"), "adjudication: draw", "{tags:?}");
        assert_eq!(tag(tags, "Result"), "1/2-1/2");
        let plies: u32 = tag(tags, "PlyCount").parse().unwrap();
        assert!(plies <= 8, "{tags:?}");
    }
}

#[test]
fn resign_adjudication_gives_the_game_to_the_side_ahead() {
    // Resign as soon as an engine sees itself 1 cp behind: games end early,
    // and the side that resigned loses.
    let (games, _) = play(
        "resign",
        &[
            "--games",
            "6",
            "--depth",
            "3",
            "--resign",
            "movecount=1",
            "score=1",
        ],
    );
    let resigned: Vec<_> = games
        .iter()
        .filter(|(tags, _)| tag(tags, "Termination") == "adjudication: resign")
        .collect();
    assert!(!resigned.is_empty(), "no game was resigned");
    for (tags, _) in resigned {
        assert_ne!(tag(tags, "Result"), "1/2-1/2", "{tags:?}");
    }
}

/// Each move's time in ms from its `{... 0.105s}` comment, in move order;
/// comments without a time (the final one) are left out.
fn move_times(moves: &str) -> Vec<i64> {
    moves
        .split('{')
        .skip(1)
        .filter_map(|c| c.split('}').next())
        .filter_map(|c| {
            c.split_whitespace()
                .last()?
                .strip_suffix('s')?
                .parse::<f64>()
                .ok()
        })
        .map(|secs| (secs * 1000.0).round() as i64)
        .collect()
}

/// The runner's default `--margin`, in ms.
const MARGIN_MS: i64 = 100;

/// Under load the built-in engine may overstep `10/1+0.05`, so this does
/// not assert that nobody flags: it replays both clocks from the move times
/// in the PGN and checks that the clock was kept by the rules (every move
/// within its allowance plus the margin, a forfeit only for a move over
/// it, with the allowance the replay gives).
#[test]
fn a_time_control_is_kept_and_written() {
    let (games, stdout) = play("tc", &["--games", "2", "--tc", "10/1+0.05"]);
    assert_eq!(games.len(), 2);
    for (tags, moves) in &games {
        assert_eq!(tag(tags, "TimeControl"), "10/1+0.05");
        let times = move_times(moves);
        assert!(!times.is_empty(), "cutechess-style time comments: {moves}");
        let mut remaining = [1000_i64; 2];
        let mut made = [0_i64; 2];
        for (ply, &t) in times.iter().enumerate() {
            let side = ply % 2;
            // The PGN rounds each time to the ms: 1 ms of slack per move.
            let slack = made[side] + 1;
            assert!(
                t <= remaining[side] + MARGIN_MS + slack,
                "ply {ply} took {t} ms with {} ms left, yet it was not a forfeit\n{moves}",
                remaining[side]
            );
            remaining[side] = (remaining[side] - t).max(0) + 50;
            made[side] += 1;
            if made[side] % 10 == 0 {
                remaining[side] += 1000;
            }
        }
        if tag(tags, "Termination") == "time forfeit" {
            // The flagged move is not played; the final comment says
            // "<side> loses on time (U ms used, A ms allowed)", or "<side>
            // loses on time: <why>" when no bestmove came before the hard
            // deadline.
            let side = times.len() % 2;
            let (_, reason) = moves
                .rsplit_once("loses on time")
                .unwrap_or_else(|| panic!("no forfeit reason: {moves}\n{stdout}"));
            let numbers: Vec<i64> = match reason.strip_prefix(" (") {
                Some(rest) => rest
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|n| n.parse().ok())
                    .take(2)
                    .collect(),
                None => Vec::new(),
            };
            if let [used, allowed] = numbers[..] {
                assert!(used > allowed + MARGIN_MS, "{moves}");
                assert!(
                    (allowed - remaining[side]).abs() <= made[side] + 1,
                    "allowed {allowed} ms, the replayed clock says {} ms\n{moves}",
                    remaining[side]
                );
            }
        }
    }
}

#[test]
fn adjudication_values_are_checked_and_named() {
    for (flag, tokens, named) in [
        (
            "--draw",
            "movenumber=-3 movecount=1 score=10",
            "movenumber='-3'",
        ),
        (
            "--draw",
            "movenumber=3 movecount=1.7 score=10",
            "movecount='1.7'",
        ),
        (
            "--draw",
            "movenumber=3 movecount=1 score=1e12",
            "score='1e12'",
        ),
        ("--resign", "movecount=3 score=0", "score='0'"),
        ("--resign", "movecount=3", "missing score="),
    ] {
        let out = Command::new(common::uci960())
            .arg("match")
            .arg(flag)
            .args(tokens.split(' '))
            .output()
            .expect("run uci960 match");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {tokens}: {err}");
        assert!(
            err.contains(flag) && err.contains(named),
            "{flag} {tokens}: {err}"
        );
    }
    let out = Command::new(common::uci960())
        .args(["match", "--maxmoves", "0"])
        .output()
        .expect("run uci960 match");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--maxmoves 0"));
}
