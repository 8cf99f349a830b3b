//! [`EngineSpec`]: one engine as the user described it, checked.

use crate::game::Limits;
use crate::notation::castling::CastlingNotation;
use crate::notation::fen::FenFlavour;
use crate::uci_client::EngineCommand;

/// One engine: how to start it, what to call it, what to set in it, how
/// long it may search and which FEN flavour it reads. Every command that
/// runs an engine takes this type (the fields a command has no use for
/// stay at their defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Display name (PGN White/Black, report columns); empty: the engine's
    /// `id name`.
    pub name: String,
    pub cmd: EngineCommand,
    /// `setoption` pairs, in order, sent after `UCI_Chess960 true`
    /// (see [`super::start`]).
    pub options: Vec<(String, String)>,
    pub limits: Limits,
    /// FEN flavour the engine is given (Shredder-FEN unless the user says).
    pub fen: FenFlavour,
    /// How the engine writes and reads castles (`castles=`): `None` is
    /// `auto`, the UCI rule (king takes rook in `UCI_Chess960` mode, the
    /// king's two-square move outside it); a notation is what an engine
    /// that keeps to its own writes in every mode.
    pub castles: Option<CastlingNotation>,
}

impl EngineSpec {
    /// An engine started by `cmd`, everything else at its default.
    pub fn new(cmd: EngineCommand) -> EngineSpec {
        EngineSpec {
            name: String::new(),
            cmd,
            options: Vec::new(),
            limits: Limits::default(),
            fen: FenFlavour::Shredder,
            castles: None,
        }
    }

    /// The castling notation the engine speaks in `UCI_Chess960` mode
    /// (`chess960`) or out of it: its `castles` setting, else the UCI rule.
    pub fn castling_notation(&self, chess960: bool) -> CastlingNotation {
        self.castles
            .unwrap_or_else(|| CastlingNotation::of_uci_mode(chess960))
    }
}
