//! The proxy log: every line with a UTC timestamp to the microsecond and its
//! direction. Opened for appending, so a GUI restarting the engine does not
//! erase the previous session.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

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
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, day) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        d.subsec_micros()
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's
/// algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps() {
        let t = UNIX_EPOCH + Duration::from_micros(1_764_512_476_123_456);
        assert_eq!(timestamp(t), "2025-11-30T14:21:16.123456Z");
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000000Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(timestamp(t), "2000-02-29T00:00:00.000000Z");
    }
}
