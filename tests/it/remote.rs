//! `uci960 serve` and `uci960 proxy --remote` on 127.0.0.1: the project's
//! own server and clients only. Each test starts its own server on port 0
//! with its own certificate, token and known-hosts files, and checks that
//! what must be refused is refused, that no engine is left running and no
//! file written, and that python-chess plays Chess960 through the link.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use uci960::remote::client::{self, Bridge, ClientSettings, ConnectError};
use uci960::remote::link::Received;

use crate::common;
use crate::common::process::gone_within;

const TOKEN: &str = "a-test-token-0123456789abcdef";
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `uci960 serve` and its stderr lines.
struct Server {
    child: Child,
    port: u16,
    log: Receiver<String>,
    seen: Vec<String>,
    dir: PathBuf,
}

impl Server {
    /// Serves `engines` (NAME=PROGRAM) with the test token and `extra` flags.
    fn start(name: &str, engines: &[String], extra: &[&str]) -> Server {
        let dir = common::scratch_dir(name);
        Server::start_in(dir, engines, extra)
    }

    fn start_in(dir: PathBuf, engines: &[String], extra: &[&str]) -> Server {
        let hashes = dir.join("tokens.sha256");
        std::fs::write(
            &hashes,
            format!(
                "{}  -\n",
                uci960::remote::token::TokenHash::of(TOKEN).to_hex()
            ),
        )
        .unwrap();
        let mut cmd = Command::new(common::uci960());
        cmd.args(["serve", "--listen", "127.0.0.1:0", "--token-file"])
            .arg(&hashes)
            .arg("--cert")
            .arg(dir.join("cert.pem"))
            .arg("--key")
            .arg(dir.join("key.pem"));
        for e in engines {
            cmd.args(["--engine", e]);
        }
        cmd.args(extra);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start uci960 serve");
        let (tx, log) = mpsc::channel();
        let stderr = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            port: 0,
            log,
            seen: Vec::new(),
            dir,
        };
        let line = server.wait_log("listening on");
        let addr = line
            .split("listening on ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line}"));
        server.port = addr.rsplit(':').next().unwrap().parse().unwrap();
        server
    }

    /// Waits for a log line containing `what`; returns it.
    fn wait_log(&mut self, what: &str) -> String {
        if let Some(l) = self.seen.iter().find(|l| l.contains(what)) {
            return l.clone();
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.log.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(what) {
                        return line;
                    }
                }
                Err(_) => panic!("no '{what}' in the server's log:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// The log so far (without waiting).
    fn drain_log(&mut self) -> &[String] {
        while let Ok(line) = self.log.try_recv() {
            self.seen.push(line);
        }
        &self.seen
    }

    fn url(&self, engine: &str) -> String {
        format!("uci960s://127.0.0.1:{}/{engine}", self.port)
    }

    fn token_file(&self) -> PathBuf {
        let path = self.dir.join("token.txt");
        std::fs::write(&path, format!("{TOKEN}\n")).unwrap();
        path
    }

    fn settings(&self, engine: &str, token: Option<&str>) -> ClientSettings {
        ClientSettings {
            address: self.url(engine).parse().unwrap(),
            token: token.map(str::to_string),
            identity: None,
            known_hosts: self.dir.join("known_hosts"),
            connect_timeout: Duration::from_secs(10),
        }
    }

    /// The pid of the `n`th engine started (from 1), from the log's
    /// "engine '…' started, pid N".
    fn nth_engine_pid(&mut self, n: usize) -> u32 {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let started: Vec<u32> = self
                .drain_log()
                .iter()
                .filter_map(|l| l.split("started, pid ").nth(1)?.trim().parse().ok())
                .collect();
            if let Some(pid) = started.get(n - 1) {
                return *pid;
            }
            assert!(Instant::now() < deadline, "no engine {n}: {:?}", self.seen);
            if let Ok(line) = self.log.recv_timeout(deadline - Instant::now()) {
                self.seen.push(line);
            }
        }
    }

    fn engine_pid(&mut self) -> u32 {
        self.nth_engine_pid(1)
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw UCI session over the link (the library's own client), through
/// the two pipes the proxy would use.
struct Raw {
    bridge: Bridge,
    input: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Raw {
    fn open(server: &Server, engine: &str) -> Raw {
        let connected = client::connect(&server.settings(engine, Some(TOKEN))).expect("connect");
        let (bridge, input, output) = client::bridge(connected).expect("bridge");
        Raw {
            bridge,
            input,
            lines: lines_of(output),
            seen: Vec::new(),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).unwrap();
        self.input.flush().unwrap();
    }

    fn wait(&mut self, what: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(what) {
                        return line;
                    }
                }
                Err(_) => panic!("no '{what}'; seen:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// Whether the stream ends (within the patience) without `what`.
    fn ends_without(&mut self, what: &str) -> bool {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(what) => return false,
                Ok(line) => self.seen.push(line),
                Err(mpsc::RecvTimeoutError::Disconnected) => return true,
                Err(mpsc::RecvTimeoutError::Timeout) => panic!("the stream did not end"),
            }
        }
    }
}

fn lines_of(output: ChildStdout) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

fn stockfish() -> Option<String> {
    let sf = common::require_engine("stockfish")?;
    Some(format!("sf={}", sf.display()))
}

fn mock() -> String {
    format!("mock={}", common::mock_engine().display())
}

fn refused(err: ConnectError) -> String {
    match err {
        ConnectError::Refused { reason, .. } => reason,
        other => panic!("expected a refusal, got: {other}"),
    }
}

#[test]
fn missing_and_wrong_tokens_and_unlisted_engines_are_refused() {
    let mut server = Server::start("remote-auth", &[mock()], &[]);
    let wrong = client::connect(&server.settings("mock", Some("not-the-token-0123456789")));
    assert_eq!(
        refused(wrong.err().expect("refused")),
        "authentication failed"
    );
    server.wait_log("refused: wrong token");
    let none = client::connect(&server.settings("mock", None));
    assert_eq!(
        refused(none.err().expect("refused")),
        "authentication failed"
    );
    server.wait_log("refused: no token and no allowed client certificate");
    let unlisted = client::connect(&server.settings("bash", Some(TOKEN)));
    assert_eq!(
        refused(unlisted.err().expect("refused")),
        "no engine named 'bash' here"
    );
    server.wait_log("refused: no engine named 'bash'");
    assert!(
        !server
            .drain_log()
            .iter()
            .any(|l| l.contains("started, pid")),
        "no engine was started: {:?}",
        server.seen
    );
    // The proxy shows the GUI the reason and exits with 3.
    let bad = server.dir.join("bad-token.txt");
    std::fs::write(&bad, "wrong-token-0123456789abcdef\n").unwrap();
    let out = Command::new(common::uci960())
        .args(["proxy", "--remote", &server.url("mock"), "--token-file"])
        .arg(&bad)
        .arg("--known-hosts")
        .arg(server.dir.join("known_hosts"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"uci\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("authentication failed"), "{stdout}");
}

/// A client certificate instead of a token: the server lets in the
/// certificate whose fingerprint it lists (through the library's client
/// and through `proxy --remote --cert --key`), and refuses another one,
/// before any engine starts.
#[test]
fn an_allowed_client_certificate_gets_in_and_an_unknown_one_does_not() {
    let dir = common::scratch_dir("remote-client-cert");
    let make = |name: &str| {
        let (cert, key) = (
            dir.join(format!("{name}.pem")),
            dir.join(format!("{name}-key.pem")),
        );
        let id = uci960::remote::tls::create_self_signed(&cert, &key, &["client".to_string()])
            .expect("a client certificate");
        (cert, key, id.fingerprint())
    };
    let (cert, key, fingerprint) = make("allowed");
    let (other_cert, other_key, other) = make("unknown");
    assert_ne!(fingerprint, other);
    let mut server = Server::start_in(dir, &[mock()], &["--client-cert", &fingerprint.to_string()]);
    let no_token = server.settings("mock", None);
    let with_cert = |cert: &Path, key: &Path| ClientSettings {
        identity: Some((cert.to_path_buf(), key.to_path_buf())),
        ..no_token.clone()
    };

    let unknown = client::connect(&with_cert(&other_cert, &other_key));
    assert_eq!(
        refused(unknown.err().expect("an unknown certificate is refused")),
        "authentication failed"
    );
    server.wait_log("refused: no token and no allowed client certificate");
    assert!(
        !server
            .drain_log()
            .iter()
            .any(|l| l.contains("started, pid")),
        "no engine for the unknown certificate: {:?}",
        server.seen
    );

    let connected = client::connect(&with_cert(&cert, &key)).expect("the allowed certificate");
    let (bridge, input, output) = client::bridge(connected).expect("bridge");
    let mut raw = Raw {
        bridge,
        input,
        lines: lines_of(output),
        seen: Vec::new(),
    };
    raw.send(b"uci\nisready\n");
    raw.wait("readyok");
    let pid = server.engine_pid();
    raw.bridge.kill();
    assert!(
        gone_within(pid, PATIENCE),
        "engine {pid} outlived its connection"
    );

    // The same through the proxy, as a GUI would start it: no token file.
    let mut cmd = Command::new(common::uci960());
    cmd.args(["proxy", "--remote", &server.url("mock"), "--cert"])
        .arg(&cert)
        .arg("--key")
        .arg(&key)
        .arg("--known-hosts")
        .arg(server.dir.join("known_hosts"));
    let mut gui = common::client::Client::spawn(cmd, true, common::client::OnDrop::Kill);
    gui.send("uci");
    gui.until(|l| l == "uciok");
    gui.send("isready");
    gui.wait_line("readyok");
    gui.send("quit");
    let (status, _, _) = gui.finish();
    assert_eq!(status.code(), Some(0));
    assert!(server.nth_engine_pid(2) > 0);
}

/// More lines a second than the ceiling are held back, not dropped and
/// not punished: every `isready` of a burst five times the ceiling is
/// answered, in order, and the connection stays open.
#[test]
fn a_flood_is_held_to_the_lines_per_second_ceiling_without_losing_a_line() {
    let mut server = Server::start("remote-flood", &[mock()], &["--max-lines-per-second", "50"]);
    let mut raw = Raw::open(&server, "mock");
    raw.send(b"uci\n");
    raw.wait("uciok");
    let burst = 250;
    raw.send("isready\n".repeat(burst).as_bytes());
    for _ in 0..burst {
        raw.wait("readyok");
    }
    server.wait_log("lines held back to 50 a second (max-lines-per-second)");
    assert!(
        raw.seen
            .iter()
            .any(|l| l.starts_with("info string uci960 serve: lines held back")),
        "the client was told once: {:?}",
        raw.seen
            .iter()
            .filter(|l| !l.starts_with("readyok"))
            .collect::<Vec<_>>()
    );
    raw.send(b"isready\n");
    raw.wait("readyok");
    assert!(
        !server.drain_log().iter().any(|l| l.contains("closed:")),
        "the connection was closed: {:?}",
        server.seen
    );
}

/// The per-server ceiling on engines: past it a client is told the slots
/// are busy and no engine starts; when one ends, the next client gets it.
#[test]
fn engines_past_the_server_ceiling_are_refused_until_one_ends() {
    let mut server = Server::start("remote-engines", &[mock()], &["--max-engines", "1"]);
    let mut first = Raw::open(&server, "mock");
    first.send(b"uci\n");
    first.wait("uciok");
    let pid = server.engine_pid();
    let busy = client::connect(&server.settings("mock", Some(TOKEN)));
    assert_eq!(
        refused(busy.err().expect("refused past max-engines")),
        "all 1 engine slots are busy; try later"
    );
    server.wait_log("refused: 1 engines running (max-engines)");
    first.bridge.kill();
    assert!(
        gone_within(pid, PATIENCE),
        "engine {pid} outlived its connection"
    );
    server.wait_log("closed: the connection was cut");
    let mut second = Raw::open(&server, "mock");
    second.send(b"uci\nisready\n");
    second.wait("readyok");
    assert_eq!(
        server
            .drain_log()
            .iter()
            .filter(|l| l.contains("started, pid"))
            .count(),
        2
    );
}

#[test]
fn plain_tcp_to_the_tls_port_gets_no_engine() {
    let mut server = Server::start("remote-plain", &[mock()], &["--handshake-timeout", "2"]);
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    s.write_all(b"uci\nisready\n").unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut got = Vec::new();
    // The server answers with a TLS alert at most, then closes.
    let _ = s.read_to_end(&mut got);
    assert!(
        !String::from_utf8_lossy(&got).contains("id name"),
        "{got:?}"
    );
    server.wait_log("closed: TLS");
    // It still serves a real client.
    let mut raw = Raw::open(&server, "mock");
    raw.send(b"uci\n");
    raw.wait("uciok");
}

#[test]
fn a_changed_server_key_is_refused_before_the_token_is_sent() {
    let mut server = Server::start("remote-pin", &[mock()], &[]);
    let settings = server.settings("mock", Some(TOKEN));
    // First use pins the key.
    let first = client::connect(&settings).expect("first connection");
    let pinned = first.pinned_now.clone().expect("pinned on first use");
    assert!(pinned.contains("SHA256:"), "{pinned}");
    drop(first);
    let second = client::connect(&settings).expect("same key");
    assert!(second.pinned_now.is_none());
    drop(second);
    // Another key on the same address: as if the server were replaced.
    let other = uci960::remote::Fingerprint::of_der(b"another server");
    std::fs::write(
        &settings.known_hosts,
        format!("# pinned\n127.0.0.1:{} {other}\n", server.port),
    )
    .unwrap();
    let err = client::connect(&settings).err().expect("refused");
    let text = err.to_string();
    assert!(
        matches!(err, ConnectError::Changed { line: 2, .. }),
        "{text}"
    );
    assert!(text.contains("SERVER KEY CHANGED"), "{text}");
    // The server never got a hello (no token went out).
    server.wait_log("closed: the client left before its hello");
}

#[test]
fn a_thousand_connections_at_once_stay_bounded_and_the_server_recovers() {
    let mut server = Server::start(
        "remote-many",
        &[mock()],
        &["--max-connections", "8", "--handshake-timeout", "3"],
    );
    let threads = |pid: u32| {
        std::fs::read_dir(format!("/proc/{pid}/task"))
            .unwrap()
            .count()
    };
    let before = threads(server.pid());
    let mut sockets = Vec::new();
    for _ in 0..1000 {
        sockets.push(TcpStream::connect(("127.0.0.1", server.port)).unwrap());
    }
    server.wait_log("refused: 8 connections open (max-connections)");
    let during = threads(server.pid());
    assert!(
        during <= before + 8,
        "threads: {before} before, {during} with 1000 connections"
    );
    // Every connection is closed by the server (refused at once, or at the
    // handshake deadline): reading each ends.
    for s in &mut sockets {
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        let mut buf = [0u8; 64];
        assert!(matches!(s.read(&mut buf), Ok(0) | Err(_)));
    }
    drop(sockets);
    let mut raw = Raw::open(&server, "mock");
    raw.send(b"uci\nisready\n");
    raw.wait("readyok");
}

#[test]
fn a_client_trickling_bytes_is_closed() {
    let mut server = Server::start(
        "remote-slow",
        &[mock()],
        &["--handshake-timeout", "1", "--idle-timeout", "1"],
    );
    // A real ClientHello, one byte every 300 ms: the handshake deadline
    // is not moved by the trickle.
    let config = uci960::remote::tls::client_config(None).unwrap();
    let mut hello_conn =
        rustls::ClientConnection::new(config, uci960::remote::tls::server_name("127.0.0.1"))
            .unwrap();
    let mut hello = Vec::new();
    hello_conn.write_tls(&mut hello).unwrap();
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let mut closed = false;
    for b in hello.iter().take(100) {
        if s.write_all(&[*b]).is_err() {
            closed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    assert!(closed, "the trickling connection stayed open");
    server.wait_log("did not finish within");
    // After the hello: a line trickled a byte at a time never completes,
    // so the idle rule closes it and its engine is killed. (The link is
    // driven by hand: the bridge's keep-alive would complete the line.)
    let connected = client::connect(&server.settings("mock", Some(TOKEN))).expect("connect");
    let (link, mut reader, mut lines) = connected.into_parts();
    let pid = server.engine_pid();
    let mut closed = false;
    for b in b"isready".iter().cycle().take(200) {
        if link.send(&[*b]).is_err() {
            closed = true;
            break;
        }
        match reader.read(&link, Some(Duration::from_millis(300)), &mut lines) {
            Received::Closed { .. } | Received::Failed(_) => {
                closed = true;
                break;
            }
            Received::Data | Received::Timeout => {}
        }
    }
    assert!(closed, "the trickling client was not closed");
    assert!(lines.next_line().is_none(), "no line came back");
    server.wait_log("(idle-timeout)");
    assert!(gone_within(pid, PATIENCE), "engine {pid} still running");
}

#[test]
fn ten_megabyte_lines_and_control_characters_are_refused_and_the_engine_goes_on() {
    let mut server = Server::start("remote-long", &[mock()], &[]);
    let mut raw = Raw::open(&server, "mock");
    raw.send(b"uci\n");
    raw.wait("uciok");
    let mut long = vec![b'a'; 10 << 20];
    long.push(b'\n');
    raw.send(&long);
    raw.wait("refused a line longer than");
    // A \r inside a value would be a second command to many engines.
    raw.send(b"setoption name Hash value 16\rquit\n");
    raw.wait("refused a line with a control character");
    raw.send(b"position startpos\x00quit\n");
    raw.wait("refused a line with a control character");
    raw.send(b"isready\n");
    raw.wait("readyok");
    server.wait_log("refused a line with a control character");
}

#[test]
fn file_options_are_hidden_refused_and_never_written() {
    let Some(sf) = stockfish() else { return };
    let mut server = Server::start(
        "remote-files",
        &[sf],
        &["--max-threads", "1", "--max-hash", "32"],
    );
    let target = server.dir.join("debug-log.txt");
    let mut raw = Raw::open(&server, "sf");
    raw.send(b"uci\n");
    raw.wait("uciok");
    let options: Vec<&String> = raw
        .seen
        .iter()
        .filter(|l| l.starts_with("option "))
        .collect();
    for hidden in ["Debug Log File", "SyzygyPath", "EvalFile"] {
        assert!(
            !options.iter().any(|l| l.contains(hidden)),
            "{hidden} shown: {options:?}"
        );
    }
    assert!(
        options
            .iter()
            .any(|l| l.starts_with("option name Hash ") && l.ends_with("max 32")),
        "{options:?}"
    );
    for line in [
        format!("setoption name Debug Log File value {}", target.display()),
        format!("setoption name debug  log  file value {}", target.display()),
        "setoption name EvalFile value /etc/passwd".to_string(),
        "export_net /tmp/uci960-net".to_string(),
    ] {
        raw.send(format!("{line}\n").as_bytes());
        raw.wait("info string uci960 serve: refused");
    }
    raw.send(b"setoption name Threads value 64\n");
    raw.wait("lowered to the server's ceiling 1");
    raw.send(b"isready\nposition startpos\ngo depth 8\n");
    raw.wait("bestmove");
    raw.send(b"quit\n");
    raw.ends_without("never");
    assert!(!target.exists(), "the debug log was written");
    server.wait_log("refused option 'Debug Log File' reaches the server's files");
}

#[test]
fn a_disconnect_mid_search_kills_the_engine_and_sigterm_ends_the_server() {
    let Some(sf) = stockfish() else { return };
    let mut server = Server::start("remote-cut", &[sf], &[]);
    let mut raw = Raw::open(&server, "sf");
    let pid = server.engine_pid();
    raw.send(b"uci\nisready\nposition startpos\ngo infinite\n");
    raw.wait("info depth");
    raw.bridge.kill();
    assert!(
        gone_within(pid, PATIENCE),
        "engine {pid} outlived its connection"
    );
    server.wait_log("the connection was cut");
    // A second engine, then SIGTERM: the server ends with 143 and takes
    // the engine with it.
    let mut raw2 = Raw::open(&server, "sf");
    raw2.send(b"uci\nisready\nposition startpos\ngo infinite\n");
    raw2.wait("info depth");
    let pid2 = server.nth_engine_pid(2);
    // SAFETY: a signal to the server this test started.
    unsafe { libc::kill(server.pid() as i32, libc::SIGTERM) };
    let status = common::process::wait_exit(&mut server.child, PATIENCE).expect("serve exits");
    assert_eq!(status.code(), Some(143));
    assert!(
        gone_within(pid2, PATIENCE),
        "engine {pid2} outlived the server"
    );
}

#[test]
fn the_search_ceiling_stops_an_infinite_search() {
    let Some(sf) = stockfish() else { return };
    let mut server = Server::start("remote-ceiling", &[sf], &["--max-search-time", "1"]);
    let mut raw = Raw::open(&server, "sf");
    raw.send(b"uci\nisready\nposition startpos\ngo infinite\n");
    raw.wait("search stopped at the server's ceiling");
    raw.wait("bestmove");
    server.wait_log("search stopped");
}

/// python-chess plays Chess960 through `proxy --remote`; play960.py checks
/// every move with python-chess.
#[test]
fn python_chess_plays_chess960_through_proxy_remote() {
    let Some(python) = common::require_python_chess() else {
        return;
    };
    let Some(sf) = stockfish() else { return };
    let mut server = Server::start("remote-python", &[sf], &[]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/play960.py");
    let out = Command::new(python)
        .arg(script)
        .args(["4", "nodes:2000", "11"])
        .arg(common::uci960())
        .args(["proxy", "--remote", &server.url("sf"), "--token-file"])
        .arg(server.token_file())
        .arg("--known-hosts")
        .arg(server.dir.join("known_hosts"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let log = server.drain_log().join("\n");
    assert!(out.status.success(), "{stdout}\n{stderr}\nserver:\n{log}");
    assert!(!stderr.contains("illegal"), "{stderr}");
    let summary = stdout
        .lines()
        .find_map(|l| l.strip_prefix("SUMMARY "))
        .unwrap_or_else(|| panic!("no summary: {stdout}\n{stderr}"));
    let v: serde_json::Value = serde_json::from_str(summary).unwrap();
    assert_eq!(v["games"], 4, "{summary}");
    assert!(stderr.contains("is now pinned"), "{stderr}");
}

/// The proxy's TOML alone (`[remote]`) is enough: a GUI's zero-argument
/// start finds it and reaches the remote engine.
#[test]
fn a_zero_argument_start_reaches_the_remote_engine_from_the_toml() {
    let server = Server::start("remote-toml", &[mock()], &[]);
    let token = server.token_file();
    let config = server.dir.join("uci960.toml");
    std::fs::write(
        &config,
        format!(
            "[remote]\nurl = \"{}\"\ntoken-file = \"{}\"\nknown-hosts = \"known_hosts\"\n",
            server.url("mock"),
            token.display()
        ),
    )
    .unwrap();
    let mut cmd = Command::new(common::uci960());
    cmd.env(uci960::proxy::locate::ENV_VAR, &config);
    let mut gui = common::client::Client::spawn(cmd, true, common::client::OnDrop::Kill);
    gui.send("uci");
    let lines = gui.until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("id name") && l.ends_with("(uci960)")),
        "{lines:?}"
    );
    gui.send("isready");
    gui.wait_line("readyok");
    assert!(server.dir.join("known_hosts").is_file());
    let _ = Path::new(&config);
}

/// `serve --engine` takes the engine keys of every command (issue 20):
/// `name=` is what clients ask for, `arg=` and `dir=` reach the engine; the
/// older `NAME=PROGRAM` still serves, and so does a TOML `[engines.NAME]`
/// table written with the keys of every config (`program` or `cmd`). Each
/// is reached through `proxy --remote`, as a GUI would.
#[test]
fn served_engines_take_the_engine_keys_of_every_command() {
    let dir = common::scratch_dir("remote-keys");
    let mock = common::mock_engine();
    let config = dir.join("serve.toml");
    std::fs::write(
        &config,
        format!(
            "[engines.table]\nprogram = \"{}\"\nargs = [\"--name=from-table\"]\n",
            mock.display()
        ),
    )
    .unwrap();
    let engine_dir = dir.join("engine-dir");
    std::fs::create_dir(&engine_dir).unwrap();
    let keyed = [
        "--engine".to_string(),
        "name=keyed".to_string(),
        format!("cmd={}", mock.display()),
        "arg=--name=from-keys".to_string(),
        "arg=--pid-log=pids.txt".to_string(),
        format!("dir={}", engine_dir.display()),
        "option.Hash=1".to_string(),
    ];
    let mut extra: Vec<&str> = keyed.iter().map(String::as_str).collect();
    let config_arg = config.display().to_string();
    extra.extend(["--config", &config_arg]);
    let server = Server::start_in(dir, &[format!("old={}", mock.display())], &extra);
    let id_name = |engine: &str| {
        let mut cmd = Command::new(common::uci960());
        cmd.args(["proxy", "--remote", &server.url(engine), "--token-file"])
            .arg(server.token_file())
            .arg("--known-hosts")
            .arg(server.dir.join("known_hosts"));
        let mut gui = common::client::Client::spawn(cmd, true, common::client::OnDrop::Kill);
        gui.send("uci");
        let lines = gui.until(|l| l == "uciok");
        gui.send("isready");
        gui.wait_line("readyok");
        gui.send("quit");
        let (status, _, _) = gui.finish();
        assert_eq!(status.code(), Some(0), "{engine}: {lines:?}");
        lines
            .into_iter()
            .find(|l| l.starts_with("id name"))
            .unwrap_or_else(|| panic!("{engine}: no id name"))
    };
    let keyed = id_name("keyed");
    assert!(keyed.contains("from-keys"), "{keyed}");
    assert!(
        engine_dir.join("pids.txt").is_file(),
        "dir= is the engine's working folder"
    );
    let old = id_name("old");
    assert!(old.contains("mock_engine"), "{old}");
    let table = id_name("table");
    assert!(table.contains("from-table"), "{table}");
}

/// `uci960 serve` with `args` exits with 2 before it listens; its stderr.
fn serve_refuses(args: &[String]) -> String {
    let out = Command::new(common::uci960())
        .arg("serve")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("listening"), "{stderr}");
    stderr
}

/// What a served engine cannot be is refused at start, naming the flag
/// (or the config and table), the token and the reason.
#[test]
fn a_served_engine_without_a_name_or_with_a_wrong_key_is_refused() {
    let mock = common::mock_engine().display().to_string();
    let engine = |tokens: &str| -> Vec<String> {
        std::iter::once("--engine".to_string())
            .chain(tokens.split_whitespace().map(|t| t.replace("MOCK", &mock)))
            .collect()
    };
    let err = serve_refuses(&engine("cmd=MOCK arg=-x"));
    assert!(
        err.contains(&format!(
            "--engine 1 'cmd={mock} arg=-x': a served engine needs name=NAME"
        )),
        "{err}"
    );
    let mut two = engine("name=a cmd=MOCK");
    two.extend(engine("name=b cmd=MOCK bogus=1"));
    let err = serve_refuses(&two);
    assert!(
        err.contains("--engine 2 'name=b cmd=") && err.contains("unknown key 'bogus'"),
        "{err}"
    );
    let err = serve_refuses(&engine("name=a cmd=MOCK tc=40/60"));
    assert!(
        err.contains("engine 'a': tc does not apply to a served engine")
            && err.contains("max-search-time"),
        "{err}"
    );
    let err = serve_refuses(&engine("a=MOCK a=MOCK"));
    assert!(err.contains("unknown key 'a'"), "{err}");
    let dir = common::scratch_dir("remote-bad-table");
    let config = dir.join("serve.toml");
    std::fs::write(&config, "[engines.sf]\ncmd = \"sf\"\ncastles = \"kxr\"\n").unwrap();
    let err = serve_refuses(&["--config".to_string(), config.display().to_string()]);
    assert!(
        err.contains(&format!("config '{}'", config.display()))
            && err.contains("engine 'sf': castles does not apply to a served engine"),
        "{err}"
    );
    let err = serve_refuses(&[]);
    assert!(
        err.contains("no engines to serve: give --engine name=NAME cmd=PROGRAM"),
        "{err}"
    );
}
