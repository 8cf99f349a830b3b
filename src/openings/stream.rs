//! The openings of a tournament, one per game pair, as a stream in a fixed
//! order for a seed (so a resumed tournament sees exactly the same ones):
//!
//! * generated: a start position by a method, then `random_plies` plies by
//!   the one rule of [`super::plies`];
//! * a book ([`super::book`]): its lines in file order, or shuffled with
//!   the seed again after each pass, from its `start=` line on; random
//!   plies, when asked for, are played after a line's own moves.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::Opening;
use super::book::{BookOrder, OpeningsSpec, load_openings};
use super::error::BookError;
use super::plies::play_random_plies;
use super::shuffle::shuffle;
use super::source::PositionSource;
use super::spec::{MethodError, MethodSpec};

/// Why openings cannot be used (input errors).
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// An EPD or PGN book that cannot be used.
    #[error(transparent)]
    Book(#[from] BookError),
    #[error(transparent)]
    Method(#[from] MethodError),
}

/// The stream of openings of a tournament.
pub struct OpeningSource {
    kind: Kind,
    random_plies: u32,
    /// For the random plies (its own stream, so adding random plies does
    /// not change which start positions are drawn).
    ply_rng: ChaCha8Rng,
}

enum Kind {
    Generated(PositionSource),
    Book {
        lines: Vec<Opening>,
        order: Vec<u32>,
        next: u64,
        random: bool,
        rng: ChaCha8Rng,
    },
}

/// Seeds the random-plies stream apart from the start positions'.
const PLY_STREAM: u64 = 0x9e37_79b9_7f4a_7c15;

impl OpeningSource {
    /// Start positions by a method, each followed by `random_plies` plies.
    pub fn generated(
        spec: &MethodSpec,
        seed: u64,
        random_plies: u32,
    ) -> Result<OpeningSource, OpeningError> {
        Ok(OpeningSource {
            kind: Kind::Generated(PositionSource::new(spec, seed)?),
            random_plies,
            ply_rng: ChaCha8Rng::seed_from_u64(seed ^ PLY_STREAM),
        })
    }

    /// Lines of an opening book, read and checked whole.
    pub fn book(
        spec: &OpeningsSpec,
        seed: u64,
        random_plies: u32,
    ) -> Result<OpeningSource, OpeningError> {
        let mut lines = load_openings(&spec.file, spec.format, spec.plies)?;
        if let Some(start) = spec.start
            && !lines.is_empty()
        {
            let len = lines.len() as u64;
            lines.rotate_left((start.saturating_sub(1) % len) as usize);
        }
        Ok(OpeningSource::from_lines(
            lines,
            spec.order,
            seed,
            random_plies,
        ))
    }

    /// A book already read.
    pub fn from_lines(
        lines: Vec<Opening>,
        order: BookOrder,
        seed: u64,
        random_plies: u32,
    ) -> OpeningSource {
        OpeningSource {
            kind: Kind::Book {
                order: (0..lines.len() as u32).collect(),
                lines,
                next: 0,
                random: order == BookOrder::Random,
                rng: ChaCha8Rng::seed_from_u64(seed),
            },
            random_plies,
            ply_rng: ChaCha8Rng::seed_from_u64(seed ^ PLY_STREAM),
        }
    }

    /// The next opening.
    pub fn next_opening(&mut self) -> Opening {
        let mut opening = match &mut self.kind {
            Kind::Generated(source) => {
                let drawn = source.next_position();
                Opening {
                    initial: drawn.position,
                    moves: Vec::new(),
                    sp: drawn.start,
                }
            }
            Kind::Book {
                lines,
                order,
                next,
                random,
                rng,
            } => {
                let len = order.len() as u64;
                if len == 0 {
                    // `load_openings` refuses an empty book; a caller's own
                    // empty list gets the standard start.
                    return Opening::new(shakmaty::Chess::default(), Vec::new());
                }
                if *random && *next % len == 0 {
                    shuffle(order, rng);
                }
                let line = &lines[order[(*next % len) as usize] as usize];
                *next += 1;
                line.clone()
            }
        };
        if self.random_plies > 0 {
            let mut pos = opening.position();
            play_random_plies(
                &mut pos,
                &mut opening.moves,
                self.random_plies,
                &mut self.ply_rng,
            );
        }
        opening
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn random_order_is_a_seeded_permutation_per_pass() {
        let lines: Vec<Opening> = (0..5)
            .map(|i| Opening::new(Chess::default(), vec![Chess::default().legal_moves()[i]]))
            .collect();
        let draw = |seed| {
            let mut s = OpeningSource::from_lines(lines.clone(), BookOrder::Random, seed, 0);
            (0..10)
                .map(|_| s.next_opening().moves[0])
                .collect::<Vec<_>>()
        };
        let a = draw(1);
        assert_eq!(a, draw(1));
        let mut first: Vec<_> = a[..5].to_vec();
        first.sort_by_key(|m| m.to_string());
        let mut all: Vec<_> = lines.iter().map(|l| l.moves[0]).collect();
        all.sort_by_key(|m| m.to_string());
        assert_eq!(first, all, "each line once per pass");
    }

    #[test]
    fn random_plies_are_legal_and_seeded() {
        let mk = || OpeningSource::generated(&MethodSpec::Die, 7, 6).unwrap();
        let (mut a, mut b) = (mk(), mk());
        for _ in 0..20 {
            let o = a.next_opening();
            assert_eq!(o, b.next_opening());
            assert_eq!(o.moves.len(), 6);
            assert!(o.sp.is_some());
            let mut pos = o.initial.clone();
            for m in &o.moves {
                assert!(pos.is_legal(*m));
                pos.play_unchecked(*m);
            }
        }
        // The start positions are those without random plies.
        let mut bare = OpeningSource::generated(&MethodSpec::Die, 7, 0).unwrap();
        let mut with = mk();
        assert_eq!(bare.next_opening().initial, with.next_opening().initial);
    }
}
