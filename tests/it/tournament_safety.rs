//! Nothing lost, end to end: a full disk stops the tournament within a
//! game; SIGINT at seeded random moments and `--resume` give exactly the
//! games of an uninterrupted run; SIGKILL loses at most the games in
//! flight; a PGN whose last blank line is gone is not cut; sizes that
//! overflow are usage errors and the schedule is a stream (constant
//! memory); `--recover` carries a tournament past crashing engines.

use crate::common;
use crate::tournament::{Game, games};

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn spawn(args: &[String]) -> Child {
    Command::new(common::uci960())
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start uci960 match")
}

/// Games recorded in the state file so far.
fn state_games(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["games"].as_array().map(|a| a.len()))
        .unwrap_or(0)
}

/// Waits until the state file holds at least `n` games or the child ends
/// (the poll is the event; the deadline only guards against a hang).
fn wait_for_games(child: &mut Child, state: &Path, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while state_games(state) < n {
        if child.try_wait().unwrap().is_some() {
            return;
        }
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: plain kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as i32, sig);
    }
}

/// A tiny seeded generator for the interrupt moments (xorshift64*).
struct Moments(u64);

impl Moments {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// What must be equal between runs: everything but the times in comments.
fn by_round(text: &str) -> BTreeMap<u64, Game> {
    let mut out = BTreeMap::new();
    for mut g in games(text) {
        // The clock tags differ from run to run (cutechess's GameStartTime,
        // GameEndTime, GameDuration); the games must not.
        for tag in ["Date", "GameStartTime", "GameEndTime", "GameDuration"] {
            g.tags.remove(tag);
        }
        let round = g.tags["Round"].parse().unwrap();
        assert!(out.insert(round, g).is_none(), "game {round} twice");
    }
    out
}

/// [`common::deterministic_match`] of `games` games into `pgn`.
fn deterministic_args(pgn: &Path, games: u32) -> Vec<String> {
    let mut args = common::deterministic_match(games, 17);
    args.extend(common::strs(&["--pgn", pgn.to_str().unwrap()]));
    args
}

fn state_of(pgn: &Path) -> PathBuf {
    PathBuf::from(format!("{}.state.json", pgn.display()))
}

#[test]
fn sigint_at_random_moments_then_resume_gives_the_uninterrupted_pgn() {
    let dir = common::scratch_dir("tournament-sigint-resume");
    let reference = dir.join("ref.pgn");
    let out = common::run_match(&deterministic_args(&reference, 8));
    common::assert_ok(&out);
    let want = by_round(&std::fs::read_to_string(&reference).unwrap());
    assert_eq!(want.len(), 8);

    let mut moments = Moments(0x5eed_1234);
    for trial in 0..3 {
        let pgn = dir.join(format!("run{trial}.pgn"));
        let state = state_of(&pgn);
        let mut args = deterministic_args(&pgn, 8);
        // Interrupt once or twice, after a random number of finished games.
        let mut stops = Vec::new();
        for _ in 0..=moments.below(2) {
            stops.push(1 + moments.below(7) as usize);
        }
        stops.sort();
        for (i, &after) in stops.iter().enumerate() {
            let mut child = spawn(&args);
            wait_for_games(&mut child, &state, after);
            signal(&child, libc::SIGINT);
            let status = child.wait().unwrap();
            let finished = state_games(&state);
            if finished < 8 {
                assert_eq!(
                    status.code(),
                    Some(130),
                    "trial {trial}: interrupted exits 128+SIGINT"
                );
            }
            if i == 0 {
                args.push("--resume".into());
            }
        }
        let out = common::run_match(&args);
        assert!(
            out.status.success(),
            "trial {trial}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = by_round(&std::fs::read_to_string(&pgn).unwrap());
        assert_eq!(
            got, want,
            "trial {trial} (interrupted after {stops:?} games)"
        );
    }
}

#[test]
fn a_pgn_missing_its_last_blank_line_is_not_cut() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("tournament-blank-line");
    let pgn = dir.join("t.pgn");
    let state = state_of(&pgn);
    let mut args = deterministic_args(&pgn, 6);
    let mut child = spawn(&args);
    wait_for_games(&mut child, &state, 2);
    signal(&child, libc::SIGINT);
    child.wait().unwrap();
    let before = std::fs::read_to_string(&pgn).unwrap();
    let kept = by_round(&before);
    assert!(before.ends_with("\n\n"));
    std::fs::write(&pgn, &before[..before.len() - 1]).unwrap();

    args.push("--resume".into());
    let out = common::run_match(&args);
    common::assert_ok(&out);
    let report = common::check_pgn(&py, &pgn);
    common::assert_each_round_once(&report, 6);
    let after = by_round(&std::fs::read_to_string(&pgn).unwrap());
    for (round, game) in kept {
        assert_eq!(after[&round], game, "game {round} kept as it was");
    }
}

#[test]
fn sigkill_then_resume_loses_at_most_the_games_in_flight() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("tournament-sigkill");
    let pgn = dir.join("t.pgn");
    let state = state_of(&pgn);
    let mut args = common::strs(&[
        "--engine",
        "name=a",
        "nodes=300",
        "--engine",
        "name=b",
        "nodes=400",
        "--games",
        "10",
        "--concurrency",
        "2",
        "--seed",
        "8",
        "--maxmoves",
        "60",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let mut child = spawn(&args);
    wait_for_games(&mut child, &state, 3);
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    let recorded = state_games(&state);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let complete = text.matches("\n\n[Event ").count() + usize::from(text.starts_with("[Event "))
        - usize::from(!text.ends_with("\n\n") && !text.is_empty());
    // Written before recorded: at most the game being written when killed.
    assert!(
        complete >= recorded && complete <= recorded + 1,
        "{complete} in the PGN, {recorded} recorded"
    );

    args.push("--resume".into());
    let out = common::run_match(&args);
    common::assert_ok(&out);
    let report = common::check_pgn(&py, &pgn);
    common::assert_each_round_once(&report, 10);
}

#[test]
fn a_full_disk_stops_the_tournament_within_one_game() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = common::scratch_dir("tournament-devfull");
    let log = dir.join("engines.log");
    let pid_log = format!("--pid-log={}", log.display());
    let mut args = common::mock_engine_spec("a", &[&pid_log]);
    args.extend(common::mock_engine_spec("b", &[&pid_log]));
    args.extend(common::strs(&[
        "--games",
        "40",
        "--maxmoves",
        "10",
        "--pgn",
        "/dev/full",
        // A generous answer timeout, so that a slow answer under load cannot
        // make the runner restart an engine (a restart logs one more
        // `ucinewgame`, counted below as a game begun).
        "--timeout",
        "300",
    ]));
    args.extend(common::strs(&[
        "--state",
        dir.join("s.json").to_str().unwrap(),
    ]));
    let out = Command::new(common::uci960())
        .arg("match")
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/dev/full") && err.contains("stops"), "{err}");
    // `ucinewgame` is logged once per engine and game begun: the first game,
    // and at most the next one already started when the write failed.
    let begun = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter(|l| l.ends_with(" new"))
        .count()
        / 2;
    assert!((1..=2).contains(&begun), "{begun} of 40 games begun");
    assert_eq!(
        state_games(&dir.join("s.json")),
        0,
        "nothing recorded that was not written"
    );
}

#[test]
fn an_unwritable_json_file_stops_with_exit_3() {
    let dir = common::scratch_dir("tournament-json-dir");
    let out = common::run_match(&common::strs(&[
        "--nodes",
        "100",
        "--games",
        "20",
        "--maxmoves",
        "10",
        "--json",
        dir.to_str().unwrap(),
    ]));
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("JSON file"));
}

#[test]
fn games_that_do_not_fit_are_a_usage_error() {
    let out = common::run_match(&common::strs(&["--games", "4294967295", "--dry-run"]));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--games 4294967295") && err.contains("4294967296 games"),
        "{err}"
    );
    let out = common::run_match(&common::strs(&["--games", "0"]));
    assert_eq!(out.status.code(), Some(2));
}

/// Peak resident memory of a `--dry-run` of `games` games, in KiB.
// The child is reaped by wait4 (which also gives its peak memory).
#[allow(clippy::zombie_processes)]
fn dry_run_peak_kib(games: u64) -> i64 {
    let child = Command::new(common::uci960())
        .args([
            "match",
            "--dry-run",
            "--start",
            "die",
            "--seed",
            "1",
            "--games",
            &games.to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: wait4 on our own child; rusage is plain data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    usage.ru_maxrss
}

#[test]
fn the_schedule_is_a_stream_memory_does_not_grow_with_games() {
    let small = dry_run_peak_kib(2_000);
    let large = dry_run_peak_kib(2_000_000);
    assert!(
        large < small + 4096,
        "peak {large} KiB for 2M games vs {small} KiB for 2k"
    );
}

#[test]
fn recover_carries_a_round_robin_past_a_crashing_engine() {
    let Some(py) = common::require_python_chess() else {
        return;
    };
    let dir = common::scratch_dir("tournament-recover");
    let (pgn, js) = (dir.join("t.pgn"), dir.join("t.json"));
    // The mock crashes on its 3rd move of every game.
    let mut args = common::mock_engine_spec("a", &[]);
    args.extend(common::mock_engine_spec("crashy", &["--crash-on-go=3"]));
    args.extend(common::mock_engine_spec("b", &[]));
    args.extend(common::strs(&[
        "--recover",
        "--games",
        "2",
        "--rounds",
        "2",
        "--maxmoves",
        "20",
        "--start",
        "sp:518",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));
    let out = common::run_match(&args);
    common::assert_ok(&out);
    let report = common::check_pgn(&py, &pgn);
    assert_eq!(report["games"], 12);
    let s = common::read_json(&js);
    let crashes: BTreeMap<&str, u64> = s["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["crashes"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        crashes["crashy"], 8,
        "every game of the crashing engine: {crashes:?}"
    );
    assert_eq!((crashes["a"], crashes["b"]), (0, 0));
    assert_eq!(report["terminations"]["engine crash"], 8);
}

/// A FIFO that no process reads, named as the PGN or the JSON file of a
/// match or as the output of `book`: an error naming it, at once, not a
/// wait in `open(2)` that only a signal ends.
#[test]
fn a_fifo_without_a_reader_is_refused_not_waited_for() {
    let dir = common::scratch_dir("tournament-fifo");
    let runs: [(&str, &[&str]); 3] = [
        (
            "pgn",
            &[
                "match",
                "--nodes",
                "100",
                "--games",
                "2",
                "--maxmoves",
                "10",
                "--pgn",
            ],
        ),
        (
            "json",
            &[
                "match",
                "--nodes",
                "100",
                "--games",
                "2",
                "--maxmoves",
                "10",
                "--json",
            ],
        ),
        ("book", &["book", "--start", "all", "--output"]),
    ];
    for (name, args) in runs {
        let fifo = dir.join(name);
        let made = Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("run mkfifo");
        assert!(made.success());
        let mut child = Command::new(common::uci960())
            .args(args)
            .arg(&fifo)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = common::wait_exit(&mut child, Duration::from_secs(120))
            .unwrap_or_else(|| panic!("{name}: waited on a FIFO without a reader"));
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(!status.success(), "{name}: {err}");
        // The JSON summary and a book are replaced whole (issue 21), so
        // a FIFO is refused as one.
        let said = if name == "json" || name == "book" {
            "is a FIFO"
        } else {
            "is a FIFO that no process reads"
        };
        assert!(err.contains(said), "{name}: {err}");
        assert!(err.contains(fifo.to_str().unwrap()), "{name}: {err}");
    }
}
