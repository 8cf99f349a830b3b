//! A tiny position builder for the crafted positions: put pieces by file
//! and rank (from White's side), add castling rights, then let shakmaty
//! decide whether the result is a legal Chess960 position.
//!
//! Also the two facts every crafted position is checked for: which moves
//! mate in one, and which moves are legal at all.

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, FromSetup, Move, Piece, Position, Rank,
    Role, Setup, Square,
};

/// Pieces and rights being put together; White's point of view.
#[derive(Clone, Debug)]
pub struct Sketch {
    board: Board,
    rights: Bitboard,
    broken: bool,
}

impl Default for Sketch {
    fn default() -> Self {
        Sketch::new()
    }
}

impl Sketch {
    pub fn new() -> Sketch {
        Sketch {
            board: Board::empty(),
            rights: Bitboard::EMPTY,
            broken: false,
        }
    }

    /// Puts a piece on `file`, rank `rank` (1..8). A square off the board
    /// or already taken spoils the sketch (`finish` then gives `None`).
    pub fn put(&mut self, file: Option<File>, rank: u32, color: Color, role: Role) -> &mut Self {
        match (file, rank) {
            (Some(file), 1..=8) => {
                let sq = Square::from_coords(file, Rank::new(rank - 1));
                if self.board.piece_at(sq).is_some() {
                    self.broken = true;
                } else {
                    self.board.set_piece_at(sq, Piece { color, role });
                }
            }
            _ => self.broken = true,
        }
        self
    }

    /// A castling right for the rook on `file`, rank `rank`.
    pub fn right(&mut self, file: File, rank: u32) -> &mut Self {
        self.rights
            .add(Square::from_coords(file, Rank::new(rank.clamp(1, 8) - 1)));
        self
    }

    pub fn is_free(&self, file: File, rank: u32) -> bool {
        (1..=8).contains(&rank)
            && self
                .board
                .piece_at(Square::from_coords(file, Rank::new(rank - 1)))
                .is_none()
    }

    /// The position for `turn` (Black: the whole sketch mirrored), if
    /// shakmaty accepts it in Chess960 mode with every right kept.
    pub fn finish(&self, turn: Color) -> Option<Chess> {
        if self.broken {
            return None;
        }
        let mut setup = Setup {
            board: self.board.clone(),
            castling_rights: self.rights,
            ..Setup::empty()
        };
        if turn == Color::Black {
            setup.mirror();
        }
        let wanted = setup.castling_rights;
        let pos = Chess::from_setup(setup, CastlingMode::Chess960).ok()?;
        (pos.castles().castling_rights() == wanted).then_some(pos)
    }
}

/// The legal moves that give checkmate.
pub fn mating_moves(pos: &Chess) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
        })
        .collect()
}

/// The castle is legal and the only move that mates in one.
pub fn castle_is_only_mate(pos: &Chess, castle: Move) -> bool {
    mating_moves(pos) == [castle]
}

/// The castle is the only legal move.
pub fn castle_is_only_move(pos: &Chess, castle: Move) -> bool {
    let moves = pos.legal_moves();
    moves.len() == 1 && moves[0] == castle
}

/// The file `delta` files away, when it exists.
pub fn shift(file: File, delta: i32) -> Option<File> {
    file.offset(delta)
}
