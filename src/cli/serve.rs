//! `uci960 serve`: flags and the TOML config become [`ServeSettings`]; the
//! server lives in [`crate::serve`].
//!
//! `--engine` means what it means in every command: the engine keys
//! (`name=sf cmd=/usr/games/stockfish arg=… dir=… option.Hash=…`, read by
//! [`EngineKeys::parse_flag`] from the groups of
//! [`group_engine_tokens`]), with `name=` required: it is the name clients
//! ask for. Serve's first form, one token `NAME=PROGRAM`, is still read
//! when NAME is no engine key (`sf=/usr/games/stockfish`; `cmd=…` alone is
//! the shared form, and then lacks its name): service files and scripts
//! written for it keep working, and no token of the shared form can be
//! mistaken for it, since every one of those starts with a key.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, anyhow};
use clap::Args;

use super::engine_flags::group_engine_tokens;
use crate::engines::{EngineKeys, is_key_value};
use crate::platform::interrupt;
use crate::remote::Fingerprint;
use crate::remote::client::user_folder;
use crate::remote::token;
use crate::serve::config::{ServeConfig, ServeConfigError, ServeSettings, add_engine};

#[derive(Args, Debug, Default)]
pub struct ServeArgs {
    /// TOML config (the same keys as these flags, and [engines.NAME]
    /// tables); flags win.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Address and port to listen on (port 0 picks one; printed on stderr).
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// Token hashes, one SHA-256 per line as `sha256sum` prints it.
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// An engine clients may ask for, with the engine keys of every
    /// command: name=NAME cmd=PATH [arg=ARG]... [dir=DIR]
    /// [option.NAME=VALUE]...; NAME is what clients ask for
    /// (uci960s://HOST:PORT/NAME). Give it once per engine. One NAME=PROGRAM
    /// whose NAME is no engine key is the older form, still read so that
    /// existing scripts keep working. Search limits, fen= and castles= are
    /// the client's to set and are refused (docs/REMOTE.md).
    #[arg(long = "engine", num_args = 1.., value_name = "KEY=VALUE")]
    pub engines: Vec<String>,
    /// The server's certificate (PEM); made self-signed if missing.
    #[arg(long, value_name = "FILE")]
    pub cert: Option<PathBuf>,
    /// The certificate's private key (PEM).
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// A client certificate fingerprint (SHA256:…) let in without a token
    /// (repeatable).
    #[arg(long = "client-cert", value_name = "SHA256:…")]
    pub client_certs: Vec<Fingerprint>,
    /// A file option clients may set (repeatable), e.g. SyzygyPath.
    #[arg(long = "allow-option", value_name = "NAME")]
    pub allow_options: Vec<String>,
    /// Open connections at most.
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Engines running at once at most.
    #[arg(long, value_name = "N")]
    pub max_engines: Option<usize>,
    /// Ceiling for each engine's Threads option.
    #[arg(long, value_name = "N")]
    pub max_threads: Option<i64>,
    /// Ceiling for each engine's Hash option (MB).
    #[arg(long, value_name = "MB")]
    pub max_hash: Option<i64>,
    /// Longest client line (bytes).
    #[arg(long, value_name = "BYTES")]
    pub max_line: Option<usize>,
    /// Client lines per second at most (a one-second burst allowed); more
    /// are held back, not dropped.
    #[arg(long, value_name = "N")]
    pub max_lines_per_second: Option<u32>,
    /// Longest search (go to bestmove) before the server sends stop.
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds::parse_positive)]
    pub max_search_time: Option<Duration>,
    /// Seconds without a line from a client before it is closed.
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds::parse_positive)]
    pub idle_timeout: Option<Duration>,
    /// Seconds for the TLS handshake and the hello.
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds::parse_positive)]
    pub handshake_timeout: Option<Duration>,
}

/// Merges the config file and the flags; `argv`, the command line as
/// given, tells where each `--engine` ends ([`group_engine_tokens`]).
pub fn resolve(args: &ServeArgs, argv: &[String]) -> anyhow::Result<ServeSettings> {
    let mut s = ServeSettings::default();
    let mut cert_given = false;
    if let Some(path) = &args.config {
        let config = ServeConfig::load(path)?;
        cert_given = config.cert.is_some();
        let base = path.parent().unwrap_or(Path::new("."));
        config
            .apply(&mut s, base)
            .with_context(|| format!("config '{}'", path.display()))?;
    }
    if let Some(l) = &args.listen {
        s.listen = l.clone();
    }
    if let Some(t) = &args.token_file {
        s.token_hashes.extend(token::read_hashes(t)?);
    }
    let mut named = std::collections::BTreeSet::new();
    for (i, tokens) in group_engine_tokens(&args.engines, argv).iter().enumerate() {
        let flag = || format!("--engine {} '{}'", i + 1, tokens.join(" "));
        let (name, keys) = served_engine(tokens).map_err(|e| anyhow!("{}: {e}", flag()))?;
        if !named.insert(name.clone()) {
            anyhow::bail!("{}: engine '{name}' is given twice", flag());
        }
        add_engine(&mut s, &name, &keys).with_context(flag)?;
    }
    match (&args.cert, &args.key) {
        (Some(c), Some(k)) => {
            s.cert = c.clone();
            s.key = k.clone();
        }
        (None, None) if !cert_given => {
            let dir = user_folder().context("no --cert/--key and no home folder for them")?;
            s.cert = dir.join("serve-cert.pem");
            s.key = dir.join("serve-key.pem");
        }
        (None, None) => {}
        _ => anyhow::bail!("--cert and --key go together"),
    }
    s.client_certs.extend(args.client_certs.iter().copied());
    s.allow_options.extend(args.allow_options.iter().cloned());
    macro_rules! set {
        ($field:expr, $opt:expr) => {
            if let Some(v) = $opt {
                $field = v;
            }
        };
    }
    set!(s.max_connections, args.max_connections);
    set!(s.max_engines, args.max_engines);
    set!(s.limits.max_threads, args.max_threads);
    set!(s.limits.max_hash, args.max_hash);
    set!(s.max_line, args.max_line);
    set!(s.limits.lines_per_second, args.max_lines_per_second);
    set!(s.limits.max_search, args.max_search_time);
    set!(s.idle_timeout, args.idle_timeout);
    set!(s.handshake_timeout, args.handshake_timeout);
    s.check().map_err(|e| match e {
        ServeConfigError::NoEngines => anyhow!(
            "no engines to serve: give --engine name=NAME cmd=PROGRAM, or [engines.NAME] tables in --config"
        ),
        ServeConfigError::NoAuth => anyhow!(
            "no way in: give --token-file or --client-cert (or token-file, token-hashes or client-certs in --config)"
        ),
        e => e.into(),
    })?;
    Ok(s)
}

/// One `--engine`'s tokens as a served engine: its name and its keys
/// (module docs: the shared form with `name=`, or the older `NAME=PROGRAM`).
fn served_engine(tokens: &[String]) -> Result<(String, EngineKeys), String> {
    if let [token] = tokens
        && !is_key_value(token)
        && let Some((name, program)) = token.split_once('=')
    {
        let keys = EngineKeys {
            program: Some(PathBuf::from(program)),
            ..EngineKeys::default()
        };
        return Ok((name.to_string(), keys));
    }
    let keys = EngineKeys::parse_flag(tokens).map_err(|e| e.to_string())?;
    let name = keys.name.clone().ok_or(
        "a served engine needs name=NAME, the name clients ask for (uci960s://HOST:PORT/NAME)",
    )?;
    Ok((name, keys))
}

/// Runs the server until a signal.
pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let argv: Vec<String> = std::env::args().collect();
    let settings = resolve(&args, &argv)?;
    let sig = crate::serve::run(settings)?;
    Ok(ExitCode::from(interrupt::exit_code(sig)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_shared_form_needs_a_name_and_the_older_form_is_an_alias() {
        let (name, keys) = served_engine(&toks(
            "name=sf cmd=/usr/games/stockfish arg=-x dir=/tmp option.Hash=16",
        ))
        .unwrap();
        assert_eq!(name, "sf");
        assert_eq!(keys.program, Some(PathBuf::from("/usr/games/stockfish")));
        assert_eq!(
            (keys.args.as_slice(), keys.dir.as_deref()),
            (&["-x".to_string()][..], Some(Path::new("/tmp")))
        );
        assert_eq!(keys.option_pairs().unwrap(), [("Hash".into(), "16".into())]);

        let (name, old) = served_engine(&toks("sf=/usr/games/stockfish")).unwrap();
        assert_eq!(name, "sf");
        let (_, new) = served_engine(&toks("name=sf cmd=/usr/games/stockfish")).unwrap();
        assert_eq!(old.command().unwrap(), new.command().unwrap());

        // A lone key is the shared form, never the alias: no name.
        for lone in [
            "cmd=/usr/games/stockfish",
            "program=/x",
            "/usr/games/stockfish",
        ] {
            let err = served_engine(&toks(lone)).unwrap_err();
            assert!(err.contains("needs name=NAME"), "{lone}: {err}");
        }
        let err = served_engine(&toks("name=sf cmd=/x bogus=1")).unwrap_err();
        assert!(err.contains("unknown key 'bogus'"), "{err}");
        // Two tokens are never the alias.
        let err = served_engine(&toks("sf=/x tc=1")).unwrap_err();
        assert!(err.contains("unknown key 'sf'"), "{err}");
    }

    #[test]
    fn flags_name_the_engine_and_the_flag() {
        // `flags`: the `--engine` flags as written.
        let settings = |flags: &str| {
            let argv = toks(&format!("uci960 serve {flags} --listen 127.0.0.1:0"));
            let args = ServeArgs {
                engines: toks(flags)
                    .into_iter()
                    .filter(|t| t != "--engine")
                    .collect(),
                cert: Some("c.pem".into()),
                key: Some("k.pem".into()),
                client_certs: vec![Fingerprint::of_der(b"a client")],
                ..ServeArgs::default()
            };
            resolve(&args, &argv).map_err(|e| crate::cli::exit::message(&e))
        };
        let s = settings(
            "--engine name=sf cmd=/usr/games/stockfish option.Hash=16 --engine old=/bin/old",
        )
        .unwrap();
        assert_eq!(s.engines["sf"].options, [("Hash".into(), "16".into())]);
        assert_eq!(s.engines["old"].command.program, PathBuf::from("/bin/old"));
        let err = settings("--engine name=a cmd=/x --engine a=/y").unwrap_err();
        assert!(
            err.starts_with("--engine 2 'a=/y': engine 'a' is given twice"),
            "{err}"
        );
        let err = settings("--engine name=sf cmd=/x tc=40/60").unwrap_err();
        assert!(
            err.starts_with("--engine 1 'name=sf cmd=/x tc=40/60': engine 'sf': tc does not apply"),
            "{err}"
        );
        let err = settings("--engine cmd=/x").unwrap_err();
        assert!(
            err.starts_with("--engine 1 'cmd=/x': a served engine needs name=NAME"),
            "{err}"
        );
        let err = settings("").unwrap_err();
        assert!(err.contains("give --engine name=NAME cmd=PROGRAM"), "{err}");
    }
}
