//! One tournament from checked settings to the final standings: engines
//! started once (names, `UCI_Chess960`), the state file created or resumed,
//! the opening stream, the runner, and the outputs written after every game
//! in this order: PGN (fsynced), state file (atomic), JSON.
//!
//! Resume (`--resume`) reads the state file, never the PGN's shape: the
//! tournament's identity (engine names, schedule, openings, seed) must
//! match; games recorded there are not played again; the PGN is cut back
//! to the length the state recorded (dropping a game cut by SIGKILL, or one
//! written but not yet recorded); the same seed gives the same openings and
//! colours, so the resumed PGN holds exactly the games of an uninterrupted
//! run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::config::{OpeningChoice, TournamentSettings};
use super::openings::{OpeningError, OpeningSource};
use super::output::{OutputError, PgnWriter, Progress, finished_line, started_line, write_json};
use super::rundir::Siblings;
use super::runner::{self, Ended, Feed, FinishedGame, Flow, GameContext, StopSignal};
use super::schedule::{Schedule, Slot};
use super::standings::{GameSummary, Standings};
use super::state::{self, GameRecord, State, StateError};
use crate::engines::{Chess960, SetupError, start_engine};
use crate::shard::Shard;

/// Why a tournament could not run (or stopped).
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Opening(#[from] OpeningError),
    #[error(transparent)]
    State(#[from] StateError),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("cannot resume: {0}")]
    Resume(String),
}

impl TournamentError {
    /// 2 for what the user can fix in the arguments or input files, 3 for
    /// runtime failures (an engine that cannot start, a disk that is full).
    pub fn exit_code(&self) -> u8 {
        match self {
            TournamentError::Setup(SetupError::NoChess960(_)) => 2,
            TournamentError::Setup(SetupError::Start { .. }) => 3,
            TournamentError::Opening(_) | TournamentError::Resume(_) => 2,
            TournamentError::State(StateError::Damaged { .. } | StateError::Read(_)) => 2,
            TournamentError::State(_) | TournamentError::Output(_) => 3,
        }
    }
}

/// How the tournament is run.
pub struct Options<'a> {
    pub resume: bool,
    /// The progress bar on stderr (for a terminal).
    pub progress: bool,
    /// Where the live lines go, one call a line (`Started game …`,
    /// `Finished game …`, the standings every `rating_interval` games);
    /// `None` for none (`--quiet`).
    pub lines: Option<&'a dyn Fn(&str)>,
}

/// How it ended.
pub struct Report {
    pub standings: Standings,
    pub ended: Ended,
    pub seed: u64,
    /// The SPRT decided every pairing it watches before the schedule's end.
    pub sprt_stopped: bool,
    /// Where the format stands in words (a knockout's bracket).
    pub bracket: Option<String>,
}

/// The state file: `--state`, else next to the PGN.
pub fn state_path(s: &TournamentSettings) -> Option<PathBuf> {
    s.state
        .clone()
        .or_else(|| s.pgn.as_deref().map(state::default_path))
}

fn opening_source(s: &TournamentSettings, seed: u64) -> Result<OpeningSource, OpeningError> {
    match &s.openings {
        OpeningChoice::Generated {
            method,
            random_plies,
        } => OpeningSource::generated(method, seed, *random_plies),
        OpeningChoice::Book { spec, random_plies } => {
            OpeningSource::book(spec, seed, *random_plies)
        }
    }
}

/// What `--dry-run` reports: the schedule walked to its end.
pub struct DryRun {
    pub games: u64,
    pub pairings: Vec<[usize; 2]>,
    pub openings: u64,
    /// The first games: number, White index, Black index, opening FEN.
    pub first: Vec<(u64, usize, usize, String)>,
}

/// Walks the whole schedule, drawing every opening, without engines
/// (memory stays constant: the schedule and openings are streams).
pub fn dry_run(s: &TournamentSettings, seed: u64) -> Result<DryRun, TournamentError> {
    let feed =
        Feed::new(&s.schedule, BTreeMap::new(), opening_source(s, seed)?).with_shard(s.shard);
    let stop = StopSignal::new(Arc::new(AtomicBool::new(false)));
    let mut out = DryRun {
        games: 0,
        pairings: s.schedule.pairings().to_vec(),
        openings: 0,
        first: Vec::new(),
    };
    let mut last_opening = None;
    while let Some((slot, opening)) = feed.take(&stop) {
        // A knockout's next games depend on results: walk its longest
        // course (every game drawn, every tiebreak played).
        feed.record(slot.number, crate::game::GameResult::Draw);
        out.games += 1;
        if last_opening != Some(slot.opening) {
            out.openings += 1;
            last_opening = Some(slot.opening);
        }
        if out.first.len() < 8 {
            let pos = runner::opening_position(&opening);
            out.first.push((
                slot.number,
                slot.white,
                slot.black,
                crate::notation::fen::position_fen(&pos, crate::notation::fen::FenFlavour::XFen),
            ));
        }
    }
    Ok(out)
}

/// What must match for `--resume`.
fn identity(s: &TournamentSettings, names: &[String], seed: u64) -> serde_json::Value {
    let sch: &Schedule = &s.schedule;
    let mut id = serde_json::json!({
        "engines": names,
        "tournament": sch.kind(),
        "games": sch.games(),
        "rounds": sch.rounds(),
        "openings": s.openings.describe(),
        "seed": seed,
    });
    if s.run_dir.is_some() || s.shard != Shard::WHOLE {
        super::rundir::add_shard_identity(&mut id, s, s.shard);
    }
    id
}

fn differences(old: &serde_json::Value, new: &serde_json::Value) -> Vec<String> {
    let (Some(a), Some(b)) = (old.as_object(), new.as_object()) else {
        return vec!["everything".into()];
    };
    b.iter()
        .filter(|(k, v)| a.get(*k) != Some(*v))
        .map(|(k, v)| {
            format!(
                "{k}: the state file has {}, these arguments give {v}",
                a.get(k).cloned().unwrap_or(serde_json::Value::Null)
            )
        })
        .collect()
}

/// Cuts the PGN back to what the state file recorded.
/// The last `n` bytes of a regular file `len` bytes long.
fn last_bytes(path: &std::path::Path, len: u64, n: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read as _, Seek as _};
    let mut file = std::fs::File::open(path)?;
    file.seek(std::io::SeekFrom::Start(len.saturating_sub(n)))?;
    let mut tail = Vec::new();
    file.take(n).read_to_end(&mut tail)?;
    Ok(tail)
}

fn restore_pgn(
    path: &std::path::Path,
    recorded: u64,
    log: &dyn Fn(String),
) -> Result<(), TournamentError> {
    let len = match std::fs::metadata(path) {
        // A device or FIFO (`--pgn /dev/null`) holds nothing to repair, and
        // reading one may never end (`/dev/zero`) or never start (a FIFO).
        Ok(m) if !m.is_file() => return Ok(()),
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(source) => {
            return Err(OutputError::Open {
                what: "PGN file",
                path: path.to_path_buf(),
                source,
            }
            .into());
        }
    };
    if len > recorded {
        log(format!(
            "{}: dropping {} bytes after the last recorded game (a game in flight)",
            path.display(),
            len - recorded
        ));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(recorded).and_then(|_| f.sync_all()));
        file.map_err(|source| OutputError::Write {
            what: "PGN file",
            path: path.to_path_buf(),
            source,
        })?;
    } else if len < recorded {
        log(format!(
            "{}: shorter ({len} bytes) than the state file records ({recorded}); kept as it is",
            path.display()
        ));
        // Games follow one another after a blank line; put back what an
        // edit took away so the next game does not run into the last one.
        let text = last_bytes(path, len, 2).unwrap_or_default();
        let missing: &[u8] = if text.is_empty() || text.ends_with(b"\n\n") {
            b""
        } else if text.ends_with(b"\n") {
            b"\n"
        } else {
            b"\n\n"
        };
        if !missing.is_empty() {
            use std::io::Write as _;
            std::fs::OpenOptions::new()
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(missing))
                .map_err(|source| OutputError::Write {
                    what: "PGN file",
                    path: path.to_path_buf(),
                    source,
                })?;
        }
    }
    Ok(())
}

/// Runs the tournament. `seed` is used when neither the settings nor the
/// state file give one. `log` receives notes for stderr.
pub fn run(
    s: TournamentSettings,
    opts: Options,
    fresh_seed: u64,
    signal: Arc<AtomicBool>,
    log: &dyn Fn(String),
) -> Result<Report, TournamentError> {
    if let Some(dir) = &s.run_dir {
        std::fs::create_dir_all(dir).map_err(|source| OutputError::Open {
            what: "run directory",
            path: dir.clone(),
            source,
        })?;
    }
    let state_file = state_path(&s);
    // A run directory resumes by itself: a shard requeued by its scheduler
    // runs the same command again.
    let resume =
        opts.resume || (s.run_dir.is_some() && state_file.as_deref().is_some_and(|p| p.exists()));
    let previous = match (&state_file, resume) {
        (Some(path), true) => match State::load(path)? {
            Some(st) => Some(st),
            None => {
                return Err(TournamentError::Resume(format!(
                    "no state file {} (it is written next to the PGN, or at --state)",
                    path.display()
                )));
            }
        },
        (None, true) => {
            return Err(TournamentError::Resume(
                "--resume needs --pgn FILE or --state FILE".into(),
            ));
        }
        _ => None,
    };
    let seed = s
        .seed
        .or(previous.as_ref().map(|p| p.seed))
        .unwrap_or(fresh_seed);

    // Start each engine once: UCI_Chess960 check and names.
    let mut engines = s.engines.clone();
    let mut first = Vec::new();
    for spec in &mut engines {
        let e = start_engine(spec, s.timeout, Chess960::Required)?;
        if spec.name.is_empty() {
            spec.name = e.name().to_string();
        }
        first.push(Some(e));
    }
    let mut seen = BTreeSet::new();
    for spec in &mut engines {
        let base = spec.name.clone();
        let mut k = 1;
        while !seen.insert(spec.name.clone()) {
            k += 1;
            spec.name = format!("{base} ({k})");
        }
    }
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    let id = identity(&s, &names, seed);

    let mut standings = Standings::new(&names, s.schedule.pairings(), s.sprt);
    // A knockout lists every pair of engines; only those that met matter.
    standings.hide_empty_pairings = !s.schedule.games_exact();
    // The games this process plays: the shard's part of the schedule.
    let own_games = super::partition::games_of(s.shard, &s.schedule);
    let mut done = BTreeMap::new();
    let mut st = match previous {
        Some(prev) => {
            let diff = differences(&prev.identity, &id);
            if !diff.is_empty() {
                for e in first.into_iter().flatten() {
                    e.quit();
                }
                return Err(TournamentError::Resume(format!(
                    "this is not the tournament in the state file ({}); resume with the same arguments",
                    diff.join("; ")
                )));
            }
            for r in &prev.games {
                if r.number >= 1
                    && r.number <= s.schedule.games()
                    && !done.contains_key(&r.number)
                    && let Some(summary) = GameSummary::of(&s.schedule, r)
                {
                    done.insert(r.number, r.result);
                    standings.record(&summary);
                }
            }
            if let Some(pgn) = &s.pgn {
                restore_pgn(pgn, prev.pgn_bytes, log)?;
            }
            log(format!(
                "resuming: {} of {} games already played",
                done.len(),
                own_games
            ));
            prev
        }
        None => State::new(id, seed),
    };

    let mut pgn = match &s.pgn {
        Some(path) => Some(PgnWriter::open(path)?),
        None => None,
    };
    if let Some(w) = &pgn {
        if !resume && !w.is_empty() {
            log(format!(
                "appending to {} (use --resume to continue a tournament in it)",
                s.pgn
                    .as_deref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            ));
        }
        if !resume {
            st.pgn_bytes = w.len();
        }
    }
    if let Some(path) = &state_file {
        st.save(path)?;
    }

    let ctx = GameContext {
        engines,
        castling: s.castling,
        rules: s.rules,
        restart: s.restart,
        recover: s.recover,
        margin: s.margin,
        timeout: s.timeout,
        tags: vec![
            ("Event".into(), "uci960 match".into()),
            ("Site".into(), "?".into()),
            ("Date".into(), crate::utc::UtcTime::now().pgn_date()),
            ("Variant".into(), s.pgn_variant.tag().into()),
            (
                "Start".into(),
                match &s.openings {
                    OpeningChoice::Generated { method, .. } => method.name().into(),
                    OpeningChoice::Book { spec, .. } => spec.file.display().to_string(),
                },
            ),
            ("Seed".into(), seed.to_string()),
        ],
    };
    let remaining = own_games.saturating_sub(done.len() as u64);
    let workers = (s.concurrency as u64).min(remaining.max(1)) as usize;
    let feed = Feed::new(&s.schedule, done.clone(), opening_source(&s, seed)?).with_shard(s.shard);
    // The shared SPRT: shards in one run directory decide on all their
    // games together (rundir.rs).
    let mut siblings = match (&s.run_dir, s.sprt, st.identity.get("settings")) {
        (Some(dir), Some(_), Some(hash)) if s.shard.of > 1 => Some(Siblings::new(
            dir,
            s.shard,
            hash.as_str().unwrap_or_default().to_string(),
        )),
        _ => None,
    };
    let mut sprt_stopped = false;
    if let Some(sib) = siblings.as_mut() {
        let all = combined(&names, &s, &st.games, &sib.refresh(log));
        if close_decided(&all, &feed) {
            log("the SPRT over all shards has already decided: no games to play".into());
            sprt_stopped = true;
        }
    }
    let progress = Progress::new(
        opts.progress,
        own_games,
        done.len() as u64,
        standings.score_line(),
    );
    let stop = StopSignal::new(signal);
    let json_doc = |standings: &Standings, interrupted: bool| {
        let mut json = standings.to_json();
        json["interrupted"] = serde_json::json!(interrupted);
        json["seed"] = serde_json::json!(seed);
        json
    };
    let total = s.schedule.games();
    let say = |text: &str| {
        if let Some(lines) = opts.lines {
            progress.suspend(|| lines(text));
        }
    };
    let name = |i: usize| ctx.engines[i].name.as_str();
    let exact = s.schedule.games_exact();
    let on_start = |slot: &Slot| {
        say(&started_line(
            slot.number,
            total,
            exact,
            name(slot.white),
            name(slot.black),
        ));
    };
    let on_game = |g: &FinishedGame| -> Result<Flow, TournamentError> {
        if let Some(w) = pgn.as_mut() {
            w.write_game(&runner::game_pgn(&ctx, g))?;
            st.pgn_bytes = w.len();
        }
        let record = GameRecord {
            number: g.slot.number,
            result: g.outcome.result,
            termination: g.outcome.termination,
            notation_errors: g.notation_errors,
            white: Some(g.slot.white),
            black: Some(g.slot.black),
        };
        if let Some(summary) = GameSummary::of(&s.schedule, &record) {
            standings.record(&summary);
        }
        st.games.push(record);
        if let Some(path) = &state_file {
            st.save(path)?;
        }
        if let Some(path) = &s.json {
            write_json(path, &json_doc(&standings, false))?;
        }
        progress.game_done(standings.score_line());
        say(&finished_line(
            g.slot.number,
            name(g.slot.white),
            name(g.slot.black),
            &g.outcome,
        ));
        let played = standings.games();
        if s.rating_interval > 0 && played.is_multiple_of(s.rating_interval) && played < total {
            say(&format!(
                "Standings after {played} of {total} games:\n{}",
                standings.render()
            ));
        }
        let decided = match siblings.as_mut() {
            Some(sib) if sib.due() => {
                close_decided(&combined(&names, &s, &st.games, &sib.refresh(log)), &feed)
            }
            Some(_) => false,
            None => close_decided(&standings, &feed),
        };
        if decided {
            sprt_stopped = true;
            return Ok(Flow::Finish);
        }
        Ok(Flow::Continue)
    };
    let ended = runner::run(&ctx, &feed, workers, first, &stop, on_start, on_game);
    progress.finish();
    let bracket = feed
        .with_scheduler(|sch| sch.describe(&|i| ctx.engines[i].name.clone()))
        .flatten();
    let ended = ended?;
    if let Some(path) = &s.json {
        write_json(path, &json_doc(&standings, ended == Ended::Interrupted))?;
    }
    Ok(Report {
        standings,
        ended,
        seed,
        sprt_stopped: sprt_stopped && (st.games.len() as u64) < own_games,
        bracket,
    })
}

/// Closes the pairings whose SPRT decided; whether every SPRT has.
fn close_decided(standings: &Standings, feed: &Feed) -> bool {
    for (pairing, verdict) in standings.sprt_verdicts() {
        if verdict != super::stats::SprtVerdict::Continue {
            feed.close_pairing(pairing);
        }
    }
    standings.sprt_done()
}

/// The standings of this shard's games and its siblings' together.
fn combined(
    names: &[String],
    s: &TournamentSettings,
    own: &[GameRecord],
    siblings: &[GameRecord],
) -> Standings {
    let mut all = Standings::new(names, s.schedule.pairings(), s.sprt);
    let mut seen = BTreeSet::new();
    for r in own.iter().chain(siblings) {
        if seen.insert(r.number)
            && let Some(g) = GameSummary::of(&s.schedule, r)
        {
            all.record(&g);
        }
    }
    all
}
