//! `uci960s://HOST:PORT/NAME`: where a remote engine lives. `HOST` is a
//! name, an IPv4 address or a bracketed IPv6 address; `PORT` is required
//! (there is no registered port); `NAME` is the engine's name in the
//! server's allow-list.

use std::fmt;
use std::str::FromStr;

/// The URL scheme: the `s` says TLS, as in `https`.
pub const SCHEME: &str = "uci960s://";

/// A parsed remote engine address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteAddress {
    /// As written, without brackets for IPv6.
    pub host: String,
    pub port: u16,
    pub engine: String,
}

/// Why an address was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("remote engine '{text}': {reason} (expected uci960s://HOST:PORT/NAME)")]
pub struct AddressError {
    pub text: String,
    pub reason: &'static str,
}

/// Whether `name` may name an engine: letters, digits, `.`, `_`, `-`, at
/// most 64 (it travels in the hello line and in log lines).
pub fn valid_engine_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

impl FromStr for RemoteAddress {
    type Err = AddressError;

    fn from_str(text: &str) -> Result<RemoteAddress, AddressError> {
        let err = |reason| AddressError {
            text: text.to_string(),
            reason,
        };
        let rest = text
            .strip_prefix(SCHEME)
            .ok_or_else(|| err("it does not start with uci960s://"))?;
        let (hostport, engine) = rest
            .split_once('/')
            .ok_or_else(|| err("no engine name after the port"))?;
        let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
            let (host, after) = v6
                .split_once(']')
                .ok_or_else(|| err("no ']' after an IPv6 address"))?;
            let port = after
                .strip_prefix(':')
                .ok_or_else(|| err("no port after the host"))?;
            (host, port)
        } else {
            hostport
                .rsplit_once(':')
                .ok_or_else(|| err("no port after the host"))?
        };
        if host.is_empty() || host.contains(|c: char| c.is_whitespace() || c.is_control()) {
            return Err(err("empty or unusable host"));
        }
        let port: u16 = port
            .parse()
            .ok()
            .filter(|&p| p != 0)
            .ok_or_else(|| err("the port is not a number from 1 to 65535"))?;
        if !valid_engine_name(engine) {
            return Err(err(
                "the engine name must be 1 to 64 letters, digits, '.', '_' or '-'",
            ));
        }
        Ok(RemoteAddress {
            host: host.to_string(),
            port,
            engine: engine.to_string(),
        })
    }
}

impl RemoteAddress {
    /// `HOST:PORT` as a socket address string and a known-hosts key
    /// (IPv6 bracketed).
    pub fn host_port(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

impl fmt::Display for RemoteAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{SCHEME}{}/{}", self.host_port(), self.engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_and_print_back() {
        for text in [
            "uci960s://127.0.0.1:4960/stockfish",
            "uci960s://[::1]:4960/sf-17.1",
            "uci960s://chess.example.org:1/a_b",
        ] {
            let a: RemoteAddress = text.parse().unwrap();
            assert_eq!(a.to_string(), text);
        }
        let a: RemoteAddress = "uci960s://[::1]:7/x".parse().unwrap();
        assert_eq!(a.host, "::1");
        assert_eq!(a.host_port(), "[::1]:7");
    }

    #[test]
    fn bad_addresses_say_why() {
        for (text, why) in [
            ("http://h:1/x", "uci960s://"),
            ("uci960s://h:1", "no engine name"),
            ("uci960s://h/x", "no port"),
            ("uci960s://h:0/x", "port"),
            ("uci960s://h:99999/x", "port"),
            ("uci960s://h:1/", "engine name"),
            ("uci960s://h:1/a b", "engine name"),
            ("uci960s://h:1/a\nquit", "engine name"),
            ("uci960s://:1/x", "host"),
            ("uci960s://[::1:1/x", "']'"),
        ] {
            let e = text.parse::<RemoteAddress>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
