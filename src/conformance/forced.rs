//! Forced castles, generated from the castling rules for every geometry
//! and checked by shakmaty.
//!
//! Castling can be the only legal move only when the king does not move or
//! swaps squares with its rook: when the king travels, the next square on
//! its path is empty and unattacked, so the plain king step is legal too.
//! Every geometry is therefore forced by one of four templates, each
//! accepted only when shakmaty confirms the property:
//!
//! * `only-move` (king stays or swaps): the castle is the only legal move.
//!   Black rooks sweep the king's free neighbours, white pawns blocked by
//!   black pawns and a bishop and rook beyond the castling rook leave
//!   nothing else to move.
//! * `file-check`: the rook lands on f1/d1 and checks a king on f3/d3
//!   boxed in by its own pawns; the escape next to the king's landing
//!   square is covered only by the castled king, so the plain rook move to
//!   the same square is not mate.
//! * `back-rank`: the rook lands on f1/d1 and mates a king on f8/d8 boxed in
//!   by its own rooks and pawns; used where the plain rook move to f1/d1 is
//!   impossible (the king stands on that square or in the rook's way).
//!   With the black rooks keeping their castling rights this is a Double
//!   Fischer Random position: Black's rook files differ from White's.
//! * `rank-discovery` (rook stays): the king leaves the rank and uncovers
//!   the rook's check along the first rank to a king in the far corner.
//!
//! Two geometries cannot be forced at all: K b1 + R f1 and K g1 + R d1
//! (the rook stays, and the enemy king would have to stand next to ours for
//! the discovered check). Black's positions are White's, mirrored.

use shakmaty::{CastlingSide, Chess, Color, File, Move, Role};

use super::geometry::Geometry;
use super::sketch::{Sketch, castle_is_only_mate, castle_is_only_move, shift};

/// How the castle is forced.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Forcing {
    OnlyLegalMove,
    OnlyMateInOne,
}

/// One crafted position.
#[derive(Clone, Debug)]
pub struct Crafted {
    pub position: Chess,
    pub castle: Move,
    pub geometry: Geometry,
    pub color: Color,
    pub forcing: Forcing,
    pub template: &'static str,
    /// Black and White castle with rooks on different files.
    pub dfrc: bool,
}

impl Crafted {
    /// A short label: template, geometry, colour.
    pub fn label(&self) -> String {
        format!(
            "{} {} {}{}",
            self.template,
            self.geometry,
            if self.color == Color::White {
                "white"
            } else {
                "black"
            },
            if self.dfrc { " dfrc" } else { "" }
        )
    }

    /// The categories this position covers (geometry, colour, DFRC).
    pub fn categories(&self) -> Vec<&'static str> {
        let mut cats = self.geometry.categories();
        cats.push(if self.color == Color::White {
            "white"
        } else {
            "black"
        });
        if self.dfrc {
            cats.push("dfrc");
        }
        cats
    }
}

/// Mirrors a file for the queen side so one drawing serves both wings.
fn wing(g: &Geometry, file: File) -> File {
    match g.side() {
        CastlingSide::KingSide => file,
        CastlingSide::QueenSide => file.flip_horizontal(),
    }
}

fn base(g: &Geometry) -> Sketch {
    let mut s = Sketch::new();
    s.put(Some(g.king), 1, Color::White, Role::King)
        .put(Some(g.rook), 1, Color::White, Role::Rook)
        .right(g.rook, 1);
    s
}

/// `only-move`: the king stays or swaps; nothing else can move.
fn only_move(g: &Geometry, black_rights: bool) -> Vec<Sketch> {
    if !(g.king_stays() || g.swaps()) {
        return Vec::new();
    }
    let mut s = base(g);
    let outward: i32 = if g.side() == CastlingSide::KingSide {
        1
    } else {
        -1
    };
    // The king's free neighbours on the first rank: swept by black rooks
    // from the eighth rank.
    let mut sweepers = Vec::new();
    for d in [-1, 1] {
        if let Some(n) = shift(g.king, d)
            && n != g.rook
        {
            s.put(Some(n), 8, Color::Black, Role::Rook);
            sweepers.push(n);
        }
    }
    // The castling rook cannot go up: its pawn is blocked.
    s.put(Some(g.rook), 2, Color::White, Role::Pawn)
        .put(Some(g.rook), 3, Color::Black, Role::Pawn);
    // Beyond the rook: a bishop, then a rook over a blocked pawn.
    let beyond1 = shift(g.rook, outward);
    let beyond2 = shift(g.rook, 2 * outward);
    if beyond1.is_some() {
        s.put(beyond1, 1, Color::White, Role::Bishop);
    }
    if beyond2.is_some() {
        s.put(beyond2, 1, Color::White, Role::Rook)
            .put(beyond2, 2, Color::White, Role::Pawn)
            .put(beyond2, 3, Color::Black, Role::Pawn);
    }
    // A black rook sweeps the second rank from the far edge.
    let far = if outward == 1 { File::A } else { File::H };
    s.put(Some(far), 2, Color::Black, Role::Rook);
    with_black_king(s, black_rights, &sweepers)
}

/// Adds the black king: with castling rights on a black rook of the eighth
/// rank (Black's files differ from White's), or without rights.
fn with_black_king(s: Sketch, black_rights: bool, rooks8: &[File]) -> Vec<Sketch> {
    let mut out = Vec::new();
    for file in File::ALL {
        // A king with castling rights stands where a Chess960 king can:
        // b..g, between its rooks.
        let between = rooks8.iter().any(|&r| r < file) && rooks8.iter().any(|&r| r > file);
        let plausible = file != File::A && file != File::H;
        if !s.is_free(file, 8) || (black_rights && !(plausible && (between || rooks8.len() == 1))) {
            continue;
        }
        let mut t = s.clone();
        t.put(Some(file), 8, Color::Black, Role::King);
        if black_rights {
            if rooks8.is_empty() {
                return out;
            }
            for &r in rooks8 {
                t.right(r, 8);
            }
        }
        out.push(t);
    }
    // Also the corners of the seventh rank, for geometries where the eighth
    // rank is crowded.
    if !black_rights {
        for file in [File::A, File::H] {
            let mut t = s.clone();
            t.put(Some(file), 7, Color::Black, Role::King);
            out.push(t);
        }
    }
    out
}

/// `file-check`: the rook lands on f1/d1 and checks the king on f3/d3.
fn file_check(g: &Geometry) -> Vec<Sketch> {
    if g.rook_stays() {
        return Vec::new();
    }
    let mut s = base(g);
    let fd = g.rook_to();
    s.put(Some(fd), 3, Color::Black, Role::King);
    for d in [-1, 1] {
        s.put(shift(fd, d), 3, Color::Black, Role::Pawn).put(
            shift(fd, d),
            4,
            Color::Black,
            Role::Pawn,
        );
    }
    // Covers e2, the escape the castled king does not reach (c3 and g3
    // are the knight squares that stay clear of the boxing pawns).
    let knight = match g.side() {
        CastlingSide::KingSide => File::C,
        CastlingSide::QueenSide => File::G,
    };
    s.put(Some(knight), 3, Color::White, Role::Knight);
    vec![s]
}

/// `back-rank`: the rook lands on f1/d1 and mates the king on f8/d8.
fn back_rank(g: &Geometry, black_rights: bool) -> Vec<Sketch> {
    if g.rook_stays() {
        return Vec::new();
    }
    let mut s = base(g);
    let fd = g.rook_to();
    s.put(Some(fd), 8, Color::Black, Role::King);
    for d in [-1, 1] {
        s.put(shift(fd, d), 8, Color::Black, Role::Rook).put(
            shift(fd, d),
            7,
            Color::Black,
            Role::Pawn,
        );
        if black_rights && let Some(f) = shift(fd, d) {
            s.right(f, 8);
        }
    }
    vec![s]
}

/// `rank-discovery`: the rook stays; the king uncovers its check along the
/// first rank to the king in the far corner.
fn rank_discovery(g: &Geometry) -> Vec<Sketch> {
    if !g.rook_stays() {
        return Vec::new();
    }
    let mut s = base(g);
    s.put(Some(wing(g, File::A)), 1, Color::Black, Role::King)
        .put(Some(wing(g, File::C)), 3, Color::White, Role::Knight)
        .put(Some(wing(g, File::D)), 3, Color::White, Role::Knight);
    // Pawns keep the king on the first rank (a step up would uncover the
    // check too).
    for d in -1..=1 {
        if let Some(f) = shift(g.king, d)
            && s.is_free(f, 2)
        {
            s.put(Some(f), 2, Color::White, Role::Pawn);
        }
    }
    vec![s]
}

/// Every verified forced castle, White's and Black's, in a fixed order.
pub fn forced_castles() -> Vec<Crafted> {
    let mut out = Vec::new();
    for color in Color::ALL {
        for g in Geometry::all() {
            let castle = g.castle(color);
            let candidates: [(&'static str, Forcing, bool, Vec<Sketch>); 5] = [
                (
                    "only-move",
                    Forcing::OnlyLegalMove,
                    false,
                    only_move(&g, false),
                ),
                (
                    "only-move",
                    Forcing::OnlyLegalMove,
                    true,
                    only_move(&g, true),
                ),
                ("file-check", Forcing::OnlyMateInOne, false, file_check(&g)),
                (
                    "back-rank",
                    Forcing::OnlyMateInOne,
                    true,
                    back_rank(&g, true),
                ),
                (
                    "rank-discovery",
                    Forcing::OnlyMateInOne,
                    false,
                    rank_discovery(&g),
                ),
            ];
            for (template, forcing, dfrc, sketches) in candidates {
                // The first sketch of a template that shakmaty confirms.
                let found = sketches.iter().find_map(|s| {
                    let pos = s.finish(color)?;
                    let ok = match forcing {
                        Forcing::OnlyLegalMove => castle_is_only_move(&pos, castle),
                        Forcing::OnlyMateInOne => castle_is_only_mate(&pos, castle),
                    };
                    ok.then_some(pos)
                });
                if let Some(position) = found {
                    out.push(Crafted {
                        position,
                        castle,
                        geometry: g,
                        color,
                        forcing,
                        template,
                        dfrc,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::{FenFlavour, position_fen};
    use shakmaty::Position;

    #[test]
    fn every_geometry_but_two_is_forced_for_both_colours() {
        let all = forced_castles();
        for color in Color::ALL {
            for g in Geometry::all() {
                let n = all
                    .iter()
                    .filter(|c| c.geometry == g && c.color == color)
                    .count();
                let impossible = g.rook_stays() && (g.king == File::B || g.king == File::G);
                assert_eq!(n == 0, impossible, "{g} {color:?}: {n} positions");
            }
        }
    }

    #[test]
    fn generation_is_deterministic() {
        let fens = || -> Vec<String> {
            forced_castles()
                .iter()
                .map(|c| position_fen(&c.position, FenFlavour::Shredder))
                .collect()
        };
        assert_eq!(fens(), fens());
    }

    #[test]
    fn every_category_is_covered() {
        let all = forced_castles();
        for cat in [
            "king-side",
            "queen-side",
            "king-stays",
            "rook-stays",
            "swap",
            "crosses-board",
            "white",
            "black",
            "dfrc",
        ] {
            assert!(
                all.iter().any(|c| c.categories().contains(&cat)),
                "no position for {cat}"
            );
        }
        // The king-stays and swap geometries are forced as the only legal move.
        for g in Geometry::all()
            .into_iter()
            .filter(|g| g.swaps() || g.king_stays())
        {
            if g.king == File::C && g.rook == File::A {
                continue; // the rook can always step to b1 instead
            }
            assert!(
                all.iter()
                    .any(|c| c.geometry == g && c.forcing == Forcing::OnlyLegalMove),
                "{g} has no only-move position"
            );
        }
    }

    #[test]
    fn positions_are_what_they_claim() {
        for c in forced_castles() {
            let fen = position_fen(&c.position, FenFlavour::Shredder);
            assert_eq!(c.position.turn(), c.color, "{fen}");
            let reparsed = crate::notation::fen::parse_position(&fen).unwrap();
            assert_eq!(reparsed, c.position, "{fen}");
            match c.forcing {
                Forcing::OnlyLegalMove => assert!(castle_is_only_move(&c.position, c.castle)),
                Forcing::OnlyMateInOne => assert!(castle_is_only_mate(&c.position, c.castle)),
            }
            // Any side with castling rights has its king on b..g, as in a
            // game from a Chess960 start.
            for color in Color::ALL {
                if c.position.castles().has_color(color) {
                    let king = c.position.board().king_of(color).unwrap();
                    assert!(!matches!(king.file(), File::A | File::H), "{fen}");
                }
            }
            if c.dfrc {
                let field = crate::notation::fen::shredder_castling_field(&c.position);
                let white: Vec<char> = field
                    .chars()
                    .filter(|c| c.is_ascii_uppercase())
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
                let black: Vec<char> = field.chars().filter(|c| c.is_ascii_lowercase()).collect();
                assert!(!white.is_empty() && !black.is_empty(), "{fen}");
                assert_ne!(white, black, "{fen}");
            }
        }
    }
}
