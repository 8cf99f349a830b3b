//! Castles between the GUI's notation and the engine's, in the GUI's
//! commands (`position … moves`, `go searchmoves`) and the engine's moves:
//! every castle is read by the crate's one reading rule and written anew;
//! an ambiguous one is warned about once and left as written. A GUI may
//! also write `O-O`/`O-O-O` (reported of Arena), read in any notation.

use std::ops::Range;

use shakmaty::{CastlingSide, Chess, Move, Position};

use super::{Out, Warnings};
use crate::notation::castling::{CastlingNotation, MoveError, parse_move, write_move};
use crate::uci::line::token_spans;

/// How the GUI writes castles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GuiNotation {
    Uci(CastlingNotation),
    /// `O-O`/`O-O-O`.
    Named,
}

impl GuiNotation {
    /// The notation a UCI-form castle of the GUI is read in: a GUI that
    /// writes `O-O` is in Chess960 mode, so king takes rook.
    fn reading(self) -> CastlingNotation {
        match self {
            GuiNotation::Uci(n) => n,
            GuiNotation::Named => CastlingNotation::KingTakesRook,
        }
    }

    /// Whether castles need no rewriting between this and `engine`.
    pub(super) fn same_as(self, engine: CastlingNotation) -> bool {
        self == GuiNotation::Uci(engine)
    }
}

/// `O-O`/`O-O-O` (or with zeros, as some GUIs write them) as the castle of
/// the side to move, if legal.
fn named_castle(pos: &Chess, text: &str) -> Option<Move> {
    let side = match text {
        "O-O" | "0-0" => CastlingSide::KingSide,
        "O-O-O" | "0-0-0" => CastlingSide::QueenSide,
        _ => return None,
    };
    pos.legal_moves()
        .into_iter()
        .find(|m| m.castling_side() == Some(side))
}

/// Reads a move of the GUI: `O-O`/`O-O-O`, or UCI in its notation.
fn read_gui(pos: &Chess, text: &str, n: GuiNotation) -> Result<Move, MoveError> {
    if text.starts_with(['O', '0'])
        && let Some(m) = named_castle(pos, text)
    {
        return Ok(m);
    }
    parse_move(pos, text, n.reading())
}

/// Whether a GUI's move text is an `O-O`/`O-O-O` castle.
fn is_named(text: &str) -> bool {
    matches!(text, "O-O" | "O-O-O" | "0-0" | "0-0-0")
}

/// Why the moves of a `position` command cannot be sent.
pub(super) enum MovesRefused {
    /// A move that is not legal (the GUI's board differs from the one the
    /// proxy replays).
    Illegal(String),
    /// A castle readable neither in the GUI's notation nor in the engine's.
    Ambiguous(String),
}

/// The moves of a `position` command, replayed from `pos`.
pub(super) struct GuiMoves {
    /// The moves as the engine gets them.
    pub(super) moves: Vec<String>,
    /// Whether any differs from what the GUI wrote.
    pub(super) changed: bool,
    /// The position after them.
    pub(super) position: Chess,
    /// Whether the GUI wrote a castle `O-O`/`O-O-O`.
    pub(super) named: bool,
}

/// Reads the GUI's moves from `pos` and writes their castles in the
/// engine's notation.
pub(super) fn gui_moves(
    mut pos: Chess,
    moves: &[String],
    (gui_n, eng_n): (GuiNotation, CastlingNotation),
    warnings: &mut Warnings,
    out: &mut Vec<Out>,
) -> Result<GuiMoves, MovesRefused> {
    let mut moves_out = Vec::with_capacity(moves.len());
    let mut changed = false;
    let named = moves.iter().any(|m| is_named(m));
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let m = match read_gui(&pos, text, gui_n) {
            Ok(m) => m,
            Err(MoveError::Ambiguous(a)) => {
                warnings.warn_once(
                    out,
                    format!("gui {text}"),
                    format!("move '{text}' at ply {ply}: {a}; sent as written"),
                );
                match parse_move(&pos, text, eng_n) {
                    Ok(m) => {
                        moves_out.push(text.clone());
                        pos.play_unchecked(m);
                        continue;
                    }
                    Err(_) => {
                        return Err(MovesRefused::Ambiguous(format!(
                            "ambiguous move '{text}' at ply {ply}"
                        )));
                    }
                }
            }
            Err(e) => {
                return Err(MovesRefused::Illegal(format!(
                    "illegal move '{text}' at ply {ply}: {e}"
                )));
            }
        };
        let mut written = text.clone();
        if m.is_castle() {
            match write_move(&pos, m, eng_n) {
                Ok(s) => written = s,
                Err(a) => warnings.warn_once(
                    out,
                    format!("engine {text}"),
                    format!("castle '{text}' at ply {ply}: {a}; sent as written"),
                ),
            }
        }
        changed |= written != *text;
        moves_out.push(written);
        pos.play_unchecked(m);
    }
    Ok(GuiMoves {
        moves: moves_out,
        changed,
        position: pos,
        named,
    })
}

/// The castles after `searchmoves` in a `go` command, in the engine's
/// notation: the replacements (token range, text).
pub(super) fn searchmoves(
    content: &[u8],
    pos: &Chess,
    (gui_n, eng_n): (GuiNotation, CastlingNotation),
    warnings: &mut Warnings,
    out: &mut Vec<Out>,
) -> Vec<(Range<usize>, String)> {
    let mut replacements = Vec::new();
    let mut in_moves = false;
    for span in token_spans(content) {
        let tok = &content[span.clone()];
        if tok == b"searchmoves" {
            in_moves = true;
            continue;
        }
        if !in_moves {
            continue;
        }
        let Ok(text) = std::str::from_utf8(tok) else {
            break;
        };
        match read_gui(pos, text, gui_n) {
            Ok(m) => {
                if m.is_castle()
                    && let Ok(s) = write_move(pos, m, eng_n)
                    && s != text
                {
                    replacements.push((span, s));
                }
            }
            Err(MoveError::Ambiguous(a)) => warnings.warn_once(
                out,
                format!("gui {text}"),
                format!("searchmoves '{text}': {a}; sent as written"),
            ),
            Err(_) => break,
        }
    }
    replacements
}

/// An engine's castle `m` (written `text`) in the GUI's notation: `None`
/// when the text stays; a castle the GUI's notation cannot write is warned
/// about once and passed on as written.
pub(super) fn for_gui(
    pos: &Chess,
    m: Move,
    text: &str,
    gui_n: GuiNotation,
    warnings: &mut Warnings,
    out: &mut Vec<Out>,
) -> Option<String> {
    let written = match gui_n {
        GuiNotation::Uci(n) => write_move(pos, m, n),
        GuiNotation::Named => Ok(match m.castling_side() {
            Some(CastlingSide::KingSide) => "O-O".to_string(),
            Some(CastlingSide::QueenSide) => "O-O-O".to_string(),
            None => text.to_string(),
        }),
    };
    match written {
        Ok(s) if s != text => Some(s),
        Ok(_) => None,
        Err(a) => {
            warnings.warn_once(
                out,
                format!("engine {text}"),
                format!("engine move '{text}': {a}; passed on as written"),
            );
            None
        }
    }
}

/// A move token that starts and ends on the same back rank (`e1h1`).
pub(super) fn maybe_castle(tok: &[u8]) -> bool {
    tok.len() == 4 && tok[1] == tok[3] && (tok[1] == b'1' || tok[1] == b'8')
}

/// The line with the token ranges replaced (ranges in increasing order).
pub(super) fn rewrite<S: AsRef<str>>(
    content: &[u8],
    replacements: &[(Range<usize>, S)],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(content.len() + 8);
    let mut at = 0;
    for (r, s) in replacements {
        out.extend_from_slice(&content[at..r.start]);
        out.extend_from_slice(s.as_ref().as_bytes());
        at = r.end;
    }
    out.extend_from_slice(&content[at..]);
    out
}
