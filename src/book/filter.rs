//! Which lines a book keeps: the rules (no checkmate, no stalemate, no
//! check with `--no-check`) and the engine's evaluation window
//! (`--eval-window A..B`), with the tally of what was dropped and why.
//!
//! The window is in centipawns, bounds included, from White's point of
//! view by default (`--eval-view white`: a window like `50..150` then
//! means "White is better", the UHO idea) or from the side to move's
//! (`--eval-view stm`). A mate score is outside every window: a book line
//! should not be decided already. The rate windows (`--draw-window`,
//! `--win-window`) are in [`super::wdl`].

use std::fmt;
use std::str::FromStr;

use shakmaty::{Chess, Color, Position};

use super::wdl::{RateWindow, Wdl, WdlSource};
use crate::keyword::Keyword;
use crate::uci::Score;

/// `A..B` centipawns, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWindow {
    pub lo: i64,
    pub hi: i64,
}

/// Why an evaluation window was refused (the command layer names the
/// setting: `--eval-window 'a..b': ...`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{text}': {fault} (write A..B in centipawns, e.g. -50..50)")]
pub struct EvalWindowError {
    pub text: String,
    pub fault: WindowFault,
}

/// What is wrong with an `--eval-window` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WindowFault {
    #[error("no '..'")]
    NoDots,
    /// `A` or `B`.
    #[error("{0} is not a whole number")]
    NotANumber(char),
    #[error("A is greater than B")]
    Reversed,
    #[error("beyond ±100000")]
    TooFar,
}

impl FromStr for EvalWindow {
    type Err = EvalWindowError;

    fn from_str(s: &str) -> Result<EvalWindow, EvalWindowError> {
        let bad = |fault| EvalWindowError {
            text: s.to_string(),
            fault,
        };
        let (a, b) = s.split_once("..").ok_or(bad(WindowFault::NoDots))?;
        let bound = |t: &str, name| {
            t.trim()
                .parse::<i64>()
                .map_err(|_| bad(WindowFault::NotANumber(name)))
        };
        let (lo, hi) = (bound(a, 'A')?, bound(b, 'B')?);
        if lo > hi {
            return Err(bad(WindowFault::Reversed));
        }
        if lo.unsigned_abs() > 100_000 || hi.unsigned_abs() > 100_000 {
            return Err(bad(WindowFault::TooFar));
        }
        Ok(EvalWindow { lo, hi })
    }
}

impl fmt::Display for EvalWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.lo, self.hi)
    }
}

/// Whose point of view the window takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalView {
    /// Positive: White is better (the default).
    #[default]
    White,
    /// Positive: the side to move is better.
    Stm,
}

impl Keyword for EvalView {
    const WHAT: &'static str = "evaluation view";
    const WORDS: &'static [(EvalView, &'static str, &'static str)] = &[
        (
            EvalView::White,
            "white",
            "Positive: White is better (the default)",
        ),
        (EvalView::Stm, "stm", "Positive: the side to move is better"),
    ];
}

/// An engine's evaluation of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    /// From the side to move's point of view, as UCI reports it.
    pub score: Score,
    pub depth: Option<u32>,
    pub turn: Color,
    /// Win/draw/loss rates, side to move's view: the engine's
    /// (`UCI_ShowWDL`) or the model's of `score` ([`super::wdl`]).
    pub wdl: Wdl,
    pub wdl_source: WdlSource,
}

impl Eval {
    /// Centipawns from the chosen point of view; `None` for a mate score.
    pub fn cp(&self, view: EvalView) -> Option<i64> {
        match self.score {
            Score::Cp(cp, _) => Some(match (view, self.turn) {
                (EvalView::White, Color::Black) => -cp,
                _ => cp,
            }),
            Score::Mate(..) => None,
        }
    }
}

impl EvalWindow {
    pub fn contains(&self, eval: &Eval, view: EvalView) -> bool {
        eval.cp(view)
            .is_some_and(|cp| (self.lo..=self.hi).contains(&cp))
    }
}

impl Eval {
    /// The rates from the chosen point of view.
    pub fn wdl(&self, view: EvalView) -> Wdl {
        match view {
            EvalView::White => self.wdl.seen_by_white(self.turn),
            EvalView::Stm => self.wdl,
        }
    }
}

/// Every window a book line must lie in: centipawns (`--eval-window`),
/// draw rate (`--draw-window`) and win rate (`--win-window`, of the side
/// `--eval-view` names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Windows {
    pub eval: Option<EvalWindow>,
    pub draw: Option<RateWindow>,
    pub win: Option<RateWindow>,
}

impl Windows {
    /// Whether any window is set (then every line is evaluated).
    pub fn any(&self) -> bool {
        self.eval.is_some() || self.draw.is_some() || self.win.is_some()
    }

    /// Whether `eval` lies in every window that is set.
    pub fn contain(&self, eval: &Eval, view: EvalView) -> bool {
        let wdl = eval.wdl(view);
        self.eval.is_none_or(|w| w.contains(eval, view))
            && self.draw.is_none_or(|w| w.contains(wdl.draw))
            && self.win.is_none_or(|w| w.contains(wdl.win))
    }
}

/// Why a candidate line is not in the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The line ended in checkmate (at its last ply or before).
    Checkmate,
    /// The line ended in stalemate.
    Stalemate,
    /// The side to move is in check (`--no-check`).
    Check,
    /// An earlier line reached the same position.
    Duplicate,
    /// The engine's evaluation is outside `--eval-window`.
    Window,
}

/// The rules' verdict on a line's last position: `None` keeps it.
pub fn rules_verdict(pos: &Chess, no_check: bool) -> Option<DropReason> {
    let in_check = pos.is_check();
    if pos.legal_moves().is_empty() {
        return Some(if in_check {
            DropReason::Checkmate
        } else {
            DropReason::Stalemate
        });
    }
    (no_check && in_check).then_some(DropReason::Check)
}

/// Lines looked at, kept, and dropped by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub candidates: u64,
    pub kept: u64,
    pub checkmate: u64,
    pub stalemate: u64,
    pub check: u64,
    pub duplicate: u64,
    pub window: u64,
    /// Evaluated lines whose win/draw/loss rates came from the engine, from
    /// the model, or from the book line's `wdl` opcode.
    pub wdl_engine: u64,
    pub wdl_model: u64,
    pub wdl_stored: u64,
}

impl Tally {
    pub fn drop(&mut self, reason: DropReason) {
        *match reason {
            DropReason::Checkmate => &mut self.checkmate,
            DropReason::Stalemate => &mut self.stalemate,
            DropReason::Check => &mut self.check,
            DropReason::Duplicate => &mut self.duplicate,
            DropReason::Window => &mut self.window,
        } += 1;
    }

    pub fn dropped(&self) -> u64 {
        self.checkmate + self.stalemate + self.check + self.duplicate + self.window
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} lines: kept {}, dropped {} (duplicate {}, outside the eval window {}, checkmate {}, stalemate {}, in check {})",
            self.candidates,
            self.kept,
            self.dropped(),
            self.duplicate,
            self.window,
            self.checkmate,
            self.stalemate,
            self.check
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::uci::ScoreBound;

    #[test]
    fn window_parses_negative_bounds() {
        assert_eq!(
            "-50..50".parse::<EvalWindow>().unwrap(),
            EvalWindow { lo: -50, hi: 50 }
        );
        assert!("50..-50".parse::<EvalWindow>().is_err());
        assert!("-50".parse::<EvalWindow>().is_err());
        let err = "a..b".parse::<EvalWindow>().unwrap_err();
        assert_eq!(err.fault, WindowFault::NotANumber('A'));
        assert!(err.to_string().starts_with("'a..b': A is not"));
    }

    #[test]
    fn views_flip_for_black_and_mates_are_outside() {
        let w = EvalWindow { lo: 20, hi: 100 };
        let black_worse = Eval {
            score: Score::Cp(-60, ScoreBound::Exact),
            depth: Some(10),
            turn: Color::Black,
            wdl: Wdl {
                win: 100,
                draw: 700,
                loss: 200,
            },
            wdl_source: WdlSource::Engine,
        };
        assert_eq!(black_worse.cp(EvalView::White), Some(60));
        assert!(w.contains(&black_worse, EvalView::White));
        assert!(!w.contains(&black_worse, EvalView::Stm));
        let mate = Eval {
            score: Score::Mate(3, ScoreBound::Exact),
            ..black_worse
        };
        assert!(
            !EvalWindow {
                lo: -100_000,
                hi: 100_000
            }
            .contains(&mate, EvalView::Stm)
        );
        // Rate windows: the draw rate is the same for both; the win rate is
        // White's (Black to move, loss 200) or the side to move's (100).
        let draw = Windows {
            draw: Some(RateWindow { lo: 650, hi: 700 }),
            ..Windows::default()
        };
        assert!(draw.contain(&black_worse, EvalView::White));
        let white_wins = Windows {
            win: Some(RateWindow { lo: 150, hi: 250 }),
            ..Windows::default()
        };
        assert!(white_wins.contain(&black_worse, EvalView::White));
        assert!(!white_wins.contain(&black_worse, EvalView::Stm));
        assert!(Windows::default().contain(&black_worse, EvalView::Stm));
    }

    #[test]
    fn rules_drop_mate_stalemate_and_check_when_asked() {
        let mate = parse_position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
            .unwrap();
        assert_eq!(rules_verdict(&mate, false), Some(DropReason::Checkmate));
        let stale = parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(rules_verdict(&stale, false), Some(DropReason::Stalemate));
        let check = parse_position("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1").unwrap();
        assert_eq!(rules_verdict(&check, false), None);
        assert_eq!(rules_verdict(&check, true), Some(DropReason::Check));
    }
}
