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

/// Byte ranges of the tokens of a line, like [`token_spans`] but found a
/// machine word at a time: each 64-byte window of the line becomes one bit
/// mask of its separators (eight bytes per step, no branch per byte), and
/// tokens are read off the mask with bit scans. For hot paths that
/// tokenize every line (the proxy's `info` translation).
pub fn fast_token_spans(line: &[u8]) -> FastTokenSpans<'_> {
    FastTokenSpans {
        line,
        base: 0,
        seps: separator_window(line, 0),
        pos: 0,
    }
}

/// The iterator of [`fast_token_spans`].
pub struct FastTokenSpans<'a> {
    line: &'a [u8],
    /// Start of the current 64-byte window.
    base: usize,
    /// Bit `i`: byte `base + i` is a separator (or past the end).
    seps: u64,
    /// Where the next token is looked for (never before `base`).
    pos: usize,
}

impl FastTokenSpans<'_> {
    /// Moves to the next window; false past the end of the line.
    fn advance(&mut self) -> bool {
        self.base += 64;
        if self.base >= self.line.len() {
            return false;
        }
        self.seps = separator_window(self.line, self.base);
        true
    }
}

impl Iterator for FastTokenSpans<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        if self.pos >= self.line.len() {
            return None;
        }
        // First non-separator at or after `pos`.
        let start = loop {
            let off = self.pos - self.base;
            let bytes = if off < 64 {
                !self.seps & (u64::MAX << off)
            } else {
                0
            };
            if bytes != 0 {
                break self.base + bytes.trailing_zeros() as usize;
            }
            if !self.advance() {
                self.pos = self.line.len();
                return None;
            }
            self.pos = self.base;
        };
        // First separator after it (bits past the end are set, so the
        // last window always has one).
        let mut rest = self.seps & (u64::MAX << (start - self.base));
        let end = loop {
            if rest != 0 {
                break (self.base + rest.trailing_zeros() as usize).min(self.line.len());
            }
            if !self.advance() {
                break self.line.len();
            }
            rest = self.seps;
        };
        self.pos = end;
        Some(start..end)
    }
}

const LOW_BYTES: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that is zero (exact: no carries cross
/// bytes, as each byte sum is at most 0x7f + 0x7f).
fn zero_bytes(x: u64) -> u64 {
    !(((x & !HIGH_BITS) + !HIGH_BITS) | x) & HIGH_BITS
}

/// Bit `i` set where byte `i` of the little-endian word `w` is a separator.
fn separator_bits(w: u64) -> u64 {
    let mut m = zero_bytes(w ^ (LOW_BYTES * u64::from(b' ')));
    // Tabs, `\r` and `\n` are control bytes (below 0x20): only words that
    // hold one need the three more compares.
    if zero_bytes(w & (LOW_BYTES * 0xe0)) != 0 {
        for c in [b'\t', b'\r', b'\n'] {
            m |= zero_bytes(w ^ (LOW_BYTES * u64::from(c)));
        }
    }
    // Gather the eight high bits into the top byte, then shift it down.
    (m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The separator mask of the 64 bytes from `base`; bytes past the end of
/// the line count as separators.
fn separator_window(line: &[u8], base: usize) -> u64 {
    let window = line.get(base..).unwrap_or_default();
    let window = &window[..window.len().min(64)];
    let mut mask = 0;
    let mut chunks = window.chunks_exact(8);
    let mut shift = 0;
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        mask |= separator_bits(w) << shift;
        shift += 8;
    }
    let tail = chunks.remainder();
    if shift < 64 {
        let mut word = [b' '; 8];
        word[..tail.len()].copy_from_slice(tail);
        mask |= separator_bits(u64::from_le_bytes(word)) << shift;
        shift += 8;
        if shift < 64 {
            mask |= u64::MAX << shift;
        }
    }
    mask
}

/// Tokens of a `&str` line (for callers that already hold text).
pub fn str_tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split([' ', '\t', '\r', '\n'])
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::Just;

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
    fn separator_bits_of_every_byte_pattern() {
        // Each of the 256 patterns of separator / non-separator bytes, with
        // every byte value standing in for one of them.
        for pattern in 0u32..256 {
            for filler in 0u8..=255 {
                let sep = [b' ', b'\t', b'\r', b'\n'][(pattern % 4) as usize];
                let word: Vec<u8> = (0..8)
                    .map(|i| if pattern >> i & 1 == 1 { sep } else { filler })
                    .collect();
                let expected = word
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                let w = u64::from_le_bytes(word.clone().try_into().unwrap());
                assert_eq!(separator_bits(w), expected, "{word:?}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_tokens_match_tokens(
            line in proptest::collection::vec(
                proptest::prop_oneof![
                    Just(b' '), Just(b'\t'), Just(b'\r'), Just(b'\n'), Just(b'a'),
                    Just(0u8), Just(0xffu8), Just(0x20u8 + 0x80), proptest::num::u8::ANY
                ],
                0..300,
            )
        ) {
            let slow: Vec<_> = token_spans(&line).collect();
            let fast: Vec<_> = fast_token_spans(&line).collect();
            proptest::prop_assert_eq!(fast, slow);
        }
    }

    #[test]
    fn fast_tokens_across_windows() {
        for len in [0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200] {
            for gap in [0, 1, 62, 63, 64, 65, 130] {
                let mut line = vec![b'x'; len];
                line.extend(std::iter::repeat_n(b' ', gap));
                line.extend(std::iter::repeat_n(b'y', len));
                let slow: Vec<_> = token_spans(&line).collect();
                let fast: Vec<_> = fast_token_spans(&line).collect();
                assert_eq!(fast, slow, "len {len} gap {gap}");
            }
        }
    }

    #[test]
    fn invalid_utf8_and_long_lines_do_not_panic() {
        let mut line = vec![0xff, 0xfe, b' ', b'x'];
        line.extend(std::iter::repeat_n(b'a', 1 << 20));
        assert_eq!(tokens(&line).count(), 2);
    }
}
