//! PGN out and back in.
//!
//! The writer produces what Cute Chess writes for a Chess960 game: the seven
//! tag roster, then `Variant "Chess960"`, `SetUp`, `FEN` (X-FEN, what Cute
//! Chess, python-chess and lichess read), `TimeControl`, `Termination`,
//! `PlyCount`; SAN moves with `{+0.31/12 0.105s}` comments (the mover's
//! evaluation in pawns or `M`ate in moves, the depth, the time used); a
//! final comment saying how the game ended; lines of at most 80 columns.
//!
//! The reader reads PGN of that shape back (the runner's own output for
//! `--resume`, or any PGN with tags and SAN): comments, NAGs, variations and
//! move numbers are skipped; errors name the line.

use std::fmt::Write as _;

use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Color, Move, Position};

use crate::notation::fen::{FenFlavour, parse_position, position_fen};
use crate::uci::Score;

/// What the engine said about its move: the comment after it (the score
/// from the mover's point of view; a bound is written as the value).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct MoveInfo {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub millis: u64,
}

impl MoveInfo {
    /// Cute Chess's comment text: `+0.31/12 0.105s`, `-M3/20 0.2s`,
    /// `0.105s` without a score.
    pub fn comment(&self) -> String {
        let mut s = String::new();
        match self.score {
            Some(Score::Cp(cp, _)) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let _ = write!(
                    s,
                    "{sign}{}.{:02}",
                    cp.unsigned_abs() / 100,
                    cp.unsigned_abs() % 100
                );
            }
            Some(Score::Mate(n, _)) => {
                let sign = if n < 0 { '-' } else { '+' };
                let _ = write!(s, "{sign}M{}", n.unsigned_abs());
            }
            None => {}
        }
        if let (Some(_), Some(depth)) = (self.score, self.depth) {
            let _ = write!(s, "/{depth}");
        }
        if !s.is_empty() {
            s.push(' ');
        }
        let _ = write!(s, "{}.{:03}s", self.millis / 1000, self.millis % 1000);
        s
    }
}

/// A game to write.
pub struct PgnGame<'a> {
    /// Tags in order; `FEN` and `SetUp` are added from `start`, `PlyCount`
    /// and `Result` from the moves and `result`.
    pub tags: Vec<(String, String)>,
    pub start: &'a Chess,
    pub moves: &'a [Move],
    /// How many of `moves` came from an opening book (commented `{book}`,
    /// as Cute Chess does).
    pub book_plies: usize,
    /// One per move after the book's (may be shorter).
    pub infos: &'a [MoveInfo],
    pub result: &'a str,
    /// How the game ended, as a sentence.
    pub final_comment: Option<&'a str>,
}

/// The tag order: the seven tag roster first.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PGN text, ending with a blank line.
pub fn write_game(game: &PgnGame) -> String {
    let mut tags: Vec<(String, String)> = Vec::new();
    let get = |name: &str| {
        game.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    for name in ROSTER {
        let value = match name {
            "Result" => game.result.to_string(),
            _ => get(name).unwrap_or_else(|| "?".to_string()),
        };
        tags.push((name.to_string(), value));
    }
    tags.push(("Variant".into(), "Chess960".into()));
    tags.push(("SetUp".into(), "1".into()));
    tags.push(("FEN".into(), position_fen(game.start, FenFlavour::XFen)));
    for (n, v) in &game.tags {
        if !ROSTER.contains(&n.as_str())
            && !["Variant", "SetUp", "FEN", "PlyCount"].contains(&n.as_str())
        {
            tags.push((n.clone(), v.clone()));
        }
    }
    tags.push(("PlyCount".into(), game.moves.len().to_string()));

    let mut out = String::new();
    for (n, v) in &tags {
        let _ = writeln!(out, "[{n} \"{}\"]", escape(v));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut pos = game.start.clone();
    let mut number = pos.fullmoves().get();
    for (i, &mv) in game.moves.iter().enumerate() {
        if pos.turn() == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        if pos.turn() == Color::Black {
            number += 1;
        }
        tokens.push(SanPlus::from_move_and_play_unchecked(&mut pos, mv).to_string());
        if i < game.book_plies {
            tokens.push("{book}".to_string());
        } else if let Some(info) = game.infos.get(i - game.book_plies) {
            tokens.push(format!("{{{}}}", info.comment()));
        }
    }
    if let Some(c) = game.final_comment {
        tokens.push(format!("{{{}}}", c.replace('}', ")")));
    }
    tokens.push(game.result.to_string());

    let mut line = String::new();
    for t in tokens {
        // Comments may hold spaces; wrap between tokens only.
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game read back: tags and SAN moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    pub tags: Vec<(String, String)>,
    pub sans: Vec<String>,
    /// The result token at the end of the movetext (`*` if absent).
    pub result: String,
    /// 1-based line of the game's first tag.
    pub line: usize,
}

impl ReadGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Replays the moves from the `FEN` tag (or the standard start) with
    /// shakmaty in Chess960 mode.
    pub fn replay(&self) -> Result<(Chess, Vec<Move>), String> {
        let mut pos = match self.tag("FEN") {
            Some(fen) => {
                parse_position(fen).map_err(|e| format!("game at line {}: {e}", self.line))?
            }
            None => Chess::default(),
        };
        let start = pos.clone();
        let mut moves = Vec::with_capacity(self.sans.len());
        for (i, san) in self.sans.iter().enumerate() {
            let mv = San::from_ascii(san.as_bytes())
                .ok()
                .and_then(|s| s.to_move(&pos).ok())
                .ok_or_else(|| {
                    format!(
                        "game at line {}: move {} '{san}' is not legal",
                        self.line,
                        i + 1
                    )
                })?;
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    }
}

/// An error in PGN text.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {reason}")]
pub struct PgnError {
    pub line: usize,
    pub reason: String,
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Reads every game in `text`. A game cut short at the end (no result
/// token) is returned with result `*`, so a caller can tell it apart.
pub fn read_games(text: &str) -> Result<Vec<ReadGame>, PgnError> {
    let mut games = Vec::new();
    let mut current: Option<ReadGame> = None;
    let mut in_movetext = false;
    let mut comment_depth = 0usize; // inside `{...}` (spans lines)
    let mut variation_depth = 0usize;

    for (index, raw) in text.lines().enumerate() {
        let lineno = index + 1;
        let line = raw.trim();
        if comment_depth == 0 && line.starts_with('[') {
            if in_movetext || current.as_ref().is_some_and(|g| !g.sans.is_empty()) {
                if let Some(g) = current.take() {
                    games.push(g);
                }
                in_movetext = false;
            }
            let game = current.get_or_insert_with(|| ReadGame {
                tags: Vec::new(),
                sans: Vec::new(),
                result: "*".into(),
                line: lineno,
            });
            game.tags.push(parse_tag(line, lineno)?);
            continue;
        }
        if comment_depth == 0 && (line.is_empty() || line.starts_with('%')) {
            continue;
        }
        let Some(game) = current.as_mut() else {
            return Err(PgnError {
                line: lineno,
                reason: format!("moves before any tag: '{line}'"),
            });
        };
        in_movetext = true;
        let mut chars = line.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if comment_depth > 0 {
                if c == '}' {
                    comment_depth = 0;
                }
                continue;
            }
            match c {
                '{' => comment_depth = 1,
                ';' => break,
                '(' => variation_depth += 1,
                ')' => variation_depth = variation_depth.saturating_sub(1),
                c if c.is_whitespace() => {}
                _ => {
                    let mut end = start + c.len_utf8();
                    while let Some(&(i, n)) = chars.peek() {
                        if n.is_whitespace() || "{}();".contains(n) {
                            break;
                        }
                        end = i + n.len_utf8();
                        chars.next();
                    }
                    let token = &line[start..end];
                    if variation_depth > 0 || token.starts_with('$') {
                        continue;
                    }
                    if is_result(token) {
                        game.result = token.to_string();
                        continue;
                    }
                    // Strip a move number glued to the move: `12.e4`, `3...Nf6`.
                    let san = token.trim_start_matches(|ch: char| ch.is_ascii_digit());
                    let san = san.trim_start_matches('.');
                    if san.is_empty() {
                        continue;
                    }
                    let san = san.trim_end_matches(['!', '?']);
                    game.sans.push(san.to_string());
                }
            }
        }
    }
    if let Some(g) = current {
        games.push(g);
    }
    Ok(games)
}

fn parse_tag(line: &str, lineno: usize) -> Result<(String, String), PgnError> {
    let err = |reason: &str| PgnError {
        line: lineno,
        reason: format!("{reason}: '{line}'"),
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| err("a tag must be [Name \"value\"] on one line"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| err("tag without a value"))?;
    let rest = rest.trim();
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| err("tag value must be in double quotes"))?;
    let mut value = String::with_capacity(quoted.len());
    let mut escaped = false;
    for c in quoted.chars() {
        if escaped {
            value.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else {
            value.push(c);
        }
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::start::StartPosition;
    use crate::uci::ScoreBound;
    use shakmaty::uci::UciMove;

    fn moves(start: &Chess, ucis: &str) -> Vec<Move> {
        let mut pos = start.clone();
        ucis.split_whitespace()
            .map(|u| {
                let m = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn comments_look_like_cutechess() {
        let i = MoveInfo {
            score: Some(Score::Cp(31, ScoreBound::Exact)),
            depth: Some(12),
            millis: 105,
        };
        assert_eq!(i.comment(), "+0.31/12 0.105s");
        let i = MoveInfo {
            score: Some(Score::Cp(-7, ScoreBound::Exact)),
            depth: Some(3),
            millis: 2000,
        };
        assert_eq!(i.comment(), "-0.07/3 2.000s");
        let i = MoveInfo {
            score: Some(Score::Mate(-3, ScoreBound::Exact)),
            depth: Some(20),
            millis: 1,
        };
        assert_eq!(i.comment(), "-M3/20 0.001s");
        assert_eq!(
            MoveInfo {
                millis: 5,
                ..MoveInfo::default()
            }
            .comment(),
            "0.005s"
        );
    }

    #[test]
    fn writes_a_chess960_game_with_castling_and_reads_it_back() {
        // SP 0 is BBQNNRKR: once the f1 rook is out of the way, g1h1
        // (king takes rook) castles king-side: king stays on g1, rook to f1.
        let start = StartPosition::from_sp(0).unwrap().to_chess();
        let ms = moves(&start, "g2g3 g7g6 f2f4 f7f5 f1f2 f8f7 g1h1 g8h8 d1e3");
        let infos: Vec<MoveInfo> = ms
            .iter()
            .map(|_| MoveInfo {
                score: Some(Score::Cp(12, ScoreBound::Exact)),
                depth: Some(7),
                millis: 20,
            })
            .collect();
        let text = write_game(&PgnGame {
            tags: vec![
                ("Event".into(), "uci960 match".into()),
                ("Round".into(), "3".into()),
                ("White".into(), "A \"quoted\"".into()),
                ("Black".into(), "B".into()),
                ("TimeControl".into(), "nodes=1000".into()),
                ("Termination".into(), "adjudication: max moves".into()),
            ],
            start: &start,
            moves: &ms,
            book_plies: 0,
            infos: &infos,
            result: "1/2-1/2",
            final_comment: Some("Draw by adjudication"),
        });
        assert!(
            text.starts_with(
                "[Event \"uci960 match\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"3\"]\n"
            ),
            "{text}"
        );
        assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n"), "{text}");
        assert!(text.contains("[PlyCount \"9\"]"));
        assert!(
            text.contains("1. g3 {+0.12/7 0.020s} g6 {+0.12/7 0.020s} 2. f4"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= 80));
        assert!(text.trim_end().ends_with("{Draw by adjudication} 1/2-1/2"));

        let back = read_games(&text).unwrap();
        assert_eq!(back.len(), 1);
        let g = &back[0];
        assert_eq!(g.tag("White"), Some("A \"quoted\""));
        assert_eq!(g.tag("Termination"), Some("adjudication: max moves"));
        assert_eq!(g.result, "1/2-1/2");
        let (s, replayed) = g.replay().unwrap();
        assert_eq!(s, start);
        assert_eq!(replayed, ms);
        assert!(ms[6].is_castle() && ms[7].is_castle(), "both sides castled");
        assert!(text.contains("O-O"));
    }

    #[test]
    fn black_to_move_start_numbers_with_ellipsis() {
        let start = parse_position("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7").unwrap();
        let ms = moves(&start, "e8d8 e2e4");
        let text = write_game(&PgnGame {
            tags: vec![],
            start: &start,
            moves: &ms,
            book_plies: 0,
            infos: &[],
            result: "*",
            final_comment: None,
        });
        assert!(text.contains("\n7... Kd8 8. e4 *\n"), "{text}");
    }

    #[test]
    fn reader_skips_comments_variations_nags_and_splits_games() {
        let text = "[Event \"a\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 {a comment\nover lines} $1 (1. e3 Kd8) 1... Kd8! ; rest\n2.Kd2 1-0\n\n[Event \"b\"]\n\n1. e4 e5 *\n\n[Event \"c\"]\n\n1. d4";
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].sans, ["e4", "Kd8", "Kd2"]);
        assert_eq!(games[0].result, "1-0");
        assert!(games[0].replay().is_ok());
        assert_eq!(games[1].sans, ["e4", "e5"]);
        assert_eq!(games[1].line, 8);
        assert_eq!(games[2].result, "*", "a game cut short has no result");
    }

    proptest::proptest! {
        #[test]
        fn reader_never_panics(text in "(\\PC|\n|\\[|\\]|\"|\\{|\\}|\\(|\\)|;){0,200}") {
            let _ = read_games(&text);
        }

        #[test]
        fn random_games_round_trip(sp in 0u32..960, picks in proptest::collection::vec(0usize..1000, 0..120)) {
            let start = StartPosition::from_sp(sp).unwrap().to_chess();
            let mut pos = start.clone();
            let mut ms = Vec::new();
            for p in picks {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[p % legal.len()];
                pos.play_unchecked(m);
                ms.push(m);
            }
            let text = write_game(&PgnGame { tags: vec![], start: &start, moves: &ms, book_plies: 0, infos: &[], result: "*", final_comment: None });
            let back = read_games(&text).unwrap();
            proptest::prop_assert_eq!(back.len(), 1);
            let (s, replayed) = back[0].replay().unwrap();
            proptest::prop_assert_eq!(s, start);
            proptest::prop_assert_eq!(replayed, ms);
        }
    }

    #[test]
    fn reader_errors_name_the_line() {
        assert_eq!(read_games("[Event \"a\"]\n[Bad]\n").unwrap_err().line, 2);
        assert_eq!(read_games("1. e4").unwrap_err().line, 1);
        let g = read_games("[Event \"a\"]\n\n1. e5 *\n").unwrap();
        assert!(g[0].replay().unwrap_err().contains("'e5' is not legal"));
    }
}
