//! Hidden-state scenarios: one position whose `moves` list castles (or
//! loses a castling right), then, in the same engine process, a position
//! where a castle of the same colour is the only mate in one. An engine
//! whose castling state (rights, "has castled" flags, a cached position)
//! survives the new `position` line misses the second castle.

use shakmaty::{Chess, Move};

use super::forced::Crafted;
use super::moves_list::MovesListScenario;
use super::rights::RightsScenario;

/// How many scenarios of each source are kept: enough to cover both
/// colours and wings, few enough to stay quick (four queries each).
const PER_SOURCE: usize = 8;

/// Play `before` (start and moves), then `target` in the same process.
#[derive(Clone, Debug)]
pub struct HiddenStateScenario {
    pub before_start: Chess,
    pub before_moves: Vec<Move>,
    pub target: Crafted,
    pub label: String,
}

fn target_for(forced: &[Crafted], castle: Move) -> Option<&Crafted> {
    forced
        .iter()
        .find(|c| c.castle == castle && !c.dfrc)
        .or_else(|| {
            forced.iter().find(|c| {
                !c.dfrc
                    && c.castle.castling_side() == castle.castling_side()
                    && c.castle.from().map(|s| s.rank()) == castle.from().map(|s| s.rank())
            })
        })
}

/// The scenarios: after a lost right, and after a castle in the list.
pub fn hidden_state_scenarios(
    forced: &[Crafted],
    rights: &[RightsScenario],
    moves_list: &[MovesListScenario],
) -> Vec<HiddenStateScenario> {
    let mut out = Vec::new();
    for s in rights.iter().filter(|s| !s.label.ends_with("dfrc")) {
        if out.len() >= PER_SOURCE {
            break;
        }
        if let Some(t) = target_for(forced, s.lost) {
            out.push(HiddenStateScenario {
                before_start: s.start.clone(),
                before_moves: s.moves.clone(),
                target: t.clone(),
                label: format!("after [{}] then [{}]", s.label, t.label()),
            });
        }
    }
    let first = out.len();
    for s in moves_list.iter().filter(|s| !s.label.starts_with("DFRC")) {
        if out.len() - first >= PER_SOURCE {
            break;
        }
        if let Some(t) = target_for(forced, s.moves[s.castle_at]) {
            out.push(HiddenStateScenario {
                before_start: s.start.clone(),
                before_moves: s.moves.clone(),
                target: t.clone(),
                label: format!("after [{}] then [{}]", s.label, t.label()),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::forced::forced_castles;
    use crate::conformance::moves_list::moves_list_scenarios;
    use crate::conformance::rights::rights_scenarios;
    use shakmaty::Position;

    #[test]
    fn scenarios_come_from_both_sources_and_castle_in_the_first_line() {
        let forced = forced_castles();
        let all = hidden_state_scenarios(&forced, &rights_scenarios(), &moves_list_scenarios());
        assert!(all.len() >= 12, "{}", all.len());
        assert!(all.iter().any(|s| s.label.contains("last move")));
        for s in &all {
            let mut pos = s.before_start.clone();
            for &m in &s.before_moves {
                assert!(pos.is_legal(m), "{}", s.label);
                pos.play_unchecked(m);
            }
            assert!(s.target.position.is_legal(s.target.castle));
            // The colour that castles (or lost a right) before castles again.
            let before_castle_rank = s
                .before_moves
                .iter()
                .find(|m| m.is_castle())
                .and_then(|m| m.from())
                .map(|sq| sq.rank());
            if let Some(rank) = before_castle_rank {
                assert_eq!(
                    s.target.castle.from().map(|sq| sq.rank()),
                    Some(rank),
                    "{}",
                    s.label
                );
            }
        }
    }
}
