//! The client end: connect, pin the server ([`super::known_hosts`]), say
//! hello, then [`Bridge`] the TLS stream to a pair of local pipes, so that
//! the proxy's loop reads and writes a remote engine exactly as it does a
//! child process (its sans-IO session never knows the difference).
//!
//! Two threads: one copies what the proxy writes into the TLS stream, one
//! decrypts the server's lines into the proxy's pipe and, when nothing was
//! sent for a third of the server's idle timeout, sends an empty line so
//! that the server does not take a quiet GUI for a vanished one.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::address::RemoteAddress;
use super::hello::{Answer, Hello};
use super::known_hosts::{self, Pin};
use super::link::{Link, LinkReader, Received};
use super::tls;
use crate::lines::{LineBuffer, MAX_LINE, StreamLine};

/// How the client reaches and proves itself to a server.
#[derive(Clone, Debug)]
pub struct ClientSettings {
    pub address: RemoteAddress,
    /// The token (read from its file); `None` with a client certificate.
    pub token: Option<String>,
    /// Client certificate and key (PEM), instead of or with a token.
    pub identity: Option<(PathBuf, PathBuf)>,
    /// The trust-on-first-use file.
    pub known_hosts: PathBuf,
    /// For the TCP connect, the TLS handshake and the hello together.
    pub connect_timeout: Duration,
}

/// Why no connection was made.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("cannot resolve {host}: {source}")]
    Resolve { host: String, source: io::Error },
    #[error("cannot connect to {host}: {source}")]
    Connect { host: String, source: io::Error },
    #[error("{host}: {source}")]
    Tls {
        host: String,
        source: super::link::LinkError,
    },
    #[error(transparent)]
    Setup(#[from] super::tls::TlsError),
    #[error(transparent)]
    BadKnownHosts(#[from] known_hosts::BadEntry),
    #[error(transparent)]
    KnownHostsFile(#[from] crate::files::FileError),
    #[error("cannot record the server in '{path}': {source}")]
    Pin { path: String, source: io::Error },
    #[error(
        "SERVER KEY CHANGED: {host} shows {seen}, but '{path}' line {line} pins {pinned}; \
         this may be someone in the middle; if the server's key was replaced on purpose, \
         delete that line and connect again"
    )]
    Changed {
        host: String,
        seen: String,
        path: String,
        line: usize,
        pinned: String,
    },
    #[error("{host} refused the connection: {reason}")]
    Refused { host: String, reason: String },
    #[error("{host}: {reason}")]
    Protocol { host: String, reason: String },
}

/// A connection past the hello.
pub struct Connected {
    link: Arc<Link>,
    reader: LinkReader,
    lines: LineBuffer,
    idle_timeout: Duration,
    /// Set when the server was pinned now (first use): for a note.
    pub pinned_now: Option<String>,
}

impl Connected {
    /// The link itself, for a caller that drives it without the bridge
    /// (no keep-alive is sent then).
    pub fn into_parts(self) -> (Arc<Link>, LinkReader, LineBuffer) {
        (self.link, self.reader, self.lines)
    }
}

/// Connects, checks the pin, says hello and waits for the answer.
pub fn connect(settings: &ClientSettings) -> Result<Connected, ConnectError> {
    let host = settings.address.host_port();
    let deadline = Instant::now() + settings.connect_timeout;
    let addrs: Vec<_> = host
        .to_socket_addrs()
        .map_err(|source| ConnectError::Resolve {
            host: host.clone(),
            source,
        })?
        .collect();
    let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
    let mut socket = None;
    for addr in addrs {
        let left = deadline.saturating_duration_since(Instant::now());
        match TcpStream::connect_timeout(&addr, left.max(Duration::from_millis(1))) {
            Ok(s) => {
                socket = Some(s);
                break;
            }
            Err(e) => last = e,
        }
    }
    let socket = socket.ok_or_else(|| ConnectError::Connect {
        host: host.clone(),
        source: last,
    })?;
    let identity = match &settings.identity {
        Some((cert, key)) => Some(tls::load_identity(cert, key)?),
        None => None,
    };
    let config = tls::client_config(identity)?;
    let conn = rustls::ClientConnection::new(config, tls::server_name(&settings.address.host))
        .map_err(|e| ConnectError::Setup(tls::TlsError::Config(e.to_string())))?;
    let tls_err = |source| ConnectError::Tls {
        host: host.clone(),
        source,
    };
    let (link, mut reader) =
        Link::handshake(conn, socket, deadline, settings.connect_timeout).map_err(tls_err)?;
    // The pin is checked before the token leaves this machine.
    let seen = link
        .peer_fingerprint()
        .ok_or_else(|| ConnectError::Protocol {
            host: host.clone(),
            reason: "the server showed no certificate".into(),
        })?;
    let path = &settings.known_hosts;
    let text = if path.exists() {
        crate::files::read_text(path, "known hosts", crate::files::CONFIG_LIMIT)?
    } else {
        String::new()
    };
    let mut pinned_now = None;
    match known_hosts::check(&text, &path.display().to_string(), &host, &seen)? {
        Pin::Known => {}
        Pin::Changed { line, pinned } => {
            link.abort();
            return Err(ConnectError::Changed {
                host,
                seen: seen.to_string(),
                path: path.display().to_string(),
                line,
                pinned: pinned.to_string(),
            });
        }
        Pin::Unknown => {
            append(path, &known_hosts::entry(&host, &seen)).map_err(|source| {
                ConnectError::Pin {
                    path: path.display().to_string(),
                    source,
                }
            })?;
            pinned_now = Some(format!(
                "first connection to {host}: its fingerprint {seen} is now pinned in '{}'",
                path.display()
            ));
        }
    }
    let hello = Hello {
        engine: settings.address.engine.clone(),
        token: settings.token.clone(),
    };
    let proto = |reason: String| ConnectError::Protocol {
        host: host.clone(),
        reason,
    };
    link.send_line(hello.line().as_bytes())
        .map_err(|e| proto(format!("sending the hello: {e}")))?;
    let mut lines = LineBuffer::new(MAX_LINE);
    let answer = loop {
        if let Some(StreamLine::Complete(line)) = lines.next_line() {
            break Answer::parse(line).ok_or_else(|| {
                proto(format!(
                    "not a uci960 server (it said '{}')",
                    crate::excerpt::excerpt(&String::from_utf8_lossy(line), 80)
                ))
            })?;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(proto("no answer to the hello in time".into()));
        }
        match reader.read(&link, Some(left), &mut lines) {
            Received::Data | Received::Timeout => {}
            Received::Closed { .. } if lines.has_partial() => {}
            Received::Closed { .. } => {
                return Err(proto(
                    "the server closed the connection after the handshake".into(),
                ));
            }
            Received::Failed(e) => return Err(proto(e)),
        }
    };
    match answer {
        Answer::Ok { idle_timeout } => Ok(Connected {
            link: Arc::new(link),
            reader,
            lines,
            idle_timeout,
            pinned_now,
        }),
        Answer::Error(reason) => Err(ConnectError::Refused { host, reason }),
    }
}

/// Appends an entry, making the file's folder if needed.
fn append(path: &Path, entry: &str) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(entry.as_bytes())?;
    file.sync_all()
}

/// The running bridge between the proxy's pipes and the TLS stream.
pub struct Bridge {
    link: Arc<Link>,
    /// Why the server's side ended, once it has.
    ended: Arc<Mutex<Option<String>>>,
    done: Receiver<()>,
}

/// Starts the two threads; the pipes are the engine's stdin and stdout as
/// the proxy's relay wants them.
pub fn bridge(connected: Connected) -> io::Result<(Bridge, ChildStdin, ChildStdout)> {
    let (stdin, mut from_proxy, stdout, mut to_proxy) = crate::platform::engine_pipes()?;
    let Connected {
        link,
        mut reader,
        mut lines,
        idle_timeout,
        ..
    } = connected;
    let ended = Arc::new(Mutex::new(None));
    let (done_tx, done) = mpsc::channel();
    let up = Arc::clone(&link);
    std::thread::Builder::new()
        .name("remote-up".into())
        .spawn(move || {
            let mut buf = vec![0u8; 1 << 16];
            loop {
                match from_proxy.read(&mut buf) {
                    Ok(0) => {
                        up.close();
                        return;
                    }
                    Ok(n) => {
                        if up.send(&buf[..n]).is_err() {
                            up.abort();
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => {
                        up.abort();
                        return;
                    }
                }
            }
        })?;
    let down = Arc::clone(&link);
    let why = Arc::clone(&ended);
    let keepalive = (idle_timeout / 3).max(Duration::from_millis(100));
    std::thread::Builder::new()
        .name("remote-down".into())
        .spawn(move || {
            let reason = loop {
                let got = reader.read(&down, Some(keepalive), &mut lines);
                while let Some(line) = lines.next_line() {
                    if let StreamLine::Complete(line) = line
                        && (to_proxy.write_all(line).is_err() || to_proxy.write_all(b"\n").is_err())
                    {
                        down.abort();
                    }
                }
                match got {
                    Received::Data => {}
                    Received::Timeout => {
                        if down.since_send() >= keepalive && down.send(b"\n").is_err() {
                            break "the connection to the server broke".to_string();
                        }
                    }
                    Received::Closed { clean: true } => {
                        break "the server ended the connection".to_string();
                    }
                    Received::Closed { clean: false } => {
                        break "the connection to the server was cut".to_string();
                    }
                    Received::Failed(e) => {
                        break format!("the connection to the server failed: {e}");
                    }
                }
            };
            if let Some(StreamLine::Complete(line)) = lines.finish() {
                let _ = to_proxy.write_all(line);
            }
            *why.lock().unwrap_or_else(|p| p.into_inner()) = Some(reason);
            drop(to_proxy);
            let _ = done_tx.send(());
        })?;
    Ok((Bridge { link, ended, done }, stdin, stdout))
}

impl Bridge {
    /// Waits up to `grace` for the server's side to end (after `quit` and
    /// the end of our input, the server ends the engine and the stream);
    /// then cuts the connection. Says how it ended.
    pub fn shutdown(&mut self, grace: Duration) -> String {
        match self.wait_end(grace) {
            Some(why) => why,
            None => {
                self.kill();
                "connection cut (the server did not end it in time)".into()
            }
        }
    }

    /// How the server's side ended, waiting up to `grace` for it.
    pub fn wait_end(&mut self, grace: Duration) -> Option<String> {
        let _ = self.done.recv_timeout(grace);
        self.ended.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Cuts the connection at once (the server kills the engine).
    pub fn kill(&mut self) {
        self.link.abort();
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        self.link.abort();
    }
}

/// The user's uci960 folder: `%APPDATA%\uci960` on Windows,
/// `$XDG_CONFIG_HOME/uci960` or `~/.config/uci960` elsewhere.
pub fn user_folder() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = if cfg!(windows) {
        var("APPDATA")?
    } else {
        var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|h| h.join(".config")))?
    };
    Some(dir.join("uci960"))
}

/// `known_hosts` in [`user_folder`].
pub fn default_known_hosts() -> Option<PathBuf> {
    Some(user_folder()?.join("known_hosts"))
}
