//! `uci960 castling-test [--depth N] [--json FILE] [--only CHECK,...] [--]
//! [ENGINE [ARGS...]]`: the castling conformance suite against one engine
//! (the built-in one when none is given). Prints a table, one row per
//! check; exit 0 when nothing failed, 1 when a check failed, 2 for usage
//! errors, 3 for engines that cannot be started (see [`super::exit`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::conformance::engine_driver::EngineDriver;
use crate::conformance::report::CheckName;
use crate::conformance::suite::{
    DEFAULT_DFRC_POSITIONS, DEFAULT_PERFT_DEPTH, DEFAULT_SEARCH_DEPTH, Material, Options,
    planned_steps, run as run_suite,
};
use crate::notation::fen::FenFlavour;
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
    /// form) or xfen (`KQkq`).
    #[arg(long, default_value_t = FenFlavour::Shredder, value_name = "shredder|xfen")]
    pub fen: FenFlavour,
    /// Leave out the Double Fischer Random positions (Black's rook files
    /// differing from White's), for engines that do not claim DFRC.
    #[arg(long)]
    pub skip_dfrc: bool,
    /// Also write the report as JSON (check names as keys) to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Run only these checks (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "CHECK,...")]
    pub only: Vec<CheckName>,
    /// The engine command and its arguments; the built-in engine when
    /// missing.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ENGINE [ARGS...]"
    )]
    pub engine: Vec<String>,
}

pub fn run(args: CastlingTestArgs) -> anyhow::Result<ExitCode> {
    let cmd = match args.engine.split_first() {
        Some((program, rest)) => EngineCommand::new(program).with_args(rest.iter().cloned()),
        None => EngineCommand::builtin(),
    };
    let options = Options {
        perft_depth: args.depth,
        search_depth: args.search_depth,
        only: (!args.only.is_empty()).then(|| args.only.clone()),
        dfrc_positions: args.dfrc_positions,
        fen: args.fen,
        skip_dfrc: args.skip_dfrc,
    };
    // A signal wakes every wait on the engine; the suite then ends at once
    // (each step fails fast) and the command exits with 128 + signal.
    crate::platform::interrupt::install(None).context("installing the signal handler")?;
    let started = EngineDriver::start(&cmd);
    if let Some(code) = interrupted() {
        return Ok(code);
    }
    let mut driver = started.with_context(|| format!("cannot start engine '{}'", cmd.display()))?;

    let material = Material::generate(&options);
    let bar = ProgressBar::new(planned_steps(&material, &options));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg:<18} [{bar:30}] {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let report = run_suite(&mut driver, &material, &options, &mut |p| {
        bar.set_message(p.check.as_str());
        bar.set_position(p.done);
    });
    bar.finish_and_clear();
    driver.quit();
    if let Some(code) = interrupted() {
        return Ok(code);
    }

    // The file first: a closed stdout must not cost it.
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report.to_json())?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write JSON report to {}", path.display()))?;
    }
    super::output::emit(&report.render())?;
    Ok(if report.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// After a termination signal: say so, and the exit status 128 + signal.
fn interrupted() -> Option<ExitCode> {
    let sig = crate::platform::interrupt::received()?;
    eprintln!("uci960: interrupted by signal {sig}; no report");
    Some(ExitCode::from(crate::platform::interrupt::exit_code(sig)))
}
