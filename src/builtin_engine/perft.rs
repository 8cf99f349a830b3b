//! `go perft N`: the move path count, split by root move, in Stockfish's
//! form (`e2e4: 20` per root move, a blank line, `Nodes searched: N`).
//!
//! Counting is shakmaty's own move generator with bulk counting at the last
//! ply, so these numbers are shakmaty's by construction; what this adds is
//! the divide and a stop flag checked at every node above the last ply, so
//! that `stop` ends even `go perft 99` at once.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{CastlingMode, Chess, Position};

use super::moves::format_move;

/// Leaf count of the move tree of `pos` at `depth` (bulk-counted); `None`
/// when `stop` was raised.
pub fn count(pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    // One relaxed load per interior node: invisible beside move generation.
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += count(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// The divide lines for `pos` at `depth` (at least 1): one line per root
/// move, a blank line, the total. `None` when `stop` was raised.
pub fn divide(
    pos: &Chess,
    depth: u32,
    mode: CastlingMode,
    stop: &AtomicBool,
) -> Option<Vec<String>> {
    let depth = depth.max(1);
    let mut lines = Vec::new();
    let mut total = 0;
    for m in pos.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        let n = count(&child, depth - 1, stop)?;
        total += n;
        lines.push(format!("{}: {n}", format_move(m, mode)));
    }
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_of_the_start_position() {
        let lines = divide(
            &Chess::default(),
            2,
            CastlingMode::Standard,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(lines.len(), 22);
        assert!(lines.contains(&"e2e4: 20".to_string()));
        assert_eq!(lines[20], "");
        assert_eq!(lines[21], "Nodes searched: 400");
        assert_eq!(
            count(&Chess::default(), 3, &AtomicBool::new(false)),
            Some(shakmaty::perft(&Chess::default(), 3))
        );
    }

    #[test]
    fn a_raised_stop_ends_even_a_deep_perft() {
        let stop = AtomicBool::new(true);
        assert_eq!(count(&Chess::default(), 99, &stop), None);
        assert_eq!(
            divide(&Chess::default(), 99, CastlingMode::Standard, &stop),
            None
        );
    }
}
