//! The engine client against real Stockfish: handshake, Chess960 option,
//! a short search from a Chess960 position, a legal best move, clean quit.

use crate::common;

use std::time::Duration;

use shakmaty::Position;
use uci960::notation::castling::{CastlingNotation, parse_move};
use uci960::notation::fen::parse_position;
use uci960::uci::{GoParams, PositionCommand};
use uci960::uci_client::{EngineCommand, EngineError, StopStep, UciEngine};

const T: Duration = Duration::from_secs(30);

#[test]
fn stockfish_searches_a_chess960_position() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let mut e = UciEngine::start(&EngineCommand::new(sf), T).unwrap();
    assert!(e.handshake().chess960());
    assert!(e.name().starts_with("Stockfish"), "{}", e.name());
    e.set_option("UCI_Chess960", "true").unwrap();
    e.new_game().unwrap();
    e.is_ready(T).unwrap();
    // White can castle queenside at once (king b1, rook a1 ... after moves).
    let fen = "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1";
    e.position(&PositionCommand::fen(fen, vec![])).unwrap();
    let r = e.go(&GoParams::nodes(2000), T).unwrap();
    let pos = parse_position(fen).unwrap();
    let mv = r.bestmove.clone().unwrap();
    parse_move(&pos, &mv, CastlingNotation::KingTakesRook).unwrap();
    assert!(
        r.depth.is_some() && r.score.is_some() && !r.pv.is_empty(),
        "{r:?}"
    );
    assert!(r.elapsed > Duration::ZERO);
    assert!(pos.legal_moves().len() > 1);
    let pid = e.pid();
    let report = e.quit();
    assert_eq!(report.step, StopStep::Quit);
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
}

#[test]
fn engine_that_dies_is_reported() {
    let cmd = EngineCommand::new(common::mock_engine()).with_args(["--crash-on-uci"]);
    let err = UciEngine::start(&cmd, T).err().unwrap();
    assert!(matches!(err, EngineError::Exited { .. }), "{err}");
    assert!(err.to_string().contains("SIGSEGV"), "{err}");
}

#[test]
fn silent_engine_times_out() {
    let cmd = EngineCommand::new(common::mock_engine()).with_args(["--silent"]);
    let err = UciEngine::start(&cmd, Duration::from_millis(300))
        .err()
        .unwrap();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "uciok",
                ..
            }
        ),
        "{err}"
    );
}

/// `position` and `go` in one write give what two writes give (Stockfish
/// is deterministic at a node limit after `ucinewgame`), and the collector
/// parsing lazily reads the same fields from Stockfish's real output as
/// parsing every line.
#[test]
fn stockfish_position_and_go_in_one_write() {
    use uci960::uci::parse_engine_line;
    use uci960::uci_client::{EngineEvent, SearchCollector};
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let mut e = UciEngine::start(&EngineCommand::new(sf), T).unwrap();
    e.set_option("UCI_Chess960", "true").unwrap();
    let fen = "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1";
    let moves = vec!["d2d4".to_string(), "d7d5".to_string()];
    let position = PositionCommand::fen(fen, moves.clone()).to_string();
    assert!(position.ends_with(" moves d2d4 d7d5"), "{position}");

    e.new_game().unwrap();
    e.is_ready(T).unwrap();
    let one = e.position_and_go(&position, "go nodes 3000", T).unwrap();

    e.new_game().unwrap();
    e.is_ready(T).unwrap();
    e.position(&PositionCommand::fen(fen, moves)).unwrap();
    let two = e.go(&GoParams::nodes(3000), T).unwrap();
    assert!(one.bestmove.is_some() && one.score.is_some() && !one.pv.is_empty());
    let key = |r: &uci960::uci_client::SearchResult| {
        (
            r.bestmove.clone(),
            r.depth,
            r.seldepth,
            r.score,
            r.nodes,
            r.pv.clone(),
            r.info_lines,
        )
    };
    assert_eq!(key(&one), key(&two));

    // The raw lines of a third search, fed both ways.
    e.new_game().unwrap();
    e.is_ready(T).unwrap();
    let p = e.process_mut();
    p.send_lines(&[position.as_bytes(), b"go nodes 3000"])
        .unwrap();
    let (mut eager, mut lazy) = (SearchCollector::new(), SearchCollector::new());
    let (a, b) = loop {
        let Ok(EngineEvent::Line(line)) = p.recv_timeout(T) else {
            panic!("no bestmove");
        };
        let a = eager.feed(parse_engine_line(&line));
        let b = lazy.feed_line(&line);
        assert_eq!(a.is_some(), b.is_some());
        if let (Some(a), Some(b)) = (a, b) {
            break (a, b);
        }
    };
    assert_eq!(a, b);
    assert_eq!(key(&a), key(&one));
    assert_eq!(e.quit().step, StopStep::Quit);
}
