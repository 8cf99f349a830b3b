//! Seconds as people type them (`10`, `0.5`, `1:30`, `1e3`) turned into a
//! [`Duration`], checked: every flag and config key that takes seconds goes
//! through here, so NaN, infinity, a negative number or `1e300` is a clear
//! error naming the flag and value, never a panic in
//! `Duration::from_secs_f64`.
//!
//! The largest accepted value is [`MAX_SECONDS`] (a million seconds, eleven
//! and a half days): longer than any game or timeout, and small enough
//! that adding it to a clock reading can never overflow.
//!
//! ```
//! use std::time::Duration;
//! use uci960::seconds::parse;
//! assert_eq!(parse("1:30"), Ok(Duration::from_secs(90)));
//! assert!(parse("1e300").is_err());
//! ```

use std::time::Duration;

/// The most seconds any flag or key takes.
pub const MAX_SECONDS: f64 = 1e6;

/// Why a text or number is not a number of seconds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SecondsError {
    #[error("'{0}' is not a number of seconds (e.g. 10, 0.5 or 1:30)")]
    NotANumber(String),
    #[error("'{0}' is not a finite number of seconds")]
    NotFinite(String),
    #[error("'{0}' is negative; seconds are 0 or more")]
    Negative(String),
    #[error("'{0}' is more than the most allowed, {MAX_SECONDS} seconds")]
    TooLarge(String),
    #[error("'{0}' is no time at all; give more than 0 seconds")]
    Zero(String),
}

/// Checks a number of seconds (0 allowed).
pub fn from_f64(value: f64) -> Result<Duration, SecondsError> {
    // Debug: `1e300` stays short (Display writes all 301 digits).
    let shown = || format!("{value:?}");
    if value.is_nan() || value.is_infinite() {
        return Err(SecondsError::NotFinite(shown()));
    }
    if value < 0.0 {
        return Err(SecondsError::Negative(shown()));
    }
    if value > MAX_SECONDS {
        return Err(SecondsError::TooLarge(shown()));
    }
    // `abs`: -0.0 passed the checks and is 0.
    Ok(Duration::from_secs_f64(value.abs()))
}

/// Checks a number of seconds that must be more than 0 (timeouts).
pub fn positive_f64(value: f64) -> Result<Duration, SecondsError> {
    let d = from_f64(value)?;
    if d.is_zero() {
        return Err(SecondsError::Zero(format!("{value:?}")));
    }
    Ok(d)
}

/// Parses `12`, `0.5`, `1e3` or `1:30` (minutes:seconds); 0 allowed.
pub fn parse(text: &str) -> Result<Duration, SecondsError> {
    let t = text.trim();
    let not_a_number = || SecondsError::NotANumber(text.to_string());
    let value = match t.split_once(':') {
        Some((m, s)) => {
            let minutes: u32 = m.parse().map_err(|_| not_a_number())?;
            let secs: f64 = s.parse().map_err(|_| not_a_number())?;
            if !(0.0..60.0).contains(&secs) {
                return Err(not_a_number());
            }
            f64::from(minutes) * 60.0 + secs
        }
        None => t.parse().map_err(|_| not_a_number())?,
    };
    from_f64(value).map_err(|e| match e {
        // Name the text as typed (`1:30`, `1e400`), not the number.
        SecondsError::NotFinite(_) => SecondsError::NotFinite(text.to_string()),
        SecondsError::Negative(_) => SecondsError::Negative(text.to_string()),
        SecondsError::TooLarge(_) => SecondsError::TooLarge(text.to_string()),
        other => other,
    })
}

/// Parses seconds that must be more than 0 (timeouts).
pub fn parse_positive(text: &str) -> Result<Duration, SecondsError> {
    let d = parse(text)?;
    if d.is_zero() {
        return Err(SecondsError::Zero(text.to_string()));
    }
    Ok(d)
}

/// A config key's seconds that are not a positive number of seconds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {error}")]
pub struct KeySecondsError {
    pub key: &'static str,
    pub error: SecondsError,
}

/// A config key's seconds (a TOML number), checked, the key named.
pub fn config_key(key: &'static str, value: f64) -> Result<Duration, KeySecondsError> {
    positive_f64(value).map_err(|error| KeySecondsError { key, error })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_people_type() {
        assert_eq!(parse("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse("1:30"), Ok(Duration::from_secs(90)));
        assert_eq!(parse("1e3"), Ok(Duration::from_secs(1000)));
        assert_eq!(parse("0"), Ok(Duration::ZERO));
    }

    #[test]
    fn hostile_numbers_are_errors_not_panics() {
        for (text, want) in [
            (
                "1e20",
                "'1e20' is more than the most allowed, 1000000 seconds",
            ),
            (
                "1e300",
                "'1e300' is more than the most allowed, 1000000 seconds",
            ),
            ("1e400", "'1e400' is not a finite number of seconds"),
            ("NaN", "'NaN' is not a finite number of seconds"),
            ("inf", "'inf' is not a finite number of seconds"),
            ("-1", "'-1' is negative; seconds are 0 or more"),
            ("-0.0", "'-0.0' is no time at all; give more than 0 seconds"),
            (
                "ten",
                "'ten' is not a number of seconds (e.g. 10, 0.5 or 1:30)",
            ),
            (
                "1:75",
                "'1:75' is not a number of seconds (e.g. 10, 0.5 or 1:30)",
            ),
            ("0", "'0' is no time at all; give more than 0 seconds"),
        ] {
            assert_eq!(
                parse_positive(text).unwrap_err().to_string(),
                want,
                "{text}"
            );
        }
        assert!(positive_f64(f64::NAN).is_err());
        assert!(positive_f64(1e300).is_err());
        assert_eq!(
            config_key("silence-timeout", -2.0).unwrap_err().to_string(),
            "silence-timeout: '-2.0' is negative; seconds are 0 or more"
        );
    }
}
