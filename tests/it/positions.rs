//! End-to-end tests of `uci960 positions` and `uci960 show`: the real binary,
//! checked against shakmaty, the reference table and python-chess.

use crate::common;

use std::collections::HashMap;
use std::process::{Command, Output};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

fn uci960(args: &[&str]) -> Output {
    Command::new(common::uci960())
        .args(args)
        .output()
        .expect("run uci960")
}

fn stdout_lines(args: &[&str]) -> Vec<String> {
    let out = uci960(args);
    assert!(
        out.status.success(),
        "uci960 {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

fn chess960(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    fen.into_position(CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("illegal {e}"))
}

/// The reference table: SP -> (back rank, FEN, perft 1..3).
fn reference() -> Vec<(u32, String, String, [u64; 3])> {
    let text = std::fs::read_to_string("tests/data/chess960-start-positions.tsv").unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].parse().unwrap(),
                f[1].to_string(),
                f[2].to_string(),
                [
                    f[3].parse().unwrap(),
                    f[4].parse().unwrap(),
                    f[5].parse().unwrap(),
                ],
            )
        })
        .collect()
}

#[test]
fn all_960_match_the_reference_table_and_shakmaty() {
    let table = reference();
    assert_eq!(table.len(), 960);
    let lines = stdout_lines(&["positions", "-m", "sp:0-959", "-n", "960", "-f", "json"]);
    assert_eq!(lines.len(), 960);
    for ((sp, backrank, ref_fen, perft), line) in table.iter().zip(&lines) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["sp"], *sp);
        assert_eq!(v["black_sp"], *sp);
        let ours = chess960(v["fen"].as_str().unwrap());
        let shredder = chess960(v["shredder_fen"].as_str().unwrap());
        let theirs = chess960(ref_fen);
        assert_eq!(ours.board(), theirs.board(), "SP {sp} board");
        assert_eq!(
            ours.board(),
            &shakmaty::Board::chess960(*sp),
            "SP {sp} vs shakmaty"
        );
        assert_eq!(
            ours.castles().castling_rights(),
            theirs.castles().castling_rights()
        );
        assert_eq!(
            shredder.castles().castling_rights(),
            theirs.castles().castling_rights()
        );
        assert!(
            v["fen"]
                .as_str()
                .unwrap()
                .starts_with(&backrank.to_lowercase())
        );
        for (depth, expected) in perft.iter().enumerate() {
            assert_eq!(
                shakmaty::perft(&ours, depth as u32 + 1),
                *expected,
                "SP {sp} perft"
            );
        }
    }
}

#[test]
fn show_round_trips_numbers_ranks_and_fens() {
    for sp in [0u32, 518, 959] {
        let rank = shakmaty::Board::chess960(sp)
            .board_fen()
            .to_string()
            .rsplit('/')
            .next()
            .unwrap()
            .to_string();
        let by_number = stdout_lines(&["show", &sp.to_string()]);
        let by_rank = stdout_lines(&["show", &rank]);
        assert_eq!(by_number, by_rank);
        assert!(
            by_number
                .iter()
                .any(|l| l.starts_with(&format!("SP:       {sp} ")))
        );
        let fen_line = by_number
            .iter()
            .find(|l| l.starts_with("Shredder:"))
            .unwrap();
        let by_fen = stdout_lines(&["show", fen_line.trim_start_matches("Shredder:").trim()]);
        assert_eq!(by_fen, by_number);
    }
}

#[test]
fn rolls_2_3_3_2_3_give_the_standard_position() {
    let lines = stdout_lines(&["positions", "-m", "die", "--rolls", "2,3,3,2,3", "-f", "sp"]);
    assert_eq!(lines, ["518"]);
    let lines = stdout_lines(&["positions", "-m", "die", "--rolls", "2,3,3,2,3"]);
    assert_eq!(
        lines,
        ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
    );
}

/// A physical record the method cannot replay is refused, named by the
/// flag it came in.
#[test]
fn a_record_of_another_method_is_refused_by_its_flag() {
    for (args, given) in [
        (["-m", "bag-redraw", "--rolls", "2,3,3,2,3"], "rolls"),
        (["-m", "die", "--draws", "RBNKQBNR"], "draws"),
    ] {
        let out = uci960(&[&["positions"][..], &args].concat());
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "{} cannot replay {given}: --rolls goes with die, --draws with bag-redraw and bag-swap",
                args[1]
            )),
            "{err}"
        );
    }
}

#[test]
fn replayed_draws_make_the_position_drawn() {
    let lines = stdout_lines(&[
        "positions",
        "-m",
        "bag-swap",
        "--draws",
        "RBNKQBNR",
        "-f",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert!(
        v["fen"]
            .as_str()
            .unwrap()
            .ends_with("BRNKQBNR w KQkq - 0 1"),
        "{v}"
    );
    assert_eq!(v["record"]["events"].as_array().unwrap().len(), 8);
}

/// Checks one emitted FEN: legal in Chess960 mode, a start position with all
/// four rights, and the same position in the other flavour.
fn check_start(xfen: &str, shredder: &str) -> (u16, u16) {
    let a = chess960(xfen);
    let b = chess960(shredder);
    assert_eq!(a.board(), b.board());
    assert_eq!(a.castles().castling_rights(), b.castles().castling_rights());
    assert_eq!(a.castles().castling_rights().count(), 4, "{xfen}");
    let start =
        uci960::start::StartPosition::from_chess(&a).unwrap_or_else(|e| panic!("{xfen}: {e}"));
    for color in Color::ALL {
        let (l, r) = start_rank(&start, color).rook_files();
        for file in [l, r] {
            let sq = shakmaty::Square::from_coords(file, color.backrank());
            assert!(
                a.castles().castling_rights().contains(sq),
                "{xfen}: no right for {sq}"
            );
        }
    }
    (start.white.sp(), start.black.sp())
}

fn start_rank(s: &uci960::start::StartPosition, color: Color) -> uci960::start::BackRank {
    if color.is_white() { s.white } else { s.black }
}

#[test]
fn every_method_emits_valid_positions_for_many_seeds() {
    for method in ["die", "bag-redraw", "bag-swap", "random", "dfrc"] {
        for seed in 0..10u64 {
            let lines = stdout_lines(&[
                "positions",
                "-m",
                method,
                "-n",
                "300",
                "-s",
                &seed.to_string(),
                "-f",
                "json",
            ]);
            assert_eq!(lines.len(), 300);
            let mut doubles = 0;
            for line in &lines {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let (w, b) = check_start(
                    v["fen"].as_str().unwrap(),
                    v["shredder_fen"].as_str().unwrap(),
                );
                assert_eq!(v["sp"], w);
                assert_eq!(v["black_sp"], b);
                assert_eq!(v["method"], method);
                if w != b {
                    doubles += 1;
                }
            }
            if method == "dfrc" {
                assert!(
                    doubles > 290,
                    "dfrc gave {doubles} of 300 with different ranks"
                );
            } else {
                assert_eq!(doubles, 0, "{method} must mirror");
            }
        }
    }
}

#[test]
fn python_chess_reads_dfrc_positions_in_both_flavours() {
    let Some(python) = common::require_python_chess() else {
        return;
    };
    let xfen = stdout_lines(&[
        "positions",
        "-m",
        "dfrc",
        "-n",
        "200",
        "-s",
        "3",
        "-f",
        "fen",
    ]);
    let shredder = stdout_lines(&[
        "positions",
        "-m",
        "dfrc",
        "-n",
        "200",
        "-s",
        "3",
        "-f",
        "shredder",
    ]);
    let script = r#"
import sys, chess
lines = sys.stdin.read().split("\n")
n = 0
for fen in lines:
    if not fen:
        continue
    b = chess.Board(fen, chess960=True)
    assert b.is_valid(), (fen, b.status())
    rooks = b.pieces(chess.ROOK, chess.WHITE) & chess.BB_RANK_1 | b.pieces(chess.ROOK, chess.BLACK) & chess.BB_RANK_8
    assert b.castling_rights == int(rooks), fen
    print(b.shredder_fen())
    n += 1
"#;
    for input in [&xfen, &shredder] {
        let out = common::run_python(&python, script, &input.join("\n"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(theirs.len(), 200);
        // python-chess writes Shredder-FEN too: same position, same rook files.
        for (ours, theirs) in shredder.iter().zip(&theirs) {
            let a = chess960(ours);
            let b = chess960(theirs);
            assert_eq!(a.board(), b.board());
            assert_eq!(a.castles().castling_rights(), b.castles().castling_rights());
        }
    }
}

/// Pinned output: a change of dependency or code that moves these fails.
#[test]
fn seeds_give_the_same_positions_everywhere() {
    let pinned: [(&str, u64, &str); 10] = [
        ("die", 1, PIN_DIE_1),
        ("die", 42, PIN_DIE_42),
        ("bag-redraw", 1, PIN_REDRAW_1),
        ("bag-redraw", 42, PIN_REDRAW_42),
        ("bag-swap", 1, PIN_SWAP_1),
        ("bag-swap", 42, PIN_SWAP_42),
        ("random", 1, PIN_RANDOM_1),
        ("random", 42, PIN_RANDOM_42),
        ("dfrc", 1, PIN_DFRC_1),
        ("dfrc", 42, PIN_DFRC_42),
    ];
    for (method, seed, expected) in pinned {
        let got = stdout_lines(&[
            "positions",
            "-m",
            method,
            "-n",
            "8",
            "-s",
            &seed.to_string(),
            "-f",
            "sp",
        ])
        .join(" ");
        assert_eq!(got, expected, "{method} seed {seed}");
    }
}

const PIN_DIE_1: &str = "56 211 36 635 721 596 845 618";
const PIN_DIE_42: &str = "271 683 350 542 711 923 643 675";
const PIN_REDRAW_1: &str = "666 915 282 313 514 262 383 775";
const PIN_REDRAW_42: &str = "519 55 439 176 87 337 330 805";
const PIN_SWAP_1: &str = "666 915 282 313 596 211 154 785";
const PIN_SWAP_42: &str = "807 525 855 324 64 451 180 530";
const PIN_RANDOM_1: &str = "689 362 875 600 933 67 66 540";
const PIN_RANDOM_42: &str = "417 885 904 198 332 8 850 441";
const PIN_DFRC_1: &str = "689/362 875/600 933/67 66/540 357/211 24/310 407/544 142/578";
const PIN_DFRC_42: &str = "417/885 904/198 332/8 850/441 432/152 350/603 404/129 772/845";

#[test]
fn every_format_is_well_formed() {
    let epd = stdout_lines(&["positions", "-m", "sp:518,0", "-n", "2", "-f", "epd"]);
    assert_eq!(
        epd[0],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    );
    assert_eq!(epd[1].split(' ').count(), 4);
    let sp = stdout_lines(&["positions", "-m", "dfrc", "-n", "3", "-s", "9", "-f", "sp"]);
    assert!(sp.iter().all(|l| l.split('/').count() == 2), "{sp:?}");
    let pgn = stdout_lines(&["positions", "-m", "sp:7", "-n", "2", "-f", "pgn"]).join("\n");
    assert_eq!(pgn.matches("[Variant \"Chess960\"]").count(), 2);
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 2);
    // Written by game::pgn's writer, the one every command uses.
    assert_eq!(pgn.matches("[PlyCount \"0\"]").count(), 2);
    assert!(pgn.contains("[Round \"2\"]"), "{pgn}");
    let fen_tag = pgn.lines().find(|l| l.starts_with("[FEN ")).unwrap();
    chess960(
        fen_tag
            .trim_start_matches("[FEN \"")
            .trim_end_matches("\"]"),
    );
    let board = stdout_lines(&[
        "positions",
        "-m",
        "die",
        "--rolls",
        "2,3,3,2,3",
        "-f",
        "board",
    ])
    .join("\n");
    assert!(board.contains("1  R N B Q K B N R"), "{board}");
    assert!(board.contains("rolls 2,3,3,2,3"), "{board}");
}

#[test]
fn python_chess_reads_the_pgn_format() {
    let Some(python) = common::require_python_chess() else {
        return;
    };
    let pgn = stdout_lines(&[
        "positions",
        "-m",
        "bag-redraw",
        "-n",
        "5",
        "-s",
        "2",
        "-f",
        "pgn",
    ])
    .join("\n");
    let script = r#"
import sys, io, chess.pgn
text = sys.stdin.read()
stream = io.StringIO(text)
n = 0
while True:
    g = chess.pgn.read_game(stream)
    if g is None:
        break
    assert not g.errors, g.errors
    b = g.board()
    assert b.chess960 and b.is_valid()
    n += 1
print(n)
"#;
    let out = common::run_python(&python, script, &pgn);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "5");
}

#[test]
fn books_are_read_in_order_or_shuffled() {
    let path = "tests/data/chess960-midgame-perft.epd";
    let ordered = stdout_lines(&[
        "positions",
        "-m",
        &format!("book:{path}"),
        "-n",
        "3",
        "-f",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&ordered[1]).unwrap();
    assert_eq!(v["record"]["line"], 2);
    assert!(v["sp"].is_null(), "a middle-game line is no start position");
    let file = std::fs::read_to_string(path).unwrap();
    let second = file.lines().nth(1).unwrap();
    assert!(
        second.starts_with(
            v["shredder_fen"]
                .as_str()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
        )
    );
    let a = stdout_lines(&[
        "positions",
        "-m",
        &format!("book-shuffle:{path}"),
        "-n",
        "20",
        "-s",
        "5",
    ]);
    let b = stdout_lines(&[
        "positions",
        "-m",
        &format!("book-shuffle:{path}"),
        "-n",
        "20",
        "-s",
        "5",
    ]);
    let c = stdout_lines(&["positions", "-m", &format!("book:{path}"), "-n", "20"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    let mut seen = HashMap::new();
    for l in &a {
        *seen.entry(l.clone()).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 20, "a shuffle draws without repeats");
}

fn expect_usage_error(args: &[&str], needle: &str) {
    let out = uci960(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_exits_2_and_names_the_problem() {
    // (arguments, what the message must say)
    let cases: [(&[&str], &str); 11] = [
        (&["positions", "-m", "dice"], "unknown method 'dice'"),
        (&["positions", "-m", "sp:960"], "'960' is out of range"),
        (
            &["positions", "-m", "book:/no/such/file.epd"],
            "/no/such/file.epd",
        ),
        (
            &["positions", "-m", "die", "--rolls", "2,7"],
            "throw 2 is '7'",
        ),
        (
            &["positions", "-m", "die", "--rolls", "2,3"],
            "the queen still needs a throw",
        ),
        (
            &["positions", "-m", "bag-swap", "--draws", "RRR"],
            "draw 3 is 'R': no such piece left",
        ),
        (
            &["positions", "-m", "bag-swap", "--draws", "RNBQ"],
            "the piece for e1 still needs a draw",
        ),
        (
            &["show", "RNBQKNBR"],
            "bishops on c1 and g1 stand on the same colour",
        ),
        (&["show", "KRBQRBNN"], "king on a1 is not between the rooks"),
        (&["show", "960"], "out of range"),
        (
            &[
                "show",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            ],
            "illegal position",
        ),
    ];
    for (args, needle) in cases {
        expect_usage_error(args, needle);
    }
    let book = common::scratch_dir("positions-book").join("bad.epd");
    std::fs::write(
        &book,
        "# two good, one bad\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq -\n",
    )
    .unwrap();
    let arg = format!("book:{}", book.display());
    expect_usage_error(
        &["positions", "-m", &arg],
        &format!("{}:4:", book.display()),
    );
    expect_usage_error(&["analyze", "-m", &arg], "no distribution");
}

/// `--format csv`: read back by python's csv module (RFC 4180, CRLF, the
/// record's commas quoted), each row's FENs are a legal Chess960 position
/// whose SPs, X-FEN and Shredder-FEN agree with shakmaty and with `show`.
#[test]
fn csv_reads_back_and_every_fen_is_the_shown_position() {
    let Some(python) = common::require_python_chess() else {
        return;
    };
    let read_back = r#"
import csv, io, json, sys
print(json.dumps(list(csv.DictReader(io.StringIO(sys.stdin.read(), newline="")))))
"#;
    for (args, count) in [
        (&["-m", "dfrc", "-n", "30", "-s", "5"][..], 30),
        (&["-m", "bag-swap", "-n", "30", "-s", "6"], 30),
        (&["-m", "die", "--rolls", "2,3,3,2,3"], 1),
    ] {
        let out = uci960(&[&["positions"][..], args, &["-f", "csv"]].concat());
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.starts_with("sp,black_sp,fen,shredder_fen,method,record\r\n"),
            "{text}"
        );
        let py = common::run_python(&python, read_back, &text);
        assert!(
            py.status.success(),
            "{}",
            String::from_utf8_lossy(&py.stderr)
        );
        let rows: Vec<HashMap<String, String>> = serde_json::from_slice(&py.stdout).unwrap();
        assert_eq!(rows.len(), count, "{text}");
        for row in &rows {
            let pos = chess960(&row["fen"]);
            let sp = uci960::start::StartPosition::from_chess(&pos).unwrap();
            assert_eq!(row["sp"], sp.white.sp().to_string(), "{row:?}");
            assert_eq!(row["black_sp"], sp.black.sp().to_string(), "{row:?}");
            assert_eq!(row["method"], args[1], "{row:?}");
            let shown = stdout_lines(&["show", &row["fen"]]);
            assert!(
                shown.contains(&format!("X-FEN:    {}", row["fen"])),
                "{shown:?}"
            );
            assert!(
                shown.contains(&format!("Shredder: {}", row["shredder_fen"])),
                "{shown:?}"
            );
        }
        if args[1] == "die" {
            assert_eq!(rows[0]["record"], "rolls 2,3,3,2,3");
            assert_eq!(rows[0]["sp"], "518");
        }
    }
}
