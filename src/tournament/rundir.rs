//! A run directory (`match --dir RUN/`): where the shards of one
//! tournament keep their files, and how a shard reads its siblings.
//!
//! Layout: shard `i/n` writes `RUN/shard-i-of-n.pgn` and
//! `RUN/shard-i-of-n.state.json` (the usual PGN and state file; a match
//! without `--shard` is shard 1/1). Nothing else is written there, and no
//! file is shared between shards: each state file is replaced atomically
//! (temporary file, rename) by its one writer, so siblings and `uci960
//! merge` can read it at any time, over NFS too, without locks.
//!
//! A sharded state file's identity carries three more keys: `shard`
//! (`"i/n"`), `schedule` (what rebuilds the schedule: kind, engines, games
//! per pairing per round, rounds), `sprt`, and `settings`, a hash of
//! everything that decides the games (engines and their limits and options,
//! schedule, openings, seed, adjudication, castling policy, SPRT). Shards
//! are one tournament exactly when their `settings` hashes are equal.
//!
//! The shared SPRT: a shard with `--sprt` reads its siblings' state files
//! between games (at most once per [`SIBLING_INTERVAL`], and only files
//! that changed) and decides on all games together.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::config::TournamentSettings;
use super::schedule::{Schedule, TournamentKind};
use super::state::{GameRecord, State, StateError};
use super::stats::Sprt;
use crate::shard::Shard;

/// How often a shard re-reads its siblings' state files for the shared
/// SPRT: often enough that a decision reaches every shard within a game or
/// two, rarely enough that reading states of 100,000 games costs little
/// (docs/DISTRIBUTED.md, "Benchmarks").
pub const SIBLING_INTERVAL: Duration = Duration::from_secs(1);

/// `shard-i-of-n`: the name of a shard's files, without extension.
pub fn stem(shard: Shard) -> String {
    format!("shard-{}-of-{}", shard.index, shard.of)
}

/// The shard PGN.
pub fn pgn_path(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("{}.pgn", stem(shard)))
}

/// The shard state file.
pub fn state_path(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("{}.state.json", stem(shard)))
}

/// The shard a state file's name speaks of (`shard-2-of-4.state.json`).
pub fn shard_of_name(name: &str) -> Option<Shard> {
    let rest = name.strip_prefix("shard-")?.strip_suffix(".state.json")?;
    let (i, n) = rest.split_once("-of-")?;
    format!("{i}/{n}").parse().ok()
}

/// The state files in `dir`, by the shard their names give.
pub fn state_files(dir: &Path) -> std::io::Result<Vec<(Shard, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if let Some(shard) = name.to_str().and_then(shard_of_name) {
            out.push((shard, entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// FNV-1a, 64 bits: a stable hash for telling tournaments apart (not a
/// defence against forgery: anyone who can write a state file can write
/// any hash).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Adds the keys of a sharded state file to `identity` (the resume
/// identity: engine names, schedule, openings, seed).
pub fn add_shard_identity(identity: &mut serde_json::Value, s: &TournamentSettings, shard: Shard) {
    let sch = &s.schedule;
    let per_round = sch.games() / sch.rounds() / sch.pairings().len() as u64;
    identity["schedule"] = serde_json::json!({
        "kind": sch.kind(),
        "engines": sch.engines(),
        "games": per_round,
        "rounds": sch.rounds(),
    });
    identity["sprt"] = serde_json::json!(s.sprt);
    // Everything that decides which games are played and how. Debug
    // renderings are stable within one uci960 version; shards of one run
    // use one version.
    let engines: Vec<String> = s
        .engines
        .iter()
        .map(|e| format!("{:?} {:?} {:?}", e.limits, e.options, e.fen))
        .collect();
    let decided = serde_json::json!({
        "identity": identity.clone(),
        "engines": engines,
        "rules": format!("{:?}", s.rules),
        "castling": format!("{:?}", s.castling),
        "restart": s.restart,
        "recover": s.recover,
        "margin": s.margin.as_millis() as u64,
    });
    identity["settings"] =
        serde_json::json!(format!("{:016x}", fnv1a(decided.to_string().as_bytes())));
    identity["shard"] = serde_json::json!(shard.to_string());
}

/// A state file read back with the keys of a shard.
#[derive(Clone, Debug)]
pub struct ShardState {
    pub path: PathBuf,
    pub shard: Shard,
    /// The settings hash.
    pub settings: String,
    pub names: Vec<String>,
    pub schedule: Schedule,
    pub sprt: Option<Sprt>,
    pub seed: u64,
    pub state: State,
}

/// Why a state file is not a shard's.
#[derive(Debug, thiserror::Error)]
pub enum ShardStateError {
    #[error(transparent)]
    State(#[from] StateError),
    #[error("state file {path} is damaged: {reason}")]
    Damaged { path: PathBuf, reason: String },
}

impl ShardState {
    /// Reads `path`; `None` when it does not exist.
    pub fn load(path: &Path) -> Result<Option<ShardState>, ShardStateError> {
        let Some(state) = State::load(path)? else {
            return Ok(None);
        };
        ShardState::from_state(path, state).map(Some)
    }

    pub fn from_state(path: &Path, state: State) -> Result<ShardState, ShardStateError> {
        let damaged = |reason: String| ShardStateError::Damaged {
            path: path.to_path_buf(),
            reason,
        };
        let id = &state.identity;
        let text = |key: &str| {
            id.get(key)
                .and_then(|v| v.as_str())
                .map(str::to_string)
                .ok_or_else(|| damaged(format!("no '{key}' in its identity (not a shard's state file: `uci960 match --dir RUN` writes those)")))
        };
        let shard: Shard = text("shard")?
            .parse()
            .map_err(|e: crate::shard::ShardError| damaged(e.fault.to_string()))?;
        let settings = text("settings")?;
        let names: Vec<String> = serde_json::from_value(id["engines"].clone())
            .map_err(|e| damaged(format!("engines: {e}")))?;
        let sch = &id["schedule"];
        let kind: TournamentKind = serde_json::from_value(sch["kind"].clone())
            .map_err(|e| damaged(format!("schedule kind: {e}")))?;
        let number = |k: &str| {
            sch[k]
                .as_u64()
                .ok_or_else(|| damaged(format!("schedule {k} is not a number")))
        };
        let engines = number("engines")? as usize;
        if engines != names.len() {
            return Err(damaged(format!(
                "{} engine names for {engines} engines",
                names.len()
            )));
        }
        let schedule = Schedule::new(kind, engines, number("games")?, number("rounds")?)
            .map_err(|e| damaged(e.to_string()))?;
        let sprt: Option<Sprt> = serde_json::from_value(id["sprt"].clone())
            .map_err(|e| damaged(format!("sprt: {e}")))?;
        let mut seen = BTreeSet::new();
        for g in &state.games {
            if g.number == 0 || g.number > schedule.games() {
                return Err(damaged(format!(
                    "game {} is not in the schedule (1..{})",
                    g.number,
                    schedule.games()
                )));
            }
            if !super::partition::owns(shard, &schedule.slot(g.number)) {
                return Err(damaged(format!(
                    "game {} is not one of shard {shard}'s",
                    g.number
                )));
            }
            if !seen.insert(g.number) {
                return Err(damaged(format!("game {} recorded twice", g.number)));
            }
        }
        Ok(ShardState {
            path: path.to_path_buf(),
            shard,
            settings,
            names,
            schedule,
            sprt,
            seed: state.seed,
            state,
        })
    }
}

/// A shard's view of its siblings' finished games (for the shared SPRT).
pub struct Siblings {
    dir: PathBuf,
    me: Shard,
    settings: String,
    /// Per file: its length and modification time when read, its games.
    read: BTreeMap<PathBuf, (u64, Option<SystemTime>, Vec<GameRecord>)>,
    /// Files already reported as unusable.
    noted: BTreeSet<PathBuf>,
    last: Option<Instant>,
}

impl Siblings {
    pub fn new(dir: &Path, me: Shard, settings: String) -> Siblings {
        Siblings {
            dir: dir.to_path_buf(),
            me,
            settings,
            read: BTreeMap::new(),
            noted: BTreeSet::new(),
            last: None,
        }
    }

    /// Whether [`SIBLING_INTERVAL`] has passed since the last reading.
    pub fn due(&self) -> bool {
        self.last.is_none_or(|t| t.elapsed() >= SIBLING_INTERVAL)
    }

    /// Re-reads the siblings' state files that changed and returns all
    /// their games. A sibling that cannot be used (damaged, another
    /// tournament) is left out and said once through `log`: it must not
    /// stop this shard.
    pub fn refresh(&mut self, log: &dyn Fn(String)) -> Vec<GameRecord> {
        self.last = Some(Instant::now());
        let files = match state_files(&self.dir) {
            Ok(f) => f,
            Err(e) => {
                if self.noted.insert(self.dir.clone()) {
                    log(format!("cannot list {}: {e}", self.dir.display()));
                }
                Vec::new()
            }
        };
        let mut live = BTreeSet::new();
        for (shard, path) in files {
            if shard == self.me || shard.of != self.me.of {
                continue;
            }
            live.insert(path.clone());
            let meta = std::fs::metadata(&path).ok();
            let len = meta.as_ref().map_or(0, |m| m.len());
            let mtime = meta.and_then(|m| m.modified().ok());
            if let Some((l, t, _)) = self.read.get(&path)
                && *l == len
                && *t == mtime
            {
                continue;
            }
            match ShardState::load(&path) {
                Ok(Some(s)) if s.settings == self.settings && s.shard == shard => {
                    self.read.insert(path, (len, mtime, s.state.games));
                }
                Ok(None) => {}
                Ok(Some(_)) => {
                    if self.noted.insert(path.clone()) {
                        log(format!(
                            "{}: another tournament (its settings differ); left out of the SPRT",
                            path.display()
                        ));
                    }
                }
                Err(e) => {
                    if self.noted.insert(path.clone()) {
                        log(format!("{e}; left out of the SPRT"));
                    }
                }
            }
        }
        self.read.retain(|p, _| live.contains(p));
        self.read
            .values()
            .flat_map(|(_, _, g)| g.iter().copied())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let s = Shard { index: 3, of: 12 };
        let p = state_path(Path::new("run"), s);
        let name = p.file_name().unwrap().to_str().unwrap();
        assert_eq!(name, "shard-3-of-12.state.json");
        assert_eq!(shard_of_name(name), Some(s));
        assert_eq!(
            pgn_path(Path::new("run"), s),
            Path::new("run/shard-3-of-12.pgn")
        );
        for other in [
            "shard-0-of-2.state.json",
            "shard-3-of-2.state.json",
            "x.state.json",
            "shard-1-of-2.pgn",
        ] {
            assert_eq!(shard_of_name(other), None, "{other}");
        }
    }
}
