//! Exact distributions of the set-up methods, and a Monte Carlo check.
//!
//! [`exact`] walks a method's state machine ([`Procedure`]) through every
//! outcome of every event with exact rational probabilities: no sampling.
//! Two kinds of loop are folded analytically instead of walked:
//! * "again" outcomes (a die throw of 5, a bishop put back) leave the state
//!   as it was, so the other outcomes of that event share the probability
//!   renormalised by the non-again weight, and the event takes
//!   `T / (T − a)` throws on average (a geometric number of tries);
//! * a restart begins an identical independent attempt, so with `r` the
//!   probability that one attempt restarts, every position's probability is
//!   its one-attempt probability divided by `1 − r`, and by Wald's identity
//!   the expected number of events is one attempt's expectation divided by
//!   `1 − r`.
//!
//! For `dfrc`, the distribution reported is that of one side's rank (White's;
//! Black's is independent with the same law).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::POSITIONS;
use super::method::RandomMethod;
use super::method::procedure::{DrawState, Procedure, Transition};
use super::method::uniform::Uniform;

/// A method's exact law.
#[derive(Clone, Debug)]
pub struct Exact {
    /// Probability of each SP (White's rank), index = SP.
    pub by_sp: Vec<BigRational>,
    /// Expected number of random events (throws, draws, numbers), repeats
    /// and restarts included.
    pub expected_events: BigRational,
    /// Probability that one attempt ends in a restart.
    pub restart_probability: BigRational,
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

struct Walk<'a> {
    procedure: &'a dyn Procedure,
    one_attempt: Vec<BigRational>,
    restart: BigRational,
}

impl Walk<'_> {
    /// Adds the leaves under `state` (reached with probability `p`) and
    /// returns the expected number of events from `state` to the end of the
    /// attempt.
    fn explore(&mut self, state: &DrawState, p: &BigRational) -> BigRational {
        let Some(event) = self.procedure.event(state) else {
            let (position, _) = self.procedure.finish(state);
            let sp = usize::from(position.white.sp());
            self.one_attempt[sp] += p;
            return BigRational::zero();
        };
        let total = u64::from(event.total_weight());
        let outcomes: Vec<(u32, Transition, DrawState)> = event
            .options()
            .map(|(label, weight)| {
                let mut next = *state;
                let transition = self.procedure.apply(&mut next, label);
                (weight, transition, next)
            })
            .collect();
        let again: u64 = outcomes
            .iter()
            .filter(|(_, t, _)| matches!(t, Transition::Again))
            .map(|(w, _, _)| u64::from(*w))
            .sum();
        let moving = total - again;
        let mut expected = ratio(total, moving);
        for (weight, transition, next) in outcomes {
            let share = ratio(u64::from(weight), moving);
            match transition {
                Transition::Again => {}
                Transition::Restart => self.restart += p * &share,
                Transition::Continue => {
                    let below = self.explore(&next, &(p * &share));
                    expected += share * below;
                }
            }
        }
        expected
    }
}

/// The exact law of a random procedure.
pub fn exact(procedure: &dyn Procedure) -> Exact {
    let mut walk = Walk {
        procedure,
        one_attempt: vec![BigRational::zero(); usize::from(POSITIONS)],
        restart: BigRational::zero(),
    };
    let start = procedure.start();
    let events_once = walk.explore(&start, &BigRational::one());
    let keep = BigRational::one() - &walk.restart;
    Exact {
        by_sp: walk.one_attempt.iter().map(|p| p / &keep).collect(),
        expected_events: events_once / &keep,
        restart_probability: walk.restart,
    }
}

/// The exact law of a fixed list: each number's share of the list.
pub fn exact_of_list(numbers: &[u16]) -> Exact {
    let mut by_sp = vec![BigRational::zero(); usize::from(POSITIONS)];
    for &n in numbers {
        by_sp[usize::from(n)] += ratio(1, numbers.len() as u64);
    }
    Exact {
        by_sp,
        expected_events: BigRational::zero(),
        restart_probability: BigRational::zero(),
    }
}

/// The exact law of a random method (for `dfrc`, one side's law: the
/// black number is one more independent event).
pub fn exact_for(method: &RandomMethod) -> Exact {
    if let RandomMethod::Uniform(Uniform { double: true }) = method {
        let mut side = exact(&Uniform { double: false });
        side.expected_events = ratio(2, 1);
        return side;
    }
    exact(method)
}

/// Summary numbers of an exact law.
#[derive(Clone, Debug)]
pub struct Summary {
    /// How many of the 960 can come out.
    pub positions: usize,
    pub uniform: bool,
    /// Distinct probabilities with how many positions have each, highest
    /// first (impossible positions, probability 0, last).
    pub classes: Vec<(BigRational, usize)>,
    /// Highest over lowest non-zero probability.
    pub max_min_ratio: f64,
    /// Total variation distance from the uniform law on 960.
    pub total_variation: BigRational,
}

pub fn summarize(exact: &Exact) -> Summary {
    let positions = exact.by_sp.iter().filter(|p| !p.is_zero()).count();
    let mut sorted: Vec<&BigRational> = exact.by_sp.iter().collect();
    sorted.sort_by(|a, b| b.cmp(a));
    let mut classes: Vec<(BigRational, usize)> = Vec::new();
    for p in sorted {
        match classes.last_mut() {
            Some((q, count)) if q == p => *count += 1,
            _ => classes.push((p.clone(), 1)),
        }
    }
    let nonzero: Vec<&BigRational> = exact.by_sp.iter().filter(|p| !p.is_zero()).collect();
    let max = nonzero
        .iter()
        .max()
        .map(|p| (*p).clone())
        .unwrap_or_else(BigRational::zero);
    let min = nonzero
        .iter()
        .min()
        .map(|p| (*p).clone())
        .unwrap_or_else(BigRational::one);
    let max_min_ratio = (max / min).to_f64().unwrap_or(f64::NAN);
    let uniform_p = ratio(1, u64::from(POSITIONS));
    let total_variation = exact
        .by_sp
        .iter()
        .map(|p| {
            let d = p - &uniform_p;
            if d < BigRational::zero() { -d } else { d }
        })
        .fold(BigRational::zero(), |a, b| a + b)
        / ratio(2, 1);
    Summary {
        uniform: classes.len() == 1 && positions == usize::from(POSITIONS),
        positions,
        classes,
        max_min_ratio,
        total_variation,
    }
}

/// `p/q` text of a rational (`0` and integers without a slash).
pub fn ratio_text(r: &BigRational) -> String {
    if r.is_integer() {
        r.to_integer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

/// A chi-square goodness-of-fit test of observed counts against a law.
#[derive(Clone, Debug)]
pub struct ChiSquare {
    pub samples: u64,
    pub statistic: f64,
    pub degrees_of_freedom: usize,
    pub p_value: f64,
}

/// Tests `observed` (counts by SP) against `exact`. Positions the law rules
/// out must not be observed; they are left out of the degrees of freedom.
pub fn chi_square(exact: &Exact, observed: &[u64]) -> ChiSquare {
    let samples: u64 = observed.iter().sum();
    let mut statistic = 0.0;
    let mut cells = 0usize;
    for (p, &o) in exact.by_sp.iter().zip(observed) {
        let p = p.to_f64().unwrap_or(0.0);
        if p == 0.0 {
            if o > 0 {
                statistic = f64::INFINITY;
            }
            continue;
        }
        cells += 1;
        let e = p * samples as f64;
        statistic += (o as f64 - e).powi(2) / e;
    }
    let df = cells.saturating_sub(1).max(1);
    ChiSquare {
        samples,
        statistic,
        degrees_of_freedom: df,
        p_value: upper_regularized_gamma(df as f64 / 2.0, statistic / 2.0),
    }
}

/// Q(a, x) = Γ(a, x) / Γ(a): the chi-square upper tail with `a = df/2`,
/// `x = χ²/2`. Series below `a + 1`, Lentz's continued fraction above.
pub fn upper_regularized_gamma(a: f64, x: f64) -> f64 {
    if x.is_infinite() {
        return 0.0;
    }
    if x <= 0.0 {
        return 1.0;
    }
    let log_prefix = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let mut sum = 1.0 / a;
        let mut term = sum;
        let mut n = a;
        for _ in 0..10_000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        (1.0 - sum * log_prefix.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        (log_prefix.exp() * h).clamp(0.0, 1.0)
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = G[0];
    for (i, g) in G.iter().enumerate().skip(1) {
        sum += g / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_tail_matches_known_values() {
        // Q(1, x) = e^-x; chi-square df=2 at 5.991 has upper tail 0.05.
        assert!((upper_regularized_gamma(1.0, 2.0) - (-2.0f64).exp()).abs() < 1e-12);
        assert!((upper_regularized_gamma(1.0, 5.991 / 2.0) - 0.05).abs() < 1e-4);
        // df = 959 at its mean: the upper tail is a little under one half.
        let q = upper_regularized_gamma(959.0 / 2.0, 959.0 / 2.0);
        assert!(q > 0.45 && q < 0.5, "{q}");
    }

    #[test]
    fn ln_gamma_of_integers_is_log_factorial() {
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(1.0)).abs() < 1e-12);
    }
}
