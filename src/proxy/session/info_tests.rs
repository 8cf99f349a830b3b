//! Castles in engine `info` lines: where they are found, how they are
//! rewritten, and that the caches (the last line's tail, the last move
//! sequence) never change a result.

use proptest::prelude::*;

use super::*;
use crate::proxy::options::GuiCastling;

const X960: &str = "1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w KQkq - 0 1";

/// Settings for a GUI that writes castles as the king's two-square move
/// (forced: `auto` reads a Chess960 FEN as a Chess960 GUI).
fn two_squares_gui() -> Settings {
    Settings {
        gui_castling: GuiCastling::Standard,
        ..Settings::default()
    }
}

/// A session searching the Chess960 position for a GUI that writes
/// king-two-squares castles: the engine's KxR castles go back so.
fn searching() -> Session {
    let mut s = Session::new(&two_squares_gui(), 1, "fake");
    let mut out = Vec::new();
    for l in [
        "id name Fake",
        "option name UCI_Chess960 type check default false",
        "uciok",
    ] {
        s.from_engine(l.as_bytes(), &mut out);
    }
    s.from_gui(format!("position fen {X960}").as_bytes(), &mut out);
    s.from_gui(b"go infinite", &mut out);
    s
}

/// What the GUI gets for an engine line: its text, or `None` when the line
/// is forwarded unchanged (warnings before it are left out).
fn line_out(s: &mut Session, line: &[u8]) -> Option<String> {
    let mut out = Vec::new();
    s.from_engine(line, &mut out);
    match out.pop() {
        Some(Out::Forward) => None,
        Some(Out::Gui(l)) => {
            let text = String::from_utf8_lossy(&l).into_owned();
            s.recycle(l);
            Some(text)
        }
        other => panic!("unexpected last action {other:?}"),
    }
}

#[test]
fn castles_in_every_kind_of_move_list() {
    let mut s = searching();
    for (line, expected) in [
        ("info pv e1h1 e8b8", Some("info pv e1g1 e8c8")),
        (
            "info depth 3 currmove e1b1 currmovenumber 2",
            Some("info depth 3 currmove e1c1 currmovenumber 2"),
        ),
        (
            "info refutation e1h1 e8h8",
            Some("info refutation e1g1 e8g8"),
        ),
        (
            "info currline 1 e1b1 e8h8",
            Some("info currline 1 e1c1 e8g8"),
        ),
        ("info currline e1b1", Some("info currline e1c1")),
        (
            "info currmove a2a3 currmovenumber 1 currline 2 e1h1 pv e1b1 e8b8 refutation e1h1",
            Some(
                "info currmove a2a3 currmovenumber 1 currline 2 e1g1 pv e1c1 e8c8 refutation e1g1",
            ),
        ),
        // Black castles only after a White move in the same list.
        ("info pv e8h8", None),
        ("info pv a2a3 e8h8", Some("info pv a2a3 e8g8")),
        // Nothing after `string` is a move.
        ("info string pv e1h1", None),
        (
            "info depth 2 pv e1h1 string e1h1",
            Some("info depth 2 pv e1g1 string e1h1"),
        ),
        // No move list, and lists without castles.
        (
            "info depth 12 seldepth 20 multipv 1 score cp 5 nodes 9 nps 3 time 1",
            None,
        ),
        ("info pv a2a3 a7a6", None),
        ("info", None),
        // An illegal move ends the replay: nothing after it is read.
        ("info pv h1h2 e1h1", None),
        ("info pv e1h1 e1h1", Some("info pv e1g1 e1h1")),
    ] {
        assert_eq!(
            line_out(&mut s, line.as_bytes()).as_deref(),
            expected,
            "{line}"
        );
    }
}

#[test]
fn blanks_and_line_endings() {
    let mut s = searching();
    // Runs of blanks are kept as they are; a rewritten line loses its
    // line ending like every line the proxy writes itself.
    assert_eq!(
        line_out(&mut s, b"info  depth 3\t\tpv   e1h1 \t e8b8  \r\n").as_deref(),
        Some("info  depth 3\t\tpv   e1g1 \t e8c8  ")
    );
    assert_eq!(
        line_out(&mut s, b"info pv e1h1\r").as_deref(),
        Some("info pv e1g1")
    );
    assert_eq!(line_out(&mut s, b"info pv a2a3\r\n"), None);
}

#[test]
fn invalid_utf8() {
    let mut s = searching();
    // Before the move list: copied byte for byte.
    let mut out = Vec::new();
    s.from_engine(b"info depth \xff\xfe 1 pv e1h1", &mut out);
    assert_eq!(
        out,
        vec![Out::Gui(b"info depth \xff\xfe 1 pv e1g1".to_vec())]
    );
    // In the move list: the replay stops there.
    assert_eq!(line_out(&mut s, b"info pv \xff e1h1"), None);
    assert_eq!(
        line_out(&mut s, b"info pv e1h1 \xc3 e8b8").as_deref(),
        Some("info pv e1g1 \u{fffd} e8b8")
    );
}

#[test]
fn ambiguous_castles_in_info_are_left_and_warned_once() {
    let mut s = Session::new(&two_squares_gui(), 1, "fake");
    let mut out = Vec::new();
    for l in ["option name UCI_Chess960 type check default false", "uciok"] {
        s.from_engine(l.as_bytes(), &mut out);
    }
    s.from_gui(b"position fen 5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1", &mut out);
    s.from_gui(b"go infinite", &mut out);
    for (i, line) in [
        "info depth 1 currmove f1h1",
        "info depth 1 pv f1h1",
        "info depth 2 pv f1h1",
        "info depth 2 pv  f1h1",
    ]
    .iter()
    .enumerate()
    {
        let mut out = Vec::new();
        s.from_engine(line.as_bytes(), &mut out);
        assert_eq!(out.last(), Some(&Out::Forward), "{line}");
        let warnings = out.iter().filter(|o| matches!(o, Out::Note { .. })).count();
        assert_eq!(warnings, usize::from(i == 0), "{line}: {out:?}");
    }
    // A new game warns again, even for a line seen before (here without a
    // `go` in between, which would clear the caches anyway).
    s.from_gui(b"ucinewgame", &mut out);
    let mut out = Vec::new();
    s.from_engine(b"info depth 2 pv  f1h1", &mut out);
    assert!(out.iter().any(|o| matches!(o, Out::Note { .. })), "{out:?}");
}

#[test]
fn caches_follow_a_change_of_notation_during_a_search() {
    let mut s = searching();
    assert_eq!(
        line_out(&mut s, b"info pv e1h1").as_deref(),
        Some("info pv e1g1")
    );
    // The GUI now wants KxR as well: nothing to translate any more.
    let mut out = Vec::new();
    s.from_gui(b"setoption name uci960 GuiCastling value kxr", &mut out);
    assert_eq!(line_out(&mut s, b"info pv e1h1"), None);
    // And back: translated again.
    s.from_gui(
        b"setoption name uci960 GuiCastling value standard",
        &mut out,
    );
    assert_eq!(
        line_out(&mut s, b"info depth 9 pv e1h1").as_deref(),
        Some("info depth 9 pv e1g1")
    );
    // A GUI in KxR and a standard position for the engine (king two
    // squares) while the engine still searches: the other way round, and
    // the engine's `e1h1` stays (it is KxR already).
    s.from_gui(b"setoption name uci960 GuiCastling value kxr", &mut out);
    s.from_gui(b"position startpos", &mut out);
    assert_eq!(line_out(&mut s, b"info depth 9 pv e1h1"), None);
}

#[test]
fn the_rewritten_line_buffer_is_reused() {
    let mut s = searching();
    let mut out = Vec::new();
    s.from_engine(b"info depth 1 pv e1h1 e8b8", &mut out);
    let Some(Out::Gui(first)) = out.pop() else {
        panic!("not rewritten")
    };
    let ptr = first.as_ptr();
    s.recycle(first);
    s.from_engine(b"info depth 2 pv e1h1 e8b8", &mut out);
    let Some(Out::Gui(second)) = out.pop() else {
        panic!("not rewritten")
    };
    assert_eq!(second, b"info depth 2 pv e1g1 e8c8");
    assert_eq!(second.as_ptr(), ptr, "no new allocation");
}

/// Tokens for random `info` lines: castles of both sides in both
/// notations, plain and illegal moves, keywords, numbers, invalid UTF-8.
const WORDS: &[&[u8]] = &[
    b"pv",
    b"pv",
    b"currmove",
    b"refutation",
    b"currline",
    b"string",
    b"depth",
    b"multipv",
    b"score",
    b"cp",
    b"nodes",
    b"currmovenumber",
    b"1",
    b"17",
    b"e1h1",
    b"e1h1",
    b"e1b1",
    b"e1g1",
    b"e1c1",
    b"e8h8",
    b"e8b8",
    b"e8g8",
    b"a2a3",
    b"a7a6",
    b"d2d4",
    b"d7d5",
    b"h1h2",
    b"0000",
    b"\xff",
    b"b1b2",
];
const BLANKS: &[&[u8]] = &[b" ", b" ", b"  ", b"\t"];

fn build(words: &[(usize, usize)]) -> Vec<u8> {
    let mut line = b"info".to_vec();
    for &(w, b) in words {
        line.extend_from_slice(BLANKS[b % BLANKS.len()]);
        line.extend_from_slice(WORDS[w % WORDS.len()]);
    }
    line
}

proptest! {
    /// A session that has seen other lines (its caches full) answers each
    /// line as a fresh session does. Lines share a few tails after
    /// different numbers, as engines' lines do, so the caches hit.
    #[test]
    fn cached_answers_equal_fresh_answers(
        tails in proptest::collection::vec(
            proptest::collection::vec((0usize..64, 0usize..8), 0..10),
            1..4,
        ),
        picks in proptest::collection::vec((0usize..4, 0u32..1000), 1..20),
    ) {
        let tails: Vec<Vec<u8>> = tails.iter().map(|t| build(t)[4..].to_vec()).collect();
        let mut shared = searching();
        for (tail, depth) in picks {
            let mut line = format!("info depth {depth} nodes {}", depth * 7).into_bytes();
            line.extend_from_slice(&tails[tail % tails.len()]);
            let fresh = line_out(&mut searching(), &line);
            prop_assert_eq!(
                line_out(&mut shared, &line),
                fresh,
                "{}",
                String::from_utf8_lossy(&line)
            );
        }
    }
}
