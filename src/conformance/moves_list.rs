//! Moves-list scenarios: a castle inside `position fen … moves …` that
//! the engine must apply. Stockfish stops reading the list at a move it
//! cannot parse, so an engine that does not understand the KxR castle
//! silently keeps the position before it; these scenarios are built so that
//! then its `bestmove` cannot be legal (the side to move differs, and
//! shakmaty confirms no move is legal in both positions).
//!
//! Starts are Chess960 and DFRC start positions with every piece but
//! kings, rooks and pawns taken off, so that every castle is available at
//! once; one start per king file (b..g) plus two DFRC pairs.

use std::collections::HashSet;

use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, CastlingMode, Chess, FromSetup, Move, Position, Role, Square};

use super::perft_sets::dfrc_positions;
use crate::start::{BackRank, POSITIONS, StartPosition};

/// One scenario: play `moves` from `start`; `moves[castle_at]` is a castle.
#[derive(Clone, Debug)]
pub struct MovesListScenario {
    pub start: Chess,
    pub moves: Vec<Move>,
    pub castle_at: usize,
    pub end: Chess,
    /// The position an engine that drops the list at the castle stays in.
    pub dropped: Chess,
    pub label: String,
}

fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Chess960).to_string()
}

fn legal_set(pos: &Chess) -> HashSet<String> {
    pos.legal_moves().into_iter().map(uci).collect()
}

/// Only kings, rooks and pawns.
fn stripped(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    let minor = setup.board.knights() | setup.board.bishops() | setup.board.queens();
    for sq in minor {
        setup.board.discard_piece_at(sq);
    }
    let rights = setup.castling_rights;
    let pos = Chess::from_setup(setup, CastlingMode::Chess960).ok()?;
    (pos.castles().castling_rights() == rights).then_some(pos)
}

/// A quiet pawn move, first in square order, that is not a castle.
fn quiet(pos: &Chess) -> Option<Move> {
    pos.legal_moves()
        .into_iter()
        .find(|m| m.role() == Role::Pawn && !m.is_capture())
}

fn starts() -> Vec<(String, Chess)> {
    let mut out = Vec::new();
    let mut seen = Bitboard::EMPTY;
    for sp in 0..u32::from(POSITIONS) {
        let Ok(rank) = BackRank::from_sp(sp) else {
            continue;
        };
        let king = shakmaty::Square::from_coords(rank.king_file(), shakmaty::Rank::First);
        if seen.contains(king) {
            continue;
        }
        seen.add(king);
        if let Ok(start) = StartPosition::from_sp(sp) {
            out.push((format!("SP {sp}"), start.to_chess()));
        }
    }
    for l in dfrc_positions(2) {
        out.push((l.label, l.position));
    }
    out
}

/// Checks the scenario's promise and builds it.
fn scenario(
    start: &Chess,
    moves: Vec<Move>,
    castle_at: usize,
    label: String,
) -> Option<MovesListScenario> {
    let mut pos = start.clone();
    let mut dropped = None;
    for (i, &m) in moves.iter().enumerate() {
        if i == castle_at {
            if !m.is_castle() {
                return None;
            }
            dropped = Some(pos.clone());
        }
        if !pos.is_legal(m) {
            return None;
        }
        pos.play_unchecked(m);
    }
    let dropped = dropped?;
    if pos.is_game_over() || !legal_set(&pos).is_disjoint(&legal_set(&dropped)) {
        return None;
    }
    Some(MovesListScenario {
        start: start.clone(),
        moves,
        castle_at,
        end: pos,
        dropped,
        label,
    })
}

/// Every scenario.
pub fn moves_list_scenarios() -> Vec<MovesListScenario> {
    let mut out = Vec::new();
    for (label, full) in starts() {
        let Some(start) = stripped(&full) else {
            continue;
        };
        // White castles first; then Black castles after a white pawn move.
        for castle in start.legal_moves().into_iter().filter(|m| m.is_castle()) {
            let name = format!("{label}: white {}", uci(castle));
            out.extend(scenario(
                &start,
                vec![castle],
                0,
                format!("{name}, last move"),
            ));
            let mut after = start.clone();
            after.play_unchecked(castle);
            if let Some(b) = quiet(&after) {
                let mut after2 = after.clone();
                after2.play_unchecked(b);
                if let Some(w) = quiet(&after2) {
                    out.extend(scenario(
                        &start,
                        vec![castle, b, w],
                        0,
                        format!("{name}, then two moves"),
                    ));
                }
            }
        }
        if let Some(w) = quiet(&start) {
            let mut after = start.clone();
            after.play_unchecked(w);
            for castle in after.legal_moves().into_iter().filter(|m| m.is_castle()) {
                out.extend(scenario(
                    &start,
                    vec![w, castle],
                    1,
                    format!("{label}: black {}, last move", uci(castle)),
                ));
            }
        }
    }
    out
}

/// The positions an engine reaches when it applies the castle of a
/// scenario wrongly (and the moves after it as far as they stay legal):
/// only the king moved to its destination, only the rook moved, or the
/// king took its own rook. An answer legal only there shows a misapplied
/// castle rather than a dropped one.
pub fn misapplied_positions(s: &MovesListScenario) -> Vec<Chess> {
    let Move::Castle { king, rook } = s.moves[s.castle_at] else {
        return Vec::new();
    };
    let before = &s.dropped;
    let side = shakmaty::CastlingSide::from_king_side(king < rook);
    let king_to = Square::from_coords(side.king_to_file(), king.rank());
    let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
    let variants: [&[(Square, Option<Square>)]; 3] = [
        &[(king, Some(king_to))],
        &[(rook, Some(rook_to))],
        &[(rook, None), (king, Some(rook))],
    ];
    let mut out = Vec::new();
    for variant in variants {
        let mut setup = before.to_setup(shakmaty::EnPassantMode::Legal);
        let mut ok = true;
        for &(from, to) in variant {
            let Some(piece) = setup.board.remove_piece_at(from) else {
                ok = false;
                break;
            };
            if let Some(to) = to {
                if setup.board.piece_at(to).is_some() {
                    ok = false;
                    break;
                }
                setup.board.set_piece_at(to, piece);
            }
        }
        if !ok {
            continue;
        }
        setup.castling_rights &= !Bitboard::from(before.turn().backrank());
        setup.turn = !setup.turn;
        let Ok(mut pos) = Chess::from_setup(setup, CastlingMode::Chess960) else {
            continue;
        };
        for &m in &s.moves[s.castle_at + 1..] {
            let Ok(m) = UciMove::from_move(m, CastlingMode::Chess960).to_move(&pos) else {
                break;
            };
            pos.play_unchecked(m);
        }
        if pos.board() != s.end.board() {
            out.push(pos);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    #[test]
    fn scenarios_cover_both_colours_and_wings() {
        let all = moves_list_scenarios();
        assert!(all.len() >= 20, "{}", all.len());
        for color in Color::ALL {
            for side in [
                shakmaty::CastlingSide::KingSide,
                shakmaty::CastlingSide::QueenSide,
            ] {
                assert!(all.iter().any(|s| {
                    let m = s.moves[s.castle_at];
                    m.castling_side() == Some(side) && s.dropped.turn() == color
                }));
            }
        }
        assert!(all.iter().any(|s| s.label.starts_with("DFRC")));
        for s in &all {
            assert_ne!(s.end.turn(), s.dropped.turn(), "{}", s.label);
            // The misapplied positions are different games, not the right one.
            for p in misapplied_positions(s) {
                assert_ne!(p.board(), s.end.board(), "{}", s.label);
            }
        }
        assert!(all.iter().any(|s| !misapplied_positions(s).is_empty()));
    }
}
