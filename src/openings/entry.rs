//! One position of a book and where it stands there (a line of an EPD/FEN
//! book, a game of a PGN book): what `book:PATH` draws and names in its
//! record.

use std::fmt;

use shakmaty::Chess;

/// Where a position stands in its book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// 1-based line of an EPD/FEN book.
    Line(usize),
    /// 1-based game of a PGN book.
    Game(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(n) => write!(f, "line {n}"),
            Place::Game(n) => write!(f, "game {n}"),
        }
    }
}

/// One position of a book.
#[derive(Clone, Debug)]
pub struct BookEntry {
    pub place: Place,
    /// The FEN of the line (of the position reached, for a PGN game).
    pub text: String,
    pub position: Chess,
}
