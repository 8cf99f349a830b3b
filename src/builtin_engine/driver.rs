//! The edge: threads and pipes around the sans-IO [`EngineSession`].
//!
//! Three threads: a reader turns input lines into events, a worker owns the
//! [`Searcher`] and runs jobs in order, and the caller's thread feeds events
//! to the session and writes every output line (flushed at once). Input and
//! worker output share one channel, so the session sees `stop` and
//! `isready` while the worker thinks, and the worker's lines (`info`, then
//! `bestmove`) keep their order. End of input counts as `quit`.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use super::perft;
use super::search::Searcher;
use super::session::{EngineEffect, EngineSession, Job, bestmove_line, info_line};
use super::tt;

enum Event {
    Line(String),
    EndOfInput,
    Print(String),
    /// The worker finished one search or perft.
    Done,
}

/// `quit` and end of input let a running or queued `go perft` finish when
/// its depth is at most this (well under a second for any position, so
/// `echo 'go perft 5' | uci960 engine` prints its answer); a deeper one
/// (`go perft 99`) is stopped, so the engine always ends.
pub const PERFT_DEPTH_KEPT_AT_QUIT: u32 = 5;

/// Runs the engine on stdin and stdout until `quit` or end of input.
pub fn run_stdio() -> io::Result<()> {
    run(io::BufReader::new(io::stdin()), io::stdout().lock())
}

/// Runs the engine over any line source and sink.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, mut output: W) -> io::Result<()> {
    let (events_tx, events) = mpsc::channel::<Event>();
    let (jobs_tx, jobs) = mpsc::channel::<(Job, Arc<AtomicBool>)>();

    let reader_tx = events_tx.clone();
    // Detached: it may stay blocked on input after `quit`; exit ends it.
    thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        // Bytes, not `lines()`: a line that isn't UTF-8 is bad input to
        // report, not the end of the conversation.
        while matches!(input.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
            let line = String::from_utf8_lossy(&buf)
                .trim_end_matches(['\n', '\r'])
                .to_string();
            buf.clear();
            if reader_tx.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader_tx.send(Event::EndOfInput);
    });
    let worker = thread::spawn(move || work(jobs, events_tx));

    let mut session = EngineSession::new();
    // Stop flags of the searches and perfts handed out, oldest first, and
    // each one's perft depth (0 for a search).
    let mut outstanding: VecDeque<(Arc<AtomicBool>, u32)> = VecDeque::new();
    // Stops every search, and every perft deeper than `keep_perft_depth`.
    let stop_all = |outstanding: &VecDeque<(Arc<AtomicBool>, u32)>, keep_perft_depth: u32| {
        for (flag, perft_depth) in outstanding {
            if *perft_depth == 0 || *perft_depth > keep_perft_depth {
                flag.store(true, Ordering::Relaxed);
            }
        }
    };
    let mut quitting = false;
    let mut result = Ok(());
    for event in events.iter() {
        let effects = match event {
            // After `quit` only the answers still owed are printed.
            Event::Line(_) | Event::EndOfInput if quitting => Vec::new(),
            Event::Line(line) => session.handle(&line),
            Event::EndOfInput => session.handle("quit"),
            Event::Print(line) => vec![EngineEffect::Print(line)],
            Event::Done => {
                outstanding.pop_front();
                session.job_done();
                Vec::new()
            }
        };
        for effect in effects {
            match effect {
                EngineEffect::Print(line) => {
                    if let Err(e) = writeln!(output, "{line}").and_then(|_| output.flush()) {
                        result = Err(e);
                        quitting = true;
                        stop_all(&outstanding, 0);
                    }
                }
                EngineEffect::Start(job) => {
                    let stop = Arc::new(AtomicBool::new(false));
                    match job {
                        Job::Resize(_) => {}
                        Job::Perft { depth, .. } => {
                            outstanding.push_back((Arc::clone(&stop), depth.max(1)))
                        }
                        Job::Search(_) => outstanding.push_back((Arc::clone(&stop), 0)),
                    }
                    let _ = jobs_tx.send((job, stop));
                }
                EngineEffect::Stop => stop_all(&outstanding, 0),
                EngineEffect::Quit => {
                    stop_all(&outstanding, PERFT_DEPTH_KEPT_AT_QUIT);
                    quitting = true;
                }
            }
        }
        if quitting && !session.busy() {
            break;
        }
    }
    drop(jobs_tx);
    let _ = worker.join();
    result
}

/// The worker: runs jobs in order, reports lines and completions.
fn work(jobs: Receiver<(Job, Arc<AtomicBool>)>, events: Sender<Event>) {
    let mut searcher = Searcher::new(tt::DEFAULT_MB);
    for (job, stop) in jobs.iter() {
        match job {
            Job::Resize(mb) => {
                if !searcher.resize(mb) {
                    let _ = events.send(Event::Print(format!(
                        "info string Hash: cannot allocate {mb} MiB; using 1 MiB"
                    )));
                }
            }
            Job::Perft {
                position,
                depth,
                mode,
            } => {
                match perft::divide(&position, depth, mode, &stop) {
                    Some(lines) => lines.into_iter().for_each(|l| {
                        let _ = events.send(Event::Print(l));
                    }),
                    None => {
                        let _ = events.send(Event::Print("info string perft stopped".to_string()));
                    }
                }
                let _ = events.send(Event::Done);
            }
            Job::Search(job) => {
                let mut report = |r: &_| {
                    let _ = events.send(Event::Print(info_line(r, &job.position, job.chess960)));
                };
                let result =
                    searcher.search(&job.position, &job.history, &job.limits, &stop, &mut report);
                // `go infinite`: the answer waits for `stop` (UCI rule).
                while job.wait_for_stop && !stop.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(1));
                }
                let _ = events.send(Event::Print(bestmove_line(
                    &result,
                    &job.position,
                    job.chess960,
                )));
                let _ = events.send(Event::Done);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_script(script: &str) -> Vec<String> {
        let mut out = Vec::new();
        run(io::Cursor::new(script.as_bytes().to_vec()), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn end_of_input_still_answers_every_go_once() {
        let out = run_script("uci\nisready\nposition startpos\ngo infinite\ngo depth 3\n");
        assert!(out.contains(&"uciok".to_string()));
        assert!(out.contains(&"readyok".to_string()));
        let bestmoves: Vec<_> = out.iter().filter(|l| l.starts_with("bestmove ")).collect();
        assert_eq!(bestmoves.len(), 2, "{out:?}");
    }

    #[test]
    fn invalid_utf8_is_reported_not_fatal() {
        let mut out = Vec::new();
        let script = b"\xff\xfe garbage\r\nisready\n".to_vec();
        run(io::Cursor::new(script), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("info string unknown command"), "{out}");
        assert!(out.ends_with("readyok\n"), "{out}");
    }

    #[test]
    fn end_of_input_ends_a_deep_perft() {
        let out = run_script("position startpos\ngo perft 99\n");
        assert_eq!(out, ["info string perft stopped"]);
    }

    #[test]
    fn queued_commands_run_in_order() {
        let out =
            run_script("position startpos\ngo perft 1\nposition startpos moves e2e4\ngo perft 1\n");
        let totals: Vec<_> = out
            .iter()
            .filter(|l| l.starts_with("Nodes searched"))
            .collect();
        assert_eq!(totals, ["Nodes searched: 20", "Nodes searched: 20"]);
        assert!(
            out.iter().any(|l| l == "e7e5: 1"),
            "second perft is after e2e4"
        );
    }
}
