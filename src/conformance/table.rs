//! Several runs side by side: one table, a row per check and a column per
//! engine (`--engine A --engine B`), and for `--through-proxy` what the
//! proxy changes per check: repaired, not repaired (and why, from the
//! diagnoses), or broken by the proxy. Built as [`Table`]s, laid out by
//! the output room.

use std::fmt::Write as _;

use super::report::{CheckName, CheckReport, SuiteReport, Verdict};
use crate::output::{Column, Table};

/// `pass`, `FAIL 3/114`, `skip`, or `-` when the check was not selected.
fn cell(c: Option<&CheckReport>) -> String {
    match c {
        None => "-".into(),
        Some(c) => match &c.verdict {
            Verdict::Pass => "pass".into(),
            Verdict::Fail => format!("FAIL {}/{}", c.failures, c.positions),
            Verdict::Skip(_) => "skip".into(),
        },
    }
}

fn checks_of(runs: &[&SuiteReport]) -> Vec<CheckName> {
    CheckName::ALL
        .into_iter()
        .filter(|n| runs.iter().any(|r| r.check(*n).is_some()))
        .collect()
}

/// The table with a column per run, then each run's distinct diagnoses.
pub fn engines_table(runs: &[&SuiteReport]) -> String {
    let titles: Vec<String> = runs.iter().map(|r| r.title()).collect();
    let mut columns = vec![Column::left("check", 19)];
    for t in &titles {
        columns.push(Column::left(t.as_str(), t.chars().count().max(11)).after("  "));
    }
    let mut table = Table::new(columns);
    for check in checks_of(runs) {
        let mut row = vec![check.as_str().to_string()];
        row.extend(runs.iter().map(|r| cell(r.check(check))));
        table.push(row);
    }
    let mut row = vec!["seconds".to_string()];
    row.extend(runs.iter().map(|r| format!("{:.1}", r.seconds)));
    table.push(row);
    let mut out = table.render();
    for (r, title) in runs.iter().zip(&titles) {
        let diagnoses = r.diagnoses();
        if diagnoses.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{title}:");
        for d in diagnoses {
            let _ = writeln!(out, "  - {} ({}x)", d.line, d.count);
        }
    }
    out
}

/// What the proxy did to one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProxyEffect {
    BothPass,
    Repaired,
    NotRepaired(String),
    Broken,
    /// Skipped on at least one side, or otherwise not comparable.
    Other(String),
}

/// Why the proxy cannot repair a failing check: its diagnoses' reasons.
fn why_not(c: &CheckReport) -> String {
    let mut reasons: Vec<String> = Vec::new();
    for d in &c.diagnoses {
        let (repairable, how) = d.diagnosis.proxy_repair();
        let text = if repairable {
            format!(
                "{}: repairable in principle ({how}), but still failing",
                d.diagnosis.name()
            )
        } else {
            format!("{}: {how}", d.diagnosis.name())
        };
        if !reasons.contains(&text) {
            reasons.push(text);
        }
    }
    if reasons.is_empty() {
        "not repaired".into()
    } else {
        reasons.join("; ")
    }
}

/// Compares one check direct and through the proxy.
pub fn proxy_effect(direct: Option<&CheckReport>, proxied: Option<&CheckReport>) -> ProxyEffect {
    let (Some(d), Some(p)) = (direct, proxied) else {
        return ProxyEffect::Other("not run on both sides".into());
    };
    match (&d.verdict, &p.verdict) {
        (Verdict::Pass, Verdict::Pass) => ProxyEffect::BothPass,
        (Verdict::Fail, Verdict::Pass) => ProxyEffect::Repaired,
        (Verdict::Fail, Verdict::Fail) => ProxyEffect::NotRepaired(why_not(p)),
        // The direct run could not ask what the declared notation cannot
        // write: a failure through the proxy may be one of those positions.
        (Verdict::Pass, Verdict::Fail) if d.skipped > 0 => ProxyEffect::Other(format!(
            "passes direct with {} positions skipped (declared castling notation); fails through the proxy",
            d.skipped
        )),
        (Verdict::Pass, Verdict::Fail) => ProxyEffect::Broken,
        (Verdict::Fail, Verdict::Skip(why)) => {
            ProxyEffect::Other(format!("fails direct, skipped through the proxy ({why})"))
        }
        (Verdict::Skip(_), Verdict::Skip(_)) => ProxyEffect::Other("skipped both ways".into()),
        (Verdict::Skip(_), _) => ProxyEffect::Other("skipped direct".into()),
        (_, Verdict::Skip(why)) => ProxyEffect::Other(format!("skipped through the proxy ({why})")),
    }
}

/// The per-check comparison of a direct run and a run through the proxy.
pub fn proxy_table(direct: &SuiteReport, proxied: &SuiteReport) -> String {
    let mut table = Table::new(vec![
        Column::left("check", 19),
        Column::left("direct", 14).after("  "),
        Column::left("through proxy", 14).after("  "),
        Column::left("proxy", 0).after("  "),
    ]);
    for check in checks_of(&[direct, proxied]) {
        let (d, p) = (direct.check(check), proxied.check(check));
        let effect = match proxy_effect(d, p) {
            ProxyEffect::BothPass => "-".to_string(),
            ProxyEffect::Repaired => "REPAIRED".to_string(),
            ProxyEffect::NotRepaired(why) => {
                let (d, p) = (
                    d.map_or(&[][..], |c| &c.failed_labels[..]),
                    p.map_or(&[][..], |c| &c.failed_labels[..]),
                );
                let repaired = d.iter().filter(|l| !p.contains(l)).count();
                let broken = p.iter().filter(|l| !d.contains(l)).count();
                format!(
                    "not repaired ({repaired} positions repaired, {broken} newly failing): {why}"
                )
            }
            ProxyEffect::Broken => "BROKEN by the proxy".to_string(),
            ProxyEffect::Other(why) => why,
        };
        table.push(vec![check.as_str().to_string(), cell(d), cell(p), effect]);
    }
    format!(
        "what `uci960 proxy` changes for {}:\n{}",
        direct.engine,
        table.render()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::diagnosis::Diagnosis;
    use crate::conformance::report::{CheckTally, Failure};

    fn report(engine: &str, fail: bool, d: Diagnosis) -> SuiteReport {
        let mut t = CheckTally::new(CheckName::ForcedCastle);
        if fail {
            t.fail(
                Failure::wrong("x", "8/8/8/8/8/8/8/K6k w - - 0 1", vec![], "a", "b").diagnosed(d),
            );
        } else {
            t.pass();
        }
        SuiteReport {
            engine: engine.into(),
            castles: crate::notation::castling::CastlingNotation::KingTakesRook,
            through_proxy: false,
            perft_depth: 3,
            search_depth: 3,
            seconds: 1.0,
            checks: vec![
                t.finish(0.1),
                CheckReport::skipped(CheckName::PerftStart, "no perft"),
            ],
        }
    }

    #[test]
    fn table_has_a_column_per_engine_and_proxy_effects_are_named() {
        let a = report("Alpha", false, Diagnosis::KingTwoSquares);
        let b = report("Beta", true, Diagnosis::KeepsLostRights);
        let t = engines_table(&[&a, &b]);
        let row = t.lines().find(|l| l.starts_with("forced-castle")).unwrap();
        assert!(row.contains("pass") && row.contains("FAIL 1/1"), "{t}");
        assert!(t.lines().next().unwrap().contains("Alpha"), "{t}");
        assert!(t.contains("castling rights kept"), "{t}");

        assert_eq!(
            proxy_effect(
                b.check(CheckName::ForcedCastle),
                a.check(CheckName::ForcedCastle)
            ),
            ProxyEffect::Repaired
        );
        match proxy_effect(
            b.check(CheckName::ForcedCastle),
            b.check(CheckName::ForcedCastle),
        ) {
            ProxyEffect::NotRepaired(why) => assert!(why.contains("cannot repair"), "{why}"),
            other => panic!("{other:?}"),
        }
        let mut p = b.clone();
        p.through_proxy = true;
        let t = proxy_table(&b, &p);
        assert!(
            t.contains("not repaired (0 positions repaired, 0 newly failing): keeps-lost-rights"),
            "{t}"
        );
    }
}
