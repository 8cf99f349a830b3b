//! `uci960 match` end to end: real engines (Stockfish vs Ethereal), the PGN
//! read back by python-chess, the mock engine for each fault, and
//! interrupt-and-resume.

use crate::common;

use std::process::{Command, Stdio};

use serde_json::Value;

#[test]
fn stockfish_vs_ethereal_20_games_read_back_by_python_chess() {
    let (Some(sf), Some(eth), Some(py)) = (
        common::require_engine("stockfish"),
        common::require_engine("ethereal-chess"),
        common::require_python_chess(),
    ) else {
        return;
    };
    let dir = common::scratch_dir("match-real");
    let (pgn, js) = (dir.join("m.pgn"), dir.join("m.json"));
    let mut args = common::engine_args(&sf, &["nodes=2000"]);
    args.extend(common::engine_args(&eth, &["nodes=2000"]));
    args.extend(common::strs(&[
        "--games",
        "20",
        "--concurrency",
        "2",
        "--start",
        "die",
        "--seed",
        "11",
        "--maxmoves",
        "150",
    ]));
    args.extend(common::strs(&[
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));
    let out = common::run_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    common::assert_ok(&out);
    assert!(stdout.contains("Elo difference"), "{stdout}");

    let report = common::check_pgn(&py, &pgn);
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert_eq!(report["games"], 20);
    assert_eq!(
        report["rounds"],
        serde_json::json!((1..=20).collect::<Vec<_>>())
    );
    assert_eq!(
        report["positions"], 10,
        "ten pairs, one die-drawn position each (seeded, distinct here)"
    );

    let summary = common::read_json(&js);
    assert_eq!(summary["games"], 20);
    for e in summary["engines"].as_array().unwrap() {
        let name = e["name"].as_str().unwrap();
        let s = &report["score"][name];
        for k in ["wins", "draws", "losses"] {
            assert_eq!(e[k], s[k], "{name} {k}: summary {} vs PGN {}", e[k], s[k]);
        }
        assert_eq!(e["crashes"], 0);
        assert_eq!(e["illegal_moves"], 0);
    }
    let penta: u64 = summary["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(penta, 10);
    let terms: u64 = summary["terminations"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(terms, 20);
    assert_eq!(summary["terminations"], report["terminations"]);
}

/// Plays 2 games of `first` against the plain mock engine; returns the JSON
/// summary and the PGN text.
fn fault_match(name: &str, first: Vec<String>, extra: &[&str]) -> (Value, String) {
    let dir = common::scratch_dir(&format!("match-{name}"));
    let (pgn, js) = (dir.join("m.pgn"), dir.join("m.json"));
    let mut args = first;
    args.extend(common::mock_engine_spec("normal", &[]));
    args.extend(common::strs(&["--games", "2"]));
    if !extra.contains(&"--maxmoves") {
        args.extend(common::strs(&["--maxmoves", "30"]));
    }
    if !extra.contains(&"--start") {
        args.extend(common::strs(&["--start", "sp:518"]));
    }
    args.extend(common::strs(&[
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));
    args.extend(common::strs(extra));
    let out = common::run_match(&args);
    common::assert_ok(&out);
    (
        common::read_json(&js),
        std::fs::read_to_string(&pgn).unwrap(),
    )
}

fn assert_both_lost(summary: &Value, pgn: &str, termination: &str, counter: &str) {
    assert_eq!(summary["terminations"][termination], 2, "{summary}");
    assert_eq!(summary["engines"][0]["losses"], 2, "{summary}");
    assert_eq!(summary["engines"][0][counter], 2, "{summary}");
    assert_eq!(summary["engines"][1][counter], 0, "{summary}");
    assert_eq!(
        pgn.matches(&format!("[Termination \"{termination}\"]"))
            .count(),
        2,
        "{pgn}"
    );
}

#[test]
fn illegal_move_loses_and_is_reported() {
    let (s, pgn) = fault_match(
        "illegal",
        common::mock_engine_spec("bad", &["--illegal-move=1"]),
        &[],
    );
    assert_both_lost(&s, &pgn, "illegal move", "illegal_moves");
    assert!(pgn.contains("makes an illegal move: e2e5"), "{pgn}");
}

#[test]
fn crash_loses_and_the_engine_is_restarted_for_the_next_game() {
    let (s, pgn) = fault_match(
        "crash",
        common::mock_engine_spec("bad", &["--crash-on-go=2", "--crash-exit=3"]),
        &[],
    );
    // The second game needs a fresh process: it crashes again on its 2nd move,
    // which shows it was restarted (a dead process could not reach move 2).
    assert_both_lost(&s, &pgn, "engine crash", "crashes");
    assert_eq!(pgn.matches("[PlyCount \"").count(), 2);
    assert!(pgn.contains("crashes"), "{pgn}");
}

/// The timeout also bounds the handshake: 5 s, so that a loaded machine
/// does not turn a slow start into a failure.
#[test]
fn stall_loses_after_the_timeout() {
    let (s, pgn) = fault_match(
        "stall",
        common::mock_engine_spec("bad", &["--stall-on-go=1"]),
        &["--timeout", "5"],
    );
    assert_both_lost(&s, &pgn, "stalled connection", "stalls");
}

/// The slow move takes 3 s against 1 s + 100 ms allowed: far apart, so
/// that on a loaded machine only the slow engine loses on time.
#[test]
fn time_forfeit_under_a_fixed_move_time() {
    let (s, pgn) = fault_match(
        "slow",
        common::mock_engine_spec("bad", &["--slow-on-go=2", "--delay-ms=3000"]),
        &["--st", "1", "--margin", "100"],
    );
    assert_both_lost(&s, &pgn, "time forfeit", "time_forfeits");
    assert!(pgn.contains("loses on time"), "{pgn}");
}

fn castling_match(policy: &str) -> (Value, String) {
    let dir = common::scratch_dir(&format!("match-book-{policy}"));
    let book = dir.join("castle.epd");
    // King e1, rooks a1/h1, nothing between: castling is legal at once, and
    // e1c1 (king two squares) differs from e1a1 (king takes rook).
    std::fs::write(
        &book,
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\n",
    )
    .unwrap();
    fault_match(
        &format!("castle-{policy}"),
        common::mock_engine_spec("kingtwo", &["--king-two-squares"]),
        &[
            "--start",
            &format!("book:{}", book.display()),
            // The new name for strict, the old one (still read) for lenient.
            if policy == "strict" {
                "--castling-moves"
            } else {
                "--castling"
            },
            policy,
            "--maxmoves",
            "12",
        ],
    )
}

#[test]
fn king_two_squares_castling_is_illegal_when_strict() {
    let (s, pgn) = castling_match("strict");
    assert_both_lost(&s, &pgn, "illegal move", "illegal_moves");
    assert_eq!(s["engines"][0]["notation_errors"], 2);
    assert!(
        pgn.contains("castling must be written king-takes-rook"),
        "{pgn}"
    );
}

#[test]
fn king_two_squares_castling_is_accepted_but_counted_when_lenient() {
    let (s, pgn) = castling_match("lenient");
    assert_eq!(s["engines"][0]["illegal_moves"], 0, "{s}");
    assert_eq!(s["engines"][0]["notation_errors"], 2, "{s}");
    assert!(pgn.contains(" O-O-O "), "the castle is in the PGN: {pgn}");
    assert!(pgn.contains("NotationErrors \"1\"]"), "{pgn}");
}

/// Two mock engines that speak standard castling notation in Chess960
/// (`--king-two-squares`: they write and read `d1g1`, not `d1h1`), from a
/// start where the king is on d1 and only the h-rook may castle: the
/// two-squares form differs from king takes rook and is no king step.
fn standard_notation_match(name: &str, castles: Option<&str>) -> (Value, String) {
    let dir = common::scratch_dir(&format!("match-castles-{name}"));
    let book = dir.join("castle.epd");
    std::fs::write(&book, "3k3r/pppppppp/8/8/8/8/PPPPPPPP/3K3R w Hh -\n").unwrap();
    let (pgn, js) = (dir.join("m.pgn"), dir.join("m.json"));
    let mut args = Vec::new();
    for engine in ["std-a", "std-b"] {
        let mut spec = common::mock_engine_spec(engine, &["--king-two-squares"]);
        if let Some(c) = castles {
            spec.push(format!("castles={c}"));
        }
        args.extend(spec);
    }
    args.extend(common::strs(&[
        "--games",
        "2",
        "--maxmoves",
        "12",
        "--start",
        &format!("book:{}", book.display()),
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));
    let out = common::run_match(&args);
    common::assert_ok(&out);
    (
        common::read_json(&js),
        std::fs::read_to_string(&pgn).unwrap(),
    )
}

#[test]
fn an_engine_speaking_standard_castling_plays_with_castles_standard() {
    let (s, pgn) = standard_notation_match("standard", Some("standard"));
    for e in 0..2 {
        assert_eq!(s["engines"][e]["illegal_moves"], 0, "{s}");
        assert_eq!(s["engines"][e]["notation_errors"], 0, "{s}");
    }
    assert_eq!(s["terminations"]["illegal move"], Value::Null, "{s}");
    // Both sides castle at once in both games, and read each other's
    // castle (sent as `d1g1`) right: otherwise their boards part and an
    // illegal move ends the game.
    assert_eq!(pgn.matches("1. O-O {").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("} O-O {").count(), 2, "{pgn}");
    assert!(!pgn.contains("makes an illegal move"), "{pgn}");
}

#[test]
fn without_castles_standard_the_same_engines_are_diagnosed() {
    let (s, pgn) = standard_notation_match("auto", None);
    assert_eq!(s["terminations"]["illegal move"], 2, "{s}");
    assert!(
        pgn.contains("makes an illegal move: d1g1 (castling must be written king-takes-rook"),
        "{pgn}"
    );
}

#[test]
fn an_engine_without_uci_chess960_is_refused_with_exit_2() {
    let mut args = common::mock_engine_spec("old", &["--no-chess960"]);
    args.extend(common::mock_engine_spec("normal", &[]));
    let out = common::run_match(&args);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not declare the UCI_Chess960 option"),
        "{err}"
    );
}

#[test]
fn interrupted_match_resumes_to_the_requested_count() {
    let (Some(sf), Some(py)) = (
        common::require_engine("stockfish"),
        common::require_python_chess(),
    ) else {
        return;
    };
    let dir = common::scratch_dir("match-resume");
    let (pgn, js) = (dir.join("m.pgn"), dir.join("m.json"));
    let mut args = common::engine_args(&sf, &["nodes=800", "name=sf-a"]);
    args.extend(common::engine_args(&sf, &["nodes=1200", "name=sf-b"]));
    args.extend(common::strs(&[
        "--games",
        "12",
        "--concurrency",
        "2",
        "--start",
        "random",
        "--seed",
        "5",
        "--maxmoves",
        "120",
    ]));
    args.extend(common::strs(&[
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));

    let mut child = Command::new(common::uci960())
        .arg("match")
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once a few games are in the PGN (or at the hang guard).
    common::wait_for_file(&pgn, common::PATIENCE, |text| {
        text.matches("[Round ").count() >= 3
    });
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    let first = common::check_pgn(&py, &pgn);
    assert_eq!(first["problems"], serde_json::json!([]), "{first}");
    let played = first["games"].as_u64().unwrap();
    if played < 12 {
        assert_eq!(status.code(), Some(130), "an interrupted match exits 130");
    }

    let mut resume = args.clone();
    resume.push("--resume".into());
    let out = common::run_match(&resume);
    common::assert_ok(&out);
    let report = common::check_pgn(&py, &pgn);
    assert_eq!(report["games"], 12, "{report}");
    common::assert_each_round_once(&report, 12);
    let summary = common::read_json(&js);
    assert_eq!(summary["games"], 12);
    for e in summary["engines"].as_array().unwrap() {
        let s = &report["score"][e["name"].as_str().unwrap()];
        for k in ["wins", "draws", "losses"] {
            assert_eq!(e[k], s[k]);
        }
    }
}

#[test]
fn toga2_without_chess960_is_refused() {
    let (Some(toga), Some(sf)) = (
        common::require_engine("toga2"),
        common::require_engine("stockfish"),
    ) else {
        return;
    };
    let mut args = common::engine_args(&toga, &[]);
    args.extend(common::engine_args(&sf, &[]));
    args.extend(common::strs(&["--nodes", "500"]));
    let out = common::run_match(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("UCI_Chess960"));
}

#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let dir = common::scratch_dir("match-sprt");
    let js = dir.join("m.json");
    let mut args = common::engine_args(&sf, &["nodes=3000", "name=strong"]);
    args.extend(common::engine_args(&sf, &["depth=1", "name=weak"]));
    args.extend(common::strs(&[
        "--games",
        "60",
        "--sprt",
        "elo0=0",
        "elo1=200",
        "alpha=0.1",
        "beta=0.1",
    ]));
    args.extend(common::strs(&[
        "--maxmoves",
        "150",
        "--seed",
        "3",
        "--json",
        js.to_str().unwrap(),
    ]));
    let out = common::run_match(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let s = common::read_json(&js);
    assert_eq!(s["sprt"]["verdict"], "accept_h1", "{s}");
    assert!(s["games"].as_u64().unwrap() < 60, "{s}");
    assert!(
        stdout.contains("H1 accepted") && stdout.contains("stopped early"),
        "{stdout}"
    );
    assert!(s["sprt"]["llr"].as_f64().unwrap() >= s["sprt"]["upper_bound"].as_f64().unwrap());
}

#[test]
fn without_engines_the_built_in_engine_plays_itself() {
    let dir = common::scratch_dir("match-builtin");
    let pgn = dir.join("m.pgn");
    let out = common::run_match(&common::strs(&[
        "--games",
        "2",
        "--nodes",
        "300",
        "--seed",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]));
    let stdout = String::from_utf8_lossy(&out.stdout);
    common::assert_ok(&out);
    assert!(stdout.contains("Games: 2"), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"fischerandom\"]").count(), 2);
    // cutechess-cli's form: no clock is `inf`; the node limit has its own tag.
    assert!(text.contains("[TimeControl \"inf\"]"), "{text}");
    assert!(text.contains("[SearchLimit \"nodes=300\"]"), "{text}");
}

/// Starts and `ucinewgame`s logged by the mock engines for a 4-game match.
fn process_log(restart: &str) -> (usize, usize) {
    let dir = common::scratch_dir(&format!("match-restart-{restart}"));
    let log = dir.join("pids.log");
    let pid_log = format!("--pid-log={}", log.display());
    let mut args = common::mock_engine_spec("a", &[&pid_log]);
    args.extend(common::mock_engine_spec("b", &[&pid_log]));
    args.extend(common::strs(&[
        "--games",
        "4",
        "--maxmoves",
        "4",
        "--restart",
        restart,
    ]));
    let out = Command::new(common::uci960())
        .arg("match")
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    common::assert_ok(&out);
    let text = std::fs::read_to_string(&log).unwrap();
    let starts = text.lines().filter(|l| !l.ends_with(" new")).count();
    let new_games = text.lines().filter(|l| l.ends_with(" new")).count();
    (starts, new_games)
}

#[test]
fn engines_are_reused_with_ucinewgame_unless_restart_is_on() {
    // Reused: one process per engine for all 4 games, each game announced.
    let (starts, new_games) = process_log("off");
    assert_eq!((starts, new_games), (2, 8));
    // Restarted: a fresh pair for every game after the first.
    let (starts, new_games) = process_log("on");
    assert_eq!((starts, new_games), (8, 8));
}

/// Issue 21: engine text reached the terminal raw. An illegal `bestmove`
/// wrapped in terminal escape sequences (ESC and the C1 CSI) is reported,
/// but no control character of it reaches the PGN, the JSON, stdout or
/// stderr of `match`, nor the report and JSON of `castling-test`.
#[test]
fn escape_sequences_from_an_engine_reach_no_output() {
    let dir = common::scratch_dir("match-escape");
    let (pgn, js) = (dir.join("m.pgn"), dir.join("m.json"));
    let mut args = common::mock_engine_spec("bad", &["--escape-move=1"]);
    args.extend(common::mock_engine_spec("normal", &[]));
    args.extend(common::strs(&[
        "--games",
        "2",
        "--maxmoves",
        "10",
        "--start",
        "sp:518",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        js.to_str().unwrap(),
    ]));
    let out = common::run_match(&args);
    common::assert_ok(&out);
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    let json_text = std::fs::read_to_string(&js).unwrap();
    assert!(pgn_text.contains("illegal move"), "{pgn_text}");
    let clean = |what: &str, text: &str| {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{9b}') && !text.contains("\\u001b"),
            "{what} holds a control character: {text:?}"
        );
    };
    clean("PGN", &pgn_text);
    clean("JSON", &json_text);
    clean("stdout", &String::from_utf8_lossy(&out.stdout));
    clean("stderr", &String::from_utf8_lossy(&out.stderr));

    let report = dir.join("c.json");
    let mock = common::mock_engine();
    let out = std::process::Command::new(common::uci960())
        .args(["castling-test", "--json", report.to_str().unwrap(), "--"])
        .arg(&mock)
        .arg("--escape-move=1")
        .output()
        .unwrap();
    clean(
        "castling-test stdout",
        &String::from_utf8_lossy(&out.stdout),
    );
    clean(
        "castling-test stderr",
        &String::from_utf8_lossy(&out.stderr),
    );
    clean(
        "castling-test JSON",
        &std::fs::read_to_string(&report).unwrap(),
    );
}

/// Issue 21: with `ulimit -n 20` a game was scored `{White crashes: …
/// Too many open files}`. uci960's own resource failures end the run with
/// exit 3 and a message, and no engine is charged: no game in the PGN
/// blames an engine.
#[test]
fn running_out_of_descriptors_ends_the_run_charging_no_engine() {
    let dir = common::scratch_dir("match-ulimit");
    let pgn = dir.join("g.pgn");
    let script = format!(
        "ulimit -n 20; exec '{}' match --games 16 --concurrency 8 --nodes 50 --maxmoves 6 --pgn '{}'",
        common::uci960().display(),
        pgn.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("uci960 is out of resources"), "{err}");
    assert!(err.contains("no engine was charged"), "{err}");
    let games = std::fs::read_to_string(&pgn).unwrap_or_default();
    assert!(!games.contains("crash"), "{games}");
    assert!(!games.contains("Too many open files"), "{games}");
}

/// Issue 21, after the start: uci960 running out of descriptors while it
/// records games (the state's temporary file cannot be opened) ends the
/// run with exit 3 and the out-of-resources message, charges no engine,
/// and loses no game: what the PGN holds is what the state recorded, and
/// `--resume` plays the rest, each round once.
#[test]
fn running_out_of_descriptors_mid_run_charges_no_engine_and_loses_no_game() {
    let dir = common::scratch_dir("match-prlimit");
    let pgn = dir.join("g.pgn");
    let args = |resume: bool| {
        let mut a: Vec<String> = ["match", "--games", "60", "--nodes", "50", "--maxmoves", "6"]
            .map(String::from)
            .to_vec();
        a.extend(["--pgn".into(), pgn.display().to_string()]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let guard = std::time::Duration::from_secs(120);
    let mut child = Command::new(common::uci960())
        .args(args(false))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        common::wait_for_file(&pgn, guard, |t| t.contains("[Round ")),
        "no game was written"
    );
    // From now on no descriptor can be opened (0, 1 and 2 are taken); the
    // ones open stay usable.
    let limit = libc::rlimit {
        rlim_cur: 3,
        rlim_max: libc::RLIM_INFINITY,
    };
    let mut old = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: prlimit(2) on our own child, with valid structs.
    let ok = unsafe {
        libc::prlimit(
            child.id() as libc::pid_t,
            libc::RLIMIT_NOFILE,
            std::ptr::null(),
            &mut old,
        ) == 0
            && libc::prlimit(
                child.id() as libc::pid_t,
                libc::RLIMIT_NOFILE,
                &libc::rlimit {
                    rlim_max: old.rlim_max,
                    ..limit
                },
                std::ptr::null_mut(),
            ) == 0
    };
    assert!(ok, "prlimit: {}", std::io::Error::last_os_error());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    let status = common::wait_exit(&mut child, guard).expect("the match did not end");
    assert_eq!(status.code(), Some(3), "{err}");
    assert!(err.contains("uci960 is out of resources"), "{err}");
    assert!(err.contains("no engine was charged"), "{err}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert!(!games.contains("crash"), "{games}");
    assert!(!games.contains("Too many open files"), "{games}");
    let out = Command::new(common::uci960())
        .args(args(true))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    let mut rounds: Vec<u32> = games
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Round \"")?
                .strip_suffix("\"]")?
                .parse()
                .ok()
        })
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=60).collect::<Vec<_>>());
}
