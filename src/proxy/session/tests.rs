//! One test (or a few) per rule of the session.

use super::*;
use crate::openings::MethodSpec;
use crate::proxy::options::GuiCastling;

pub(super) const X960: &str = "1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w KQkq - 0 1";
pub(super) const S960: &str = "1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w HBhb - 0 1";

pub(super) fn session(settings: Settings) -> Session {
    let mut s = Session::new(&settings, 1, "/usr/games/fake");
    let mut out = Vec::new();
    for l in [
        "id name Fake 1",
        "option name UCI_Chess960 type check default false",
        "uciok",
    ] {
        s.from_engine(l.as_bytes(), &mut out);
    }
    s
}

pub(super) fn gui(s: &mut Session, line: &str) -> Vec<Out> {
    let mut out = Vec::new();
    s.from_gui(line.as_bytes(), &mut out);
    out
}

pub(super) fn engine(s: &mut Session, line: &str) -> Vec<Out> {
    let mut out = Vec::new();
    s.from_engine(line.as_bytes(), &mut out);
    out
}

fn to_engine(out: &[Out]) -> Vec<String> {
    out.iter()
        .filter_map(|o| match o {
            Out::Engine(l) => Some(String::from_utf8_lossy(l).into_owned()),
            _ => None,
        })
        .collect()
}

fn to_gui(out: &[Out]) -> Vec<String> {
    out.iter()
        .filter_map(|o| match o {
            Out::Gui(l) => Some(String::from_utf8_lossy(l).into_owned()),
            _ => None,
        })
        .collect()
}

fn info_strings(out: &[Out]) -> String {
    to_gui(out)
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn handshake_suffix_options_and_order() {
    let settings = Settings {
        engine_options: vec![("Hash".into(), "64".into())],
        ..Settings::default()
    };
    let mut s = Session::new(&settings, 1, "prog");
    // The name waits for `uciok` (GUIs keep the first one they see).
    assert!(engine(&mut s, "id name Fake 1\r").is_empty());
    assert_eq!(engine(&mut s, "id author Me"), vec![Out::Forward]);
    assert_eq!(
        engine(&mut s, "option name UCI_Chess960 type check default false"),
        vec![Out::Forward]
    );
    let out = engine(&mut s, "uciok");
    assert_eq!(out.last(), Some(&Out::Forward), "uciok comes last");
    let gui_lines = to_gui(&out);
    assert_eq!(gui_lines.len(), 9);
    assert_eq!(gui_lines[0], "id name Fake 1 (uci960)");
    assert!(
        gui_lines[1].starts_with("option name uci960 Start type combo default gui var gui var die")
    );
    assert!(
        gui_lines
            .iter()
            .any(|l| l == "option name uci960 SP type spin default 518 min 0 max 959")
    );
    assert_eq!(to_engine(&out), vec!["setoption name Hash value 64"]);
    assert!(s.engine_supports_chess960());
    assert!(info_strings(&out).is_empty());
}

#[test]
fn engine_without_chess960_is_reported_and_refused() {
    let mut s = Session::new(&Settings::default(), 1, "toga2");
    engine(&mut s, "id name Toga II");
    let out = engine(&mut s, "uciok");
    assert!(
        info_strings(&out).contains("does not declare UCI_Chess960"),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|o| matches!(o, Out::Note { stderr: true, .. }))
    );
    let out = gui(&mut s, &format!("position fen {X960}"));
    assert!(to_engine(&out).is_empty() && !out.contains(&Out::Forward));
    assert!(info_strings(&out).contains("does not support Chess960"));
    assert_eq!(
        to_gui(&gui(&mut s, "go nodes 10"))
            .last()
            .map(String::as_str),
        Some("bestmove 0000")
    );
    // A standard position still works.
    assert_eq!(
        gui(&mut s, "position startpos moves e2e4"),
        vec![Out::Forward]
    );
    assert_eq!(gui(&mut s, "go nodes 10"), vec![Out::Forward]);
}

#[test]
fn unchanged_lines_are_forwarded() {
    let mut s = session(Settings::default());
    for l in [
        "isready",
        "debug on",
        "ponderhit",
        "\u{1}garbage",
        "position startpos moves e2e4 e7e5",
    ] {
        assert_eq!(gui(&mut s, l), vec![Out::Forward], "{l}");
    }
    let mut out = Vec::new();
    s.from_gui(b"\xff\xfe bad", &mut out);
    assert_eq!(out, vec![Out::Forward]);
    for l in ["readyok", "info depth 1 pv e2e4", "copyprotection ok", ""] {
        assert_eq!(engine(&mut s, l), vec![Out::Forward], "{l}");
    }
}

#[test]
fn chess960_fen_injects_option_and_rewrites_fen() {
    let mut s = session(Settings::default());
    let out = gui(&mut s, &format!("position fen {X960} moves e2e4"));
    assert_eq!(
        to_engine(&out),
        vec![
            "setoption name UCI_Chess960 value true".to_string(),
            format!("position fen {S960} moves e2e4"),
        ]
    );
    // Already on: no second setoption.
    let out = gui(&mut s, &format!("position fen {S960}"));
    assert_eq!(out, vec![Out::Forward]);
    // A standard position restores what the GUI asked (nothing: false).
    let out = gui(&mut s, "position startpos moves e2e4");
    assert_eq!(
        to_engine(&out),
        vec!["setoption name UCI_Chess960 value false"]
    );
    assert_eq!(out.last(), Some(&Out::Forward));
}

#[test]
fn gui_chess960_setting_is_kept_for_standard_positions() {
    let mut s = session(Settings::default());
    assert_eq!(
        gui(&mut s, "setoption name UCI_Chess960 value true"),
        vec![Out::Forward]
    );
    assert_eq!(gui(&mut s, &format!("position fen {X960}")).len(), 1);
    // Standard position, GUI wanted true: no change, forwarded.
    assert_eq!(gui(&mut s, "position startpos"), vec![Out::Forward]);
}

#[test]
fn xfen_flavour_for_engines_that_want_it() {
    let mut s = session(Settings {
        engine_fen: FenFlavour::XFen,
        ..Settings::default()
    });
    let out = gui(&mut s, &format!("position fen {S960}"));
    assert_eq!(to_engine(&out)[1], format!("position fen {X960}"));
    gui(&mut s, "setoption name uci960 EngineFEN value shredder");
    let out = gui(&mut s, &format!("position fen {X960}"));
    assert_eq!(to_engine(&out), vec![format!("position fen {S960}")]);
}

#[test]
fn invalid_fen_never_reaches_the_engine() {
    let mut s = session(Settings::default());
    // Castling rights without a rook (crashes Stockfish).
    let out = gui(&mut s, "position fen 4k3/8/8/8/8/8/8/4K3 w KQ - 0 1");
    assert!(
        to_engine(&out).is_empty() && !out.contains(&Out::Forward),
        "{out:?}"
    );
    assert!(
        info_strings(&out).contains("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"),
        "{out:?}"
    );
    let out = gui(&mut s, "go movetime 100");
    assert!(!out.contains(&Out::Forward));
    assert_eq!(
        to_gui(&out).last().map(String::as_str),
        Some("bestmove 0000")
    );
    for bad in [
        "position fen",
        "position fen x y z",
        "position",
        "position startpos e2e4",
    ] {
        let out = gui(&mut s, bad);
        assert!(
            to_engine(&out).is_empty() && !out.contains(&Out::Forward),
            "{bad}"
        );
        assert!(!info_strings(&out).is_empty(), "{bad}");
    }
    let mut out = Vec::new();
    s.from_gui(b"position fen \xff", &mut out);
    assert!(!out.contains(&Out::Forward));
}

#[test]
fn illegal_gui_move_names_move_and_ply() {
    let mut s = session(Settings::default());
    let out = gui(&mut s, "position startpos moves e2e4 e7e5 e1e3");
    let text = info_strings(&out);
    assert!(text.contains("'e1e3'") && text.contains("ply 3"), "{text}");
    assert!(to_engine(&out).is_empty() && !out.contains(&Out::Forward));
}

#[test]
fn castles_are_translated_both_ways() {
    // A GUI that writes king-two-squares castles in Chess960.
    let mut s = session(Settings {
        gui_castling: GuiCastling::Standard,
        ..Settings::default()
    });
    let out = gui(&mut s, &format!("position fen {X960} moves e1c1 e8g8"));
    assert_eq!(
        to_engine(&out)[1],
        format!("position fen {S960} moves e1b1 e8h8")
    );
    let out = gui(&mut s, &format!("position fen {X960}"));
    assert_eq!(to_engine(&out), vec![format!("position fen {S960}")]);
    let out = gui(&mut s, "go searchmoves e1g1 e1c1 a2a3 depth 3");
    assert_eq!(
        to_engine(&out),
        vec!["go searchmoves e1h1 e1b1 a2a3 depth 3"]
    );
    let out = engine(
        &mut s,
        "info depth 2 currmove e1b1 pv e1h1 e8b8 a2a3 string e1h1",
    );
    assert_eq!(
        to_gui(&out),
        vec!["info depth 2 currmove e1c1 pv e1g1 e8c8 a2a3 string e1h1"]
    );
    // a2a3, then Black castles short: e8h8 -> e8g8.
    assert_eq!(
        to_gui(&engine(&mut s, "info depth 2 pv a2a3 e8h8")),
        vec!["info depth 2 pv a2a3 e8g8"]
    );
    assert_eq!(
        engine(&mut s, "info depth 2 pv a2a3 a7a6"),
        vec![Out::Forward]
    );
    let out = engine(&mut s, "bestmove e1h1 ponder e8b8");
    assert_eq!(to_gui(&out), vec!["bestmove e1g1 ponder e8c8"]);
}

#[test]
fn kxr_gui_gets_kxr_and_standard_castles_are_normalised() {
    let mut s = session(Settings::default());
    gui(&mut s, "setoption name UCI_Chess960 value true");
    let out = gui(&mut s, &format!("position fen {S960} moves e1c1"));
    // The GUI wrote a two-squares castle; the engine gets KxR.
    assert_eq!(
        to_engine(&out),
        vec![format!("position fen {S960} moves e1b1")]
    );
    gui(&mut s, "go nodes 1");
    assert_eq!(engine(&mut s, "info pv e8h8"), vec![Out::Forward]);
    assert_eq!(engine(&mut s, "bestmove e8h8"), vec![Out::Forward]);
}

#[test]
fn ambiguous_castles_are_left_and_warned_once() {
    let mut s = session(Settings {
        gui_castling: GuiCastling::Standard,
        ..Settings::default()
    });
    let fen = "5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1";
    gui(&mut s, &format!("position fen {fen}"));
    gui(&mut s, "go depth 1");
    let out = engine(&mut s, "info depth 1 pv f1h1");
    assert_eq!(out.first(), Some(&Out::Gui(b"info string uci960: engine move 'f1h1': 'f1g1' is both a castle and a plain king move; passed on as written".to_vec())));
    assert_eq!(out.last(), Some(&Out::Forward));
    let out = engine(&mut s, "info depth 2 pv f1h1");
    assert_eq!(out, vec![Out::Forward], "warned once");
    let out = engine(&mut s, "bestmove f1h1");
    assert_eq!(out, vec![Out::Forward]);
    // The GUI echoes the KxR form back: read as the castle.
    let out = gui(&mut s, &format!("position fen {fen} moves f1h1"));
    assert_eq!(out, vec![Out::Forward]);
    // f1g1 from a standard-notation GUI is ambiguous: warned, sent as written.
    let out = gui(&mut s, &format!("position fen {fen} moves f1g1"));
    assert!(info_strings(&out).contains("f1g1"), "{out:?}");
    assert_eq!(out.last(), Some(&Out::Forward));
}

#[test]
fn illegal_bestmove_is_reported_and_passed_on() {
    let mut s = session(Settings::default());
    gui(&mut s, "position startpos moves e2e4");
    gui(&mut s, "go nodes 100");
    let out = engine(&mut s, "bestmove e2e4");
    assert!(
        info_strings(&out).contains("illegal bestmove 'e2e4'"),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|o| matches!(o, Out::Note { stderr: true, .. }))
    );
    assert_eq!(out.last(), Some(&Out::Forward));
    gui(&mut s, "go nodes 100");
    assert_eq!(engine(&mut s, "bestmove e7e5"), vec![Out::Forward]);
    gui(&mut s, "go nodes 100");
    assert!(info_strings(&engine(&mut s, "bestmove 0000")).contains("no move"));
}

#[test]
fn injection_draws_at_ucinewgame_and_announces() {
    let mut s = session(Settings::default());
    assert!(gui(&mut s, "setoption name uci960 Start value sp").is_empty());
    assert!(gui(&mut s, "setoption name uci960 SP value 0").is_empty());
    let out = gui(&mut s, "ucinewgame");
    assert_eq!(out[0], Out::Forward);
    assert_eq!(
        to_gui(&out),
        vec![
            "info string uci960 start sp 0 method sp fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        ]
    );
    let out = gui(&mut s, "position startpos moves g2g3");
    assert_eq!(
        to_engine(&out),
        vec![
            "setoption name UCI_Chess960 value true".to_string(),
            "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g2g3"
                .to_string()
        ]
    );
    // Same game: same position, no new announce.
    let out = gui(&mut s, "position startpos moves g2g3 g7g6");
    assert!(to_gui(&out).is_empty());
    // bestmove checked against the injected position.
    gui(&mut s, "go nodes 10");
    assert_eq!(engine(&mut s, "bestmove g3g4"), vec![Out::Forward]);
}

#[test]
fn injection_without_ucinewgame_draws_at_first_position() {
    let mut s = session(Settings {
        start: Some(MethodSpec::Die),
        seed: Some(5),
        ..Settings::default()
    });
    let out = gui(&mut s, "position startpos");
    let announce = to_gui(&out);
    assert_eq!(announce.len(), 1);
    assert!(
        announce[0].starts_with("info string uci960 start sp "),
        "{announce:?}"
    );
    assert!(announce[0].contains(" method die fen "));
    let engine_lines = to_engine(&out);
    assert!(engine_lines.last().unwrap().starts_with("position fen "));
    // Same seed, same draw.
    let mut t = session(Settings {
        start: Some(MethodSpec::Die),
        seed: Some(5),
        ..Settings::default()
    });
    assert_eq!(to_gui(&gui(&mut t, "position startpos")), announce);
}

#[test]
fn proxy_options_are_handled_not_forwarded() {
    let mut s = session(Settings::default());
    for l in [
        "setoption name uci960 Seed value 42",
        "setoption name uci960 GuiCastling value kxr",
        "setoption name uci960 Book value /tmp/x.epd",
    ] {
        assert!(gui(&mut s, l).is_empty(), "{l}");
    }
    assert_eq!(
        gui(&mut s, "setoption name uci960 Log value /tmp/p.log"),
        vec![Out::SetLog(Some("/tmp/p.log".into()))]
    );
    for l in [
        "setoption name uci960 Start value rm -rf",
        "setoption name uci960 SP value 960",
        "setoption name uci960 Seed value x",
        "setoption name uci960 EngineFEN value fen",
    ] {
        let out = gui(&mut s, l);
        assert!(to_engine(&out).is_empty() && !out.contains(&Out::Forward));
        assert!(!info_strings(&out).is_empty(), "{l}");
    }
    assert_eq!(
        gui(&mut s, "setoption name Hash value 16"),
        vec![Out::Forward]
    );
    // book without a readable file: reported, position refused.
    gui(
        &mut s,
        "setoption name uci960 Book value /nonexistent/book.epd",
    );
    gui(&mut s, "setoption name uci960 Start value book");
    let out = gui(&mut s, "position startpos");
    assert!(
        info_strings(&out).contains("/nonexistent/book.epd"),
        "{out:?}"
    );
    assert!(to_engine(&out).is_empty());
}

#[test]
fn silence_is_reported_once() {
    let mut s = session(Settings::default());
    gui(&mut s, "isready");
    assert_eq!(s.awaiting(), Some(Awaiting::ReadyOk));
    let mut out = Vec::new();
    s.on_silence(2.0, &mut out);
    assert!(info_strings(&out).contains("silent for 2 s after isready"));
    let mut out = Vec::new();
    s.on_silence(2.0, &mut out);
    assert!(out.is_empty());
    gui(&mut s, "go infinite");
    assert_eq!(s.awaiting(), None);
    gui(&mut s, "stop");
    assert_eq!(s.awaiting(), Some(Awaiting::BestMove));
    engine(&mut s, "bestmove e2e4");
    assert_eq!(s.awaiting(), None);
}

#[test]
fn quit_is_an_action() {
    let mut s = session(Settings::default());
    assert_eq!(gui(&mut s, "quit\r\n"), vec![Out::Quit]);
}

#[test]
fn lines_sent_before_uciok_wait_for_the_handshake() {
    let mut s = Session::new(&Settings::default(), 1, "toga2");
    assert_eq!(gui(&mut s, "uci"), vec![Out::Forward]);
    assert!(gui(&mut s, "isready").is_empty());
    assert!(gui(&mut s, &format!("position fen {X960}")).is_empty());
    assert!(gui(&mut s, "go nodes 5").is_empty());
    let out = engine(&mut s, "uciok");
    let gui_lines = to_gui(&out);
    let uciok = out.iter().position(|o| *o == Out::Forward).unwrap();
    let refusal = out
        .iter()
        .position(|o| matches!(o, Out::Gui(l) if String::from_utf8_lossy(l).contains("refusing")))
        .unwrap();
    assert!(uciok < refusal);
    assert_eq!(to_engine(&out), vec!["isready"]);
    assert_eq!(gui_lines.last().map(String::as_str), Some("bestmove 0000"));
    // quit is never held back
    assert_eq!(gui(&mut s, "uci"), vec![Out::Forward]);
    assert_eq!(gui(&mut s, "quit"), vec![Out::Quit]);
}

/// A session whose engine lists variants, as Fairy-Stockfish does.
fn fairy_session() -> Session {
    let mut s = Session::new(&Settings::default(), 1, "fairy-stockfish");
    for l in [
        "id name Fairy-Stockfish 11.1 LB 64",
        "option name UCI_Chess960 type check default false",
        "option name UCI_Variant type combo default chess var chess var fischerandom",
        "uciok",
    ] {
        s.from_engine(l.as_bytes(), &mut Vec::new());
    }
    s
}

#[test]
fn uci_variant_chess960_means_king_takes_rook() {
    for value in ["chess960", "FischeRandom", "fischerrandom"] {
        let mut s = fairy_session();
        // Cute Chess: the variant before ucinewgame, then a Shredder-FEN
        // and KxR castles (e1b1 is White's long castle here).
        let line = format!("setoption name UCI_Variant value {value}");
        assert_eq!(gui(&mut s, &line), vec![Out::Forward]);
        gui(&mut s, "ucinewgame");
        let out = gui(&mut s, &format!("position fen {S960} moves e1b1"));
        assert_eq!(
            to_engine(&out),
            vec!["setoption name UCI_Chess960 value true".to_string()],
            "{value}"
        );
        assert_eq!(out.last(), Some(&Out::Forward), "{value}: moves unchanged");
        assert_eq!(
            gui(&mut s, "go wtime 1000 btime 1000 searchmoves e8h8 e8b8"),
            vec![Out::Forward]
        );
        assert_eq!(engine(&mut s, "info depth 1 pv e8h8"), vec![Out::Forward]);
        let out = engine(&mut s, "bestmove e8h8 ponder a2a3");
        assert_eq!(out, vec![Out::Forward], "{value}: no rewrite, no note");
    }
}

#[test]
fn uci_variant_chess960_keeps_kxr_in_the_standard_start_position() {
    // SP 518 in a Chess960 game: no Chess960 castling needed, yet the GUI
    // writes e1h1 and expects e1h1 back.
    let mut s = fairy_session();
    gui(&mut s, "setoption name UCI_Variant value chess960");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    let out = gui(
        &mut s,
        &format!("position fen {fen} moves g1f3 g8f6 g2g3 g7g6 f1g2 f8g7"),
    );
    assert_eq!(to_engine(&out)[0], "setoption name UCI_Chess960 value true");
    gui(&mut s, "go depth 1");
    assert_eq!(engine(&mut s, "bestmove e1h1"), vec![Out::Forward]);
    // Another variant name turns it off again, for the engine too.
    gui(&mut s, "setoption name UCI_Variant value chess");
    let out = gui(
        &mut s,
        "position startpos moves g1f3 g8f6 g2g3 g7g6 f1g2 f8g7",
    );
    assert_eq!(
        to_engine(&out)[0],
        "setoption name UCI_Chess960 value false"
    );
    gui(&mut s, "go depth 1");
    assert_eq!(engine(&mut s, "bestmove e1g1"), vec![Out::Forward]);
}

#[test]
fn a_chess960_fen_alone_means_king_takes_rook() {
    for fen in [X960, S960] {
        let mut s = session(Settings::default());
        gui(&mut s, &format!("position fen {fen}"));
        gui(&mut s, "go depth 1");
        assert_eq!(engine(&mut s, "bestmove e1h1"), vec![Out::Forward], "{fen}");
    }
    // A Shredder castling field names rook files even in the standard
    // start position: the GUI gets KxR from an engine in standard mode.
    let mut s = session(Settings::default());
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    gui(
        &mut s,
        &format!("position fen {fen} moves g1f3 g8f6 g2g3 g7g6 f1g2 f8g7"),
    );
    gui(&mut s, "go depth 1");
    assert_eq!(
        to_gui(&engine(&mut s, "bestmove e1g1")),
        vec!["bestmove e1h1"]
    );
    // A standard FEN afterwards: king-two-squares again.
    gui(
        &mut s,
        "position startpos moves g1f3 g8f6 g2g3 g7g6 f1g2 f8g7",
    );
    gui(&mut s, "go depth 1");
    assert_eq!(engine(&mut s, "bestmove e1g1"), vec![Out::Forward]);
}

#[test]
fn a_board_tracking_gui_under_injection_is_told_why_once_per_game() {
    let mut s = session(Settings {
        start: Some(MethodSpec::Fixed(vec![0])),
        ..Settings::default()
    });
    gui(&mut s, "ucinewgame");
    // SP 0 has bishops on a1/b1: e2e4 is fine, g1f3 is not (a rook is on h1,
    // a king on g1).
    let out = gui(&mut s, "position startpos moves e2e4 e7e5 g1f3");
    let explained = |out: &[Out]| {
        out.iter().any(|o| {
            matches!(o, Out::Note { text, stderr: true } if text.contains("set `uci960 Start` to `gui`"))
        })
    };
    assert!(explained(&out), "{out:?}");
    assert!(info_strings(&out).contains("uci960 positions"), "{out:?}");
    assert!(info_strings(&out).contains("illegal move 'g1f3' at ply 3"));
    let out = gui(&mut s, "position startpos moves e2e4 e7e5 g1f3 b8c6");
    assert!(!explained(&out), "once per game");
    gui(&mut s, "ucinewgame");
    assert!(explained(&gui(&mut s, "position startpos moves g1f3")));
    // Without injection an illegal move is only refused.
    let mut t = session(Settings::default());
    assert!(!explained(&gui(&mut t, "position startpos moves e2e5")));
}

#[test]
fn a_refused_position_leaves_the_engine_mode_unchanged() {
    // The mode switch of a refused position is not sent, so the session
    // must not believe it was: the next Chess960 position still gets it.
    let mut s = session(Settings::default());
    let out = gui(&mut s, &format!("position fen {X960} moves a2a5"));
    assert!(to_engine(&out).is_empty(), "{out:?}");
    let out = gui(&mut s, &format!("position fen {X960}"));
    assert_eq!(
        to_engine(&out),
        vec![
            "setoption name UCI_Chess960 value true".to_string(),
            format!("position fen {S960}"),
        ]
    );
}
