//! The client side of `scripts/bench-proxy.sh`.
//!
//! `uci_bench_client rtt N [--wait-uciok-only] -- CMD ARGS…`: `uci`/`uciok`,
//! then N `isready`/`readyok` round trips; prints `median_us p99_us`.
//!
//! `uci_bench_client flood [--position LINE] -- CMD ARGS…`: `uci`/`uciok`,
//! optional `position` line, `go`, reads until `bestmove`; prints
//! `lines seconds lines_per_second`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.iter().position(|a| a == "--").expect("-- CMD");
    let (opts, cmd) = (&args[..split], &args[split + 1..]);
    let mode = opts[0].as_str();
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
