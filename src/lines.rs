//! Splitting a byte stream into lines: the one line reader of the crate,
//! sans-IO (bytes in, lines out), on the ground floor because everything
//! that reads a peer uses it: `platform`'s pipes, the engine client, the
//! proxy, `serve` and `remote`.
//!
//! ```
//! use uci960::lines::{StreamLine, LineBuffer};
//! let mut lines = LineBuffer::new(16);
//! let spare = lines.spare();
//! spare[..11].copy_from_slice(b"uciok\r\nid n");
//! lines.commit(11);
//! assert_eq!(lines.next_line(), Some(StreamLine::Complete(b"uciok\r")));
//! assert_eq!(lines.next_line(), None); // "id n" waits for its end
//! lines.extend(b"ame X\n");
//! assert_eq!(lines.next_line(), Some(StreamLine::Complete(b"id name X")));
//! ```
//!
//! The caller reads straight into [`LineBuffer::spare`] (one large `read`
//! per chunk, no copy) and takes the complete lines out. Lines keep a `\r`
//! before the `\n`, so a relay writes back exactly what it read.
//!
//! Hostile input is bounded: a line longer than the limit is reported once
//! ([`StreamLine::TooLong`]) and its bytes are dropped up to its `\n`, so memory
//! stays under the limit plus one read. Each byte is scanned for `\n` once,
//! so splitting is linear in the input however long the lines are.

/// The default maximum line length for UCI: 1 MiB (the longest real line,
/// a `position … moves` of a very long game, is a few kilobytes).
pub const MAX_LINE: usize = 1 << 20;

/// How much room [`LineBuffer::spare`] offers at least: one large read.
const CHUNK: usize = 1 << 16;

/// One thing taken out of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamLine<'a> {
    /// A line without its `\n` (a last line at EOF may lack one).
    Complete(&'a [u8]),
    /// A line passed the limit; it is being skipped up to its `\n`. `limit`
    /// is the limit it passed.
    TooLong { limit: usize },
}

/// A stream being split into lines; see the module docs.
#[derive(Debug)]
pub struct LineBuffer {
    /// `buf[start..end]` is unread; only grows up to the limit plus a read.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// `buf[start..start + scanned]` holds no `\n`.
    scanned: usize,
    max_line: usize,
    /// Dropping the rest of an over-long line.
    skipping: bool,
}

impl LineBuffer {
    /// An empty buffer for lines of at most `max_line` bytes.
    pub fn new(max_line: usize) -> LineBuffer {
        LineBuffer {
            buf: Vec::new(),
            start: 0,
            end: 0,
            scanned: 0,
            max_line: max_line.max(1),
            skipping: false,
        }
    }

    /// The limit on a line's length.
    pub fn max_line(&self) -> usize {
        self.max_line
    }

    /// Room to read into (at least a chunk); follow with [`Self::commit`].
    /// Moves the unread bytes to the front when that makes room, so the
    /// buffer does not grow with the stream, only with the longest line.
    pub fn spare(&mut self) -> &mut [u8] {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            self.scanned = 0;
        }
        if self.buf.len() - self.end < CHUNK / 4 {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            if self.buf.len() - self.end < CHUNK / 4 {
                // Zeroed once when grown, never per read.
                let len = (self.buf.len() * 2).max(CHUNK);
                self.buf.resize(len, 0);
            }
        }
        &mut self.buf[self.end..]
    }

    /// Records that `n` bytes were read into [`Self::spare`].
    pub fn commit(&mut self, n: usize) {
        self.end = (self.end + n).min(self.buf.len());
    }

    /// Appends bytes (for streams that arrive as chunks, and tests); take
    /// the lines out after each chunk, as after a read.
    pub fn extend(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let spare = self.spare();
            let n = spare.len().min(bytes.len());
            spare[..n].copy_from_slice(&bytes[..n]);
            self.commit(n);
            bytes = &bytes[n..];
        }
    }

    /// Whether unread bytes (a partial line) are buffered.
    pub fn has_partial(&self) -> bool {
        self.start < self.end && !self.skipping
    }

    /// The next complete line, or a report of an over-long one.
    pub fn next_line(&mut self) -> Option<StreamLine<'_>> {
        let found = self.next_found();
        found.map(|f| self.line(f))
    }

    /// At end of stream: the last line if it had no `\n` (then nothing).
    pub fn finish(&mut self) -> Option<StreamLine<'_>> {
        let found = match self.next_found() {
            Some(found) => Some(found),
            None => {
                let span = self.start..self.end;
                self.start = self.end;
                self.scanned = 0;
                let skipped = std::mem::take(&mut self.skipping);
                (!skipped && !span.is_empty()).then_some(Found::Line(span))
            }
        };
        found.map(|f| self.line(f))
    }

    fn line(&self, found: Found) -> StreamLine<'_> {
        match found {
            Found::Line(span) => StreamLine::Complete(&self.buf[span]),
            Found::TooLong => StreamLine::TooLong {
                limit: self.max_line,
            },
        }
    }

    /// Where the next line is (indices, so the caller can borrow after).
    fn next_found(&mut self) -> Option<Found> {
        loop {
            let from = self.start + self.scanned;
            match memchr::memchr(b'\n', &self.buf[from..self.end]) {
                Some(i) => {
                    let nl = from + i;
                    let span = self.start..nl;
                    self.start = nl + 1;
                    self.scanned = 0;
                    if std::mem::take(&mut self.skipping) {
                        continue; // the end of a line already reported
                    }
                    if span.len() > self.max_line {
                        return Some(Found::TooLong);
                    }
                    return Some(Found::Line(span));
                }
                None => {
                    self.scanned = self.end - self.start;
                    return self.drop_overflow();
                }
            }
        }
    }

    /// With no `\n` in the unread bytes: drops them when they are (part
    /// of) a line past the limit, reporting the line the first time.
    fn drop_overflow(&mut self) -> Option<Found> {
        if self.skipping {
            self.start = self.end;
            self.scanned = 0;
            return None;
        }
        if self.end - self.start > self.max_line {
            self.skipping = true;
            self.start = self.end;
            self.scanned = 0;
            return Some(Found::TooLong);
        }
        None
    }
}

/// A line found in the buffer, by position.
enum Found {
    Line(std::ops::Range<usize>),
    TooLong,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(b: &mut LineBuffer) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = b.next_line() {
            out.push(match l {
                StreamLine::Complete(l) => String::from_utf8_lossy(l).into_owned(),
                StreamLine::TooLong { limit } => format!("<too long: {limit}>"),
            });
        }
        out
    }

    #[test]
    fn lines_in_any_chunking_come_out_the_same() {
        let text = b"uci\r\nid name A\n\nposition startpos moves e2e4\ngo\nlast";
        for step in 1..text.len() {
            let mut b = LineBuffer::new(MAX_LINE);
            let mut got = Vec::new();
            for chunk in text.chunks(step) {
                b.extend(chunk);
                got.extend(all(&mut b));
            }
            if let Some(StreamLine::Complete(l)) = b.finish() {
                got.push(String::from_utf8_lossy(l).into_owned());
            }
            assert_eq!(
                got,
                [
                    "uci\r",
                    "id name A",
                    "",
                    "position startpos moves e2e4",
                    "go",
                    "last"
                ],
                "chunks of {step}"
            );
            assert_eq!(b.finish(), None);
        }
    }

    #[test]
    fn an_over_long_line_is_reported_once_and_skipped() {
        let mut b = LineBuffer::new(10);
        b.extend(b"short\n0123456789");
        assert_eq!(all(&mut b), ["short"]);
        b.extend(b"abc");
        assert_eq!(all(&mut b), ["<too long: 10>"]);
        b.extend(&[b'x'; 100]);
        assert_eq!(all(&mut b), Vec::<String>::new());
        b.extend(b"yy\nnext\n");
        assert_eq!(all(&mut b), ["next"]);
        // Exactly at the limit is fine; a complete line over it is reported.
        b.extend(b"0123456789\n0123456789A\nok\n");
        assert_eq!(all(&mut b), ["0123456789", "<too long: 10>", "ok"]);
        // An over-long last line without `\n` is dropped at EOF.
        b.extend(&[b'z'; 30]);
        assert_eq!(all(&mut b), ["<too long: 10>"]);
        assert_eq!(b.finish(), None);
    }

    #[test]
    fn memory_stays_bounded_by_the_limit() {
        let mut b = LineBuffer::new(1000);
        for _ in 0..2000 {
            let spare = b.spare();
            spare.fill(b'x');
            let n = spare.len();
            b.commit(n);
            while b.next_line().is_some() {}
        }
        assert!(b.buf.len() <= 4 * CHUNK, "{}", b.buf.len());
    }

    #[test]
    fn a_long_line_under_the_limit_is_split_in_linear_time() {
        // 8 MiB in 64 KiB reads: each byte is scanned once (the old splitter
        // rescanned the whole buffer on every read). Counted, not timed.
        let mut b = LineBuffer::new(16 << 20);
        let mut reads = 0;
        let mut total = 0;
        while total < 8 << 20 {
            let spare = b.spare();
            let n = spare.len().min(CHUNK);
            spare[..n].fill(b'a');
            b.commit(n);
            total += n;
            reads += 1;
            assert_eq!(b.next_line(), None);
            assert_eq!(b.scanned, b.end - b.start);
        }
        b.extend(b"\n");
        match b.next_line() {
            Some(StreamLine::Complete(l)) => assert_eq!(l.len(), total),
            other => panic!("{other:?}"),
        }
        assert!(reads >= 128);
    }
}
