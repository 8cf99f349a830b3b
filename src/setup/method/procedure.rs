//! The shape every random set-up method shares: a state machine that asks
//! for random events (a die throw, a draw from the bag, a number) and says
//! what each outcome does. One description of each method serves three
//! drivers: sampling with a seeded generator, replaying a physical die or bag
//! (`--rolls`, `--draws`), and exact enumeration (see `analysis`).

use std::fmt;

use shakmaty::Role;

pub use super::rank_fix::Note;
use crate::setup::StartPosition;

/// What kind of random event a method asks for; decides how outcomes are
/// typed in and printed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EventKind {
    /// A six-sided die; labels 1..=6.
    Throw,
    /// A piece out of the bag; labels are [`role_label`]s.
    Draw,
    /// A number 0..959 drawn by the computer; labels are the numbers.
    Number,
}

/// One random event: equally likely physical outcomes, grouped by label.
/// A bag with two knights offers the label N with weight 2.
#[derive(Clone, Copy, Debug)]
pub struct Event {
    pub kind: EventKind,
    options: Options,
}

#[derive(Clone, Copy, Debug)]
enum Options {
    /// Labels `first..first+count`, each weight 1.
    Range { first: u16, count: u16 },
    /// Up to five labels with weights.
    Weighted { items: [(u16, u32); 5], len: u8 },
}

impl Event {
    /// A die throw: labels 1..=6.
    pub fn throw() -> Event {
        Event {
            kind: EventKind::Throw,
            options: Options::Range { first: 1, count: 6 },
        }
    }

    /// A uniform number in `0..count`.
    pub fn number(count: u16) -> Event {
        Event {
            kind: EventKind::Number,
            options: Options::Range { first: 0, count },
        }
    }

    /// A draw from a bag holding `bag[i]` pieces of [`BAG_ROLES`]`[i]`.
    pub fn draw(bag: &[u8; 5]) -> Event {
        let mut items = [(0u16, 0u32); 5];
        let mut len = 0;
        for (i, &count) in bag.iter().enumerate() {
            if count > 0 {
                items[len] = (i as u16, u32::from(count));
                len += 1;
            }
        }
        Event {
            kind: EventKind::Draw,
            options: Options::Weighted {
                items,
                len: len as u8,
            },
        }
    }

    /// Total weight: the number of equally likely physical outcomes.
    pub fn total_weight(&self) -> u32 {
        match self.options {
            Options::Range { count, .. } => u32::from(count),
            Options::Weighted { items, len } => items[..usize::from(len)].iter().map(|i| i.1).sum(),
        }
    }

    /// The labels with their weights.
    pub fn options(&self) -> impl Iterator<Item = (u16, u32)> + '_ {
        let (range, items): (std::ops::Range<u16>, &[(u16, u32)]) = match &self.options {
            Options::Range { first, count } => (*first..first + count, &[]),
            Options::Weighted { items, len } => (0..0, &items[..usize::from(*len)]),
        };
        range.map(|l| (l, 1)).chain(items.iter().copied())
    }

    /// The label of the physical outcome with index `index < total_weight()`.
    pub fn label_at(&self, index: u32) -> u16 {
        match self.options {
            Options::Range { first, .. } => first + index as u16,
            Options::Weighted { items, len } => {
                let mut left = index;
                for &(label, weight) in &items[..usize::from(len)] {
                    if left < weight {
                        return label;
                    }
                    left -= weight;
                }
                items[usize::from(len).saturating_sub(1)].0
            }
        }
    }

    /// Whether `label` is a possible outcome.
    pub fn offers(&self, label: u16) -> bool {
        self.options().any(|(l, _)| l == label)
    }
}

/// The pieces of a bag, in the order of the bag counts.
pub const BAG_ROLES: [Role; 5] = [
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Queen,
    Role::King,
];

/// A full bag: two rooks, two knights, two bishops, a queen and a king.
pub const FULL_BAG: [u8; 5] = [2, 2, 2, 1, 1];

/// The bag label of a role.
pub fn role_label(role: Role) -> u16 {
    BAG_ROLES.iter().position(|&r| r == role).unwrap_or(0) as u16
}

/// The state of a method part-way: squares filled so far and what is left.
/// One concrete type for every method keeps the drivers free of generics.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DrawState {
    /// White's back rank, file a first.
    pub slots: [Option<Role>; 8],
    /// Pieces left in the bag (bag methods).
    pub bag: [u8; 5],
    /// Which step of the method comes next.
    pub stage: u8,
    /// Numbers drawn so far (`random`, `dfrc`).
    pub numbers: [u16; 2],
}

impl DrawState {
    /// Files still empty, a first.
    pub fn empty_files(&self) -> impl Iterator<Item = usize> + '_ {
        (0..8).filter(|&i| self.slots[i].is_none())
    }

    /// The `n`-th empty file (0-based).
    pub fn nth_empty(&self, n: usize) -> Option<usize> {
        self.empty_files().nth(n)
    }
}

/// What an outcome does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Transition {
    /// Go on from the new state.
    Continue(DrawState),
    /// Nothing changes: throw again, or the piece goes back into the bag.
    Again,
    /// The procedure has no way on: start the whole draw again.
    Restart,
}

/// What comes next in a state.
#[derive(Clone, Debug)]
pub enum Next {
    Event(Event),
    /// The position is complete. The notes say what was fixed up at the end
    /// (swaps), for the record.
    Finished(StartPosition, Vec<Note>),
}

/// A random set-up method as a state machine.
pub trait Procedure: Send + Sync {
    /// The state before the first event.
    fn start(&self) -> DrawState;
    /// What happens in `state`.
    fn next(&self, state: &DrawState) -> Next;
    /// The effect of outcome `label` of the event [`Procedure::next`] asked for.
    fn apply(&self, state: &DrawState, label: u16) -> Transition;
    /// What the event in `state` decides, for error messages
    /// ("the dark-square bishop").
    fn describe(&self, state: &DrawState) -> String;
}

/// One event as it happened.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RecordedEvent {
    pub kind: EventKind,
    pub label: u16,
    pub effect: Effect,
}

/// What a recorded event did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    Placed,
    Again,
    Restart,
}

/// Text of one outcome label: `3`, `N`, `518`.
pub fn label_text(kind: EventKind, label: u16) -> String {
    match kind {
        EventKind::Throw | EventKind::Number => label.to_string(),
        EventKind::Draw => BAG_ROLES
            .get(usize::from(label))
            .map(|r| r.upper_char().to_string())
            .unwrap_or_else(|| "?".into()),
    }
}

impl fmt::Display for RecordedEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = label_text(self.kind, self.label);
        match (self.effect, self.kind) {
            (Effect::Placed, _) => write!(f, "{text}"),
            (Effect::Again, EventKind::Draw) => write!(f, "{text}(back)"),
            (Effect::Again, _) => write!(f, "{text}(again)"),
            (Effect::Restart, _) => write!(f, "{text}(restart)"),
        }
    }
}

/// Why a replayed sequence of throws or draws does not make a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("{what} {index} is '{token}': {reason}")]
    Invalid {
        what: &'static str,
        index: usize,
        token: String,
        reason: String,
    },
    #[error(
        "the {what}s end after {what} {count}, before the position is complete: {needed} still needs a {what}"
    )]
    TooShort {
        what: &'static str,
        count: usize,
        needed: String,
    },
    #[error("{what} {index} ('{token}') comes after the position is already complete")]
    TooLong {
        what: &'static str,
        index: usize,
        token: String,
    },
}

/// A finished run: the position, every event, the restarts and notes.
#[derive(Clone, Debug)]
pub struct Run {
    pub position: StartPosition,
    pub events: Vec<RecordedEvent>,
    pub restarts: u32,
    pub notes: Vec<Note>,
}

/// Runs `procedure` to the end, asking `choose` for each event's label.
/// `choose` gets the event, the state and the running event count.
pub fn run<E>(
    procedure: &dyn Procedure,
    mut choose: impl FnMut(&Event, &DrawState, usize) -> Result<u16, E>,
) -> Result<Run, E> {
    let mut state = procedure.start();
    let mut events = Vec::with_capacity(16);
    let mut restarts = 0;
    loop {
        match procedure.next(&state) {
            Next::Finished(position, notes) => {
                return Ok(Run {
                    position,
                    events,
                    restarts,
                    notes,
                });
            }
            Next::Event(event) => {
                let label = choose(&event, &state, events.len())?;
                let transition = procedure.apply(&state, label);
                let effect = match transition {
                    Transition::Continue(next) => {
                        state = next;
                        Effect::Placed
                    }
                    Transition::Again => Effect::Again,
                    Transition::Restart => {
                        restarts += 1;
                        state = procedure.start();
                        Effect::Restart
                    }
                };
                events.push(RecordedEvent {
                    kind: event.kind,
                    label,
                    effect,
                });
            }
        }
    }
}

/// Replays typed tokens (`2`, `N`, …) as the outcomes of the events.
pub fn replay(procedure: &dyn Procedure, tokens: &[String]) -> Result<Run, ReplayError> {
    let mut used = 0;
    let result = run(procedure, |event, state, count| {
        let what = match event.kind {
            EventKind::Throw => "throw",
            EventKind::Draw => "draw",
            EventKind::Number => "number",
        };
        let Some(token) = tokens.get(count) else {
            return Err(ReplayError::TooShort {
                what,
                count,
                needed: procedure.describe(state),
            });
        };
        used = count + 1;
        let invalid = |reason: String| ReplayError::Invalid {
            what,
            index: count + 1,
            token: token.clone(),
            reason,
        };
        let label = parse_label(event.kind, token).map_err(invalid)?;
        if !event.offers(label) {
            let reason = match event.kind {
                EventKind::Draw => {
                    let held: Vec<String> = event
                        .options()
                        .map(|(l, w)| format!("{w}×{}", label_text(EventKind::Draw, l)))
                        .collect();
                    format!(
                        "no such piece left in the bag (it holds {})",
                        held.join(", ")
                    )
                }
                _ => "not a possible outcome".to_string(),
            };
            return Err(invalid(reason));
        }
        Ok(label)
    })?;
    if let Some(extra) = tokens.get(used) {
        let what = match result.events.last().map(|e| e.kind) {
            Some(EventKind::Draw) => "draw",
            Some(EventKind::Number) => "number",
            _ => "throw",
        };
        return Err(ReplayError::TooLong {
            what,
            index: used + 1,
            token: extra.clone(),
        });
    }
    Ok(result)
}

fn parse_label(kind: EventKind, token: &str) -> Result<u16, String> {
    match kind {
        EventKind::Throw => match token.parse::<u16>() {
            Ok(v @ 1..=6) => Ok(v),
            Ok(v) => Err(format!("a die shows 1 to 6, not {v}")),
            Err(_) => Err("not a number from 1 to 6".into()),
        },
        EventKind::Number => token.parse::<u16>().map_err(|_| "not a number".to_string()),
        EventKind::Draw => {
            let mut chars = token.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => crate::setup::backrank::role_of_letter(c)
                    .filter(|r| *r != Role::Pawn)
                    .map(role_label)
                    .ok_or_else(|| "not a piece letter (R, N, B, Q, K)".to_string()),
                _ => Err("a draw is one piece letter (R, N, B, Q, K)".into()),
            }
        }
    }
}

/// Splits `2,3,3,2,3`, `2 3 3`, `BNRKQRNB` or `B,N,R` into tokens.
pub fn split_tokens(text: &str) -> Vec<String> {
    let parts: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() == 1 && parts[0].chars().all(|c| c.is_ascii_alphabetic()) {
        return parts[0].chars().map(|c| c.to_string()).collect();
    }
    parts.into_iter().map(str::to_string).collect()
}

/// Uniform integer in `0..n` from 32-bit words, by rejection, so the mapping
/// never depends on a library's range sampling.
pub fn uniform_below(rng: &mut impl rand_core::Rng, n: u32) -> u32 {
    debug_assert!(n > 0);
    let zone = (1u64 << 32) / u64::from(n) * u64::from(n);
    loop {
        let x = u64::from(rng.next_u32());
        if x < zone {
            return (x % u64::from(n)) as u32;
        }
    }
}

/// Samples one run with `rng`.
pub fn sample(procedure: &dyn Procedure, rng: &mut impl rand_core::Rng) -> Run {
    let result: Result<Run, std::convert::Infallible> = run(procedure, |event, _, _| {
        Ok(event.label_at(uniform_below(rng, event.total_weight())))
    });
    match result {
        Ok(run) => run,
        Err(never) => match never {},
    }
}
