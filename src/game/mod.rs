//! A game under arbitration: legality of engine moves (shakmaty is the
//! arbiter), the rules that end a game, adjudication, clocks and PGN.
//!
//! ```
//! use shakmaty::Chess;
//! use uci960::game::arbiter::{CastlingPolicy, Game};
//! let mut game = Game::new(Chess::default(), CastlingPolicy::Strict);
//! for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     game.play_engine_move(mv).unwrap();
//! }
//! assert!(game.play_engine_move("e1e2").is_err());
//! assert_eq!(game.rules_end().unwrap().result.pgn(), "0-1");
//! ```

pub mod adjudication;
pub mod arbiter;
pub mod clock;
pub mod pgn;
pub mod termination;

pub use arbiter::{CastlingPolicy, Game};
pub use clock::{Clock, Limits, TimeControl};
pub use termination::{GameEnd, GameResult, Termination};
