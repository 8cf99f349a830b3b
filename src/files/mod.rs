//! Every file the tool reads from a user or writes for one, in one room
//! (issue 21: nothing written is ever lost or clobbered):
//!
//! - [`read`]: files a user names (configs, books, a PGN to resume),
//!   bounded in size and line length, never blocking on open;
//! - [`lock`]: one run at a time per state file ([`RunLock`]), naming the
//!   process that holds it;
//! - [`replace`]: whole-file outputs (state, JSON, reports, books) written
//!   to a unique temporary file in the same folder, synced, then renamed
//!   over the old one — only ever over a regular file;
//! - [`paths`]: every output of a command compared before anything is
//!   opened (the same file through another spelling or a link);
//! - [`append`]: records appended whole to a growing file (PGN), each with
//!   its offset and hash, so that a resume removes only bytes it can prove
//!   it wrote.
//!
//! Errors speak of the file (what it is for and its path), never of flags.

pub mod append;
pub mod lock;
pub mod paths;
pub mod read;
pub mod replace;

pub use append::{AppendError, Appender, Pending, Span, Tail, content_hash};
pub use lock::{LockError, RunLock};
pub use paths::{Collision, OutputKind, check_distinct, output_kind};
pub use read::*;
pub use replace::{ReplaceError, Staged, replace, replace_with};
