//! The hello: the one line a client sends after the TLS handshake, and the
//! server's one-line answer. Sans-IO.
//!
//! ```text
//! client: uci960-remote 1 ENGINE TOKEN      (TOKEN is `-` with a client certificate)
//! server: uci960-remote ok idle-timeout SECONDS
//!     or: uci960-remote error REASON
//! ```
//!
//! After `ok` the stream carries UCI lines both ways. The idle timeout
//! tells the client how often to send an empty line (which engines
//! ignore) to show it is still there.

use std::time::Duration;

use super::address::valid_engine_name;

/// The first word of both lines.
pub const MAGIC: &str = "uci960-remote";
/// The protocol version this build speaks.
pub const VERSION: &str = "1";
/// The longest hello line a server reads.
pub const MAX_HELLO: usize = 1024;

/// What a client asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    pub engine: String,
    /// `None` when the client authenticates by certificate.
    pub token: Option<String>,
}

impl Hello {
    /// The line (without `\n`).
    pub fn line(&self) -> String {
        format!(
            "{MAGIC} {VERSION} {} {}",
            self.engine,
            self.token.as_deref().unwrap_or("-")
        )
    }

    /// Parses a client's line; the error is what the server answers.
    pub fn parse(line: &[u8]) -> Result<Hello, &'static str> {
        let text = std::str::from_utf8(line).map_err(|_| "the hello is not text")?;
        let words: Vec<&str> = text.trim_end_matches('\r').split(' ').collect();
        match words.as_slice() {
            [MAGIC, VERSION, engine, token] => {
                if !valid_engine_name(engine) {
                    return Err("bad engine name");
                }
                let token = (*token != "-").then(|| token.to_string());
                Ok(Hello {
                    engine: engine.to_string(),
                    token,
                })
            }
            [MAGIC, _, ..] => Err("unsupported protocol version (this server speaks 1)"),
            _ => Err("not a uci960 remote client"),
        }
    }
}

/// The server's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Ok { idle_timeout: Duration },
    Error(String),
}

impl Answer {
    /// The line (without `\n`).
    pub fn line(&self) -> String {
        match self {
            Answer::Ok { idle_timeout } => {
                format!("{MAGIC} ok idle-timeout {}", idle_timeout.as_secs_f64())
            }
            Answer::Error(reason) => format!("{MAGIC} error {reason}"),
        }
    }

    /// Parses the server's line; `None` when it is not an answer at all.
    pub fn parse(line: &[u8]) -> Option<Answer> {
        let text = String::from_utf8_lossy(line);
        let rest = text.trim_end_matches('\r').strip_prefix(MAGIC)?;
        if let Some(reason) = rest.strip_prefix(" error ") {
            return Some(Answer::Error(crate::excerpt::excerpt(reason, 200)));
        }
        let secs: f64 = rest.strip_prefix(" ok idle-timeout ")?.parse().ok()?;
        let idle_timeout = Duration::try_from_secs_f64(secs).ok()?;
        Some(Answer::Ok { idle_timeout })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hellos_round_trip_and_bad_ones_are_named() {
        let h = Hello {
            engine: "stockfish".into(),
            token: Some("0123456789abcdef".into()),
        };
        assert_eq!(Hello::parse(h.line().as_bytes()), Ok(h));
        let c = Hello {
            engine: "sf".into(),
            token: None,
        };
        assert_eq!(Hello::parse(c.line().as_bytes()), Ok(c));
        assert!(Hello::parse(b"uci").is_err());
        assert!(
            Hello::parse(b"uci960-remote 2 sf x")
                .unwrap_err()
                .contains("version")
        );
        assert!(Hello::parse(b"uci960-remote 1 s/f x").is_err());
        assert!(Hello::parse(b"uci960-remote 1 sf a b").is_err());
        assert!(Hello::parse(b"\xff").is_err());
    }

    #[test]
    fn answers_round_trip() {
        for a in [
            Answer::Ok {
                idle_timeout: Duration::from_millis(2500),
            },
            Answer::Error("authentication failed".into()),
        ] {
            assert_eq!(Answer::parse(a.line().as_bytes()), Some(a));
        }
        assert_eq!(Answer::parse(b"id name x"), None);
    }
}
