//! Trust on first use, as ssh's `known_hosts`: the first connection to a
//! server pins its certificate's fingerprint; a later connection that sees
//! another one is refused, naming the file and line to remove if the change
//! was meant. One entry per line: `HOST:PORT SHA256:…`; `#` comments.
//! The decision is sans-IO ([`check`]); the client reads and appends the
//! file.

use super::fingerprint::Fingerprint;

/// What the file says about a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pin {
    /// Pinned, and the fingerprint is the pinned one.
    Known,
    /// Not in the file yet: pin it.
    Unknown,
    /// Pinned to another fingerprint, at this line (1-based).
    Changed { line: usize, pinned: Fingerprint },
}

/// A line of the file that is not an entry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("known hosts '{path}' line {line}: '{text}' is not 'HOST:PORT SHA256:…'")]
pub struct BadEntry {
    pub path: String,
    pub line: usize,
    pub text: String,
}

/// Looks `host_port` up in the file's text.
pub fn check(text: &str, path: &str, host_port: &str, seen: &Fingerprint) -> Result<Pin, BadEntry> {
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || BadEntry {
            path: path.to_string(),
            line: i + 1,
            text: crate::excerpt::excerpt(line, 100),
        };
        let mut words = line.split_whitespace();
        let (Some(host), Some(fp), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad());
        };
        let pinned: Fingerprint = fp.parse().map_err(|_| bad())?;
        if host == host_port {
            return Ok(if pinned == *seen {
                Pin::Known
            } else {
                Pin::Changed {
                    line: i + 1,
                    pinned,
                }
            });
        }
    }
    Ok(Pin::Unknown)
}

/// The line that pins `host_port` to `fp` (with its `\n`).
pub fn entry(host_port: &str, fp: &Fingerprint) -> String {
    format!("{host_port} {fp}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_use_pins_and_a_change_is_caught() {
        let a = Fingerprint::of_der(b"a");
        let b = Fingerprint::of_der(b"b");
        let mut text = String::from("# pinned servers\n");
        assert_eq!(check(&text, "k", "h:1", &a), Ok(Pin::Unknown));
        text.push_str(&entry("other:1", &b));
        text.push_str(&entry("h:1", &a));
        assert_eq!(check(&text, "k", "h:1", &a), Ok(Pin::Known));
        assert_eq!(
            check(&text, "k", "h:1", &b),
            Ok(Pin::Changed { line: 3, pinned: a })
        );
        assert_eq!(check(&text, "k", "h:2", &a), Ok(Pin::Unknown));
        let e = check("h:1 nonsense\n", "kh", "h:1", &a).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.to_string().contains("'kh' line 1"), "{e}");
    }
}
