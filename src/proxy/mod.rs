//! The UCI proxy: a sans-IO [`session::Session`] that turns GUI and engine
//! lines into lines for the other side, and thin I/O around it
//! ([`run::run`]): one thread and one `poll(2)` loop over the GUI, the
//! engine and signals, which writes what the session returns at once.
//!
//! Decisions the issue leaves open, taken as Cute Chess, python-chess and
//! Stockfish would:
//! * A refused position (invalid FEN, illegal move, Chess960 for an engine
//!   without `UCI_Chess960`) is not sent at all; the next `go` is answered by
//!   the proxy with `bestmove 0000`, the null move UCI engines give when they
//!   have no move, so no client hangs.
//! * FENs of standard positions are passed as the GUI wrote them; only
//!   positions that need Chess960 castling are rewritten to the engine's FEN
//!   flavour (Shredder by default).
//! * Castles in `position … moves` are always written in the engine's
//!   notation, whatever form the GUI used; an ambiguous one is left as
//!   written and read the way the engine will read it.
//! * An illegal `bestmove` is reported and passed on unchanged: the GUI is
//!   the arbiter.
//!
//! The engine is a child process or a remote engine ([`transport`]); the
//! loop sees the same two pipes either way.
//!
//! Around it: [`locate`] finds the config of `uci960` started by a GUI
//! without arguments, and [`failed_start`] answers the GUI's handshake with
//! the reason when there is no engine to run.

pub mod config;
pub mod failed_start;
pub mod locate;
pub mod log;
pub mod options;
pub mod profile;
pub mod run;
pub mod session;
pub mod transport;

pub use config::{ProxyConfig, Settings};
pub use options::GuiCastling;
pub use profile::GuiProfile;
pub use session::{Out, Session};
