//! The listener: accepts connections up to the ceiling, hands each to its
//! own thread ([`super::connection`]), and on SIGTERM/SIGINT cuts them all
//! (which kills their engines) and returns.

use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::config::ServeSettings;
use crate::platform::interrupt;
use crate::remote::fingerprint::Fingerprint;
use crate::remote::tls;

/// How often the accept loop looks for a new connection or a signal.
pub const ACCEPT_POLL: Duration = Duration::from_millis(5);
/// A connection thread's stack: it only relays lines and runs rustls.
const STACK: usize = 256 * 1024;

/// What the connection threads share.
pub struct Shared {
    pub settings: ServeSettings,
    pub tls: Arc<rustls::ServerConfig>,
    /// Connections open (handshakes included) and engines running.
    pub connections: AtomicUsize,
    pub engines: AtomicUsize,
    /// A socket handle per open connection, to cut them all at the end.
    pub open: Mutex<HashMap<u64, TcpStream>>,
    pub stopping: AtomicBool,
}

impl Shared {
    /// One log line on stderr, for connection `id` (0: the server).
    pub fn log(&self, id: u64, peer: Option<SocketAddr>, text: &str) {
        // Through the diagnostics queue: a stderr nobody reads must not
        // stall the server's threads.
        match peer {
            Some(peer) => crate::diag_line!("uci960 serve: [{id} {peer}] {text}"),
            None => crate::diag_line!("uci960 serve: {text}"),
        }
    }
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot install the signal handlers: {0}")]
    Signals(io::Error),
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
    #[error("cannot listen on {addr}: {source}")]
    Listen { addr: String, source: io::Error },
}

/// Runs until a termination signal; returns its number.
pub fn run(settings: ServeSettings) -> Result<i32, ServeError> {
    interrupt::install(None).map_err(ServeError::Signals)?;
    let (identity, created) = tls::load_or_create(&settings.cert, &settings.key)?;
    let fingerprint = identity.fingerprint();
    let config = tls::server_config(identity)?;
    let listener = TcpListener::bind(&settings.listen).map_err(|source| ServeError::Listen {
        addr: settings.listen.clone(),
        source,
    })?;
    let listen_err = |source| ServeError::Listen {
        addr: settings.listen.clone(),
        source,
    };
    let local = listener.local_addr().map_err(listen_err)?;
    listener.set_nonblocking(true).map_err(listen_err)?;
    let shared = Arc::new(Shared {
        settings,
        tls: config,
        connections: AtomicUsize::new(0),
        engines: AtomicUsize::new(0),
        open: Mutex::new(HashMap::new()),
        stopping: AtomicBool::new(false),
    });
    if created {
        announce_created(
            &shared,
            &shared.settings.cert,
            &shared.settings.key,
            &fingerprint,
        );
    }
    shared.log(
        0,
        None,
        &format!("listening on {local} fingerprint {fingerprint}"),
    );
    let next_id = AtomicU64::new(1);
    loop {
        if let Some(sig) = interrupt::received() {
            stop_all(&shared, sig);
            return Ok(sig);
        }
        match listener.accept() {
            Ok((socket, peer)) => {
                let id = next_id.fetch_add(1, Ordering::Relaxed);
                admit(&shared, id, socket, peer);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(ACCEPT_POLL),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // Out of descriptors and the like: say so, wait, go on.
            Err(e) => {
                shared.log(0, None, &format!("accept failed: {e}"));
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

fn announce_created(shared: &Shared, cert: &Path, key: &Path, fp: &Fingerprint) {
    shared.log(
        0,
        None,
        &format!(
            "made a self-signed certificate '{}' (key '{}'), fingerprint {fp}",
            cert.display(),
            key.display()
        ),
    );
}

/// Starts a connection's thread, or closes it at once past the ceiling.
fn admit(shared: &Arc<Shared>, id: u64, socket: TcpStream, peer: SocketAddr) {
    let max = shared.settings.max_connections;
    if shared.connections.fetch_add(1, Ordering::SeqCst) >= max {
        shared.connections.fetch_sub(1, Ordering::SeqCst);
        shared.log(
            id,
            Some(peer),
            &format!("refused: {max} connections open (max-connections)"),
        );
        return; // dropped: closed
    }
    let _ = socket.set_nonblocking(false);
    if let Ok(handle) = socket.try_clone() {
        lock_open(shared).insert(id, handle);
    }
    let worker = Arc::clone(shared);
    let spawned = std::thread::Builder::new()
        .name(format!("serve-{id}"))
        .stack_size(STACK)
        .spawn(move || {
            super::connection::serve(&worker, id, socket, peer);
            lock_open(&worker).remove(&id);
            worker.connections.fetch_sub(1, Ordering::SeqCst);
        });
    if let Err(e) = spawned {
        lock_open(shared).remove(&id);
        shared.connections.fetch_sub(1, Ordering::SeqCst);
        shared.log(
            id,
            Some(peer),
            &format!("refused: cannot start a thread: {e}"),
        );
    }
}

fn lock_open(shared: &Shared) -> std::sync::MutexGuard<'_, HashMap<u64, TcpStream>> {
    shared.open.lock().unwrap_or_else(|p| p.into_inner())
}

/// Cuts every connection (their threads kill their engines) and waits a
/// moment for them.
fn stop_all(shared: &Shared, sig: i32) {
    shared.stopping.store(true, Ordering::SeqCst);
    let open = lock_open(shared).len();
    shared.log(
        0,
        None,
        &format!("signal {sig}: closing {open} connections"),
    );
    for socket in lock_open(shared).values() {
        let _ = socket.shutdown(std::net::Shutdown::Both);
    }
    let deadline = Instant::now() + Duration::from_millis(500);
    while shared.connections.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}
