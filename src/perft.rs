//! Perft divide, from shakmaty's move generator: the reference count per
//! root move that the built-in engine answers `go perft N` with and the
//! conformance suite compares engines against.
//!
//! ```
//! use shakmaty::Chess;
//! use uci960::perft::divide;
//! let counts: Vec<u64> = divide(&Chess::default(), 2).map(|(_, n)| n).collect();
//! assert_eq!(counts.len(), 20);
//! assert_eq!(counts.iter().sum::<u64>(), 400);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position, perft};

/// Each legal move of `pos` with the number of move paths of length
/// `depth` that start with it (so depth 1 gives 1 per move), in shakmaty's
/// generation order. Lazy: a caller can stop between root moves.
pub fn divide(pos: &Chess, depth: u32) -> impl Iterator<Item = (Move, u64)> + '_ {
    pos.legal_moves().into_iter().map(move |m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        (m, perft(&child, depth.saturating_sub(1)))
    })
}

/// [`shakmaty::perft`] that can be stopped: `None` once `stop` is raised.
/// The flag is read at every node above the last ply (the last ply is
/// bulk-counted), so even a depth of 99 ends at once; one relaxed load per
/// interior node costs nothing beside move generation.
pub fn perft_until(pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft_until(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// [`divide`] that can be stopped: each count is `None` once `stop` is
/// raised.
pub fn divide_until<'a>(
    pos: &'a Chess,
    depth: u32,
    stop: &'a AtomicBool,
) -> impl Iterator<Item = (Move, Option<u64>)> + 'a {
    pos.legal_moves().into_iter().map(move |m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        (m, perft_until(&child, depth.saturating_sub(1), stop))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    #[test]
    fn divide_sums_to_perft_in_a_chess960_position() {
        // Kiwipete-like castling geometry in a Chess960 start (SP 0).
        let pos =
            parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        for depth in 1..=3 {
            let total: u64 = divide(&pos, depth).map(|(_, n)| n).sum();
            assert_eq!(total, perft(&pos, depth), "depth {depth}");
        }
        assert!(divide(&pos, 1).all(|(_, n)| n == 1));
    }

    #[test]
    fn a_raised_stop_ends_even_a_deep_perft() {
        let start = Chess::default();
        assert_eq!(
            perft_until(&start, 4, &AtomicBool::new(false)),
            Some(perft(&start, 4))
        );
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&start, 99, &stop), None);
        assert!(divide_until(&start, 99, &stop).all(|(_, n)| n.is_none()));
    }
}
