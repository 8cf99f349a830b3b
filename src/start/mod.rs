//! What a Chess960 start position is: a white back rank, a black one
//! (the mirror, or an independent rank for Double Fischer Random), pawns on
//! ranks 2 and 7, all castling rights. Numbering, validation, conversion to
//! a shakmaty position and FEN output live here; how positions are drawn
//! lives in [`method`].
//!
//! ```
//! use uci960::notation::fen::FenFlavour;
//! use uci960::start::StartPosition;
//! let sp = StartPosition::from_sp(518).unwrap();
//! assert_eq!(
//!     sp.fen(FenFlavour::XFen),
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
//! );
//! ```

pub mod analysis;
mod backrank;
pub mod method;

pub use backrank::{BackRank, BackRankError, POSITIONS, STANDARD_SP};

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, FromSetup, Piece, Position, Rank, Setup,
    Square,
};

use crate::notation::fen::{FenFlavour, position_fen};

/// A start position: one back rank per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct StartPosition {
    pub white: BackRank,
    pub black: BackRank,
}

impl StartPosition {
    /// The ordinary Chess960 position with Scharnagl number `sp`.
    pub fn from_sp(sp: u32) -> Result<StartPosition, BackRankError> {
        Ok(StartPosition::mirrored(BackRank::from_sp(sp)?))
    }

    /// Black mirrors White.
    pub fn mirrored(rank: BackRank) -> StartPosition {
        StartPosition {
            white: rank,
            black: rank,
        }
    }

    /// A Double Fischer Random pair from two numbers.
    pub fn from_sp_pair(white: u32, black: u32) -> Result<StartPosition, BackRankError> {
        Ok(StartPosition {
            white: BackRank::from_sp(white)?,
            black: BackRank::from_sp(black)?,
        })
    }

    /// Whether the black rank differs from the white one.
    pub fn is_double(&self) -> bool {
        self.white != self.black
    }

    /// `518` for a mirrored position, `518/100` (white/black) for a DFRC pair.
    pub fn sp_label(&self) -> String {
        if self.is_double() {
            format!("{}/{}", self.white.sp(), self.black.sp())
        } else {
            self.white.sp().to_string()
        }
    }

    /// The board with pawns on ranks 2 and 7.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for file in shakmaty::File::ALL {
            for (color, rank) in [(Color::White, &self.white), (Color::Black, &self.black)] {
                let back = Square::from_coords(file, color.backrank());
                let pawn_rank = color.fold_wb(Rank::Second, Rank::Seventh);
                board.set_piece_at(
                    back,
                    Piece {
                        color,
                        role: rank.role_at(file),
                    },
                );
                board.set_piece_at(Square::from_coords(file, pawn_rank), color.pawn());
            }
        }
        board
    }

    /// The position with White to move and all four castling rights, checked
    /// by shakmaty in Chess960 mode (built once per number for the 960
    /// mirrored positions).
    pub fn to_chess(&self) -> Chess {
        static MIRRORED: OnceLock<Vec<Chess>> = OnceLock::new();
        if !self.is_double() {
            let table = MIRRORED.get_or_init(|| {
                (0..u32::from(POSITIONS))
                    .filter_map(|sp| StartPosition::from_sp(sp).ok())
                    .map(|s| s.build_chess())
                    .collect()
            });
            if let Some(pos) = table.get(usize::from(self.white.sp())) {
                return pos.clone();
            }
        }
        self.build_chess()
    }

    fn build_chess(&self) -> Chess {
        let mut rooks = Bitboard::EMPTY;
        for (color, rank) in [(Color::White, &self.white), (Color::Black, &self.black)] {
            let (a, b) = rank.rook_files();
            rooks.add(Square::from_coords(a, color.backrank()));
            rooks.add(Square::from_coords(b, color.backrank()));
        }
        let setup = Setup {
            board: self.board(),
            castling_rights: rooks,
            ..Setup::empty()
        };
        // A valid pair of back ranks is always a legal position; shakmaty
        // confirms it, and a failure here is a bug in this module.
        match Chess::from_setup(setup, CastlingMode::Chess960) {
            Ok(pos) => pos,
            Err(err) => unreachable!("start position {self} rejected by shakmaty: {err}"),
        }
    }

    /// FEN in the given castling flavour.
    pub fn fen(&self, flavour: FenFlavour) -> String {
        position_fen(&self.to_chess(), flavour)
    }
}

impl fmt::Display for StartPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_double() {
            write!(f, "{}/{}", self.white, self.black)
        } else {
            write!(f, "{}", self.white)
        }
    }
}

/// Why a FEN is not a Chess960 start position.
#[derive(Debug, thiserror::Error)]
pub enum StartPositionError {
    #[error(transparent)]
    BackRank(#[from] BackRankError),
    #[error("not a start position: {0}")]
    NotStart(String),
}

impl StartPosition {
    /// Recognises a start position in a shakmaty position (pawns on their
    /// squares, all four castling rights, White to move, move 1).
    pub fn from_chess(pos: &Chess) -> Result<StartPosition, StartPositionError> {
        let board = pos.board();
        let mut ranks: ByColor<[shakmaty::Role; 8]> =
            ByColor::new_with(|_| [shakmaty::Role::Pawn; 8]);
        for color in Color::ALL {
            for file in shakmaty::File::ALL {
                let sq = Square::from_coords(file, color.backrank());
                let pawn_sq = Square::from_coords(file, color.fold_wb(Rank::Second, Rank::Seventh));
                if board.piece_at(pawn_sq) != Some(color.pawn()) {
                    return Err(StartPositionError::NotStart(format!(
                        "no {color} pawn on {pawn_sq}"
                    )));
                }
                match board.piece_at(sq) {
                    Some(piece) if piece.color == color => {
                        ranks[color][usize::from(file)] = piece.role
                    }
                    _ => {
                        return Err(StartPositionError::NotStart(format!(
                            "no {color} back-rank piece on {sq}"
                        )));
                    }
                }
            }
        }
        if board.occupied().count() != 32 {
            return Err(StartPositionError::NotStart(
                "pieces off the first and last two ranks".into(),
            ));
        }
        let white = BackRank::from_roles(ranks.white)?;
        let black = BackRank::from_roles(ranks.black)?;
        let start = StartPosition { white, black };
        if pos.turn() != Color::White {
            return Err(StartPositionError::NotStart("Black to move".into()));
        }
        if pos.castles().castling_rights() != start.to_chess().castles().castling_rights() {
            return Err(StartPositionError::NotStart(
                "not all four castling rights".into(),
            ));
        }
        Ok(start)
    }
}

impl FromStr for StartPosition {
    type Err = BackRankError;

    /// `518`, `518/100` (DFRC white/black), `RNBQKBNR` or `RNBQKBNR/BBQNNRKR`.
    fn from_str(s: &str) -> Result<StartPosition, BackRankError> {
        let parse_one = |t: &str| -> Result<BackRank, BackRankError> {
            let t = t.trim();
            if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                // All digits: a number, however large.
                return match t.parse::<u32>() {
                    Ok(n) => BackRank::from_sp(n),
                    Err(_) => Err(BackRankError::SpTooLarge(crate::excerpt::excerpt(t, 30))),
                };
            }
            t.parse::<BackRank>()
        };
        match s.split_once('/') {
            Some((w, b)) => Ok(StartPosition {
                white: parse_one(w)?,
                black: parse_one(b)?,
            }),
            None => Ok(StartPosition::mirrored(parse_one(s)?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_shakmaty_for_all_960() {
        for sp in 0..960 {
            let ours = StartPosition::from_sp(sp).unwrap().board();
            assert_eq!(ours, Board::chess960(sp), "SP {sp}");
        }
    }

    #[test]
    fn standard_is_518() {
        let pos = StartPosition::from_sp(518).unwrap();
        assert_eq!(
            pos.fen(FenFlavour::XFen),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(
            pos.fen(FenFlavour::Shredder),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
    }

    #[test]
    fn dfrc_round_trips_through_fen() {
        let pos = StartPosition::from_sp_pair(0, 959).unwrap();
        for flavour in [FenFlavour::XFen, FenFlavour::Shredder] {
            let fen = pos.fen(flavour);
            let chess = crate::notation::fen::parse_position(&fen).unwrap();
            assert_eq!(StartPosition::from_chess(&chess).unwrap(), pos, "{fen}");
        }
    }
}
