//! The castling conformance suite: crafted positions, perft comparison and
//! the checks that tell an engine author whether an engine castles right
//! in Chess960, each failure with the UCI lines that reproduce it and a
//! diagnosis in a chess programmer's words; JUnit XML for CI and a table
//! comparing engines (or an engine with and without `uci960 proxy`).

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
