//! `uci960 show`: one position in full (diagram, SP, both FENs, verdict).
//! Accepts an SP number (`518`, `518/100` for DFRC), a back rank
//! (`RNBQKBNR`, `RNBQKBNR/BBQNNRKR`) or a FEN in either castling flavour.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::notation::fen::{FenFlavour, parse_position, position_fen};
use crate::output::board::{color_name, diagram};
use crate::output::emit;
use crate::start::StartPosition;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// An SP number, a back rank or a FEN.
    pub what: String,
}

pub fn run(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let input = args.what.trim();
    let looks_like_fen = input.contains(' ') || input.matches('/').count() >= 2;
    let (position, start) = if looks_like_fen {
        let pos = parse_position(input)?;
        let start = StartPosition::from_chess(&pos).ok();
        (pos, start)
    } else {
        let start: StartPosition = input
            .parse()
            .with_context(|| format!("'{input}' is not a Chess960 start position"))?;
        (start.to_chess(), Some(start))
    };
    use std::fmt::Write;
    let mut text = diagram(&position);
    let _ = match start {
        Some(s) if s.is_double() => writeln!(
            text,
            "SP:       {} (Double Fischer Random: White {}, Black {})",
            s.sp_label(),
            s.white,
            s.black
        ),
        Some(s) => writeln!(text, "SP:       {} ({})", s.sp_label(), s.white),
        None => writeln!(text, "SP:       - (not a start position)"),
    };
    let _ = writeln!(
        text,
        "X-FEN:    {}",
        position_fen(&position, FenFlavour::XFen)
    );
    let _ = writeln!(
        text,
        "Shredder: {}",
        position_fen(&position, FenFlavour::Shredder)
    );
    use shakmaty::Position;
    let verdict = match start {
        Some(_) => "valid Chess960 start position".to_string(),
        None => format!(
            "legal Chess960 position, {} to move (not a start position)",
            color_name(position.turn())
        ),
    };
    let _ = writeln!(text, "verdict:  {verdict}");
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
