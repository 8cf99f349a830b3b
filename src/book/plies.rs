//! How many plies each line gets (`--plies N` or `--plies N-M`) and the
//! random source of each line (`--moves random` picks its moves by the
//! one rule of [`crate::openings::plies`]).
//!
//! Every line `k` of the candidate sequence draws from its own ChaCha8
//! stream (`k + 1` of the seed; stream 0 is the start method's, `u64::MAX`
//! the complete sets' shuffle). A line's plies and moves therefore depend
//! only on the seed, `k` and its start, not on which thread or engine
//! process worked on it or in what order: that is what makes a book with
//! `--concurrency` reproducible and lets a shard recompute any line.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::start::method::procedure::uniform_below;

/// `N` or `N-M` plies (inclusive), drawn uniformly per line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRange {
    pub min: u32,
    pub max: u32,
}

/// Most plies a line may have: far beyond any opening, and small enough
/// that a line's moves never need more than a small buffer.
pub const MAX_PLIES: u32 = 200;

impl FromStr for PlyRange {
    type Err = String;

    fn from_str(s: &str) -> Result<PlyRange, String> {
        let number = |t: &str| -> Result<u32, String> {
            match t.trim().parse::<u32>() {
                Ok(n) if n <= MAX_PLIES => Ok(n),
                Ok(_) => Err(format!("'{t}' is more than {MAX_PLIES} plies")),
                Err(_) => Err(format!("'{t}' is not a number of plies")),
            }
        };
        let (min, max) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if min > max {
            return Err(format!("'{s}' is an empty range"));
        }
        Ok(PlyRange { min, max })
    }
}

impl fmt::Display for PlyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

impl PlyRange {
    /// This line's number of plies.
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> u32 {
        if self.min == self.max {
            self.min
        } else {
            self.min + uniform_below(rng, self.max - self.min + 1)
        }
    }
}

/// The random sources of all lines of one seed.
#[derive(Clone)]
pub struct LineRngs {
    base: ChaCha8Rng,
}

impl LineRngs {
    pub fn new(seed: u64) -> LineRngs {
        LineRngs {
            base: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The source of line `index` (0-based), written into `rng` (no
    /// allocation: a copy of the keyed state and a stream change).
    pub fn for_line(&self, index: u64, rng: &mut ChaCha8Rng) {
        rng.clone_from(&self.base);
        rng.set_stream(index.wrapping_add(1));
        rng.set_word_pos(0);
    }

    /// A fresh source for line `index`.
    pub fn line(&self, index: u64) -> ChaCha8Rng {
        let mut rng = self.base.clone();
        self.for_line(index, &mut rng);
        rng
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::plies::random_ply;
    use rand_core::Rng;
    use shakmaty::Chess;

    #[test]
    fn ranges_parse_and_refuse_nonsense() {
        assert_eq!(
            "4".parse::<PlyRange>().unwrap(),
            PlyRange { min: 4, max: 4 }
        );
        assert_eq!(
            "2-6".parse::<PlyRange>().unwrap(),
            PlyRange { min: 2, max: 6 }
        );
        assert!(
            "6-2"
                .parse::<PlyRange>()
                .unwrap_err()
                .contains("empty range")
        );
        assert!("x".parse::<PlyRange>().is_err());
        assert!("999".parse::<PlyRange>().is_err());
    }

    #[test]
    fn each_line_has_its_own_stream_independent_of_order() {
        let rngs = LineRngs::new(42);
        let mut a = rngs.line(5);
        let mut scratch = rngs.line(0);
        let _ = scratch.next_u64();
        rngs.for_line(5, &mut scratch);
        assert_eq!(a.next_u64(), scratch.next_u64());
        assert_ne!(rngs.line(5).next_u64(), rngs.line(6).next_u64());
        assert_ne!(
            rngs.line(5).next_u64(),
            LineRngs::new(43).line(5).next_u64()
        );
    }

    #[test]
    fn random_moves_cover_every_legal_move() {
        let pos = Chess::default();
        let rngs = LineRngs::new(1);
        let mut seen = std::collections::HashSet::new();
        for k in 0..2000 {
            seen.insert(random_ply(&pos, &mut rngs.line(k)).unwrap());
        }
        assert_eq!(seen.len(), 20);
    }
}
