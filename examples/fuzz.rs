//! In-process fuzzer of every parser of outside input (issue 12): seeded,
//! on the stable toolchain, no instrumentation. Each target gets inputs of
//! three kinds in turn: random bytes, sequences of protocol words (UCI
//! commands, FEN pieces, moves, numbers, line breaks), and mutations of a
//! corpus of valid inputs (bytes flipped, inserted, deleted, duplicated,
//! spliced). A panic is a finding: the input is printed (escaped) and saved
//! under `target/fuzz-findings/`, and the run exits 1.
//!
//! ```text
//! cargo run --release --example fuzz -- [--seed N] [--inputs N] [--target NAME]
//! ```
//!
//! `--inputs` is per target (default 10,000). Targets: `gui` and `engine`
//! (the proxy session fed GUI or engine lines, sans-IO, a session of up to
//! 30 lines per input), `uci` (the UCI parsers), `fen` (FENs and what
//! `show` accepts: SP numbers, back ranks), `replay` (`--rolls`/`--draws`),
//! `book` (book text), `config` (proxy and match TOML), `pgn` (the PGN
//! reader). See docs/RELIABILITY.md.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use uci960::proxy::session::{Out, Session};
use uci960::proxy::{GuiCastling, Settings};
use uci960::start::method::{MethodSpec, replay};
use uci960::start::method::procedure::split_tokens;

/// Words that make inputs reach deep into the parsers.
const WORDS: &[&str] = &[
    "uci", "isready", "ucinewgame", "position", "startpos", "fen", "moves", "go", "stop", "quit",
    "setoption", "name", "value", "UCI_Chess960", "true", "false", "uci960", "Start", "SP",
    "Seed", "Book", "EngineFEN", "GuiCastling", "searchmoves", "depth", "nodes", "movetime",
    "wtime", "btime", "winc", "binc", "movestogo", "infinite", "ponder", "perft", "mate",
    "info", "score", "cp", "lowerbound", "upperbound", "pv", "currmove", "refutation",
    "currline", "multipv", "seldepth", "hashfull", "nps", "string", "bestmove", "readyok",
    "uciok", "id", "author", "option", "type", "spin", "check", "combo", "var", "default", "min",
    "max", "button", "die", "bag-redraw", "bag-swap", "random", "dfrc", "sp", "book", "gui",
    "kxr", "standard", "auto", "xfen", "shredder", "e1g1", "e1h1", "e1a1", "e1c1", "e8g8",
    "e8h8", "g1h1", "b1a1", "f1g1", "c1b1", "e2e4", "e7e5", "g1f3", "a7a8q", "0000", "(none)",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR",
    "w", "b", "KQkq", "HAha", "HFhf", "-", "e3", "0", "1", "518", "959", "960", "-1",
    "99999999999999999999", "1e300", "NaN", "/", "8", "\r", "\n", "\t", " ", "\u{feff}", "#",
    ";", "=", "[", "]", "\"", "\u{ff}", "RNBQKBNR", "BBQNNRKR", "R", "N", "B", "Q", "K",
];

/// Valid inputs to mutate, per target.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let lines: &[&str] = match target {
        "gui" => &[
            "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 3\nstop",
            "setoption name UCI_Chess960 value true\nposition fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g1f3\ngo searchmoves e1h1 g2g3 wtime 1000 btime 1000",
            "setoption name uci960 Start value die\nsetoption name uci960 Seed value 7\nucinewgame\nposition startpos\ngo nodes 10",
            "setoption name uci960 SP value 0\nsetoption name uci960 Start value sp\nucinewgame\nposition startpos moves b1a1\ngo",
            "setoption name uci960 GuiCastling value standard\nposition fen rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1 moves e1g1",
        ],
        "engine" => &[
            "id name X\nid author Y\noption name UCI_Chess960 type check default false\noption name Hash type spin default 16 min 1 max 1024\nuciok\nreadyok",
            "info depth 3 seldepth 4 score cp 20 nodes 100 nps 1000 pv e1h1 e8h8 g1f3\nbestmove e1h1 ponder e8h8",
            "info currmove e1g1 currmovenumber 1\ninfo refutation e1h1 e8h8\ninfo currline 1 e1a1\nbestmove e1g1",
            "info string hello\ninfo score mate -3 lowerbound pv a2a3\nbestmove (none)",
        ],
        "uci" => &[
            "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g1f3 g8f6",
            "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 40 depth 5 nodes 100 mate 3 searchmoves e2e4",
            "option name uci960 Start type combo default gui var gui var die",
            "setoption name Skill Level value 5",
            "info depth 10 multipv 2 score cp -35 upperbound hashfull 10 pv e2e4 e7e5",
            "bestmove e1h1 ponder e8h8",
        ],
        "fen" => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 3 20",
            "518",
            "518/100",
            "RNBQKBNR",
            "RNBQKBNR/BBQNNRKR",
        ],
        "replay" => &["die 2,3,3,2,3", "die 6 6 1 1 1 1 1", "bag-redraw RNBQKBNR", "bag-swap BBRNNQKR"],
        "book" => &[
            "# a book\nbbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n",
            "\u{feff}bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 id \"x\";\r\n",
        ],
        "config" => &[
            "[engine]\nprogram = \"/usr/games/stockfish\"\nargs = [\"-x\"]\n[engine.options]\nHash = 64\n\"Skill Level\" = \"5\"\n[proxy]\nstart = \"sp:518,0\"\nseed = 7\nengine-fen = \"xfen\"\ngui-castling = \"kxr\"\nsilence-timeout = 2.5\n",
            "games = 5\nstart = \"die\"\ntimeout = 3\nst = 0.5\n[[engine]]\ncmd = \"a\"\nnodes = 10\n[engine.options]\nHash = 16\n[[engine]]\ncmd = \"b\"\n",
        ],
        "pgn" => &[
            "[Event \"uci960 match\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 {+0.10/3 0.1s} g6 2. O-O 1-0\n\n",
        ],
        _ => &[],
    };
    lines.iter().map(|l| l.as_bytes().to_vec()).collect()
}

struct Gen {
    rng: ChaCha8Rng,
}

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    fn random_bytes(&mut self) -> Vec<u8> {
        let n = self.below(200);
        (0..n).map(|_| self.rng.next_u32() as u8).collect()
    }

    fn words(&mut self) -> Vec<u8> {
        let n = 1 + self.below(40);
        let mut out = Vec::new();
        for i in 0..n {
            if i > 0 {
                out.push(match self.below(10) {
                    0 => b'\n',
                    1 => b'\t',
                    _ => b' ',
                });
            }
            out.extend_from_slice(WORDS[self.below(WORDS.len())].as_bytes());
        }
        out
    }

    fn mutate(&mut self, corpus: &[Vec<u8>]) -> Vec<u8> {
        let mut data = corpus[self.below(corpus.len())].clone();
        for _ in 0..1 + self.below(8) {
            let len = data.len();
            match self.below(7) {
                0 if len > 0 => {
                    let i = self.below(len);
                    data[i] ^= 1 << self.below(8);
                }
                1 => {
                    let i = self.below(len + 1);
                    data.insert(i, self.rng.next_u32() as u8);
                }
                2 if len > 0 => {
                    let i = self.below(len);
                    let n = self.below(len - i + 1);
                    data.drain(i..i + n);
                }
                3 if len > 0 => {
                    // Duplicate a slice (long lines, repeated tokens).
                    let i = self.below(len);
                    let n = self.below((len - i).min(64) + 1);
                    let piece = data[i..i + n].to_vec();
                    for _ in 0..1 + self.below(4) {
                        data.splice(i..i, piece.iter().copied());
                    }
                }
                4 => {
                    let i = self.below(len + 1);
                    let w = WORDS[self.below(WORDS.len())].as_bytes();
                    data.splice(i..i, w.iter().copied());
                }
                5 => {
                    let other = &corpus[self.below(corpus.len())];
                    let at = self.below(other.len() + 1);
                    let cut = self.below(data.len() + 1);
                    data.truncate(cut);
                    data.extend_from_slice(&other[at..]);
                }
                _ if len > 0 => {
                    // Replace a digit run with a hostile number.
                    let i = self.below(len);
                    let n = ["0", "-1", "4294967296", "99999999999999999999999", "1e309"]
                        [self.below(5)];
                    data.splice(i..i, n.bytes());
                }
                _ => {}
            }
        }
        data
    }

    fn input(&mut self, round: u64, corpus: &[Vec<u8>]) -> Vec<u8> {
        match round % 3 {
            0 => self.random_bytes(),
            1 => self.words(),
            _ if corpus.is_empty() => self.words(),
            _ => self.mutate(corpus),
        }
    }
}

/// The proxy session, one line at a time from `side`, every output line
/// checked to be one line.
fn session(data: &[u8], gui_side: bool) {
    let mut settings = Settings {
        gui_castling: GuiCastling::Auto,
        seed: Some(1),
        ..Settings::default()
    };
    if data.first().is_some_and(|b| b % 2 == 0) {
        settings.start = Some(MethodSpec::Fixed(vec![0, 518, 959]));
    }
    let mut s = Session::new(&settings, 1, "fuzz engine");
    let mut out = Vec::new();
    // A handshake first, so that both sides are in their working state.
    s.from_gui(b"uci", &mut out);
    s.from_engine(b"option name UCI_Chess960 type check default false", &mut out);
    s.from_engine(b"uciok", &mut out);
    for line in data.split(|&b| b == b'\n').take(30) {
        out.clear();
        if gui_side {
            s.from_gui(line, &mut out);
        } else {
            s.from_engine(line, &mut out);
        }
        for o in &out {
            if let Out::Gui(l) | Out::Engine(l) = o {
                assert!(
                    !l.contains(&b'\n'),
                    "a session output line holds a newline: {:?}",
                    String::from_utf8_lossy(l)
                );
            }
        }
    }
}

fn uci(data: &[u8]) {
    let _ = uci960::uci::parse_engine_line(data);
    let text = String::from_utf8_lossy(data);
    let _ = uci960::uci::PositionCommand::parse(&text);
    let _ = uci960::uci::GoParams::parse_reporting(&text);
    if let Some(d) = uci960::uci::OptionDecl::parse(&text) {
        let _ = d.to_string();
    }
    if let Some(s) = uci960::uci::SetOption::parse(&text) {
        let _ = s.to_string();
    }
}

fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = uci960::notation::fen::parse_position(&text) {
        for flavour in [
            uci960::notation::fen::FenFlavour::XFen,
            uci960::notation::fen::FenFlavour::Shredder,
        ] {
            let written = uci960::notation::fen::position_fen(&pos, flavour);
            let again = uci960::notation::fen::parse_position(&written)
                .unwrap_or_else(|e| panic!("a written FEN does not read back: {written}: {e}"));
            assert_eq!(
                uci960::notation::fen::position_fen(&again, flavour),
                written
            );
        }
        let _ = uci960::start::StartPosition::from_chess(&pos);
    }
    let _ = text.parse::<uci960::start::StartPosition>();
}

fn replay_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (method, rest) = text.split_once(' ').unwrap_or((&text, ""));
    let Ok(spec) = method.parse::<MethodSpec>() else {
        return;
    };
    if matches!(spec, MethodSpec::Book { .. }) {
        return; // files are the book target's
    }
    for what in ["rolls", "draws"] {
        let _ = replay(&spec, &split_tokens(rest), what);
    }
}

fn book(data: &[u8]) {
    let _ = uci960::start::method::book::read(data, Path::new("fuzz.epd"));
}

fn config(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(c) = uci960::proxy::config::ProxyConfig::parse(&text)
        && let Ok(s) = c.settings()
    {
        // What load accepted never carries a line break into UCI.
        s.check_one_line()
            .expect("settings from a config hold a line break");
    }
    let _ = toml::from_str::<uci960::cli::match_cmd::MatchConfig>(&text);
}

fn pgn(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = uci960::game::pgn::read_games(&text);
}

const TARGETS: [&str; 8] = ["gui", "engine", "uci", "fen", "replay", "book", "config", "pgn"];

fn run_target(name: &str, data: &[u8]) {
    match name {
        "gui" => session(data, true),
        "engine" => session(data, false),
        "uci" => uci(data),
        "fen" => fen(data),
        "replay" => replay_input(data),
        "book" => book(data),
        "config" => config(data),
        "pgn" => pgn(data),
        _ => unreachable!("target names come from TARGETS"),
    }
}

fn arg(args: &[String], flag: &str) -> Option<String> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = arg(&args, "--seed").and_then(|s| s.parse().ok()).unwrap_or(1);
    let inputs: u64 = arg(&args, "--inputs")
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let only = arg(&args, "--target");
    // Findings are reported by this program, not by the default hook.
    std::panic::set_hook(Box::new(|_| {}));
    let mut findings = 0;
    let mut total = 0;
    for (index, name) in TARGETS.iter().enumerate() {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let corpus = corpus(name);
        let mut generator = Gen {
            rng: ChaCha8Rng::seed_from_u64(seed ^ ((index as u64) << 56)),
        };
        let started = Instant::now();
        for round in 0..inputs {
            let data = generator.input(round, &corpus);
            let result = std::panic::catch_unwind(|| run_target(name, &data));
            if let Err(panic) = result {
                findings += 1;
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let dir = Path::new("target/fuzz-findings");
                let _ = std::fs::create_dir_all(dir);
                let file = dir.join(format!("{name}-{seed}-{round}"));
                let _ = std::fs::write(&file, &data);
                println!(
                    "FINDING {name} input {round}: {why}\n  input {:?}\n  saved {}",
                    String::from_utf8_lossy(&data),
                    file.display()
                );
            }
        }
        total += inputs;
        println!(
            "{name:<7} {inputs} inputs in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        let _ = std::io::stdout().flush();
    }
    println!("fuzz: {total} inputs, {findings} findings (seed {seed})");
    if findings > 0 {
        std::process::exit(1);
    }
}
