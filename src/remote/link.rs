//! One TLS stream used by two threads: one waits for the peer's bytes
//! ([`LinkReader`], on its own handle of the socket, without holding any
//! lock while it waits), the other sends ([`Link::send`]). The rustls
//! connection sits behind a mutex that is only held to decrypt a chunk or
//! to encrypt and write one, so neither direction waits on the other.
//!
//! Every wait is bounded: the handshake by a deadline (a peer trickling one
//! byte a second does not extend it), reads by the caller's timeout, writes
//! by the socket's write timeout (a peer that stops reading fails the
//! write instead of blocking the sender for ever). Nagle is off: UCI is
//! small lines that want to leave at once.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::fingerprint::Fingerprint;
use crate::lines::LineBuffer;

/// The largest chunk read from the socket at once (one TLS record and a
/// bit): plaintext reaches the caller's line buffer a record at a time, so
/// a hostile 10 MB line never sits in memory whole.
const CHUNK: usize = 17 * 1024;

struct Inner {
    conn: rustls::Connection,
    last_send: Instant,
    traffic: Traffic,
}

/// Bytes through a link so far: on the wire (TLS) and as UCI text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    pub tls_in: u64,
    pub tls_out: u64,
    pub text_in: u64,
    pub text_out: u64,
}

impl std::fmt::Display for Traffic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bytes in {} (text {}), out {} (text {})",
            self.tls_in, self.text_in, self.tls_out, self.text_out
        )
    }
}

/// Writes what rustls has for the wire, counting it.
fn flush_tls(inner: &mut Inner, mut sock: &TcpStream) -> io::Result<()> {
    while inner.conn.wants_write() {
        let n = inner.conn.write_tls(&mut sock)?;
        inner.traffic.tls_out += n as u64;
    }
    Ok(())
}

/// The shared half: the TLS state and the socket writes go through.
pub struct Link {
    inner: Mutex<Inner>,
    socket: TcpStream,
}

/// The reading half (one thread).
pub struct LinkReader {
    socket: TcpStream,
    buf: Vec<u8>,
    timeout: Option<Option<Duration>>,
    /// Whether the plaintext left by the handshake was taken.
    primed: bool,
}

/// What one wait for the peer gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// Plaintext was added to the line buffer (maybe none: a TLS record
    /// without data, or half of one).
    Data,
    /// Nothing before the timeout.
    Timeout,
    /// The peer closed the stream; `clean` if it said so first (TLS
    /// close_notify) rather than just dropping the connection.
    Closed { clean: bool },
    /// A TLS or socket error: the stream is unusable.
    Failed(String),
}

/// Why a handshake failed.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("the TLS handshake did not finish within {0:?}")]
    Timeout(Duration),
    #[error("the peer closed the connection during the TLS handshake")]
    Closed,
    #[error("TLS: {0}")]
    Tls(#[from] rustls::Error),
    #[error("{0}")]
    Io(#[from] io::Error),
}

fn lock(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    // A panic elsewhere must not turn into a second one here.
    inner.lock().unwrap_or_else(|p| p.into_inner())
}

fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

impl Link {
    /// Runs the TLS handshake over `socket`, finished by `deadline`; writes
    /// from then on fail after `write_timeout` without progress.
    pub fn handshake(
        conn: impl Into<rustls::Connection>,
        socket: TcpStream,
        deadline: Instant,
        write_timeout: Duration,
    ) -> Result<(Link, LinkReader), LinkError> {
        let mut conn = conn.into();
        let started = Instant::now();
        socket.set_nodelay(true)?;
        socket.set_write_timeout(Some(write_timeout.max(Duration::from_millis(1))))?;
        let mut sock = &socket;
        let mut buf = vec![0u8; CHUNK];
        while conn.is_handshaking() {
            while conn.wants_write() {
                conn.write_tls(&mut sock)?;
            }
            if !conn.is_handshaking() {
                break;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(LinkError::Timeout(deadline - started));
            }
            socket.set_read_timeout(Some(left))?;
            let n = match sock.read(&mut buf) {
                Ok(0) => return Err(LinkError::Closed),
                Ok(n) => n,
                Err(e) if timed_out(&e) || e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            let mut rest = &buf[..n];
            while !rest.is_empty() {
                if conn.read_tls(&mut rest)? == 0 {
                    break;
                }
                if let Err(e) = conn.process_new_packets() {
                    // Tell the peer why (an alert), then give up.
                    let _ = conn.write_tls(&mut sock);
                    return Err(e.into());
                }
            }
        }
        while conn.wants_write() {
            conn.write_tls(&mut sock)?;
        }
        let reader = LinkReader {
            socket: socket.try_clone()?,
            buf,
            timeout: None,
            primed: false,
        };
        let link = Link {
            inner: Mutex::new(Inner {
                conn,
                last_send: Instant::now(),
                traffic: Traffic::default(),
            }),
            socket,
        };
        Ok((link, reader))
    }

    /// The peer's certificate fingerprint, if it showed one.
    pub fn peer_fingerprint(&self) -> Option<Fingerprint> {
        let inner = lock(&self.inner);
        let cert = inner.conn.peer_certificates()?.first()?;
        Some(Fingerprint::of_der(cert.as_ref()))
    }

    /// Encrypts and writes `bytes` (blocking up to the write timeout).
    pub fn send(&self, bytes: &[u8]) -> io::Result<()> {
        let mut inner = lock(&self.inner);
        inner.last_send = Instant::now();
        inner.traffic.text_out += bytes.len() as u64;
        let mut rest = bytes;
        loop {
            if !rest.is_empty() {
                let n = inner.conn.writer().write(rest)?;
                rest = &rest[n..];
                if n == 0 && !inner.conn.wants_write() {
                    return Err(io::Error::other("TLS send buffer refuses data"));
                }
            }
            flush_tls(&mut inner, &self.socket)?;
            if rest.is_empty() {
                return Ok(());
            }
        }
    }

    /// A line (its `\n` added).
    pub fn send_line(&self, line: &[u8]) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
        self.send(&bytes)
    }

    /// Bytes so far.
    pub fn traffic(&self) -> Traffic {
        lock(&self.inner).traffic
    }

    /// How long since the last send.
    pub fn since_send(&self) -> Duration {
        lock(&self.inner).last_send.elapsed()
    }

    /// Says goodbye (TLS close_notify) and ends our direction.
    pub fn close(&self) {
        let mut inner = lock(&self.inner);
        inner.conn.send_close_notify();
        let _ = flush_tls(&mut inner, &self.socket);
        let _ = self.socket.shutdown(Shutdown::Write);
    }

    /// Drops the connection at once; a reader waiting on it wakes up.
    pub fn abort(&self) {
        let _ = self.socket.shutdown(Shutdown::Both);
    }

    /// Decrypts one chunk into `out`; `true` when the peer said goodbye.
    fn feed(&self, mut bytes: &[u8], out: &mut LineBuffer) -> Result<bool, String> {
        let mut inner = lock(&self.inner);
        inner.traffic.tls_in += bytes.len() as u64;
        // Plaintext may wait from before (it came with the handshake's
        // last flight, read by the handshake loop).
        let mut closed = drain(&mut inner, out)?;
        while !bytes.is_empty() && !closed {
            match inner.conn.read_tls(&mut bytes) {
                Ok(0) => closed = true,
                Ok(_) => {}
                Err(e) => return Err(e.to_string()),
            }
            let state = match inner.conn.process_new_packets() {
                Ok(state) => state,
                Err(e) => {
                    let mut sock = &self.socket;
                    let _ = inner.conn.write_tls(&mut sock);
                    return Err(format!("TLS: {e}"));
                }
            };
            closed |= drain(&mut inner, out)? || state.peer_has_closed();
        }
        // Answers the peer may need (a key update), written now.
        flush_tls(&mut inner, &self.socket).map_err(|e| e.to_string())?;
        Ok(closed)
    }
}

/// Moves decrypted bytes into `out`; `true` when the peer said goodbye.
fn drain(inner: &mut Inner, out: &mut LineBuffer) -> Result<bool, String> {
    loop {
        match inner.conn.reader().read(out.spare()) {
            Ok(0) => return Ok(true),
            Ok(n) => {
                out.commit(n);
                inner.traffic.text_in += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) => return Err(e.to_string()),
        }
    }
}

impl LinkReader {
    /// Waits up to `timeout` (`None`: no limit) for the peer's bytes and
    /// decrypts them into `out`.
    pub fn read(
        &mut self,
        link: &Link,
        timeout: Option<Duration>,
        out: &mut LineBuffer,
    ) -> Received {
        if !self.primed {
            self.primed = true;
            match link.feed(&[], out) {
                Ok(true) => return Received::Closed { clean: true },
                Ok(false) if out.has_partial() => return Received::Data,
                Ok(false) => {}
                Err(e) => return Received::Failed(e),
            }
        }
        let timeout = timeout.map(|t| t.max(Duration::from_millis(1)));
        if self.timeout != Some(timeout) {
            if let Err(e) = self.socket.set_read_timeout(timeout) {
                return Received::Failed(e.to_string());
            }
            self.timeout = Some(timeout);
        }
        let n = match self.socket.read(&mut self.buf) {
            Ok(0) => return Received::Closed { clean: false },
            Ok(n) => n,
            Err(e) if timed_out(&e) || e.kind() == io::ErrorKind::Interrupted => {
                return Received::Timeout;
            }
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => {
                return Received::Closed { clean: false };
            }
            Err(e) => return Received::Failed(e.to_string()),
        };
        match link.feed(&self.buf[..n], out) {
            Ok(true) => Received::Closed { clean: true },
            Ok(false) => Received::Data,
            Err(e) => Received::Failed(e),
        }
    }
}
