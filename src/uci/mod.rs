//! The UCI protocol as text: tokenizing raw lines (any bytes, any length),
//! typed parsing of the messages this tool acts on, and option declarations.
//!
//! Lines are read as bytes: a line may be invalid UTF-8 or a megabyte long,
//! and nothing here panics on it. Only the few messages the tool needs are
//! typed (`id`, `option`, `uciok`, `readyok`, `bestmove`, `info`, `go`,
//! `position`, `setoption`); everything else is relayed raw by callers.
//!
//! The design named vampirc-uci for option declarations; it is not used at
//! all: it rejects Shredder-FEN, overflows on `depth 300` and rewrites lines,
//! and the parsers here, options included, are small and total.
//!
//! ```
//! use uci960::uci::{parse_engine_line, EngineMessage, Score, ScoreBound};
//! let EngineMessage::Info(info) = parse_engine_line(b"info depth 12 score cp 31 pv e1h1")
//! else { unreachable!() };
//! assert_eq!(info.score, Some(Score::Cp(31, ScoreBound::Exact)));
//! assert_eq!(info.pv, ["e1h1"]);
//! ```

pub mod engine_msg;
pub mod go;
pub mod line;
pub mod option;
pub mod position;

pub use engine_msg::{BestMove, EngineMessage, Info, Score, ScoreBound, parse_engine_line};
pub use go::GoParams;
pub use line::{is_command, split_line_end, token_spans, tokens};
pub use option::{LineBreak, OptionDecl, OptionKind, SetOption, single_line};
pub use position::{PositionBase, PositionCommand, PositionError};
