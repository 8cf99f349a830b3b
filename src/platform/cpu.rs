//! CPU time used by this process and by the engines it started, for the
//! reports that compare uci960's own cost with the engines' (`book`), and
//! for benchmarks.

use std::time::Duration;

/// CPU seconds (user + system).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CpuTimes {
    /// This process.
    pub own: f64,
    /// Children that have ended and been waited for; `None` where the
    /// system does not count them for us.
    ///
    /// Decision: on Windows each engine sits in its own Job Object that is
    /// closed with the engine, so nothing adds up the engines' time after
    /// they quit; the report says "not measured" rather than guess.
    pub children: Option<f64>,
}

/// The CPU time used so far.
pub fn cpu_times() -> CpuTimes {
    imp::cpu_times()
}

/// CPU time the calling thread has used (benchmarks count work by it: on
/// a shared machine the wall clock also counts waiting for a core).
pub fn thread_cpu_time() -> Duration {
    imp::thread_cpu_time()
}

#[cfg(unix)]
mod imp {
    use super::CpuTimes;

    fn seconds(who: libc::c_int) -> Option<f64> {
        // SAFETY: getrusage fills the struct we own; zeroed is a valid rusage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut usage) } != 0 {
            return None;
        }
        let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
        Some(t(usage.ru_utime) + t(usage.ru_stime))
    }

    pub fn cpu_times() -> CpuTimes {
        CpuTimes {
            own: seconds(libc::RUSAGE_SELF).unwrap_or(0.0),
            children: seconds(libc::RUSAGE_CHILDREN),
        }
    }

    pub fn thread_cpu_time() -> std::time::Duration {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec for the call to fill.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    }
}

#[cfg(windows)]
mod imp {
    use super::CpuTimes;
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::{
        GetCurrentProcess, GetCurrentThread, GetProcessTimes, GetThreadTimes,
    };

    const ZERO: FILETIME = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };

    /// FILETIME counts 100 ns ticks.
    fn ticks(t: FILETIME) -> u64 {
        (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime)
    }

    pub fn thread_cpu_time() -> std::time::Duration {
        let (mut created, mut exited, mut kernel, mut user) = (ZERO, ZERO, ZERO, ZERO);
        // SAFETY: the pseudo-handle of this thread needs no closing; the
        // four FILETIMEs are ours to fill.
        let ok = unsafe {
            GetThreadTimes(
                GetCurrentThread(),
                &mut created,
                &mut exited,
                &mut kernel,
                &mut user,
            )
        };
        if ok == 0 {
            return std::time::Duration::ZERO;
        }
        std::time::Duration::from_nanos((ticks(kernel) + ticks(user)) * 100)
    }

    pub fn cpu_times() -> CpuTimes {
        let (mut created, mut exited, mut kernel, mut user) = (ZERO, ZERO, ZERO, ZERO);
        // SAFETY: the pseudo-handle of this process needs no closing; the
        // four FILETIMEs are ours to fill.
        let ok = unsafe {
            GetProcessTimes(
                GetCurrentProcess(),
                &mut created,
                &mut exited,
                &mut kernel,
                &mut user,
            )
        };
        CpuTimes {
            own: if ok != 0 {
                (ticks(kernel) + ticks(user)) as f64 / 1e7
            } else {
                0.0
            },
            children: None,
        }
    }
}

#[cfg(not(any(unix, windows)))]
mod imp {
    pub fn cpu_times() -> super::CpuTimes {
        super::CpuTimes::default()
    }

    pub fn thread_cpu_time() -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_time_grows_with_work() {
        let before = cpu_times().own;
        // Spin until the clock moves (its resolution is coarse on some systems).
        // A bounded spin: a clock that never moves fails, never hangs.
        let mut x = 0u64;
        for _ in 0..1u64 << 40 {
            if cpu_times().own > before {
                break;
            }
            for _ in 0..10_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
        }
        std::hint::black_box(x);
        assert!(cpu_times().own > before);
    }
}
