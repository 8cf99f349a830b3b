//! The `position` command: `position startpos|fen F [moves M…]`.
//!
//! The FEN is the tokens between `fen` and `moves` (4 to 6 fields), in
//! either castling flavour; it is kept as text here and checked by
//! [`crate::notation::fen::parse_position`] where it matters.

use std::fmt;

use super::line::str_tokens;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    StartPos,
    Fen(String),
}

/// A parsed `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    pub base: PositionBase,
    pub moves: Vec<String>,
}

/// Why a `position` line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("not a position command")]
    NotPosition,
    #[error("expected 'startpos' or 'fen <FEN>' after 'position', found '{0}'")]
    NoBase(String),
    #[error("position fen has no FEN")]
    EmptyFen,
    #[error("unexpected token '{0}' after the position (expected 'moves')")]
    Unexpected(String),
}

impl PositionCommand {
    /// Parses a `position` line.
    pub fn parse(text: &str) -> Result<PositionCommand, PositionError> {
        let mut toks = str_tokens(text);
        if toks.next() != Some("position") {
            return Err(PositionError::NotPosition);
        }
        let base = match toks.next() {
            Some("startpos") => {
                let base = PositionBase::StartPos;
                match toks.next() {
                    None => {
                        return Ok(PositionCommand {
                            base,
                            moves: vec![],
                        });
                    }
                    Some("moves") => base,
                    Some(other) => return Err(PositionError::Unexpected(other.to_string())),
                }
            }
            Some("fen") => {
                let mut fields = Vec::new();
                for t in toks.by_ref() {
                    if t == "moves" {
                        break;
                    }
                    fields.push(t);
                }
                if fields.is_empty() {
                    return Err(PositionError::EmptyFen);
                }
                PositionBase::Fen(fields.join(" "))
            }
            other => return Err(PositionError::NoBase(other.unwrap_or("").to_string())),
        };
        Ok(PositionCommand {
            base,
            moves: toks.map(str::to_string).collect(),
        })
    }

    /// `position fen F [moves …]`.
    pub fn fen(fen: impl Into<String>, moves: Vec<String>) -> PositionCommand {
        PositionCommand {
            base: PositionBase::Fen(fen.into()),
            moves,
        }
    }
}

impl fmt::Display for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.base {
            PositionBase::StartPos => f.write_str("position startpos")?,
            PositionBase::Fen(fen) => write!(f, "position fen {fen}")?,
        }
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_bases_and_moves() {
        let p = PositionCommand::parse("position startpos moves e2e4 e7e5").unwrap();
        assert_eq!(p.base, PositionBase::StartPos);
        assert_eq!(p.moves, vec!["e2e4", "e7e5"]);
        let p = PositionCommand::parse(
            "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g1h1",
        )
        .unwrap();
        assert_eq!(
            p.base,
            PositionBase::Fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1".into())
        );
        assert_eq!(
            p.to_string(),
            "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g1h1"
        );
        let p = PositionCommand::parse("position fen 8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert_eq!(p.moves.len(), 0);
        assert_eq!(
            PositionCommand::parse("position startpos")
                .unwrap()
                .to_string(),
            "position startpos"
        );
        assert_eq!(
            PositionCommand::parse("position fen"),
            Err(PositionError::EmptyFen)
        );
        assert_eq!(
            PositionCommand::parse("position"),
            Err(PositionError::NoBase(String::new()))
        );
        assert!(PositionCommand::parse("position startpos e2e4").is_err());
    }
}
