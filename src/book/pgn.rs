//! PGN output: one game per book position, holding the moves from the
//! start, so that cutechess-cli's and fastchess's `plies=` and any PGN
//! reader replay the line.
//!
//! Written by the project's PGN writer: the seven tag roster (`Event
//! "uci960 book"`, `Round` = the position's rank + 1 in the whole book, so
//! shards agree with the unsharded book), `Variant "fischerandom"`,
//! `SetUp "1"`, `FEN` with the start in X-FEN (DESIGN §3: what Cute Chess,
//! python-chess and lichess read), `PlyCount`, the SAN moves, result `*`,
//! and a final comment with the engine's evaluation when there is one.
//!
//! Why `fischerandom` and not `Chess960` (what `uci960 match` writes):
//! cutechess-cli 1.5.1 knows Chess960 only by its own name and, reading a
//! book game tagged `Chess960`, warns "Unknown variant: chess960" and drops
//! the game's moves, so every game started from the bare start position
//! (seen on 2026-12-01, docs/BOOKS.md). fastchess ignores the tag (it
//! writes `fischerandom` itself when built for cutechess compatibility),
//! and python-chess and uci960 read either name.

use std::fmt::Write as _;

use super::filter::EvalView;
use super::generate::BookLine;
use crate::game::pgn::{MoveInfo, PgnGame, write_game};

/// The `[Variant]` of a book game: the name cutechess-cli reads.
pub const VARIANT: &str = crate::game::pgn::PgnVariant::Fischerandom.tag();

/// Appends the PGN game of `line` (rank `rank`, ending with a blank line).
pub fn push_pgn(out: &mut String, rank: u64, line: &BookLine) {
    let comment = line.eval.map(|eval| {
        let info = MoveInfo {
            score: Some(eval.score),
            depth: eval.depth,
            millis: 0,
        };
        let mut text = String::from("book position, engine evaluation for the side to move ");
        // MoveInfo's comment is `+0.31/12 0.000s`: keep score and depth.
        let full = info.comment();
        text.push_str(full.split(' ').next().unwrap_or(""));
        if let Some(white) = eval.cp(EvalView::White) {
            let _ = write!(text, " (White's view {white:+} cp)");
        }
        text
    });
    let tags = vec![
        ("Event".to_string(), "uci960 book".to_string()),
        ("Date".to_string(), "????.??.??".to_string()),
        ("Round".to_string(), (rank + 1).to_string()),
        ("Variant".to_string(), VARIANT.to_string()),
    ];
    out.push_str(&write_game(&PgnGame {
        tags,
        initial: &line.start.position,
        moves: &line.moves,
        book_plies: 0,
        infos: &[],
        result: "*",
        final_comment: comment.as_deref(),
    }));
}
