//! The one error of every parser that reads a word from a fixed list (a
//! setting's keyword: `strict`, `xfen`, `kxr`, a PGN result or
//! termination tag): the word, what it was meant to name, and the words
//! that would do.
//!
//! ```
//! use uci960::notation::fen::FenFlavour;
//! let e = "fancy".parse::<FenFlavour>().unwrap_err();
//! assert_eq!(e.to_string(), "unknown FEN flavour 'fancy' (use xfen or shredder)");
//! ```

/// A word that is none of the words a setting accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{word}' (use {expected})")]
pub struct UnknownWord {
    /// What the word names: `FEN flavour`, `castling policy`.
    pub what: &'static str,
    pub word: String,
    /// The accepted words, for the reader: `xfen or shredder`.
    pub expected: String,
}

impl UnknownWord {
    pub fn new(what: &'static str, word: &str, expected: impl Into<String>) -> UnknownWord {
        UnknownWord {
            what,
            word: word.to_string(),
            expected: expected.into(),
        }
    }
}
