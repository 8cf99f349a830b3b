//! Records appended whole to a growing file (the PGN of a match), and the
//! check a resume makes before it touches that file.
//!
//! Each append returns the record's [`Span`] (offset, length, hash), which
//! the caller keeps in its state; before an append the caller records the
//! text it is about to write as [`Pending`]. A resume then proves what it
//! may remove ([`Appender::resume`]):
//!
//! - every recorded span must hold the bytes it held when written, else
//!   the resume is refused and the file left untouched (it never deletes
//!   a recorded record);
//! - the pending record found whole (written, then interrupted before it
//!   was recorded) is handed back to be recorded, wherever it landed;
//! - the start of the pending record at the end of the file (a record cut
//!   by SIGKILL) is removed; anything else after the records was written
//!   by someone else and is kept, unless our cut record sits before it,
//!   which is refused.
//!
//! The check and the cut are made through an open appender, so under its
//! lock: on POSIX a regular file is locked (`flock`, advisory) while
//! appended to, so that two runs never write one file at once (runs that
//! share it on purpose hold a shared lock; a resume among them removes
//! bytes only while no other run holds the file). Windows byte-range locks
//! are mandatory and would stop readers (a GUI viewing the PGN), so there
//! the run lock of the state file is the only guard.
//!
//! A file that does not end with a line break gets one before the next
//! record (`1. e4 1-0[Event …` would glue two games together), also when
//! another program appended to it while the run held it.

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
        let separator = if regular { separator(path, len) } else { "" };
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
    /// record, after a missing line break) and where they should land:
    /// what to keep as [`Pending`]. The file is looked at again first, so
    /// that text another program appended since (ignoring the lock) gets
    /// its missing line break and the offset is where the file ends now.
    pub fn next_text(&mut self, record: &str) -> Pending {
        if self.regular
            && let Ok(len) = self.file.metadata().map(|m| m.len())
            && len != self.len
        {
            self.len = len;
            self.separator = separator(&self.path, len);
        }
        Pending {
            offset: self.len,
            text: format!("{}{record}", self.separator),
        }
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
        // Others may have appended since (a run sharing the file, a
        // program ignoring the lock); an append leaves the file position
        // at the end of what it wrote.
        let end = match self.regular {
            true => self
                .file
                .stream_position()
                .ok()
                // A position that is not past the record (a platform that
                // does not move it on append) is not believed.
                .filter(|&p| p >= self.len + len)
                .unwrap_or(self.len + len),
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

/// What goes before a record appended to a file of `len` bytes: a line
/// break when the file does not end with one.
fn separator(path: &Path, len: u64) -> &'static str {
    if len > 0 && last_byte(path, len) != Some(b'\n') {
        "\n"
    } else {
        ""
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tail {
    /// Bytes of the pending record cut by an interruption: removed.
    pub cut: u64,
    /// The pending record, found whole (written, then interrupted before
    /// it was recorded): kept where it is, for the caller to record.
    pub written: Option<Span>,
    /// Bytes someone else appended: kept, new records go after them.
    pub foreign: u64,
}

impl Appender {
    /// Checks the file against the records of a state (module docs) and
    /// removes the cut pending record if that is where the file ends.
    /// `end` is where the state says its records end (used when no record
    /// has a span). `adopt`: the caller kept what the pending record is and
    /// records it when it is found whole; otherwise a whole pending record
    /// at the end is removed like a cut one (and played again).
    ///
    /// Done under this appender's lock, so no other run writes meanwhile;
    /// a file shared with other runs is changed only while no other run
    /// holds it (its cut record is refused otherwise, the file untouched).
    /// A device or FIFO has nothing to check.
    pub fn resume(
        &mut self,
        spans: &[Span],
        end: u64,
        pending: Option<&Pending>,
        adopt: bool,
    ) -> Result<Tail, AppendError> {
        if !self.regular {
            return Ok(Tail::default());
        }
        let alone = !self.shared || self.try_exclusive()?;
        let tail = self.check_tail(spans, end, pending, adopt, alone);
        if self.shared && alone {
            self.share_again()?;
        }
        let tail = tail?;
        let len = self.file.metadata().map_err(|e| self.open_error(e))?.len();
        self.len = len;
        self.separator = separator(&self.path, len);
        Ok(tail)
    }

    fn open_error(&self, source: std::io::Error) -> AppendError {
        AppendError::Open {
            what: self.what,
            path: self.path.clone(),
            source,
        }
    }

    #[cfg(unix)]
    fn busy(&self) -> AppendError {
        AppendError::Busy {
            what: self.what,
            path: self.path.clone(),
        }
    }

    /// Trades the shared lock for the exclusive one if no other run holds
    /// the file; false (still shared) otherwise.
    #[cfg(unix)]
    fn try_exclusive(&self) -> Result<bool, AppendError> {
        match self.file.try_lock() {
            Ok(()) => Ok(true),
            // A failed conversion drops the shared lock (flock): take it back.
            Err(std::fs::TryLockError::WouldBlock) => match self.file.try_lock_shared() {
                Ok(()) => Ok(false),
                Err(_) => Err(self.busy()),
            },
            Err(std::fs::TryLockError::Error(e)) => Err(self.open_error(e)),
        }
    }

    /// Windows: the run lock is the only guard (module docs).
    #[cfg(not(unix))]
    fn try_exclusive(&self) -> Result<bool, AppendError> {
        Ok(true)
    }

    #[cfg(unix)]
    fn share_again(&self) -> Result<(), AppendError> {
        self.file.try_lock_shared().map_err(|_| self.busy())
    }

    #[cfg(not(unix))]
    fn share_again(&self) -> Result<(), AppendError> {
        Ok(())
    }

    fn cut_to(&self, len: u64) -> Result<(), AppendError> {
        OpenOptions::new()
            .write(true)
            .open(&self.path)
            .and_then(|f| f.set_len(len).and_then(|_| f.sync_all()))
            .map_err(|source| AppendError::Write {
                what: self.what,
                path: self.path.clone(),
                source,
            })
    }

    fn check_tail(
        &mut self,
        spans: &[Span],
        end: u64,
        pending: Option<&Pending>,
        adopt: bool,
        alone: bool,
    ) -> Result<Tail, AppendError> {
        let (what, path) = (self.what, self.path.clone());
        let differs = |reason: String| AppendError::Differs {
            what,
            path: path.clone(),
            reason,
        };
        let io = |source| AppendError::Open {
            what,
            path: path.clone(),
            source,
        };
        let len = self.file.metadata().map_err(io)?.len();
        let end = spans.iter().map(Span::end).max().unwrap_or(end);
        if let Some(last) = spans.last()
            && alone
            && len < end
            && len >= last.offset
            && end - len <= 2
        {
            // Only line breaks at the very end went missing (an editor): put
            // them back when that makes the last record whole again.
            let pad = &b"\n\n"[..(end - len) as usize];
            let mut bytes = Vec::new();
            File::open(&self.path)
                .and_then(|mut f| {
                    f.seek(SeekFrom::Start(last.offset))?;
                    f.read_to_end(&mut bytes)
                })
                .map_err(io)?;
            bytes.extend_from_slice(pad);
            if content_hash(&bytes) == last.hash {
                self.file
                    .write_all(pad)
                    .and_then(|_| self.file.sync_all())
                    .map_err(|source| AppendError::Write {
                        what,
                        path: path.clone(),
                        source,
                    })?;
                return self.check_tail(spans, end, pending, adopt, alone);
            }
        }
        if len < end {
            return Err(differs(format!(
                "is {len} bytes long, shorter than the {end} bytes of the games recorded in the state file"
            )));
        }
        if len == 0 {
            return Ok(Tail::default());
        }
        let mut file = File::open(&self.path).map_err(io)?;
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
        let mut tail = Tail {
            foreign: len - end,
            ..Tail::default()
        };
        // Only a pending record after the recorded ones is this run's
        // (one before them is a damaged state's, and ignored).
        let Some(p) = pending.filter(|p| p.offset >= end && p.offset <= len && !p.text.is_empty())
        else {
            return Ok(tail);
        };
        buf.clear();
        file.seek(SeekFrom::Start(end))
            .and_then(|_| (&mut file).take(len - end).read_to_end(&mut buf))
            .map_err(io)?;
        let text = p.text.as_bytes();
        let from = (p.offset - end) as usize;
        // Whole: where it was to land or, when others appended meanwhile
        // (a shared file), after that.
        if let Some(i) = memchr::memmem::find(&buf[from..], text) {
            let at = end + (from + i) as u64;
            if adopt {
                tail.written = Some(Span {
                    offset: at,
                    len: text.len() as u64,
                    hash: content_hash(text),
                });
                tail.foreign -= text.len() as u64;
            } else if alone && at + text.len() as u64 == len {
                self.cut_to(at)?;
                tail.cut = text.len() as u64;
                tail.foreign -= tail.cut;
            }
            return Ok(tail);
        }
        // Cut: the file ends with the start of the record.
        let lo = from.max(buf.len().saturating_sub(text.len() - 1));
        if let Some(j) = (lo..buf.len()).find(|&j| text.starts_with(&buf[j..])) {
            if !alone {
                return Err(differs(
                    "ends with the start of this tournament's game that was being written, and another run shares the file now; resume when it has ended (the cut game is removed then)".into(),
                ));
            }
            self.cut_to(end + j as u64)?;
            tail.cut = (buf.len() - j) as u64;
            tail.foreign -= tail.cut;
            return Ok(tail);
        }
        // Cut, then someone else's text: it cannot be removed. (A file
        // shared on purpose keeps it: every game starts alike there.)
        if !self.shared && buf.get(from) == Some(&text[0]) {
            let bytes = len - end;
            return Err(differs(format!(
                "holds {bytes} bytes after the last recorded game: the start of the game that was being written, then text this run did not write (another program appended to it); remove the cut game by hand or resume with another file"
            )));
        }
        Ok(tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_an_error_naming_the_file() {
        let Ok(mut w) = Appender::open("PGN file", Path::new("/dev/full")) else {
            return; // no /dev/full here
        };
        let err = w.append("[Event \"x\"]\n\n*\n\n").unwrap_err().to_string();
        assert!(err.contains("/dev/full"), "{err}");
        assert_eq!(w.len(), 0);
    }

    fn append_raw(path: &Path, bytes: &[u8]) {
        OpenOptions::new()
            .append(true)
            .open(path)
            .unwrap()
            .write_all(bytes)
            .unwrap();
    }

    #[test]
    fn resume_removes_only_its_own_cut_record() {
        let dir = crate::files::replace::tests::scratch("append");
        let path = dir.join("g.pgn");
        std::fs::write(&path, "old game without newline").unwrap();
        let mut a = Appender::open("PGN file", &path).unwrap();
        let first = a.next_text("one\n");
        let first = a.append(&first.text).unwrap();
        assert_eq!(first.offset, 24);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "old game without newline\none\n"
        );
        let pending = a.next_text("two two\n");
        drop(a);
        // Cut after three bytes, as by SIGKILL.
        append_raw(&path, b"two");
        let mut a = Appender::open("PGN file", &path).unwrap();
        let tail = a.resume(&[first], 0, Some(&pending), true).unwrap();
        assert_eq!(tail.cut, 3);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), first.end());
        drop(a);
        // Someone else's text after the records: kept.
        append_raw(&path, b"foreign\n");
        let mut a = Appender::open("PGN file", &path).unwrap();
        let tail = a.resume(&[first], 0, Some(&pending), true).unwrap();
        assert_eq!((tail.cut, tail.foreign), (0, 8));
        drop(a);
        // A recorded record changed: refused, the file untouched.
        let before = std::fs::read(&path).unwrap();
        let damaged = Span { hash: 1, ..first };
        let mut a = Appender::open("PGN file", &path).unwrap();
        let err = a.resume(&[damaged], 0, None, true).unwrap_err();
        assert!(
            err.is_usage() && err.to_string().contains("record 1"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Found by the interleaving test: a run killed after writing a game
    /// whole but before recording it, in a file others appended to since
    /// (a shared PGN), had that game kept as foreign text and played
    /// again: the game twice. It is found whole after where it was to
    /// land and handed back to be recorded. (POSIX: where a shared append
    /// landed is read from the file position, docs/RELIABILITY.md.)
    #[cfg(unix)]
    #[test]
    fn a_written_but_unrecorded_record_is_found_whole() {
        let dir = crate::files::replace::tests::scratch("append-whole");
        let path = dir.join("g.pgn");
        let mut a = Appender::open_shared("PGN file", &path).unwrap();
        let first = a.next_text("one\n");
        let first = a.append(&first.text).unwrap();
        let pending = a.next_text("two\n");
        // Another run's record lands first, then ours (then SIGKILL).
        append_raw(&path, b"other\n");
        let span = a.append(&pending.text).unwrap();
        assert_eq!(
            span.offset,
            pending.offset + 6,
            "the span is where it landed"
        );
        append_raw(&path, b"more\n");
        drop(a);
        let before = std::fs::read(&path).unwrap();
        let mut a = Appender::open_shared("PGN file", &path).unwrap();
        let tail = a.resume(&[first], 0, Some(&pending), true).unwrap();
        assert_eq!(tail.written, Some(span));
        assert_eq!(tail.foreign, 11);
        assert_eq!(std::fs::read(&path).unwrap(), before, "nothing removed");
        drop(a);
        // Not adopted (no record kept), it is removed only at the end.
        let mut a = Appender::open_shared("PGN file", &path).unwrap();
        let tail = a.resume(&[first], 0, Some(&pending), false).unwrap();
        assert_eq!((tail.written, tail.cut), (None, 0));
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Found by reading what the interleaving test exercises: a resume cut
    /// the PGN before taking its lock, so a resume refused because another
    /// run held the file had already changed it (and that run's offsets).
    /// Now the cut happens through an open appender only: under an
    /// exclusive lock, or in a shared file only while no other run holds
    /// it.
    #[cfg(unix)]
    #[test]
    fn a_cut_is_made_only_while_no_other_run_holds_the_file() {
        let dir = crate::files::replace::tests::scratch("append-locked");
        let path = dir.join("g.pgn");
        let mut a = Appender::open_shared("PGN file", &path).unwrap();
        let first = a.next_text("one\n");
        let first = a.append(&first.text).unwrap();
        let pending = a.next_text("two two\n");
        append_raw(&path, b"two");
        drop(a);
        let before = std::fs::read(&path).unwrap();
        let other = Appender::open("PGN file", &path).unwrap();
        assert!(matches!(
            Appender::open("PGN file", &path),
            Err(AppendError::Busy { .. })
        ));
        drop(other);
        let other = Appender::open_shared("PGN file", &path).unwrap();
        let mut a = Appender::open_shared("PGN file", &path).unwrap();
        let err = a.resume(&[first], 0, Some(&pending), true).unwrap_err();
        assert!(
            err.is_usage() && err.to_string().contains("shares"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), before, "untouched");
        drop(other);
        let tail = a.resume(&[first], 0, Some(&pending), true).unwrap();
        assert_eq!(tail.cut, 3);
        assert_eq!(a.len(), first.end());
        // Still shared: another sharing run may open it.
        Appender::open_shared("PGN file", &path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A program appending while the run holds the file (ignoring the
    /// lock) moves the run's next record: its offset and line break follow
    /// the file, so the record's span stays right.
    #[test]
    fn a_record_after_a_foreign_append_gets_its_line_break_and_offset() {
        let dir = crate::files::replace::tests::scratch("append-foreign");
        let path = dir.join("g.pgn");
        let mut a = Appender::open("PGN file", &path).unwrap();
        let one = a.next_text("one\n");
        a.append(&one.text).unwrap();
        append_raw(&path, b"cat");
        let two = a.next_text("two\n");
        assert_eq!((two.offset, two.text.as_str()), (7, "\ntwo\n"));
        let span = a.append(&two.text).unwrap();
        assert_eq!(span.offset, 7);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ncat\ntwo\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
