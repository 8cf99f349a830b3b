//! A book line as an EPD record ([`crate::output::epd`] writes records):
//! one line per book position.
//!
//! ```text
//! <board> <side> <castling> <ep> hmvc 0; fmvn 3; ce 17; acd 14; c0 "e2e4 e7e5 b1c3 g8f6"; c1 "<start FEN>";
//! ```
//!
//! The four fields carry the castling rights in the chosen flavour
//! (`--castling shredder`, the default: rook files, what UCI engines are
//! given; or `xfen`). The opcodes: `hmvc`/`fmvn` the move counters (read by
//! python-chess and by fastchess's EPD loader); `ce` the engine's
//! evaluation in centipawns from the side to move's view, as the EPD
//! standard defines it, and `acd` its depth (only when an engine evaluated
//! the position; a mate score is written as `dm N`), and `wdl "W D L"` its
//! win/draw/loss rates in per mille from the side to move's view (the
//! engine's `UCI_ShowWDL`, else Stockfish 17.1's model of the score, see
//! [`super::wdl`]), so a book can be filtered again without an engine;
//! `c0` the moves played
//! from the start in UCI king-takes-rook notation and `c1` the start's FEN
//! (only when moves were played), so the line can be replayed. Writing
//! allocates nothing per line.

use std::fmt::Write as _;

use shakmaty::{CastlingMode, Position};

use super::generate::BookLine;
use crate::notation::fen::{FenFlavour, push_fen};
use crate::output::epd::Record;
use crate::start::method::cached_fen;
use crate::uci::Score;

/// Appends the EPD line of `line` (with its `\n`) to `out`.
pub fn push_epd(out: &mut String, line: &BookLine, flavour: FenFlavour) {
    let pos = &line.position;
    let mut record = Record::start(out, pos, flavour);
    record
        .op("hmvc", pos.halfmoves())
        .op("fmvn", pos.fullmoves());
    if let Some(eval) = &line.eval {
        match eval.score {
            Score::Cp(cp, _) => record.op("ce", cp),
            Score::Mate(n, _) => record.op("dm", n),
        };
        if let Some(depth) = eval.depth {
            record.op("acd", depth);
        }
        record.quoted("wdl", |out| {
            let _ = write!(out, "{}", eval.wdl);
        });
    }
    if !line.moves.is_empty() {
        record.quoted("c0", |out| {
            for (i, m) in line.moves.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                m.to_uci(CastlingMode::Chess960).append_to_string(out);
            }
        });
        record.quoted("c1", |out| push_start_fen(out, line, flavour));
    }
    record.end();
}

/// The start's FEN, from the table of the 960 when it is one of them.
pub fn push_start_fen(out: &mut String, line: &BookLine, flavour: FenFlavour) {
    match line.start.start {
        Some(start) if !start.is_double() => out.push_str(cached_fen(start.white.sp(), flavour)),
        _ => push_fen(out, &line.start.position, flavour),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::filter::Eval;
    use crate::book::wdl::{Wdl, WdlSource};
    use crate::openings::{Drawn, Record};
    use crate::start::StartPosition;
    use crate::uci::ScoreBound;
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Color};

    fn line_after(sp: u32, moves: &[&str]) -> BookLine {
        let start = StartPosition::from_sp(sp).unwrap();
        let mut pos: Chess = start.to_chess();
        let mut played = Vec::new();
        for m in moves {
            let mv = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            played.push(mv);
        }
        BookLine {
            index: 0,
            start: Drawn {
                position: start.to_chess(),
                start: Some(start),
                method: "sp",
                record: Record::Fixed { index: 1, of: 1 },
            },
            moves: played,
            position: pos,
            eval: None,
        }
    }

    #[test]
    fn a_start_alone_has_only_the_counters() {
        let mut out = String::new();
        push_epd(&mut out, &line_after(518, &[]), FenFlavour::Shredder);
        assert_eq!(
            out,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - hmvc 0; fmvn 1;\n"
        );
    }

    #[test]
    fn moves_evaluation_and_start_follow_in_opcodes() {
        // Castling as king takes rook (e1h1), then Black to move.
        let mut line = line_after(
            518,
            &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"],
        );
        line.eval = Some(Eval {
            score: Score::Cp(-31, ScoreBound::Exact),
            depth: Some(12),
            turn: Color::Black,
            wdl: Wdl {
                win: 20,
                draw: 900,
                loss: 80,
            },
            wdl_source: WdlSource::Engine,
        });
        let mut out = String::new();
        push_epd(&mut out, &line, FenFlavour::Shredder);
        assert_eq!(
            out,
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b ha - hmvc 5; fmvn 4; ce -31; acd 12; wdl \"20 900 80\"; c0 \"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\"; c1 \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\";\n"
        );
    }
}
