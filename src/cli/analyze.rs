//! `uci960 analyze`: a method's exact distribution over the 960, and with
//! `--samples` a seeded Monte Carlo run tested against it (chi-square).

use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use num_traits::ToPrimitive;

use crate::openings::{MethodSpec, PositionSource};
use crate::output::{Column, Table, emit, json};
use crate::start::POSITIONS;
use crate::start::analysis::{ChiSquare, Exact, Summary, chi_square, ratio_text, summarize};

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum AnalyzeFormat {
    Table,
    Json,
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// die, bag-redraw, bag-swap, random, dfrc or sp:N[,M…|A-B]
    #[arg(long, short)]
    pub method: String,
    /// Add a Monte Carlo run of this many positions with a chi-square test.
    #[arg(long)]
    pub samples: Option<u64>,
    /// Seed of the Monte Carlo run (printed to stderr when not given).
    #[arg(long, short)]
    pub seed: Option<u64>,
    #[arg(long, short, default_value = "table")]
    pub format: AnalyzeFormat,
}

/// Draws `samples` positions and counts them by (White's) SP.
pub fn monte_carlo(spec: &MethodSpec, samples: u64, seed: u64) -> anyhow::Result<Vec<u64>> {
    let mut source = PositionSource::new(spec, seed)?;
    let mut counts = vec![0u64; usize::from(POSITIONS)];
    for _ in 0..samples {
        if let Some(start) = source.next_position().start {
            counts[usize::from(start.white.sp())] += 1;
        }
    }
    Ok(counts)
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let spec: MethodSpec = args.method.parse()?;
    let Some(exact) = spec.exact() else {
        bail!(
            "method '{spec}' has no distribution to analyze (use die, bag-redraw, bag-swap, random, dfrc or sp:…)"
        );
    };
    let summary = summarize(&exact);
    let mc = match args.samples {
        Some(n) => {
            let seed = super::seed_or_announce(args.seed);
            Some(chi_square(&exact, &monte_carlo(&spec, n, seed)?))
        }
        None => None,
    };
    let text = match args.format {
        AnalyzeFormat::Json => {
            let mut line = String::new();
            json::line(&to_json(&spec, &exact, &summary, mc.as_ref()), &mut line);
            line
        }
        AnalyzeFormat::Table => to_table(&spec, &exact, &summary, mc.as_ref()),
    };
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The JSON object of the interface: method, positions, uniform, classes,
/// by_sp, max_min_ratio, total_variation, expected_events,
/// restart_probability and, with samples, monte_carlo.
pub fn to_json(
    spec: &MethodSpec,
    exact: &Exact,
    summary: &Summary,
    mc: Option<&ChiSquare>,
) -> serde_json::Value {
    let mut value = serde_json::json!({
        "method": spec.to_string(),
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
    if let (Some(mc), Some(obj)) = (mc, value.as_object_mut()) {
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

fn to_table(spec: &MethodSpec, exact: &Exact, summary: &Summary, mc: Option<&ChiSquare>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let f = |r: &num_rational::BigRational| r.to_f64().unwrap_or(f64::NAN);
    let _ = writeln!(out, "method               {spec}");
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
    let mut classes = Table::new(vec![
        Column::right("probability", 14),
        Column::right("", 12),
        Column::right("x uniform", 9),
        Column::right("count", 5),
    ])
    .with_gaps("  ", "  ");
    for (p, count) in &summary.classes {
        classes.push(vec![
            ratio_text(p),
            format!("{:.8}", f(p)),
            format!("{:.4}", f(p) * 960.0),
            count.to_string(),
        ]);
    }
    classes.write(&mut out);
    if let Some(mc) = mc {
        let _ = writeln!(
            out,
            "monte carlo          {} samples, chi-square {:.2} on {} df, p-value {:.4}",
            mc.samples, mc.statistic, mc.degrees_of_freedom, mc.p_value
        );
    }
    out
}
