//! The time manager: turns a `go` command's clock fields into a soft budget
//! (don't start another iteration after it) and a hard one (abort at it).
//!
//! Classic and deliberately plain: spend the remaining time divided by the
//! moves to go (30 when the GUI doesn't say) plus most of the increment,
//! allow an iteration to run up to four times that, never more than a third
//! of the clock, and keep a safety margin for process and pipe latency.

use std::time::Duration;

use shakmaty::Color;

use crate::uci::GoParams;

/// The clock fields of a `go` command, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoClock {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub movetime: Option<u64>,
}

/// Soft and hard limits for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

/// What the engine keeps back for reading, writing and process scheduling.
const OVERHEAD_MS: u64 = 20;
/// Moves to plan for when the GUI gives no `movestogo`.
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl GoClock {
    /// The clock fields of a parsed `go`. Negative times (some GUIs send
    /// them once a flag has fallen) count as zero.
    pub fn from_go(go: &GoParams) -> GoClock {
        let ms = |t: Option<i64>| t.map(|t| t.max(0).unsigned_abs());
        GoClock {
            wtime: ms(go.wtime),
            btime: ms(go.btime),
            winc: ms(go.winc),
            binc: ms(go.binc),
            movestogo: go.movestogo.map(u64::from),
            movetime: ms(go.movetime),
        }
    }

    /// The budget for `side`, or `None` when the command sets no clock.
    pub fn budget(&self, side: Color) -> Option<Budget> {
        if let Some(mt) = self.movetime {
            // A fixed time per move: use it all, less the margin.
            let t = Duration::from_millis(mt.saturating_sub(OVERHEAD_MS / 2).max(1));
            return Some(Budget { soft: t, hard: t });
        }
        // A clock for the other side only still means the game is timed:
        // plan with that one rather than think forever.
        let (time, inc) = match side {
            Color::White => (self.wtime.or(self.btime)?, self.winc.unwrap_or(0)),
            Color::Black => (self.btime.or(self.wtime)?, self.binc.unwrap_or(0)),
        };
        let left = time.saturating_sub(OVERHEAD_MS).max(1);
        let mtg = self.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 60);
        let share = left / mtg + inc * 3 / 4;
        let cap = if mtg == 1 { left } else { left / 3 };
        let soft = share.min(cap).max(1);
        let hard = (soft * 4).min(cap).max(soft);
        Some(Budget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(b: Budget) -> (u128, u128) {
        (b.soft.as_millis(), b.hard.as_millis())
    }

    #[test]
    fn from_go_reads_the_clock_fields_negative_as_zero() {
        let go = GoParams::parse("go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3");
        let c = GoClock::from_go(&go);
        assert_eq!(
            c,
            GoClock {
                wtime: Some(1000),
                btime: Some(0),
                winc: Some(10),
                binc: Some(20),
                movestogo: Some(7),
                movetime: None,
            }
        );
        assert_eq!(
            GoClock::from_go(&GoParams::parse("go movetime -1")).movetime,
            Some(0)
        );
        assert_eq!(GoClock::from_go(&GoParams::depth(3)), GoClock::default());
    }

    #[test]
    fn plans_for_the_side_to_move() {
        let c = GoClock {
            wtime: Some(60_020),
            btime: Some(1_000),
            winc: Some(1_000),
            ..GoClock::default()
        };
        assert_eq!(ms(c.budget(Color::White).unwrap()), (2_750, 11_000));
        let (soft, hard) = ms(c.budget(Color::Black).unwrap());
        assert!(soft < 100 && hard <= 327, "{soft} {hard}");
    }

    #[test]
    fn never_more_than_the_clock() {
        let c = GoClock {
            wtime: Some(5),
            winc: Some(10_000),
            movestogo: Some(1),
            ..GoClock::default()
        };
        let b = c.budget(Color::White).unwrap();
        assert!(b.hard <= Duration::from_millis(5));
    }

    #[test]
    fn movetime_and_no_clock() {
        let c = GoClock {
            movetime: Some(100),
            ..GoClock::default()
        };
        assert_eq!(ms(c.budget(Color::Black).unwrap()), (90, 90));
        assert!(GoClock::default().budget(Color::White).is_none());
        let only_black = GoClock {
            btime: Some(3_000),
            ..GoClock::default()
        };
        assert!(only_black.budget(Color::White).is_some());
    }
}
