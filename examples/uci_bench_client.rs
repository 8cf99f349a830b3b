//! The project's example UCI client (a GUI's side of the protocol): the
//! client side of `scripts/bench-proxy.sh`, and a Windows GUI's way of
//! playing a game for `tests/it/windows.rs`.
//!
//! `uci_bench_client rtt N [--wait-uciok-only] -- CMD ARGS…`: `uci`/`uciok`,
//! then N `isready`/`readyok` round trips; prints `median_us p99_us`.
//!
//! `uci_bench_client flood [--position LINE] -- CMD ARGS…`: `uci`/`uciok`,
//! optional `position` line, `go`, reads until `bestmove`; prints
//! `lines seconds lines_per_second`.
//!
//! `uci_bench_client gui [--fen X-FEN] [--depth N] [--seed S] -- PROGRAM`:
//! see [`gui`].

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.iter().position(|a| a == "--").expect("-- CMD");
    let (opts, cmd) = (&args[..split], &args[split + 1..]);
    let mode = opts[0].as_str();
    if mode == "gui" {
        std::process::exit(gui::run(&opts[1..], &cmd[0]));
    }
    let mut child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::with_capacity(1 << 16, child.stdout.take().unwrap());
    let mut line = Vec::new();
    let mut read_until = |prefix: &[u8], out: &mut BufReader<_>| -> u64 {
        let mut n = 0;
        loop {
            line.clear();
            if out.read_until(b'\n', &mut line).unwrap() == 0 {
                panic!("EOF before {}", String::from_utf8_lossy(prefix));
            }
            n += 1;
            if line.starts_with(prefix) {
                return n;
            }
        }
    };
    stdin.write_all(b"uci\n").unwrap();
    read_until(b"uciok", &mut out);
    match mode {
        "rtt" => {
            let n: usize = opts[1].parse().unwrap();
            // Warm up.
            for _ in 0..1000 {
                stdin.write_all(b"isready\n").unwrap();
                read_until(b"readyok", &mut out);
            }
            let mut times = Vec::with_capacity(n);
            for _ in 0..n {
                let t = Instant::now();
                stdin.write_all(b"isready\n").unwrap();
                read_until(b"readyok", &mut out);
                times.push(t.elapsed().as_nanos() as u64);
            }
            times.sort_unstable();
            let q = |p: f64| {
                times[((times.len() as f64 * p) as usize).min(times.len() - 1)] as f64 / 1000.0
            };
            println!("{:.1} {:.1}", q(0.5), q(0.99));
        }
        "flood" => {
            if opts.len() > 2 && opts[1] == "--position" {
                stdin.write_all(opts[2].as_bytes()).unwrap();
                stdin.write_all(b"\n").unwrap();
            }
            stdin.write_all(b"isready\n").unwrap();
            read_until(b"readyok", &mut out);
            let t = Instant::now();
            stdin.write_all(b"go infinite\n").unwrap();
            let lines = read_until(b"bestmove", &mut out);
            let secs = t.elapsed().as_secs_f64();
            println!("{lines} {secs:.3} {:.0}", lines as f64 / secs);
        }
        other => panic!("unknown mode {other}"),
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = child.wait();
}

/// A Windows GUI's way of adding and playing an engine, as Arena-style
/// GUIs do: the program is started with no arguments in its own folder
/// (so `sf960.exe` finds `sf960.toml`), every line ends in CRLF, the game
/// is sent as `position fen <X-FEN with KQkq> moves …` after each move
/// (castles in the moves list, king takes rook, no `UCI_Chess960`: the
/// proxy must see Chess960 in the FEN), `go depth N` for the engine's
/// moves; the GUI's own moves are drawn from the legal ones (a castle
/// whenever one is legal). Every answer is checked: the handshake (`id
/// name … (uci960)`, `uciok`), `readyok`, each `bestmove` legal and its
/// castles king-takes-rook (judged strictly by the crate's arbiter), no
/// `info string uci960:` complaint. Prints `gui: proxy pid N`, then `gui:
/// game over …` at the end of the game (by the rules), then waits to be
/// killed, holding the engine: the test kills it and checks that nothing
/// is left. Exit 1 with `gui: FAIL …` on any wrong answer.
mod gui {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::path::Path;
    use std::process::{Command, Stdio};

    use shakmaty::{Color, Position};
    use uci960::game::arbiter::{CastlingPolicy, Game};
    use uci960::notation::castling::{CastlingNotation, write_move};
    use uci960::notation::fen::parse_position;

    /// King f1 beside rook g1: White can castle at once (`f1g1`), Black
    /// likewise (`f8g8`), as in the manual run.
    const START: &str = "rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKRN w KQkq - 0 1";

    pub fn run(opts: &[String], program: &str) -> i32 {
        match play(opts, program) {
            Ok(held) => {
                // The GUI keeps its engine, as between games, until it is
                // killed (or its own stdin closes).
                let _ = std::io::stdin().read_to_end(&mut Vec::new());
                drop(held);
                0
            }
            Err(e) => {
                println!("gui: FAIL {e}");
                1
            }
        }
    }

    fn opt<'a>(opts: &'a [String], name: &str) -> Option<&'a str> {
        let i = opts.iter().position(|o| o == name)?;
        opts.get(i + 1).map(String::as_str)
    }

    /// What the GUI holds after the game: the engine and its pipes.
    type Held = (std::process::Child, std::process::ChildStdin);

    fn play(opts: &[String], program: &str) -> Result<Held, String> {
        let fen = opt(opts, "--fen").unwrap_or(START);
        let depth = opt(opts, "--depth").unwrap_or("3");
        let mut seed: u64 = opt(opts, "--seed")
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        let program = Path::new(program);
        let folder = program.parent().filter(|p| !p.as_os_str().is_empty());
        let mut cmd = Command::new(program);
        if let Some(dir) = folder {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        println!("gui: proxy pid {}", child.id());
        let mut stdin = child.stdin.take().ok_or("no stdin")?;
        let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
        let mut send = |line: &str| {
            stdin
                .write_all(format!("{line}\r\n").as_bytes())
                .map_err(|e| format!("writing '{line}': {e}"))
        };
        // Reads until a line starting with `want`; every line is checked.
        let mut until = |want: &str| -> Result<Vec<String>, String> {
            let mut seen = Vec::new();
            loop {
                let line = match lines.next() {
                    Some(Ok(l)) => l.trim_end_matches('\r').to_string(),
                    _ => return Err(format!("end of output before '{want}' after {seen:?}")),
                };
                if line.starts_with("info string uci960:") {
                    return Err(format!("the proxy complained: {line}"));
                }
                let done = line.starts_with(want);
                seen.push(line);
                if done {
                    return Ok(seen);
                }
            }
        };

        send("uci")?;
        let hello = until("uciok")?;
        if !hello
            .iter()
            .any(|l| l.starts_with("id name ") && l.ends_with(" (uci960)"))
        {
            return Err(format!("no 'id name … (uci960)' in {hello:?}"));
        }
        send("ucinewgame")?;
        send("isready")?;
        until("readyok")?;

        let start = parse_position(fen).map_err(|e| format!("{fen}: {e}"))?;
        let mut game = Game::new(start, CastlingPolicy::Strict);
        let mut moves: Vec<String> = Vec::new();
        let (mut gui_castles, mut engine_castles) = (0, 0);
        let outcome = loop {
            if let Some(o) = game.rules_end() {
                break o;
            }
            let pos = game.position().clone();
            if pos.turn() == Color::White {
                // The GUI's move: a castle when legal, else a drawn one.
                let legal = game.legal_moves().clone();
                let mv = match legal.iter().find(|m| m.is_castle()) {
                    Some(m) => *m,
                    None => {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        legal[(seed % legal.len() as u64) as usize]
                    }
                };
                gui_castles += usize::from(mv.is_castle());
                let text = write_move(&pos, mv, CastlingNotation::KingTakesRook)
                    .map_err(|e| format!("{mv:?}: {e}"))?;
                moves.push(text);
                game.play(mv);
            } else {
                let line = if moves.is_empty() {
                    format!("position fen {fen}")
                } else {
                    format!("position fen {fen} moves {}", moves.join(" "))
                };
                send(&line)?;
                send(&format!("go depth {depth}"))?;
                let answer = until("bestmove")?;
                let best = answer.last().map(String::as_str).unwrap_or_default();
                let text = best.split_whitespace().nth(1).unwrap_or_default();
                let accepted = game
                    .play_engine_move(text)
                    .map_err(|r| format!("'{best}' after {line}: {}", r.reason))?;
                engine_castles += usize::from(accepted.mv.is_castle());
                moves.push(text.to_string());
            }
        };
        println!(
            "gui: game over: {} after {} plies; castles: gui {gui_castles}, engine {engine_castles}",
            outcome.detail,
            moves.len()
        );
        let _ = std::io::stdout().flush();
        Ok((child, stdin))
    }
}
