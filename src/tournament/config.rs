//! The tournament's settings: one type, [`TournamentConfig`], filled from a
//! TOML file and from command-line flags alike (every field optional; the
//! flags win field by field, [`TournamentConfig::over`]), checked once by
//! [`TournamentConfig::validate`] into [`TournamentSettings`] with typed
//! errors that name the setting ([`super::setting`]) and the value; the
//! command layer names a setting as the user wrote it, flag or key.
//!
//! The `KEY=VALUE` token lists of the command line (`--engine`, `--draw`,
//! `--resign`, `--sprt`, `--openings`) are parsed here too, into the same
//! types the TOML file fills. Numbers meant as counts must be whole numbers
//! in range (`--draw movecount=1.7` or `movenumber=-3` are refused, not
//! rounded); scores are centipawns up to [`MAX_SCORE_CP`].

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use super::schedule::{Schedule, ScheduleError, TournamentKind};
use super::setting::{Namer, Setting};
use super::stats::Sprt;
use crate::engines::{EngineKeys, EngineKeysError, EngineSpec};
use crate::game::CastlingPolicy;
use crate::game::adjudication::{DrawRule, ResignRule, Rules};
use crate::game::pgn::PgnVariant;
use crate::keyword::Keyword;
use crate::openings::{BookOrder, OpeningsSpec};
use crate::openings::{MethodError, MethodSpec};

/// Node limit when no limit is given anywhere (a quick demo).
pub const DEFAULT_NODES: u64 = 5000;

/// Games between interim standings, as fastchess's `-ratinginterval`.
pub const DEFAULT_RATING_INTERVAL: u64 = 10;

/// Largest adjudication score, in centipawns (mate scores count 100000).
pub const MAX_SCORE_CP: i32 = 30_000;

/// Largest move count an adjudication rule takes.
pub const MAX_MOVES: u32 = 100_000;

/// Every setting of a tournament; the TOML file's shape (engines as
/// `[[engine]]` tables).
#[derive(serde::Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    #[serde(default)]
    pub engine: Vec<EngineKeys>,
    pub tournament: Option<TournamentKind>,
    pub games: Option<u64>,
    pub rounds: Option<u64>,
    pub concurrency: Option<usize>,
    pub start: Option<String>,
    pub random_plies: Option<u32>,
    pub openings: Option<OpeningsSpec>,
    pub seed: Option<u64>,
    pub tc: Option<String>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub st: Option<f64>,
    pub pgn: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub state: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub maxmoves: Option<u32>,
    /// `castling_moves` (as the flag `--castling-moves`); `castling` is
    /// the old key, still read.
    #[serde(rename = "castling_moves", alias = "castling")]
    pub castling: Option<CastlingPolicy>,
    pub restart: Option<bool>,
    pub recover: Option<bool>,
    /// Other tournaments may append to the same PGN at the same time.
    pub shared_pgn: Option<bool>,
    pub margin: Option<u64>,
    pub timeout: Option<f64>,
    pub pgn_variant: Option<PgnVariant>,
    pub rating_interval: Option<u64>,
    /// `i/n`, `auto` or `auto/N` ([`crate::shard::ShardChoice`]).
    pub shard: Option<String>,
    /// Run directory: the shard's PGN and state file go there.
    pub dir: Option<PathBuf>,
}

/// A setting that cannot be used (usage error, exit 2). Its message names
/// settings, not flags ([`TournamentConfigError::describe`]).
#[derive(Debug, thiserror::Error)]
pub enum TournamentConfigError {
    NotKeyValue {
        setting: Setting,
        token: String,
    },
    UnknownKey {
        setting: Setting,
        key: String,
        expected: &'static str,
    },
    MissingKey {
        setting: Setting,
        key: &'static str,
        expected: &'static str,
    },
    /// A key of a `KEY=VALUE` setting (`draw`'s `score`).
    BadValue {
        setting: Setting,
        key: String,
        value: String,
        reason: String,
    },
    BadSetting {
        setting: Setting,
        value: String,
        reason: String,
    },
    File(#[from] crate::files::FileError),
    Seconds(#[from] crate::seconds::KeySecondsError),
    Sprt(#[from] super::stats::SprtError),
    Toml {
        path: PathBuf,
        message: String,
    },
    Schedule(#[from] ScheduleError),
    Method(#[from] MethodError),
    Engine(usize, #[source] EngineKeysError),
    EngineTokens(#[source] EngineKeysError),
    Limits(#[from] EngineKeysError),
    SprtUndefined(usize),
    SprtKnockout,
    StartAndOpenings,
    Shard(#[from] crate::shard::ShardError),
    ShardWithoutSeed(crate::shard::Shard),
    ShardKnockout,
    DirWithFiles,
}

impl TournamentConfigError {
    /// The message, each setting named by `name`.
    pub fn describe(&self, name: Namer) -> String {
        use TournamentConfigError as E;
        match self {
            E::NotKeyValue { setting, token } => {
                format!("{}: '{token}' is not KEY=VALUE", name(*setting))
            }
            E::UnknownKey {
                setting,
                key,
                expected,
            } => format!(
                "{}: unknown key '{key}' (expected {expected})",
                name(*setting)
            ),
            E::MissingKey {
                setting,
                key,
                expected,
            } => format!("{}: missing {key}= (expected {expected})", name(*setting)),
            E::BadValue {
                setting,
                key,
                value,
                reason,
            } => format!("{} {key}='{value}': {reason}", name(*setting)),
            E::BadSetting {
                setting,
                value,
                reason,
            } => format!("{} {value}: {reason}", name(*setting)),
            E::Sprt(e) => format!("{}: {e}", name(Setting::Sprt)),
            E::Toml { path, message } => format!("config {}: {message}", path.display()),
            E::Schedule(e) => e.describe(name),
            E::Engine(i, e) => format!("engine {i}: {e}"),
            E::EngineTokens(e) => format!("{}: {e}", name(Setting::Engine)),
            E::SprtUndefined(n) => format!(
                "SPRT is defined for one pairing: two engines, or a gauntlet (each pairing); not a round robin of {n} engines"
            ),
            E::SprtKnockout => "SPRT stops a pairing early; a knockout's encounters are decided by their games (no SPRT with a knockout)".into(),
            E::StartAndOpenings => format!(
                "{} and {} both say where games start; give one",
                name(Setting::Openings),
                name(Setting::Start)
            ),
            E::Shard(e) => format!("{} {e}", name(Setting::Shard)),
            E::ShardWithoutSeed(shard) => format!(
                "{} {shard} needs {}: every shard must play the same tournament (the same seed gives the same openings)",
                name(Setting::Shard),
                name(Setting::Seed)
            ),
            E::ShardKnockout => format!(
                "a knockout's later games depend on the earlier ones' results: it cannot be split into shards (no {} with a knockout)",
                name(Setting::Shard)
            ),
            E::DirWithFiles => format!(
                "{} names the PGN and state files itself (RUN/shard-I-of-N.pgn); drop {} and {}",
                name(Setting::Dir),
                name(Setting::Pgn),
                name(Setting::State)
            ),
            E::File(e) => e.to_string(),
            E::Seconds(e) => e.to_string(),
            E::Method(e) => e.to_string(),
            E::Limits(e) => e.to_string(),
        }
    }
}

impl std::fmt::Display for TournamentConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(&Setting::canonical))
    }
}

fn bad(
    setting: Setting,
    key: &str,
    value: &str,
    reason: impl Into<String>,
) -> TournamentConfigError {
    TournamentConfigError::BadValue {
        setting,
        key: key.to_string(),
        value: value.to_string(),
        reason: reason.into(),
    }
}

/// Splits `KEY=VALUE` tokens, refusing unknown keys.
fn key_values<'a>(
    setting: Setting,
    tokens: &'a [String],
    keys: &'static [&'static str],
    expected: &'static str,
) -> Result<Vec<(&'a str, &'a str)>, TournamentConfigError> {
    tokens
        .iter()
        .map(|t| {
            let (k, v) = t
                .split_once('=')
                .ok_or_else(|| TournamentConfigError::NotKeyValue {
                    setting,
                    token: t.clone(),
                })?;
            if !keys.contains(&k) {
                return Err(TournamentConfigError::UnknownKey {
                    setting,
                    key: k.to_string(),
                    expected,
                });
            }
            Ok((k, v))
        })
        .collect()
}

fn required<'a>(
    setting: Setting,
    pairs: &[(&str, &'a str)],
    key: &'static str,
    expected: &'static str,
) -> Result<&'a str, TournamentConfigError> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| *v)
        .ok_or(TournamentConfigError::MissingKey {
            setting,
            key,
            expected,
        })
}

/// A whole number in `lo..=hi`.
fn whole<T>(
    setting: Setting,
    key: &str,
    value: &str,
    lo: T,
    hi: T,
) -> Result<T, TournamentConfigError>
where
    T: FromStr + PartialOrd + std::fmt::Display + Copy,
{
    match value.parse::<T>() {
        Ok(n) if n >= lo && n <= hi => Ok(n),
        _ => Err(bad(
            setting,
            key,
            value,
            format!("expected a whole number from {lo} to {hi}"),
        )),
    }
}

fn number(setting: Setting, key: &str, value: &str) -> Result<f64, TournamentConfigError> {
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(bad(setting, key, value, "not a number")),
    }
}

const DRAW_KEYS: &str = "movenumber= movecount= score=";
const RESIGN_KEYS: &str = "movecount= score=";
const SPRT_KEYS: &str = "elo0= elo1= alpha= beta= [model=normalized|logistic|bayeselo]";
const OPENINGS_KEYS: &str = "file= format=epd|pgn order=sequential|random plies=N start=N";

/// `--draw movenumber=N movecount=N score=CP`.
pub fn parse_draw(tokens: &[String]) -> Result<DrawRule, TournamentConfigError> {
    let kv = key_values(
        Setting::Draw,
        tokens,
        &["movenumber", "movecount", "score"],
        DRAW_KEYS,
    )?;
    let get = |k| required(Setting::Draw, &kv, k, DRAW_KEYS);
    let rule = DrawRule {
        movenumber: whole(
            Setting::Draw,
            "movenumber",
            get("movenumber")?,
            0,
            MAX_MOVES,
        )?,
        movecount: whole(Setting::Draw, "movecount", get("movecount")?, 1, MAX_MOVES)?,
        score: whole(Setting::Draw, "score", get("score")?, 0, MAX_SCORE_CP)?,
    };
    Ok(rule)
}

/// `--resign movecount=N score=CP`.
pub fn parse_resign(tokens: &[String]) -> Result<ResignRule, TournamentConfigError> {
    let kv = key_values(
        Setting::Resign,
        tokens,
        &["movecount", "score"],
        RESIGN_KEYS,
    )?;
    let get = |k| required(Setting::Resign, &kv, k, RESIGN_KEYS);
    Ok(ResignRule {
        movecount: whole(
            Setting::Resign,
            "movecount",
            get("movecount")?,
            1,
            MAX_MOVES,
        )?,
        score: whole(Setting::Resign, "score", get("score")?, 1, MAX_SCORE_CP)?,
    })
}

/// `--sprt elo0= elo1= alpha= beta= [model=]`.
pub fn parse_sprt(tokens: &[String]) -> Result<Sprt, TournamentConfigError> {
    let kv = key_values(
        Setting::Sprt,
        tokens,
        &["elo0", "elo1", "alpha", "beta", "model"],
        SPRT_KEYS,
    )?;
    let model = match kv.iter().find(|(k, _)| *k == "model") {
        Some(&(k, v)) => v
            .parse()
            .map_err(|e: crate::keyword::UnknownWord| bad(Setting::Sprt, k, v, e.to_string()))?,
        None => super::stats::SprtModel::default(),
    };
    let get = |k: &'static str| -> Result<f64, TournamentConfigError> {
        number(
            Setting::Sprt,
            k,
            required(Setting::Sprt, &kv, k, SPRT_KEYS)?,
        )
    };
    Ok(Sprt {
        elo0: get("elo0")?,
        elo1: get("elo1")?,
        alpha: get("alpha")?,
        beta: get("beta")?,
        model,
    })
}

/// `--openings file=F format=epd|pgn order=sequential|random plies=N`.
pub fn parse_openings(tokens: &[String]) -> Result<OpeningsSpec, TournamentConfigError> {
    const F: Setting = Setting::Openings;
    let kv = key_values(
        F,
        tokens,
        &["file", "format", "order", "plies", "start"],
        OPENINGS_KEYS,
    )?;
    let mut spec = OpeningsSpec {
        file: PathBuf::from(required(F, &kv, "file", OPENINGS_KEYS)?),
        format: None,
        order: BookOrder::Sequential,
        plies: None,
        start: None,
    };
    for &(k, v) in &kv {
        match k {
            "format" => {
                spec.format = Some(v.parse().map_err(|_| bad(F, k, v, "expected epd or pgn"))?)
            }
            "order" => {
                spec.order = v
                    .parse()
                    .map_err(|_| bad(F, k, v, "expected sequential or random"))?
            }
            "plies" => spec.plies = Some(whole(F, k, v, 0, u32::MAX)?),
            "start" => spec.start = Some(whole(F, k, v, 1u64, u64::from(u32::MAX))?),
            _ => {}
        }
    }
    Ok(spec)
}

/// Where games start.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningChoice {
    /// Start positions drawn by a method, plus random plies.
    Generated {
        method: MethodSpec,
        random_plies: u32,
    },
    /// An opening book, plus random plies.
    Book {
        spec: OpeningsSpec,
        random_plies: u32,
    },
}

impl OpeningChoice {
    /// What identifies the openings for a resume.
    pub fn describe(&self) -> String {
        match self {
            OpeningChoice::Generated {
                method,
                random_plies,
            } => format!("start={method} random-plies={random_plies}"),
            OpeningChoice::Book { spec, random_plies } => format!(
                "openings file={} format={:?} order={:?} plies={:?} random-plies={random_plies}{}",
                spec.file.display(),
                spec.format(),
                spec.order,
                spec.plies,
                // Absent when not given: a state file written before
                // `start=` existed still resumes.
                spec.start
                    .map(|n| format!(" start={n}"))
                    .unwrap_or_default()
            ),
        }
    }
}

/// Checked settings.
#[derive(Clone, Debug)]
pub struct TournamentSettings {
    pub engines: Vec<EngineSpec>,
    pub schedule: Schedule,
    pub concurrency: usize,
    pub openings: OpeningChoice,
    pub seed: Option<u64>,
    pub pgn: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub state: Option<PathBuf>,
    pub rules: Rules,
    pub castling: CastlingPolicy,
    pub restart: bool,
    pub recover: bool,
    /// The PGN may be appended to by other tournaments at the same time
    /// (each game is still written whole); without it a second tournament
    /// on the same PGN is refused (issue 21).
    pub shared_pgn: bool,
    pub sprt: Option<Sprt>,
    pub margin: Duration,
    pub timeout: Duration,
    /// The PGN `[Variant]` name.
    pub pgn_variant: PgnVariant,
    /// Standings printed every this many games (0: only at the end).
    pub rating_interval: u64,
    /// The part of the schedule played here (`--shard`; the whole by default).
    pub shard: crate::shard::Shard,
    /// The run directory (`--dir`); `pgn` and `state` then point into it.
    pub run_dir: Option<PathBuf>,
}

/// A TOML config file as read: its settings, and the line of each
/// top-level key, so that a message can point at the value.
#[derive(Clone, Debug)]
pub struct ConfigFile {
    pub path: PathBuf,
    pub config: TournamentConfig,
    /// Top-level keys with their 1-based line.
    lines: Vec<(String, usize)>,
}

impl ConfigFile {
    pub fn read(path: &std::path::Path) -> Result<ConfigFile, TournamentConfigError> {
        let text = crate::files::read_text(path, "config", crate::files::CONFIG_LIMIT)?;
        let toml_error = |message: String| TournamentConfigError::Toml {
            path: path.to_path_buf(),
            message,
        };
        let config = toml::from_str(&text).map_err(|e| toml_error(e.to_string()))?;
        let table = toml::de::DeTable::parse(&text).map_err(|e| toml_error(e.to_string()))?;
        let line = |at: usize| text[..at.min(text.len())].matches('\n').count() + 1;
        let lines = table
            .get_ref()
            .iter()
            .map(|(k, _)| (k.get_ref().to_string(), line(k.span().start)))
            .collect();
        Ok(ConfigFile {
            path: path.to_path_buf(),
            config,
            lines,
        })
    }

    /// The key the file sets `setting` with (an old name if the file uses
    /// it) and its line, if the file sets it.
    pub fn key_of(&self, setting: Setting) -> Option<(&str, usize)> {
        std::iter::once(setting.word())
            .chain(setting.old_keys().iter().copied())
            .find_map(|key| {
                self.lines
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(k, l)| (k.as_str(), *l))
            })
    }
}

impl TournamentConfig {
    /// Reads a TOML config file.
    pub fn from_toml_file(
        path: &std::path::Path,
    ) -> Result<TournamentConfig, TournamentConfigError> {
        ConfigFile::read(path).map(|f| f.config)
    }

    /// Whether this config gives `setting` a value.
    pub fn gives(&self, setting: Setting) -> bool {
        match setting {
            Setting::Engine => !self.engine.is_empty(),
            Setting::Tournament => self.tournament.is_some(),
            Setting::Games => self.games.is_some(),
            Setting::Rounds => self.rounds.is_some(),
            Setting::Concurrency => self.concurrency.is_some(),
            Setting::Start => self.start.is_some(),
            Setting::RandomPlies => self.random_plies.is_some(),
            Setting::Openings => self.openings.is_some(),
            Setting::Seed => self.seed.is_some(),
            Setting::Tc => self.tc.is_some(),
            Setting::Nodes => self.nodes.is_some(),
            Setting::Depth => self.depth.is_some(),
            Setting::St => self.st.is_some(),
            Setting::Pgn => self.pgn.is_some(),
            Setting::Json => self.json.is_some(),
            Setting::State => self.state.is_some(),
            Setting::Sprt => self.sprt.is_some(),
            Setting::Draw => self.draw.is_some(),
            Setting::Resign => self.resign.is_some(),
            Setting::MaxMoves => self.maxmoves.is_some(),
            Setting::CastlingMoves => self.castling.is_some(),
            Setting::Restart => self.restart.is_some(),
            Setting::Recover => self.recover.is_some(),
            Setting::SharedPgn => self.shared_pgn.is_some(),
            Setting::Margin => self.margin.is_some(),
            Setting::Timeout => self.timeout.is_some(),
            Setting::PgnVariant => self.pgn_variant.is_some(),
            Setting::RatingInterval => self.rating_interval.is_some(),
            Setting::Shard => self.shard.is_some(),
            Setting::Dir => self.dir.is_some(),
            // A run's setting, not the config's (`session::Options::resume`).
            Setting::Resume => false,
        }
    }

    /// `self` (the command line) over `base` (the file), field by field;
    /// engines are replaced as a whole.
    pub fn over(self, base: TournamentConfig) -> TournamentConfig {
        macro_rules! pick {
            ($($f:ident),*) => {
                TournamentConfig {
                    engine: if self.engine.is_empty() { base.engine } else { self.engine },
                    $($f: self.$f.or(base.$f),)*
                }
            };
        }
        pick!(
            tournament,
            games,
            rounds,
            concurrency,
            start,
            random_plies,
            openings,
            seed,
            tc,
            nodes,
            depth,
            st,
            pgn,
            json,
            state,
            sprt,
            draw,
            resign,
            maxmoves,
            castling,
            restart,
            recover,
            shared_pgn,
            margin,
            timeout,
            pgn_variant,
            rating_interval,
            shard,
            dir
        )
    }

    /// Checks everything once.
    pub fn validate(self) -> Result<TournamentSettings, TournamentConfigError> {
        let global =
            crate::engines::limits_of(self.tc.as_deref(), self.st, self.nodes, self.depth)?;
        let engine_cfgs = if self.engine.is_empty() {
            vec![EngineKeys::default(), EngineKeys::default()]
        } else {
            self.engine
        };
        let kind = self.tournament.unwrap_or_default();
        let schedule = Schedule::new(
            kind,
            engine_cfgs.len(),
            self.games.unwrap_or(2),
            self.rounds.unwrap_or(1),
        )?;
        let mut engines = Vec::new();
        for (i, e) in engine_cfgs.iter().enumerate() {
            let mut fallback = global;
            if fallback.is_empty() {
                fallback.nodes = Some(DEFAULT_NODES);
            }
            let spec = e
                .spec(fallback)
                .map_err(|err| TournamentConfigError::Engine(i + 1, err))?;
            engines.push(spec);
        }
        if let Some(s) = &self.sprt {
            s.validate()?;
            if engines.len() > 2 && kind == TournamentKind::RoundRobin {
                return Err(TournamentConfigError::SprtUndefined(engines.len()));
            }
            if kind == TournamentKind::Knockout {
                return Err(TournamentConfigError::SprtKnockout);
            }
        }
        if let Some(d) = &self.draw {
            check_range(Setting::Draw, "movenumber", d.movenumber, 0, MAX_MOVES)?;
            check_range(Setting::Draw, "movecount", d.movecount, 1, MAX_MOVES)?;
            check_range(Setting::Draw, "score", d.score, 0, MAX_SCORE_CP)?;
        }
        if let Some(r) = &self.resign {
            check_range(Setting::Resign, "movecount", r.movecount, 1, MAX_MOVES)?;
            check_range(Setting::Resign, "score", r.score, 1, MAX_SCORE_CP)?;
        }
        if let Some(m) = self.maxmoves {
            check_setting(Setting::MaxMoves, m, 1, MAX_MOVES)?;
        }
        let random_plies = self.random_plies.unwrap_or(0);
        check_setting(Setting::RandomPlies, random_plies, 0, 1000)?;
        let openings = match (self.openings, self.start) {
            (Some(_), Some(_)) => return Err(TournamentConfigError::StartAndOpenings),
            (Some(spec), None) => OpeningChoice::Book { spec, random_plies },
            (None, start) => OpeningChoice::Generated {
                method: start.as_deref().unwrap_or("random").parse()?,
                random_plies,
            },
        };
        let concurrency = self.concurrency.unwrap_or(1);
        check_setting(Setting::Concurrency, concurrency, 1, 1024)?;
        let timeout = match self.timeout {
            Some(t) => crate::seconds::config_key("timeout", t)?,
            None => Duration::from_secs(30),
        };
        // `auto` reads the scheduler's variables (Slurm, Kubernetes).
        let shard = match &self.shard {
            Some(text) => text
                .parse::<crate::shard::ShardChoice>()?
                .resolve(|k| std::env::var(k).ok())?,
            None => crate::shard::Shard::WHOLE,
        };
        if shard != crate::shard::Shard::WHOLE && kind == TournamentKind::Knockout {
            return Err(TournamentConfigError::ShardKnockout);
        }
        if shard != crate::shard::Shard::WHOLE && self.seed.is_none() {
            return Err(TournamentConfigError::ShardWithoutSeed(shard));
        }
        let (pgn, state) = match &self.dir {
            Some(_) if self.pgn.is_some() || self.state.is_some() => {
                return Err(TournamentConfigError::DirWithFiles);
            }
            Some(dir) => (
                Some(super::rundir::pgn_path(dir, shard)),
                Some(super::rundir::state_path(dir, shard)),
            ),
            None => (self.pgn, self.state),
        };
        Ok(TournamentSettings {
            engines,
            schedule,
            concurrency,
            openings,
            seed: self.seed,
            pgn,
            json: self.json,
            state,
            shard,
            run_dir: self.dir,
            rules: Rules {
                draw: self.draw,
                resign: self.resign,
                max_moves: self.maxmoves,
            },
            castling: self.castling.unwrap_or_default(),
            restart: self.restart.unwrap_or(false),
            recover: self.recover.unwrap_or(false),
            shared_pgn: self.shared_pgn.unwrap_or(false),
            sprt: self.sprt,
            margin: Duration::from_millis(self.margin.unwrap_or(100)),
            timeout,
            pgn_variant: self.pgn_variant.unwrap_or_default(),
            rating_interval: self.rating_interval.unwrap_or(DEFAULT_RATING_INTERVAL),
        })
    }
}

fn check_range<T: PartialOrd + std::fmt::Display>(
    setting: Setting,
    key: &str,
    v: T,
    lo: T,
    hi: T,
) -> Result<(), TournamentConfigError> {
    if v < lo || v > hi {
        return Err(bad(
            setting,
            key,
            &v.to_string(),
            format!("expected a whole number from {lo} to {hi}"),
        ));
    }
    Ok(())
}

fn check_setting<T: PartialOrd + std::fmt::Display>(
    setting: Setting,
    v: T,
    lo: T,
    hi: T,
) -> Result<(), TournamentConfigError> {
    if v < lo || v > hi {
        return Err(TournamentConfigError::BadSetting {
            setting,
            value: v.to_string(),
            reason: format!("expected a whole number from {lo} to {hi}"),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::BookFormat;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn adjudication_needs_whole_numbers_in_range() {
        let d = parse_draw(&toks("movenumber=40 movecount=8 score=10")).unwrap();
        assert_eq!((d.movenumber, d.movecount, d.score), (40, 8, 10));
        for (tokens, named) in [
            ("movenumber=-3 movecount=1 score=5", "movenumber='-3'"),
            ("movenumber=3 movecount=1.7 score=5", "movecount='1.7'"),
            ("movenumber=3 movecount=1 score=1e12", "score='1e12'"),
            ("movenumber=3 movecount=0 score=5", "movecount='0'"),
        ] {
            let err = parse_draw(&toks(tokens)).unwrap_err().to_string();
            assert!(err.starts_with("draw ") && err.contains(named), "{err}");
        }
        let err = parse_draw(&toks("movenumber=3")).unwrap_err().to_string();
        assert!(err.contains("missing movecount="), "{err}");
        assert!(parse_resign(&toks("movecount=3 score=-600")).is_err());
        let cfg: TournamentConfig =
            toml::from_str("[draw]\nmovenumber = 1\nmovecount = 1\nscore = 99999\n").unwrap();
        let err = cfg.validate().unwrap_err().to_string();
        assert!(err.contains("score='99999'"), "{err}");
        assert!(
            toml::from_str::<TournamentConfig>(
                "[draw]\nmovenumber = -3\nmovecount = 1\nscore = 1\n"
            )
            .is_err()
        );
    }

    #[test]
    fn openings_tokens() {
        let o = parse_openings(&toks("file=book.pgn order=random plies=4")).unwrap();
        assert_eq!(o.format(), BookFormat::Pgn);
        assert_eq!((o.order, o.plies), (BookOrder::Random, Some(4)));
        assert_eq!(
            parse_openings(&toks("file=x.txt")).unwrap().format(),
            BookFormat::Epd
        );
        assert!(parse_openings(&toks("format=epd")).is_err());
        assert!(parse_openings(&toks("file=x plies=-1")).is_err());
    }

    #[test]
    fn file_and_flags_merge_and_defaults() {
        let file: TournamentConfig = toml::from_str(
            "games = 5\ntc = \"10+0.1\"\nstart = \"die\"\n[[engine]]\ncmd = \"a\"\nnodes = 10\n[engine.options]\nHash = 16\n[[engine]]\ncmd = \"b\"\n[sprt]\nelo0 = 0.0\nelo1 = 5.0\nalpha = 0.05\nbeta = 0.05\n",
        )
        .unwrap();
        let flags = TournamentConfig {
            concurrency: Some(3),
            games: Some(8),
            ..TournamentConfig::default()
        };
        let s = flags.over(file).validate().unwrap();
        assert_eq!(s.schedule.games(), 8);
        assert_eq!(s.concurrency, 3);
        assert_eq!(s.engines[0].limits.nodes, Some(10));
        assert!(
            s.engines[0].limits.tc.is_none(),
            "own limits replace the global ones"
        );
        assert_eq!(
            s.engines[1].limits.tc.map(|t| t.to_string()),
            Some("10+0.1".into())
        );
        assert_eq!(
            s.engines[0].options,
            [("Hash".to_string(), "16".to_string())]
        );
        assert!(toml::from_str::<TournamentConfig>("gmes = 3").is_err());
        let none = TournamentConfig::default().validate().unwrap();
        assert_eq!(none.engines.len(), 2);
        assert_eq!(none.engines[0].limits.nodes, Some(DEFAULT_NODES));
    }

    #[test]
    fn sprt_only_where_defined() {
        let three = |kind| TournamentConfig {
            engine: vec![EngineKeys::default(); 3],
            tournament: Some(kind),
            sprt: Some(Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                model: Default::default(),
            }),
            ..TournamentConfig::default()
        };
        assert!(matches!(
            three(TournamentKind::RoundRobin).validate(),
            Err(TournamentConfigError::SprtUndefined(3))
        ));
        assert!(three(TournamentKind::Gauntlet).validate().is_ok());
        assert!(matches!(
            three(TournamentKind::Knockout).validate(),
            Err(TournamentConfigError::SprtKnockout)
        ));
        let one = TournamentConfig {
            engine: vec![EngineKeys::default()],
            ..TournamentConfig::default()
        };
        assert!(one.validate().is_err());
    }

    #[test]
    fn the_example_config_is_valid() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/match.toml");
        let s = TournamentConfig::from_toml_file(&path)
            .unwrap()
            .validate()
            .unwrap();
        assert_eq!(s.engines.len(), 2);
        assert_eq!(s.schedule.games(), 100);
    }

    #[test]
    fn castling_moves_is_the_key_and_castling_its_old_name() {
        for key in ["castling_moves", "castling"] {
            let c: TournamentConfig = toml::from_str(&format!("{key} = \"lenient\"")).unwrap();
            assert_eq!(c.castling, Some(CastlingPolicy::Lenient), "{key}");
        }
    }
}
