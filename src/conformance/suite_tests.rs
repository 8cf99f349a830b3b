//! The suite against the in-process test engine: a correct engine passes
//! every check, each bug is caught by its check.

use super::report::{CheckName, SuiteReport, Verdict};
use super::suite::{Material, Options, run};
use super::test_engine::{Bug, TestEngine};

fn material_and_options() -> (Material, Options) {
    let options = Options {
        perft_depth: 2,
        search_depth: 2,
        only: None,
        dfrc_positions: 20,
        fen: crate::notation::fen::FenFlavour::Shredder,
        skip_dfrc: false,
    };
    let mut material = Material::generate(&options);
    // Keep the unit test quick: a slice of each perft set.
    material.starts.truncate(120);
    (material, options)
}

fn verdicts(report: &SuiteReport) -> Vec<(CheckName, Verdict)> {
    report
        .checks
        .iter()
        .map(|c| (c.check, c.verdict.clone()))
        .collect()
}

fn failing(report: &SuiteReport) -> Vec<CheckName> {
    report
        .checks
        .iter()
        .filter(|c| c.verdict == Verdict::Fail)
        .map(|c| c.check)
        .collect()
}

fn run_bug(bug: Bug) -> SuiteReport {
    let (material, options) = material_and_options();
    let mut engine = TestEngine { bug };
    run(&mut engine, &material, &options, &mut |_| {})
}

#[test]
fn correct_engine_passes_everything() {
    let report = run_bug(Bug::None);
    assert_eq!(report.checks.len(), 8);
    for (check, verdict) in verdicts(&report) {
        assert_eq!(verdict, Verdict::Pass, "{check}: {}", report.render());
    }
    assert!(!report.failed());
}

#[test]
fn each_bug_is_caught_by_its_check() {
    use CheckName::*;
    let expect = [
        (Bug::KingSquares, vec![CastleNotation]),
        (Bug::KeepsLostRights, vec![RightsTracking]),
        (Bug::DropsMovesAtCastle, vec![MovesListCastle]),
        (Bug::PerftMissesBFileCastles, vec![PerftMidgame]),
        (Bug::NoChess960, vec![DeclaresChess960]),
        (Bug::NoPerft, vec![]),
    ];
    for (bug, checks) in expect {
        let report = run_bug(bug);
        let failed = failing(&report);
        assert_eq!(failed, checks, "{bug:?}:\n{}", report.render());
    }
}

#[test]
fn skips_say_why() {
    let report = run_bug(Bug::NoPerft);
    let perft = &report.checks[1];
    assert!(matches!(&perft.verdict, Verdict::Skip(r) if r.contains("go perft")));
    let report = run_bug(Bug::NoChess960);
    for c in &report.checks[1..] {
        assert!(
            matches!(&c.verdict, Verdict::Skip(r) if r.contains("does not apply")),
            "{:?}",
            c.verdict
        );
    }
}

#[test]
fn king_squares_failure_carries_a_reproducer() {
    let report = run_bug(Bug::KingSquares);
    let notation = report
        .checks
        .iter()
        .find(|c| c.check == CheckName::CastleNotation)
        .unwrap();
    let f = &notation.first_failures[0];
    assert!(f.got.contains("standard-UCI"), "{}", f.got);
    assert!(f.reproduce.iter().any(|l| l.starts_with("position fen ")));
    assert_eq!(f.reproduce.last().map(String::as_str), Some("go depth 2"));
    // The forced-castle check itself passes: the engine did castle.
    let forced = report
        .checks
        .iter()
        .find(|c| c.check == CheckName::ForcedCastle)
        .unwrap();
    assert_eq!(forced.verdict, Verdict::Pass);
}
