//! PGN books: each game is a start (its `[FEN]` tag, X-FEN or Shredder-FEN,
//! or the standard start when it has none) and the moves of its main line,
//! read by [`crate::game::pgn::PgnGames`] and checked by shakmaty in
//! Chess960 mode. This is what cutechess-cli, fastchess, lichess and
//! `uci960 book --format pgn` write.
//!
//! `match --openings format=pgn` plays each game's moves from its start;
//! `book:PATH` takes the position each game reaches (for a book that
//! `uci960 book` wrote, the same positions as its EPD twin). A game after
//! whose moves the game is over (mate, stalemate, …) is refused: an opening
//! must leave a game.

use std::path::Path;

use shakmaty::Position;

use super::error::{BookError, PgnBookError};
use crate::game::pgn::{GameFault, PgnGames, ReadGame};

/// Reads every game of a PGN book from `reader` (tags dropped but the
/// start), keeping at most `plies` moves of each; `path` names it in
/// errors. Game `n` of the book is element `n - 1`.
pub fn read(
    reader: impl std::io::Read,
    path: &Path,
    plies: Option<u32>,
) -> Result<Vec<ReadGame>, BookError> {
    let games = PgnGames::new(reader)
        .without_tags()
        .max_plies(plies.map_or(usize::MAX, |p| p as usize));
    let mut out = Vec::new();
    for game in games {
        let game = game.map_err(|e| match e.fault {
            GameFault::NotPgn => PgnBookError::NotPgn {
                path: path.to_path_buf(),
                game: e.game,
            },
            fault => PgnBookError::BadGame {
                path: path.to_path_buf(),
                game: e.game,
                fault,
            },
        })?;
        if game.position.is_game_over() {
            return Err(PgnBookError::Over {
                path: path.to_path_buf(),
                game: out.len() + 1,
                plies: game.moves.len(),
            }
            .into());
        }
        out.push(game);
    }
    if out.is_empty() {
        return Err(BookError::Empty(path.to_path_buf()));
    }
    Ok(out)
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

    fn read_str(text: &str) -> Result<Vec<ReadGame>, BookError> {
        read(text.as_bytes(), Path::new("t.pgn"), None)
    }

    #[test]
    fn a_game_ends_where_its_moves_lead_and_must_leave_a_game() {
        let games = read_str("1. e4 e5 2. Nf3 *\n\n1. d4 *\n").unwrap();
        let mut replay = games[0].initial.clone();
        for &m in &games[0].moves {
            replay.play_unchecked(m);
        }
        assert_eq!(replay, games[0].position);
        let err = read_str("1. e4 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n").unwrap_err();
        assert!(
            matches!(
                err,
                BookError::Pgn(PgnBookError::Over {
                    game: 2,
                    plies: 4,
                    ..
                })
            ),
            "{err:?}"
        );
        let err = err.to_string();
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
