//! Byte-level tokenizing of UCI lines.
//!
//! UCI separates tokens by any run of spaces or tabs. Lines arrive with `\n`
//! or `\r\n` endings; both are stripped by [`split_line_end`] and the ending
//! is kept so that a relayed line can be written back byte for byte.

use std::ops::Range;

/// Splits a raw line into its content and its ending (`""`, `"\n"` or
/// `"\r\n"`; a lone trailing `\r` counts as part of the ending too).
pub fn split_line_end(line: &[u8]) -> (&[u8], &[u8]) {
    let mut end = line.len();
    if end > 0 && line[end - 1] == b'\n' {
        end -= 1;
    }
    if end > 0 && line[end - 1] == b'\r' {
        end -= 1;
    }
    line.split_at(end)
}

fn is_sep(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Byte ranges of the tokens of a line.
pub fn token_spans(line: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < line.len() && is_sep(line[i]) {
            i += 1;
        }
        if i >= line.len() {
            return None;
        }
        let start = i;
        while i < line.len() && !is_sep(line[i]) {
            i += 1;
        }
        Some(start..i)
    })
}

/// The tokens of a line, as byte slices.
pub fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    token_spans(line).map(move |r| &line[r])
}

/// Whether the first token of `line` is `command` (cheap: no allocation).
pub fn is_command(line: &[u8], command: &str) -> bool {
    tokens(line).next() == Some(command.as_bytes())
}

/// Tokens of a `&str` line (for callers that already hold text).
pub fn str_tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split([' ', '\t', '\r', '\n'])
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_split_off() {
        assert_eq!(split_line_end(b"uciok\r\n"), (&b"uciok"[..], &b"\r\n"[..]));
        assert_eq!(split_line_end(b"uciok\n"), (&b"uciok"[..], &b"\n"[..]));
        assert_eq!(split_line_end(b"uciok"), (&b"uciok"[..], &b""[..]));
        assert_eq!(split_line_end(b""), (&b""[..], &b""[..]));
        assert_eq!(split_line_end(b"\r"), (&b""[..], &b"\r"[..]));
    }

    #[test]
    fn tokens_split_on_runs_of_blanks() {
        let t: Vec<&[u8]> = tokens(b"  go \t depth  3\r").collect();
        assert_eq!(t, vec![&b"go"[..], b"depth", b"3"]);
        assert!(is_command(b"  isready", "isready"));
        assert!(!is_command(b"isreadyx", "isready"));
    }

    #[test]
    fn invalid_utf8_and_long_lines_do_not_panic() {
        let mut line = vec![0xff, 0xfe, b' ', b'x'];
        line.extend(std::iter::repeat_n(b'a', 1 << 20));
        assert_eq!(tokens(&line).count(), 2);
    }
}
