//! `--moves engine`: which moves are "within the margin" (sans-IO).
//!
//! The engine searches with `MultiPV K`; [`MultiPvCollector`] is fed its
//! lines and keeps, per PV index, the newest line carrying a score and a
//! move (a search cut by its node limit reports the lines it did not finish
//! at the previous depth, which is the best the engine knows for them).
//! [`within_margin`] then gives the first moves whose score is at most
//! `margin` centipawns below the best, in PV order; the caller picks one
//! uniformly with the line's random source. Mate scores rank above (or,
//! when being mated, below) every centipawn score.

use crate::uci::{EngineMessage, Score, parse_engine_line, token_spans};

/// The most PV lines kept (engines allow up to 500; a book needs a few).
pub const MAX_MULTIPV: u32 = 64;

/// One PV line's verdict on its first move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    pub first: String,
    pub score: Score,
    pub depth: u32,
}

/// Collects the PV lines of one search until `bestmove`.
#[derive(Clone, Debug, Default)]
pub struct MultiPvCollector {
    /// Index `i` holds PV `i + 1`.
    lines: Vec<Option<PvLine>>,
    bestmove: Option<String>,
}

impl MultiPvCollector {
    pub fn new() -> MultiPvCollector {
        MultiPvCollector::default()
    }

    /// Forgets the search (keeps the memory).
    pub fn clear(&mut self) {
        self.lines.clear();
        self.bestmove = None;
    }

    /// Feeds one raw engine line; true at `bestmove`.
    pub fn feed_line(&mut self, line: &[u8]) -> bool {
        let first = token_spans(line).next().unwrap_or_default();
        if !matches!(&line[first], b"info" | b"bestmove") {
            return false;
        }
        match parse_engine_line(line) {
            EngineMessage::Info(info) => {
                let index = info.multipv.unwrap_or(1);
                if let (Some(score), Some(first), true) = (
                    info.score,
                    info.pv.into_iter().next(),
                    (1..=MAX_MULTIPV).contains(&index),
                ) {
                    let i = (index - 1) as usize;
                    if self.lines.len() <= i {
                        self.lines.resize(i + 1, None);
                    }
                    self.lines[i] = Some(PvLine {
                        first,
                        score,
                        depth: info.depth.unwrap_or(0),
                    });
                }
                false
            }
            EngineMessage::BestMove(best) => {
                self.bestmove = best.mv;
                true
            }
            _ => false,
        }
    }

    /// The PV lines, in PV order.
    pub fn lines(&self) -> impl Iterator<Item = &PvLine> {
        self.lines.iter().flatten()
    }

    /// The move of `bestmove`, as written.
    pub fn bestmove(&self) -> Option<&str> {
        self.bestmove.as_deref()
    }

    /// The depth of PV 1 (what the search reached).
    pub fn depth(&self) -> Option<u32> {
        self.lines.first().and_then(|l| l.as_ref()).map(|l| l.depth)
    }
}

/// The first moves of the lines at most `margin` centipawns below the
/// best, in PV order; the `bestmove` alone when no line had a score.
pub fn within_margin(collector: &MultiPvCollector, margin: i64) -> Vec<&str> {
    let best = collector.lines().map(|l| l.score.centipawns()).max();
    match best {
        Some(best) => collector
            .lines()
            .filter(|l| l.score.centipawns() >= best.saturating_sub(margin))
            .map(|l| l.first.as_str())
            .collect(),
        None => collector.bestmove().into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(lines: &[&str]) -> MultiPvCollector {
        let mut c = MultiPvCollector::new();
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(c.feed_line(l.as_bytes()), i + 1 == lines.len(), "{l}");
        }
        c
    }

    #[test]
    fn newest_line_per_pv_and_the_margin() {
        let c = feed(&[
            "info depth 5 multipv 1 score cp 40 nodes 10 pv e2e4 e7e5",
            "info depth 5 multipv 2 score cp 30 nodes 10 pv d2d4",
            "info depth 5 multipv 3 score cp 5 nodes 10 pv g1f3",
            "info depth 6 multipv 1 score cp 35 nodes 20 pv d2d4 d7d5",
            "info depth 6 multipv 2 score cp 33 upperbound nodes 20 pv e2e4",
            "info depth 6 currmove a2a3 currmovenumber 9",
            "info string not a pv",
            "bestmove d2d4 ponder d7d5",
        ]);
        assert_eq!(c.depth(), Some(6));
        assert_eq!(within_margin(&c, 10), vec!["d2d4", "e2e4"]);
        assert_eq!(within_margin(&c, 0), vec!["d2d4"]);
        assert_eq!(within_margin(&c, 30), vec!["d2d4", "e2e4", "g1f3"]);
        assert_eq!(c.bestmove(), Some("d2d4"));
    }

    #[test]
    fn mates_rank_beyond_centipawns() {
        let c = feed(&[
            "info depth 9 multipv 1 score mate 2 pv h5f7",
            "info depth 9 multipv 2 score cp 900 pv d1h5",
            "info depth 9 multipv 3 score mate 3 pv f3f7",
            "bestmove h5f7",
        ]);
        assert_eq!(within_margin(&c, 50), vec!["h5f7", "f3f7"]);
        let losing = feed(&[
            "info depth 9 multipv 1 score cp -900 pv a2a3",
            "info depth 9 multipv 2 score mate -2 pv b2b3",
            "bestmove a2a3",
        ]);
        assert_eq!(within_margin(&losing, 50_000), vec!["a2a3"]);
    }

    #[test]
    fn without_scores_the_bestmove_stands_alone_and_junk_is_ignored() {
        let c = feed(&[
            "info multipv 99999 score cp 1 pv a2a3",
            "info depth 1 multipv 0 score cp 1 pv a2a4",
            "garbage",
            "bestmove e2e4",
        ]);
        assert_eq!(within_margin(&c, 10), vec!["e2e4"]);
    }
}
