//! `uci960 positions`: draw start positions by a method and print them.

use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

use super::output::{Format, emit, render};
use crate::openings::{MethodSpec, PositionSource, replay};
use crate::start::method::procedure::split_tokens;

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
        emit(&text)?;
        return Ok(ExitCode::SUCCESS);
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
            emit(&text)?;
            text.clear();
        }
    }
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
