//! Tournaments between UCI engines in Chess960: two engines or more (round
//! robin, gauntlet, knockout), openings (generated start positions, EPD and PGN
//! books), the games themselves, standings and statistics (Elo, LOS,
//! pentanomial, SPRT), and the files that keep every finished game (PGN,
//! JSON, the state file `--resume` continues from). The command line only
//! fills a [`config::TournamentConfig`]; see docs/MATCH.md.
//!
//! ```
//! use uci960::tournament::schedule::{Schedule, TournamentKind};
//! use uci960::tournament::stats::Wdl;
//! let even = Wdl { wins: 30, draws: 40, losses: 30 };
//! assert_eq!(even.los(), Some(0.5));
//! assert_eq!(even.elo().unwrap().elo, 0.0);
//! // Three engines, 2 games per pairing and round, 2 rounds: 12 games.
//! let s = Schedule::new(TournamentKind::RoundRobin, 3, 2, 2).unwrap();
//! assert_eq!(s.games(), 12);
//! ```

pub mod config;
pub mod knockout;
pub mod merge;
pub mod partition;
pub mod progress;
pub mod rundir;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod setting;
pub mod standings;
pub mod state;
pub mod stats;
