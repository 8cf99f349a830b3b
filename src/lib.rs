//! uci960: Chess960 start positions, a UCI proxy, a match runner, a castling
//! conformance suite and a small built-in engine, on shakmaty.
//!
//! The library is layered one way: commands (`cli`) call services, services
//! call the chess model (`start`, `notation`, `perft`), and shakmaty is the only
//! source of chess truth.
//!
//! The map of the crate (one idea per module):
//!
//! | module | what it is |
//! |---|---|
//! | [`start`] | Chess960 start positions: back rank, SP numbering, the drawing methods, exact analysis |
//! | [`notation`] | FEN castling flavours (X-FEN, Shredder-FEN) and castling move notation (the one reading rule for castles) |
//! | [`perft`] | perft divide from shakmaty: the reference the built-in engine answers with and the suite compares against |
//! | [`uci`] | the UCI protocol: line tokenizing, typed messages, option declarations |
//! | [`uci_client`] | the client side of UCI: spawning and driving an *external* engine |
//! | [`builtin_engine`] | the small built-in UCI engine (`uci960 engine`) |
//! | [`proxy`] | the relay between a GUI and an engine: sans-IO session plus I/O loop |
//! | [`game`] | one game under arbitration: legality, clocks, results, PGN |
//! | [`engines`] | shared floor: one engine spec, one KEY=VALUE and TOML reading (same keys in every config), one starter and handshake order |
//! | [`tournament`] | engine-vs-engine matches: schedule, runner, statistics |
//! | [`book`] | opening books: starts, plies, engine balance, uniqueness, shards, EPD/PGN |
//! | [`conformance`] | the castling conformance suite |
//! | [`files`] | shared floor: every file read or written — bounded reading, run locks, atomic replace of regular files only, output collision checks, verified appends and resume |
//! | [`shard`] | the i-th of n slices (`i/n`, or `auto` from Slurm/Kubernetes): books and matches split over machines |
//! | [`seconds`] | seconds as people type them, checked, to `Duration` (every flag and key) |
//! | [`keyword`] | the error of every parser of a word from a fixed list |
//! | [`utc`] | calendar dates and times in UTC (PGN `Date`, proxy log timestamps) |
//! | [`platform`] | the only module that knows the OS: engine processes, pipes, signals (POSIX and Windows) |
//! | [`cli`] | one file per subcommand: arguments to a validated config to a library call |
//!
//! Names: `start` is the Chess960 *start position* (not shakmaty's `Setup`,
//! which is any position); `uci_client` talks to engines uci960 does not own;
//! `builtin_engine` is the engine uci960 is.

pub mod book;
pub mod builtin_engine;
pub mod cli;
pub mod conformance;
pub mod engines;
pub mod files;
pub mod game;
pub mod keyword;
pub mod notation;
pub mod openings;
pub mod perft;
pub mod platform;
pub mod proxy;
pub mod remote;
pub mod seconds;
pub mod serve;
pub mod shard;
pub mod start;
pub mod tournament;
pub mod uci;
pub mod uci_client;
pub mod utc;
