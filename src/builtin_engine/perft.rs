//! `go perft N`: the move path count, split by root move, in Stockfish's
//! form (`e2e4: 20` per root move, a blank line, `Nodes searched: N`).
//!
//! The counts are [`crate::perft::divide_until`], shakmaty's by
//! construction; what this adds is the text form. The stop flag is checked
//! at every node above the last ply, so `stop` ends even `go perft 99`.

use std::sync::atomic::AtomicBool;

use shakmaty::{CastlingMode, Chess};

use super::moves::format_move;
use crate::perft;

/// The divide lines for `pos` at `depth` (at least 1): one line per root
/// move, a blank line, the total. `None` when `stop` was raised.
pub fn divide(
    pos: &Chess,
    depth: u32,
    mode: CastlingMode,
    stop: &AtomicBool,
) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    let mut total = 0;
    for (m, n) in perft::divide_until(pos, depth.max(1), stop) {
        let n = n?;
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
    }
}
