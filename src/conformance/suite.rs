//! Runs the checks against a [`Driver`] and collects the reports.
//!
//! Every engine query starts from `ucinewgame`, so each failure is
//! reproduced by the handshake lines, `ucinewgame`, one `position` line
//! and one `go` line, printed with it.

use std::time::Instant;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use super::answer::{Answer, castle_notations, classify, is_legal, is_legal_any_notation};
use super::driver::{Driver, DriverError};
use super::forced::{Crafted, Forcing, forced_castles};
use super::moves_list::{MovesListScenario, moves_list_scenarios};
use super::perft::{compare, reference_divide};
use super::perft_sets::{Labelled, dfrc_positions, midgame_positions, start_positions};
use super::report::{CheckName, CheckReport, Failure, SuiteReport, Tally};
use super::rights::{RightsScenario, rights_scenarios};
use crate::notation::fen::{FenFlavour, position_fen};

/// What to run and how hard.
#[derive(Clone, Debug)]
pub struct Options {
    pub perft_depth: u32,
    /// `go depth N` for the bestmove checks: enough to see a mate in one.
    pub search_depth: u32,
    pub only: Option<Vec<CheckName>>,
    pub dfrc_positions: usize,
    /// The castling field the engine is given: Shredder-FEN by default
    /// (the UCI specification's form), X-FEN for engines that read only it.
    pub fen: FenFlavour,
    /// Leave out Double Fischer Random positions (for engines that do not
    /// claim to play DFRC).
    pub skip_dfrc: bool,
}

pub const DEFAULT_PERFT_DEPTH: u32 = 3;
pub const DEFAULT_SEARCH_DEPTH: u32 = 3;
pub const DEFAULT_DFRC_POSITIONS: usize = 200;

impl Default for Options {
    fn default() -> Self {
        Options {
            perft_depth: DEFAULT_PERFT_DEPTH,
            search_depth: DEFAULT_SEARCH_DEPTH,
            only: None,
            dfrc_positions: DEFAULT_DFRC_POSITIONS,
            fen: FenFlavour::Shredder,
            skip_dfrc: false,
        }
    }
}

impl Options {
    fn wants(&self, check: CheckName) -> bool {
        self.only.as_ref().is_none_or(|only| only.contains(&check))
    }
}

/// Progress: which check runs, and how far the whole suite is.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub check: CheckName,
    pub done: u64,
    pub total: u64,
}

/// The positions, generated once.
pub struct Material {
    pub starts: Vec<Labelled>,
    pub midgame: Vec<Labelled>,
    pub dfrc: Vec<Labelled>,
    pub forced: Vec<Crafted>,
    pub rights: Vec<RightsScenario>,
    pub moves_list: Vec<MovesListScenario>,
}

impl Material {
    pub fn generate(options: &Options) -> Material {
        let keep = |dfrc: bool| !(dfrc && options.skip_dfrc);
        Material {
            starts: start_positions(),
            midgame: midgame_positions(),
            dfrc: if options.skip_dfrc {
                Vec::new()
            } else {
                dfrc_positions(options.dfrc_positions)
            },
            forced: forced_castles()
                .into_iter()
                .filter(|c| keep(c.dfrc))
                .collect(),
            rights: rights_scenarios()
                .into_iter()
                .filter(|s| keep(s.label.ends_with("dfrc")))
                .collect(),
            moves_list: moves_list_scenarios()
                .into_iter()
                .filter(|s| keep(s.label.starts_with("DFRC")))
                .collect(),
        }
    }
}

fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Chess960).to_string()
}

fn position_line(flavour: FenFlavour, start: &Chess, moves: &[Move]) -> String {
    let mut line = format!("position fen {}", position_fen(start, flavour));
    if !moves.is_empty() {
        line.push_str(" moves");
        for &m in moves {
            line.push(' ');
            line.push_str(&uci(m));
        }
    }
    line
}

struct Run<'a> {
    driver: &'a mut dyn Driver,
    options: &'a Options,
    progress: &'a mut dyn FnMut(Progress),
    check: CheckName,
    done: u64,
    total: u64,
    /// The query in flight (label, FEN, reproducer), for the report when
    /// the engine fails on it.
    current: Option<(String, String, Vec<String>)>,
}

impl Run<'_> {
    fn at(&mut self, label: &str, fen: String, position: &str, go: &str) {
        self.current = Some((label.to_string(), fen, self.reproduce(position, go)));
    }

    fn tick(&mut self) {
        self.done += 1;
        (self.progress)(Progress {
            check: self.check,
            done: self.done,
            total: self.total,
        });
    }

    fn reproduce(&self, position: &str, go: &str) -> Vec<String> {
        reproduce_lines(&self.driver.handshake_lines(), position, go)
    }

    fn go(&self) -> String {
        format!("go depth {}", self.options.search_depth)
    }

    fn ask(&mut self, position: &str) -> Result<String, DriverError> {
        self.driver.new_game()?;
        let go = self.go();
        self.driver.best_move(position, &go)
    }

    fn perft_check(
        &mut self,
        check: CheckName,
        positions: &[Labelled],
    ) -> Result<CheckReport, DriverError> {
        self.check = check;
        let started = Instant::now();
        let mut tally = Tally::new(check);
        let depth = self.options.perft_depth;
        let (mut engine_secs, mut ours_secs, mut nodes) = (0.0, 0.0, 0u64);
        for l in positions {
            let position = position_line(self.options.fen, &l.position, &[]);
            let fen = position_fen(&l.position, self.options.fen);
            self.at(&l.label, fen, &position, &format!("go perft {depth}"));
            let t = Instant::now();
            let answer = self.driver.perft(&position, depth)?;
            engine_secs += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let reference = reference_divide(&l.position, depth);
            ours_secs += t.elapsed().as_secs_f64();
            nodes += reference.total;
            match answer {
                None => {
                    tally.fail(self.perft_failure(l, &position, "a divide", "no divide".into()));
                }
                Some(divide) => match compare(&reference, &divide) {
                    None => tally.pass(),
                    Some(m) => {
                        let f = self.perft_failure(l, &position, "", String::new());
                        tally.fail(Failure {
                            expected: format!(
                                "{} nodes in total; {}",
                                reference.total,
                                m.mv.as_ref().map_or("every move agrees".to_string(), |mv| {
                                    format!("{mv}: {}", m.expected)
                                })
                            ),
                            got: m.to_string(),
                            ..f
                        });
                    }
                },
            }
            self.tick();
        }
        tally.note(format!(
            "depth {depth}, {nodes} nodes; engine {engine_secs:.2} s, shakmaty {ours_secs:.2} s (shakmaty/engine time x{:.2})",
            if engine_secs > 0.0 { ours_secs / engine_secs } else { 0.0 }
        ));
        Ok(tally.finish(started.elapsed().as_secs_f64()))
    }

    fn perft_failure(&self, l: &Labelled, position: &str, expected: &str, got: String) -> Failure {
        Failure {
            label: l.label.clone(),
            fen: position_fen(&l.position, self.options.fen),
            reproduce: self.reproduce(position, &format!("go perft {}", self.options.perft_depth)),
            expected: expected.to_string(),
            got,
        }
    }

    /// forced-castle and castle-notation share one query per position.
    fn forced(&mut self, forced: &[Crafted]) -> Result<(CheckReport, CheckReport), DriverError> {
        self.check = if self.options.wants(CheckName::ForcedCastle) {
            CheckName::ForcedCastle
        } else {
            CheckName::CastleNotation
        };
        let started = Instant::now();
        let mut found = Tally::new(CheckName::ForcedCastle);
        let mut notation = Tally::new(CheckName::CastleNotation);
        for c in forced {
            let position = position_line(self.options.fen, &c.position, &[]);
            let go = self.go();
            self.at(
                &c.label(),
                position_fen(&c.position, self.options.fen),
                &position,
                &go,
            );
            let answer = self.ask(&position)?;
            let (kxr, standard) = castle_notations(c.castle);
            let why = match c.forcing {
                Forcing::OnlyLegalMove => "the only legal move",
                Forcing::OnlyMateInOne => "the only mate in one",
            };
            let failure = |expected: String, got: String| Failure {
                label: c.label(),
                fen: position_fen(&c.position, self.options.fen),
                reproduce: self.reproduce(&position, &self.go()),
                expected,
                got,
            };
            match classify(&c.position, c.castle, &answer) {
                Answer::CastleKxR => {
                    found.pass();
                    notation.pass();
                }
                Answer::CastleKingSquares => {
                    found.pass();
                    notation.fail_dfrc(failure(
                        format!("{kxr} (king takes own rook)"),
                        format!("{answer} (king's destination square: standard-UCI notation, not Chess960)"),
                    ), c.dfrc);
                }
                Answer::OtherLegal(mv) => found.fail_dfrc(failure(
                    format!("{kxr}, the castle ({why})"),
                    format!("{mv} (legal, but not the castle)"),
                ), c.dfrc),
                Answer::Illegal(mv) => found.fail_dfrc(failure(
                    format!("{kxr}, the castle ({why})"),
                    format!("{mv} (not a legal move; the castle in standard notation would be {standard})"),
                ), c.dfrc),
            }
            self.tick();
        }
        let secs = started.elapsed().as_secs_f64();
        let mut notation = notation.finish(secs);
        if notation.positions == 0 {
            notation.verdict = super::report::Verdict::Skip(
                "the engine never answered with a castle (see forced-castle)".into(),
            );
        }
        Ok((found.finish(secs), notation))
    }

    fn rights(
        &mut self,
        scenarios: &[RightsScenario],
        perft: bool,
    ) -> Result<CheckReport, DriverError> {
        self.check = CheckName::RightsTracking;
        let started = Instant::now();
        let mut tally = Tally::new(CheckName::RightsTracking);
        for s in scenarios {
            let position = position_line(self.options.fen, &s.start, &s.moves);
            let (kxr, standard) = castle_notations(s.lost);
            let handshake = self.driver.handshake_lines();
            let failure = |go: String, expected: String, got: String| Failure {
                label: s.label.clone(),
                fen: position_fen(&s.start, self.options.fen),
                reproduce: reproduce_lines(&handshake, &position, &go),
                expected,
                got,
            };
            let dfrc = s.label.ends_with("dfrc");
            let go = self.go();
            self.at(
                &s.label,
                position_fen(&s.start, self.options.fen),
                &position,
                &go,
            );
            let answer = self.ask(&position)?;
            if is_legal_any_notation(&s.end, &answer) {
                tally.pass();
            } else if answer == kxr || answer == standard {
                tally.fail_dfrc(
                    failure(
                        self.go(),
                        format!(
                            "any legal move but {kxr}: that castling right was lost ({})",
                            s.how
                        ),
                        format!("{answer} (castled with the lost right)"),
                    ),
                    dfrc,
                );
            } else {
                tally.fail_dfrc(
                    failure(
                        self.go(),
                        "a legal move".into(),
                        format!("{answer} (not a legal move)"),
                    ),
                    dfrc,
                );
            }
            if perft {
                let reference = reference_divide(&s.end, 1);
                match self.driver.perft(&position, 1)? {
                    Some(divide) => match compare(&reference, &divide) {
                        None => tally.pass(),
                        Some(m) => tally.fail_dfrc(
                            failure(
                                "go perft 1".into(),
                                format!("{} legal moves, without {kxr}", reference.total),
                                m.to_string(),
                            ),
                            dfrc,
                        ),
                    },
                    None => tally.fail_dfrc(
                        failure("go perft 1".into(), "a divide".into(), "no divide".into()),
                        dfrc,
                    ),
                }
            }
            self.tick();
        }
        tally.note(if perft {
            format!("{} scenarios, bestmove and perft 1 each", scenarios.len())
        } else {
            format!("{} scenarios, bestmove only (no perft)", scenarios.len())
        });
        Ok(tally.finish(started.elapsed().as_secs_f64()))
    }

    fn moves_list(&mut self, scenarios: &[MovesListScenario]) -> Result<CheckReport, DriverError> {
        self.check = CheckName::MovesListCastle;
        let started = Instant::now();
        let mut tally = Tally::new(CheckName::MovesListCastle);
        for s in scenarios {
            let position = position_line(self.options.fen, &s.start, &s.moves);
            let go = self.go();
            self.at(
                &s.label,
                position_fen(&s.start, self.options.fen),
                &position,
                &go,
            );
            let answer = self.ask(&position)?;
            let castle = uci(s.moves[s.castle_at]);
            if is_legal_any_notation(&s.end, &answer) {
                tally.pass();
            } else {
                let got = if is_legal(&s.dropped, &answer) {
                    format!(
                        "{answer}: legal only in the position before {castle}; the castle and the moves after it were dropped"
                    )
                } else {
                    format!("{answer} (not a legal move)")
                };
                tally.fail_dfrc(
                    Failure {
                        label: s.label.clone(),
                        fen: position_fen(&s.start, self.options.fen),
                        reproduce: self.reproduce(&position, &self.go()),
                        expected: format!("a legal move after {castle} and the rest of the list"),
                        got,
                    },
                    s.label.starts_with("DFRC"),
                );
            }
            self.tick();
        }
        Ok(tally.finish(started.elapsed().as_secs_f64()))
    }
}

/// The handshake, `ucinewgame`, `isready`, the position and the go line.
fn reproduce_lines(handshake: &[String], position: &str, go: &str) -> Vec<String> {
    let mut lines = handshake.to_vec();
    lines.push("ucinewgame".into());
    lines.push("isready".into());
    lines.push(position.to_string());
    lines.push(go.to_string());
    lines
}

fn with_timing<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

/// How many progress steps a run takes.
pub fn planned_steps(material: &Material, options: &Options) -> u64 {
    let mut n = 0;
    if options.wants(CheckName::PerftStart) {
        n += material.starts.len();
    }
    if options.wants(CheckName::PerftMidgame) {
        n += material.midgame.len();
    }
    if options.wants(CheckName::PerftDfrc) {
        n += material.dfrc.len();
    }
    if options.wants(CheckName::ForcedCastle) || options.wants(CheckName::CastleNotation) {
        n += material.forced.len();
    }
    if options.wants(CheckName::RightsTracking) {
        n += material.rights.len();
    }
    if options.wants(CheckName::MovesListCastle) {
        n += material.moves_list.len();
    }
    n as u64
}

/// Runs the selected checks. An engine that stops answering ends the run:
/// the check that was running fails with the reason, later checks are
/// skipped.
pub fn run(
    driver: &mut dyn Driver,
    material: &Material,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> SuiteReport {
    let started = Instant::now();
    let engine = driver.name();
    let total = planned_steps(material, options);
    let mut reports: Vec<CheckReport> = Vec::new();
    let declares = driver.declares_chess960();
    let mut run = Run {
        driver,
        options,
        progress,
        check: CheckName::DeclaresChess960,
        done: 0,
        total,
        current: None,
    };

    if options.wants(CheckName::DeclaresChess960) {
        let mut t = Tally::new(CheckName::DeclaresChess960);
        if declares {
            t.pass();
        } else {
            t.fail(Failure {
                label: "uci handshake".into(),
                fen: "-".into(),
                reproduce: vec!["uci".into()],
                expected: "option name UCI_Chess960 type check default false".into(),
                got: "no UCI_Chess960 option before uciok".into(),
            });
        }
        reports.push(t.finish(0.0));
    }

    let mut stop: Option<String> = (!declares).then(|| {
        "does not apply: the engine does not declare UCI_Chess960, so it cannot be given Chess960 positions".to_string()
    });

    // Perft support, probed once on the first start position.
    let mut perft_supported = None;
    let mut probe_error: Option<String> = None;
    let wants_perft = [
        CheckName::PerftStart,
        CheckName::PerftMidgame,
        CheckName::PerftDfrc,
    ]
    .into_iter()
    .any(|c| options.wants(c))
        || options.wants(CheckName::RightsTracking);
    if stop.is_none() && wants_perft {
        let probe = material
            .starts
            .first()
            .map(|l| position_line(options.fen, &l.position, &[]))
            .unwrap_or_else(|| "position startpos".into());
        // A failing probe means no usable perft; if the engine is gone,
        // the next check fails on it and says why.
        perft_supported = Some(match run.driver.perft(&probe, 1) {
            Ok(answer) => answer.is_some(),
            Err(err) => {
                probe_error = Some(err.to_string());
                false
            }
        });
    }
    let no_perft = match &probe_error {
        None => "the engine does not answer `go perft N` with a divide (Stockfish's `move: count` lines)".to_string(),
        Some(err) => format!("`go perft 1` failed: {err}"),
    };

    type Step<'m> = (CheckName, &'m [Labelled]);
    let perft_checks: [Step; 3] = [
        (CheckName::PerftStart, &material.starts),
        (CheckName::PerftMidgame, &material.midgame),
        (CheckName::PerftDfrc, &material.dfrc),
    ];
    for (check, positions) in perft_checks {
        if !options.wants(check) {
            continue;
        }
        if let Some(reason) = &stop {
            reports.push(CheckReport::skipped(check, reason.clone()));
        } else if perft_supported != Some(true) {
            reports.push(CheckReport::skipped(check, no_perft.clone()));
        } else if check == CheckName::PerftDfrc && options.skip_dfrc {
            reports.push(CheckReport::skipped(
                check,
                "DFRC positions left out (--skip-dfrc)",
            ));
        } else {
            let (result, secs) = with_timing(|| run.perft_check(check, positions));
            push_or_stop(
                &mut reports,
                &mut stop,
                check,
                result,
                secs,
                run.current.take(),
            );
        }
    }

    let wants_forced = options.wants(CheckName::ForcedCastle);
    let wants_notation = options.wants(CheckName::CastleNotation);
    if wants_forced || wants_notation {
        if let Some(reason) = &stop {
            for (check, wanted) in [
                (CheckName::ForcedCastle, wants_forced),
                (CheckName::CastleNotation, wants_notation),
            ] {
                if wanted {
                    reports.push(CheckReport::skipped(check, reason.clone()));
                }
            }
        } else {
            let (result, secs) = with_timing(|| run.forced(&material.forced));
            match result {
                Ok((found, notation)) => {
                    if wants_forced {
                        reports.push(found);
                    }
                    if wants_notation {
                        reports.push(notation);
                    }
                }
                Err(err) => {
                    let check = if wants_forced {
                        CheckName::ForcedCastle
                    } else {
                        CheckName::CastleNotation
                    };
                    push_or_stop(
                        &mut reports,
                        &mut stop,
                        check,
                        Err(err),
                        secs,
                        run.current.take(),
                    );
                    if wants_forced && wants_notation {
                        reports.push(CheckReport::skipped(
                            CheckName::CastleNotation,
                            stop.clone().unwrap_or_default(),
                        ));
                    }
                }
            }
        }
    }

    if options.wants(CheckName::RightsTracking) {
        if let Some(reason) = &stop {
            reports.push(CheckReport::skipped(
                CheckName::RightsTracking,
                reason.clone(),
            ));
        } else {
            let perft = perft_supported == Some(true);
            let (result, secs) = with_timing(|| run.rights(&material.rights, perft));
            push_or_stop(
                &mut reports,
                &mut stop,
                CheckName::RightsTracking,
                result,
                secs,
                run.current.take(),
            );
        }
    }

    if options.wants(CheckName::MovesListCastle) {
        if let Some(reason) = &stop {
            reports.push(CheckReport::skipped(
                CheckName::MovesListCastle,
                reason.clone(),
            ));
        } else {
            let (result, secs) = with_timing(|| run.moves_list(&material.moves_list));
            push_or_stop(
                &mut reports,
                &mut stop,
                CheckName::MovesListCastle,
                result,
                secs,
                run.current.take(),
            );
        }
    }

    reports.sort_by_key(|r| r.check);
    SuiteReport {
        engine,
        perft_depth: options.perft_depth,
        search_depth: options.search_depth,
        seconds: started.elapsed().as_secs_f64(),
        checks: reports,
    }
}

fn push_or_stop(
    reports: &mut Vec<CheckReport>,
    stop: &mut Option<String>,
    check: CheckName,
    result: Result<CheckReport, DriverError>,
    secs: f64,
    current: Option<(String, String, Vec<String>)>,
) {
    match result {
        Ok(report) => reports.push(report),
        Err(err) => {
            let mut t = Tally::new(check);
            let (label, fen, reproduce) =
                current.unwrap_or_else(|| ("engine failure".into(), "-".into(), Vec::new()));
            t.fail(Failure {
                label,
                fen,
                reproduce,
                expected: "an answer".into(),
                got: err.to_string(),
            });
            reports.push(t.finish(secs));
            *stop = Some(format!("not run: the engine failed during {check} ({err})"));
        }
    }
}
