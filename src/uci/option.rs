//! Option declarations (`option name … type …`) and `setoption` commands.
//!
//! Names and string values may contain spaces (`uci960 Start`, `Debug Log
//! File`), so values run until the next keyword of the declaration.

use std::fmt;

use super::line::{str_tokens, token_spans};

/// The type and limits of an engine option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: Option<bool>,
    },
    Spin {
        default: Option<i64>,
        min: Option<i64>,
        max: Option<i64>,
    },
    Combo {
        default: Option<String>,
        vars: Vec<String>,
    },
    Button,
    String {
        default: Option<String>,
    },
}

/// `option name N type T …`, as declared by an engine (or by the proxy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: OptionKind,
}

const DECL_KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

/// Splits a line into (keyword, value) pairs for the given keywords; the
/// value is the text up to the next keyword, single-spaced.
fn keyword_values<'a>(text: &'a str, keywords: &[&str]) -> Vec<(&'a str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    for tok in str_tokens(text).skip(1) {
        if keywords.contains(&tok) {
            out.push((tok, String::new()));
        } else if let Some((_, value)) = out.last_mut() {
            if !value.is_empty() {
                value.push(' ');
            }
            value.push_str(tok);
        }
    }
    out
}

impl OptionDecl {
    /// Parses an `option` line; `None` when it has no name or type.
    pub fn parse(text: &str) -> Option<OptionDecl> {
        let pairs = keyword_values(text, &DECL_KEYWORDS);
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| v.clone())
        };
        let name = get("name").filter(|n| !n.is_empty())?;
        let kind = match get("type")?.to_ascii_lowercase().as_str() {
            "check" => OptionKind::Check {
                default: get("default").and_then(|d| match d.as_str() {
                    "true" => Some(true),
                    "false" => Some(false),
                    _ => None,
                }),
            },
            "spin" => OptionKind::Spin {
                default: get("default").and_then(|d| d.parse().ok()),
                min: get("min").and_then(|d| d.parse().ok()),
                max: get("max").and_then(|d| d.parse().ok()),
            },
            "combo" => OptionKind::Combo {
                default: get("default"),
                vars: pairs
                    .iter()
                    .filter(|(k, _)| *k == "var")
                    .map(|(_, v)| v.clone())
                    .collect(),
            },
            "button" => OptionKind::Button,
            // `<empty>` is Stockfish's way of writing an empty default.
            "string" => OptionKind::String {
                default: get("default").map(|d| if d == "<empty>" { String::new() } else { d }),
            },
            _ => return None,
        };
        Some(OptionDecl { name, kind })
    }
}

impl fmt::Display for OptionDecl {
    /// The declaration line, as an engine writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => {
                f.write_str("check")?;
                if let Some(d) = default {
                    write!(f, " default {d}")?;
                }
            }
            OptionKind::Spin { default, min, max } => {
                f.write_str("spin")?;
                if let Some(d) = default {
                    write!(f, " default {d}")?;
                }
                if let Some(m) = min {
                    write!(f, " min {m}")?;
                }
                if let Some(m) = max {
                    write!(f, " max {m}")?;
                }
            }
            OptionKind::Combo { default, vars } => {
                f.write_str("combo")?;
                if let Some(d) = default {
                    write!(f, " default {d}")?;
                }
                for v in vars {
                    write!(f, " var {v}")?;
                }
            }
            OptionKind::Button => f.write_str("button")?,
            OptionKind::String { default } => {
                f.write_str("string")?;
                // An empty default is written as `<empty>`, as Stockfish does,
                // so that the declaration keeps its `default` keyword readable.
                match default.as_deref() {
                    Some("") => f.write_str(" default <empty>")?,
                    Some(d) => write!(f, " default {d}")?,
                    None => {}
                }
            }
        }
        Ok(())
    }
}

/// `setoption name N [value V]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOption {
    pub name: String,
    pub value: Option<String>,
}

/// A value that would break a UCI line in two: a `\n` or `\r` in it would
/// reach the engine as a second command (`"1\nquit"` quits it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} '{shown}' holds a line break (\\r or \\n); UCI values are one line")]
pub struct LineBreak {
    pub what: String,
    /// The value with its line breaks written as `\n` / `\r`, shortened.
    pub shown: String,
}

/// Checks that `text` can stand inside one UCI line; `what` names it in the
/// error (`option 'Hash' value`, `log path`).
pub fn single_line(what: &str, text: &str) -> Result<(), LineBreak> {
    if !text.contains(['\r', '\n']) {
        return Ok(());
    }
    let escaped = text.replace('\r', "\\r").replace('\n', "\\n");
    Err(LineBreak {
        what: what.to_string(),
        shown: crate::excerpt::excerpt(&escaped, 80),
    })
}

impl SetOption {
    /// `setoption name N value V`, built only from one-line text: every
    /// `setoption` this tool writes for a user's option comes through here.
    pub fn new(name: &str, value: &str) -> Result<SetOption, LineBreak> {
        single_line("option name", name)?;
        single_line(&format!("option '{name}' value"), value)?;
        Ok(SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        })
    }

    /// Parses a `setoption` line. The name runs up to `value`; the value is
    /// the rest of the line as written (inner spaces kept).
    pub fn parse(text: &str) -> Option<SetOption> {
        let spans: Vec<_> = token_spans(text.as_bytes()).collect();
        let tok = |i: usize| spans.get(i).map(|r| &text[r.clone()]);
        if tok(0) != Some("setoption") || tok(1) != Some("name") {
            return None;
        }
        let value_at = (2..spans.len()).find(|&i| tok(i) == Some("value"));
        let name_end = value_at.unwrap_or(spans.len());
        if name_end <= 2 {
            return None;
        }
        let name = text[spans[2].start..spans[name_end - 1].end].to_string();
        let value = value_at.map(|i| match spans.get(i + 1) {
            Some(r) => text[r.start..].trim_end().to_string(),
            None => String::new(),
        });
        Some(SetOption { name, value })
    }
}

impl fmt::Display for SetOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "setoption name {}", self.name)?;
        if let Some(v) = &self.value {
            write!(f, " value {v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_round_trip() {
        for line in [
            "option name UCI_Chess960 type check default false",
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name uci960 Start type combo default gui var gui var die var bag-redraw",
            "option name Clear Hash type button",
            "option name Debug Log File type string default <empty>",
        ] {
            let decl = OptionDecl::parse(line).unwrap();
            assert_eq!(decl.to_string(), line);
        }
        let d = OptionDecl::parse("option name Debug Log File type string default").unwrap();
        assert_eq!(d.name, "Debug Log File");
        assert_eq!(
            d.kind,
            OptionKind::String {
                default: Some(String::new())
            }
        );
        assert!(OptionDecl::parse("option name X").is_none());
        assert!(OptionDecl::parse("option type spin").is_none());
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        let s = SetOption::parse("setoption name uci960 Book value /tmp/my book.epd").unwrap();
        assert_eq!(s.name, "uci960 Book");
        assert_eq!(s.value.as_deref(), Some("/tmp/my book.epd"));
        let s = SetOption::parse("setoption name Clear Hash").unwrap();
        assert_eq!(s.value, None);
        let s = SetOption::parse("setoption name uci960 Seed value").unwrap();
        assert_eq!(s.value.as_deref(), Some(""));
        assert!(SetOption::parse("setoption value x").is_none());
        assert!(SetOption::parse("setoption name").is_none());
    }

    #[test]
    fn line_breaks_never_make_a_setoption() {
        assert_eq!(
            SetOption::new("Hash", "16").unwrap().to_string(),
            "setoption name Hash value 16"
        );
        let err = SetOption::new("Hash", "1\nquit").unwrap_err().to_string();
        assert_eq!(
            err,
            "option 'Hash' value '1\\nquit' holds a line break (\\r or \\n); UCI values are one line"
        );
        assert!(SetOption::new("Ha\rsh", "1").is_err());
    }
}
