//! The bestmove checks: forced castles (and their notation), rights
//! tracking, castles in the `moves` list. Each wrong answer gets a
//! diagnosis; one that might come from a misread castling field is asked
//! again with a field the engine cannot misread (only the side to move's
//! rights for Shredder-FEN, Shredder-FEN for X-FEN), and when the engine
//! then answers right, the misreading is the diagnosis.

use shakmaty::{Chess, Move, Position};

use super::answer::{Answer, castle_notations, classify, is_legal, is_legal_any_notation};
use super::causes::{self, CastleSquares};
use super::diagnosis::{Diagnosis, files_differ, rights_of_only, xfen_misreadable};
use super::forced::{Crafted, Forcing};
use super::moves_list::{MovesListScenario, misapplied_positions};
use super::perft::reference_divide;
use super::report::{CheckName, CheckReport, CheckTally, Failure, Verdict};
use super::rights::{RightsScenario, play_all as replay};
use super::sketch::{castle_is_only_mate, castle_is_only_move};
use super::suite::{Run, uci};
use super::suite_perft::{Level, analyse};
use crate::notation::fen::{FenFlavour, position_fen};

impl Run<'_> {
    /// The query that would confirm a misread castling field for the
    /// line `start` + `moves`: the same question with a field the engine
    /// cannot misread. For Shredder-FEN, the start keeps only the castling
    /// rights of the side that answers (when the moves still play without
    /// the others'), so that the files cannot differ between the colours
    /// while the game and its history stay the same; for X-FEN, the same
    /// line in Shredder-FEN. The diagnosis it would confirm, the line, and
    /// the position it reaches.
    pub(super) fn field_probe(
        &self,
        start: &Chess,
        moves: &[Move],
    ) -> Option<(Diagnosis, String, Chess)> {
        let replay = |from: &Chess| replay(from, moves);
        let end = replay(start)?;
        match self.options.fen {
            FenFlavour::Shredder if files_differ(start) => {
                let stripped = rights_of_only(start, end.turn())?;
                let end = replay(&stripped)?;
                let line = self.line_in(FenFlavour::Shredder, &stripped, moves).ok()?;
                Some((Diagnosis::ShredderFieldMisread, line, end))
            }
            FenFlavour::XFen if xfen_misreadable(start) => {
                let line = self.line_in(FenFlavour::Shredder, start, moves).ok()?;
                Some((Diagnosis::XfenAmbiguityMisread, line, end))
            }
            _ => None,
        }
    }

    /// Asks the probe of [`Run::field_probe`]; the misreading when the
    /// engine then answers right.
    fn confirm_misread(
        &mut self,
        start: &Chess,
        moves: &[Move],
        right: impl Fn(&str) -> bool,
    ) -> Option<Diagnosis> {
        let (diagnosis, line, _) = self.field_probe(start, moves)?;
        let answer = self.ask(&line).ok()?;
        right(&answer).then_some(diagnosis)
    }

    /// The cause probes of a wrong bestmove to `start` + `moves` (ending
    /// in `end`): asked again with the outer rook of a shared wing taken
    /// off, then (for a castle that must be played) with its rook's
    /// attackers taken off. The cause when the engine then answers right:
    /// the same bestmove question where the castle stays forced in the
    /// probe; else, for an engine with perft, `go perft 1` wrong before and
    /// right in the probe (a bestmove that is not forced says nothing).
    fn confirm_cause(
        &mut self,
        start: &Chess,
        moves: &[Move],
        end: &Chess,
        expect: Expect,
        answer: &str,
    ) -> Option<Diagnosis> {
        let before = self.line(start, moves).ok()?;
        // A castle played with the rook that has the right was read right.
        let right_read = causes::castle_named(end, answer).is_some_and(|c| {
            CastleSquares::of(c).is_some_and(|sq| end.castles().castling_rights().contains(sq.rook))
        });
        if !right_read
            && let Some(probe) = causes::without_outer_rooks(start, end.turn())
            && let Some(probe_end) = replay(&probe, moves)
            && let Ok(line) = self.line(&probe, moves)
            && self.answered_right(&line, &probe_end, expect, &before, end)
        {
            return Some(Diagnosis::InnerRookRightMisread);
        }
        if let Expect::Castle(castle) = expect
            && causes::rook_attacked(end, castle)
            && let Some(probe) = causes::without_rook_attackers(end, castle)
            && let Ok(line) = self.line(&probe, &[])
            && self.answered_right(&line, &probe, expect, &before, end)
        {
            return Some(Diagnosis::RefusesCastleWithAttackedRook);
        }
        None
    }

    /// Whether the engine answers the probe `line` (reaching `probe`)
    /// right: see [`Run::confirm_cause`].
    fn answered_right(
        &mut self,
        line: &str,
        probe: &Chess,
        expect: Expect,
        before: &str,
        end: &Chess,
    ) -> bool {
        if let Some(expect) = expect.in_probe(probe) {
            return self.ask(line).is_ok_and(|a| expect.met(probe, &a));
        }
        if !self.has_perft {
            return false;
        }
        let agrees = |run: &mut Self, line: &str, pos: &Chess| {
            run.speech().readable(pos).is_ok()
                && match run.divide(line, pos, 1) {
                    Ok(Some(divide)) => {
                        analyse(pos, &reference_divide(pos, 1), &divide) == Level::Agrees
                    }
                    _ => false,
                }
        };
        !agrees(self, before, end) && agrees(self, line, probe)
    }

    /// The diagnosis of a wrong `answer` to `start` + `moves`: a misread
    /// castling field or another cause confirmed by a probe; else what the
    /// answer shows by itself (no move at all, a castle into check through
    /// the rook's square); else `fallback`.
    pub(super) fn name_answer(
        &mut self,
        start: &Chess,
        moves: &[Move],
        end: &Chess,
        expect: Expect,
        answer: &str,
        fallback: Diagnosis,
    ) -> Diagnosis {
        // The causes read castles king-takes-rook.
        let answer = &self.speech().as_kxr(end, answer);
        if let Some(d) = self.confirm_misread(start, moves, |a| expect.met(end, a)) {
            return d;
        }
        if let Some(d) = self.confirm_cause(start, moves, end, expect, answer) {
            return d;
        }
        if causes::is_null_answer(answer) && !end.legal_moves().is_empty() {
            return Diagnosis::SeesNoLegalMove;
        }
        if causes::castle_named(end, answer)
            .is_some_and(|c| causes::into_check_through_rook_square(end, c))
        {
            return Diagnosis::CastlesIntoCheckThroughRookSquare;
        }
        fallback
    }

    /// forced-castle and castle-notation share one query per position.
    pub(super) fn forced(&mut self, forced: &[Crafted]) -> (CheckReport, CheckReport) {
        let check = if self.options.wants(CheckName::ForcedCastle) {
            CheckName::ForcedCastle
        } else {
            CheckName::CastleNotation
        };
        let (_, started) = self.begin(check);
        let mut found = CheckTally::new(CheckName::ForcedCastle);
        let mut notation = CheckTally::new(CheckName::CastleNotation);
        let mut left = 0;
        for (i, c) in forced.iter().enumerate() {
            if self.giving_up() {
                left = forced.len() - i;
                break;
            }
            let speech = self.speech();
            let sayable = self
                .line(&c.position, &[])
                .and_then(|line| Ok((line, speech.castle(&c.position, c.castle)?)));
            let (position, castle) = match sayable {
                Ok(both) => both,
                Err(why) => {
                    found.skip(&why);
                    notation.skip(&why);
                    self.tick();
                    continue;
                }
            };
            let fen = position_fen(&c.position, self.options.fen);
            let reproduce = self.reproduce(&position, &self.go());
            let answer = match self.ask(&position) {
                Ok(a) => a,
                Err(err) => {
                    found.fail(self.engine_failure(&c.label(), fen, reproduce, &err));
                    self.tick();
                    continue;
                }
            };
            let (kxr, standard) = castle_notations(c.castle);
            let why = match c.forcing {
                Forcing::OnlyLegalMove => "the only legal move",
                Forcing::OnlyMateInOne => "the only mate in one",
            };
            let failure = |expected: String, got: String| {
                Failure::wrong(c.label(), fen.clone(), reproduce.clone(), expected, got)
            };
            match classify(&c.position, c.castle, &answer) {
                Answer::CastleKxR | Answer::CastleKingSquares if answer == castle => {
                    found.pass();
                    notation.pass();
                }
                Answer::CastleKingSquares
                    if !speech.adapted()
                        && is_legal(&c.position, &standard)
                        && self
                            .confirm_misread(&c.position, &[], |a| a == kxr)
                            .is_some() =>
                {
                    // The answer is also a plain king step, and with a
                    // field it can read the engine castles: it did not
                    // mean a castle here.
                    found.fail_dfrc(
                        failure(
                            format!("{kxr}, the castle ({why})"),
                            format!("{answer} (a plain king step here; with only its own castling rights in the field the engine plays {kxr})"),
                        )
                        .diagnosed(self.field_probe(&c.position, &[]).map_or(Diagnosis::MissesForcedCastle, |p| p.0)),
                        c.dfrc,
                    );
                }
                Answer::CastleKxR | Answer::CastleKingSquares => {
                    found.pass();
                    // Written right once the engine reads the field right:
                    // the misread field, not the notation, is the bug.
                    let d = self
                        .confirm_misread(&c.position, &[], |a| a == castle)
                        .unwrap_or(speech.other_notation());
                    notation.fail_dfrc(
                        failure(
                            format!("{castle} ({})", speech.expected_text()),
                            format!("{answer} ({})", speech.other_notation_text()),
                        )
                        .diagnosed(d),
                        c.dfrc,
                    );
                }
                Answer::OtherLegal(mv) | Answer::Illegal(mv) => {
                    let legal = speech.is_legal(&c.position, &mv);
                    let d = self.name_answer(
                        &c.position,
                        &[],
                        &c.position,
                        Expect::Castle(c.castle),
                        &mv,
                        if legal {
                            Diagnosis::MissesForcedCastle
                        } else {
                            Diagnosis::IllegalMove
                        },
                    );
                    let got = if legal {
                        format!("{mv} (legal, but not the castle)")
                    } else {
                        format!(
                            "{mv} (not a legal move; the castle in standard notation would be {standard})"
                        )
                    };
                    found.fail_dfrc(
                        failure(format!("{castle}, the castle ({why})"), got).diagnosed(d),
                        c.dfrc,
                    );
                }
            }
            self.tick();
        }
        let secs = started.elapsed().as_secs_f64();
        notation.not_run(left);
        let found = self.finish(found, started, left);
        let mut notation = notation.finish(secs);
        if notation.positions == 0 && notation.not_run == 0 {
            notation.verdict =
                Verdict::Skip("the engine never answered with a castle (see forced-castle)".into());
        }
        (found, notation)
    }

    pub(super) fn rights(&mut self, scenarios: &[RightsScenario], perft: bool) -> CheckReport {
        let (mut tally, started) = self.begin(CheckName::RightsTracking);
        let mut left = 0;
        for (i, s) in scenarios.iter().enumerate() {
            if self.giving_up() {
                left = scenarios.len() - i;
                break;
            }
            let speech = self.speech();
            let sayable = self.line(&s.start, &s.moves).and_then(|line| {
                speech.castle(&s.end, s.lost)?;
                speech.readable(&s.end)?;
                Ok(line)
            });
            let position = match sayable {
                Ok(line) => line,
                Err(why) => {
                    tally.skip(why);
                    self.tick();
                    continue;
                }
            };
            let fen = position_fen(&s.start, self.options.fen);
            let (kxr, standard) = castle_notations(s.lost);
            let dfrc = s.label.ends_with("dfrc");
            let go = self.go();
            let failure = |run: &Run, go: &str, expected: String, got: String| {
                Failure::wrong(
                    &s.label,
                    fen.clone(),
                    run.reproduce(&position, go),
                    expected,
                    got,
                )
            };
            match self.ask(&position) {
                Err(err) => {
                    let f = self.engine_failure(
                        &s.label,
                        fen.clone(),
                        self.reproduce(&position, &go),
                        &err,
                    );
                    tally.fail(f);
                }
                Ok(answer) if is_legal_any_notation(&s.end, &answer) => tally.pass(),
                Ok(answer) => {
                    let lost = answer == kxr || answer == standard;
                    let d = self.name_answer(
                        &s.start,
                        &s.moves,
                        &s.end,
                        Expect::Legal,
                        &answer,
                        if lost {
                            Diagnosis::KeepsLostRights
                        } else {
                            Diagnosis::IllegalMove
                        },
                    );
                    let f = if lost {
                        failure(
                            self,
                            &go,
                            format!(
                                "any legal move but {kxr}: that castling right was lost ({})",
                                s.how
                            ),
                            format!("{answer} (castled with the lost right)"),
                        )
                    } else {
                        failure(
                            self,
                            &go,
                            "a legal move".into(),
                            format!("{answer} (not a legal move)"),
                        )
                    };
                    tally.fail_dfrc(f.diagnosed(d), dfrc);
                }
            }
            if perft {
                let go = "go perft 1";
                let reference = reference_divide(&s.end, 1);
                match self.divide(&position, &s.end, 1) {
                    Err(err) => {
                        let f = self.engine_failure(
                            &s.label,
                            fen.clone(),
                            self.reproduce(&position, go),
                            &err,
                        );
                        tally.fail(f);
                    }
                    Ok(None) => tally.fail_dfrc(
                        failure(self, go, "a divide".into(), "no divide".into())
                            .diagnosed(Diagnosis::Unreadable),
                        dfrc,
                    ),
                    Ok(Some(divide)) => match analyse(&s.end, &reference, &divide) {
                        Level::Agrees => tally.pass(),
                        level => {
                            let (d, text) = match level {
                                _ if divide.moves.contains_key(&kxr) => (
                                    Some(Diagnosis::KeepsLostRights),
                                    format!("{kxr} listed: the lost right is still used"),
                                ),
                                Level::Found {
                                    diagnosis, text, ..
                                } => (Some(diagnosis), text),
                                Level::Descend { text, .. } | Level::Total { text } => {
                                    (Some(Diagnosis::PerftCountsInconsistent), text)
                                }
                                Level::Agrees => (None, String::new()),
                            };
                            let mut f = failure(
                                self,
                                go,
                                format!("{} legal moves, without {kxr}", reference.total),
                                text,
                            );
                            f.diagnosis = d;
                            tally.fail_dfrc(f, dfrc);
                        }
                    },
                }
            }
            self.tick();
        }
        tally.note(if perft {
            format!("{} scenarios, bestmove and perft 1 each", scenarios.len())
        } else {
            format!("{} scenarios, bestmove only (no perft)", scenarios.len())
        });
        self.finish(tally, started, left)
    }

    pub(super) fn moves_list(&mut self, scenarios: &[MovesListScenario]) -> CheckReport {
        let (mut tally, started) = self.begin(CheckName::MovesListCastle);
        let mut left = 0;
        for (i, s) in scenarios.iter().enumerate() {
            if self.giving_up() {
                left = scenarios.len() - i;
                break;
            }
            let position = match self.line(&s.start, &s.moves) {
                Ok(line) => line,
                Err(why) => {
                    tally.skip(why);
                    self.tick();
                    continue;
                }
            };
            let fen = position_fen(&s.start, self.options.fen);
            let reproduce = self.reproduce(&position, &self.go());
            let answer = match self.ask(&position) {
                Ok(a) => a,
                Err(err) => {
                    tally.fail(self.engine_failure(&s.label, fen, reproduce, &err));
                    self.tick();
                    continue;
                }
            };
            if is_legal_any_notation(&s.end, &answer) {
                tally.pass();
            } else {
                let castle = uci(s.moves[s.castle_at]);
                let misread =
                    self.confirm_misread(&s.start, &s.moves, |a| is_legal_any_notation(&s.end, a));
                let (got, d) = if let Some(d) = misread {
                    (format!("{answer} (not a legal move)"), d)
                } else if self.speech().is_legal(&s.dropped, &answer) {
                    (
                        format!(
                            "{answer}: legal only in the position before {castle}; the castle and the moves after it were dropped"
                        ),
                        Diagnosis::DropsMovesAtCastle,
                    )
                } else if misapplied_positions(s)
                    .iter()
                    .any(|p| is_legal_any_notation(p, &answer))
                {
                    (
                        format!(
                            "{answer}: legal only with king or rook of {castle} on the wrong square"
                        ),
                        Diagnosis::MisappliesCastle,
                    )
                } else {
                    let d = self.name_answer(
                        &s.start,
                        &s.moves,
                        &s.end,
                        Expect::Legal,
                        &answer,
                        Diagnosis::IllegalMove,
                    );
                    (format!("{answer} (not a legal move)"), d)
                };
                tally.fail_dfrc(
                    Failure::wrong(
                        &s.label,
                        fen,
                        reproduce,
                        format!("a legal move after {castle} and the rest of the list"),
                        got,
                    )
                    .diagnosed(d),
                    s.label.starts_with("DFRC"),
                );
            }
            self.tick();
        }
        self.finish(tally, started, left)
    }
}

/// What a right answer is, in a position or in a probe made from it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Expect {
    /// The castle, in either notation (the notation is castle-notation's
    /// business).
    Castle(Move),
    /// Any legal move (a castle in either notation).
    Legal,
}

impl Expect {
    pub(super) fn met(self, end: &Chess, answer: &str) -> bool {
        match self {
            Expect::Castle(c) => {
                let (kxr, standard) = castle_notations(c);
                answer == kxr || answer == standard
            }
            Expect::Legal => is_legal_any_notation(end, answer),
        }
    }

    /// The same expectation in a probe position, when it still holds
    /// there: the castle still the only legal move or the only mate.
    pub(super) fn in_probe(self, probe: &Chess) -> Option<Expect> {
        match self {
            Expect::Castle(c) => {
                (castle_is_only_move(probe, c) || castle_is_only_mate(probe, c)).then_some(self)
            }
            Expect::Legal => (!probe.legal_moves().is_empty()).then_some(self),
        }
    }
}
