//! `book --stats FILE`: what a book holds, with the numbers the frameworks'
//! own checks compute, so a book can be checked before it is submitted:
//! total and side to move, the ply range (from the move counters, and as
//! fishtest's `update_json.py` counts it: only from a sixth FEN field),
//! the castling-field flavours, duplicate positions, how many of the 960
//! starts (and of the 921,600 DFRC pairs) the book covers, and the draw-
//! and win-rate distributions of its `wdl` (or `ce`) opcodes, or with an
//! engine, of the engine's evaluation of every position.
//!
//! A line's start is the position itself when it is a start, else its `c1`
//! opcode (what `uci960 book` writes); a line with neither counts as
//! "start unknown". A PGN book (`book --format pgn`) counts the position
//! each game reaches, its start the game's `[FEN]`; it has no castling
//! fields to count, no fishtest counts (fishtest's are of EPD lines) and
//! rates only from an engine.

use std::collections::HashSet;
use std::fmt;

use shakmaty::{Chess, Color, Position};

use super::engine::{BookEngine, BookEngineError};
use super::package::{self, BookFacts};
use super::stored::{StoredEval, wdl_of};
use super::unique::{SeenPositions, position_key};
use super::wdl::{Wdl, WdlSource};
use crate::notation::epd::EpdLine;
use crate::notation::fen::parse_position;
use crate::start::StartPosition;

/// Castling fields by flavour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flavours {
    /// `-`.
    pub none: u64,
    /// Only `KQkq` letters.
    pub xfen: u64,
    /// Only file letters (`HAha`).
    pub shredder: u64,
    /// Both in one field (`KAkq`).
    pub mixed: u64,
}

/// Rates in ten buckets of 10 % and the lines inside the frameworks'
/// windows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateSpread {
    pub lines: u64,
    pub buckets: [u64; 10],
    /// Lines in the window the frameworks use (draw 48–52 %, win 40–60 %).
    pub in_window: u64,
    sum: u64,
}

impl RateSpread {
    fn add(&mut self, per_mille: u32, window: (u32, u32)) {
        self.lines += 1;
        self.sum += u64::from(per_mille);
        self.buckets[(per_mille / 100).min(9) as usize] += 1;
        if (window.0..=window.1).contains(&per_mille) {
            self.in_window += 1;
        }
    }

    pub fn mean(&self) -> Option<f64> {
        (self.lines > 0).then(|| self.sum as f64 / self.lines as f64 / 10.0)
    }
}

/// Everything `book --stats` reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BookStats {
    /// Positions read (comments and blank lines skipped).
    pub total: u64,
    pub white: u64,
    pub black: u64,
    /// Ply from the move counters: (full-move − 1) × 2, +1 with Black to move.
    pub min_ply: Option<u64>,
    pub max_ply: Option<u64>,
    /// The same counted as fishtest does.
    pub fishtest: BookFacts,
    pub flavours: Flavours,
    pub duplicates: u64,
    /// Distinct mirrored starts (of 960) and DFRC pairs (of 921,600).
    pub starts_960: u64,
    pub starts_dfrc: u64,
    pub start_unknown: u64,
    /// Lines with an `hmvc`/`fmvn` opcode instead of FEN counters.
    pub counter_opcodes: u64,
    /// Draw rate and White's win rate, from `wdl`, else the model of `ce`.
    pub draw: RateSpread,
    pub white_win: RateSpread,
    pub rates_from_model: u64,
    /// Counted from a PGN book's games (no castling fields, no fishtest
    /// counts, rates only from an engine).
    pub pgn: bool,
}

/// Why a book's statistics could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    /// The engine that measures the rates failed.
    #[error("line {line}: {source}")]
    Engine {
        line: usize,
        source: Box<BookEngineError>,
    },
}

/// The statistics of an EPD/FEN book's text, the rates from its opcodes.
pub fn book_stats(text: &str) -> Result<BookStats, StatsError> {
    book_stats_with(text, None)
}

/// The statistics of an EPD/FEN book's text; with `engine`, the rates are
/// the engine's evaluation of each position (its `UCI_ShowWDL`, else the
/// model of its score) instead of the opcodes'.
pub fn book_stats_with(
    text: &str,
    mut engine: Option<&mut BookEngine>,
) -> Result<BookStats, StatsError> {
    let mut t = Tallier::new(BookStats {
        fishtest: package::facts(text),
        ..BookStats::default()
    });
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fail = |reason: String| StatsError::Line {
            line: i + 1,
            reason,
        };
        let epd = EpdLine::parse(content).map_err(|e| fail(e.to_string()))?;
        let pos = parse_position(&epd.fen()).map_err(|e| fail(e.to_string()))?;
        if epd.fen_counters.1.is_none() && epd.operand("fmvn").is_some() {
            t.s.counter_opcodes += 1;
        }
        match flavour(&epd.fields[2]) {
            Flavour::None => t.s.flavours.none += 1,
            Flavour::XFen => t.s.flavours.xfen += 1,
            Flavour::Shredder => t.s.flavours.shredder += 1,
            Flavour::Mixed => t.s.flavours.mixed += 1,
        }
        let rates = match engine.as_deref_mut() {
            Some(engine) => Some(t.measure(engine, &pos, &[], &pos, i + 1)?),
            None => rates_of(&epd, &pos, &mut t.s.rates_from_model),
        };
        t.position(&pos, start_of(&pos, &epd), rates);
    }
    Ok(t.finish())
}

/// The statistics of a PGN book (what `uci960 book --format pgn` writes):
/// each game counts as the position it reaches, its start is its `[FEN]`;
/// the rates only with `engine` (a PGN book carries no opcodes), which is
/// given each game's moves from its start. fishtest's counts and the
/// castling-field flavours are EPD's and stay empty.
pub fn pgn_book_stats(
    games: &[crate::openings::Opening],
    mut engine: Option<&mut BookEngine>,
) -> Result<BookStats, StatsError> {
    let mut t = Tallier::new(BookStats {
        pgn: true,
        ..BookStats::default()
    });
    for (i, game) in games.iter().enumerate() {
        let position = game.position();
        let rates = match engine.as_deref_mut() {
            Some(engine) => {
                Some(t.measure(engine, &game.initial, &game.moves, &position, i + 1)?)
            }
            None => None,
        };
        t.position(&position, game.sp, rates);
    }
    Ok(t.finish())
}

/// Counts positions one by one into a [`BookStats`].
struct Tallier {
    s: BookStats,
    seen: SeenPositions,
    starts: HashSet<StartPosition>,
}

impl Tallier {
    fn new(s: BookStats) -> Tallier {
        Tallier {
            s,
            seen: SeenPositions::with_capacity(1 << 10),
            starts: HashSet::new(),
        }
    }

    /// The engine's rates of `pos` (reached from `start` by `moves`);
    /// `item` is the line or game number for errors.
    fn measure(
        &mut self,
        engine: &mut BookEngine,
        start: &Chess,
        moves: &[shakmaty::Move],
        pos: &Chess,
        item: usize,
    ) -> Result<Wdl, StatsError> {
        let eval = engine
            .evaluate(start, moves, pos)
            .map_err(|e| StatsError::Engine {
                line: item,
                source: Box::new(e),
            })?;
        if eval.wdl_source == WdlSource::Model {
            self.s.rates_from_model += 1;
        }
        Ok(eval.wdl)
    }

    /// One position of the book, its start when known and its rates (side
    /// to move's view) when it has any.
    fn position(&mut self, pos: &Chess, start: Option<StartPosition>, rates: Option<Wdl>) {
        let s = &mut self.s;
        s.total += 1;
        let black = pos.turn() == Color::Black;
        if black {
            s.black += 1;
        } else {
            s.white += 1;
        }
        let ply = (u64::from(pos.fullmoves().get()) - 1) * 2 + u64::from(black);
        s.min_ply = Some(s.min_ply.map_or(ply, |m| m.min(ply)));
        s.max_ply = Some(s.max_ply.map_or(ply, |m| m.max(ply)));
        if !self.seen.insert(position_key(pos)) {
            s.duplicates += 1;
        }
        match start {
            Some(start) => {
                self.starts.insert(start);
            }
            None => s.start_unknown += 1,
        }
        if let Some(wdl) = rates {
            let white = wdl.seen_by_white(pos.turn());
            s.draw.add(white.draw, (480, 520));
            s.white_win.add(white.win, (400, 600));
        }
    }

    fn finish(mut self) -> BookStats {
        self.s.starts_960 = self.starts.iter().filter(|p| !p.is_double()).count() as u64;
        self.s.starts_dfrc = self.starts.len() as u64;
        self.s
    }
}

enum Flavour {
    None,
    XFen,
    Shredder,
    Mixed,
}

fn flavour(field: &str) -> Flavour {
    if field == "-" {
        return Flavour::None;
    }
    let kq = field.chars().any(|c| "KQkq".contains(c));
    let files = field
        .chars()
        .any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c));
    match (kq, files) {
        (true, true) => Flavour::Mixed,
        (false, true) => Flavour::Shredder,
        _ => Flavour::XFen,
    }
}

/// The start of a line: the position itself, else its `c1` opcode.
fn start_of(pos: &Chess, epd: &EpdLine) -> Option<StartPosition> {
    StartPosition::from_chess(pos).ok().or_else(|| {
        let c1 = epd.operand("c1")?;
        StartPosition::from_chess(&parse_position(c1).ok()?).ok()
    })
}

/// The rates of a line: its `wdl` opcode, else the model of its `ce`
/// (or `dm`).
fn rates_of(epd: &EpdLine, pos: &Chess, from_model: &mut u64) -> Option<Wdl> {
    if let Ok(Some(wdl)) = wdl_of(epd) {
        return Some(wdl);
    }
    let stored = StoredEval::of(epd).ok()??;
    *from_model += 1;
    Some(Wdl::model(stored.score, pos))
}

fn range(lo: Option<u64>, hi: Option<u64>) -> String {
    match (lo, hi) {
        (Some(lo), Some(hi)) => format!("{lo}..{hi}"),
        _ => "none".into(),
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.2} %", 100.0 * part as f64 / whole as f64)
    }
}

impl fmt::Display for BookStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "positions        {}", self.total)?;
        writeln!(
            f,
            "side to move     white {}, black {}",
            self.white, self.black
        )?;
        writeln!(
            f,
            "ply              {} (from the move counters)",
            range(self.min_ply, self.max_ply)
        )?;
        if self.pgn {
            writeln!(
                f,
                "fishtest counts  - (fishtest counts EPD lines: `uci960 book --start book:FILE.pgn --package fishtest NAME` packages this book's positions as EPD)"
            )?;
            writeln!(f, "castling field   - (not counted for a PGN book)")?;
        } else {
            let ft = &self.fishtest;
            let fishtest_ply = range(ft.min_ply, ft.max_ply);
            let note = if self.counter_opcodes > 0 {
                " (fishtest reads the full-move number only as a sixth FEN field: `uci960 book --package` writes it there)"
            } else {
                ""
            };
            writeln!(
                f,
                "fishtest counts  total {}, white {}, black {}, min_depth..max_depth {fishtest_ply}{note}",
                ft.total, ft.white, ft.black
            )?;
            let fl = &self.flavours;
            writeln!(
                f,
                "castling field   X-FEN (KQkq) {}, Shredder (HAha) {}, mixed {}, none {}",
                fl.xfen, fl.shredder, fl.mixed, fl.none
            )?;
        }
        writeln!(
            f,
            "duplicates       {} ({})",
            self.duplicates,
            percent(self.duplicates, self.total)
        )?;
        writeln!(
            f,
            "starts           {} of the 960 ({}), {} of the 921,600 DFRC pairs ({}), {} lines of unknown start",
            self.starts_960,
            percent(self.starts_960, 960),
            self.starts_dfrc,
            percent(self.starts_dfrc, 921_600),
            self.start_unknown
        )?;
        for (name, spread, window) in [
            ("draw rate", &self.draw, "48-52 %"),
            ("White win rate", &self.white_win, "40-60 %"),
        ] {
            match spread.mean() {
                None if self.pgn => writeln!(
                    f,
                    "{name:<16} none (a PGN book carries no rates: `uci960 book --stats FILE --engine PROGRAM` measures them)"
                )?,
                None => writeln!(f, "{name:<16} no wdl or ce opcodes")?,
                Some(mean) => {
                    let buckets: Vec<String> = spread
                        .buckets
                        .iter()
                        .enumerate()
                        .map(|(i, n)| format!("{}-{}%: {n}", i * 10, i * 10 + 10))
                        .collect();
                    writeln!(
                        f,
                        "{name:<16} mean {mean:.1} %, in {window}: {} ({}); {}",
                        spread.in_window,
                        percent(spread.in_window, spread.lines),
                        buckets.join(", ")
                    )?;
                }
            }
        }
        if self.rates_from_model > 0 {
            writeln!(
                f,
                "                 ({} lines without an engine or opcode wdl: rates from Stockfish 17.1's model of the score)",
                self.rates_from_model
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mixed_book_is_counted() {
        let text = "\
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\r
bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\r
# a comment
rqkrnbbn/pppppppp/8/8/8/8/PPPPPPPP/RQNBNKBR w HAda - hmvc 0; fmvn 1; wdl \"100 500 400\";
rqkrnbbn/p1pppppp/1p6/8/8/2P1P3/PP1P1PPP/RQNBNKBR b KQkq - 0 2 ce 0;
";
        let s = book_stats(text).unwrap();
        assert_eq!((s.total, s.white, s.black), (4, 3, 1));
        assert_eq!((s.min_ply, s.max_ply), (Some(0), Some(3)));
        assert_eq!(s.duplicates, 1);
        assert_eq!(
            s.flavours,
            Flavours {
                none: 0,
                xfen: 2,
                shredder: 2,
                mixed: 0
            }
        );
        assert_eq!(s.starts_960, 1);
        assert_eq!(s.starts_dfrc, 2);
        assert_eq!(s.start_unknown, 1);
        assert_eq!(s.counter_opcodes, 1);
        assert_eq!(s.draw.lines, 2);
        assert_eq!(s.draw.in_window, 1);
        assert_eq!(s.rates_from_model, 1);
        assert_eq!(s.fishtest.total, 4);
        let shown = s.to_string();
        assert!(shown.contains("duplicates       1 (25.00 %)"), "{shown}");
        assert!(book_stats("nonsense line here\n").is_err());
    }
}
