//! Waiting for processes by event, not by sleeping: a child's exit with a
//! watchdog that kills it at a (generous) deadline, and any pid's end
//! through a Linux pidfd.

use std::process::{Child, ExitStatus};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// Waits for `child` to exit; kills it and returns `None` if it is still
/// running after `timeout` (a hang guard).
pub fn wait_exit(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    if let Ok(Some(status)) = child.try_wait() {
        return Some(status);
    }
    let pid = child.id();
    let (done, wait_done) = channel::<()>();
    // The watchdog kills only while `wait` below has not returned, so the
    // pid cannot have been reaped and reused.
    let watchdog = std::thread::spawn(move || {
        if wait_done.recv_timeout(timeout) == Err(RecvTimeoutError::Timeout) {
            kill(pid);
            true
        } else {
            false
        }
    });
    let status = child.wait().ok();
    let _ = done.send(());
    let killed = watchdog.join().unwrap_or(true);
    if killed { None } else { status }
}

#[cfg(unix)]
fn kill(pid: u32) {
    // SAFETY: kill(2) on our own unreaped child.
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill(pid: u32) {
    let _ = std::process::Command::new("taskkill")
        .args(["/F", "/PID", &pid.to_string()])
        .status();
}

/// Pids whose parent is `pid` (from /proc).
#[cfg(not(windows))]
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(p) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if parent_of(p) == Some(pid) {
            out.push(p);
        }
    }
    out
}

/// Pids whose parent is `pid` (from a Toolhelp snapshot of all
/// processes; under wine too).
#[cfg(windows)]
pub fn children_of(pid: u32) -> Vec<u32> {
    use windows_sys::Win32::Foundation::{CloseHandle, INVALID_HANDLE_VALUE};
    use windows_sys::Win32::System::Diagnostics::ToolHelp::{
        CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW,
        TH32CS_SNAPPROCESS,
    };
    let mut out = Vec::new();
    // SAFETY: a snapshot handle made, walked with a sized entry and closed
    // once, all here.
    unsafe {
        let snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
        if snap == INVALID_HANDLE_VALUE {
            return out;
        }
        let mut entry: PROCESSENTRY32W = std::mem::zeroed();
        entry.dwSize = std::mem::size_of::<PROCESSENTRY32W>() as u32;
        let mut more = Process32FirstW(snap, &mut entry);
        while more != 0 {
            if entry.th32ParentProcessID == pid && entry.th32ProcessID != pid {
                out.push(entry.th32ProcessID);
            }
            more = Process32NextW(snap, &mut entry);
        }
        CloseHandle(snap);
    }
    out
}

#[cfg(not(windows))]
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid ...; comm may contain spaces.
    let (_, after) = stat.rsplit_once(')')?;
    after.split_whitespace().nth(1)?.parse().ok()
}

/// Whether a process exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .map(|(_, a)| a.split_whitespace().next() != Some("Z"))
            .unwrap_or(false),
        Err(_) => false,
    }
}

/// Waits (up to `timeout`, a hang guard) until `pid` has ended: a pidfd
/// becomes readable when the process exits, no polling. A zombie counts
/// as ended (its parent, not the test, reaps it).
#[cfg(target_os = "linux")]
pub fn gone_within(pid: u32, timeout: Duration) -> bool {
    // SAFETY: pidfd_open returns a new fd or -1; poll reads one pollfd;
    // the fd is closed once.
    unsafe {
        let fd = libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) as libc::c_int;
        if fd < 0 {
            // No such process (ESRCH): already gone.
            return std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        }
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
        let ready = loop {
            let r = libc::poll(&mut pfd, 1, ms);
            if r >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                break r;
            }
        };
        libc::close(fd);
        ready == 1
    }
}

/// Waits (up to `timeout`, a hang guard) until `pid` has ended: the
/// process handle is signalled at exit, no polling. A pid that cannot be
/// opened has ended already.
#[cfg(windows)]
pub fn gone_within(pid: u32, timeout: Duration) -> bool {
    use windows_sys::Win32::Foundation::{CloseHandle, WAIT_OBJECT_0};
    use windows_sys::Win32::System::Threading::{
        OpenProcess, PROCESS_SYNCHRONIZE, WaitForSingleObject,
    };
    // SAFETY: a handle opened here, waited on and closed once.
    unsafe {
        let handle = OpenProcess(PROCESS_SYNCHRONIZE, 0, pid);
        if handle.is_null() {
            return true;
        }
        let ms = timeout.as_millis().min(u32::MAX as u128 - 1) as u32;
        let ended = WaitForSingleObject(handle, ms) == WAIT_OBJECT_0;
        CloseHandle(handle);
        ended
    }
}

/// Waits (up to `timeout`, a hang guard) until the text of the file at
/// `path` satisfies `done`: the file is read again at each inotify event
/// of its directory, no polling. `false` after the deadline.
#[cfg(target_os = "linux")]
pub fn wait_for_file(
    path: &std::path::Path,
    timeout: Duration,
    mut done: impl FnMut(&str) -> bool,
) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let dir = path.parent().expect("a file in a directory");
    let dir = std::ffi::CString::new(dir.as_os_str().as_bytes()).expect("no NUL in a path");
    let deadline = std::time::Instant::now() + timeout;
    // SAFETY: a fresh inotify fd, watched, polled, read into a local buffer
    // and closed once.
    unsafe {
        let fd = libc::inotify_init1(libc::IN_CLOEXEC);
        assert!(
            fd >= 0,
            "inotify_init1: {}",
            std::io::Error::last_os_error()
        );
        let mask = libc::IN_MODIFY | libc::IN_CREATE | libc::IN_CLOSE_WRITE | libc::IN_MOVED_TO;
        let watch = libc::inotify_add_watch(fd, dir.as_ptr(), mask);
        assert!(
            watch >= 0,
            "inotify_add_watch: {}",
            std::io::Error::last_os_error()
        );
        let mut buf = [0u8; 4096];
        let found = loop {
            // Read after the watch is set: a write before it is not missed.
            if done(&std::fs::read_to_string(path).unwrap_or_default()) {
                break true;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break false;
            }
            let mut pfd = libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = left.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
            if libc::poll(&mut pfd, 1, ms) > 0 {
                libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
            }
        };
        libc::close(fd);
        found
    }
}
