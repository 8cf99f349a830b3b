//! 200 self-play games of `uci960 engine` from random Chess960 start
//! positions at depth 2, every move checked with shakmaty (legal, and in
//! KxR notation with `UCI_Chess960` on). Games stop at the rules' end or at
//! 70 plies (enough to see both castles), and a finished game must get
//! `bestmove 0000` when no move is left.

use crate::engine_support;

use engine_support::{Engine, GameExt, checked_move, new_game, random_start};
use rand_core::SeedableRng;
use shakmaty::{CastlingMode, Move, Position};

const GAMES: usize = 200;
const MAX_PLIES: usize = 70;

#[test]
fn self_play_200_games_legal_moves_and_castles_on_both_wings() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(960);
    let mut engine = Engine::start();
    engine.set_chess960(true);
    let (mut short, mut long, mut plies, mut finished) = (0, 0, 0, 0);
    for _ in 0..GAMES {
        let mut game = new_game(random_start(&mut rng));
        engine.send("ucinewgame");
        while game.moves().len() < MAX_PLIES && game.over().is_none() {
            engine.send(&game.position_command());
            let (best, _) = engine.go("go depth 2");
            let m = checked_move(game.position(), &best, CastlingMode::Chess960);
            if let Move::Castle { king, rook } = m {
                if king < rook {
                    short += 1;
                } else {
                    long += 1;
                }
            }
            game.play(m);
            plies += 1;
        }
        if game.over().is_some() {
            finished += 1;
            if game.position().legal_moves().is_empty() {
                engine.send(&game.position_command());
                assert_eq!(engine.go("go depth 2").0, "0000");
            }
        }
    }
    eprintln!(
        "self-play: {GAMES} games, {plies} plies, {finished} ended by the rules, castles: {short} short (h-side), {long} long (a-side)"
    );
    assert!(short >= 10, "only {short} h-side castles");
    assert!(long >= 10, "only {long} a-side castles");
}
