//! POSIX: `poll(2)` on the caller's thread, process groups, signals through
//! a self-pipe.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use super::interrupt;
use super::{ReadOutcome, Ready, Side, Want};
use crate::lines::LineBuffer;

// ---------------------------------------------------------------- processes

/// Sets up a command so the engine leads its own process group (a
/// wrapper's children are signalled with it) and, on Linux when
/// `die_with_parent`, is killed by the kernel when the spawning thread ends
/// (even by SIGKILL). Only ask for that from a thread that lives as long as
/// the engine (the proxy's main thread).
pub fn prepare(command: &mut Command, die_with_parent: bool) {
    command.process_group(0);
    #[cfg(target_os = "linux")]
    if die_with_parent {
        // SAFETY: prctl is async-signal-safe; nothing else runs between
        // fork and exec here.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = die_with_parent;
}

/// The engine's process group, registered so that the interrupt watchdog
/// can kill it.
#[derive(Debug)]
pub struct ProcessGroup {
    pgid: i32,
    /// The engine's mark in its tree's environment (Linux, see
    /// [`super::tree`]); `None` for a child not started by [`spawn`].
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    tag: Option<String>,
}

/// A running engine: its process group and its mark.
struct Registered {
    pgid: i32,
    tag: String,
}

/// Running engines (for the watchdog and the orphan sweep).
static GROUPS: Mutex<Vec<Registered>> = Mutex::new(Vec::new());

/// Spawns a command made by [`prepare`] and registers the engine at once,
/// under the lock that [`ProcessGroup::kill`] holds while it looks for
/// orphans: an engine just started is never taken for one. On Linux the
/// engine's environment gets its mark (see [`super::tree`]), which its
/// descendants inherit.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let mut groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
    // This process's id and a count: unique among our engines, and told
    // apart from the marks of a uci960 around this one.
    let tag = format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    #[cfg(target_os = "linux")]
    command.env(super::tree::MARK_VAR, super::tree::mark_for(&tag));
    let child = command.spawn()?;
    groups.push(Registered {
        pgid: child.id() as i32,
        tag,
    });
    Ok(child)
}

impl ProcessGroup {
    /// The group a child spawned after [`prepare`] leads.
    pub fn new(child: &Child) -> io::Result<ProcessGroup> {
        let pgid = child.id() as i32;
        let groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
        let tag = groups
            .iter()
            .find(|r| r.pgid == pgid)
            .map(|r| r.tag.clone());
        Ok(ProcessGroup { pgid, tag })
    }

    /// Asks every process of the engine to end (SIGTERM), on Linux also
    /// its descendants outside its group (see [`super::tree`]).
    pub fn terminate(&self) {
        #[cfg(target_os = "linux")]
        super::tree::signal_tree(self.pgid, libc::SIGTERM, super::tree::Sweep::None, &[]);
        signal_group(self.pgid, libc::SIGTERM);
    }

    /// Kills every process of the engine (SIGKILL): also a wrapper's
    /// children still running after it exited and, on Linux, descendants
    /// that left its group or session and its orphans re-parented to
    /// uci960 (not another engine's: see [`super::tree`]).
    pub fn kill(&self) {
        #[cfg(target_os = "linux")]
        {
            let groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
            let engines: Vec<i32> = groups.iter().map(|r| r.pgid).collect();
            let others = groups.iter().any(|r| r.pgid != self.pgid);
            let sweep = super::tree::Sweep::Of {
                tag: self.tag.as_deref(),
                unmarked: !others,
            };
            super::tree::signal_tree(self.pgid, libc::SIGKILL, sweep, &engines);
        }
        signal_group(self.pgid, libc::SIGKILL);
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        let mut groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
        groups.retain(|r| r.pgid != self.pgid);
    }
}

fn signal_group(pgid: i32, sig: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals that process group.
        // The group is our child's: its id is not reused while any member
        // is alive (and the leader is reaped only by us).
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}

// ---------------------------------------------------------------- signals

/// The self-pipe written by the handler: the read end is never drained, so
/// after a signal it stays readable for every `poll` that includes it.
static WAKE: OnceLock<(RawFd, RawFd)> = OnceLock::new();

pub(super) fn install_interrupt(flag: Option<Arc<AtomicBool>>) -> io::Result<()> {
    const SIGNALS: [i32; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];
    // The flag first: handlers run in registration order.
    if let Some(flag) = flag {
        for sig in SIGNALS {
            signal_hook::flag::register(sig, Arc::clone(&flag))?;
        }
    }
    static INSTALLED: Mutex<bool> = Mutex::new(false);
    let mut installed = INSTALLED.lock().unwrap_or_else(PoisonError::into_inner);
    if *installed {
        return Ok(());
    }
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills the two-element array.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    for fd in fds {
        set_flag(fd, libc::F_SETFD, libc::FD_CLOEXEC)?;
    }
    set_flag(fds[1], libc::F_SETFL, libc::O_NONBLOCK)?;
    let _ = WAKE.set((fds[0], fds[1]));
    static WRITE_FD: AtomicI32 = AtomicI32::new(-1);
    WRITE_FD.store(fds[1], Ordering::SeqCst);
    for sig in SIGNALS {
        // SAFETY: the handler only touches atomics and write(2), both
        // async-signal-safe.
        unsafe {
            signal_hook::low_level::register(sig, move || {
                interrupt::record(sig);
                let fd = WRITE_FD.load(Ordering::SeqCst);
                libc::write(fd, b"!".as_ptr().cast(), 1);
            })?;
        }
    }
    std::thread::Builder::new()
        .name("uci960-signal-watchdog".into())
        .spawn(watchdog)?;
    *installed = true;
    Ok(())
}

/// Sleeps until the first signal, gives the command [`interrupt::FORCE_AFTER`]
/// to end by itself, then kills the engines and exits.
fn watchdog() {
    let mut pfd = libc::pollfd {
        fd: wake_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    while unsafe { libc::poll(&mut pfd, 1, -1) } <= 0 {}
    interrupt::grace_period();
    let sig = interrupt::received().unwrap_or(libc::SIGTERM);
    // try_lock: a thread that died holding the lock must not stop the exit.
    if let Ok(groups) = GROUPS.try_lock() {
        #[cfg(target_os = "linux")]
        let engines: Vec<i32> = groups.iter().map(|r| r.pgid).collect();
        for r in groups.iter() {
            #[cfg(target_os = "linux")]
            super::tree::signal_tree(r.pgid, libc::SIGKILL, super::tree::Sweep::All, &engines);
            signal_group(r.pgid, libc::SIGKILL);
        }
    }
    super::diag::line("uci960: interrupted; engines killed");
    super::diag::flush();
    // SAFETY: _exit ends the process at once, without running destructors
    // another thread may be in the middle of.
    unsafe { libc::_exit(interrupt::exit_code(sig).into()) }
}

/// Writes `bytes` to stderr whole, blocking (the writer thread of
/// [`super::diag`]); waits with `poll` if stderr was made non-blocking by
/// someone sharing it. False if stderr failed (closed).
pub(super) fn write_stderr(mut bytes: &[u8]) -> bool {
    const STDERR: RawFd = 2;
    while !bytes.is_empty() {
        match FdIo(STDERR).write(bytes) {
            Ok(0) => return false,
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let mut pfd = [libc::pollfd {
                    fd: STDERR,
                    events: libc::POLLOUT,
                    revents: 0,
                }];
                if poll(&mut pfd, -1).is_err() {
                    return false;
                }
            }
            Err(_) => return false,
        }
    }
    true
}

/// Writes `bytes` to stderr whole if `poll` says it takes them now (a
/// line of at most `PIPE_BUF` bytes); false if it would block or failed.
/// Only for when [`super::diag`] has no writer thread.
pub(super) fn try_write_stderr(bytes: &[u8]) -> bool {
    const STDERR: RawFd = 2;
    let mut pfd = [libc::pollfd {
        fd: STDERR,
        events: libc::POLLOUT,
        revents: 0,
    }];
    match poll(&mut pfd, 0) {
        Ok(1) if pfd[0].revents & libc::POLLOUT != 0 => {}
        _ => return false,
    }
    let mut out = FdIo(STDERR);
    out.write_all(bytes).is_ok()
}

/// The read end of the self-pipe, or -1 (ignored by `poll`) before
/// [`install_interrupt`].
fn wake_fd() -> RawFd {
    WAKE.get().map_or(-1, |&(r, _)| r)
}

/// Sets one flag of `fd` with fcntl (`cmd` is `F_SETFD` or `F_SETFL`).
fn set_flag(fd: RawFd, cmd: libc::c_int, flag: libc::c_int) -> io::Result<()> {
    change_flag(fd, cmd, flag, true)
}

/// Gives a descriptor opened with `O_NONBLOCK` its blocking mode back.
pub(super) fn set_blocking(fd: RawFd) -> io::Result<()> {
    change_flag(fd, libc::F_SETFL, libc::O_NONBLOCK, false)
}

fn change_flag(fd: RawFd, cmd: libc::c_int, flag: libc::c_int, on: bool) -> io::Result<()> {
    let get = if cmd == libc::F_SETFD {
        libc::F_GETFD
    } else {
        libc::F_GETFL
    };
    // SAFETY: fcntl on a descriptor we own or were given.
    unsafe {
        let old = libc::fcntl(fd, get);
        let new = if on { old | flag } else { old & !flag };
        if old < 0 || libc::fcntl(fd, cmd, new) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- reading

/// Polls `fds` until one is ready or `timeout_ms` passes (-1: forever);
/// retries on EINTR. Returns how many are ready.
fn poll(fds: &mut [libc::pollfd], timeout_ms: i32) -> io::Result<usize> {
    loop {
        // SAFETY: `fds` is a valid array of pollfd for the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
        if n >= 0 {
            return Ok(n as usize);
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Milliseconds until `deadline` for `poll`, rounded up so a wait never
/// ends early; -1 for none.
fn timeout_ms(deadline: Option<Instant>) -> i32 {
    match deadline {
        None => -1,
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            left.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as i32
        }
    }
}

/// One read into the line buffer.
fn read_into(reader: &mut impl Read, buf: &mut LineBuffer) -> ReadOutcome {
    loop {
        match reader.read(buf.spare()) {
            Ok(0) => return ReadOutcome::Eof,
            Ok(n) => {
                buf.commit(n);
                return ReadOutcome::Data;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return ReadOutcome::WouldBlock,
            Err(e) => return ReadOutcome::Error(e),
        }
    }
}

const READABLE: libc::c_short = libc::POLLIN | libc::POLLHUP | libc::POLLERR;
const WRITABLE: libc::c_short = libc::POLLOUT | libc::POLLHUP | libc::POLLERR;

/// An engine's stdout read on the owner's thread: one `poll` with the
/// timeout, then one large `read`. No thread hand-off per line, which is
/// what keeps the match runner's own CPU low.
pub struct PipeReader {
    pipe: ChildStdout,
}

impl PipeReader {
    pub fn new(pipe: ChildStdout) -> PipeReader {
        PipeReader { pipe }
    }

    /// Waits until the pipe is readable (or `deadline`, or a signal), then
    /// reads once into `buf`.
    pub fn read(&mut self, buf: &mut LineBuffer, deadline: Option<Instant>) -> ReadOutcome {
        let mut fds = [
            libc::pollfd {
                fd: self.pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: wake_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        loop {
            match poll(&mut fds, timeout_ms(deadline)) {
                Ok(0) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return ReadOutcome::Timeout;
                    }
                }
                Ok(_) if fds[1].revents != 0 => return ReadOutcome::Interrupted,
                // Readable, or poll failed: let the read say what is wrong.
                Ok(_) | Err(_) => return read_into(&mut self.pipe, buf),
            }
        }
    }
}

// ---------------------------------------------------------------- the relay

/// The proxy's four streams and the signal pipe, in one `poll`. Engine
/// stdin and (when a pipe or socket) our stdout are made non-blocking, so
/// a peer that does not read can never block the loop; stdout's flags are
/// restored on drop (the descriptor may be shared with the parent).
pub struct Relay {
    /// `None` once closed ([`Relay::close_engine_input`]).
    engine_in: Option<ChildStdin>,
    engine_out: ChildStdout,
    /// stdout's flags before we made it non-blocking.
    stdout_flags: Option<libc::c_int>,
}

const STDIN: RawFd = 0;
const STDOUT: RawFd = 1;

impl Relay {
    pub fn new(engine_in: ChildStdin, engine_out: ChildStdout) -> io::Result<Relay> {
        set_flag(engine_in.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK)?;
        let mut stdout_flags = None;
        // SAFETY: fstat fills the struct; fcntl reads stdout's flags.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            let kind = if libc::fstat(STDOUT, &mut st) == 0 {
                st.st_mode & libc::S_IFMT
            } else {
                0
            };
            if kind == libc::S_IFIFO || kind == libc::S_IFSOCK {
                let old = libc::fcntl(STDOUT, libc::F_GETFL);
                if old >= 0 && libc::fcntl(STDOUT, libc::F_SETFL, old | libc::O_NONBLOCK) == 0 {
                    stdout_flags = Some(old);
                }
            }
        }
        Ok(Relay {
            engine_in: Some(engine_in),
            engine_out,
            stdout_flags,
        })
    }

    /// Waits until something wanted is ready, a signal arrives, or
    /// `timeout` passes (all false then).
    pub fn wait(&mut self, want: Want, timeout: Option<Duration>) -> io::Result<Ready> {
        let fd = |wanted: bool, fd: RawFd| if wanted { fd } else { -1 };
        let g = Side::Gui.index();
        let e = Side::Engine.index();
        let mut fds = [
            (fd(want.read[g], STDIN), libc::POLLIN),
            (fd(want.read[e], self.engine_out.as_raw_fd()), libc::POLLIN),
            (fd(want.write[g], STDOUT), libc::POLLOUT),
            (
                fd(
                    want.write[e],
                    self.engine_in.as_ref().map_or(-1, |p| p.as_raw_fd()),
                ),
                libc::POLLOUT,
            ),
            (wake_fd(), libc::POLLIN),
        ]
        .map(|(fd, events)| libc::pollfd {
            fd,
            events,
            revents: 0,
        });
        let ms = match timeout {
            None => -1,
            Some(t) => t.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as i32,
        };
        poll(&mut fds, ms)?;
        let mut ready = Ready::default();
        ready.read[g] = fds[0].revents & READABLE != 0;
        ready.read[e] = fds[1].revents & READABLE != 0;
        ready.write[g] = fds[2].revents & WRITABLE != 0;
        ready.write[e] = fds[3].revents & WRITABLE != 0;
        if fds[4].revents != 0 {
            ready.signal = Some(interrupt::received().unwrap_or(libc::SIGTERM));
        }
        Ok(ready)
    }

    /// One read from a side (after [`Relay::wait`] said it is readable).
    pub fn read(&mut self, side: Side, buf: &mut LineBuffer) -> ReadOutcome {
        match side {
            Side::Gui => read_into(&mut FdIo(STDIN), buf),
            Side::Engine => read_into(&mut self.engine_out, buf),
        }
    }

    /// Writes what the side takes now without blocking: the count written
    /// (0 when its pipe is full).
    pub fn write(&mut self, side: Side, bytes: &[u8]) -> io::Result<usize> {
        let result = match side {
            Side::Gui => FdIo(STDOUT).write(bytes),
            Side::Engine => match &mut self.engine_in {
                Some(pipe) => pipe.write(bytes),
                None => Err(io::ErrorKind::BrokenPipe.into()),
            },
        };
        match result {
            Ok(n) => Ok(n),
            Err(e)
                if e.kind() == io::ErrorKind::WouldBlock
                    || e.kind() == io::ErrorKind::Interrupted =>
            {
                Ok(0)
            }
            Err(e) => Err(e),
        }
    }
}

impl Relay {
    /// Closes the engine's stdin: end of input for it.
    pub fn close_engine_input(&mut self) {
        self.engine_in = None;
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        if let Some(flags) = self.stdout_flags {
            // SAFETY: restores stdout's flags as we found them.
            unsafe {
                libc::fcntl(STDOUT, libc::F_SETFL, flags);
            }
        }
    }
}

/// Plain read(2)/write(2) on a descriptor we do not own (stdin, stdout),
/// bypassing std's buffered handles.
struct FdIo(RawFd);

impl Read for FdIo {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // SAFETY: `buf` is valid for `buf.len()` bytes.
        let n = unsafe { libc::read(self.0, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }
}

impl Write for FdIo {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // SAFETY: `buf` is valid for `buf.len()` bytes.
        let n = unsafe { libc::write(self.0, buf.as_ptr().cast(), buf.len()) };
        if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
