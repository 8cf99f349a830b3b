//! `uci960 merge`: the shards of one tournament (state files and PGNs in
//! run directories, see [`super::rundir`]) made into the result one
//! machine would have printed: the same standings, Elo, pentanomial pairs
//! and SPRT (computed by [`Standings`] from the same games), and one PGN in
//! `Round` order.
//!
//! Refused (input errors): state files that are damaged or not a shard's,
//! shards of different tournaments (their settings hashes differ, or their
//! shard counts), and a shard given twice. Allowed and labelled partial:
//! missing shards and unfinished ones (fewer games than their share),
//! unless the SPRT over the merged games has decided, in which case the
//! games not played were not needed.
//!
//! Only the state files are read for the standings; the PGNs only when a
//! merged PGN is asked for (one thread per shard). A shard's PGN is read
//! up to the length its state file records (a game cut by a kill after it
//! is ignored), and every game the state records must be there: at the
//! byte range the state keeps for it (its span), else (older states)
//! found by splitting the PGN at its tag sections. The merged PGN is
//! streamed through the files room's atomic replace.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::rundir::{ShardState, ShardStateError, state_files};
use super::schedule::Schedule;
use super::standings::{GameSummary, Standings};
use super::stats::SprtVerdict;
use crate::files::{ReplaceError, replace_with};
use crate::shard::Shard;

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: no shard state files (shard-I-of-N.state.json) there", .0.display())]
    NoStates(PathBuf),
    #[error(transparent)]
    State(#[from] ShardStateError),
    #[error(
        "{} and {} are shards of different tournaments (settings {} and {}): merge the shards of one run",
        a.display(), b.display(), ha, hb
    )]
    DifferentTournaments {
        a: PathBuf,
        b: PathBuf,
        ha: String,
        hb: String,
    },
    #[error(
        "{} is one of {} shards, {} one of {}: merge the shards of one run",
        a.display(), na, b.display(), nb
    )]
    DifferentCounts {
        a: PathBuf,
        b: PathBuf,
        na: u64,
        nb: u64,
    },
    #[error("shard {shard} is given twice: {} and {}", a.display(), b.display())]
    Duplicate {
        shard: Shard,
        a: PathBuf,
        b: PathBuf,
    },
    #[error("state file {} is named as shard {named} but holds shard {holds} (a copy?)", path.display())]
    Misnamed {
        path: PathBuf,
        named: Shard,
        holds: Shard,
    },
    #[error("PGN {}: {reason}", path.display())]
    Pgn { path: PathBuf, reason: String },
    #[error(transparent)]
    Write(#[from] ReplaceError),
}

/// Where one shard stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShardStatus {
    /// Every game of its share is in.
    Finished,
    /// Fewer games, and the SPRT has decided: they were not needed.
    SprtDecided,
    /// Fewer games than its share (interrupted, still running, failed).
    Unfinished,
    /// No state file.
    Missing,
}

/// One shard in the merge.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ShardReport {
    #[serde(serialize_with = "display")]
    pub shard: Shard,
    pub status: ShardStatus,
    pub games: u64,
    pub share: u64,
    pub state_file: Option<PathBuf>,
}

fn display<S: serde::Serializer>(v: &Shard, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// The merged tournament.
pub struct Merged {
    pub standings: Standings,
    pub schedule: Schedule,
    pub seed: u64,
    /// The settings hash every shard carries.
    pub settings: String,
    pub shards: Vec<ShardReport>,
    /// Every SPRT decided over the merged games.
    pub sprt_decided: bool,
    states: Vec<ShardState>,
}

impl Merged {
    /// Some shard is missing or unfinished.
    pub fn partial(&self) -> bool {
        self.shards
            .iter()
            .any(|s| matches!(s.status, ShardStatus::Missing | ShardStatus::Unfinished))
    }

    /// What was merged, for the first lines of the report.
    pub fn summary(&self) -> String {
        use std::fmt::Write as _;
        let of = self.shards.len();
        let present = self
            .shards
            .iter()
            .filter(|s| s.status != ShardStatus::Missing)
            .count();
        let mut out = format!(
            "{}merged {present} of {of} shard(s): {} of {} games (settings {}, seed {})\n",
            if self.partial() { "PARTIAL: " } else { "" },
            self.standings.games(),
            self.schedule.games(),
            self.settings,
            self.seed
        );
        for s in &self.shards {
            let what = match s.status {
                ShardStatus::Finished => continue,
                ShardStatus::SprtDecided => "stopped, the SPRT decided",
                ShardStatus::Unfinished => "unfinished",
                ShardStatus::Missing => "missing",
            };
            let _ = writeln!(
                out,
                "  shard {}: {what} ({} of {} games)",
                s.shard, s.games, s.share
            );
        }
        if self.sprt_decided {
            let _ = writeln!(
                out,
                "SPRT: decided on {} games (the bounds were crossed over all shards).",
                self.standings.games()
            );
        }
        out
    }

    /// The JSON summary: the standings as `match --json` writes them,
    /// plus the shards.
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = self.standings.to_json();
        json["interrupted"] = serde_json::json!(false);
        json["seed"] = serde_json::json!(self.seed);
        json["partial"] = serde_json::json!(self.partial());
        json["settings"] = serde_json::json!(self.settings);
        json["sprt_decided"] = serde_json::json!(self.sprt_decided);
        json["shards"] = serde_json::json!(self.shards);
        json
    }

    /// Writes one PGN of every merged game in `Round` order (replacing
    /// `out` atomically, streamed: [`replace_with`]); returns how many
    /// games it holds. The shards' PGNs are read and their games located
    /// in parallel, one thread per shard.
    pub fn write_pgn(&self, out: &Path) -> Result<u64, MergeError> {
        let shards: Vec<ShardGames> = std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .states
                .iter()
                .map(|st| scope.spawn(move || shard_games(st)))
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect::<Result<_, _>>()
        })?;
        let mut order: BTreeMap<u64, (usize, Range<usize>)> = BTreeMap::new();
        for (i, shard) in shards.iter().enumerate() {
            for (number, range) in &shard.games {
                order.insert(*number, (i, range.clone()));
            }
        }
        replace_with("merged PGN", out, |w| {
            for (shard, range) in order.values() {
                w.write_all(&shards[*shard].bytes[range.clone()])?;
            }
            Ok(())
        })?;
        Ok(order.len() as u64)
    }
}

/// One shard's PGN and where each of its recorded games lies in it.
struct ShardGames {
    bytes: Vec<u8>,
    games: Vec<(u64, Range<usize>)>,
}

/// Reads the PGN of `st` up to the length its state records (a game cut
/// by a kill after it is ignored) and finds every game the state records.
/// States written by `match` keep each game's byte range (its span): the
/// game must start there with a tag section holding its `Round`. Older
/// states without spans: the PGN is split at its tag sections
/// ([`split_games`]). The moves are not re-hashed (a resume does that
/// before it removes anything; merge only reads).
fn shard_games(st: &ShardState) -> Result<ShardGames, MergeError> {
    let path = shard_pgn(&st.path);
    if st.state.games.is_empty() {
        return Ok(ShardGames {
            bytes: Vec::new(),
            games: Vec::new(),
        });
    }
    let mut bytes = read_limited(&path)?;
    bytes.truncate(usize::try_from(st.state.pgn_bytes).unwrap_or(usize::MAX));
    let missing = |number: u64, why: &str| MergeError::Pgn {
        path: path.clone(),
        reason: format!("game {number} (in {}) {why}", st.path.display()),
    };
    let mut games = Vec::with_capacity(st.state.games.len());
    if st.state.games.iter().all(|g| g.pgn.is_some()) {
        for g in &st.state.games {
            let Some(span) = g.pgn else { continue };
            let range = usize::try_from(span.offset)
                .ok()
                .zip(usize::try_from(span.end()).ok())
                .filter(|(_, end)| *end <= bytes.len())
                .map(|(a, b)| a..b)
                .ok_or_else(|| {
                    missing(
                        g.number,
                        &format!(
                            "lies at bytes {}..{}, beyond its {} bytes",
                            span.offset,
                            span.end(),
                            bytes.len()
                        ),
                    )
                })?;
            if tag_round(&bytes[range.clone()]) != Some(g.number) {
                return Err(missing(
                    g.number,
                    &format!(
                        "is not at bytes {}..{}, where its state says (the PGN is not the one written with this state file)",
                        span.offset,
                        span.end()
                    ),
                ));
            }
            games.push((g.number, range));
        }
    } else {
        let mut found: BTreeMap<u64, Range<usize>> = split_games(&bytes)
            .into_iter()
            .filter_map(|(round, range)| Some((round?, range)))
            .collect();
        for g in &st.state.games {
            let range = found
                .remove(&g.number)
                .ok_or_else(|| missing(g.number, "is not in it"))?;
            games.push((g.number, range));
        }
    }
    Ok(ShardGames { bytes, games })
}

/// The `Round` of the game that starts `text`: its tag section (tag lines
/// up to the first line that is not one) must hold `[Round "N"]`.
fn tag_round(text: &[u8]) -> Option<u64> {
    if text.first() != Some(&b'[') {
        return None;
    }
    text.split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii_end)
        .take_while(|line| line.first() == Some(&b'['))
        .find_map(|line| line.strip_prefix(b"[Round \"")?.strip_suffix(b"\"]"))
        .and_then(|n| std::str::from_utf8(n).ok()?.parse().ok())
}

/// The PGN next to a shard state file (`shard-i-of-n.pgn`).
fn shard_pgn(state: &Path) -> PathBuf {
    let name = state
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".state.json"))
        .map(|stem| format!("{stem}.pgn"))
        .unwrap_or_default();
    state.with_file_name(name)
}

fn read_limited(path: &Path) -> Result<Vec<u8>, MergeError> {
    use std::io::Read as _;
    let mut file = crate::files::open(path, "shard PGN", crate::files::PGN_LIMIT).map_err(|e| {
        MergeError::Pgn {
            path: path.to_path_buf(),
            reason: e.to_string(),
        }
    })?;
    let len = file.metadata().map_or(0, |m| m.len());
    let mut bytes = Vec::with_capacity(len as usize);
    file.read_to_end(&mut bytes)
        .map_err(|source| MergeError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(bytes)
}

/// The games of a PGN as uci960 writes it (tag section, blank line,
/// movetext, blank line): each game's `Round` and byte range. A game
/// starts at a tag line that follows a blank line after movetext, outside
/// a `{…}` comment.
pub fn split_games(text: &[u8]) -> Vec<(Option<u64>, Range<usize>)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut round = None;
    let mut in_moves = false;
    let mut in_comment = false;
    let mut prev_blank = true;
    let mut pos = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let t = line.trim_ascii_end();
        if t.first() == Some(&b'[') && prev_blank && !in_comment && (start.is_none() || in_moves) {
            if let Some(s) = start {
                out.push((round, s..pos));
            }
            start = Some(pos);
            round = None;
            in_moves = false;
        }
        if !in_moves && let Some(rest) = t.strip_prefix(b"[Round \"") {
            round = rest
                .strip_suffix(b"\"]")
                .and_then(|n| std::str::from_utf8(n).ok())
                .and_then(|n| n.parse().ok());
        } else if in_comment || (!t.is_empty() && t[0] != b'[') {
            in_moves = true;
            // A comment may span lines (and hold blank lines and `[`).
            for &c in t {
                match c {
                    b'{' => in_comment = true,
                    b'}' => in_comment = false,
                    _ => {}
                }
            }
        }
        prev_blank = t.is_empty();
        pos += line.len();
    }
    if let Some(s) = start {
        out.push((round, s..pos));
    }
    out
}

/// Reads the shards in `inputs` (run directories, or state files) and
/// merges them.
pub fn merge(inputs: &[PathBuf]) -> Result<Merged, MergeError> {
    let mut found: Vec<(Option<Shard>, PathBuf)> = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let files = state_files(input).map_err(|source| MergeError::Read {
                path: input.clone(),
                source,
            })?;
            if files.is_empty() {
                return Err(MergeError::NoStates(input.clone()));
            }
            found.extend(files.into_iter().map(|(s, p)| (Some(s), p)));
        } else {
            let named = input
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(super::rundir::shard_of_name);
            found.push((named, input.clone()));
        }
    }
    let mut states: Vec<ShardState> = Vec::new();
    for (named, path) in found {
        let st = ShardState::load(&path)?.ok_or_else(|| MergeError::Read {
            path: path.clone(),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        })?;
        if let Some(named) = named
            && named != st.shard
        {
            return Err(MergeError::Misnamed {
                path,
                named,
                holds: st.shard,
            });
        }
        if let Some(first) = states.first() {
            if first.settings != st.settings {
                return Err(MergeError::DifferentTournaments {
                    a: first.path.clone(),
                    b: st.path.clone(),
                    ha: first.settings.clone(),
                    hb: st.settings.clone(),
                });
            }
            if first.shard.of != st.shard.of {
                return Err(MergeError::DifferentCounts {
                    a: first.path.clone(),
                    b: st.path.clone(),
                    na: first.shard.of,
                    nb: st.shard.of,
                });
            }
        }
        if let Some(twin) = states.iter().find(|o| o.shard == st.shard) {
            return Err(MergeError::Duplicate {
                shard: st.shard,
                a: twin.path.clone(),
                b: st.path.clone(),
            });
        }
        states.push(st);
    }
    states.sort_by_key(|s| s.shard);
    // `inputs` is never empty (the CLI requires one), and a directory
    // without states was refused above.
    let Some(first) = states.first() else {
        return Err(MergeError::NoStates(
            inputs.first().cloned().unwrap_or_default(),
        ));
    };
    let (schedule, names, sprt, of) = (
        first.schedule.clone(),
        first.names.clone(),
        first.sprt,
        first.shard.of,
    );
    let mut standings = Standings::new(&names, schedule.pairings(), sprt);
    for st in &states {
        for r in &st.state.games {
            if let Some(g) = GameSummary::of(&schedule, r) {
                standings.record(&g);
            }
        }
    }
    let sprt_decided = standings.sprt_done();
    let shards = (1..=of)
        .map(|index| {
            let shard = Shard { index, of };
            let share = super::partition::games_of(shard, &schedule);
            let st = states.iter().find(|s| s.shard == shard);
            let games = st.map_or(0, |s| s.state.games.len() as u64);
            let status = match st {
                _ if games >= share => ShardStatus::Finished,
                _ if sprt_decided => ShardStatus::SprtDecided,
                Some(_) => ShardStatus::Unfinished,
                None => ShardStatus::Missing,
            };
            ShardReport {
                shard,
                status,
                games,
                share,
                state_file: st.map(|s| s.path.clone()),
            }
        })
        .collect();
    Ok(Merged {
        standings,
        schedule,
        seed: first.seed,
        settings: first.settings.clone(),
        shards,
        sprt_decided,
        states,
    })
}

/// Whether some SPRT accepted H0 over the merged games.
pub fn sprt_failed(m: &Merged) -> bool {
    m.standings
        .sprt_verdicts()
        .iter()
        .any(|(_, v)| *v == SprtVerdict::AcceptH0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_split_at_their_tag_sections() {
        let pgn = "[Event \"a\"]\n[Round \"3\"]\n\n1. e4 {x\n\n[y} e5 1/2-1/2\n\n[Event \"a\"]\n[Round \"1\"]\n\n*\n\n";
        let games = split_games(pgn.as_bytes());
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!(games[0].0, Some(3));
        assert_eq!(games[1].0, Some(1));
        assert!(pgn[games[1].1.clone()].starts_with("[Event"));
        assert_eq!(games[1].1.end, pgn.len());
        assert_eq!(games[0].1.end, games[1].1.start);
    }

    #[test]
    fn a_span_must_start_the_tag_section_of_its_round() {
        let game = "[Event \"a\"]\n[Round \"12\"]\n\n1. e4 {[Round \"13\"]} *\n\n";
        assert_eq!(tag_round(game.as_bytes()), Some(12));
        // Not at a tag section, or the Round only in the movetext.
        assert_eq!(tag_round(&game.as_bytes()[1..]), None);
        assert_eq!(
            tag_round(b"[Event \"a\"]\n\n1. e4 {\n[Round \"3\"]} *\n"),
            None
        );
        assert_eq!(tag_round(b"[Round \"x\"]\n"), None);
    }
}
