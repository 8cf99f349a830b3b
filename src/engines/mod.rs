//! Engines as users describe them, one room for every command that runs
//! one (`match`, `book`, `castling-test`, `proxy`, `serve`):
//!
//! - [`EngineSpec`]: the one type for an engine (program, arguments,
//!   directory, name, options, limits, FEN flavour, castling notation);
//! - [`EngineKeys`]: the one reading of the words a user writes for it,
//!   the same key names on the command line (`--engine KEY=VALUE…`) and in
//!   every TOML config (`[[engine]]` of a match, `[engine]` of the proxy,
//!   `[engines.NAME]` of `serve`);
//! - [`start`]: the one starter, with the one handshake order.
//!
//! The keys are `program` (alias `cmd`, cutechess-cli's spelling and the
//! match config's old key), `arg`/`args`, `dir`, `name`, `option.NAME` /
//! `[options]`, `tc`, `st`, `nodes`, `depth`, `fen` and `castles`.
//!
//! `castles` is how the engine writes and reads castling moves: `auto`
//! (the default: the UCI rule, king takes own rook in `UCI_Chess960` mode,
//! the king's two-square move outside it), `kxr` or `standard` (also
//! `king-two-squares`) for an engine that keeps to one notation whatever
//! its mode. The word is `castles`, not `castling`: `--castling` is still
//! read as the old name of `match --castling-moves` and `book --fen`.
//! Every command that talks to an engine writes the moves it sends in that
//! notation and reads the engine's moves in it (see
//! [`crate::notation::castling::engine_text`] for the castles a notation
//! cannot write unambiguously).

pub mod keys;
pub mod spec;
pub mod start;

pub use crate::uci_client::EngineCommand;
pub use keys::{Castles, EngineKeys, EngineKeysError, OptionError, is_key_value, limits_of};
pub use spec::EngineSpec;
pub use start::{Chess960, SetupError, start_engine};
