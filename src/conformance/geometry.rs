//! Castling geometries: where the king and the castling rook stand on the
//! back rank, where they land, and which of the suite's categories a
//! geometry belongs to (king stays, rook stays, king and rook swap, the king
//! crosses the board).
//!
//! Everything here is described from White's side; Black's positions are
//! the vertical mirror (`shakmaty::Setup::mirror`).

use std::fmt;

use shakmaty::{CastlingSide, Color, File, Move, Square};

/// A king file and a castling rook file on the same back rank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Geometry {
    pub king: File,
    pub rook: File,
}

impl Geometry {
    /// Every Chess960 castling geometry: the king on b..g, a rook on
    /// either side of it (42 of them).
    pub fn all() -> Vec<Geometry> {
        let mut all = Vec::new();
        for king in File::ALL {
            if king == File::A || king == File::H {
                continue;
            }
            for rook in File::ALL {
                if rook != king {
                    all.push(Geometry { king, rook });
                }
            }
        }
        all
    }

    pub fn side(&self) -> CastlingSide {
        CastlingSide::from_king_side(self.rook > self.king)
    }

    pub fn king_to(&self) -> File {
        self.side().king_to_file()
    }

    pub fn rook_to(&self) -> File {
        self.side().rook_to_file()
    }

    pub fn king_stays(&self) -> bool {
        self.king == self.king_to()
    }

    pub fn rook_stays(&self) -> bool {
        self.rook == self.rook_to()
    }

    /// King and rook trade squares (f1/g1, d1/c1).
    pub fn swaps(&self) -> bool {
        self.king == self.rook_to() && self.rook == self.king_to()
    }

    /// The king travels four or five files (b→g, g→c): across the board.
    pub fn crosses_board(&self) -> bool {
        self.king.distance(self.king_to()) >= 4
    }

    /// The castle as a shakmaty move for `color`.
    pub fn castle(&self, color: Color) -> Move {
        let rank = color.backrank();
        Move::Castle {
            king: Square::from_coords(self.king, rank),
            rook: Square::from_coords(self.rook, rank),
        }
    }

    /// The category names this geometry covers.
    pub fn categories(&self) -> Vec<&'static str> {
        let mut cats = vec![if self.side() == CastlingSide::KingSide {
            "king-side"
        } else {
            "queen-side"
        }];
        if self.king_stays() {
            cats.push("king-stays");
        }
        if self.rook_stays() {
            cats.push("rook-stays");
        }
        if self.swaps() {
            cats.push("swap");
        }
        if self.crosses_board() {
            cats.push("crosses-board");
        }
        cats
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "K{}1 R{}1 -> K{}1 R{}1",
            self.king.char(),
            self.rook.char(),
            self.king_to().char(),
            self.rook_to().char()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_42_geometries_with_the_expected_categories() {
        let all = Geometry::all();
        assert_eq!(all.len(), 42);
        let count = |cat: &str| all.iter().filter(|g| g.categories().contains(&cat)).count();
        assert_eq!(count("king-side"), 21);
        assert_eq!(count("queen-side"), 21);
        // K g1 with R h1; K c1 with R a1 or b1.
        assert_eq!(count("king-stays"), 3);
        // R f1 with the king on b..e; R d1 with the king on e..g.
        assert_eq!(count("rook-stays"), 7);
        assert_eq!(count("swap"), 2);
    }
}
