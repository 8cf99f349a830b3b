//! The engine client against real Stockfish: handshake, Chess960 option,
//! a short search from a Chess960 position, a legal best move, clean quit.

mod common;

use std::time::Duration;

use shakmaty::Position;
use uci960::engine::{EngineCommand, EngineError, StopStep, UciEngine};
use uci960::notation::castling::{CastlingNotation, parse_move};
use uci960::notation::fen::parse_position;
use uci960::uci::{GoParams, PositionCommand};

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
    let cmd =
        EngineCommand::new("sh").with_args(["-c", "read x; echo 'id name Dies'; kill -SEGV $$"]);
    let err = UciEngine::start(&cmd, T).err().unwrap();
    assert!(matches!(err, EngineError::Exited { .. }), "{err}");
    assert!(err.to_string().contains("SIGSEGV"), "{err}");
}

#[test]
fn silent_engine_times_out() {
    let cmd = EngineCommand::new("sh").with_args(["-c", "exec sleep 30"]);
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
