//! The hidden-state check: the same engine process answers a position
//! whose `moves` list castles (or loses a right) and then a position where
//! a castle is forced, once without `ucinewgame` in between and once with
//! it. A castle found fresh but missed after the first position is state
//! that leaked.

use super::answer::castle_notations;
use super::diagnosis::Diagnosis;
use super::hidden_state::HiddenStateScenario;
use super::report::{CheckName, CheckReport, Failure};
use super::suite::Run;
use crate::notation::fen::position_fen;

impl Run<'_> {
    pub(super) fn hidden_state(&mut self, scenarios: &[HiddenStateScenario]) -> CheckReport {
        let (mut tally, started) = self.begin(CheckName::HiddenState);
        let mut left = 0;
        let mut not_applicable = 0;
        for (i, s) in scenarios.iter().enumerate() {
            if self.giving_up() {
                left = scenarios.len() - i;
                break;
            }
            let fen = self.options.fen;
            let lines = self
                .speech()
                .castle(&s.target.position, s.target.castle)
                .and_then(|_| {
                    Ok((
                        self.line(&s.target.position, &[])?,
                        self.line(&s.before_start, &s.before_moves)?,
                    ))
                });
            let (target, before) = match lines {
                Ok(both) => both,
                Err(why) => {
                    tally.skip(why);
                    self.tick();
                    continue;
                }
            };
            let go = self.go();
            let (kxr, standard) = castle_notations(s.target.castle);
            let castles = |a: &str| a == kxr || a == standard;
            let target_fen = position_fen(&s.target.position, fen);
            let handshake = self.driver.handshake_lines();
            let lines = |new_game_between: bool| {
                let mut l = handshake.clone();
                l.extend([
                    "ucinewgame".into(),
                    "isready".into(),
                    before.clone(),
                    go.clone(),
                ]);
                if new_game_between {
                    l.extend(["ucinewgame".into(), "isready".into()]);
                }
                l.extend([target.clone(), go.clone()]);
                l
            };
            // Fresh: does the engine find this castle at all?
            match self.ask(&target) {
                Err(err) => {
                    let f = self.engine_failure(
                        &s.label,
                        target_fen,
                        self.reproduce(&target, &go),
                        &err,
                    );
                    tally.fail(f);
                    self.tick();
                    continue;
                }
                Ok(a) if !castles(&a) => {
                    // Not a hidden-state question; forced-castle reports it.
                    not_applicable += 1;
                    self.tick();
                    continue;
                }
                Ok(_) => {}
            }
            let mut verdict = None;
            for new_game_between in [false, true] {
                let answer = self.engine(|d| {
                    d.new_game()?;
                    d.best_move(&before, &go)?;
                    if new_game_between {
                        d.new_game()?;
                    }
                    super::suite::readable(d.best_move(&target, &go)?)
                });
                match answer {
                    Err(err) => {
                        verdict = Some(self.engine_failure(
                            &s.label,
                            target_fen.clone(),
                            lines(new_game_between),
                            &err,
                        ));
                        break;
                    }
                    Ok(a) if !castles(&a) => {
                        let d = if new_game_between {
                            Diagnosis::StateLeaksAcrossNewGame
                        } else {
                            Diagnosis::StateLeaksWithoutNewGame
                        };
                        verdict = Some(
                            Failure::wrong(
                                &s.label,
                                target_fen.clone(),
                                lines(new_game_between),
                                format!("{kxr}, as in a fresh game"),
                                format!(
                                    "{a} after the previous position{}",
                                    if new_game_between {
                                        " even with ucinewgame between"
                                    } else {
                                        " (no ucinewgame between)"
                                    }
                                ),
                            )
                            .diagnosed(d),
                        );
                    }
                    Ok(_) => {}
                }
            }
            match verdict {
                None => tally.pass(),
                Some(f) => tally.fail(f),
            }
            self.tick();
        }
        tally.note(format!(
            "{} scenarios, each fresh, then after a castling `position ... moves` line without and with ucinewgame",
            scenarios.len()
        ));
        if not_applicable > 0 {
            tally.add_note(format!(
                "{not_applicable} not applicable (the engine misses the castle even fresh: see forced-castle)"
            ));
        }
        self.finish(tally, started, left)
    }
}
