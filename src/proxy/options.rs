//! The proxy's own UCI options (`uci960 …`), shown to the GUI after the
//! engine's options and handled by the proxy, never forwarded.

use std::fmt;
use std::str::FromStr;

use crate::keyword::UnknownWord;
use crate::start::method::METHOD_NAMES;
use crate::uci::{OptionDecl, OptionKind};

/// Prefix of every proxy option name.
pub const PREFIX: &str = "uci960 ";

/// The castling notation the GUI uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GuiCastling {
    /// KxR when the GUI selected Chess960 (`UCI_Chess960`, `UCI_Variant`
    /// chess960/fischerandom/fischerrandom, or a Chess960 FEN),
    /// king-two-squares otherwise.
    #[default]
    Auto,
    Kxr,
    Standard,
}

impl FromStr for GuiCastling {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<GuiCastling, UnknownWord> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(GuiCastling::Auto),
            "kxr" => Ok(GuiCastling::Kxr),
            "standard" => Ok(GuiCastling::Standard),
            other => Err(UnknownWord::new(
                "GUI castling notation",
                other,
                "auto, kxr or standard",
            )),
        }
    }
}

impl fmt::Display for GuiCastling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GuiCastling::Auto => "auto",
            GuiCastling::Kxr => "kxr",
            GuiCastling::Standard => "standard",
        })
    }
}

/// The proxy options, by the name after the prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyOption {
    Start,
    Sp,
    Seed,
    Book,
    EngineFen,
    GuiCastling,
    Log,
}

impl ProxyOption {
    /// Recognizes a full option name (`uci960 Start`, any case).
    pub fn from_name(name: &str) -> Option<ProxyOption> {
        let lower = name.to_ascii_lowercase();
        let rest = lower.strip_prefix(PREFIX)?;
        Some(match rest.trim() {
            "start" => ProxyOption::Start,
            "sp" => ProxyOption::Sp,
            "seed" => ProxyOption::Seed,
            "book" => ProxyOption::Book,
            "enginefen" => ProxyOption::EngineFen,
            "guicastling" => ProxyOption::GuiCastling,
            "log" => ProxyOption::Log,
            _ => return None,
        })
    }
}

/// The declarations shown to the GUI, with the current values as defaults.
pub fn declarations(
    start: &str,
    sp: u16,
    seed: &str,
    book: &str,
    engine_fen: &str,
    gui_castling: &str,
    log: &str,
) -> Vec<OptionDecl> {
    let string = |name: &str, default: &str| OptionDecl {
        name: format!("{PREFIX}{name}"),
        kind: OptionKind::String {
            default: Some(default.to_string()),
        },
    };
    let combo = |name: &str, default: &str, vars: &[&str]| OptionDecl {
        name: format!("{PREFIX}{name}"),
        kind: OptionKind::Combo {
            default: Some(default.to_string()),
            vars: vars.iter().map(|v| v.to_string()).collect(),
        },
    };
    let mut starts = vec!["gui"];
    starts.extend(METHOD_NAMES);
    vec![
        combo("Start", start, &starts),
        OptionDecl {
            name: format!("{PREFIX}SP"),
            kind: OptionKind::Spin {
                default: Some(i64::from(sp)),
                min: Some(0),
                max: Some(959),
            },
        },
        string("Seed", seed),
        string("Book", book),
        combo("EngineFEN", engine_fen, &["shredder", "xfen"]),
        combo("GuiCastling", gui_castling, &["auto", "kxr", "standard"]),
        string("Log", log),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_recognized_in_any_case() {
        assert_eq!(
            ProxyOption::from_name("uci960 Start"),
            Some(ProxyOption::Start)
        );
        assert_eq!(
            ProxyOption::from_name("UCI960 enginefen"),
            Some(ProxyOption::EngineFen)
        );
        assert_eq!(ProxyOption::from_name("Start"), None);
        assert_eq!(ProxyOption::from_name("uci960 Other"), None);
    }

    #[test]
    fn declarations_parse_back() {
        for d in declarations("die", 518, "", "", "shredder", "auto", "") {
            let line = d.to_string();
            assert_eq!(OptionDecl::parse(&line).as_ref(), Some(&d), "{line}");
        }
    }
}
