//! Windows: a Job Object per engine, threads for pipes (anonymous pipes
//! have no `poll`), console control events for signals.
//!
//! Every stream gets one thread that does the blocking call (a read of one
//! chunk, or a write of what the loop handed over) and tells the owner
//! through a channel. At most one chunk waits per reader and one write per
//! writer, so memory stays bounded and a stream the loop does not want is
//! simply not drained: the same back-pressure as not polling it on POSIX.

use std::io::{self, Read, Write};
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
use windows_sys::Win32::System::Console::{
    CTRL_BREAK_EVENT, CTRL_C_EVENT, GenerateConsoleCtrlEvent, SetConsoleCtrlHandler,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Threading::CREATE_NEW_PROCESS_GROUP;
use windows_sys::core::BOOL;

use super::interrupt::{self, SIGINT, SIGTERM};
use super::{ReadOutcome, Ready, Side, Want};
use crate::lines::LineBuffer;

/// How often a wait looks at the interrupt flag (waits return at once on
/// data; this only bounds how late a console event is noticed).
const SLICE: Duration = Duration::from_millis(50);
/// One read.
const CHUNK: usize = 1 << 16;

/// Writes `bytes` to stderr, blocking (the writer thread of
/// [`super::diag`]); false if it failed.
pub(super) fn write_stderr(bytes: &[u8]) -> bool {
    io::stderr().write_all(bytes).is_ok()
}

/// The same when [`super::diag`] has no writer thread: anonymous pipes
/// cannot be polled, so this one blocks too.
pub(super) fn try_write_stderr(bytes: &[u8]) -> bool {
    write_stderr(bytes)
}

// ---------------------------------------------------------------- processes

/// Starts the engine in a new console process group: Ctrl-C in the console
/// reaches uci960 only, which then ends the engine itself. (`die_with_parent`
/// needs nothing more: every engine is in a kill-on-close Job Object.)
pub fn prepare(command: &mut Command, _die_with_parent: bool) {
    command.creation_flags(CREATE_NEW_PROCESS_GROUP);
}

/// Spawns a command made by [`prepare`] (the POSIX side registers the
/// engine under a lock; here the Job Object does all).
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    command.spawn()
}

/// The engine's Job Object: closing it (also when uci960 is killed hard)
/// kills every process in it, the engine's own children included.
#[derive(Debug)]
pub struct ProcessGroup {
    /// `None` where a job cannot be attached (Windows 7 inside a GUI's own
    /// job): the engine is then ended directly, without its children.
    job: Option<HANDLE>,
    pid: u32,
}

// SAFETY: a job handle may be used from any thread.
unsafe impl Send for ProcessGroup {}
unsafe impl Sync for ProcessGroup {}

impl ProcessGroup {
    pub fn new(child: &Child) -> io::Result<ProcessGroup> {
        Ok(ProcessGroup {
            job: kill_on_close_job(child),
            pid: child.id(),
        })
    }

    /// Asks the engine to end: Ctrl-Break to its console process group
    /// (the default handler exits; fails harmlessly without a console).
    pub fn terminate(&self) {
        // SAFETY: a plain Win32 call.
        unsafe {
            GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, self.pid);
        }
    }

    /// Ends every process of the engine at once (exit code 1).
    pub fn kill(&self) {
        if let Some(job) = self.job {
            // SAFETY: our own job handle.
            unsafe {
                TerminateJobObject(job, 1);
            }
        }
    }
}

/// A new job with kill-on-close holding the child, if Windows allows it.
fn kill_on_close_job(child: &Child) -> Option<HANDLE> {
    // SAFETY: plain Win32 calls on a handle we create and own, and the
    // child's process handle, valid while `child` lives.
    unsafe {
        let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if job.is_null() {
            return None;
        }
        let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
        info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        let ok = SetInformationJobObject(
            job,
            JobObjectExtendedLimitInformation,
            (&info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
            std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        ) != 0
            && AssignProcessToJobObject(job, child.as_raw_handle() as HANDLE) != 0;
        if !ok {
            CloseHandle(job);
            return None;
        }
        Some(job)
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if let Some(job) = self.job {
            // SAFETY: closed once; kill-on-close ends what is left in it.
            unsafe {
                CloseHandle(job);
            }
        }
    }
}

// ---------------------------------------------------------------- console events

static FLAGS: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());

pub(super) fn install_interrupt(flag: Option<Arc<AtomicBool>>) -> io::Result<()> {
    let mut flags = FLAGS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(flag) = flag {
        flags.push(flag);
    }
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if !INSTALLED.swap(true, Ordering::SeqCst) {
        // SAFETY: registers a handler with the right signature.
        if unsafe { SetConsoleCtrlHandler(Some(on_console_event), 1) } == 0 {
            INSTALLED.store(false, Ordering::SeqCst);
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Runs on a thread of its own (Windows starts one per event): record,
/// let the command end by itself, else exit; closing our job handles at
/// exit kills the engines.
unsafe extern "system" fn on_console_event(event: u32) -> BOOL {
    let sig = if event == CTRL_C_EVENT {
        SIGINT
    } else {
        SIGTERM
    };
    for flag in FLAGS.lock().unwrap_or_else(PoisonError::into_inner).iter() {
        flag.store(true, Ordering::SeqCst);
    }
    interrupt::record(sig);
    if interrupt::COUNT.load(Ordering::SeqCst) == 1 {
        interrupt::grace_period();
        super::diag::line("uci960: interrupted; engines killed");
        super::diag::flush();
        std::process::exit(interrupt::exit_code(sig).into());
    }
    1
}

fn interrupted() -> bool {
    interrupt::received().is_some()
}

// ---------------------------------------------------------------- reading

/// What a reader thread hands over.
enum Chunk {
    Data(Vec<u8>),
    Eof,
    Error(io::Error),
}

/// Starts a thread reading `input` chunk by chunk into a channel that holds
/// one chunk; `wake` is told after each one.
fn spawn_reader(
    mut input: impl Read + Send + 'static,
    wake: Option<(Sender<Wake>, Side)>,
) -> Receiver<Chunk> {
    let (tx, rx): (SyncSender<Chunk>, _) = mpsc::sync_channel(1);
    let spawned = std::thread::Builder::new()
        .name("uci960-pipe-reader".into())
        .spawn(move || {
            let mut buf = vec![0; CHUNK];
            loop {
                let chunk = match input.read(&mut buf) {
                    Ok(0) => Chunk::Eof,
                    Ok(n) => Chunk::Data(buf[..n].to_vec()),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    // A closed pipe is the end of the stream.
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Chunk::Eof,
                    Err(e) => Chunk::Error(e),
                };
                let last = !matches!(chunk, Chunk::Data(_));
                if tx.send(chunk).is_err() {
                    return;
                }
                if let Some((wake, side)) = &wake
                    && wake.send(Wake::Readable(*side)).is_err()
                {
                    return;
                }
                if last {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        // The receiver reports it as a read error.
        let (tx, rx) = mpsc::sync_channel(1);
        let _ = tx.send(Chunk::Error(e));
        return rx;
    }
    rx
}

/// Puts a received chunk into the line buffer.
fn take(chunk: Chunk, buf: &mut LineBuffer) -> ReadOutcome {
    match chunk {
        Chunk::Data(bytes) => {
            buf.extend(&bytes);
            ReadOutcome::Data
        }
        Chunk::Eof => ReadOutcome::Eof,
        Chunk::Error(e) => ReadOutcome::Error(e),
    }
}

/// An engine's stdout, read by a thread.
pub struct PipeReader {
    chunks: Receiver<Chunk>,
    ended: bool,
}

impl PipeReader {
    pub fn new(pipe: ChildStdout) -> PipeReader {
        PipeReader {
            chunks: spawn_reader(pipe, None),
            ended: false,
        }
    }

    /// Waits for the next chunk (or `deadline`, or a console event).
    pub fn read(&mut self, buf: &mut LineBuffer, deadline: Option<Instant>) -> ReadOutcome {
        if self.ended {
            return ReadOutcome::Eof;
        }
        loop {
            if interrupted() {
                return ReadOutcome::Interrupted;
            }
            let slice = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()).min(SLICE),
                None => SLICE,
            };
            match self.chunks.recv_timeout(slice) {
                Ok(chunk) => {
                    let outcome = take(chunk, buf);
                    self.ended = !matches!(outcome, ReadOutcome::Data);
                    return outcome;
                }
                Err(RecvTimeoutError::Timeout) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return ReadOutcome::Timeout;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.ended = true;
                    return ReadOutcome::Eof;
                }
            }
        }
    }
}

// ---------------------------------------------------------------- the relay

/// What the stream threads tell the relay.
enum Wake {
    Readable(Side),
    /// A write finished (`Ok`) or failed.
    Written(Side, io::Result<()>),
}

/// A writer thread: one write in flight at a time.
struct Writer {
    tx: Option<Sender<Vec<u8>>>,
    busy: bool,
    failed: Option<io::ErrorKind>,
}

fn spawn_writer(mut output: impl Write + Send + 'static, side: Side, wake: Sender<Wake>) -> Writer {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let spawned = std::thread::Builder::new()
        .name("uci960-pipe-writer".into())
        .spawn(move || {
            for bytes in rx {
                let result = output.write_all(&bytes).and_then(|_| output.flush());
                let failed = result.is_err();
                if wake.send(Wake::Written(side, result)).is_err() || failed {
                    return;
                }
            }
        });
    Writer {
        tx: Some(tx),
        busy: false,
        failed: spawned.err().map(|e| e.kind()),
    }
}

/// The proxy's streams on threads; see the module docs.
pub struct Relay {
    readers: [Receiver<Chunk>; 2],
    /// A chunk is waiting in the reader's channel.
    readable: [bool; 2],
    ended: [bool; 2],
    writers: [Writer; 2],
    wake: Receiver<Wake>,
}

impl Relay {
    pub fn new(engine_in: ChildStdin, engine_out: ChildStdout) -> io::Result<Relay> {
        let (tx, wake) = mpsc::channel();
        let readers = [
            spawn_reader(io::stdin(), Some((tx.clone(), Side::Gui))),
            spawn_reader(engine_out, Some((tx.clone(), Side::Engine))),
        ];
        let writers = [
            spawn_writer(io::stdout(), Side::Gui, tx.clone()),
            spawn_writer(engine_in, Side::Engine, tx),
        ];
        Ok(Relay {
            readers,
            readable: [false; 2],
            ended: [false; 2],
            writers,
            wake,
        })
    }

    fn note(&mut self, wake: Wake) {
        match wake {
            Wake::Readable(side) => self.readable[side.index()] = true,
            Wake::Written(side, result) => {
                let w = &mut self.writers[side.index()];
                w.busy = false;
                if let Err(e) = result {
                    w.failed = Some(e.kind());
                }
            }
        }
    }

    fn ready(&self, want: Want) -> Ready {
        let mut ready = Ready::default();
        for side in Side::BOTH {
            let i = side.index();
            ready.read[i] = want.read[i] && (self.readable[i] || self.ended[i]);
            ready.write[i] = want.write[i] && !self.writers[i].busy;
        }
        ready.signal = interrupt::received();
        ready
    }

    pub fn wait(&mut self, want: Want, timeout: Option<Duration>) -> io::Result<Ready> {
        let deadline = timeout.map(|t| Instant::now() + t);
        loop {
            while let Ok(wake) = self.wake.try_recv() {
                self.note(wake);
            }
            let ready = self.ready(want);
            if ready != Ready::default() {
                return Ok(ready);
            }
            let slice = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()).min(SLICE),
                None => SLICE,
            };
            match self.wake.recv_timeout(slice) {
                Ok(wake) => self.note(wake),
                Err(RecvTimeoutError::Timeout) => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return Ok(Ready::default());
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(self.ready(want)),
            }
        }
    }

    pub fn read(&mut self, side: Side, buf: &mut LineBuffer) -> ReadOutcome {
        let i = side.index();
        if self.ended[i] {
            return ReadOutcome::Eof;
        }
        match self.readers[i].try_recv() {
            Ok(chunk) => {
                let outcome = take(chunk, buf);
                self.ended[i] = !matches!(outcome, ReadOutcome::Data);
                outcome
            }
            Err(TryRecvError::Empty) => {
                self.readable[i] = false;
                ReadOutcome::WouldBlock
            }
            Err(TryRecvError::Disconnected) => {
                self.ended[i] = true;
                ReadOutcome::Eof
            }
        }
    }

    /// Hands `bytes` to the side's writer thread when it is idle (all of
    /// them: the count), else 0.
    pub fn write(&mut self, side: Side, bytes: &[u8]) -> io::Result<usize> {
        while let Ok(wake) = self.wake.try_recv() {
            self.note(wake);
        }
        let w = &mut self.writers[side.index()];
        if let Some(kind) = w.failed {
            return Err(kind.into());
        }
        if w.busy {
            return Ok(0);
        }
        match &w.tx {
            Some(tx) if tx.send(bytes.to_vec()).is_ok() => {
                w.busy = true;
                Ok(bytes.len())
            }
            _ => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    /// Closes the engine's stdin once its writer is done: end of input.
    pub fn close_engine_input(&mut self) {
        self.writers[Side::Engine.index()].tx = None;
    }
}
