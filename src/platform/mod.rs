//! The only place that knows the operating system: engine processes, the
//! pipes to them and to the GUI, and signals. Everything above this module
//! is the same on every system.
//!
//! | piece | POSIX | Windows |
//! |---|---|---|
//! | [`prepare`] + [`ProcessGroup`] | the engine leads its own process group (`setpgid`), so a wrapper's children are signalled with it; `PR_SET_PDEATHSIG` on Linux; on Linux also every descendant found through `/proc` and the engine's own orphans re-parented to uci960 as subreaper, told apart by a mark in their environment ([`tree`]) | a Job Object with kill-on-close per engine; `CREATE_NEW_PROCESS_GROUP` keeps Ctrl-C away from it |
//! | [`PipeReader`] | `poll` with a timeout, then one large `read` on the caller's thread | a reader thread handing chunks over one at a time |
//! | [`Relay`] | the proxy's single-thread `poll` loop over the GUI, the engine and signals, all writes non-blocking | one reader and one writer thread per stream, waking the loop through a channel |
//! | [`interrupt`] | SIGINT, SIGTERM, SIGHUP | Ctrl-C (as SIGINT), Ctrl-Break, console close, logoff, shutdown (as SIGTERM) |
//! | [`fs`] | non-blocking `open` (`O_NONBLOCK`), FIFO/device kinds, `EINVAL` from fsync | nothing to add to `open`; console/pipe flush errors |
//! | [`diag`] | stderr lines queued (bounded, dropped and counted when full) for one writer thread; an engine's stderr forwarded through it | the same |
//! | [`cpu`] | `getrusage` for self and reaped children | `GetProcessTimes` for self |
//! | [`engine_pipes`] | two `pipe(2)`s as a child's stdin/stdout | two anonymous pipes as a child's stdin/stdout |
//! | [`describe_status`] | "killed by signal 11 (SIGSEGV)" | "exited with code 0xC0000005 (access violation)" |
//!
//! Callers see one small interface: readiness and non-blocking writes for
//! the proxy ([`Relay`]), a timed read for the engine client
//! ([`PipeReader`]), kill/terminate of a whole engine ([`ProcessGroup`]).
//! The line splitting, queues and protocol stay sans-IO above it.

pub mod cpu;
pub mod diag;
pub mod fs;
pub mod interrupt;
pub mod status;

#[cfg(unix)]
mod posix;
#[cfg(target_os = "linux")]
mod tree;
#[cfg(unix)]
use posix as imp;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

pub use imp::{PipeReader, ProcessGroup, Relay, prepare, spawn};
pub use status::describe_status;

use std::io;
use std::process::{ChildStdin, ChildStdout};

/// For the `uci960` program only (not a library user, whose other
/// children would be taken for orphans): on Linux, makes the process the
/// subreaper of its descendants, so that what an engine leaves behind is
/// re-parented here and ended with the engine ([`tree`]). Nothing
/// elsewhere (Windows: the Job Object holds the whole tree).
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    tree::become_subreaper();
}

/// Whether a failed spawn says the program is not something this system
/// can run (a script without `#!`, an executable for another platform).
pub fn is_not_executable(e: &io::Error) -> bool {
    #[cfg(unix)]
    let code = libc::ENOEXEC;
    // ERROR_BAD_EXE_FORMAT
    #[cfg(windows)]
    let code = 193;
    e.kind() == io::ErrorKind::PermissionDenied || e.raw_os_error() == Some(code)
}

/// Whether an error says that uci960 itself is out of resources (open
/// files, processes, memory, disk), as opposed to something about the
/// engine or file at hand: such a failure ends a run (exit 3) and is
/// charged to no engine.
pub fn is_out_of_resources(e: &io::Error) -> bool {
    if matches!(
        e.kind(),
        io::ErrorKind::OutOfMemory | io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
    ) {
        return true;
    }
    #[cfg(unix)]
    let codes = [
        libc::EMFILE,
        libc::ENFILE,
        libc::EAGAIN,
        libc::ENOMEM,
        libc::ENOSPC,
    ];
    // ERROR_TOO_MANY_OPEN_FILES, ERROR_NOT_ENOUGH_MEMORY, ERROR_OUTOFMEMORY,
    // ERROR_NO_SYSTEM_RESOURCES, ERROR_DISK_FULL.
    #[cfg(windows)]
    let codes = [4, 8, 14, 1450, 112];
    e.raw_os_error().is_some_and(|c| codes.contains(&c))
}

/// A pair of anonymous pipes shaped like a child engine's: the engine's
/// stdin and stdout for the proxy's [`Relay`], and the other ends for a
/// transport that is not a process (the remote link's bridge threads read
/// what the proxy writes and write what the engine says).
pub fn engine_pipes() -> io::Result<(ChildStdin, io::PipeReader, ChildStdout, io::PipeWriter)> {
    let (from_proxy, to_engine) = io::pipe()?;
    let (from_engine, to_proxy) = io::pipe()?;
    #[cfg(unix)]
    let (stdin, stdout) = {
        use std::os::fd::OwnedFd;
        (
            ChildStdin::from(OwnedFd::from(to_engine)),
            ChildStdout::from(OwnedFd::from(from_engine)),
        )
    };
    #[cfg(windows)]
    let (stdin, stdout) = {
        use std::os::windows::io::OwnedHandle;
        (
            ChildStdin::from(OwnedHandle::from(to_engine)),
            ChildStdout::from(OwnedHandle::from(from_engine)),
        )
    };
    Ok((stdin, from_proxy, stdout, to_proxy))
}

/// One side of the proxy: the GUI (our stdin and stdout) or the engine
/// (its stdout and stdin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Gui = 0,
    Engine = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Gui, Side::Engine];

    pub fn index(self) -> usize {
        self as usize
    }
}

/// What the proxy loop wants to wait for, by [`Side::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Want {
    pub read: [bool; 2],
    pub write: [bool; 2],
}

/// What is ready after [`Relay::wait`], by [`Side::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ready {
    pub read: [bool; 2],
    pub write: [bool; 2],
    /// A termination signal (or console event) arrived: its POSIX number.
    pub signal: Option<i32>,
}

impl Ready {
    /// Nothing became ready before the timeout.
    pub fn is_timeout(&self) -> bool {
        *self == Ready::default()
    }
}

/// The outcome of one read.
#[derive(Debug)]
pub enum ReadOutcome {
    /// Bytes were added to the line buffer.
    Data,
    /// End of the stream.
    Eof,
    /// Nothing to read now (try again after the next wait).
    WouldBlock,
    /// Reading failed; treat the stream as ended.
    Error(io::Error),
    /// [`PipeReader::read`] only: the deadline passed.
    Timeout,
    /// [`PipeReader::read`] only: a termination signal arrived.
    Interrupted,
}
