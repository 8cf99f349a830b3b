//! Win/draw/loss rates of a book position and the `--draw-window` /
//! `--win-window` filters (the frameworks' "48–52 % draw rate" and "40–60 %
//! win rate" books).
//!
//! The rates are the engine's own when it offers `UCI_ShowWDL` (Stockfish,
//! Lc0, …: `info … wdl W D L`, per mille, side to move's view). Otherwise
//! they come from the score through **Stockfish 17.1's win-rate model**
//! (`src/uci.cpp`, `win_rate_params`/`win_rate_model`; the model that
//! selected fishtest's `DFRC_4852_v1.epd`): with `material` = pawns + 3 ×
//! minors + 5 × rooks + 9 × queens (both sides), clamped to 17..78 and
//! divided by 58 as `m`,
//!
//! ```text
//! a(m) = ((-13.50030198 m + 40.92780883) m - 36.82753545) m + 386.83004070
//! b(m) = ((96.53354896 m - 165.79058388) m + 90.89679019) m + 49.29561889
//! v    = cp × a / 100          (Stockfish's cp are v / a: 100 cp = 50 % win)
//! W    = ⌊0.5 + 1000 / (1 + e^((a − v) / b))⌋,  L = the same for −v,  D = 1000 − W − L
//! ```
//!
//! The engine's centipawns are taken as Stockfish's normalised ones (100 cp
//! = a 50 % chance to win); for other engines that is an approximation,
//! which is why the engine's own WDL is used whenever it has one. A mate
//! score is a certain win or loss. `exp` is libm's, so the rates are the
//! same on every platform.

use std::fmt;
use std::str::FromStr;

use shakmaty::{Chess, Color, Position, Role};

use crate::uci::Score;

/// Rates in per mille from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// Where a [`Wdl`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WdlSource {
    /// The engine's `info … wdl`.
    Engine,
    /// Stockfish 17.1's model of the score.
    Model,
    /// The `wdl` opcode of the book line it was read from.
    Stored,
}

impl Wdl {
    /// The rates Stockfish 17.1's model gives `score` in `pos`.
    pub fn model(score: Score, pos: &Chess) -> Wdl {
        match score {
            Score::Mate(n, _) if n > 0 => Wdl::new(1000, 0, 0),
            Score::Mate(..) => Wdl::new(0, 0, 1000),
            Score::Cp(cp, _) => {
                let (a, b) = params(material(pos));
                let v = cp as f64 * a / 100.0;
                let rate = |v: f64| (0.5 + 1000.0 / (1.0 + libm::exp((a - v) / b))) as u32;
                let (win, loss) = (rate(v).min(1000), rate(-v).min(1000));
                Wdl::new(win, 1000u32.saturating_sub(win + loss), loss)
            }
        }
    }

    fn new(win: u32, draw: u32, loss: u32) -> Wdl {
        Wdl { win, draw, loss }
    }

    /// The same rates from the other side's point of view.
    pub fn flipped(self) -> Wdl {
        Wdl::new(self.loss, self.draw, self.win)
    }

    /// From White's point of view, when `turn` is to move.
    pub fn seen_by_white(self, turn: Color) -> Wdl {
        match turn {
            Color::White => self,
            Color::Black => self.flipped(),
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

/// Stockfish's material count: both sides' pawns, 3 per minor, 5 per rook,
/// 9 per queen.
fn material(pos: &Chess) -> i32 {
    let board = pos.board();
    let count = |role: Role| board.by_role(role).count() as i32;
    count(Role::Pawn)
        + 3 * (count(Role::Knight) + count(Role::Bishop))
        + 5 * count(Role::Rook)
        + 9 * count(Role::Queen)
}

/// Stockfish 17.1's `win_rate_params`.
fn params(material: i32) -> (f64, f64) {
    const AS: [f64; 4] = [-13.50030198, 40.92780883, -36.82753545, 386.83004070];
    const BS: [f64; 4] = [96.53354896, -165.79058388, 90.89679019, 49.29561889];
    let m = f64::from(material.clamp(17, 78)) / 58.0;
    let a = ((AS[0] * m + AS[1]) * m + AS[2]) * m + AS[3];
    let b = ((BS[0] * m + BS[1]) * m + BS[2]) * m + BS[3];
    (a, b)
}

/// A window of rates, per mille, both bounds included: `0.48..0.52` or
/// `48%..52%`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateWindow {
    pub lo: u32,
    pub hi: u32,
}

/// Why a rate window was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rate window '{text}': {fault} (write A..B as fractions, e.g. 0.48..0.52, or 48%..52%)")]
pub struct RateWindowError {
    pub text: String,
    pub fault: &'static str,
}

impl FromStr for RateWindow {
    type Err = RateWindowError;

    fn from_str(s: &str) -> Result<RateWindow, RateWindowError> {
        let bad = |fault| RateWindowError {
            text: s.to_string(),
            fault,
        };
        let (a, b) = s.split_once("..").ok_or(bad("no '..'"))?;
        let rate = |t: &str| -> Result<u32, RateWindowError> {
            let t = t.trim();
            let (number, scale) = match t.strip_suffix('%') {
                Some(n) => (n.trim(), 10.0),
                None => (t, 1000.0),
            };
            let x: f64 = number.parse().map_err(|_| bad("a bound is not a number"))?;
            let per_mille = x * scale;
            if !(0.0..=1000.0).contains(&per_mille) {
                return Err(bad("a bound is outside 0..1 (0 %..100 %)"));
            }
            Ok(per_mille.round() as u32)
        };
        let (lo, hi) = (rate(a)?, rate(b)?);
        if lo > hi {
            return Err(bad("A is greater than B"));
        }
        Ok(RateWindow { lo, hi })
    }
}

impl RateWindow {
    pub fn contains(&self, per_mille: u32) -> bool {
        (self.lo..=self.hi).contains(&per_mille)
    }
}

impl fmt::Display for RateWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}..{}",
            self.lo as f64 / 1000.0,
            self.hi as f64 / 1000.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::uci::ScoreBound;

    fn start() -> Chess {
        parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap()
    }

    #[test]
    fn the_model_is_stockfish_17_1s() {
        // Full material is 78: m = 78/58. Values computed by hand from the
        // formula in the module docs (and by Python in the integration test).
        let cp = |c| Wdl::model(Score::Cp(c, ScoreBound::Exact), &start());
        let even = cp(0);
        assert_eq!(even.win, even.loss);
        assert_eq!(even.win + even.draw + even.loss, 1000);
        // 100 cp is a 50 % win at any material (Stockfish's normalisation).
        assert_eq!(cp(100).win, 500);
        let bare = parse_position("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(
            Wdl::model(Score::Cp(100, ScoreBound::Exact), &bare).win,
            500
        );
        assert!(cp(50).win < 500 && cp(50).win > cp(0).win);
        assert_eq!(cp(-40), cp(40).flipped());
        assert_eq!(
            Wdl::model(Score::Mate(3, ScoreBound::Exact), &start()),
            Wdl::new(1000, 0, 0)
        );
        assert_eq!(
            Wdl::model(Score::Mate(-2, ScoreBound::Exact), &start()),
            Wdl::new(0, 0, 1000)
        );
        assert_eq!(material(&start()), 78);
        // Values computed from the module docs' formula by Python.
        assert_eq!(cp(0), Wdl::new(28, 944, 28));
        assert_eq!(cp(50), Wdl::new(145, 850, 5));
        assert_eq!(cp(-120), Wdl::new(0, 329, 671));
    }

    #[test]
    fn windows_read_fractions_and_percentages() {
        assert_eq!(
            "0.48..0.52".parse::<RateWindow>(),
            Ok(RateWindow { lo: 480, hi: 520 })
        );
        assert_eq!(
            "40%..60%".parse::<RateWindow>(),
            Ok(RateWindow { lo: 400, hi: 600 })
        );
        assert!("0.6..0.4".parse::<RateWindow>().is_err());
        assert!("48..52".parse::<RateWindow>().is_err());
        assert!("x..1".parse::<RateWindow>().is_err());
        assert!("0.5".parse::<RateWindow>().is_err());
        let w = RateWindow { lo: 480, hi: 520 };
        assert!(w.contains(480) && w.contains(520) && !w.contains(521));
    }
}
