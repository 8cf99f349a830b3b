//! The castling conformance suite: crafted positions, perft comparison and
//! the checks that tell an engine author whether an engine castles right
//! in Chess960, each failure with the UCI lines that reproduce it and a
//! diagnosis in a chess programmer's words; JUnit XML for CI and a table
//! comparing engines (or an engine with and without `uci960 proxy`).
//!
//! The suite checks the UCI_Chess960 convention, castles written king
//! takes rook, unless the user declares the engine's notation otherwise
//! (`castles=standard` in its `--engine` spec): then every line the suite
//! writes and every answer it reads goes through [`speech::Speech`] in that
//! notation, the notation checks do not blame the engine for it, and a
//! position whose castle that notation cannot write unambiguously is
//! skipped with the reason, never failed or guessed (docs/CASTLING.md,
//! "Declared castling notation").

pub mod answer;
#[cfg(test)]
mod castling_bugs;
pub mod causes;
pub mod diagnosis;
pub mod driver;
pub mod engine_driver;
pub mod forced;
pub mod geometry;
pub mod hidden_state;
pub mod junit;
pub mod moves_list;
pub mod perft;
pub mod perft_sets;
pub mod report;
pub mod rights;
pub mod sketch;
pub mod speech;
pub mod suite;
mod suite_bestmove;
mod suite_hidden;
mod suite_perft;
#[cfg(test)]
mod suite_tests;
mod suite_traps;
pub mod table;
#[cfg(test)]
mod test_engine;
pub mod traps;
