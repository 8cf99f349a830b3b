//! `uci960 analyze`: a method's exact distribution over the 960, and with
//! `--samples` a seeded Monte Carlo run tested against it (chi-square).
//! The documents are the openings room's ([`MethodAnalysis`]); this file
//! chooses the format (text or a JSON line) and writes to stdout.

use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

use crate::openings::MethodSpec;
use crate::openings::analysis::MethodAnalysis;
use crate::output::{emit, json};

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

pub fn run(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let spec: MethodSpec = args.method.parse()?;
    let Some(mut analysis) = MethodAnalysis::of(&spec) else {
        bail!(
            "method '{spec}' has no distribution to analyze (use die, bag-redraw, bag-swap, random, dfrc or sp:…)"
        );
    };
    if let Some(n) = args.samples {
        let seed = super::seed_or_announce(args.seed);
        analysis = analysis.sampled(&spec, n, seed)?;
    }
    let text = match args.format {
        AnalyzeFormat::Json => {
            let mut line = String::new();
            json::line(&analysis.to_json(), &mut line);
            line
        }
        AnalyzeFormat::Table => analysis.render(),
    };
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
