//! The shape every random set-up method shares: a state machine that asks
//! for random events (a die throw, a draw from the bag, a number) and says
//! what each outcome does. One description of each method serves three
//! drivers: sampling with a seeded generator, replaying a physical die or bag
//! (`--rolls`, `--draws`), and exact enumeration (see `analysis`).

use std::fmt;

use shakmaty::Role;

pub use super::rank_fix::{Note, Notes};
use crate::start::StartPosition;

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
    /// A bag: label `i` (a [`BAG_ROLES`] index) with weight `bag.count(i)`.
    Bag(Bag),
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

    /// A draw from `bag`.
    pub fn draw(bag: Bag) -> Event {
        Event {
            kind: EventKind::Draw,
            options: Options::Bag(bag),
        }
    }

    /// Total weight: the number of equally likely physical outcomes.
    pub fn total_weight(&self) -> u32 {
        match self.options {
            Options::Range { count, .. } => u32::from(count),
            Options::Bag(bag) => bag.total(),
        }
    }

    /// The labels with their weights.
    pub fn options(&self) -> impl Iterator<Item = (u16, u32)> + '_ {
        let (range, bag) = match self.options {
            Options::Range { first, count } => (first..first + count, Bag::default()),
            Options::Bag(bag) => (0..0, bag),
        };
        let pieces = (0u16..).zip(bag.counts().map(u32::from));
        range
            .map(|l| (l, 1))
            .chain(pieces.filter(|&(_, weight)| weight > 0))
    }

    /// The label of the physical outcome with index `index < total_weight()`.
    pub fn label_at(&self, index: u32) -> u16 {
        match self.options {
            Options::Range { first, .. } => first + index as u16,
            Options::Bag(bag) => {
                let mut left = index;
                for label in 0..BAG_ROLES.len() {
                    let count = bag.count(label);
                    if left < count {
                        return label as u16;
                    }
                    left -= count;
                }
                // Out of range (a caller bug): the last piece, not a panic.
                let counts = bag.counts();
                counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u16
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

/// The pieces left in a bag: how many of each of [`BAG_ROLES`], four bits
/// each in one word. One word rather than five bytes: the sampler takes a
/// piece out and reads the bag again at once, and a whole-word update is
/// what the processor forwards fastest from store to load.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bag(u32);

impl Bag {
    /// Two rooks, two knights, two bishops, a queen and a king.
    pub const FULL: Bag = Bag::from_counts([2, 2, 2, 1, 1]);

    /// A bag holding `counts[i]` (at most 15) of [`BAG_ROLES`]`[i]`.
    pub const fn from_counts(counts: [u8; 5]) -> Bag {
        let mut word = 0;
        let mut i = 0;
        while i < 5 {
            word |= ((counts[i] & 15) as u32) << (4 * i);
            i += 1;
        }
        Bag(word)
    }

    /// How many of [`BAG_ROLES`]`[slot]` are left (0 for a slot past 4).
    pub fn count(self, slot: usize) -> u32 {
        if slot < 5 {
            (self.0 >> (4 * slot)) & 15
        } else {
            0
        }
    }

    /// The counts, slot 0 first.
    pub fn counts(self) -> [u8; 5] {
        std::array::from_fn(|slot| self.count(slot) as u8)
    }

    /// How many pieces are left in all.
    pub fn total(self) -> u32 {
        self.counts().iter().map(|&c| u32::from(c)).sum()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Takes one piece of `slot` out, if there is one.
    pub fn take(&mut self, slot: usize) {
        if self.count(slot) > 0 {
            self.0 -= 1 << (4 * slot);
        }
    }
}

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
    pub bag: Bag,
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
    /// Go on: [`Procedure::apply`] has made the state the new one.
    Continue,
    /// Nothing changes: throw again, or the piece goes back into the bag.
    Again,
    /// The procedure has no way on: start the whole draw again.
    Restart,
}

/// A random set-up method as a state machine.
pub trait Procedure: Send + Sync {
    /// The state before the first event.
    fn start(&self) -> DrawState;
    /// The event `state` waits for; `None` when the rank is complete.
    /// (Separate from [`Procedure::finish`] so that this per-event part stays
    /// small enough to inline into the sampler's loop.)
    fn event(&self, state: &DrawState) -> Option<Event>;
    /// The position of a complete `state`, with the notes of what was fixed
    /// up at the end (swaps), for the record.
    fn finish(&self, state: &DrawState) -> (StartPosition, Notes);
    /// The effect of outcome `label` of the event [`Procedure::event`] asked
    /// for. On [`Transition::Continue`] `state` has become the next state;
    /// on `Again` and `Restart` it is left as it was. (In place rather than
    /// returning a new state: the sampler's loop then updates a byte or two
    /// per event instead of copying the whole state.)
    fn apply(&self, state: &mut DrawState, label: u16) -> Transition;
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
        reason: BadToken,
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

/// Why one typed token is not an outcome of its event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadToken {
    #[error("a die shows 1 to 6, not {0}")]
    DieFace(u16),
    #[error("not a number from 1 to 6")]
    NotADie,
    #[error("not a number")]
    NotANumber,
    #[error("not a piece letter (R, N, B, Q, K)")]
    NotAPiece,
    #[error("a draw is one piece letter (R, N, B, Q, K)")]
    NotOneLetter,
    /// `held`: what the bag holds, `2×R, 1×K`.
    #[error("no such piece left in the bag (it holds {held})")]
    NotInBag { held: String },
    #[error("not a possible outcome")]
    Impossible,
}

/// A finished run: the position, every event, the restarts and notes.
#[derive(Clone, Debug)]
pub struct Run {
    pub position: StartPosition,
    pub events: Vec<RecordedEvent>,
    pub restarts: u32,
    pub notes: Notes,
}

/// Runs `procedure` to the end, asking `choose` for each event's label.
/// `choose` gets the event, the state and the running event count.
pub fn run<P: Procedure + ?Sized, E>(
    procedure: &P,
    mut choose: impl FnMut(&Event, &DrawState, usize) -> Result<u16, E>,
) -> Result<Run, E> {
    let mut state = procedure.start();
    let mut events = Vec::with_capacity(16);
    let mut restarts = 0;
    loop {
        match procedure.event(&state) {
            None => {
                let (position, notes) = procedure.finish(&state);
                return Ok(Run {
                    position,
                    events,
                    restarts,
                    notes,
                });
            }
            Some(event) => {
                let label = choose(&event, &state, events.len())?;
                let effect = match procedure.apply(&mut state, label) {
                    Transition::Continue => Effect::Placed,
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
pub fn replay<P: Procedure + ?Sized>(procedure: &P, tokens: &[String]) -> Result<Run, ReplayError> {
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
        let invalid = |reason: BadToken| ReplayError::Invalid {
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
                    BadToken::NotInBag {
                        held: held.join(", "),
                    }
                }
                _ => BadToken::Impossible,
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

fn parse_label(kind: EventKind, token: &str) -> Result<u16, BadToken> {
    match kind {
        EventKind::Throw => match token.parse::<u16>() {
            Ok(v @ 1..=6) => Ok(v),
            Ok(v) => Err(BadToken::DieFace(v)),
            Err(_) => Err(BadToken::NotADie),
        },
        EventKind::Number => token.parse::<u16>().map_err(|_| BadToken::NotANumber),
        EventKind::Draw => {
            let mut chars = token.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => crate::start::backrank::role_of_letter(c)
                    .filter(|r| *r != Role::Pawn)
                    .map(role_label)
                    .ok_or(BadToken::NotAPiece),
                _ => Err(BadToken::NotOneLetter),
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
/// never depends on a library's range sampling: a word `x` is taken when
/// `x < 2^32 - 2^32 mod n`, and gives `x mod n`.
pub fn uniform_below(rng: &mut impl rand_core::Rng, n: u32) -> u32 {
    debug_assert!(n > 0);
    loop {
        if let Some(value) = map_word(rng.next_u32(), n.max(1)) {
            return value;
        }
    }
}

/// The choice a word `x` makes among `n > 0` outcomes, or `None` when the
/// word falls in the rejected top `2^32 mod n` values.
fn map_word(x: u32, n: u32) -> Option<u32> {
    // Bag and die events have at most 8 outcomes: their threshold and
    // remainder come from a table and a multiplication, not two divisions.
    if let Some(&(skip, multiplier)) = SMALL_MODULI.get(n as usize) {
        return (x <= u32::MAX - skip).then(|| fast_mod(x, multiplier, n));
    }
    let skip = (u32::MAX % n + 1) % n;
    (x <= u32::MAX - skip).then(|| x % n)
}

/// For `n < 17`: `(2^32 mod n, ceil(2^64 / n) mod 2^64)`.
const SMALL_MODULI: [(u32, u64); 17] = {
    let mut table = [(0u32, 0u64); 17];
    let mut n = 1;
    while n < 17 {
        table[n] = (
            ((1u64 << 32) % n as u64) as u32,
            (u64::MAX / n as u64).wrapping_add(1),
        );
        n += 1;
    }
    table
};

/// `x mod n` by Lemire's multiply-only remainder (exact for 32-bit `x`
/// and `n`; `multiplier` from [`SMALL_MODULI`]).
fn fast_mod(x: u32, multiplier: u64, n: u32) -> u32 {
    let low = multiplier.wrapping_mul(u64::from(x));
    ((u128::from(low) * u128::from(n)) >> 64) as u32
}

/// Samples one run with `rng`.
/// Generic so that each method's draw loop is compiled with its steps
/// inlined (the per-position cost is a handful of tiny calls per event).
pub fn sample<P: Procedure + ?Sized>(procedure: &P, rng: &mut impl rand_core::Rng) -> Run {
    let result: Result<Run, std::convert::Infallible> = run(procedure, |event, _, _| {
        Ok(event.label_at(uniform_below(rng, event.total_weight())))
    });
    match result {
        Ok(run) => run,
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mapping as first written (64-bit arithmetic, two divisions); the
    /// fast one must agree word for word, or seeds would change positions.
    fn reference(x: u32, n: u32) -> Option<u32> {
        let zone = (1u64 << 32) / u64::from(n) * u64::from(n);
        (u64::from(x) < zone).then(|| (u64::from(x) % u64::from(n)) as u32)
    }

    #[test]
    fn word_mapping_matches_the_reference_at_every_edge() {
        let mut words: Vec<u32> = vec![0, 1, 2, 959, 960, u32::MAX - 1, u32::MAX];
        let mut x = 0x9E37_79B9u32;
        for _ in 0..20_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            words.push(x);
        }
        for n in (1..=40).chain([959, 960, 961, 65_535, 1 << 31, u32::MAX]) {
            let zone_end = ((1u64 << 32) / u64::from(n) * u64::from(n)) as i64;
            for delta in -3..=2i64 {
                if let Ok(w) = u32::try_from(zone_end + delta) {
                    words.push(w);
                }
            }
            for &w in &words {
                assert_eq!(map_word(w, n), reference(w, n), "word {w} n {n}");
            }
        }
    }
}
