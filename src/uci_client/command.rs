//! How to start an engine: program, arguments, working directory; and the
//! cutechess-style `--engine cmd=PATH option.Hash=16 …` spec that names one
//! (shared by every command that takes `--engine KEY=VALUE…`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::game::clock::parse_seconds;
use crate::keyword::UnknownWord;
use crate::notation::fen::FenFlavour;
use crate::uci::{LineBreak, SetOption};

/// The command line of an engine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineCommand {
    pub program: PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory; the caller's when `None`.
    #[serde(default)]
    pub dir: Option<PathBuf>,
}

impl EngineCommand {
    /// A program without arguments.
    pub fn new(program: impl Into<PathBuf>) -> EngineCommand {
        EngineCommand {
            program: program.into(),
            args: Vec::new(),
            dir: None,
        }
    }

    /// Adds arguments.
    pub fn with_args<I, S>(mut self, args: I) -> EngineCommand
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// The built-in engine: this very binary with the `engine` subcommand.
    pub fn builtin() -> EngineCommand {
        let program = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("uci960"));
        EngineCommand::new(program).with_args(["engine"])
    }

    /// The command as a user would type it (for messages).
    pub fn display(&self) -> String {
        let mut s = self.program.display().to_string();
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}

/// One engine as the user describes it: `--engine KEY=VALUE…` on the
/// command line or an `[[engine]]` table in a TOML config.
#[derive(serde::Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    pub cmd: Option<PathBuf>,
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
}

/// Why an `--engine` spec was refused.
#[derive(Debug, thiserror::Error)]
pub enum EngineSpecError {
    #[error("--engine: '{0}' is not KEY=VALUE")]
    NotKeyValue(String),
    #[error("--engine {key}='{value}': {reason}")]
    BadValue {
        key: String,
        value: String,
        reason: String,
    },
    #[error(
        "--engine: unknown key '{key}' in '{token}' (cmd, name, arg, dir, option.NAME, tc, nodes, depth, st, fen)"
    )]
    UnknownKey { key: String, token: String },
    #[error("--engine: arg= without cmd=")]
    ArgsWithoutCmd,
}

/// Parses `key=value` tokens of one `--engine`.
pub fn parse_engine_tokens(tokens: &[String]) -> Result<EngineConfig, EngineSpecError> {
    let mut e = EngineConfig::default();
    for token in tokens {
        let (key, value) = token
            .split_once('=')
            .ok_or_else(|| EngineSpecError::NotKeyValue(token.clone()))?;
        let bad = |what: &str| EngineSpecError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            reason: what.to_string(),
        };
        match key {
            "cmd" => e.cmd = Some(PathBuf::from(value)),
            "name" => e.name = Some(value.to_string()),
            "arg" => e.args.push(value.to_string()),
            "dir" => e.dir = Some(PathBuf::from(value)),
            "tc" => e.tc = Some(value.to_string()),
            "nodes" => e.nodes = Some(value.parse().map_err(|_| bad("not a node count"))?),
            "depth" => e.depth = Some(value.parse().map_err(|_| bad("not a depth"))?),
            "st" => {
                e.st = Some(
                    parse_seconds(value)
                        .ok_or_else(|| bad("not seconds"))?
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
            k if k.starts_with("option.") && k.len() > 7 => {
                e.options
                    .insert(k[7..].to_string(), toml::Value::String(value.to_string()));
            }
            _ => {
                return Err(EngineSpecError::UnknownKey {
                    key: key.to_string(),
                    token: token.clone(),
                });
            }
        }
    }
    Ok(e)
}

impl EngineConfig {
    /// The command that starts the engine; the built-in engine when no
    /// `cmd` is given.
    pub fn command(&self) -> Result<EngineCommand, EngineSpecError> {
        match &self.cmd {
            Some(program) => Ok(EngineCommand {
                program: program.clone(),
                args: self.args.clone(),
                dir: self.dir.clone(),
            }),
            None if self.args.is_empty() => Ok(EngineCommand::builtin()),
            None => Err(EngineSpecError::ArgsWithoutCmd),
        }
    }

    /// The `setoption` pairs, values as text (TOML numbers and booleans as
    /// written); a name or value with a line break is refused here, where
    /// the user's options become UCI text.
    pub fn option_pairs(&self) -> Result<Vec<(String, String)>, LineBreak> {
        self.options
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                SetOption::new(k, &v)?;
                Ok((k.clone(), v))
            })
            .collect()
    }
}

/// Splits the `--engine` values into one group per `--engine` (clap gives
/// them flat; stable clap has no `Vec<Vec<_>>`). The groups come from the
/// raw command line; when that does not match (a library caller), a new
/// engine starts at each `cmd=`.
pub fn group_engine_tokens(flat: &[String], argv: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut in_engine = false;
    for a in argv.iter().skip(1) {
        if a == "--engine" {
            groups.push(Vec::new());
            in_engine = true;
        } else if let Some(v) = a.strip_prefix("--engine=") {
            groups.push(vec![v.to_string()]);
            in_engine = true;
        } else if a.starts_with('-') {
            in_engine = false;
        } else if in_engine && let Some(g) = groups.last_mut() {
            g.push(a.clone());
        }
    }
    if groups.concat() == flat {
        return groups;
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    for t in flat {
        match groups.last_mut() {
            Some(g) if !t.starts_with("cmd=") => g.push(t.clone()),
            _ => groups.push(vec![t.clone()]),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engine_tokens_like_cutechess() {
        let e = parse_engine_tokens(&toks(
            "cmd=/usr/games/stockfish name=sf arg=-x arg=y option.Hash=16 nodes=1000 fen=xfen",
        ))
        .unwrap();
        assert_eq!(e.cmd, Some(PathBuf::from("/usr/games/stockfish")));
        assert_eq!(e.args, ["-x", "y"]);
        assert_eq!(e.options["Hash"], toml::Value::String("16".into()));
        assert_eq!((e.nodes, e.fen), (Some(1000), Some(FenFlavour::XFen)));
        assert_eq!(
            e.option_pairs().unwrap(),
            [("Hash".to_string(), "16".to_string())]
        );
        assert_eq!(e.command().unwrap().args, ["-x", "y"]);
        let err = parse_engine_tokens(&toks("cmd=x bogus=1"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown key 'bogus'"), "{err}");
        assert!(parse_engine_tokens(&toks("nodes=many")).is_err());
        let no_cmd = parse_engine_tokens(&toks("arg=x")).unwrap();
        assert!(matches!(
            no_cmd.command(),
            Err(EngineSpecError::ArgsWithoutCmd)
        ));
    }

    #[test]
    fn engine_groups_follow_the_command_line() {
        let argv = toks("uci960 match --engine name=a nodes=5 --games 4 --engine=cmd=b arg=x");
        let flat = toks("name=a nodes=5 cmd=b arg=x");
        assert_eq!(
            group_engine_tokens(&flat, &argv),
            vec![toks("name=a nodes=5"), toks("cmd=b arg=x")]
        );
        assert_eq!(
            group_engine_tokens(&toks("cmd=a nodes=1 cmd=b"), &[]),
            vec![toks("cmd=a nodes=1"), toks("cmd=b")]
        );
    }
}
