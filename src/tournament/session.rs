//! One tournament from checked settings to the final standings: engines
//! started once (names, `UCI_Chess960`), the state file created or resumed,
//! the opening stream, the runner, and the outputs written after every game
//! in this order: PGN (fsynced), state file (atomic), JSON.
//!
//! Resume (`--resume`) reads the state file, never the PGN's shape: the
//! tournament's identity (engine names, schedule, openings, seed) must
//! match; games recorded there are not played again; the PGN, opened and
//! locked first, must hold every recorded game as written (else refused,
//! untouched); the game being written when the run stopped is recorded if
//! it was written whole, removed if it was cut at the end of the file
//! (and played again); the same seed gives the same openings and colours,
//! so the resumed PGN holds exactly the games of an uninterrupted run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::config::{OpeningChoice, TournamentSettings};
use super::progress::{OutputError, Progress, finished_line, started_line};
use super::rundir::Siblings;
use super::runner::{self, Ended, Feed, FinishedGame, Flow, GameContext, StopSignal};
use super::schedule::{Schedule, Slot};
use super::setting::{Namer, Setting};
use super::standings::{GameSummary, Standings};
use super::state::{self, GameRecord, State, StateError};
use crate::engines::{Chess960, SetupError, start_engine};
use crate::files::Appender;
use crate::openings::{OpeningError, OpeningSource};
use crate::output::{Destination, json};
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
    Resume(ResumeError),
    #[error(transparent)]
    Collision(#[from] crate::files::Collision),
    #[error(transparent)]
    Lock(#[from] crate::files::LockError),
    #[error(transparent)]
    Replace(#[from] crate::files::ReplaceError),
    #[error(
        "run directory {} holds shards of {theirs} ({}); this is shard {shard}: one run has one shard count (a new count needs a new run directory; a Slurm array task submitted again on its own, `sbatch --array=I`, sees a count of 1: `scontrol requeue JOBID_I` requeues it instead, docs/DISTRIBUTED.md)",
        dir.display(), file.display()
    )]
    ShardCount {
        dir: PathBuf,
        file: PathBuf,
        theirs: u64,
        shard: Shard,
    },
}

impl TournamentError {
    /// The message, each setting named by `name` (the flag or config key
    /// the user wrote; [`Setting::canonical`] in `Display`).
    pub fn describe(&self, name: Namer) -> String {
        match self {
            TournamentError::Resume(e) => format!("cannot resume: {}", e.describe(name)),
            other => other.to_string(),
        }
    }
}

/// Why a run cannot go on with the tournament in its state file (a usage
/// error). Its message names settings ([`ResumeError::describe`]).
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// Resuming, and the state file (given or beside the PGN) is not there.
    NoStateFile(PathBuf),
    /// Resuming with neither a PGN nor a state file.
    NoFiles,
    /// The settings are not the recorded tournament's: each difference.
    Different(Vec<String>),
}

impl ResumeError {
    /// The message, each setting named by `name`.
    pub fn describe(&self, name: Namer) -> String {
        match self {
            ResumeError::NoStateFile(path) => format!(
                "no state file {} (it is written next to the PGN, or at {})",
                path.display(),
                name(Setting::State)
            ),
            ResumeError::NoFiles => format!(
                "{} needs {} FILE or {} FILE",
                name(Setting::Resume),
                name(Setting::Pgn),
                name(Setting::State)
            ),
            ResumeError::Different(diff) => format!(
                "this is not the tournament in the state file ({}); resume with the same arguments",
                diff.join("; ")
            ),
        }
    }
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&Setting::canonical))
    }
}

/// How the tournament is run.
pub struct Options<'a> {
    /// Go on with the tournament in the state file ([`Setting::Resume`]).
    pub resume: bool,
    /// The progress bar on stderr (for a terminal).
    pub progress: bool,
    /// Where the live lines go, one call a line (`Started game …`,
    /// `Finished game …`, the standings every `rating_interval` games);
    /// `None` for none (`--quiet`).
    pub lines: Option<&'a dyn Fn(&str)>,
    /// How the notes name a setting: the flag or config key the user
    /// wrote ([`Setting::canonical`] when nobody says).
    pub name: Namer<'a>,
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

/// The state file: `--state`, else next to the PGN when the PGN is a
/// file (nothing is ever created beside a device or FIFO: `--pgn
/// /dev/full` made `/dev/full.state.json`).
pub fn state_path(s: &TournamentSettings) -> Option<PathBuf> {
    s.state.clone().or_else(|| {
        s.pgn
            .as_deref()
            .filter(|p| !crate::files::output_kind(p).is_stream())
            .map(state::default_path)
    })
}

/// Every file the run writes, compared before any is opened.
fn check_outputs(s: &TournamentSettings, state_file: Option<&Path>) -> Result<(), TournamentError> {
    let lock = state_file.map(crate::files::lock::lock_path);
    let mut outputs: Vec<(&'static str, &Path)> = Vec::new();
    if let Some(p) = &s.pgn {
        outputs.push(("PGN file", p));
    }
    if let Some(p) = &s.json {
        outputs.push(("JSON file", p));
    }
    if let Some(p) = state_file {
        outputs.push(("state file", p));
    }
    if let Some(p) = &lock {
        outputs.push(("lock file", p));
    }
    crate::files::check_distinct(&outputs)?;
    // The state must be a file to be replaced (a usage error now); the
    // JSON summary is checked at its first write (exit 3, as before).
    if let Some(p) = state_file {
        crate::files::replace::target("state file", p)?;
    }
    Ok(())
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
        // A shard of another count would play games the run's shards
        // also play (and merge would refuse the mix): refused before
        // anything is written.
        if let Ok(files) = super::rundir::state_files(dir)
            && let Some((other, file)) = files.into_iter().find(|(o, _)| o.of != s.shard.of)
        {
            return Err(TournamentError::ShardCount {
                dir: dir.clone(),
                file,
                theirs: other.of,
                shard: s.shard,
            });
        }
    }
    let state_file = state_path(&s);
    check_outputs(&s, state_file.as_deref())?;
    // Held to the end of the run: a second run of this tournament is
    // refused at once (before it reads or writes anything).
    let _lock = match &state_file {
        Some(path) => Some(crate::files::RunLock::acquire(path)?),
        None => None,
    };
    // A run directory resumes by itself: a shard requeued by its scheduler
    // runs the same command again.
    let resume =
        opts.resume || (s.run_dir.is_some() && state_file.as_deref().is_some_and(|p| p.exists()));
    let previous = match (&state_file, resume) {
        (Some(path), true) => match State::load(path)? {
            Some(st) => Some(st),
            None => {
                return Err(TournamentError::Resume(ResumeError::NoStateFile(
                    path.clone(),
                )));
            }
        },
        (None, true) => {
            return Err(TournamentError::Resume(ResumeError::NoFiles));
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
    // Opened (and locked) before a resume looks at it: no other run
    // writes it while it is checked and its cut game removed.
    let mut pgn = match &s.pgn {
        Some(path) => Some(
            if s.shared_pgn {
                Appender::open_shared("PGN file", path)
            } else {
                Appender::open("PGN file", path)
            }
            .map_err(OutputError::from)
            .inspect_err(|_| {
                for e in first.iter_mut().filter_map(Option::take) {
                    e.quit();
                }
            })?,
        ),
        None => None,
    };
    let mut st = match previous {
        Some(mut prev) => {
            let diff = differences(&prev.identity, &id);
            if !diff.is_empty() {
                for e in first.into_iter().flatten() {
                    e.quit();
                }
                return Err(TournamentError::Resume(ResumeError::Different(diff)));
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
            if let (Some(w), Some(path)) = (pgn.as_mut(), &s.pgn) {
                let tail = w
                    .resume(
                        &prev.spans(),
                        prev.pgn_bytes,
                        prev.pending.as_ref(),
                        prev.pending_record.is_some(),
                    )
                    .map_err(OutputError::from)
                    .inspect_err(|_| {
                        for e in first.iter_mut().filter_map(Option::take) {
                            e.quit();
                        }
                    })?;
                let shown = path.display();
                if tail.cut > 0 {
                    log(format!(
                        "{shown}: removed {} bytes of the game that was being written (it is played again)",
                        tail.cut
                    ));
                }
                // Written whole, then interrupted before it was recorded:
                // recorded now, not played again.
                if let (Some(span), Some(mut r)) = (tail.written, prev.pending_record)
                    && r.number >= 1
                    && r.number <= s.schedule.games()
                    && !done.contains_key(&r.number)
                {
                    r.pgn = Some(span);
                    if let Some(summary) = GameSummary::of(&s.schedule, &r) {
                        done.insert(r.number, r.result);
                        standings.record(&summary);
                    }
                    prev.games.push(r);
                    log(format!(
                        "{shown}: game {} was written whole before the interruption; recorded, not played again",
                        r.number
                    ));
                }
                if tail.foreign > 0 {
                    log(format!(
                        "{shown}: {} bytes after the last recorded game were not written by this tournament; kept, new games follow them",
                        tail.foreign
                    ));
                }
            }
            prev.pending = None;
            prev.pending_record = None;
            log(format!(
                "resuming: {} of {} games already played",
                done.len(),
                own_games
            ));
            prev
        }
        None => State::new(id, seed),
    };

    if let Some(w) = &pgn {
        if !resume && !w.is_empty() {
            log(format!(
                "appending to {} (use {} to continue a tournament in it)",
                s.pgn
                    .as_deref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                (opts.name)(Setting::Resume)
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
    // The JSON summary, replaced whole after every game and at the end.
    let json_file = s.json.clone().map(|p| Destination::file("JSON file", p));
    let write_summary = |standings: &Standings, interrupted: bool| -> Result<(), OutputError> {
        let Some(to) = &json_file else {
            return Ok(());
        };
        let mut doc = standings.to_json();
        doc["interrupted"] = serde_json::json!(interrupted);
        doc["seed"] = serde_json::json!(seed);
        Ok(json::write(to, &doc)?)
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
        let mut record = GameRecord {
            number: g.slot.number,
            result: g.end.result,
            termination: g.end.termination,
            notation_errors: g.notation_errors,
            pgn: None,
            white: Some(g.slot.white),
            black: Some(g.slot.black),
        };
        if let Some(w) = pgn.as_mut() {
            let pending = w.next_text(&runner::game_pgn(&ctx, g));
            // The text and its record are kept before it is written: a
            // resume removes a cut game only when it can prove this run
            // wrote it, and records one found whole.
            if let Some(path) = state_file.as_ref().filter(|_| w.is_regular()) {
                st.pending = Some(pending.clone());
                st.pending_record = Some(record);
                st.save(path)?;
            }
            record.pgn = Some(w.append(&pending.text).map_err(OutputError::from)?);
            st.pgn_bytes = w.len();
            st.pending = None;
            st.pending_record = None;
        }
        if let Some(summary) = GameSummary::of(&s.schedule, &record) {
            standings.record(&summary);
        }
        st.games.push(record);
        if let Some(path) = &state_file {
            st.save(path)?;
        }
        write_summary(&standings, false)?;
        progress.game_done(standings.score_line());
        say(&finished_line(
            g.slot.number,
            name(g.slot.white),
            name(g.slot.black),
            &g.end,
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
    write_summary(&standings, ended == Ended::Interrupted)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Read alone, a resume error names settings by their key; the
    /// command layer's namer puts back what the user wrote.
    #[test]
    fn resume_errors_name_settings_not_flags() {
        let e = TournamentError::Resume(ResumeError::NoFiles);
        assert_eq!(
            e.to_string(),
            "cannot resume: resume needs pgn FILE or state FILE"
        );
        let flag = |s: Setting| format!("--{}", s.canonical());
        assert_eq!(
            e.describe(&flag),
            "cannot resume: --resume needs --pgn FILE or --state FILE"
        );
        let e = ResumeError::NoStateFile(PathBuf::from("s.json"));
        assert_eq!(
            e.to_string(),
            "no state file s.json (it is written next to the PGN, or at state)"
        );
    }
}
