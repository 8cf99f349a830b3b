//! uci960: Chess960 start positions, a UCI proxy, a match runner, a castling
//! conformance suite and a small built-in engine, on shakmaty.
//!
//! The library is layered one way: commands (`cli`) call services, services
//! call the chess model (`setup`, `notation`), and shakmaty is the only
//! source of chess truth.

pub mod cli;
pub mod conformance;
pub mod engine;
pub mod game;
pub mod notation;
pub mod proxy;
pub mod setup;
pub mod sparring;
pub mod tournament;
pub mod uci;
