//! Times the proxy's sans-IO session on engine `info` lines, no processes
//! or pipes: N lines like `examples/trivial_engine.rs` writes, split at
//! `\n` and written to an output buffer the way the proxy's I/O loop does.
//!
//! Baseline (measured in the same run): splitting the same lines with
//! `memchr` and copying each to the output buffer, which is all `cat` does
//! per line. Cases:
//! * forwarding: a standard position, the session forwards every line;
//! * translating: a Chess960 position sent without `UCI_Chess960`, so each
//!   line's two KxR castles are rewritten (the PV repeats, as engines'
//!   PVs do over many lines: the PV cache hits);
//! * translating, the moves after the last castle change every line (the
//!   line-tail cache misses, the move-sequence cache hits: every line is
//!   scanned);
//! * translating, a new PV every line (no cache hits: every line is
//!   replayed move by move).
//!
//! Run: `cargo run --release --example proxy_session_bench [N] [ROUNDS]`
//! (defaults 200000 and 5; the median round is reported). A third argument
//! `profile` (`profile-tail`, `profile-new`) runs only the repeating-PV
//! (changing-tail, new-PV) translation, ROUNDS times, for `perf record`.

use std::hint::black_box;
use std::time::Instant;

use uci960::proxy::{Out, Session, Settings};

const FEN960: &str = "position fen 1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w KQkq - 0 1";
const PV960: &str = "d2d4 d7d5 e1h1 e8b8 c2c4 c7c6";
const PV_STD: &str = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6";
/// Second moves for the changing-PV case (all legal after d2d4, none a
/// castle, so each line has a different cache key).
const VARY: [&str; 4] = ["d7d5", "d7d6", "b7b6", "e7e6"];
/// Last moves for the changing-tail case (legal after the PV's first five).
const LAST: [&str; 4] = ["c7c6", "a7a6", "h7h6", "b7b6"];

fn lines(n: usize, pv: impl Fn(usize) -> String) -> Vec<u8> {
    let mut buf = Vec::new();
    for i in 0..n {
        buf.extend_from_slice(
            format!(
                "info depth {} seldepth 30 multipv 1 score cp 25 nodes {} nps 1000000 time 123 pv {}\n",
                i % 64,
                i * 100,
                pv(i)
            )
            .as_bytes(),
        );
    }
    buf
}

fn each_line(input: &[u8], mut f: impl FnMut(&[u8])) {
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'\n', &input[at..]) {
        f(&input[at..at + i]);
        at += i + 1;
    }
}

/// What `cat` does per line, in process: find the line, copy it out.
fn baseline(input: &[u8], sink: &mut Vec<u8>) -> f64 {
    sink.clear();
    let t = Instant::now();
    each_line(input, |line| {
        sink.extend_from_slice(line);
        sink.push(b'\n');
    });
    black_box(&sink);
    t.elapsed().as_secs_f64()
}

fn session(position: &str) -> Session {
    let mut s = Session::new(&Settings::default(), 1, "bench");
    let mut out = Vec::new();
    for l in [
        "id name Bench",
        "option name UCI_Chess960 type check default false",
        "uciok",
    ] {
        s.from_engine(l.as_bytes(), &mut out);
    }
    s.from_gui(position.as_bytes(), &mut out);
    s.from_gui(b"go infinite", &mut out);
    s
}

/// The session on every line, its actions carried out as `proxy::run`
/// does (lines for the GUI copied to the output buffer).
fn through_session(position: &str, input: &[u8], sink: &mut Vec<u8>) -> (f64, usize) {
    let mut s = session(position);
    let mut out = Vec::new();
    let mut rewritten = 0;
    sink.clear();
    let t = Instant::now();
    each_line(input, |line| {
        s.from_engine(line, &mut out);
        for o in out.drain(..) {
            match o {
                Out::Forward => sink.extend_from_slice(line),
                Out::Gui(l) => {
                    sink.extend_from_slice(&l);
                    rewritten += 1;
                    s.recycle(l);
                }
                _ => {}
            }
            sink.push(b'\n');
        }
    });
    black_box(&sink);
    (t.elapsed().as_secs_f64(), rewritten)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let std_lines = lines(n, |_| PV_STD.to_string());
    let c960 = lines(n, |_| PV960.to_string());
    let varying = lines(n, |i| {
        format!("d2d4 {} e1h1 e8b8 c2c4 a7a6", VARY[i % VARY.len()])
    });
    let new_tail = lines(n, |i| {
        format!("d2d4 d7d5 e1h1 e8b8 c2c4 {}", LAST[i % LAST.len()])
    });
    let mut sink = Vec::with_capacity(c960.len() * 2);
    if let Some(case) = args.next() {
        let input = match case.as_str() {
            "profile-tail" => &new_tail,
            "profile-new" => &varying,
            _ => &c960,
        };
        for _ in 0..rounds {
            through_session(FEN960, input, &mut sink);
        }
        return;
    }
    let (mut base, mut fwd, mut tr, mut trt, mut trv) = (vec![], vec![], vec![], vec![], vec![]);
    let mut rewritten = (0, 0, 0);
    for _ in 0..rounds {
        // Interleaved, so that load from other jobs hits all cases alike.
        base.push(baseline(&c960, &mut sink));
        fwd.push(through_session("position startpos", &std_lines, &mut sink).0);
        let (t, r) = through_session(FEN960, &c960, &mut sink);
        tr.push(t);
        let check = String::from_utf8_lossy(&sink[..sink.len().min(400)]).into_owned();
        assert!(
            check.contains("pv d2d4 d7d5 e1g1 e8c8"),
            "not translated: {check}"
        );
        let (tt, rt) = through_session(FEN960, &new_tail, &mut sink);
        trt.push(tt);
        let (tv, rv) = through_session(FEN960, &varying, &mut sink);
        trv.push(tv);
        rewritten = (r, rt, rv);
    }
    assert_eq!(rewritten, (n, n, n), "every line is rewritten");
    let ns = |secs: f64| secs * 1e9 / n as f64;
    let base = median(base);
    println!("{n} lines, median of {rounds} rounds");
    println!("| case | ns/line | ratio (baseline time / case time) |");
    println!("|---|---|---|");
    println!("| baseline: split + copy | {:.0} | 1.00 |", ns(base));
    for (name, t) in [
        ("session, forwarding", median(fwd)),
        ("session, translating (PV repeats)", median(tr)),
        (
            "session, translating (moves after the castles change)",
            median(trt),
        ),
        ("session, translating (new PV every line)", median(trv)),
    ] {
        println!("| {name} | {:.0} | {:.3} |", ns(t), base / t);
    }
}
