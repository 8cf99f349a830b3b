//! What an EPD book line carries besides its position, read back: the
//! evaluation it was kept by (`ce` or `dm`, `acd`, `wdl "W D L"`) and the
//! moves that led to it (`c0` played from the start `c1`), as
//! [`super::epd`] writes them; of a PGN book, each game's start and moves.
//!
//! Two uses. `book --start book:FILE --plies 0` passes lines through
//! whole: a slice, a rewrite in the other castling notation or a
//! re-filtered book keeps each line's moves and evaluation. And a book can
//! be **filtered again without an engine**: with no `--engine`, the
//! windows (`--eval-window`, `--draw-window`, `--win-window`) judge each
//! line's stored evaluation — its `wdl`, else Stockfish 17.1's model of
//! its `ce` ([`super::wdl`]) — so a 0..1 book measured once at depth 22 is
//! cut to 48–52 % in seconds.
//!
//! Moves are restored only when `c1` reads as a position and `c0` replays
//! from it to the line's own position: `c0` is EPD's free comment, which
//! other books use for other things. The evaluation must read when it is
//! used: a window over a line whose `ce` is not a whole number, or that
//! has none, is an error naming the line.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use super::filter::Eval;
use super::generate::BookLine;
use super::unique::position_key;
use super::wdl::{Wdl, WdlSource};
use crate::notation::epd::EpdLine;
use crate::notation::fen::parse_position;
use crate::openings::{Drawn, MethodSpec, Opening, Place, Record, StartSpec};
use crate::start::StartPosition;
use crate::uci::{Score, ScoreBound};

/// The evaluation a line was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredEval {
    /// `ce N` (centipawns) or `dm N` (mate in N), side to move's view.
    pub score: Score,
    /// `acd`.
    pub depth: Option<u32>,
    /// `wdl "W D L"`, per mille, side to move's view.
    pub wdl: Option<Wdl>,
}

impl StoredEval {
    /// The evaluation of an EPD line: `None` when it has neither `ce` nor
    /// `dm`; an error when one of them, `acd` or `wdl` does not read.
    pub fn of(epd: &EpdLine) -> Result<Option<StoredEval>, String> {
        let number = |opcode: &str| -> Result<Option<i64>, String> {
            epd.operand(opcode)
                .map(|t| {
                    t.parse::<i64>()
                        .map_err(|_| format!("'{opcode} {t}' is not a whole number"))
                })
                .transpose()
        };
        let score = match (number("ce")?, number("dm")?) {
            (Some(cp), _) => Score::Cp(cp, ScoreBound::Exact),
            (None, Some(n)) => Score::Mate(n, ScoreBound::Exact),
            (None, None) => return Ok(None),
        };
        let depth = number("acd")?.and_then(|d| u32::try_from(d).ok());
        Ok(Some(StoredEval {
            score,
            depth,
            wdl: wdl_of(epd)?,
        }))
    }

    /// As the windows judge it in `pos`: the stored rates, else the model's
    /// of the score.
    pub fn eval(&self, pos: &Chess) -> Eval {
        let (wdl, wdl_source) = match self.wdl {
            Some(wdl) => (wdl, WdlSource::Stored),
            None => (Wdl::model(self.score, pos), WdlSource::Model),
        };
        Eval {
            score: self.score,
            depth: self.depth,
            turn: pos.turn(),
            wdl,
            wdl_source,
        }
    }
}

/// A line's `wdl` operation: `wdl "W D L"` (one quoted operand, what
/// `uci960 book` writes and python-chess reads) or three operands, summing
/// to 1000.
pub fn wdl_of(epd: &EpdLine) -> Result<Option<Wdl>, String> {
    let Some(op) = epd.ops.iter().find(|op| op.opcode == "wdl") else {
        return Ok(None);
    };
    let text = op.operands.join(" ");
    let numbers: Vec<u32> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'wdl \"{text}\"' is not three whole numbers"))?;
    match numbers[..] {
        [win, draw, loss] if win + draw + loss == 1000 => Ok(Some(Wdl { win, draw, loss })),
        _ => Err(format!(
            "'wdl \"{text}\"': three rates in per mille summing to 1000 (win draw loss)"
        )),
    }
}

/// What one line of a book carries.
#[derive(Clone, Debug)]
struct Stored {
    eval: Option<StoredEval>,
    /// Why the evaluation did not read.
    fault: Option<String>,
    /// The start (`c1`) and the moves (`c0`) that reach the line.
    played: Option<(Chess, Vec<Move>)>,
}

/// The stored values of an EPD book, by line number.
#[derive(Debug)]
pub struct StoredLines {
    path: PathBuf,
    /// By [`key`] of the line's place.
    lines: HashMap<(bool, usize), Stored>,
    positions: usize,
    evaluated: usize,
    /// The first line without an evaluation, or with one that does not
    /// read, and why.
    first_gap: Option<(usize, String)>,
}

/// Why a book's stored values cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {reason}", path.display())]
pub struct StoredError {
    pub path: PathBuf,
    /// 0 when the file itself could not be read.
    pub line: usize,
    pub reason: String,
}

impl StoredLines {
    /// The stored values of the book a plan passes through: `--start
    /// book:FILE` (or `book-shuffle:`) of an EPD file with no plies played.
    /// `None` for every other plan.
    pub fn for_plan(start: &StartSpec, max_plies: u32) -> Result<Option<StoredLines>, StoredError> {
        let StartSpec::Method(MethodSpec::Book { path, .. }) = start else {
            return Ok(None);
        };
        let fail = |reason: String| StoredError {
            path: path.clone(),
            line: 0,
            reason,
        };
        if max_plies > 0 {
            return Ok(None);
        }
        let text = crate::files::read_text(path, "book", crate::files::BOOK_LIMIT)
            .map_err(|e| fail(e.to_string()))?;
        if crate::openings::pgn::looks_like_pgn(path, text.as_bytes()) {
            let games = crate::openings::book::read_pgn_openings(text.as_bytes(), path, None)
                .map_err(|e| fail(e.to_string()))?;
            return Ok(Some(StoredLines::of_games(path, games)));
        }
        Ok(Some(StoredLines::read(path, &text)))
    }

    /// The games of a PGN book: each one's start and moves (a PGN book
    /// carries no evaluations).
    pub fn of_games(path: &Path, games: Vec<Opening>) -> StoredLines {
        let positions = games.len();
        let lines = games
            .into_iter()
            .enumerate()
            .map(|(i, g)| {
                let stored = Stored {
                    eval: None,
                    fault: Some("a PGN book carries no evaluations".to_string()),
                    played: Some((g.initial, g.moves)),
                };
                (key(Place::Game(i + 1)), stored)
            })
            .collect();
        StoredLines {
            path: path.to_path_buf(),
            lines,
            positions,
            evaluated: 0,
            first_gap: (positions > 0)
                .then(|| (1, "a PGN book carries no evaluations".to_string())),
        }
    }

    /// The stored values of an EPD book's text; `path` names it in errors.
    /// Lines that are not EPD are skipped (the book reader refuses them).
    pub fn read(path: &Path, text: &str) -> StoredLines {
        let mut out = StoredLines {
            path: path.to_path_buf(),
            lines: HashMap::new(),
            positions: 0,
            evaluated: 0,
            first_gap: None,
        };
        for (i, raw) in text.lines().enumerate() {
            let number = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            out.positions += 1;
            let Ok(epd) = EpdLine::parse(content) else {
                continue;
            };
            let (eval, fault) = match StoredEval::of(&epd) {
                Ok(Some(e)) => (Some(e), None),
                Ok(None) => (None, Some("the line has no ce or dm opcode".to_string())),
                Err(reason) => (None, Some(reason)),
            };
            if eval.is_some() {
                out.evaluated += 1;
            }
            if let Some(reason) = &fault
                && out.first_gap.is_none()
            {
                out.first_gap = Some((number, reason.clone()));
            }
            let played = played_of(&epd);
            if eval.is_some() || played.is_some() {
                out.lines.insert(
                    key(Place::Line(number)),
                    Stored {
                        eval,
                        fault,
                        played,
                    },
                );
            }
        }
        out
    }

    /// Lines that carry an evaluation that reads.
    pub fn evaluated(&self) -> usize {
        self.evaluated
    }

    /// Positions in the book.
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// Whether every line can be judged by its stored evaluation; else the
    /// first line that cannot, and why.
    pub fn check_all_evaluated(&self) -> Result<(), StoredError> {
        match &self.first_gap {
            None => Ok(()),
            Some((line, reason)) => Err(StoredError {
                path: self.path.clone(),
                line: *line,
                reason: format!(
                    "{reason}: filtering a book without an engine judges the evaluation each line carries (the same command with `--engine PROGRAM` evaluates the book instead)"
                ),
            }),
        }
    }

    /// Gives `line` (a book line passed through) the moves that led to it
    /// and, with `with_eval`, its stored evaluation.
    pub fn restore(&self, line: &mut BookLine, with_eval: bool) {
        let Record::Book { place, .. } = &line.start.record else {
            return;
        };
        let Some(stored) = self.lines.get(&key(*place)) else {
            return;
        };
        if let Some((start, moves)) = &stored.played {
            line.start = Drawn {
                position: start.clone(),
                start: StartPosition::from_chess(start).ok(),
                method: line.start.method,
                record: line.start.record.clone(),
            };
            line.moves.clone_from(moves);
        }
        if with_eval && stored.fault.is_none() {
            line.eval = stored.eval.map(|e| e.eval(&line.position));
        }
    }
}

impl fmt::Display for StoredLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} of {} lines carry an evaluation",
            self.path.display(),
            self.evaluated,
            self.positions
        )
    }
}

/// A place as a map key: (is a game, number).
fn key(place: Place) -> (bool, usize) {
    match place {
        Place::Line(n) => (false, n),
        Place::Game(n) => (true, n),
    }
}

/// `c1`'s position and `c0`'s moves, when they replay to the line's own
/// position.
fn played_of(epd: &EpdLine) -> Option<(Chess, Vec<Move>)> {
    let start = parse_position(epd.operand("c1")?).ok()?;
    let target = parse_position(&epd.fen()).ok()?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for token in epd.operand("c0")?.split_whitespace() {
        let mv = token.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    (position_key(&pos) == position_key(&target)).then_some((start, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(text: &str) -> StoredLines {
        StoredLines::read(Path::new("b.epd"), text)
    }

    #[test]
    fn evaluations_and_moves_read_back_as_the_writer_wrote_them() {
        let text = "\
r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b ha - hmvc 5; fmvn 4; ce -31; acd 12; wdl \"20 900 80\"; c0 \"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\"; c1 \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\";
# a comment
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - ce 40;
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - dm 3; c0 \"not moves\";
";
        let s = stored(text);
        assert_eq!((s.positions(), s.evaluated()), (3, 3));
        assert!(s.check_all_evaluated().is_ok());
        let first = &s.lines[&key(Place::Line(1))];
        assert_eq!(
            first.eval,
            Some(StoredEval {
                score: Score::Cp(-31, ScoreBound::Exact),
                depth: Some(12),
                wdl: Some(Wdl {
                    win: 20,
                    draw: 900,
                    loss: 80
                }),
            })
        );
        assert_eq!(first.played.as_ref().map(|p| p.1.len()), Some(7));
        // No wdl: the model's rates of the ce.
        let pos =
            parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        let e = s.lines[&key(Place::Line(3))].eval.unwrap().eval(&pos);
        assert_eq!(e.wdl_source, WdlSource::Model);
        assert_eq!(e.wdl, Wdl::model(Score::Cp(40, ScoreBound::Exact), &pos));
        // A c0 that is a comment, not moves, restores nothing.
        assert!(s.lines[&key(Place::Line(4))].played.is_none());
        assert_eq!(
            s.lines[&key(Place::Line(4))].eval.unwrap().score,
            Score::Mate(3, ScoreBound::Exact)
        );
    }

    #[test]
    fn a_gap_or_a_bad_operand_names_its_line() {
        let s = stored(
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - ce 4;\n\
             bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - ce x;\n",
        );
        let err = s.check_all_evaluated().unwrap_err().to_string();
        assert!(
            err.starts_with("b.epd:2: 'ce x' is not a whole number"),
            "{err}"
        );
        let s = stored("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n");
        assert_eq!(s.evaluated(), 0);
        let err = s.check_all_evaluated().unwrap_err().to_string();
        assert!(
            err.contains("b.epd:1: the line has no ce or dm opcode"),
            "{err}"
        );
        let s =
            stored("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - ce 1; wdl \"1 2 3\";\n");
        let err = s.check_all_evaluated().unwrap_err().to_string();
        assert!(err.contains("summing to 1000"), "{err}");
    }
}
