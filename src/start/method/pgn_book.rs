//! PGN books: each game is a start (its `[FEN]` tag, X-FEN or Shredder-FEN,
//! or the standard start when it has none) and the moves of its main line,
//! read by `pgn-reader` and checked by shakmaty in Chess960 mode; comments,
//! variations, NAGs and the result are skipped. This is what cutechess-cli,
//! fastchess, lichess and `uci960 book --format pgn` write.
//!
//! Two readers use it: `match --openings format=pgn` plays each game's
//! moves from its start, and `book:PATH` (every `--start`/`--method`) takes
//! the position each game reaches: for a book that `uci960 book` wrote,
//! the same positions as its EPD twin. A game after whose moves the game is
//! over (mate, stalemate, …) is refused: an opening must leave a game.

use std::ops::ControlFlow;
use std::path::Path;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Move, Position};

use super::book::EpdBookError;
use crate::notation::fen::parse_position;

/// One game of a PGN book.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// 1-based number of the game in the file.
    pub game: usize,
    pub start: Chess,
    pub moves: Vec<Move>,
    /// The position after `moves`.
    pub end: Chess,
}

/// Reads every game of the PGN book at `path` (a regular file of at most
/// [`crate::files::BOOK_LIMIT`] bytes), keeping at most `plies` moves of
/// each.
pub fn load(path: &Path, plies: Option<u32>) -> Result<Vec<PgnGame>, EpdBookError> {
    let file = crate::files::open(path, "book", crate::files::BOOK_LIMIT)?;
    read(
        std::io::BufReader::with_capacity(1 << 16, file),
        path,
        plies,
    )
}

/// Reads every game of a PGN book from `reader`; `path` names it in errors.
pub fn read(
    reader: impl std::io::Read,
    path: &Path,
    plies: Option<u32>,
) -> Result<Vec<PgnGame>, EpdBookError> {
    let mut reader = Reader::new(reader);
    let mut visitor = GameVisitor {
        plies: plies.map_or(usize::MAX, |p| p as usize),
    };
    let mut games = Vec::new();
    loop {
        let game = games.len() + 1;
        let bad = |reason: String| EpdBookError::BadGame {
            path: path.to_path_buf(),
            game,
            reason,
        };
        match reader.read_game(&mut visitor) {
            Ok(None) => break,
            Ok(Some(Ok(line))) => games.push(PgnGame {
                game,
                start: line.start,
                moves: line.moves,
                end: line.pos,
            }),
            Ok(Some(Err(reason))) => return Err(bad(reason)),
            Err(e) => return Err(bad(e.to_string())),
        }
    }
    if games.is_empty() {
        return Err(EpdBookError::Empty(path.to_path_buf()));
    }
    Ok(games)
}

/// pgn-reader visitor: the `[FEN]` tag (or the standard start) and the
/// main line's moves.
///
/// pgn-reader passes over bytes it cannot read as PGN without a word, so
/// any text reads as games. A "game" with neither a tag nor a move is such
/// text (an EPD book given as `format=pgn`, a wrong file) and is refused;
/// it would otherwise be an opening at the standard chess start.
struct GameVisitor {
    plies: usize,
}

struct Tags {
    fen: Result<Option<Chess>, String>,
    any: bool,
}

struct Moves {
    start: Chess,
    pos: Chess,
    moves: Vec<Move>,
    tagged: bool,
    /// Moves read, kept or not (`plies=`).
    read: usize,
}

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Moves;
    type Output = Result<Moves, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags {
            fen: Ok(None),
            any: false,
        })
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.any = true;
        if name == b"FEN" {
            let text = crate::game::pgn::tag_value(value);
            tags.fen = parse_position(&text)
                .map(Some)
                .map_err(|e| format!("[FEN \"{text}\"]: {e}"));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        match tags.fen {
            Ok(start) => {
                let start = start.unwrap_or_default();
                ControlFlow::Continue(Moves {
                    pos: start.clone(),
                    start,
                    moves: Vec::new(),
                    tagged: tags.any,
                    read: 0,
                })
            }
            Err(reason) => ControlFlow::Break(Err(reason)),
        }
    }

    fn san(&mut self, line: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        line.read += 1;
        if line.moves.len() >= self.plies {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&line.pos) {
            Ok(mv) => {
                line.pos.play_unchecked(mv);
                line.moves.push(mv);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!(
                "ply {} '{san_plus}' is not legal here: {e}",
                line.moves.len() + 1
            ))),
        }
    }

    fn end_game(&mut self, line: Self::Movetext) -> Self::Output {
        if !line.tagged && line.read == 0 {
            return Err("neither a tag nor a move: this is not PGN \
                 (an EPD or FEN book needs format=epd)"
                .to_string());
        }
        if line.pos.is_game_over() {
            return Err(format!(
                "the game is already over after its {} plies",
                line.moves.len()
            ));
        }
        Ok(line)
    }
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

    fn read_str(text: &str, plies: Option<u32>) -> Result<Vec<PgnGame>, EpdBookError> {
        read(text.as_bytes(), Path::new("t.pgn"), plies)
    }

    #[test]
    fn shredder_and_xfen_tags_variations_and_plies() {
        let text = "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 2. Nf3 *\n\n\
             [Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. d4 {x} (1. c4) d5 1/2-1/2\n";
        let all = read_str(text, None).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].game, all[1].game), (1, 2));
        assert_eq!(all[0].moves.len(), 3);
        assert_eq!(all[1].moves.len(), 2, "variations and comments skipped");
        assert_eq!(all[0].start, all[1].start, "both castling flavours read");
        let mut replay = all[0].start.clone();
        for &m in &all[0].moves {
            replay.play_unchecked(m);
        }
        assert_eq!(replay, all[0].end);
        let cut = read_str(text, Some(1)).unwrap();
        assert_eq!(cut[0].moves.len(), 1);
        assert_eq!(cut[0].moves[0], all[0].moves[0]);
    }

    #[test]
    fn a_bad_game_names_its_number_and_move() {
        let err = read_str(
            "[Event \"ok\"]\n\n1. e4 *\n\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n",
            None,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("t.pgn: game 2") && err.contains("ply 3 'Ke3'"),
            "{err}"
        );
        let err = read_str("[FEN \"nonsense\"]\n\n*\n", None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("game 1") && err.contains("nonsense"), "{err}");
        let err = read_str("1. f3 e5 2. g4 Qh4# 0-1\n", None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("already over after its 4 plies"), "{err}");
        let err = read_str("\n\n", None).unwrap_err().to_string();
        assert!(err.contains("holds no positions"), "{err}");
    }

    #[test]
    fn text_that_is_not_pgn_is_refused_not_read_as_the_standard_start() {
        let epd = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n";
        for text in [epd, "hello, no chess here\n"] {
            let err = read_str(text, None).unwrap_err().to_string();
            assert!(
                err.contains("game 1") && err.contains("not PGN"),
                "{text}: {err}"
            );
        }
        // A game of tags alone, or of moves alone, is PGN.
        let tags_only = "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n*\n";
        assert_eq!(read_str(tags_only, None).unwrap().len(), 1);
        let moves_only = read_str("1. e4 e5 *\n", Some(0)).unwrap();
        assert_eq!(moves_only[0].moves.len(), 0, "plies=0 keeps no move");
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
