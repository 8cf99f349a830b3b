//! Opening books for Chess960 testing at scale (`uci960 book`): start
//! positions by any method or complete sets, a few plies played from each
//! (at random or by an engine, both chosen in `openings`), filtered by the rules and an engine's
//! evaluation window, unique by position across the whole book, sliced
//! into shards for distributed workers, written as EPD or PGN.
//!
//! One idea per module, in pipeline order:
//!
//! | module | idea |
//! |---|---|
//! | [`plies`] | how many plies, each line's own random stream, the uniform move picker |
//! | [`engine`] | one engine process working for the book: its plies come from [`crate::openings::engine_plies`], the evaluation is the book's |
//! | [`filter`] | rules, evaluation windows and view, the tally of drops |
//! | [`wdl`] | win/draw/loss rates: the engine's or Stockfish 17.1's model; rate windows |
//! | [`unique`] | position keys and the set of positions seen |
//! | [`shard`] | the i-th of n slices |
//! | [`generate`] | the pipeline: candidate sequence, workers, judging in order |
//! | [`epd`], [`pgn`] | a book line as an EPD record ([`crate::output::epd`]) or a PGN game ([`crate::game::pgn`]) |
//! | [`write`] | the chosen format to the chosen destination, in large chunks |
//! | [`package`] | `--package`: the book as fishtest or OpenBench take it, zip, sri, sha |
//! | [`stats`] | `--stats`: what a book holds, counted as the frameworks count |
//! | [`stored`] | what a book line carries: its evaluation and moves, read back (re-filtering without an engine) |
//!
//! How uniqueness and shards compose is in [`generate`] and [`shard`];
//! flags and recipes for fastchess, cutechess-cli and OpenBench/fishtest
//! are in docs/BOOKS.md.

pub mod engine;
pub mod epd;
pub mod filter;
pub mod generate;
pub mod package;
pub mod pgn;
pub mod plies;
pub mod shard;
pub mod stats;
pub mod stored;
pub mod unique;
pub mod wdl;
pub mod write;

pub use generate::{BookError, BookLine, BookPlan, Generated, MoveChoice, Stop, generate};
