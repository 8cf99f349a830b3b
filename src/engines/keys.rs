//! The words a user writes for an engine, read one way everywhere: the
//! `KEY=VALUE` tokens of `--engine` (cutechess-cli's form) and the TOML
//! tables of every config (`[[engine]]` in a match config, `[engine]` in a
//! proxy config, `[engines.NAME]` in a `serve` config) fill the same
//! [`EngineKeys`], with the same key names. A command that has no use for
//! some keys refuses them by name, with its reason (the proxy: limits;
//! `serve`: limits, `fen`, `castles`).
//!
//! `program` names the engine's program; `cmd` is accepted as another
//! spelling everywhere (cutechess-cli and fastchess write `cmd=`, and the
//! match config's key was `cmd` before the configs were made one).
//!
//! Errors speak of keys; the command line adds the flag (`--engine 2: …`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::spec::EngineSpec;
use crate::game::Limits;
use crate::keyword::UnknownWord;
use crate::notation::castling::CastlingNotation;
use crate::notation::fen::FenFlavour;
use crate::uci::{LineBreak, SetOption};
use crate::uci_client::EngineCommand;

/// One engine as written by the user, before checking.
#[derive(serde::Deserialize, Debug, Default, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EngineKeys {
    #[serde(alias = "cmd")]
    pub program: Option<PathBuf>,
    pub name: Option<String>,
    #[serde(default)]
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    pub tc: Option<String>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub st: Option<f64>,
    pub fen: Option<FenFlavour>,
    pub castles: Option<Castles>,
}

/// The value of `castles`: `auto` (the UCI rule) or the notation the
/// engine keeps to (`kxr`, `standard`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Castles(pub Option<CastlingNotation>);

impl std::str::FromStr for Castles {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<Castles, UnknownWord> {
        CastlingNotation::parse_or_auto(s).map(Castles)
    }
}

impl<'de> serde::Deserialize<'de> for Castles {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Castles, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The keys, for messages.
pub const KEYS: &str =
    "program (or cmd), name, arg, dir, option.NAME, tc, nodes, depth, st, fen, castles";

/// Why an engine's keys are refused.
#[derive(Debug, thiserror::Error)]
pub enum EngineKeysError {
    #[error("'{0}' is not KEY=VALUE")]
    NotKeyValue(String),
    #[error("{key}='{value}': {reason}")]
    BadValue {
        key: String,
        value: String,
        reason: String,
    },
    #[error("unknown key '{key}' in '{token}' ({KEYS})")]
    UnknownKey { key: String, token: String },
    #[error("arguments given without a program")]
    ArgsWithoutCmd,
    #[error(transparent)]
    Seconds(#[from] crate::seconds::KeySecondsError),
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error("name: {0}")]
    Name(LineBreak),
}

/// Why an engine option cannot become a `setoption` line.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    #[error("engine option '{name}': {value} is not a string, number or boolean")]
    Type { name: String, value: String },
    #[error(transparent)]
    LineBreak(#[from] LineBreak),
}

/// The key names of `KEY=VALUE` (besides `option.NAME`).
const KEY_NAMES: [&str; 11] = [
    "program", "cmd", "name", "arg", "dir", "tc", "nodes", "depth", "st", "fen", "castles",
];

/// Whether `token` is `KEY=VALUE` with a key of an engine (else, alone
/// after `--engine`, it names a program: [`EngineKeys::parse_flag`]).
pub fn is_key_value(token: &str) -> bool {
    token.split_once('=').is_some_and(|(key, _)| {
        KEY_NAMES.contains(&key) || (key.starts_with("option.") && key.len() > 7)
    })
}

impl EngineKeys {
    /// Reads the tokens of one `--engine`, one way in every command:
    /// `KEY=VALUE` tokens, or a single token that is not one, which names
    /// the program (`proxy --engine PROGRAM`, the proxy's first form and
    /// fastchess users' habit, kept as an alias: `--engine /usr/games/stockfish`
    /// is `--engine program=/usr/games/stockfish`). A program path that
    /// itself reads `KEY=VALUE` (`cmd=x`) needs `program=`.
    pub fn parse_flag(tokens: &[String]) -> Result<EngineKeys, EngineKeysError> {
        match tokens {
            [program] if !is_key_value(program) => Ok(EngineKeys {
                program: Some(PathBuf::from(program)),
                ..EngineKeys::default()
            }),
            _ => EngineKeys::parse_tokens(tokens),
        }
    }

    /// Reads the `KEY=VALUE` tokens of one `--engine`.
    pub fn parse_tokens(tokens: &[String]) -> Result<EngineKeys, EngineKeysError> {
        let mut e = EngineKeys::default();
        for token in tokens {
            let (key, value) = token
                .split_once('=')
                .ok_or_else(|| EngineKeysError::NotKeyValue(token.clone()))?;
            let bad = |what: &str| EngineKeysError::BadValue {
                key: key.to_string(),
                value: value.to_string(),
                reason: what.to_string(),
            };
            match key {
                "program" | "cmd" => e.program = Some(PathBuf::from(value)),
                "name" => e.name = Some(value.to_string()),
                "arg" => e.args.push(value.to_string()),
                "dir" => e.dir = Some(PathBuf::from(value)),
                "tc" => e.tc = Some(value.to_string()),
                "nodes" => e.nodes = Some(value.parse().map_err(|_| bad("not a node count"))?),
                "depth" => e.depth = Some(value.parse().map_err(|_| bad("not a depth"))?),
                "st" => {
                    e.st = Some(
                        crate::seconds::parse(value)
                            .map_err(|err| bad(&err.to_string()))?
                            .as_secs_f64(),
                    )
                }
                "fen" => {
                    e.fen = Some(
                        value
                            .parse()
                            .map_err(|m: UnknownWord| bad(&m.to_string()))?,
                    )
                }
                "castles" => {
                    e.castles = Some(
                        value
                            .parse()
                            .map_err(|m: UnknownWord| bad(&m.to_string()))?,
                    )
                }
                k if k.starts_with("option.") && k.len() > 7 => {
                    e.options
                        .insert(k[7..].to_string(), toml::Value::String(value.to_string()));
                }
                _ => {
                    return Err(EngineKeysError::UnknownKey {
                        key: key.to_string(),
                        token: token.clone(),
                    });
                }
            }
        }
        Ok(e)
    }

    /// The keys as read from a config file in the folder `base`: a
    /// relative `program` with a folder in it (`engines/sf`) and a relative
    /// `dir` are taken from `base`; a bare program name (`stockfish`) stays
    /// as it is, to be looked up on `PATH`. Every config (the proxy's
    /// `[engine]`, `serve`'s `[engines.NAME]`) reads paths this way.
    pub fn in_folder(&self, base: &Path) -> EngineKeys {
        let mut e = self.clone();
        if let Some(p) = e.program.as_mut()
            && p.is_relative()
            && p.components().count() > 1
        {
            *p = base.join(&*p);
        }
        if let Some(d) = e.dir.as_mut()
            && d.is_relative()
        {
            *d = base.join(&*d);
        }
        e
    }

    /// The command that starts the engine; the built-in engine when no
    /// program is given.
    pub fn command(&self) -> Result<EngineCommand, EngineKeysError> {
        match &self.program {
            Some(program) => Ok(EngineCommand {
                program: program.clone(),
                args: self.args.clone(),
                dir: self.dir.clone(),
            }),
            None if self.args.is_empty() => Ok(EngineCommand::builtin()),
            None => Err(EngineKeysError::ArgsWithoutCmd),
        }
    }

    /// Whether a search limit is given (`tc`, `st`, `nodes`, `depth`).
    pub fn has_limits(&self) -> bool {
        self.tc.is_some() || self.st.is_some() || self.nodes.is_some() || self.depth.is_some()
    }

    /// The engine's own limits (empty when none is given).
    pub fn limits(&self) -> Result<Limits, EngineKeysError> {
        limits_of(self.tc.as_deref(), self.st, self.nodes, self.depth)
    }

    /// The `setoption` pairs, values as text (TOML numbers and booleans as
    /// written); an array or table is refused, and so is a name or value
    /// with a line break, here, where the user's options become UCI text.
    pub fn option_pairs(&self) -> Result<Vec<(String, String)>, OptionError> {
        self.options
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    toml::Value::String(v) => v.clone(),
                    toml::Value::Integer(v) => v.to_string(),
                    toml::Value::Float(v) => v.to_string(),
                    toml::Value::Boolean(v) => v.to_string(),
                    other => {
                        return Err(OptionError::Type {
                            name: name.clone(),
                            value: other.to_string(),
                        });
                    }
                };
                SetOption::new(name, &value)?;
                Ok((name.clone(), value))
            })
            .collect()
    }

    /// The checked engine: `fallback` limits when it has none of its own,
    /// Shredder-FEN unless `fen` is given, castles by the UCI rule unless
    /// `castles` is given.
    pub fn spec(&self, fallback: Limits) -> Result<EngineSpec, EngineKeysError> {
        let cmd = self.command()?;
        let own = self.limits()?;
        let options = self.option_pairs()?;
        if let Some(name) = &self.name {
            crate::uci::single_line("engine name", name).map_err(EngineKeysError::Name)?;
        }
        Ok(EngineSpec {
            name: self.name.clone().unwrap_or_default(),
            cmd,
            options,
            limits: if own.is_empty() { fallback } else { own },
            fen: self.fen.unwrap_or(FenFlavour::Shredder),
            castles: self.castles.and_then(|c| c.0),
        })
    }
}

/// Search limits from the keys `tc`, `st`, `nodes` and `depth` (an engine's
/// own or a tournament's for every engine).
pub fn limits_of(
    tc: Option<&str>,
    st: Option<f64>,
    nodes: Option<u64>,
    depth: Option<u32>,
) -> Result<Limits, EngineKeysError> {
    let movetime = st
        .map(|s| crate::seconds::config_key("st", s))
        .transpose()?;
    let tc = tc
        .map(|t| {
            t.parse().map_err(
                |e: crate::game::clock::TimeControlError| EngineKeysError::BadValue {
                    key: "tc".into(),
                    value: t.to_string(),
                    reason: e.to_string(),
                },
            )
        })
        .transpose()?;
    Ok(Limits {
        tc,
        movetime,
        nodes,
        depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engine_tokens_like_cutechess() {
        let e = EngineKeys::parse_tokens(&toks(
            "cmd=/usr/games/stockfish name=sf arg=-x arg=y option.Hash=16 nodes=1000 fen=xfen",
        ))
        .unwrap();
        assert_eq!(e.program, Some(PathBuf::from("/usr/games/stockfish")));
        assert_eq!(e.args, ["-x", "y"]);
        assert_eq!(e.options["Hash"], toml::Value::String("16".into()));
        assert_eq!((e.nodes, e.fen), (Some(1000), Some(FenFlavour::XFen)));
        assert_eq!(
            e.option_pairs().unwrap(),
            [("Hash".to_string(), "16".to_string())]
        );
        assert_eq!(e.command().unwrap().args, ["-x", "y"]);
        let err = EngineKeys::parse_tokens(&toks("cmd=x bogus=1"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown key 'bogus'"), "{err}");
        assert!(EngineKeys::parse_tokens(&toks("nodes=many")).is_err());
        let no_cmd = EngineKeys::parse_tokens(&toks("arg=x")).unwrap();
        assert!(matches!(
            no_cmd.command(),
            Err(EngineKeysError::ArgsWithoutCmd)
        ));
    }

    #[test]
    fn a_lone_program_is_the_program_key() {
        let alias = EngineKeys::parse_flag(&toks("/usr/games/stockfish")).unwrap();
        let keyed = EngineKeys::parse_flag(&toks("program=/usr/games/stockfish")).unwrap();
        assert_eq!(alias, keyed);
        // A path with `=` whose left side is no key is a program too.
        let odd = EngineKeys::parse_flag(&toks("/opt/a=b/sf")).unwrap();
        assert_eq!(odd.program, Some(PathBuf::from("/opt/a=b/sf")));
        // Every key name is read as a key, never as a program.
        for key in KEY_NAMES.iter().chain(&["option.Hash"]) {
            assert!(is_key_value(&format!("{key}=1")), "{key}");
        }
        assert!(EngineKeys::parse_flag(&toks("castles=x")).is_err());
        let two = EngineKeys::parse_flag(&toks("/bin/sf /bin/sf")).unwrap_err();
        assert!(matches!(two, EngineKeysError::NotKeyValue(_)), "{two}");
    }

    #[test]
    fn castles_is_one_key_in_tokens_and_toml() {
        use crate::notation::castling::CastlingNotation::KingTwoSquares;
        let a = EngineKeys::parse_tokens(&toks("castles=standard")).unwrap();
        let b: EngineKeys = toml::from_str("castles = \"standard\"").unwrap();
        assert_eq!(a, b);
        let spec = a.spec(Limits::default()).unwrap();
        assert_eq!(spec.castles, Some(KingTwoSquares));
        assert_eq!(spec.castling_notation(true), KingTwoSquares);
        let auto = EngineKeys::parse_tokens(&toks("castles=auto")).unwrap();
        assert_eq!(auto.spec(Limits::default()).unwrap().castles, None);
        let err = EngineKeys::parse_tokens(&toks("castles=o-o"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("castles='o-o'") && err.contains("auto, kxr or standard"),
            "{err}"
        );
        let err = toml::from_str::<EngineKeys>("castles = \"x\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("auto, kxr or standard"), "{err}");
    }

    #[test]
    fn program_and_cmd_are_one_key_in_tokens_and_toml() {
        let a = EngineKeys::parse_tokens(&toks("program=/bin/x")).unwrap();
        let b = EngineKeys::parse_tokens(&toks("cmd=/bin/x")).unwrap();
        assert_eq!(a, b);
        let c: EngineKeys = toml::from_str("program = \"/bin/x\"").unwrap();
        let d: EngineKeys = toml::from_str("cmd = \"/bin/x\"").unwrap();
        assert_eq!((&a, &a), (&c, &d));
    }

    #[test]
    fn options_of_every_toml_kind_and_refusals() {
        let e: EngineKeys =
            toml::from_str("[options]\nHash = 64\nPonder = false\nX = 1.5\nY = [1]").unwrap();
        let err = e.option_pairs().unwrap_err().to_string();
        assert!(err.contains("'Y'"), "{err}");
        let e: EngineKeys = toml::from_str("[options]\nHash = 64\nPonder = false").unwrap();
        assert_eq!(
            e.option_pairs().unwrap(),
            [
                ("Hash".to_string(), "64".to_string()),
                ("Ponder".to_string(), "false".to_string())
            ]
        );
        let e = EngineKeys::parse_tokens(&toks("st=1e20")).unwrap_err();
        assert!(e.to_string().contains("st="), "{e}");
    }

    #[test]
    fn config_paths_are_taken_from_the_config_folder() {
        let e: EngineKeys = toml::from_str("cmd = \"engines/sf\"\ndir = \"work\"").unwrap();
        let e = e.in_folder(Path::new("/etc/uci960"));
        assert_eq!(e.program, Some(PathBuf::from("/etc/uci960/engines/sf")));
        assert_eq!(e.dir, Some(PathBuf::from("/etc/uci960/work")));
        let bare: EngineKeys = toml::from_str("cmd = \"stockfish\"").unwrap();
        assert_eq!(bare.in_folder(Path::new("/etc")), bare);
        let abs: EngineKeys = toml::from_str("cmd = \"/usr/games/sf\"\ndir = \"/tmp\"").unwrap();
        assert_eq!(abs.in_folder(Path::new("/etc")), abs);
    }
}
