//! Where games begin, as the user names it: a method (`die`,
//! `bag-redraw`, `bag-swap`, `random`, `dfrc`), fixed numbers (`sp:N`,
//! `sp:N,M,…`, `sp:A-B`), a book (`book:PATH`, `book-shuffle:PATH`), or for
//! `uci960 book` one of the two complete sets (`all`, `dfrc-all`).
//!
//! | spec | drawn by |
//! |---|---|
//! | `die` | [`crate::start::method::die::Die`] |
//! | `bag-redraw` | [`crate::start::method::bag_redraw::BagRedraw`] |
//! | `bag-swap` | [`crate::start::method::bag_swap::BagSwap`] |
//! | `random`, `dfrc` | [`crate::start::method::uniform::Uniform`] |
//! | `sp:N`, `sp:N,M,…`, `sp:A-B` | fixed numbers, cycled in order |
//! | `book:PATH`, `book-shuffle:PATH` | [`super::book`]: EPD/FEN lines, or the positions PGN games reach; in file order, or shuffled by the seed |
//! | `all`, `dfrc-all` | the 960, or the 921,600 Double Fischer Random pairs, each once |

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use super::error::BookError;
use crate::start::POSITIONS;
use crate::start::analysis::{self, Exact};
use crate::start::method::procedure::ReplayError;
use crate::start::method::{RandomMethod, bag_redraw, bag_swap, die, uniform};

/// A method as the user names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MethodSpec {
    Die,
    BagRedraw,
    BagSwap,
    Random,
    Dfrc,
    /// Fixed numbers, cycled in order.
    Fixed(Vec<u16>),
    /// Positions from a file, in order or shuffled.
    Book {
        path: PathBuf,
        shuffle: bool,
    },
}

/// The method names a user can choose, as `Start` combo values.
pub const METHOD_NAMES: [&str; 8] = [
    "die",
    "bag-redraw",
    "bag-swap",
    "random",
    "dfrc",
    "sp",
    "book",
    "book-shuffle",
];

/// Why a method cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MethodError {
    #[error(
        "unknown method '{0}' (use die, bag-redraw, bag-swap, random, dfrc, sp:N[,M…|A-B], book:PATH, book-shuffle:PATH)"
    )]
    Unknown(String),
    #[error("bad number list in '{spec}': '{token}' {reason}")]
    BadNumber {
        spec: String,
        token: String,
        reason: String,
    },
    #[error(transparent)]
    Book(#[from] BookError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(
        "{method} cannot replay {given}: die rolls replay die, bag draws bag-redraw and bag-swap"
    )]
    NoReplay { method: String, given: Replayed },
}

/// What a physical draw is replayed from ([`super::replay`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// The throws of a die, for `die`.
    DieRolls,
    /// The pieces drawn from a bag, for `bag-redraw` and `bag-swap`.
    BagDraws,
}

impl std::fmt::Display for Replayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Replayed::DieRolls => "die rolls",
            Replayed::BagDraws => "bag draws",
        })
    }
}

impl MethodSpec {
    /// The random procedure behind this method, if it has one.
    pub fn procedure(&self) -> Option<RandomMethod> {
        match self {
            MethodSpec::Die => Some(RandomMethod::Die(die::Die)),
            MethodSpec::BagRedraw => Some(RandomMethod::BagRedraw(bag_redraw::BagRedraw)),
            MethodSpec::BagSwap => Some(RandomMethod::BagSwap(bag_swap::BagSwap)),
            MethodSpec::Random => Some(RandomMethod::Uniform(uniform::Uniform { double: false })),
            MethodSpec::Dfrc => Some(RandomMethod::Uniform(uniform::Uniform { double: true })),
            MethodSpec::Fixed(_) | MethodSpec::Book { .. } => None,
        }
    }

    /// The exact law of the positions this method gives, when it has one
    /// (the random procedures and fixed lists; not books).
    pub fn exact(&self) -> Option<Exact> {
        match self {
            MethodSpec::Fixed(numbers) => Some(analysis::exact_of_list(numbers)),
            other => other.procedure().map(|p| analysis::exact_for(&p)),
        }
    }

    /// The short name: `die`, `sp`, `book`, …
    pub fn name(&self) -> &'static str {
        match self {
            MethodSpec::Die => "die",
            MethodSpec::BagRedraw => "bag-redraw",
            MethodSpec::BagSwap => "bag-swap",
            MethodSpec::Random => "random",
            MethodSpec::Dfrc => "dfrc",
            MethodSpec::Fixed(_) => "sp",
            MethodSpec::Book { shuffle: false, .. } => "book",
            MethodSpec::Book { shuffle: true, .. } => "book-shuffle",
        }
    }
}

fn parse_numbers(spec: &str, list: &str) -> Result<Vec<u16>, MethodError> {
    let bad = |token: &str, reason: &str| MethodError::BadNumber {
        spec: spec.to_string(),
        token: token.to_string(),
        reason: reason.to_string(),
    };
    let number = |t: &str| -> Result<u16, MethodError> {
        match t.trim().parse::<u32>() {
            Ok(n) if n < u32::from(POSITIONS) => Ok(n as u16),
            Ok(_) => Err(bad(t, "is out of range (0..959)")),
            Err(_) => Err(bad(t, "is not a number")),
        }
    };
    let mut numbers = Vec::new();
    for item in list.split(',') {
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(bad(item, "is an empty range"));
                }
                numbers.extend(a..=b);
            }
            None => numbers.push(number(item)?),
        }
    }
    Ok(numbers)
}

impl FromStr for MethodSpec {
    type Err = MethodError;

    fn from_str(s: &str) -> Result<MethodSpec, MethodError> {
        let s = s.trim();
        if let Some(list) = s.strip_prefix("sp:") {
            return Ok(MethodSpec::Fixed(parse_numbers(s, list)?));
        }
        if let Some(path) = s.strip_prefix("book:") {
            return Ok(MethodSpec::Book {
                path: PathBuf::from(path),
                shuffle: false,
            });
        }
        if let Some(path) = s.strip_prefix("book-shuffle:") {
            return Ok(MethodSpec::Book {
                path: PathBuf::from(path),
                shuffle: true,
            });
        }
        match s {
            "die" => Ok(MethodSpec::Die),
            "bag-redraw" => Ok(MethodSpec::BagRedraw),
            "bag-swap" => Ok(MethodSpec::BagSwap),
            "random" => Ok(MethodSpec::Random),
            "dfrc" => Ok(MethodSpec::Dfrc),
            other => Err(MethodError::Unknown(other.to_string())),
        }
    }
}

impl fmt::Display for MethodSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MethodSpec::Fixed(numbers) => {
                let list: Vec<String> = numbers.iter().map(u16::to_string).collect();
                write!(f, "sp:{}", list.join(","))
            }
            MethodSpec::Book { path, .. } => write!(f, "{}:{}", self.name(), path.display()),
            other => f.write_str(other.name()),
        }
    }
}

/// `--start` of `uci960 book`: a method, or a complete set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSpec {
    Method(MethodSpec),
    /// The 960, each once.
    All,
    /// The 960 × 960 Double Fischer Random pairs, each once.
    DfrcAll,
}

impl StartSpec {
    /// How many starts a complete set holds (`None` for a method, which
    /// draws without end).
    pub fn set_size(&self) -> Option<u64> {
        match self {
            StartSpec::All => Some(u64::from(POSITIONS)),
            StartSpec::DfrcAll => Some(u64::from(POSITIONS) * u64::from(POSITIONS)),
            StartSpec::Method(_) => None,
        }
    }
}

impl FromStr for StartSpec {
    type Err = MethodError;

    fn from_str(s: &str) -> Result<StartSpec, MethodError> {
        match s.trim() {
            "all" => Ok(StartSpec::All),
            "dfrc-all" => Ok(StartSpec::DfrcAll),
            other => other.parse().map(StartSpec::Method),
        }
    }
}

impl fmt::Display for StartSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartSpec::All => f.write_str("all"),
            StartSpec::DfrcAll => f.write_str("dfrc-all"),
            StartSpec::Method(m) => write!(f, "{m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_lists_parse_and_check_range() {
        assert_eq!(
            "sp:518".parse::<MethodSpec>().unwrap(),
            MethodSpec::Fixed(vec![518])
        );
        assert_eq!(
            "sp:1,5-7".parse::<MethodSpec>().unwrap(),
            MethodSpec::Fixed(vec![1, 5, 6, 7])
        );
        let err = "sp:960".parse::<MethodSpec>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad number list in 'sp:960': '960' is out of range (0..959)"
        );
        assert!("dice".parse::<MethodSpec>().is_err());
    }

    #[test]
    fn complete_sets_and_methods_parse_through() {
        assert_eq!("all".parse::<StartSpec>().unwrap(), StartSpec::All);
        assert_eq!(
            "sp:518".parse::<StartSpec>().unwrap(),
            StartSpec::Method(MethodSpec::Fixed(vec![518]))
        );
        assert!("everything".parse::<StartSpec>().is_err());
    }
}
