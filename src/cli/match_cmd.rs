//! `uci960 match`: engine-vs-engine Chess960 matches (cutechess-cli /
//! fastchess style command line, or a TOML `--config`; the command line
//! wins over the config). See docs/MATCH.md.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use clap::Args;

use crate::game::adjudication::{DrawRule, ResignRule, Rules};
use crate::game::pgn::read_games;
use crate::game::{CastlingPolicy, GameResult, Limits, Termination};
use crate::notation::fen::{FenFlavour, position_fen};
use crate::start::method::{MethodSpec, PositionSource};
use crate::tournament::runner::{self, EngineSpec, MatchPlan, start_engine};
use crate::tournament::schedule::{Slot, round_up_even};
use crate::tournament::stats::Sprt;
use crate::tournament::summary::{GameSummary, Tally};
use crate::uci_client::command::{EngineConfig, group_engine_tokens, parse_engine_tokens};

#[derive(Args, Debug, Default)]
pub struct MatchArgs {
    /// An engine: cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
    /// [tc=..|nodes=N|depth=N|st=S] [fen=shredder|xfen]. Give it twice; none at all
    /// plays the built-in engine against itself.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Total games, rounded up to even (each position twice, colours reversed).
    #[arg(long)]
    pub games: Option<u32>,
    /// Games played at once, each with its own engine processes.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Start position method: die, bag-redraw, bag-swap, random, dfrc, sp:N.., book:PATH ...
    #[arg(long)]
    pub start: Option<String>,
    /// Seed for the start positions (announced on stderr when not given).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time control for both engines: [moves/]seconds[+increment].
    #[arg(long)]
    pub tc: Option<String>,
    /// Node limit per move for both engines.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth limit per move for both engines.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed seconds per move for both engines.
    #[arg(long)]
    pub st: Option<String>,
    /// PGN file; finished games are appended whole.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// SPRT: elo0=E0 elo1=E1 alpha=A beta=B (logistic Elo, pentanomial).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Draw adjudication: movenumber=N movecount=N score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// Resign adjudication: movecount=N score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Draw after N moves by each side.
    #[arg(long)]
    pub maxmoves: Option<u32>,
    /// strict: only king-takes-rook castles (fastchess); lenient: also the
    /// king onto its castling square (cutechess-cli).
    #[arg(long)]
    pub castling: Option<CastlingPolicy>,
    /// on: fresh engine processes for every game.
    #[arg(long, value_parser = ["on", "off"])]
    pub restart: Option<String>,
    /// Read the PGN and play only the games missing from it.
    #[arg(long)]
    pub resume: bool,
    /// Write the summary as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// TOML file with any of these settings.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Milliseconds an engine may overrun its time before it forfeits.
    #[arg(long)]
    pub margin: Option<u64>,
    /// Seconds an engine may stay silent (no readyok, no bestmove) when it
    /// has no clock, before the game is lost as stalled.
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds::parse_positive)]
    pub timeout: Option<Duration>,
}

/// The TOML config: the same settings; engines as `[[engine]]` tables.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct MatchConfig {
    #[serde(default)]
    pub engine: Vec<EngineConfig>,
    pub games: Option<u32>,
    pub concurrency: Option<usize>,
    pub start: Option<String>,
    pub seed: Option<u64>,
    pub tc: Option<String>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub st: Option<f64>,
    pub pgn: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub maxmoves: Option<u32>,
    pub castling: Option<CastlingPolicy>,
    pub restart: Option<bool>,
    pub json: Option<PathBuf>,
    pub margin: Option<u64>,
    pub timeout: Option<f64>,
}

/// Parses `key=value` tokens into a map of numbers, checking the keys.
fn parse_kv(flag: &str, tokens: &[String], keys: &[&str]) -> anyhow::Result<BTreeMap<String, f64>> {
    let mut map = BTreeMap::new();
    for t in tokens {
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| anyhow!("--{flag}: '{t}' is not KEY=VALUE"))?;
        if !keys.contains(&k) {
            bail!("--{flag}: unknown key '{k}' (expected {})", keys.join(", "));
        }
        let n: f64 = v
            .parse()
            .map_err(|_| anyhow!("--{flag} {k}='{v}': not a number"))?;
        map.insert(k.to_string(), n);
    }
    for k in keys {
        if !map.contains_key(*k) {
            bail!("--{flag}: missing {k}= (expected {})", keys.join(" "));
        }
    }
    Ok(map)
}

fn limits_of(
    tc: Option<&str>,
    st: Option<f64>,
    nodes: Option<u64>,
    depth: Option<u32>,
) -> anyhow::Result<Limits> {
    Ok(Limits {
        tc: tc
            .map(|t| t.parse::<crate::game::clock::TimeControl>())
            .transpose()?,
        movetime: st
            .map(|s| crate::seconds::config_key("st", s))
            .transpose()?,
        nodes,
        depth,
    })
}

/// The resolved settings.
struct Settings {
    engines: Vec<EngineSpec>,
    games: u32,
    concurrency: usize,
    start: MethodSpec,
    seed: Option<u64>,
    pgn: Option<PathBuf>,
    json: Option<PathBuf>,
    plan_rules: Rules,
    castling: CastlingPolicy,
    restart: bool,
    sprt: Option<Sprt>,
    margin: Duration,
    timeout: Duration,
}

fn resolve(args: MatchArgs) -> anyhow::Result<Settings> {
    let config: MatchConfig = match &args.config {
        Some(path) => {
            let text = crate::files::read_text(path, "config", crate::files::CONFIG_LIMIT)?;
            toml::from_str(&text).with_context(|| format!("config {}", path.display()))?
        }
        None => MatchConfig::default(),
    };
    let engine_cfgs: Vec<EngineConfig> = if args.engine.is_empty() {
        config.engine.clone()
    } else {
        let argv: Vec<String> = std::env::args().collect();
        group_engine_tokens(&args.engine, &argv)
            .iter()
            .map(|t| parse_engine_tokens(t))
            .collect::<Result<_, _>>()?
    };
    let st = match &args.st {
        Some(s) => Some(
            crate::seconds::parse_positive(s)
                .map_err(|e| anyhow!("--st: {e}"))?
                .as_secs_f64(),
        ),
        None => config.st,
    };
    let tc = args.tc.clone().or(config.tc.clone());
    let nodes = args.nodes.or(config.nodes);
    let depth = args.depth.or(config.depth);
    let global = limits_of(tc.as_deref(), st, nodes, depth)?;

    let engine_cfgs = match engine_cfgs.len() {
        0 => vec![EngineConfig::default(), EngineConfig::default()],
        2 => engine_cfgs,
        n => bail!(
            "a match needs exactly two engines (--engine given {n} times); none at all plays the built-in engine against itself"
        ),
    };
    let mut engines = Vec::new();
    for (i, e) in engine_cfgs.iter().enumerate() {
        let cmd = e.command().with_context(|| format!("engine {}", i + 1))?;
        let own = limits_of(e.tc.as_deref(), e.st, e.nodes, e.depth)?;
        let mut limits = if own.is_empty() { global } else { own };
        if limits.is_empty() {
            // No limit anywhere: a quick demo setting (see docs/MATCH.md).
            limits.nodes = Some(DEFAULT_NODES);
        }
        let options = e
            .option_pairs()
            .map_err(|err| anyhow!("engine {}: {err}", i + 1))?;
        if let Some(name) = &e.name {
            crate::uci::single_line(&format!("engine {} name", i + 1), name)?;
        }
        engines.push(EngineSpec {
            name: e.name.clone().unwrap_or_default(),
            cmd,
            options,
            limits,
            fen: e.fen.unwrap_or(FenFlavour::Shredder),
        });
    }

    let sprt = match &args.sprt {
        Some(t) => {
            let m = parse_kv("sprt", t, &["elo0", "elo1", "alpha", "beta"])?;
            Some(Sprt {
                elo0: m["elo0"],
                elo1: m["elo1"],
                alpha: m["alpha"],
                beta: m["beta"],
            })
        }
        None => config.sprt,
    };
    if let Some(s) = &sprt {
        s.validate().map_err(|e| anyhow!("--sprt: {e}"))?;
    }
    let draw = match &args.draw {
        Some(t) => {
            let m = parse_kv("draw", t, &["movenumber", "movecount", "score"])?;
            Some(DrawRule {
                movenumber: m["movenumber"] as u32,
                movecount: m["movecount"] as u32,
                score: m["score"] as i32,
            })
        }
        None => config.draw,
    };
    let resign = match &args.resign {
        Some(t) => {
            let m = parse_kv("resign", t, &["movecount", "score"])?;
            Some(ResignRule {
                movecount: m["movecount"] as u32,
                score: m["score"] as i32,
            })
        }
        None => config.resign,
    };
    let start_text = args
        .start
        .or(config.start)
        .unwrap_or_else(|| "random".into());
    let start: MethodSpec = start_text.parse()?;
    let timeout = match (args.timeout, config.timeout) {
        (Some(t), _) => t,
        (None, Some(t)) => crate::seconds::config_key("timeout", t)?,
        (None, None) => Duration::from_secs(30),
    };
    Ok(Settings {
        engines,
        games: round_up_even(args.games.or(config.games).unwrap_or(2)),
        concurrency: args.concurrency.or(config.concurrency).unwrap_or(1).max(1),
        start,
        seed: args.seed.or(config.seed),
        pgn: args.pgn.or(config.pgn),
        json: args.json.or(config.json),
        plan_rules: Rules {
            draw,
            resign,
            max_moves: args.maxmoves.or(config.maxmoves),
        },
        castling: args.castling.or(config.castling).unwrap_or_default(),
        restart: match args.restart.as_deref() {
            Some(r) => r == "on",
            None => config.restart.unwrap_or(false),
        },
        sprt,
        margin: Duration::from_millis(args.margin.or(config.margin).unwrap_or(100)),
        timeout,
    })
}

/// Node limit when no limit is given anywhere.
pub const DEFAULT_NODES: u64 = 5000;

/// Games already in the PGN, checked against this match's schedule.
fn read_done(path: &Path, plan: &MatchPlan) -> anyhow::Result<Vec<GameSummary>> {
    let text = match crate::files::read_text(path, "PGN", crate::files::PGN_LIMIT) {
        Ok(t) => t,
        Err(crate::files::FileError::Open { cause, .. })
            if cause.kind() == std::io::ErrorKind::NotFound =>
        {
            return Ok(Vec::new());
        }
        Err(e) => return Err(e.into()),
    };
    // Games are written whole, each ending with a blank line; a file that
    // does not end so was cut inside its last game (killed mid-write): drop
    // that game so the resumed match appends after complete games only.
    let text = match complete_prefix(&text) {
        Some(keep) => {
            eprintln!(
                "uci960: {}: dropping an incomplete last game",
                path.display()
            );
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            file.set_len(keep.len() as u64)
                .with_context(|| format!("truncating {}", path.display()))?;
            keep.to_string()
        }
        None => text,
    };
    let games = read_games(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for g in games {
        let at = || format!("{} line {}", path.display(), g.line);
        let result: GameResult = match g.result.parse() {
            Ok(r) => r,
            Err(_) => continue, // unfinished: played again
        };
        let number: u32 = g
            .tag("Round")
            .and_then(|r| r.parse().ok())
            .ok_or_else(|| anyhow!("{}: no numeric Round tag", at()))?;
        if number == 0 || number > plan.games {
            bail!(
                "{}: game {number} is outside this match of {} games",
                at(),
                plan.games
            );
        }
        let slot = Slot::new(number);
        let [w, b] = slot.engines();
        if g.tag("White") != Some(plan.engines[w].name.as_str())
            || g.tag("Black") != Some(plan.engines[b].name.as_str())
        {
            bail!(
                "{}: game {number} is {} vs {}, but these arguments give {} vs {}; resume with the same engines",
                at(),
                g.tag("White").unwrap_or("?"),
                g.tag("Black").unwrap_or("?"),
                plan.engines[w].name,
                plan.engines[b].name
            );
        }
        let expected = position_fen(&plan.positions[(slot.pair - 1) as usize], FenFlavour::XFen);
        if g.tag("FEN") != Some(expected.as_str()) {
            bail!(
                "{}: game {number} started from '{}', but these arguments give '{expected}'; resume with the same --start and --seed",
                at(),
                g.tag("FEN").unwrap_or("?")
            );
        }
        let termination: Termination = g
            .tag("Termination")
            .ok_or_else(|| anyhow!("{}: no Termination tag", at()))?
            .parse()
            .map_err(|e: crate::keyword::UnknownWord| anyhow!("{}: {e}", at()))?;
        let errors = |tag: &str| g.tag(tag).and_then(|v| v.parse().ok()).unwrap_or(0u32);
        let mut notation_errors = [0; 2];
        notation_errors[w] = errors("WhiteNotationErrors");
        notation_errors[b] = errors("BlackNotationErrors");
        out.push(GameSummary {
            number,
            first_white: slot.first_white,
            result,
            termination,
            notation_errors,
        });
    }
    Ok(out)
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let resume = args.resume;
    let s = resolve(args)?;
    if resume && s.pgn.is_none() {
        bail!("--resume needs --pgn FILE (the PGN of the interrupted match)");
    }
    // On resume without --seed, the seed is the one in the PGN.
    let seed = match (s.seed, resume, &s.pgn) {
        (Some(seed), _, _) => seed,
        (None, true, Some(path)) => {
            seed_from_pgn(path).unwrap_or_else(|| super::seed_or_announce(None))
        }
        _ => super::seed_or_announce(None),
    };

    // A signal sets the flag and wakes every engine wait; the games in
    // progress are abandoned and the report written. The platform's
    // watchdog ends the process if that takes longer than a second.
    let interrupted = Arc::new(AtomicBool::new(false));
    crate::platform::interrupt::install(Some(Arc::clone(&interrupted)))
        .context("installing the signal handler")?;

    // Start each engine once: UCI_Chess960 check and names.
    let mut specs = s.engines;
    let mut first = Vec::new();
    for spec in &mut specs {
        let e = start_engine(spec, s.timeout).map_err(|e| anyhow!(e))?;
        if spec.name.is_empty() {
            spec.name = e.name().to_string();
        }
        first.push(Some(e));
    }
    if specs[0].name == specs[1].name {
        specs[1].name.push_str(" (2)");
    }
    let [a, b]: [EngineSpec; 2] = specs
        .try_into()
        .map_err(|_| anyhow!("two engines expected"))?;
    let second = first.pop().flatten();
    let first_engine = first.pop().flatten();

    let mut source = PositionSource::new(&s.start, seed)?;
    let positions = (0..s.games / 2)
        .map(|_| source.next_position().position)
        .collect();

    let mut plan = MatchPlan {
        engines: [a, b],
        games: s.games,
        concurrency: s.concurrency,
        positions,
        castling: s.castling,
        rules: s.plan_rules,
        restart: s.restart,
        margin: s.margin,
        timeout: s.timeout,
        sprt: s.sprt,
        pgn: s.pgn.clone(),
        tags: vec![
            ("Event".into(), "uci960 match".into()),
            ("Site".into(), "?".into()),
            ("Date".into(), crate::utc::UtcTime::now().pgn_date()),
            ("Start".into(), s.start.name().into()),
            ("Seed".into(), seed.to_string()),
        ],
        done: BTreeSet::new(),
        progress: true,
    };
    let mut tally = Tally::new(&plan.engines[0].name, &plan.engines[1].name);
    if resume && let Some(path) = &s.pgn {
        for g in read_done(path, &plan)? {
            if plan.done.insert(g.number) {
                tally.record(&g);
            }
        }
        eprintln!(
            "uci960: resuming: {} of {} games already in {}",
            plan.done.len(),
            plan.games,
            path.display()
        );
    } else if let Some(path) = &s.pgn
        && std::fs::metadata(path)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
    {
        eprintln!(
            "uci960: appending to {} (use --resume to continue a match in it)",
            path.display()
        );
    }

    let sprt = plan.sprt;
    let report = runner::run(
        plan,
        [first_engine, second],
        tally,
        Arc::clone(&interrupted),
    )?;
    let mut table = report.tally.render(sprt.as_ref());
    if report.sprt_stopped {
        table.push_str("SPRT: a bound was crossed; the match stopped early.\n");
    }
    // The file first: a closed stdout must not cost it.
    if let Some(path) = &s.json {
        let mut json = report.tally.to_json(sprt.as_ref());
        json["interrupted"] = serde_json::json!(report.interrupted);
        json["seed"] = serde_json::json!(seed);
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    super::output::emit(&table)?;
    if report.interrupted {
        eprintln!(
            "uci960: interrupted; the PGN holds only complete games. Run again with --resume to finish."
        );
        let sig =
            crate::platform::interrupt::received().unwrap_or(crate::platform::interrupt::SIGINT);
        return Ok(ExitCode::from(crate::platform::interrupt::exit_code(sig)));
    }
    Ok(ExitCode::SUCCESS)
}

/// The text up to the start of an incomplete last game, or `None` when
/// the text ends with a complete game (or is empty).
fn complete_prefix(text: &str) -> Option<&str> {
    if text.is_empty() || text.ends_with("\n\n") {
        return None;
    }
    Some(match text.rfind("\n\n[") {
        Some(i) => &text[..i + 2],
        None => "",
    })
}

fn seed_from_pgn(path: &Path) -> Option<u64> {
    let text = crate::files::read_text(path, "PGN", crate::files::PGN_LIMIT).ok()?;
    let games = read_games(&text).ok()?;
    games.first()?.tag("Seed")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci_client::EngineCommand;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn key_values_need_every_key() {
        let m = parse_kv(
            "sprt",
            &toks("elo0=0 elo1=5 alpha=0.05 beta=0.05"),
            &["elo0", "elo1", "alpha", "beta"],
        )
        .unwrap();
        assert_eq!(m["elo1"], 5.0);
        let err = parse_kv(
            "sprt",
            &toks("elo0=0 elo1=5"),
            &["elo0", "elo1", "alpha", "beta"],
        )
        .unwrap_err();
        assert!(err.to_string().contains("missing alpha"), "{err}");
    }

    #[test]
    fn config_and_defaults() {
        let cfg: MatchConfig = toml::from_str(
            "games = 5\nstart = \"die\"\n[[engine]]\ncmd = \"a\"\nnodes = 10\n[engine.options]\nHash = 16\n[[engine]]\ncmd = \"b\"\n[sprt]\nelo0 = 0.0\nelo1 = 5.0\nalpha = 0.05\nbeta = 0.05\n",
        )
        .unwrap();
        assert_eq!(cfg.engine.len(), 2);
        let dir = std::env::temp_dir().join(format!("uci960-match-cfg-{}", std::process::id()));
        std::fs::write(&dir, "games = 5\ntc = \"10+0.1\"\n[[engine]]\ncmd = \"a\"\nnodes = 10\n[engine.options]\nHash = 16\n[[engine]]\ncmd = \"b\"\n").unwrap();
        let s = resolve(MatchArgs {
            config: Some(dir.clone()),
            concurrency: Some(3),
            ..MatchArgs::default()
        })
        .unwrap();
        std::fs::remove_file(&dir).ok();
        assert_eq!(s.games, 6);
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
        assert_eq!(s.engines[0].fen, FenFlavour::Shredder);
        assert!(toml::from_str::<MatchConfig>("gmes = 3").is_err());
    }

    #[test]
    fn no_engine_means_two_builtin_engines_with_a_node_limit() {
        let s = resolve(MatchArgs::default()).unwrap();
        assert_eq!(s.engines.len(), 2);
        assert_eq!(s.engines[0].cmd, EngineCommand::builtin());
        assert_eq!(s.engines[0].limits.nodes, Some(DEFAULT_NODES));
        assert!(
            resolve(MatchArgs {
                engine: toks("cmd=x"),
                ..MatchArgs::default()
            })
            .is_err()
        );
    }

    #[test]
    fn an_incomplete_last_game_is_dropped() {
        let whole = "[Event \"a\"]\n\n1. e4 *\n\n";
        assert_eq!(complete_prefix(whole), None);
        assert_eq!(complete_prefix(""), None);
        let cut = format!("{whole}[Event \"b\"]\n[Whi");
        assert_eq!(complete_prefix(&cut), Some(whole));
        assert_eq!(complete_prefix("[Event \"b\"]\n\n1. e4 {+0.1"), Some(""));
    }
}
