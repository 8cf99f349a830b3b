//! Engines as users describe them, one room for every command that runs
//! one (`match`, `book`, `castling-test`, `proxy`):
//!
//! - [`EngineSpec`]: the one type for an engine (program, arguments,
//!   directory, name, options, limits, FEN flavour);
//! - [`EngineKeys`]: the one reading of the words a user writes for it,
//!   the same key names on the command line (`--engine KEY=VALUE…`) and in
//!   every TOML config (`[[engine]]` of a match, `[engine]` of the proxy);
//! - [`start`]: the one starter, with the one handshake order.
//!
//! The keys are `program` (alias `cmd`, cutechess-cli's spelling and the
//! match config's old key), `arg`/`args`, `dir`, `name`, `option.NAME` /
//! `[options]`, `tc`, `st`, `nodes`, `depth` and `fen`.

pub mod keys;
pub mod spec;
pub mod start;

pub use crate::uci_client::EngineCommand;
pub use keys::{EngineKeys, EngineKeysError, OptionError, group_engine_tokens, limits_of};
pub use spec::EngineSpec;
pub use start::{Chess960, SetupError, start_engine};
