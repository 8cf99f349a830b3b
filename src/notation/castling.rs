//! Castling move notation: "king takes rook" (KxR, `e1h1`, the UCI_Chess960
//! form) and "king two squares" (`e1g1`, standard UCI).
//!
//! In Chess960 the king-two-squares form is ambiguous where the king moves a
//! single square (king f1, rook h1: `f1g1` is also a plain king move) and
//! has no form at all where the king does not move (king g1, rook h1). Those
//! cases are refused with [`Ambiguity`], never guessed.
//!
//! ```
//! use uci960::notation::castling::{translate, CastlingNotation, Translation};
//! use uci960::notation::fen::parse_position;
//! let pos = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
//! assert_eq!(
//!     translate(&pos, "e1h1", CastlingNotation::KingTakesRook, CastlingNotation::KingTwoSquares),
//!     Translation::Castle("e1g1".into())
//! );
//! assert_eq!(
//!     translate(&pos, "e1f1", CastlingNotation::KingTakesRook, CastlingNotation::KingTwoSquares),
//!     Translation::NotCastling
//! );
//! ```

use std::fmt;
use std::str::FromStr;

use crate::keyword::UnknownWord;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, Move, Position, Square};

/// How castling moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingNotation {
    /// King takes own rook (`e1h1`): UCI_Chess960 mode.
    KingTakesRook,
    /// King moves to the g or c file (`e1g1`): standard UCI.
    KingTwoSquares,
}

impl CastlingNotation {
    /// The notation UCI prescribes for an engine in `UCI_Chess960` mode
    /// (`chess960`) or out of it.
    pub fn of_uci_mode(chess960: bool) -> CastlingNotation {
        if chess960 {
            CastlingNotation::KingTakesRook
        } else {
            CastlingNotation::KingTwoSquares
        }
    }

    /// Reads `auto` (`None`: by the UCI mode, [`Self::of_uci_mode`]) or a
    /// notation: the values of an engine's `castles` key.
    pub fn parse_or_auto(text: &str) -> Result<Option<CastlingNotation>, UnknownWord> {
        if text.eq_ignore_ascii_case("auto") {
            return Ok(None);
        }
        text.parse()
            .map(Some)
            .map_err(|_| UnknownWord::new("castling notation", text, "auto, kxr or standard"))
    }
}

impl FromStr for CastlingNotation {
    type Err = UnknownWord;
    fn from_str(s: &str) -> Result<CastlingNotation, UnknownWord> {
        match s.to_ascii_lowercase().as_str() {
            "kxr" | "chess960" => Ok(CastlingNotation::KingTakesRook),
            "standard" | "king-two-squares" => Ok(CastlingNotation::KingTwoSquares),
            other => Err(UnknownWord::new(
                "castling notation",
                other,
                "kxr or standard",
            )),
        }
    }
}

impl fmt::Display for CastlingNotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingNotation::KingTakesRook => "kxr",
            CastlingNotation::KingTwoSquares => "standard",
        })
    }
}

/// Why a castle cannot be written or read unambiguously.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ambiguity {
    /// The king moves one square: the two-squares form is also a plain
    /// king move.
    #[error("'{text}' is both a castle and a plain king move")]
    AlsoKingMove { text: String },
    /// The king stays on its square: the two-squares form does not exist.
    #[error("castling with the king staying on {king} has no king-two-squares form")]
    KingStays { king: Square },
}

/// Why a move text is not a move of the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("'{0}' is not a UCI move")]
    Syntax(String),
    #[error("'{0}' is not a legal move here")]
    Illegal(String),
    #[error(transparent)]
    Ambiguous(#[from] Ambiguity),
}

/// The result of translating one move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Translation {
    /// Not a castle (or not a legal move at all): keep the text as it is.
    NotCastling,
    /// A castle; this is its text in the target notation (possibly equal to
    /// the input, e.g. `e1g1` in a standard position read as KxR).
    Castle(String),
    /// A castle that cannot be told apart or written: keep the text, warn.
    Ambiguous(Ambiguity),
}

/// A move text read in a position: the move, and how the text wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub mv: Move,
    /// [`CastlingNotation::KingTwoSquares`] for a castle written as the
    /// king's destination; [`CastlingNotation::KingTakesRook`] for every
    /// other text (plain moves are written alike in both notations).
    pub written: CastlingNotation,
}

/// The legal castle whose king goes from `from` to `to`: the
/// king's-destination reading of a text.
fn castle_by_king_target(pos: &Chess, from: Square, to: Square) -> Option<Move> {
    if pos.board().king_of(pos.turn()) != Some(from) {
        return None;
    }
    [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .filter(|side| side.king_to(pos.turn()) == to)
        .flat_map(|side| pos.castling_moves(side))
        .find(|m| matches!(*m, Move::Castle { king, .. } if king == from))
}

/// Reads a move text in `notation`: the one reading rule of the crate,
/// used by the proxy, the arbiter, the conformance suite and the built-in
/// engine alike.
///
/// A text has at most two readings: the literal one (the legal move written
/// exactly so in UCI_Chess960 form: plain moves, and castles as king takes
/// own rook) and the king's-destination one (the legal castle whose king
/// goes from the text's first square to its second). One reading is that
/// move. Both (king f1, rook h1: `f1g1` is a king step and the castle's
/// king-destination form) is the one ambiguity, settled by `notation`: in
/// [`CastlingNotation::KingTakesRook`] castles are never written as the
/// king's destination, so the literal king step wins; in
/// [`CastlingNotation::KingTwoSquares`] both readings are that notation's,
/// so the text is refused with [`Ambiguity::AlsoKingMove`], never guessed.
/// King takes own rook is never a plain move, so it is read as the castle in
/// either notation (python-chess does too).
pub fn read_move(
    pos: &Chess,
    text: &str,
    notation: CastlingNotation,
) -> Result<Reading, MoveError> {
    let uci: UciMove = text
        .parse()
        .map_err(|_| MoveError::Syntax(text.to_string()))?;
    // shakmaty's `to_move` also reads `e1g1` as a castle in a standard
    // setup; only the exact Chess960 text counts as literal here.
    let literal = uci
        .to_move(pos)
        .ok()
        .filter(|&m| UciMove::from_chess960(m) == uci);
    let by_destination = match uci {
        UciMove::Normal {
            from,
            to,
            promotion: None,
        } => castle_by_king_target(pos, from, to).filter(|&c| Some(c) != literal),
        _ => None,
    };
    let written = |mv, written| Ok(Reading { mv, written });
    match (literal, by_destination) {
        (Some(_), Some(_)) if notation == CastlingNotation::KingTwoSquares => {
            Err(Ambiguity::AlsoKingMove {
                text: text.to_string(),
            }
            .into())
        }
        (Some(m), _) => written(m, CastlingNotation::KingTakesRook),
        (None, Some(c)) => written(c, CastlingNotation::KingTwoSquares),
        (None, None) => Err(MoveError::Illegal(text.to_string())),
    }
}

/// Reads a move text in `notation` (see [`read_move`]).
pub fn parse_move(pos: &Chess, text: &str, notation: CastlingNotation) -> Result<Move, MoveError> {
    read_move(pos, text, notation).map(|r| r.mv)
}

/// The king's-destination text of a castle (`e1g1`), whether or not it can
/// be told apart from a king step; `None` for a move that is not a castle.
pub fn king_destination_text(castle: Move) -> Option<String> {
    king_squares(castle).map(|(from, to)| format!("{from}{to}"))
}

/// Where a castle's king stands and where it goes.
fn king_squares(castle: Move) -> Option<(Square, Square)> {
    match castle {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            Some((king, Square::from_coords(side.king_to_file(), king.rank())))
        }
        _ => None,
    }
}

/// Writes a legal move of `pos` in `notation`. A text is written only if
/// [`read_move`] reads it back as `m`: the king's-destination form of a
/// castle is refused where it is also a legal king step, and where the king
/// does not move at all.
pub fn write_move(pos: &Chess, m: Move, notation: CastlingNotation) -> Result<String, Ambiguity> {
    let text = match (king_squares(m), notation) {
        (Some((king, to)), CastlingNotation::KingTwoSquares) => {
            if to == king {
                return Err(Ambiguity::KingStays { king });
            }
            format!("{king}{to}")
        }
        // Plain moves read the same in both notations.
        _ => UciMove::from_chess960(m).to_string(),
    };
    match read_move(pos, &text, notation) {
        Err(MoveError::Ambiguous(a)) => Err(a),
        _ => Ok(text),
    }
}

/// The text of a legal move `m` of `pos` for an engine that speaks
/// `notation`: its form there, or king takes rook where that form does not
/// exist or is also a king step (the one text every Chess960 reader takes
/// as the castle, so nothing is guessed).
pub fn engine_text(pos: &Chess, m: Move, notation: CastlingNotation) -> String {
    match notation {
        CastlingNotation::KingTwoSquares if m.is_castle() => {
            write_move(pos, m, notation).unwrap_or_else(|_| UciMove::from_chess960(m).to_string())
        }
        _ => UciMove::from_chess960(m).to_string(),
    }
}

/// Appends ` m1 m2 …`, the moves played from `start` as an engine that
/// speaks `notation` reads them ([`engine_text`]).
pub fn push_engine_moves(
    out: &mut String,
    start: &Chess,
    moves: &[Move],
    notation: CastlingNotation,
) {
    let mut pos = (notation == CastlingNotation::KingTwoSquares).then(|| start.clone());
    for &m in moves {
        out.push(' ');
        match pos.as_mut() {
            Some(p) => {
                out.push_str(&engine_text(p, m, notation));
                p.play_unchecked(m);
            }
            None => out.push_str(&UciMove::from_chess960(m).to_string()),
        }
    }
}

/// Translates a move text from one castling notation to the other. Only
/// castles change; every other text, legal or not, is [`Translation::NotCastling`].
pub fn translate(
    pos: &Chess,
    text: &str,
    from: CastlingNotation,
    to: CastlingNotation,
) -> Translation {
    match parse_move(pos, text, from) {
        Ok(m @ Move::Castle { .. }) => match write_move(pos, m, to) {
            Ok(s) => Translation::Castle(s),
            Err(a) => Translation::Ambiguous(a),
        },
        Ok(_) | Err(MoveError::Syntax(_)) | Err(MoveError::Illegal(_)) => Translation::NotCastling,
        Err(MoveError::Ambiguous(a)) => Translation::Ambiguous(a),
    }
}

#[cfg(test)]
mod tests {
    use super::CastlingNotation::{KingTakesRook as Kxr, KingTwoSquares as Two};
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::start::StartPosition;
    use shakmaty::{Color, Position, Role};

    fn pos(fen: &str) -> Chess {
        parse_position(fen).unwrap()
    }

    #[test]
    fn standard_castles_both_ways() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(
            translate(&p, "e1h1", Kxr, Two),
            Translation::Castle("e1g1".into())
        );
        assert_eq!(
            translate(&p, "e1a1", Kxr, Two),
            Translation::Castle("e1c1".into())
        );
        assert_eq!(
            translate(&p, "e1g1", Two, Kxr),
            Translation::Castle("e1h1".into())
        );
        assert_eq!(
            translate(&p, "e1c1", Two, Kxr),
            Translation::Castle("e1a1".into())
        );
        assert_eq!(translate(&p, "e1d1", Two, Kxr), Translation::NotCastling);
        assert_eq!(translate(&p, "a1a8", Two, Kxr), Translation::NotCastling);
        assert_eq!(translate(&p, "zz", Two, Kxr), Translation::NotCastling);
    }

    #[test]
    fn chess960_king_moving_far_is_unambiguous() {
        // King b1, rooks a1 and h1 (SP with RKR…): kingside castle moves the king 5 squares.
        let p = pos("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
        assert_eq!(
            translate(&p, "b1h1", Kxr, Two),
            Translation::Castle("b1g1".into())
        );
        assert_eq!(
            translate(&p, "b1g1", Two, Kxr),
            Translation::Castle("b1h1".into())
        );
        // Queenside: king b1 to c1 is one square, also a plain king move.
        assert!(matches!(
            translate(&p, "b1a1", Kxr, Two),
            Translation::Ambiguous(Ambiguity::AlsoKingMove { .. })
        ));
        assert!(matches!(
            translate(&p, "b1c1", Two, Kxr),
            Translation::Ambiguous(Ambiguity::AlsoKingMove { .. })
        ));
    }

    #[test]
    fn king_f1_rook_h1_is_refused() {
        let p = pos("5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1");
        assert!(matches!(
            translate(&p, "f1h1", Kxr, Two),
            Translation::Ambiguous(Ambiguity::AlsoKingMove { .. })
        ));
        assert!(matches!(
            parse_move(&p, "f1g1", Two),
            Err(MoveError::Ambiguous(_))
        ));
        // In KxR notation f1g1 is simply the king move.
        assert!(matches!(
            parse_move(&p, "f1g1", Kxr),
            Ok(Move::Normal { .. })
        ));
    }

    #[test]
    fn king_destination_of_a_far_castle_is_read_in_either_notation() {
        // King c1, rook h1: c1g1 can only be the castle.
        let p = pos("4k3/8/8/8/8/8/8/2K4R w H - 0 1");
        for notation in [Kxr, Two] {
            let r = read_move(&p, "c1g1", notation).unwrap();
            assert!(r.mv.is_castle());
            assert_eq!(r.written, Two);
            let r = read_move(&p, "c1h1", notation).unwrap();
            assert!(r.mv.is_castle());
            assert_eq!(r.written, Kxr);
        }
    }

    #[test]
    fn king_destination_on_the_rook_square_is_both_notations_at_once() {
        // King d1, rook c1: the queenside castle's king goes to c1, where
        // its rook stands, so d1c1 is KxR and king-two-squares alike, and
        // never a king step.
        let p = pos("4k3/8/8/8/8/8/8/2RK4 w C - 0 1");
        let castle = parse_move(&p, "d1c1", Two).unwrap();
        assert!(castle.is_castle());
        assert_eq!(write_move(&p, castle, Two), Ok("d1c1".into()));
        assert_eq!(write_move(&p, castle, Kxr), Ok("d1c1".into()));
    }

    #[test]
    fn syntax_errors_are_told_from_illegal_moves() {
        let p = Chess::default();
        for notation in [Kxr, Two] {
            assert_eq!(
                parse_move(&p, "hello", notation),
                Err(MoveError::Syntax("hello".into()))
            );
            assert_eq!(
                parse_move(&p, "e2e5", notation),
                Err(MoveError::Illegal("e2e5".into()))
            );
            assert!(parse_move(&p, "0000", notation).is_err());
        }
    }

    #[test]
    fn king_staying_has_no_two_squares_form() {
        let p = pos("6kr/8/8/8/8/8/8/6KR w Hh - 0 1");
        assert_eq!(
            translate(&p, "g1h1", Kxr, Two),
            Translation::Ambiguous(Ambiguity::KingStays { king: Square::G1 })
        );
    }

    #[test]
    fn plain_king_move_when_castle_is_illegal() {
        // The castle is blocked by a bishop on f1: e1g1 is no move at all.
        let p = pos("4k3/8/8/8/8/8/8/4KB1R w K - 0 1");
        assert_eq!(
            parse_move(&p, "e1g1", Two),
            Err(MoveError::Illegal("e1g1".into()))
        );
        assert!(matches!(
            parse_move(&p, "e1d1", Two),
            Ok(Move::Normal { .. })
        ));
    }

    /// Every legal move of every Chess960 start position (after clearing the
    /// pieces between king and rooks) round-trips or is refused as ambiguous.
    #[test]
    fn round_trip_all_start_positions() {
        let mut total = 0;
        for sp in 0..960 {
            let start = StartPosition::from_sp(sp).unwrap();
            let full = start.fen(crate::notation::fen::FenFlavour::Shredder);
            // Keep only king and rooks on the first ranks.
            let mut fields: Vec<String> = full.split(' ').map(str::to_string).collect();
            let rank = |r: &str, upper: bool| -> String {
                let mut out = String::new();
                let mut empty = 0;
                for c in r.chars() {
                    // Black keeps only its king, so no rook of its attacks
                    // White's back rank.
                    let keep = c == 'k' || (upper && matches!(c, 'K' | 'R'));
                    if keep && c.is_ascii_uppercase() == upper {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    } else {
                        empty += 1;
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            };
            let ranks: Vec<&str> = fields[0].split('/').collect();
            fields[0] = format!(
                "{}/8/8/8/8/8/8/{}",
                rank(ranks[0], false),
                rank(ranks[7], true)
            );
            fields[2] = fields[2].chars().filter(char::is_ascii_uppercase).collect();
            let p = pos(&fields.join(" "));
            assert_eq!(p.turn(), Color::White);
            let mut castles = 0;
            for m in p.legal_moves() {
                let kxr = write_move(&p, m, Kxr).unwrap();
                assert_eq!(parse_move(&p, &kxr, Kxr).unwrap(), m, "sp {sp} {kxr}");
                match write_move(&p, m, Two) {
                    Ok(two) => assert_eq!(parse_move(&p, &two, Two).unwrap(), m, "sp {sp} {two}"),
                    Err(_) => assert_eq!(m.role(), Role::King),
                }
                if m.is_castle() {
                    castles += 1;
                }
            }
            // Both castles, except where one rook blocks the other's castle.
            assert!(castles >= 1, "sp {sp}");
            total += castles;
        }
        assert!(total > 1800, "{total}");
    }

    #[test]
    fn moves_for_an_engine_in_its_notation() {
        // King d1, h-rook: castles d1g1 in standard notation; king f1 with
        // an h-rook: f1g1 is also a king step, so the castle goes as f1h1.
        let p = pos("3k3r/pppppppp/8/8/8/8/PPPPPPPP/3K3R w Hh - 0 1");
        let castle = parse_move(&p, "d1h1", Kxr).unwrap();
        let mut after = p.clone();
        after.play_unchecked(castle);
        let reply = parse_move(&after, "d8h8", Kxr).unwrap();
        let line = |n| {
            let mut out = String::new();
            push_engine_moves(&mut out, &p, &[castle, reply], n);
            out
        };
        assert_eq!(line(Two), " d1g1 d8g8");
        assert_eq!(line(Kxr), " d1h1 d8h8");
        let f1 = pos("5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1");
        let castle = parse_move(&f1, "f1h1", Kxr).unwrap();
        assert_eq!(engine_text(&f1, castle, Two), "f1h1");
        assert_eq!(CastlingNotation::parse_or_auto("AUTO"), Ok(None));
        assert_eq!(CastlingNotation::parse_or_auto("standard"), Ok(Some(Two)));
        assert!(CastlingNotation::parse_or_auto("o-o").is_err());
    }
}
