//! Termination signals (and, on Windows, console events) that every
//! command answers within a second, whatever it is blocked on.
//!
//! [`install`] makes SIGINT, SIGTERM and SIGHUP (Ctrl-C, Ctrl-Break and
//! console close on Windows) do three things: set the caller's flag, wake
//! every wait of the platform layer (engine reads return
//! [`super::ReadOutcome::Interrupted`], the proxy's loop sees
//! [`super::Ready::signal`]), and start a watchdog. The command then ends by
//! itself, politely (engines get `quit`, the match report is written); if
//! it has not exited after [`FORCE_AFTER`], or a second signal arrives, the
//! watchdog kills every engine still running and exits with 128 + signal.
//!
//! Windows has no signal numbers; its events are mapped to the POSIX ones
//! so that exit codes are the same everywhere: Ctrl-C is SIGINT (exit 130),
//! Ctrl-Break, console close, logoff and shutdown are SIGTERM (exit 143).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::Duration;

/// How long a command may take to end by itself after a signal.
pub const FORCE_AFTER: Duration = Duration::from_millis(800);

/// SIGINT's number (the same on every system).
pub const SIGINT: i32 = 2;
/// SIGTERM's number (the same on every system).
pub const SIGTERM: i32 = 15;

/// The first signal received (0: none).
pub(super) static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// How many signals arrived.
pub(super) static COUNT: AtomicUsize = AtomicUsize::new(0);

/// Installs the handlers (once per process; later calls only add `flag`).
/// `flag` is set before any wait wakes up, so code that sees an
/// interrupted wait also sees the flag.
pub fn install(flag: Option<Arc<AtomicBool>>) -> io::Result<()> {
    super::imp::install_interrupt(flag)
}

/// The signal received so far, if any.
pub fn received() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// The conventional exit status after a signal: 128 + its number.
pub fn exit_code(sig: i32) -> u8 {
    128u8.saturating_add(sig.clamp(0, 127) as u8)
}

/// Records a signal (from a handler: async-signal-safe, atomics only).
pub(super) fn record(sig: i32) {
    let _ = SIGNAL.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    COUNT.fetch_add(1, Ordering::SeqCst);
}

/// The watchdog's wait after the first signal: [`FORCE_AFTER`] or until a
/// second signal.
pub(super) fn grace_period() {
    let step = Duration::from_millis(20);
    let mut waited = Duration::ZERO;
    while waited < FORCE_AFTER && COUNT.load(Ordering::SeqCst) < 2 {
        std::thread::sleep(step);
        waited += step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(exit_code(SIGINT), 130);
        assert_eq!(exit_code(SIGTERM), 143);
        assert_eq!(exit_code(1), 129);
        assert_eq!(exit_code(500), 255);
    }
}
