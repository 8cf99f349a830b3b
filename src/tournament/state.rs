//! The state file `--resume` continues from: what the tournament is (its
//! identity: engines, schedule, openings, seed), every finished game with
//! its result, and how long the PGN was after the last of them.
//!
//! It is rewritten after every finished game, atomically, by the files
//! room ([`crate::files::replace`]: a unique temporary file, synced,
//! renamed over the state, which must be a regular file), so after a
//! crash or SIGKILL it holds either the old or the new state, never a mix.
//!
//! Each game's record keeps where its PGN text lies and its hash
//! ([`Span`]); before a game is appended, the text about to be written and
//! its record are saved as `pending`. On resume
//! ([`crate::files::Appender::resume`]) the PGN must still hold every
//! recorded game as written (else the resume is refused, the file
//! untouched); the pending game found whole is recorded, and only a cut
//! pending game is removed: a resume never deletes a game it did not write.
//!
//! The file carries a check (a hash of the rest): a state changed after it
//! was written is refused, since a resume trusting an edited game number
//! or offset would play a game twice.

use std::path::{Path, PathBuf};

use crate::files::{Pending, Span, content_hash};
use crate::game::{GameResult, Termination};

/// One finished game as the state file keeps it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    pub number: u64,
    pub result: GameResult,
    pub termination: Termination,
    /// Castling-notation errors of White, then Black.
    #[serde(default)]
    pub notation_errors: [u32; 2],
    /// Where the game's PGN text lies (none without a PGN file, or in a
    /// state written before spans were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn: Option<Span>,
    /// Engine indices of White and Black (a knockout's pairings depend on
    /// results; absent in older state files, where the schedule gives them).
    #[serde(default)]
    pub white: Option<usize>,
    #[serde(default)]
    pub black: Option<usize>,
}

/// The whole state.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub version: u32,
    /// What must match for a resume (engines, schedule, openings, seed).
    pub identity: serde_json::Value,
    pub seed: u64,
    /// PGN length after the last recorded game.
    pub pgn_bytes: u64,
    pub games: Vec<GameRecord>,
    /// The PGN text being appended, until its game is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    /// The record of that game: a resume that finds its text whole in the
    /// PGN records it rather than playing it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_record: Option<GameRecord>,
    /// [`content_hash`] of the file as written without this key: a state
    /// changed afterwards (a byte damaged, a game's number or offset
    /// edited) is refused rather than resumed, since a resume that trusts
    /// it may play a game again or leave one out. Absent in states written
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

pub const VERSION: u32 = 1;

/// The most a state file may hold: a game's record is under 100 bytes, so
/// this is more than a million games.
pub const STATE_LIMIT: u64 = 256 << 20;

/// Why the state file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    #[error("state file {path} is damaged: {reason}")]
    Damaged { path: PathBuf, reason: String },
    #[error(transparent)]
    Replace(#[from] crate::files::ReplaceError),
}

impl State {
    pub fn new(identity: serde_json::Value, seed: u64) -> State {
        State {
            version: VERSION,
            identity,
            seed,
            pgn_bytes: 0,
            games: Vec::new(),
            pending: None,
            pending_record: None,
            check: None,
        }
    }

    /// Reads a state file; `None` when there is none. Like every file a
    /// user names (`--state`), it is opened without blocking, must be a
    /// regular file and at most [`STATE_LIMIT`] (`--state /dev/zero
    /// --resume` read forever).
    pub fn load(path: &Path) -> Result<Option<State>, StateError> {
        use crate::files::{FileError, read_text};
        let text = match read_text(path, "state file", STATE_LIMIT) {
            Ok(t) => t,
            Err(FileError::Open { cause, .. }) if cause.kind() == std::io::ErrorKind::NotFound => {
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        let state: State = serde_json::from_str(&text).map_err(|e| StateError::Damaged {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        if let Some(check) = &state.check
            && *check != state.checksum()
        {
            return Err(StateError::Damaged {
                path: path.to_path_buf(),
                reason: "its content is not what uci960 wrote (its check does not match: a byte damaged or edited); trusting it could play a game twice or leave one out".into(),
            });
        }
        if state.version != VERSION {
            return Err(StateError::Damaged {
                path: path.to_path_buf(),
                reason: format!("version {} (this uci960 writes {VERSION})", state.version),
            });
        }
        Ok(Some(state))
    }

    /// The JSON of the state without its check.
    fn unchecked_json(&self) -> Vec<u8> {
        let unchecked = State {
            check: None,
            ..self.clone()
        };
        serde_json::to_vec(&unchecked).expect("a state serializes")
    }

    /// What [`State::check`] must be.
    fn checksum(&self) -> String {
        format!("{:016x}", content_hash(&self.unchecked_json()))
    }

    /// Writes the state atomically ([`crate::files::replace_with`]), its
    /// check last: the JSON without it, then `"check"` spliced in before
    /// the closing brace.
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        let json = self.unchecked_json();
        let check = format!("{:016x}", content_hash(&json));
        crate::files::replace_with("state file", path, |w| {
            w.write_all(&json[..json.len() - 1])?;
            write!(w, ",\"check\":\"{check}\"}}")
        })?;
        Ok(())
    }

    /// Where the recorded games' PGN texts lie, in file order.
    pub fn spans(&self) -> Vec<Span> {
        let mut spans: Vec<Span> = self.games.iter().filter_map(|g| g.pgn).collect();
        spans.sort_by_key(|s| s.offset);
        spans
    }
}

/// The default state file for a PGN: `FILE.state.json` next to it.
pub fn default_path(pgn: &Path) -> PathBuf {
    let mut name = pgn.as_os_str().to_owned();
    name.push(".state.json");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_atomic_replace() {
        let dir = std::env::temp_dir().join(format!("uci960-state-{}", std::process::id()));
        // Pids repeat across runs (under wine they are small numbers): start clean.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.state.json");
        assert!(State::load(&path).unwrap().is_none());
        let mut s = State::new(serde_json::json!({"engines": ["a", "b"]}), 9);
        s.games.push(GameRecord {
            number: 3,
            result: GameResult::Draw,
            termination: Termination::Threefold,
            notation_errors: [0, 1],
            pgn: None,
            white: Some(1),
            black: Some(0),
        });
        s.pgn_bytes = 1234;
        s.save(&path).unwrap();
        s.games.push(GameRecord {
            number: 1,
            result: GameResult::WhiteWins,
            termination: Termination::Crash,
            notation_errors: [0, 0],
            pgn: Some(Span {
                offset: 0,
                len: 10,
                hash: 7,
            }),
            white: None,
            black: None,
        });
        s.save(&path).unwrap();
        let loaded = State::load(&path).unwrap().unwrap();
        assert!(loaded.check.is_some());
        assert_eq!(
            State {
                check: None,
                ..loaded
            },
            s
        );
        assert!(!default_path(&path).exists());

        // Found by the interleaving test: a game's number edited (still
        // JSON) made a resume play that game again and skip another. The
        // check refuses any change; a state without one (older) is read.
        let text = std::fs::read_to_string(&path).unwrap();
        for (from, to) in [
            ("\"number\":1", "\"number\":2"),
            ("\"pgn_bytes\":1234", "\"pgn_bytes\":0"),
        ] {
            assert!(text.contains(from), "{text}");
            std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
            let err = State::load(&path).unwrap_err().to_string();
            assert!(err.contains("damaged") && err.contains("check"), "{err}");
        }
        let unchecked = serde_json::to_string(&s).unwrap();
        assert!(!unchecked.contains("check"));
        std::fs::write(&path, unchecked).unwrap();
        assert_eq!(State::load(&path).unwrap(), Some(s));

        std::fs::write(&path, "{\"version\": 1").unwrap();
        let err = State::load(&path).unwrap_err().to_string();
        assert!(err.contains("damaged"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
