//! GUI profiles and `O-O` castles: what each profile changes, and what
//! `auto` detects.

use super::*;
use crate::proxy::GuiProfile;
use crate::proxy::options::GuiCastling;

use super::tests::{S960, X960, engine, gui, session};

fn lines(out: &[Out], engine_side: bool) -> Vec<String> {
    out.iter()
        .filter_map(|o| match o {
            Out::Engine(l) if engine_side => Some(String::from_utf8_lossy(l).into_owned()),
            Out::Gui(l) if !engine_side => Some(String::from_utf8_lossy(l).into_owned()),
            _ => None,
        })
        .collect()
}

fn arena() -> Settings {
    Settings {
        gui: GuiProfile::Arena,
        ..Settings::default()
    }
}

#[test]
fn arena_gets_named_castles_from_a_chess960_fen_alone() {
    // No UCI_Chess960 from the GUI: the FEN says Chess960.
    let mut s = session(arena());
    let out = gui(&mut s, &format!("position fen {X960} moves O-O-O e8h8"));
    assert_eq!(
        lines(&out, true),
        vec![
            "setoption name UCI_Chess960 value true".to_string(),
            format!("position fen {S960} moves e1b1 e8h8"),
        ]
    );
    gui(&mut s, "go depth 1");
    // King c1, rook d1 after O-O-O; black king g8: a pv with a castle of
    // neither, then the bestmove.
    assert_eq!(engine(&mut s, "info pv a2a3"), vec![Out::Forward]);
    let out = engine(&mut s, "bestmove d1e1");
    assert_eq!(out, vec![Out::Forward]);
    // From the start: the engine's castles go back as O-O / O-O-O.
    gui(&mut s, &format!("position fen {X960}"));
    gui(&mut s, "go depth 1");
    assert_eq!(
        lines(&engine(&mut s, "info depth 1 pv e1h1 e8b8"), false),
        vec!["info depth 1 pv O-O O-O-O"]
    );
    assert_eq!(
        lines(&engine(&mut s, "bestmove e1b1 ponder e8h8"), false),
        vec!["bestmove O-O-O ponder O-O"]
    );
}

#[test]
fn arena_keeps_chess960_for_the_game_and_forgets_it_at_ucinewgame() {
    let mut s = session(arena());
    gui(&mut s, &format!("position fen {X960}"));
    // A later position of the same game, sent as a FEN, that castling
    // rules alone would read as standard chess (king e1, rook h1 only).
    let later = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R w K - 0 20";
    gui(&mut s, &format!("position fen {later}"));
    gui(&mut s, "go depth 1");
    assert_eq!(
        lines(&engine(&mut s, "bestmove e1g1"), false),
        vec!["bestmove O-O"]
    );
    // A new game in standard chess: king-two-squares again.
    gui(&mut s, "ucinewgame");
    gui(&mut s, &format!("position fen {later}"));
    gui(&mut s, "go depth 1");
    assert_eq!(engine(&mut s, "bestmove e1g1"), vec![Out::Forward]);
}

#[test]
fn auto_answers_a_gui_that_writes_o_o_in_kind() {
    let mut s = session(Settings::default());
    gui(&mut s, "setoption name UCI_Chess960 value true");
    gui(&mut s, &format!("position fen {X960}"));
    gui(&mut s, "go depth 1");
    // Before the GUI wrote one: king takes rook.
    assert_eq!(engine(&mut s, "bestmove e1h1"), vec![Out::Forward]);
    let out = gui(&mut s, &format!("position fen {X960} moves O-O"));
    assert_eq!(
        lines(&out, true),
        vec![format!("position fen {S960} moves e1h1")]
    );
    gui(&mut s, "go depth 1");
    assert_eq!(
        lines(&engine(&mut s, "bestmove e8b8"), false),
        vec!["bestmove O-O-O"]
    );
}

#[test]
fn the_other_profiles_answer_king_takes_rook_and_never_o_o() {
    for gui_profile in [
        GuiProfile::CuteChess,
        GuiProfile::XBoard,
        GuiProfile::PythonChess,
    ] {
        let mut s = session(Settings {
            gui: gui_profile,
            ..Settings::default()
        });
        // Even after an `O-O` from the GUI (read all the same).
        let out = gui(&mut s, &format!("position fen {S960} moves O-O"));
        assert_eq!(
            lines(&out, true)[1],
            format!("position fen {S960} moves e1h1"),
            "{gui_profile}"
        );
        gui(&mut s, "go depth 1");
        assert_eq!(
            engine(&mut s, "bestmove e8b8"),
            vec![Out::Forward],
            "{gui_profile}"
        );
    }
}

#[test]
fn gui_castling_o_o_is_read_and_written() {
    let mut s = session(Settings {
        gui_castling: GuiCastling::Named,
        ..Settings::default()
    });
    gui(&mut s, "setoption name UCI_Chess960 value true");
    let out = gui(&mut s, &format!("position fen {S960} moves 0-0-0"));
    assert_eq!(
        lines(&out, true),
        vec![format!("position fen {S960} moves e1b1")]
    );
    let out = gui(&mut s, "go searchmoves O-O a7a6 depth 2");
    assert_eq!(lines(&out, true), vec!["go searchmoves e8h8 a7a6 depth 2"]);
    assert_eq!(
        lines(&engine(&mut s, "bestmove e8h8"), false),
        vec!["bestmove O-O"]
    );
    // An O-O that is not legal is refused, naming it.
    let out = gui(&mut s, "position startpos moves O-O");
    let told = lines(&out, false).join("\n");
    assert!(told.contains("'O-O'") && told.contains("ply 1"), "{told}");
}

#[test]
fn the_gui_option_selects_a_profile_and_refuses_unknown_ones() {
    let mut s = session(Settings::default());
    let out = gui(&mut s, "setoption name uci960 Gui value Arena");
    assert!(out.is_empty(), "{out:?}");
    gui(&mut s, &format!("position fen {X960}"));
    gui(&mut s, "go depth 1");
    assert_eq!(
        lines(&engine(&mut s, "bestmove e1h1"), false),
        vec!["bestmove O-O"]
    );
    let out = gui(&mut s, "setoption name uci960 Gui value banksia");
    let told = lines(&out, false).join("\n");
    assert!(
        told.contains("banksia") && told.contains("python-chess"),
        "{told}"
    );
}
