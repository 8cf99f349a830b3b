//! How the suite speaks castles to one engine: the engine's declared
//! castling notation (its `castles` setting, `EngineSpec::castling_notation`)
//! applied to every `position ... moves` line the suite writes, to the
//! castle a check expects, and to every answer and divide the engine gives.
//! The checks build their lines and read their answers here and nowhere
//! else.
//!
//! * King takes rook (`castles=auto` or `kxr`, the default): the UCI_Chess960
//!   convention, the one the suite checks. Lines and expected castles are
//!   written `e1h1`; answers are read as they come, and a castle written as
//!   the king's destination is the notation bug (`king-two-squares`).
//! * King two squares (`castles=standard`): the user declares that the
//!   engine writes and reads castles as the king's move (`e1g1`) even in
//!   UCI_Chess960 mode. Castles in `moves` lists go that way, the expected
//!   castle is that text, divides are read that way (their castles turned
//!   into king takes rook before they are compared with shakmaty's), and a
//!   castle written king-takes-rook is the deviation
//!   (`castles-not-as-declared`), never `king-two-squares`. A castle
//!   whose king moves one square onto a square it could also step to, or
//!   does not move at all, has no unambiguous form there
//!   ([`crate::notation::castling::Ambiguity`]): a position that needs one
//!   is skipped with the reason ([`Unsayable`]), never failed and never
//!   guessed.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, Move, Position, Square};

use super::diagnosis::Diagnosis;
use super::perft::Divide;
use crate::notation::castling::{
    Ambiguity, CastlingNotation, MoveError, Reading, king_destination_text, read_move,
};
use crate::notation::fen::{FenFlavour, position_fen};

/// A castle the declared notation cannot write unambiguously: the position
/// that needs it is skipped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "castle {castle} has no unambiguous form in the declared notation (castles={notation}): {why}"
)]
pub struct Unsayable {
    /// The castle, king takes rook.
    pub castle: String,
    pub notation: CastlingNotation,
    pub why: Ambiguity,
}

/// The engine's castling notation, as the suite writes and reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speech {
    pub notation: CastlingNotation,
}

impl Default for Speech {
    fn default() -> Self {
        Speech::new(CastlingNotation::KingTakesRook)
    }
}

impl Speech {
    pub fn new(notation: CastlingNotation) -> Speech {
        Speech { notation }
    }

    /// The run is adapted to a notation other than UCI_Chess960's.
    pub fn adapted(self) -> bool {
        self.notation != CastlingNotation::KingTakesRook
    }

    /// What the report header says about an adapted run.
    pub fn header(self) -> Option<String> {
        self.adapted().then(|| {
            format!(
                "castles={}: castles sent and read as the king's two-square move (e1g1), as declared; \
                 positions whose castle has no unambiguous form that way are skipped",
                self.notation
            )
        })
    }

    /// The text of `castle` (legal in `pos` or not) in the declared
    /// notation. King two squares: refused where the king does not move,
    /// or where its destination is also a legal plain king step.
    pub fn castle(self, pos: &Chess, castle: Move) -> Result<String, Unsayable> {
        let kxr = UciMove::from_chess960(castle).to_string();
        if self.notation == CastlingNotation::KingTakesRook {
            return Ok(kxr);
        }
        let Move::Castle { king, .. } = castle else {
            return Ok(kxr);
        };
        let text = king_destination_text(castle).unwrap_or_else(|| kxr.clone());
        let unsayable = |why| Unsayable {
            castle: kxr.clone(),
            notation: self.notation,
            why,
        };
        if text[2..4] == text[0..2] {
            return Err(unsayable(Ambiguity::KingStays { king }));
        }
        let step = pos
            .legal_moves()
            .into_iter()
            .any(|m| !m.is_castle() && UciMove::from_chess960(m).to_string() == text);
        if step {
            return Err(unsayable(Ambiguity::AlsoKingMove { text }));
        }
        Ok(text)
    }

    /// The `position fen ... [moves ...]` line of `start` and `moves`, the
    /// castles among the moves in the declared notation.
    pub fn line(
        self,
        flavour: FenFlavour,
        start: &Chess,
        moves: &[Move],
    ) -> Result<String, Unsayable> {
        let mut line = format!("position fen {}", position_fen(start, flavour));
        if !moves.is_empty() {
            line.push_str(" moves");
            let mut pos = start.clone();
            for &m in moves {
                line.push(' ');
                if m.is_castle() {
                    line.push_str(&self.castle(&pos, m)?);
                } else {
                    line.push_str(&UciMove::from_chess960(m).to_string());
                }
                pos.play_unchecked(m);
            }
        }
        Ok(line)
    }

    /// Whether the engine's answers and divide in `pos` can be read: every
    /// legal castle has its form in the declared notation (else a divide
    /// would list one text for the castle and a king step alike).
    pub fn readable(self, pos: &Chess) -> Result<(), Unsayable> {
        if self.notation == CastlingNotation::KingTakesRook {
            return Ok(());
        }
        pos.legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .try_for_each(|c| self.castle(pos, c).map(|_| ()))
    }

    /// An engine's move text in `pos` as king takes rook, the form the
    /// suite compares and diagnoses: a castle written in the declared
    /// notation (legal or not: an attempted castle keeps its rook) becomes
    /// KxR; every other text stays as written. King takes rook declared:
    /// the text unchanged.
    pub fn as_kxr(self, pos: &Chess, text: &str) -> String {
        if self.notation == CastlingNotation::KingTakesRook {
            return text.to_string();
        }
        match read_move(pos, text, self.notation) {
            Ok(Reading { mv, .. }) if mv.is_castle() => UciMove::from_chess960(mv).to_string(),
            Ok(_) | Err(MoveError::Ambiguous(_)) | Err(MoveError::Syntax(_)) => text.to_string(),
            Err(MoveError::Illegal(_)) => attempted_castle(pos, text)
                .map(|m| UciMove::from_chess960(m).to_string())
                .unwrap_or_else(|| text.to_string()),
        }
    }

    /// The engine's divide of `pos` with its castles as king takes rook
    /// ([`Speech::as_kxr`]), to compare with shakmaty's.
    pub fn divide(self, pos: &Chess, divide: Divide) -> Divide {
        if self.notation == CastlingNotation::KingTakesRook {
            return divide;
        }
        let mut out = Divide {
            total: divide.total,
            ..Divide::default()
        };
        out.duplicates = divide
            .duplicates
            .iter()
            .map(|d| self.as_kxr(pos, d))
            .collect();
        for (text, n) in divide.moves {
            match out.moves.entry(self.as_kxr(pos, &text)) {
                std::collections::btree_map::Entry::Occupied(e) => {
                    out.duplicates.push(e.key().clone())
                }
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(n);
                }
            }
        }
        out
    }

    /// Whether `answer` is a legal move of `pos` written in the declared
    /// notation (a text both a king step and a castle is legal either way).
    pub fn is_legal(self, pos: &Chess, answer: &str) -> bool {
        match self.notation {
            CastlingNotation::KingTakesRook => super::answer::is_legal(pos, answer),
            CastlingNotation::KingTwoSquares => match read_move(pos, answer, self.notation) {
                Ok(Reading { mv, written }) => !mv.is_castle() || written == self.notation,
                Err(MoveError::Ambiguous(_)) => true,
                Err(_) => false,
            },
        }
    }

    /// The diagnosis of a castle written in the other notation than the
    /// declared one.
    pub fn other_notation(self) -> Diagnosis {
        match self.notation {
            CastlingNotation::KingTakesRook => Diagnosis::KingTwoSquares,
            CastlingNotation::KingTwoSquares => Diagnosis::CastlesNotAsDeclared,
        }
    }

    /// How a castle in the other notation is described in a failure.
    pub fn other_notation_text(self) -> &'static str {
        match self.notation {
            CastlingNotation::KingTakesRook => {
                "king's destination square: standard-UCI notation, not Chess960"
            }
            CastlingNotation::KingTwoSquares => {
                "king takes own rook, although castles=standard declares the king's two-square move"
            }
        }
    }

    /// How the expected castle is described (`e1h1 (king takes own rook)`).
    pub fn expected_text(self) -> &'static str {
        match self.notation {
            CastlingNotation::KingTakesRook => "king takes own rook",
            CastlingNotation::KingTwoSquares => "the king's two-square move, as declared",
        }
    }
}

/// An illegal text in the king's-destination form: the king of the side
/// to move going to the c- or g-file of its back rank, read as the castle
/// with that side's castling rook (the right's rook, else the outermost
/// rook of that wing), so that a castle with a lost right or through check
/// is named as a castle.
fn attempted_castle(pos: &Chess, text: &str) -> Option<Move> {
    let from: Square = text.get(0..2)?.parse().ok()?;
    let to: Square = text.get(2..4)?.parse().ok()?;
    let us = pos.turn();
    if text.len() != 4 || pos.board().king_of(us) != Some(from) || to.rank() != from.rank() {
        return None;
    }
    let side = [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .find(|s| s.king_to(us) == to)?;
    // The right's rook; without a right (a castle with a lost right) the
    // outermost rook of that wing, where a Chess960 castling rook starts.
    let wing = (pos.board().rooks() & pos.board().by_color(us) & us.backrank())
        .into_iter()
        .filter(|r| (*r > from) == (side == CastlingSide::KingSide));
    let outermost = match side {
        CastlingSide::KingSide => wing.max(),
        CastlingSide::QueenSide => wing.min(),
    };
    let rook = pos.castles().rook(us, side).or(outermost)?;
    Some(Move::Castle { king: from, rook })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::castling::CastlingNotation::{
        KingTakesRook as Kxr, KingTwoSquares as Two,
    };
    use crate::notation::fen::parse_position;

    fn pos(fen: &str) -> Chess {
        parse_position(fen).unwrap()
    }

    fn castle(king: Square, rook: Square) -> Move {
        Move::Castle { king, rook }
    }

    #[test]
    fn king_takes_rook_changes_nothing() {
        let p = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
        let s = Speech::new(Kxr);
        assert!(!s.adapted() && s.header().is_none());
        assert_eq!(
            s.castle(&p, castle(Square::F1, Square::H1)).unwrap(),
            "f1h1"
        );
        assert_eq!(s.as_kxr(&p, "f1g1"), "f1g1");
        assert!(s.readable(&p).is_ok());
        assert_eq!(s.other_notation(), Diagnosis::KingTwoSquares);
    }

    #[test]
    fn standard_writes_the_kings_move_and_refuses_the_ambiguous_ones() {
        let s = Speech::new(Two);
        // K e1, R h1: e1g1.
        let e = pos("4k3/8/8/8/8/8/8/4K2R w H - 0 1");
        assert_eq!(
            s.castle(&e, castle(Square::E1, Square::H1)).unwrap(),
            "e1g1"
        );
        // K f1, R h1: f1g1 is also a king step.
        let f = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
        let err = s.castle(&f, castle(Square::F1, Square::H1)).unwrap_err();
        assert!(matches!(err.why, Ambiguity::AlsoKingMove { .. }), "{err}");
        assert!(err.to_string().contains("castles=standard"), "{err}");
        assert!(s.readable(&f).is_err());
        // K g1, R h1: the king stays.
        let g = pos("4k3/8/8/8/8/8/8/6KR w H - 0 1");
        assert!(matches!(
            s.castle(&g, castle(Square::G1, Square::H1))
                .unwrap_err()
                .why,
            Ambiguity::KingStays { .. }
        ));
        // K d1, R c1: the king lands on the rook's square, one text for both.
        let d = pos("4k3/8/8/8/8/8/8/2RK4 w C - 0 1");
        assert_eq!(
            s.castle(&d, castle(Square::D1, Square::C1)).unwrap(),
            "d1c1"
        );
        assert!(s.header().unwrap().contains("castles=standard"));
        assert_eq!(s.other_notation(), Diagnosis::CastlesNotAsDeclared);
    }

    #[test]
    fn lines_carry_castles_in_the_declared_notation_or_are_unsayable() {
        // K b1, R h1 and R a1: kingside b1g1 is far, queenside b1c1 a step.
        let start = pos("4k3/pppppppp/8/8/8/8/8/RK5R w HA - 0 1");
        let kingside = castle(Square::B1, Square::H1);
        let line = Speech::new(Two)
            .line(FenFlavour::Shredder, &start, &[kingside])
            .unwrap();
        assert!(line.ends_with(" moves b1g1"), "{line}");
        let kxr = Speech::new(Kxr)
            .line(FenFlavour::Shredder, &start, &[kingside])
            .unwrap();
        assert!(kxr.ends_with(" moves b1h1"), "{kxr}");
        let queenside = castle(Square::B1, Square::A1);
        assert!(
            Speech::new(Two)
                .line(FenFlavour::Shredder, &start, &[queenside])
                .is_err()
        );
    }

    #[test]
    fn answers_and_divides_are_read_back_as_king_takes_rook() {
        let s = Speech::new(Two);
        let p = pos("4k3/8/8/8/8/8/8/R3K2R w HA - 0 1");
        assert_eq!(s.as_kxr(&p, "e1g1"), "e1h1");
        assert_eq!(s.as_kxr(&p, "e1c1"), "e1a1");
        assert_eq!(s.as_kxr(&p, "e1h1"), "e1h1");
        assert_eq!(s.as_kxr(&p, "e1f1"), "e1f1");
        assert!(s.is_legal(&p, "e1g1") && s.is_legal(&p, "e1f1"));
        assert!(
            !s.is_legal(&p, "e1h1"),
            "king takes rook is not the declared form"
        );
        assert!(!s.is_legal(&p, "e1e3"));
        // A castle through check, attempted in the king's-destination form,
        // keeps its rook for the diagnosis.
        let check = pos("4kr2/8/8/8/8/8/8/4K2R w H - 0 1");
        assert_eq!(s.as_kxr(&check, "e1g1"), "e1h1");
        // Without the right (lost), the wing's outermost rook.
        let lost = pos("4k3/8/8/8/8/8/8/R3K1RR w - - 0 1");
        assert_eq!(s.as_kxr(&lost, "e1g1"), "e1h1");
        assert_eq!(s.as_kxr(&lost, "e1c1"), "e1a1");
        let mut divide = Divide::default();
        divide.moves.insert("e1g1".into(), 1);
        divide.moves.insert("e1f1".into(), 1);
        divide.total = 2;
        let read = s.divide(&p, divide);
        assert_eq!(
            read.moves.keys().collect::<Vec<_>>(),
            ["e1f1", "e1h1"],
            "{read:?}"
        );
    }
}
