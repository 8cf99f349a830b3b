//! `uci960 positions`: draw start positions by a method and print them,
//! each in the format chosen. The documents are the openings room's
//! ([`Drawn`]: its FENs, SP, PGN game, board card, JSON object, CSV row);
//! the output room renders them (EPD fields, a PGN game by the one PGN
//! writer, a JSON line, CSV); this file chooses a format and writes to
//! stdout.

use std::process::ExitCode;
use std::str::FromStr;

use anyhow::{anyhow, bail};
use clap::Args;

use crate::game::pgn::write_game;
use crate::notation::fen::FenFlavour;
use crate::openings::{Drawn, MethodError, MethodSpec, PositionSource, Replayed, replay};
use crate::output::{csv, emit, epd, json};
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
    /// CSV (RFC 4180, CRLF): a header line, then one row a position with
    /// the JSON object's fields (sp, black_sp, fen, shredder_fen, method,
    /// record).
    Csv,
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
    /// fen, shredder, epd, sp, pgn, board, json, csv
    #[arg(long, short, default_value = "fen")]
    pub format: Format,
}

pub fn run(args: PositionsArgs) -> anyhow::Result<ExitCode> {
    let spec: MethodSpec = args.method.parse()?;

    let replayed = match (&args.rolls, &args.draws) {
        (Some(rolls), _) => Some(replayed(&spec, rolls, Replayed::DieRolls)?),
        (_, Some(draws)) => Some(replayed(&spec, draws, Replayed::BagDraws)?),
        _ => None,
    };
    if let Some(drawn) = replayed {
        if args.count != 1 {
            bail!("--rolls and --draws replay exactly one position; drop --count");
        }
        let mut out = Writer::new(args.format);
        out.push(&drawn, 1);
        emit(&out.finish())?;
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
    let mut out = Writer::new(args.format);
    for index in 1..=args.count {
        out.push(&source.next_position(), index as usize);
        if let Some(text) = out.take(60_000) {
            emit(&text)?;
        }
    }
    emit(&out.finish())?;
    Ok(ExitCode::SUCCESS)
}

/// The positions in one format, written out in pieces: each position's
/// document (the openings room's) rendered by the output room.
struct Writer {
    format: Format,
    text: String,
}

impl Writer {
    /// Starts with the CSV header when the format is CSV.
    fn new(format: Format) -> Writer {
        let mut text = String::with_capacity(1 << 16);
        if format == Format::Csv {
            text.push_str(&csv::render(&Drawn::table()));
        }
        Writer { format, text }
    }

    /// Adds one position; `index` counts from 1 (PGN round numbers).
    fn push(&mut self, drawn: &Drawn, index: usize) {
        render(drawn, self.format, index, &mut self.text);
    }

    /// The text so far, once it holds at least `size` bytes.
    fn take(&mut self, size: usize) -> Option<String> {
        (self.text.len() >= size).then(|| std::mem::take(&mut self.text))
    }

    /// Everything not taken yet.
    fn finish(self) -> String {
        self.text
    }
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

/// One position in `format` (a CSV row without the header, which
/// [`Writer`] writes first); `index` counts from 1 (PGN round numbers).
fn render(drawn: &Drawn, format: Format, index: usize, out: &mut String) {
    let line = |out: &mut String, text: &str| {
        out.push_str(text);
        out.push('\n');
    };
    match format {
        Format::Fen => line(out, &drawn.fen(FenFlavour::XFen)),
        Format::Shredder => line(out, &drawn.fen(FenFlavour::Shredder)),
        Format::Epd => epd::Record::start(out, &drawn.position, FenFlavour::XFen).end(),
        Format::Sp => line(out, &drawn.sp_label()),
        Format::Pgn => out.push_str(&write_game(&drawn.pgn_game(index))),
        Format::Board => out.push_str(&drawn.board(index)),
        Format::Json => json::line(&drawn.to_json(), out),
        Format::Csv => {
            let mut row = Drawn::table();
            row.no_header = true;
            row.push(drawn.row());
            out.push_str(&csv::render(&row));
        }
    }
}
