//! Speed of the start-position layer, each figure beside a baseline measured
//! in the same run (the machines are noisy; ratios travel, absolute numbers
//! less so):
//! * SP decode vs shakmaty's `Board::chess960`;
//! * each method's positions per second vs the bare ChaCha8 words it eats;
//! * exact analysis time per method;
//! * the random-plies rule (no ply that ends the game, by rejection: one
//!   look-ahead per ply) vs plies drawn blind among the legal moves, and vs
//!   the same rule done as a filter first (one look-ahead per legal move).
//!
//! Rates are per second of this thread's CPU time (the wall-clock rate is
//! printed beside the method rates): on a shared machine the wall clock also
//! counts the time the thread waited for a core.
//!
//! Run: `cargo bench --bench start`; `cargo bench --bench start -- bag-swap`
//! times only the methods named (for profiling one of them).

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use shakmaty::{Chess, Position};
use uci960::openings::plies::play_random_plies;
use uci960::openings::{MethodSpec, PositionSource};
use uci960::platform::cpu::thread_cpu_time;
use uci960::start::{BackRank, StartPosition};

/// Runs `f` in batches until `budget` of CPU time has passed; returns calls
/// per CPU-second and per wall-second.
fn rates(budget: Duration, batch: u64, mut f: impl FnMut(u64)) -> (f64, f64) {
    let (wall, cpu) = (Instant::now(), thread_cpu_time());
    let mut calls = 0u64;
    while thread_cpu_time() - cpu < budget {
        f(batch);
        calls += batch;
    }
    let per = |d: Duration| calls as f64 / d.as_secs_f64();
    (per(thread_cpu_time() - cpu), per(wall.elapsed()))
}

/// Calls per CPU-second.
fn rate(budget: Duration, batch: u64, f: impl FnMut(u64)) -> f64 {
    rates(budget, batch, f).0
}

/// Times `method`'s positions per second, beside the ChaCha word rate.
fn time_method(method: &str, budget: Duration, words: Option<f64>) {
    let spec: MethodSpec = method.parse().unwrap();
    let mut source = PositionSource::new(&spec, 1).unwrap();
    let (per_sec, per_wall_sec) = rates(budget, 1000, |n| {
        for _ in 0..n {
            black_box(source.next_position());
        }
    });
    print!(
        "method {method:<12} positions  {:>8.2} M/s  (wall {:>5.2} M/s)",
        per_sec / 1e6,
        per_wall_sec / 1e6
    );
    match words {
        Some(words) => println!("   ({:.1} ChaCha words' time each)", words / per_sec),
        None => println!(),
    }
}

/// The 960 start positions, to play plies from.
fn start_positions() -> Vec<Chess> {
    (0..960)
        .map(|sp| StartPosition::from_sp(sp).unwrap().to_chess())
        .collect()
}

/// `PLIES` plies from each start in turn, each chosen by `choose`:
/// openings per CPU-second.
fn time_plies(
    budget: Duration,
    starts: &[Chess],
    mut choose: impl FnMut(&mut Chess, &mut Vec<shakmaty::Move>, &mut ChaCha8Rng),
) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut moves = Vec::new();
    let mut next = starts.iter().cycle();
    rate(budget, 100, |n| {
        for _ in 0..n {
            let mut pos = next.next().unwrap().clone();
            moves.clear();
            choose(&mut pos, &mut moves, &mut rng);
            black_box(&pos);
        }
    })
}

const PLIES: u32 = 8;

/// The random-plies rule beside its two alternatives.
fn time_random_plies(budget: Duration) {
    let starts = start_positions();
    let blind = time_plies(budget, &starts, |pos, moves, rng| {
        for _ in 0..PLIES {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.next_u32() as usize % legal.len()];
            pos.play_unchecked(m);
            moves.push(m);
        }
    });
    let rule = time_plies(budget, &starts, |pos, moves, rng| {
        play_random_plies(pos, moves, PLIES, rng);
    });
    let filter_first = time_plies(budget, &starts, |pos, moves, rng| {
        for _ in 0..PLIES {
            let going_on: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let mut next = pos.clone();
                    next.play_unchecked(m);
                    !next.is_game_over()
                })
                .collect();
            if going_on.is_empty() {
                break;
            }
            let m = going_on[rng.next_u32() as usize % going_on.len()];
            pos.play_unchecked(m);
            moves.push(m);
        }
    });
    println!(
        "random plies ({PLIES} from each SP)   blind {:>7.1} k/s   rule (rejection) {:>7.1} k/s   ratio {:.2}   filter first {:>7.1} k/s   ratio {:.2}",
        blind / 1e3,
        rule / 1e3,
        blind / rule,
        filter_first / 1e3,
        blind / filter_first
    );
}

fn main() {
    let budget = Duration::from_millis(700);
    // cargo passes `--bench`; the other arguments name methods to time alone.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !only.is_empty() {
        for method in &only {
            time_method(method, budget * 4, None);
        }
        return;
    }

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
    let roles: Vec<_> = (0..960)
        .filter_map(|sp| BackRank::from_sp(sp).ok())
        .map(|rank| rank.roles())
        .collect();
    let encode_rate = rate(budget, 960, |n| {
        for &rank in roles.iter().cycle().take(n as usize) {
            black_box(BackRank::from_roles(black_box(rank)).ok());
        }
    });
    println!(
        "SP decode (BackRank::from_sp)   {:>8.1} M/s   shakmaty Board::chess960 {:>8.1} M/s   ratio {:.2}",
        ours_rate / 1e6,
        shakmaty_rate / 1e6,
        ours_rate / shakmaty_rate
    );
    println!(
        "SP encode + check (from_roles)  {:>8.1} M/s",
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
        time_method(method, budget, Some(words));
    }
    time_random_plies(budget);
    for method in ["die", "bag-redraw", "bag-swap", "random", "dfrc"] {
        let spec: MethodSpec = method.parse().unwrap();
        let start = Instant::now();
        let exact = spec.exact().unwrap();
        black_box(&exact);
        println!(
            "exact analysis {method:<12}      {:>8.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
