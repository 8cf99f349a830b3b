//! EPD/FEN books: one position a line, `#` starting a comment, blank lines
//! skipped, a UTF-8 byte order mark and CRLF accepted. Each line's FEN is
//! its four EPD fields with the move counters of its FEN fields or of its
//! `hmvc`/`fmvn` operations ([`EpdLine`]); other operations (`;D1 20`,
//! `id "x";`, `ce 12;`) are not part of the position. Any legal Chess960
//! position may stand on a line, not only start positions.

use std::io::BufRead;
use std::path::Path;

use crate::files::{BOOK_LINE_LIMIT, BoundedLines, FileLine};
use crate::notation::epd::{EpdFault, EpdLine};
use crate::notation::fen::parse_position;

use super::entry::{BookEntry, Place};
use super::error::{BookError, EpdError};

/// Reads and checks an EPD/FEN book's text from `reader` (lines of at most
/// [`BOOK_LINE_LIMIT`] bytes, read past, never held whole); `path` names
/// it in errors.
pub fn read(reader: impl BufRead, path: &Path) -> Result<Vec<BookEntry>, BookError> {
    let mut lines = BoundedLines::new(reader, BOOK_LINE_LIMIT);
    let mut entries = Vec::new();
    loop {
        let line = lines.number() + 1;
        let raw = match lines.next_line() {
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(cause) => {
                return Err(BookError::Read {
                    path: path.to_path_buf(),
                    cause,
                });
            }
        };
        let bytes = match raw {
            FileLine::Text(bytes) => bytes,
            FileLine::TooLong { start, length } => {
                return Err(EpdError::LongLine {
                    path: path.to_path_buf(),
                    line,
                    length,
                    start: String::from_utf8_lossy(start).chars().take(40).collect(),
                }
                .into());
            }
        };
        let text = String::from_utf8_lossy(bytes);
        let content = text.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fen = fen_part(content).map_err(|fault| EpdError::BadOperations {
            path: path.to_path_buf(),
            line,
            token: crate::excerpt::excerpt(content, 100),
            fault: Box::new(fault),
        })?;
        let position = parse_position(&fen).map_err(|e| EpdError::BadPosition {
            path: path.to_path_buf(),
            line,
            token: crate::excerpt::excerpt(&fen, 100),
            fault: e.fault,
        })?;
        entries.push(BookEntry {
            place: Place::Line(line),
            text: fen,
            position,
        });
    }
    if entries.is_empty() {
        return Err(BookError::Empty(path.to_path_buf()));
    }
    Ok(entries)
}

/// The FEN of a line: its four EPD fields with the move counters of its
/// FEN fields or its `hmvc`/`fmvn` operations. A line of fewer than four
/// fields goes to the FEN reader as it is, which names what is missing.
fn fen_part(line: &str) -> Result<String, EpdFault> {
    match EpdLine::parse(line) {
        Ok(epd) => Ok(epd.fen()),
        Err(EpdFault::FewFields(_)) => Ok(line.to_string()),
        Err(fault) => Err(fault),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn epd_operations_are_dropped_and_counters_kept() {
        assert_eq!(
            fen_part("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21")
                .unwrap(),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
        assert_eq!(
            fen_part("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"x\";").unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(
            fen_part("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - hmvc 4; fmvn 9; ce 3;")
                .unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 4 9"
        );
    }

    #[test]
    fn every_line_form_the_frameworks_ship_reads_with_its_counters() {
        // CRLF, X-FEN and Shredder-FEN in one file, 4 and 6 fields, opcodes.
        let text = "1rbbnnkr/p1pp1ppp/8/1p2p3/1P2q3/5N2/P1PP1PPP/QRBB1NKR w KQkq - 0 4\r\n\
                    bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\r\n\
                    bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -\r\n\
                    rqkrnbbn/p1pppppp/1p6/8/8/2P1P3/PP1P1PPP/RQNBNKBR b KQkq - hmvc 0; fmvn 2;\r\n";
        let entries = read(text.as_bytes(), Path::new("mixed.epd")).unwrap();
        let counters: Vec<(u32, u32)> = entries
            .iter()
            .map(|e| (e.position.halfmoves(), e.position.fullmoves().get()))
            .collect();
        assert_eq!(counters, [(0, 4), (0, 1), (0, 1), (0, 2)]);
        let bad = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 fmvn 2;\n";
        let err = read(bad.as_bytes(), Path::new("bad.epd")).unwrap_err();
        assert!(
            matches!(err, BookError::Epd(EpdError::BadOperations { line: 1, .. })),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(err.starts_with("bad.epd:1: 'bbqnnrkr"), "{err}");
        assert!(
            err.contains("full-move number 1 disagrees with its fmvn 2"),
            "{err}"
        );
        let err = read("\n# none\nnot a fen\n".as_bytes(), Path::new("x.epd")).unwrap_err();
        assert!(
            matches!(&err, BookError::Epd(EpdError::BadPosition { line: 3, token, .. }) if token == "not a fen"),
            "{err:?}"
        );
    }
}
