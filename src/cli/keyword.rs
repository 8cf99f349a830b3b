//! clap's side of the library's keyword settings ([`crate::keyword::Keyword`]):
//! one value parser that accepts exactly the listed words and shows them,
//! with their meaning, in `--help` and in clap's "invalid value" error.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use crate::keyword::Keyword;

/// The value parser of a keyword setting: `#[arg(value_parser = keyword::<T>())]`.
pub fn keyword<T: Keyword + Send + Sync>() -> impl TypedValueParser<Value = T> {
    let values = T::WORDS
        .iter()
        .map(|(_, word, help)| PossibleValue::new(*word).help(*help));
    // The words are checked by clap first, so `parse` only maps them.
    PossibleValuesParser::new(values).try_map(|word| T::parse(&word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule::TournamentKind;

    #[test]
    fn listed_words_parse_and_others_are_clap_errors() {
        let cmd = clap::Command::new("t").arg(
            clap::Arg::new("kind")
                .long("kind")
                .value_parser(keyword::<TournamentKind>()),
        );
        let m = cmd
            .clone()
            .try_get_matches_from(["t", "--kind", "knockout"])
            .unwrap();
        assert_eq!(
            m.get_one::<TournamentKind>("kind"),
            Some(&TournamentKind::Knockout)
        );
        let e = cmd
            .try_get_matches_from(["t", "--kind", "swiss"])
            .unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::InvalidValue);
    }
}
