//! The suite against the in-process test engine: a correct engine passes
//! every check, each bug is caught by its check.

use super::diagnosis::{Diagnosis, FailureKind};
use super::report::{CheckName, SuiteReport, Verdict};
use super::suite::{Material, SuiteOptions, run};
use super::test_engine::{Bug, TestEngine};

fn material_and_options() -> (Material, SuiteOptions) {
    let options = SuiteOptions {
        perft_depth: 2,
        search_depth: 2,
        only: None,
        dfrc_positions: 20,
        fen: crate::notation::fen::FenFlavour::Shredder,
        skip_dfrc: false,
        fail_fast: false,
        castles: crate::notation::castling::CastlingNotation::KingTakesRook,
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
    let mut engine = TestEngine::new(bug);
    run(&mut engine, &material, &options, &mut |_| {})
}

fn diagnoses(report: &SuiteReport) -> Vec<Diagnosis> {
    report.diagnoses().iter().map(|d| d.diagnosis).collect()
}

#[test]
fn correct_engine_passes_everything() {
    let report = run_bug(Bug::None);
    assert_eq!(report.checks.len(), CheckName::ALL.len());
    for (check, verdict) in verdicts(&report) {
        assert_eq!(verdict, Verdict::Pass, "{check}: {}", report.render());
    }
    assert!(!report.failed());
}

#[test]
fn each_bug_is_caught_by_its_check() {
    use CheckName::*;
    let expect = [
        (
            Bug::KingSquares,
            vec![PerftMidgame, CastleNotation, CastleTraps],
        ),
        (Bug::KeepsLostRights, vec![RightsTracking]),
        (Bug::DropsMovesAtCastle, vec![MovesListCastle]),
        (
            Bug::PerftMissesBFileCastles,
            vec![PerftMidgame, CastleTraps],
        ),
        (Bug::NoChess960, vec![DeclaresChess960]),
        (Bug::NoPerft, vec![]),
        (Bug::LeaksState, vec![HiddenState]),
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

/// The engine writes castles as the king's two-square move, in bestmove
/// and in its divide (listing `f1g1` twice with the king on f1): every
/// check runs, and the one diagnosis found is the notation.
#[test]
fn king_squares_runs_every_check_and_names_the_notation() {
    let report = run_bug(Bug::KingSquares);
    assert!(
        report
            .checks
            .iter()
            .all(|c| !matches!(&c.verdict, Verdict::Skip(_))),
        "{}",
        report.render()
    );
    assert_eq!(
        diagnoses(&report),
        [Diagnosis::KingTwoSquares],
        "{}",
        report.render()
    );
    let text = report.render();
    assert!(text.contains("diagnoses (1 distinct"), "{text}");
    assert!(text.contains("king's two-square move"), "{text}");
}

#[test]
fn each_bug_has_its_own_diagnosis() {
    let expect = [
        (Bug::KeepsLostRights, Diagnosis::KeepsLostRights),
        (Bug::DropsMovesAtCastle, Diagnosis::DropsMovesAtCastle),
        (Bug::NoChess960, Diagnosis::NoChess960Option),
        (Bug::LeaksState, Diagnosis::StateLeaksWithoutNewGame),
    ];
    for (bug, diagnosis) in expect {
        let report = run_bug(bug);
        assert_eq!(
            diagnoses(&report),
            [diagnosis],
            "{bug:?}:\n{}",
            report.render()
        );
    }
    // A bug no cause test knows is named by the layout of the missing
    // castles: the b-file king's castles, one of them onto its own rook's
    // square (K b1, R g1).
    let report = run_bug(Bug::PerftMissesBFileCastles);
    let found = diagnoses(&report);
    assert!(
        found.contains(&Diagnosis::PerftMissesLegalCastle)
            && found.iter().all(|d| [
                Diagnosis::PerftMissesLegalCastle,
                Diagnosis::PerftRookOnKingSquare
            ]
            .contains(d)),
        "{}",
        report.render()
    );
    // Where the probe cannot keep the moves legal (a DFRC list in which
    // the other side castles), a misread field looks like a dropped castle.
    let report = run_bug(Bug::ShredderMisread);
    let found = diagnoses(&report);
    assert_eq!(
        found[0],
        Diagnosis::ShredderFieldMisread,
        "{}",
        report.render()
    );
    assert!(
        found.iter().all(|d| [
            Diagnosis::ShredderFieldMisread,
            Diagnosis::DropsMovesAtCastle
        ]
        .contains(d)),
        "{}",
        report.render()
    );
}

/// An engine that exits now and then: restarted, every check runs, the
/// crashes are counted per check; with fail_fast the run stops.
#[test]
fn crashes_are_counted_and_the_run_goes_on() {
    let (material, options) = material_and_options();
    let mut engine = TestEngine::new(Bug::Crashes);
    let report = run(&mut engine, &material, &options, &mut |_| {});
    assert!(engine.restarts > 10, "{}", engine.restarts);
    let forced = report.check(CheckName::ForcedCastle).unwrap();
    assert_eq!(forced.kinds.crash, forced.failures, "{}", report.render());
    assert!(forced.kinds.crash > 10);
    assert!(
        forced
            .first_failures
            .iter()
            .all(|f| f.kind == FailureKind::Crash)
    );
    for c in [
        CheckName::RightsTracking,
        CheckName::MovesListCastle,
        CheckName::HiddenState,
    ] {
        assert!(report.check(c).unwrap().positions > 0, "{c}");
    }
    assert_eq!(diagnoses(&report), [Diagnosis::Crash]);

    let options = super::suite::SuiteOptions {
        fail_fast: true,
        ..options
    };
    let mut engine = TestEngine::new(Bug::Crashes);
    let report = run(&mut engine, &material, &options, &mut |_| {});
    assert_eq!(engine.restarts, 0);
    let forced = report.check(CheckName::ForcedCastle).unwrap();
    assert_eq!(forced.failures, 1);
    assert!(forced.not_run > 0);
    assert!(matches!(
        &report.check(CheckName::MovesListCastle).unwrap().verdict,
        Verdict::Skip(r) if r.contains("stops at its first engine failure")
    ));
}

fn run_bug_at(bug: Bug, depth: u32) -> SuiteReport {
    let (material, mut options) = material_and_options();
    options.perft_depth = depth;
    let mut engine = TestEngine::new(bug);
    run(&mut engine, &material, &options, &mut |_| {})
}

/// Every failure of every check carries a diagnosis, so that the summary
/// adds up to the failure count.
fn assert_every_failure_diagnosed(report: &SuiteReport) {
    for c in &report.checks {
        let named: usize = c.diagnoses.iter().map(|d| d.count).sum();
        assert_eq!(named, c.failures, "{}: {}", c.check, report.render());
    }
}

/// The castling bugs real engines shipped, each caught by the castle
/// traps at perft depth 1 and 2 and named by its cause, and nothing else.
#[test]
fn castling_bugs_of_real_engines_are_named_by_their_cause_at_every_depth() {
    let expect = [
        (
            Bug::ThroughRookSquare,
            Diagnosis::CastlesIntoCheckThroughRookSquare,
        ),
        (
            Bug::RefusesAttackedRook,
            Diagnosis::RefusesCastleWithAttackedRook,
        ),
        (Bug::InnerRookMisread, Diagnosis::InnerRookRightMisread),
        (Bug::NullAtCastles, Diagnosis::SeesNoLegalMove),
    ];
    for depth in [1, 2] {
        for (bug, diagnosis) in expect {
            let report = run_bug_at(bug, depth);
            assert!(
                failing(&report).contains(&CheckName::CastleTraps),
                "{bug:?} depth {depth}:\n{}",
                report.render()
            );
            assert_eq!(
                diagnoses(&report),
                [diagnosis],
                "{bug:?} depth {depth}:\n{}",
                report.render()
            );
            assert_every_failure_diagnosed(&report);
        }
    }
    // The correct engine passes the traps too.
    let report = run_bug_at(Bug::None, 1);
    assert_eq!(
        report.check(CheckName::CastleTraps).map(|c| &c.verdict),
        Some(&Verdict::Pass)
    );
}

/// Every failure is named whatever the bug, engine failures included.
#[test]
fn every_failure_carries_a_diagnosis() {
    for bug in [
        Bug::KingSquares,
        Bug::KeepsLostRights,
        Bug::DropsMovesAtCastle,
        Bug::PerftMissesBFileCastles,
        Bug::ShredderMisread,
        Bug::LeaksState,
        Bug::Crashes,
    ] {
        assert_every_failure_diagnosed(&run_bug(bug));
    }
}

fn run_declared(bug: Bug, castles: crate::notation::castling::CastlingNotation) -> SuiteReport {
    let (material, mut options) = material_and_options();
    options.castles = castles;
    let mut engine = TestEngine::new(bug);
    run(&mut engine, &material, &options, &mut |_| {})
}

/// An engine that writes and reads castles as the king's two-square move,
/// declared so (`castles=standard`): the suite speaks its notation, the
/// notation checks no longer blame it, and the positions whose castle has
/// no unambiguous form that way are skipped with the reason, never failed.
#[test]
fn declared_standard_notation_is_spoken_and_not_blamed() {
    use crate::notation::castling::CastlingNotation::KingTwoSquares;
    let report = run_declared(Bug::KingSquares, KingTwoSquares);
    assert!(!report.failed(), "{}", report.render());
    assert!(diagnoses(&report).is_empty(), "{}", report.render());
    let notation = report.check(CheckName::CastleNotation).unwrap();
    assert_eq!(notation.verdict, Verdict::Pass, "{}", report.render());
    assert!(notation.positions > 0 && notation.skipped > 0);
    assert!(
        notation
            .note
            .as_deref()
            .is_some_and(|n| n.contains("positions skipped") && n.contains("castles=standard")),
        "{:?}",
        notation.note
    );
    // The moves lists went out in the engine's notation and were read.
    let moves = report.check(CheckName::MovesListCastle).unwrap();
    assert!(moves.positions > 0, "{}", report.render());
    let text = report.render();
    assert!(text.contains("(castles=standard)"), "{text}");
    assert!(
        text.contains("castles sent and read as the king's two-square move"),
        "{text}"
    );
    assert_eq!(report.to_json()["castles"], "standard");
    // Undeclared, the same engine is the notation bug.
    let undeclared = run_bug(Bug::KingSquares);
    assert_eq!(diagnoses(&undeclared), [Diagnosis::KingTwoSquares]);
}

/// Declared standard, an engine that writes king takes rook after all is
/// the deviation from the declaration, not `king-two-squares`.
#[test]
fn king_takes_rook_against_a_standard_declaration_is_named_so() {
    use crate::notation::castling::CastlingNotation::KingTwoSquares;
    let report = run_declared(Bug::None, KingTwoSquares);
    let notation = report.check(CheckName::CastleNotation).unwrap();
    assert_eq!(notation.verdict, Verdict::Fail, "{}", report.render());
    assert!(
        notation
            .diagnoses
            .iter()
            .all(|d| d.diagnosis == Diagnosis::CastlesNotAsDeclared),
        "{}",
        report.render()
    );
    assert!(!diagnoses(&report).contains(&Diagnosis::KingTwoSquares));
}
