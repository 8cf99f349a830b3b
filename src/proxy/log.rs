//! The proxy log: every line with a UTC timestamp to the microsecond and its
//! direction. Opened for appending, so a GUI restarting the engine does not
//! erase the previous session.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::SystemTime;

use crate::utc::UtcTime;

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

/// An open log file.
pub struct Log {
    out: BufWriter<File>,
}

impl Log {
    /// Opens (creates or appends to) a log file.
    pub fn open(path: &Path) -> io::Result<Log> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Log {
            out: BufWriter::new(file),
        })
    }

    /// Writes one line (bytes written as they are, invalid UTF-8 included).
    pub fn line(&mut self, dir: Direction, line: &[u8]) {
        let _ = write!(
            self.out,
            "{} {:<12} ",
            timestamp(SystemTime::now()),
            dir.tag()
        );
        let _ = self.out.write_all(line);
        let _ = self.out.write_all(b"\n");
    }

    /// Flushes (called when the proxy would otherwise wait).
    pub fn flush(&mut self) {
        let _ = self.out.flush();
    }
}

/// `2026-11-30T14:21:16.123456Z`.
pub fn timestamp(t: SystemTime) -> String {
    UtcTime::from(t).rfc3339_micros()
}
