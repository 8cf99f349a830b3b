//! Tokens: the client keeps the secret, the server keeps only its SHA-256
//! (the hex line `sha256sum` prints), so a leaked server config gives no
//! way in. Hashes are compared in constant time, and against every stored
//! hash, so timing tells nothing about how close a guess came.

use std::path::Path;

use sha2::{Digest, Sha256};

/// The shortest token a client may use: 16 characters of a random token
/// are beyond guessing over a network.
pub const MIN_TOKEN: usize = 16;
/// The longest (it travels in the hello line).
pub const MAX_TOKEN: usize = 256;

/// SHA-256 of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// The hash of a token.
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Parses 64 hex digits.
    pub fn from_hex(hex: &str) -> Option<TokenHash> {
        if hex.len() != 64 || !hex.is_ascii() {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(TokenHash(out))
    }

    /// Lower-case hex, as `sha256sum` prints it.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Whether `token` hashes to one of `hashes`; every hash is compared, each
/// in constant time.
pub fn matches(token: &str, hashes: &[TokenHash]) -> bool {
    let h = TokenHash::of(token);
    let mut found = 0u8;
    for stored in hashes {
        let mut diff = 0u8;
        for (a, b) in h.0.iter().zip(stored.0.iter()) {
            diff |= a ^ b;
        }
        found |= u8::from(std::hint::black_box(diff) == 0);
    }
    found != 0
}

/// Why a token or a hash file was refused.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    #[error("token file '{path}': {reason}")]
    Token { path: String, reason: String },
    #[error(
        "token hashes '{path}' line {line}: '{token}' is not 64 hex digits (a SHA-256 as sha256sum prints it)"
    )]
    Hash {
        path: String,
        line: usize,
        token: String,
    },
}

/// Checks a client's token: one line of printable ASCII without spaces,
/// [`MIN_TOKEN`] to [`MAX_TOKEN`] long.
pub fn check_token(token: &str) -> Result<(), String> {
    if token.len() < MIN_TOKEN {
        return Err(format!(
            "the token has {} characters; at least {MIN_TOKEN} are needed (a random one: openssl rand -hex 32)",
            token.len()
        ));
    }
    if token.len() > MAX_TOKEN {
        return Err(format!("the token is longer than {MAX_TOKEN} characters"));
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err("the token must be printable ASCII without spaces".into());
    }
    Ok(())
}

/// Reads a client's token file: the token is its first line.
pub fn read_token(path: &Path) -> Result<String, TokenError> {
    let text = crate::files::read_text(path, "token file", 64 * 1024)?;
    let token = text.lines().next().unwrap_or("").trim().to_string();
    check_token(&token).map_err(|reason| TokenError::Token {
        path: path.display().to_string(),
        reason,
    })?;
    Ok(token)
}

/// Parses a server's hash file: per line a hash (the first word, so
/// `sha256sum` output works as is); blank lines and `#` comments skipped.
pub fn parse_hashes(text: &str, path: &str) -> Result<Vec<TokenHash>, TokenError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        let hash = TokenHash::from_hex(word).ok_or_else(|| TokenError::Hash {
            path: path.to_string(),
            line: i + 1,
            token: crate::excerpt::excerpt(word, 80),
        })?;
        out.push(hash);
    }
    Ok(out)
}

/// Reads a server's hash file.
pub fn read_hashes(path: &Path) -> Result<Vec<TokenHash>, TokenError> {
    let text = crate::files::read_text(path, "token hashes", crate::files::CONFIG_LIMIT)?;
    parse_hashes(&text, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_right_token_matches() {
        let good = "correct horse battery staple";
        let hashes = vec![TokenHash::of("another-token-0123"), TokenHash::of(good)];
        assert!(matches(good, &hashes));
        assert!(!matches("correct horse battery stapl", &hashes));
        assert!(!matches("", &hashes));
        assert!(!matches(good, &[]));
    }

    #[test]
    fn hash_files_read_sha256sum_output_and_name_bad_lines() {
        // printf %s abc | sha256sum
        let text =
            "# clients\n\nba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n";
        let h = parse_hashes(text, "t").unwrap();
        assert_eq!(h, vec![TokenHash::of("abc")]);
        assert_eq!(TokenHash::from_hex(&h[0].to_hex()), Some(h[0]));
        let e = parse_hashes("abc\n\nnothex", "f.txt")
            .unwrap_err()
            .to_string();
        assert!(e.contains("'f.txt' line 1: 'abc'"), "{e}");
    }

    #[test]
    fn short_or_spaced_tokens_are_refused() {
        assert!(check_token("0123456789abcdef").is_ok());
        assert!(check_token("short").is_err());
        assert!(check_token("0123456789 abcdef").is_err());
        assert!(check_token(&"x".repeat(300)).is_err());
    }
}
