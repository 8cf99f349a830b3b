//! `uci960 positions`: draw start positions by a method and print them.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;

use super::output::{Format, render};
use crate::start::method::procedure::split_tokens;
use crate::start::method::{MethodSpec, PositionSource, replay};

#[derive(Args, Debug)]
pub struct PositionsArgs {
    /// die, bag-redraw, bag-swap, random, dfrc, sp:N[,M…|A-B], book:PATH, book-shuffle:PATH
    #[arg(long, short, default_value = "random")]
    pub method: String,
    /// How many positions.
    #[arg(long, short = 'n', default_value_t = 1)]
    pub count: u64,
    /// Seed of the random source (printed to stderr when not given).
    #[arg(long, short)]
    pub seed: Option<u64>,
    /// Replay physical die throws for `die`, e.g. 2,3,3,2,3.
    #[arg(long, conflicts_with = "draws")]
    pub rolls: Option<String>,
    /// Replay physical bag draws for the bag methods: piece letters in the
    /// order drawn, put-back pieces included, e.g. RNBQKBNR.
    #[arg(long)]
    pub draws: Option<String>,
    /// fen, shredder, epd, sp, pgn, board, json
    #[arg(long, short, default_value = "fen")]
    pub format: Format,
}

pub fn run(args: PositionsArgs) -> anyhow::Result<ExitCode> {
    let spec: MethodSpec = args.method.parse()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut text = String::with_capacity(1 << 16);

    let replayed = match (&args.rolls, &args.draws) {
        (Some(rolls), _) => Some(replay(&spec, &split_tokens(rolls), "rolls")?),
        (_, Some(draws)) => Some(replay(&spec, &split_tokens(draws), "draws")?),
        _ => None,
    };
    if let Some(drawn) = replayed {
        if args.count != 1 {
            bail!("--rolls and --draws replay exactly one position; drop --count");
        }
        render(&drawn, args.format, 1, &mut text);
        return finish(&mut out, &text);
    }

    let seed = if matches!(
        spec,
        MethodSpec::Fixed(_) | MethodSpec::Book { shuffle: false, .. }
    ) {
        args.seed.unwrap_or(0)
    } else {
        super::seed_or_announce(args.seed)
    };
    let mut source = PositionSource::new(&spec, seed)?;
    for index in 1..=args.count {
        let drawn = source.next_position();
        render(&drawn, args.format, index as usize, &mut text);
        if text.len() > 60_000 {
            if write_or_pipe_closed(&mut out, &text)? {
                return Ok(ExitCode::SUCCESS);
            }
            text.clear();
        }
    }
    finish(&mut out, &text)
}

fn finish(out: &mut impl Write, text: &str) -> anyhow::Result<ExitCode> {
    if !write_or_pipe_closed(out, text)? {
        match out.flush() {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                return Err(e).context("writing positions");
            }
            _ => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes; `Ok(true)` when the reader went away (`| head`), which ends the
/// run quietly.
fn write_or_pipe_closed(out: &mut impl Write, text: &str) -> anyhow::Result<bool> {
    match out.write_all(text.as_bytes()) {
        Ok(()) => Ok(false),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(true),
        Err(e) => Err(e).context("writing positions"),
    }
}
