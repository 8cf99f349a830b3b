//! `uci960 serve`: engines for remote clients, safely. A TLS listener
//! ([`server`]), one thread per connection that authenticates the client,
//! starts one engine from the allow-list and relays UCI through the safe-UCI
//! [`filter`] ([`connection`]), and the settings ([`config`]).
//!
//! What it promises and what it does not is in `docs/REMOTE.md` (the threat
//! model). In short: nothing but the listed engines can be started; no
//! client line reaches an engine unless it is a UCI command and, for
//! `setoption`, an option the engine declared and the server did not hide;
//! every wait is bounded; a connection's end ends its engine at once.
//!
//! Decisions: threads, not an async runtime (a connection costs two small
//! threads, measured by `scripts/bench-remote.sh`; the ceilings keep their
//! number bounded); the accept loop polls the listener every
//! [`server::ACCEPT_POLL`] so that a signal ends it promptly on every
//! system.

pub mod config;
pub mod connection;
pub mod filter;
pub mod server;

pub use config::{ServeConfig, ServeSettings};
pub use server::{ServeError, run};
