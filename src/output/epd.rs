//! EPD records: the four position fields (board, side, castling in the
//! chosen FEN flavour, en passant; by [`crate::notation::fen`], the one FEN
//! writer) and then opcodes, each ` op operand;`, ending the line.
//! `positions --format epd` writes the bare fields, `book` adds its
//! counters, evaluation and replay opcodes (`book::epd`). Writing
//! allocates nothing: a record is appended to the caller's buffer.
//!
//! A quoted operand is the caller's text between `"`; EPD has no escape
//! for a quote, so it must hold none (moves, FENs and numbers never do).

use std::fmt::{Display, Write as _};

use shakmaty::Chess;

use crate::notation::fen::{FenFlavour, push_epd_fields};

/// An EPD record being appended to a buffer; [`Record::end`] ends the line.
pub struct Record<'a> {
    out: &'a mut String,
}

impl<'a> Record<'a> {
    /// Appends the four fields of `pos` to `out`.
    pub fn start(out: &'a mut String, pos: &Chess, flavour: FenFlavour) -> Record<'a> {
        push_epd_fields(out, pos, flavour);
        Record { out }
    }

    /// ` op operand;`
    pub fn op(&mut self, op: &str, operand: impl Display) -> &mut Self {
        let _ = write!(self.out, " {op} {operand};");
        self
    }

    /// ` op "…";` with the operand written by `fill`.
    pub fn quoted(&mut self, op: &str, fill: impl FnOnce(&mut String)) -> &mut Self {
        let _ = write!(self.out, " {op} \"");
        fill(self.out);
        self.out.push_str("\";");
        self
    }

    /// Ends the record's line.
    pub fn end(self) {
        self.out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_then_opcodes_in_order() {
        let mut out = String::new();
        let mut r = Record::start(&mut out, &Chess::default(), FenFlavour::XFen);
        r.op("hmvc", 0).op("fmvn", 1);
        r.quoted("c0", |s| s.push_str("e2e4 e7e5"));
        r.end();
        assert_eq!(
            out,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; c0 \"e2e4 e7e5\";\n"
        );
        let mut bare = String::new();
        Record::start(&mut bare, &Chess::default(), FenFlavour::Shredder).end();
        assert_eq!(
            bare,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha -\n"
        );
    }
}
