//! Property tests (proptest): numbering and FEN round trips in both castling
//! flavours, and no panic on any input the parsers can be handed.

use proptest::prelude::*;
use shakmaty::{Chess, Position};
use uci960::notation::fen::{FenFlavour, parse_position, position_fen};
use uci960::openings::{MethodSpec, PositionSource};
use uci960::start::method::procedure::{replay, split_tokens};
use uci960::start::{BackRank, StartPosition};

/// A position reached by `plies` pseudo-random legal moves from a DFRC pair.
fn wander(white: u32, black: u32, choices: &[u16]) -> Chess {
    let mut pos = StartPosition::from_sp_pair(white, black)
        .unwrap()
        .to_chess();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(c) % moves.len()];
        pos.play_unchecked(m);
    }
    pos
}

proptest! {
    #[test]
    fn sp_round_trips(sp in 0u32..960) {
        let rank = BackRank::from_sp(sp).unwrap();
        prop_assert_eq!(u32::from(rank.sp()), sp);
        prop_assert_eq!(rank.to_string().parse::<BackRank>().unwrap(), rank);
    }

    #[test]
    fn fen_round_trips_in_both_flavours(white in 0u32..960, black in 0u32..960, choices in prop::collection::vec(any::<u16>(), 0..40)) {
        let pos = wander(white, black, &choices);
        for flavour in [FenFlavour::XFen, FenFlavour::Shredder] {
            let fen = position_fen(&pos, flavour);
            let back = parse_position(&fen).unwrap();
            prop_assert_eq!(back.board(), pos.board());
            prop_assert_eq!(back.castles().castling_rights(), pos.castles().castling_rights(), "{}", fen);
            prop_assert_eq!(position_fen(&back, flavour), fen);
        }
    }

    #[test]
    fn parsers_never_panic(text in ".{0,120}") {
        let _ = parse_position(&text);
        let _ = text.parse::<BackRank>();
        let _ = text.parse::<StartPosition>();
        if let Ok(spec) = text.parse::<MethodSpec>()
            && !matches!(spec, MethodSpec::Book { .. }) {
            let mut source = PositionSource::new(&spec, 1).unwrap();
            let _ = source.next_position();
        }
    }

    #[test]
    fn replay_never_panics(text in "[0-9A-Za-z, ]{0,60}") {
        for spec in [MethodSpec::Die, MethodSpec::BagRedraw, MethodSpec::BagSwap] {
            let _ = replay(&spec.procedure().unwrap(), &split_tokens(&text));
        }
    }

    #[test]
    fn fen_like_garbage_never_panics(board in "[pnbrqkPNBRQK1-8/]{0,70}", castling in "[KQkqA-Ha-h-]{0,6}") {
        let _ = parse_position(&format!("{board} w {castling} - 0 1"));
    }
}
