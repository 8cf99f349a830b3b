//! Where each book line begins: a stream of start positions, by any method
//! of `positions` (`--start die`, `sp:518`, `book:FILE`, …) or one of the
//! two complete sets, `--start all` (the 960, one each) and
//! `--start dfrc-all` (the 921,600 Double Fischer Random pairs, one each),
//! in SP order or shuffled by the seed.
//!
//! The complete sets are an order over indices, not a list of positions:
//! `dfrc-all` keeps 921,600 `u32` (3.7 MB) when shuffled and nothing when
//! not, and builds each position only when it is asked for. A complete set
//! is cycled when more starts are asked for than it holds (a book with
//! plies gets other lines from the same starts on the next round).

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use shakmaty::Chess;

use crate::start::method::book::Place;
use crate::start::method::procedure::uniform_below;
use crate::start::method::{MethodError, MethodSpec, PositionSource, Record};
use crate::start::{POSITIONS, StartPosition};

/// `--start`: a method of `positions`, or a complete set.
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

/// One start: the position, and the start position it is when it is one
/// (book lines may hold any position).
#[derive(Clone, Debug)]
pub struct Start {
    pub position: Chess,
    pub start: Option<StartPosition>,
    /// The line (EPD) or game (PGN) of the book it was read from, so that
    /// what the line carries can follow it ([`super::stored`]).
    pub place: Option<Place>,
}

/// An endless stream of starts.
pub struct StartStream {
    kind: Kind,
}

enum Kind {
    Method(Box<PositionSource>),
    /// Index `i` of the set is `order[i]` when shuffled, else `i` itself.
    Set {
        double: bool,
        order: Option<Vec<u32>>,
        next: u64,
    },
}

impl StartStream {
    /// A stream for `spec`. `shuffle` orders a complete set by the seed
    /// (ignored for methods, which have their own randomness); the shuffle
    /// uses its own ChaCha stream, so it does not disturb the plies.
    pub fn new(spec: &StartSpec, seed: u64, shuffle: bool) -> Result<StartStream, MethodError> {
        let kind = match spec {
            StartSpec::Method(method) => Kind::Method(Box::new(PositionSource::new(method, seed)?)),
            StartSpec::All | StartSpec::DfrcAll => {
                let double = *spec == StartSpec::DfrcAll;
                let size = spec.set_size().unwrap_or(0) as u32;
                let order = shuffle.then(|| shuffled(size, seed));
                Kind::Set {
                    double,
                    order,
                    next: 0,
                }
            }
        };
        Ok(StartStream { kind })
    }

    /// The next start.
    pub fn next_start(&mut self) -> Start {
        match &mut self.kind {
            Kind::Method(source) => {
                let drawn = source.next_position();
                let place = match drawn.record {
                    Record::Book { place, .. } => Some(place),
                    _ => None,
                };
                Start {
                    position: drawn.position,
                    start: drawn.start,
                    place,
                }
            }
            Kind::Set {
                double,
                order,
                next,
            } => {
                let size = if *double {
                    u64::from(POSITIONS) * u64::from(POSITIONS)
                } else {
                    u64::from(POSITIONS)
                };
                let i = (*next % size) as u32;
                *next += 1;
                let index = order.as_ref().map_or(i, |o| o[i as usize]);
                let start = set_member(*double, index);
                Start {
                    position: start.to_chess(),
                    start: Some(start),
                    place: None,
                }
            }
        }
    }
}

/// Member `index` of a complete set in SP order: SP `index` of the 960, or
/// for DFRC the pair (White `index / 960`, Black `index % 960`).
fn set_member(double: bool, index: u32) -> StartPosition {
    let n = u32::from(POSITIONS);
    let (white, black) = if double {
        (index / n, index % n)
    } else {
        (index, index)
    };
    // Indices come from the set's own range, so both numbers are < 960.
    StartPosition::from_sp_pair(white, black).unwrap_or_else(|_| unreachable!())
}

/// `0..size` shuffled by Fisher-Yates with ChaCha8 stream `u64::MAX` of the
/// seed (the per-line streams count up from 1, see [`super::plies`]).
fn shuffled(size: u32, seed: u64) -> Vec<u32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::MAX);
    let mut order: Vec<u32> = (0..size).collect();
    for i in (1..order.len()).rev() {
        let j = uniform_below(&mut rng, (i + 1) as u32) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn all_is_the_960_in_sp_order_then_again() {
        let mut s = StartStream::new(&StartSpec::All, 1, false).unwrap();
        for sp in 0..960u16 {
            let start = s.next_start().start.unwrap();
            assert_eq!((start.white.sp(), start.black.sp()), (sp, sp));
        }
        assert_eq!(s.next_start().start.unwrap().white.sp(), 0);
    }

    #[test]
    fn shuffled_dfrc_is_a_permutation_fixed_by_the_seed() {
        let order = shuffled(921_600, 7);
        assert_eq!(order.iter().copied().collect::<HashSet<_>>().len(), 921_600);
        assert_eq!(order, shuffled(921_600, 7));
        assert_ne!(order, shuffled(921_600, 8));
        let mut s = StartStream::new(&StartSpec::DfrcAll, 7, true).unwrap();
        let first = s.next_start().start.unwrap();
        assert_eq!(
            u32::from(first.white.sp()) * 960 + u32::from(first.black.sp()),
            order[0]
        );
    }

    #[test]
    fn methods_parse_through() {
        assert_eq!("all".parse::<StartSpec>().unwrap(), StartSpec::All);
        assert_eq!(
            "sp:518".parse::<StartSpec>().unwrap(),
            StartSpec::Method(MethodSpec::Fixed(vec![518]))
        );
        assert!("everything".parse::<StartSpec>().is_err());
    }
}
