//! A match between two engines: which games to play, the running tally,
//! statistics (Elo, LOS, pentanomial, SPRT), and the summary.

pub mod runner;
pub mod schedule;
pub mod stats;
pub mod summary;
