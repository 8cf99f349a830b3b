//! A game under arbitration: shakmaty checks every move an engine sends,
//! keeps the position history for threefold repetition, and says when the
//! rules end the game.
//!
//! Castling notation. In `UCI_Chess960` mode a castle is "king takes own
//! rook" (KxR, `e1h1`). Some engines send the king's destination instead
//! (`e1g1`), which is ambiguous in Chess960. Like fastchess, `strict` accepts
//! only KxR; like cutechess-cli, `lenient` also accepts a king move onto a
//! castling target square when that move is not legal as a plain king move
//! (the crate's one reading rule, [`read_move`]: a legal plain king move
//! always stays a plain king move). Either way a
//! castle not written as KxR is counted as a notation error of the engine.
//! An engine whose `castles` setting is `standard` is judged the other way
//! round ([`judge_move_in`]): the king's destination is its notation, KxR
//! the error.

use std::cell::OnceCell;
use std::fmt;
use std::str::FromStr;

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, MoveList, Position};

use super::termination::{GameEnd, GameResult, Termination};
use crate::keyword::UnknownWord;
use crate::notation::castling::{CastlingNotation, MoveError, Reading, read_move, write_move};

/// Which castling notation the arbiter accepts.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CastlingPolicy {
    /// KxR only (fastchess).
    #[default]
    Strict,
    /// KxR, or the king onto the castling target square (cutechess-cli).
    Lenient,
}

impl FromStr for CastlingPolicy {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<CastlingPolicy, UnknownWord> {
        match s {
            "strict" => Ok(CastlingPolicy::Strict),
            "lenient" => Ok(CastlingPolicy::Lenient),
            other => Err(UnknownWord::new(
                "castling policy",
                other,
                "strict or lenient",
            )),
        }
    }
}

impl fmt::Display for CastlingPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingPolicy::Strict => "strict",
            CastlingPolicy::Lenient => "lenient",
        })
    }
}

/// A move the arbiter accepted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Accepted {
    pub mv: Move,
    /// The engine wrote a castle as the king's destination, not KxR.
    pub notation_error: bool,
}

/// A move the arbiter refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refused {
    pub text: String,
    pub reason: String,
    /// The refused move was a castle in king-destination notation (strict).
    pub notation_error: bool,
}

/// Turns an engine's move text into a legal move of `pos`, or says why not,
/// for an engine that writes castles king-takes-rook (every engine in
/// `UCI_Chess960` mode): [`judge_move_in`] with that notation.
pub fn judge_move(pos: &Chess, text: &str, policy: CastlingPolicy) -> Result<Accepted, Refused> {
    judge_move_in(pos, text, policy, CastlingNotation::KingTakesRook)
}

/// Turns the move text of an engine that writes castles in `notation`
/// (its `castles` setting) into a legal move of `pos`, or says why not.
/// The text is read by [`read_move`] in that notation (a text that is both
/// a king step and a castle's king's-destination form is refused in the
/// two-squares notation, never guessed); the policy then decides about a
/// castle written in the other notation. A castle whose form in
/// `notation` does not exist or is ambiguous is written king-takes-rook by
/// every engine, and is no notation error.
pub fn judge_move_in(
    pos: &Chess,
    text: &str,
    policy: CastlingPolicy,
    notation: CastlingNotation,
) -> Result<Accepted, Refused> {
    let refuse = |reason: String, notation_error| Refused {
        text: text.to_string(),
        reason,
        notation_error,
    };
    match read_move(pos, text, notation) {
        Ok(Reading { mv, written }) => {
            let in_notation =
                !mv.is_castle() || written == notation || write_move(pos, mv, notation).is_err();
            match (in_notation, policy) {
                (true, _) => Ok(Accepted {
                    mv,
                    notation_error: false,
                }),
                (false, CastlingPolicy::Lenient) => Ok(Accepted {
                    mv,
                    notation_error: true,
                }),
                (false, CastlingPolicy::Strict) => Err(refuse(
                    match notation {
                        CastlingNotation::KingTakesRook => {
                            "castling must be written king-takes-rook in Chess960 (strict)".into()
                        }
                        CastlingNotation::KingTwoSquares => {
                            "castling must be written as the king's destination by this \
                             engine (castles=standard, strict)"
                                .into()
                        }
                    },
                    true,
                )),
            }
        }
        Err(MoveError::Syntax(_)) => Err(refuse("not a UCI move".into(), false)),
        Err(MoveError::Ambiguous(a)) => Err(refuse(format!("{a} (not guessed)"), false)),
        Err(MoveError::Illegal(_)) => Err(refuse("illegal in this position".into(), false)),
    }
}

/// The arbiter's record of one game: initial position (any position, an
/// SP or a book's), moves, history.
#[derive(Clone, Debug)]
pub struct Game {
    initial: Chess,
    pos: Chess,
    moves: Vec<Move>,
    /// Zobrist hashes of every position so far, the start included.
    hashes: Vec<u64>,
    policy: CastlingPolicy,
    /// The legal moves of `pos`, generated once per position: both the
    /// end-of-game check and the judging of the engine's move need them.
    legal: OnceCell<MoveList>,
}

impl Game {
    pub fn new(initial: Chess, policy: CastlingPolicy) -> Game {
        let hash = hash(&initial);
        Game {
            pos: initial.clone(),
            initial,
            moves: Vec::new(),
            hashes: vec![hash],
            policy,
            legal: OnceCell::new(),
        }
    }

    pub fn initial(&self) -> &Chess {
        &self.initial
    }

    pub fn position(&self) -> &Chess {
        &self.pos
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The moves so far in UCI_Chess960 notation (KxR), for `position … moves`.
    pub fn uci_moves(&self) -> impl Iterator<Item = UciMove> + '_ {
        self.moves
            .iter()
            .map(|m| UciMove::from_move(*m, CastlingMode::Chess960))
    }

    /// The legal moves of the current position.
    pub fn legal_moves(&self) -> &MoveList {
        self.legal.get_or_init(|| self.pos.legal_moves())
    }

    /// Checks and plays the side to move's move (castles king-takes-rook).
    pub fn play_engine_move(&mut self, text: &str) -> Result<Accepted, Refused> {
        self.play_engine_move_in(text, CastlingNotation::KingTakesRook)
    }

    /// Checks and plays the move of an engine that writes castles in
    /// `notation` ([`judge_move_in`]).
    pub fn play_engine_move_in(
        &mut self,
        text: &str,
        notation: CastlingNotation,
    ) -> Result<Accepted, Refused> {
        let accepted = judge_move_in(&self.pos, text, self.policy, notation)?;
        self.play(accepted.mv);
        Ok(accepted)
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, mv: Move) {
        self.pos.play_unchecked(mv);
        self.legal = OnceCell::new();
        self.moves.push(mv);
        self.hashes.push(hash(&self.pos));
    }

    /// The end the rules impose on the current position, if any:
    /// checkmate, stalemate, insufficient material, threefold repetition,
    /// fifty-move rule (checkmate on the 100th half move wins, as in FIDE).
    pub fn rules_end(&self) -> Option<GameEnd> {
        let pos = &self.pos;
        let turn = pos.turn();
        let no_moves = self.legal_moves().is_empty();
        if no_moves && pos.is_check() {
            return Some(GameEnd::new(
                GameResult::loss_for(turn),
                Termination::Checkmate,
                format!("{} mates", side_name(!turn)),
            ));
        }
        if no_moves {
            return Some(GameEnd::new(
                GameResult::Draw,
                Termination::Stalemate,
                "Draw by stalemate",
            ));
        }
        if pos.is_insufficient_material() {
            return Some(GameEnd::new(
                GameResult::Draw,
                Termination::InsufficientMaterial,
                "Draw by insufficient mating material",
            ));
        }
        if self.repetitions() >= 3 {
            return Some(GameEnd::new(
                GameResult::Draw,
                Termination::Threefold,
                "Draw by 3-fold repetition",
            ));
        }
        if pos.halfmoves() >= 100 {
            return Some(GameEnd::new(
                GameResult::Draw,
                Termination::FiftyMoves,
                "Draw by fifty moves rule",
            ));
        }
        None
    }

    /// How often the current position has occurred, counting only positions
    /// since the last irreversible move (same side to move, same rights).
    pub fn repetitions(&self) -> usize {
        let current = *self.hashes.last().unwrap_or(&0);
        let window = (self.pos.halfmoves() as usize).min(self.hashes.len() - 1);
        self.hashes[self.hashes.len() - 1 - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|h| **h == current)
            .count()
    }
}

fn hash(pos: &Chess) -> u64 {
    let h: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    h.0
}

/// "White" or "Black".
pub fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    fn pos(fen: &str) -> Chess {
        parse_position(fen).unwrap()
    }

    // King e1, rooks a1 and h1 with castling rights: SP 518 shape, empty back rank between.
    const CASTLE_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1";
    // King f1, rook h1 (and b1): g1 is a legal plain king move and the
    // king-side castle target.
    const KING_F1: &str = "1r3k1r/8/8/8/8/8/8/1R3K1R w HBhb - 0 1";

    #[test]
    fn kxr_castle_is_accepted_without_error_under_both_policies() {
        for policy in [CastlingPolicy::Strict, CastlingPolicy::Lenient] {
            let a = judge_move(&pos(CASTLE_FEN), "e1h1", policy).unwrap();
            assert!(a.mv.is_castle());
            assert!(!a.notation_error);
        }
    }

    #[test]
    fn king_two_squares_is_a_notation_error_strict_refuses_lenient_accepts() {
        let p = pos(CASTLE_FEN);
        let refused = judge_move(&p, "e1g1", CastlingPolicy::Strict).unwrap_err();
        assert!(refused.notation_error);
        assert!(refused.reason.contains("king-takes-rook"), "{refused:?}");
        let accepted = judge_move(&p, "e1c1", CastlingPolicy::Lenient).unwrap();
        assert_eq!(
            accepted.mv,
            Move::Castle {
                king: shakmaty::Square::E1,
                rook: shakmaty::Square::A1
            }
        );
        assert!(accepted.notation_error);
    }

    #[test]
    fn an_engine_speaking_standard_notation_is_judged_in_it() {
        use CastlingNotation::KingTwoSquares as Two;
        let p = pos("3k3r/pppppppp/8/8/8/8/PPPPPPPP/3K3R w Hh - 0 1");
        let own = judge_move_in(&p, "d1g1", CastlingPolicy::Strict, Two).unwrap();
        assert!(own.mv.is_castle() && !own.notation_error);
        // King takes rook is the other notation for it.
        let other = judge_move_in(&p, "d1h1", CastlingPolicy::Strict, Two).unwrap_err();
        assert!(other.notation_error && other.reason.contains("castles=standard"));
        let counted = judge_move_in(&p, "d1h1", CastlingPolicy::Lenient, Two).unwrap();
        assert!(counted.mv.is_castle() && counted.notation_error);
        // King f1, rook h1: `f1g1` is both, refused; `f1h1` is the only
        // castle text, no error.
        let p = pos(KING_F1);
        let both = judge_move_in(&p, "f1g1", CastlingPolicy::Lenient, Two).unwrap_err();
        assert!(
            !both.notation_error && both.reason.contains("not guessed"),
            "{both:?}"
        );
        let only = judge_move_in(&p, "f1h1", CastlingPolicy::Strict, Two).unwrap();
        assert!(only.mv.is_castle() && !only.notation_error);
    }

    #[test]
    fn a_legal_plain_king_move_stays_a_plain_move() {
        let p = pos(KING_F1);
        let a = judge_move(&p, "f1g1", CastlingPolicy::Lenient).unwrap();
        assert!(!a.mv.is_castle());
        assert!(!a.notation_error);
        let castle = judge_move(&p, "f1h1", CastlingPolicy::Strict).unwrap();
        assert!(castle.mv.is_castle());
    }

    #[test]
    fn garbage_and_illegal_moves_are_refused_with_a_reason() {
        let p = Chess::default();
        assert_eq!(
            judge_move(&p, "e2e5", CastlingPolicy::Lenient)
                .unwrap_err()
                .reason,
            "illegal in this position"
        );
        assert_eq!(
            judge_move(&p, "xyz", CastlingPolicy::Lenient)
                .unwrap_err()
                .reason,
            "not a UCI move"
        );
        assert!(
            !judge_move(&p, "0000", CastlingPolicy::Lenient)
                .unwrap_err()
                .notation_error
        );
    }

    fn play_all(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.play_engine_move(m)
                .unwrap_or_else(|e| panic!("{m}: {e:?}"));
        }
    }

    #[test]
    fn checkmate_stalemate_and_material_are_detected() {
        let mut g = Game::new(Chess::default(), CastlingPolicy::Strict);
        play_all(&mut g, "f2f3 e7e5 g2g4 d8h4");
        let o = g.rules_end().unwrap();
        assert_eq!(
            (o.result, o.termination),
            (GameResult::BlackWins, Termination::Checkmate)
        );
        assert_eq!(o.detail, "Black mates");

        let stale = Game::new(
            pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            CastlingPolicy::Strict,
        );
        assert_eq!(
            stale.rules_end().unwrap().termination,
            Termination::Stalemate
        );

        let mut bare = Game::new(
            pos("7k/8/8/8/8/8/6q1/K5N1 w - - 0 1"),
            CastlingPolicy::Strict,
        );
        play_all(&mut bare, "g1e2");
        assert!(bare.rules_end().is_none());
        let mut kn = Game::new(
            pos("7k/8/8/8/8/8/1q6/K5N1 w - - 0 1"),
            CastlingPolicy::Strict,
        );
        play_all(&mut kn, "a1b2");
        assert_eq!(
            kn.rules_end().unwrap().termination,
            Termination::InsufficientMaterial
        );
    }

    #[test]
    fn threefold_counts_the_start_and_needs_three() {
        let mut g = Game::new(Chess::default(), CastlingPolicy::Strict);
        play_all(&mut g, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(g.repetitions(), 2);
        assert!(g.rules_end().is_none());
        play_all(&mut g, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.rules_end().unwrap().termination, Termination::Threefold);
    }

    #[test]
    fn castling_rights_matter_for_repetition() {
        // Rook out and back loses the right: the position after is not the start one.
        let mut g = Game::new(pos(CASTLE_FEN), CastlingPolicy::Strict);
        play_all(&mut g, "h1h2 h8h7 h2h1 h7h8 h1h2 h8h7 h2h1 h7h8");
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn fifty_moves_ends_at_halfmove_100_unless_mate() {
        let mut g = Game::new(
            pos("7k/8/8/8/8/8/8/K5R1 w - - 99 80"),
            CastlingPolicy::Strict,
        );
        play_all(&mut g, "g1g2");
        assert_eq!(g.rules_end().unwrap().termination, Termination::FiftyMoves);
        let mut m = Game::new(
            pos("7k/8/6K1/8/8/8/8/R7 w - - 99 80"),
            CastlingPolicy::Strict,
        );
        play_all(&mut m, "a1a8");
        assert_eq!(m.rules_end().unwrap().termination, Termination::Checkmate);
    }

    #[test]
    fn uci_moves_are_written_king_takes_rook() {
        let mut g = Game::new(pos(CASTLE_FEN), CastlingPolicy::Lenient);
        play_all(&mut g, "e1g1 e8a8");
        let moves: Vec<String> = g.uci_moves().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["e1h1", "e8a8"]);
    }
}
