//! The positions the perft checks run on: the 960 start positions, the
//! reference middle-game set (Ethereal's `fischer.epd`, embedded in the
//! binary) and Double Fischer Random pairs whose rook files differ between
//! White and Black.

use shakmaty::Chess;

use crate::notation::fen::parse_position;
use crate::start::{BackRank, POSITIONS, StartPosition};

/// A position with a short label for reports.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub label: String,
    pub position: Chess,
}

/// SP 0..959.
pub fn start_positions() -> Vec<Labelled> {
    (0..u32::from(POSITIONS))
        .filter_map(|sp| {
            let start = StartPosition::from_sp(sp).ok()?;
            Some(Labelled {
                label: format!("SP {sp}"),
                position: start.to_chess(),
            })
        })
        .collect()
}

const MIDGAME_EPD: &str = include_str!("../../tests/data/chess960-midgame-perft.epd");

/// The reference middle-game set (960 positions). The file is part of the
/// binary, so a line that does not parse is a build defect; it is skipped
/// rather than aborting the suite, and a unit test keeps the count at 960.
pub fn midgame_positions() -> Vec<Labelled> {
    MIDGAME_EPD
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let fen = line.split(';').next()?.trim();
            let position = parse_position(fen).ok()?;
            Some(Labelled {
                label: format!("fischer.epd line {}", i + 1),
                position,
            })
        })
        .collect()
}

/// `count` DFRC pairs chosen by a fixed stride through the 921,600 pairs,
/// keeping only pairs whose rook files differ between the colours.
pub fn dfrc_positions(count: usize) -> Vec<Labelled> {
    let n = u64::from(POSITIONS);
    let total = n * n;
    // A stride coprime with 921,600 walks all pairs without repeating.
    let stride: u64 = 7_919 * 13;
    let mut out = Vec::new();
    let mut index: u64 = 12_345;
    let mut steps = 0;
    while out.len() < count && steps < total {
        steps += 1;
        index = (index + stride) % total;
        let (w, b) = ((index / n) as u32, (index % n) as u32);
        let (Ok(wr), Ok(br)) = (BackRank::from_sp(w), BackRank::from_sp(b)) else {
            continue;
        };
        if wr.rook_files() == br.rook_files() {
            continue;
        }
        if let Ok(start) = StartPosition::from_sp_pair(w, b) {
            out.push(Labelled {
                label: format!("DFRC {}", start.sp_label()),
                position: start.to_chess(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_have_the_expected_sizes() {
        assert_eq!(start_positions().len(), 960);
        assert_eq!(midgame_positions().len(), 960);
        let dfrc = dfrc_positions(50);
        assert_eq!(dfrc.len(), 50);
        let mut labels: Vec<_> = dfrc.iter().map(|l| l.label.clone()).collect();
        labels.sort();
        labels.dedup();
        assert_eq!(labels.len(), 50);
    }
}
