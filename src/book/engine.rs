//! One engine process working for the book: the plies it chooses
//! (`--moves engine`) come from [`crate::openings::engine_plies`]; this
//! module adds what the book alone asks of the same process, the
//! evaluation of a line's last position (`--eval-window`, `--draw-window`,
//! `--win-window`, the EPD `ce`/`acd`/`wdl` opcodes). An engine that offers
//! `UCI_ShowWDL` is asked for its win/draw/loss rates; a `wdl` that does
//! not add up to 1000 is replaced by the model's.
//!
//! Each evaluation starts with `ucinewgame` + `isready`, as each line does,
//! so the book is reproducible with any `--concurrency`.

use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::filter::Eval;
use super::wdl::{Wdl, WdlSource};
use crate::engines::EngineSpec;
use crate::notation::fen::{FenFlavour, position_fen};
use crate::openings::engine_plies::{EnginePlyError, PlyEngine};
use crate::uci::OptionKind;
use crate::uci_client::EngineError;

/// Why the engine could not do the book's work.
#[derive(Debug, thiserror::Error)]
pub enum BookEngineError {
    #[error(transparent)]
    Ply(#[from] EnginePlyError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("engine '{engine}' gave no score for {fen}")]
    NoScore { engine: String, fen: String },
}

impl From<crate::engines::SetupError> for BookEngineError {
    fn from(e: crate::engines::SetupError) -> BookEngineError {
        BookEngineError::Ply(e.into())
    }
}

/// A started engine, configured for Chess960: the ply engine of the
/// openings room, with its win/draw/loss rates on when it offers them.
pub struct BookEngine {
    plies: PlyEngine,
}

impl BookEngine {
    /// Starts the engine (see [`PlyEngine::start`]) and asks for its
    /// win/draw/loss rates when it can show them.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<BookEngine, BookEngineError> {
        let mut plies = PlyEngine::start(spec, timeout)?;
        let engine = plies.engine_mut();
        let show_wdl = matches!(
            engine.handshake().option("UCI_ShowWDL").map(|o| &o.kind),
            Some(OptionKind::Check { .. })
        );
        if show_wdl {
            engine.set_option("UCI_ShowWDL", "true")?;
        }
        Ok(BookEngine { plies })
    }

    /// The engine's `id name`.
    pub fn name(&self) -> &str {
        self.plies.name()
    }

    /// Whether the engine can search several lines (`MultiPV`).
    pub fn has_multipv(&self) -> bool {
        self.plies.has_multipv()
    }

    /// The engine as the openings room's ply chooser.
    pub fn plies(&mut self) -> &mut PlyEngine {
        &mut self.plies
    }

    /// Forgets everything of the previous line (`ucinewgame`, `isready`).
    pub fn new_line(&mut self) -> Result<(), BookEngineError> {
        Ok(self.plies.new_line()?)
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
        let result = self.plies.search(start, moves)?;
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
        self.plies.quit();
    }
}
