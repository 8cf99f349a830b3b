//! How an engine ended, in words: an exit code, a POSIX signal by name, or
//! a Windows NTSTATUS crash code by name.
//!
//! ```
//! use uci960::platform::status::{ntstatus_name, signal_name};
//! assert_eq!(signal_name(11), Some("SIGSEGV"));
//! assert_eq!(ntstatus_name(0xC000_0005), Some("access violation"));
//! ```
//!
//! The tables are plain data, compiled on every system, so they are tested
//! on Linux too; [`describe_status`] picks the one that fits the system.

use std::process::ExitStatus;

/// A human description of an exit status: "exited with code 3", "killed
/// by signal 11 (SIGSEGV)", "exited with code 0xC0000005 (access
/// violation)".
pub fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return describe_signal(sig);
        }
    }
    match status.code() {
        Some(code) => describe_code(code),
        None => "ended".into(),
    }
}

/// "killed by signal 9 (SIGKILL)".
pub fn describe_signal(sig: i32) -> String {
    format!(
        "killed by signal {sig} ({})",
        signal_name(sig).unwrap_or("unknown signal")
    )
}

/// An exit code in words; codes that are Windows NTSTATUS values (a crash,
/// an abort, Ctrl-C) are written in hex, with their name when known.
pub fn describe_code(code: i32) -> String {
    let unsigned = code as u32;
    match ntstatus_name(unsigned) {
        Some(name) => format!("exited with code 0x{unsigned:08X} ({name})"),
        // Error-severity NTSTATUS range; small negative codes stay decimal.
        None if (0xC000_0000..0xFFFF_0000).contains(&unsigned) => {
            format!("exited with code 0x{unsigned:08X}")
        }
        None => format!("exited with code {code}"),
    }
}

/// The conventional name of a POSIX signal number (Linux numbering for
/// those that differ between systems is not guessed: only the portable
/// ones are named).
pub fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        5 => "SIGTRAP",
        6 => "SIGABRT",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        14 => "SIGALRM",
        15 => "SIGTERM",
        #[cfg(any(target_os = "linux", target_os = "android"))]
        7 => "SIGBUS",
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        10 => "SIGBUS",
        _ => return None,
    })
}

/// The name of a Windows NTSTATUS code a crashed or killed process exits
/// with (the ones an engine user meets).
pub fn ntstatus_name(code: u32) -> Option<&'static str> {
    Some(match code {
        0x8000_0003 => "breakpoint",
        0xC000_0005 => "access violation",
        0xC000_0017 => "out of memory",
        0xC000_001D => "illegal instruction",
        0xC000_0025 => "noncontinuable exception",
        0xC000_008C => "array bounds exceeded",
        0xC000_008E => "floating-point division by zero",
        0xC000_0094 => "integer division by zero",
        0xC000_0095 => "integer overflow",
        0xC000_0096 => "privileged instruction",
        0xC000_00FD => "stack overflow",
        0xC000_0135 => "DLL not found",
        0xC000_0139 => "entry point not found",
        0xC000_013A => "terminated by Ctrl-C",
        0xC000_0142 => "DLL initialization failed",
        0xC000_0374 => "heap corruption",
        0xC000_0409 => "stack buffer overrun or fast fail (abort)",
        0xC000_041D => "unhandled exception in a callback",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_signals_and_crashes_in_words() {
        assert_eq!(describe_code(0), "exited with code 0");
        assert_eq!(describe_code(3), "exited with code 3");
        assert_eq!(describe_code(-1), "exited with code -1");
        assert_eq!(
            describe_code(0xC000_0005_u32 as i32),
            "exited with code 0xC0000005 (access violation)"
        );
        assert_eq!(
            describe_code(0xC000_00FD_u32 as i32),
            "exited with code 0xC00000FD (stack overflow)"
        );
        assert_eq!(
            describe_code(0xC0DE_0001_u32 as i32),
            "exited with code 0xC0DE0001"
        );
        assert_eq!(describe_signal(9), "killed by signal 9 (SIGKILL)");
        assert_eq!(describe_signal(64), "killed by signal 64 (unknown signal)");
    }

    #[cfg(unix)]
    #[test]
    fn a_real_status_is_described_by_the_system_s_table() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            describe_status(ExitStatus::from_raw(11)),
            "killed by signal 11 (SIGSEGV)"
        );
        assert_eq!(
            describe_status(ExitStatus::from_raw(3 << 8)),
            "exited with code 3"
        );
    }
}
