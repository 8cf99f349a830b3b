//! One engine process working for the book: the moves within the margin
//! (`--moves engine`, MultiPV) and the evaluation of a line's last position
//! (`--eval-window`, `--draw-window`, `--win-window`, the EPD
//! `ce`/`acd`/`wdl` opcodes), through the project's engine client. An
//! engine that offers `UCI_ShowWDL` is asked for its win/draw/loss rates;
//! a `wdl` that does not add up to 1000 is replaced by the model's.
//!
//! Each line starts with `ucinewgame` + `isready`, so that no hash entry of
//! an earlier line (which may have run in another process) reaches this
//! one, and so does each evaluation: with a node or depth limit and one search thread, an engine like
//! Stockfish then answers the same line the same way whichever process
//! gets it, and the book is reproducible with any `--concurrency`. The
//! engine gets the start in its spec's FEN flavour (Shredder-FEN unless
//! `fen=xfen`) and the moves in its castling notation (king takes rook
//! unless `castles=standard`) after `UCI_Chess960 true`; every move it
//! proposes is read in that notation and checked against shakmaty's legal
//! moves.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use super::filter::Eval;
use super::multipv::{MAX_MULTIPV, MultiPvCollector};
use super::wdl::{Wdl, WdlSource};
use crate::engines::{Chess960, EngineSpec, SetupError, start_engine};
use crate::notation::castling::{CastlingNotation, parse_move, push_engine_moves};
use crate::notation::fen::{FenFlavour, position_fen};
use crate::uci::{GoParams, OptionKind};
use crate::uci_client::{EngineError, UciEngine};

/// Why the engine could not do the book's work.
#[derive(Debug, thiserror::Error)]
pub enum BookEngineError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("engine '{0}' does not declare the MultiPV option, which --moves engine needs")]
    NoMultiPv(String),
    #[error("engine '{engine}' answered '{mv}', which is not a legal move in {fen}")]
    IllegalMove {
        engine: String,
        mv: String,
        fen: String,
    },
    #[error("engine '{engine}' gave no move in {fen}")]
    NoMove { engine: String, fen: String },
    #[error("engine '{engine}' gave no score for {fen}")]
    NoScore { engine: String, fen: String },
}

/// A started engine, configured for Chess960.
pub struct BookEngine {
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

impl BookEngine {
    /// Starts the engine (refused without `UCI_Chess960`) and sends the
    /// user's options. The engine searches to the spec's depth and node
    /// limits (both when both are given); `timeout` is the hang guard per
    /// search and per `isready`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<BookEngine, BookEngineError> {
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
        // The engine's own win/draw/loss rates when it can show them.
        let show_wdl = matches!(
            engine.handshake().option("UCI_ShowWDL").map(|o| &o.kind),
            Some(OptionKind::Check { .. })
        );
        let mut engine = engine;
        if show_wdl {
            engine.set_option("UCI_ShowWDL", "true")?;
        }
        let go = GoParams {
            depth: spec.limits.depth,
            nodes: spec.limits.nodes,
            ..GoParams::default()
        }
        .to_string();
        Ok(BookEngine {
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

    /// Whether the engine can search several lines (`MultiPV`).
    pub fn has_multipv(&self) -> bool {
        self.multipv_max.is_some()
    }

    /// Forgets everything of the previous line (`ucinewgame`, `isready`).
    pub fn new_line(&mut self) -> Result<(), BookEngineError> {
        self.engine.new_game()?;
        self.engine.is_ready(self.timeout)?;
        Ok(())
    }

    fn set_multipv(&mut self, n: u32) -> Result<(), BookEngineError> {
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
    ) -> Result<Vec<Move>, BookEngineError> {
        if !self.has_multipv() {
            return Err(BookEngineError::NoMultiPv(self.name().to_string()));
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
        let picks = super::multipv::within_margin(&self.collector, margin);
        if picks.is_empty() {
            return Err(BookEngineError::NoMove {
                engine: self.name().to_string(),
                fen: position_fen(pos, FenFlavour::Shredder),
            });
        }
        picks
            .into_iter()
            .map(|text| {
                parse_move(pos, text, self.castles).ok().ok_or_else(|| {
                    BookEngineError::IllegalMove {
                        engine: self.name().to_string(),
                        mv: text.to_string(),
                        fen: position_fen(pos, FenFlavour::Shredder),
                    }
                })
            })
            .collect()
    }

    /// The engine's evaluation of `pos` (reached by `moves` from `start`),
    /// from a single-PV search on an empty hash (`ucinewgame` first): the
    /// searches that chose the moves would otherwise leave entries that
    /// change a node-limited result by tens of centipawns, and anyone can
    /// reproduce the `ce` of a book line with a fresh engine.
    pub fn evaluate(
        &mut self,
        start: &Chess,
        moves: &[Move],
        pos: &Chess,
    ) -> Result<Eval, BookEngineError> {
        self.new_line()?;
        self.set_multipv(1)?;
        self.set_position(start, moves);
        let result = self
            .engine
            .position_and_go(&self.position, &self.go, self.timeout)?;
        match result.score {
            Some(score) => {
                let (wdl, wdl_source) = match result.wdl {
                    Some((win, draw, loss)) if win + draw + loss == 1000 => {
                        (Wdl { win, draw, loss }, WdlSource::Engine)
                    }
                    _ => (Wdl::model(score, pos), WdlSource::Model),
                };
                Ok(Eval {
                    score,
                    depth: result.depth,
                    turn: pos.turn(),
                    wdl,
                    wdl_source,
                })
            }
            None => Err(BookEngineError::NoScore {
                engine: self.name().to_string(),
                fen: position_fen(pos, FenFlavour::Shredder),
            }),
        }
    }

    /// `quit`, then the signals; reaps the process.
    pub fn quit(self) {
        self.engine.quit();
    }
}
