//! Where a game begins: one [`Opening`] (a position, the moves played from
//! it before the engines take over, and the start position it is when it
//! is one) and every source of them, used by `match`, `book`, `proxy`,
//! `positions` and `analyze`:
//!
//! | what | where |
//! |---|---|
//! | what the user names (`die`, `sp:N`, `book:PATH`, `all`, …) | [`spec`] |
//! | a method's exact law and Monte Carlo test as documents (`analyze`) | [`analysis`] |
//! | a stream of start positions with their record (methods, fixed lists, book positions, complete sets) | [`source`] |
//! | a drawn position's documents (`positions`: PGN game, board card, CSV row; JSON in [`source`]) | `drawn_docs.rs` (methods of [`Drawn`]) |
//! | book files: formats, `--openings` settings, reading a whole book | [`book`] over [`epd`] and [`pgn`], with [`entry`] and the typed errors of [`error`] |
//! | a tournament's openings (generated or from a book, plus random plies) | [`stream`] |
//! | the one shuffle | [`shuffle`] |
//! | the one random-plies rule | [`plies`] |
//! | engine-chosen plies, and [`engine_plies::next_ply`], the one seam every generated ply goes through | [`engine_plies`] over the sans-IO [`multipv`] |
//!
//! The back ranks themselves are drawn one floor down, by
//! [`crate::start::method`]. Engine plies need an engine: this room uses
//! [`crate::engines`] (same floor, below no application) to start it, and
//! the book above only filters and writes what comes out. The documents of
//! `positions` and `analyze` are built here, over [`crate::output`]'s
//! neutral ones (same floor; output imports nothing of this room).

pub mod analysis;
pub mod book;
mod drawn_docs;
pub mod engine_plies;
pub mod entry;
pub mod epd;
pub mod error;
pub mod multipv;
pub mod pgn;
pub mod plies;
pub mod shuffle;
pub mod source;
pub mod spec;
pub mod stream;

pub use book::{BookFormat, BookOrder, OpeningsSpec};
pub use entry::{BookEntry, Place};
pub use error::{BookError, EpdError, PgnBookError};
pub use source::{Drawn, PositionSource, Record, replay};
pub use spec::{METHOD_NAMES, MethodError, MethodSpec, Replayed, StartSpec};
pub use stream::{OpeningError, OpeningSource};

use shakmaty::{Chess, Move, Position};

use crate::start::StartPosition;

/// A position and the moves played from it before the engines play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Where the opening begins: any position ("start" is kept for the
    /// 960, see docs/ARCHITECTURE.md).
    pub initial: Chess,
    pub moves: Vec<Move>,
    /// The start position `initial` is, when it is one (a book line may be
    /// any position).
    pub sp: Option<StartPosition>,
}

impl Opening {
    /// An opening from `initial`, its start position looked up.
    pub fn new(initial: Chess, moves: Vec<Move>) -> Opening {
        Opening {
            sp: StartPosition::from_chess(&initial).ok(),
            initial,
            moves,
        }
    }

    /// The position after the opening's moves (the engines' first).
    pub fn position(&self) -> Chess {
        let mut pos = self.initial.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }
}
