//! Where each game pair starts: an opening is a position plus the moves
//! played from it before the engines take over (none for a bare start).
//!
//! * Generated: a start position by a `--start` method, then
//!   `--random-plies N` uniformly random legal plies (a generated opening
//!   line; positions where the game would already be over are avoided).
//! * `--openings file=F format=epd|pgn order=sequential|random plies=N`
//!   (cutechess-cli's names): EPD/FEN lines, or PGN games with their
//!   moves ([`pgn_book`]: Chess960 PGNs from cutechess, fastchess and
//!   lichess, X-FEN or Shredder-FEN in `[FEN]`). Without `format=`, a file
//!   named `.pgn` or starting with a `[` tag is PGN. `plies=N` keeps the
//!   first N plies of each line. `order=random` shuffles the book with the
//!   seed, again after each pass. Every line is checked when the book is opened; a bad one is an
//!   input error naming the file, the line (EPD) or game number (PGN) and
//!   the reason. `--random-plies` applies to book lines too (after their
//!   moves).
//!
//! Openings come as a stream ([`OpeningSource::next_opening`]) in a fixed
//! order for a seed, so a resumed tournament sees exactly the same ones.

use std::path::{Path, PathBuf};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use shakmaty::{Chess, Move, Position};

use crate::game::pgn::ReadGame;
use crate::start::method::book::{self, EpdBookError};
use crate::start::method::pgn_book;
use crate::start::method::procedure::uniform_below;
use crate::start::method::{MethodError, MethodSpec, PositionSource};

/// A position and the moves played from it before the engines play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Chess,
    pub moves: Vec<Move>,
}

/// Book file format.
#[derive(
    Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    /// One position a line, with opcodes (hmvc, fmvn, ce, acd, c0, c1).
    Epd,
    /// One game a position: the moves from the start.
    Pgn,
}

/// Book order.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Debug,
    Default,
    clap::ValueEnum,
    serde::Deserialize,
    serde::Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum BookOrder {
    #[default]
    Sequential,
    Random,
}

/// `--openings file=… format=… order=… plies=…`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsSpec {
    pub file: PathBuf,
    /// Guessed when not given: PGN if the name ends in `.pgn` or the file
    /// starts with a `[` tag, else EPD.
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
    pub fn format(&self) -> BookFormat {
        self.format.unwrap_or_else(|| {
            let pgn = self
                .file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
            if pgn {
                BookFormat::Pgn
            } else {
                BookFormat::Epd
            }
        })
    }
}

/// Why openings cannot be used (input errors).
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// An EPD or PGN book that cannot be used.
    #[error(transparent)]
    Book(#[from] EpdBookError),
    #[error(transparent)]
    Method(#[from] MethodError),
}

/// Reads every game of a PGN book as an opening (its start and moves).
pub fn read_pgn_book(path: &Path, plies: Option<u32>) -> Result<Vec<Opening>, OpeningError> {
    Ok(openings_of(pgn_book::load(path, plies)?))
}

/// Reads every game of PGN text as an opening; `path` names it in errors.
/// (Apart from [`read_pgn_book`] so that the fuzzer feeds it bytes.)
pub fn read_pgn_openings<R: std::io::Read>(
    text: R,
    path: &Path,
    plies: Option<u32>,
) -> Result<Vec<Opening>, OpeningError> {
    Ok(openings_of(pgn_book::read(text, path, plies)?))
}

fn openings_of(games: Vec<ReadGame>) -> Vec<Opening> {
    games
        .into_iter()
        .map(|g| Opening {
            start: g.start,
            moves: g.moves,
        })
        .collect()
}

/// The stream of openings of a tournament.
pub struct OpeningSource {
    kind: Kind,
    random_plies: u32,
    /// For `--random-plies` (its own stream, so adding random plies does not
    /// change which start positions are drawn).
    ply_rng: ChaCha8Rng,
}

enum Kind {
    Generated(PositionSource),
    Book {
        lines: Vec<Opening>,
        order: Vec<u32>,
        next: u64,
        random: bool,
        rng: ChaCha8Rng,
    },
}

/// Seeds the `--random-plies` stream apart from the start positions'.
const PLY_STREAM: u64 = 0x9e37_79b9_7f4a_7c15;

impl OpeningSource {
    /// Start positions by a `--start` method.
    pub fn generated(
        spec: &MethodSpec,
        seed: u64,
        random_plies: u32,
    ) -> Result<OpeningSource, OpeningError> {
        Ok(OpeningSource {
            kind: Kind::Generated(PositionSource::new(spec, seed)?),
            random_plies,
            ply_rng: ChaCha8Rng::seed_from_u64(seed ^ PLY_STREAM),
        })
    }

    /// Lines of an opening book, read and checked whole.
    pub fn book(
        spec: &OpeningsSpec,
        seed: u64,
        random_plies: u32,
    ) -> Result<OpeningSource, OpeningError> {
        // Without `format=`, a PGN is told by its name or its first `[`.
        let format = match spec.format {
            Some(format) => format,
            None if pgn_book::is_pgn_file(&spec.file)? => BookFormat::Pgn,
            None => BookFormat::Epd,
        };
        let lines = match format {
            BookFormat::Pgn => read_pgn_book(&spec.file, spec.plies)?,
            BookFormat::Epd => book::load(&spec.file)?
                .into_iter()
                .map(|e| Opening {
                    start: e.position,
                    moves: Vec::new(),
                })
                .collect(),
        };
        let mut lines = lines;
        if let Some(start) = spec.start
            && !lines.is_empty()
        {
            let len = lines.len() as u64;
            lines.rotate_left((start.saturating_sub(1) % len) as usize);
        }
        Ok(OpeningSource::from_lines(
            lines,
            spec.order,
            seed,
            random_plies,
        ))
    }

    /// A book already read.
    pub fn from_lines(
        lines: Vec<Opening>,
        order: BookOrder,
        seed: u64,
        random_plies: u32,
    ) -> OpeningSource {
        OpeningSource {
            kind: Kind::Book {
                order: (0..lines.len() as u32).collect(),
                lines,
                next: 0,
                random: order == BookOrder::Random,
                rng: ChaCha8Rng::seed_from_u64(seed),
            },
            random_plies,
            ply_rng: ChaCha8Rng::seed_from_u64(seed ^ PLY_STREAM),
        }
    }

    /// The next opening.
    pub fn next_opening(&mut self) -> Opening {
        let mut opening = match &mut self.kind {
            Kind::Generated(source) => Opening {
                start: source.next_position().position,
                moves: Vec::new(),
            },
            Kind::Book {
                lines,
                order,
                next,
                random,
                rng,
            } => {
                let len = order.len() as u64;
                if *random && *next % len == 0 {
                    // Fisher-Yates with the seed, once per pass.
                    for i in (1..order.len()).rev() {
                        let j = uniform_below(rng, (i + 1) as u32) as usize;
                        order.swap(i, j);
                    }
                }
                let line = &lines[order[(*next % len) as usize] as usize];
                *next += 1;
                line.clone()
            }
        };
        self.add_random_plies(&mut opening);
        opening
    }

    fn add_random_plies(&mut self, opening: &mut Opening) {
        if self.random_plies == 0 {
            return;
        }
        let mut pos = opening.start.clone();
        for &mv in &opening.moves {
            pos.play_unchecked(mv);
        }
        for _ in 0..self.random_plies {
            // Moves after which the game goes on.
            let moves: Vec<Move> = pos
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let mut next = pos.clone();
                    next.play_unchecked(m);
                    !next.is_game_over()
                })
                .collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves[uniform_below(&mut self.ply_rng, moves.len() as u32) as usize];
            pos.play_unchecked(mv);
            opening.moves.push(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str, text: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("uci960-open-{}-{name}", std::process::id()));
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
        let all = read_pgn_book(&path, None).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].moves.len(), 3);
        assert_eq!(all[1].moves.len(), 2, "variations and comments skipped");
        assert_eq!(all[0].start, all[1].start, "both castling flavours read");
        let cut = read_pgn_book(&path, Some(1)).unwrap();
        assert_eq!(cut[0].moves.len(), 1);
        assert_eq!(cut[0].moves[0], all[0].moves[0]);
    }

    #[test]
    fn a_bad_game_names_its_number_and_move() {
        let path = tmp(
            "bad.pgn",
            "[Event \"ok\"]\n\n1. e4 *\n\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n",
        );
        let err = read_pgn_book(&path, None).unwrap_err().to_string();
        assert!(
            err.contains("game 2") && err.contains("ply 3 'Ke3'"),
            "{err}"
        );
        let path = tmp("badfen.pgn", "[FEN \"nonsense\"]\n\n*\n");
        let err = read_pgn_book(&path, None).unwrap_err().to_string();
        assert!(err.contains("game 1") && err.contains("nonsense"), "{err}");
    }

    #[test]
    fn text_that_is_not_pgn_is_refused_not_read_as_the_standard_start() {
        let epd = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n";
        for (name, text) in [("epd.pgn", epd), ("words.pgn", "hello, no chess here\n")] {
            let err = read_pgn_book(&tmp(name, text), None)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("game 1") && err.contains("not PGN"),
                "{name}: {err}"
            );
        }
        // A game of tags alone, or of moves alone, is PGN.
        let tags_only = "[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n*\n";
        assert_eq!(
            read_pgn_book(&tmp("t.pgn", tags_only), None).unwrap().len(),
            1
        );
        let moves_only = read_pgn_book(&tmp("m.pgn", "1. e4 e5 *\n"), Some(0)).unwrap();
        assert_eq!(moves_only[0].moves.len(), 0, "plies=0 keeps no move");
    }

    #[test]
    fn random_order_is_a_seeded_permutation_per_pass() {
        let lines: Vec<Opening> = (0..5)
            .map(|i| Opening {
                start: Chess::default(),
                moves: vec![Chess::default().legal_moves()[i]],
            })
            .collect();
        let draw = |seed| {
            let mut s = OpeningSource::from_lines(lines.clone(), BookOrder::Random, seed, 0);
            (0..10)
                .map(|_| s.next_opening().moves[0])
                .collect::<Vec<_>>()
        };
        let a = draw(1);
        assert_eq!(a, draw(1));
        let mut first: Vec<_> = a[..5].to_vec();
        first.sort_by_key(|m| m.to_string());
        let mut all: Vec<_> = lines.iter().map(|l| l.moves[0]).collect();
        all.sort_by_key(|m| m.to_string());
        assert_eq!(first, all, "each line once per pass");
    }

    #[test]
    fn random_plies_are_legal_and_seeded() {
        let mk = || OpeningSource::generated(&MethodSpec::Die, 7, 6).unwrap();
        let (mut a, mut b) = (mk(), mk());
        for _ in 0..20 {
            let o = a.next_opening();
            assert_eq!(o, b.next_opening());
            assert_eq!(o.moves.len(), 6);
            let mut pos = o.start.clone();
            for m in &o.moves {
                assert!(pos.is_legal(*m));
                pos.play_unchecked(*m);
            }
        }
        // The start positions are those without random plies.
        let mut bare = OpeningSource::generated(&MethodSpec::Die, 7, 0).unwrap();
        let mut with = mk();
        assert_eq!(bare.next_opening().start, with.next_opening().start);
    }
}
