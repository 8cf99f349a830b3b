//! Runs the checks against a [`Driver`] and collects the reports.
//!
//! Every engine query starts from `ucinewgame`, so each failure is
//! reproduced by the handshake lines, `ucinewgame`, one `position` line
//! and one `go` line, printed with it (the hidden-state check is the
//! exception: its point is what happens without `ucinewgame`).
//!
//! The run is never cut short: when the engine crashes, stalls or answers
//! something that cannot be read, the query counts as a failure of that
//! kind, the engine is restarted and the check goes on with the next
//! position. A check gives up its remaining positions only after
//! [`FAILURES_IN_A_ROW`] engine failures in a row (an engine that hangs on
//! every `go` would otherwise cost the timeout per position); the next
//! check starts afresh. `fail_fast` keeps the old behaviour: the first
//! engine failure ends the run and the later checks are skipped.
//!
//! The check bodies live beside this file: `suite_perft.rs` (perft with
//! the drill-down to a minimal position), `suite_bestmove.rs` (forced
//! castles, rights, moves lists, with the probes that confirm a misread FEN
//! field or another cause), `suite_traps.rs` (the positions made for known
//! engine bugs) and `suite_hidden.rs` (hidden state).

use std::time::Instant;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use super::diagnosis::Diagnosis;
use super::driver::{Driver, DriverError};
use super::forced::{Crafted, forced_castles};
use super::hidden_state::{HiddenStateScenario, hidden_state_scenarios};
use super::moves_list::{MovesListScenario, moves_list_scenarios};
use super::perft::Divide;
use super::perft_sets::{Labelled, dfrc_positions, midgame_positions, start_positions};
use super::report::{CheckName, CheckReport, CheckTally, Failure, SuiteReport};
use super::rights::{RightsScenario, rights_scenarios};
use super::speech::{Speech, Unsayable};
use super::traps::{Trap, traps};
use crate::notation::castling::CastlingNotation;
use crate::notation::fen::FenFlavour;

/// What to run and how hard.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
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
    /// Stop at the first crash, stall or unreadable answer.
    pub fail_fast: bool,
    /// How the engine writes and reads castles in UCI_Chess960 mode (its
    /// `castles` setting): king takes rook, the convention the suite
    /// checks, unless the user declares otherwise (see [`Speech`]).
    pub castles: CastlingNotation,
}

pub const DEFAULT_PERFT_DEPTH: u32 = 3;
pub const DEFAULT_SEARCH_DEPTH: u32 = 3;
pub const DEFAULT_DFRC_POSITIONS: usize = 200;
/// Engine failures in a row after which a check leaves out the rest of
/// its positions.
pub const FAILURES_IN_A_ROW: usize = 3;

impl Default for SuiteOptions {
    fn default() -> Self {
        SuiteOptions {
            perft_depth: DEFAULT_PERFT_DEPTH,
            search_depth: DEFAULT_SEARCH_DEPTH,
            only: None,
            dfrc_positions: DEFAULT_DFRC_POSITIONS,
            fen: FenFlavour::Shredder,
            skip_dfrc: false,
            fail_fast: false,
            castles: CastlingNotation::KingTakesRook,
        }
    }
}

impl SuiteOptions {
    pub(super) fn wants(&self, check: CheckName) -> bool {
        self.only.as_ref().is_none_or(|only| only.contains(&check))
    }
}

/// Progress: which check runs, and how far the whole suite is.
#[derive(Clone, Copy, Debug)]
pub struct SuiteProgress {
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
    pub traps: Vec<Trap>,
    pub rights: Vec<RightsScenario>,
    pub moves_list: Vec<MovesListScenario>,
    pub hidden: Vec<HiddenStateScenario>,
}

impl Material {
    pub fn generate(options: &SuiteOptions) -> Material {
        let keep = |dfrc: bool| !(dfrc && options.skip_dfrc);
        let forced: Vec<Crafted> = forced_castles()
            .into_iter()
            .filter(|c| keep(c.dfrc))
            .collect();
        let rights: Vec<RightsScenario> = rights_scenarios()
            .into_iter()
            .filter(|s| keep(s.label.ends_with("dfrc")))
            .collect();
        let moves_list: Vec<MovesListScenario> = moves_list_scenarios()
            .into_iter()
            .filter(|s| keep(s.label.starts_with("DFRC")))
            .collect();
        Material {
            starts: start_positions(),
            midgame: midgame_positions(),
            dfrc: if options.skip_dfrc {
                Vec::new()
            } else {
                dfrc_positions(options.dfrc_positions)
            },
            hidden: hidden_state_scenarios(&forced, &rights, &moves_list),
            traps: traps().into_iter().filter(|t| keep(t.dfrc)).collect(),
            forced,
            rights,
            moves_list,
        }
    }
}

pub(super) fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Chess960).to_string()
}

/// The run ends here (fail-fast, or the engine cannot be restarted).
#[derive(Clone, Debug)]
pub(super) struct Stop(pub String);

pub(super) struct Run<'a> {
    pub driver: &'a mut dyn Driver,
    pub options: &'a SuiteOptions,
    progress: &'a mut dyn FnMut(SuiteProgress),
    check: CheckName,
    done: u64,
    total: u64,
    /// Engine failures in a row in the current check.
    in_a_row: usize,
    pub stop: Option<Stop>,
    /// The engine answers `go perft 1` with a divide (probes may use it).
    pub has_perft: bool,
}

impl Run<'_> {
    /// How castles are written to this engine and read back.
    pub fn speech(&self) -> Speech {
        Speech::new(self.options.castles)
    }

    /// The `position` line of `start` + `moves` in the run's FEN flavour,
    /// castles in the engine's notation ([`Speech::line`]).
    pub fn line(&self, start: &Chess, moves: &[Move]) -> Result<String, Unsayable> {
        self.speech().line(self.options.fen, start, moves)
    }

    /// The same line in `flavour` (the probes that change the flavour).
    pub fn line_in(
        &self,
        flavour: FenFlavour,
        start: &Chess,
        moves: &[Move],
    ) -> Result<String, Unsayable> {
        self.speech().line(flavour, start, moves)
    }

    pub fn tick(&mut self) {
        self.done += 1;
        (self.progress)(SuiteProgress {
            check: self.check,
            done: self.done,
            total: self.total,
        });
    }

    /// Starts a check: progress label, failures-in-a-row count.
    pub fn begin(&mut self, check: CheckName) -> (CheckTally, Instant) {
        self.check = check;
        self.in_a_row = 0;
        (CheckTally::new(check), Instant::now())
    }

    /// Whether the current check should leave out its remaining positions.
    pub fn giving_up(&self) -> bool {
        self.stop.is_some() || self.in_a_row >= FAILURES_IN_A_ROW
    }

    /// Ends a check: remaining positions counted as not run, with why.
    pub fn finish(&self, mut tally: CheckTally, started: Instant, left: usize) -> CheckReport {
        if left > 0 {
            tally.not_run(left);
            if let Some(Stop(reason)) = &self.stop {
                tally.add_note(format!("stopped: {reason}"));
            } else {
                tally.add_note(format!(
                    "gave up after {FAILURES_IN_A_ROW} engine failures in a row"
                ));
            }
        }
        tally.finish(started.elapsed().as_secs_f64())
    }

    pub fn reproduce(&self, position: &str, go: &str) -> Vec<String> {
        reproduce_lines(&self.driver.handshake_lines(), position, go)
    }

    pub fn go(&self) -> String {
        format!("go depth {}", self.options.search_depth)
    }

    /// Runs one engine query. An engine failure is returned as `Err` after
    /// the engine has been restarted; with `fail_fast`, or when the engine
    /// cannot be restarted, the run stops (`self.stop`).
    pub fn engine<T>(
        &mut self,
        query: impl FnOnce(&mut dyn Driver) -> Result<T, DriverError>,
    ) -> Result<T, DriverError> {
        match query(self.driver) {
            Ok(v) => {
                self.in_a_row = 0;
                Ok(v)
            }
            Err(err) => {
                self.in_a_row += 1;
                if let Some(sig) = crate::platform::interrupt::received() {
                    self.stop = Some(Stop(format!("interrupted by signal {sig}")));
                } else if self.options.fail_fast {
                    self.stop = Some(Stop(format!(
                        "the engine failed during {} ({err}); the run stops at its first engine failure, as asked",
                        self.check
                    )));
                } else if let Err(again) = self.driver.restart() {
                    self.stop = Some(Stop(again.to_string()));
                }
                Err(err)
            }
        }
    }

    /// `go perft depth` on `line`, which reaches `pos`: the engine's divide
    /// with its castles as king takes rook ([`Speech::divide`]), as
    /// shakmaty's reference writes them. The caller has checked that the
    /// divide of `pos` is readable ([`Speech::readable`]).
    pub fn divide(
        &mut self,
        line: &str,
        pos: &Chess,
        depth: u32,
    ) -> Result<Option<Divide>, DriverError> {
        let speech = self.speech();
        self.engine(|d| d.perft(line, depth))
            .map(|divide| divide.map(|d| speech.divide(pos, d)))
    }

    /// `ucinewgame`, `position`, `go depth N`: the engine's bestmove. A
    /// bestmove that is not even a move (garbage) is an unreadable answer.
    pub fn ask(&mut self, position: &str) -> Result<String, DriverError> {
        let go = self.go();
        self.engine(|d| {
            d.new_game()?;
            readable(d.best_move(position, &go)?)
        })
    }

    /// The failure for an engine that did not answer.
    pub fn engine_failure(
        &self,
        label: &str,
        fen: String,
        reproduce: Vec<String>,
        err: &DriverError,
    ) -> Failure {
        Failure {
            kind: err.kind(),
            diagnosis: Some(err.diagnosis()),
            ..Failure::wrong(label, fen, reproduce, "an answer", err.to_string())
        }
    }
}

/// A bestmove that reads as a UCI move (or the null move); anything else
/// is an unreadable answer.
pub(super) fn readable(answer: String) -> Result<String, DriverError> {
    if answer == "(none)" || UciMove::from_ascii(answer.as_bytes()).is_ok() {
        Ok(answer)
    } else {
        Err(DriverError::Protocol(format!(
            "bestmove '{answer}' is not a UCI move"
        )))
    }
}

/// The handshake, `ucinewgame`, `isready`, the position and the go line.
pub(super) fn reproduce_lines(handshake: &[String], position: &str, go: &str) -> Vec<String> {
    let mut lines = handshake.to_vec();
    lines.push("ucinewgame".into());
    lines.push("isready".into());
    lines.push(position.to_string());
    lines.push(go.to_string());
    lines
}

/// How many progress steps a run takes.
pub fn planned_steps(material: &Material, options: &SuiteOptions) -> u64 {
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
    if options.wants(CheckName::CastleTraps) {
        n += material.traps.len();
    }
    if options.wants(CheckName::RightsTracking) {
        n += material.rights.len();
    }
    if options.wants(CheckName::MovesListCastle) {
        n += material.moves_list.len();
    }
    if options.wants(CheckName::HiddenState) {
        n += material.hidden.len();
    }
    n as u64
}

/// Runs the selected checks, all of them, whatever the engine does (see
/// the module docs for `fail_fast`).
pub fn run(
    driver: &mut dyn Driver,
    material: &Material,
    options: &SuiteOptions,
    progress: &mut dyn FnMut(SuiteProgress),
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
        in_a_row: 0,
        stop: None,
        has_perft: false,
    };

    if options.wants(CheckName::DeclaresChess960) {
        let mut t = CheckTally::new(CheckName::DeclaresChess960);
        if declares {
            t.pass();
        } else {
            t.fail(
                Failure::wrong(
                    "uci handshake",
                    "-",
                    vec!["uci".into()],
                    "option name UCI_Chess960 type check default false",
                    "no UCI_Chess960 option before uciok",
                )
                .diagnosed(Diagnosis::NoChess960Option),
            );
        }
        reports.push(t.finish(0.0));
    }
    if !declares {
        let reason = "does not apply: the engine does not declare UCI_Chess960, so it cannot be given Chess960 positions";
        for check in CheckName::ALL.into_iter().skip(1) {
            if options.wants(check) {
                reports.push(CheckReport::skipped(check, reason));
            }
        }
        return finished(engine, options, started, reports);
    }

    let perft = run.probe_perft(material);
    run.has_perft = perft.is_ok();
    let perft_checks: [(CheckName, &[Labelled]); 3] = [
        (CheckName::PerftStart, &material.starts),
        (CheckName::PerftMidgame, &material.midgame),
        (CheckName::PerftDfrc, &material.dfrc),
    ];
    for (check, positions) in perft_checks {
        if !options.wants(check) {
            continue;
        }
        reports.push(if let Some(Stop(reason)) = &run.stop {
            CheckReport::skipped(check, format!("not run: {reason}"))
        } else if let Err(why) = &perft {
            CheckReport::skipped(check, why.to_string())
        } else if check == CheckName::PerftDfrc && options.skip_dfrc {
            CheckReport::skipped(check, "DFRC positions left out, as asked")
        } else {
            run.perft_check(check, positions)
        });
    }

    let wants_forced = options.wants(CheckName::ForcedCastle);
    let wants_notation = options.wants(CheckName::CastleNotation);
    if wants_forced || wants_notation {
        let (found, notation) = match &run.stop {
            Some(Stop(reason)) => (
                CheckReport::skipped(CheckName::ForcedCastle, format!("not run: {reason}")),
                CheckReport::skipped(CheckName::CastleNotation, format!("not run: {reason}")),
            ),
            None => run.forced(&material.forced),
        };
        if wants_forced {
            reports.push(found);
        }
        if wants_notation {
            reports.push(notation);
        }
    }

    type Step<'r> = Box<dyn FnOnce(&mut Run) -> CheckReport + 'r>;
    let later: [(CheckName, Step); 4] = [
        (
            CheckName::CastleTraps,
            Box::new(|r: &mut Run| r.traps(&material.traps, perft.is_ok())),
        ),
        (
            CheckName::RightsTracking,
            Box::new(|r: &mut Run| r.rights(&material.rights, perft.is_ok())),
        ),
        (
            CheckName::MovesListCastle,
            Box::new(|r: &mut Run| r.moves_list(&material.moves_list)),
        ),
        (
            CheckName::HiddenState,
            Box::new(|r: &mut Run| r.hidden_state(&material.hidden)),
        ),
    ];
    for (check, step) in later {
        if !options.wants(check) {
            continue;
        }
        reports.push(match &run.stop {
            Some(Stop(reason)) => CheckReport::skipped(check, format!("not run: {reason}")),
            None => step(&mut run),
        });
    }

    finished(engine, options, started, reports)
}

fn finished(
    engine: String,
    options: &SuiteOptions,
    started: Instant,
    mut checks: Vec<CheckReport>,
) -> SuiteReport {
    checks.sort_by_key(|r| r.check);
    SuiteReport {
        engine,
        castles: options.castles,
        through_proxy: false,
        perft_depth: options.perft_depth,
        search_depth: options.search_depth,
        seconds: started.elapsed().as_secs_f64(),
        checks,
    }
}
