//! The one random-plies rule: a ply is chosen uniformly among the legal
//! moves *after which the game goes on* (no mate, stalemate or dead
//! position), so a random opening never hands the engines a finished
//! game. `match --random-plies` and `book --moves random` both use it.
//!
//! The choice is made by rejection: a move is drawn uniformly among the
//! candidates; when it would end the game it is struck off and the draw is
//! repeated. That is uniform over the moves that keep the game going (as a
//! filter first, then a draw, would be) but costs one look ahead per ply
//! instead of one per legal move, which matters for books of a million
//! lines.

use shakmaty::{Chess, Move, Position};

use crate::start::method::procedure::uniform_below;

/// A legal move of `pos` after which the game is not over, chosen
/// uniformly; `None` when every legal move ends the game or there is none.
pub fn random_ply(pos: &Chess, rng: &mut impl rand_core::Rng) -> Option<Move> {
    let mut moves = pos.legal_moves();
    while !moves.is_empty() {
        let i = uniform_below(rng, moves.len() as u32) as usize;
        let mut next = pos.clone();
        next.play_unchecked(moves[i]);
        if !next.is_game_over() {
            return Some(moves[i]);
        }
        moves.swap_remove(i);
    }
    None
}

/// Plays up to `plies` random plies from `pos` (by [`random_ply`]),
/// pushing each onto `moves`; stops early when no ply keeps the game
/// going. Returns the plies played.
pub fn play_random_plies(
    pos: &mut Chess,
    moves: &mut Vec<Move>,
    plies: u32,
    rng: &mut impl rand_core::Rng,
) -> u32 {
    for played in 0..plies {
        match random_ply(pos, rng) {
            Some(m) => {
                pos.play_unchecked(m);
                moves.push(m);
            }
            None => return played,
        }
    }
    plies
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, uci::UciMove};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap()
    }

    #[test]
    fn a_mating_move_is_never_chosen() {
        // White to move: Qh5-f7 mates (after 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6).
        let pos = position("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
        let mate = UciMove::from_ascii(b"h5f7").unwrap().to_move(&pos).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..2000 {
            let m = random_ply(&pos, &mut rng).unwrap();
            assert_ne!(m, mate);
        }
    }

    #[test]
    fn no_move_when_mated_and_never_a_move_into_a_dead_position() {
        let mated = position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        assert!(random_ply(&mated, &mut ChaCha8Rng::seed_from_u64(0)).is_none());
        // Kxh2 would leave two bare kings.
        let pos = position("k7/8/8/8/8/8/7p/6K1 w - - 0 1");
        let take = UciMove::from_ascii(b"g1h2").unwrap().to_move(&pos).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..500 {
            assert_ne!(random_ply(&pos, &mut rng), Some(take));
        }
    }

    #[test]
    fn plies_are_legal_seeded_and_stop_short_of_the_end() {
        let play = |seed| {
            let mut pos = Chess::default();
            let mut moves = Vec::new();
            let n = play_random_plies(
                &mut pos,
                &mut moves,
                40,
                &mut ChaCha8Rng::seed_from_u64(seed),
            );
            (n, moves, pos)
        };
        let (n, moves, end) = play(9);
        assert_eq!(n as usize, moves.len());
        assert_eq!(moves, play(9).1);
        assert!(!end.is_game_over());
        let mut replay = Chess::default();
        for m in &moves {
            assert!(replay.is_legal(*m));
            replay.play_unchecked(*m);
        }
    }
}
