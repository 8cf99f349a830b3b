//! A knockout, as cutechess-cli's `-tournament knockout`: a seeded
//! bracket, each encounter a match of game pairs (same opening, colours
//! reversed), the winner going on to the next round, until one engine is
//! left. Its games depend on results, so it is a [`Scheduler`] that hands
//! out games as earlier ones finish.
//!
//! * **Seeds** are the engines in the order given (`--engine` 1 is seed 1).
//!   The bracket has the next power of two `P` ≥ N places in the standard
//!   seeded order (for 8: 1–8, 4–5, 2–7, 3–6; seeds 1 and 2 can meet only
//!   in the final); places past N are byes, which the top seeds get, so
//!   only the first round has byes.
//! * **An encounter** plays `--games` games (rounded up to even: `G/2`
//!   pairs), the better seed White in the first game of each pair.
//! * **Ties** (equal points after the encounter's games) are decided by
//!   further pairs, one at a time, up to [`TIEBREAK_PAIRS`]; still equal
//!   after that, the better seed goes through (stated in the live lines
//!   and the bracket). Identical engines therefore end: a bracket of N
//!   engines plays at most `(N − 1)·(G + 2·TIEBREAK_PAIRS)` games.
//! * **Game numbers** (the PGN `Round`) follow the bracket, not the clock:
//!   round by round, within a round stage by stage (the encounters' first
//!   games, then each tiebreak pair), within a stage encounter by
//!   encounter. A stage is handed out only when the one before has
//!   finished, so the numbers depend on the results alone, and `--resume`
//!   rebuilds the same bracket by feeding the recorded results back in.
//!   Games `2k−1` and `2k` are always one pair on opening `k`.

use std::collections::{BTreeMap, VecDeque};

use super::schedule::{Next, Scheduler, Slot, pairing_index};
use crate::game::GameResult;
use shakmaty::Color;

/// Tiebreak pairs an encounter plays at most after its `--games`.
pub const TIEBREAK_PAIRS: u64 = 3;

/// The most games a knockout of `engines` engines with `pairs` pairs per
/// encounter can play.
pub fn max_games(engines: usize, pairs: u64) -> u128 {
    (engines.saturating_sub(1) as u128) * 2 * u128::from(pairs + TIEBREAK_PAIRS)
}

/// Seeds (0-based) in bracket order for `size` places (a power of two).
fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0usize];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n - 1 - s]).collect();
    }
    order
}

/// One encounter of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encounter {
    /// The better seed (lower engine index).
    pub first: usize,
    /// `None`: a bye.
    pub second: Option<usize>,
    /// Half points of `first`, then `second`.
    pub half_points: [u32; 2],
    pub games: u32,
    /// Pairs handed out so far.
    pairs: u64,
    pub winner: Option<usize>,
    /// Still tied after the tiebreak pairs: the better seed went through.
    pub by_seed: bool,
}

/// The bracket and where it stands.
#[derive(Clone, Debug)]
pub struct Knockout {
    engines: usize,
    /// Pairs of an encounter before any tiebreak.
    pairs: u64,
    /// Rounds so far; the last is being played.
    rounds: Vec<Vec<Encounter>>,
    /// Tiebreak pairs played in the current round's latest stage (0: the
    /// encounters' own games).
    stage: u64,
    /// The current stage's games not yet handed out, with their encounter.
    queue: VecDeque<(Slot, usize)>,
    /// Handed out, not yet recorded: number → (encounter, White).
    in_flight: BTreeMap<u64, (usize, usize)>,
    next_number: u64,
    champion: Option<usize>,
}

impl Knockout {
    /// `engines` ≥ 2 (checked by the schedule), `pairs` ≥ 1.
    pub fn new(engines: usize, pairs: u64) -> Knockout {
        let size = engines.next_power_of_two();
        let order = bracket_order(size);
        let first_round = order
            .chunks(2)
            .map(|c| {
                let (a, b) = (c[0].min(c[1]), c[0].max(c[1]));
                let second = (b < engines).then_some(b);
                Encounter {
                    first: a,
                    second,
                    half_points: [0, 0],
                    games: 0,
                    pairs: 0,
                    winner: if second.is_none() { Some(a) } else { None },
                    by_seed: false,
                }
            })
            .collect();
        let mut k = Knockout {
            engines,
            pairs: pairs.max(1),
            rounds: vec![first_round],
            stage: 0,
            queue: VecDeque::new(),
            in_flight: BTreeMap::new(),
            next_number: 1,
            champion: None,
        };
        k.enqueue_stage();
        k
    }

    fn round_no(&self) -> u64 {
        self.rounds.len() as u64
    }

    /// Hands out the current stage: the encounters without a winner, each
    /// its pairs (the first stage) or one more pair (a tiebreak).
    fn enqueue_stage(&mut self) {
        let round = self.round_no();
        let pairs = if self.stage == 0 { self.pairs } else { 1 };
        let engines = self.engines;
        let Some(current) = self.rounds.last_mut() else {
            return;
        };
        for (idx, e) in current.iter_mut().enumerate() {
            let (Some(b), None) = (e.second, e.winner) else {
                continue;
            };
            let a = e.first;
            for _ in 0..pairs {
                for first_white in [true, false] {
                    let number = self.next_number;
                    self.next_number += 1;
                    let (white, black) = if first_white { (a, b) } else { (b, a) };
                    self.queue.push_back((
                        Slot {
                            number,
                            pair: (number - 1) / 2,
                            opening: (number - 1) / 2,
                            pairing: pairing_index(engines, a, b),
                            round,
                            white,
                            black,
                            first_white,
                        },
                        idx,
                    ));
                }
                e.pairs += 1;
            }
        }
    }

    /// The current stage is over: decide, then open the next stage or round.
    fn advance(&mut self) {
        let stage = self.stage;
        let Some(current) = self.rounds.last_mut() else {
            return;
        };
        let mut tied = false;
        for e in current.iter_mut().filter(|e| e.winner.is_none()) {
            let Some(b) = e.second else { continue };
            let [x, y] = e.half_points;
            if x != y {
                e.winner = Some(if x > y { e.first } else { b });
            } else if stage >= TIEBREAK_PAIRS {
                e.winner = Some(e.first);
                e.by_seed = true;
            } else {
                tied = true;
            }
        }
        if tied {
            self.stage += 1;
            self.enqueue_stage();
            return;
        }
        let winners: Vec<usize> = current.iter().filter_map(|e| e.winner).collect();
        if let [champion] = winners[..] {
            self.champion = Some(champion);
            return;
        }
        let next = winners
            .chunks(2)
            .map(|c| Encounter {
                first: c[0].min(c[1]),
                second: Some(c[0].max(c[1])),
                half_points: [0, 0],
                games: 0,
                pairs: 0,
                winner: None,
                by_seed: false,
            })
            .collect();
        self.rounds.push(next);
        self.stage = 0;
        self.enqueue_stage();
    }

    /// The rounds so far.
    pub fn rounds(&self) -> &[Vec<Encounter>] {
        &self.rounds
    }

    pub fn champion(&self) -> Option<usize> {
        self.champion
    }

    /// The bracket in words: one line per encounter, round by round.
    pub fn describe(&self, name: &dyn Fn(usize) -> String) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for (r, round) in self.rounds.iter().enumerate() {
            for e in round {
                let _ = match (e.second, e.winner) {
                    (None, _) => writeln!(out, "Round {}: {} (bye)", r + 1, name(e.first)),
                    (Some(b), winner) => writeln!(
                        out,
                        "Round {}: {} {} - {} {} ({} games){}",
                        r + 1,
                        name(e.first),
                        f64::from(e.half_points[0]) / 2.0,
                        f64::from(e.half_points[1]) / 2.0,
                        name(b),
                        e.games,
                        match winner {
                            Some(w) if e.by_seed => format!(
                                ": {} goes through as the better seed (still tied after {TIEBREAK_PAIRS} tiebreak pairs)",
                                name(w)
                            ),
                            Some(w) => format!(": {} goes through", name(w)),
                            None => String::new(),
                        }
                    ),
                };
            }
        }
        if let Some(c) = self.champion {
            let _ = writeln!(out, "Knockout winner: {}", name(c));
        }
        out
    }
}

impl Scheduler for Knockout {
    fn next(&mut self) -> Next {
        loop {
            if let Some((slot, encounter)) = self.queue.pop_front() {
                self.in_flight.insert(slot.number, (encounter, slot.white));
                return Next::Game(slot);
            }
            if !self.in_flight.is_empty() {
                return Next::Wait;
            }
            if self.champion.is_some() {
                return Next::Done;
            }
            self.advance();
        }
    }

    fn record(&mut self, number: u64, result: GameResult) {
        let Some((encounter, white)) = self.in_flight.remove(&number) else {
            return;
        };
        let Some(e) = self.rounds.last_mut().and_then(|r| r.get_mut(encounter)) else {
            return;
        };
        let first_colour = if white == e.first {
            Color::White
        } else {
            Color::Black
        };
        let hp = result.half_points(first_colour);
        e.half_points[0] += hp;
        e.half_points[1] += 2 - hp;
        e.games += 1;
    }

    fn finished(&self) -> bool {
        self.champion.is_some()
    }

    fn describe(&self, name: &dyn Fn(usize) -> String) -> Option<String> {
        Some(Knockout::describe(self, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the whole bracket with `result(white, black)` for every game.
    fn play(k: &mut Knockout, result: impl Fn(usize, usize) -> GameResult) -> Vec<Slot> {
        let mut played = Vec::new();
        loop {
            match k.next() {
                Next::Game(slot) => {
                    k.record(slot.number, result(slot.white, slot.black));
                    played.push(slot);
                }
                Next::Wait => panic!("nothing in flight, yet wait"),
                Next::Done => return played,
            }
        }
    }

    #[test]
    fn seeded_bracket_with_byes() {
        assert_eq!(bracket_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
        let k = Knockout::new(3, 1);
        let first: Vec<_> = k.rounds()[0].iter().map(|e| (e.first, e.second)).collect();
        // Seed 1 has the bye; 2 and 3 play.
        assert_eq!(first, [(0, None), (1, Some(2))]);
    }

    #[test]
    fn the_stronger_engine_wins_and_numbers_follow_the_bracket() {
        // The lower index always wins: seed 1 is the champion.
        let mut k = Knockout::new(5, 2);
        let games = play(&mut k, |w, b| {
            if w < b {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            }
        });
        assert_eq!(k.champion(), Some(0));
        // 4 encounters of 4 games: 1–8 byes etc. (5 engines: 3 byes, then
        // 2 semis and a final): 1 + 2 + 1 = 4 encounters.
        assert_eq!(games.len(), 16);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.number, i as u64 + 1);
            assert_eq!(g.opening, (g.number - 1) / 2);
        }
        // Each pair: same engines, colours reversed.
        for p in games.chunks(2) {
            assert_eq!((p[0].white, p[0].black), (p[1].black, p[1].white));
        }
        assert!(
            k.describe(&|i| format!("e{i}"))
                .contains("Knockout winner: e0")
        );
    }

    #[test]
    fn identical_engines_end_by_seed_after_the_tiebreaks() {
        // Every game drawn: each encounter plays its pair and 3 tiebreak
        // pairs, then the better seed goes through.
        let mut k = Knockout::new(4, 1);
        let games = play(&mut k, |_, _| GameResult::Draw);
        assert_eq!(k.champion(), Some(0));
        assert_eq!(games.len() as u128, max_games(4, 1));
        assert!(k.rounds().iter().flatten().all(|e| e.by_seed));
        // White always wins: every pair is 1–1, the same.
        let mut k = Knockout::new(2, 1);
        play(&mut k, |_, _| GameResult::WhiteWins);
        assert_eq!(k.champion(), Some(0));
        assert!(
            k.describe(&|i| format!("e{i}"))
                .contains("better seed (still tied after 3 tiebreak pairs)")
        );
    }

    #[test]
    fn a_stage_waits_for_its_games() {
        let mut k = Knockout::new(4, 1);
        let mut slots = Vec::new();
        while let Next::Game(s) = k.next() {
            slots.push(s);
        }
        // Round 1: two encounters of one pair each, then wait.
        assert_eq!(slots.len(), 4);
        assert_eq!(k.next(), Next::Wait);
        for s in &slots {
            k.record(s.number, GameResult::WhiteWins);
        }
        // All tied 1–1: the tiebreak pairs are games 5–8.
        let Next::Game(s) = k.next() else {
            panic!("a tiebreak")
        };
        assert_eq!(s.number, 5);
    }
}
