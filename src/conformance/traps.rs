//! Castle traps: positions made for the castling bugs real engines
//! shipped, each accepted only when shakmaty confirms what it claims.
//!
//! * `through-rook-square` (Stockfish #3605's geometry): an enemy rook or
//!   queen on the back rank beyond the castling rook, so that the king's
//!   landing square is attacked only once the rook has left. The castle
//!   is illegal, and it would be the only mate in one were it legal (the
//!   rook lands on d1 against a king boxed in on d8): an engine that tests
//!   the king's squares with the rook still in place lists it in `go perft
//!   1` and plays it. This geometry exists only on the queen side, with the
//!   castling rook on the b-file (king on c..g): on the king side the king
//!   lands on g1 and nothing can stand beyond an h1 rook (a unit test
//!   searches every geometry and attacker square to keep this exact).
//! * `attacked-rook`: a forced castle (the only legal move or the only mate
//!   in one) whose rook stands attacked by a knight, bishop or rook. Legal:
//!   only the king's squares must be safe.
//! * `inner-right`: a forced castle with a second rook of the same colour
//!   beyond the castling rook, the right on the inner one (X-FEN then needs
//!   the file letter, `G`, where `K` would mean the outer rook).
//! * `outer-right`, the mirror: the right on the outer rook, which the
//!   inner one blocks. The inner rook's castle is illegal (no right) and
//!   would be the only mate in one: an engine that takes the outer rook's
//!   right for the inner rook's plays it.
//!
//! Both colours (Black's positions are White's mirrored), both wings where
//! the geometry allows, and Double Fischer Random variants where the other
//! side's rights stand on other files.

use std::collections::HashSet;

use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, File, FromSetup, Move, Piece, Position, Role, Square,
    attacks,
};

use super::causes::{CastleSquares, into_check_through_rook_square, rook_attacked, shares_a_wing};
use super::forced::{Crafted, Forcing, forced_castles};
use super::geometry::Geometry;
use super::sketch::{Sketch, castle_is_only_mate, castle_is_only_move, mating_moves};

/// Which bug a trap is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrapKind {
    ThroughRookSquare,
    AttackedRook,
    InnerRight,
    OuterRight,
}

impl TrapKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TrapKind::ThroughRookSquare => "through-rook-square",
            TrapKind::AttackedRook => "attacked-rook",
            TrapKind::InnerRight => "inner-right",
            TrapKind::OuterRight => "outer-right",
        }
    }
}

/// One trap position.
#[derive(Clone, Debug)]
pub struct Trap {
    pub kind: TrapKind,
    pub position: Chess,
    /// The castle that must be played (attacked rook, inner right) or
    /// must not be (through the rook's square, outer right: illegal).
    pub castle: Move,
    pub geometry: Geometry,
    pub color: Color,
    /// The other side's rights stand on other files.
    pub dfrc: bool,
}

impl Trap {
    /// Whether the castle must be played; otherwise it is illegal and any
    /// legal move is right.
    pub fn castle_expected(&self) -> bool {
        matches!(self.kind, TrapKind::AttackedRook | TrapKind::InnerRight)
    }

    pub fn label(&self) -> String {
        format!(
            "{} {} {}{}",
            self.kind.as_str(),
            self.geometry,
            if self.color == Color::White {
                "white"
            } else {
                "black"
            },
            if self.dfrc { " dfrc" } else { "" }
        )
    }
}

/// The castle is legal and forced the way `forcing` says.
fn forced(pos: &Chess, castle: Move, forcing: Forcing) -> bool {
    match forcing {
        Forcing::OnlyLegalMove => castle_is_only_move(pos, castle),
        Forcing::OnlyMateInOne => castle_is_only_mate(pos, castle),
    }
}

/// `pos` with `piece` added on `sq`, and `rights` as the castling rights,
/// if shakmaty accepts it with every right kept.
fn with_piece(pos: &Chess, sq: Square, piece: Piece, rights: Option<Bitboard>) -> Option<Chess> {
    if pos.board().piece_at(sq).is_some() {
        return None;
    }
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    setup.board.set_piece_at(sq, piece);
    if let Some(rights) = rights {
        setup.castling_rights = rights;
    }
    let wanted = setup.castling_rights;
    let p = Chess::from_setup(setup, CastlingMode::Chess960).ok()?;
    (p.castles().castling_rights() == wanted).then_some(p)
}

/// The illegal castle would be the only mate in one: played anyway it
/// mates, and with the attacker taken off it is legal and mates; as it
/// stands no legal move mates.
fn through_rook_square(g: Geometry, color: Color, attacker: Role, dfrc: bool) -> Option<Trap> {
    if g.rook != File::B || g.king <= File::B {
        return None;
    }
    let fillers: [&[(File, u32, Color, Role)]; 2] =
        [&[], &[(File::B, 2, Color::White, Role::Pawn)]];
    for filler in fillers {
        let mut s = Sketch::new();
        s.put(Some(g.king), 1, Color::White, Role::King)
            .put(Some(g.rook), 1, Color::White, Role::Rook)
            .right(g.rook, 1)
            .put(Some(File::A), 1, Color::Black, attacker)
            .put(Some(File::D), 8, Color::Black, Role::King)
            .put(Some(File::C), 8, Color::Black, Role::Rook)
            .put(Some(File::E), 8, Color::Black, Role::Rook)
            .put(Some(File::C), 7, Color::Black, Role::Pawn)
            .put(Some(File::E), 7, Color::Black, Role::Pawn);
        if dfrc {
            s.right(File::C, 8).right(File::E, 8);
        }
        for &(file, rank, c, role) in filler {
            s.put(Some(file), rank, c, role);
        }
        let Some(pos) = s.finish(color) else {
            continue;
        };
        let castle = g.castle(color);
        if pos.is_legal(castle)
            || !into_check_through_rook_square(&pos, castle)
            || !mating_moves(&pos).is_empty()
            || pos.legal_moves().is_empty()
        {
            continue;
        }
        // Seen as an engine with the bug sees it: played anyway, the
        // castle leaves Black in check with no legal move.
        let mut after = pos.clone();
        after.play_unchecked(castle);
        let a1 = Square::from_coords(File::A, color.backrank());
        let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
        setup.board.discard_piece_at(a1);
        let Ok(free) = Chess::from_setup(setup, CastlingMode::Chess960) else {
            continue;
        };
        if after.is_checkmate() && free.is_legal(castle) && mating_moves(&free).contains(&castle) {
            return Some(Trap {
                kind: TrapKind::ThroughRookSquare,
                position: pos,
                castle,
                geometry: g,
                color,
                dfrc,
            });
        }
    }
    None
}

/// A forced castle with an enemy knight, bishop or rook on the castling
/// rook, still forced.
fn attacked_rook(c: &Crafted) -> Option<Trap> {
    let sq = CastleSquares::of(c.castle)?;
    let occupied = c.position.board().occupied();
    let them = !c.color;
    let candidates = [
        (Role::Knight, attacks::knight_attacks(sq.rook)),
        (Role::Bishop, attacks::bishop_attacks(sq.rook, occupied)),
        (Role::Rook, attacks::rook_attacks(sq.rook, occupied)),
    ];
    for (role, squares) in candidates {
        for at in squares & !occupied {
            let Some(pos) = with_piece(&c.position, at, Piece { color: them, role }, None) else {
                continue;
            };
            if rook_attacked(&pos, c.castle) && forced(&pos, c.castle, c.forcing) {
                return Some(Trap {
                    kind: TrapKind::AttackedRook,
                    position: pos,
                    castle: c.castle,
                    geometry: c.geometry,
                    color: c.color,
                    dfrc: c.dfrc,
                });
            }
        }
    }
    None
}

/// The free back-rank squares beyond the castling rook, nearest first.
fn beyond(c: &Crafted) -> Vec<Square> {
    let Some(sq) = CastleSquares::of(c.castle) else {
        return Vec::new();
    };
    let step: i32 = if sq.rook > sq.king { 1 } else { -1 };
    (1..8)
        .map_while(|n| sq.rook.file().offset(step * n))
        .map(|f| Square::from_coords(f, sq.rook.rank()))
        .filter(|s| c.position.board().piece_at(*s).is_none())
        .collect()
}

/// A second rook beyond the castling rook: with the right on the inner
/// (castling) rook the castle stays forced; with the right moved to the
/// outer rook the castle is illegal and no legal move mates.
fn two_rooks(c: &Crafted, kind: TrapKind) -> Option<Trap> {
    let sq = CastleSquares::of(c.castle)?;
    let rook = c.color.rook();
    for outer in beyond(c) {
        let rights = c.position.castles().castling_rights();
        let (rights, ok): (Bitboard, fn(&Chess, &Crafted) -> bool) = match kind {
            TrapKind::InnerRight => (rights, |p, c| forced(p, c.castle, c.forcing)),
            _ => (
                (rights & !Bitboard::from(sq.rook)) | Bitboard::from(outer),
                |p, c| {
                    !p.is_legal(c.castle)
                        && mating_moves(p).is_empty()
                        && !p.legal_moves().is_empty()
                },
            ),
        };
        let Some(pos) = with_piece(&c.position, outer, rook, Some(rights)) else {
            continue;
        };
        if shares_a_wing(&pos) && ok(&pos, c) {
            return Some(Trap {
                kind,
                position: pos,
                castle: c.castle,
                geometry: c.geometry,
                color: c.color,
                dfrc: c.dfrc,
            });
        }
    }
    None
}

/// Every trap, in a fixed order: one per geometry, colour and DFRC-ness
/// for each kind that the geometry allows.
pub fn traps() -> Vec<Trap> {
    let mut out = Vec::new();
    for color in Color::ALL {
        for g in Geometry::all() {
            for (role, dfrc) in [
                (Role::Rook, false),
                (Role::Queen, false),
                (Role::Rook, true),
            ] {
                out.extend(through_rook_square(g, color, role, dfrc));
            }
        }
    }
    let forced = forced_castles();
    for kind in [
        TrapKind::AttackedRook,
        TrapKind::InnerRight,
        TrapKind::OuterRight,
    ] {
        let mut seen = HashSet::new();
        for c in &forced {
            if seen.contains(&(c.geometry, c.color, c.dfrc)) {
                continue;
            }
            let trap = match kind {
                TrapKind::AttackedRook => attacked_rook(c),
                _ => two_rooks(c, kind),
            };
            if let Some(t) = trap {
                seen.insert((c.geometry, c.color, c.dfrc));
                out.push(t);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::{FenFlavour, parse_position, position_fen};

    #[test]
    fn every_trap_is_what_it_claims() {
        let all = traps();
        for t in &all {
            let fen = position_fen(&t.position, FenFlavour::Shredder);
            assert_eq!(parse_position(&fen).unwrap(), t.position, "{fen}");
            assert_eq!(t.position.turn(), t.color, "{fen}");
            let p = &t.position;
            match t.kind {
                TrapKind::ThroughRookSquare => {
                    assert!(!p.is_legal(t.castle), "{fen}");
                    assert!(into_check_through_rook_square(p, t.castle), "{fen}");
                    assert!(mating_moves(p).is_empty(), "{fen}");
                }
                TrapKind::AttackedRook => {
                    assert!(rook_attacked(p, t.castle), "{fen}");
                    assert!(
                        castle_is_only_move(p, t.castle) || castle_is_only_mate(p, t.castle),
                        "{fen}"
                    );
                }
                TrapKind::InnerRight => {
                    assert!(shares_a_wing(p), "{fen}");
                    assert!(
                        castle_is_only_move(p, t.castle) || castle_is_only_mate(p, t.castle),
                        "{fen}"
                    );
                    // X-FEN needs the file letter for the inner rook.
                    let xfen = position_fen(p, FenFlavour::XFen);
                    let field = xfen.split(' ').nth(2).unwrap();
                    assert!(field.chars().any(|c| !"KQkq-".contains(c)), "{xfen}");
                }
                TrapKind::OuterRight => {
                    assert!(shares_a_wing(p), "{fen}");
                    assert!(!p.is_legal(t.castle), "{fen}");
                    assert!(mating_moves(p).is_empty(), "{fen}");
                    assert!(!p.legal_moves().is_empty(), "{fen}");
                }
            }
            if t.dfrc {
                assert!(super::super::diagnosis::files_differ(p), "{fen}");
            }
        }
        let count = |kind: TrapKind, color: Color| {
            all.iter()
                .filter(|t| t.kind == kind && t.color == color)
                .count()
        };
        for color in Color::ALL {
            // K c..g with the rook on b1, by a rook and by a queen, and
            // with Black's rights on other files.
            assert_eq!(count(TrapKind::ThroughRookSquare, color), 15);
            for kind in [
                TrapKind::AttackedRook,
                TrapKind::InnerRight,
                TrapKind::OuterRight,
            ] {
                assert!(count(kind, color) >= 20, "{kind:?} {color:?}");
            }
        }
        for kind in [
            TrapKind::AttackedRook,
            TrapKind::InnerRight,
            TrapKind::OuterRight,
        ] {
            for side in ["king-side", "queen-side"] {
                assert!(
                    all.iter()
                        .any(|t| t.kind == kind && t.geometry.categories().contains(&side)),
                    "{kind:?} {side}"
                );
            }
            assert!(all.iter().any(|t| t.kind == kind && t.dfrc), "{kind:?}");
        }
    }

    /// The castle into check through the rook's square exists only on the
    /// queen side with the castling rook on the b-file: every geometry,
    /// every back-rank square for an enemy rook or queen.
    #[test]
    fn through_rook_square_exists_only_with_the_rook_on_b() {
        for g in Geometry::all() {
            let mut found = false;
            for file in File::ALL {
                for role in [Role::Rook, Role::Queen] {
                    let mut s = Sketch::new();
                    s.put(Some(g.king), 1, Color::White, Role::King)
                        .put(Some(g.rook), 1, Color::White, Role::Rook)
                        .right(g.rook, 1)
                        .put(Some(file), 1, Color::Black, role)
                        .put(Some(File::H), 8, Color::Black, Role::King);
                    if let Some(pos) = s.finish(Color::White) {
                        found |= into_check_through_rook_square(&pos, g.castle(Color::White));
                    }
                }
            }
            assert_eq!(found, g.rook == File::B, "{g}");
        }
    }

    #[test]
    fn generation_is_deterministic() {
        let fens = || -> Vec<String> {
            traps()
                .iter()
                .map(|t| position_fen(&t.position, FenFlavour::Shredder))
                .collect()
        };
        assert_eq!(fens(), fens());
    }
}
