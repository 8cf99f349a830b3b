//! Which games a match plays. Games come in pairs: each start position is
//! played twice with colours reversed, so `--games` is rounded up to even.
//! Game `g` (1-based, the PGN `Round`) belongs to pair `(g + 1) / 2` (the
//! pair's start position is the pair-th position drawn); the first engine
//! has White in odd games and Black in even ones.

use std::collections::{BTreeSet, VecDeque};

/// `n` rounded up to even (at least 2).
pub fn round_up_even(n: u32) -> u32 {
    n.clamp(1, u32::MAX - 1).div_ceil(2) * 2
}

/// One game of the match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot {
    /// 1-based game number, the PGN `Round`.
    pub number: u32,
    /// 1-based pair number = index of the start position.
    pub pair: u32,
    /// Whether the first engine plays White.
    pub first_white: bool,
}

impl Slot {
    pub fn new(number: u32) -> Slot {
        Slot {
            number,
            pair: number.div_ceil(2),
            first_white: number % 2 == 1,
        }
    }

    /// The engine index (0 = first) playing White, then Black.
    pub fn engines(&self) -> [usize; 2] {
        if self.first_white { [0, 1] } else { [1, 0] }
    }
}

/// The games still to play, in order, skipping those already done
/// (`--resume`).
pub fn pending(games: u32, done: &BTreeSet<u32>) -> VecDeque<Slot> {
    (1..=games)
        .filter(|g| !done.contains(g))
        .map(Slot::new)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_rounded_up_to_pairs() {
        assert_eq!(round_up_even(0), 2);
        assert_eq!(round_up_even(1), 2);
        assert_eq!(round_up_even(20), 20);
        assert_eq!(round_up_even(21), 22);
    }

    #[test]
    fn pairs_share_a_position_with_colours_reversed() {
        let a = Slot::new(5);
        let b = Slot::new(6);
        assert_eq!((a.pair, b.pair), (3, 3));
        assert_eq!(a.engines(), [0, 1]);
        assert_eq!(b.engines(), [1, 0]);
    }

    #[test]
    fn resume_skips_finished_games() {
        let done: BTreeSet<u32> = [1, 2, 4].into_iter().collect();
        let left: Vec<u32> = pending(6, &done).iter().map(|s| s.number).collect();
        assert_eq!(left, [3, 5, 6]);
    }
}
