//! The running tally of a match and its final report: per-engine W/D/L,
//! points and faults (castling-notation errors, crashes, stalls, time
//! forfeits, illegal moves), terminations, Elo, LOS, draw ratio,
//! pentanomial pairs and SPRT; as a text table and as JSON (`--json`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use shakmaty::Color;

use super::stats::{Pentanomial, Sprt, SprtVerdict, Wdl};
use crate::game::{GameResult, Termination};

/// What the tally needs to know about one finished game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameSummary {
    pub number: u32,
    pub first_white: bool,
    pub result: GameResult,
    pub termination: Termination,
    /// Castling-notation errors by engine index.
    pub notation_errors: [u32; 2],
}

/// One engine's line in the table.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct EngineTally {
    pub name: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: f64,
    pub notation_errors: u32,
    pub crashes: u32,
    pub stalls: u32,
    pub time_forfeits: u32,
    pub illegal_moves: u32,
}

/// The running tally of a match.
#[derive(Clone, Debug)]
pub struct Tally {
    pub engines: [EngineTally; 2],
    /// First engine's half points by game number.
    games: BTreeMap<u32, u32>,
    terminations: BTreeMap<&'static str, u32>,
}

impl Tally {
    pub fn new(first: &str, second: &str) -> Tally {
        let named = |n: &str| EngineTally {
            name: n.to_string(),
            ..EngineTally::default()
        };
        Tally {
            engines: [named(first), named(second)],
            games: BTreeMap::new(),
            terminations: BTreeMap::new(),
        }
    }

    pub fn record(&mut self, g: &GameSummary) {
        let white = if g.first_white { 0 } else { 1 };
        for (idx, colour) in [(white, Color::White), (1 - white, Color::Black)] {
            let e = &mut self.engines[idx];
            match g.result.half_points(colour) {
                2 => e.wins += 1,
                1 => e.draws += 1,
                _ => e.losses += 1,
            }
            e.points += g.result.half_points(colour) as f64 / 2.0;
            e.notation_errors += g.notation_errors[idx];
            if g.termination.is_fault() && g.result.half_points(colour) == 0 {
                match g.termination {
                    Termination::Crash => e.crashes += 1,
                    Termination::Stall => e.stalls += 1,
                    Termination::TimeForfeit => e.time_forfeits += 1,
                    Termination::IllegalMove => e.illegal_moves += 1,
                    _ => {}
                }
            }
        }
        let first_colour = if g.first_white {
            Color::White
        } else {
            Color::Black
        };
        self.games
            .insert(g.number, g.result.half_points(first_colour));
        *self.terminations.entry(g.termination.tag()).or_default() += 1;
    }

    pub fn games(&self) -> u32 {
        self.games.len() as u32
    }

    /// The first engine's W/D/L.
    pub fn wdl(&self) -> Wdl {
        let e = &self.engines[0];
        Wdl {
            wins: e.wins,
            draws: e.draws,
            losses: e.losses,
        }
    }

    /// Pairs with both games finished, by the first engine's pair score.
    pub fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        for (&g, &hp) in &self.games {
            if g % 2 == 1
                && let Some(&other) = self.games.get(&(g + 1))
            {
                p.add(hp + other);
            }
        }
        p
    }

    /// `A 3.5 - 2.5 B` for the progress bar.
    pub fn score_line(&self) -> String {
        format!(
            "{} {} - {} {}",
            self.engines[0].name,
            self.engines[0].points,
            self.engines[1].points,
            self.engines[1].name
        )
    }

    /// The final table.
    pub fn render(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let width = self
            .engines
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            out,
            "{:<width$} {:>5} {:>5} {:>5} {:>7}  {:>8} {:>7} {:>6} {:>8} {:>7}",
            "Engine",
            "W",
            "D",
            "L",
            "Points",
            "Notation",
            "Crashes",
            "Stalls",
            "Forfeits",
            "Illegal"
        );
        for e in &self.engines {
            let _ = writeln!(
                out,
                "{:<width$} {:>5} {:>5} {:>5} {:>7.1}  {:>8} {:>7} {:>6} {:>8} {:>7}",
                e.name,
                e.wins,
                e.draws,
                e.losses,
                e.points,
                e.notation_errors,
                e.crashes,
                e.stalls,
                e.time_forfeits,
                e.illegal_moves
            );
        }
        let wdl = self.wdl();
        let _ = writeln!(
            out,
            "\nGames: {}  ({} vs {})",
            self.games(),
            self.engines[0].name,
            self.engines[1].name
        );
        if let Some(e) = wdl.elo() {
            // `+ 0.0` turns -0.0 into 0.0; an unbounded error prints `inf`.
            let mut elo = format!("{:.1} +/- {:.1} (95 %)", e.elo + 0.0, e.error);
            if e.one_sided {
                elo.push_str(" (one-sided score: one more draw assumed)");
            }
            let _ = writeln!(
                out,
                "Elo difference: {}, LOS: {}, draw ratio: {:.1} %",
                elo,
                wdl.los()
                    .map(|l| format!("{:.1} %", l * 100.0))
                    .unwrap_or_else(|| "n/a".into()),
                wdl.draw_ratio() * 100.0
            );
        }
        let p = self.pentanomial();
        let _ = writeln!(out, "Pentanomial pairs [0, 0.5, 1, 1.5, 2]: {:?}", p.0);
        if let Some(sprt) = sprt {
            let llr = sprt.llr(&p);
            let (lo, hi) = sprt.bounds();
            let _ = writeln!(
                out,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                llr,
                lo,
                hi,
                match sprt.verdict(llr) {
                    SprtVerdict::Continue => "(no decision)",
                    SprtVerdict::AcceptH0 => "H0 accepted",
                    SprtVerdict::AcceptH1 => "H1 accepted",
                }
            );
        }
        let terms: Vec<String> = self
            .terminations
            .iter()
            .map(|(t, n)| format!("{t}: {n}"))
            .collect();
        let _ = writeln!(out, "Terminations: {}", terms.join(", "));
        out
    }

    /// The same summary as JSON.
    pub fn to_json(&self, sprt: Option<&Sprt>) -> serde_json::Value {
        let wdl = self.wdl();
        let elo = wdl.elo();
        let finite = |x: f64| {
            if x.is_finite() {
                serde_json::json!(x)
            } else {
                serde_json::Value::Null
            }
        };
        let p = self.pentanomial();
        let sprt_json = sprt.map(|s| {
            let llr = s.llr(&p);
            let (lo, hi) = s.bounds();
            serde_json::json!({
                "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "llr": llr, "lower_bound": lo, "upper_bound": hi, "verdict": s.verdict(llr),
            })
        });
        serde_json::json!({
            "games": self.games(),
            "engines": self.engines,
            "first_engine": {
                "wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses,
                "elo": elo.map(|e| finite(e.elo)),
                "elo_error_95": elo.map(|e| finite(e.error)),
                "elo_one_sided": elo.map(|e| e.one_sided),
                "los": wdl.los(),
                "draw_ratio": if wdl.games() > 0 { Some(wdl.draw_ratio()) } else { None },
            },
            "pentanomial": p.0,
            "terminations": self.terminations,
            "sprt": sprt_json,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: u32, result: GameResult, termination: Termination) -> GameSummary {
        GameSummary {
            number,
            first_white: number % 2 == 1,
            result,
            termination,
            notation_errors: [0, 0],
        }
    }

    #[test]
    fn tally_counts_per_engine_faults_and_pairs() {
        let mut t = Tally::new("A", "B");
        // Pair 1: A wins with White (mate), B wins with White (A forfeits on time) → 1 point: [.., 1, ..]
        t.record(&game(1, GameResult::WhiteWins, Termination::Checkmate));
        t.record(&game(2, GameResult::WhiteWins, Termination::TimeForfeit));
        // Pair 2: draw, then A (Black) wins because B (White) crashed → 1.5 points.
        t.record(&game(3, GameResult::Draw, Termination::Threefold));
        let mut g4 = game(4, GameResult::BlackWins, Termination::Crash);
        g4.notation_errors = [2, 1];
        t.record(&g4);
        // Pair 3 incomplete.
        t.record(&game(5, GameResult::BlackWins, Termination::IllegalMove));
        let [a, b] = &t.engines;
        assert_eq!((a.wins, a.draws, a.losses, a.points), (2, 1, 2, 2.5));
        assert_eq!((b.wins, b.draws, b.losses, b.points), (2, 1, 2, 2.5));
        assert_eq!(
            (a.time_forfeits, a.illegal_moves, a.notation_errors),
            (1, 1, 2)
        );
        assert_eq!((b.crashes, b.notation_errors), (1, 1));
        assert_eq!(t.pentanomial().0, [0, 0, 1, 1, 0]);
        let table = t.render(None);
        assert!(table.contains("Terminations: checkmate: 1, engine crash: 1, illegal move: 1, threefold repetition: 1, time forfeit: 1"), "{table}");
        let json = t.to_json(None);
        assert_eq!(json["games"], 5);
        assert_eq!(json["engines"][1]["crashes"], 1);
        assert_eq!(json["pentanomial"], serde_json::json!([0, 0, 1, 1, 0]));
        assert_eq!(t.score_line(), "A 2.5 - 2.5 B");
    }

    #[test]
    fn split_and_one_sided_matches_print_a_finite_elo() {
        // `match --games 2` with one win each: Elo 0, unbounded error.
        let mut t = Tally::new("A", "B");
        t.record(&game(1, GameResult::WhiteWins, Termination::Checkmate));
        t.record(&game(2, GameResult::WhiteWins, Termination::Checkmate));
        let table = t.render(None);
        assert!(
            table.contains("Elo difference: 0.0 +/- inf (95 %), LOS: 50.0 %"),
            "{table}"
        );
        let json = t.to_json(None);
        assert_eq!(json["first_engine"]["los"], 0.5);
        assert_eq!(json["first_engine"]["elo"], 0.0);
        assert!(json["first_engine"]["elo_error_95"].is_null());
        assert_eq!(json["first_engine"]["elo_one_sided"], false);
        // A wins both: 2.5 of 3 → +279.6, flagged.
        let mut t = Tally::new("A", "B");
        t.record(&game(1, GameResult::WhiteWins, Termination::Checkmate));
        t.record(&game(2, GameResult::BlackWins, Termination::Checkmate));
        let table = t.render(None);
        assert!(
            table.contains("Elo difference: 279.6 +/- inf (95 %) (one-sided score"),
            "{table}"
        );
        assert!(!table.contains("-inf"), "{table}");
        assert_eq!(t.to_json(None)["first_engine"]["elo_one_sided"], true);
    }
}
