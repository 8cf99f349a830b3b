//! `--shard i/n`: the i-th of n disjoint slices of a book.
//!
//! A book is one sequence, fixed by its flags and seed: candidate lines in
//! order, each kept or dropped by the filters, duplicates decided on that
//! whole sequence (see [`super::generate`]). The kept positions are
//! numbered 0, 1, 2, … in that order (their *rank*), and shard `i/n` writes
//! the ranks `r` with `r mod n = i - 1`. Slicing comes after uniqueness and
//! after `--count`, so the n shards are disjoint, each about `count / n`
//! long, and together exactly the unsharded book (in round-robin order).
//! Every shard walks the whole sequence to know the ranks: cheap for random
//! lines; for engine books it repeats the engine work in every shard, so
//! generate an engine book once and slice the file with
//! `--start book:FILE --shard i/n` (see docs/BOOKS.md).

use std::fmt;
use std::str::FromStr;

/// Slice `index` (1-based) of `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub of: u64,
}

impl Shard {
    /// The whole book.
    pub const WHOLE: Shard = Shard { index: 1, of: 1 };

    /// Whether the kept position of rank `rank` (0-based) belongs here.
    pub fn owns(&self, rank: u64) -> bool {
        rank % self.of == self.index - 1
    }

    /// How many of the first `total` ranks belong here.
    pub fn share_of(&self, total: u64) -> u64 {
        total / self.of + u64::from(total % self.of >= self.index)
    }
}

/// Why a `--shard` value was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--shard '{text}': {fault} (write i/n, 1 <= i <= n, e.g. 1/4)")]
pub struct ShardError {
    pub text: String,
    pub fault: ShardFault,
}

/// What is wrong with a `--shard` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardFault {
    #[error("no '/'")]
    NoSlash,
    /// `i` or `n`.
    #[error("{0} is not a number")]
    NotANumber(char),
    #[error("out of range")]
    OutOfRange,
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = |fault| ShardError {
            text: s.to_string(),
            fault,
        };
        let (i, n) = s.split_once('/').ok_or(bad(ShardFault::NoSlash))?;
        let number = |t: &str, name| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| bad(ShardFault::NotANumber(name)))
        };
        let (index, of) = (number(i, 'i')?, number(n, 'n')?);
        if of == 0 || index == 0 || index > of {
            return Err(bad(ShardFault::OutOfRange));
        }
        Ok(Shard { index, of })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_ranks() {
        let shards: Vec<Shard> = (1..=4).map(|i| Shard { index: i, of: 4 }).collect();
        for rank in 0..1000 {
            assert_eq!(shards.iter().filter(|s| s.owns(rank)).count(), 1);
        }
        for total in 0..20 {
            let sum: u64 = shards.iter().map(|s| s.share_of(total)).sum();
            assert_eq!(sum, total);
            for s in &shards {
                assert_eq!(
                    s.share_of(total),
                    (0..total).filter(|&r| s.owns(r)).count() as u64
                );
            }
        }
    }

    #[test]
    fn parse_checks_the_range() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard { index: 2, of: 4 });
        for bad in ["0/4", "5/4", "1/0", "x/2", "3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        for (text, fault) in [
            ("3/2", ShardFault::OutOfRange),
            ("1/x", ShardFault::NotANumber('n')),
        ] {
            assert_eq!(text.parse::<Shard>().unwrap_err().fault, fault);
        }
    }
}
