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
//! `--inputs` is per target (default 10,000); `--round N` runs only the
//! N-th input (with `--target`, to look at one input of a report again). Targets: `gui` and `engine`
//! (the proxy session fed GUI or engine lines, sans-IO, a session of up to
//! 30 lines per input), `uci` (the UCI parsers), `fen` (FENs and what
//! `show` accepts: SP numbers, back ranks), `replay` (`--rolls`/`--draws`),
//! `book` (book text: `--start book:`, `uci960 Book`, `--openings
//! format=epd`), `config` (proxy and match TOML), `pgn` (the PGN writer and
//! reader of `uci960::game::pgn`: tag values round trip), `openings` (PGN
//! opening books, `--openings format=pgn`), `flags` (`match --engine`,
//! `--draw`, `--resign`, `--sprt`, `--openings` tokens). See
//! docs/RELIABILITY.md.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use uci960::openings::{MethodSpec, Replayed, replay};
use uci960::proxy::session::{Out, Session};
use uci960::proxy::{GuiCastling, Settings};
use uci960::start::method::procedure::split_tokens;

#[path = "fuzz_input/mod.rs"]
mod fuzz_input;
use fuzz_input::{Gen, corpus};

/// The proxy session, one line at a time from `side`, every output line
/// checked to be one line.
fn session(data: &[u8], gui_side: bool) -> bool {
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
    true
}

fn uci(data: &[u8]) -> bool {
    let _ = uci960::uci::parse_engine_line(data);
    let text = String::from_utf8_lossy(data);
    let accepted = uci960::uci::PositionCommand::parse(&text).is_ok();
    let _ = uci960::uci::GoParams::parse_reporting(&text);
    if let Some(d) = uci960::uci::OptionDecl::parse(&text) {
        let _ = d.to_string();
    }
    if let Some(s) = uci960::uci::SetOption::parse(&text) {
        let _ = s.to_string();
    }
    // `uci960 book --moves engine`: the engine's MultiPV lines.
    let mut pvs = uci960::openings::multipv::MultiPvCollector::new();
    for line in data.split(|&b| b == b'\n') {
        pvs.feed_line(line);
    }
    let _ = uci960::openings::multipv::within_margin(&pvs, 30);
    accepted
}

fn fen(data: &[u8]) -> bool {
    let text = String::from_utf8_lossy(data);
    let parsed = uci960::notation::fen::parse_position(&text);
    let accepted = parsed.is_ok();
    if let Ok(pos) = parsed {
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
    accepted | text.parse::<uci960::start::StartPosition>().is_ok()
}

fn replay_input(data: &[u8]) -> bool {
    let text = String::from_utf8_lossy(data);
    let (method, rest) = text.split_once(' ').unwrap_or((&text, ""));
    let Ok(spec) = method.parse::<MethodSpec>() else {
        return false;
    };
    if matches!(spec, MethodSpec::Book { .. }) {
        return false; // files are the book target's
    }
    let mut accepted = false;
    for what in [Replayed::DieRolls, Replayed::BagDraws] {
        accepted |= replay(&spec, &split_tokens(rest), what).is_ok();
    }
    accepted
}

fn book(data: &[u8]) -> bool {
    uci960::openings::epd::read(data, Path::new("fuzz.epd")).is_ok()
}

fn config(data: &[u8]) -> bool {
    let text = String::from_utf8_lossy(data);
    let mut accepted = false;
    if let Ok(c) = uci960::proxy::config::ProxyConfig::parse(&text)
        && let Ok(s) = c.settings()
    {
        accepted = true;
        // What load accepted never carries a line break into UCI.
        s.check_one_line()
            .expect("settings from a config hold a line break");
    }
    if let Ok(c) = toml::from_str::<uci960::tournament::config::TournamentConfig>(&text)
        && let Ok(s) = c.validate()
    {
        accepted = true;
        assert_no_line_breaks(&s, "a match config");
    }
    accepted
}

/// Every engine name, option name and value a validated match carries is
/// one UCI line's worth: no `\r` or `\n` got through.
fn assert_no_line_breaks(settings: &uci960::tournament::config::TournamentSettings, source: &str) {
    for e in &settings.engines {
        let mut values = vec![&e.name];
        values.extend(e.options.iter().flat_map(|(n, v)| [n, v]));
        for v in values {
            assert!(
                !v.contains(['\r', '\n']),
                "{source} let a line break through: {v:?}"
            );
        }
    }
}

/// The PGN reader and writer of `uci960::game::pgn`: any text read; any
/// text as a tag value (an engine's name) and as the final comment is
/// written, then read back by this reader (the same value, control
/// characters as spaces) and by pgn-reader (one game).
fn pgn(data: &[u8]) -> bool {
    use uci960::game::pgn::{PgnGame, read_games, write_game};
    let text = String::from_utf8_lossy(data);
    let accepted = read_games(&text).is_ok_and(|g| !g.is_empty());
    let start = shakmaty::Chess::default();
    let written = write_game(&PgnGame {
        tags: vec![("White".into(), text.to_string())],
        initial: &start,
        moves: &[],
        book_plies: 0,
        infos: &[],
        result: "*",
        final_comment: Some(&text),
    });
    let back = read_games(&written)
        .unwrap_or_else(|e| panic!("a written game does not read back: {e}\n{written}"));
    let expected: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    assert_eq!(back.len(), 1, "{written}");
    assert_eq!(back[0].tag("White"), Some(expected.as_str()), "{written}");
    let openings = uci960::openings::book::read_pgn_openings(
        written.as_bytes(),
        Path::new("written.pgn"),
        None,
    )
    .unwrap_or_else(|e| panic!("pgn-reader cannot read a written game: {e}\n{written}"));
    assert_eq!(openings.len(), 1, "{written}");
    accepted
}

/// The pgn-reader based reader of PGN opening books (`match --openings
/// format=pgn`): what it accepts is legal from its start, at most `plies`
/// long, and not over; the stream of openings drawn from it works.
fn openings(data: &[u8]) -> bool {
    use shakmaty::Position;
    use uci960::openings::book::read_pgn_openings;
    use uci960::openings::{BookOrder, OpeningSource};
    let plies = data.first().map(|b| u32::from(b % 8)).filter(|&p| p < 6);
    let Ok(lines) = read_pgn_openings(data, Path::new("fuzz.pgn"), plies) else {
        return false;
    };
    for line in &lines {
        assert!(plies.is_none_or(|p| line.moves.len() <= p as usize));
        let mut pos = line.initial.clone();
        for &m in &line.moves {
            assert!(pos.is_legal(m), "an illegal move accepted: {m:?}");
            pos.play_unchecked(m);
        }
        assert!(
            !pos.is_game_over(),
            "a finished game accepted as an opening"
        );
    }
    let mut source = OpeningSource::from_lines(lines, BookOrder::Random, 1, 2);
    for _ in 0..3 {
        let _ = source.next_opening();
    }
    true
}

/// Flags of `match` that take `key=value` tokens: `--engine`, `--draw`,
/// `--resign`, `--sprt`, `--openings`. Tokens are split at spaces only, so
/// a token may hold a tab, `\r` or `\n` as a command-line argument can;
/// an engine the match accepts holds no line break in its name or options.
fn flags(data: &[u8]) -> bool {
    use uci960::tournament::config::{
        TournamentConfig, parse_draw, parse_openings, parse_resign, parse_sprt,
    };
    let text = String::from_utf8_lossy(data);
    let tokens: Vec<String> = text.split(' ').map(String::from).collect();
    let mut accepted = parse_draw(&tokens).is_ok()
        | parse_resign(&tokens).is_ok()
        | parse_sprt(&tokens).is_ok()
        | parse_openings(&tokens).is_ok();
    if let Ok(engine) = uci960::engines::EngineKeys::parse_tokens(&tokens) {
        let _ = engine.command();
        let config = TournamentConfig {
            engine: vec![engine.clone(), engine],
            ..TournamentConfig::default()
        };
        if let Ok(s) = config.validate() {
            accepted = true;
            assert_no_line_breaks(&s, "--engine");
        }
    }
    accepted
}

const TARGETS: [&str; 10] = [
    "gui", "engine", "uci", "fen", "replay", "book", "config", "pgn", "openings", "flags",
];

/// Runs one input; true when the target's parser accepted it.
fn run_target(name: &str, data: &[u8]) -> bool {
    match name {
        "gui" => session(data, true),
        "engine" => session(data, false),
        "uci" => uci(data),
        "fen" => fen(data),
        "replay" => replay_input(data),
        "book" => book(data),
        "config" => config(data),
        "pgn" => pgn(data),
        "openings" => openings(data),
        "flags" => flags(data),
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
    // `--round N`: run only input N (the ones before it are generated, not
    // run), to look at one input of a report again.
    let single: Option<u64> = arg(&args, "--round").and_then(|s| s.parse().ok());
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
        // Inputs the parser accepted (how deep the inputs reach) and the
        // slowest input (superlinear time shows there).
        let mut accepted = 0u64;
        let mut slowest = (0.0f64, 0u64);
        for round in 0..inputs {
            let data = generator.input(round, &corpus);
            if single.is_some_and(|r| r != round) {
                continue;
            }
            let one = Instant::now();
            let result = std::panic::catch_unwind(|| run_target(name, &data));
            let took = one.elapsed().as_secs_f64();
            if took > slowest.0 {
                slowest = (took, round);
            }
            match result {
                Ok(true) => accepted += 1,
                Ok(false) => {}
                Err(panic) => {
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
        }
        let ran = if single.is_some() { 1 } else { inputs };
        total += ran;
        println!(
            "{name:<8} {ran} inputs ({accepted} accepted) in {:.1} s, slowest {:.1} ms (input {})",
            started.elapsed().as_secs_f64(),
            slowest.0 * 1000.0,
            slowest.1
        );
        let _ = std::io::stdout().flush();
    }
    println!("fuzz: {total} inputs, {findings} findings (seed {seed})");
    if findings > 0 {
        std::process::exit(1);
    }
}
