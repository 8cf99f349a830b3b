//! The castling conformance suite: crafted positions, perft comparison and
//! the checks that tell an engine author whether an engine castles right
//! in Chess960, each failure with the UCI lines that reproduce it.

pub mod answer;
pub mod driver;
pub mod engine_driver;
pub mod forced;
pub mod geometry;
pub mod moves_list;
pub mod perft;
pub mod perft_sets;
pub mod report;
pub mod rights;
pub mod sketch;
pub mod suite;
#[cfg(test)]
mod suite_tests;
#[cfg(test)]
mod test_engine;
