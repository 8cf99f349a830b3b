//! `--shard i/n` for a match: which games of the schedule a shard plays.
//!
//! A filter on the schedule, by game pair: pair `q` (both colours of one
//! start) belongs to shard `q mod n + 1` ([`crate::shard::Shard::owns`]).
//! Game numbers (the PGN `Round`), pairings, openings and colours are those
//! of the whole schedule, so the shards' games together are exactly the
//! single-machine tournament with the same seed and settings; the
//! round-robin split gives every shard openings from the whole book, and
//! pentanomial pairs never straddle two shards.
//!
//! ```
//! use uci960::shard::Shard;
//! use uci960::tournament::partition::{games_of, owns};
//! use uci960::tournament::schedule::{Schedule, TournamentKind};
//! let s = Schedule::new(TournamentKind::RoundRobin, 2, 10, 1).unwrap();
//! let second = Shard { index: 2, of: 4 };
//! let mine: Vec<u64> = (1..=10).filter(|&g| owns(second, &s.slot(g))).collect();
//! assert_eq!(mine, [3, 4]);
//! assert_eq!(games_of(second, &s), 2);
//! ```

use super::schedule::{Schedule, Slot};
use crate::shard::Shard;

/// Whether `shard` plays this game.
pub fn owns(shard: Shard, slot: &Slot) -> bool {
    shard.owns(slot.pair)
}

/// How many games `shard` plays (every schedule has whole pairs).
pub fn games_of(shard: Shard, schedule: &Schedule) -> u64 {
    shard.share_of(schedule.games() / 2) * 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule::TournamentKind;

    #[test]
    fn shards_split_the_schedule_by_pairs() {
        let s = Schedule::new(TournamentKind::Gauntlet, 4, 6, 2).unwrap();
        for n in [1, 2, 3, 5, 7, 100] {
            let mut owner = vec![0u64; s.games() as usize + 1];
            for i in 1..=n {
                let shard = Shard { index: i, of: n };
                let mine: Vec<u64> = (1..=s.games())
                    .filter(|&g| owns(shard, &s.slot(g)))
                    .collect();
                assert_eq!(mine.len() as u64, games_of(shard, &s));
                for g in mine {
                    assert_eq!(owner[g as usize], 0, "game {g} in two shards");
                    owner[g as usize] = i;
                }
            }
            assert!(owner[1..].iter().all(|&o| o > 0), "every game in a shard");
            // Both colours of a start in the same shard.
            for g in (1..=s.games()).step_by(2) {
                assert_eq!(owner[g as usize], owner[g as usize + 1]);
            }
        }
    }
}
