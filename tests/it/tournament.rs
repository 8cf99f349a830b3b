//! Tournaments end to end: more than two engines (round robin, gauntlet)
//! with the built-in engine and with real engines, and opening books (EPD,
//! PGN written by python-chess, the cutechess Chess960 PGN) driving
//! matches; every PGN read back by python-chess.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A PGN game as the tests look at it: tags and the SAN moves (comments,
/// move numbers and the result dropped).
#[derive(Debug, PartialEq, Eq, Clone)]
pub(crate) struct Game {
    pub tags: BTreeMap<String, String>,
    pub sans: Vec<String>,
    /// Moves commented `{book}`.
    pub book: usize,
}

/// Splits a PGN written by `uci960 match` into games.
pub(crate) fn games(text: &str) -> Vec<Game> {
    let mut out = Vec::new();
    for block in text.split("\n\n[Event ").enumerate().map(|(i, b)| {
        if i == 0 {
            b.to_string()
        } else {
            format!("[Event {b}")
        }
    }) {
        if block.trim().is_empty() {
            continue;
        }
        let mut tags = BTreeMap::new();
        let mut movetext = String::new();
        for line in block.lines() {
            if let Some(tag) = line.strip_prefix('[')
                && let Some((k, v)) = tag.split_once(' ')
            {
                tags.insert(
                    k.to_string(),
                    v.trim_end_matches(']').trim_matches('"').to_string(),
                );
            } else {
                movetext.push_str(line);
                movetext.push(' ');
            }
        }
        let mut sans = Vec::new();
        let mut book = 0;
        let mut rest = movetext.as_str();
        while let Some(open) = rest.find('{') {
            for t in rest[..open].split_whitespace() {
                if !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(&t) {
                    sans.push(t.to_string());
                }
            }
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
            if &rest[open..close] == "{book}" {
                book += 1;
            }
            rest = &rest[close..];
        }
        for t in rest.split_whitespace() {
            if !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(&t) {
                sans.push(t.to_string());
            }
        }
        out.push(Game { tags, sans, book });
    }
    out
}

/// Standings checks every tournament must pass: points add up to the
/// games, each pairing's games add up, each engine has White as often as
/// Black within every pairing, and the summary matches the PGN.
fn check_tournament(pgn: &Path, summary: &Value, report: &Value, expected_games: u64) {
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert_eq!(report["games"], expected_games, "{report}");
    assert_eq!(summary["games"], expected_games, "{summary}");
    let engines = summary["engines"].as_array().unwrap();
    let points: f64 = engines.iter().map(|e| e["points"].as_f64().unwrap()).sum();
    assert_eq!(points, expected_games as f64, "every game gives one point");
    let engine_games: u64 = engines.iter().map(|e| e["games"].as_u64().unwrap()).sum();
    assert_eq!(engine_games, 2 * expected_games, "two engines per game");
    for e in engines {
        let name = e["name"].as_str().unwrap();
        for k in ["wins", "draws", "losses"] {
            assert_eq!(e[k], report["score"][name][k], "{name} {k}");
        }
    }
    let pairing_games: u64 = summary["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let g = p["games"].as_u64().unwrap();
            let w = p["wins"].as_u64().unwrap()
                + p["draws"].as_u64().unwrap()
                + p["losses"].as_u64().unwrap();
            assert_eq!(g, w, "{p}");
            let pairs: u64 = p["pentanomial"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .sum();
            assert_eq!(2 * pairs, g, "complete pairs only: {p}");
            g
        })
        .sum();
    assert_eq!(pairing_games, expected_games);
    let terms: u64 = summary["terminations"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(terms, expected_games);
    // Colours: within each pairing, each engine White as often as Black.
    let text = std::fs::read_to_string(pgn).unwrap();
    let mut whites: BTreeMap<(String, String), i64> = BTreeMap::new();
    for g in games(&text) {
        let (w, b) = (g.tags["White"].clone(), g.tags["Black"].clone());
        let key = if w < b {
            (w.clone(), b.clone())
        } else {
            (b.clone(), w.clone())
        };
        *whites.entry(key.clone()).or_default() += if w == key.0 { 1 } else { -1 };
    }
    for (pairing, balance) in whites {
        assert_eq!(balance, 0, "{pairing:?}: colours not balanced");
    }
}

fn builtin_tournament(
    name: &str,
    kind: &str,
    depths: &[u32],
    games: u64,
    rounds: u64,
) -> Option<(Value, Value, String, std::path::PathBuf)> {
    let py = common::require_python_chess()?;
    let dir = common::scratch_dir(&format!("tournament-{name}"));
    let (pgn, js) = (dir.join("t.pgn"), dir.join("t.json"));
    let mut args = Vec::new();
    for d in depths {
        args.extend(common::strs(&[
            "--engine",
            &format!("name=depth{d}"),
            &format!("depth={d}"),
        ]));
    }
    args.extend(common::strs(&[
        "--tournament",
        kind,
        "--games",
        &games.to_string(),
        "--rounds",
        &rounds.to_string(),
        "--concurrency",
        "2",
        "--start",
        "die",
        "--seed",
        "4",
        "--maxmoves",
        "60",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));
    let out = common::run_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    common::assert_ok(&out);
    let report = common::check_pgn(&py, &pgn);
    Some((common::read_json(&js), report, stdout, pgn))
}

#[test]
fn round_robin_of_three_builtin_engines_at_different_depths() {
    let Some((summary, report, stdout, pgn)) =
        builtin_tournament("rr3", "round-robin", &[1, 2, 3], 2, 2)
    else {
        return;
    };
    // 3 pairings x 2 games x 2 rounds.
    check_tournament(&pgn, &summary, &report, 12);
    assert_eq!(summary["pairings"].as_array().unwrap().len(), 3);
    for p in summary["pairings"].as_array().unwrap() {
        assert_eq!(p["games"], 4, "{p}");
    }
    assert!(summary["sprt"].is_null());
    assert!(
        stdout.contains("depth1 vs depth2") && stdout.contains("depth2 vs depth3"),
        "{stdout}"
    );
    assert!(stdout.contains("Elo vs field"), "{stdout}");
}

#[test]
fn gauntlet_of_four_builtin_engines() {
    let Some((summary, report, _, pgn)) = builtin_tournament("g4", "gauntlet", &[3, 1, 2, 1], 2, 1)
    else {
        return;
    };
    check_tournament(&pgn, &summary, &report, 6);
    let pairings = summary["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3);
    for p in pairings {
        assert_eq!(
            p["first"], "depth3",
            "the first engine plays every other one: {p}"
        );
    }
    // Two engines are both called depth1: the second is told apart.
    let names: Vec<&str> = summary["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["depth3", "depth1", "depth2", "depth1 (2)"]);
    assert_eq!(summary["engines"][0]["games"], 6);
}

#[test]
fn round_robin_of_stockfish_fairy_stockfish_and_ethereal() {
    let (Some(sf), Some(fsf), Some(eth), Some(py)) = (
        common::require_engine("stockfish"),
        common::require_engine("fairy-stockfish"),
        common::require_engine("ethereal-chess"),
        common::require_python_chess(),
    ) else {
        return;
    };
    let dir = common::scratch_dir("tournament-real3");
    let (pgn, js) = (dir.join("t.pgn"), dir.join("t.json"));
    let mut args = Vec::new();
    for (e, name) in [(&sf, "stockfish"), (&fsf, "fairy"), (&eth, "ethereal")] {
        args.extend(common::engine_args(
            e,
            &[&format!("name={name}"), "option.Hash=16"],
        ));
    }
    args.extend(common::strs(&[
        "--tc",
        "2+0.05",
        "--margin",
        "1000",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--start",
        "die",
        "--seed",
        "21",
        "--maxmoves",
        "80",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));
    let out = common::run_match(&args);
    common::assert_ok(&out);
    let summary = common::read_json(&js);
    let report = common::check_pgn(&py, &pgn);
    check_tournament(&pgn, &summary, &report, 6);
    for e in summary["engines"].as_array().unwrap() {
        assert_eq!(e["crashes"], 0, "{e}");
        assert_eq!(e["illegal_moves"], 0, "{e}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[TimeControl \"2+0.05\"]"), "{text}");
}

/// Runs a two-engine built-in match from `openings` tokens; returns the
/// PGN's games (python-chess checked), or the failed process's output.
fn book_match(
    name: &str,
    openings: &[&str],
    extra: &[&str],
) -> Option<Result<Vec<Game>, (i32, String)>> {
    let py = common::require_python_chess()?;
    let dir = common::scratch_dir(&format!("tournament-{name}"));
    let pgn = dir.join("t.pgn");
    let mut args = common::strs(&[
        "--nodes",
        "200",
        "--maxmoves",
        "20",
        "--seed",
        "3",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    if !openings.is_empty() {
        args.push("--openings".into());
        args.extend(common::strs(openings));
    }
    args.extend(common::strs(extra));
    let out = common::run_match(&args);
    if !out.status.success() {
        return Some(Err((
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )));
    }
    let report = common::check_pgn(&py, &pgn);
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    Some(Ok(games(&std::fs::read_to_string(&pgn).unwrap())))
}

/// python-chess's view of a book: each game's X-FEN start and SAN moves.
fn python_book(py: &Path, script: &str) -> Value {
    common::stdout_json(&Command::new(py).arg("-c").arg(script).output().unwrap())
}

const READ_BOOK: &str = r#"
import json, sys, chess, chess.pgn
out = []
with open(sys.argv[1]) as f:
    while (g := chess.pgn.read_game(f)) is not None:
        b = g.board()
        sans = []
        for m in g.mainline_moves():
            sans.append(b.san(m)); b.push(m)
        out.append({"fen": g.board().fen(), "sans": sans})
print(json.dumps(out))
"#;

fn read_book(py: &Path, path: &Path) -> Vec<Value> {
    let out = Command::new(py)
        .arg("-c")
        .arg(READ_BOOK)
        .arg(path)
        .output()
        .unwrap();
    common::stdout_json(&out).as_array().unwrap().clone()
}

/// Each game starts from its book line: the same FEN, the book's first
/// `plies` moves commented `{book}`; pairs share the line.
fn assert_games_follow_book(games: &[Game], book: &[Value], plies: usize) {
    for g in games {
        let round: usize = g.tags["Round"].parse().unwrap();
        let line = &book[((round - 1) / 2) % book.len()];
        let fen = line["fen"].as_str().unwrap();
        assert_eq!(g.tags["FEN"], fen, "game {round}");
        let want: Vec<String> = line["sans"]
            .as_array()
            .unwrap()
            .iter()
            .take(plies)
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert_eq!(g.book, want.len(), "game {round}: book plies");
        assert_eq!(&g.sans[..want.len()], &want[..], "game {round}");
    }
}

#[test]
fn an_epd_book_drives_a_match_in_order() {
    let dir = common::scratch_dir("tournament-epd-book");
    let book = dir.join("book.epd");
    let lines: Vec<String> = std::fs::read_to_string(format!(
        "{}/tests/data/chess960-midgame-perft.epd",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .lines()
    .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    .take(2)
    .map(String::from)
    .collect();
    std::fs::write(&book, lines.join("\n") + "\n").unwrap();
    let Some(result) = book_match(
        "epd",
        &[&format!("file={}", book.display()), "format=epd"],
        &["--games", "6"],
    ) else {
        return;
    };
    let games = result.unwrap();
    assert_eq!(games.len(), 6);
    // Sequential: line 1, line 2, line 1 again; board and side as in the book.
    for g in &games {
        let round: usize = g.tags["Round"].parse().unwrap();
        let line = &lines[((round - 1) / 2) % 2];
        let board_and_turn: Vec<&str> = line.split_whitespace().take(2).collect();
        let got: Vec<&str> = g.tags["FEN"].split_whitespace().take(2).collect();
        assert_eq!(got, board_and_turn, "game {round}");
        assert_eq!(g.book, 0);
    }
}

#[test]
fn a_chess960_pgn_written_by_python_chess_drives_a_match_and_plies_truncates() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("tournament-py-book");
    let book = dir.join("book.pgn");
    // Three Chess960 games by python-chess: SP 0, 518 and 959, 8 plies each
    // (the first legal move in sorted UCI order that does not end the game).
    let script = format!(
        r#"
import chess, chess.pgn
with open("{}", "w") as f:
    for sp in (0, 518, 959):
        b = chess.Board.from_chess960_pos(sp)
        g = chess.pgn.Game.from_board(b)
        g.headers["Variant"] = "Chess960"
        node = g
        for _ in range(8):
            m = sorted(b.legal_moves, key=lambda m: m.uci())[0]
            b.push(m)
            node = node.add_variation(m)
        print(g, file=f, end="\n\n")
print("[]")
"#,
        book.display()
    );
    python_book(&py, &script);
    let line = read_book(&py, &book);
    assert_eq!(line.len(), 3);
    let Some(result) = book_match(
        "pybook",
        &[&format!("file={}", book.display()), "format=pgn", "plies=5"],
        &["--games", "6"],
    ) else {
        return;
    };
    let games = result.unwrap();
    assert_eq!(games.len(), 6);
    assert_games_follow_book(&games, &line, 5);
}

#[test]
fn the_cutechess_fischerandom_pgn_drives_a_match() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cutechess-fischerrandom.pgn");
    let line = read_book(&py, &book);
    let Some(result) = book_match(
        "cutebook",
        &[
            &format!("file={}", book.display()),
            "order=sequential",
            "plies=12",
        ],
        &["--games", "4"],
    ) else {
        return;
    };
    let games = result.unwrap();
    assert_eq!(games.len(), 4);
    assert_games_follow_book(&games, &line, 12);
}

#[test]
fn random_plies_make_a_generated_opening_line() {
    let Some(result) = book_match(
        "randplies",
        &[],
        &["--start", "die", "--random-plies", "4", "--games", "4"],
    ) else {
        return;
    };
    let games = result.unwrap();
    for pair in games.chunks(2) {
        assert_eq!(pair[0].book, 4);
        assert_eq!(
            pair[0].sans[..4],
            pair[1].sans[..4],
            "a pair shares its opening line"
        );
        assert_eq!(pair[0].tags["FEN"], pair[1].tags["FEN"]);
    }
}

#[test]
fn a_bad_book_line_names_its_place_and_exits_2() {
    let dir = common::scratch_dir("tournament-bad-book");
    let epd = dir.join("bad.epd");
    std::fs::write(
        &epd,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -\n# comment\nbbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKZ w HFhf -\n",
    )
    .unwrap();
    let Some(result) = book_match("badepd", &[&format!("file={}", epd.display())], &[]) else {
        return;
    };
    let (code, err) = result.unwrap_err();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{}:3:", epd.display())), "{err}");

    let pgn = dir.join("bad.pgn");
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 2. Qxh7 *\n",
    )
    .unwrap();
    let Some(result) = book_match("badpgn", &[&format!("file={}", pgn.display())], &[]) else {
        return;
    };
    let (code, err) = result.unwrap_err();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{}: game 2: ply 3 'Qxh7'", pgn.display())),
        "{err}"
    );
}
