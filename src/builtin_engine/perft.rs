//! `go perft N`: the move path count, split by root move, in Stockfish's
//! form (`e2e4: 20` per root move, a blank line, `Nodes searched: N`).
//!
//! Counting is shakmaty's own move generator with bulk counting at the last
//! ply, so these numbers are shakmaty's by construction; what this adds is
//! the divide and a stop flag checked between root moves.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{CastlingMode, Chess, Position};

use super::moves::format_move;

/// Leaf count of the move tree of `pos` at `depth` (bulk-counted).
pub fn count(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            count(&child, depth - 1)
        })
        .sum()
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
        let n = count(&child, depth - 1);
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
            count(&Chess::default(), 3),
            shakmaty::perft(&Chess::default(), 3)
        );
    }
}
