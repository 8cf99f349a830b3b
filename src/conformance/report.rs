//! The suite's results: one report per check (pass, fail, or skip with the
//! reason), the failures with the FEN, the UCI lines that reproduce them,
//! how each failed (wrong answer, unreadable, crash, stall) and what it
//! means (its [`Diagnosis`]); a plain-text table ending with the distinct
//! diagnoses and one minimal reproducer each, and the JSON form (check
//! names as keys).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::diagnosis::{Diagnosis, FailureKind, piece_count};
use super::speech::Speech;
use crate::keyword::UnknownWord;
use crate::notation::castling::CastlingNotation;
use crate::output::{Column, Table};

/// The checks, in the order they run and are printed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, PartialOrd, Ord)]
pub enum CheckName {
    #[serde(rename = "declares-chess960")]
    DeclaresChess960,
    #[serde(rename = "perft-start")]
    PerftStart,
    #[serde(rename = "perft-midgame")]
    PerftMidgame,
    #[serde(rename = "perft-dfrc")]
    PerftDfrc,
    #[serde(rename = "forced-castle")]
    ForcedCastle,
    #[serde(rename = "castle-notation")]
    CastleNotation,
    #[serde(rename = "castle-traps")]
    CastleTraps,
    #[serde(rename = "rights-tracking")]
    RightsTracking,
    #[serde(rename = "moves-list-castle")]
    MovesListCastle,
    #[serde(rename = "hidden-state")]
    HiddenState,
}

impl CheckName {
    pub const ALL: [CheckName; 10] = [
        CheckName::DeclaresChess960,
        CheckName::PerftStart,
        CheckName::PerftMidgame,
        CheckName::PerftDfrc,
        CheckName::ForcedCastle,
        CheckName::CastleNotation,
        CheckName::CastleTraps,
        CheckName::RightsTracking,
        CheckName::MovesListCastle,
        CheckName::HiddenState,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CheckName::DeclaresChess960 => "declares-chess960",
            CheckName::PerftStart => "perft-start",
            CheckName::PerftMidgame => "perft-midgame",
            CheckName::PerftDfrc => "perft-dfrc",
            CheckName::ForcedCastle => "forced-castle",
            CheckName::CastleNotation => "castle-notation",
            CheckName::CastleTraps => "castle-traps",
            CheckName::RightsTracking => "rights-tracking",
            CheckName::MovesListCastle => "moves-list-castle",
            CheckName::HiddenState => "hidden-state",
        }
    }
}

impl fmt::Display for CheckName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CheckName {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<CheckName, UnknownWord> {
        CheckName::ALL
            .into_iter()
            .find(|c| c.as_str() == s.trim())
            .ok_or_else(|| {
                let names: Vec<_> = CheckName::ALL.iter().map(|c| c.as_str()).collect();
                UnknownWord::new("check", s.trim(), names.join(", "))
            })
    }
}

/// Pass, fail, or skip with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "result", content = "reason", rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    Skip(String),
}

/// One failing position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// What the position is (template, geometry, SP number ...).
    pub label: String,
    pub fen: String,
    /// The UCI lines to send the engine to see it again.
    pub reproduce: Vec<String>,
    pub expected: String,
    pub got: String,
    pub kind: FailureKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<Diagnosis>,
}

impl Failure {
    /// A wrong answer, not yet diagnosed.
    pub fn wrong(
        label: impl Into<String>,
        fen: impl Into<String>,
        reproduce: Vec<String>,
        expected: impl Into<String>,
        got: impl Into<String>,
    ) -> Failure {
        Failure {
            label: label.into(),
            fen: fen.into(),
            reproduce,
            expected: expected.into(),
            got: got.into(),
            kind: FailureKind::Wrong,
            diagnosis: None,
        }
    }

    pub fn diagnosed(mut self, diagnosis: Diagnosis) -> Failure {
        self.diagnosis = Some(diagnosis);
        self
    }

    /// Smaller is a better reproducer: fewer pieces, fewer lines.
    fn size(&self) -> (usize, usize, usize) {
        let chars = self.reproduce.iter().map(String::len).sum();
        (piece_count(&self.fen), self.reproduce.len(), chars)
    }
}

/// Failures of one check by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Kinds {
    pub wrong: usize,
    pub unreadable: usize,
    pub crash: usize,
    pub stall: usize,
}

impl Kinds {
    fn add(&mut self, kind: FailureKind) {
        match kind {
            FailureKind::Wrong => self.wrong += 1,
            FailureKind::Unreadable => self.unreadable += 1,
            FailureKind::Crash => self.crash += 1,
            FailureKind::Stall => self.stall += 1,
        }
    }

    pub fn get(&self, kind: FailureKind) -> usize {
        match kind {
            FailureKind::Wrong => self.wrong,
            FailureKind::Unreadable => self.unreadable,
            FailureKind::Crash => self.crash,
            FailureKind::Stall => self.stall,
        }
    }

    /// `3 crash, 1 stall`: the kinds other than wrong answers, for notes.
    pub fn engine_failures(&self) -> Option<String> {
        let parts: Vec<String> = FailureKind::ALL[1..]
            .iter()
            .filter(|k| self.get(**k) > 0)
            .map(|k| format!("{} {}", self.get(*k), k.as_str()))
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// One diagnosis of a check: how often, and the smallest failure with it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnosed {
    pub diagnosis: Diagnosis,
    pub line: &'static str,
    pub count: usize,
    pub reproducer: Failure,
}

/// How many failures a report keeps in full (the count is always exact).
pub const KEPT_FAILURES: usize = 5;

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    pub check: CheckName,
    #[serde(flatten)]
    pub verdict: Verdict,
    pub positions: usize,
    pub failures: usize,
    pub first_failures: Vec<Failure>,
    /// Failures by kind (wrong answer, unreadable, crash, stall).
    pub kinds: Kinds,
    /// The distinct diagnoses, most frequent first.
    pub diagnoses: Vec<Diagnosed>,
    /// Positions left out after the engine failed too often in a row.
    pub not_run: usize,
    /// Positions skipped because the engine's declared castling notation
    /// cannot write their castle unambiguously (`castles=standard`).
    pub skipped: usize,
    /// The label of every failing position (for comparing runs).
    #[serde(skip)]
    pub failed_labels: Vec<String>,
    /// Extra facts (timings, node counts) for the curious.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub seconds: f64,
}

impl CheckReport {
    pub fn skipped(check: CheckName, reason: impl Into<String>) -> CheckReport {
        CheckReport {
            check,
            verdict: Verdict::Skip(reason.into()),
            positions: 0,
            failures: 0,
            first_failures: Vec::new(),
            kinds: Kinds::default(),
            diagnoses: Vec::new(),
            not_run: 0,
            skipped: 0,
            failed_labels: Vec::new(),
            note: None,
            seconds: 0.0,
        }
    }
}

/// Accumulates a check's results.
#[derive(Debug)]
pub struct CheckTally {
    report: CheckReport,
    /// Why the first skipped position was skipped.
    first_skip: Option<String>,
    dfrc_failures: usize,
    diagnoses: BTreeMap<Diagnosis, Diagnosed>,
}

impl CheckTally {
    pub fn new(check: CheckName) -> CheckTally {
        let mut report = CheckReport::skipped(check, "");
        report.verdict = Verdict::Pass;
        CheckTally {
            report,
            first_skip: None,
            dfrc_failures: 0,
            diagnoses: BTreeMap::new(),
        }
    }

    pub fn pass(&mut self) {
        self.report.positions += 1;
    }

    pub fn fail(&mut self, failure: Failure) {
        self.report.positions += 1;
        self.report.failures += 1;
        self.report.kinds.add(failure.kind);
        self.report.failed_labels.push(failure.label.clone());
        if let Some(d) = failure.diagnosis {
            let entry = self.diagnoses.entry(d).or_insert_with(|| Diagnosed {
                diagnosis: d,
                line: d.line(),
                count: 0,
                reproducer: failure.clone(),
            });
            entry.count += 1;
            if failure.size() < entry.reproducer.size() {
                entry.reproducer = failure.clone();
            }
        }
        if self.report.first_failures.len() < KEPT_FAILURES {
            self.report.first_failures.push(failure);
        }
    }

    /// A failure in a Double Fischer Random position (Black's rook files
    /// differ from White's): counted apart, so that an engine that only
    /// lacks DFRC support is told so.
    pub fn fail_dfrc(&mut self, failure: Failure, dfrc: bool) {
        if dfrc {
            self.dfrc_failures += 1;
        }
        self.fail(failure);
    }

    pub fn note(&mut self, note: impl Into<String>) {
        self.report.note = Some(note.into());
    }

    /// Adds to the note (`; ` between parts).
    pub fn add_note(&mut self, more: impl Into<String>) {
        let more = more.into();
        self.report.note = Some(match self.report.note.take() {
            Some(n) => format!("{n}; {more}"),
            None => more,
        });
    }

    /// A position skipped, neither passed nor failed: its castle cannot
    /// be written unambiguously in the engine's declared notation.
    pub fn skip(&mut self, why: impl ToString) {
        self.report.skipped += 1;
        self.first_skip.get_or_insert_with(|| why.to_string());
    }

    /// Positions left out (the engine failed too often in a row).
    pub fn not_run(&mut self, positions: usize) {
        self.report.not_run += positions;
    }

    pub fn failures(&self) -> usize {
        self.report.failures
    }

    pub fn finish(mut self, seconds: f64) -> CheckReport {
        let mut diagnoses: Vec<Diagnosed> =
            std::mem::take(&mut self.diagnoses).into_values().collect();
        diagnoses.sort_by(|a, b| b.count.cmp(&a.count).then(a.diagnosis.cmp(&b.diagnosis)));
        self.report.diagnoses = diagnoses;
        if let Some(kinds) = self.report.kinds.engine_failures() {
            self.add_note(format!("engine failures: {kinds} (restarted each time)"));
        }
        if self.report.not_run > 0 {
            let n = self.report.not_run;
            self.add_note(format!("{n} positions not run"));
        }
        let skipped = match (self.report.skipped, self.first_skip.take()) {
            (0, _) | (_, None) => None,
            (n, Some(why)) => Some(format!(
                "{n} positions skipped: their castle has no unambiguous form in the declared notation (first: {why})"
            )),
        };
        if let Some(note) = &skipped {
            self.add_note(note.clone());
        }
        if self.report.failures > 0 {
            self.report.verdict = Verdict::Fail;
            if self.dfrc_failures == self.report.failures {
                self.add_note(format!(
                    "all {} failures are DFRC positions (Black's rook files differ from White's)",
                    self.dfrc_failures
                ));
            }
        } else if self.report.positions == 0 && self.report.verdict == Verdict::Pass {
            self.report.verdict =
                Verdict::Skip(skipped.unwrap_or_else(|| "no position applied".into()));
        }
        self.report.seconds = seconds;
        self.report
    }
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteReport {
    pub engine: String,
    /// The engine's declared castling notation the run was written and
    /// read in (king takes rook unless `castles=standard`).
    #[serde(skip)]
    pub castles: CastlingNotation,
    /// Run through `uci960 proxy` (`--through-proxy`).
    pub through_proxy: bool,
    pub perft_depth: u32,
    pub search_depth: u32,
    pub seconds: f64,
    pub checks: Vec<CheckReport>,
}

/// One distinct diagnosis of the whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunDiagnosis {
    pub diagnosis: Diagnosis,
    pub line: &'static str,
    pub count: usize,
    /// The checks that found it, with their counts.
    pub checks: Vec<(CheckName, usize)>,
    /// The check of the reproducer.
    pub check: CheckName,
    pub reproducer: Failure,
}

impl SuiteReport {
    pub fn failed(&self) -> bool {
        self.checks.iter().any(|c| c.verdict == Verdict::Fail)
    }

    pub fn check(&self, check: CheckName) -> Option<&CheckReport> {
        self.checks.iter().find(|c| c.check == check)
    }

    /// The distinct diagnoses over all checks, most frequent first, each
    /// with the smallest reproducer found.
    pub fn diagnoses(&self) -> Vec<RunDiagnosis> {
        let mut all: BTreeMap<Diagnosis, RunDiagnosis> = BTreeMap::new();
        for c in &self.checks {
            for d in &c.diagnoses {
                let entry = all.entry(d.diagnosis).or_insert_with(|| RunDiagnosis {
                    diagnosis: d.diagnosis,
                    line: d.line,
                    count: 0,
                    checks: Vec::new(),
                    check: c.check,
                    reproducer: d.reproducer.clone(),
                });
                entry.count += d.count;
                entry.checks.push((c.check, d.count));
                if d.reproducer.size() < entry.reproducer.size() {
                    entry.reproducer = d.reproducer.clone();
                    entry.check = c.check;
                }
            }
        }
        let mut out: Vec<RunDiagnosis> = all.into_values().collect();
        out.sort_by(|a, b| b.count.cmp(&a.count).then(a.diagnosis.cmp(&b.diagnosis)));
        out
    }

    /// The engine's name, marked when run through the proxy.
    pub fn title(&self) -> String {
        let mut title = self.engine.clone();
        if Speech::new(self.castles).adapted() {
            title.push_str(&format!(" (castles={})", self.castles));
        }
        if self.through_proxy {
            title.push_str(" through uci960 proxy");
        }
        title
    }

    /// JSON with the check names as keys.
    pub fn to_json(&self) -> serde_json::Value {
        let mut checks = serde_json::Map::new();
        for c in &self.checks {
            checks.insert(
                c.check.as_str().to_string(),
                serde_json::to_value(c).unwrap_or(serde_json::Value::Null),
            );
        }
        serde_json::json!({
            "engine": self.engine,
            "castles": self.castles.to_string(),
            "through_proxy": self.through_proxy,
            "perft_depth": self.perft_depth,
            "search_depth": self.search_depth,
            "seconds": self.seconds,
            "passed": !self.failed(),
            "checks": checks,
            "diagnoses": serde_json::to_value(self.diagnoses()).unwrap_or(serde_json::Value::Null),
        })
    }

    /// The table, the failure details, and the distinct diagnoses with one
    /// minimal reproducer each.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!("castling-test: {}\n", self.title()));
        if let Some(header) = Speech::new(self.castles).header() {
            out.push_str(&format!("{header}\n"));
        }
        out.push('\n');
        let mut table = Table::new(vec![
            Column::left("check", 19),
            Column::left("result", 6),
            Column::right("positions", 9),
            Column::right("failures", 8),
            Column::right("seconds", 8),
            Column::left("notes", 0).after("  "),
        ]);
        for c in &self.checks {
            let (result, why) = match &c.verdict {
                Verdict::Pass => ("pass", c.note.clone().unwrap_or_default()),
                Verdict::Fail => ("FAIL", c.note.clone().unwrap_or_default()),
                Verdict::Skip(reason) => ("skip", reason.clone()),
            };
            table.push(vec![
                c.check.as_str().to_string(),
                result.to_string(),
                c.positions.to_string(),
                c.failures.to_string(),
                format!("{:.1}", c.seconds),
                why,
            ]);
        }
        table.write(&mut out);
        for c in self.checks.iter().filter(|c| c.failures > 0) {
            out.push_str(&format!(
                "\n{}: {} of {} positions failed{}\n",
                c.check,
                c.failures,
                c.positions,
                if c.failures > c.first_failures.len() {
                    format!(" (first {} shown)", c.first_failures.len())
                } else {
                    String::new()
                }
            ));
            for f in &c.first_failures {
                render_failure(&mut out, f, "  - ");
            }
        }
        let diagnoses = self.diagnoses();
        if !diagnoses.is_empty() {
            out.push_str(&format!(
                "\ndiagnoses ({} distinct, one minimal reproducer each):\n",
                diagnoses.len()
            ));
            for (i, d) in diagnoses.iter().enumerate() {
                let checks: Vec<String> =
                    d.checks.iter().map(|(c, n)| format!("{c} {n}")).collect();
                out.push_str(&format!(
                    "\n{}. {}\n   found {} times ({}); reproducer from {}:\n",
                    i + 1,
                    d.line,
                    d.count,
                    checks.join(", "),
                    d.check
                ));
                render_failure(&mut out, &d.reproducer, "   ");
            }
        }
        out.push_str(&format!(
            "\n{} in {:.1} s{}\n",
            if self.failed() { "FAILED" } else { "passed" },
            self.seconds,
            if Speech::new(self.castles).adapted() {
                format!(" (castles={}, as declared)", self.castles)
            } else {
                String::new()
            }
        ));
        out
    }
}

/// One failure: label, FEN, expected and got, kind, diagnosis, the lines.
fn render_failure(out: &mut String, f: &Failure, lead: &str) {
    let pad = " ".repeat(lead.chars().count());
    out.push_str(&format!("{lead}{}\n{pad}fen:       {}\n", f.label, f.fen));
    out.push_str(&format!(
        "{pad}expected:  {}\n{pad}got:       {}\n",
        f.expected, f.got
    ));
    if f.kind != FailureKind::Wrong {
        out.push_str(&format!("{pad}failure:   {}\n", f.kind.as_str()));
    }
    if let Some(d) = f.diagnosis {
        out.push_str(&format!("{pad}diagnosis: {d}\n"));
    }
    out.push_str(&format!("{pad}reproduce:\n"));
    for line in &f.reproduce {
        out.push_str(&format!("{pad}  {line}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_listed() {
        for c in CheckName::ALL {
            assert_eq!(c.as_str().parse::<CheckName>().unwrap(), c);
        }
        let err = "perft".parse::<CheckName>().unwrap_err().to_string();
        assert!(
            err.starts_with("unknown check 'perft'") && err.contains("perft-start"),
            "{err}"
        );
    }

    #[test]
    fn json_uses_check_names_as_keys() {
        let mut t = CheckTally::new(CheckName::ForcedCastle);
        t.pass();
        t.fail(
            Failure::wrong("x", "f", vec!["uci".into()], "e1h1", "e1g1")
                .diagnosed(Diagnosis::KingTwoSquares),
        );
        let report = SuiteReport {
            engine: "e".into(),
            castles: CastlingNotation::KingTakesRook,
            through_proxy: false,
            perft_depth: 3,
            search_depth: 3,
            seconds: 1.0,
            checks: vec![
                t.finish(0.5),
                CheckReport::skipped(CheckName::PerftStart, "no perft"),
            ],
        };
        assert!(report.failed());
        let json = report.to_json();
        assert_eq!(json["checks"]["forced-castle"]["result"], "fail");
        assert_eq!(json["checks"]["forced-castle"]["failures"], 1);
        assert_eq!(json["checks"]["perft-start"]["result"], "skip");
        assert_eq!(json["checks"]["perft-start"]["reason"], "no perft");
        let text = report.render();
        assert!(text.contains("forced-castle       FAIL"), "{text}");
        assert!(text.contains("expected:  e1h1"), "{text}");
        assert_eq!(json["diagnoses"][0]["diagnosis"], "king-two-squares");
        assert!(text.contains("diagnoses (1 distinct"), "{text}");
    }
}
