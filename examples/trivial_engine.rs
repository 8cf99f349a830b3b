//! A trivial UCI engine for `scripts/bench-proxy.sh`: answers `uciok` and
//! `readyok` at once; on `go` writes N `info … pv …` lines (argument 1,
//! default 0) and `bestmove`. It makes the cost of whatever sits between a
//! client and an engine visible.

use std::io::{self, BufRead, BufWriter, Write};

fn main() {
    let flood: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let pv = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6".into());
    let stdin = io::stdin();
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut line = String::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let word = line.split_whitespace().next().unwrap_or("");
        let _ = match word {
            "uci" => out.write_all(
                b"id name Trivial\nid author uci960\noption name UCI_Chess960 type check default false\nuciok\n",
            ),
            "isready" => out.write_all(b"readyok\n"),
            "go" => {
                for i in 0..flood {
                    let _ = writeln!(
                        out,
                        "info depth {} seldepth 30 multipv 1 score cp 25 nodes {} nps 1000000 time 123 pv {pv}",
                        i % 64,
                        i * 100
                    );
                }
                let first = pv.split_whitespace().next().unwrap_or("e2e4");
                writeln!(out, "bestmove {first}")
            }
            "quit" => break,
            _ => Ok(()),
        };
        let _ = out.flush();
    }
}
