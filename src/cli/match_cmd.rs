//! `uci960 match`: Chess960 tournaments between UCI engines (cutechess-cli /
//! fastchess style command line, or a TOML `--config`; the command line
//! wins over the config). The flags fill a [`TournamentConfig`], the same
//! type the TOML file fills; everything else is `src/tournament/`. See
//! docs/MATCH.md.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use clap::Args;

use super::engine_flags::group_engine_tokens;
use super::keyword::keyword;
use crate::engines::EngineKeys;
use crate::keyword::Keyword;
use crate::tournament::config::{
    self, ConfigFile, TournamentConfig, TournamentConfigError, parse_draw, parse_openings,
    parse_resign, parse_sprt,
};
use crate::tournament::runner::Ended;
use crate::tournament::schedule::TournamentKind;
use crate::tournament::session::{self, Options};
use crate::tournament::setting::Setting;

#[derive(Args, Debug, Default)]
pub struct MatchArgs {
    /// An engine: cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
    /// [tc=..|nodes=N|depth=N|st=S] [fen=shredder|xfen]. Give it two times or more;
    /// none at all plays the built-in engine against itself.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// How engines are paired: round-robin, gauntlet (the first engine
    /// against each other one), knockout (a seeded bracket) [default: round-robin].
    #[arg(long, value_parser = keyword::<TournamentKind>())]
    pub tournament: Option<TournamentKind>,
    /// Games of each pairing per round, rounded up to even (each opening
    /// twice, colours reversed) [default: 2].
    #[arg(long)]
    pub games: Option<u64>,
    /// Rounds: each pairing plays --games games per round [default: 1].
    #[arg(long)]
    pub rounds: Option<u64>,
    /// Games played at once, each with its own engine processes [default: 1].
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Start position method: die, bag-redraw, bag-swap, random, dfrc, sp:N.., book:PATH ...
    /// [default: random].
    #[arg(long)]
    pub start: Option<String>,
    /// Random legal plies played after each start position or opening line
    /// (a generated opening) [default: 0].
    #[arg(long, value_name = "N")]
    pub random_plies: Option<u32>,
    /// Opening book: file=PATH [format=epd|pgn] [order=sequential|random] [plies=N].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub openings: Option<Vec<String>>,
    /// Seed for start positions and openings (announced on stderr when not given).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time control for every engine: [moves/]seconds[+increment].
    #[arg(long)]
    pub tc: Option<String>,
    /// Node limit per move for every engine.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth limit per move for every engine.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed seconds per move for every engine.
    #[arg(long)]
    pub st: Option<String>,
    /// PGN file; finished games are appended whole.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// SPRT: elo0=E0 elo1=E1 alpha=A beta=B (logistic Elo, pentanomial); two
    /// engines, or each pairing of a gauntlet.
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
    /// How engines' castling moves are read. strict: only king-takes-rook
    /// castles (fastchess); lenient: also the king onto its castling square
    /// (cutechess-cli) [default: strict]. (`--castling` is the old name,
    /// still read: in `book` that word is the FEN flavour, so `match` says
    /// what it means.)
    #[arg(long = "castling-moves", alias = "castling", value_parser = ["strict", "lenient"])]
    pub castling: Option<String>,
    /// on: fresh engine processes for every game [default: off].
    #[arg(long, value_parser = ["on", "off"])]
    pub restart: Option<String>,
    /// Retry starting an engine that cannot be restarted after a crash or
    /// stall, and go on (without it, such an engine stops the tournament).
    #[arg(long)]
    pub recover: bool,
    /// Let other tournaments append to the same PGN at the same time (each
    /// game is written whole); without it a second tournament writing the
    /// PGN is refused.
    #[arg(long)]
    pub shared_pgn: bool,
    /// Continue the tournament recorded in the state file.
    #[arg(long)]
    pub resume: bool,
    /// State file for --resume [default: PGN.state.json next to --pgn].
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Check the settings and walk the whole schedule without playing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write the summary as JSON to this file (after every game).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// TOML file with any of these settings.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Milliseconds an engine may overrun its time before it forfeits [default: 100].
    #[arg(long)]
    pub margin: Option<u64>,
    /// Seconds an engine may stay silent (no readyok, no bestmove) when it
    /// has no clock, before the game is lost as stalled [default: 30].
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds::parse_positive)]
    pub timeout: Option<std::time::Duration>,
    /// The PGN `[Variant]` name: fischerandom (cutechess-cli reads only
    /// this one) or chess960 [default: fischerandom].
    #[arg(long, value_name = "NAME", value_parser = ["fischerandom", "chess960"])]
    pub pgn_variant: Option<String>,
    /// Standings every N finished games (0: only at the end) [default: 10].
    #[arg(long, value_name = "N")]
    pub rating_interval: Option<u64>,
    /// No progress lines, interim standings or progress bar (the final
    /// table is still printed).
    #[arg(long)]
    pub quiet: bool,
    /// Play only shard I of N of the schedule (by game pairs; needs --seed);
    /// `auto` takes I and N from a Slurm array job, `auto/N` takes I from
    /// Slurm or a Kubernetes Indexed Job. See docs/DISTRIBUTED.md.
    #[arg(long, value_name = "I/N|auto|auto/N")]
    pub shard: Option<String>,
    /// Run directory: this shard's PGN and state file go there
    /// (shard-I-of-N.pgn, .state.json); the same command resumes it, and
    /// with --sprt shards sharing it decide together. `uci960 merge RUN/`
    /// prints the whole tournament.
    #[arg(long, value_name = "RUN")]
    pub dir: Option<PathBuf>,
}

/// The flags as a config (every field the flags leave out stays `None`).
fn flags_config(args: &MatchArgs) -> Result<TournamentConfig, TournamentConfigError> {
    // The groups of `--engine` tokens come from the command line as parsed:
    // translated from cutechess-cli / fastchess spellings.
    let argv = super::aliases::native_argv();
    let engine = group_engine_tokens(&args.engine, &argv)
        .iter()
        .map(|t| EngineKeys::parse_flag(t))
        .collect::<Result<_, _>>()
        .map_err(TournamentConfigError::EngineTokens)?;
    let st = match &args.st {
        Some(s) => Some(
            crate::seconds::parse_positive(s)
                .map_err(|e| TournamentConfigError::BadSetting {
                    setting: Setting::St,
                    value: s.clone(),
                    reason: e.to_string(),
                })?
                .as_secs_f64(),
        ),
        None => None,
    };
    let castling = match &args.castling {
        Some(c) => Some(c.parse().map_err(|e: crate::keyword::UnknownWord| {
            TournamentConfigError::BadSetting {
                setting: Setting::CastlingMoves,
                value: c.clone(),
                reason: e.to_string(),
            }
        })?),
        None => None,
    };
    Ok(TournamentConfig {
        engine,
        tournament: args.tournament,
        games: args.games,
        rounds: args.rounds,
        concurrency: args.concurrency,
        start: args.start.clone(),
        random_plies: args.random_plies,
        openings: args.openings.as_deref().map(parse_openings).transpose()?,
        seed: args.seed,
        tc: args.tc.clone(),
        nodes: args.nodes,
        depth: args.depth,
        st,
        pgn: args.pgn.clone(),
        json: args.json.clone(),
        state: args.state.clone(),
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
        draw: args.draw.as_deref().map(parse_draw).transpose()?,
        resign: args.resign.as_deref().map(parse_resign).transpose()?,
        maxmoves: args.maxmoves,
        castling,
        restart: args.restart.as_deref().map(|r| r == "on"),
        recover: args.recover.then_some(true),
        shared_pgn: args.shared_pgn.then_some(true),
        margin: args.margin,
        timeout: args.timeout.map(|d| d.as_secs_f64()),
        pgn_variant: match &args.pgn_variant {
            Some(v) => Some(v.parse().map_err(|e: crate::keyword::UnknownWord| {
                TournamentConfigError::BadSetting {
                    setting: Setting::PgnVariant,
                    value: v.clone(),
                    reason: e.to_string(),
                }
            })?),
            None => None,
        },
        rating_interval: args.rating_interval,
        shard: args.shard.clone(),
        dir: args.dir.clone(),
    })
}

/// How messages name each setting: as the user wrote it, the flag, or the
/// key, file and line of the config.
#[derive(Default)]
struct Written {
    /// Settings the file gives and the flags do not, named by their key.
    from_file: Vec<(Setting, String)>,
}

impl Written {
    fn name(&self, setting: Setting) -> String {
        match self.from_file.iter().find(|(s, _)| *s == setting) {
            Some((_, written)) => written.clone(),
            None => flag(setting),
        }
    }
}

/// The settings and how the user wrote them, or the message of what is
/// wrong with them, naming each setting as the user wrote it.
fn settings(args: &MatchArgs) -> Result<(config::TournamentSettings, Written), String> {
    let on_command_line = |e: TournamentConfigError| e.describe(&flag);
    let file = match &args.config {
        Some(path) => Some(ConfigFile::read(path).map_err(on_command_line)?),
        None => None,
    };
    let flags = flags_config(args).map_err(on_command_line)?;
    // Settings the file gives and the flags do not: named by their key.
    let from_file: Vec<(Setting, String)> = match &file {
        Some(f) => Setting::all()
            .filter(|s| !flags.gives(*s) && f.config.gives(*s))
            .filter_map(|s| {
                let (key, line) = f.key_of(s)?;
                Some((
                    s,
                    format!("{key} (config {}, line {line})", f.path.display()),
                ))
            })
            .collect(),
        None => Vec::new(),
    };
    let written = Written { from_file };
    let s = flags
        .over(file.map(|f| f.config).unwrap_or_default())
        .validate()
        .map_err(|e| e.describe(&|s| written.name(s)))?;
    Ok((s, written))
}

/// The flag of a setting: its TOML key with `-` for `_`.
fn flag(setting: Setting) -> String {
    format!("--{}", setting.word().replace('_', "-"))
}

/// The message of a run ended by uci960's own failure.
fn runner_failed(why: &str) -> String {
    format!("{why}; the tournament stopped and no engine was charged (--resume continues)")
}

fn fail(code: u8, err: impl std::fmt::Display) -> anyhow::Result<ExitCode> {
    crate::output::note(err);
    Ok(ExitCode::from(code))
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let (s, written) = match settings(&args) {
        Ok(s) => s,
        Err(e) => return fail(2, e),
    };
    let name = |s: Setting| written.name(s);
    let failed =
        |e: session::TournamentError| fail(super::exit::of_tournament(&e), e.describe(&name));
    if args.dry_run {
        let seed = super::seed_or_announce(s.seed);
        let d = match session::dry_run(&s, seed) {
            Ok(d) => d,
            Err(e) => return failed(e),
        };
        let name = |i: usize| {
            let e = &s.engines[i];
            if e.name.is_empty() {
                format!("engine {}", i + 1)
            } else {
                e.name.clone()
            }
        };
        println!(
            "{} games, {} pairing(s), {} opening(s), seed {seed}",
            d.games,
            d.pairings.len(),
            d.openings
        );
        for (number, w, b, fen) in &d.first {
            println!("game {number}: {} - {}  {fen}", name(*w), name(*b));
        }
        return Ok(ExitCode::SUCCESS);
    }

    // A signal sets the flag and wakes every engine wait; the games in
    // progress are abandoned and the files written. The platform's
    // watchdog ends the process if that takes longer than a second.
    let interrupted = Arc::new(AtomicBool::new(false));
    crate::platform::interrupt::install(Some(Arc::clone(&interrupted)))
        .context("installing the signal handler")?;
    // Only announce a fresh seed when it is used (not on resume).
    let fresh_seed = match (s.seed, args.resume) {
        (Some(seed), _) => seed,
        (None, true) => 0,
        (None, false) => super::seed_or_announce(None),
    };
    // Live lines on stdout, as cutechess-cli and fastchess print them (and
    // flushed at once: a CI log or `nohup` file shows each game as it
    // ends); the bar only where stderr is a terminal.
    let print_line = |text: &str| {
        let mut line = text.to_string();
        line.push('\n');
        // A closed stdout loses the progress lines, not the tournament.
        let _ = crate::output::emit(&line);
    };
    let shard_note = (s.shard != crate::shard::Shard::WHOLE || s.run_dir.is_some()).then(|| {
        format!(
            "Shard {}: these are its games only; `uci960 merge {}` gives the whole tournament.\n",
            s.shard,
            s.run_dir
                .as_deref()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "STATE-FILES…".into())
        )
    });
    let opts = Options {
        resume: args.resume,
        progress: !args.quiet,
        lines: (!args.quiet).then_some(&print_line as &dyn Fn(&str)),
        name: &name,
    };
    let report = match session::run(s, opts, fresh_seed, interrupted, &|note| {
        crate::output::note(note)
    }) {
        Ok(r) => r,
        // Out of descriptors or disk while writing the PGN or the state
        // (after the engines started): the game in hand is not recorded,
        // `--resume` plays it again.
        Err(e) if super::exit::out_of_resources(&e) => {
            let text = e.to_string();
            let text = if text.contains("out of resources") {
                text
            } else {
                format!("uci960 is out of resources: {text}")
            };
            return fail(3, runner_failed(&text));
        }
        Err(e) => return failed(e),
    };
    let mut table = report.standings.render();
    if let Some(bracket) = &report.bracket {
        table.push('\n');
        table.push_str(bracket);
    }
    if let Some(shard) = shard_note {
        table.push_str(&shard);
    }
    if report.sprt_stopped {
        table.push_str("SPRT: a bound was crossed; the match stopped early.\n");
    }
    crate::output::emit(&table)?;
    match report.ended {
        Ended::Interrupted => {
            crate::output::note(
                "interrupted; the PGN holds only complete games. Run again with --resume to finish.",
            );
            use crate::platform::interrupt::{SIGINT, exit_code, received};
            Ok(ExitCode::from(exit_code(received().unwrap_or(SIGINT))))
        }
        Ended::RunnerFailed(why) => fail(3, runner_failed(&why)),
        Ended::EngineLost => fail(
            3,
            "an engine could not be restarted; the tournament stopped (--recover retries and goes on; --resume continues)",
        ),
        Ended::Done if report.standings.sprt_failed() => Ok(ExitCode::from(1)),
        Ended::Done => Ok(ExitCode::SUCCESS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_fill_the_shared_config() {
        let args = MatchArgs {
            engine: toks("cmd=a cmd=b cmd=c"),
            tournament: Some(TournamentKind::Gauntlet),
            games: Some(4),
            rounds: Some(2),
            draw: Some(toks("movenumber=1 movecount=2 score=3")),
            castling: Some("lenient".into()),
            recover: true,
            ..MatchArgs::default()
        };
        let (s, _) = settings(&args).unwrap();
        assert_eq!(s.engines.len(), 3);
        assert_eq!(s.schedule.games(), 4 * 2 * 2);
        assert!(s.recover);
        assert_eq!(s.rules.draw.map(|d| d.movecount), Some(2));
        let bad = MatchArgs {
            draw: Some(toks("movenumber=1 movecount=2.5 score=3")),
            ..MatchArgs::default()
        };
        assert!(settings(&bad).is_err());
    }

    /// The effective settings of a cutechess-cli or fastchess command line
    /// (through the alias table) and of its native form.
    fn settings_of(line: &str) -> String {
        let t = crate::cli::aliases::translate(&toks(line)).unwrap();
        let argv = ["uci960", "match"]
            .into_iter()
            .map(String::from)
            .chain(t.args);
        let cli = <crate::cli::Cli as clap::Parser>::try_parse_from(argv).unwrap();
        let crate::cli::Command::Match(args) = cli.command else {
            panic!("not match")
        };
        format!("{:?}", settings(&args).unwrap().0)
    }

    #[test]
    fn their_command_lines_give_the_native_settings() {
        for (theirs, native) in [
            (
                "-engine cmd=/bin/sf name=a proto=uci -engine cmd=/bin/ef name=b \
                 -each tc=40/60+0.6 timemargin=200 -games 2 -rounds 10 -repeat \
                 -concurrency 2 -openings file=x.epd format=epd order=random plies=8 \
                 -srand 3 -pgnout o.pgn -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
                 -resign movecount=3 score=600 -draw movenumber=40 movecount=8 score=10 \
                 -recover -ratinginterval 5 -variant fischerandom -tournament gauntlet \
                 -maxmoves 200",
                "--engine cmd=/bin/sf name=a tc=40/60+0.6 --engine cmd=/bin/ef name=b \
                 tc=40/60+0.6 --margin 200 --games 2 --rounds 10 --concurrency 2 \
                 --openings file=x.epd format=epd order=random plies=8 --seed 3 \
                 --pgn o.pgn --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
                 --resign movecount=3 score=600 --draw movenumber=40 movecount=8 score=10 \
                 --recover --rating-interval 5 --tournament gauntlet --maxmoves 200",
            ),
            (
                "-engine cmd=/bin/sf name=a -engine cmd=/bin/ef name=b args=\"-x\" \
                 -each tc=inf nodes=2000 proto=uci option.Hash=16 -openings file=b.epd \
                 format=epd order=sequential start=5 -games 2 -rounds 4 -repeat \
                 -pgnout file=o.pgn notation=san -sprt elo0=0 elo1=2 alpha=0.05 \
                 beta=0.05 model=bayesian -concurrency 4 -srand 9 -tournament roundrobin",
                "--engine cmd=/bin/sf name=a nodes=2000 option.Hash=16 --engine cmd=/bin/ef \
                 name=b arg=-x nodes=2000 option.Hash=16 --openings file=b.epd format=epd \
                 order=sequential start=5 --games 2 --rounds 4 --pgn o.pgn --sprt elo0=0 \
                 elo1=2 alpha=0.05 beta=0.05 model=bayeselo --concurrency 4 --seed 9 \
                 --tournament round-robin",
            ),
            // `-each` is applied after every engine's own keys, and wins
            // where both give one (as cutechess-cli and fastchess).
            (
                "-engine cmd=/bin/sf name=a nodes=500 option.Hash=8 -engine cmd=/bin/ef \
                 name=b arg=-x -each nodes=2000 option.Hash=16 -each arg=-y -repeat",
                "--engine cmd=/bin/sf name=a nodes=2000 option.Hash=16 arg=-y \
                 --engine cmd=/bin/ef name=b arg=-x nodes=2000 option.Hash=16 arg=-y",
            ),
        ] {
            assert_eq!(settings_of(theirs), settings_of(native), "{theirs}");
        }
    }
}
