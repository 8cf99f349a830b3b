//! `go perft N` over UCI, parsed and compared with shakmaty's perft and the
//! published numbers: Chess960 start positions, Ethereal's Chess960
//! middlegame suite, python-chess's tricky positions and Stockfish's perft
//! cases. The divide's moves must be exactly the legal moves, in KxR with
//! `UCI_Chess960` on and king-two-squares in standard positions with it off.

use crate::engine_support;

use std::collections::BTreeMap;

use engine_support::{Engine, fen};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use uci960::notation::fen::{needs_chess960, parse_position};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs `go perft depth` and returns (divide, total).
fn engine_perft(engine: &mut Engine, pos: &Chess, depth: u32) -> (BTreeMap<String, u64>, u64) {
    engine.send(&format!("position fen {}", fen(pos)));
    engine.send(&format!("go perft {depth}"));
    let lines = engine.until(|l| l.starts_with("Nodes searched: "));
    let total: u64 = lines
        .last()
        .and_then(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse().ok())
        .expect("total");
    assert_eq!(lines[lines.len() - 2], "", "blank line before the total");
    let mut divide = BTreeMap::new();
    for line in &lines[..lines.len() - 2] {
        let (mv, n) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("bad divide line '{line}'"));
        let n: u64 = n
            .parse()
            .unwrap_or_else(|_| panic!("bad count in '{line}'"));
        assert!(divide.insert(mv.to_string(), n).is_none(), "{mv} twice");
    }
    (divide, total)
}

/// Checks the engine's divide against shakmaty and the reference total.
fn check(engine: &mut Engine, pos: &Chess, depth: u32, expected: u64, chess960: bool) {
    let (divide, total) = engine_perft(engine, pos, depth);
    let mode = if chess960 || needs_chess960(pos) {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut want = BTreeMap::new();
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        want.insert(
            UciMove::from_move(m, mode).to_string(),
            shakmaty::perft(&child, depth - 1),
        );
    }
    assert_eq!(divide, want, "divide of {} at depth {depth}", fen(pos));
    assert_eq!(total, shakmaty::perft(pos, depth), "{}", fen(pos));
    assert_eq!(total, expected, "published perft {depth} of {}", fen(pos));
}

#[test]
fn chess960_start_positions() {
    let mut engine = Engine::start();
    engine.set_chess960(true);
    let text = data("chess960-start-positions.tsv");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let sp: u32 = cols[0].parse().expect("sp");
        if !sp.is_multiple_of(48) && sp != 518 {
            continue; // a spread of 21 positions keeps the test quick
        }
        let pos = parse_position(cols[2]).expect("fen");
        check(&mut engine, &pos, 3, cols[5].parse().expect("perft3"), true);
        checked += 1;
    }
    assert_eq!(checked, 21);
}

#[test]
fn chess960_middlegames() {
    let mut engine = Engine::start();
    engine.set_chess960(true);
    let text = data("chess960-midgame-perft.epd");
    for line in text.lines().step_by(40) {
        let mut parts = line.split(" ;");
        let pos = parse_position(parts.next().expect("fen")).expect("fen");
        let d3 = parts
            .find_map(|p| p.strip_prefix("D3 "))
            .and_then(|n| n.trim().parse().ok())
            .expect("D3");
        check(&mut engine, &pos, 3, d3, true);
    }
}

#[test]
fn tricky_positions_in_both_notations() {
    let text = data("tricky.perft");
    for chess960 in [false, true] {
        let mut engine = Engine::start();
        engine.set_chess960(chess960);
        let mut pos = None;
        let mut checked = 0;
        for line in text.lines() {
            if let Some(epd) = line.strip_prefix("epd ") {
                // shakmaty refuses a few of these (impossible checks); so
                // does the engine, which the protocol tests cover.
                pos = parse_position(epd).ok();
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let (d, n) = rest.split_once(' ').expect("perft line");
                let (d, n): (u32, u64) = (d.parse().expect("depth"), n.parse().expect("count"));
                if let Some(pos) = pos.as_ref().filter(|_| d <= 3 && n <= 200_000) {
                    check(&mut engine, pos, d, n, chess960);
                    checked += 1;
                }
            }
        }
        assert!(checked > 30, "{checked}");
    }
}

#[test]
fn stockfish_perft_cases_at_depth_3() {
    let mut engine = Engine::start();
    let text = data("stockfish-perft-cases.txt");
    for line in text.lines() {
        // run_test "fen <FEN>" <depth> <nodes> "<chess960>"
        let Some(quoted) = line.split('"').nth(1) else {
            continue;
        };
        let chess960 = line.contains("\"true\"");
        let pos = if quoted == "startpos" {
            parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .expect("start")
        } else {
            parse_position(quoted.trim_start_matches("fen ")).expect("fen")
        };
        engine.set_chess960(chess960);
        let expected = shakmaty::perft(&pos, 3);
        check(&mut engine, &pos, 3, expected, chess960);
    }
}
