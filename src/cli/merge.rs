//! `uci960 merge RUN/…`: the shards of a `match --shard … --dir RUN/` as
//! one tournament (standings, Elo, pentanomial, SPRT, one PGN in `Round`
//! order); everything else is `src/tournament/merge.rs`. See
//! docs/DISTRIBUTED.md.
//!
//! Exit codes: 0 merged whole; 1 merged but partial (a shard missing or
//! unfinished), or an SPRT accepted H0, as `match` does; 2 the inputs
//! cannot be merged (damaged, different tournaments, a shard twice);
//! 3 an output could not be written.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::output::{self, Destination};
use crate::tournament::merge;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Run directories (RUN/ of `match --dir`), or shard state files
    /// (shard-I-of-N.state.json) copied from several machines.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<PathBuf>,
    /// Write every merged game to this PGN, in Round order.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Write the summary as JSON (as `match --json`, plus the shards).
    #[arg(long)]
    pub json: Option<PathBuf>,
}

fn fail(code: u8, err: impl std::fmt::Display) -> anyhow::Result<ExitCode> {
    crate::output::note(err);
    Ok(ExitCode::from(code))
}

pub fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let m = match merge::merge(&args.runs) {
        Ok(m) => m,
        Err(e) => return fail(super::exit::of_merge(&e), e),
    };
    if let Some(path) = &args.pgn
        && let Err(e) = m.write_pgn(path)
    {
        return fail(super::exit::of_merge(&e), e);
    }
    if let Some(path) = &args.json
        && let Err(e) =
            output::json::write(&Destination::file("JSON file", path.clone()), &m.to_json())
    {
        return fail(super::exit::RUNTIME, e);
    }
    let mut text = m.summary();
    text.push_str(&m.standings.render());
    crate::output::emit(&text)?;
    if m.partial() || merge::sprt_failed(&m) {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
