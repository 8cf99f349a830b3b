//! GUI profiles: what each GUI is known to do when it plays Chess960 with
//! a UCI engine, one place per GUI, chosen by the `gui` setting (`--gui`,
//! `gui = "…"` under `[proxy]`, the option `uci960 Gui`). `auto` (the
//! default) needs no choice: it recognises every signal below as it comes.
//!
//! What a profile decides is how the GUI's castles are written back to it
//! (when `gui-castling` is `auto`) and how long a Chess960 FEN counts as the
//! GUI's choice of Chess960; every GUI's castles are read in any notation
//! (king takes rook, king two squares, `O-O`/`O-O-O`).
//!
//! Each GUI, with what was verified and what is only reported
//! (docs/PROXY.md, "GUI profiles", says the same to users):
//! * **Cute Chess** (`cutechess`): `UCI_Chess960 true`, or `UCI_Variant
//!   chess960` for an engine that lists variants; Shredder-FENs
//!   (`HAha`); castles king-takes-rook. Read in its source
//!   (`uciengine.cpp`, `WesternBoard::lanMoveString`) and replayed line by
//!   line by `tests/it/proxy_cutechess.rs`; the GUI itself is not run.
//! * **XBoard through Polyglot** (`xboard`): Polyglot sends `setoption name
//!   UCI_Chess960 value true` after `ucinewgame`, Shredder-FENs and
//!   king-takes-rook castles. Verified: XBoard 4.9 and Polyglot 1.4 from
//!   Debian play fischerandom matches through the proxy in
//!   `scripts/test-gui.sh`.
//! * **Arena** (`arena`): reported (Computer Chess Club, "Chess960: Arena
//!   problem with classical chess start position", 2005) to send no
//!   `UCI_Chess960` and to expect `O-O`/`O-O-O` from a Chess960 engine. So
//!   a Chess960 FEN selects Chess960 until the next `ucinewgame`, and the
//!   engine's castles go back as `O-O`/`O-O-O`. Not verified: Arena runs
//!   on Windows only and is not free software; the Windows test
//!   (`tests/it/windows.rs`) plays the game such a GUI sends (X-FEN `KQkq`,
//!   no `UCI_Chess960`, CRLF) against `uci960.exe` started without
//!   arguments.
//! * **python-chess** (`python-chess`): `UCI_Chess960 true` for Chess960
//!   boards, positions as FENs, castles king-takes-rook (`chess/engine.py`).
//!   Verified: `tests/it/proxy_python.rs` plays complete games.

use std::fmt;
use std::str::FromStr;

use crate::keyword::UnknownWord;

/// The GUI in front of the proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GuiProfile {
    /// Any GUI: every signal of every profile is recognised, and a GUI
    /// that writes an `O-O` castle gets its castles back so.
    #[default]
    Auto,
    CuteChess,
    Arena,
    XBoard,
    PythonChess,
}

/// How a GUI wants its castles in Chess960, when `gui-castling` is `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chess960Castles {
    /// King takes rook (`UCI_Chess960`'s form).
    KingTakesRook,
    /// `O-O`/`O-O-O`.
    Named,
    /// King takes rook, or `O-O` once the GUI wrote one.
    AsTheGuiWrites,
}

/// The quirks of one GUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quirks {
    pub castles: Chess960Castles,
    /// A Chess960 FEN selects Chess960 for the rest of the game (until
    /// `ucinewgame`), not only for its own position: for a GUI that never
    /// sets `UCI_Chess960`.
    pub fen_selects_the_game: bool,
}

/// The names, as the setting and the option take them.
pub const PROFILE_NAMES: [&str; 5] = ["auto", "cutechess", "arena", "xboard", "python-chess"];

impl GuiProfile {
    pub fn quirks(self) -> Quirks {
        match self {
            GuiProfile::Auto => Quirks {
                castles: Chess960Castles::AsTheGuiWrites,
                fen_selects_the_game: false,
            },
            GuiProfile::CuteChess | GuiProfile::XBoard | GuiProfile::PythonChess => Quirks {
                castles: Chess960Castles::KingTakesRook,
                fen_selects_the_game: false,
            },
            GuiProfile::Arena => Quirks {
                castles: Chess960Castles::Named,
                fen_selects_the_game: true,
            },
        }
    }

    fn name(self) -> &'static str {
        match self {
            GuiProfile::Auto => "auto",
            GuiProfile::CuteChess => "cutechess",
            GuiProfile::Arena => "arena",
            GuiProfile::XBoard => "xboard",
            GuiProfile::PythonChess => "python-chess",
        }
    }
}

impl FromStr for GuiProfile {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<GuiProfile, UnknownWord> {
        // Spellings users type: Cute Chess's own, WinBoard for XBoard,
        // python-chess's module name.
        Ok(match s.to_ascii_lowercase().as_str() {
            "auto" => GuiProfile::Auto,
            "cutechess" | "cute-chess" | "cutechess-cli" => GuiProfile::CuteChess,
            "arena" => GuiProfile::Arena,
            "xboard" | "winboard" | "polyglot" => GuiProfile::XBoard,
            "python-chess" | "python_chess" | "chess" => GuiProfile::PythonChess,
            other => {
                return Err(UnknownWord::new("GUI", other, PROFILE_NAMES.join(", ")));
            }
        })
    }
}

impl fmt::Display for GuiProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GuiProfile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GuiProfile, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for name in PROFILE_NAMES {
            let p: GuiProfile = name.parse().unwrap();
            assert_eq!(p.to_string(), name);
        }
        assert_eq!(
            "WinBoard".parse::<GuiProfile>().ok(),
            Some(GuiProfile::XBoard)
        );
        let e = "banksia".parse::<GuiProfile>().unwrap_err().to_string();
        assert!(e.contains("banksia") && e.contains("python-chess"), "{e}");
    }
}
