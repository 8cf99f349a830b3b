//! Diagnoses: what a failure means, in the words of a chess programmer
//! ("castles written as the king's two-square move"), not only what was
//! seen ("expected e1h1, got e1g1"). The suite attaches one to each failure
//! it can explain; the summary lists the distinct ones with one minimal
//! reproducer each, and `--through-proxy` says which of them the proxy can
//! repair.
//!
//! Sans-IO: the classification helpers look at positions and moves only;
//! the probes that confirm a FEN misreading are run by the suite.

use std::fmt;

use serde::Serialize;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, FromSetup, Move, Position, Square};

/// How an engine query failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureKind {
    /// The engine answered, and the answer is wrong.
    Wrong,
    /// The answer could not be read (the engine was restarted).
    Unreadable,
    /// The engine exited (and was restarted).
    Crash,
    /// The engine stopped answering before the timeout (and was restarted).
    Stall,
}

impl FailureKind {
    pub const ALL: [FailureKind; 4] = [
        FailureKind::Wrong,
        FailureKind::Unreadable,
        FailureKind::Crash,
        FailureKind::Stall,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Wrong => "wrong",
            FailureKind::Unreadable => "unreadable",
            FailureKind::Crash => "crash",
            FailureKind::Stall => "stall",
        }
    }
}

/// What a failure means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Diagnosis {
    NoChess960Option,
    KingTwoSquares,
    KingTakesRookWithoutChess960,
    CastlesNotAsDeclared,
    KeepsLostRights,
    DropsMovesAtCastle,
    MisappliesCastle,
    ShredderFieldMisread,
    XfenAmbiguityMisread,
    PerftMissesLegalCastle,
    PerftCastlesThroughPieces,
    PerftRookOnKingSquare,
    PerftIllegalCastle,
    PerftNonCastling,
    PerftCountsInconsistent,
    CastlesIntoCheckThroughRookSquare,
    RefusesCastleWithAttackedRook,
    InnerRookRightMisread,
    MissesForcedCastle,
    SeesNoLegalMove,
    IllegalMove,
    StateLeaksWithoutNewGame,
    StateLeaksAcrossNewGame,
    Crash,
    Stall,
    Unreadable,
}

impl Diagnosis {
    /// The short name (`king-two-squares`), as in the JSON report.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// The one line a chess programmer recognises.
    pub fn line(self) -> &'static str {
        use Diagnosis::*;
        match self {
            NoChess960Option => {
                "no UCI_Chess960 option: a GUI cannot switch the engine to Chess960"
            }
            KingTwoSquares => {
                "castles written as the king's two-square move (e1g1) in UCI_Chess960 mode; Chess960 UCI wants king takes own rook (e1h1)"
            }
            KingTakesRookWithoutChess960 => {
                "castles written as king takes rook (e1h1) without UCI_Chess960; standard UCI wants the king's two-square move (e1g1)"
            }
            CastlesNotAsDeclared => {
                "castles written as king takes rook (e1h1) although castles=standard declares the king's two-square move (e1g1)"
            }
            KeepsLostRights => {
                "castling rights kept after the king or rook moved (or the rook was captured)"
            }
            DropsMovesAtCastle => {
                "a castle in the `position ... moves` list is dropped, and every move after it"
            }
            MisappliesCastle => {
                "a castle in the `position ... moves` list is misapplied (king or rook on the wrong square afterwards)"
            }
            ShredderFieldMisread => {
                "Shredder-FEN castling field misread where White's and Black's rook files differ (right when given only the side to move's files)"
            }
            XfenAmbiguityMisread => {
                "X-FEN castling field misread: K/Q (the outermost rook, not always on the h/a file) or a file letter (an inner rook) taken for the wrong rook (right when given Shredder-FEN)"
            }
            PerftMissesLegalCastle => {
                "perft wrong only at positions where castling is legal: a legal castle is not generated"
            }
            PerftCastlesThroughPieces => {
                "perft wrong with pieces between king and rook: a castle through a blocking piece is generated"
            }
            PerftRookOnKingSquare => {
                "perft wrong with the rook on the king's destination square (or the king on the rook's): that castle is not generated"
            }
            PerftIllegalCastle => {
                "perft generates an illegal castle (through or out of check, or without the right)"
            }
            PerftNonCastling => {
                "perft wrong on a move that is not a castle: a move-generator bug outside castling"
            }
            PerftCountsInconsistent => {
                "perft counts that do not add up: every move agrees but the total differs, or a deeper query contradicts the count"
            }
            CastlesIntoCheckThroughRookSquare => {
                "castles into check through the rook's square: the king's squares are tested with the castling rook still on its square, so a rook or queen beyond it (a1 behind a b1 rook) is not seen"
            }
            RefusesCastleWithAttackedRook => {
                "refuses a legal castle because its rook stands attacked: only the king's squares must be safe (right when the rook's attackers are taken off)"
            }
            InnerRookRightMisread => {
                "castling right read against the wrong rook where two rooks share a wing: a right on the inner rook taken for the outer rook's, or the reverse (right when the outer rook is taken off)"
            }
            MissesForcedCastle => {
                "does not play a castle that is the only legal move or the only mate in one"
            }
            SeesNoLegalMove => {
                "sees no legal move: answers `0000`/`(none)` in a position with legal moves"
            }
            IllegalMove => "answers with a move that is not legal in the position",
            StateLeaksWithoutNewGame => {
                "castling state leaks between positions: a new `position` without `ucinewgame` keeps the previous line's castling state"
            }
            StateLeaksAcrossNewGame => {
                "castling state leaks between positions even across `ucinewgame`"
            }
            Crash => "the engine exits on this query",
            Stall => {
                "the engine stops answering on this query (no bestmove or divide before the timeout)"
            }
            Unreadable => "the engine's answer cannot be read",
        }
    }

    /// Whether `uci960 proxy` in front of the engine can repair it, and
    /// how (or why not).
    pub fn proxy_repair(self) -> (bool, &'static str) {
        use Diagnosis::*;
        match self {
            NoChess960Option => (
                false,
                "the proxy cannot help: it translates castling notation and FEN fields, but an engine without UCI_Chess960 has no Chess960 castling rules (the proxy refuses Chess960 positions for it)",
            ),
            KingTwoSquares => (
                true,
                "the proxy corrects a castle written in the other notation where that notation is unambiguous (not where the king moves one square or stays)",
            ),
            KingTakesRookWithoutChess960 => (
                true,
                "the proxy translates castles to the GUI's notation (`uci960 proxy --gui-castling standard -- ENGINE`)",
            ),
            CastlesNotAsDeclared => (
                true,
                "the proxy reads an engine's castles in either notation where unambiguous (`uci960 proxy --engine cmd=ENGINE castles=auto`)",
            ),
            ShredderFieldMisread => (
                true,
                "`uci960 proxy --engine-fen xfen -- ENGINE` gives the engine X-FEN instead",
            ),
            XfenAmbiguityMisread => (
                true,
                "the proxy gives the engine Shredder-FEN by default (`uci960 proxy --engine-fen shredder -- ENGINE`)",
            ),
            KeepsLostRights
            | DropsMovesAtCastle
            | MisappliesCastle
            | PerftMissesLegalCastle
            | PerftCastlesThroughPieces
            | PerftRookOnKingSquare
            | PerftIllegalCastle
            | PerftNonCastling
            | PerftCountsInconsistent
            | CastlesIntoCheckThroughRookSquare
            | RefusesCastleWithAttackedRook
            | InnerRookRightMisread
            | MissesForcedCastle
            | SeesNoLegalMove
            | IllegalMove => (
                false,
                "the proxy cannot repair this: it is the engine's move generator or game state, not notation",
            ),
            StateLeaksWithoutNewGame | StateLeaksAcrossNewGame => (
                false,
                "the proxy cannot repair this: the state lives inside the engine",
            ),
            Crash | Stall | Unreadable => (
                false,
                "the proxy cannot repair a crash, a stall or garbage; it reports them",
            ),
        }
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.line())
    }
}

/// The rook files of each colour's castling rights.
fn right_files(pos: &Chess, color: Color) -> Vec<shakmaty::File> {
    (pos.castles().castling_rights() & color.backrank())
        .into_iter()
        .map(|sq| sq.file())
        .collect()
}

/// Both colours have castling rights and their rook files differ: the
/// Double Fischer Random case a Shredder-FEN reader must not get wrong.
pub fn files_differ(pos: &Chess) -> bool {
    let (w, b) = (
        right_files(pos, Color::White),
        right_files(pos, Color::Black),
    );
    !w.is_empty() && !b.is_empty() && w != b
}

/// A castling field an X-FEN reader can get wrong: a right whose rook is
/// not on the a- or h-file (`K`/`Q` then does not mean the corner rook),
/// or whose side of the king holds two rooks (`K`/`Q` means the outermost,
/// an inner rook needs its file letter).
pub fn xfen_misreadable(pos: &Chess) -> bool {
    let rights = pos.castles().castling_rights();
    Color::ALL.into_iter().any(|color| {
        let Some(king) = pos.board().king_of(color) else {
            return false;
        };
        let rooks = pos.board().rooks() & pos.board().by_color(color) & color.backrank();
        (rights & color.backrank()).into_iter().any(|right| {
            let same_side = rooks
                .into_iter()
                .filter(|r| (r.file() > king.file()) == (right.file() > king.file()))
                .count();
            same_side >= 2 || !matches!(right.file(), shakmaty::File::A | shakmaty::File::H)
        })
    })
}

/// The position with only `color`'s castling rights (the other colour's
/// do not change `color`'s moves): a Shredder-FEN field whose files can no
/// longer differ between the colours.
pub fn rights_of_only(pos: &Chess, color: Color) -> Option<Chess> {
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    setup.castling_rights &= color.backrank();
    Chess::from_setup(setup, CastlingMode::Chess960).ok()
}

/// The king's and rook's squares of a castle written as king takes rook,
/// if the text names a king and a rook of the side to move on its back
/// rank (legal or not).
fn castle_attempt(pos: &Chess, text: &str) -> Option<(Square, Square)> {
    let from: Square = text.get(0..2)?.parse().ok()?;
    let to: Square = text.get(2..4)?.parse().ok()?;
    let us = pos.board().by_color(pos.turn());
    let king = pos.board().kings() & us;
    let rooks = pos.board().rooks() & us;
    (king.contains(from) && rooks.contains(to) && from.rank() == to.rank()).then_some((from, to))
}

/// The squares strictly between two squares of one rank.
fn between(a: Square, b: Square) -> Bitboard {
    shakmaty::attacks::between(a, b)
}

/// Why a move is in the engine's divide but not in shakmaty's (`extra`),
/// or in shakmaty's but not the engine's (`missing`), in `pos`.
pub fn perft_move(pos: &Chess, mv: &str, missing: bool, engine_moves: &[&str]) -> Diagnosis {
    let castle = pos
        .legal_moves()
        .into_iter()
        .find(|m| m.is_castle() && super::answer::castle_notations(*m).0 == mv);
    if missing {
        let Some(castle) = castle else {
            return Diagnosis::PerftNonCastling;
        };
        let (_, standard) = super::answer::castle_notations(castle);
        let plain = pos
            .legal_moves()
            .into_iter()
            .any(|m| super::answer::castle_notations(m).0 == standard);
        if standard != mv && !plain && engine_moves.contains(&standard.as_str()) {
            return Diagnosis::KingTwoSquares;
        }
        if let Move::Castle { king, rook } = castle {
            let side = shakmaty::CastlingSide::from_king_side(king < rook);
            let king_to = Square::from_coords(side.king_to_file(), king.rank());
            let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
            if king_to == rook || rook_to == king {
                return Diagnosis::PerftRookOnKingSquare;
            }
        }
        return Diagnosis::PerftMissesLegalCastle;
    }
    // Extra: the king-two-squares form of a legal castle?
    if pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_castle())
        .any(|m| super::answer::castle_notations(m).1 == mv)
    {
        return Diagnosis::KingTwoSquares;
    }
    match castle_attempt(pos, mv) {
        Some((king, rook)) => {
            let blockers = pos.board().occupied() & !Bitboard::from(king) & !Bitboard::from(rook);
            if (between(king, rook) & blockers).any() {
                Diagnosis::PerftCastlesThroughPieces
            } else if super::causes::into_check_through_rook_square(
                pos,
                Move::Castle { king, rook },
            ) {
                Diagnosis::CastlesIntoCheckThroughRookSquare
            } else {
                Diagnosis::PerftIllegalCastle
            }
        }
        None => Diagnosis::PerftNonCastling,
    }
}

/// Whether a position is small: for choosing the minimal reproducer, the
/// number of pieces on the board of a FEN.
pub fn piece_count(fen: &str) -> usize {
    fen.split(' ')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    #[test]
    fn dfrc_files_and_xfen_ambiguity_are_recognised() {
        let dfrc = parse_position("2rkr3/2p1p3/8/8/8/8/8/RK6 w Aec - 0 1").unwrap();
        assert!(files_differ(&dfrc));
        let stripped = rights_of_only(&dfrc, Color::White).unwrap();
        assert!(!files_differ(&stripped));
        assert_eq!(
            crate::notation::fen::shredder_castling_field(&stripped),
            "A"
        );
        let standard = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert!(!files_differ(&standard));
        assert!(!xfen_misreadable(&standard));
        // Two white rooks on the king side, the right on the outer one.
        let two = parse_position("4k3/8/8/8/8/8/8/1K3R1R w H - 0 1").unwrap();
        assert!(xfen_misreadable(&two));
        // K b1, R c1: X-FEN `K` is not the h-file rook.
        let inner = parse_position("4k3/8/8/8/8/8/8/1KR5 w C - 0 1").unwrap();
        assert!(xfen_misreadable(&inner));
    }

    #[test]
    fn perft_moves_are_classified() {
        // K e1, R h1: castle legal.
        let pos = parse_position("4k3/8/8/8/8/8/8/4K2R w H - 0 1").unwrap();
        assert_eq!(
            perft_move(&pos, "e1h1", true, &["e1g1"]),
            Diagnosis::KingTwoSquares
        );
        assert_eq!(
            perft_move(&pos, "e1h1", true, &[]),
            Diagnosis::PerftMissesLegalCastle
        );
        assert_eq!(
            perft_move(&pos, "e1g1", false, &[]),
            Diagnosis::KingTwoSquares
        );
        assert_eq!(
            perft_move(&pos, "e1e2", true, &[]),
            Diagnosis::PerftNonCastling
        );
        // A bishop between king and rook.
        let blocked = parse_position("4k3/8/8/8/8/8/8/4KB1R w H - 0 1").unwrap();
        assert_eq!(
            perft_move(&blocked, "e1h1", false, &[]),
            Diagnosis::PerftCastlesThroughPieces
        );
        // Rook on the king's destination: K f1, R g1.
        let swap = parse_position("4k3/8/8/8/8/8/8/5KR1 w G - 0 1").unwrap();
        assert_eq!(
            perft_move(&swap, "f1g1", true, &[]),
            Diagnosis::PerftRookOnKingSquare
        );
        // Through check: a black rook on f8 covers f1.
        let check = parse_position("4kr2/8/8/8/8/8/8/4K2R w H - 0 1").unwrap();
        assert_eq!(
            perft_move(&check, "e1h1", false, &[]),
            Diagnosis::PerftIllegalCastle
        );
        // Stockfish #3605: the a1 rook sees c1 once b1 is empty.
        let sf = parse_position("4k3/8/8/8/8/8/8/rR2K1N1 w B - 0 1").unwrap();
        assert_eq!(
            perft_move(&sf, "e1b1", false, &[]),
            Diagnosis::CastlesIntoCheckThroughRookSquare
        );
    }
}
