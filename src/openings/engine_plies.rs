//! Engine-chosen plies: a started engine that proposes the moves within a
//! margin of its best (`book --moves engine`, MultiPV), and
//! [`next_ply`], the one seam through which every ply of a generated
//! opening is chosen, at random ([`super::plies`]) or by this engine.
//!
//! Each line starts with `ucinewgame` + `isready` ([`PlyEngine::new_line`]),
//! so that no hash entry of an earlier line (which may have run in another
//! process) reaches this one: with a node or depth limit and one search
//! thread, an engine like Stockfish then answers the same line the same way
//! whichever process gets it. The engine gets the start in its spec's FEN
//! flavour (Shredder-FEN unless `fen=xfen`) and the moves in its castling
//! notation (king takes rook unless `castles=standard`) after
//! `UCI_Chess960 true`; every move it proposes is read in that notation and
//! checked against shakmaty's legal moves.
//!
//! This room sits on the shared floor beside `engines/`, which starts the
//! engine; the book above it evaluates lines with the same process
//! ([`PlyEngine::search`]).

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move, Position};

use super::multipv::{MAX_MULTIPV, MultiPvCollector, within_margin};
use super::plies::random_ply;
use crate::engines::{Chess960, EngineSpec, SetupError, start_engine};
use crate::notation::castling::{CastlingNotation, parse_move, push_engine_moves};
use crate::notation::fen::{FenFlavour, position_fen};
use crate::start::method::procedure::uniform_below;
use crate::uci::{GoParams, OptionKind};
use crate::uci_client::{EngineError, SearchResult, UciEngine};

/// How the plies of an opening are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlyChoice {
    /// Uniformly among the legal moves that keep the game going (the one
    /// random-plies rule, [`random_ply`]).
    Random,
    /// Uniformly among the engine's moves within `margin` centipawns of its
    /// best, from a `MultiPV multipv` search.
    Engine { multipv: u32, margin: i64 },
}

/// Why the engine could not choose a ply.
#[derive(Debug, thiserror::Error)]
pub enum EnginePlyError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("engine '{0}' does not declare the MultiPV option, which engine-chosen plies need")]
    NoMultiPv(String),
    #[error("engine '{engine}' answered '{mv}', which is not a legal move in {fen}")]
    IllegalMove {
        engine: String,
        mv: String,
        fen: String,
    },
    #[error("engine '{engine}' gave no move in {fen}")]
    NoMove { engine: String, fen: String },
}

/// A started engine, configured for Chess960, that searches lines of an
/// opening.
pub struct PlyEngine {
    engine: UciEngine,
    go: String,
    timeout: Duration,
    /// The MultiPV value last set (engines start at 1).
    multipv: u32,
    /// The largest MultiPV the engine accepts, when it declares one.
    multipv_max: Option<u32>,
    collector: MultiPvCollector,
    /// The `position` line of the current line, rebuilt per ply.
    position: String,
    /// The FEN flavour and castling notation the engine speaks (its spec).
    fen: FenFlavour,
    castles: CastlingNotation,
}

impl PlyEngine {
    /// Starts the engine (refused without `UCI_Chess960`) and sends the
    /// user's options. The engine searches to the spec's depth and node
    /// limits (both when both are given); `timeout` is the hang guard per
    /// search and per `isready`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<PlyEngine, EnginePlyError> {
        let engine = start_engine(spec, timeout, Chess960::Required)?;
        let multipv_max = engine
            .handshake()
            .option("MultiPV")
            .and_then(|o| match o.kind {
                OptionKind::Spin { max, .. } => Some(
                    max.unwrap_or(i64::from(MAX_MULTIPV))
                        .clamp(1, i64::from(MAX_MULTIPV)) as u32,
                ),
                _ => None,
            });
        let go = GoParams {
            depth: spec.limits.depth,
            nodes: spec.limits.nodes,
            ..GoParams::default()
        }
        .to_string();
        Ok(PlyEngine {
            engine,
            go,
            timeout,
            multipv: 1,
            multipv_max,
            collector: MultiPvCollector::new(),
            position: String::new(),
            fen: spec.fen,
            castles: spec.castling_notation(true),
        })
    }

    /// The engine's `id name`.
    pub fn name(&self) -> &str {
        self.engine.name()
    }

    /// The engine process, for what else its user asks of it (options).
    pub fn engine_mut(&mut self) -> &mut UciEngine {
        &mut self.engine
    }

    /// Whether the engine can search several lines (`MultiPV`).
    pub fn has_multipv(&self) -> bool {
        self.multipv_max.is_some()
    }

    /// Forgets everything of the previous line (`ucinewgame`, `isready`).
    pub fn new_line(&mut self) -> Result<(), EngineError> {
        self.engine.new_game()?;
        self.engine.is_ready(self.timeout)
    }

    fn set_multipv(&mut self, n: u32) -> Result<(), EngineError> {
        let n = n.clamp(1, self.multipv_max.unwrap_or(1));
        if n != self.multipv {
            self.engine.set_option("MultiPV", &n.to_string())?;
            self.multipv = n;
        }
        Ok(())
    }

    /// `position fen START moves …` for the line so far.
    fn set_position(&mut self, start: &Chess, moves: &[Move]) {
        self.position.clear();
        self.position.push_str("position fen ");
        self.position.push_str(&position_fen(start, self.fen));
        if !moves.is_empty() {
            self.position.push_str(" moves");
            push_engine_moves(&mut self.position, start, moves, self.castles);
        }
    }

    /// The engine's single-PV search of the position after `moves` from
    /// `start` (to the spec's limits).
    pub fn search(&mut self, start: &Chess, moves: &[Move]) -> Result<SearchResult, EngineError> {
        self.set_multipv(1)?;
        self.set_position(start, moves);
        self.engine
            .position_and_go(&self.position, &self.go, self.timeout)
    }

    /// The moves within `margin` centipawns of the best after `moves` from
    /// `start` (position `pos`), from a `MultiPV multipv` search, in PV
    /// order and checked for legality.
    pub fn candidate_moves(
        &mut self,
        start: &Chess,
        moves: &[Move],
        pos: &Chess,
        multipv: u32,
        margin: i64,
    ) -> Result<Vec<Move>, EnginePlyError> {
        if !self.has_multipv() {
            return Err(EnginePlyError::NoMultiPv(self.name().to_string()));
        }
        self.set_multipv(multipv)?;
        self.set_position(start, moves);
        self.engine.send(&self.position)?;
        self.engine.send(&self.go)?;
        self.collector.clear();
        let deadline = Instant::now() + self.timeout;
        loop {
            let line = self
                .engine
                .recv_line_until(deadline, "bestmove", self.timeout)?;
            if self.collector.feed_line(&line) {
                break;
            }
        }
        let picks = within_margin(&self.collector, margin);
        if picks.is_empty() {
            return Err(EnginePlyError::NoMove {
                engine: self.name().to_string(),
                fen: position_fen(pos, FenFlavour::Shredder),
            });
        }
        picks
            .into_iter()
            .map(|text| {
                parse_move(pos, text, self.castles).map_err(|_| EnginePlyError::IllegalMove {
                    engine: self.name().to_string(),
                    mv: text.to_string(),
                    fen: position_fen(pos, FenFlavour::Shredder),
                })
            })
            .collect()
    }

    /// `quit`, then the signals; reaps the process.
    pub fn quit(self) {
        self.engine.quit();
    }
}

/// The next ply of a line from `start` through `moves` to `pos`, chosen by
/// `choice` with the line's own random stream: `None` when none is left
/// (every move ends the game, or there is none). The engine is needed
/// for [`PlyChoice::Engine`]; without one the ply is random.
pub fn next_ply(
    choice: PlyChoice,
    engine: Option<&mut PlyEngine>,
    (start, moves, pos): (&Chess, &[Move], &Chess),
    rng: &mut ChaCha8Rng,
) -> Result<Option<Move>, EnginePlyError> {
    match (choice, engine) {
        (PlyChoice::Engine { multipv, margin }, Some(engine)) => {
            if pos.legal_moves().is_empty() {
                return Ok(None);
            }
            let moves = engine.candidate_moves(start, moves, pos, multipv, margin)?;
            let i = uniform_below(rng, moves.len() as u32) as usize;
            Ok(moves.get(i).copied())
        }
        _ => Ok(random_ply(pos, rng)),
    }
}
