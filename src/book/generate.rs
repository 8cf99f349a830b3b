//! The book as one seeded sequence: candidate lines in order, each judged
//! in that order, the kept ones numbered and handed to a writer.
//!
//! ```text
//! start k ─► plies (random or engine, openings::engine_plies::next_ply) ─► rules ─► unique ─► eval window ─► rank r ─► shard owns r? ─► write
//! ```
//!
//! * Candidate `k` (0, 1, 2, …) takes the `k`-th start of the stream and
//!   draws its plies and moves from its own random stream
//!   ([`super::plies::LineRngs`]), so it comes out the same whichever
//!   thread or engine process plays it.
//! * Unique: a line whose last position (after the rules) was reached by an
//!   earlier candidate is a duplicate, whatever became of the earlier one.
//!   Judged in candidate order on the whole sequence, before the
//!   evaluation window and before slicing.
//! * The first `count` kept lines are the book; their rank is their place
//!   in it. A shard writes its ranks only ([`super::shard`]).
//! * Engine work runs on `concurrency` threads, one engine process each;
//!   results come back in any order and are judged in candidate order. A
//!   thread that finds its line's position already claimed by an earlier
//!   candidate skips the evaluation (the line is a duplicate either way).
//! * Supply runs out (e.g. `--start all --plies 0 --count 2000`): after
//!   [`GIVE_UP_AFTER`] candidates in a row without a kept line the run
//!   stops and says so. A book passed through (`--start book:FILE`, no
//!   plies) stops after its last line: a second round gives only
//!   duplicates.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move, Position};

use super::engine::{BookEngine, BookEngineError};
use super::filter::{DropReason, Eval, EvalView, Tally, Windows, rules_verdict};
use super::plies::{LineRngs, MAX_PLIES, PlyRange};
use super::shard::Shard;
use super::stored::StoredLines;
use super::unique::{KeyHasher, SeenPositions, position_key};
use super::wdl::WdlSource;
use crate::engines::EngineSpec;
use crate::openings::engine_plies::{EnginePlyError, PlyChoice, next_ply};
use crate::openings::{Drawn, MethodError, PositionSource, StartSpec};

/// Candidates in a row without a kept line before the run gives up.
pub const GIVE_UP_AFTER: u64 = 100_000;

/// How the plies are chosen: the openings room's [`PlyChoice`] (the
/// book's name for it).
pub type MoveChoice = PlyChoice;

/// Everything that defines a book (and the slice of it to write).
#[derive(Clone, Debug)]
pub struct BookPlan {
    pub start: StartSpec,
    /// Shuffle a complete set (`all`, `dfrc-all`) by the seed.
    pub shuffle: bool,
    pub seed: u64,
    pub plies: PlyRange,
    pub moves: MoveChoice,
    /// The engine, when moves or the window need one (or `ce` is wanted).
    pub engine: Option<EngineSpec>,
    /// How long the engine may take for one search or `isready` (a hang
    /// guard).
    pub engine_timeout: Duration,
    /// Engine processes working at once.
    pub concurrency: usize,
    pub window: Windows,
    pub view: EvalView,
    pub no_check: bool,
    /// Kept lines in the whole book.
    pub count: u64,
    pub shard: Shard,
    /// A book passed through (`--start book:FILE`, no plies): its lines'
    /// stored moves, and without an engine their stored evaluations.
    pub stored: Option<Arc<StoredLines>>,
}

/// A candidate line: where it started, the moves played, where it ended.
#[derive(Clone, Debug)]
pub struct BookLine {
    pub index: u64,
    pub start: Drawn,
    pub moves: Vec<Move>,
    pub position: Chess,
    pub eval: Option<Eval>,
}

impl BookLine {
    fn new(index: u64, start: Drawn) -> BookLine {
        BookLine {
            index,
            position: start.position.clone(),
            start,
            moves: Vec::with_capacity(MAX_PLIES as usize),
            eval: None,
        }
    }

    fn reset(&mut self, index: u64, start: Drawn) {
        self.index = index;
        self.position.clone_from(&start.position);
        self.start = start;
        self.moves.clear();
        self.eval = None;
    }
}

/// Why the run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The book has `count` lines.
    Complete,
    /// [`GIVE_UP_AFTER`] candidates in a row were dropped.
    Exhausted,
    /// A book passed through was read once, every line (a second round
    /// could only give duplicates).
    EndOfBook,
    /// The interrupt flag was raised.
    Interrupted,
}

/// How a run went.
#[derive(Clone, Copy, Debug)]
pub struct Generated {
    pub tally: Tally,
    /// Lines handed to the writer (this shard's).
    pub written: u64,
    pub stop: Stop,
}

/// Why a book could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error(transparent)]
    Start(#[from] MethodError),
    #[error(transparent)]
    Engine(#[from] BookEngineError),
    #[error("writing the book: {0}")]
    Write(#[source] io::Error),
}

/// Receives each kept line of the shard with its rank.
pub type Sink<'a> = dyn FnMut(u64, &BookLine) -> io::Result<()> + 'a;

/// Makes the book: every kept line of the plan's shard goes to `sink`, in
/// rank order; `progress` sees the tally now and then. Stops early, with
/// what was written so far, when `interrupted` is raised.
pub fn generate(
    plan: &BookPlan,
    interrupted: &AtomicBool,
    sink: &mut Sink,
    progress: &mut dyn FnMut(&Tally),
) -> Result<Generated, BookError> {
    let starts = PositionSource::for_start(&plan.start, plan.seed, plan.shuffle)?;
    let judge = Judge {
        plan,
        interrupted,
        sink,
        progress,
        seen: SeenPositions::with_capacity(plan.count.min(1 << 24) as usize),
        tally: Tally::default(),
        misses: 0,
        written: 0,
    };
    match &plan.engine {
        None => run_inline(starts, judge),
        Some(setup) => run_engines(setup, starts, judge),
    }
}

/// Judges candidates in order, hands the kept ones to the sink, shows the
/// progress and says when to stop: everything of a run but the playing.
struct Judge<'a> {
    plan: &'a BookPlan,
    interrupted: &'a AtomicBool,
    sink: &'a mut Sink<'a>,
    progress: &'a mut dyn FnMut(&Tally),
    seen: SeenPositions,
    tally: Tally,
    /// Candidates in a row without a kept line.
    misses: u64,
    written: u64,
}

impl Judge<'_> {
    /// Judges the next candidate; `rules` is the rules' verdict on its last
    /// position, `key` that position's key.
    fn judge(
        &mut self,
        line: &BookLine,
        rules: Option<DropReason>,
        key: u64,
    ) -> Result<(), BookError> {
        self.tally.candidates += 1;
        match line.eval.map(|e| e.wdl_source) {
            Some(WdlSource::Engine) => self.tally.wdl_engine += 1,
            Some(WdlSource::Model) => self.tally.wdl_model += 1,
            Some(WdlSource::Stored) => self.tally.wdl_stored += 1,
            None => {}
        }
        let verdict = rules
            .or_else(|| (!self.seen.insert(key)).then_some(DropReason::Duplicate))
            .or_else(|| {
                let windows = self.plan.window;
                if !windows.any() {
                    return None;
                }
                // The evaluation is only skipped for duplicates, caught above.
                let inside = line
                    .eval
                    .is_some_and(|e| windows.contain(&e, self.plan.view));
                (!inside).then_some(DropReason::Window)
            });
        match verdict {
            Some(reason) => {
                self.tally.drop(reason);
                self.misses += 1;
            }
            None => {
                let rank = self.tally.kept;
                self.tally.kept += 1;
                self.misses = 0;
                if self.plan.shard.owns(rank) {
                    (self.sink)(rank, line).map_err(BookError::Write)?;
                    self.written += 1;
                }
            }
        }
        Ok(())
    }

    /// Why the run should stop now, if it should.
    fn stop(&self) -> Option<Stop> {
        if self.tally.kept >= self.plan.count {
            Some(Stop::Complete)
        } else if self.interrupted.load(Ordering::Relaxed) {
            Some(Stop::Interrupted)
        } else if self
            .plan
            .stored
            .as_ref()
            .is_some_and(|s| self.tally.candidates >= s.positions() as u64)
        {
            Some(Stop::EndOfBook)
        } else if self.misses >= GIVE_UP_AFTER {
            Some(Stop::Exhausted)
        } else {
            None
        }
    }

    fn show_progress(&mut self) {
        (self.progress)(&self.tally);
    }

    fn summary(&self, stop: Stop) -> Generated {
        Generated {
            tally: self.tally,
            written: self.written,
            stop,
        }
    }
}

/// Plays the plies of `line` (already reset to its start); returns the
/// rules' verdict on the last position.
fn play_line(
    line: &mut BookLine,
    rng: &mut ChaCha8Rng,
    plan: &BookPlan,
    mut engine: Option<&mut BookEngine>,
) -> Result<Option<DropReason>, BookEngineError> {
    let plies = plan.plies.draw(rng);
    for _ in 0..plies {
        let mv = next_ply(
            plan.moves,
            engine.as_deref_mut().map(BookEngine::plies),
            (&line.start.position, &line.moves, &line.position),
            rng,
        )?;
        match mv {
            Some(m) => {
                line.position.play_unchecked(m);
                line.moves.push(m);
            }
            None => break,
        }
    }
    Ok(rules_verdict(&line.position, plan.no_check))
}

/// Lines without an engine: all on this thread, one reused line buffer.
fn run_inline(mut starts: PositionSource, mut judge: Judge) -> Result<Generated, BookError> {
    let plan = judge.plan;
    let rngs = LineRngs::new(plan.seed);
    let mut rng = rngs.line(0);
    let mut line = BookLine::new(0, starts.next_position());
    let mut first = true;
    let mut index = 0u64;
    loop {
        if let Some(stop) = judge.stop() {
            judge.show_progress();
            return Ok(judge.summary(stop));
        }
        if !first {
            line.reset(index, starts.next_position());
        }
        first = false;
        rngs.for_line(index, &mut rng);
        let rules = play_line(&mut line, &mut rng, plan, None)?;
        if let Some(stored) = &plan.stored {
            stored.restore(&mut line, true);
        }
        judge.judge(&line, rules, position_key(&line.position))?;
        index += 1;
        if index.is_multiple_of(4096) {
            judge.show_progress();
        }
    }
}

/// A line for a worker.
struct Job {
    index: u64,
    start: Drawn,
}

/// A worker's answer: the played line with the rules' verdict and key.
struct Done {
    line: BookLine,
    rules: Option<DropReason>,
    key: u64,
}

type Claims = Mutex<HashMap<u64, u64, BuildHasherDefault<KeyHasher>>>;

/// What every worker of a run shares.
struct Workshop<'a> {
    plan: &'a BookPlan,
    setup: &'a EngineSpec,
    rngs: LineRngs,
    /// Earliest candidate to reach each position: lets a worker skip the
    /// evaluation of a line that is a duplicate whatever else happens.
    claims: Claims,
    /// Workers take turns at the one queue.
    jobs: Mutex<mpsc::Receiver<Job>>,
}

/// Lines with an engine: `concurrency` workers, one engine each; results
/// judged here in candidate order.
fn run_engines(
    setup: &EngineSpec,
    mut starts: PositionSource,
    mut judge: Judge,
) -> Result<Generated, BookError> {
    let plan = judge.plan;
    let workers = plan.concurrency.max(1);
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let shop = Workshop {
        plan,
        setup,
        rngs: LineRngs::new(plan.seed),
        claims: Mutex::new(HashMap::default()),
        jobs: Mutex::new(job_rx),
    };
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<Result<Done, BookEngineError>>();
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            let shop = &shop;
            scope.spawn(move || work(shop, done_tx));
        }
        drop(done_tx);

        let in_flight_max = 2 * workers as u64;
        let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
        let (mut issued, mut judged) = (0u64, 0u64);
        let result = loop {
            if let Some(stop) = judge.stop() {
                break Ok(judge.summary(stop));
            }
            while issued - judged < in_flight_max {
                let job = Job {
                    index: issued,
                    start: starts.next_position(),
                };
                if job_tx.send(job).is_err() {
                    break;
                }
                issued += 1;
            }
            match done_rx.recv_timeout(Duration::from_millis(200)) {
                Ok(Ok(done)) => {
                    pending.insert(done.line.index, done);
                }
                Ok(Err(e)) => break Err(BookError::Engine(e)),
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                // Every worker that ends early sends its error first.
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    break Ok(judge.summary(Stop::Interrupted));
                }
            }
            let mut failed = None;
            while let Some(done) = pending.remove(&judged) {
                if let Err(e) = judge.judge(&done.line, done.rules, done.key) {
                    failed = Some(e);
                    break;
                }
                judged += 1;
                judge.show_progress();
                if judge.stop().is_some() {
                    break;
                }
            }
            if let Some(e) = failed {
                break Err(e);
            }
        };
        // Closing the queue first: a worker waiting in `recv` holds the
        // queue's lock, and only a closed (or fed) queue wakes it, so
        // locking to empty the queue before closing it could wait forever.
        // Then emptying it ends the workers after the line each is playing.
        drop(job_tx);
        if let Ok(queue) = shop.jobs.lock() {
            while queue.try_recv().is_ok() {}
        }
        judge.show_progress();
        result
    })
}

/// One worker: starts its engine, then plays lines until the queue closes.
fn work(shop: &Workshop, done: mpsc::Sender<Result<Done, BookEngineError>>) {
    let mut engine = match BookEngine::start(shop.setup, shop.plan.engine_timeout) {
        Ok(e) => e,
        Err(e) => {
            let _ = done.send(Err(e));
            return;
        }
    };
    if matches!(shop.plan.moves, MoveChoice::Engine { .. }) && !engine.has_multipv() {
        let no_multipv = EnginePlyError::NoMultiPv(engine.name().to_string());
        let _ = done.send(Err(no_multipv.into()));
        engine.quit();
        return;
    }
    let mut rng = shop.rngs.line(0);
    loop {
        // The lock is held while waiting: the other workers would wait for
        // the same queue anyway.
        let next = match shop.jobs.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => break,
        };
        let Ok(job) = next else { break };
        let result = play_engine_line(shop, &mut engine, &mut rng, job);
        let failed = result.is_err();
        if done.send(result).is_err() || failed {
            break;
        }
    }
    engine.quit();
}

fn play_engine_line(
    shop: &Workshop,
    engine: &mut BookEngine,
    rng: &mut ChaCha8Rng,
    job: Job,
) -> Result<Done, BookEngineError> {
    let mut line = BookLine::new(job.index, job.start);
    shop.rngs.for_line(job.index, rng);
    engine.new_line()?;
    let rules = play_line(&mut line, rng, shop.plan, Some(engine))?;
    if let Some(stored) = &shop.plan.stored {
        // The moves that led here go to the engine too; it evaluates anew.
        stored.restore(&mut line, false);
    }
    let key = position_key(&line.position);
    if rules.is_none() {
        let claimed_earlier = match shop.claims.lock() {
            Ok(mut map) => {
                let first = map.entry(key).or_insert(job.index);
                *first = (*first).min(job.index);
                *first < job.index
            }
            Err(_) => false,
        };
        if !claimed_earlier {
            line.eval = Some(engine.evaluate(&line.start.position, &line.moves, &line.position)?);
        }
    }
    Ok(Done { line, rules, key })
}
