//! Plays a match: N worker threads, each with its own two engine processes,
//! take games from a shared queue; one collector (the calling thread) writes
//! each finished game whole to the PGN, keeps the tally, draws the progress
//! bar and stops the match when the SPRT decides or on SIGINT.
//!
//! Engines are reused between games (`ucinewgame` + `isready`) unless
//! `restart` is set; an engine that crashed, stalled or overran its time is
//! ended and a fresh one started for its next game. On interrupt, games in
//! progress are abandoned (never written), engines are ended, and the PGN
//! holds only complete games, so `--resume` can finish the match.
//!
//! Per move a worker sends one write (`position … moves …` kept as a string
//! extended by each move, plus the `go` line) and reads the engine's lines
//! until `bestmove`; SAN and the PGN text are made once per game, by the
//! collector (docs/BENCHMARKS.md, "Match runner", has the costs).

use std::collections::{BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::schedule::{Slot, pending};
use super::stats::{Sprt, SprtVerdict};
use super::summary::{GameSummary, Tally};
use crate::game::adjudication::{Adjudicator, Rules};
use crate::game::arbiter::side_name;
use crate::game::clock::go_command;
use crate::game::pgn::{MoveInfo, PgnGame, Score, write_game};
use crate::game::{CastlingPolicy, Clock, Game, Limits, Outcome, Termination};
use crate::notation::fen::{FenFlavour, position_fen};
use crate::uci::{GoParams, PositionCommand};
use crate::uci_client::{EngineCommand, EngineError, UciEngine};

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Display name (PGN White/Black); resolved from `id name` when not given.
    pub name: String,
    pub cmd: EngineCommand,
    /// `setoption` pairs sent after `UCI_Chess960 true`.
    pub options: Vec<(String, String)>,
    pub limits: Limits,
    /// FEN flavour the engine is given (Shredder by default).
    pub fen: FenFlavour,
}

/// Everything a match needs.
pub struct MatchPlan {
    pub engines: [EngineSpec; 2],
    /// Total games (even).
    pub games: u32,
    pub concurrency: usize,
    /// Start position of pair `p` at index `p - 1`.
    pub positions: Vec<Chess>,
    pub castling: CastlingPolicy,
    pub rules: Rules,
    pub restart: bool,
    /// Grace beyond the allowed time before a time forfeit.
    pub margin: Duration,
    /// How long an untimed engine may stay silent (stall).
    pub timeout: Duration,
    pub sprt: Option<Sprt>,
    pub pgn: Option<PathBuf>,
    /// Extra PGN tags after the roster (Event, Site, Date and the like).
    pub tags: Vec<(String, String)>,
    /// Games already in the PGN (`--resume`).
    pub done: BTreeSet<u32>,
    pub progress: bool,
}

/// How a match ended.
pub struct MatchReport {
    pub tally: Tally,
    pub interrupted: bool,
    pub sprt_stopped: bool,
}

/// Why an engine cannot take part at all (usage error, exit 2).
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("engine '{0}' does not declare the UCI_Chess960 option; it cannot play Chess960 games")]
    NoChess960(String),
    #[error("cannot start engine '{cmd}': {source}")]
    Start { cmd: String, source: EngineError },
}

/// A game as it finished.
pub struct FinishedGame {
    pub slot: Slot,
    pub start: Chess,
    pub moves: Vec<Move>,
    pub infos: Vec<MoveInfo>,
    pub outcome: Outcome,
    /// Castling-notation errors by engine index.
    pub notation_errors: [u32; 2],
}

impl FinishedGame {
    pub fn summary(&self) -> GameSummary {
        GameSummary {
            number: self.slot.number,
            first_white: self.slot.first_white,
            result: self.outcome.result,
            termination: self.outcome.termination,
            notation_errors: self.notation_errors,
        }
    }
}

/// Starts an engine and configures it for Chess960 (`UCI_Chess960 true`,
/// the user's options, `isready`).
pub fn start_engine(spec: &EngineSpec, timeout: Duration) -> Result<UciEngine, SetupError> {
    let start_err = |source| SetupError::Start {
        cmd: spec.cmd.display(),
        source,
    };
    let mut e = UciEngine::start(&spec.cmd, timeout).map_err(start_err)?;
    if !e.handshake().chess960() {
        let name = e.name().to_string();
        e.quit();
        return Err(SetupError::NoChess960(name));
    }
    e.set_option("UCI_Chess960", "true").map_err(start_err)?;
    for (n, v) in &spec.options {
        e.set_option(n, v).map_err(start_err)?;
    }
    e.is_ready(timeout).map_err(start_err)?;
    Ok(e)
}

/// One engine slot of a worker: the running process, if any.
struct Seat {
    engine: Option<UciEngine>,
}

impl Seat {
    fn end(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }
}

/// The fault an engine error stands for.
fn fault_of(err: &EngineError, timed: bool) -> Termination {
    match err {
        EngineError::Timeout { .. } if timed => Termination::TimeForfeit,
        EngineError::Timeout { .. } => Termination::Stall,
        _ => Termination::Crash,
    }
}

fn to_score(s: &crate::uci::Score) -> Score {
    match *s {
        crate::uci::Score::Cp(cp, _) => Score::Cp(cp.clamp(-1_000_000, 1_000_000) as i32),
        crate::uci::Score::Mate(n, _) => Score::Mate(n.clamp(-10_000, 10_000) as i32),
    }
}

/// Plays one game; `None` when abandoned because of `stop`.
fn play_game(
    plan: &MatchPlan,
    seats: &mut [Seat; 2],
    slot: Slot,
    stop: &AtomicBool,
) -> Option<FinishedGame> {
    let start = plan.positions[(slot.pair - 1) as usize].clone();
    let by_colour = slot.engines(); // [white idx, black idx]
    let colour_of = |idx: usize| {
        if by_colour[0] == idx {
            Color::White
        } else {
            Color::Black
        }
    };
    let mut game = Game::new(start.clone(), plan.castling);
    let mut infos = Vec::new();
    let mut notation_errors = [0u32; 2];
    let mut broken = [false; 2];

    let finish =
        |outcome: Outcome, game: &Game, infos: Vec<MoveInfo>, notation_errors| FinishedGame {
            slot,
            start: start.clone(),
            moves: game.moves().to_vec(),
            infos,
            outcome,
            notation_errors,
        };

    // Fresh game on both engines; a failure loses the game before a move.
    for (idx, (spec, seat)) in plan.engines.iter().zip(seats.iter_mut()).enumerate() {
        // Every game starts with `ucinewgame` + `isready`, fresh processes
        // included (as Cute Chess does).
        let mut prepare = || -> Result<(), EngineError> {
            if seat.engine.is_none() {
                let e = start_engine(spec, plan.timeout).map_err(|e| match e {
                    SetupError::Start { source, .. } => source,
                    SetupError::NoChess960(name) => EngineError::Exited {
                        engine: name,
                        waiting_for: "UCI_Chess960",
                        status: "option missing".into(),
                    },
                })?;
                seat.engine = Some(e);
            }
            match seat.engine.as_mut() {
                Some(e) => e.new_game().and_then(|_| e.is_ready(plan.timeout)),
                None => Ok(()),
            }
        };
        let ready = prepare();
        if let Err(err) = ready {
            seat.end();
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            let side = colour_of(idx);
            let t = fault_of(&err, false);
            let detail = format!(
                "{} {}: {err}",
                side_name(side),
                if t == Termination::Stall {
                    "stalls"
                } else {
                    "crashes"
                }
            );
            return Some(finish(
                Outcome::fault(side, t, detail),
                &game,
                infos,
                notation_errors,
            ));
        }
    }

    let mut clocks = [
        Clock::new(plan.engines[by_colour[0]].limits),
        Clock::new(plan.engines[by_colour[1]].limits),
    ];
    let mut adjudicator = Adjudicator::new(plan.rules);
    // Each engine's `position` line, extended by one move per ply instead
    // of rebuilt from the whole move list every move.
    let mut position_lines = [0, 1].map(|i| {
        PositionCommand::fen(position_fen(&start, plan.engines[i].fen), Vec::new()).to_string()
    });
    // The `go` line of a side whose limits do not depend on its clock is the
    // same every move (by colour: White 0, Black 1).
    let mut fixed_go: [Option<String>; 2] = [None, None];
    let outcome = loop {
        if stop.load(Ordering::SeqCst) {
            for seat in seats.iter_mut() {
                seat.end();
            }
            return None;
        }
        if let Some(o) = game.rules_outcome() {
            break o;
        }
        let side = game.turn();
        let idx = by_colour[colour_index(side)];
        let Some(engine) = seats[idx].engine.as_mut() else {
            break Outcome::fault(
                side,
                Termination::Crash,
                format!("{} has no engine", side_name(side)),
            );
        };
        let clock = &clocks[colour_index(side)];
        let timed = clock.limits().is_timed();
        let timeout = match clock.allowed() {
            Some(allowed) => allowed + plan.margin + Duration::from_millis(10),
            None => plan.timeout,
        };
        let go_line = |clocks: &[Clock; 2]| {
            // Through `GoParams`: keywords in the specification's order.
            GoParams::parse(&go_command(&clocks[0], &clocks[1], side)).to_string()
        };
        let timed_go;
        let go: &str = if clock.limits().tc.is_some() {
            timed_go = go_line(&clocks);
            &timed_go
        } else {
            fixed_go[colour_index(side)].get_or_insert_with(|| go_line(&clocks))
        };
        let result = engine.position_and_go(&position_lines[idx], go, timeout);
        let r = match result {
            Ok(r) => r,
            Err(err) => {
                broken[idx] = true;
                if stop.load(Ordering::SeqCst) {
                    for seat in seats.iter_mut() {
                        seat.end();
                    }
                    return None;
                }
                let t = fault_of(&err, timed);
                let verb = match t {
                    Termination::TimeForfeit => "loses on time",
                    Termination::Stall => "stalls",
                    _ => "crashes",
                };
                break Outcome::fault(side, t, format!("{} {verb}: {err}", side_name(side)));
            }
        };
        if let Err(flag) = clocks[colour_index(side)].stop(r.elapsed, plan.margin) {
            break Outcome::fault(
                side,
                Termination::TimeForfeit,
                format!(
                    "{} loses on time ({} ms used, {} ms allowed)",
                    side_name(side),
                    flag.used.as_millis(),
                    flag.allowed.as_millis()
                ),
            );
        }
        let text = r.bestmove.clone().unwrap_or_default();
        match game.play_engine_move(&text) {
            Ok(accepted) => {
                if accepted.notation_error {
                    notation_errors[idx] += 1;
                }
                let uci = UciMove::from_move(accepted.mv, CastlingMode::Chess960);
                for line in &mut position_lines {
                    if game.moves().len() == 1 {
                        line.push_str(" moves");
                    }
                    // Writing to a String cannot fail.
                    let _ = write!(line, " {uci}");
                }
                let score = r.score.as_ref().map(to_score);
                infos.push(MoveInfo {
                    score,
                    depth: r.depth,
                    millis: r.elapsed.as_millis() as u64,
                });
                let fullmove =
                    game.position().fullmoves().get() - if side == Color::Black { 1 } else { 0 };
                if let Some(o) =
                    adjudicator.after_move(side, fullmove, game.moves().len() as u32, score)
                {
                    break o;
                }
            }
            Err(refused) => {
                if refused.notation_error {
                    notation_errors[idx] += 1;
                }
                let shown = if text.is_empty() {
                    "(empty)".to_string()
                } else {
                    text
                };
                break Outcome::fault(
                    side,
                    Termination::IllegalMove,
                    format!(
                        "{} makes an illegal move: {shown} ({})",
                        side_name(side),
                        refused.reason
                    ),
                );
            }
        }
    };
    for (seat, broken) in seats.iter_mut().zip(broken) {
        if broken || plan.restart {
            seat.end();
        }
    }
    Some(finish(outcome, &game, infos, notation_errors))
}

/// Appends whole games to the PGN file, flushed after each.
struct PgnSink {
    file: Option<File>,
}

impl PgnSink {
    fn write(&mut self, text: &str) -> anyhow::Result<()> {
        if let Some(f) = self.file.as_mut() {
            f.write_all(text.as_bytes())
                .and_then(|_| f.flush())
                .context("writing the PGN file")?;
        }
        Ok(())
    }
}

/// The PGN text of a finished game.
pub fn game_pgn(plan: &MatchPlan, g: &FinishedGame) -> String {
    let [w, b] = g.slot.engines();
    let mut tags: Vec<(String, String)> = plan.tags.clone();
    tags.push(("Round".into(), g.slot.number.to_string()));
    tags.push(("White".into(), plan.engines[w].name.clone()));
    tags.push(("Black".into(), plan.engines[b].name.clone()));
    let (tw, tb) = (
        plan.engines[w].limits.pgn_tag(),
        plan.engines[b].limits.pgn_tag(),
    );
    if tw == tb {
        tags.push(("TimeControl".into(), tw));
    } else {
        tags.push(("WhiteTimeControl".into(), tw));
        tags.push(("BlackTimeControl".into(), tb));
    }
    tags.push(("Termination".into(), g.outcome.termination.tag().into()));
    for (colour, idx) in [("White", w), ("Black", b)] {
        if g.notation_errors[idx] > 0 {
            tags.push((
                format!("{colour}NotationErrors"),
                g.notation_errors[idx].to_string(),
            ));
        }
    }
    write_game(&PgnGame {
        tags,
        start: &g.start,
        moves: &g.moves,
        infos: &g.infos,
        result: g.outcome.result.pgn(),
        final_comment: Some(&g.outcome.detail),
    })
}

/// Runs the match. `first` is the already-started engine pair of worker 0
/// (started by the caller to check UCI_Chess960 and learn the names).
pub fn run(
    plan: MatchPlan,
    first: [Option<UciEngine>; 2],
    mut tally: Tally,
    interrupted: Arc<AtomicBool>,
) -> anyhow::Result<MatchReport> {
    let mut sink = PgnSink {
        file: match &plan.pgn {
            Some(path) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("opening PGN file {}", path.display()))?,
            ),
            None => None,
        },
    };
    let queue: Mutex<VecDeque<Slot>> = Mutex::new(pending(plan.games, &plan.done));
    let remaining = queue.lock().map(|q| q.len()).unwrap_or(0);
    let stop = AtomicBool::new(false);
    let workers = plan.concurrency.clamp(1, remaining.max(1));

    let bar = if plan.progress {
        let bar =
            ProgressBar::with_draw_target(Some(plan.games as u64), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {elapsed_precise}  {msg}")
        {
            bar.set_style(style);
        }
        bar.set_position(plan.done.len() as u64);
        bar.set_message(tally.score_line());
        bar
    } else {
        ProgressBar::hidden()
    };

    let (tx, rx) = std::sync::mpsc::channel::<FinishedGame>();
    let mut sprt_stopped = false;
    let plan_ref = &plan;
    let mut first = Some(first);
    let result: anyhow::Result<()> = std::thread::scope(|scope| {
        for w in 0..workers {
            let tx = tx.clone();
            let queue = &queue;
            let stop = &stop;
            let interrupted = &interrupted;
            let engines = if w == 0 { first.take() } else { None };
            scope.spawn(move || {
                let [a, b] = engines.unwrap_or([None, None]);
                let mut seats = [Seat { engine: a }, Seat { engine: b }];
                loop {
                    if stop.load(Ordering::SeqCst) || interrupted.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some(slot) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                        break;
                    };
                    match play_game(plan_ref, &mut seats, slot, interrupted) {
                        Some(g) => {
                            if tx.send(g).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
                for seat in seats.iter_mut() {
                    seat.end();
                }
            });
        }
        drop(tx);
        for g in rx.iter() {
            // A game that ended after SIGINT may have ended because of it
            // (engines share the terminal's process group): abandon it.
            if interrupted.load(Ordering::SeqCst) {
                continue;
            }
            sink.write(&game_pgn(plan_ref, &g))?;
            tally.record(&g.summary());
            bar.inc(1);
            bar.set_message(tally.score_line());
            if let Some(sprt) = &plan_ref.sprt
                && !sprt_stopped
                && sprt.verdict(sprt.llr(&tally.pentanomial())) != SprtVerdict::Continue
            {
                sprt_stopped = true;
                stop.store(true, Ordering::SeqCst);
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    result?;
    Ok(MatchReport {
        tally,
        interrupted: interrupted.load(Ordering::SeqCst),
        sprt_stopped,
    })
}

/// White 0, Black 1: the order of `[white, black]` arrays here (shakmaty's
/// own `Color as usize` is the other way round).
fn colour_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}
