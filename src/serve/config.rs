//! `uci960 serve` settings: from flags, a TOML file, or both (flags win).
//!
//! ```toml
//! listen = "0.0.0.0:4960"
//! cert = "serve-cert.pem"          # made (self-signed) on first start if missing
//! key = "serve-key.pem"
//! token-file = "tokens.sha256"     # SHA-256 of each token, as sha256sum prints it
//! token-hashes = []                # the same, inline
//! client-certs = []                # fingerprints (SHA256:…) of allowed client certificates
//! allow-options = []               # file options a client may set (e.g. "SyzygyPath")
//! max-connections = 32             # open connections, handshakes included
//! max-engines = 4                  # engines running at once
//! max-threads = 1                  # per engine: ceiling for the Threads option
//! max-hash = 256                   # per engine: ceiling for Hash (MB)
//! max-line = 65536                 # bytes per client line
//! max-lines-per-second = 5000     # more are held back (read later), not dropped
//! max-search-time = 600            # seconds from go to bestmove, then stop
//! idle-timeout = 600               # seconds without a line from the client
//! handshake-timeout = 10           # seconds for TLS and the hello
//!
//! [engines.stockfish]              # the allow-list: cmd (or program), args, dir, options
//! cmd = "/usr/games/stockfish"
//! options = { SyzygyPath = "/srv/syzygy" }   # set by the server, locked
//! ```
//!
//! An engine of the allow-list is written with the engine keys of every
//! command ([`crate::engines::EngineKeys`]): `cmd` (or `program`), `args`,
//! `dir`, `options`, and `name`, the name clients ask for (in a table, the
//! table's name; a `name` key in it must agree). The other engine keys
//! are refused, each with its reason ([`not_served`]): search limits
//! (`tc`, `st`, `nodes`, `depth`) are the client's `go` to set and the
//! server's `max-search-time` to bound; `fen` and `castles` are how the
//! client's proxy writes FENs and reads castles for the engine, since the
//! server relays UCI text as it comes and translates nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::filter::Limits;
use crate::engines::{EngineCommand, EngineKeys, EngineKeysError, OptionError};
use crate::remote::fingerprint::{BadFingerprint, Fingerprint};
use crate::remote::token::{self, TokenError, TokenHash};

/// One engine of the allow-list.
#[derive(Clone, Debug)]
pub struct AllowedEngine {
    pub command: EngineCommand,
    /// Set by the server at each `uciok`; the client cannot change them.
    pub options: Vec<(String, String)>,
}

/// Everything the server needs.
#[derive(Clone, Debug)]
pub struct ServeSettings {
    pub listen: String,
    pub cert: PathBuf,
    pub key: PathBuf,
    pub token_hashes: Vec<TokenHash>,
    pub client_certs: Vec<Fingerprint>,
    pub engines: BTreeMap<String, AllowedEngine>,
    pub allow_options: Vec<String>,
    pub limits: Limits,
    pub max_connections: usize,
    pub max_engines: usize,
    pub max_line: usize,
    pub idle_timeout: Duration,
    pub handshake_timeout: Duration,
    /// How long a write to a client may wait for it to read.
    pub write_timeout: Duration,
}

impl Default for ServeSettings {
    fn default() -> ServeSettings {
        ServeSettings {
            listen: "127.0.0.1:4960".into(),
            cert: PathBuf::from("serve-cert.pem"),
            key: PathBuf::from("serve-key.pem"),
            token_hashes: Vec::new(),
            client_certs: Vec::new(),
            engines: BTreeMap::new(),
            allow_options: Vec::new(),
            limits: Limits::default(),
            max_connections: 32,
            max_engines: 4,
            max_line: 64 * 1024,
            idle_timeout: Duration::from_secs(600),
            handshake_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
        }
    }
}

/// The TOML file.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ServeConfig {
    pub listen: Option<String>,
    pub cert: Option<PathBuf>,
    pub key: Option<PathBuf>,
    pub token_file: Option<PathBuf>,
    #[serde(default)]
    pub token_hashes: Vec<String>,
    #[serde(default)]
    pub client_certs: Vec<String>,
    #[serde(default)]
    pub allow_options: Vec<String>,
    pub max_connections: Option<usize>,
    pub max_engines: Option<usize>,
    pub max_threads: Option<i64>,
    pub max_hash: Option<i64>,
    pub max_line: Option<usize>,
    pub max_lines_per_second: Option<u32>,
    pub max_search_time: Option<f64>,
    pub idle_timeout: Option<f64>,
    pub handshake_timeout: Option<f64>,
    #[serde(default)]
    pub engines: BTreeMap<String, EngineKeys>,
}

/// Why settings were refused.
#[derive(Debug, thiserror::Error)]
pub enum ServeConfigError {
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    #[error("config '{path}': {error}")]
    Toml {
        path: PathBuf,
        error: toml::de::Error,
    },
    #[error(transparent)]
    Token(#[from] TokenError),
    #[error("token-hashes: '{0}' is not 64 hex digits")]
    Hash(String),
    #[error("client-certs: {0}")]
    Fingerprint(#[from] BadFingerprint),
    #[error("engine '{name}': {error}")]
    Engine {
        name: String,
        error: EngineKeysError,
    },
    #[error("engine '{0}': names are 1 to 64 letters, digits, '.', '_' or '-'")]
    EngineName(String),
    #[error("engine '{name}': {error}")]
    Option { name: String, error: OptionError },
    #[error("engine '{0}': no program; a served engine names its program (cmd)")]
    NoProgram(String),
    #[error("engine '{name}': {key} does not apply to a served engine: {reason}")]
    NotServed {
        name: String,
        key: &'static str,
        reason: &'static str,
    },
    #[error(
        "engine '{name}': name '{given}' is not the table's name; the table's name is the one clients ask for"
    )]
    NameDiffers { name: String, given: String },
    #[error(transparent)]
    Seconds(#[from] crate::seconds::KeySecondsError),
    #[error("{key}: {reason}")]
    Value { key: &'static str, reason: String },
    #[error("no engines to serve: the allow-list (engines) is empty")]
    NoEngines,
    #[error("no way in: give a token-file, token-hashes or client-certs")]
    NoAuth,
}

impl ServeConfig {
    /// Reads a config file.
    pub fn load(path: &Path) -> Result<ServeConfig, ServeConfigError> {
        let text = crate::files::read_text(path, "config", crate::files::CONFIG_LIMIT)?;
        toml::from_str(&text).map_err(|error| ServeConfigError::Toml {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Applies the file onto `s`; relative paths are taken from `base`
    /// (the file's directory).
    pub fn apply(&self, s: &mut ServeSettings, base: &Path) -> Result<(), ServeConfigError> {
        let resolve = |p: &Path| {
            if p.is_relative() {
                base.join(p)
            } else {
                p.to_path_buf()
            }
        };
        if let Some(l) = &self.listen {
            s.listen = l.clone();
        }
        if let Some(c) = &self.cert {
            s.cert = resolve(c);
        }
        if let Some(k) = &self.key {
            s.key = resolve(k);
        }
        if let Some(t) = &self.token_file {
            s.token_hashes.extend(token::read_hashes(&resolve(t))?);
        }
        for h in &self.token_hashes {
            s.token_hashes
                .push(TokenHash::from_hex(h).ok_or_else(|| ServeConfigError::Hash(h.clone()))?);
        }
        for f in &self.client_certs {
            s.client_certs.push(f.parse()?);
        }
        s.allow_options.extend(self.allow_options.iter().cloned());
        let positive = crate::seconds::config_key;
        if let Some(v) = self.max_search_time {
            s.limits.max_search = positive("max-search-time", v)?;
        }
        if let Some(v) = self.idle_timeout {
            s.idle_timeout = positive("idle-timeout", v)?;
        }
        if let Some(v) = self.handshake_timeout {
            s.handshake_timeout = positive("handshake-timeout", v)?;
        }
        macro_rules! set {
            ($field:expr, $opt:expr) => {
                if let Some(v) = $opt {
                    $field = v;
                }
            };
        }
        set!(s.max_connections, self.max_connections);
        set!(s.max_engines, self.max_engines);
        set!(s.limits.max_threads, self.max_threads);
        set!(s.limits.max_hash, self.max_hash);
        set!(s.max_line, self.max_line);
        set!(s.limits.lines_per_second, self.max_lines_per_second);
        for (name, e) in &self.engines {
            add_engine(s, name, &e.in_folder(base))?;
        }
        Ok(())
    }
}

/// Why the search is not a served engine's setting.
const LIMITS: &str = "the client's go sets each search, and the server bounds it (max-search-time)";

/// The first key of `e` that does not apply to a served engine, with the
/// reason (module docs).
pub fn not_served(e: &EngineKeys) -> Option<(&'static str, &'static str)> {
    [
        ("tc", e.tc.is_some(), LIMITS),
        ("st", e.st.is_some(), LIMITS),
        ("nodes", e.nodes.is_some(), LIMITS),
        ("depth", e.depth.is_some(), LIMITS),
        (
            "fen",
            e.fen.is_some(),
            "the client's proxy writes the FENs the engine gets (its engine-fen); the server relays them unchanged",
        ),
        (
            "castles",
            e.castles.is_some(),
            "the client's proxy writes and reads the engine's castling moves (its castles); the server relays them unchanged",
        ),
    ]
    .into_iter()
    .find_map(|(key, given, reason)| given.then_some((key, reason)))
}

/// Adds an engine to the allow-list under `name`, the name clients ask
/// for; a `name` among the keys must be the same.
pub fn add_engine(
    s: &mut ServeSettings,
    name: &str,
    e: &EngineKeys,
) -> Result<(), ServeConfigError> {
    if !crate::remote::address::valid_engine_name(name) {
        return Err(ServeConfigError::EngineName(name.to_string()));
    }
    if let Some(given) = e.name.as_deref().filter(|given| *given != name) {
        return Err(ServeConfigError::NameDiffers {
            name: name.to_string(),
            given: given.to_string(),
        });
    }
    if let Some((key, reason)) = not_served(e) {
        return Err(ServeConfigError::NotServed {
            name: name.to_string(),
            key,
            reason,
        });
    }
    if e.program.as_ref().is_none_or(|p| p.as_os_str().is_empty()) {
        return Err(ServeConfigError::NoProgram(name.to_string()));
    }
    let command = e.command().map_err(|error| ServeConfigError::Engine {
        name: name.to_string(),
        error,
    })?;
    let options = e.option_pairs().map_err(|error| ServeConfigError::Option {
        name: name.to_string(),
        error,
    })?;
    s.engines
        .insert(name.to_string(), AllowedEngine { command, options });
    Ok(())
}

impl ServeSettings {
    /// The checks that need the whole picture.
    pub fn check(&self) -> Result<(), ServeConfigError> {
        if self.engines.is_empty() {
            return Err(ServeConfigError::NoEngines);
        }
        if self.token_hashes.is_empty() && self.client_certs.is_empty() {
            return Err(ServeConfigError::NoAuth);
        }
        for (key, zero) in [
            ("max-connections", self.max_connections == 0),
            ("max-engines", self.max_engines == 0),
            ("max-threads", self.limits.max_threads < 1),
            ("max-hash", self.limits.max_hash < 1),
            ("max-line", self.max_line < 256),
            ("max-lines-per-second", self.limits.lines_per_second == 0),
        ] {
            if zero {
                return Err(ServeConfigError::Value {
                    key,
                    reason: "too small".into(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_config_applies_and_errors_name_the_key() {
        let c: ServeConfig = toml::from_str(
            r#"
listen = "127.0.0.1:0"
cert = "c.pem"
token-hashes = ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"]
max-engines = 2
max-threads = 4
idle-timeout = 2.5
[engines.sf]
cmd = "/usr/games/stockfish"
options = { SyzygyPath = "/srv/tb", Hash = 64 }
"#,
        )
        .unwrap();
        let mut s = ServeSettings::default();
        c.apply(&mut s, Path::new("/etc/uci960")).unwrap();
        s.check().unwrap();
        assert_eq!(s.cert, PathBuf::from("/etc/uci960/c.pem"));
        assert_eq!(s.max_engines, 2);
        assert_eq!(s.limits.max_threads, 4);
        assert_eq!(s.idle_timeout, Duration::from_millis(2500));
        assert_eq!(s.engines["sf"].options.len(), 2);
        let bad: Result<ServeConfig, _> = toml::from_str("bogus = 1");
        assert!(bad.unwrap_err().to_string().contains("bogus"));
        let c: ServeConfig = toml::from_str("[engines.\"a b\"]\ncmd = \"x\"").unwrap();
        let e = c
            .apply(&mut ServeSettings::default(), Path::new("."))
            .unwrap_err();
        assert!(e.to_string().contains("'a b'"), "{e}");
        let c: ServeConfig =
            toml::from_str("[engines.x]\ncmd = \"x\"\noptions = { Hash = \"1\\nquit\" }").unwrap();
        let e = c
            .apply(&mut ServeSettings::default(), Path::new("."))
            .unwrap_err();
        assert!(e.to_string().contains("line break"), "{e}");
        assert!(matches!(
            ServeSettings::default().check(),
            Err(ServeConfigError::NoEngines)
        ));
    }

    fn table(text: &str) -> Result<ServeSettings, ServeConfigError> {
        let c: ServeConfig = toml::from_str(text).map_err(|error| ServeConfigError::Toml {
            path: "serve.toml".into(),
            error,
        })?;
        let mut s = ServeSettings::default();
        c.apply(&mut s, Path::new("/etc/uci960"))?;
        Ok(s)
    }

    #[test]
    fn engine_tables_read_the_engine_keys_of_every_config() {
        // cmd and program are one key; paths are the config folder's.
        let a = table("[engines.sf]\ncmd = \"engines/sf\"\ndir = \"work\"").unwrap();
        let b = table("[engines.sf]\nprogram = \"engines/sf\"\ndir = \"work\"").unwrap();
        let cmd = &a.engines["sf"].command;
        assert_eq!(cmd, &b.engines["sf"].command);
        assert_eq!(cmd.program, PathBuf::from("/etc/uci960/engines/sf"));
        assert_eq!(cmd.dir.as_deref(), Some(Path::new("/etc/uci960/work")));
        let named = table("[engines.sf]\ncmd = \"sf\"\nname = \"sf\"\nargs = [\"-q\"]").unwrap();
        assert_eq!(named.engines["sf"].command.args, ["-q"]);
        let err = table("[engines.sf]\ncmd = \"sf\"\nname = \"other\"").unwrap_err();
        assert!(matches!(err, ServeConfigError::NameDiffers { .. }), "{err}");
        assert!(err.to_string().contains("name 'other'"), "{err}");
        // Keys that do not apply are refused by name, with the reason.
        for (key, value, why) in [
            ("tc", "\"40/60\"", "max-search-time"),
            ("st", "1.0", "max-search-time"),
            ("nodes", "1000", "max-search-time"),
            ("depth", "12", "max-search-time"),
            ("fen", "\"xfen\"", "engine-fen"),
            ("castles", "\"kxr\"", "castles"),
        ] {
            let err = table(&format!("[engines.sf]\ncmd = \"sf\"\n{key} = {value}"))
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with(&format!(
                    "engine 'sf': {key} does not apply to a served engine"
                )) && err.contains(why),
                "{err}"
            );
        }
        let err = table("[engines.sf]\ncmd = \"sf\"\nbogus = 1").unwrap_err();
        assert!(err.to_string().contains("bogus"), "{err}");
        for no_program in ["[engines.sf]\nargs = [\"x\"]", "[engines.sf]\ncmd = \"\""] {
            let err = table(no_program).unwrap_err();
            assert!(matches!(err, ServeConfigError::NoProgram(_)), "{err}");
        }
        // The library names settings, never flags.
        let none = ServeSettings::default().check().unwrap_err().to_string();
        assert!(!none.contains("--"), "{none}");
    }
}
