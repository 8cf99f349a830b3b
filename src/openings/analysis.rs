//! A method's analysis as documents (`uci960 analyze`): its exact law over
//! the 960 ([`crate::start::analysis`]) and, with samples, a seeded Monte
//! Carlo run of the method's own [`PositionSource`] tested against it
//! (chi-square). [`MethodAnalysis::to_json`] is the JSON object and
//! [`MethodAnalysis::render`] the text report (its probability classes an
//! [`output::Table`](crate::output::Table)); the command only chooses.

use std::fmt::Write as _;

use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::source::PositionSource;
use super::spec::{MethodError, MethodSpec};
use crate::output::{Column, Table};
use crate::start::POSITIONS;
use crate::start::analysis::{ChiSquare, Exact, Summary, chi_square, ratio_text, summarize};

/// A method's exact law, its summary and, when sampled, the test of a
/// Monte Carlo run against it.
#[derive(Clone, Debug)]
pub struct MethodAnalysis {
    /// The method as the user can write it again (`bag-swap`, `sp:3,518`).
    pub method: String,
    pub exact: Exact,
    pub summary: Summary,
    pub monte_carlo: Option<ChiSquare>,
}

impl MethodAnalysis {
    /// The exact analysis; `None` for a method without an exact law (a
    /// book).
    pub fn of(spec: &MethodSpec) -> Option<MethodAnalysis> {
        let exact = spec.exact()?;
        Some(MethodAnalysis {
            method: spec.to_string(),
            summary: summarize(&exact),
            exact,
            monte_carlo: None,
        })
    }

    /// With `samples` positions drawn by `spec` from `seed`, tested
    /// against the exact law.
    pub fn sampled(
        mut self,
        spec: &MethodSpec,
        samples: u64,
        seed: u64,
    ) -> Result<MethodAnalysis, MethodError> {
        self.monte_carlo = Some(chi_square(&self.exact, &monte_carlo(spec, samples, seed)?));
        Ok(self)
    }

    /// The JSON object of the interface: method, positions, uniform,
    /// classes, by_sp, max_min_ratio, total_variation, expected_events,
    /// restart_probability and, with samples, monte_carlo.
    pub fn to_json(&self) -> serde_json::Value {
        let (exact, summary) = (&self.exact, &self.summary);
        let mut value = serde_json::json!({
            "method": self.method,
            "positions": summary.positions,
            "uniform": summary.uniform,
            "classes": summary.classes.iter().map(|(p, count)| serde_json::json!({
                "probability": ratio_text(p),
                "count": count,
            })).collect::<Vec<_>>(),
            "by_sp": exact.by_sp.iter().map(ratio_text).collect::<Vec<_>>(),
            "max_min_ratio": summary.max_min_ratio,
            "total_variation": summary.total_variation.to_f64().unwrap_or(f64::NAN),
            "expected_events": ratio_text(&exact.expected_events),
            "restart_probability": ratio_text(&exact.restart_probability),
        });
        if let (Some(mc), Some(obj)) = (&self.monte_carlo, value.as_object_mut()) {
            obj.insert(
                "monte_carlo".into(),
                serde_json::json!({
                    "samples": mc.samples,
                    "chi_square": mc.statistic,
                    "degrees_of_freedom": mc.degrees_of_freedom,
                    "p_value": mc.p_value,
                }),
            );
        }
        value
    }

    /// The probability classes, highest first: the exact ratio, its value,
    /// its multiple of uniform, and how many SPs have it.
    pub fn classes(&self) -> Table {
        let mut classes = Table::new(vec![
            Column::right("probability", 14),
            Column::right("", 12),
            Column::right("x uniform", 9),
            Column::right("count", 5),
        ])
        .with_gaps("  ", "  ");
        for (p, count) in &self.summary.classes {
            classes.push(vec![
                ratio_text(p),
                format!("{:.8}", f(p)),
                format!("{:.4}", f(p) * 960.0),
                count.to_string(),
            ]);
        }
        classes
    }

    /// The text report: one line a number, the classes, the Monte Carlo
    /// test.
    pub fn render(&self) -> String {
        let (exact, summary) = (&self.exact, &self.summary);
        let mut out = String::new();
        let _ = writeln!(out, "method               {}", self.method);
        let _ = writeln!(out, "positions possible   {} of 960", summary.positions);
        let _ = writeln!(
            out,
            "uniform              {}",
            if summary.uniform { "yes" } else { "no" }
        );
        let _ = writeln!(
            out,
            "expected events      {} = {:.4}",
            ratio_text(&exact.expected_events),
            f(&exact.expected_events)
        );
        let _ = writeln!(
            out,
            "restart probability  {} = {:.6}",
            ratio_text(&exact.restart_probability),
            f(&exact.restart_probability)
        );
        let _ = writeln!(out, "max/min ratio        {:.6}", summary.max_min_ratio);
        let _ = writeln!(
            out,
            "total variation      {:.6} (distance from uniform)",
            f(&summary.total_variation)
        );
        let _ = writeln!(out, "probability classes (highest first):");
        self.classes().write(&mut out);
        if let Some(mc) = &self.monte_carlo {
            let _ = writeln!(
                out,
                "monte carlo          {} samples, chi-square {:.2} on {} df, p-value {:.4}",
                mc.samples, mc.statistic, mc.degrees_of_freedom, mc.p_value
            );
        }
        out
    }
}

fn f(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

/// Draws `samples` positions and counts them by (White's) SP.
pub fn monte_carlo(spec: &MethodSpec, samples: u64, seed: u64) -> Result<Vec<u64>, MethodError> {
    let mut source = PositionSource::new(spec, seed)?;
    let mut counts = vec![0u64; usize::from(POSITIONS)];
    for _ in 0..samples {
        if let Some(start) = source.next_position().start {
            counts[usize::from(start.white.sp())] += 1;
        }
    }
    Ok(counts)
}
