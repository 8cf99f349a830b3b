//! Benchmarks of the built-in engine, each against a baseline measured in
//! the same run (these machines are shared and noisy):
//!
//! * search speed in nodes per second (fixed depth on a few positions);
//! * perft speed relative to `shakmaty::perft` on the same positions, once
//!   in-process (the divide code) and once end to end over UCI (`go perft`
//!   through a child `uci960 engine`, process and pipes included).
//!
//! Run: `cargo bench --bench engine` (or scripts/bench-engine.sh).
//! Criterion times the kernels; the summary lines at the end are the
//! numbers to quote.

use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use shakmaty::{CastlingMode, Chess};
use uci960::builtin_engine::perft;
use uci960::builtin_engine::search::{SearchLimits, Searcher};
use uci960::notation::fen::{FenFlavour, parse_position, position_fen};

const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
];

fn positions() -> Vec<Chess> {
    POSITIONS
        .iter()
        .map(|f| parse_position(f).expect("bench FEN"))
        .collect()
}

/// Total nodes and time of a fixed-depth search over all positions.
fn search_all(positions: &[Chess], depth: u32) -> (u64, Duration) {
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    for pos in positions {
        let mut searcher = Searcher::new(16);
        nodes += searcher.search(pos, &[], &limits, &stop, &mut |_| {}).nodes;
    }
    (nodes, start.elapsed())
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// Best of `rounds` alternating runs of a and b: (a time, b time).
fn best_of(
    rounds: usize,
    mut a: impl FnMut() -> Duration,
    mut b: impl FnMut() -> Duration,
) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        ta = ta.min(a());
        tb = tb.min(b());
    }
    (ta, tb)
}

/// `go perft depth` over UCI for every position; the time from sending to
/// the total line, summed.
fn uci_perft(positions: &[Chess], depth: u32) -> Duration {
    let mut child = Command::new(env!("CARGO_BIN_EXE_uci960"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start uci960 engine");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut total = Duration::ZERO;
    for pos in positions {
        writeln!(
            stdin,
            "position fen {}",
            position_fen(pos, FenFlavour::Shredder)
        )
        .expect("write");
        let start = Instant::now();
        writeln!(stdin, "go perft {depth}").expect("write");
        stdin.flush().expect("flush");
        for line in lines.by_ref() {
            if line.expect("read").starts_with("Nodes searched") {
                break;
            }
        }
        total += start.elapsed();
    }
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
    total
}

/// The built-in engine's `go perft` answer computed in-process: the divide
/// and its text, as many lines as it writes.
fn engine_divide(pos: &Chess, depth: u32) -> u64 {
    perft::divide(pos, depth, CastlingMode::Chess960, &AtomicBool::new(false))
        .map_or(0, |lines| lines.len() as u64)
}

fn main() {
    let positions = positions();
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(10);

    let perft_nodes: u64 = positions.iter().map(|p| shakmaty::perft(p, 4)).sum();
    let mut group = c.benchmark_group("perft4");
    group.throughput(Throughput::Elements(perft_nodes));
    group.bench_function("shakmaty", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| shakmaty::perft(black_box(p), 4))
                .sum::<u64>()
        })
    });
    group.bench_function("engine", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| engine_divide(black_box(p), 4))
                .sum::<u64>()
        })
    });
    group.finish();

    let (search_nodes, _) = search_all(&positions, 5);
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(search_nodes));
    group.bench_function("depth5", |b| {
        b.iter(|| search_all(black_box(&positions), 5))
    });
    group.finish();
    c.final_summary();

    // The numbers to quote, measured side by side in this run.
    let (shak, engine) = best_of(
        5,
        || time(|| positions.iter().map(|p| shakmaty::perft(p, 5)).sum::<u64>()).1,
        || time(|| positions.iter().map(|p| engine_divide(p, 5)).sum::<u64>()).1,
    );
    let nodes5: u64 = positions.iter().map(|p| shakmaty::perft(p, 5)).sum();
    let (shak2, uci) = best_of(
        3,
        || time(|| positions.iter().map(|p| shakmaty::perft(p, 5)).sum::<u64>()).1,
        || uci_perft(&positions, 5),
    );
    let (nodes, elapsed) = (0..3)
        .map(|_| search_all(&positions, 6))
        .min_by_key(|(_, t)| *t)
        .expect("three runs");
    println!(
        "summary: perft 5 on {} positions ({nodes5} leaves)",
        positions.len()
    );
    println!(
        "summary: shakmaty::perft {:.0} leaves/s, engine perft {:.0} leaves/s, ratio engine/shakmaty {:.3}",
        nodes5 as f64 / shak.as_secs_f64(),
        nodes5 as f64 / engine.as_secs_f64(),
        shak.as_secs_f64() / engine.as_secs_f64()
    );
    println!(
        "summary: go perft 5 over UCI (child process) {:.0} leaves/s, ratio to in-process shakmaty::perft {:.3}",
        nodes5 as f64 / uci.as_secs_f64(),
        shak2.as_secs_f64() / uci.as_secs_f64()
    );
    println!(
        "summary: search depth 6: {nodes} nodes in {:.3} s = {:.0} nodes/s",
        elapsed.as_secs_f64(),
        nodes as f64 / elapsed.as_secs_f64()
    );
}
