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
    let mut first = Command::new(common::uci960())
        .arg("match")
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
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

    // A state whose byte count was damaged deletes nothing.
    std::fs::write(&pgn, &with_foreign).unwrap();
    let state = dir.join("g.pgn.state.json");
    let mut st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    st["pgn_bytes"] = serde_json::json!(0);
    std::fs::write(&state, st.to_string()).unwrap();
    let out = common::run_match(&resume);
    common::assert_ok(&out);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), with_foreign);
}
