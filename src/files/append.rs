//! Records appended whole to a growing file (the PGN of a match), and the
//! check a resume makes before it touches that file.
//!
//! Each append returns the record's [`Span`] (offset, length, hash), which
//! the caller keeps in its state; before an append the caller records the
//! text it is about to write as [`Pending`]. A resume then proves what it
//! may remove ([`verify_tail`]):
//!
//! - every recorded span must hold the bytes it held when written, else
//!   the resume is refused and the file left untouched (it never deletes
//!   a recorded record);
//! - bytes after the last recorded record are removed only when they are
//!   the start of the pending text at the right offset (a record cut by
//!   SIGKILL); anything else there was written by someone else and is
//!   kept, unless our cut record sits before it, which is refused.
//!
//! A file that does not end with a line break gets one before the first
//! record (`1. e4 1-0[Event …` would glue two games together). On POSIX a
//! regular file is locked (`flock`, advisory) while appended to, so that
//! two runs never write one file at once; Windows byte-range locks are
//! mandatory and would stop readers (a GUI viewing the PGN), so there the
//! run lock of the state file is the only guard.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::platform::fs::open_for_writing;

/// Where a record lies in the file and what it held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub offset: u64,
    pub len: u64,
    /// [`content_hash`] of the bytes.
    pub hash: u64,
}

impl Span {
    pub fn end(&self) -> u64 {
        self.offset + self.len
    }
}

/// A record about to be appended at `offset`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pending {
    pub offset: u64,
    pub text: String,
}

/// FNV-1a, 64 bits: stable across versions and platforms (the hash is
/// kept in state files), and enough to tell a record from another text.
pub fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Why a file cannot be appended to or resumed.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    #[error("cannot open {what} {}: {source}", path.display())]
    Open {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{what} {} is a FIFO that no process reads", path.display())]
    NoReader { what: &'static str, path: PathBuf },
    #[error("another run is writing {what} {}; two runs append to one file only when both share it on purpose (the shared PGN setting)", path.display())]
    Busy { what: &'static str, path: PathBuf },
    #[error("cannot write {what} {}: {source}; the run stops (finished records are kept)", path.display())]
    Write {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot resume: {what} {} {reason}; it is left as it is", path.display())]
    Differs {
        what: &'static str,
        path: PathBuf,
        reason: String,
    },
}

impl AppendError {
    /// Whether the user can fix it (another path, another time): a usage
    /// error rather than a failure of the disk.
    pub fn is_usage(&self) -> bool {
        matches!(self, AppendError::Busy { .. } | AppendError::Differs { .. })
    }
}

/// A file open for appending records.
pub struct Appender {
    what: &'static str,
    path: PathBuf,
    file: File,
    /// Length after the last record written.
    len: u64,
    /// Written before the first record: the missing line break.
    separator: &'static str,
    /// A regular file (not a device or FIFO, which keep nothing to check).
    regular: bool,
    /// Other runs may append too ([`Appender::open_shared`]).
    shared: bool,
}

impl Appender {
    /// Opens (creates) `path` for appending; `what` names it in errors. On
    /// POSIX the file is locked for as long as the appender lives: another
    /// run appending to it is refused ([`AppendError::Busy`]).
    pub fn open(what: &'static str, path: &Path) -> Result<Appender, AppendError> {
        Appender::open_as(what, path, false)
    }

    /// The same for a file other runs that share it append to at the same
    /// time (asked for explicitly): they hold a shared lock, so a run that
    /// did not ask is still refused, and vice versa. Each record is one
    /// `write` to a file opened for appending, which the kernel does not
    /// interleave with another's on a local file system; the record's
    /// offset is where the write ended up.
    pub fn open_shared(what: &'static str, path: &Path) -> Result<Appender, AppendError> {
        Appender::open_as(what, path, true)
    }

    fn open_as(what: &'static str, path: &Path, shared: bool) -> Result<Appender, AppendError> {
        let file = open_for_writing(OpenOptions::new().create(true).append(true), path).map_err(
            |source| {
                let path = path.to_path_buf();
                if crate::platform::fs::is_fifo_without_reader(&source) {
                    AppendError::NoReader { what, path }
                } else {
                    AppendError::Open { what, path, source }
                }
            },
        )?;
        let meta = file.metadata().ok();
        let regular = meta.as_ref().is_some_and(|m| m.is_file());
        let len = meta.map(|m| m.len()).unwrap_or(0);
        #[cfg(unix)]
        if regular
            && let Err(std::fs::TryLockError::WouldBlock) = if shared {
                file.try_lock_shared()
            } else {
                file.try_lock()
            }
        {
            return Err(AppendError::Busy {
                what,
                path: path.to_path_buf(),
            });
        }
        let separator = if regular && len > 0 && last_byte(path, len) != Some(b'\n') {
            "\n"
        } else {
            ""
        };
        Ok(Appender {
            what,
            path: path.to_path_buf(),
            file,
            len,
            separator,
            regular,
            shared,
        })
    }

    /// Whether the file is a regular file: only then does a resume check
    /// it, so only then is a [`Pending`] record worth keeping.
    pub fn is_regular(&self) -> bool {
        self.regular
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the next [`append`](Self::append) of `record` writes (the
    /// record, after a missing line break): what to keep as [`Pending`].
    pub fn next_text(&self, record: &str) -> String {
        format!("{}{record}", self.separator)
    }

    /// Appends `text` (from [`next_text`](Self::next_text)), then flushes
    /// and syncs it: a state written next never counts a record the disk
    /// does not hold.
    pub fn append(&mut self, text: &str) -> Result<Span, AppendError> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .and_then(|_| match self.file.sync_data() {
                // Character devices and pipes cannot be synced.
                Err(e) if crate::platform::fs::is_unsyncable(&e) => Ok(()),
                other => other,
            })
            .map_err(|source| AppendError::Write {
                what: self.what,
                path: self.path.clone(),
                source,
            })?;
        let len = text.len() as u64;
        // Shared: others may have appended since; an append leaves the
        // file position at the end of what it wrote.
        let end = match self.shared && self.regular {
            true => self.file.stream_position().unwrap_or(self.len + len),
            false => self.len + len,
        };
        let span = Span {
            offset: end - len,
            len,
            hash: content_hash(text.as_bytes()),
        };
        self.len = end;
        self.separator = "";
        Ok(span)
    }
}

fn last_byte(path: &Path, len: u64) -> Option<u8> {
    let mut f = File::open(path).ok()?;
    f.seek(SeekFrom::Start(len - 1)).ok()?;
    let mut b = [0u8];
    f.read_exact(&mut b).ok()?;
    Some(b[0])
}

/// What a resume found after the last recorded record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tail {
    /// Nothing: the file ends with the last record.
    Clean,
    /// The start of the pending record (cut by an interruption): removed.
    Cut { bytes: u64 },
    /// Bytes someone else appended: kept, new records go after them.
    Foreign { bytes: u64 },
}

/// Checks `path` against the records of a state (module docs) and removes
/// the cut pending record if that is what follows them. `end` is where the
/// state says its records end (used when no record has a span); a path
/// that is not a regular file (a device, a FIFO) has nothing to check.
pub fn verify_tail(
    what: &'static str,
    path: &Path,
    spans: &[Span],
    end: u64,
    pending: Option<&Pending>,
) -> Result<Tail, AppendError> {
    let differs = |reason: String| AppendError::Differs {
        what,
        path: path.to_path_buf(),
        reason,
    };
    let io = |source| AppendError::Open {
        what,
        path: path.to_path_buf(),
        source,
    };
    let len = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return Ok(Tail::Clean),
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(io(e)),
    };
    let end = spans.iter().map(Span::end).max().unwrap_or(end);
    if let Some(last) = spans.last()
        && len < end
        && len >= last.offset
        && end - len <= 2
    {
        // Only line breaks at the very end went missing (an editor): put
        // them back when that makes the last record whole again.
        let pad = &b"\n\n"[..(end - len) as usize];
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|mut f| {
                f.seek(SeekFrom::Start(last.offset))?;
                f.read_to_end(&mut bytes)
            })
            .map_err(io)?;
        bytes.extend_from_slice(pad);
        if content_hash(&bytes) == last.hash {
            OpenOptions::new()
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(pad).and_then(|_| f.sync_all()))
                .map_err(|source| AppendError::Write {
                    what,
                    path: path.to_path_buf(),
                    source,
                })?;
            return verify_tail(what, path, spans, end, pending);
        }
    }
    if len < end {
        return Err(differs(format!(
            "is {len} bytes long, shorter than the {end} bytes of the games recorded in the state file"
        )));
    }
    if len == 0 {
        return Ok(Tail::Clean);
    }
    let mut file = File::open(path).map_err(io)?;
    let mut buf = Vec::new();
    for (i, s) in spans.iter().enumerate() {
        buf.clear();
        file.seek(SeekFrom::Start(s.offset))
            .and_then(|_| (&mut file).take(s.len).read_to_end(&mut buf))
            .map_err(io)?;
        if content_hash(&buf) != s.hash {
            return Err(differs(format!(
                "does not hold record {} (bytes {}..{}) as it was written",
                i + 1,
                s.offset,
                s.end()
            )));
        }
    }
    if len == end {
        return Ok(Tail::Clean);
    }
    let bytes = len - end;
    buf.clear();
    file.seek(SeekFrom::Start(end))
        .and_then(|_| (&mut file).take(bytes).read_to_end(&mut buf))
        .map_err(io)?;
    match pending {
        Some(p) if p.offset == end && p.text.as_bytes().starts_with(&buf) => {
            OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|f| f.set_len(end).and_then(|_| f.sync_all()))
                .map_err(|source| AppendError::Write {
                    what,
                    path: path.to_path_buf(),
                    source,
                })?;
            Ok(Tail::Cut { bytes })
        }
        Some(p)
            if p.offset == end
                && !p.text.is_empty()
                && buf.starts_with(&p.text.as_bytes()[..1]) =>
        {
            Err(differs(format!(
                "holds {bytes} bytes after the last recorded game: the start of the game that was being written, then text this run did not write (another program appended to it); remove the cut game by hand or resume with another file"
            )))
        }
        _ => Ok(Tail::Foreign { bytes }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resume_removes_only_its_own_cut_record() {
        let dir = crate::files::replace::tests::scratch("append");
        let path = dir.join("g.pgn");
        std::fs::write(&path, "old game without newline").unwrap();
        let mut a = Appender::open("PGN file", &path).unwrap();
        let first = a.append(&a.next_text("one\n")).unwrap();
        assert_eq!(first.offset, 24);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "old game without newline\none\n"
        );
        let pending = Pending {
            offset: a.len(),
            text: a.next_text("two two\n"),
        };
        drop(a);
        // Cut after three bytes, as by SIGKILL.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"two").unwrap();
        drop(f);
        let tail = verify_tail("PGN file", &path, &[first], 0, Some(&pending)).unwrap();
        assert_eq!(tail, Tail::Cut { bytes: 3 });
        assert_eq!(std::fs::metadata(&path).unwrap().len(), first.end());
        // Someone else's text after the records: kept.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"foreign\n")
            .unwrap();
        let tail = verify_tail("PGN file", &path, &[first], 0, Some(&pending)).unwrap();
        assert_eq!(tail, Tail::Foreign { bytes: 8 });
        // A recorded record changed: refused, the file untouched.
        let before = std::fs::read(&path).unwrap();
        let damaged = Span { hash: 1, ..first };
        let err = verify_tail("PGN file", &path, &[damaged], 0, None).unwrap_err();
        assert!(
            err.is_usage() && err.to_string().contains("record 1"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
