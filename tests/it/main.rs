//! The one integration test binary: the real `uci960` binary against real
//! engines and real clients, one module per area.
//!
//! The areas run on Linux (they use Debian's engines, python-chess, /proc
//! and signals); the Windows build (under wine, `scripts/test-windows.sh`)
//! runs the `windows` module, which drives only Windows programs. A new
//! area module gets `#[cfg(unix)]` unless it is meant for both.

#[cfg(unix)]
mod analysis;
#[cfg(unix)]
mod book;
#[cfg(unix)]
mod castling_test;
#[cfg(unix)]
mod engine_client;
#[cfg(unix)]
mod engine_perft;
#[cfg(unix)]
mod engine_protocol;
#[cfg(unix)]
mod engine_selfplay;
#[cfg(unix)]
mod engine_strength;
#[cfg(unix)]
mod hostile_input;
#[cfg(unix)]
mod io_robustness;
#[cfg(unix)]
mod match_adjudication;
#[cfg(unix)]
mod match_runner;
#[cfg(unix)]
mod positions;
#[cfg(unix)]
mod properties;
#[cfg(unix)]
mod proxy_cutechess;
#[cfg(unix)]
mod proxy_engines;
#[cfg(unix)]
mod proxy_faults;
#[cfg(unix)]
mod proxy_gui_start;
#[cfg(unix)]
mod proxy_log;
#[cfg(unix)]
mod proxy_piped;
#[cfg(unix)]
mod proxy_python;
#[cfg(unix)]
mod tournament;
#[cfg(unix)]
mod tournament_safety;
#[cfg(windows)]
mod windows;

mod common;
#[cfg(unix)]
mod engine_support;
#[cfg(unix)]
mod proxy_util;
