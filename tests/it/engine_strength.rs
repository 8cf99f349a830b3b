//! Strength sanity, driven over UCI with shakmaty as the arbiter: at depth 4
//! the engine beats a random mover in at least 19 of 20 games, and scores at
//! least 70 % against itself at depth 1 over 20 games.
//!
//! Games start from random Chess960 positions (seeded, so every run plays
//! the same games); against depth 1 each position is played with both
//! colours. A game ends by the rules (mate, stalemate, threefold,
//! fifty moves, insufficient material) or, after 120 plies, is adjudicated
//! on plain material (P1 N3 B3 R5 Q9): a lead of 3 pawns or more wins,
//! anything less is a draw. Against a random mover depth 4 mates long before
//! that; the cap only keeps the depth-1 games short.

use crate::engine_support;

use engine_support::{Engine, GameExt, Result, checked_move, new_game, random_start};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use shakmaty::{CastlingMode, Color, Position};
use uci960::start::method::procedure::uniform_below;

const MAX_PLIES: usize = 120;
const ADJUDICATION_MARGIN: i32 = 300;

/// Who moves for one colour.
enum Player {
    Engine { depth: u32 },
    Random,
}

/// Plays one game; the flag says whether it was adjudicated.
fn play(
    engine: &mut Engine,
    rng: &mut ChaCha8Rng,
    start: shakmaty::Chess,
    white: &Player,
    black: &Player,
) -> (Result, bool) {
    let mut game = new_game(start);
    engine.send("ucinewgame");
    loop {
        if let Some(result) = game.over() {
            return (result, false);
        }
        if game.moves().len() >= MAX_PLIES {
            return (game.adjudicate(ADJUDICATION_MARGIN), true);
        }
        let player = if game.position().turn() == Color::White {
            white
        } else {
            black
        };
        let m = match player {
            Player::Random => {
                let moves = game.position().legal_moves();
                moves[uniform_below(rng, moves.len() as u32) as usize]
            }
            Player::Engine { depth } => {
                engine.send(&game.position_command());
                let (best, _) = engine.go(&format!("go depth {depth}"));
                checked_move(game.position(), &best, CastlingMode::Chess960)
            }
        };
        game.play(m);
    }
}

/// Points for the side playing `hero_color` (win 1, draw ½).
fn points(result: Result, hero_color: Color) -> f64 {
    match (result, hero_color) {
        (Result::Draw, _) => 0.5,
        (Result::WhiteWins, Color::White) | (Result::BlackWins, Color::Black) => 1.0,
        _ => 0.0,
    }
}

#[test]
fn depth_4_beats_a_random_mover_19_of_20() {
    let mut engine = Engine::start();
    engine.set_chess960(true);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut wins = 0;
    let mut results = Vec::new();
    let mut adjudications = 0;
    for i in 0..20 {
        let start = random_start(&mut rng);
        let hero = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let (white, black) = match hero {
            Color::White => (Player::Engine { depth: 4 }, Player::Random),
            Color::Black => (Player::Random, Player::Engine { depth: 4 }),
        };
        let (result, adjudicated) = play(&mut engine, &mut rng, start, &white, &black);
        adjudications += usize::from(adjudicated);
        wins += usize::from(points(result, hero) == 1.0);
        results.push(result);
    }
    eprintln!("depth 4 vs random: {wins}/20 wins, {adjudications} adjudicated: {results:?}");
    assert!(wins >= 19, "only {wins} wins of 20: {results:?}");
}

#[test]
fn depth_4_scores_70_percent_against_depth_1() {
    let mut engine = Engine::start();
    engine.set_chess960(true);
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut score = 0.0;
    let mut results = Vec::new();
    let mut adjudications = 0;
    for _ in 0..10 {
        let start = random_start(&mut rng);
        for hero in [Color::White, Color::Black] {
            let (white, black) = match hero {
                Color::White => (Player::Engine { depth: 4 }, Player::Engine { depth: 1 }),
                Color::Black => (Player::Engine { depth: 1 }, Player::Engine { depth: 4 }),
            };
            let (result, adjudicated) = play(&mut engine, &mut rng, start.clone(), &white, &black);
            adjudications += usize::from(adjudicated);
            score += points(result, hero);
            results.push(result);
        }
    }
    eprintln!("depth 4 vs depth 1: {score}/20, {adjudications} adjudicated: {results:?}");
    assert!(score >= 14.0, "depth 4 scored only {score}/20: {results:?}");
}
