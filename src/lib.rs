//! uci960: Chess960 start positions, a UCI proxy, a match runner, a castling
//! conformance suite and a small built-in engine, on shakmaty.
//!
//! The library is built in floors, and an import only ever points down a
//! floor (docs/ARCHITECTURE.md has the measured map and where each new
//! thing goes):
//!
//! | floor | modules |
//! |---|---|
//! | command | [`cli`] (and `main.rs`): flags, printing, exit codes |
//! | applications, side by side | [`tournament`], [`book`], [`proxy`], [`serve`], [`conformance`] |
//! | shared floor | [`engines`], [`openings`], [`output`], [`files`], [`shard`], [`remote`] |
//! | model | [`game`], [`start`], [`uci_client`], [`builtin_engine`] |
//! | protocol, notation | [`uci`], [`notation`] |
//! | ground | [`platform`], [`lines`], [`excerpt`], [`seconds`], [`keyword`], [`utc`], [`perft`] |
//!
//! shakmaty is the only source of chess truth. One idea per module:
//!
//! | module | what it is |
//! |---|---|
//! | [`start`] | Chess960 start positions: back rank, SP numbering, the drawing procedures, exact analysis |
//! | [`notation`] | FEN castling flavours (X-FEN, Shredder-FEN), EPD lines and castling move notation (the one reading rule for castles) |
//! | [`perft`] | perft divide from shakmaty: the reference the built-in engine answers with and the suite compares against |
//! | [`uci`] | the UCI protocol: line tokenizing, typed messages, option declarations |
//! | [`uci_client`] | the client side of UCI: spawning and driving an *external* engine |
//! | [`builtin_engine`] | the small built-in UCI engine (`uci960 engine`) |
//! | [`game`] | one game under arbitration: legality, clocks, results, the one PGN writer and reader |
//! | [`engines`] | shared floor: one engine spec, one KEY=VALUE and TOML reading (same keys in every config), one starter and handshake order |
//! | [`openings`] | shared floor: where a game begins — one `Opening`, every source (methods, lists, complete sets, EPD/PGN books), one shuffle, one random-plies rule, all book reading |
//! | [`output`] | shared floor: every format written for people and machines (tables, CSV, JSON, JUnit, EPD records, diagrams) over neutral documents, one file a format; stdout and file destinations |
//! | [`files`] | shared floor: every file read or written — bounded reading, run locks, atomic replace of regular files only, output collision checks, verified appends and resume |
//! | [`shard`] | the i-th of n slices (`i/n`, or `auto` from Slurm/Kubernetes): books and matches split over machines |
//! | [`remote`] | the TLS link between `proxy --remote` and `serve` |
//! | [`proxy`] | the relay between a GUI and an engine: sans-IO session plus I/O loop |
//! | [`serve`] | `uci960 serve`: engines offered to remote proxies |
//! | [`tournament`] | engine-vs-engine matches: schedule, runner, statistics |
//! | [`book`] | opening books: plies, engine balance, uniqueness, shards, EPD/PGN output |
//! | [`conformance`] | the castling conformance suite |
//! | [`lines`] | the one line splitter (bytes in, bounded lines out) |
//! | [`excerpt`] | the start of a long outside text, for messages |
//! | [`seconds`] | seconds as people type them, checked, to `Duration` (every flag and key) |
//! | [`keyword`] | the error of every parser of a word from a fixed list |
//! | [`utc`] | calendar dates and times in UTC (PGN `Date`, proxy log timestamps) |
//! | [`platform`] | the only module that knows the OS: engine processes, pipes, signals, locks (POSIX and Windows) |
//! | [`cli`] | one file per subcommand: arguments to a validated config to a library call |
//!
//! Names: `start` is the Chess960 *start position* (not shakmaty's `Setup`,
//! which is any position); `uci_client` talks to engines uci960 does not own;
//! `builtin_engine` is the engine uci960 is; an *opening* is where a game
//! begins (a start position or any book position, and the moves played
//! from it before the engines take over).

pub mod book;
pub mod builtin_engine;
pub mod cli;
pub mod conformance;
pub mod engines;
pub mod excerpt;
pub mod files;
pub mod game;
pub mod keyword;
pub mod lines;
pub mod notation;
pub mod openings;
pub mod output;
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
