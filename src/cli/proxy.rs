//! `uci960 proxy`: what a user adds as an engine in a GUI. Arguments and
//! the TOML config become [`Settings`] and an engine command; the proxy
//! itself lives in [`crate::proxy`].

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, anyhow};
use clap::Args;

use super::exit;
use crate::engines::{EngineKeys, is_key_value};
use crate::notation::fen::FenFlavour;
use crate::openings::{MethodSpec, PositionSource};
use crate::proxy::config::{ProxyConfig, RemoteSection, parse_start};
use crate::proxy::failed_start;
use crate::proxy::locate::Lookup;
use crate::proxy::transport::Target;
use crate::proxy::{GuiCastling, GuiProfile, Settings};
use crate::remote::client::{ClientSettings, default_known_hosts};
use crate::remote::{RemoteAddress, token};
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
    /// The engine, as in every command: program=PATH [arg=ARG]... [dir=DIR]
    /// [option.NAME=VALUE]... [fen=shredder|xfen] [castles=auto|kxr|standard]
    /// (over the config's `[engine]`, key by key). One PROGRAM alone is the
    /// older form, another spelling of a trailing ENGINE without arguments.
    #[arg(
        long = "engine",
        num_args = 1..,
        value_name = "KEY=VALUE|PROGRAM",
        conflicts_with = "engine"
    )]
    pub engine_spec: Vec<String>,
    /// An engine on a `uci960 serve`, instead of a local one:
    /// uci960s://HOST:PORT/NAME (also `[remote] url` in the config).
    #[arg(long, value_name = "URL", conflicts_with_all = ["engine", "engine_spec"])]
    pub remote: Option<String>,
    /// The file holding the remote server's token (its first line).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Where remote servers' fingerprints are pinned on first use
    /// (default: known_hosts in the user's uci960 config folder).
    #[arg(long, value_name = "FILE")]
    pub known_hosts: Option<PathBuf>,
    /// Client certificate (PEM) for a remote server, instead of a token.
    #[arg(long, value_name = "FILE", requires = "key")]
    pub cert: Option<PathBuf>,
    /// The client certificate's private key (PEM).
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub key: Option<PathBuf>,
    /// The engine and its arguments (after `--`); none: the built-in engine.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ENGINE [ARGS]"
    )]
    pub engine: Vec<String>,
}

/// Merges the config file and the command line.
pub fn resolve(args: &ProxyArgs) -> anyhow::Result<(Target, Settings)> {
    let (file_cmd, file_remote, mut settings) = match &args.config {
        Some(path) => {
            let config = ProxyConfig::load(path)?;
            let base = path.parent().unwrap_or(Path::new("."));
            let settings = config
                .settings()
                .with_context(|| format!("config '{}'", path.display()))?;
            let remote = match &config.remote {
                Some(r) => Some(
                    remote_target(args, Some((r, base)))
                        .with_context(|| format!("config '{}' [remote]", path.display()))?,
                ),
                None => None,
            };
            let cmd = config
                .engine_command(base)
                .with_context(|| format!("config '{}'", path.display()))?;
            (cmd, remote, settings)
        }
        None => (None, None, Settings::default()),
    };
    let engine_keys = match args.engine_spec.as_slice() {
        [] => None,
        tokens => Some(EngineKeys::parse_flag(tokens).map_err(|e| anyhow!("--engine: {e}"))?),
    };
    if let Some(keys) = &engine_keys {
        settings
            .take_engine(keys, false)
            .map_err(|e| anyhow!("--engine: {e}"))?;
    }
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
    let cli_program = engine_keys
        .as_ref()
        .filter(|k| k.program.is_some() || !k.args.is_empty());
    let target = match (cli_program, args.engine.split_first()) {
        (Some(keys), _) => Target::Local(keys.command().map_err(|e| anyhow!("--engine: {e}"))?),
        (None, Some((program, rest))) => {
            Target::Local(EngineCommand::new(program).with_args(rest.iter().cloned()))
        }
        (None, None) if args.remote.is_some() => remote_target(args, None)?,
        (None, None) => match (file_remote, file_cmd) {
            (Some(remote), _) => remote,
            (None, cmd) => Target::Local(cmd.unwrap_or_else(EngineCommand::builtin)),
        },
    };
    Ok((target, settings))
}

/// A remote engine from the flags, over the config's `[remote]` (its
/// relative paths taken from the config's folder).
fn remote_target(
    args: &ProxyArgs,
    file: Option<(&RemoteSection, &Path)>,
) -> anyhow::Result<Target> {
    let from_file = |pick: fn(&RemoteSection) -> Option<&PathBuf>| {
        file.and_then(|(r, base)| pick(r).map(|p| base.join(p)))
    };
    let url = match (&args.remote, file) {
        (Some(url), _) => url.clone(),
        (None, Some((r, _))) => r.url.clone(),
        (None, None) => anyhow::bail!("no remote engine given"),
    };
    let address: RemoteAddress = url.parse()?;
    let token_file = args
        .token_file
        .clone()
        .or_else(|| from_file(|r| r.token_file.as_ref()));
    let cert = args.cert.clone().or_else(|| from_file(|r| r.cert.as_ref()));
    let key = args.key.clone().or_else(|| from_file(|r| r.key.as_ref()));
    let identity = match (cert, key) {
        (Some(c), Some(k)) => Some((c, k)),
        (None, None) => None,
        _ => anyhow::bail!("a client certificate needs both cert and key"),
    };
    let token = match &token_file {
        Some(path) => Some(token::read_token(path)?),
        None if identity.is_some() => None,
        None => anyhow::bail!(
            "remote engine {address}: give --token-file (or a client certificate with --cert and --key)"
        ),
    };
    let known_hosts = match args
        .known_hosts
        .clone()
        .or_else(|| from_file(|r| r.known_hosts.as_ref()))
    {
        Some(path) => path,
        None => default_known_hosts()
            .context("no --known-hosts and no home folder to keep known_hosts in")?,
    };
    let connect_timeout = match file.and_then(|(r, _)| r.connect_timeout) {
        Some(t) => crate::seconds::config_key("connect-timeout", t)?,
        None => Duration::from_secs(10),
    };
    Ok(Target::Remote(ClientSettings {
        address,
        token,
        identity,
        known_hosts,
        connect_timeout,
    }))
}

/// Runs the proxy. A configuration error when a program (not a terminal)
/// drives the proxy is shown to it as the engine's name (see
/// [`failed_start`]).
pub fn run(args: ProxyArgs) -> anyhow::Result<ExitCode> {
    // `--engine PROGRAM MORE…` takes MORE for a trailing ENGINE, as clap
    // does for `--engine PROGRAM -- MORE`: the same usage error, at once.
    if let [program, more, ..] = args.engine_spec.as_slice()
        && !is_key_value(program)
    {
        anyhow::bail!(
            "the argument '--engine <PROGRAM>' cannot be used with a trailing ENGINE ('{more}'): \
             give the engine's arguments after '--' without --engine, or as arg= keys"
        );
    }
    let (target, settings) = match resolve(&args) {
        Ok(resolved) => resolved,
        Err(e) if !std::io::stdin().is_terminal() => {
            failed_start::run(&format!("{e:#}"), &[]);
            return Ok(ExitCode::from(exit::USAGE));
        }
        Err(e) => return Err(e),
    };
    // Only announce a seed when one matters (a random start method).
    let fallback = match (&settings.start, settings.seed) {
        (Some(_), None) => super::seed_or_announce(None),
        _ => 0,
    };
    Ok(exit::of_proxy(crate::proxy::run::run(
        &target, &settings, fallback,
    )?))
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
                Err(e) => {
                    failed_start::run(&format!("{e:#}"), &[]);
                    ExitCode::from(exit::USAGE)
                }
            }
        }
        Err(e) => {
            failed_start::run(&e.to_string(), &[]);
            ExitCode::from(exit::USAGE)
        }
    }
}
