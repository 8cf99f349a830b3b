//! Every format the tool writes for people and for machines, behind one
//! seam: an application turns its results into a neutral **document**, a
//! file here renders that document in one **format**, and the command
//! chooses a format and a **destination**, nothing more.
//!
//! | document | formats (one file each) |
//! |---|---|
//! | [`Table`] (columns with headers, alignments and widths; rows of cells) | [`table`] (aligned text), [`csv`] (RFC 4180) |
//! | a JSON value (`serde_json::Value`, from the application's serde types) | [`json`] (a whole file, pretty; one object a line) |
//! | [`junit::TestSuites`] (suites of cases: pass, skipped, failure) | [`junit`] (JUnit XML, the schema CI systems read) |
//! | an EPD record (a position and its opcodes) | [`epd`] |
//! | a position for people (a diagram) | [`board`] |
//! | a game ([`crate::game::pgn::PgnGame`]) | PGN, by [`crate::game::pgn::write_game`], the one PGN writer (below this floor: `game` also reads PGN back for `--resume`) |
//!
//! Destinations ([`destination`]): stdout ([`console::emit`], the one way a
//! command writes to stdout, never panicking on a closed pipe) or a file,
//! replaced whole through [`crate::files`] (atomic: a reader sees the old
//! file or the new, never half of one) or staged while it grows (a book).
//!
//! A new format is one file here that renders an existing document (CSV
//! for tables is the worked example in docs/ARCHITECTURE.md); a new kind of
//! result is a new document built by its application. This room imports
//! only rooms below it (`files`, `game`, `notation`, `platform`, `utc`),
//! never an application.

pub mod board;
pub mod console;
pub mod csv;
pub mod destination;
pub mod epd;
pub mod json;
pub mod junit;
pub mod table;

pub use console::{StdoutError, emit, note};
pub use destination::{Destination, Sink, WriteError};
pub use table::{Align, Column, Table};
