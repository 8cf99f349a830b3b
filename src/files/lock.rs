//! One run at a time: a run that writes a state file holds an exclusive
//! lock on `STATE.lock` beside it for as long as it runs (the OS lock of
//! `std::fs::File::try_lock`: `flock` on POSIX, `LockFileEx` on Windows;
//! released by the OS when the process ends, even on SIGKILL).
//!
//! The lock file holds the PID of its holder, so that a second run is
//! refused at once naming the other process. The file itself is never
//! removed: removing a lock file races with a process that just opened
//! it (two holders of two different inodes). It is a lock file beside
//! the state, not the state itself, because the state is replaced by
//! rename (a new inode each time).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A held lock; dropping it releases it.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    _file: File,
}

/// Why a run cannot have its lock.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "another run{} is using {guarded} (lock {}); wait for it to end, or give this run its own state file",
        holder.map(|p| format!(" (process {p})")).unwrap_or_default(),
        path.display()
    )]
    Held {
        guarded: String,
        path: PathBuf,
        holder: Option<u32>,
    },
    #[error("cannot lock {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The lock file of `guarded`: `FILE.lock` beside it.
pub fn lock_path(guarded: &Path) -> PathBuf {
    let mut name = guarded.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl RunLock {
    /// Takes the lock of `guarded` (a state file) or says who holds it.
    pub fn acquire(guarded: &Path) -> Result<RunLock, LockError> {
        let path = lock_path(guarded);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(LockError::Held {
                    guarded: guarded.display().to_string(),
                    path,
                    holder: text.trim().parse().ok(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{}", std::process::id()))
            .and_then(|_| file.flush())
            .map_err(io)?;
        Ok(RunLock { path, _file: file })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_naming_the_first() {
        let dir = crate::files::replace::tests::scratch("lock");
        let state = dir.join("t.state.json");
        let held = RunLock::acquire(&state).unwrap();
        let err = RunLock::acquire(&state).unwrap_err().to_string();
        assert!(
            err.contains(&format!("process {}", std::process::id())),
            "{err}"
        );
        drop(held);
        RunLock::acquire(&state).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
