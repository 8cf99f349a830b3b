//! `uci960 castling-test [OPTIONS] [--engine KEY=VALUE...]... [--] [ENGINE
//! [ARGS...]]`: the castling conformance suite against one or more engines
//! (the built-in one when none is given), each optionally also through
//! `uci960 proxy` (`--through-proxy`). Prints a table, one row per check
//! (one column per engine when there are several), the failures with their
//! diagnoses and the distinct diagnoses with one minimal reproducer each;
//! writes JSON (`--json`) and JUnit XML (`--junit`) for CI.
//!
//! Exit status ([`super::exit`]): 0 when no check failed, 1 when one did,
//! 2 for usage errors, 3 when an engine cannot be started (the other
//! engines still run) or a report cannot be written, 128+signal when
//! interrupted. The report files are written before stdout, so that a
//! closed stdout does not cost them.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::engine_flags::group_engine_tokens;
use crate::conformance::engine_driver::EngineDriver;
use crate::conformance::junit::junit;
use crate::conformance::report::{CheckName, SuiteReport};
use crate::conformance::suite::{
    DEFAULT_DFRC_POSITIONS, DEFAULT_PERFT_DEPTH, DEFAULT_SEARCH_DEPTH, Material, SuiteOptions,
    planned_steps, run as run_suite,
};
use crate::conformance::table::{engines_table, proxy_table};
use crate::engines::{EngineKeys, EngineSpec};
use crate::notation::fen::FenFlavour;
use crate::output::{self, Destination};
use crate::uci_client::EngineCommand;

#[derive(Args, Debug)]
pub struct CastlingTestArgs {
    /// Perft depth for perft-start, perft-midgame and perft-dfrc.
    #[arg(long, default_value_t = DEFAULT_PERFT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=7))]
    pub depth: u32,
    /// `go depth N` for the bestmove checks (a mate in one needs 2 or more).
    #[arg(long, default_value_t = DEFAULT_SEARCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub search_depth: u32,
    /// How many Double Fischer Random start positions perft-dfrc runs.
    #[arg(long, default_value_t = DEFAULT_DFRC_POSITIONS)]
    pub dfrc_positions: usize,
    /// FEN castling field given to the engine: shredder (`HAha`, the UCI
    /// form) or xfen (`KQkq`). `fen=` in an `--engine` spec overrides it.
    #[arg(long, default_value_t = FenFlavour::Shredder, value_name = "shredder|xfen")]
    pub fen: FenFlavour,
    /// Leave out the Double Fischer Random positions (Black's rook files
    /// differing from White's), for engines that do not claim DFRC.
    #[arg(long)]
    pub skip_dfrc: bool,
    /// Also write the report as JSON (check names as keys) to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also write the report as JUnit XML (one test case per check) to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Run only these checks (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "CHECK,...")]
    pub only: Vec<CheckName>,
    /// Stop at the first crash, stall or unreadable answer (the later
    /// checks are skipped) instead of restarting the engine and going on.
    #[arg(long)]
    pub fail_fast: bool,
    /// Seconds a `go depth N` may take before the engine counts as stalled.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::seconds::parse_positive)]
    pub timeout: Duration,
    /// Also run every check through `uci960 proxy` and show what the proxy
    /// repairs and what it cannot.
    #[arg(long)]
    pub through_proxy: bool,
    /// With --through-proxy: the FEN flavour the proxy gives the engine.
    #[arg(long, value_name = "shredder|xfen", requires = "through_proxy")]
    pub engine_fen: Option<FenFlavour>,
    /// An engine, as in `match`: cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR]
    /// [option.NAME=VALUE]... [fen=shredder|xfen] [castles=auto|kxr|standard]
    /// (standard: the suite writes and reads castles as the king's
    /// two-square move, as the engine declares). Give it once per engine.
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE")]
    pub engine_specs: Vec<String>,
    /// The engine command and its arguments; the built-in engine when
    /// neither this nor --engine is given.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ENGINE [ARGS...]"
    )]
    pub engine: Vec<String>,
}

/// One engine to test: how to start it, its column title (empty: the
/// engine's `id name`), its FEN flavour.
struct Subject {
    spec: EngineSpec,
    search_timeout: Duration,
}

/// The engines of the command line: `--engine` specs (the match parser),
/// the trailing ENGINE, or the built-in engine.
fn subjects(args: &CastlingTestArgs, timeout: Duration) -> anyhow::Result<Vec<Subject>> {
    let subject = |spec: EngineSpec| Subject {
        spec,
        search_timeout: timeout,
    };
    if args.engine_specs.is_empty() {
        let cmd = match args.engine.split_first() {
            Some((program, rest)) => EngineCommand::new(program).with_args(rest.iter().cloned()),
            None => EngineCommand::builtin(),
        };
        let mut spec = EngineSpec::new(cmd);
        spec.fen = args.fen;
        return Ok(vec![subject(spec)]);
    }
    if !args.engine.is_empty() {
        bail!("give the engines either with --engine or as a trailing ENGINE, not both");
    }
    let argv: Vec<String> = std::env::args().collect();
    let mut out = Vec::new();
    for (i, tokens) in group_engine_tokens(&args.engine_specs, &argv)
        .iter()
        .enumerate()
    {
        let e = EngineKeys::parse_flag(tokens).map_err(|err| anyhow!("--engine: {err}"))?;
        if e.has_limits() {
            bail!(
                "--engine {}: tc=, nodes=, depth= and st= are match settings; castling-test uses --depth and --search-depth",
                i + 1
            );
        }
        let mut spec = e
            .spec(crate::game::Limits::default())
            .map_err(|err| anyhow!("--engine {}: {err}", i + 1))?;
        spec.fen = e.fen.unwrap_or(args.fen);
        out.push(subject(spec));
    }
    Ok(out)
}

/// The same engine behind `uci960 proxy` (this binary).
fn through_proxy(subject: &Subject, engine_fen: Option<FenFlavour>) -> anyhow::Result<Subject> {
    let setup = &subject.spec;
    let exe = std::env::current_exe().context("cannot find this program to run `uci960 proxy`")?;
    let mut args = vec!["proxy".to_string()];
    if let Some(fen) = engine_fen {
        args.push("--engine-fen".into());
        args.push(fen.to_string());
    }
    args.push("--engine".into());
    args.push(format!("program={}", setup.cmd.program.display()));
    args.extend(setup.cmd.args.iter().map(|a| format!("arg={a}")));
    // The proxy learns the engine's notation and speaks UCI_Chess960's to
    // the suite.
    if let Some(castles) = setup.castles {
        args.push(format!("castles={castles}"));
    }
    Ok(Subject {
        spec: EngineSpec {
            cmd: EngineCommand {
                program: exe,
                args,
                dir: setup.cmd.dir.clone(),
            },
            castles: None,
            ..setup.clone()
        },
        search_timeout: subject.search_timeout,
    })
}

/// After a termination signal: say so, and the exit status 128 + signal.
fn interrupted() -> Option<ExitCode> {
    let sig = crate::platform::interrupt::received()?;
    crate::output::note(format!("interrupted by signal {sig}; no report"));
    Some(ExitCode::from(crate::platform::interrupt::exit_code(sig)))
}

/// Runs the suite on one engine setup; `None` when it cannot be started
/// (the error is printed).
fn run_one(subject: &Subject, options: &SuiteOptions, name: Option<&str>) -> Option<SuiteReport> {
    let mut driver = match EngineDriver::start(&subject.spec, subject.search_timeout) {
        Ok(d) => d,
        Err(e) => {
            crate::output::note(format!(
                "cannot start engine '{}': {e}",
                subject.spec.cmd.display()
            ));
            return None;
        }
    };
    let material = Material::generate(options);
    let bar = ProgressBar::new(planned_steps(&material, options));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg:<18} [{bar:30}] {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let mut report = run_suite(&mut driver, &material, options, &mut |p| {
        bar.set_message(p.check.as_str());
        bar.set_position(p.done);
    });
    bar.finish_and_clear();
    driver.quit();
    if let Some(name) = name {
        report.engine = name.to_string();
    }
    Some(report)
}

pub fn run(args: CastlingTestArgs) -> anyhow::Result<ExitCode> {
    check_reports(&args)?;
    let subjects = subjects(&args, args.timeout)?;
    // A signal wakes every wait on the engine; the suite then stops (no
    // restart), and the command exits with 128 + signal.
    crate::platform::interrupt::install(None).context("installing the signal handler")?;
    let mut runs: Vec<SuiteReport> = Vec::new();
    let mut text = String::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut could_not_start = false;
    for s in &subjects {
        let options = SuiteOptions {
            perft_depth: args.depth,
            search_depth: args.search_depth,
            only: (!args.only.is_empty()).then(|| args.only.clone()),
            dfrc_positions: args.dfrc_positions,
            fen: s.spec.fen,
            skip_dfrc: args.skip_dfrc,
            fail_fast: args.fail_fast,
            // The engine's `castles=`: the lines the suite writes and the
            // answers it reads follow it (conformance::speech).
            castles: s.spec.castling_notation(true),
        };
        let name = (!s.spec.name.is_empty()).then(|| s.spec.name.clone());
        let direct = run_one(s, &options, name.as_deref());
        if let Some(code) = interrupted() {
            return Ok(code);
        }
        let Some(direct) = direct else {
            could_not_start = true;
            continue;
        };
        text.push_str(&direct.render());
        runs.push(direct);
        if args.through_proxy {
            let proxied_setup = through_proxy(s, args.engine_fen)?;
            let name = name.as_ref().map(|n| format!("{n} (uci960)"));
            // The proxy speaks UCI_Chess960's notation to the suite.
            let proxied_options = SuiteOptions {
                castles: proxied_setup.spec.castling_notation(true),
                ..options.clone()
            };
            let proxied = run_one(&proxied_setup, &proxied_options, name.as_deref());
            if let Some(code) = interrupted() {
                return Ok(code);
            }
            let Some(mut proxied) = proxied else {
                could_not_start = true;
                continue;
            };
            proxied.through_proxy = true;
            text.push('\n');
            text.push_str(&proxied.render());
            runs.push(proxied);
            pairs.push((runs.len() - 2, runs.len() - 1));
        }
    }
    for &(d, p) in &pairs {
        text.push('\n');
        text.push_str(&proxy_table(&runs[d], &runs[p]));
    }
    if runs.len() > 1 {
        text.push('\n');
        let all: Vec<&SuiteReport> = runs.iter().collect();
        text.push_str(&engines_table(&all));
    }
    write_reports(&args, &runs)?;
    crate::output::emit(&text)?;
    if could_not_start {
        return Ok(ExitCode::from(super::exit::RUNTIME));
    }
    Ok(if runs.iter().any(SuiteReport::failed) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The reports' paths checked before any engine runs (issue 21): each is
/// replaced whole, so it must be a regular file or nothing, and the two
/// must be different files.
fn check_reports(args: &CastlingTestArgs) -> anyhow::Result<()> {
    let mut outputs: Vec<(&'static str, &std::path::Path)> = Vec::new();
    if let Some(p) = &args.json {
        crate::files::replace::target("JSON report", p)?;
        outputs.push(("JSON report", p));
    }
    if let Some(p) = &args.junit {
        crate::files::replace::target("JUnit report", p)?;
        outputs.push(("JUnit report", p));
    }
    crate::files::check_distinct(&outputs)?;
    Ok(())
}

/// `--json` (one engine direct: the report; otherwise `{"passed", "runs"}`)
/// and `--junit`, each replacing its file whole.
fn write_reports(args: &CastlingTestArgs, runs: &[SuiteReport]) -> anyhow::Result<()> {
    if let Some(path) = &args.json {
        let json = match runs {
            [one] => one.to_json(),
            _ => serde_json::json!({
                "passed": !runs.iter().any(SuiteReport::failed),
                "runs": runs.iter().map(SuiteReport::to_json).collect::<Vec<_>>(),
            }),
        };
        output::json::write(&Destination::file("JSON report", path), &json)?;
    }
    if let Some(path) = &args.junit {
        Destination::file("JUnit report", path).write(&output::junit::render(&junit(runs)))?;
    }
    Ok(())
}
