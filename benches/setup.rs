//! Speed of the start-position layer, each figure beside a baseline measured
//! in the same run (the machines are noisy; ratios travel, absolute numbers
//! less so):
//! * SP decode vs shakmaty's `Board::chess960`;
//! * each method's positions per second vs the bare ChaCha8 words it eats;
//! * exact analysis time per method.
//!
//! Run: `cargo bench --bench setup`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use uci960::setup::BackRank;
use uci960::setup::analysis::exact_for;
use uci960::setup::method::{MethodSpec, PositionSource};

/// Runs `f` in batches until `budget` has passed; returns calls per second.
fn rate(budget: Duration, batch: u64, mut f: impl FnMut(u64)) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < budget {
        f(batch);
        calls += batch;
    }
    calls as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let budget = Duration::from_millis(700);

    let shakmaty_rate = rate(budget, 960, |n| {
        for sp in 0..n as u32 {
            black_box(shakmaty::Board::chess960(black_box(sp % 960)));
        }
    });
    let ours_rate = rate(budget, 960, |n| {
        for sp in 0..n as u32 {
            black_box(BackRank::from_sp(black_box(sp % 960)).ok());
        }
    });
    let encode_rate = rate(budget, 960, |n| {
        let ranks: Vec<BackRank> = (0..960)
            .filter_map(|sp| BackRank::from_sp(sp).ok())
            .collect();
        for i in 0..n as usize {
            black_box(black_box(&ranks[i % 960]).sp());
        }
    });
    println!(
        "SP decode (BackRank::from_sp)   {:>8.1} M/s   shakmaty Board::chess960 {:>8.1} M/s   ratio {:.2}",
        ours_rate / 1e6,
        shakmaty_rate / 1e6,
        ours_rate / shakmaty_rate
    );
    println!(
        "SP encode (BackRank::sp)        {:>8.1} M/s",
        encode_rate / 1e6
    );

    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let words = rate(budget, 10_000, |n| {
        for _ in 0..n {
            black_box(rng.next_u32());
        }
    });
    println!("baseline ChaCha8 next_u32       {:>8.1} M/s", words / 1e6);
    for method in [
        "die",
        "bag-redraw",
        "bag-swap",
        "random",
        "dfrc",
        "sp:0-959",
    ] {
        let spec: MethodSpec = method.parse().unwrap();
        let mut source = PositionSource::new(&spec, 1).unwrap();
        let per_sec = rate(budget, 1000, |n| {
            for _ in 0..n {
                black_box(source.next_position());
            }
        });
        println!(
            "method {method:<12} positions  {:>8.2} M/s   ({:.1} ChaCha words' time each)",
            per_sec / 1e6,
            words / per_sec
        );
    }
    for method in ["die", "bag-redraw", "bag-swap", "random", "dfrc"] {
        let spec: MethodSpec = method.parse().unwrap();
        let start = Instant::now();
        let exact = exact_for(&spec).unwrap();
        black_box(&exact);
        println!(
            "exact analysis {method:<12}      {:>8.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
