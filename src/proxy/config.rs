//! Proxy settings: from the command line, a TOML file, or both (the command
//! line wins).
//!
//! ```toml
//! [engine]             # the keys of every engine (crate::engines::keys)
//! program = "/usr/games/stockfish"   # or cmd = …
//! args = []
//! # castles = "auto"   # or kxr, standard: how the engine writes castles
//! # dir = "/tmp"
//!
//! [engine.options]      # sent after the engine's handshake
//! Hash = 64
//! Threads = 1
//!
//! [proxy]
//! start = "gui"          # or die, bag-redraw, sp:518, book:PATH, …
//! seed = 42
//! engine-fen = "shredder"
//! gui-castling = "auto"   # or kxr, standard, o-o
//! gui = "auto"            # or cutechess, arena, xboard, python-chess
//! log = "/tmp/uci960-proxy.log"
//! silence-timeout = 10   # seconds without readyok/bestmove before a report
//!
//! [remote]               # instead of [engine]: an engine on a `uci960 serve`
//! url = "uci960s://chess.example.org:4960/stockfish"
//! token-file = "token.txt"
//! known-hosts = "known_hosts"   # default: the user's config folder
//! # cert = "client.pem"  key = "client-key.pem"   (client certificate)
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::options::GuiCastling;
use super::profile::GuiProfile;
use crate::engines::{EngineKeys, EngineKeysError, OptionError};
use crate::files::FileError;
use crate::notation::castling::CastlingNotation;
use crate::notation::fen::FenFlavour;
use crate::openings::{MethodError, MethodSpec};
use crate::seconds::KeySecondsError;
use crate::uci_client::EngineCommand;

/// What the session needs to know at start.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `None`: the GUI's start positions (no injection).
    pub start: Option<MethodSpec>,
    pub seed: Option<u64>,
    pub engine_fen: FenFlavour,
    /// The engine's `castles` setting (`None`: the UCI rule, by its
    /// `UCI_Chess960` mode).
    pub engine_castles: Option<CastlingNotation>,
    pub gui_castling: GuiCastling,
    /// The GUI's profile (its known quirks).
    pub gui: GuiProfile,
    pub log: Option<PathBuf>,
    /// Engine options to set after the handshake, in order.
    pub engine_options: Vec<(String, String)>,
    pub silence_timeout: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            start: None,
            seed: None,
            engine_fen: FenFlavour::Shredder,
            engine_castles: None,
            gui_castling: GuiCastling::Auto,
            gui: GuiProfile::Auto,
            log: None,
            engine_options: Vec::new(),
            silence_timeout: Duration::from_secs(10),
        }
    }
}

impl Settings {
    /// Checks that no path the proxy echoes to the GUI (in its option
    /// declarations) or option it sends the engine holds a line break.
    pub fn check_one_line(&self) -> Result<(), crate::uci::LineBreak> {
        if let Some(log) = &self.log {
            crate::uci::single_line("log path", &log.to_string_lossy())?;
        }
        if let Some(MethodSpec::Book { path, .. }) = &self.start {
            crate::uci::single_line("book path", &path.to_string_lossy())?;
        }
        for (name, value) in &self.engine_options {
            crate::uci::SetOption::new(name, value)?;
        }
        Ok(())
    }
}

/// A `--start` value that is neither `gui` nor a method of `positions`.
#[derive(Debug, thiserror::Error)]
#[error("bad start method '{text}': {error}")]
pub struct StartError {
    pub text: String,
    pub error: MethodError,
}

/// Why a config file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProxyConfigError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("config '{path}': {error}")]
    Toml {
        path: PathBuf,
        error: toml::de::Error,
    },
}

/// Why a config's settings are refused.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error(transparent)]
    Start(#[from] StartError),
    #[error(transparent)]
    Seconds(#[from] KeySecondsError),
    #[error("[engine.options] {0}")]
    Option(#[from] OptionError),
    #[error("[engine] {0}")]
    Engine(#[from] EngineKeysError),
    #[error(
        "[engine] {0}: the proxy's engine is searched as the GUI says (tc, st, nodes and depth are match keys)"
    )]
    NotForProxy(&'static str),
}

/// Parses a `--start` value: `gui` or a method of `positions`.
pub fn parse_start(text: &str) -> Result<Option<MethodSpec>, StartError> {
    if text.eq_ignore_ascii_case("gui") {
        return Ok(None);
    }
    let spec: MethodSpec = text.parse().map_err(|error| StartError {
        text: text.to_string(),
        error,
    })?;
    Ok(Some(spec))
}

/// The TOML file.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProxyConfig {
    #[serde(default)]
    pub engine: Option<EngineKeys>,
    #[serde(default)]
    pub proxy: ProxySection,
    #[serde(default)]
    pub remote: Option<RemoteSection>,
}

/// `[remote]`: the engine is on a `uci960 serve`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RemoteSection {
    pub url: String,
    pub token_file: Option<PathBuf>,
    pub known_hosts: Option<PathBuf>,
    pub cert: Option<PathBuf>,
    pub key: Option<PathBuf>,
    pub connect_timeout: Option<f64>,
}

/// `[proxy]`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProxySection {
    pub start: Option<String>,
    pub seed: Option<u64>,
    pub engine_fen: Option<FenFlavour>,
    pub gui_castling: Option<GuiCastling>,
    pub gui: Option<GuiProfile>,
    pub log: Option<PathBuf>,
    pub silence_timeout: Option<f64>,
}

impl ProxyConfig {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<ProxyConfig, ProxyConfigError> {
        let text = crate::files::read_text(path, "config", crate::files::CONFIG_LIMIT)?;
        ProxyConfig::parse(&text).map_err(|error| ProxyConfigError::Toml {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Parses config text.
    pub fn parse(text: &str) -> Result<ProxyConfig, toml::de::Error> {
        toml::from_str(text)
    }

    /// The engine command, with a relative program or dir resolved against
    /// the config file's directory (`None`: no `[engine]` table).
    pub fn engine_command(&self, base: &Path) -> Result<Option<EngineCommand>, SettingsError> {
        let Some(e) = self.engine.as_ref() else {
            return Ok(None);
        };
        Ok(Some(e.in_folder(base).command()?))
    }

    /// Applies the file onto default settings.
    pub fn settings(&self) -> Result<Settings, SettingsError> {
        let mut s = Settings::default();
        let p = &self.proxy;
        if let Some(start) = &p.start {
            s.start = parse_start(start)?;
        }
        s.seed = p.seed;
        if let Some(f) = p.engine_fen {
            s.engine_fen = f;
        }
        if let Some(c) = p.gui_castling {
            s.gui_castling = c;
        }
        if let Some(g) = p.gui {
            s.gui = g;
        }
        s.log = p.log.clone();
        if let Some(t) = p.silence_timeout {
            s.silence_timeout = crate::seconds::config_key("silence-timeout", t)?;
        }
        if let Some(e) = &self.engine {
            s.take_engine(e, p.engine_fen.is_some())?;
        }
        Ok(s)
    }
}

impl Settings {
    /// Takes an engine's keys (the config's `[engine]` or the command
    /// line's `--engine`): its FEN flavour unless `fen_set` (the proxy's
    /// own setting wins), its castling notation, its options after those
    /// already set; search limits are refused (the GUI sets the search).
    pub fn take_engine(&mut self, e: &EngineKeys, fen_set: bool) -> Result<(), SettingsError> {
        let s = self;
        {
            if e.has_limits() {
                let key = [
                    ("tc", e.tc.is_some()),
                    ("st", e.st.is_some()),
                    ("nodes", e.nodes.is_some()),
                ]
                .into_iter()
                .find_map(|(k, given)| given.then_some(k))
                .unwrap_or("depth");
                return Err(SettingsError::NotForProxy(key));
            }
            if !fen_set && let Some(f) = e.fen {
                s.engine_fen = f;
            }
            if let Some(c) = e.castles {
                s.engine_castles = c.0;
            }
            s.engine_options.extend(e.option_pairs()?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_config() {
        let c = ProxyConfig::parse(
            r#"
[engine]
program = "/usr/games/stockfish"
args = ["-x"]
[engine.options]
Hash = 64
"Skill Level" = "5"
Ponder = false
[proxy]
start = "sp:518,0"
seed = 7
engine-fen = "xfen"
gui-castling = "kxr"
gui = "arena"
silence-timeout = 2.5
"#,
        )
        .unwrap();
        let s = c.settings().unwrap();
        assert_eq!(s.start, Some(MethodSpec::Fixed(vec![518, 0])));
        assert_eq!(s.seed, Some(7));
        assert_eq!(s.engine_fen, FenFlavour::XFen);
        assert_eq!(s.gui_castling, GuiCastling::Kxr);
        assert_eq!(s.gui, GuiProfile::Arena);
        assert_eq!(s.silence_timeout, Duration::from_millis(2500));
        assert_eq!(
            s.engine_options,
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("Ponder".to_string(), "false".to_string()),
                ("Skill Level".to_string(), "5".to_string())
            ]
        );
        let cmd = c.engine_command(Path::new("/etc")).unwrap().unwrap();
        assert_eq!(cmd.program, PathBuf::from("/usr/games/stockfish"));
    }

    #[test]
    fn example_config_is_valid() {
        let c = ProxyConfig::parse(include_str!("../../configs/proxy-stockfish.toml")).unwrap();
        let s = c.settings().unwrap();
        assert_eq!(s.start, None);
        assert_eq!(s.engine_options.len(), 2);
    }

    #[test]
    fn errors_name_the_problem() {
        let err = ProxyConfig::parse("[proxy]\nstart = 3")
            .unwrap_err()
            .to_string();
        assert!(err.contains("start"), "{err}");
        let err = ProxyConfig::parse("[proxy]\nbogus = 1")
            .unwrap_err()
            .to_string();
        assert!(err.contains("bogus"), "{err}");
        // An unknown GUI is named with the known ones, at its line.
        let err = ProxyConfig::parse("[proxy]\ngui = \"banksia\"")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 2") && err.contains("banksia") && err.contains("xboard"),
            "{err}"
        );
        let c = ProxyConfig::parse("[proxy]\nstart = \"dice\"").unwrap();
        let err = format!("{:#}", c.settings().unwrap_err());
        assert!(err.contains("dice"), "{err}");
        let c =
            ProxyConfig::parse("[engine]\nprogram = \"x\"\n[engine.options]\nHash = \"1\\nquit\"")
                .unwrap();
        let err = format!("{:#}", c.settings().unwrap_err());
        assert!(
            err.contains("[engine.options] option 'Hash' value '1\\nquit' holds a line break"),
            "{err}"
        );
    }
}
