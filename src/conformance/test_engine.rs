//! An in-process engine made of shakmaty, for the suite's unit tests: it
//! plays the first mate in one if there is one, else the first legal move,
//! and answers perft exactly. Switches turn on one castling bug each.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, FromSetup, Move, Position};

use super::answer::castle_notations;
use super::castling_bugs::{castles_with_rook_in_place, rook_attacked, swap_shared_rights};
use super::driver::{Driver, DriverError};
use super::perft::Divide;
use crate::notation::fen::parse_position;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bug {
    #[default]
    None,
    KingSquares,
    KeepsLostRights,
    DropsMovesAtCastle,
    PerftMissesBFileCastles,
    NoChess960,
    NoPerft,
    /// Exits on every fifth `go`.
    Crashes,
    /// Drops the side to move's castling rights when the Shredder field's
    /// files differ between the colours.
    ShredderMisread,
    /// Castling rights lost in one `position` line stay lost until
    /// `ucinewgame`.
    LeaksState,
    /// Tests the king's squares with the castling rook still on its
    /// square (Stockfish #3605's position).
    ThroughRookSquare,
    /// Does not castle while the castling rook stands attacked.
    RefusesAttackedRook,
    /// Reads a right on one of two rooks of a wing as the other's.
    InnerRookMisread,
    /// Answers `0000` whenever it could castle.
    NullAtCastles,
}

pub struct TestEngine {
    pub bug: Bug,
    pub restarts: usize,
    gos: usize,
    /// `LeaksState`: rook squares whose rights were lost since `ucinewgame`.
    lost: shakmaty::Bitboard,
}

impl TestEngine {
    pub fn new(bug: Bug) -> TestEngine {
        TestEngine {
            bug,
            restarts: 0,
            gos: 0,
            lost: shakmaty::Bitboard::EMPTY,
        }
    }

    fn without(pos: Chess, rights: shakmaty::Bitboard) -> Chess {
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
        setup.castling_rights &= !rights;
        Chess::from_setup(setup, CastlingMode::Chess960).unwrap_or(pos)
    }
}

impl TestEngine {
    fn setup_position(&mut self, line: &str) -> Result<Chess, DriverError> {
        let pos = self.read_position(line)?;
        Ok(match self.bug {
            Bug::LeaksState => {
                self.lost |= pos.castles().castling_rights() ^ self.start_rights(line)?;
                Self::without(pos, self.lost)
            }
            _ => pos,
        })
    }

    fn start_rights(&self, line: &str) -> Result<shakmaty::Bitboard, DriverError> {
        let fen = line.strip_prefix("position fen ").unwrap_or("");
        let fen = fen.split(" moves ").next().unwrap_or("");
        parse_position(fen)
            .map(|p| p.castles().castling_rights())
            .map_err(|_| DriverError::Protocol(format!("cannot read '{line}'")))
    }

    fn read_position(&self, line: &str) -> Result<Chess, DriverError> {
        let bad = || DriverError::Protocol(format!("cannot read '{line}'"));
        let rest = line.strip_prefix("position fen ").ok_or_else(bad)?;
        let (fen, moves) = match rest.split_once(" moves ") {
            Some((f, m)) => (f, m.split_whitespace().collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let mut start = parse_position(fen).map_err(|_| bad())?;
        if self.bug == Bug::ShredderMisread && crate::conformance::diagnosis::files_differ(&start) {
            let ours = shakmaty::Bitboard::from(start.turn().backrank());
            start = Self::without(start, ours);
        }
        if self.bug == Bug::InnerRookMisread {
            start = swap_shared_rights(&start);
        }
        let mut pos = start.clone();
        for m in moves {
            let uci = UciMove::from_ascii(m.as_bytes()).map_err(|_| bad())?;
            // Like Stockfish: the list ends at a move that is not legal.
            // `KingSquares` reads castles as it writes them, as the king's
            // destination (and king takes rook; a text that is also a
            // plain king step is the step), like the mock engine.
            let read = if self.bug == Bug::KingSquares {
                crate::notation::castling::parse_move(
                    &pos,
                    m,
                    crate::notation::castling::CastlingNotation::KingTakesRook,
                )
                .ok()
            } else {
                uci.to_move(&pos).ok()
            };
            let Some(mv) = read else {
                break;
            };
            if mv.is_castle() && self.bug == Bug::DropsMovesAtCastle {
                break;
            }
            pos.play_unchecked(mv);
        }
        if self.bug == Bug::KeepsLostRights {
            let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
            setup.castling_rights |= start.castles().castling_rights();
            // Keep the old rights wherever king and rook are back home.
            for sq in start.castles().castling_rights() {
                let mut trial = setup.clone();
                trial.castling_rights = pos.castles().castling_rights();
                trial.castling_rights.add(sq);
                if let Ok(p) = Chess::from_setup(trial, CastlingMode::Chess960)
                    && p.castles().castling_rights().contains(sq)
                {
                    pos = p;
                }
            }
        }
        Ok(pos)
    }

    fn divide(&self, pos: &Chess, depth: u32) -> Divide {
        let mut d = Divide::default();
        for m in self.moves(pos) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = self.count(&child, depth.saturating_sub(1));
            let text = if m.is_castle() && self.bug == Bug::KingSquares {
                castle_notations(m).1
            } else {
                UciMove::from_move(m, CastlingMode::Chess960).to_string()
            };
            match d.moves.entry(text) {
                std::collections::btree_map::Entry::Occupied(e) => {
                    d.duplicates.push(e.key().clone())
                }
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(n);
                }
            }
            d.total += n;
        }
        d
    }

    fn count(&self, pos: &Chess, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves(pos)
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                self.count(&child, depth - 1)
            })
            .sum()
    }

    fn moves(&self, pos: &Chess) -> Vec<Move> {
        let mut moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                !(self.bug == Bug::PerftMissesBFileCastles
                    && m.is_castle()
                    && m.from().is_some_and(|sq| sq.file() == shakmaty::File::B))
            })
            .filter(|m| !(self.bug == Bug::RefusesAttackedRook && rook_attacked(pos, *m)))
            .collect();
        if self.bug == Bug::ThroughRookSquare {
            moves.extend(castles_with_rook_in_place(pos));
        }
        moves
    }
}

impl Driver for TestEngine {
    fn name(&self) -> String {
        format!("test engine ({:?})", self.bug)
    }

    fn declares_chess960(&self) -> bool {
        self.bug != Bug::NoChess960
    }

    fn handshake_lines(&self) -> Vec<String> {
        vec![
            "uci".into(),
            "setoption name UCI_Chess960 value true".into(),
        ]
    }

    fn new_game(&mut self) -> Result<(), DriverError> {
        self.lost = shakmaty::Bitboard::EMPTY;
        Ok(())
    }

    fn best_move(&mut self, position: &str, _go: &str) -> Result<String, DriverError> {
        self.gos += 1;
        if self.bug == Bug::Crashes && self.gos.is_multiple_of(5) {
            return Err(DriverError::Exited("signal 11".into()));
        }
        let pos = self.setup_position(position)?;
        if self.bug == Bug::NullAtCastles && pos.legal_moves().iter().any(|m| m.is_castle()) {
            return Ok("0000".into());
        }
        // The b-file bug is a perft bug only.
        let moves: Vec<Move> = if self.bug == Bug::PerftMissesBFileCastles {
            pos.legal_moves().into_iter().collect()
        } else {
            self.moves(&pos)
        };
        let mate = moves.iter().copied().find(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
        });
        let chosen = mate.or_else(|| moves.first().copied());
        Ok(match chosen {
            None => "(none)".into(),
            Some(m) if m.is_castle() && self.bug == Bug::KingSquares => castle_notations(m).1,
            Some(m) => UciMove::from_move(m, CastlingMode::Chess960).to_string(),
        })
    }

    fn perft(&mut self, position: &str, depth: u32) -> Result<Option<Divide>, DriverError> {
        if self.bug == Bug::NoPerft {
            return Ok(None);
        }
        let pos = self.setup_position(position)?;
        Ok(Some(self.divide(&pos, depth)))
    }

    fn restart(&mut self) -> Result<(), DriverError> {
        self.restarts += 1;
        self.lost = shakmaty::Bitboard::EMPTY;
        Ok(())
    }
}
