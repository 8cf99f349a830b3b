//! The suite's results: one report per check (pass, fail, or skip with the
//! reason), the failures with the FEN and the UCI lines that reproduce
//! them, a plain-text table and the JSON form (check names as keys).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

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
    #[serde(rename = "rights-tracking")]
    RightsTracking,
    #[serde(rename = "moves-list-castle")]
    MovesListCastle,
}

impl CheckName {
    pub const ALL: [CheckName; 8] = [
        CheckName::DeclaresChess960,
        CheckName::PerftStart,
        CheckName::PerftMidgame,
        CheckName::PerftDfrc,
        CheckName::ForcedCastle,
        CheckName::CastleNotation,
        CheckName::RightsTracking,
        CheckName::MovesListCastle,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CheckName::DeclaresChess960 => "declares-chess960",
            CheckName::PerftStart => "perft-start",
            CheckName::PerftMidgame => "perft-midgame",
            CheckName::PerftDfrc => "perft-dfrc",
            CheckName::ForcedCastle => "forced-castle",
            CheckName::CastleNotation => "castle-notation",
            CheckName::RightsTracking => "rights-tracking",
            CheckName::MovesListCastle => "moves-list-castle",
        }
    }
}

impl fmt::Display for CheckName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CheckName {
    type Err = String;
    fn from_str(s: &str) -> Result<CheckName, String> {
        CheckName::ALL
            .into_iter()
            .find(|c| c.as_str() == s.trim())
            .ok_or_else(|| {
                let names: Vec<_> = CheckName::ALL.iter().map(|c| c.as_str()).collect();
                format!(
                    "unknown check '{}' (checks: {})",
                    s.trim(),
                    names.join(", ")
                )
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
            note: None,
            seconds: 0.0,
        }
    }
}

/// Accumulates a check's results.
#[derive(Debug)]
pub struct Tally {
    report: CheckReport,
    dfrc_failures: usize,
}

impl Tally {
    pub fn new(check: CheckName) -> Tally {
        Tally {
            report: CheckReport {
                check,
                verdict: Verdict::Pass,
                positions: 0,
                failures: 0,
                first_failures: Vec::new(),
                note: None,
                seconds: 0.0,
            },
            dfrc_failures: 0,
        }
    }

    pub fn pass(&mut self) {
        self.report.positions += 1;
    }

    pub fn fail(&mut self, failure: Failure) {
        self.report.positions += 1;
        self.report.failures += 1;
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

    pub fn finish(mut self, seconds: f64) -> CheckReport {
        if self.report.failures > 0 {
            self.report.verdict = Verdict::Fail;
            if self.dfrc_failures == self.report.failures {
                let all = format!(
                    "all {} failures are DFRC positions (Black's rook files differ from White's)",
                    self.dfrc_failures
                );
                self.report.note = Some(match self.report.note.take() {
                    Some(n) => format!("{n}; {all}"),
                    None => all,
                });
            }
        } else if self.report.positions == 0 && self.report.verdict == Verdict::Pass {
            self.report.verdict = Verdict::Skip("no position applied".into());
        }
        self.report.seconds = seconds;
        self.report
    }
}

/// The whole run.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteReport {
    pub engine: String,
    pub perft_depth: u32,
    pub search_depth: u32,
    pub seconds: f64,
    pub checks: Vec<CheckReport>,
}

impl SuiteReport {
    pub fn failed(&self) -> bool {
        self.checks.iter().any(|c| c.verdict == Verdict::Fail)
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
            "perft_depth": self.perft_depth,
            "search_depth": self.search_depth,
            "seconds": self.seconds,
            "passed": !self.failed(),
            "checks": checks,
        })
    }

    /// The table plus the failure details.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!("castling-test: {}\n\n", self.engine));
        out.push_str(&format!(
            "{:<19} {:<6} {:>9} {:>8} {:>8}  {}\n",
            "check", "result", "positions", "failures", "seconds", "notes"
        ));
        for c in &self.checks {
            let (result, why) = match &c.verdict {
                Verdict::Pass => ("pass", c.note.clone().unwrap_or_default()),
                Verdict::Fail => ("FAIL", c.note.clone().unwrap_or_default()),
                Verdict::Skip(reason) => ("skip", reason.clone()),
            };
            out.push_str(&format!(
                "{:<19} {:<6} {:>9} {:>8} {:>8.1}  {}\n",
                c.check.as_str(),
                result,
                c.positions,
                c.failures,
                c.seconds,
                why
            ));
        }
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
                out.push_str(&format!("  - {}\n    fen:      {}\n", f.label, f.fen));
                out.push_str(&format!(
                    "    expected: {}\n    got:      {}\n",
                    f.expected, f.got
                ));
                out.push_str("    reproduce:\n");
                for line in &f.reproduce {
                    out.push_str(&format!("      {line}\n"));
                }
            }
        }
        out.push_str(&format!(
            "\n{} in {:.1} s\n",
            if self.failed() { "FAILED" } else { "passed" },
            self.seconds
        ));
        out
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
        let err = "perft".parse::<CheckName>().unwrap_err();
        assert!(err.contains("perft-start"), "{err}");
    }

    #[test]
    fn json_uses_check_names_as_keys() {
        let mut t = Tally::new(CheckName::ForcedCastle);
        t.pass();
        t.fail(Failure {
            label: "x".into(),
            fen: "f".into(),
            reproduce: vec!["uci".into()],
            expected: "e1h1".into(),
            got: "e1g1".into(),
        });
        let report = SuiteReport {
            engine: "e".into(),
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
        assert!(text.contains("expected: e1h1"), "{text}");
    }
}
