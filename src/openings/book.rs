//! Opening books as files: their two formats, where a position stands in
//! one, the `--openings` settings, and reading a whole book (checked line
//! by line when it is opened, so a bad line stops a run before anything is
//! written). The formats themselves are read by [`super::epd`] and
//! [`super::pgn`]; this module tells them apart and opens the file.

use std::fmt;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::Opening;
use super::entry::{BookEntry, Place};
use super::epd;
use super::error::BookError;
use super::pgn;
use crate::files;
use crate::keyword::UnknownWord;
use crate::notation::fen::{FenFlavour, position_fen};

/// A book file's format: read by `--openings format=` and `book:PATH`,
/// written by `uci960 book --format`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    /// One position a line, with opcodes (hmvc, fmvn, ce, acd, c0, c1).
    Epd,
    /// One game a position: the moves from the start.
    Pgn,
}

impl FromStr for BookFormat {
    type Err = UnknownWord;

    /// `epd` (or `fen`, the same lines without opcodes) or `pgn`.
    fn from_str(s: &str) -> Result<BookFormat, UnknownWord> {
        match s {
            "epd" | "fen" => Ok(BookFormat::Epd),
            "pgn" => Ok(BookFormat::Pgn),
            other => Err(UnknownWord::new("book format", other, "epd or pgn")),
        }
    }
}

impl fmt::Display for BookFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BookFormat::Epd => "epd",
            BookFormat::Pgn => "pgn",
        })
    }
}

/// The order a book's lines are used in.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BookOrder {
    #[default]
    Sequential,
    /// Shuffled with the seed, again after each pass.
    Random,
}

impl FromStr for BookOrder {
    type Err = UnknownWord;

    fn from_str(s: &str) -> Result<BookOrder, UnknownWord> {
        match s {
            "sequential" => Ok(BookOrder::Sequential),
            "random" => Ok(BookOrder::Random),
            other => Err(UnknownWord::new(
                "book order",
                other,
                "sequential or random",
            )),
        }
    }
}

/// A book of openings as the user sets it (cutechess-cli's names:
/// `file=… format=… order=… plies=… start=…`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsSpec {
    pub file: PathBuf,
    /// Told from the file when not given: PGN if the name ends in `.pgn`
    /// or the file starts with a `[` tag, else EPD.
    pub format: Option<BookFormat>,
    #[serde(default)]
    pub order: BookOrder,
    /// Keep at most this many plies of each line.
    pub plies: Option<u32>,
    /// The first line used, 1-based (cutechess-cli's and fastchess's
    /// `start=`): the book is read from there and wraps around to its
    /// first line; with `order=random` the shuffle is of the rotated book.
    #[serde(default)]
    pub start: Option<u64>,
}

impl OpeningsSpec {
    /// The format given, or the one its name says (the contents are looked
    /// at when the book is read, see [`load_openings`]).
    pub fn format(&self) -> BookFormat {
        self.format
            .unwrap_or(if pgn::looks_like_pgn(&self.file, b"") {
                BookFormat::Pgn
            } else {
                BookFormat::Epd
            })
    }
}

/// A book opened for reading: a regular file of at most
/// [`files::BOOK_LIMIT`] bytes, and its format (`format`, or told from its
/// name and first bytes).
fn open(
    path: &Path,
    format: Option<BookFormat>,
) -> Result<(impl BufRead + use<>, BookFormat), BookError> {
    let file = files::open(path, "book", files::BOOK_LIMIT)?;
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let format = match format {
        Some(format) => format,
        None => {
            let head = reader.fill_buf().map_err(|cause| BookError::Read {
                path: path.to_path_buf(),
                cause,
            })?;
            if pgn::looks_like_pgn(path, head) {
                BookFormat::Pgn
            } else {
                BookFormat::Epd
            }
        }
    };
    Ok((reader, format))
}

/// Every position of the book at `path` (`book:PATH`): an EPD/FEN line's
/// position, or the position a PGN game reaches.
pub fn load_positions(path: &Path) -> Result<Vec<BookEntry>, BookError> {
    let (reader, format) = open(path, None)?;
    match format {
        BookFormat::Epd => epd::read(reader, path),
        BookFormat::Pgn => Ok(pgn::read(reader, path, None)?
            .into_iter()
            .enumerate()
            .map(|(i, g)| BookEntry {
                place: Place::Game(i + 1),
                text: position_fen(&g.position, FenFlavour::Shredder),
                position: g.position,
            })
            .collect()),
    }
}

/// Every line of the book at `path` as an opening (`--openings`): an
/// EPD/FEN line is a position without moves, a PGN game its start and at
/// most `plies` of its moves (`plies` is for PGN; an EPD line has none).
pub fn load_openings(
    path: &Path,
    format: Option<BookFormat>,
    plies: Option<u32>,
) -> Result<Vec<Opening>, BookError> {
    let (reader, format) = open(path, format)?;
    Ok(match format {
        BookFormat::Epd => epd::read(reader, path)?
            .into_iter()
            .map(|e| Opening::new(e.position, Vec::new()))
            .collect(),
        BookFormat::Pgn => pgn::read(reader, path, plies)?
            .into_iter()
            .map(|g| Opening::new(g.initial, g.moves))
            .collect(),
    })
}

/// PGN text as openings; `path` names it in errors (apart from
/// [`load_openings`] so that the fuzzer feeds it bytes).
pub fn read_pgn_openings(
    text: impl std::io::Read,
    path: &Path,
    plies: Option<u32>,
) -> Result<Vec<Opening>, BookError> {
    Ok(pgn::read(text, path, plies)?
        .into_iter()
        .map(|g| Opening::new(g.initial, g.moves))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::error::PgnBookError;

    fn tmp(name: &str, text: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("uci960-book-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn pgn_lines_with_shredder_and_xfen_and_plies() {
        let path = tmp(
            "a.pgn",
            "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 2. Nf3 *\n\n\
             [Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. d4 {x} (1. c4) d5 1/2-1/2\n",
        );
        let all = load_openings(&path, None, None).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].moves.len(), 3);
        assert_eq!(all[1].moves.len(), 2, "variations and comments skipped");
        assert_eq!(
            all[0].initial, all[1].initial,
            "both castling flavours read"
        );
        assert_eq!(all[0].sp.map(|s| s.white.sp()), Some(0));
        let cut = load_openings(&path, Some(BookFormat::Pgn), Some(1)).unwrap();
        assert_eq!(cut[0].moves.len(), 1);
        assert_eq!(cut[0].moves[0], all[0].moves[0]);
        let positions = load_positions(&path).unwrap();
        assert_eq!(positions[1].place, Place::Game(2));
    }

    #[test]
    fn a_bad_game_names_its_number_and_move() {
        let path = tmp(
            "bad.pgn",
            "[Event \"ok\"]\n\n1. e4 *\n\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n",
        );
        let err = load_openings(&path, None, None).unwrap_err();
        assert!(
            matches!(err, BookError::Pgn(PgnBookError::BadGame { game: 2, .. })),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(
            err.contains("game 2") && err.contains("ply 3 'Ke3'"),
            "{err}"
        );
        let path = tmp("badfen.pgn", "[FEN \"nonsense\"]\n\n*\n");
        let err = load_openings(&path, None, None).unwrap_err().to_string();
        assert!(err.contains("game 1") && err.contains("nonsense"), "{err}");
    }

    #[test]
    fn text_that_is_not_pgn_is_refused_not_read_as_the_standard_start() {
        let epd = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n";
        for (name, text) in [("epd.pgn", epd), ("words.pgn", "hello, no chess here\n")] {
            let err = load_openings(&tmp(name, text), None, None).unwrap_err();
            assert!(
                matches!(err, BookError::Pgn(PgnBookError::NotPgn { game: 1, .. })),
                "{name}: {err:?}"
            );
            assert!(err.to_string().contains("not PGN"), "{name}: {err}");
        }
        // The same EPD line, named .epd, is one opening without moves; a
        // PGN told by its first `[` is PGN whatever its name.
        let lines = load_openings(&tmp("e.epd", epd), None, Some(3)).unwrap();
        assert_eq!((lines.len(), lines[0].moves.len()), (1, 0));
        let tags_only = "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n*\n";
        assert_eq!(
            load_openings(&tmp("t.txt", tags_only), None, None)
                .unwrap()
                .len(),
            1
        );
        let moves_only = load_openings(&tmp("m.pgn", "1. e4 e5 *\n"), None, Some(0)).unwrap();
        assert_eq!(moves_only[0].moves.len(), 0, "plies=0 keeps no move");
    }

    #[test]
    fn words_of_the_settings() {
        assert_eq!("fen".parse::<BookFormat>().unwrap(), BookFormat::Epd);
        assert_eq!(
            "txt".parse::<BookFormat>().unwrap_err().to_string(),
            "unknown book format 'txt' (use epd or pgn)"
        );
        assert_eq!("random".parse::<BookOrder>().unwrap(), BookOrder::Random);
    }
}
