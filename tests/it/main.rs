//! The one integration test binary: the real `uci960` binary against real
//! engines and real clients, one module per area.

mod analysis;
mod book;
mod castling_test;
mod engine_client;
mod engine_perft;
mod engine_protocol;
mod engine_selfplay;
mod engine_strength;
mod hostile_input;
mod io_robustness;
mod match_adjudication;
mod match_runner;
mod positions;
mod properties;
mod proxy_cutechess;
mod proxy_engines;
mod proxy_faults;
mod proxy_gui_start;
mod proxy_log;
mod proxy_piped;
mod proxy_python;
mod tournament;
mod tournament_safety;

mod common;
mod engine_support;
mod proxy_util;
