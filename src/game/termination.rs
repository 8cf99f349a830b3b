//! How a game ended: the result, the reason (PGN `Termination` tag) and
//! which side the reason is charged to.
//!
//! PGN's own `Termination` vocabulary ("normal", "time forfeit", "rules
//! infraction", ...) is too coarse for a match summary, so each reason has
//! its own text; the ones PGN names ("time forfeit", "adjudication") keep
//! PGN's words, the others follow Cute Chess's end-of-game comments.

use std::fmt;
use std::str::FromStr;

use crate::keyword::UnknownWord;
use shakmaty::Color;

/// A finished game's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The side `loser` lost.
    pub fn loss_for(loser: Color) -> GameResult {
        match loser {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points scored by `side`: 1, 0.5 or 0, in half points (2, 1, 0).
    pub fn half_points(self, side: Color) -> u32 {
        match (self, side) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

impl FromStr for GameResult {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<GameResult, UnknownWord> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            other => Err(UnknownWord::new(
                "finished game's result",
                other,
                "1-0, 0-1 or 1/2-1/2",
            )),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Checkmate,
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
    /// `--draw` adjudication: both engines agreed the game is level.
    AdjudicatedDraw,
    /// `--resign` adjudication: one engine saw itself lost for long enough.
    AdjudicatedResign,
    /// `--maxmoves`: the game ran too long and is scored a draw.
    MaxMoves,
    TimeForfeit,
    IllegalMove,
    Crash,
    /// No `readyok` or no `bestmove` within the timeout.
    Stall,
}

impl Termination {
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Threefold,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::AdjudicatedDraw,
        Termination::AdjudicatedResign,
        Termination::MaxMoves,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stall,
    ];

    /// The PGN `Termination` tag text.
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Threefold => "threefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::AdjudicatedDraw => "adjudication: draw",
            Termination::AdjudicatedResign => "adjudication: resign",
            Termination::MaxMoves => "adjudication: max moves",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "engine crash",
            Termination::Stall => "stalled connection",
        }
    }

    /// Whether the loser is at fault (the game is lost by a failure, not on
    /// the board).
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Crash
                | Termination::Stall
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

impl FromStr for Termination {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<Termination, UnknownWord> {
        Termination::ALL
            .into_iter()
            .find(|t| t.tag() == s)
            .ok_or_else(|| {
                let tags: Vec<_> = Termination::ALL.iter().map(|t| t.tag()).collect();
                UnknownWord::new("Termination", s, tags.join(", "))
            })
    }
}

/// How a game ended: result, reason and a human sentence (the PGN's final
/// comment, e.g. "Black makes an illegal move: e8g8").
///
/// Not `Outcome`: that is shakmaty's (a result only, no reason), which the
/// PGN reader uses beside this one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameEnd {
    pub result: GameResult,
    pub termination: Termination,
    pub detail: String,
}

impl GameEnd {
    pub fn new(result: GameResult, termination: Termination, detail: impl Into<String>) -> GameEnd {
        GameEnd {
            result,
            termination,
            detail: detail.into(),
        }
    }

    /// `side` loses by a fault (crash, stall, illegal move, time forfeit).
    pub fn fault(side: Color, termination: Termination, detail: impl Into<String>) -> GameEnd {
        GameEnd::new(GameResult::loss_for(side), termination, detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_and_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        for t in Termination::ALL {
            assert_eq!(t.tag().parse::<Termination>(), Ok(t));
            assert!(seen.insert(t.tag()));
        }
        assert!("normal".parse::<Termination>().is_err());
    }

    #[test]
    fn results_score_both_sides() {
        assert_eq!(GameResult::loss_for(Color::White), GameResult::BlackWins);
        assert_eq!(GameResult::WhiteWins.half_points(Color::White), 2);
        assert_eq!(GameResult::WhiteWins.half_points(Color::Black), 0);
        assert_eq!(GameResult::Draw.half_points(Color::Black), 1);
        assert_eq!("1/2-1/2".parse::<GameResult>(), Ok(GameResult::Draw));
        assert!("*".parse::<GameResult>().is_err());
    }
}
