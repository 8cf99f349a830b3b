//! The Windows test set, run under wine by `scripts/test-windows.sh`:
//! `uci960.exe` against Windows engines only (under wine a Windows program
//! pipes only to Windows programs): the built-in engine (`uci960.exe
//! engine`) and the Rust mock engine (`mock_engine.exe`). What issue 10
//! asks the Windows build to show: a proxy session with injected start
//! positions, a match whose PGN replays, the castling suite, faults
//! reported as on Linux, no engine left behind when the proxy is killed
//! hard or the GUI goes away.
//!
//! (`positions`/`show`/`analyze` are compared byte for byte with the Linux
//! build by the script itself, which has both binaries.)

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use uci960::game::pgn::read_games;
use uci960::notation::castling::{CastlingNotation, read_move};
use uci960::notation::fen::parse_position;

use crate::common::{self, Client, OnDrop, gone_within, wait_exit};

const GUARD: Duration = Duration::from_secs(60);

fn uci960() -> String {
    common::uci960().display().to_string()
}

fn mock() -> String {
    common::mock_engine().display().to_string()
}

fn proxy(args: &[&str]) -> Client {
    let mut cmd = Command::new(common::uci960());
    cmd.arg("proxy").args(args);
    Client::spawn(cmd, true, OnDrop::Kill)
}

/// A scratch directory under the target dir (a Windows path under wine).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `uci` handshake through a proxy in front of `mock --announce-pid`:
/// the engine's pid, from its `info string pid N` line.
fn handshake_for_pid(p: &mut Client) -> u32 {
    p.send("uci");
    let lines = p.until(|l| l == "uciok");
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string pid ")?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no pid announced in {lines:?}"))
}

/// `uci960.exe proxy -- uci960.exe engine` with `uci960 Start = die`: each
/// `ucinewgame` announces a Chess960 position, and the engine's moves are
/// legal in it.
#[test]
fn proxy_injects_positions_and_the_builtin_engine_answers_legally() {
    let mut p = proxy(&["--seed", "7", "--", &uci960(), "engine"]);
    p.handshake();
    p.send("setoption name uci960 Start value die");
    p.send("setoption name UCI_Chess960 value true");
    p.sync();
    for _ in 0..3 {
        p.send("ucinewgame");
        p.send("position startpos");
        p.send("go depth 2");
        let lines = p.until(|l| l.starts_with("bestmove"));
        let announced = lines
            .iter()
            .find_map(|l| l.split_once(" fen ").filter(|_| l.contains("uci960 start")))
            .map(|(_, fen)| fen.to_string())
            .unwrap_or_else(|| panic!("no position announced: {lines:?}"));
        let pos = parse_position(&announced).unwrap();
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert!(
            read_move(&pos, best, CastlingNotation::KingTakesRook).is_ok(),
            "{best} is not legal in {announced}"
        );
    }
    p.send("quit");
    let (status, _, _) = p.finish();
    assert_eq!(status.code(), Some(0));
}

/// `uci960.exe match --games 4` with the built-in engine against the mock:
/// the PGN replays (shakmaty here; python-chess on the Linux side reads
/// the copy the script keeps).
#[test]
fn a_four_game_match_writes_a_pgn_that_replays() {
    let dir = scratch("windows-match");
    let pgn = dir.join("match.pgn");
    let mut args = vec!["match".to_string()];
    args.extend(common::mock_engine_spec("mock", &[]));
    args.extend(
        [
            "--engine",
            &format!("cmd={}", uci960()),
            "arg=engine",
            "name=builtin",
            "--games",
            "4",
            "--depth",
            "2",
            "--seed",
            "11",
            "--pgn",
            pgn.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let out = Command::new(common::uci960()).args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every move of every game is checked as it is read back.
    let games = read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_ne!(g.result, "*");
    }
    if let Some(keep) = std::env::var_os("UCI960_WINDOWS_PGN") {
        std::fs::copy(&pgn, keep).unwrap();
    }
}

/// The castling suite passes the built-in engine and catches the mock's
/// king-two-squares castles.
#[test]
fn castling_test_passes_the_builtin_engine_and_catches_king_two_squares() {
    let run = |engine: &[&str]| {
        Command::new(common::uci960())
            .args(["castling-test", "--depth", "2", "--"])
            .args(engine)
            .output()
            .unwrap()
    };
    let good = run(&[&uci960(), "engine"]);
    assert_eq!(
        good.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&good.stdout),
        String::from_utf8_lossy(&good.stderr)
    );
    let bad = run(&[&mock(), "--king-two-squares"]);
    let report = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{report}");
    assert!(report.contains("FAIL"), "{report}");
}

/// A crash is reported with its NTSTATUS code by name.
#[test]
fn an_engine_crash_is_reported_with_its_status_name() {
    let mut p = proxy(&["--", &mock(), "--crash-on-go"]);
    p.handshake();
    p.send("position startpos");
    p.send("go depth 1");
    let line = p.wait_line("info string uci960: engine");
    assert!(
        line.ends_with("exited with code 0xC0000005 (access violation)"),
        "{line}"
    );
    let (status, _, err) = p.finish();
    assert_eq!(status.code(), Some(1));
    assert!(err.contains("0xC0000005 (access violation)"), "{err}");
}

/// A hanging engine is reported after the silence timeout; garbage bytes
/// pass through unchanged, CRLF included.
#[test]
fn hangs_and_garbage_are_reported_as_on_linux() {
    let mut p = proxy(&["--silence-timeout", "1", "--", &mock(), "--hang-after-go"]);
    p.handshake();
    p.send("position startpos");
    p.send("go depth 1");
    p.send("stop");
    p.wait_for("the silence report", |l| {
        l.starts_with("info string uci960:") && l.contains("stop")
    });
    drop(p);

    let mut child = Command::new(common::uci960())
        .args(["proxy", "--", &mock(), "--garbage"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"uci\r\nisready\r\nposition startpos\r\ngo depth 1\r\n")
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        // Until the bestmove: then the GUI closes its side.
        while !buf.windows(15).any(|w| w == b"bestmove e2e4\r\n") {
            match std::io::Read::read(&mut stdout, &mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
        buf
    });
    let out = reader.join().unwrap();
    drop(stdin);
    let status = wait_exit(&mut child, GUARD).expect("proxy exits at GUI EOF");
    assert!(status.success(), "{status}");
    let contains = |needle: &[u8]| out.windows(needle.len()).any(|w| w == needle);
    assert!(contains(b"\ninfo string \xff\xfe not utf-8\n"));
    assert!(contains(b"\ninfo depth 1 pv e2e4\r\n"), "CRLF kept");
    assert!(contains(b"\n\x00\x01 random bytes\n"));
}

/// The proxy killed hard (TerminateProcess, what `taskkill /F` does)
/// leaves no engine: the engine's Job Object dies with the proxy's handle.
/// And at GUI EOF the proxy ends cleanly with its engine.
#[test]
fn no_engine_outlives_the_proxy_killed_hard_or_at_gui_eof() {
    for hard in [true, false] {
        let mut p = proxy(&["--", &mock(), "--announce-pid"]);
        let engine = handshake_for_pid(&mut p);
        if hard {
            p.child.kill().unwrap();
            let _ = p.child.wait();
        } else {
            let (status, _, _) = p.finish();
            assert_eq!(status.code(), Some(0));
        }
        assert!(
            gone_within(engine, GUARD),
            "engine {engine} outlived the proxy (killed hard: {hard})"
        );
    }
}

/// Paths with spaces and a relative program under `dir=`.
#[test]
fn engine_paths_with_spaces_and_relative_to_dir() {
    let dir = scratch("windows paths");
    let sub = dir.join("my engines");
    std::fs::create_dir_all(&sub).unwrap();
    let exe = sub.join("mock engine.exe");
    std::fs::copy(common::mock_engine(), &exe).unwrap();
    let mut p = proxy(&["--", exe.to_str().unwrap()]);
    p.handshake();
    p.send("quit");
    assert_eq!(p.finish().0.code(), Some(0));

    let config = dir.join("proxy.toml");
    std::fs::write(
        &config,
        format!(
            "[engine]\nprogram = 'my engines\\mock engine.exe'\ndir = '{}'\n",
            dir.display()
        ),
    )
    .unwrap();
    let mut p = proxy(&["--config", config.to_str().unwrap()]);
    p.handshake();
    p.send("quit");
    assert_eq!(p.finish().0.code(), Some(0));
}

const TOKEN: &str = "windows-token-0123456789abcdef";

/// `uci960.exe serve` in `dir` with the built-in engine as `builtin`, the
/// token [`TOKEN`] (`token.txt` holds it, `bad.txt` a wrong one); its
/// port. (Under wine a Windows program pipes only to Windows programs, so
/// both ends are the Windows build.)
fn serve_builtin(dir: &std::path::Path) -> (std::process::Child, String) {
    std::fs::write(
        dir.join("tokens.sha256"),
        format!("{}\n", uci960::remote::token::TokenHash::of(TOKEN).to_hex()),
    )
    .unwrap();
    std::fs::write(dir.join("token.txt"), format!("{TOKEN}\r\n")).unwrap();
    std::fs::write(dir.join("bad.txt"), "wrong-token-0123456789abcdef\n").unwrap();
    // The built-in engine is `uci960.exe engine`: an allow-list entry with
    // arguments, so a config (TOML literal strings keep the backslashes).
    std::fs::write(
        dir.join("serve.toml"),
        format!(
            "listen = '127.0.0.1:0'\ntoken-file = 'tokens.sha256'\ncert = 'cert.pem'\nkey = 'key.pem'\n\
             [engines.builtin]\ncmd = '{}'\nargs = ['engine']\n",
            uci960()
        ),
    )
    .unwrap();
    let mut serve = Command::new(common::uci960());
    serve
        .args(["serve", "--config"])
        .arg(dir.join("serve.toml"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut server = serve.spawn().expect("start serve");
    let log = common::client::line_reader(server.stderr.take().unwrap());
    let listening = loop {
        let (_, line) = log.recv_timeout(GUARD).expect("serve prints its address");
        if line.contains("listening on") {
            break line;
        }
    };
    let port = listening
        .split("listening on 127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{listening}"))
        .to_string();
    // The log goes on being read (and dropped), so the server never
    // blocks on a full stderr pipe.
    std::thread::spawn(move || while log.recv().is_ok() {});
    (server, port)
}

/// `uci960.exe proxy --remote` against `uci960.exe serve` (under wine a
/// Windows program pipes only to Windows programs, so both ends are the
/// Windows build): the fingerprint is pinned, the built-in engine plays
/// through the link with the proxy's start-position injection on the
/// client side, a wrong token is refused, and the engine ends with the
/// connection.
#[test]
fn proxy_remote_reaches_serve_over_tls() {
    let dir = scratch("remote");
    let (mut server, port) = serve_builtin(&dir);
    let url = format!("uci960s://127.0.0.1:{port}/builtin");
    let known = dir.join("known_hosts");
    let known = known.display().to_string();
    let bad = dir.join("bad.txt").display().to_string();
    let mut refused = proxy(&[
        "--remote",
        &url,
        "--token-file",
        &bad,
        "--known-hosts",
        &known,
    ]);
    refused.send("uci");
    let lines = refused.until(|l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.contains("authentication failed")),
        "{lines:?}"
    );
    let good = dir.join("token.txt").display().to_string();
    let mut p = proxy(&[
        "--remote",
        &url,
        "--token-file",
        &good,
        "--known-hosts",
        &known,
        "--start",
        "sp:518",
    ]);
    p.send("uci");
    p.until(|l| l == "uciok");
    p.send("ucinewgame");
    p.send("position startpos");
    let (best, _) = p.go("go depth 2");
    // `go` returns the move itself: a real move, not a null move.
    assert!(matches!(best.len(), 4 | 5) && best != "0000", "{best}");
    p.send("quit");
    let status = wait_exit(&mut p.child, GUARD).expect("the proxy exits after quit");
    assert!(status.success(), "{status:?}");
    assert!(
        std::fs::read_to_string(dir.join("known_hosts"))
            .unwrap()
            .contains("SHA256:")
    );
    let _ = server.kill();
    let _ = server.wait();
}

/// The project's own GUI side (`uci_bench_client gui`, a Windows program)
/// adds `dir\sf960.exe` (a copy of `uci960.exe`, configured by the
/// `sf960.toml` written beside it) as a Windows GUI does: started with no
/// arguments in its own folder; CRLF lines, X-FEN with `KQkq` and castles
/// king-takes-rook in the moves list, no `UCI_Chess960` (what Arena is
/// reported to do); it plays a game to its end, checking every answer
/// (legal, castles included). Returns the GUI, still holding its engine,
/// and the proxy's pid.
fn a_windows_gui_plays_a_game(dir: &std::path::Path, toml: &str) -> (std::process::Child, u32) {
    std::fs::copy(common::uci960(), dir.join("sf960.exe")).unwrap();
    std::fs::write(dir.join("sf960.toml"), toml).unwrap();
    let mut gui = Command::new(common::example("uci_bench_client"))
        .args(["gui", "--depth", "2", "--seed", "5", "--"])
        .arg(dir.join("sf960.exe"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = common::client::line_reader(gui.stdout.take().unwrap());
    let mut seen = Vec::new();
    let next = |seen: &mut Vec<String>| {
        let (_, line) = out
            .recv_timeout(Duration::from_secs(300))
            .unwrap_or_else(|_| panic!("the GUI stopped talking after {seen:?}"));
        seen.push(line.clone());
        line
    };
    let proxy: u32 = next(&mut seen)
        .strip_prefix("gui: proxy pid ")
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no proxy pid first: {seen:?}"));
    let over = next(&mut seen);
    assert!(over.starts_with("gui: game over: "), "{seen:?}");
    // The GUI's own moves castle when they can, so a castle went through
    // the proxy: "castles: gui N, engine M".
    assert!(!over.contains("castles: gui 0"), "{over}");
    (gui, proxy)
}

/// Kills the GUI hard; neither the proxy nor any of `engines` may outlive
/// it.
fn kill_the_gui(mut gui: std::process::Child, proxy: u32, engines: &[u32]) {
    gui.kill().unwrap();
    let _ = gui.wait();
    assert!(
        gone_within(proxy, GUARD),
        "proxy {proxy} outlived the GUI killed hard"
    );
    for &engine in engines {
        assert!(
            gone_within(engine, GUARD),
            "engine {engine} outlived the GUI killed hard"
        );
    }
}

/// A Windows GUI's way of adding an engine (issue 25): `sf960.exe`
/// started with no arguments finds `sf960.toml`, which names the built-in
/// engine (`uci960.exe engine`); a game is played to its end through it
/// (see [`a_windows_gui_plays_a_game`]); then the GUI is killed hard and
/// nothing is left running.
#[test]
fn a_windows_gui_plays_a_game_through_sf960_started_without_arguments() {
    let dir = scratch("windows-gui");
    std::fs::copy(common::uci960(), dir.join("uci960.exe")).unwrap();
    // A program without a folder part is found beside the proxy: Windows
    // looks in the starting program's folder first.
    let (gui, proxy) = a_windows_gui_plays_a_game(
        &dir,
        "[engine]\nprogram = 'uci960.exe'\nargs = ['engine']\n",
    );
    let engines = common::children_of(proxy);
    assert!(!engines.is_empty(), "no engine under proxy {proxy}");
    kill_the_gui(gui, proxy, &engines);
}

/// The same GUI game with the engine on a `uci960.exe serve`: `sf960.toml`
/// holds only `[remote]` (the Windows build's client side, as a GUI starts
/// it); the GUI killed hard ends the proxy, its connection and the
/// server's engine.
#[test]
fn a_windows_gui_plays_a_game_through_proxy_remote() {
    let dir = scratch("windows-gui-remote");
    let (mut server, port) = serve_builtin(&dir);
    let (gui, proxy) = a_windows_gui_plays_a_game(
        &dir,
        &format!(
            "[remote]\nurl = 'uci960s://127.0.0.1:{port}/builtin'\n\
             token-file = 'token.txt'\nknown-hosts = 'known_hosts'\n"
        ),
    );
    let engines = common::children_of(server.id());
    assert!(!engines.is_empty(), "no engine under serve {}", server.id());
    kill_the_gui(gui, proxy, &engines);
    let _ = server.kill();
    let _ = server.wait();
}

/// The pids in a mock's `--pid-log` once it holds `n` of them (polled: no
/// inotify here); empty after the hang guard.
fn pids_in_log(log: &std::path::Path, n: usize) -> Vec<u32> {
    let deadline = std::time::Instant::now() + GUARD;
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if pids.len() >= n || std::time::Instant::now() >= deadline {
            return pids;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 21: engines die with `match` and `castling-test` killed hard
/// (TerminateProcess): each engine is in a kill-on-close Job Object. The
/// mock hangs (after `uciok`, or at its first `go` in a match) and outlives
/// its input, so only the job ends it.
#[test]
fn engines_die_with_a_match_or_castling_test_killed_hard() {
    let dir = scratch("windows-kill-hard");
    for (i, command) in ["match", "castling-test"].into_iter().enumerate() {
        let log = dir.join(format!("pids{i}.log"));
        // A match starts its second engine only after the first one's
        // handshake: its engines hang at their first `go` instead.
        let hang = if command == "match" {
            "--hang-after-go"
        } else {
            "--hang-after-uci"
        };
        let flags = [
            hang,
            "--ignore-eof",
            &format!("--pid-log={}", log.display()),
        ];
        let mut cmd = Command::new(common::uci960());
        let wanted = if command == "match" {
            let mut args = vec!["match".to_string()];
            args.extend(common::mock_engine_spec("a", &flags));
            args.extend(common::mock_engine_spec("b", &flags));
            args.extend(["--games", "2", "--timeout", "600"].map(String::from));
            cmd.args(args);
            2
        } else {
            cmd.args(["castling-test", "--timeout", "600", "--", &mock()])
                .args(flags);
            1
        };
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pids = pids_in_log(&log, wanted);
        assert_eq!(pids.len(), wanted, "{command}: the engines did not start");
        child.kill().unwrap();
        let _ = child.wait();
        for pid in pids {
            assert!(
                gone_within(pid, GUARD),
                "engine {pid} outlived {command} killed hard"
            );
        }
    }
}

/// Issue 21 on Windows: stderr is written by a thread of its own, so a
/// stderr pipe nobody reads blocks neither the proxy nor its engine (whose
/// stderr the proxy drains). The pipe is kept full by a thread of the
/// test writing into it.
#[test]
fn a_full_stderr_blocks_neither_the_proxy_nor_its_engine() {
    let (keep, full) = std::io::pipe().unwrap();
    let mut filler = full.try_clone().unwrap();
    std::thread::spawn(move || {
        let chunk = [b'x'; 1 << 16];
        // Blocks once the pipe is full; ends when the test drops `keep`.
        while filler.write_all(&chunk).is_ok() {}
    });
    let (mut child, mut stdin, _lines) =
        common::client::proxy_after_one_move("--spam-stderr=1048576", full);
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let status = wait_exit(&mut child, GUARD).expect("the proxy did not exit");
    assert_eq!(status.code(), Some(0));
    drop(keep);
}
