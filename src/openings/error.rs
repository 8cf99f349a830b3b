//! Why a book cannot be used, typed by where the fault is: the file itself
//! ([`BookError`]), a line of an EPD/FEN book ([`EpdError`]: file, line,
//! token, reason) or a game of a PGN book ([`PgnBookError`]: file, game,
//! the ply and move at fault).

use std::path::PathBuf;

use crate::files::{BOOK_LINE_LIMIT, FileError};
use crate::game::pgn::GameFault;
use crate::notation::epd::EpdFault;
use crate::notation::fen::FenFault;

/// Why a book cannot be used: the file itself, or a line (EPD) or game
/// (PGN) of it.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("cannot read book {}: {cause}", path.display())]
    Read {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error(transparent)]
    Epd(#[from] EpdError),
    #[error(transparent)]
    Pgn(#[from] PgnBookError),
    #[error("book {} holds no positions", .0.display())]
    Empty(PathBuf),
}

/// Why a line of an EPD/FEN book cannot be used: the file, the 1-based
/// line, the text at fault and the reason.
#[derive(Debug, thiserror::Error)]
pub enum EpdError {
    #[error("{}:{line}: '{token}' is not a legal Chess960 position: {fault}", path.display())]
    BadPosition {
        path: PathBuf,
        line: usize,
        /// The line's FEN part, shortened for the message.
        token: String,
        fault: FenFault,
    },
    #[error("{}:{line}: '{token}': {fault}", path.display())]
    BadOperations {
        path: PathBuf,
        line: usize,
        /// The line, shortened for the message.
        token: String,
        fault: Box<EpdFault>,
    },
    #[error(
        "{}:{line}: the line is {length} bytes long, more than the {BOOK_LINE_LIMIT} bytes a book line may hold (it starts '{start}')", path.display()
    )]
    LongLine {
        path: PathBuf,
        line: usize,
        length: usize,
        start: String,
    },
}

/// Why a game of a PGN book cannot be used: the file, the 1-based game and
/// the reason (with the ply and move at fault when there is one).
#[derive(Debug, thiserror::Error)]
pub enum PgnBookError {
    #[error("{}: game {game}: {fault}", path.display())]
    BadGame {
        path: PathBuf,
        game: usize,
        fault: GameFault,
    },
    #[error(
        "{}: game {game}: neither a tag nor a move: this is not PGN (an EPD or FEN book needs format=epd)",
        path.display()
    )]
    NotPgn { path: PathBuf, game: usize },
    #[error("{}: game {game}: the game is already over after its {plies} plies", path.display())]
    Over {
        path: PathBuf,
        game: usize,
        plies: usize,
    },
}
