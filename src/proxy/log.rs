//! The proxy log: every line with a UTC timestamp to the microsecond, the
//! proxy's pid and its direction. Opened for appending, so a GUI restarting
//! the engine does not erase the previous session.
//!
//! Decisions (issue 16, and issue 12 for the hostile cases):
//! * A GUI starts every instance with the same arguments, so the path is a
//!   template: `{pid}`, `{time}` (start time, `20261201T114000Z`) and
//!   `{engine}` (the engine program's file name) are filled in, or their
//!   brace-free forms `%p`, `%t`, `%e` (XBoard reads braces in an engine
//!   command as quoting; the letters are core(5)'s); a directory
//!   (an existing one, or a path ending in `/`) gets the name
//!   `uci960-{engine}-{time}-{pid}.log`, which two instances cannot share.
//!   Every line carries the pid all the same, so a file that several
//!   instances share (a template without `{pid}`, or a GUI restarting the
//!   proxy) can be split by instance.
//! * Each line goes to the file in one `write(2)` with whole lines only
//!   (O_APPEND), so lines of instances sharing a file never mix mid-line.
//! * The open never blocks: a FIFO no process reads is an error at once
//!   (`O_NONBLOCK` makes `open` fail with ENXIO instead of waiting), and a
//!   FIFO or device stays non-blocking, so a reader that stops reading
//!   cannot stall the proxy.
//! * A log that cannot be written (disk full, `/dev/full`, a FIFO reader
//!   that falls behind) stops logging; the failure is kept for the I/O
//!   layer to report once ([`Log::take_failure`]) and the proxy goes on.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::utc::UtcTime;

/// Lines are written once this much is buffered (or at each flush).
const FLUSH_AT: usize = 1 << 16;

/// Where a logged line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    GuiToProxy,
    ProxyToEngine,
    EngineToProxy,
    ProxyToGui,
    Note,
}

impl Direction {
    fn tag(self) -> &'static str {
        match self {
            Direction::GuiToProxy => "gui>proxy",
            Direction::ProxyToEngine => "proxy>engine",
            Direction::EngineToProxy => "engine>proxy",
            Direction::ProxyToGui => "proxy>gui",
            Direction::Note => "note",
        }
    }
}

/// Why a log could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("cannot open log '{path}': it is a FIFO that no process reads")]
    NoReader { path: PathBuf },
    #[error("cannot open log '{path}': {source}")]
    Open { path: PathBuf, source: io::Error },
}

/// An open log file.
pub struct Log {
    file: Option<File>,
    path: PathBuf,
    pid: u32,
    buf: Vec<u8>,
    /// Set when a write failed, taken by the I/O layer to report once.
    failure: Option<String>,
}

impl Log {
    /// Opens (creates or appends to) the log a template names, with the
    /// placeholders filled in for this process and `engine` (a program path
    /// or name).
    pub fn open(template: &Path, engine: &str) -> Result<Log, LogError> {
        let pid = std::process::id();
        let path = expand(template, pid, SystemTime::now(), engine);
        let file = open_nonblocking(&path).map_err(|source| {
            if crate::platform::fs::is_fifo_without_reader(&source) {
                LogError::NoReader { path: path.clone() }
            } else {
                LogError::Open {
                    path: path.clone(),
                    source,
                }
            }
        })?;
        Ok(Log {
            file: Some(file),
            path,
            pid,
            buf: Vec::with_capacity(FLUSH_AT),
            failure: None,
        })
    }

    /// The file written to (the template filled in).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one line (bytes written as they are, invalid UTF-8 included).
    pub fn line(&mut self, dir: Direction, line: &[u8]) {
        if self.file.is_none() {
            return;
        }
        let _ = write!(
            self.buf,
            "{} {} {:<12} ",
            timestamp(SystemTime::now()),
            self.pid,
            dir.tag()
        );
        self.buf.extend_from_slice(line);
        self.buf.push(b'\n');
        if self.buf.len() >= FLUSH_AT {
            self.flush();
        }
    }

    /// Writes what is buffered (called when the proxy would otherwise
    /// wait). A failure stops the log; see [`Log::take_failure`].
    pub fn flush(&mut self) {
        let Some(file) = &mut self.file else {
            self.buf.clear();
            return;
        };
        if self.buf.is_empty() {
            return;
        }
        let result = file.write_all(&self.buf);
        self.buf.clear();
        if let Err(e) = result {
            let why = if e.kind() == io::ErrorKind::WouldBlock {
                "its reader does not keep up".to_string()
            } else {
                e.to_string()
            };
            self.failure = Some(format!(
                "cannot write log '{}': {why}; logging stopped",
                self.path.display()
            ));
            self.file = None;
        }
    }

    /// The write failure, once (later calls return `None`).
    pub fn take_failure(&mut self) -> Option<String> {
        self.failure.take()
    }
}

/// Opens for appending without ever blocking in `open(2)`; the descriptor
/// stays non-blocking (see the module docs; a regular file ignores it).
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    crate::platform::fs::open_without_blocking(&mut options);
    options.open(path)
}

/// The log path for a template: `{pid}`, `{time}` and `{engine}` (or
/// `%p`, `%t`, `%e`) filled in; a directory gets a file name of its own.
pub fn expand(template: &Path, pid: u32, now: SystemTime, engine: &str) -> PathBuf {
    let Some(text) = template.to_str() else {
        return template.to_path_buf();
    };
    let text = if text.ends_with('/') || template.is_dir() {
        let sep = if text.ends_with('/') { "" } else { "/" };
        format!("{text}{sep}uci960-{{engine}}-{{time}}-{{pid}}.log")
    } else {
        text.to_string()
    };
    let engine_name = Path::new(engine)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("engine");
    let engine_name: String = engine_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let time: String = timestamp(now)
        .chars()
        .filter(|c| *c != '-' && *c != ':')
        .take_while(|c| *c != '.')
        .chain(std::iter::once('Z'))
        .collect();
    let text = text
        .replace("{pid}", &pid.to_string())
        .replace("{time}", &time)
        .replace("{engine}", &engine_name);
    PathBuf::from(fill_percent(&text, pid, &time, &engine_name))
}

/// The brace-free placeholders, named as in core(5)'s `core_pattern`:
/// `%p` the pid, `%t` the time, `%e` the engine, `%%` a `%`; any other `%`
/// stays as written.
fn fill_percent(text: &str, pid: u32, time: &str, engine: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let rest = chars.clone().next();
        match rest {
            Some('p') => out.push_str(&pid.to_string()),
            Some('t') => out.push_str(time),
            Some('e') => out.push_str(engine),
            Some('%') => out.push('%'),
            _ => {
                out.push('%');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// `2026-11-30T14:21:16.123456Z`.
pub fn timestamp(t: SystemTime) -> String {
    UtcTime::from(t).rfc3339_micros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn templates_are_filled_in() {
        let t = UNIX_EPOCH + Duration::from_micros(1_764_512_476_123_456);
        let p = expand(
            Path::new("/tmp/{engine}-{time}-{pid}.log"),
            42,
            t,
            "/usr/games/fairy-stockfish",
        );
        assert_eq!(
            p,
            PathBuf::from("/tmp/fairy-stockfish-20251130T142116Z-42.log")
        );
        // Odd characters in an engine name do not make odd file names.
        let p = expand(Path::new("{engine}.log"), 1, t, "C:/e/My Engine (x64).exe");
        assert_eq!(p, PathBuf::from("My_Engine__x64_.log"));
        // The brace-free form (XBoard reads braces as quoting), as core(5).
        let p = expand(Path::new("/tmp/%e-%t-%p-100%%-%x%.log"), 42, t, "stockfish");
        assert_eq!(
            p,
            PathBuf::from("/tmp/stockfish-20251130T142116Z-42-100%-%x%.log")
        );
        // A plain path stays as it is.
        assert_eq!(
            expand(Path::new("/tmp/p.log"), 1, t, "sf"),
            PathBuf::from("/tmp/p.log")
        );
    }

    #[test]
    fn a_directory_gets_a_name_per_instance() {
        let t = UNIX_EPOCH + Duration::from_secs(1_764_512_476);
        let dir = std::env::temp_dir();
        let a = expand(&dir, 7, t, "stockfish");
        assert_eq!(a.parent(), Some(dir.as_path()));
        assert_eq!(
            a.file_name().and_then(|n| n.to_str()),
            Some("uci960-stockfish-20251130T142116Z-7.log")
        );
        let b = expand(Path::new("logs/"), 8, t, "stockfish");
        assert_eq!(
            b,
            PathBuf::from("logs/uci960-stockfish-20251130T142116Z-8.log")
        );
    }
}
