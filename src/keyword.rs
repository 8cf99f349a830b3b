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

/// A setting whose value is one word of a fixed list. The list (each
/// value, its word, a line saying what it means) is written once, here in
/// the library; reading a word ([`Keyword::parse`]), writing one
/// ([`Keyword::word`]) and the CLI's `--help` all come from it, so the
/// library needs no CLI crate and a new value is one line.
///
/// ```
/// use uci960::keyword::Keyword;
/// use uci960::tournament::schedule::TournamentKind;
/// assert_eq!(TournamentKind::parse("gauntlet"), Ok(TournamentKind::Gauntlet));
/// assert_eq!(TournamentKind::Knockout.word(), "knockout");
/// assert!(TournamentKind::parse("swiss").is_err());
/// ```
pub trait Keyword: Copy + PartialEq + 'static {
    /// What the word names, for messages: `tournament format`.
    const WHAT: &'static str;
    /// Every value: its word and what it means.
    const WORDS: &'static [(Self, &'static str, &'static str)];

    /// The value's word.
    fn word(self) -> &'static str {
        Self::WORDS
            .iter()
            .find(|(v, ..)| *v == self)
            .map_or("", |(_, w, _)| w)
    }

    /// The value a word names (exactly as listed).
    fn parse(word: &str) -> Result<Self, UnknownWord> {
        Self::WORDS
            .iter()
            .find(|(_, w, _)| *w == word)
            .map(|(v, ..)| *v)
            .ok_or_else(|| UnknownWord::new(Self::WHAT, word, Self::expected()))
    }

    /// The words, for a message: `a, b or c`.
    fn expected() -> String {
        let words: Vec<&str> = Self::WORDS.iter().map(|(_, w, _)| *w).collect();
        match words.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => words.concat(),
        }
    }
}
