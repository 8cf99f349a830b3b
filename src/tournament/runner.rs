//! Plays the games: N worker threads take games from a shared [`Feed`]
//! (the schedule and the opening stream, advanced in game order), each
//! worker with its own engine processes; the calling thread collects each
//! finished game and hands it to the caller's `on_game` (which writes it
//! and keeps the standings) and stops everything at once when that fails,
//! on SIGINT, or when the SPRT decides.
//!
//! Engines are reused between games (`ucinewgame` + `isready`) unless
//! `restart` is set. A worker keeps one process per engine it has played
//! (started when first needed). An engine that crashed, stalled or overran
//! its time is ended and a fresh one started for its next game (the lost
//! game is scored and its `Termination` says why). If that fresh start
//! fails: with `--recover` it is tried [`RECOVER_ATTEMPTS`] times, then the
//! game is forfeited and the tournament goes on; without it the game is
//! forfeited and the tournament stops (exit 3) — an engine that cannot be
//! started is a runtime failure, not a result.
//!
//! On interrupt or a write failure, games in progress are abandoned (never
//! written) and engines are ended.
//!
//! Per move a worker sends one write (`position … moves …` kept as a string
//! extended by each move, plus the `go` line) and reads the engine's lines
//! until `bestmove`; SAN and the PGN text are made once per game, by the
//! collector (docs/BENCHMARKS.md, "Match runner", has the costs).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use super::schedule::{Next, Schedule, Scheduler, Slot};
use crate::engines::{Chess960, EngineSpec, start_engine};
use crate::game::adjudication::{Adjudicator, Rules};
use crate::game::arbiter::side_name;
use crate::game::clock::go_command;
use crate::game::pgn::{MoveInfo, PgnGame, write_game};
use crate::game::{CastlingPolicy, Clock, Game, GameEnd, GameResult, Termination};
use crate::notation::castling::{CastlingNotation, engine_text, push_engine_moves};
use crate::notation::fen::position_fen;
use crate::openings::{Opening, OpeningSource};
use crate::shard::Shard;
use crate::uci::{GoParams, PositionCommand};
use crate::uci_client::{EngineError, UciEngine};
use crate::utc::{UtcTime, pgn_duration};

/// Starts tried per game for an engine that cannot be started, with
/// `--recover`.
pub const RECOVER_ATTEMPTS: u32 = 3;

/// What every game shares.
pub struct GameContext {
    pub engines: Vec<EngineSpec>,
    pub castling: CastlingPolicy,
    pub rules: Rules,
    pub restart: bool,
    pub recover: bool,
    /// Grace beyond the allowed time before a time forfeit.
    pub margin: Duration,
    /// How long an untimed engine may stay silent (stall).
    pub timeout: Duration,
    /// Extra PGN tags after the roster (Event, Site, Date and the like).
    pub tags: Vec<(String, String)>,
}

/// A game as it finished.
pub struct FinishedGame {
    pub slot: Slot,
    pub opening: Arc<Opening>,
    /// Every move, the opening's first.
    pub moves: Vec<Move>,
    /// One per engine move (after the opening's).
    pub infos: Vec<MoveInfo>,
    pub end: GameEnd,
    /// Castling-notation errors of White, then Black.
    pub notation_errors: [u32; 2],
    /// Wall-clock start and end (PGN `GameStartTime`, `GameEndTime`).
    pub started: SystemTime,
    pub ended: SystemTime,
}

/// Tells workers to stop: SIGINT/SIGTERM, or a failure of the collector.
pub struct StopSignal {
    pub signal: Arc<AtomicBool>,
    abort: AtomicBool,
}

impl StopSignal {
    pub fn new(signal: Arc<AtomicBool>) -> StopSignal {
        StopSignal {
            signal,
            abort: AtomicBool::new(false),
        }
    }

    pub fn is_set(&self) -> bool {
        self.signal.load(Ordering::SeqCst) || self.abort.load(Ordering::SeqCst)
    }

    pub fn interrupted(&self) -> bool {
        self.signal.load(Ordering::SeqCst)
    }

    pub fn abort(&self) {
        self.abort.store(true, Ordering::SeqCst);
    }
}

/// The games still to hand out, in game order, with their openings drawn
/// as they are reached (a stream: memory does not grow with the number of
/// games). The tournament's [`Scheduler`] decides the games; games already
/// done (a resume) are fed their recorded results and skipped, and their
/// openings drawn and dropped, so a resumed tournament sees the same games
/// and openings as an uninterrupted one.
pub struct Feed {
    inner: Mutex<FeedState>,
    /// Signalled when a result comes in or the feed closes (a worker may
    /// wait for a knockout's next stage).
    changed: Condvar,
}

struct FeedState {
    scheduler: Box<dyn Scheduler>,
    done: BTreeMap<u64, GameResult>,
    source: OpeningSource,
    /// Openings drawn so far; `current` is the last of them.
    drawn: u64,
    current: Option<Arc<Opening>>,
    /// Pairings whose SPRT decided: their remaining games are skipped.
    closed: Vec<bool>,
    /// No more games (the collector finished or stopped).
    shut: bool,
    /// The part of the schedule this process plays (`--shard`).
    shard: Shard,
}

impl Feed {
    /// `done`: games already played, with their results.
    pub fn new(
        schedule: &Schedule,
        done: BTreeMap<u64, GameResult>,
        source: OpeningSource,
    ) -> Feed {
        let pairings = schedule.pairings().len();
        Feed {
            inner: Mutex::new(FeedState {
                scheduler: schedule.scheduler(),
                done,
                source,
                drawn: 0,
                current: None,
                closed: vec![false; pairings],
                shut: false,
                shard: Shard::WHOLE,
            }),
            changed: Condvar::new(),
        }
    }

    /// Plays only the games of `shard` (see [`super::partition`]); the
    /// openings of the others are still drawn, so every game has the
    /// opening it has in the whole tournament.
    pub fn with_shard(self, shard: Shard) -> Feed {
        if let Ok(mut f) = self.inner.lock() {
            f.shard = shard;
        }
        self
    }

    /// The next game to play and its opening; `None` when there is none
    /// left or `stop` is set. May wait for results of games in flight.
    pub fn take(&self, stop: &StopSignal) -> Option<(Slot, Arc<Opening>)> {
        let mut f = self.inner.lock().ok()?;
        loop {
            if f.shut || stop.is_set() {
                return None;
            }
            let slot = match f.scheduler.next() {
                Next::Game(slot) => slot,
                Next::Done => return None,
                Next::Wait => {
                    // A signal does not notify: look again now and then.
                    f = self
                        .changed
                        .wait_timeout(f, Duration::from_millis(50))
                        .ok()?
                        .0;
                    continue;
                }
            };
            while f.drawn <= slot.opening {
                let o = f.source.next_opening();
                f.current = Some(Arc::new(o));
                f.drawn += 1;
            }
            if let Some(&result) = f.done.get(&slot.number) {
                f.scheduler.record(slot.number, result);
                continue;
            }
            if f.closed.get(slot.pairing).copied().unwrap_or(false)
                || !super::partition::owns(f.shard, &slot)
            {
                continue;
            }
            return f.current.clone().map(|o| (slot, o));
        }
    }

    /// A game's result, for formats whose next games depend on it.
    pub fn record(&self, number: u64, result: GameResult) {
        if let Ok(mut f) = self.inner.lock() {
            f.scheduler.record(number, result);
        }
        self.changed.notify_all();
    }

    /// Skips the remaining games of a pairing.
    pub fn close_pairing(&self, pairing: usize) {
        if let Ok(mut f) = self.inner.lock()
            && let Some(c) = f.closed.get_mut(pairing)
        {
            *c = true;
        }
    }

    /// Hands out nothing more; wakes waiting workers.
    pub fn shut(&self) {
        if let Ok(mut f) = self.inner.lock() {
            f.shut = true;
        }
        self.changed.notify_all();
    }

    /// Runs `f` on the scheduler (for a report of where it stands).
    pub fn with_scheduler<T>(&self, f: impl FnOnce(&dyn Scheduler) -> T) -> Option<T> {
        self.inner.lock().ok().map(|s| f(s.scheduler.as_ref()))
    }
}

/// What the collector says after a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    /// Stop handing out games (SPRT decided); games in progress finish.
    Finish,
}

/// The fault an engine error stands for.
fn fault_of(err: &EngineError, timed: bool) -> Termination {
    match err {
        EngineError::Timeout { .. } if timed => Termination::TimeForfeit,
        EngineError::Timeout { .. } => Termination::Stall,
        _ => Termination::Crash,
    }
}

/// A worker's engine processes, by engine index.
struct Seats(Vec<Option<UciEngine>>);

impl Seats {
    fn end(&mut self, idx: usize) {
        if let Some(e) = self.0.get_mut(idx).and_then(Option::take) {
            e.quit();
        }
    }

    fn end_all(&mut self) {
        for i in 0..self.0.len() {
            self.end(i);
        }
    }
}

/// How a game could not even begin.
enum NoStart {
    /// Abandoned (stop requested).
    Stopped,
    /// The engine could not be started: forfeit, and without `--recover`
    /// the tournament stops.
    Forfeit(GameEnd, bool),
    /// uci960 itself failed (out of descriptors, processes, memory): the
    /// run ends, the game is not played and no engine is charged.
    Runner(String),
}

/// Makes sure engine `idx` runs and is ready for a new game.
fn prepare(
    ctx: &GameContext,
    seats: &mut Seats,
    idx: usize,
    side: Color,
    stop: &StopSignal,
) -> Result<(), NoStart> {
    let spec = &ctx.engines[idx];
    let attempts = if ctx.recover { RECOVER_ATTEMPTS } else { 1 };
    let mut last = None;
    for _ in 0..attempts {
        let fresh = seats.0[idx].is_none();
        if fresh {
            match start_engine(spec, ctx.timeout, Chess960::Required) {
                Ok(e) => seats.0[idx] = Some(e),
                Err(e) => {
                    if let Some(why) = e.runner_failure() {
                        return Err(NoStart::Runner(why));
                    }
                    last = Some((e.into_engine_error(), true));
                    if stop.is_set() {
                        return Err(NoStart::Stopped);
                    }
                    continue;
                }
            }
        }
        // Every game starts with `ucinewgame` + `isready`, fresh processes
        // included (as Cute Chess does).
        let ready = match seats.0[idx].as_mut() {
            Some(e) => e.new_game().and_then(|_| e.is_ready(ctx.timeout)),
            None => Ok(()),
        };
        match ready {
            Ok(()) => return Ok(()),
            Err(err) => {
                seats.end(idx);
                if stop.is_set() {
                    return Err(NoStart::Stopped);
                }
                if let Some(why) = err.runner_failure() {
                    return Err(NoStart::Runner(why));
                }
                // A process that was running failed between games: it is
                // this game's fault of the engine (lost), as before.
                if !fresh {
                    return Err(NoStart::Forfeit(fault_end(side, &err, false), false));
                }
                last = Some((err, true));
            }
        }
    }
    match last {
        Some((err, cannot_start)) => Err(NoStart::Forfeit(
            fault_end(side, &err, false),
            cannot_start && !ctx.recover,
        )),
        None => Ok(()),
    }
}

fn fault_end(side: Color, err: &EngineError, timed: bool) -> GameEnd {
    let t = fault_of(err, timed);
    let verb = match t {
        Termination::TimeForfeit => "loses on time",
        Termination::Stall => "stalls",
        _ => "crashes",
    };
    GameEnd::fault(side, t, format!("{} {verb}: {err}", side_name(side)))
}

/// A played game, or why not.
enum Played {
    Game(FinishedGame),
    /// Forfeited because an engine cannot be started; `true`: stop the
    /// tournament after it (no `--recover`).
    Forfeit(FinishedGame, bool),
    Abandoned,
    /// uci960's own failure ([`NoStart::Runner`]).
    RunnerFailed(String),
}

/// Plays one game.
fn play_game(
    ctx: &GameContext,
    seats: &mut Seats,
    slot: Slot,
    opening: Arc<Opening>,
    stop: &StopSignal,
) -> Played {
    let by_colour = slot.engines(); // [white idx, black idx]
    let mut game = Game::new(opening.initial.clone(), ctx.castling);
    for &mv in &opening.moves {
        game.play(mv);
    }
    let book = opening.moves.len();
    let mut infos = Vec::new();
    let mut notation_errors = [0u32; 2];
    let mut broken = [false; 2];
    let started = SystemTime::now();

    let finish = |end: GameEnd, game: &Game, infos: Vec<MoveInfo>, notation_errors| FinishedGame {
        slot,
        opening: Arc::clone(&opening),
        moves: game.moves().to_vec(),
        infos,
        end,
        notation_errors,
        started,
        ended: SystemTime::now(),
    };

    // Fresh game on both engines; a failure loses the game before a move.
    for (ci, side) in [(0, Color::White), (1, Color::Black)] {
        match prepare(ctx, seats, by_colour[ci], side, stop) {
            Ok(()) => {}
            Err(NoStart::Stopped) => return Played::Abandoned,
            Err(NoStart::Runner(why)) => return Played::RunnerFailed(why),
            Err(NoStart::Forfeit(end, fatal)) => {
                return Played::Forfeit(finish(end, &game, infos, notation_errors), fatal);
            }
        }
    }

    let mut clocks = [
        Clock::new(ctx.engines[by_colour[0]].limits),
        Clock::new(ctx.engines[by_colour[1]].limits),
    ];
    let mut adjudicator = Adjudicator::new(ctx.rules);
    // Each side's `position` line, extended by one move per ply instead
    // of rebuilt from the whole move list every move; castles written in
    // the notation each engine speaks (its `castles` setting).
    let notations = by_colour.map(|i| ctx.engines[i].castling_notation(true));
    let mut position_lines = [0, 1].map(|ci| {
        let mut line = PositionCommand::fen(
            position_fen(&opening.initial, ctx.engines[by_colour[ci]].fen),
            Vec::new(),
        )
        .to_string();
        if book > 0 {
            line.push_str(" moves");
            push_engine_moves(&mut line, &opening.initial, &opening.moves, notations[ci]);
        }
        line
    });
    // The position before each move, kept only for an engine whose
    // castles are not king-takes-rook (its castles' text depends on it).
    let track = notations.contains(&CastlingNotation::KingTwoSquares);
    let mut has_moves = book > 0;
    // The `go` line of a side whose limits do not depend on its clock is the
    // same every move (by colour: White 0, Black 1).
    let mut fixed_go: [Option<String>; 2] = [None, None];
    let end = loop {
        if stop.is_set() {
            seats.end_all();
            return Played::Abandoned;
        }
        if let Some(o) = game.rules_end() {
            break o;
        }
        let side = game.turn();
        let ci = colour_index(side);
        let idx = by_colour[ci];
        let Some(engine) = seats.0[idx].as_mut() else {
            break GameEnd::fault(
                side,
                Termination::Crash,
                format!("{} has no engine", side_name(side)),
            );
        };
        let clock = &clocks[ci];
        let timed = clock.limits().is_timed();
        let timeout = match clock.allowed() {
            Some(allowed) => allowed + ctx.margin + Duration::from_millis(10),
            None => ctx.timeout,
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
            fixed_go[ci].get_or_insert_with(|| go_line(&clocks))
        };
        let result = engine.position_and_go(&position_lines[ci], go, timeout);
        let r = match result {
            Ok(r) => r,
            Err(err) => {
                broken[ci] = true;
                if stop.is_set() {
                    seats.end_all();
                    return Played::Abandoned;
                }
                // uci960's own failure: the game is not played, no one
                // is charged.
                if let Some(why) = err.runner_failure() {
                    seats.end_all();
                    return Played::RunnerFailed(why);
                }
                break fault_end(side, &err, timed);
            }
        };
        if let Err(flag) = clocks[ci].stop(r.elapsed, ctx.margin) {
            break GameEnd::fault(
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
        let before = track.then(|| game.position().clone());
        match game.play_engine_move_in(&text, notations[ci]) {
            Ok(accepted) => {
                if accepted.notation_error {
                    notation_errors[ci] += 1;
                }
                for (line, notation) in position_lines.iter_mut().zip(notations) {
                    if !has_moves {
                        line.push_str(" moves");
                    }
                    line.push(' ');
                    match &before {
                        Some(pos) => line.push_str(&engine_text(pos, accepted.mv, notation)),
                        // Writing to a String cannot fail.
                        None => {
                            let _ = write!(line, "{}", UciMove::from_chess960(accepted.mv));
                        }
                    }
                }
                has_moves = true;
                let score = r.score;
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
                    notation_errors[ci] += 1;
                }
                let shown = if text.is_empty() {
                    "(empty)".to_string()
                } else {
                    text
                };
                break GameEnd::fault(
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
    for (ci, broken) in broken.into_iter().enumerate() {
        if broken || ctx.restart {
            seats.end(by_colour[ci]);
        }
    }
    Played::Game(finish(end, &game, infos, notation_errors))
}

/// The PGN text of a finished game.
pub fn game_pgn(ctx: &GameContext, g: &FinishedGame) -> String {
    let [w, b] = g.slot.engines();
    let mut tags: Vec<(String, String)> = ctx.tags.clone();
    tags.push(("Round".into(), g.slot.number.to_string()));
    tags.push(("White".into(), ctx.engines[w].name.clone()));
    tags.push(("Black".into(), ctx.engines[b].name.clone()));
    let (tw, tb) = (
        ctx.engines[w].limits.pgn_tag(),
        ctx.engines[b].limits.pgn_tag(),
    );
    if tw == tb {
        tags.push(("TimeControl".into(), tw));
    } else {
        tags.push(("WhiteTimeControl".into(), tw));
        tags.push(("BlackTimeControl".into(), tb));
    }
    let (sw, sb) = (
        ctx.engines[w].limits.search_tag(),
        ctx.engines[b].limits.search_tag(),
    );
    if sw == sb {
        if let Some(s) = sw {
            tags.push(("SearchLimit".into(), s));
        }
    } else {
        for (colour, s) in [("White", sw), ("Black", sb)] {
            if let Some(s) = s {
                tags.push((format!("{colour}SearchLimit"), s));
            }
        }
    }
    // As cutechess-cli: start and end to the millisecond, the duration in
    // whole seconds.
    let (start, end) = (UtcTime::from(g.started), UtcTime::from(g.ended));
    let secs = g
        .ended
        .duration_since(g.started)
        .unwrap_or_default()
        .as_secs();
    tags.push(("GameDuration".into(), pgn_duration(secs)));
    tags.push(("GameEndTime".into(), end.pgn_timestamp()));
    tags.push(("GameStartTime".into(), start.pgn_timestamp()));
    tags.push(("Termination".into(), g.end.termination.tag().into()));
    for (colour, errors) in [
        ("White", g.notation_errors[0]),
        ("Black", g.notation_errors[1]),
    ] {
        if errors > 0 {
            tags.push((format!("{colour}NotationErrors"), errors.to_string()));
        }
    }
    write_game(&PgnGame {
        tags,
        initial: &g.opening.initial,
        moves: &g.moves,
        book_plies: g.opening.moves.len(),
        infos: &g.infos,
        result: g.end.result.pgn(),
        final_comment: Some(&g.end.detail),
    })
}

/// Why the runner stopped before the schedule's end.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Ended {
    /// Every game handed out was played (or the collector said finish).
    Done,
    /// SIGINT/SIGTERM.
    Interrupted,
    /// An engine cannot be started and `--recover` is off.
    EngineLost,
    /// uci960 itself failed (out of descriptors, processes, memory): the
    /// reason; no engine was charged.
    RunnerFailed(String),
}

/// Plays the feed's games on `workers` threads. `first` holds engines
/// already started (index by engine) for worker 0. `on_game` runs on the
/// calling thread for each finished game; its error stops everything at
/// once and is returned. A worker takes its next game only once `on_game`
/// has dealt with its last one: a game is written before its worker plays
/// on, so a PGN that cannot be written stops the run within one game per
/// worker however far the writing thread falls behind (a loaded machine, a
/// slow disk), and finished games never pile up in memory.
pub fn run<E>(
    ctx: &GameContext,
    feed: &Feed,
    workers: usize,
    first: Vec<Option<UciEngine>>,
    stop: &StopSignal,
    mut on_start: impl FnMut(&Slot),
    mut on_game: impl FnMut(&FinishedGame) -> Result<Flow, E>,
) -> Result<Ended, E> {
    // Workers say when a game starts (for the `Started game` line) and
    // hand in what it became; both reach the caller on this thread.
    enum Msg {
        Started(Slot),
        /// The game, and where to say it was dealt with (dropped unsaid:
        /// the worker stops).
        Played(Played, mpsc::SyncSender<()>),
    }
    let (tx, rx) = mpsc::channel::<Msg>();
    let mut first = Some(first);
    let n = ctx.engines.len();
    let finish = AtomicBool::new(false);
    let mut ended = Ended::Done;
    let result: Result<(), E> = std::thread::scope(|scope| {
        for w in 0..workers.max(1) {
            let tx = tx.clone();
            let engines = if w == 0 { first.take() } else { None };
            let finish = &finish;
            scope.spawn(move || {
                let mut seats = Seats(engines.unwrap_or_default());
                seats.0.resize_with(n, || None);
                loop {
                    if stop.is_set() || finish.load(Ordering::SeqCst) {
                        break;
                    }
                    let Some((slot, opening)) = feed.take(stop) else {
                        break;
                    };
                    if tx.send(Msg::Started(slot)).is_err() {
                        break;
                    }
                    let played = play_game(ctx, &mut seats, slot, opening, stop);
                    let last = matches!(
                        played,
                        Played::Abandoned | Played::Forfeit(_, true) | Played::RunnerFailed(_)
                    );
                    // The one sender goes with the game: a game dropped
                    // unsaid (a stop, an error) ends the wait.
                    let (dealt_tx, dealt) = mpsc::sync_channel::<()>(1);
                    if tx.send(Msg::Played(played, dealt_tx)).is_err()
                        || last
                        || dealt.recv().is_err()
                    {
                        break;
                    }
                }
                seats.end_all();
            });
        }
        drop(tx);
        // Owned here, so that returning drops the games still queued, and
        // their workers stop waiting, before the scope joins them.
        let rx = rx;
        for msg in rx.iter() {
            // A game that ended after SIGINT may have ended because of it
            // (engines share the terminal's process group): abandon it.
            if stop.is_set() {
                continue;
            }
            let (played, dealt) = match msg {
                Msg::Started(slot) => {
                    on_start(&slot);
                    continue;
                }
                Msg::Played(played, dealt) => (played, dealt),
            };
            let (g, fatal) = match played {
                Played::Game(g) => (g, false),
                Played::Forfeit(g, fatal) => (g, fatal),
                Played::Abandoned => continue,
                Played::RunnerFailed(why) => {
                    ended = Ended::RunnerFailed(why);
                    stop.abort();
                    feed.shut();
                    continue;
                }
            };
            let flow = on_game(&g);
            feed.record(g.slot.number, g.end.result);
            match flow {
                Ok(Flow::Continue) => {}
                Ok(Flow::Finish) => {
                    finish.store(true, Ordering::SeqCst);
                    feed.shut();
                }
                Err(e) => {
                    stop.abort();
                    feed.shut();
                    return Err(e);
                }
            }
            if fatal {
                ended = Ended::EngineLost;
                stop.abort();
                feed.shut();
            }
            // The worker may take its next game (it checks `finish` and
            // `stop` first).
            let _ = dealt.send(());
        }
        Ok(())
    });
    result?;
    if stop.interrupted() && !matches!(ended, Ended::RunnerFailed(_)) {
        ended = Ended::Interrupted;
    }
    Ok(ended)
}

/// White 0, Black 1: the order of `[white, black]` arrays here (shakmaty's
/// own `Color as usize` is the other way round).
fn colour_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The start position of an opening after its moves (for display).
pub fn opening_position(o: &Opening) -> Chess {
    let mut pos = o.initial.clone();
    for &m in &o.moves {
        pos.play_unchecked(m);
    }
    pos
}
