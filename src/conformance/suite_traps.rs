//! The castle-traps check: the positions of [`traps`](super::traps), each
//! asked with `go depth N` (the castle must be played, or must not be)
//! and, when the engine has perft, with `go perft 1` (the castle must be
//! listed, or must not be). Depth 1 whatever `--depth` says: the positions
//! are made so that the bug shows at the root, so every perft depth
//! catches it. Failures are named by the cause tests of the perft
//! drill-down and of the bestmove checks; a layout category only when no
//! cause test fits.

use super::answer::{castle_notations, is_legal_any_notation};
use super::diagnosis::Diagnosis;
use super::perft::reference_divide;
use super::report::{CheckName, CheckReport, Failure};
use super::suite::Run;
use super::suite_bestmove::Expect;
use super::suite_perft::{Level, analyse};
use super::traps::{Trap, TrapKind};
use crate::notation::fen::position_fen;

impl Run<'_> {
    pub(super) fn traps(&mut self, traps: &[Trap], perft: bool) -> CheckReport {
        let (mut tally, started) = self.begin(CheckName::CastleTraps);
        let mut left = 0;
        for (i, t) in traps.iter().enumerate() {
            if self.giving_up() {
                left = traps.len() - i;
                break;
            }
            // The trap's castle and every legal castle of the position
            // (for the divide) must have their form in the engine's notation.
            let speech = self.speech();
            let sayable = speech.castle(&t.position, t.castle).and_then(|said| {
                speech.readable(&t.position)?;
                Ok((said, self.line(&t.position, &[])?))
            });
            let (said, position) = match sayable {
                Ok(both) => both,
                Err(why) => {
                    tally.skip(why);
                    self.tick();
                    continue;
                }
            };
            let fen = position_fen(&t.position, self.options.fen);
            let label = t.label();
            let (kxr, standard) = castle_notations(t.castle);
            let go = self.go();
            let expect = if t.castle_expected() {
                Expect::Castle(t.castle)
            } else {
                Expect::Legal
            };
            let expected = match t.kind {
                TrapKind::ThroughRookSquare => format!(
                    "any legal move but {said}: the king would stand in check once the rook has left its square"
                ),
                TrapKind::OuterRight => format!(
                    "any legal move but {said}: the right is the outer rook's, and the inner rook blocks it"
                ),
                TrapKind::AttackedRook => {
                    format!("{said}, the castle (forced; legal although the rook stands attacked)")
                }
                TrapKind::InnerRight => {
                    format!("{said}, the castle (forced; the right is the inner rook's)")
                }
            };
            match self.ask(&position) {
                Err(err) => {
                    let f = self.engine_failure(
                        &label,
                        fen.clone(),
                        self.reproduce(&position, &go),
                        &err,
                    );
                    tally.fail(f);
                }
                Ok(answer) if expect.met(&t.position, &answer) => tally.pass(),
                Ok(answer) => {
                    let legal = is_legal_any_notation(&t.position, &answer);
                    let castled = answer == kxr || answer == standard;
                    let fallback = if legal {
                        Diagnosis::MissesForcedCastle
                    } else {
                        Diagnosis::IllegalMove
                    };
                    let d =
                        self.name_answer(&t.position, &[], &t.position, expect, &answer, fallback);
                    let got = match (legal, castled) {
                        (_, true) => format!("{answer} (the illegal castle)"),
                        (true, false) => format!("{answer} (legal, but not the castle)"),
                        (false, false) => format!("{answer} (not a legal move)"),
                    };
                    let f = Failure::wrong(
                        &label,
                        fen.clone(),
                        self.reproduce(&position, &go),
                        expected.clone(),
                        got,
                    );
                    tally.fail_dfrc(f.diagnosed(d), t.dfrc);
                }
            }
            if perft {
                let go = "go perft 1";
                let reference = reference_divide(&t.position, 1);
                let failure = |run: &Run, got: String| {
                    Failure::wrong(
                        &label,
                        fen.clone(),
                        run.reproduce(&position, go),
                        format!(
                            "{} legal moves, {} {kxr}",
                            reference.total,
                            if t.castle_expected() {
                                "among them"
                            } else {
                                "without"
                            }
                        ),
                        got,
                    )
                };
                match self.divide(&position, &t.position, 1) {
                    Err(err) => {
                        let f = self.engine_failure(
                            &label,
                            fen.clone(),
                            self.reproduce(&position, go),
                            &err,
                        );
                        tally.fail(f);
                    }
                    Ok(None) => tally.fail_dfrc(
                        failure(self, "no divide".into()).diagnosed(Diagnosis::Unreadable),
                        t.dfrc,
                    ),
                    Ok(Some(divide)) => match analyse(&t.position, &reference, &divide) {
                        Level::Agrees => tally.pass(),
                        Level::Found {
                            diagnosis,
                            text,
                            mv,
                            missing,
                        } => {
                            let d = self.perft_cause(
                                &t.position,
                                &[],
                                &t.position,
                                diagnosis,
                                &mv,
                                missing,
                            );
                            tally.fail_dfrc(failure(self, text).diagnosed(d), t.dfrc);
                        }
                        Level::Descend { text, .. } | Level::Total { text } => tally.fail_dfrc(
                            failure(self, text).diagnosed(Diagnosis::PerftCountsInconsistent),
                            t.dfrc,
                        ),
                    },
                }
            }
            self.tick();
        }
        let count = |kind: TrapKind| traps.iter().filter(|t| t.kind == kind).count();
        tally.note(format!(
            "{} positions made for known engine bugs ({} through-rook-square, {} attacked-rook, {} inner-right, {} outer-right), {}",
            traps.len(),
            count(TrapKind::ThroughRookSquare),
            count(TrapKind::AttackedRook),
            count(TrapKind::InnerRight),
            count(TrapKind::OuterRight),
            if perft {
                "bestmove and perft 1 each"
            } else {
                "bestmove only (no perft)"
            }
        ));
        self.finish(tally, started, left)
    }
}
