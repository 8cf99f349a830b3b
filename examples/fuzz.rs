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

use uci960::proxy::session::{Out, Session};
use uci960::proxy::{GuiCastling, Settings};
use uci960::start::method::procedure::split_tokens;
use uci960::start::method::{MethodSpec, replay};

#[path = "fuzz_input/mod.rs"]
mod fuzz_input;
use fuzz_input::{Gen, corpus};

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
    s.from_engine(
        b"option name UCI_Chess960 type check default false",
        &mut out,
    );
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
    let _ = toml::from_str::<uci960::tournament::config::TournamentConfig>(&text);
}

fn pgn(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = uci960::game::pgn::read_games(&text);
}

const TARGETS: [&str; 8] = [
    "gui", "engine", "uci", "fen", "replay", "book", "config", "pgn",
];

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
    let seed: u64 = arg(&args, "--seed")
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
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
        let mut generator = Gen::new(seed ^ ((index as u64) << 56));
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
