//! Shards: the i-th of n disjoint slices of a sequence (a book's positions,
//! a match's game pairs), written `i/n` with shards numbered 1..n, and the
//! scheduler's own numbering read from its environment (`auto`).
//!
//! Item `r` (0-based) belongs to shard `r mod n + 1`: round-robin, so every
//! shard gets a sample spread over the whole sequence (a match shard plays
//! openings from start to end, not one block of them), and the n shards
//! together are exactly the whole.
//!
//! ```
//! use uci960::shard::Shard;
//! let s: Shard = "2/4".parse().unwrap();
//! assert!(s.owns(1) && s.owns(5) && !s.owns(2));
//! assert_eq!(s.share_of(10), 3);
//! ```

use std::fmt;
use std::str::FromStr;

/// Slice `index` (1-based) of `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub index: u64,
    pub of: u64,
}

impl Shard {
    /// The whole sequence.
    pub const WHOLE: Shard = Shard { index: 1, of: 1 };

    /// Whether item `rank` (0-based) belongs here.
    pub fn owns(&self, rank: u64) -> bool {
        rank % self.of == self.index - 1
    }

    /// How many of the first `total` items belong here.
    pub fn share_of(&self, total: u64) -> u64 {
        total / self.of + u64::from(total % self.of >= self.index)
    }
}

/// Why a shard value was refused (the command layer says which setting:
/// `--shard '0/4': ...`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}': {fault} (write i/n, 1 <= i <= n, e.g. 1/4)")]
pub struct ShardError {
    pub text: String,
    pub fault: ShardFault,
}

/// What is wrong with a shard value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardFault {
    #[error("no '/'")]
    NoSlash,
    /// `i` or `n`.
    #[error("{0} is not a number")]
    NotANumber(char),
    #[error("out of range")]
    OutOfRange,
    /// `auto` found no scheduler index in the environment.
    #[error(
        "no scheduler index in the environment (SLURM_ARRAY_TASK_ID, or JOB_COMPLETION_INDEX with auto/N)"
    )]
    NoScheduler,
    /// `auto` needs the count and the scheduler does not give it.
    #[error("{0} is set but the shard count is not: write auto/N")]
    NoCount(&'static str),
    /// `auto/N` in a Slurm array of another size: the array is not the
    /// whole run (one task submitted again as `--array=I`), so the task's
    /// place in it is not its shard.
    #[error(
        "SLURM_ARRAY_TASK_COUNT={count} but the run has {of} shards: this array is not the whole run (a task submitted again on its own?); requeue the task (scontrol requeue JOBID_I) or give its shard as I/{of}"
    )]
    SlurmCount { count: u64, of: u64 },
    /// A scheduler variable that is not a number.
    #[error("{name}='{value}' is not a number")]
    BadVariable { name: &'static str, value: String },
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

/// A shard as the user wrote it: `i/n`, or `auto` / `auto/N` (the index,
/// and without `/N` the count, from the scheduler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardChoice {
    Fixed(Shard),
    Auto { count: Option<u64> },
}

impl FromStr for ShardChoice {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<ShardChoice, ShardError> {
        let t = s.trim();
        if t == "auto" {
            return Ok(ShardChoice::Auto { count: None });
        }
        if let Some(n) = t.strip_prefix("auto/") {
            let bad = |fault| ShardError {
                text: s.to_string(),
                fault,
            };
            let n: u64 = n
                .trim()
                .parse()
                .map_err(|_| bad(ShardFault::NotANumber('n')))?;
            if n == 0 {
                return Err(bad(ShardFault::OutOfRange));
            }
            return Ok(ShardChoice::Auto { count: Some(n) });
        }
        t.parse().map(ShardChoice::Fixed)
    }
}

impl ShardChoice {
    /// The shard, reading the scheduler's variables through `env` for
    /// `auto` (sans-IO: the caller passes `std::env::var`).
    ///
    /// * Slurm array jobs: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`
    ///   (default 0), `SLURM_ARRAY_TASK_STEP` (default 1) and
    ///   `SLURM_ARRAY_TASK_COUNT`: shard `(ID − MIN) / STEP + 1` of
    ///   `COUNT`, so `--array=1-4`, `0-3` and `0-6:2` all give 1/4..4/4.
    ///   A count written as `auto/N` must equal `SLURM_ARRAY_TASK_COUNT`
    ///   when Slurm sets it: a task submitted again on its own
    ///   (`sbatch --array=2`) sees MIN 2 and COUNT 1, and would otherwise
    ///   play shard 1 (with `auto` alone it would be 1/1, which the run
    ///   directory refuses: see `tournament::session`).
    /// * Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (0-based); the
    ///   count is the Job's `completions`, which the pod does not see:
    ///   write `auto/N`.
    pub fn resolve(&self, env: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        let count = match *self {
            ShardChoice::Fixed(s) => return Ok(s),
            ShardChoice::Auto { count } => count,
        };
        let text = match count {
            Some(n) => format!("auto/{n}"),
            None => "auto".to_string(),
        };
        let bad = |fault| ShardError {
            text: text.clone(),
            fault,
        };
        let number = |name: &'static str| -> Result<Option<u64>, ShardError> {
            match env(name) {
                None => Ok(None),
                Some(v) if v.trim().is_empty() => Ok(None),
                Some(v) => v
                    .trim()
                    .parse::<u64>()
                    .map(Some)
                    .map_err(|_| bad(ShardFault::BadVariable { name, value: v })),
            }
        };
        let (offset, of) = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let array = number("SLURM_ARRAY_TASK_COUNT")?;
            let of = match (count, array) {
                (Some(of), Some(count)) if count != of => {
                    return Err(bad(ShardFault::SlurmCount { count, of }));
                }
                (Some(n), _) => n,
                (None, Some(n)) => n,
                (None, None) => return Err(bad(ShardFault::NoCount("SLURM_ARRAY_TASK_ID"))),
            };
            let offset = id.checked_sub(min).ok_or(bad(ShardFault::OutOfRange))? / step;
            (offset, of)
        } else if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let of = count.ok_or(bad(ShardFault::NoCount("JOB_COMPLETION_INDEX")))?;
            (index, of)
        } else {
            return Err(bad(ShardFault::NoScheduler));
        };
        let index = offset.checked_add(1).ok_or(bad(ShardFault::OutOfRange))?;
        if of == 0 || index > of {
            return Err(bad(ShardFault::OutOfRange));
        }
        Ok(Shard { index, of })
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

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn auto_reads_slurm_and_kubernetes() {
        let auto: ShardChoice = "auto".parse().unwrap();
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(auto.resolve(env(&slurm)), Ok(Shard { index: 3, of: 4 }));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(auto.resolve(env(&stepped)), Ok(Shard { index: 4, of: 4 }));
        let k8s = [("JOB_COMPLETION_INDEX", "0")];
        let counted: ShardChoice = "auto/5".parse().unwrap();
        assert_eq!(counted.resolve(env(&k8s)), Ok(Shard { index: 1, of: 5 }));
        assert_eq!(
            auto.resolve(env(&k8s)).unwrap_err().fault,
            ShardFault::NoCount("JOB_COMPLETION_INDEX")
        );
        assert_eq!(
            auto.resolve(env(&[])).unwrap_err().fault,
            ShardFault::NoScheduler
        );
        let beyond = [("JOB_COMPLETION_INDEX", "5")];
        assert_eq!(
            counted.resolve(env(&beyond)).unwrap_err().fault,
            ShardFault::OutOfRange
        );
        let garbage = [
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ];
        let err = auto.resolve(env(&garbage)).unwrap_err().to_string();
        assert!(err.contains("SLURM_ARRAY_TASK_ID='x'"), "{err}");
        assert_eq!(
            "2/3".parse::<ShardChoice>(),
            Ok(ShardChoice::Fixed(Shard { index: 2, of: 3 }))
        );
        assert!("auto/0".parse::<ShardChoice>().is_err());
        // Task 2 of a 4-task array submitted again on its own
        // (`sbatch --array=2`): Slurm says MIN 2, COUNT 1.
        let resubmitted = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_MIN", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "1"),
        ];
        let four: ShardChoice = "auto/4".parse().unwrap();
        assert_eq!(
            four.resolve(env(&resubmitted)).unwrap_err().fault,
            ShardFault::SlurmCount { count: 1, of: 4 }
        );
        assert_eq!(four.resolve(env(&slurm)), Ok(Shard { index: 3, of: 4 }));
        assert_eq!(
            auto.resolve(env(&resubmitted)),
            Ok(Shard { index: 1, of: 1 })
        );
    }
}
