//! A match between two engines: which games to play, the running tally,
//! statistics (Elo, LOS, pentanomial, SPRT), and the summary.
//!
//! ```
//! use uci960::tournament::stats::Wdl;
//! let even = Wdl { wins: 30, draws: 40, losses: 30 };
//! assert_eq!(even.los(), Some(0.5));
//! assert_eq!(even.elo().unwrap().elo, 0.0);
//! ```

pub mod runner;
pub mod schedule;
pub mod stats;
pub mod summary;
