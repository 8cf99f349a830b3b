//! Search limits and clocks.
//!
//! A limit is what an engine is told in `go`: a time control
//! (`tc=moves/base+inc`, cutechess-cli syntax, base as seconds or `m:ss`),
//! a fixed time per move (`st=`), a node count (`nodes=`) or a depth
//! (`depth=`); `nodes`/`depth` may be combined with a time limit. A clock is
//! measured by the runner from writing `go` to reading `bestmove` with a
//! monotonic clock; an engine over its time by more than the margin loses on
//! time (cutechess-cli's `timemargin`, fastchess's `timemargin`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use shakmaty::Color;

use crate::seconds::SecondsError;

/// `moves/base+inc`: `moves` moves in `base`, plus `inc` per move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeControl {
    /// Moves per period; `None` = the whole game (sudden death or Fischer).
    pub moves: Option<u32>,
    pub base: Duration,
    pub inc: Duration,
}

/// Why a text is not a time control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "time control '{text}': {reason} (expected [moves/]seconds[+increment], e.g. 40/60+0.6 or 10+0.1)"
)]
pub struct TimeControlError {
    pub text: String,
    pub reason: TimeControlFault,
}

/// What is wrong in a time control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlFault {
    #[error("moves per period is not a number")]
    MovesNotANumber,
    #[error("moves per period must be at least 1")]
    ZeroMoves,
    #[error("base time {0}")]
    Base(SecondsError),
    #[error("increment {0}")]
    Increment(SecondsError),
    #[error("no time at all")]
    NoTime,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = |reason| TimeControlError {
            text: s.to_string(),
            reason,
        };
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => {
                let n: u32 = m
                    .parse()
                    .map_err(|_| bad(TimeControlFault::MovesNotANumber))?;
                if n == 0 {
                    return Err(bad(TimeControlFault::ZeroMoves));
                }
                (Some(n), rest)
            }
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = crate::seconds::parse(base).map_err(|e| bad(TimeControlFault::Base(e)))?;
        let inc = match inc {
            Some(i) => crate::seconds::parse(i).map_err(|e| bad(TimeControlFault::Increment(e)))?,
            None => Duration::ZERO,
        };
        if base.is_zero() && inc.is_zero() {
            return Err(bad(TimeControlFault::NoTime));
        }
        Ok(TimeControl { moves, base, inc })
    }
}

/// Seconds as `12`, `0.5` or `1:30` (minutes:seconds), checked by
/// [`crate::seconds::parse`].
pub fn parse_seconds(s: &str) -> Option<Duration> {
    crate::seconds::parse(s).ok()
}

fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", d.as_secs_f64());
        s.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `40/60+0.6`, `10+0.1`, `300`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base))?;
        if !self.inc.is_zero() {
            write!(f, "+{}", secs(self.inc))?;
        }
        Ok(())
    }
}

/// What one engine is told to search with.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    pub tc: Option<TimeControl>,
    /// Fixed time per move (`go movetime`).
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl Limits {
    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }

    /// Whether the engine can lose on time.
    pub fn is_timed(&self) -> bool {
        self.tc.is_some() || self.movetime.is_some()
    }

    /// The PGN `TimeControl` tag as cutechess-cli writes it (its
    /// `TimeControl::toString`): `40/60+0.6`, `0.5/move` for fixed time,
    /// `inf` without a clock (node and depth limits are not time: see
    /// [`Limits::search_tag`]).
    pub fn pgn_tag(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(tc.to_string());
        }
        if let Some(st) = self.movetime {
            parts.push(format!("{}/move", secs(st)));
        }
        if parts.is_empty() {
            "inf".to_string()
        } else {
            parts.join(", ")
        }
    }

    /// Node and depth limits (`nodes=1000, depth=8`), for a PGN tag of
    /// their own; `None` without them.
    pub fn search_tag(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// One side's clock under a time control.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    limits: Limits,
    /// Time left on the clock (only with a time control).
    remaining: Duration,
    /// Moves played by this side.
    moves_made: u32,
}

/// The side ran out of time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Flagged {
    pub used: Duration,
    pub allowed: Duration,
}

impl Clock {
    pub fn new(limits: Limits) -> Clock {
        Clock {
            limits,
            remaining: limits.tc.map(|tc| tc.base).unwrap_or(Duration::ZERO),
            moves_made: 0,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Moves left in this period (`movestogo`), with a periodic time control.
    pub fn moves_to_go(&self) -> Option<u32> {
        let per = self.limits.tc?.moves?;
        Some(per - self.moves_made % per)
    }

    /// How long the engine may think on this move before it has lost on
    /// time, margin excluded; `None` when untimed.
    pub fn allowed(&self) -> Option<Duration> {
        match (self.limits.tc, self.limits.movetime) {
            (Some(_), Some(st)) => Some(st.min(self.remaining)),
            (Some(_), None) => Some(self.remaining),
            (None, Some(st)) => Some(st),
            (None, None) => None,
        }
    }

    /// Charges `used` to this clock after a move: a flag when it exceeded
    /// the allowance by more than `margin`; otherwise the increment is added
    /// and, at the end of a period, the base time again.
    pub fn stop(&mut self, used: Duration, margin: Duration) -> Result<(), Flagged> {
        if let Some(allowed) = self.allowed()
            && used > allowed + margin
        {
            return Err(Flagged { used, allowed });
        }
        if let Some(tc) = self.limits.tc {
            self.remaining = self.remaining.saturating_sub(used) + tc.inc;
            self.moves_made += 1;
            if let Some(per) = tc.moves
                && self.moves_made.is_multiple_of(per)
            {
                self.remaining += tc.base;
            }
        }
        Ok(())
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// The `go` command for the side to move, given both clocks.
pub fn go_command(white: &Clock, black: &Clock, turn: Color) -> String {
    let mover = match turn {
        Color::White => white,
        Color::Black => black,
    };
    let l = mover.limits;
    let mut go = String::from("go");
    if l.tc.is_some() {
        // Both clocks, as a GUI sends them; the opponent's may be untimed.
        for (name, c) in [("w", white), ("b", black)] {
            if let Some(tc) = c.limits.tc {
                go += &format!(" {name}time {} {name}inc {}", ms(c.remaining), ms(tc.inc));
            }
        }
        if let Some(mtg) = mover.moves_to_go() {
            go += &format!(" movestogo {mtg}");
        }
    }
    if let Some(st) = l.movetime {
        go += &format!(" movetime {}", ms(st));
    }
    if let Some(n) = l.nodes {
        go += &format!(" nodes {n}");
    }
    if let Some(d) = l.depth {
        go += &format!(" depth {d}");
    }
    if go == "go" {
        // Nothing to limit the search: a GUI would never send bare `go`
        // (infinite on many engines); one second per move instead.
        go += " movetime 1000";
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn parses_cutechess_time_controls() {
        let tc: TimeControl = "40/10+0.1".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base: d(10_000),
                inc: d(100)
            }
        );
        assert_eq!(tc.to_string(), "40/10+0.1");
        let tc: TimeControl = "1:30+1".parse().unwrap();
        assert_eq!(tc.base, d(90_000));
        assert_eq!(tc.to_string(), "90+1");
        assert_eq!("0.5".parse::<TimeControl>().unwrap().to_string(), "0.5");
        for bad in ["", "x", "0/10", "10+y", "0", "-1", "40/"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fischer_clock_adds_increment_and_flags_past_the_margin() {
        let limits = Limits {
            tc: Some("10+0.1".parse().unwrap()),
            ..Limits::default()
        };
        let mut c = Clock::new(limits);
        // 10 s - 2.5 s + 0.1 s = 7.6 s
        c.stop(d(2500), d(50)).unwrap();
        assert_eq!(c.remaining(), d(7600));
        assert_eq!(c.moves_to_go(), None);
        // 7.6 s allowed + 0.05 s margin: 7.64 s is fine, 7.66 s flags.
        let mut copy = c;
        assert!(copy.stop(d(7640), d(50)).is_ok());
        assert_eq!(
            c.stop(d(7660), d(50)),
            Err(Flagged {
                used: d(7660),
                allowed: d(7600)
            })
        );
    }

    #[test]
    fn periodic_clock_refills_after_the_period() {
        let limits = Limits {
            tc: Some("2/10".parse().unwrap()),
            ..Limits::default()
        };
        let mut c = Clock::new(limits);
        assert_eq!(c.moves_to_go(), Some(2));
        c.stop(d(3000), d(0)).unwrap();
        assert_eq!(c.moves_to_go(), Some(1));
        c.stop(d(3000), d(0)).unwrap();
        // 10 - 3 - 3 + 10
        assert_eq!(c.remaining(), d(14_000));
        assert_eq!(c.moves_to_go(), Some(2));
    }

    #[test]
    fn movetime_and_untimed_limits() {
        let mut st = Clock::new(Limits {
            movetime: Some(d(200)),
            ..Limits::default()
        });
        assert!(st.stop(d(240), d(50)).is_ok());
        assert!(st.stop(d(260), d(50)).is_err());
        let mut nodes = Clock::new(Limits {
            nodes: Some(1000),
            ..Limits::default()
        });
        assert!(nodes.stop(d(99_000), d(0)).is_ok());
    }

    #[test]
    fn go_commands_carry_both_clocks_and_limits() {
        let tc = Limits {
            tc: Some("40/10+0.1".parse().unwrap()),
            ..Limits::default()
        };
        let w = Clock::new(tc);
        let b = Clock::new(tc);
        assert_eq!(
            go_command(&w, &b, Color::Black),
            "go wtime 10000 winc 100 btime 10000 binc 100 movestogo 40"
        );
        let n = Clock::new(Limits {
            nodes: Some(1000),
            depth: Some(5),
            ..Limits::default()
        });
        assert_eq!(go_command(&n, &w, Color::White), "go nodes 1000 depth 5");
        let st = Clock::new(Limits {
            movetime: Some(d(500)),
            ..Limits::default()
        });
        assert_eq!(go_command(&st, &st, Color::White), "go movetime 500");
        let none = Clock::new(Limits::default());
        assert_eq!(go_command(&none, &none, Color::White), "go movetime 1000");
    }

    #[test]
    fn pgn_tags() {
        assert_eq!(
            Limits {
                tc: Some("40/60+0.6".parse().unwrap()),
                ..Limits::default()
            }
            .pgn_tag(),
            "40/60+0.6"
        );
        assert_eq!(
            Limits {
                movetime: Some(d(500)),
                ..Limits::default()
            }
            .pgn_tag(),
            "0.5/move"
        );
        assert_eq!(
            Limits {
                nodes: Some(1000),
                ..Limits::default()
            }
            .search_tag()
            .as_deref(),
            Some("nodes=1000")
        );
        assert_eq!(Limits::default().pgn_tag(), "inf");
        assert_eq!(Limits::default().search_tag(), None);
    }
}
