//! `uci960 proxy`: what a user adds as an engine in a GUI. Arguments and
//! the TOML config become [`Settings`] and an engine command; the proxy
//! itself lives in [`crate::proxy`].

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use crate::notation::fen::FenFlavour;
use crate::proxy::config::{ProxyConfig, parse_start};
use crate::proxy::failed_start;
use crate::proxy::locate::Lookup;
use crate::proxy::{GuiCastling, GuiProfile, Settings};
use crate::start::method::{MethodSpec, PositionSource};
use crate::uci_client::EngineCommand;

#[derive(Args, Debug, Default)]
pub struct ProxyArgs {
    /// TOML config (engine command, engine options, and these flags; the
    /// command line wins).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// `gui` (positions as the GUI sends them) or a method of `positions`
    /// (die, bag-redraw, bag-swap, random, dfrc, sp:N[,M…], book:PATH, …)
    /// to inject start positions at each `ucinewgame`.
    #[arg(long, value_name = "gui|METHOD")]
    pub start: Option<String>,
    /// Seed for the start method (random and announced on stderr if unset).
    #[arg(long)]
    pub seed: Option<u64>,
    /// FEN castling flavour sent to the engine for Chess960 positions.
    #[arg(long, value_name = "shredder|xfen")]
    pub engine_fen: Option<FenFlavour>,
    /// Castling notation the GUI uses (`o-o`: `O-O`/`O-O-O`).
    #[arg(long, value_name = "auto|kxr|standard|o-o")]
    pub gui_castling: Option<GuiCastling>,
    /// The GUI in front of the proxy, for its known quirks (docs/PROXY.md,
    /// "GUI profiles"); `auto` recognises them all.
    #[arg(long, value_name = "auto|cutechess|arena|xboard|python-chess")]
    pub gui: Option<GuiProfile>,
    /// Append every line, timestamped, to this file: `{pid}`, `{time}` and
    /// `{engine}` (or `%p`, `%t`, `%e`) are filled in; a directory gets a
    /// file per instance.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Seconds without `readyok`/`bestmove` after `isready`/`stop` before
    /// the proxy reports a silent engine.
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds::parse_positive)]
    pub silence_timeout: Option<Duration>,
    /// The engine program: another spelling of a trailing ENGINE without
    /// arguments (cutechess-cli and fastchess users type `--engine`).
    #[arg(long = "engine", value_name = "CMD", conflicts_with = "engine")]
    pub engine_program: Option<String>,
    /// The engine and its arguments (after `--`); none: the built-in engine.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ENGINE [ARGS]"
    )]
    pub engine: Vec<String>,
}

/// Merges the config file and the command line.
pub fn resolve(args: &ProxyArgs) -> anyhow::Result<(EngineCommand, Settings)> {
    let (file_cmd, mut settings) = match &args.config {
        Some(path) => {
            let config = ProxyConfig::load(path)?;
            let base = path.parent().unwrap_or(Path::new("."));
            let settings = config
                .settings()
                .with_context(|| format!("config '{}'", path.display()))?;
            let cmd = config
                .engine_command(base)
                .with_context(|| format!("config '{}'", path.display()))?;
            (cmd, settings)
        }
        None => (None, Settings::default()),
    };
    if let Some(start) = &args.start {
        settings.start = parse_start(start)?;
    }
    if args.seed.is_some() {
        settings.seed = args.seed;
    }
    if let Some(f) = args.engine_fen {
        settings.engine_fen = f;
    }
    if let Some(c) = args.gui_castling {
        settings.gui_castling = c;
    }
    if let Some(g) = args.gui {
        settings.gui = g;
    }
    if args.log.is_some() {
        settings.log = args.log.clone();
    }
    if let Some(t) = args.silence_timeout {
        settings.silence_timeout = t;
    }
    settings.check_one_line()?;
    // A book is read now, so that a bad one is a usage error at start, not
    // a surprise at the first `ucinewgame`.
    if let Some(spec @ MethodSpec::Book { .. }) = &settings.start {
        PositionSource::new(spec, 0)?;
    }
    let cmd = match (&args.engine_program, args.engine.split_first()) {
        (Some(program), _) => EngineCommand::new(program),
        (None, Some((program, rest))) => {
            EngineCommand::new(program).with_args(rest.iter().cloned())
        }
        (None, None) => file_cmd.unwrap_or_else(EngineCommand::builtin),
    };
    Ok((cmd, settings))
}

/// Runs the proxy. A configuration error when a program (not a terminal)
/// drives the proxy is shown to it as the engine's name (see
/// [`failed_start`]).
pub fn run(args: ProxyArgs) -> anyhow::Result<ExitCode> {
    let (cmd, settings) = match resolve(&args) {
        Ok(resolved) => resolved,
        Err(e) if !std::io::stdin().is_terminal() => {
            return Ok(failed_start::run(&format!("{e:#}"), &[], ExitCode::from(2)));
        }
        Err(e) => return Err(e),
    };
    // Only announce a seed when one matters (a random start method).
    let fallback = match (&settings.start, settings.seed) {
        (Some(_), None) => super::seed_or_announce(None),
        _ => 0,
    };
    Ok(crate::proxy::run::run(&cmd, &settings, fallback)?)
}

/// `uci960` with no arguments and stdin not a terminal: a GUI that passes
/// no arguments started it. The proxy config is looked up as
/// [`crate::proxy::locate`] documents; none found is said to the GUI.
pub fn zero_argument_start() -> ExitCode {
    match Lookup::from_process().find(|p| p.is_file()) {
        Ok(config) => {
            let args = ProxyArgs {
                config: Some(config),
                ..ProxyArgs::default()
            };
            match run(args) {
                Ok(code) => code,
                Err(e) => failed_start::run(&format!("{e:#}"), &[], ExitCode::from(2)),
            }
        }
        Err(e) => failed_start::run(&e.to_string(), &[], ExitCode::from(2)),
    }
}
