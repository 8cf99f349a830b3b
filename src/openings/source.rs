//! The stream of start positions every command draws from: a method, a
//! fixed list, a book's positions or a complete set, each position with the
//! record of how it came about (die throws, list item, book line).
//!
//! ```
//! use uci960::openings::{MethodSpec, PositionSource};
//! let spec: MethodSpec = "die".parse().unwrap();
//! let mut source = PositionSource::new(&spec, 7).unwrap();
//! let drawn = source.next_position();
//! assert!(drawn.start.is_some());
//! ```

use std::fmt;
use std::path::PathBuf;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use shakmaty::Chess;

use super::book;
use super::entry::{BookEntry, Place};
use super::shuffle::shuffle as shuffle_all;
use super::spec::{MethodError, MethodSpec, Replayed, StartSpec};
use crate::notation::fen::{FenFlavour, position_fen};
use crate::start::method::RandomMethod;
use crate::start::method::cached_fen;
use crate::start::method::procedure::{self, RecordedEvent, Run};
use crate::start::{POSITIONS, StartPosition};

/// How a position came about.
#[derive(Clone, Debug)]
pub enum Record {
    /// Die throws, bag draws or computer numbers, with restarts and the
    /// fix-ups made at the end.
    Events {
        events: Vec<RecordedEvent>,
        restarts: u32,
        notes: procedure::Notes,
    },
    /// Item `index` (1-based) of a fixed list.
    Fixed { index: usize, of: usize },
    /// A line (EPD) or game (PGN) of a book.
    Book { path: PathBuf, place: Place },
}

/// `rolls`, `draws` or `numbers`: what the events of a record are.
fn events_kind(events: &[RecordedEvent]) -> &'static str {
    match events.first().map(|e| e.kind) {
        Some(procedure::EventKind::Throw) => "rolls",
        Some(procedure::EventKind::Draw) => "draws",
        _ => "numbers",
    }
}

impl Record {
    fn from_run(run: Run) -> Record {
        Record::Events {
            events: run.events,
            restarts: run.restarts,
            notes: run.notes,
        }
    }

    /// The record as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Record::Events {
                events,
                restarts,
                notes,
            } => {
                let kind = events_kind(events);
                serde_json::json!({
                    "kind": kind,
                    "events": events.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
                    "restarts": restarts,
                    "notes": notes.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
                })
            }
            Record::Fixed { index, of } => {
                serde_json::json!({"kind": "list", "index": index, "of": of})
            }
            Record::Book { path, place } => {
                let (key, n) = match place {
                    Place::Line(n) => ("line", n),
                    Place::Game(n) => ("game", n),
                };
                serde_json::json!({"kind": "book", "path": path.display().to_string(), key: n})
            }
        }
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Record::Events {
                events,
                restarts,
                notes,
            } => {
                let kind = events_kind(events);
                let list: Vec<String> = events.iter().map(|e| e.to_string()).collect();
                write!(f, "{kind} {}", list.join(","))?;
                if *restarts > 0 {
                    write!(f, "; {restarts} restart(s)")?;
                }
                for note in notes {
                    write!(f, "; {note}")?;
                }
                Ok(())
            }
            Record::Fixed { index, of } => write!(f, "list item {index} of {of}"),
            Record::Book { path, place } => write!(f, "{} {place}", path.display()),
        }
    }
}

/// A drawn position with its record.
#[derive(Clone, Debug)]
pub struct Drawn {
    pub position: Chess,
    /// The start position, when it is one (always, except for book lines
    /// that are not start positions).
    pub start: Option<StartPosition>,
    /// The method's name (`die`, `sp`, `book`, …).
    pub method: &'static str,
    pub record: Record,
}

impl Drawn {
    fn from_start(start: StartPosition, method: &'static str, record: Record) -> Drawn {
        Drawn {
            position: start.to_chess(),
            start: Some(start),
            method,
            record,
        }
    }

    /// FEN in the chosen flavour (cached for the 960 mirrored positions).
    pub fn fen(&self, flavour: FenFlavour) -> String {
        match self.start {
            Some(start) if !start.is_double() => cached_fen(start.white.sp(), flavour).to_string(),
            _ => position_fen(&self.position, flavour),
        }
    }

    /// `518`, `518/100` for DFRC, `-` for a book position that is no start.
    pub fn sp_label(&self) -> String {
        self.start
            .map(|s| s.sp_label())
            .unwrap_or_else(|| "-".into())
    }

    /// The position as a JSON document (`positions --format json`): `sp`
    /// and `black_sp` (null for a book position that is no start), both
    /// FENs, the method and its record.
    pub fn to_json(&self) -> serde_json::Value {
        let (sp, black_sp) = match self.start {
            Some(s) => (
                serde_json::json!(s.white.sp()),
                serde_json::json!(s.black.sp()),
            ),
            None => (serde_json::Value::Null, serde_json::Value::Null),
        };
        serde_json::json!({
            "sp": sp,
            "black_sp": black_sp,
            "fen": self.fen(FenFlavour::XFen),
            "shredder_fen": self.fen(FenFlavour::Shredder),
            "method": self.method,
            "record": self.record.to_json(),
        })
    }
}

/// An endless supply of positions by one method.
pub struct PositionSource {
    /// The method's name (`die`, `sp`, `book`, `all`, …).
    name: &'static str,
    rng: ChaCha8Rng,
    kind: SourceKind,
}

enum SourceKind {
    Procedure(RandomMethod),
    Fixed {
        numbers: Vec<u16>,
        next: usize,
    },
    Book {
        path: PathBuf,
        entries: Vec<BookEntry>,
        order: Vec<usize>,
        next: usize,
        shuffle: bool,
    },
    /// A complete set: index `i` is `order[i]` when shuffled, else `i`
    /// itself (`dfrc-all` keeps 921,600 `u32`, 3.7 MB, when shuffled and
    /// nothing when not, and builds each position only when asked for).
    Set {
        double: bool,
        order: Option<Vec<u32>>,
        next: u64,
    },
}

impl PositionSource {
    /// A source for `spec`, seeded with `seed` (books are read and checked
    /// here).
    pub fn new(spec: &MethodSpec, seed: u64) -> Result<PositionSource, MethodError> {
        let kind = match spec {
            MethodSpec::Fixed(numbers) => SourceKind::Fixed {
                numbers: numbers.clone(),
                next: 0,
            },
            MethodSpec::Book { path, shuffle } => {
                let entries = book::load_positions(path)?;
                SourceKind::Book {
                    path: path.clone(),
                    order: (0..entries.len()).collect(),
                    entries,
                    next: 0,
                    shuffle: *shuffle,
                }
            }
            other => match other.procedure() {
                Some(p) => SourceKind::Procedure(p),
                None => return Err(MethodError::Unknown(other.to_string())),
            },
        };
        Ok(PositionSource {
            name: spec.name(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            kind,
        })
    }

    /// A source for `uci960 book --start`: a method, or a complete set in
    /// SP order or, with `shuffle`, in an order fixed by the seed (drawn
    /// from ChaCha8 stream `u64::MAX`, so that it does not disturb the
    /// per-line streams, which count up from 1). A complete set is cycled
    /// when more starts are asked for than it holds.
    pub fn for_start(
        spec: &StartSpec,
        seed: u64,
        shuffle: bool,
    ) -> Result<PositionSource, MethodError> {
        let double = match spec {
            StartSpec::Method(method) => return PositionSource::new(method, seed),
            StartSpec::All => false,
            StartSpec::DfrcAll => true,
        };
        let size = spec.set_size().unwrap_or(0) as u32;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(u64::MAX);
        let order = shuffle.then(|| {
            let mut order: Vec<u32> = (0..size).collect();
            shuffle_all(&mut order, &mut rng);
            order
        });
        Ok(PositionSource {
            name: if double { "dfrc-all" } else { "all" },
            rng,
            kind: SourceKind::Set {
                double,
                order,
                next: 0,
            },
        })
    }

    /// The next position.
    pub fn next_position(&mut self) -> Drawn {
        let method = self.name;
        match &mut self.kind {
            SourceKind::Procedure(p) => {
                let run = p.sample(&mut self.rng);
                let start = run.position;
                Drawn::from_start(start, method, Record::from_run(run))
            }
            SourceKind::Fixed { numbers, next } => {
                let index = *next % numbers.len().max(1);
                *next = index + 1;
                let sp = numbers
                    .get(index)
                    .copied()
                    .unwrap_or(crate::start::STANDARD_SP);
                let start =
                    StartPosition::from_sp(u32::from(sp)).unwrap_or_else(|_| unreachable!());
                Drawn::from_start(
                    start,
                    method,
                    Record::Fixed {
                        index: index + 1,
                        of: numbers.len(),
                    },
                )
            }
            SourceKind::Book {
                path,
                entries,
                order,
                next,
                shuffle,
            } => {
                if *next % order.len() == 0 && *shuffle {
                    shuffle_all(order, &mut self.rng);
                }
                let entry = &entries[order[*next % order.len()]];
                *next += 1;
                Drawn {
                    start: StartPosition::from_chess(&entry.position).ok(),
                    position: entry.position.clone(),
                    method,
                    record: Record::Book {
                        path: path.clone(),
                        place: entry.place,
                    },
                }
            }
            SourceKind::Set {
                double,
                order,
                next,
            } => {
                let size = set_size(*double);
                let i = (*next % size) as u32;
                *next += 1;
                let index = order.as_ref().map_or(i, |o| o[i as usize]);
                Drawn::from_start(
                    set_member(*double, index),
                    method,
                    Record::Fixed {
                        index: i as usize + 1,
                        of: size as usize,
                    },
                )
            }
        }
    }
}

fn set_size(double: bool) -> u64 {
    let n = u64::from(POSITIONS);
    if double { n * n } else { n }
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

/// Replays a physical die or bag: `tokens` are what `given` says.
pub fn replay(spec: &MethodSpec, tokens: &[String], given: Replayed) -> Result<Drawn, MethodError> {
    let allowed = matches!(
        (spec, given),
        (MethodSpec::Die, Replayed::DieRolls)
            | (
                MethodSpec::BagRedraw | MethodSpec::BagSwap,
                Replayed::BagDraws
            )
    );
    let Some(procedure) = spec.procedure().filter(|_| allowed) else {
        return Err(MethodError::NoReplay {
            method: spec.to_string(),
            given,
        });
    };
    let run = procedure::replay(&procedure, tokens)?;
    let start = run.position;
    Ok(Drawn::from_start(start, spec.name(), Record::from_run(run)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The library names the record, not the flag it came in.
    #[test]
    fn a_record_of_another_method_is_refused() {
        let tokens: Vec<String> = ["2", "3", "3", "2", "3"].map(String::from).to_vec();
        let e = replay(&MethodSpec::BagRedraw, &tokens, Replayed::DieRolls)
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "bag-redraw cannot replay die rolls: die rolls replay die, bag draws bag-redraw and bag-swap"
        );
        assert!(replay(&MethodSpec::Die, &tokens, Replayed::DieRolls).is_ok());
    }

    #[test]
    fn fixed_numbers_cycle() {
        let mut source = PositionSource::new(&"sp:3,518".parse().unwrap(), 0).unwrap();
        let sps: Vec<String> = (0..4).map(|_| source.next_position().sp_label()).collect();
        assert_eq!(sps, ["3", "518", "3", "518"]);
    }

    #[test]
    fn all_is_the_960_in_sp_order_then_again() {
        let mut s = PositionSource::for_start(&StartSpec::All, 1, false).unwrap();
        for sp in 0..960u16 {
            let start = s.next_position().start.unwrap();
            assert_eq!((start.white.sp(), start.black.sp()), (sp, sp));
        }
        assert_eq!(s.next_position().start.unwrap().white.sp(), 0);
    }

    #[test]
    fn shuffled_dfrc_is_a_permutation_fixed_by_the_seed() {
        let firsts = |seed| {
            let mut s = PositionSource::for_start(&StartSpec::DfrcAll, seed, true).unwrap();
            (0..2000)
                .map(|_| {
                    let start = s.next_position().start.unwrap();
                    u32::from(start.white.sp()) * 960 + u32::from(start.black.sp())
                })
                .collect::<Vec<_>>()
        };
        let a = firsts(7);
        assert_eq!(a.iter().copied().collect::<HashSet<_>>().len(), 2000);
        assert_eq!(a, firsts(7));
        assert_ne!(a, firsts(8));
    }
}
