//! One client: TLS handshake and hello within the handshake timeout,
//! authentication (token hash or client certificate), one engine from the
//! allow-list, then the relay through the [`Filter`] until either side
//! ends. Two threads: this one reads the client (and owns the engine),
//! a pump thread reads the engine. Whatever ends the connection (the
//! client leaving, a cut, idleness, a search that would not stop, the
//! engine exiting, the server stopping) ends the engine at once and is
//! logged.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::ChildStdin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use super::filter::{Filter, FromClient, FromEngine, Tick};
use super::server::Shared;
use crate::lines::{LineBuffer, MAX_LINE, StreamLine};
use crate::remote::hello::{Answer, Hello, MAX_HELLO};
use crate::remote::link::{Link, LinkReader, Received};
use crate::remote::token;
use crate::uci_client::EngineProcess;
use crate::uci_client::process::{SpawnOptions, StderrMode};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Serves one connection to its end.
pub fn serve(shared: &Arc<Shared>, id: u64, socket: TcpStream, peer: SocketAddr) {
    let log = |text: &str| shared.log(id, Some(peer), text);
    let s = &shared.settings;
    let deadline = Instant::now() + s.handshake_timeout;
    let conn = match rustls::ServerConnection::new(Arc::clone(&shared.tls)) {
        Ok(c) => c,
        Err(e) => return log(&format!("TLS setup failed: {e}")),
    };
    let (link, mut reader) = match Link::handshake(conn, socket, deadline, s.write_timeout) {
        Ok(pair) => pair,
        Err(e) => return log(&format!("closed: {e}")),
    };
    let mut lines = LineBuffer::new(s.max_line.max(MAX_HELLO));
    let hello = match read_hello(&link, &mut reader, &mut lines, deadline) {
        Ok(h) => h,
        Err(reason) => {
            log(&format!("closed: {reason}"));
            return refuse(&link, &reason);
        }
    };
    let authenticated = match &hello.token {
        Some(t) => token::matches(t, &s.token_hashes),
        None => link
            .peer_fingerprint()
            .is_some_and(|fp| s.client_certs.contains(&fp)),
    };
    if !authenticated {
        let how = if hello.token.is_some() {
            "wrong token"
        } else {
            "no token and no allowed client certificate"
        };
        log(&format!("refused: {how}"));
        return refuse(&link, "authentication failed");
    }
    let Some(allowed) = s.engines.get(&hello.engine) else {
        log(&format!("refused: no engine named '{}'", hello.engine));
        return refuse(&link, &format!("no engine named '{}' here", hello.engine));
    };
    let max = s.max_engines;
    if shared.engines.fetch_add(1, Ordering::SeqCst) >= max {
        shared.engines.fetch_sub(1, Ordering::SeqCst);
        log(&format!("refused: {max} engines running (max-engines)"));
        return refuse(
            &link,
            &format!("all {max} engine slots are busy; try later"),
        );
    }
    let ended = run_engine(
        shared,
        id,
        peer,
        &link,
        reader,
        lines,
        &hello.engine,
        allowed,
    );
    shared.engines.fetch_sub(1, Ordering::SeqCst);
    log(&format!("closed: {ended}"));
}

/// Sends the error answer and closes.
fn refuse(link: &Link, reason: &str) {
    let _ = link.send_line(Answer::Error(reason.to_string()).line().as_bytes());
    link.close();
}

/// Reads the hello line before `deadline`.
fn read_hello(
    link: &Link,
    reader: &mut LinkReader,
    lines: &mut LineBuffer,
    deadline: Instant,
) -> Result<Hello, String> {
    loop {
        match lines.next_line() {
            Some(StreamLine::Complete(line)) if line.len() <= MAX_HELLO => {
                return Hello::parse(line).map_err(str::to_string);
            }
            Some(_) => return Err("the hello is too long".into()),
            None => {}
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err("no hello in time (handshake-timeout)".into());
        }
        match reader.read(link, Some(left), lines) {
            Received::Data | Received::Timeout => {}
            Received::Closed { .. } => return Err("the client left before its hello".into()),
            Received::Failed(e) => return Err(e),
        }
    }
}

/// Starts the engine, answers `ok`, relays until the end; says why it
/// ended.
#[allow(clippy::too_many_arguments)]
fn run_engine(
    shared: &Arc<Shared>,
    id: u64,
    peer: SocketAddr,
    link: &Link,
    mut reader: LinkReader,
    mut lines: LineBuffer,
    name: &str,
    allowed: &super::config::AllowedEngine,
) -> String {
    let s = &shared.settings;
    let log = |text: &str| shared.log(id, Some(peer), text);
    if shared.stopping.load(Ordering::SeqCst) {
        refuse(link, "the server is stopping");
        return "the server is stopping".into();
    }
    let opts = SpawnOptions {
        stderr: StderrMode::Null,
        // This thread lives as long as the engine may (Linux: the kernel
        // kills the engine if this thread ends, even on SIGKILL).
        die_with_parent: true,
    };
    let mut engine = match EngineProcess::spawn_with(&allowed.command, opts) {
        Ok(e) => e,
        Err(e) => {
            // The details (paths) stay in the server's log.
            refuse(link, &format!("engine '{name}' could not start"));
            return format!("engine '{name}' could not start: {e}");
        }
    };
    let Some((stdin, stdout)) = engine.take_pipes() else {
        refuse(link, "internal error");
        return "the engine has no pipes".into();
    };
    log(&format!("engine '{name}' started, pid {}", engine.pid()));
    if link
        .send_line(
            Answer::Ok {
                idle_timeout: s.idle_timeout,
            }
            .line()
            .as_bytes(),
        )
        .is_err()
    {
        engine.kill();
        return "the client left before the answer".into();
    }
    let filter = Arc::new(Mutex::new(Filter::new(
        s.limits.clone(),
        &s.allow_options,
        &allowed.options,
    )));
    let stdin = Arc::new(Mutex::new(stdin));
    std::thread::scope(|scope| {
        let pump = scope.spawn(|| pump_engine(link, stdout, &filter, &stdin));
        let why = relay_client(shared, link, &mut reader, &mut lines, &filter, &stdin, &log);
        // At once, whatever the reason: a disconnect must not leave the
        // engine thinking.
        let status = engine.kill();
        link.abort();
        let engine_end = pump.join().unwrap_or_else(|_| "engine pump failed".into());
        let status = status
            .map(crate::platform::describe_status)
            .unwrap_or_else(|| "status unknown".into());
        format!(
            "{why}; engine pid {} {status} ({engine_end}); {}",
            engine.pid(),
            link.traffic()
        )
    })
}

/// Engine → client until the engine's output ends.
fn pump_engine(
    link: &Link,
    mut stdout: std::process::ChildStdout,
    filter: &Mutex<Filter>,
    stdin: &Mutex<ChildStdin>,
) -> String {
    let mut lines = LineBuffer::new(MAX_LINE);
    let mut batch: Vec<u8> = Vec::with_capacity(4096);
    loop {
        let n = match stdout.read(lines.spare()) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        lines.commit(n);
        // One TLS write per chunk of engine output, not per line.
        batch.clear();
        while let Some(line) = lines.next_line() {
            let StreamLine::Complete(line) = line else {
                continue;
            };
            match lock(filter).from_engine(line) {
                FromEngine::Forward => push(&mut batch, line),
                FromEngine::Rewrite(l) => push(&mut batch, &l),
                FromEngine::Drop => {}
                FromEngine::UciOk(preset) => {
                    let mut input = lock(stdin);
                    for p in preset {
                        let _ = input.write_all(&p);
                        let _ = input.write_all(b"\n");
                    }
                    let _ = input.flush();
                    push(&mut batch, line);
                }
            }
        }
        if !batch.is_empty() && link.send(&batch).is_err() {
            return "the client stopped reading".into();
        }
    }
    link.close();
    link.abort();
    "its output ended".into()
}

fn push(batch: &mut Vec<u8>, line: &[u8]) {
    batch.extend_from_slice(line);
    batch.push(b'\n');
}

/// How long the relay sleeps at most while the lines-per-second ceiling
/// holds lines back, so that a stopping server is noticed.
const HOLD_SLICE: std::time::Duration = std::time::Duration::from_millis(100);

/// Client → engine until the client leaves, idles or the link breaks;
/// says why. Past the lines-per-second ceiling nothing is read from the
/// client until the filter lets the next line pass (see [`Filter::admit`]).
fn relay_client(
    shared: &Shared,
    link: &Link,
    reader: &mut LinkReader,
    lines: &mut LineBuffer,
    filter: &Mutex<Filter>,
    stdin: &Mutex<ChildStdin>,
    log: &dyn Fn(&str),
) -> String {
    let s = &shared.settings;
    let mut last_line = Instant::now();
    let mut to_engine: Vec<u8> = Vec::with_capacity(4096);
    let mut held_once = false;
    // Complete lines wait in `lines` for the lines-per-second ceiling.
    let mut pending = false;
    loop {
        let now = Instant::now();
        let mut wake = last_line + s.idle_timeout;
        if let Some(d) = lock(filter).next_deadline() {
            wake = wake.min(d);
        }
        let got = if pending {
            // The ceiling: nothing more is read until the waiting lines
            // have passed, so the client's further lines wait in its
            // socket (TCP back-pressure slows it down); none is dropped.
            let held = lock(filter).admit(now);
            if let Some(at) = held {
                if !held_once && lines.has_partial() {
                    held_once = true;
                    let why = format!(
                        "lines held back to {} a second (max-lines-per-second)",
                        s.limits.lines_per_second
                    );
                    log(&why);
                    let _ = link.send_line(format!("info string uci960 serve: {why}").as_bytes());
                }
                std::thread::sleep(at.min(wake).saturating_duration_since(now).min(HOLD_SLICE));
            }
            Received::Data
        } else {
            reader.read(link, Some(wake.saturating_duration_since(now)), lines)
        };
        let now = Instant::now();
        to_engine.clear();
        pending = false;
        loop {
            if lock(filter).admit(now).is_some() {
                pending = true;
                break;
            }
            let Some(line) = lines.next_line() else { break };
            let line = match line {
                StreamLine::Complete(line) => line,
                StreamLine::TooLong { limit } => {
                    let why = format!("a line longer than {limit} bytes (max-line), skipped");
                    log(&format!("refused {why}"));
                    let _ = link
                        .send_line(format!("info string uci960 serve: refused {why}").as_bytes());
                    continue;
                }
            };
            last_line = now;
            let verdict = lock(filter).from_client(line, now);
            match verdict {
                FromClient::Forward => {
                    push(&mut to_engine, line.strip_suffix(b"\r").unwrap_or(line))
                }
                FromClient::Rewrite { line, note } => {
                    push(&mut to_engine, &line);
                    log(&note);
                    let _ = link.send_line(format!("info string uci960 serve: {note}").as_bytes());
                }
                FromClient::Drop => {}
                FromClient::Refuse(why) => {
                    log(&format!("refused {why}"));
                    let _ = link
                        .send_line(format!("info string uci960 serve: refused {why}").as_bytes());
                }
            }
        }
        if !to_engine.is_empty() {
            let mut input = lock(stdin);
            if input
                .write_all(&to_engine)
                .and_then(|_| input.flush())
                .is_err()
            {
                return "the engine stopped reading".into();
            }
        }
        match got {
            Received::Data => {}
            Received::Timeout => {}
            Received::Closed { clean: true } => return "the client closed the connection".into(),
            Received::Closed { clean: false } => return "the connection was cut".into(),
            Received::Failed(e) => return format!("the connection failed: {e}"),
        }
        if shared.stopping.load(Ordering::SeqCst) {
            return "the server is stopping".into();
        }
        let tick = lock(filter).tick(now);
        match tick {
            Tick::Nothing => {}
            Tick::Stop(why) => {
                log(&why);
                let _ = link.send_line(format!("info string uci960 serve: {why}").as_bytes());
                let mut input = lock(stdin);
                let _ = input.write_all(b"stop\n").and_then(|_| input.flush());
            }
            Tick::Close(why) => return why,
        }
        if now >= last_line + s.idle_timeout {
            return format!(
                "no line from the client for {:?} (idle-timeout)",
                s.idle_timeout
            );
        }
    }
}
