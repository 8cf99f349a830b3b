//! A certificate's fingerprint: SHA-256 of its DER bytes, written
//! `SHA256:` and unpadded base64, the form `ssh-keygen -l` prints, so that a
//! user compares it the way they already compare host keys.

use std::fmt;
use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use sha2::{Digest, Sha256};

/// SHA-256 of a DER certificate.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// The fingerprint of a certificate's DER bytes.
    pub fn of_der(der: &[u8]) -> Fingerprint {
        Fingerprint(Sha256::digest(der).into())
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SHA256:{}", STANDARD_NO_PAD.encode(self.0))
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not `SHA256:` and 43 base64 characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a fingerprint (SHA256: and 43 base64 characters)")]
pub struct BadFingerprint(pub String);

impl FromStr for Fingerprint {
    type Err = BadFingerprint;

    fn from_str(text: &str) -> Result<Fingerprint, BadFingerprint> {
        let bad = || BadFingerprint(crate::excerpt::excerpt(text, 80));
        let b64 = text.strip_prefix("SHA256:").ok_or_else(bad)?;
        let bytes = STANDARD_NO_PAD
            .decode(b64.trim_end_matches('='))
            .map_err(|_| bad())?;
        Ok(Fingerprint(bytes.try_into().map_err(|_| bad())?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_print_like_ssh_and_parse_back() {
        let f = Fingerprint::of_der(b"");
        // SHA-256 of nothing, as `ssh-keygen` would write it.
        assert_eq!(
            f.to_string(),
            "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"
        );
        assert_eq!(f.to_string().parse::<Fingerprint>().unwrap(), f);
        for bad in ["", "SHA256:", "MD5:aa", "SHA256:abc", "SHA256:!!!"] {
            assert!(bad.parse::<Fingerprint>().is_err(), "{bad}");
        }
    }
}
