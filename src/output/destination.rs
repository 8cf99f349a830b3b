//! Where a document goes: stdout, or a file. A file is never written in
//! place: a whole document replaces it atomically
//! ([`crate::files::replace`]), a growing one (a book) is staged and put in
//! place when done ([`crate::files::Staged`]), so a reader sees the old
//! file or the new one and an error leaves the old one whole. The command
//! picks the destination (a flag, a TOML key); nothing here knows which.

use std::io::{self, Write};
use std::path::PathBuf;

use super::console::{StdoutError, emit};
use crate::files::{ReplaceError, Staged};

/// Where a document goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    Stdout,
    /// A file, with what it is for messages (`"JSON report"`).
    File {
        what: &'static str,
        path: PathBuf,
    },
}

/// A document that could not be written (the old file, if any, is whole).
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Stdout(#[from] StdoutError),
    #[error(transparent)]
    File(#[from] ReplaceError),
}

impl Destination {
    /// A file destination.
    pub fn file(what: &'static str, path: impl Into<PathBuf>) -> Destination {
        Destination::File {
            what,
            path: path.into(),
        }
    }

    /// Writes a whole document: to stdout, flushed; or replacing the file.
    pub fn write(&self, text: &str) -> Result<(), WriteError> {
        match self {
            Destination::Stdout => Ok(emit(text)?),
            Destination::File { what, path } => {
                Ok(crate::files::replace(what, path, text.as_bytes())?)
            }
        }
    }

    /// Opens the destination for a document written bit by bit; a file is
    /// staged until [`Sink::finish`].
    pub fn open(&self) -> Result<Sink, WriteError> {
        Ok(match self {
            Destination::Stdout => Sink::Stdout(io::stdout().lock()),
            Destination::File { what, path } => Sink::File(Staged::create(what, path)?),
        })
    }
}

/// A destination open for writing (see [`Destination::open`]); `Discard`
/// takes everything and keeps nothing (a book packaged elsewhere).
pub enum Sink {
    Stdout(io::StdoutLock<'static>),
    File(Staged),
    Discard,
}

impl Sink {
    /// Flushes, and puts a staged file in place.
    pub fn finish(self) -> Result<(), WriteError> {
        match self {
            Sink::Stdout(mut out) => Ok(out.flush().map_err(StdoutError::from)?),
            Sink::File(staged) => Ok(staged.commit()?),
            Sink::Discard => Ok(()),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(f) => f.write(buf),
            Sink::Discard => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::File(f) => f.flush(),
            Sink::Discard => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_a_staged_one_appears_only_when_finished() {
        let dir = std::env::temp_dir().join(format!("uci960-dest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("report.json");
        std::fs::write(&path, "old\n").unwrap();
        Destination::file("JSON report", &path)
            .write("new\n")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");

        let mut sink = Destination::file("book output", &path).open().unwrap();
        sink.write_all(b"line 1\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        sink.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "line 1\n");

        let err = Destination::file("JSON report", &dir)
            .write("x")
            .unwrap_err();
        assert!(err.to_string().contains("JSON report"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
