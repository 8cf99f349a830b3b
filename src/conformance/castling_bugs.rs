//! The castling bugs real engines shipped (issue 27), each in its simplest
//! form, for the two engines that simulate them: the in-process test
//! engine of the suite's unit tests (`test_engine.rs`) and the mock engine
//! process (`examples/mock_engine.rs`, which includes this file by path).
//! Written apart from the suite's cause diagnosis, which these bugs test:
//! the simulations must not share code with what they are used to check.
//! Only shakmaty is used here, so the file compiles in both places.

use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, FromSetup, Move, Position,
    Square, attacks,
};

/// `--refuses-attacked-rook`: the castle's rook stands attacked.
pub fn rook_attacked(pos: &Chess, m: Move) -> bool {
    match m {
        Move::Castle { rook, .. } => pos
            .board()
            .attacks_to(rook, !pos.turn(), pos.board().occupied())
            .any(),
        _ => false,
    }
}

/// `--through-rook-square`: the castles that are illegal but look
/// legal when the king's squares are tested with the rook in place.
pub fn castles_with_rook_in_place(pos: &Chess) -> Vec<Move> {
    let us = pos.turn();
    let board = pos.board();
    let Some(king) = board.king_of(us) else {
        return Vec::new();
    };
    if pos.is_check() {
        return Vec::new();
    }
    let legal = pos.legal_moves();
    let mut out = Vec::new();
    for rook in pos.castles().castling_rights() & us.backrank() {
        let side = CastlingSide::from_king_side(king < rook);
        let king_to = Square::from_coords(side.king_to_file(), king.rank());
        let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
        let m = Move::Castle { king, rook };
        let others = board.occupied() & !Bitboard::from(king) & !Bitboard::from(rook);
        let king_path = attacks::between(king, king_to).with(king_to);
        let path = king_path | attacks::between(rook, rook_to).with(rook_to);
        let with_rook = board.occupied() ^ king;
        let safe = king_path
            .into_iter()
            .all(|sq| board.attacks_to(sq, !us, with_rook).is_empty());
        if !legal.contains(&m) && (path & others).is_empty() && safe {
            out.push(m);
        }
    }
    out
}

/// `--inner-rook-misread`: on a wing with two rooks or more, the
/// rights of the innermost and the outermost rook trade places.
pub fn swap_shared_rights(pos: &Chess) -> Chess {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    let board = pos.board();
    for color in Color::ALL {
        let Some(king) = board.king_of(color) else {
            continue;
        };
        for east in [false, true] {
            let mut wing: Vec<Square> = (board.rooks() & board.by_color(color) & color.backrank())
                .into_iter()
                .filter(|r| (r.file() > king.file()) == east)
                .collect();
            wing.sort_by_key(|r| r.file().distance(king.file()));
            if let (Some(&inner), Some(&outer)) = (wing.first(), wing.last())
                && inner != outer
            {
                let rights = setup.castling_rights;
                setup.castling_rights.set(inner, rights.contains(outer));
                setup.castling_rights.set(outer, rights.contains(inner));
            }
        }
    }
    Chess::from_setup(setup, CastlingMode::Chess960).unwrap_or_else(|_| pos.clone())
}
