//! The running standings of a tournament: per engine W/D/L, points, faults
//! (castling-notation errors, crashes, stalls, time forfeits, illegal
//! moves) and Elo against the field; per pairing W/D/L, Elo, LOS,
//! pentanomial pairs and, where it is defined, SPRT; terminations.
//!
//! SPRT is defined for one pairing between two engines: it is computed for
//! the single pairing of a two-engine match and for each pairing of a
//! gauntlet (the first engine against each other one); a round robin of
//! more than two engines has no SPRT (refused when the config is checked).
//!
//! Pentanomial pairs are counted when both games of a pair are in; only
//! pairs with one game finished are kept in memory.

use std::collections::BTreeMap;

use shakmaty::Color;

use super::stats::{EloEstimate, Pentanomial, Sprt, SprtVerdict, Wdl};
use crate::game::{GameResult, Termination};
use crate::output::{Column, Table};

/// What the standings need to know about one finished game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameSummary {
    pub number: u64,
    /// Game pair (same opening, colours reversed).
    pub pair: u64,
    pub pairing: usize,
    pub white: usize,
    pub black: usize,
    /// Whether the pairing's first engine had White.
    pub first_white: bool,
    pub result: GameResult,
    pub termination: Termination,
    /// Castling-notation errors of White, then Black.
    pub notation_errors: [u32; 2],
}

impl GameSummary {
    /// A recorded game (state file) placed in its schedule; `None` for a
    /// record that names engines this tournament does not pair (a damaged
    /// state file).
    pub fn of(
        schedule: &super::schedule::Schedule,
        r: &super::state::GameRecord,
    ) -> Option<GameSummary> {
        let (white, black) = match (r.white, r.black) {
            (Some(w), Some(b)) => (w, b),
            // Older state files: round robin and gauntlet games follow from
            // their number (a knockout's records always name their engines).
            _ if schedule.games_exact() => {
                let slot = schedule.slot(r.number);
                (slot.white, slot.black)
            }
            _ => return None,
        };
        if white == black || r.number == 0 {
            return None;
        }
        Some(GameSummary {
            number: r.number,
            pair: (r.number - 1) / 2,
            pairing: schedule.pairing_of(white, black)?,
            white,
            black,
            // Every pairing's first engine is the lower index.
            first_white: white < black,
            result: r.result,
            termination: r.termination,
            notation_errors: r.notation_errors,
        })
    }
}

/// One engine's line.
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

impl EngineTally {
    pub fn wdl(&self) -> Wdl {
        Wdl {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// One pairing: the first engine's view.
#[derive(Clone, Debug, Default)]
pub struct PairingTally {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
    pub pentanomial: Pentanomial,
    /// First engine's half points in pairs with one game in.
    open: BTreeMap<u64, u32>,
}

/// The standings.
#[derive(Clone, Debug)]
pub struct Standings {
    pub engines: Vec<EngineTally>,
    pub pairings: Vec<PairingTally>,
    pub sprt: Option<Sprt>,
    /// Leave pairings without games out of the table and JSON (a
    /// knockout, whose pairings are all pairs of engines).
    pub hide_empty_pairings: bool,
    games: u64,
    terminations: BTreeMap<&'static str, u32>,
}

impl Standings {
    pub fn new(names: &[String], pairings: &[[usize; 2]], sprt: Option<Sprt>) -> Standings {
        Standings {
            engines: names
                .iter()
                .map(|n| EngineTally {
                    name: n.clone(),
                    ..EngineTally::default()
                })
                .collect(),
            pairings: pairings
                .iter()
                .map(|&[first, second]| PairingTally {
                    first,
                    second,
                    ..PairingTally::default()
                })
                .collect(),
            sprt,
            hide_empty_pairings: false,
            games: 0,
            terminations: BTreeMap::new(),
        }
    }

    pub fn record(&mut self, g: &GameSummary) {
        for (idx, colour, errors) in [
            (g.white, Color::White, g.notation_errors[0]),
            (g.black, Color::Black, g.notation_errors[1]),
        ] {
            let e = &mut self.engines[idx];
            let hp = g.result.half_points(colour);
            match hp {
                2 => e.wins += 1,
                1 => e.draws += 1,
                _ => e.losses += 1,
            }
            e.points += f64::from(hp) / 2.0;
            e.notation_errors += errors;
            if g.termination.is_fault() && hp == 0 {
                match g.termination {
                    Termination::Crash => e.crashes += 1,
                    Termination::Stall => e.stalls += 1,
                    Termination::TimeForfeit => e.time_forfeits += 1,
                    Termination::IllegalMove => e.illegal_moves += 1,
                    _ => {}
                }
            }
        }
        let p = &mut self.pairings[g.pairing];
        let first_colour = if g.first_white {
            Color::White
        } else {
            Color::Black
        };
        let hp = g.result.half_points(first_colour);
        match hp {
            2 => p.wdl.wins += 1,
            1 => p.wdl.draws += 1,
            _ => p.wdl.losses += 1,
        }
        match p.open.remove(&g.pair) {
            Some(other) => p.pentanomial.add(hp + other),
            None => {
                p.open.insert(g.pair, hp);
            }
        }
        self.games += 1;
        *self.terminations.entry(g.termination.tag()).or_default() += 1;
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    /// Whether an SPRT is computed for this pairing.
    fn sprt_for(&self, _pairing: usize) -> Option<&Sprt> {
        self.sprt.as_ref()
    }

    /// Pairing `i`'s LLR under `s`.
    fn llr(&self, s: &Sprt, i: usize) -> f64 {
        let p = &self.pairings[i];
        s.llr(&p.wdl, &p.pentanomial)
    }

    /// The SPRT verdict of each pairing that has one.
    pub fn sprt_verdicts(&self) -> Vec<(usize, SprtVerdict)> {
        (0..self.pairings.len())
            .filter_map(|i| {
                let s = self.sprt_for(i)?;
                Some((i, s.verdict(self.llr(s, i))))
            })
            .collect()
    }

    /// Every SPRT has decided (false without SPRT).
    pub fn sprt_done(&self) -> bool {
        let v = self.sprt_verdicts();
        !v.is_empty() && v.iter().all(|(_, v)| *v != SprtVerdict::Continue)
    }

    /// Some SPRT accepted H0 (the result the test asked about failed).
    pub fn sprt_failed(&self) -> bool {
        self.sprt_verdicts()
            .iter()
            .any(|(_, v)| *v == SprtVerdict::AcceptH0)
    }

    /// `A 3.5 - 2.5 B` (two engines) or the leader, for the progress bar.
    pub fn score_line(&self) -> String {
        match self.engines.as_slice() {
            [a, b] => format!("{} {} - {} {}", a.name, a.points, b.points, b.name),
            all => all
                .iter()
                .max_by(|x, y| x.points.total_cmp(&y.points))
                .map(|e| format!("leader {} {}/{}", e.name, e.points, e.games()))
                .unwrap_or_default(),
        }
    }

    fn pairing_name(&self, p: &PairingTally) -> String {
        format!(
            "{} vs {}",
            self.engines[p.first].name, self.engines[p.second].name
        )
    }

    /// The engines ranked by points, as a table document (rendered as
    /// text by [`Standings::render`], or in any format of
    /// [`crate::output`] that takes a table).
    pub fn table(&self) -> Table {
        let width = self
            .engines
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut table = Table::new(vec![
            Column::left("Rank", 4),
            Column::left("Engine", width),
            Column::right("Games", 6),
            Column::right("W", 5),
            Column::right("D", 5),
            Column::right("L", 5),
            Column::right("Points", 7),
            Column::right("Elo vs field (95 %)", 22),
            Column::right("Notation", 8).after("  "),
            Column::right("Crashes", 7),
            Column::right("Stalls", 6),
            Column::right("Forfeits", 8),
            Column::right("Illegal", 7),
        ]);
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by(|&a, &b| self.engines[b].points.total_cmp(&self.engines[a].points));
        for (rank, &i) in order.iter().enumerate() {
            let e = &self.engines[i];
            table.push(vec![
                (rank + 1).to_string(),
                e.name.clone(),
                e.games().to_string(),
                e.wins.to_string(),
                e.draws.to_string(),
                e.losses.to_string(),
                format!("{:.1}", e.points),
                elo_text(e.wdl().elo()),
                e.notation_errors.to_string(),
                e.crashes.to_string(),
                e.stalls.to_string(),
                e.time_forfeits.to_string(),
                e.illegal_moves.to_string(),
            ]);
        }
        table
    }

    /// The final table (laid out by [`crate::output::table`]), then each
    /// pairing and the terminations.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut out = self.table().render();
        let _ = writeln!(out, "\nGames: {}", self.games);
        for (i, p) in self.pairings.iter().enumerate() {
            if self.hide_empty_pairings && p.wdl.games() == 0 {
                continue;
            }
            let _ = writeln!(
                out,
                "{}: {} games, +{} ={} -{}",
                self.pairing_name(p),
                p.wdl.games(),
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses
            );
            if p.wdl.games() > 0 {
                let _ = writeln!(
                    out,
                    "  Elo difference: {}, LOS: {}, draw ratio: {:.1} %",
                    elo_text(p.wdl.elo()),
                    p.wdl
                        .los()
                        .map(|l| format!("{:.1} %", l * 100.0))
                        .unwrap_or_else(|| "n/a".into()),
                    p.wdl.draw_ratio() * 100.0
                );
            }
            let _ = writeln!(
                out,
                "  Pentanomial pairs [0, 0.5, 1, 1.5, 2]: {:?}",
                p.pentanomial.0
            );
            if let Some(s) = self.sprt_for(i) {
                let llr = self.llr(s, i);
                let (lo, hi) = s.bounds();
                let _ = writeln!(
                    out,
                    "  SPRT elo0={} elo1={} alpha={} beta={} model={}: LLR {:.2} [{:.2}, {:.2}] {}",
                    s.elo0,
                    s.elo1,
                    s.alpha,
                    s.beta,
                    s.model.name(),
                    llr,
                    lo,
                    hi,
                    match s.verdict(llr) {
                        SprtVerdict::Continue => "(no decision)",
                        SprtVerdict::AcceptH0 => "H0 accepted",
                        SprtVerdict::AcceptH1 => "H1 accepted",
                    }
                );
            }
        }
        let terms: Vec<String> = self
            .terminations
            .iter()
            .map(|(t, n)| format!("{t}: {n}"))
            .collect();
        let _ = writeln!(out, "Terminations: {}", terms.join(", "));
        out
    }

    /// The same as JSON. With two engines the single pairing's numbers are
    /// also at the top level (`first_engine`, `pentanomial`, `sprt`), as
    /// before tournaments.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{Value, json};
        let finite = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
        let elo_json = |e: Option<EloEstimate>| {
            (
                e.map_or(Value::Null, |e| finite(e.elo)),
                e.map_or(Value::Null, |e| finite(e.error)),
                e.map(|e| e.one_sided),
            )
        };
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|e| {
                let mut v = json!(e);
                let (elo, err, one_sided) = elo_json(e.wdl().elo());
                v["games"] = json!(e.games());
                v["elo_vs_field"] = elo;
                v["elo_error_95"] = err;
                v["elo_one_sided"] = json!(one_sided);
                v
            })
            .collect();
        let pairings: Vec<Value> = self
            .pairings
            .iter()
            .enumerate()
            .filter(|(_, p)| !(self.hide_empty_pairings && p.wdl.games() == 0))
            .map(|(i, p)| {
                let (elo, err, one_sided) = elo_json(p.wdl.elo());
                let sprt = self.sprt_for(i).map(|s| {
                    let llr = self.llr(s, i);
                    let (lo, hi) = s.bounds();
                    json!({
                        "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                        "model": s.model.name(),
                        "llr": llr, "lower_bound": lo, "upper_bound": hi,
                        "verdict": s.verdict(llr),
                    })
                });
                json!({
                    "first": self.engines[p.first].name,
                    "second": self.engines[p.second].name,
                    "games": p.wdl.games(),
                    "wins": p.wdl.wins, "draws": p.wdl.draws, "losses": p.wdl.losses,
                    "elo": elo, "elo_error_95": err, "elo_one_sided": one_sided,
                    "los": p.wdl.los(),
                    "draw_ratio": if p.wdl.games() > 0 { Some(p.wdl.draw_ratio()) } else { None },
                    "pentanomial": p.pentanomial.0,
                    "sprt": sprt,
                })
            })
            .collect();
        let mut out = json!({
            "games": self.games,
            "engines": engines,
            "pairings": pairings,
            "terminations": self.terminations,
        });
        if self.engines.len() == 2
            && let Some(p) = pairings.first()
        {
            out["first_engine"] = json!({
                "wins": p["wins"], "draws": p["draws"], "losses": p["losses"],
                "elo": p["elo"], "elo_error_95": p["elo_error_95"],
                "elo_one_sided": p["elo_one_sided"],
                "los": p["los"], "draw_ratio": p["draw_ratio"],
            });
            out["pentanomial"] = p["pentanomial"].clone();
            out["sprt"] = p["sprt"].clone();
        }
        out
    }
}

fn elo_text(e: Option<EloEstimate>) -> String {
    match e {
        None => "-".into(),
        // `+ 0.0` turns -0.0 into 0.0; an unbounded error prints `inf`;
        // a one-sided score counts one more draw (stats.rs) and says so.
        Some(e) => format!(
            "{:.1} +/- {:.1}{}",
            e.elo + 0.0,
            e.error,
            if e.one_sided { " (one-sided)" } else { "" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule::{Schedule, TournamentKind};

    fn summary(s: &Schedule, number: u64, result: GameResult, t: Termination) -> GameSummary {
        let slot = s.slot(number);
        GameSummary {
            number,
            pair: slot.pair,
            pairing: slot.pairing,
            white: slot.white,
            black: slot.black,
            first_white: slot.first_white,
            result,
            termination: t,
            notation_errors: [0, 0],
        }
    }

    #[test]
    fn two_engines_count_faults_and_pairs() {
        let s = Schedule::new(TournamentKind::RoundRobin, 2, 6, 1).unwrap();
        let mut t = Standings::new(&["A".into(), "B".into()], s.pairings(), None);
        // Pair 1: A wins with White, B wins with White (A forfeits) -> 1 point.
        t.record(&summary(
            &s,
            1,
            GameResult::WhiteWins,
            Termination::Checkmate,
        ));
        t.record(&summary(
            &s,
            2,
            GameResult::WhiteWins,
            Termination::TimeForfeit,
        ));
        // Pair 2: draw, then A (Black) wins because B crashed -> 1.5.
        t.record(&summary(&s, 3, GameResult::Draw, Termination::Threefold));
        let mut g4 = summary(&s, 4, GameResult::BlackWins, Termination::Crash);
        g4.notation_errors = [1, 2];
        t.record(&g4);
        t.record(&summary(
            &s,
            5,
            GameResult::BlackWins,
            Termination::IllegalMove,
        ));
        let [a, b] = t.engines.as_slice() else {
            panic!()
        };
        assert_eq!((a.wins, a.draws, a.losses, a.points), (2, 1, 2, 2.5));
        assert_eq!((b.wins, b.draws, b.losses, b.points), (2, 1, 2, 2.5));
        assert_eq!(
            (a.time_forfeits, a.illegal_moves, a.notation_errors),
            (1, 1, 2)
        );
        assert_eq!((b.crashes, b.notation_errors), (1, 1));
        assert_eq!(t.pairings[0].pentanomial.0, [0, 0, 1, 1, 0]);
        let json = t.to_json();
        assert_eq!(json["games"], 5);
        assert_eq!(json["engines"][1]["crashes"], 1);
        assert_eq!(json["pentanomial"], serde_json::json!([0, 0, 1, 1, 0]));
        assert_eq!(t.score_line(), "A 2.5 - 2.5 B");
        assert!(t.render().contains("engine crash: 1"));
    }

    #[test]
    fn the_ranked_table_is_the_text_head_and_also_csv() {
        let s = Schedule::new(TournamentKind::RoundRobin, 2, 2, 1).unwrap();
        let mut t = Standings::new(&["Alpha".into(), "Beta, B".into()], s.pairings(), None);
        t.record(&summary(&s, 1, GameResult::Draw, Termination::Threefold));
        t.record(&summary(
            &s,
            2,
            GameResult::WhiteWins,
            Termination::Checkmate,
        ));
        let text = t.render();
        let head: Vec<&str> = text.lines().take(3).collect();
        assert_eq!(
            head[0],
            "Rank Engine   Games     W     D     L  Points    Elo vs field (95 %)  Notation Crashes Stalls Forfeits Illegal"
        );
        // Game 2: Beta, B has White and wins: 1.5 points, ranked first.
        assert!(
            head[1].starts_with("1    Beta, B      2     1     1     0     1.5"),
            "{text}"
        );
        assert!(
            head[2].starts_with("2    Alpha        2     0     1     1     0.5"),
            "{text}"
        );
        let csv = crate::output::csv::render(&t.table());
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(
            lines[0],
            "Rank,Engine,Games,W,D,L,Points,Elo vs field (95 %),Notation,Crashes,Stalls,Forfeits,Illegal"
        );
        assert!(lines[1].starts_with("1,\"Beta, B\",2,1,1,0,1.5,"), "{csv}");
        assert!(lines[1].ends_with(",0,0,0,0,0"), "{csv}");
        assert_eq!(lines.len(), 4, "{csv}");
    }

    #[test]
    fn round_robin_sums_add_up() {
        let s = Schedule::new(TournamentKind::RoundRobin, 3, 2, 2).unwrap();
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let mut t = Standings::new(&names, s.pairings(), None);
        let results = [
            GameResult::WhiteWins,
            GameResult::Draw,
            GameResult::BlackWins,
        ];
        for g in 1..=s.games() {
            t.record(&summary(
                &s,
                g,
                results[g as usize % 3],
                Termination::Checkmate,
            ));
        }
        let points: f64 = t.engines.iter().map(|e| e.points).sum();
        assert_eq!(points, s.games() as f64);
        let per_pairing: u32 = t.pairings.iter().map(|p| p.wdl.games()).sum();
        assert_eq!(u64::from(per_pairing), s.games());
        for p in &t.pairings {
            assert_eq!(p.pentanomial.pairs(), 2);
        }
        assert!(t.to_json().get("first_engine").is_none());
        assert!(t.render().contains("B vs C: 4 games"));
    }

    #[test]
    fn split_and_one_sided_matches_print_a_finite_elo() {
        let s = Schedule::new(TournamentKind::RoundRobin, 2, 2, 1).unwrap();
        let names = ["A".to_string(), "B".to_string()];
        // One win each: Elo 0, unbounded error.
        let mut t = Standings::new(&names, s.pairings(), None);
        t.record(&summary(
            &s,
            1,
            GameResult::WhiteWins,
            Termination::Checkmate,
        ));
        t.record(&summary(
            &s,
            2,
            GameResult::WhiteWins,
            Termination::Checkmate,
        ));
        let table = t.render();
        assert!(
            table.contains("Elo difference: 0.0 +/- inf, LOS: 50.0 %"),
            "{table}"
        );
        let json = t.to_json();
        assert_eq!(json["first_engine"]["elo"], 0.0);
        assert!(json["first_engine"]["elo_error_95"].is_null());
        assert_eq!(json["first_engine"]["elo_one_sided"], false);
        // A wins both: finite and flagged, never -inf.
        let mut t = Standings::new(&names, s.pairings(), None);
        t.record(&summary(
            &s,
            1,
            GameResult::WhiteWins,
            Termination::Checkmate,
        ));
        t.record(&summary(
            &s,
            2,
            GameResult::BlackWins,
            Termination::Checkmate,
        ));
        let table = t.render();
        assert!(table.contains("279.6 +/- inf (one-sided)"), "{table}");
        assert!(!table.contains("-inf"), "{table}");
        assert_eq!(t.to_json()["first_engine"]["elo_one_sided"], true);
    }
}
