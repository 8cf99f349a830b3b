//! Calendar dates and times in UTC, for the PGN `Date` tag and the proxy
//! log's timestamps: the one copy of the civil-date algorithm (H. Hinnant's
//! `civil_from_days`, proleptic Gregorian).
//!
//! ```
//! use std::time::{Duration, UNIX_EPOCH};
//! use uci960::utc::UtcTime;
//! let t = UtcTime::from(UNIX_EPOCH + Duration::from_secs(951_782_400));
//! assert_eq!((t.year, t.month, t.day), (2000, 2, 29));
//! assert_eq!(t.pgn_date(), "2000.02.29");
//! ```

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment in UTC, to the microsecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub micros: u32,
}

impl From<SystemTime> for UtcTime {
    /// Times before 1970 (a clock set wrong) read as 1970-01-01.
    fn from(t: SystemTime) -> UtcTime {
        let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
        let secs = d.as_secs();
        let (year, month, day) = civil_from_days((secs / 86_400) as i64);
        let rem = (secs % 86_400) as u32;
        UtcTime {
            year,
            month,
            day,
            hour: rem / 3600,
            minute: rem / 60 % 60,
            second: rem % 60,
            micros: d.subsec_micros(),
        }
    }
}

impl UtcTime {
    pub fn now() -> UtcTime {
        UtcTime::from(SystemTime::now())
    }

    /// `YYYY.MM.DD`, as PGN's `Date` tag.
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// `YYYY-MM-DDThh:mm:ss.zzz UTC`: cutechess-cli's `GameStartTime` /
    /// `GameEndTime` form (Qt's `yyyy-MM-ddThh:mm:ss.zzz t`, the zone
    /// always UTC here).
    pub fn pgn_timestamp(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03} UTC",
            self.year,
            self.month,
            self.day,
            self.hour,
            self.minute,
            self.second,
            self.micros / 1000
        )
    }

    /// `YYYY-MM-DDThh:mm:ss.ffffffZ` (RFC 3339).
    pub fn rfc3339_micros(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second, self.micros
        )
    }
}

/// `hh:mm:ss` of whole seconds, cutechess-cli's `GameDuration` (hours past
/// 99 keep all their digits).
pub fn pgn_duration(secs: u64) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Days since 1970-01-01 to a proleptic Gregorian `(year, month, day)`.
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
    fn cutechess_timestamps() {
        // 2000-02-29 12:34:56.789012 UTC
        let t = UtcTime::from(UNIX_EPOCH + Duration::from_micros(951_827_696_789_012));
        assert_eq!(t.pgn_timestamp(), "2000-02-29T12:34:56.789 UTC");
        assert_eq!(pgn_duration(0), "00:00:00");
        assert_eq!(pgn_duration(3_725), "01:02:05");
        assert_eq!(pgn_duration(360_000), "100:00:00");
    }

    #[test]
    fn known_dates() {
        // Unix times of these dates: `date -u -d 2000-02-29 +%s` and the like.
        for (days, date) in [
            (0, (1970, 1, 1)),
            (-1, (1969, 12, 31)),
            (11_016, (2000, 2, 29)),
            (11_017, (2000, 3, 1)),
            (-25_508, (1900, 3, 1)),
            (47_541, (2100, 3, 1)),
            (20_422, (2025, 11, 30)),
            (2_932_896, (9999, 12, 31)),
        ] {
            assert_eq!(civil_from_days(days), date, "day {days}");
        }
    }

    /// Walks day by day from 1600 to 2400 and checks each date follows the
    /// one before by the Gregorian rules (month lengths, leap years), an
    /// oracle independent of the algorithm's arithmetic.
    #[test]
    fn every_day_follows_the_one_before() {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let length = |y: i64, m: u32| match m {
            2 if leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let start = -135_140; // 1600-01-01
        let mut prev = civil_from_days(start);
        assert_eq!(prev, (1600, 1, 1));
        for z in start + 1..=157_419 {
            let (y, m, d) = prev;
            let next = if d < length(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
            let got = civil_from_days(z);
            assert_eq!(got, next, "day {z}");
            prev = got;
        }
        assert_eq!(prev, (2400, 12, 31));
    }

    #[test]
    fn formats() {
        let t = UtcTime::from(UNIX_EPOCH + Duration::from_micros(1_764_512_476_123_456));
        assert_eq!(t.rfc3339_micros(), "2025-11-30T14:21:16.123456Z");
        assert_eq!(t.pgn_date(), "2025.11.30");
        assert_eq!(
            UtcTime::from(UNIX_EPOCH).rfc3339_micros(),
            "1970-01-01T00:00:00.000000Z"
        );
    }
}
