//! What opening, classifying and syncing a user's file means on each
//! system: the callers (`crate::files`, the proxy's log, the match's PGN
//! file) stay the same everywhere.
//!
//! Decision: on Windows an open never blocks on a named pipe without a
//! server (it fails at once with "pipe busy/not found"), so there is no
//! flag to add there; devices such as `NUL` or `CON` are refused by the
//! "not a plain file" check of the callers.

use std::fs::{File, FileType, OpenOptions};
use std::io;
use std::path::Path;

/// Makes `open` return at once whatever the path names (a FIFO with no
/// writer or reader, a terminal): never block a command in `open(2)`.
pub fn open_without_blocking(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(not(unix))]
    let _ = options;
}

/// Opens for writing without blocking in `open` (a FIFO with no reader
/// fails with [`is_fifo_without_reader`] instead of waiting for one), then
/// gives the file its blocking mode back, so that writes wait for a slow
/// reader rather than fail.
pub fn open_for_writing(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    open_without_blocking(options);
    let file = options.open(path)?;
    #[cfg(unix)]
    super::posix::set_blocking(std::os::fd::AsRawFd::as_raw_fd(&file))?;
    Ok(file)
}

/// The error of a non-blocking open of a FIFO for writing that has no
/// reader (POSIX `ENXIO`); never the case on Windows.
pub fn is_fifo_without_reader(error: &io::Error) -> bool {
    #[cfg(unix)]
    return error.raw_os_error() == Some(libc::ENXIO);
    #[cfg(not(unix))]
    {
        let _ = error;
        false
    }
}

/// The error of syncing something that cannot be synced (a pipe, a
/// character device, the console): the data went where it goes, so this
/// is not a failure.
pub fn is_unsyncable(error: &io::Error) -> bool {
    #[cfg(unix)]
    return error.raw_os_error() == Some(libc::EINVAL);
    #[cfg(windows)]
    {
        // ERROR_INVALID_FUNCTION, ERROR_INVALID_HANDLE: FlushFileBuffers
        // on a console or a pipe without write access.
        matches!(error.raw_os_error(), Some(1) | Some(6))
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = error;
        false
    }
}

/// What a path names when it is neither a plain file nor a directory,
/// where the system can tell.
pub fn special_kind(file_type: &FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO");
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return Some("a device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    #[cfg(not(unix))]
    let _ = file_type;
    None
}

/// The identity of a file (device and inode) where the system gives one
/// cheaply: two paths with the same identity are one file (hard links).
/// `None` on Windows (std has no stable file index there; paths are
/// compared resolved instead).
pub fn file_id(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Creates a new file only its owner may read (a private key): mode 0600
/// on POSIX; on Windows the user's profile directories already keep other
/// users out. Fails if the file exists.
pub fn create_private(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}
