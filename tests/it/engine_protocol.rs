//! The UCI surface of `uci960 engine`, over a pipe: `stop` during
//! `go infinite`, `isready` during a search, exactly one `bestmove` per
//! `go`, bad input answered by `info string`, determinism at fixed depth and
//! nodes, castling notation by `UCI_Chess960`, and clock-based `go`.

use crate::engine_support;

use engine_support::{Engine, checked_move};
use shakmaty::{CastlingMode, Chess};
use uci960::notation::fen::parse_position;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// `stop` during `go infinite` ends the search with one legal `bestmove`
/// and nothing after it, five times in a row. (How fast: a benchmark's
/// business, not a test's; every wait here is a hang guard.)
#[test]
fn stop_during_go_infinite_answers_with_one_legal_bestmove() {
    let mut engine = Engine::start();
    engine.send(&format!("position fen {KIWIPETE}"));
    for _ in 0..5 {
        engine.send("go infinite");
        // Let it think: wait for a few iterations to be reported.
        engine.until(|l| l.starts_with("info depth 3"));
        engine.send("stop");
        let lines = engine.until(|l| l.starts_with("bestmove"));
        let line = lines.last().expect("bestmove line");
        checked_move(
            &parse_position(KIWIPETE).unwrap(),
            line.split(' ').nth(1).unwrap(),
            CastlingMode::Standard,
        );
        assert!(engine.sync().is_empty(), "nothing may follow the bestmove");
    }
}

#[test]
fn isready_is_answered_during_a_search_and_infinite_waits_for_stop() {
    let mut engine = Engine::start();
    engine.send(&format!("position fen {KIWIPETE}"));
    engine.send("go infinite");
    engine.until(|l| l.starts_with("info depth 2"));
    engine.send("isready");
    let lines = engine.until(|l| l == "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    // A mate-in-one position finishes its search at once, but `go infinite`
    // still holds the bestmove until `stop`.
    engine.send("stop");
    engine.until(|l| l.starts_with("bestmove"));
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go infinite");
    // The search has found the mate (and a finite search would be over);
    // up to the `readyok` that follows, no bestmove.
    let lines = engine.until(|l| l.contains("score mate 1"));
    let lines = [lines, engine.sync()].concat();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop: {lines:?}"
    );
    engine.send("stop");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
}

#[test]
fn exactly_one_bestmove_per_go_even_when_queued_or_stopped() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5");
    // Three searches sent at once: they run in order, each answers once.
    engine.send("go depth 3");
    engine.send("go nodes 2000");
    engine.send("go infinite");
    engine.send("stop");
    let mut bestmoves = 0;
    let lines = engine.until(|l| {
        bestmoves += usize::from(l.starts_with("bestmove"));
        bestmoves == 3
    });
    // A fourth search with a known answer: a late, extra bestmove of the
    // first three would arrive before its bestmove.
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let (best, late) = engine.go("go depth 1");
    assert_eq!(best, "a1a8", "{lines:?} then {late:?}");
    assert!(
        late[..late.len() - 1]
            .iter()
            .all(|l| !l.starts_with("bestmove")),
        "{lines:?} then {late:?}"
    );
    assert!(engine.sync().is_empty());
    // A stop with nothing to stop says nothing.
    engine.send("stop");
    assert!(engine.sync().is_empty());
}

#[test]
fn bad_input_gets_info_string_and_the_last_good_position_is_played() {
    let mut engine = Engine::start();
    let good = "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    engine.send(good);
    for (line, reason) in [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("position fen 8/8/8/8 w - - 0 1", "position: "),
        (
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e2e4",
            "move 2 'e2e4' is not a legal move",
        ),
        ("position startpos moves e9e4", "'e9e4' is not a UCI move"),
        ("position", "expected 'startpos' or 'fen"),
        ("setoption name NoSuch value 3", "no such option 'NoSuch'"),
        ("setoption name Hash value lots", "Hash takes"),
        // The bad limit is dropped and the search runs until `stop`.
        ("go depth x", "'x' is not a number"),
    ] {
        engine.send(line);
        let out = engine.sync();
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string") && l.contains(reason)),
            "'{line}' gave {out:?}"
        );
    }
    engine.send("stop");
    let out = engine.until(|l| l.starts_with("bestmove"));
    let pos = parse_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    checked_move(
        &pos,
        out.last().unwrap().split(' ').nth(1).unwrap(),
        CastlingMode::Standard,
    );
    // Non-UTF-8 and very long lines don't kill it either.
    engine.send(&"x".repeat(100_000));
    assert_eq!(engine.sync().len(), 1);
    engine.send_bytes(b"\xff\xfe\x00 position\n");
    assert_eq!(engine.sync().len(), 1);
    // After all that the position is still the last good one.
    let (best, _) = engine.go("go depth 3");
    checked_move(&pos, &best, CastlingMode::Standard);
    // A position without moves answers 0000.
    engine.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(engine.go("go depth 3").0, "0000");
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(engine.go("go movetime 50").0, "0000");
}

#[test]
fn fixed_depth_and_nodes_give_the_same_move_twice() {
    let mut engine = Engine::start();
    engine.set_chess960(true);
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    for go in ["go depth 5", "go nodes 30000"] {
        engine.send(&format!("position fen {fen}"));
        let (first, lines1) = engine.go(go);
        // Something else in between, to show no state leaks across searches.
        engine.send("position startpos moves d2d4");
        engine.go("go depth 4");
        engine.send(&format!("position fen {fen}"));
        let (second, lines2) = engine.go(go);
        assert_eq!(first, second, "{go}");
        let nodes = |lines: &[String]| -> Vec<String> {
            lines
                .iter()
                .filter(|l| l.starts_with("info depth"))
                .map(|l| l.split(" nps").next().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            nodes(&lines1),
            nodes(&lines2),
            "{go}: same tree, same counts"
        );
    }
}

#[test]
fn castling_notation_follows_uci_chess960() {
    let mut engine = Engine::start();
    let fen = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1";
    engine.send(&format!("position fen {fen}"));
    assert_eq!(engine.go("go depth 2 searchmoves e1g1").0, "e1g1");
    assert_eq!(engine.go("go depth 2 searchmoves e1c1").0, "e1c1");
    engine.set_chess960(true);
    assert_eq!(engine.go("go depth 2 searchmoves e1h1").0, "e1h1");
    assert_eq!(engine.go("go depth 2 searchmoves e1a1").0, "e1a1");
    // Both move notations are read in either mode.
    engine.send(&format!("position fen {fen} moves e1g1 e8c8"));
    let pos = parse_position("2kr3r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R4RK1 w - - 2 2")
        .unwrap();
    checked_move(&pos, &engine.go("go depth 2").0, CastlingMode::Chess960);
    // A Chess960 position with the option off still gets KxR (the only
    // unambiguous form): king f1, rook h1.
    engine.set_chess960(false);
    engine.send("position fen 4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    assert_eq!(engine.go("go depth 1 searchmoves f1h1").0, "f1h1");
}

#[test]
fn clock_based_go_is_answered() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    for go in [
        "go wtime 2000 btime 2000 winc 0 binc 0",
        "go movetime 300",
        "go wtime 100 btime 100 movestogo 1",
    ] {
        // The clock ends the search at all (`go` has a hang guard).
        let (best, _) = engine.go(go);
        checked_move(&Chess::default(), &best, CastlingMode::Standard);
    }
}
