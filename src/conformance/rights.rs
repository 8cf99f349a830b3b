//! Rights-tracking scenarios: a `position fen … moves …` after which a
//! castling right is lost (king moved and returned, rook moved and
//! returned, rook captured on its home square and replaced by a
//! recapturing rook, and the same with Black's rook files differing from
//! White's), on boards where the lost castle would mate in one. An engine
//! that still believes in the right plays it.
//!
//! Each scenario is found by a small search over the legal moves of a
//! forced-castle position and accepted only when shakmaty confirms that the
//! right is gone and that, with the right restored, the castle would be the
//! only mate in one.

use shakmaty::{
    CastlingMode, Chess, Color, File, FromSetup, Move, Piece, Position, Rank, Role, Square,
};

use super::forced::{Crafted, Forcing, forced_castles};
use super::sketch::castle_is_only_mate;

/// One scenario.
#[derive(Clone, Debug)]
pub struct RightsScenario {
    pub start: Chess,
    pub moves: Vec<Move>,
    pub end: Chess,
    /// The castle the engine must not play.
    pub lost: Move,
    pub how: &'static str,
    pub label: String,
}

/// The rook square of a castle.
fn rook_of(castle: Move) -> Option<Square> {
    match castle {
        Move::Castle { rook, .. } => Some(rook),
        _ => None,
    }
}

/// Whether the scenario's end position has lost the right, and would mate
/// by the castle with the right restored.
fn confirms(end: &Chess, lost: Move) -> bool {
    let Some(rook) = rook_of(lost) else {
        return false;
    };
    if end.castles().castling_rights().contains(rook) || end.is_game_over() {
        return false;
    }
    let mut setup = end.to_setup(shakmaty::EnPassantMode::Legal);
    setup.castling_rights.add(rook);
    match Chess::from_setup(setup, CastlingMode::Chess960) {
        Ok(restored) => castle_is_only_mate(&restored, lost),
        Err(_) => false,
    }
}

/// `start` after `moves`, when every move is legal there.
pub(super) fn play_all(start: &Chess, moves: &[Move]) -> Option<Chess> {
    let mut pos = start.clone();
    for &m in moves {
        if !pos.is_legal(m) {
            return None;
        }
        pos.play_unchecked(m);
    }
    Some(pos)
}

fn reverse(m: Move) -> Option<Move> {
    match m {
        Move::Normal {
            role,
            from,
            to,
            capture: None,
            promotion: None,
        } if role != Role::Pawn => Some(Move::Normal {
            role,
            from: to,
            to: from,
            capture: None,
            promotion: None,
        }),
        _ => None,
    }
}

/// A piece of `role` steps away and back, while the other side steps away
/// and back too: four plies, same board, the right gone.
fn step_and_return(c: &Crafted, role: Role) -> Option<(Vec<Move>, Chess)> {
    let pos = &c.position;
    for w1 in pos.legal_moves() {
        if w1.role() != role || w1.is_castle() || w1.from() != piece_square(c, role) {
            continue;
        }
        let Some(w2) = reverse(w1) else { continue };
        let mut after1 = pos.clone();
        after1.play_unchecked(w1);
        for b1 in after1.legal_moves() {
            let Some(b2) = reverse(b1) else { continue };
            let moves = vec![w1, b1, w2, b2];
            if let Some(end) = play_all(pos, &moves)
                && confirms(&end, c.castle)
            {
                return Some((moves, end));
            }
        }
    }
    None
}

fn piece_square(c: &Crafted, role: Role) -> Option<Square> {
    let Move::Castle { king, rook } = c.castle else {
        return None;
    };
    match role {
        Role::King => Some(king),
        _ => Some(rook),
    }
}

/// The rook is captured on its home square by a black knight and a white
/// rook from the same file recaptures; a spare black knight makes the
/// tempo so that White is to move again.
fn captured_and_replaced(c: &Crafted) -> Option<(Chess, Vec<Move>, Chess)> {
    let Move::Castle { rook, .. } = c.castle else {
        return None;
    };
    let us = c.color;
    let them = !us;
    let board = c.position.board();
    let up = |sq: Square, d: i32| sq.offset(d * us.fold_wb(8, -8));
    // Knight squares that attack the rook's home square.
    let knight_from: Vec<Square> = shakmaty::attacks::knight_attacks(rook)
        .into_iter()
        .filter(|&sq| board.piece_at(sq).is_none())
        .collect();
    // A white rook further up the file, with a clear path down.
    let mut recapture_from = Vec::new();
    for d in 2..=6 {
        let Some(sq) = up(rook, d) else { break };
        if (1..d).any(|i| up(rook, i).is_none_or(|s| board.piece_at(s).is_some())) {
            break;
        }
        if board.piece_at(sq).is_none() {
            recapture_from.push(sq);
        }
    }
    let spare_squares: Vec<Square> = [File::A, File::H]
        .into_iter()
        .flat_map(|f| {
            [Rank::Fourth, Rank::Fifth, Rank::Sixth]
                .into_iter()
                .map(move |r| Square::from_coords(f, r))
        })
        .filter(|&sq| board.piece_at(sq).is_none())
        .collect();
    for &n in &knight_from {
        for &w in &recapture_from {
            for &spare in &spare_squares {
                if spare == n || spare == w {
                    continue;
                }
                let mut setup = c.position.to_setup(shakmaty::EnPassantMode::Legal);
                setup.board.set_piece_at(
                    n,
                    Piece {
                        color: them,
                        role: Role::Knight,
                    },
                );
                setup.board.set_piece_at(
                    w,
                    Piece {
                        color: us,
                        role: Role::Rook,
                    },
                );
                setup.board.set_piece_at(
                    spare,
                    Piece {
                        color: them,
                        role: Role::Knight,
                    },
                );
                setup.turn = them;
                let Ok(start) = Chess::from_setup(setup, CastlingMode::Chess960) else {
                    continue;
                };
                if !start.castles().castling_rights().contains(rook) {
                    continue;
                }
                let b1 = Move::Normal {
                    role: Role::Knight,
                    from: n,
                    capture: Some(Role::Rook),
                    to: rook,
                    promotion: None,
                };
                let w1 = Move::Normal {
                    role: Role::Rook,
                    from: w,
                    capture: Some(Role::Knight),
                    to: rook,
                    promotion: None,
                };
                let Some(mid) = play_all(&start, &[b1, w1]) else {
                    continue;
                };
                for b2 in mid.legal_moves() {
                    if b2.from() != Some(spare) {
                        continue;
                    }
                    let moves = vec![b1, w1, b2];
                    if let Some(end) = play_all(&start, &moves)
                        && confirms(&end, c.castle)
                    {
                        return Some((start, moves, end));
                    }
                }
            }
        }
    }
    None
}

/// All scenarios, from the mate-in-one forced castles: for each colour
/// and each loss, a few geometries (the first that work, one per template),
/// plus the Double Fischer Random ones.
pub fn rights_scenarios() -> Vec<RightsScenario> {
    let crafted: Vec<Crafted> = forced_castles()
        .into_iter()
        .filter(|c| c.forcing == Forcing::OnlyMateInOne)
        .collect();
    let mut out = Vec::new();
    for color in Color::ALL {
        for how in [
            "king moved and returned",
            "rook moved and returned",
            "rook captured on its home square",
        ] {
            // Per template and DFRC flag, up to three geometries.
            let mut per_kind: Vec<(&str, bool, usize)> = Vec::new();
            for c in crafted.iter().filter(|c| c.color == color) {
                let kind = per_kind
                    .iter()
                    .position(|(t, d, _)| *t == c.template && *d == c.dfrc);
                let count = kind.map(|i| per_kind[i].2).unwrap_or(0);
                if count >= 3 {
                    continue;
                }
                let found = match how {
                    "king moved and returned" => step_and_return(c, Role::King)
                        .map(|(moves, end)| (c.position.clone(), moves, end)),
                    "rook moved and returned" => step_and_return(c, Role::Rook)
                        .map(|(moves, end)| (c.position.clone(), moves, end)),
                    _ => captured_and_replaced(c),
                };
                if let Some((start, moves, end)) = found {
                    match kind {
                        Some(i) => per_kind[i].2 += 1,
                        None => per_kind.push((c.template, c.dfrc, 1)),
                    }
                    out.push(RightsScenario {
                        start,
                        moves,
                        end,
                        lost: c.castle,
                        how,
                        label: format!("{how}: {}", c.label()),
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

    #[test]
    fn every_loss_is_covered_for_both_colours_and_dfrc() {
        let all = rights_scenarios();
        for color in Color::ALL {
            for how in [
                "king moved and returned",
                "rook moved and returned",
                "rook captured on its home square",
            ] {
                assert!(
                    all.iter().any(|s| s.how == how && s.end.turn() == color),
                    "no scenario: {how} {color:?}"
                );
            }
        }
        assert!(all.iter().any(|s| s.label.ends_with("dfrc")));
        for s in &all {
            assert_eq!(play_all(&s.start, &s.moves).as_ref(), Some(&s.end));
            assert!(confirms(&s.end, s.lost), "{}", s.label);
            assert!(!s.end.is_legal(s.lost), "{}", s.label);
            // Where the right is still there at the start, the castle is
            // legal there (king and rook have not moved yet).
            let rook = rook_of(s.lost).unwrap();
            assert!(s.start.castles().castling_rights().contains(rook));
        }
    }
}
