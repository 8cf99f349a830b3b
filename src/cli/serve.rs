//! `uci960 serve`: flags and the TOML config become [`ServeSettings`]; the
//! server lives in [`crate::serve`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use crate::engines::EngineKeys;
use crate::platform::interrupt;
use crate::remote::Fingerprint;
use crate::remote::client::user_folder;
use crate::remote::token;
use crate::serve::config::{ServeConfig, ServeSettings, add_engine};

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
    /// An engine clients may ask for (repeatable).
    #[arg(long = "engine", value_name = "NAME=PROGRAM")]
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

/// Merges the config file and the flags.
pub fn resolve(args: &ServeArgs) -> anyhow::Result<ServeSettings> {
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
    for spec in &args.engines {
        let (name, program) = spec
            .split_once('=')
            .with_context(|| format!("--engine '{spec}': expected NAME=PROGRAM"))?;
        let e = EngineKeys {
            program: Some(PathBuf::from(program)),
            ..EngineKeys::default()
        };
        add_engine(&mut s, name, &e).with_context(|| format!("--engine '{spec}'"))?;
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
    s.check()?;
    Ok(s)
}

/// Runs the server until a signal.
pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let settings = resolve(&args)?;
    let sig = crate::serve::run(settings)?;
    Ok(ExitCode::from(interrupt::exit_code(sig)))
}
