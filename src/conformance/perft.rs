//! Perft divide: reading an engine's answer to `go perft N` (Stockfish's
//! form: one `move: count` line per legal move, a blank line, then
//! `Nodes searched: N`) and comparing it with shakmaty, move by move.
//!
//! Sans-IO: the reader is fed lines and says when the answer is complete.

use std::collections::BTreeMap;
use std::fmt;

use shakmaty::Chess;
use shakmaty::uci::UciMove;

/// An engine's divide: count per move (UCI text as the engine wrote it)
/// and the total it announced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    pub moves: BTreeMap<String, u64>,
    pub total: u64,
    /// Moves listed a second time (an engine writing a castle as the
    /// king's two-square move lists `f1g1` twice with the king on f1): kept
    /// for the diagnosis instead of making the answer unreadable.
    pub duplicates: Vec<String>,
}

/// A line of a divide that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DivideError {
    #[error("perft line '{line}': {reason}")]
    BadLine { line: String, reason: String },
}

/// Collects divide lines until `Nodes searched`.
#[derive(Debug, Default)]
pub struct DivideReader {
    divide: Divide,
}

impl DivideReader {
    pub fn new() -> DivideReader {
        DivideReader::default()
    }

    /// Feeds one line. `Ok(Some(divide))` once `Nodes searched: N` arrives;
    /// lines that are neither a `move: count` nor the total (`info string`,
    /// blank lines, banners) are ignored.
    pub fn feed(&mut self, line: &str) -> Result<Option<Divide>, DivideError> {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("Nodes searched:") {
            let total = parse_count(line, rest)?;
            self.divide.total = total;
            return Ok(Some(std::mem::take(&mut self.divide)));
        }
        let Some((mv, count)) = line.split_once(':') else {
            return Ok(None);
        };
        let mv = mv.trim();
        if mv.contains(' ') || UciMove::from_ascii(mv.as_bytes()).is_err() {
            // Not a move line ("info string ...: ..." and the like).
            return Ok(None);
        }
        let count = parse_count(line, count)?;
        if self.divide.moves.contains_key(mv) {
            self.divide.duplicates.push(mv.to_string());
        } else {
            self.divide.moves.insert(mv.to_string(), count);
        }
        Ok(None)
    }
}

fn parse_count(line: &str, text: &str) -> Result<u64, DivideError> {
    text.trim()
        .parse::<u64>()
        .map_err(|e| DivideError::BadLine {
            line: line.to_string(),
            reason: format!("count '{}' is not a number ({e})", text.trim()),
        })
}

/// shakmaty's divide: per legal move (KxR castling notation), the perft
/// of depth `depth - 1` after it.
pub fn reference_divide(pos: &Chess, depth: u32) -> Divide {
    let mut divide = Divide::default();
    for (m, n) in crate::perft::divide(pos, depth) {
        divide
            .moves
            .insert(UciMove::from_chess960(m).to_string(), n);
        divide.total += n;
    }
    divide
}

/// The first disagreement between shakmaty and the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The move, or `None` when every move agrees and only the total differs.
    pub mv: Option<String>,
    pub expected: u64,
    pub got: u64,
}

impl Mismatch {
    pub fn difference(&self) -> i128 {
        self.got as i128 - self.expected as i128
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let diff = self.difference();
        match &self.mv {
            Some(mv) if self.got == 0 => write!(
                f,
                "move {mv} missing from the engine's divide (expected {}, {diff:+})",
                self.expected
            ),
            Some(mv) if self.expected == 0 => write!(
                f,
                "move {mv} is not legal but the engine counts it ({}, {diff:+})",
                self.got
            ),
            Some(mv) => write!(
                f,
                "move {mv}: expected {}, got {} ({diff:+})",
                self.expected, self.got
            ),
            None => write!(
                f,
                "total: expected {}, got {} ({diff:+})",
                self.expected, self.got
            ),
        }
    }
}

/// Compares move by move, in UCI order; the first difference wins.
/// A move in only one of the two divides counts as 0 on the other side.
pub fn compare(reference: &Divide, engine: &Divide) -> Option<Mismatch> {
    let mut all: Vec<&String> = reference.moves.keys().chain(engine.moves.keys()).collect();
    all.sort();
    all.dedup();
    for mv in all {
        let expected = reference.moves.get(mv).copied().unwrap_or(0);
        let got = engine.moves.get(mv).copied().unwrap_or(0);
        if expected != got {
            return Some(Mismatch {
                mv: Some(mv.clone()),
                expected,
                got,
            });
        }
    }
    (reference.total != engine.total).then_some(Mismatch {
        mv: None,
        expected: reference.total,
        got: engine.total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    fn read(lines: &[&str]) -> Divide {
        let mut reader = DivideReader::new();
        for line in lines {
            if let Some(d) = reader.feed(line).unwrap() {
                return d;
            }
        }
        panic!("no total");
    }

    #[test]
    fn reads_stockfish_divide() {
        let d = read(&[
            "info string NNUE evaluation using nn.nnue",
            "a2a3: 20",
            "e1h1: 19",
            "",
            "Nodes searched: 39",
        ]);
        assert_eq!(d.total, 39);
        assert_eq!(d.moves.get("e1h1"), Some(&19));
        assert_eq!(d.moves.len(), 2);
    }

    #[test]
    fn bad_count_names_the_line() {
        let mut reader = DivideReader::new();
        let err = reader.feed("a2a3: lots").unwrap_err();
        assert!(err.to_string().contains("a2a3: lots"), "{err}");
        assert!(reader.feed("Nodes searched: x").is_err());
        let mut r = DivideReader::new();
        r.feed("a2a3: 1").unwrap();
        r.feed("a2a3: 2").unwrap();
        let d = r.feed("Nodes searched: 3").unwrap().unwrap();
        assert_eq!(d.duplicates, ["a2a3"]);
    }

    #[test]
    fn reference_agrees_with_the_published_numbers() {
        let text = include_str!("../../tests/data/chess960-midgame-perft.epd");
        for line in text.lines().take(40) {
            let (fen, counts) = line.split_once(';').unwrap();
            let pos = parse_position(fen).unwrap();
            let d2: u64 = counts
                .split(';')
                .find_map(|c| c.trim().strip_prefix("D2 "))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            assert_eq!(reference_divide(&pos, 2).total, d2, "{fen}");
        }
    }

    #[test]
    fn first_mismatch_is_reported_with_its_difference() {
        let pos =
            parse_position("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
                .unwrap();
        let reference = reference_divide(&pos, 2);
        assert_eq!(compare(&reference, &reference), None);

        // An engine that misses a move entirely.
        let mut missing = reference.clone();
        let first = reference.moves.keys().next().unwrap().clone();
        let n = missing.moves.remove(&first).unwrap();
        missing.total -= n;
        let m = compare(&reference, &missing).unwrap();
        assert_eq!(m.mv.as_deref(), Some(first.as_str()));
        assert_eq!(m.difference(), -(n as i128));
        assert!(m.to_string().contains("missing"), "{m}");

        // An engine that counts one node too many after a2a3.
        let mut extra = reference.clone();
        *extra.moves.get_mut("a3a4").unwrap() += 1;
        extra.total += 1;
        let m = compare(&reference, &extra).unwrap();
        assert_eq!(m.mv.as_deref(), Some("a3a4"));
        assert_eq!(m.difference(), 1);

        // Same moves, wrong total.
        let mut total = reference.clone();
        total.total += 5;
        assert_eq!(compare(&reference, &total).unwrap().mv, None);
    }
}
