//! `uci960 positions`: draw start positions by a method and print them,
//! each in the format chosen: its documents rendered by the output room
//! (FEN and EPD fields, a PGN game by the one PGN writer, a diagram, a
//! JSON line).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::str::FromStr;

use anyhow::{anyhow, bail};
use clap::Args;

use crate::game::pgn::{PgnGame, write_game};
use crate::notation::fen::FenFlavour;
use crate::openings::{Drawn, MethodError, MethodSpec, PositionSource, Replayed, replay};
use crate::output::{board::diagram, emit, epd, json};
use crate::start::method::procedure::split_tokens;

/// How `positions` prints each position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Format {
    /// X-FEN, one a line.
    Fen,
    /// Shredder-FEN, one a line.
    Shredder,
    /// Four FEN fields (X-FEN castling), for cutechess-cli and fastchess books.
    Epd,
    /// The start-position number; `W/B` for DFRC.
    Sp,
    /// One empty game per position with Variant, SetUp and FEN tags, by
    /// `game::pgn`'s writer (so it also carries `PlyCount "0"`, which the
    /// old hand-written stub lacked).
    Pgn,
    /// A text diagram with the record.
    Board,
    /// One JSON object a line.
    Json,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        <Format as clap::ValueEnum>::from_str(s, true)
    }
}

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
        (Some(rolls), _) => Some(replayed(&spec, rolls, Replayed::DieRolls)?),
        (_, Some(draws)) => Some(replayed(&spec, draws, Replayed::BagDraws)?),
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

/// The position a physical draw gives; a method that cannot replay it is
/// named with the flags (`--rolls`, `--draws`).
fn replayed(spec: &MethodSpec, tokens: &str, given: Replayed) -> anyhow::Result<Drawn> {
    replay(spec, &split_tokens(tokens), given).map_err(|e| match e {
        MethodError::NoReplay { method, given } => anyhow!(
            "{method} cannot replay {}: --rolls goes with die, --draws with bag-redraw and bag-swap",
            match given {
                Replayed::DieRolls => "rolls",
                Replayed::BagDraws => "draws",
            }
        ),
        e => e.into(),
    })
}

/// One position in `format`; `index` counts from 1 (PGN round numbers).
pub fn render(drawn: &Drawn, format: Format, index: usize, out: &mut String) {
    match format {
        Format::Fen => {
            out.push_str(&drawn.fen(FenFlavour::XFen));
            out.push('\n');
        }
        Format::Shredder => {
            out.push_str(&drawn.fen(FenFlavour::Shredder));
            out.push('\n');
        }
        Format::Epd => epd::Record::start(out, &drawn.position, FenFlavour::XFen).end(),
        Format::Sp => {
            out.push_str(&drawn.sp_label());
            out.push('\n');
        }
        Format::Pgn => {
            // An empty game from the position, with the roster, Variant,
            // SetUp, FEN and PlyCount tags.
            let tags = [
                ("Event", format!("uci960 {} position {index}", drawn.method)),
                ("Date", "????.??.??".to_string()),
                ("Round", index.to_string()),
            ];
            out.push_str(&write_game(&PgnGame {
                tags: tags.map(|(n, v)| (n.to_string(), v)).to_vec(),
                initial: &drawn.position,
                moves: &[],
                book_plies: 0,
                infos: &[],
                result: "*",
                final_comment: None,
            }));
        }
        Format::Board => {
            let _ = writeln!(
                out,
                "#{index}  SP {}  method {}",
                drawn.sp_label(),
                drawn.method
            );
            out.push_str(&diagram(&drawn.position));
            let _ = writeln!(out, "X-FEN:    {}", drawn.fen(FenFlavour::XFen));
            let _ = writeln!(out, "Shredder: {}", drawn.fen(FenFlavour::Shredder));
            let _ = writeln!(out, "record:   {}\n", drawn.record);
        }
        Format::Json => json::line(&drawn.to_json(), out),
    }
}
