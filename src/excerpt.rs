//! The start of a long text from outside (a file, an engine, a peer) for a
//! message: at most `max` characters, with `…` and the full length when
//! cut, so that a megabyte of garbage is never echoed whole. On the ground
//! floor because every reader of outside text names its bad token with it,
//! from FEN and UCI parsing up to books and remote peers.

/// `text`, or its first `max` characters with `…` and the length in bytes.
pub fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_its_length() {
        assert_eq!(excerpt("abcdef", 3), "abc… (6 bytes)");
        assert_eq!(excerpt("abc", 3), "abc");
    }
}
