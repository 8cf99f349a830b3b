//! The book on its way out: each kept line becomes a document of the
//! chosen format ([`super::epd`]: an EPD record; [`super::pgn`]: a game by
//! the one PGN writer), gathered into one buffer and written to the
//! destination the command chose ([`crate::output::Sink`]: stdout, or a
//! file staged until the book is done) in large chunks: one copy, one
//! system call per 64 KiB. An engine book is slow, so each of its lines is
//! written at once for readers to see.

use std::io::{self, Write as _};

use super::epd::push_epd;
use super::generate::BookLine;
use super::pgn::push_pgn;
use crate::notation::fen::{FenFlavour, push_fen};
use crate::openings::BookFormat;
use crate::output::{Sink, WriteError};

/// Bytes of text gathered before one write.
const CHUNK: usize = 1 << 16;

/// Writes a book's lines in one format to one destination.
pub struct BookWriter {
    out: Sink,
    text: String,
    format: BookFormat,
    flavour: FenFlavour,
    each_line: bool,
    /// Gather the book for `--package` instead of writing it.
    package: bool,
}

impl BookWriter {
    /// `each_line`: write every line at once (an engine book); `package`:
    /// keep the six FEN fields of every line in memory for `--package`
    /// ([`BookWriter::text`]) and write nothing.
    pub fn new(
        out: Sink,
        format: BookFormat,
        flavour: FenFlavour,
        each_line: bool,
        package: bool,
    ) -> BookWriter {
        BookWriter {
            out,
            text: String::with_capacity(CHUNK + (1 << 12)),
            format,
            flavour,
            each_line,
            package,
        }
    }

    /// The line ranked `rank` in the whole book.
    pub fn push(&mut self, rank: u64, line: &BookLine) -> io::Result<()> {
        if self.package {
            // The frameworks' form: the six FEN fields, nothing else; the
            // whole book stays in memory until it is packaged.
            push_fen(&mut self.text, &line.position, self.flavour);
            self.text.push('\n');
            return Ok(());
        }
        match self.format {
            BookFormat::Epd => push_epd(&mut self.text, line, self.flavour),
            BookFormat::Pgn => push_pgn(&mut self.text, rank, line),
        }
        if self.each_line || self.text.len() >= CHUNK {
            self.write_out()?;
        }
        Ok(())
    }

    fn write_out(&mut self) -> io::Result<()> {
        self.out.write_all(self.text.as_bytes())?;
        self.text.clear();
        self.out.flush()
    }

    /// Writes what is gathered (nothing for a package).
    pub fn flush(&mut self) -> io::Result<()> {
        if self.package {
            return Ok(());
        }
        self.write_out()
    }

    /// Puts a staged file in place (after [`BookWriter::flush`]).
    pub fn commit(&mut self) -> Result<(), WriteError> {
        std::mem::replace(&mut self.out, Sink::Discard).finish()
    }

    /// A package's book: the six FEN fields of every line.
    pub fn text(&self) -> &str {
        &self.text
    }
}
