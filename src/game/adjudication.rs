//! Draw, resign and max-moves adjudication, as cutechess-cli's `-draw`,
//! `-resign` and `-maxmoves`:
//! * draw `movenumber=N movecount=M score=S`: from move N on, when both
//!   engines' scores stayed within ±S centipawns for M consecutive moves
//!   each (2M plies), the game is drawn;
//! * resign `movecount=M score=S`: an engine whose own score was at or below
//!   -S for M consecutive moves of its own loses;
//! * maxmoves `N`: after N moves by each side the game is drawn.
//!
//! A move without a score breaks both streaks (Cute Chess does the same).

use shakmaty::{ByColor, Color};

use super::arbiter::side_name;
use super::termination::{GameEnd, GameResult, Termination};
use crate::uci::Score;

#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Rules {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub max_moves: Option<u32>,
}

/// Streak counters across one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Rules,
    draw_plies: u32,
    resign_moves: ByColor<u32>,
}

impl Adjudicator {
    pub fn new(rules: Rules) -> Adjudicator {
        Adjudicator {
            rules,
            ..Adjudicator::default()
        }
    }

    /// Called after `side` played its move number `fullmove` (1-based, as
    /// in PGN) with evaluation `score` and `plies` half moves in the game.
    pub fn after_move(
        &mut self,
        side: Color,
        fullmove: u32,
        plies: u32,
        score: Option<Score>,
    ) -> Option<GameEnd> {
        let cp = score.map(|s| s.centipawns());
        if let Some(rule) = self.rules.resign {
            match cp {
                Some(cp) if cp <= -i64::from(rule.score) => self.resign_moves[side] += 1,
                _ => self.resign_moves[side] = 0,
            }
            if self.resign_moves[side] >= rule.movecount {
                return Some(GameEnd::new(
                    GameResult::loss_for(side),
                    Termination::AdjudicatedResign,
                    format!("{} resigns (adjudication)", side_name(side)),
                ));
            }
        }
        if let Some(rule) = self.rules.draw {
            match cp {
                Some(cp) if fullmove >= rule.movenumber && cp.abs() <= i64::from(rule.score) => {
                    self.draw_plies += 1
                }
                _ => self.draw_plies = 0,
            }
            if self.draw_plies >= 2 * rule.movecount {
                return Some(GameEnd::new(
                    GameResult::Draw,
                    Termination::AdjudicatedDraw,
                    "Draw by adjudication",
                ));
            }
        }
        if let Some(max) = self.rules.max_moves
            && plies >= 2 * max
        {
            return Some(GameEnd::new(
                GameResult::Draw,
                Termination::MaxMoves,
                "Draw by adjudication: maximum moves",
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::ScoreBound;

    #[test]
    fn draw_needs_both_sides_level_for_movecount_moves_after_movenumber() {
        let rules = Rules {
            draw: Some(DrawRule {
                movenumber: 3,
                movecount: 2,
                score: 10,
            }),
            ..Rules::default()
        };
        let mut a = Adjudicator::new(rules);
        // Moves 1-2 are before movenumber 3 and do not count.
        let mut ply = 0;
        let mut play = |a: &mut Adjudicator, side, n, cp| {
            ply += 1;
            a.after_move(side, n, ply, Some(Score::Cp(cp, ScoreBound::Exact)))
        };
        for n in 1..=2 {
            assert!(play(&mut a, Color::White, n, 0).is_none());
            assert!(play(&mut a, Color::Black, n, 0).is_none());
        }
        assert!(play(&mut a, Color::White, 3, 5).is_none());
        assert!(play(&mut a, Color::Black, 3, -10).is_none());
        // A score outside ±10 resets the streak.
        assert!(play(&mut a, Color::White, 4, 11).is_none());
        assert!(play(&mut a, Color::Black, 4, 0).is_none());
        assert!(play(&mut a, Color::White, 5, 0).is_none());
        assert!(play(&mut a, Color::Black, 5, 0).is_none());
        let o = play(&mut a, Color::White, 6, 0).unwrap();
        assert_eq!(
            (o.result, o.termination),
            (GameResult::Draw, Termination::AdjudicatedDraw)
        );
    }

    #[test]
    fn resign_counts_own_moves_and_mate_scores() {
        let rules = Rules {
            resign: Some(ResignRule {
                movecount: 3,
                score: 500,
            }),
            ..Rules::default()
        };
        let mut a = Adjudicator::new(rules);
        assert!(
            a.after_move(
                Color::Black,
                10,
                20,
                Some(Score::Cp(-600, ScoreBound::Exact))
            )
            .is_none()
        );
        assert!(
            a.after_move(
                Color::White,
                11,
                21,
                Some(Score::Cp(600, ScoreBound::Exact))
            )
            .is_none()
        );
        assert!(
            a.after_move(
                Color::Black,
                11,
                22,
                Some(Score::Mate(-4, ScoreBound::Exact))
            )
            .is_none()
        );
        assert!(
            a.after_move(
                Color::White,
                12,
                23,
                Some(Score::Mate(3, ScoreBound::Exact))
            )
            .is_none()
        );
        let o = a
            .after_move(
                Color::Black,
                12,
                24,
                Some(Score::Cp(-500, ScoreBound::Exact)),
            )
            .unwrap();
        assert_eq!(
            (o.result, o.termination),
            (GameResult::WhiteWins, Termination::AdjudicatedResign)
        );
        // A missing score breaks the streak.
        let mut b = Adjudicator::new(rules);
        b.after_move(Color::White, 1, 1, Some(Score::Cp(-900, ScoreBound::Exact)));
        b.after_move(Color::White, 2, 3, None);
        b.after_move(Color::White, 3, 5, Some(Score::Cp(-900, ScoreBound::Exact)));
        assert!(
            b.after_move(Color::White, 4, 7, Some(Score::Cp(-900, ScoreBound::Exact)))
                .is_none()
        );
    }

    #[test]
    fn max_moves_counts_moves_of_each_side() {
        let mut a = Adjudicator::new(Rules {
            max_moves: Some(2),
            ..Rules::default()
        });
        assert!(a.after_move(Color::White, 2, 3, None).is_none());
        assert_eq!(
            a.after_move(Color::Black, 2, 4, None).unwrap().termination,
            Termination::MaxMoves
        );
    }
}
