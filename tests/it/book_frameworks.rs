//! `uci960 book` for the test frameworks (issue 23): packages checked by an
//! independent computation in Python (hashlib, base64, zipfile, and a
//! framework-style reader written here from their sources), every form of
//! their books read, `--stats`, and the WDL windows with Stockfish (which
//! shows WDL) and Fairy-Stockfish (which does not: the model's rates,
//! recomputed here in Python).

use crate::common;

use std::path::Path;
use std::process::Output;

fn uci960(args: &[&str]) -> Output {
    std::process::Command::new(common::uci960())
        .args(args)
        .output()
        .expect("run uci960")
}

fn ok(args: &[&str]) -> Output {
    let out = uci960(args);
    assert!(
        out.status.success(),
        "uci960 {args:?} failed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn python(python: &Path, script: &str, input: &str) -> String {
    let out = common::run_python(python, script, input);
    assert!(
        out.status.success(),
        "python failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Lines of the frameworks' own Chess960 books (fishtest's books
/// repository): `3moves_FRC.epd` (CRLF, X-FEN, 6 fields),
/// `DFRC_openings.epd` (Shredder-FEN), `DFRC_4852_v1.epd` (Black to move),
/// plus the other forms a book can take: 4 fields, `hmvc`/`fmvn` opcodes,
/// a mixed castling field, a comment.
const FRAMEWORK_LINES: &str = "\
1rbbnnkr/p1pp1ppp/8/1p2p3/1P2q3/5N2/P1PP1PPP/QRBB1NKR w KQkq - 0 4\r
qr1b1nkr/p1pppppp/bp3n2/8/3P4/4BN2/PPP1PPPP/QR1B1NKR w KQkq - 2 4\r
bqnnrbkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhe - 0 1\r
rqkrnbbn/p1pppppp/1p6/8/8/2P1P3/PP1P1PPP/RQNBNKBR b KQkq - 0 2\r
nqrbknbr/ppppp1pp/5p2/8/6P1/8/PPPPPP1P/RKNNBBQR w - -\r
# a comment line\r
nbnrkrbq/pp1ppppp/2p5/8/4PP2/8/PPPP2PP/BRNBKRQN b KQkq - hmvc 3; fmvn 7; ce 12;\r
rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KAkq - 0 1\r
";

#[test]
fn every_form_of_the_frameworks_books_reads_and_rewrites_into_one_notation() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("book-forms");
    let file = dir.join("forms.epd");
    std::fs::write(&file, FRAMEWORK_LINES).unwrap();
    let book_arg = format!("book:{}", file.display());
    for fen in ["xfen", "shredder"] {
        let out = ok(&["book", "--start", &book_arg, "--count", "7", "--fen", fen]);
        let text = String::from_utf8(out.stdout).unwrap();
        // python-chess reads every line as Chess960, finds it valid, and
        // it is the source line's position with its move counters; the
        // castling field is in the one flavour asked for.
        let script = format!(
            r##"
import sys, chess
src = [l for l in open({file:?}).read().splitlines() if l.strip() and not l.startswith("#")]
out = sys.stdin.read().splitlines()
assert len(out) == len(src), (len(out), len(src))
for s, o in zip(src, out):
    want = chess.Board(chess960=True)
    if ";" in s:
        want, _ = chess.Board.from_epd(s, chess960=True)
    else:
        parts = s.split()
        want.set_fen(" ".join(parts if len(parts) == 6 else parts + ["0", "1"]))
    got, ops = chess.Board.from_epd(o, chess960=True)
    assert got.is_valid(), o
    assert got.fen(shredder=True) == want.fen(shredder=True), (s, o)
    field = o.split()[2]
    if {fen:?} == "xfen":
        assert field == want.fen().split()[2], (o, want.fen())
    else:
        assert field == want.fen(shredder=True).split()[2], (o,)
print("ok", len(out))
"##,
            file = file.to_str().unwrap()
        );
        assert_eq!(python(&py, &script, &text).trim(), "ok 7");
    }
    // The old flag name still works.
    ok(&[
        "book",
        "--start",
        &book_arg,
        "--count",
        "7",
        "--castling",
        "xfen",
    ]);
    // `positions --method book:` and `match`'s openings read the same lines.
    let out = ok(&["positions", "--method", &book_arg, "--count", "7"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 7);
    // Counters that disagree with their opcodes are an error naming the line.
    let bad = dir.join("bad.epd");
    std::fs::write(
        &bad,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 fmvn 3;\n",
    )
    .unwrap();
    let out = uci960(&[
        "book",
        "--start",
        &format!("book:{}", bad.display()),
        "--count",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.epd:1:"), "{err}");
    assert!(err.contains("disagrees with its fmvn 3"), "{err}");
}

/// fishtest's checks, written from `update_json.py` and `worker/games.py`,
/// and OpenBench's from `Client/worker.py`, against the package.
const FRAMEWORK_CHECK: &str = r#"
import base64, hashlib, json, os, sys, zipfile, chess
framework, directory, name = sys.argv[1], sys.argv[2], sys.argv[3]
book = name + ".epd"
epd = open(os.path.join(directory, book), "rb").read()
with zipfile.ZipFile(os.path.join(directory, book + ".zip")) as z:
    assert z.namelist() == [book], z.namelist()
    assert z.testzip() is None
    inner = z.read(book)
assert inner == epd
assert b"\r" not in epd
text = epd.decode()
for line in text.splitlines():
    board = chess.Board(line, chess960=True)
    assert board.is_valid(), line
    assert len(line.split()) == 6, line
if framework == "fishtest":
    content = epd.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    sri = base64.b64encode(hashlib.sha384(content).digest()).decode("utf8")
    white = black = 0
    lo, hi = 2**16, -1
    for line in text.splitlines():
        f = line.split()
        if f[1] == "w": white += 1
        elif f[1] == "b": black += 1
        if len(f) > 5 and f[5].isdigit():
            ply = (int(f[5]) - 1) * 2 + (f[1] == "b")
            lo, hi = min(lo, ply), max(hi, ply)
    if lo > hi: lo = hi = None
    entry = json.load(open(os.path.join(directory, "books.json")))[book]
    want = {"total": white + black, "white": white, "black": black,
            "min_depth": lo, "max_depth": hi, "sri": sri}
    assert entry == want, (entry, want)
    variant = "fischerandom" if any(s in book.upper() for s in ["FRC", "960"]) else "standard"
else:
    desc = json.load(open(os.path.join(directory, book + ".json")))
    assert desc["sha"] == hashlib.sha256(epd).hexdigest(), desc
    assert desc["source"] == sys.argv[4], desc
    up = book.upper()
    variant = ["standard", "fischerandom"]['FRC' in up or '960' in up or 'FISCHER' in up]
print(variant, len(text.splitlines()))
"#;

fn check_package(py: &Path, args: &[&str]) -> String {
    let out = common::run_python_args(py, FRAMEWORK_CHECK, args);
    assert!(
        out.status.success(),
        "framework check failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn packages_pass_the_frameworks_own_checks_and_unplayable_names_are_refused() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("book-package");
    let d = dir.to_str().unwrap();
    // fishtest: a DFRC book, 0 to 3 plies, so that Black is to move in some.
    let out = ok(&[
        "book",
        "--start",
        "dfrc",
        "--plies",
        "0-3",
        "--count",
        "300",
        "--seed",
        "5",
        "--package",
        "fishtest",
        "DFRC_test_uci960",
        "--output",
        d,
    ]);
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(report.contains("fishtest package"), "{report}");
    assert_eq!(
        check_package(&py, &["fishtest", d, "DFRC_test_uci960"]).trim(),
        "fischerandom 300"
    );
    // A second book joins the same books.json; the first entry stays.
    ok(&[
        "book",
        "--start",
        "all",
        "--count",
        "960",
        "--fen",
        "xfen",
        "--package",
        "fishtest",
        "FRC_all_uci960",
        "--output",
        d,
    ]);
    assert_eq!(
        check_package(&py, &["fishtest", d, "DFRC_test_uci960"]).trim(),
        "fischerandom 300"
    );
    assert_eq!(
        check_package(&py, &["fishtest", d, "FRC_all_uci960"]).trim(),
        "fischerandom 960"
    );
    // OpenBench: FISCHER in the name is enough there.
    let url = "https://example.org/books/Fischer_book.epd.zip";
    ok(&[
        "book",
        "--start",
        "random",
        "--plies",
        "2",
        "--count",
        "50",
        "--seed",
        "2",
        "--package",
        "openbench",
        "Fischer_book",
        "--package-source",
        url,
        "--output",
        d,
    ]);
    assert_eq!(
        check_package(&py, &["openbench", d, "Fischer_book", url]).trim(),
        "fischerandom 50"
    );
    // fishtest would play that name as standard chess: refused, with why.
    let out = uci960(&[
        "book",
        "--count",
        "5",
        "--package",
        "fishtest",
        "Fischer_book",
        "--output",
        d,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'FRC' or '960'"), "{err}");
    assert!(err.contains("standard chess"), "{err}");
    assert!(err.contains("Fischer_book_FRC"), "{err}");
    let books_json = std::fs::read_to_string(dir.join("books.json")).unwrap();
    assert!(!books_json.contains("Fischer_book"), "{books_json}");
}

#[test]
fn stats_count_what_the_frameworks_count() {
    let dir = common::scratch_dir("book-stats");
    let file = dir.join("forms.epd");
    std::fs::write(&file, FRAMEWORK_LINES).unwrap();
    let out = ok(&["book", "--stats", file.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let line = |head: &str| {
        text.lines()
            .find(|l| l.starts_with(head))
            .unwrap_or_else(|| panic!("no '{head}' in\n{text}"))
            .to_string()
    };
    assert!(line("positions").ends_with(" 7"), "{text}");
    assert!(line("side to move").contains("white 5, black 2"), "{text}");
    // Plies 6, 6, 0, 3, 0 (4 fields: move 1), 13 (fmvn 7, Black), 0.
    assert!(line("ply").contains("0..13"), "{text}");
    // fishtest reads the ply only from a sixth FEN field: not from the
    // 4-field line, nor from `hmvc 3; fmvn 7;` (its fields[5] is "3;").
    assert!(
        line("fishtest counts").contains("total 7, white 5, black 2"),
        "{text}"
    );
    assert!(line("fishtest counts").contains("0..6"), "{text}");
    assert!(
        line("castling field").contains("X-FEN (KQkq) 4, Shredder (HAha) 1, mixed 1, none 1"),
        "{text}"
    );
    assert!(
        line("duplicates").starts_with("duplicates       0"),
        "{text}"
    );
    assert!(line("starts").contains("2 of the 921,600"), "{text}");
}

#[test]
fn draw_window_keeps_lines_by_the_engines_own_wdl() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let engine = format!("cmd={}", sf.display());
    let run = |count: &str, window: &str| {
        let out = ok(&[
            "book",
            "--start",
            "dfrc",
            "--count",
            count,
            "--seed",
            "11",
            "--engine",
            &engine,
            "--depth",
            "6",
            "--draw-window",
            window,
        ]);
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (all, report) = run("8", "0..1");
    assert!(
        report.contains("of 8 lines from the engine (UCI_ShowWDL), of 0 from"),
        "{report}"
    );
    let draws: Vec<u32> = all
        .lines()
        .map(|l| {
            let wdl = l.split("wdl \"").nth(1).expect("a wdl opcode");
            let n: Vec<u32> = wdl
                .split('"')
                .next()
                .unwrap()
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect();
            assert_eq!(n.iter().sum::<u32>(), 1000, "{l}");
            n[1]
        })
        .collect();
    // A window holding exactly the fourth line's draw rate keeps the first
    // line that has it, and drops every line before it.
    let d = draws[3];
    let first = draws.iter().position(|&x| x == d).unwrap();
    let rate = format!("{}..{}", d as f64 / 1000.0, d as f64 / 1000.0);
    let (kept, report) = run("1", &rate);
    assert_eq!(kept.lines().next(), all.lines().nth(first), "{report}");
    assert!(
        report.contains(&format!("outside the eval window {first},")),
        "{report}"
    );
    // `--stats` with the engine measures the same rates again.
    let dir = common::scratch_dir("book-wdl-stats");
    let file = dir.join("all.epd");
    std::fs::write(&file, &all).unwrap();
    let out = ok(&[
        "book",
        "--stats",
        file.to_str().unwrap(),
        "--engine",
        &engine,
        "--depth",
        "6",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let mean = draws.iter().sum::<u32>() as f64 / draws.len() as f64 / 10.0;
    assert!(
        text.contains(&format!("draw rate        mean {mean:.1} %")),
        "{text}"
    );
    assert!(!text.contains("model"), "{text}");
}

#[test]
fn without_engine_wdl_the_rates_are_stockfish_17_1s_model() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let Some(fairy) = common::require_engine("fairy-stockfish") else {
        return;
    };
    let out = ok(&[
        "book",
        "--start",
        "dfrc",
        "--plies",
        "0-4",
        "--count",
        "6",
        "--seed",
        "4",
        "--engine",
        &format!("cmd={}", fairy.display()),
        "--nodes",
        "3000",
        "--win-window",
        "0%..100%",
    ]);
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(report.contains("of 0 lines from the engine"), "{report}");
    // The model from its published constants (Stockfish 17.1, src/uci.cpp).
    let script = r#"
import sys, math, chess
AS = [-13.50030198, 40.92780883, -36.82753545, 386.83004070]
BS = [96.53354896, -165.79058388, 90.89679019, 49.29561889]
n = 0
for line in sys.stdin.read().splitlines():
    board, ops = chess.Board.from_epd(line, chess960=True)
    pm = board.piece_map().values()
    material = sum({1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}[p.piece_type] for p in pm)
    m = min(max(material, 17), 78) / 58.0
    a = ((AS[0] * m + AS[1]) * m + AS[2]) * m + AS[3]
    b = ((BS[0] * m + BS[1]) * m + BS[2]) * m + BS[3]
    v = ops["ce"] * a / 100
    w = int(0.5 + 1000 / (1 + math.exp((a - v) / b)))
    l = int(0.5 + 1000 / (1 + math.exp((a + v) / b)))
    want = "%d %d %d" % (w, 1000 - w - l, l)
    got = ops["wdl"]
    assert got == want, (line, want)
    n += 1
print(n)
"#;
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(python(&py, script, &text).trim(), "6");
}

/// Stockfish 17.1's model and a re-filter, recomputed in Python from the
/// book's opcodes: argv = book, output, draw lo, draw hi (per mille), cp
/// lo, cp hi (White's view; "-" for no eval window), White win lo, hi.
const REFILTER_CHECK: &str = r#"
import math, sys, chess
book, out, dlo, dhi, clo, chi, wlo, whi = sys.argv[1:]
AS = [-13.50030198, 40.92780883, -36.82753545, 386.83004070]
BS = [96.53354896, -165.79058388, 90.89679019, 49.29561889]
def model(board, cp):
    material = sum({1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}[p.piece_type] for p in board.piece_map().values())
    m = min(max(material, 17), 78) / 58.0
    a = ((AS[0] * m + AS[1]) * m + AS[2]) * m + AS[3]
    b = ((BS[0] * m + BS[1]) * m + BS[2]) * m + BS[3]
    v = cp * a / 100
    w = int(0.5 + 1000 / (1 + math.exp((a - v) / b)))
    l = int(0.5 + 1000 / (1 + math.exp((a + v) / b)))
    return (w, 1000 - w - l, l)
want = []
for line in open(book).read().splitlines():
    board, ops = chess.Board.from_epd(line, chess960=True)
    ce = ops["ce"]
    wdl = tuple(map(int, ops["wdl"].split())) if "wdl" in ops else model(board, ce)
    white = board.turn == chess.WHITE
    cp = ce if white else -ce
    win = wdl[0] if white else wdl[2]
    if not int(dlo) <= wdl[1] <= int(dhi): continue
    if clo != "-" and not int(clo) <= cp <= int(chi): continue
    if not int(wlo) <= win <= int(whi): continue
    want.append((board.epd(), ce, ops.get("acd"), "%d %d %d" % wdl, ops.get("c0"), ops.get("c1")))
got = []
for line in open(out).read().splitlines():
    board, ops = chess.Board.from_epd(line, chess960=True)
    got.append((board.epd(), ops["ce"], ops.get("acd"), ops["wdl"], ops.get("c0"), ops.get("c1")))
assert got == want, (got, want)
print(len(got))
"#;

/// Runs [`REFILTER_CHECK`]; the number of lines it checked.
fn check_refilter(py: &Path, args: &[&str]) -> usize {
    let out = common::run_python_args(py, REFILTER_CHECK, args);
    assert!(
        out.status.success(),
        "re-filter check failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

#[test]
fn a_book_is_filtered_again_by_its_stored_evaluations_without_an_engine() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let dir = common::scratch_dir("book-refilter");
    // A 0..1 book measured once by Stockfish (its own WDL), 0-2 plies.
    let measured = dir.join("measured.epd");
    let m = measured.to_str().unwrap();
    ok(&[
        "book",
        "--start",
        "dfrc",
        "--plies",
        "0-2",
        "--count",
        "40",
        "--seed",
        "9",
        "--engine",
        &format!("cmd={}", sf.display()),
        "--depth",
        "4",
        "--draw-window",
        "0..1",
        "-o",
        m,
    ]);
    let text = std::fs::read_to_string(&measured).unwrap();
    assert_eq!(text.lines().count(), 40);
    assert!(text.lines().all(|l| l.contains(" wdl \"")), "{text}");
    // Passed through, every line comes out as it went in: moves, ce, acd,
    // wdl; no --count: the book's size, read once.
    let out = ok(&["book", "--start", &format!("book:{m}")]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), text);

    // Every third line loses its wdl: those are judged by the model of ce.
    let partial = dir.join("partial.epd");
    let partial_text: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i % 3 == 0 {
                let cut = l.find(" wdl \"").unwrap();
                let end = cut + l[cut + 6..].find("\";").unwrap() + 8;
                format!("{}{}\n", &l[..cut], &l[end..])
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&partial, &partial_text).unwrap();
    let p = partial.to_str().unwrap();
    // A draw window holding the middle half of the rates, and ±150 cp.
    let mut draws: Vec<u32> = text
        .lines()
        .map(|l| {
            let w = l.split(" wdl \"").nth(1).unwrap();
            w.split(' ').nth(1).unwrap().parse().unwrap()
        })
        .collect();
    draws.sort();
    let (lo, hi) = (draws[10], draws[30]);
    let draw_window = format!("{}..{}", lo as f64 / 1000.0, hi as f64 / 1000.0);
    let kept = dir.join("kept.epd");
    let k = kept.to_str().unwrap();
    let out = ok(&[
        "book",
        "--start",
        &format!("book:{p}"),
        "--draw-window",
        &draw_window,
        "--eval-window",
        "-150..150",
        "-o",
        k,
    ]);
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(
        report.contains("no engine: the windows judged the evaluations the book's lines carry"),
        "{report}"
    );
    let n = check_refilter(
        &py,
        &[
            p,
            k,
            &lo.to_string(),
            &hi.to_string(),
            "-150",
            "150",
            "0",
            "1000",
        ],
    );
    assert!(n > 0 && n < 40, "{n} kept: {report}");
    // White's win rate 10-60 % (Black to move: the stored loss rate).
    let out = ok(&[
        "book",
        "--start",
        &format!("book:{p}"),
        "--win-window",
        "0.10..0.60",
        "-o",
        k,
    ]);
    let n = check_refilter(&py, &[p, k, "0", "1000", "-", "-", "100", "600"]);
    assert!(n > 0, "{}", String::from_utf8_lossy(&out.stderr));
    // --count beyond what the window holds: exit 1, saying so.
    let out = uci960(&[
        "book",
        "--start",
        &format!("book:{p}"),
        "--eval-window",
        "-150..150",
        "--count",
        "41",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("every line of book:"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A line without an evaluation among evaluated ones: exit 2, naming it.
    let gap = dir.join("gap.epd");
    let mut gap_text: Vec<&str> = text.lines().take(3).collect();
    gap_text.insert(
        1,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    );
    std::fs::write(&gap, gap_text.join("\n")).unwrap();
    let out = uci960(&[
        "book",
        "--start",
        &format!("book:{}", gap.display()),
        "--draw-window",
        "0.4..0.6",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("gap.epd:2: the line has no ce or dm opcode"),
        "{err}"
    );
}

#[test]
fn pgn_books_are_counted_and_packaged_like_their_epd_twins() {
    let dir = common::scratch_dir("book-pgn-twins");
    let flags = [
        "book", "--start", "dfrc", "--plies", "0-3", "--count", "30", "--seed", "5",
    ];
    let epd = dir.join("twin.epd");
    let pgn = dir.join("twin.pgn");
    ok(&[&flags[..], &["-o", epd.to_str().unwrap()]].concat());
    ok(&[
        &flags[..],
        &["--format", "pgn", "-o", pgn.to_str().unwrap()],
    ]
    .concat());
    let stats = |path: &Path| {
        String::from_utf8(ok(&["book", "--stats", path.to_str().unwrap()]).stdout).unwrap()
    };
    let (of_epd, of_pgn) = (stats(&epd), stats(&pgn));
    // The counts of positions, plies, duplicates and starts agree.
    for head in ["positions", "side to move", "ply ", "duplicates", "starts"] {
        let line = |text: &str| {
            text.lines()
                .find(|l| l.starts_with(head))
                .unwrap_or_else(|| panic!("no '{head}' in\n{text}"))
                .to_string()
        };
        assert_eq!(line(&of_epd), line(&of_pgn), "{of_pgn}");
    }
    assert!(of_pgn.contains("positions        30"), "{of_pgn}");
    assert!(
        of_pgn.contains("`uci960 book --stats FILE --engine PROGRAM` measures them"),
        "{of_pgn}"
    );
    // A game that does not read is named.
    let bad = dir.join("bad.pgn");
    std::fs::write(
        &bad,
        "[Variant \"fischerandom\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. Ke3 *\n",
    )
    .unwrap();
    let out = uci960(&["book", "--stats", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bad.pgn: game 1"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // --package takes EPD; a PGN book's positions pass through into the
    // same package, byte for byte, as the generated book's.
    let direct = dir.join("direct");
    let through = dir.join("through");
    ok(&[
        &flags[..],
        &[
            "--package",
            "fishtest",
            "twin_FRC",
            "-o",
            direct.to_str().unwrap(),
        ],
    ]
    .concat());
    ok(&[
        "book",
        "--start",
        &format!("book:{}", pgn.display()),
        "--package",
        "fishtest",
        "twin_FRC",
        "-o",
        through.to_str().unwrap(),
    ]);
    for file in ["twin_FRC.epd", "twin_FRC.epd.zip", "books.json"] {
        assert_eq!(
            std::fs::read(direct.join(file)).unwrap(),
            std::fs::read(through.join(file)).unwrap(),
            "{file}"
        );
    }
    let out = uci960(
        &[
            &flags[..],
            &[
                "--format",
                "pgn",
                "--package",
                "fishtest",
                "x_FRC",
                "-o",
                direct.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--start book:FILE.pgn"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_engine_measures_a_pgn_books_lines_where_its_epd_twin_ends() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let dir = common::scratch_dir("book-pgn-stats-engine");
    // Plies 0-3: most lines end away from their start position, so an
    // engine shown the start instead of the line's end measures otherwise.
    let flags = [
        "book", "--start", "dfrc", "--plies", "1-3", "--count", "6", "--seed", "5",
    ];
    let epd = dir.join("twin.epd");
    let pgn = dir.join("twin.pgn");
    ok(&[&flags[..], &["-o", epd.to_str().unwrap()]].concat());
    ok(&[
        &flags[..],
        &["--format", "pgn", "-o", pgn.to_str().unwrap()],
    ]
    .concat());
    let engine = format!("cmd={}", sf.display());
    let rates = |path: &Path| {
        let out = ok(&[
            "book",
            "--stats",
            path.to_str().unwrap(),
            "--engine",
            &engine,
            "--depth",
            "6",
        ]);
        let text = String::from_utf8(out.stdout).unwrap();
        let line = |head: &str| {
            text.lines()
                .find(|l| l.starts_with(head))
                .unwrap_or_else(|| panic!("no '{head}' in\n{text}"))
                .to_string()
        };
        (line("draw rate"), line("White win rate"))
    };
    let (of_epd, of_pgn) = (rates(&epd), rates(&pgn));
    assert_eq!(of_epd, of_pgn);
    // Six lines measured: the histogram's buckets add up to six.
    let buckets: u32 = of_pgn
        .0
        .split("; ")
        .nth(1)
        .unwrap()
        .split(", ")
        .map(|b| b.rsplit(": ").next().unwrap().parse::<u32>().unwrap())
        .sum();
    assert_eq!(buckets, 6, "{of_pgn:?}");
}
