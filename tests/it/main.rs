//! The one integration test binary: the real `uci960` binary against real
//! engines and real clients, one module per area.
//!
//! The areas run on Linux (they use Debian's engines, python-chess, /proc
//! and signals); the Windows build (under wine, `scripts/test-windows.sh`)
//! runs the `windows` module, which drives only Windows programs. A new
//! area module gets `#[cfg(target_os = "linux")]` unless it is meant for both.

#[cfg(target_os = "linux")]
mod analysis;
#[cfg(target_os = "linux")]
mod book;
#[cfg(target_os = "linux")]
mod book_frameworks;
#[cfg(target_os = "linux")]
mod castling_test;
#[cfg(target_os = "linux")]
mod distributed;
#[cfg(target_os = "linux")]
mod engine_client;
#[cfg(target_os = "linux")]
mod engine_perft;
#[cfg(target_os = "linux")]
mod engine_protocol;
#[cfg(target_os = "linux")]
mod engine_selfplay;
#[cfg(target_os = "linux")]
mod engine_strength;
#[cfg(target_os = "linux")]
mod hostile_input;
#[cfg(target_os = "linux")]
mod interleavings;
#[cfg(target_os = "linux")]
mod io_robustness;
#[cfg(target_os = "linux")]
mod knockout;
#[cfg(target_os = "linux")]
mod match_adjudication;
#[cfg(target_os = "linux")]
mod match_conventions;
#[cfg(target_os = "linux")]
mod match_runner;
#[cfg(target_os = "linux")]
mod positions;
#[cfg(target_os = "linux")]
mod properties;
#[cfg(target_os = "linux")]
mod proxy_cutechess;
#[cfg(target_os = "linux")]
mod proxy_engines;
#[cfg(target_os = "linux")]
mod proxy_faults;
#[cfg(target_os = "linux")]
mod proxy_gui_start;
#[cfg(target_os = "linux")]
mod proxy_log;
#[cfg(target_os = "linux")]
mod proxy_piped;
#[cfg(target_os = "linux")]
mod proxy_python;
#[cfg(target_os = "linux")]
mod remote;
#[cfg(target_os = "linux")]
mod settings;
#[cfg(target_os = "linux")]
mod tournament;
#[cfg(target_os = "linux")]
mod tournament_safety;
#[cfg(windows)]
mod windows;
#[cfg(target_os = "linux")]
mod written_files;

mod common;
#[cfg(target_os = "linux")]
mod engine_support;
#[cfg(target_os = "linux")]
mod proxy_util;
