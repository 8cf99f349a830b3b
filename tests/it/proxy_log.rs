//! The proxy log with several instances and hostile paths: a template gives
//! each instance its own file, a shared file tells instances apart by pid,
//! a FIFO nobody reads never blocks the proxy, and a log that cannot be
//! written is reported once while the proxy goes on. The built-in engine
//! (no ENGINE argument) is the engine: these tests are about the log.

use crate::common;
use crate::proxy_util::Proxy;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A short session: handshake, one search, quit; returns the proxy's pid.
fn session(log: &str) -> u32 {
    let mut p = Proxy::start(&["--log", log]);
    let pid = p.pid();
    p.handshake();
    p.send("position startpos moves e2e4");
    p.send("go depth 1");
    p.wait_line("bestmove");
    p.send("quit");
    let (status, _, stderr) = p.finish();
    assert!(status.success(), "{status}: {stderr}");
    pid
}

/// The pid field of each line (timestamp pid direction text).
fn pids(path: &Path) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            l.split(' ')
                .nth(1)
                .and_then(|p| p.parse().ok())
                .unwrap_or_else(|| panic!("no pid in '{l}'"))
        })
        .collect()
}

#[test]
fn two_instances_with_one_template_write_two_files() {
    let dir = common::scratch_dir("log-template");
    let template = dir.join("{engine}-{time}-{pid}.log");
    let a = session(template.to_str().unwrap());
    let b = session(template.to_str().unwrap());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let mut seen = BTreeSet::new();
    for f in &files {
        let in_file: BTreeSet<u32> = pids(f).into_iter().collect();
        assert_eq!(in_file.len(), 1, "{}: one instance per file", f.display());
        let pid = *in_file.iter().next().unwrap();
        let name = f.file_name().unwrap().to_str().unwrap();
        assert!(name.ends_with(&format!("-{pid}.log")), "{name}");
        seen.insert(pid);
    }
    assert_eq!(seen, BTreeSet::from([a, b]));
    // A directory as the log: a name per instance as well.
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    session(logs.to_str().unwrap());
    session(logs.to_str().unwrap());
    assert_eq!(std::fs::read_dir(&logs).unwrap().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_instances_sharing_one_file_are_told_apart_by_pid() {
    let dir = common::scratch_dir("log-shared");
    let log = dir.join("shared.log");
    // Both at once, as a GUI runs a tournament with concurrency 2.
    let path = log.to_str().unwrap().to_string();
    let other = std::thread::spawn({
        let path = path.clone();
        move || session(&path)
    });
    let a = session(&path);
    let b = other.join().unwrap();
    let all = pids(&log);
    let distinct: BTreeSet<u32> = all.iter().copied().collect();
    assert_eq!(distinct, BTreeSet::from([a, b]));
    // Whole lines only: each instance's own lines make a complete session.
    let text = std::fs::read_to_string(&log).unwrap();
    for pid in [a, b] {
        let mine: Vec<&str> = text
            .lines()
            .filter(|l| l.split(' ').nth(1) == Some(&pid.to_string()))
            .collect();
        assert!(
            mine.iter().any(|l| l.ends_with("gui>proxy    uci")),
            "{mine:?}"
        );
        assert!(
            mine.iter().any(|l| l.contains("proxy>gui    bestmove")),
            "{mine:?}"
        );
        let quits = mine
            .iter()
            .filter(|l| l.contains("proxy>engine quit"))
            .count();
        assert_eq!(quits, 1, "quit logged once: {mine:?}");
        let gui_quit = mine
            .iter()
            .filter(|l| l.contains("gui>proxy    quit"))
            .count();
        assert_eq!(gui_quit, 1, "{mine:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_without_reader_never_blocks_the_proxy() {
    let dir = common::scratch_dir("log-fifo");
    let fifo = dir.join("log.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // From the command line.
    let mut p = Proxy::start(&["--log", fifo.to_str().unwrap()]);
    p.handshake();
    let said = p
        .seen
        .iter()
        .filter(|l| l.contains("FIFO that no process reads"))
        .count();
    assert_eq!(said, 1, "{:?}", p.seen);
    p.send("isready");
    p.wait_line("readyok");
    // From the GUI's option.
    p.send(&format!(
        "setoption name uci960 Log value {}",
        fifo.display()
    ));
    p.send("isready");
    let line = p.wait_for("log error", |l| l.contains("FIFO"));
    assert!(
        line.starts_with("info string uci960: cannot open log"),
        "{line}"
    );
    p.wait_line("readyok");
    p.send("quit");
    let (status, _, stderr) = p.finish();
    assert!(status.success());
    assert!(stderr.contains("FIFO that no process reads"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_log_is_reported_once_and_the_proxy_goes_on() {
    if !Path::new("/dev/full").exists() {
        eprintln!("SKIPPED: no /dev/full on this system");
        return;
    }
    let mut p = Proxy::start(&["--log", "/dev/full"]);
    p.handshake();
    for _ in 0..3 {
        p.send("position startpos");
        p.send("go depth 1");
        p.wait_line("bestmove");
    }
    p.send("quit");
    let (status, seen, stderr) = p.finish();
    assert!(status.success(), "{status}");
    let in_gui = seen
        .iter()
        .filter(|l| l.starts_with("info string uci960: cannot write log '/dev/full'"))
        .count();
    assert_eq!(in_gui, 1, "{seen:?}");
    assert_eq!(
        stderr.matches("cannot write log '/dev/full'").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("logging stopped"), "{stderr}");
}
