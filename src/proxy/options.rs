//! The proxy's own UCI options (`uci960 …`), shown to the GUI after the
//! engine's options and handled by the proxy, never forwarded.

use std::fmt;
use std::str::FromStr;

use super::profile::PROFILE_NAMES;
use crate::keyword::UnknownWord;
use crate::openings::METHOD_NAMES;
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
    /// `O-O`/`O-O-O` (reported of Arena in Chess960; see `profile`).
    #[serde(rename = "o-o")]
    Named,
}

impl FromStr for GuiCastling {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<GuiCastling, UnknownWord> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(GuiCastling::Auto),
            "kxr" => Ok(GuiCastling::Kxr),
            "standard" => Ok(GuiCastling::Standard),
            "o-o" => Ok(GuiCastling::Named),
            other => Err(UnknownWord::new(
                "GUI castling notation",
                other,
                "auto, kxr, standard or o-o",
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
            GuiCastling::Named => "o-o",
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
    Gui,
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
            "gui" => ProxyOption::Gui,
            "log" => ProxyOption::Log,
            _ => return None,
        })
    }
}

/// The values the declarations show as defaults.
pub struct Shown<'a> {
    pub start: &'a str,
    pub sp: u16,
    pub seed: &'a str,
    pub book: &'a str,
    pub engine_fen: &'a str,
    pub gui_castling: &'a str,
    pub gui: &'a str,
    pub log: &'a str,
}

/// The declarations shown to the GUI, with the current values as defaults.
pub fn declarations(v: &Shown) -> Vec<OptionDecl> {
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
        combo("Start", v.start, &starts),
        OptionDecl {
            name: format!("{PREFIX}SP"),
            kind: OptionKind::Spin {
                default: Some(i64::from(v.sp)),
                min: Some(0),
                max: Some(959),
            },
        },
        string("Seed", v.seed),
        string("Book", v.book),
        combo("EngineFEN", v.engine_fen, &["shredder", "xfen"]),
        combo(
            "GuiCastling",
            v.gui_castling,
            &["auto", "kxr", "standard", "o-o"],
        ),
        combo("Gui", v.gui, &PROFILE_NAMES),
        string("Log", v.log),
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
        let shown = Shown {
            start: "die",
            sp: 518,
            seed: "",
            book: "",
            engine_fen: "shredder",
            gui_castling: "o-o",
            gui: "arena",
            log: "",
        };
        for d in declarations(&shown) {
            let line = d.to_string();
            assert_eq!(OptionDecl::parse(&line).as_ref(), Some(&d), "{line}");
        }
    }
}
