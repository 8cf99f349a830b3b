//! The I/O layer against hostile peers and signals: bursts that used to
//! deadlock both pipes, lines of 100 MB, SIGTERM while everything is
//! blocked, engines that crash, in the proxy, the match runner and the
//! castling suite. Real engines (Stockfish) and real signals.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use crate::proxy_util::{self, Proxy, alive, children_of, gone_within};

/// Hang guard: far beyond what any of these needs, far below the engine
/// timeouts a blocked command would otherwise wait for.
const GUARD: Duration = Duration::from_secs(20);

fn signal(pid: u32, sig: i32) {
    // SAFETY: kill(2) on a child of this test.
    unsafe {
        libc::kill(pid as i32, sig);
    }
}

/// The one engine child of `pid`, once it exists.
fn engine_of(pid: u32) -> u32 {
    let deadline = Instant::now() + GUARD;
    loop {
        if let [kid] = children_of(pid)[..] {
            return kid;
        }
        assert!(Instant::now() < deadline, "no engine child of {pid}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Peak resident memory of a live process, in KiB (VmHWM).
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// CPU seconds a process has used (utime + stime).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let Some((_, after)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let f: Vec<u64> = after
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|s| s.parse().ok())
        .collect();
    f.iter().sum::<u64>() as f64 / 100.0
}

fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    proxy_util::wait_exit(child, GUARD).expect("did not exit within the hang guard")
}

/// 100k `go` lines in one write, to a Stockfish behind the proxy: Stockfish
/// stops reading its input while its output is not read, so a proxy that
/// blocks writing to it while not reading from it deadlocks both. Every
/// `go` gets its `bestmove`, and the `isready` after them `readyok`.
#[test]
fn a_burst_of_100k_go_lines_through_the_proxy_finishes() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    const N: usize = 100_000;
    let mut p = Proxy::start(&["--", sf.to_str().unwrap()]);
    p.handshake();
    let mut burst = "go depth 1\n".repeat(N);
    burst.push_str("isready\n");
    let mut stdin = p.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(burst.as_bytes()).unwrap();
        stdin
    });
    // Stockfish answers `isready` without waiting for the running search,
    // so `readyok` may come just before the last `bestmove`.
    let (mut bestmoves, mut ready) = (0, false);
    while bestmoves < N || !ready {
        // A deadlock shows as no line at all for a minute.
        let Some((_, line)) = p.next_line(common::PATIENCE) else {
            panic!("stuck after {bestmoves} bestmoves");
        };
        if line.starts_with("bestmove") {
            bestmoves += 1;
        } else if line == "readyok" {
            ready = true;
        }
    }
    assert_eq!(bestmoves, N);
    p.stdin = Some(writer.join().unwrap());
    p.send("quit");
    let (status, _, _) = p.finish();
    assert_eq!(status.code(), Some(0));
}

/// A GUI that writes a burst and reads nothing: the proxy's queue to the
/// GUI fills, it stops reading the engine, the engine stops reading, the
/// queue to the engine fills and the proxy stops reading the GUI. SIGTERM
/// still ends it (128 + 15) and takes the engine along.
#[test]
fn sigterm_ends_a_proxy_whose_gui_and_engine_both_stopped_reading() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let mut child = Command::new(common::uci960())
        .args(["proxy", "--", sf.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let engine = engine_of(child.id());
    let mut stdin = child.stdin.take().unwrap();
    let stderr = common::client::line_reader(child.stderr.take().unwrap());
    // The GUI never reads stdout; the write blocks once every pipe is full.
    // The GUI keeps its end open afterwards (the handle goes back through
    // the channel): a proxy that held the whole burst before the engine's
    // `uciok` must not see the GUI leave, or it would end on its own.
    let (keep, _kept) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let burst = "uci\n".to_string() + &"go depth 1\n".repeat(400_000);
        let _ = stdin.write_all(burst.as_bytes());
        let _ = keep.send(stdin);
    });
    // The proxy says when it pauses a side: once it said it for both,
    // everything is blocked.
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut said = Vec::new();
    let mut paused = [false, false];
    while paused != [true, true] {
        let left = deadline.saturating_duration_since(Instant::now());
        let (_, line) = stderr
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("{e:?}; stderr: {said:?}"));
        paused[0] |= line.contains("the GUI is not reading");
        paused[1] |= line.contains("the engine is not reading");
        said.push(line);
    }
    signal(child.id(), libc::SIGTERM);
    let status = wait_exit(&mut child);
    assert_eq!(status.code(), Some(128 + 15));
    assert!(gone_within(engine, GUARD), "the engine outlived the proxy");
}

/// A 100 MB line from the GUI: reported once and skipped, without
/// buffering it (peak memory far below its size), and the proxy answers the
/// next line.
#[test]
fn a_100_mb_gui_line_is_skipped_with_bounded_memory() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let mut p = Proxy::start(&["--", sf.to_str().unwrap()]);
    p.handshake();
    let mut stdin = p.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"position startpos moves ").unwrap();
        let chunk = "e2e4 e7e5 ".repeat(100_000); // 1 MB
        for _ in 0..100 {
            stdin.write_all(chunk.as_bytes()).unwrap();
        }
        stdin.write_all(b"\nisready\n").unwrap();
        stdin
    });
    p.wait_line("readyok");
    p.stdin = Some(writer.join().unwrap());
    let rss = peak_rss_kib(p.pid());
    assert!(rss > 0, "no /proc data");
    assert!(rss < 64 * 1024, "peak RSS {rss} KiB for a 100 MB line");
    p.send("quit");
    let (status, _, err) = p.finish();
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        err.matches("GUI line longer than 1048576 bytes skipped")
            .count(),
        1,
        "{err}"
    );
}

/// An engine line with no end in sight (the mock's `--long-line`: 128 MiB
/// of `x` before its line end) is read past, not buffered, by the proxy
/// and by a match: peak memory stays far below the line's size, the line
/// is reported once, and the answer after it arrives.
#[test]
fn a_128_mib_engine_line_is_skipped_with_bounded_memory() {
    const LINE: &str = "--long-line=134217728";
    let mock = common::mock_engine();
    let mock = mock.to_str().unwrap();
    let mut p = Proxy::start(&["--", mock, LINE]);
    p.handshake();
    p.send("position startpos");
    p.send("go depth 1");
    p.wait_line("bestmove");
    let rss = peak_rss_kib(p.pid());
    assert!(rss > 0, "no /proc data");
    assert!(
        rss < 64 * 1024,
        "proxy: peak RSS {rss} KiB for a 128 MiB line"
    );
    p.send("quit");
    let (status, seen, err) = p.finish();
    assert_eq!(status.code(), Some(0), "{err}");
    let skipped = "engine line longer than 1048576 bytes skipped";
    assert_eq!(err.matches(skipped).count(), 1, "{err}");
    assert!(seen.iter().any(|l| l.contains(skipped)), "{seen:?}");

    // The same engine in a match: measured once the first game is written.
    let dir = std::env::temp_dir().join(format!("uci960-longline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("m.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mut child = Command::new(common::uci960())
        .arg("match")
        .args(["--engine", &format!("cmd={mock}"), &format!("arg={LINE}")])
        .args(["--engine", &format!("cmd={mock}")])
        .args(["--games", "2", "--maxmoves", "2", "--start", "sp:518"])
        .args(["--pgn", pgn.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        common::wait_for_file(&pgn, GUARD, |t| t.contains("[Round \"1\"]")),
        "no first game within the hang guard"
    );
    let rss = peak_rss_kib(child.id());
    let status = wait_exit(&mut child);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status}: {err}");
    assert!(rss > 0, "no /proc data");
    assert!(
        rss < 64 * 1024,
        "match: peak RSS {rss} KiB for a 128 MiB line"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Round ").count(), 2, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that dies by a signal is reported by the signal's name, to
/// the GUI and on stderr, and the proxy exits 1.
#[test]
fn an_engine_killed_by_a_signal_is_reported_by_name() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let mut p = Proxy::start(&["--", sf.to_str().unwrap()]);
    p.handshake();
    let engine = engine_of(p.pid());
    signal(engine, libc::SIGSEGV);
    let line = p.wait_line("info string uci960: engine");
    assert!(line.ends_with("killed by signal 11 (SIGSEGV)"), "{line}");
    let (status, _, err) = p.finish();
    assert_eq!(status.code(), Some(1));
    assert!(err.contains("killed by signal 11 (SIGSEGV)"), "{err}");
}

/// A match whose engines think 60 s per move ends at SIGTERM, not after the
/// move: 128 + 15, no engine left.
#[test]
fn sigterm_ends_a_match_waiting_on_a_long_move() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let sf = sf.to_str().unwrap();
    let mut child = Command::new(common::uci960())
        .args(["match", "--engine"])
        .arg(format!("cmd={sf}"))
        .arg("--engine")
        .arg(format!("cmd={sf}"))
        .args(["--games", "2", "--st", "60", "--seed", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until an engine is thinking: it has used a little CPU.
    let deadline = Instant::now() + GUARD;
    let thinking = loop {
        let busy = children_of(child.id())
            .into_iter()
            .find(|&k| cpu_seconds(k) > 1.0);
        if let Some(k) = busy {
            break k;
        }
        assert!(Instant::now() < deadline, "no engine started thinking");
        std::thread::sleep(Duration::from_millis(20));
    };
    let engines = children_of(child.id());
    signal(child.id(), libc::SIGTERM);
    let status = wait_exit(&mut child);
    assert_eq!(status.code(), Some(128 + 15));
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    assert!(err.contains("interrupted"), "{err}");
    for e in engines {
        assert!(gone_within(e, GUARD), "engine {e} outlived the match");
    }
    assert!(!alive(thinking));
}

/// castling-test in a long perft ends at SIGINT: 128 + 2, no engine left.
#[test]
fn sigint_ends_castling_test_in_a_long_perft() {
    let Some(sf) = common::require_engine("stockfish") else {
        return;
    };
    let mut child = Command::new(common::uci960())
        .args([
            "castling-test",
            "--depth",
            "7",
            "--only",
            "perft-start",
            "--",
        ])
        .arg(&sf)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let engine = engine_of(child.id());
    let deadline = Instant::now() + GUARD;
    while cpu_seconds(engine) < 0.5 {
        assert!(Instant::now() < deadline, "the engine never got busy");
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(child.id(), libc::SIGINT);
    let status = wait_exit(&mut child);
    assert_eq!(status.code(), Some(128 + 2));
    assert!(
        gone_within(engine, GUARD),
        "the engine outlived castling-test"
    );
}

/// The grandchild pid a `--fork-child` mock announces.
fn grandchild_of(line: &str) -> u32 {
    line.rsplit(' ')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {line:?}"))
}

/// An engine that leaves a child of its own behind (a wrapper that forks
/// instead of exec'ing): the child is in the engine's process group and
/// goes with it, after a GUI `quit` and after SIGTERM alike.
#[test]
fn an_engine_s_own_child_does_not_outlive_the_proxy() {
    let mock = common::mock_engine();
    // `--setsid-child`: the grandchild left the engine's session and group
    // (issue 21); the proxy finds it by parent PIDs or as an orphan.
    for (sigterm, fork) in [
        (false, "--fork-child"),
        (true, "--fork-child"),
        (false, "--setsid-child"),
        (true, "--setsid-child"),
    ] {
        let mut p = Proxy::start(&["--", mock.to_str().unwrap(), fork]);
        p.send("uci");
        let grandchild = grandchild_of(&p.wait_line("info string grandchild pid"));
        p.wait_line("uciok");
        assert!(alive(grandchild));
        if sigterm {
            signal(p.pid(), libc::SIGTERM);
            let status = wait_exit(&mut p.child);
            assert_eq!(status.code(), Some(128 + 15));
        } else {
            p.send("quit");
            let (status, _, _) = p.finish();
            assert_eq!(status.code(), Some(0));
        }
        assert!(
            gone_within(grandchild, GUARD),
            "the engine's child outlived the proxy (sigterm: {sigterm}, {fork})"
        );
    }
}

/// The same for the match runner: after the match, no engine's child is
/// left (their pids come from the mock's pid log).
#[test]
fn an_engine_s_own_child_does_not_outlive_a_match() {
    let dir = std::env::temp_dir().join(format!("uci960-io-fork-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("pids.log");
    let _ = std::fs::remove_file(&log);
    let pid_log = format!("--pid-log={}", log.display());
    let mut args = vec!["match".to_string()];
    args.extend(common::mock_engine_spec("a", &["--fork-child", &pid_log]));
    args.extend(common::mock_engine_spec("b", &["--setsid-child", &pid_log]));
    args.extend(["--games", "2", "--seed", "3"].map(String::from));
    let out = Command::new(common::uci960()).args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let grandchildren: Vec<u32> = text
        .lines()
        .filter(|l| l.contains(" child "))
        .map(grandchild_of)
        .collect();
    assert!(!grandchildren.is_empty(), "{text}");
    for g in grandchildren {
        assert!(gone_within(g, GUARD), "grandchild {g} outlived the match");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pipe as a child's stderr, already full (nobody reads it): any write
/// of the child to stderr would block. The reading end is returned to be
/// kept open (a closed pipe would give EPIPE instead).
fn full_stderr() -> (std::io::PipeReader, std::io::PipeWriter) {
    use std::os::fd::AsRawFd;
    let (reader, mut writer) = std::io::pipe().unwrap();
    let fd = writer.as_raw_fd();
    // SAFETY: fcntl on a descriptor this test owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    let chunk = [b'x'; 4096];
    loop {
        match writer.write(&chunk) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("filling the pipe: {e}"),
        }
    }
    // SAFETY: as above; the child gets the blocking mode back.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
    (reader, writer)
}

/// A proxy before the mock with `flag`, its stderr `stderr`: the handshake
/// and one `go depth 1`, whose `bestmove` comes before the `readyok` of
/// the `isready` after it. The proxy, its engine's pid, its stdin and
/// stdout (kept: a closed stdout would end the proxy).
fn one_move_through_a_proxy(flag: &str, stderr: std::io::PipeWriter) -> ProxyAfterAMove {
    let (child, stdin, lines) = common::client::proxy_after_one_move(flag, stderr);
    let engine = engine_of(child.id());
    (child, engine, stdin, lines)
}

type ProxyAfterAMove = (
    Child,
    u32,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<(Instant, String)>,
);

/// Issue 21: a stderr pipe that nobody reads hung the proxy and `match`,
/// and SIGTERM was then ignored (the watchdog wrote to stderr before
/// exiting). Lines to a full stderr are now dropped: a match runs to its
/// end, and a proxy whose stderr is full ends on SIGTERM with 128 + 15,
/// its engine with it.
#[test]
fn a_full_stderr_blocks_neither_a_command_nor_a_signal() {
    let (_keep, full) = full_stderr();
    let out = Command::new(common::uci960())
        .args(["match", "--nodes", "50", "--games", "2", "--maxmoves", "6"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(full.try_clone().unwrap())
        .spawn()
        .unwrap();
    let mut out = out;
    let status = wait_exit(&mut out);
    assert_eq!(status.code(), Some(0));

    // `book` reports its tally on stderr at the end: it used to block
    // there for good.
    let mut book = Command::new(common::uci960())
        .args(["book", "--start", "dfrc", "--count", "20", "--seed", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(full.try_clone().unwrap())
        .spawn()
        .unwrap();
    // 20 lines fit in the stdout pipe: the book does not wait on it.
    assert_eq!(wait_exit(&mut book).code(), Some(0));
    let mut lines = String::new();
    book.stdout
        .take()
        .unwrap()
        .read_to_string(&mut lines)
        .unwrap();
    assert_eq!(lines.lines().count(), 20, "{lines}");

    // An engine line longer than the limit is reported on stderr before
    // the bestmove: the proxy used to block there for good.
    let (mut child, engine, _stdin, _stdout) =
        one_move_through_a_proxy("--long-line=2097152", full);
    signal(child.id(), libc::SIGTERM);
    let status = wait_exit(&mut child);
    assert_eq!(status.code(), Some(128 + 15));
    assert!(gone_within(engine, GUARD), "the engine outlived the proxy");
}

/// Issue 21: a proxy config whose engine is uci960 itself started proxies
/// without end. The fifth proxy deep refuses, and the GUI is told why in
/// the handshake.
#[test]
fn a_config_that_starts_the_proxy_again_is_refused_in_the_handshake() {
    let dir = common::scratch_dir("proxy-recursion");
    let config = dir.join("loop.toml");
    // The `args` line forgotten: uci960 without arguments is the proxy of
    // UCI960_PROXY_CONFIG, which is this file again.
    std::fs::write(
        &config,
        format!(
            "[engine]\nprogram = {:?}\n",
            common::uci960().to_str().unwrap()
        ),
    )
    .unwrap();
    let mut child = Command::new(common::uci960())
        .env("UCI960_PROXY_CONFIG", &config)
        .env_remove("UCI960_PROXY_DEPTH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines = common::client::line_reader(child.stdout.take().unwrap());
    stdin.write_all(b"uci\n").unwrap();
    let deadline = Instant::now() + GUARD;
    let mut said = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let (_, line) = lines
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("{e:?}: {said:?}"));
        said.push(line.clone());
        if line == "uciok" {
            break;
        }
    }
    assert!(
        said.iter()
            .any(|l| l.starts_with("id name") && l.contains("starts uci960 proxy again")),
        "{said:?}"
    );
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let status = wait_exit(&mut child);
    assert!(status.code().is_some(), "{status:?}");
}

/// Issue 21: GUI lines sent before the engine's `uciok` were held without
/// limit (512 MiB of `isready` grew the proxy to 3.7 GB). Now at most
/// about 1 MiB is held, then the GUI is not read until `uciok`: 64 MiB of
/// lines before a slow `uciok` leave the proxy's peak memory far below
/// their size, and every line still reaches the engine.
#[test]
fn lines_before_uciok_are_held_with_bounded_memory() {
    let mock = common::mock_engine();
    let mut p = Proxy::start(&[
        "--",
        mock.to_str().unwrap(),
        "--slow-uciok",
        "--delay-ms=3000",
    ]);
    let mut stdin = p.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"uci\n").unwrap();
        // Lines the engine reads and ignores.
        let chunk = "debug off\n".repeat(100_000); // 1 MB
        for _ in 0..64 {
            stdin.write_all(chunk.as_bytes()).unwrap();
        }
        stdin.write_all(b"isready\n").unwrap();
        stdin
    });
    p.wait_line("uciok");
    p.wait_line("readyok");
    p.stdin = Some(writer.join().unwrap());
    let rss = peak_rss_kib(p.pid());
    assert!(rss > 0, "no /proc data");
    assert!(
        rss < 48 * 1024,
        "peak RSS {rss} KiB for 64 MB held before uciok"
    );
    p.send("quit");
    let (status, _, _) = p.finish();
    assert_eq!(status.code(), Some(0));
}

/// Issue 21: `match` killed with SIGKILL left engines that do not exit at
/// end of input running under PID 1. Engines now die with uci960
/// (`PR_SET_PDEATHSIG`), even when it is SIGKILLed.
#[test]
fn engines_die_with_a_sigkilled_match() {
    let dir = common::scratch_dir("io-sigkill-match");
    let log = dir.join("pids.log");
    let pid_log = format!("--pid-log={}", log.display());
    let mut args = vec!["match".to_string()];
    // Each engine stalls on its first move, so the match is under way
    // until it is killed; neither exits when its input ends.
    for name in ["a", "b"] {
        args.extend(common::mock_engine_spec(
            name,
            &["--ignore-eof", "--stall-on-go=1", &pid_log],
        ));
    }
    args.extend(["--games", "2", "--timeout", "600", "--st", "500"].map(String::from));
    let mut child = Command::new(common::uci960())
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pids =
        |text: &str| -> Vec<u32> { text.lines().filter_map(|l| l.trim().parse().ok()).collect() };
    assert!(
        common::wait_for_file(&log, GUARD, |t| pids(t).len() >= 2),
        "the engines did not start"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    for pid in pids(&std::fs::read_to_string(&log).unwrap()) {
        assert!(
            gone_within(pid, GUARD),
            "engine {pid} outlived the SIGKILLed match"
        );
    }
}

/// Issue 21: the proxy's engine shared the proxy's stderr, so an engine
/// that writes to stderr while the GUI does not read it blocked, and the
/// game hung. The engine's stderr is now a pipe the proxy drains through
/// its diagnostics queue: past what the queue holds (256 KiB) its lines
/// are dropped and counted. The game goes on; `quit` ends the proxy with
/// 0 (the queued lines and the count of dropped ones reach stderr once
/// it is read), SIGTERM with 128 + 15, the engine with it.
#[test]
fn an_engine_writing_to_a_stderr_nobody_reads_does_not_hang_the_proxy() {
    for sigterm in [false, true] {
        let (mut keep, full) = full_stderr();
        // 1 MiB to stderr before each bestmove.
        let (mut child, engine, mut stdin, _stdout) =
            one_move_through_a_proxy("--spam-stderr=1048576", full);
        if sigterm {
            signal(child.id(), libc::SIGTERM);
            let status = wait_exit(&mut child);
            assert_eq!(status.code(), Some(128 + 15));
        } else {
            // Reading starts before `quit`: the first bytes read say the
            // stuck writer can move again.
            let (started, reading) = std::sync::mpsc::channel();
            let reader = std::thread::spawn(move || {
                let mut text = vec![0; 4096];
                let n = keep.read(&mut text).unwrap_or(0);
                text.truncate(n);
                let _ = started.send(());
                let _ = keep.read_to_end(&mut text);
                text
            });
            reading
                .recv_timeout(GUARD)
                .expect("stderr had nothing to read");
            stdin.write_all(b"quit\n").unwrap();
            drop(stdin);
            let status = wait_exit(&mut child);
            assert_eq!(status.code(), Some(0));
            let text = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
            assert!(text.contains("info string stderr spam"), "no engine line");
            assert!(
                text.contains("lines to stderr were dropped (stderr was not read)"),
                "no count of dropped lines in {} bytes",
                text.len()
            );
        }
        assert!(gone_within(engine, GUARD), "the engine outlived the proxy");
    }
}

/// Issue 21: the orphan sweep ended every child of uci960 that was not an
/// engine, so with two engines at once the end of one killed the other's
/// helper. Engine `a` leaves an orphan (a daemon's double fork, `setsid()`
/// included) and lives on; `b` crashes at its first move, game after game,
/// and is ended each time. `a`'s orphan survives every end of `b` while
/// `a` runs (`a` stalls on its second move, so the match is still under
/// way when it is looked at), and goes with `a` when the match ends.
#[test]
fn an_engine_s_orphan_survives_the_end_of_another_engine() {
    let dir = common::scratch_dir("io-orphan-owner");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let mut args = vec!["match".to_string()];
    args.extend(common::mock_engine_spec(
        "a",
        &[
            "--orphan-child",
            "--stall-on-go=2",
            &format!("--pid-log={}", log_a.display()),
        ],
    ));
    args.extend(common::mock_engine_spec(
        "b",
        &["--crash-on-go=1", &format!("--pid-log={}", log_b.display())],
    ));
    args.extend(["--games", "4", "--timeout", "600", "--st", "500"].map(String::from));
    let mut child = Command::new(common::uci960())
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pids =
        |text: &str| -> Vec<u32> { text.lines().filter_map(|l| l.trim().parse().ok()).collect() };
    // A second `b` started: the first was ended (and swept) before.
    assert!(
        common::wait_for_file(&log_b, GUARD, |t| pids(t).len() >= 2),
        "b was not started twice"
    );
    let text_a = std::fs::read_to_string(&log_a).unwrap();
    let engine_a = pids(&text_a)[0];
    let orphan = text_a
        .lines()
        .find(|l| l.contains(" child "))
        .map(grandchild_of)
        .unwrap_or_else(|| panic!("no orphan in {text_a:?}"));
    assert!(alive(engine_a), "a ended");
    assert!(alive(orphan), "a's orphan died with b while a runs");
    signal(child.id(), libc::SIGTERM);
    wait_exit(&mut child);
    assert!(gone_within(orphan, GUARD), "a's orphan outlived the match");
    assert!(gone_within(engine_a, GUARD), "a outlived the match");
}
