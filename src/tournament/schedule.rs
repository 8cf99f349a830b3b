//! Which games a tournament plays. The runner asks a [`Scheduler`] for the
//! next game given the results so far ([`Schedule::scheduler`]): round
//! robin and gauntlet ([`Fixed`]) compute each game from its number alone
//! (no list is ever built, so memory does not grow with `--games`) and
//! never wait; a knockout ([`super::knockout`]) hands out a round's games
//! as the previous ones finish.
//!
//! * Pairings: round robin, every engine against every other (`(0,1),
//!   (0,2), …, (1,2), …`); gauntlet, the first engine against each other
//!   one (`(0,1), (0,2), …`).
//! * Every pairing plays every opening twice, colours reversed: game `g`
//!   (1-based, the PGN `Round`) belongs to game pair `q = (g − 1) / 2`; the
//!   pairing's first engine is White in odd games.
//! * Pairs are ordered by opening, then pairing: `opening = q / P`,
//!   `pairing = q % P` for `P` pairings, so all pairings play opening `i`
//!   before anyone plays opening `i + 1` (fastchess does the same: every
//!   engine meets the same lines).
//! * `--games G` is the number of games of each pairing per round (rounded
//!   up to even), `--rounds R` the number of rounds, as cutechess-cli:
//!   `G/2` openings per round, `R·G/2·P` pairs in all.
//! * Totals that do not fit [`MAX_GAMES`] are refused ([`ScheduleError`]).

use std::collections::BTreeSet;

use super::setting::{Namer, Setting};
use crate::keyword::Keyword;

/// The most games one tournament holds (game numbers are `u32` in the PGN
/// and the state file; the largest even `u32`).
pub const MAX_GAMES: u64 = u32::MAX as u64 - 1;

/// How engines are paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TournamentKind {
    /// Every engine plays every other one.
    #[default]
    RoundRobin,
    /// The first engine plays every other one.
    Gauntlet,
    /// A seeded bracket: the winner of each encounter goes on
    /// ([`super::knockout`]).
    Knockout,
}

impl Keyword for TournamentKind {
    const WHAT: &'static str = "tournament format";
    const WORDS: &'static [(TournamentKind, &'static str, &'static str)] = &[
        (
            TournamentKind::RoundRobin,
            "round-robin",
            "Every engine plays every other one",
        ),
        (
            TournamentKind::Gauntlet,
            "gauntlet",
            "The first engine plays every other one",
        ),
        (
            TournamentKind::Knockout,
            "knockout",
            "A seeded bracket: the winner of each encounter goes on",
        ),
    ];
}

/// Why a schedule cannot be made (usage errors). Its message names the
/// settings through [`ScheduleError::describe`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    TooFewEngines(usize),
    NoGames,
    NoRounds,
    KnockoutRounds(u64),
    TooManyGames {
        games: u64,
        rounds: u64,
        pairings: usize,
        total: u128,
    },
}

impl ScheduleError {
    /// The message, each setting named by `name`.
    pub fn describe(&self, name: Namer) -> String {
        let (games, rounds) = (name(Setting::Games), name(Setting::Rounds));
        match self {
            ScheduleError::TooFewEngines(n) => {
                format!("a tournament needs at least two engines (got {n})")
            }
            ScheduleError::NoGames => format!("{games} must be at least 1 (got 0)"),
            ScheduleError::NoRounds => format!("{rounds} must be at least 1 (got 0)"),
            ScheduleError::KnockoutRounds(r) => {
                format!("a knockout is one bracket: {rounds} must be 1 (got {r})")
            }
            ScheduleError::TooManyGames {
                games: g,
                rounds: r,
                pairings,
                total,
            } => format!(
                "{games} {g} {rounds} {r} with {pairings} pairing(s) makes {total} games (each opening twice, colours reversed); at most {MAX_GAMES} fit"
            ),
        }
    }
}

impl std::fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&Setting::canonical))
    }
}

/// One game of the tournament.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot {
    /// 1-based game number, the PGN `Round`.
    pub number: u64,
    /// 0-based game pair (same opening, colours reversed).
    pub pair: u64,
    /// 0-based index of the opening.
    pub opening: u64,
    /// Index into [`Schedule::pairings`].
    pub pairing: usize,
    /// 1-based round (`--rounds`).
    pub round: u64,
    /// Engine index playing White, then Black.
    pub white: usize,
    pub black: usize,
    /// Whether the pairing's first engine plays White.
    pub first_white: bool,
}

impl Slot {
    /// `[white, black]` engine indices.
    pub fn engines(&self) -> [usize; 2] {
        [self.white, self.black]
    }
}

/// The whole tournament's schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    kind: TournamentKind,
    engines: usize,
    pairings: Vec<[usize; 2]>,
    /// Openings per round (games per pairing per round / 2).
    openings_per_round: u64,
    rounds: u64,
    games: u64,
}

impl Schedule {
    /// `games` per pairing per round (rounded up to even), `rounds` rounds.
    pub fn new(
        kind: TournamentKind,
        engines: usize,
        games: u64,
        rounds: u64,
    ) -> Result<Schedule, ScheduleError> {
        if engines < 2 {
            return Err(ScheduleError::TooFewEngines(engines));
        }
        if games == 0 {
            return Err(ScheduleError::NoGames);
        }
        if rounds == 0 {
            return Err(ScheduleError::NoRounds);
        }
        if kind == TournamentKind::Knockout && rounds != 1 {
            return Err(ScheduleError::KnockoutRounds(rounds));
        }
        let all = || -> Vec<[usize; 2]> {
            (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| [a, b]))
                .collect()
        };
        let pairings: Vec<[usize; 2]> = match kind {
            // A knockout's encounters are among all pairs; the standings
            // show those that played.
            TournamentKind::RoundRobin | TournamentKind::Knockout => all(),
            TournamentKind::Gauntlet => (1..engines).map(|b| [0, b]).collect(),
        };
        let openings_per_round = games.div_ceil(2);
        let total = match kind {
            // The most it can play (every encounter to its last tiebreak).
            TournamentKind::Knockout => super::knockout::max_games(engines, openings_per_round),
            _ => (u128::from(openings_per_round) * 2)
                .saturating_mul(u128::from(rounds))
                .saturating_mul(pairings.len() as u128),
        };
        if total > u128::from(MAX_GAMES) {
            return Err(ScheduleError::TooManyGames {
                games,
                rounds,
                pairings: pairings.len(),
                total,
            });
        }
        Ok(Schedule {
            kind,
            engines,
            pairings,
            openings_per_round,
            rounds,
            games: total as u64,
        })
    }

    pub fn kind(&self) -> TournamentKind {
        self.kind
    }

    pub fn engines(&self) -> usize {
        self.engines
    }

    /// Engine index pairs, first engine first.
    pub fn pairings(&self) -> &[[usize; 2]] {
        &self.pairings
    }

    /// Total games (for a knockout, the most it can play).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Whether [`Schedule::games`] is the number played (not a bound).
    pub fn games_exact(&self) -> bool {
        self.kind != TournamentKind::Knockout
    }

    /// Index into [`Schedule::pairings`] of the pairing of engines `a` and
    /// `b` (either order); `None` where they do not meet (a gauntlet's
    /// others).
    pub fn pairing_of(&self, a: usize, b: usize) -> Option<usize> {
        let (lo, hi) = (a.min(b), a.max(b));
        self.pairings.iter().position(|p| *p == [lo, hi])
    }

    /// The games, asked for one at a time as results come in.
    pub fn scheduler(&self) -> Box<dyn Scheduler> {
        match self.kind {
            TournamentKind::Knockout => Box::new(super::knockout::Knockout::new(
                self.engines,
                self.openings_per_round,
            )),
            _ => Box::new(Fixed {
                schedule: self.clone(),
                next: 1,
            }),
        }
    }

    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    /// Openings the whole tournament uses.
    pub fn openings(&self) -> u64 {
        self.openings_per_round * self.rounds
    }

    /// Game `number` (1-based, at most [`Schedule::games`]) of a round
    /// robin or gauntlet (a knockout's games depend on results: its
    /// [`Scheduler`] knows them).
    pub fn slot(&self, number: u64) -> Slot {
        let pair = (number - 1) / 2;
        let p = self.pairings.len() as u64;
        let opening = pair / p;
        let pairing = (pair % p) as usize;
        let first_white = number % 2 == 1;
        let [a, b] = self.pairings[pairing];
        let (white, black) = if first_white { (a, b) } else { (b, a) };
        Slot {
            number,
            pair,
            opening,
            pairing,
            round: opening / self.openings_per_round + 1,
            white,
            black,
            first_white,
        }
    }

    /// The games still to play, in order, skipping those in `done`.
    pub fn pending<'a>(&'a self, done: &'a BTreeSet<u64>) -> impl Iterator<Item = Slot> + 'a {
        (1..=self.games)
            .filter(move |g| !done.contains(g))
            .map(|g| self.slot(g))
    }
}

/// What the runner gets when it asks for a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Next {
    Game(Slot),
    /// Nothing until a game in flight finishes (a knockout's next stage).
    Wait,
    /// The tournament has no more games.
    Done,
}

/// The seam between a tournament format and the runner: the runner asks
/// for the next game and reports each result; a format decides pairings,
/// colours and game numbers. Game numbers must come in increasing order,
/// each pair `2k−1, 2k` on opening `k − 1` (the PGN and the state file
/// rely on it); a format that waits must have a game in flight.
pub trait Scheduler: Send {
    fn next(&mut self) -> Next;
    /// The result of a game it handed out.
    fn record(&mut self, number: u64, result: crate::game::GameResult);
    /// No game is left (whatever happens to those in flight).
    fn finished(&self) -> bool;
    /// Where the format stands, in words (a knockout's bracket); `None`
    /// when the standings say it all.
    fn describe(&self, _name: &dyn Fn(usize) -> String) -> Option<String> {
        None
    }
}

/// Round robin and gauntlet: game after game by number, results ignored.
pub struct Fixed {
    schedule: Schedule,
    next: u64,
}

impl Scheduler for Fixed {
    fn next(&mut self) -> Next {
        if self.next > self.schedule.games() {
            return Next::Done;
        }
        let slot = self.schedule.slot(self.next);
        self.next += 1;
        Next::Game(slot)
    }

    fn record(&mut self, _number: u64, _result: crate::game::GameResult) {}

    fn finished(&self) -> bool {
        self.next > self.schedule.games()
    }
}

/// Index of the pair `a < b` among all pairs of `engines` engines in
/// round-robin order (`(0,1), (0,2), …, (1,2), …`).
pub fn pairing_index(engines: usize, a: usize, b: usize) -> usize {
    let (a, b) = (a.min(b), a.max(b));
    a * (2 * engines - a - 1) / 2 + (b - a - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_keep_the_old_numbering() {
        let s = Schedule::new(TournamentKind::RoundRobin, 2, 21, 1).unwrap();
        assert_eq!(s.games(), 22, "rounded up to even");
        let (a, b) = (s.slot(5), s.slot(6));
        assert_eq!((a.opening, b.opening), (2, 2));
        assert_eq!((a.engines(), b.engines()), ([0, 1], [1, 0]));
    }

    #[test]
    fn every_pairing_plays_each_opening_twice_with_colours_reversed() {
        for (kind, n, pairings) in [
            (TournamentKind::RoundRobin, 4, 6),
            (TournamentKind::Gauntlet, 4, 3),
        ] {
            let s = Schedule::new(kind, n, 4, 3).unwrap();
            assert_eq!(s.pairings().len(), pairings);
            assert_eq!(s.games(), 4 * 3 * pairings as u64);
            assert_eq!(s.openings(), 6);
            let mut seen = std::collections::BTreeMap::new();
            for g in 1..=s.games() {
                let slot = s.slot(g);
                *seen
                    .entry((slot.opening, slot.white, slot.black))
                    .or_insert(0) += 1;
                assert_eq!(slot.round, slot.opening / 2 + 1);
                if kind == TournamentKind::Gauntlet {
                    assert!(slot.white == 0 || slot.black == 0);
                }
            }
            // Each (opening, pairing) once per colour assignment.
            assert_eq!(seen.len() as u64, s.games());
            for &(o, w, b) in seen.keys() {
                assert!(seen.contains_key(&(o, b, w)));
            }
        }
    }

    #[test]
    fn sizes_that_overflow_are_errors() {
        let err = Schedule::new(TournamentKind::RoundRobin, 2, u64::from(u32::MAX), 1).unwrap_err();
        assert!(
            matches!(
                err,
                ScheduleError::TooManyGames {
                    total: 4294967296,
                    ..
                }
            ),
            "{err}"
        );
        assert!(Schedule::new(TournamentKind::RoundRobin, 2, MAX_GAMES, 1).is_ok());
        assert!(Schedule::new(TournamentKind::RoundRobin, 3, u64::MAX, u64::MAX).is_err());
        assert_eq!(
            Schedule::new(TournamentKind::Gauntlet, 1, 2, 1),
            Err(ScheduleError::TooFewEngines(1))
        );
        assert_eq!(
            Schedule::new(TournamentKind::Gauntlet, 2, 0, 1),
            Err(ScheduleError::NoGames)
        );
    }

    #[test]
    fn pairing_index_is_round_robin_order() {
        let s = Schedule::new(TournamentKind::RoundRobin, 5, 2, 1).unwrap();
        for (i, &[a, b]) in s.pairings().iter().enumerate() {
            assert_eq!(pairing_index(5, a, b), i);
            assert_eq!(pairing_index(5, b, a), i);
            assert_eq!(s.pairing_of(b, a), Some(i));
        }
        let k = Schedule::new(TournamentKind::Knockout, 4, 2, 1).unwrap();
        assert_eq!(k.games(), 3 * 2 * (1 + 3));
        assert!(!k.games_exact());
        assert_eq!(
            Schedule::new(TournamentKind::Knockout, 4, 2, 2),
            Err(ScheduleError::KnockoutRounds(2))
        );
    }

    #[test]
    fn resume_skips_finished_games() {
        let s = Schedule::new(TournamentKind::RoundRobin, 2, 6, 1).unwrap();
        let done: BTreeSet<u64> = [1, 2, 4].into_iter().collect();
        let left: Vec<u64> = s.pending(&done).map(|s| s.number).collect();
        assert_eq!(left, [3, 5, 6]);
    }
}
