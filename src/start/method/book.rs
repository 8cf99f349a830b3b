//! `book:PATH`: positions read from an EPD or FEN file, one a line, `#`
//! starting a comment, blank lines skipped. Any legal Chess960 position may
//! stand there, not only start positions. Every line is checked when the
//! book is opened, so a bad line stops the run before anything is written.

use std::path::{Path, PathBuf};

use shakmaty::Chess;

use crate::notation::fen::parse_position;

/// One usable line of a book.
#[derive(Clone, Debug)]
pub struct BookEntry {
    pub line: usize,
    pub text: String,
    pub position: Chess,
}

/// Why a book cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("cannot read book {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: '{token}' is not a legal Chess960 position: {reason}")]
    BadLine {
        path: PathBuf,
        line: usize,
        token: String,
        reason: String,
    },
    #[error("book {0} holds no positions")]
    Empty(PathBuf),
}

/// Reads and checks a whole book.
pub fn load(path: &Path) -> Result<Vec<BookEntry>, BookError> {
    let bytes = std::fs::read(path).map_err(|source| BookError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fen = fen_part(content);
        let position = parse_position(&fen).map_err(|e| BookError::BadLine {
            path: path.to_path_buf(),
            line,
            token: fen.clone(),
            reason: match e {
                crate::notation::fen::FenError::Syntax { reason, .. }
                | crate::notation::fen::FenError::Illegal { reason, .. } => reason,
            },
        })?;
        entries.push(BookEntry {
            line,
            text: fen,
            position,
        });
    }
    if entries.is_empty() {
        return Err(BookError::Empty(path.to_path_buf()));
    }
    Ok(entries)
}

/// The FEN part of a line: four EPD fields, plus the two move counters when
/// they follow; EPD operations (`;D1 20`, `id "x";`) are dropped.
fn fen_part(line: &str) -> String {
    let before_ops = line.split(';').next().unwrap_or(line);
    let fields: Vec<&str> = before_ops.split_whitespace().collect();
    let counters =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let take = if counters { 6 } else { fields.len().min(4) };
    fields[..take].join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_operations_are_dropped() {
        assert_eq!(
            fen_part("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21"),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
        assert_eq!(
            fen_part("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"x\";"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
        );
    }
}
