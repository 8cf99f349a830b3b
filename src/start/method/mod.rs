//! How start positions are drawn: every method of the design, one file each,
//! behind one [`PositionSource`] that yields positions with their record.
//!
//! | spec | method |
//! |---|---|
//! | `die` | [`die::Die`] |
//! | `bag-redraw` | [`bag_redraw::BagRedraw`] |
//! | `bag-swap` | [`bag_swap::BagSwap`] |
//! | `random`, `dfrc` | [`uniform::Uniform`] |
//! | `sp:N`, `sp:N,M,…`, `sp:A-B` | fixed numbers, cycled in order |
//! | `book:PATH`, `book-shuffle:PATH` | [`book`] (EPD/FEN lines, or PGN games by [`pgn_book`]): in file order, or shuffled by the seed |
//!
//! Randomness is ChaCha8 seeded from a `u64`; 32-bit words are mapped to
//! choices by rejection ([`procedure::uniform_below`]), so a seed gives the
//! same positions on every platform and with every `rand` version.
//!
//! ```
//! use uci960::start::method::{MethodSpec, PositionSource};
//! let spec: MethodSpec = "die".parse().unwrap();
//! let mut source = PositionSource::new(&spec, 7).unwrap();
//! let drawn = source.next_position();
//! assert!(drawn.start.is_some());
//! ```

mod bag;
pub mod bag_redraw;
pub mod bag_swap;
pub mod book;
pub mod die;
pub mod pgn_book;
pub mod procedure;
pub mod rank_fix;
pub mod uniform;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::OnceLock;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use shakmaty::Chess;

use crate::notation::fen::{FenFlavour, position_fen};
use crate::start::{POSITIONS, StartPosition};
use procedure::{Procedure, RecordedEvent, ReplayError, Run, uniform_below};

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
    Book(#[from] book::EpdBookError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("{method} cannot replay {what}: {reason}")]
    NoReplay {
        method: String,
        what: &'static str,
        reason: &'static str,
    },
}

/// The random procedures, as one type: a value picks its method once, and
/// [`RandomMethod::sample`] runs that method's own compiled draw loop.
#[derive(Clone, Copy, Debug)]
pub enum RandomMethod {
    Die(die::Die),
    BagRedraw(bag_redraw::BagRedraw),
    BagSwap(bag_swap::BagSwap),
    Uniform(uniform::Uniform),
}

/// Calls `$body` with `$p` bound to the concrete procedure.
macro_rules! with_procedure {
    ($method:expr, $p:ident => $body:expr) => {
        match $method {
            RandomMethod::Die($p) => $body,
            RandomMethod::BagRedraw($p) => $body,
            RandomMethod::BagSwap($p) => $body,
            RandomMethod::Uniform($p) => $body,
        }
    };
}

impl RandomMethod {
    /// Samples one run.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Run {
        with_procedure!(self, p => procedure::sample(p, rng))
    }
}

impl Procedure for RandomMethod {
    fn start(&self) -> procedure::DrawState {
        with_procedure!(self, p => p.start())
    }
    fn event(&self, state: &procedure::DrawState) -> Option<procedure::Event> {
        with_procedure!(self, p => p.event(state))
    }
    fn finish(&self, state: &procedure::DrawState) -> (StartPosition, procedure::Notes) {
        with_procedure!(self, p => p.finish(state))
    }
    fn apply(&self, state: &mut procedure::DrawState, label: u16) -> procedure::Transition {
        with_procedure!(self, p => p.apply(state, label))
    }
    fn describe(&self, state: &procedure::DrawState) -> String {
        with_procedure!(self, p => p.describe(state))
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
    Book { path: PathBuf, place: book::Place },
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
                    book::Place::Line(n) => ("line", n),
                    book::Place::Game(n) => ("game", n),
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
}

/// FEN of a mirrored start position, computed once per number and flavour.
pub fn cached_fen(sp: u16, flavour: FenFlavour) -> &'static str {
    static TABLE: OnceLock<Vec<[String; 2]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..u32::from(POSITIONS))
            .map(|n| {
                let start = StartPosition::from_sp(n).unwrap_or_else(|_| unreachable!());
                [start.fen(FenFlavour::XFen), start.fen(FenFlavour::Shredder)]
            })
            .collect()
    });
    let i = match flavour {
        FenFlavour::XFen => 0,
        FenFlavour::Shredder => 1,
    };
    &table[usize::from(sp) % table.len()][i]
}

/// An endless supply of positions by one method.
pub struct PositionSource {
    spec: MethodSpec,
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
        entries: Vec<book::BookEntry>,
        order: Vec<usize>,
        next: usize,
        shuffle: bool,
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
                let entries = book::load(path)?;
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
            spec: spec.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            kind,
        })
    }

    /// The method this source draws by.
    pub fn spec(&self) -> &MethodSpec {
        &self.spec
    }

    /// The next position.
    pub fn next_position(&mut self) -> Drawn {
        let method = self.spec.name();
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
                    for i in (1..order.len()).rev() {
                        let j = uniform_below(&mut self.rng, (i + 1) as u32) as usize;
                        order.swap(i, j);
                    }
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
        }
    }
}

/// Replays a physical die (`--rolls`) or bag (`--draws`).
pub fn replay(
    spec: &MethodSpec,
    tokens: &[String],
    what: &'static str,
) -> Result<Drawn, MethodError> {
    let allowed = matches!(
        (spec, what),
        (MethodSpec::Die, "rolls") | (MethodSpec::BagRedraw | MethodSpec::BagSwap, "draws")
    );
    let Some(procedure) = spec.procedure().filter(|_| allowed) else {
        return Err(MethodError::NoReplay {
            method: spec.to_string(),
            what,
            reason: "--rolls goes with die, --draws with bag-redraw and bag-swap",
        });
    };
    let run = procedure::replay(&procedure, tokens)?;
    let start = run.position;
    Ok(Drawn::from_start(start, spec.name(), Record::from_run(run)))
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
    fn fixed_numbers_cycle() {
        let mut source = PositionSource::new(&"sp:3,518".parse().unwrap(), 0).unwrap();
        let sps: Vec<String> = (0..4).map(|_| source.next_position().sp_label()).collect();
        assert_eq!(sps, ["3", "518", "3", "518"]);
    }
}
