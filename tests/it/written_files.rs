//! The files room end to end (issue 21, item 1): outputs that name one
//! file are refused before anything is written; a state on a device is
//! refused and the device left alone; a second run of one tournament is
//! refused naming the first; a resume keeps what others appended and
//! refuses, touching nothing, when a recorded game changed; an append
//! adds the missing line break.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A quick match of the built-in engine with itself.
fn quick(games: u32, pgn: &Path) -> Vec<String> {
    common::strs(&[
        "--nodes",
        "100",
        "--maxmoves",
        "8",
        "--seed",
        "5",
        "--start",
        "sp:518",
        "--games",
        &games.to_string(),
        "--pgn",
        pgn.to_str().unwrap(),
    ])
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn outputs_naming_one_file_are_refused_before_anything_is_written() {
    let dir = common::scratch_dir("files-collide");
    let pgn = dir.join("g.pgn");
    let mut args = quick(2, &pgn);
    args.extend(common::strs(&["--state", pgn.to_str().unwrap()]));
    let out = common::run_match(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("same file"), "{}", stderr(&out));
    assert!(!pgn.exists(), "nothing written");

    // The same file through a hard link and another spelling.
    std::fs::write(&pgn, "kept\n").unwrap();
    let hard = dir.join("hard.json");
    std::fs::hard_link(&pgn, &hard).unwrap();
    let dotted = dir.join(".").join("g.pgn");
    for other in [hard.as_path(), dotted.as_path()] {
        let mut args = quick(2, &pgn);
        args.extend(common::strs(&["--json", other.to_str().unwrap()]));
        let out = common::run_match(&args);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), "kept\n");
    }
    assert!(!dir.join("g.pgn.state.json").exists());
}

#[test]
fn a_state_on_a_device_is_refused_and_the_device_left_alone() {
    let dir = common::scratch_dir("files-device");
    let mut args = quick(2, &dir.join("g.pgn"));
    args.extend(common::strs(&["--state", "/dev/null"]));
    let out = common::run_match(&args);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("a device"), "{}", stderr(&out));
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(kind.is_char_device());
    // A PGN on a device gets no state file beside it.
    let out = common::run_match(&quick(2, Path::new("/dev/null")));
    common::assert_ok(&out);
}

#[test]
fn a_second_run_of_one_tournament_is_refused_naming_the_first() {
    let dir = common::scratch_dir("files-lock");
    let pgn = dir.join("g.pgn");
    let state = dir.join("g.pgn.state.json");
    let args = quick(400, &pgn);
    let mut first = common::spawn_match(&args);
    // The state exists once the run holds its lock.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !state.exists() {
        assert!(first.try_wait().unwrap().is_none(), "the first run ended");
        assert!(Instant::now() < deadline, "no state file");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut again = args.clone();
    again.push("--resume".into());
    let out = common::run_match(&again);
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(first.id() as i32, libc::SIGINT) };
    first.wait().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("process {}", first.id())),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_resume_keeps_foreign_games_and_refuses_when_a_recorded_game_changed() {
    let dir = common::scratch_dir("files-resume");
    let pgn = dir.join("g.pgn");
    // An old PGN without a final line break: the first game goes on a
    // line of its own.
    std::fs::write(&pgn, "1. e4 1-0").unwrap();
    let args = quick(3, &pgn);
    common::assert_ok(&common::run_match(&args));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.starts_with("1. e4 1-0\n[Event "), "{text}");

    let foreign = "[Event \"other\"]\n\n1. d4 *\n\n";
    let mut with_foreign = text.clone();
    with_foreign.push_str(foreign);
    std::fs::write(&pgn, &with_foreign).unwrap();
    let mut resume = args.clone();
    resume.push("--resume".into());
    let out = common::run_match(&resume);
    common::assert_ok(&out);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), with_foreign);

    // A recorded game changed: refused, exit 2, the file untouched.
    let changed = with_foreign.replacen("uci960 match", "uci960 matcX", 1);
    std::fs::write(&pgn, &changed).unwrap();
    let out = common::run_match(&resume);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot resume"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), changed);

    // A state whose byte count was damaged deletes nothing: its check
    // no longer matches, so it is refused (exit 2, the PGN untouched);
    // without a check (an older state) the spans decide, not the count.
    std::fs::write(&pgn, &with_foreign).unwrap();
    let state = dir.join("g.pgn.state.json");
    let mut st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    st["pgn_bytes"] = serde_json::json!(0);
    std::fs::write(&state, st.to_string()).unwrap();
    let out = common::run_match(&resume);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("check does not match"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), with_foreign);
    st.as_object_mut().unwrap().remove("check");
    std::fs::write(&state, st.to_string()).unwrap();
    let out = common::run_match(&resume);
    common::assert_ok(&out);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), with_foreign);
}

fn uci960(args: &[&str]) -> std::process::Output {
    Command::new(common::uci960())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run uci960")
}

/// `book --output` is staged and renamed over the old file only when the
/// book is done: a book filtered in place reads its input whole, an
/// engine that cannot start leaves the old output as it was, and a FIFO
/// or device is refused.
#[test]
fn a_book_output_is_replaced_only_when_the_book_is_done() {
    let dir = common::scratch_dir("files-book");
    let book = dir.join("in.epd");
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    let made = uci960(&[
        "book",
        "--start",
        "all",
        "--count",
        "20",
        "--output",
        &arg(&book),
    ]);
    common::assert_ok(&made);
    let before = std::fs::read_to_string(&book).unwrap();
    assert_eq!(before.lines().count(), 20);

    // In place: the book read is the book written (the same 20 starts,
    // one ply each).
    let start = format!("book:{}", arg(&book));
    let filtered = uci960(&[
        "book",
        "--start",
        &start,
        "--count",
        "10",
        "--plies",
        "1",
        "--output",
        &arg(&book),
    ]);
    common::assert_ok(&filtered);
    let after = std::fs::read_to_string(&book).unwrap();
    assert_eq!(after.lines().count(), 10, "{after}");

    // An engine that does not start: exit 3, the old book whole.
    let failed = uci960(&[
        "book",
        "--count",
        "2",
        "--eval-window",
        "-50..50",
        "--engine",
        "cmd=/nonexistent/engine",
        "--output",
        &arg(&book),
    ]);
    assert_eq!(failed.status.code(), Some(3), "{}", stderr(&failed));
    assert_eq!(std::fs::read_to_string(&book).unwrap(), after);
    // Nothing left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");

    let device = uci960(&["book", "--start", "all", "--output", "/dev/null"]);
    assert_eq!(device.status.code(), Some(2), "{}", stderr(&device));
    assert!(stderr(&device).contains("a device"), "{}", stderr(&device));
}

/// `castling-test --json` and `--junit` are checked before any engine
/// runs (one file for both, or a device: usage error, nothing written)
/// and replaced whole.
#[test]
fn castling_test_reports_are_checked_first_and_replaced_whole() {
    let dir = common::scratch_dir("files-reports");
    let json = dir.join("r.json");
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    std::fs::write(&json, "old\n").unwrap();
    let hard = dir.join("r.xml");
    std::fs::hard_link(&json, &hard).unwrap();
    let out = uci960(&[
        "castling-test",
        "--json",
        &arg(&json),
        "--junit",
        &arg(&hard),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("same file"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&json).unwrap(), "old\n");
    let out = uci960(&["castling-test", "--junit", "/dev/null"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("a device"), "{}", stderr(&out));

    std::fs::remove_file(&hard).unwrap();
    let out = uci960(&[
        "castling-test",
        "--only",
        "declares-chess960",
        "--json",
        &arg(&json),
        "--junit",
        &arg(&hard),
    ]);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        stderr(&out)
    );
    common::read_json(&json);
    assert!(
        std::fs::read_to_string(&hard)
            .unwrap()
            .contains("<testsuite")
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

/// A match that holds its PGN open and plays no move until killed (its
/// engines stall on their first `go`).
fn stalled(pgn: &Path, state: &Path, shared: bool) -> std::process::Child {
    let mut args = Vec::new();
    for name in ["a", "b"] {
        args.extend(common::mock_engine_spec(name, &["--stall-on-go=1"]));
    }
    args.extend(common::strs(&[
        "--games",
        "2",
        "--timeout",
        "600",
        "--st",
        "500",
        "--pgn",
        pgn.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ]));
    if shared {
        args.push("--shared-pgn".into());
    }
    let child = common::spawn_match(&args);
    assert!(
        common::wait_for_file(pgn, Duration::from_secs(60), |_| pgn.exists()),
        "the match did not open its PGN"
    );
    child
}

/// Issue 21: two different tournaments appending to one PGN at once are
/// refused unless both ask for it (`--shared-pgn`); when they do, the
/// second one's games are appended whole and its resume state points at
/// them.
#[test]
fn two_tournaments_share_one_pgn_only_when_both_ask() {
    let dir = common::scratch_dir("files-shared-pgn");
    let pgn = dir.join("g.pgn");
    let second = |shared: bool| {
        let mut args = quick(2, &pgn);
        args.extend(common::strs(&[
            "--state",
            dir.join("b.json").to_str().unwrap(),
        ]));
        if shared {
            args.push("--shared-pgn".into());
        }
        common::run_match(&args)
    };
    let mut first = stalled(&pgn, &dir.join("a.json"), false);
    for shared in [false, true] {
        let out = second(shared);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("another run is writing"),
            "{}",
            stderr(&out)
        );
    }
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), "");

    let mut first = stalled(&pgn, &dir.join("a2.json"), true);
    let out = second(false);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = second(true);
    common::assert_ok(&out);
    first.kill().unwrap();
    first.wait().unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
}
