//! The suite's reports as a JUnit document ([`crate::output::junit`]
//! writes it as XML, the form CI systems read): one suite per engine run,
//! one case per check; a failing check's failure has the diagnosis and the
//! first reproducer as its message and every kept failure in its text; a
//! skipped check carries the reason.

use std::fmt::Write as _;

use super::report::{CheckReport, Failure, SuiteReport, Verdict};
use crate::output::junit::{Outcome, TestCase, TestSuite, TestSuites, hostname, timestamp_now};

/// The message of a failing check: its diagnoses and the first reproducer.
fn failure_message(c: &CheckReport) -> String {
    let mut msg = format!("{} of {} positions failed", c.failures, c.positions);
    for d in &c.diagnoses {
        let _ = write!(msg, "\n{} ({}x)", d.line, d.count);
    }
    let first = c
        .diagnoses
        .first()
        .map(|d| &d.reproducer)
        .or(c.first_failures.first());
    if let Some(f) = first {
        let _ = write!(
            msg,
            "\n{}: expected {}, got {}\nreproduce:\n{}",
            f.label,
            f.expected,
            f.got,
            f.reproduce.join("\n")
        );
    }
    msg
}

fn failure_text(f: &Failure) -> String {
    let mut t = format!(
        "{}\nfen: {}\nexpected: {}\ngot: {}\n",
        f.label, f.fen, f.expected, f.got
    );
    if let Some(d) = f.diagnosis {
        let _ = writeln!(t, "diagnosis: {d}");
    }
    t.push_str("reproduce:\n");
    for line in &f.reproduce {
        let _ = writeln!(t, "  {line}");
    }
    t
}

/// The JUnit document for one or more runs.
pub fn junit(runs: &[SuiteReport]) -> TestSuites {
    let timestamp = timestamp_now();
    let host = hostname();
    let suites = runs
        .iter()
        .map(|r| {
            let name = r.title();
            TestSuite {
                package: "castling-test".into(),
                hostname: host.clone(),
                timestamp: timestamp.clone(),
                seconds: r.seconds,
                properties: [
                    ("engine", r.engine.clone()),
                    ("through_proxy", r.through_proxy.to_string()),
                    ("perft_depth", r.perft_depth.to_string()),
                    ("search_depth", r.search_depth.to_string()),
                ]
                .map(|(k, v)| (k.to_string(), v))
                .to_vec(),
                cases: r
                    .checks
                    .iter()
                    .map(|c| TestCase {
                        name: c.check.to_string(),
                        classname: format!("castling-test.{name}"),
                        seconds: c.seconds,
                        outcome: outcome(c),
                    })
                    .collect(),
                name,
            }
        })
        .collect();
    TestSuites {
        name: "uci960 castling-test".into(),
        suites,
    }
}

fn outcome(c: &CheckReport) -> Outcome {
    match &c.verdict {
        Verdict::Pass => Outcome::Passed,
        Verdict::Skip(reason) => Outcome::Skipped {
            message: reason.clone(),
        },
        Verdict::Fail => Outcome::Failed {
            message: failure_message(c),
            kind: c
                .diagnoses
                .first()
                .map(|d| d.diagnosis.name())
                .unwrap_or_else(|| "wrong-answer".into()),
            text: c
                .first_failures
                .iter()
                .map(failure_text)
                .collect::<Vec<_>>()
                .join("\n"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::diagnosis::Diagnosis;
    use crate::conformance::report::{CheckName, CheckTally};

    #[test]
    fn a_failing_check_carries_its_diagnosis_and_reproducer() {
        let mut t = CheckTally::new(CheckName::ForcedCastle);
        t.fail(
            Failure::wrong(
                "x",
                "8/8/8/8/8/8/8/K6k w - - 0 1",
                vec!["position startpos".into()],
                "e1h1",
                "e1g1",
            )
            .diagnosed(Diagnosis::KingTwoSquares),
        );
        let run = SuiteReport {
            engine: "Alpha".into(),
            castles: crate::notation::castling::CastlingNotation::KingTakesRook,
            through_proxy: true,
            perft_depth: 3,
            search_depth: 2,
            seconds: 1.0,
            checks: vec![
                t.finish(0.5),
                CheckReport::skipped(CheckName::PerftStart, "no perft"),
            ],
        };
        let doc = junit(&[run]);
        let suite = &doc.suites[0];
        assert_eq!(suite.name, "Alpha through uci960 proxy");
        assert_eq!(suite.properties[1], ("through_proxy".into(), "true".into()));
        assert_eq!(
            suite.cases[0].classname,
            "castling-test.Alpha through uci960 proxy"
        );
        let Outcome::Failed {
            message,
            kind,
            text,
        } = &suite.cases[0].outcome
        else {
            panic!("{:?}", suite.cases[0].outcome)
        };
        assert_eq!(kind, "king-two-squares");
        assert!(
            message.starts_with("1 of 1 positions failed\n"),
            "{message}"
        );
        assert!(
            message.contains("x: expected e1h1, got e1g1\nreproduce:\nposition startpos"),
            "{message}"
        );
        assert!(text.contains("diagnosis: "), "{text}");
        assert_eq!(
            suite.cases[1].outcome,
            Outcome::Skipped {
                message: "no perft".into()
            }
        );
    }
}
