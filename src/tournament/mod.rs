//! Tournaments between UCI engines in Chess960: two engines or more (round
//! robin, gauntlet), openings (generated start positions, EPD and PGN
//! books), the games themselves, standings and statistics (Elo, LOS,
//! pentanomial, SPRT), and the files that keep every finished game (PGN,
//! JSON, the state file `--resume` continues from). The command line only
//! fills a [`config::TournamentConfig`]; see docs/MATCH.md.

pub mod config;
pub mod openings;
pub mod output;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod standings;
pub mod state;
pub mod stats;
