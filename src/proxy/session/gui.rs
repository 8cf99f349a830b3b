//! The GUI side: how the GUI told the proxy it plays Chess960, and so which
//! castling notation it writes and reads. GUIs say it in different ways
//! (see docs/PROXY.md, "How `auto` recognises a Chess960 GUI"); each way is
//! one signal here, with the GUI known to give it. What differs by GUI is
//! in [`crate::proxy::profile`].

use super::castles::GuiNotation;
use crate::notation::castling::CastlingNotation;
use crate::proxy::options::GuiCastling;
use crate::proxy::profile::{Chess960Castles, GuiProfile};
use crate::uci::{PositionBase, SetOption};

/// What the GUI selected, by each signal GUIs give.
#[derive(Default)]
pub(super) struct GuiSide {
    /// `setoption name UCI_Chess960 value true` (the UCI standard:
    /// python-chess, Cute Chess for engines that declare it, Polyglot).
    chess960_option: bool,
    /// `UCI_Variant` set to a Chess960 name (Cute Chess does so for
    /// engines that list variants, Fairy-Stockfish among them).
    chess960_variant: bool,
    /// The last `position fen` was a Chess960 FEN (any Chess960 GUI, and
    /// the only signal from one that never sets an option); for a profile
    /// whose FEN selects the game, any `position fen` of this game.
    chess960_fen: bool,
    /// The GUI wrote a castle as `O-O`/`O-O-O` (reported of Arena).
    wrote_named: bool,
}

impl GuiSide {
    /// Reads the GUI's `UCI_Chess960` and `UCI_Variant`; false for any
    /// other option. Both are forwarded.
    pub(super) fn on_setoption(&mut self, set: &SetOption) -> bool {
        if set.name.eq_ignore_ascii_case("UCI_Chess960") {
            self.chess960_option = set
                .value
                .as_deref()
                .is_some_and(|v| v.eq_ignore_ascii_case("true"));
            true
        } else if set.name.eq_ignore_ascii_case("UCI_Variant") {
            self.chess960_variant = set
                .value
                .as_deref()
                .is_some_and(|v| is_chess960_variant(v.trim()));
            true
        } else {
            false
        }
    }

    /// The GUI's `UCI_Chess960` value (what the engine's mode follows).
    pub(super) fn chess960_option(&self) -> bool {
        self.chess960_option
    }

    /// A `position` command whose base needs Chess960 castling or not.
    pub(super) fn on_position(&mut self, base: &PositionBase, chess960: bool, profile: GuiProfile) {
        let this = matches!(base, PositionBase::Fen(f) if chess960 || names_rook_files(f));
        self.chess960_fen = this || (self.chess960_fen && profile.quirks().fen_selects_the_game);
    }

    /// A move of the GUI's written `O-O`/`O-O-O`.
    pub(super) fn on_named_castle(&mut self) {
        self.wrote_named = true;
    }

    /// `ucinewgame`: a FEN of the last game no longer selects anything.
    pub(super) fn new_game(&mut self) {
        self.chess960_fen = false;
    }

    /// Whether the GUI asked the engine for Chess960 by an option (the
    /// engine's mode outside Chess960 positions).
    pub(super) fn wants_engine_960(&self) -> bool {
        self.chess960_option || self.chess960_variant
    }

    /// The castling notation the GUI writes, by the settings.
    pub(super) fn notation(&self, setting: GuiCastling, profile: GuiProfile) -> GuiNotation {
        let kxr = GuiNotation::Uci(CastlingNotation::KingTakesRook);
        let two_squares = GuiNotation::Uci(CastlingNotation::KingTwoSquares);
        match setting {
            GuiCastling::Kxr => kxr,
            GuiCastling::Standard => two_squares,
            GuiCastling::Named => GuiNotation::Named,
            GuiCastling::Auto => match profile.quirks().castles {
                Chess960Castles::AsTheGuiWrites if self.wrote_named => GuiNotation::Named,
                _ if !self.selects_960() => two_squares,
                Chess960Castles::Named => GuiNotation::Named,
                Chess960Castles::KingTakesRook | Chess960Castles::AsTheGuiWrites => kxr,
            },
        }
    }

    /// Whether the GUI plays Chess960 by any of the signals GUIs give.
    fn selects_960(&self) -> bool {
        self.chess960_option || self.chess960_variant || self.chess960_fen
    }
}

/// Whether a `UCI_Variant` value names Chess960: `chess960` (what Cute
/// Chess sends for its "fischerandom"), `fischerandom` (Cute Chess's and
/// Fairy-Stockfish's name) or `fischerrandom`, in any case.
fn is_chess960_variant(value: &str) -> bool {
    ["chess960", "fischerandom", "fischerrandom"]
        .iter()
        .any(|v| value.eq_ignore_ascii_case(v))
}

/// Whether a FEN's castling field names rook files (Shredder-FEN `HAha`,
/// X-FEN `Bb`): only Chess960 GUIs write those.
fn names_rook_files(fen: &str) -> bool {
    fen.split_ascii_whitespace().nth(2).is_some_and(|c| {
        c.bytes()
            .any(|b| b.is_ascii_alphabetic() && !b"KQkq".contains(&b))
    })
}
