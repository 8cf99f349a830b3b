//! PGN books: each game is a start (its `[FEN]` tag, X-FEN or Shredder-FEN,
//! or the standard start when it has none) and the moves of its main line,
//! read by [`crate::game::pgn::PgnGames`] and checked by shakmaty in
//! Chess960 mode. This is what cutechess-cli, fastchess, lichess and
//! `uci960 book --format pgn` write.
//!
//! Two readers use it: `match --openings format=pgn` plays each game's
//! moves from its start, and `book:PATH` (every `--start`/`--method`) takes
//! the position each game reaches: for a book that `uci960 book` wrote,
//! the same positions as its EPD twin. A game after whose moves the game is
//! over (mate, stalemate, …) is refused: an opening must leave a game.

use std::path::Path;

use shakmaty::Position;

use super::book::EpdBookError;
use crate::game::pgn::{GameFault, PgnGames, ReadGame};

/// Reads every game of the PGN book at `path` (a regular file of at most
/// [`crate::files::BOOK_LIMIT`] bytes), keeping at most `plies` moves of
/// each.
pub fn load(path: &Path, plies: Option<u32>) -> Result<Vec<ReadGame>, EpdBookError> {
    let file = crate::files::open(path, "book", crate::files::BOOK_LIMIT)?;
    read(
        std::io::BufReader::with_capacity(1 << 16, file),
        path,
        plies,
    )
}

/// Reads every game of a PGN book from `reader` (tags dropped but the
/// start); `path` names it in errors. Game `n` of the book is element
/// `n - 1`.
pub fn read(
    reader: impl std::io::Read,
    path: &Path,
    plies: Option<u32>,
) -> Result<Vec<ReadGame>, EpdBookError> {
    let games = PgnGames::new(reader)
        .without_tags()
        .max_plies(plies.map_or(usize::MAX, |p| p as usize));
    let mut out = Vec::new();
    for game in games {
        let game = game.map_err(|e| match e.fault {
            GameFault::NotPgn => EpdBookError::NotPgn {
                path: path.to_path_buf(),
                game: e.game,
            },
            fault => EpdBookError::BadGame {
                path: path.to_path_buf(),
                game: e.game,
                fault,
            },
        })?;
        if game.position.is_game_over() {
            return Err(EpdBookError::Over {
                path: path.to_path_buf(),
                game: out.len() + 1,
                plies: game.moves.len(),
            });
        }
        out.push(game);
    }
    if out.is_empty() {
        return Err(EpdBookError::Empty(path.to_path_buf()));
    }
    Ok(out)
}

/// Whether the book at `path` is PGN (see [`looks_like_pgn`]), from its
/// first bytes.
pub fn is_pgn_file(path: &Path) -> Result<bool, EpdBookError> {
    use std::io::BufRead;
    let file = crate::files::open(path, "book", crate::files::BOOK_LIMIT)?;
    let mut reader = std::io::BufReader::with_capacity(4096, file);
    let head = reader.fill_buf().map_err(|cause| EpdBookError::Read {
        path: path.to_path_buf(),
        cause,
    })?;
    Ok(looks_like_pgn(path, head))
}

/// Whether a book is PGN: its name ends in `.pgn`, or its first character
/// that is not blank (nor a byte order mark) is `[`, which no EPD or FEN
/// line starts with.
pub fn looks_like_pgn(path: &Path, head: &[u8]) -> bool {
    let named = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    named || head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(text: &str) -> Result<Vec<ReadGame>, EpdBookError> {
        read(text.as_bytes(), Path::new("t.pgn"), None)
    }

    // Moves, plies, variations and bad games: tournament::openings' tests.

    #[test]
    fn a_game_ends_where_its_moves_lead_and_must_leave_a_game() {
        let games = read_str("1. e4 e5 2. Nf3 *\n\n1. d4 *\n").unwrap();
        let mut replay = games[0].start.clone();
        for &m in &games[0].moves {
            replay.play_unchecked(m);
        }
        assert_eq!(replay, games[0].position);
        let err = read_str("1. e4 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("t.pgn: game 2") && err.contains("already over after its 4 plies"),
            "{err}"
        );
        let err = read_str("\n\n").unwrap_err().to_string();
        assert!(err.contains("holds no positions"), "{err}");
    }

    #[test]
    fn pgn_is_told_by_name_or_by_its_first_character() {
        assert!(looks_like_pgn(Path::new("a.PGN"), b"rnbqkbnr/"));
        assert!(looks_like_pgn(
            Path::new("a.txt"),
            b"\xef\xbb\xbf\n  [Event"
        ));
        assert!(!looks_like_pgn(Path::new("a.epd"), b"\nrnbqkbnr/pppppppp"));
        assert!(!looks_like_pgn(Path::new("a.epd"), b"# [comment]"));
    }
}
