//! Static evaluation: material plus piece-square tables, the king's table
//! blended between middlegame and endgame by the material left on the board.
//!
//! The tables are Tomasz Michniewski's "Simplified Evaluation Function"
//! (chessprogramming.org), which rewards a king tucked into a corner in the
//! middlegame: in Chess960 that is what makes the engine castle, on either
//! wing. Scores are centipawns from the side to move's point of view.

use shakmaty::{Color, Position, Role, Square};

/// Piece values in centipawns, indexed by `Role as usize - 1`.
pub const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The value of a piece kind in centipawns (the king counts 0).
pub fn value(role: Role) -> i32 {
    VALUES[role as usize - 1]
}

// Tables are written as a board diagram from White's side: rank 8 first.
#[rustfmt::skip]
const PAWN: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
   -50,-40,-30,-30,-30,-30,-40,-50,
   -40,-20,  0,  0,  0,  0,-20,-40,
   -30,  0, 10, 15, 15, 10,  0,-30,
   -30,  5, 15, 20, 20, 15,  5,-30,
   -30,  0, 15, 20, 20, 15,  0,-30,
   -30,  5, 10, 15, 15, 10,  5,-30,
   -40,-20,  0,  5,  5,  0,-20,-40,
   -50,-40,-30,-30,-30,-30,-40,-50,
];
#[rustfmt::skip]
const BISHOP: [i32; 64] = [
   -20,-10,-10,-10,-10,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5, 10, 10,  5,  0,-10,
   -10,  5,  5, 10, 10,  5,  5,-10,
   -10,  0, 10, 10, 10, 10,  0,-10,
   -10, 10, 10, 10, 10, 10, 10,-10,
   -10,  5,  0,  0,  0,  0,  5,-10,
   -20,-10,-10,-10,-10,-10,-10,-20,
];
#[rustfmt::skip]
const ROOK: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];
#[rustfmt::skip]
const QUEEN: [i32; 64] = [
   -20,-10,-10, -5, -5,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5,  5,  5,  5,  0,-10,
    -5,  0,  5,  5,  5,  5,  0, -5,
     0,  0,  5,  5,  5,  5,  0, -5,
   -10,  5,  5,  5,  5,  5,  0,-10,
   -10,  0,  5,  0,  0,  0,  0,-10,
   -20,-10,-10, -5, -5,-10,-10,-20,
];
#[rustfmt::skip]
const KING_MIDDLE: [i32; 64] = [
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -20,-30,-30,-40,-40,-30,-30,-20,
   -10,-20,-20,-20,-20,-20,-20,-10,
    20, 20,  0,  0,  0,  0, 20, 20,
    20, 30, 10,  0,  0, 10, 30, 20,
];
#[rustfmt::skip]
const KING_END: [i32; 64] = [
   -50,-40,-30,-20,-20,-30,-40,-50,
   -30,-20,-10,  0,  0,-10,-20,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-30,  0,  0,  0,  0,-30,-30,
   -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Game phase weights (knight, bishop, rook, queen); 24 is a full board.
const PHASE_FULL: i32 = 24;

/// The table index of `sq` for a piece of `color`: tables are drawn from
/// White's side with rank 8 first, so White reads them flipped.
fn index(color: Color, sq: Square) -> usize {
    let sq = sq as usize;
    match color {
        Color::White => sq ^ 56,
        Color::Black => sq,
    }
}

fn table(role: Role) -> &'static [i32; 64] {
    match role {
        Role::Pawn => &PAWN,
        Role::Knight => &KNIGHT,
        Role::Bishop => &BISHOP,
        Role::Rook => &ROOK,
        Role::Queen => &QUEEN,
        Role::King => &KING_MIDDLE,
    }
}

/// Evaluates `pos` in centipawns for the side to move.
pub fn evaluate<P: Position>(pos: &P) -> i32 {
    let board = pos.board();
    let mut phase = 0;
    let mut score = 0; // White's point of view
    let mut king_middle = 0;
    let mut king_end = 0;
    for (sq, piece) in board.iter() {
        let sign = if piece.color.is_white() { 1 } else { -1 };
        let i = index(piece.color, sq);
        match piece.role {
            Role::King => {
                king_middle += sign * KING_MIDDLE[i];
                king_end += sign * KING_END[i];
            }
            role => {
                score += sign * (value(role) + table(role)[i]);
                phase += match role {
                    Role::Knight | Role::Bishop => 1,
                    Role::Rook => 2,
                    Role::Queen => 4,
                    _ => 0,
                };
            }
        }
    }
    let phase = phase.min(PHASE_FULL);
    score += (king_middle * phase + king_end * (PHASE_FULL - phase)) / PHASE_FULL;
    if pos.turn().is_white() { score } else { -score }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Chess::default()), 0);
    }

    #[test]
    fn symmetric_for_the_side_to_move() {
        let white =
            crate::notation::fen::parse_position("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1").unwrap();
        let black =
            crate::notation::fen::parse_position("4k2r/4p3/8/8/8/8/8/4K3 b k - 0 1").unwrap();
        assert!(evaluate(&white) > 500);
        assert_eq!(evaluate(&white), evaluate(&black));
    }
}
