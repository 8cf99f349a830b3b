//! Reading files a user names (configs, books, a PGN to resume): bounded in
//! size, never blocking on open, lines bounded in length.
//!
//! A path may name anything: `/dev/zero` (endless), a FIFO nobody writes
//! (an open that blocks forever), a 5 GB file. So a user file is opened
//! non-blocking (a FIFO opens at once), must be a regular file (decided:
//! devices, FIFOs and sockets are refused, `<(…)` process substitution
//! included; write the text to a file first), and may not pass a size
//! limit named in the error. Lines are read through [`BoundedLines`],
//! which never holds more than its maximum line length, whatever the file.
//!
//! Text may start with a UTF-8 byte order mark (Windows editors write one);
//! it is dropped.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

/// A size as people read it (`1 MiB`, `64 MiB`, `512 bytes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: u64 = 1 << 20;
        const KIB: u64 = 1 << 10;
        match self.0 {
            n if n >= MIB && n % MIB == 0 => write!(f, "{} MiB", n / MIB),
            n if n >= KIB && n % KIB == 0 => write!(f, "{} KiB", n / KIB),
            n => write!(f, "{n} bytes"),
        }
    }
}

/// The most a config file (TOML) may hold.
pub const CONFIG_LIMIT: u64 = 1 << 20;
/// The most a book (EPD/FEN lines) may hold: about a million positions,
/// each kept in memory as a checked position.
pub const BOOK_LIMIT: u64 = 64 << 20;
/// The most a PGN read back (`match --resume`) may hold.
pub const PGN_LIMIT: u64 = 1 << 30;
/// The longest line of a book: a FEN is under 100 bytes, an EPD with
/// operations a few hundred.
pub const BOOK_LINE_LIMIT: usize = 4096;

/// Why a user file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("cannot open {what} '{}': {cause}", path.display())]
    Open {
        what: &'static str,
        path: PathBuf,
        cause: io::Error,
    },
    #[error("{what} '{}' is {kind}, not a regular file", path.display())]
    NotRegular {
        what: &'static str,
        path: PathBuf,
        kind: &'static str,
    },
    #[error("{what} '{}' is larger than {limit}, the limit for a {what}", path.display())]
    TooLarge {
        what: &'static str,
        path: PathBuf,
        limit: Size,
    },
    #[error("cannot read {what} '{}': {cause}", path.display())]
    Read {
        what: &'static str,
        path: PathBuf,
        cause: io::Error,
    },
    #[error("{what} '{}' is not UTF-8 text (line {line})", path.display())]
    NotUtf8 {
        what: &'static str,
        path: PathBuf,
        line: usize,
    },
}

/// What a path names when it is not a regular file.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let ft = meta.file_type();
    if ft.is_dir() {
        return "a directory";
    }
    crate::platform::fs::special_kind(&ft).unwrap_or("not a plain file")
}

/// Opens a user file for reading: non-blocking (a FIFO without a writer
/// must not hang the open), a regular file, at most `limit` bytes.
pub fn open(path: &Path, what: &'static str, limit: u64) -> Result<File, FileError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    crate::platform::fs::open_without_blocking(&mut options);
    let file = options.open(path).map_err(|cause| FileError::Open {
        what,
        path: path.to_path_buf(),
        cause,
    })?;
    let meta = file.metadata().map_err(|cause| FileError::Read {
        what,
        path: path.to_path_buf(),
        cause,
    })?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            what,
            path: path.to_path_buf(),
            kind: kind_of(&meta),
        });
    }
    if meta.len() > limit {
        return Err(FileError::TooLarge {
            what,
            path: path.to_path_buf(),
            limit: Size(limit),
        });
    }
    Ok(file)
}

/// Reads a whole user file as text (a leading byte order mark dropped).
pub fn read_text(path: &Path, what: &'static str, limit: u64) -> Result<String, FileError> {
    let file = open(path, what, limit)?;
    let mut bytes = Vec::new();
    // The file may grow after the size check: read one byte past the limit
    // to see it.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|cause| FileError::Read {
            what,
            path: path.to_path_buf(),
            cause,
        })?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            what,
            path: path.to_path_buf(),
            limit: Size(limit),
        });
    }
    let body = bytes.strip_prefix(BOM).unwrap_or(&bytes);
    match std::str::from_utf8(body) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => Err(FileError::NotUtf8 {
            what,
            path: path.to_path_buf(),
            line: 1 + body[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
        }),
    }
}

/// The UTF-8 byte order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One line from [`BoundedLines`].
#[derive(Debug, PartialEq, Eq)]
pub enum FileLine<'a> {
    /// The line without its `\n` / `\r\n` (and, on line 1, without a BOM).
    Text(&'a [u8]),
    /// Longer than the limit: its first bytes (up to the limit) and its
    /// whole length; the rest was read past, not kept.
    TooLong { start: &'a [u8], length: usize },
}

/// Lines of a reader, each at most `max` bytes kept: a longer line is
/// read past (linear, constant memory) and reported as [`FileLine::TooLong`].
pub struct BoundedLines<R> {
    reader: R,
    max: usize,
    buf: Vec<u8>,
    number: usize,
}

impl<R: BufRead> BoundedLines<R> {
    pub fn new(reader: R, max: usize) -> BoundedLines<R> {
        BoundedLines {
            reader,
            max,
            buf: Vec::new(),
            number: 0,
        }
    }

    /// The number of the line last returned (from 1).
    pub fn number(&self) -> usize {
        self.number
    }

    /// The next line, `None` at the end.
    pub fn next_line(&mut self) -> io::Result<Option<FileLine<'_>>> {
        self.buf.clear();
        let mut length = 0usize;
        let mut seen_any = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !seen_any {
                    return Ok(None);
                }
                break;
            }
            seen_any = true;
            let (take, done) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i, i + 1),
                None => (chunk.len(), chunk.len()),
            };
            let room = (self.max + 1).saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            length += take;
            let found = done > take;
            self.reader.consume(done);
            if found {
                break;
            }
        }
        self.number += 1;
        // `\r\n`: the `\r` belongs to the ending.
        if length <= self.max + 1 && self.buf.last() == Some(&b'\r') {
            self.buf.pop();
            length -= 1;
        }
        let mut text: &[u8] = &self.buf;
        if self.number == 1 && text.starts_with(BOM) {
            text = &text[BOM.len()..];
            length -= BOM.len();
        }
        Ok(Some(if length > self.max {
            FileLine::TooLong {
                start: &text[..self.max.min(text.len())],
                length,
            }
        } else {
            FileLine::Text(text)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<String> {
        let mut reader = BoundedLines::new(input, max);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(match line {
                FileLine::Text(t) => String::from_utf8_lossy(t).into_owned(),
                FileLine::TooLong { start, length } => {
                    format!("LONG {} {length}", String::from_utf8_lossy(start))
                }
            });
        }
        out
    }

    #[test]
    fn lines_are_split_and_bounded() {
        assert_eq!(lines(b"a\r\nbb\n\nccc", 8), ["a", "bb", "", "ccc"]);
        assert_eq!(lines(b"abcdefghij\nx\n", 4), ["LONG abcd 10", "x"]);
        assert_eq!(lines(b"\xEF\xBB\xBFfen\n", 8), ["fen"]);
        assert_eq!(lines(b"", 8), Vec::<String>::new());
        assert_eq!(lines(b"abcd\r\n", 4), ["abcd"]);
    }

    #[test]
    fn a_long_line_is_not_kept() {
        let big = vec![b'x'; 1 << 20];
        let mut reader = BoundedLines::new(std::io::BufReader::new(&big[..]), 16);
        match reader.next_line().unwrap() {
            Some(FileLine::TooLong { start, length }) => {
                assert_eq!((start.len(), length), (16, 1 << 20));
            }
            other => panic!("{other:?}"),
        }
        assert!(reader.buf.capacity() < 1024);
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_refused() {
        let err = open(Path::new("/dev/zero"), "book", 100).unwrap_err();
        assert!(err.to_string().contains("is a device"), "{err}");
        let err = open(Path::new("/"), "config", 100).unwrap_err();
        assert!(err.to_string().contains("a directory"), "{err}");
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(Size(1 << 20).to_string(), "1 MiB");
        assert_eq!(Size(4096).to_string(), "4 KiB");
        assert_eq!(Size(100).to_string(), "100 bytes");
    }
}
