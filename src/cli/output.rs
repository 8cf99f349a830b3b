//! What commands print and how it reaches stdout: the text forms of
//! positions shared by `positions` and `show` (formats, diagrams, empty PGN
//! games by the one PGN writer, JSON lines), and [`emit`], the one way a command writes to stdout.
//!
//! Commands never use `print!`: it panics when stdout fails. [`emit`] turns
//! a failed write into an [`StdoutError`] that ends the command like any
//! other error, and `main` maps it (see [`super::exit`]):
//! * the reader went away (`| head -1`, EPIPE): the command ends quietly
//!   with status 141, what the shell reports for a filter killed by SIGPIPE
//!   (`cat`, `seq`), so a pipeline never mistakes a cut-off run for a whole
//!   one and never sees an error message for it;
//! * any other failure (`> /dev/full`, disk full, I/O error): a message and
//!   status 3 (a runtime failure).

use std::fmt::Write as _;
use std::io::Write as _;
use std::str::FromStr;

use shakmaty::{Chess, Color, File, Position, Rank, Square};

use crate::game::pgn::{PgnGame, write_game};
use crate::notation::fen::{FenFlavour, position_epd};
use crate::openings::Drawn;

/// Stdout could not take a command's output.
#[derive(Debug, thiserror::Error)]
pub enum StdoutError {
    /// The reader closed the pipe (EPIPE).
    #[error("stdout was closed by its reader")]
    Closed,
    /// Anything else: a full disk, an I/O error.
    #[error("cannot write to stdout: {0}")]
    Failed(std::io::Error),
}

impl From<std::io::Error> for StdoutError {
    fn from(e: std::io::Error) -> StdoutError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            StdoutError::Closed
        } else {
            StdoutError::Failed(e)
        }
    }
}

/// Writes `text` to stdout and flushes it (so that a full disk is seen
/// here, not lost in an ignored flush at exit).
pub fn emit(text: &str) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// A note for the user on stderr (`uci960: …`). Never panics nor blocks:
/// a closed or full stderr loses the note (counted), not the command
/// ([`crate::platform::diag`]; `eprintln!` would panic).
pub fn note(text: impl std::fmt::Display) {
    crate::platform::diag::line(&format!("uci960: {text}"));
}

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

/// An ASCII diagram, rank 8 first, with file letters under it.
pub fn diagram(pos: &Chess) -> String {
    let mut out = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        let _ = write!(out, "{} ", rank.char());
        for file in File::ALL {
            let c = pos
                .board()
                .piece_at(Square::from_coords(file, rank))
                .map(|p| p.char())
                .unwrap_or('.');
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h\n");
    out
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
        Format::Epd => {
            out.push_str(&position_epd(&drawn.position, FenFlavour::XFen));
            out.push('\n');
        }
        Format::Sp => {
            out.push_str(&drawn.sp_label());
            out.push('\n');
        }
        Format::Pgn => {
            // The project's one PGN writer (game::pgn): an empty game from
            // the position, with the roster, Variant, SetUp, FEN and
            // PlyCount tags.
            let tags = [
                ("Event", format!("uci960 {} position {index}", drawn.method)),
                ("Date", "????.??.??".to_string()),
                ("Round", index.to_string()),
            ];
            out.push_str(&write_game(&PgnGame {
                tags: tags.map(|(n, v)| (n.to_string(), v)).to_vec(),
                start: &drawn.position,
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
        Format::Json => {
            let (sp, black_sp) = match drawn.start {
                Some(s) => (
                    serde_json::json!(s.white.sp()),
                    serde_json::json!(s.black.sp()),
                ),
                None => (serde_json::Value::Null, serde_json::Value::Null),
            };
            let value = serde_json::json!({
                "sp": sp,
                "black_sp": black_sp,
                "fen": drawn.fen(FenFlavour::XFen),
                "shredder_fen": drawn.fen(FenFlavour::Shredder),
                "method": drawn.method,
                "record": drawn.record.to_json(),
            });
            out.push_str(&value.to_string());
            out.push('\n');
        }
    }
}

/// `White` or `Black`.
pub fn color_name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}
