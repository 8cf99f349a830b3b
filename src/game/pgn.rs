//! PGN out and back in.
//!
//! The writer produces what Cute Chess writes for a Chess960 game: the seven
//! tag roster, then `Variant "Chess960"`, `SetUp`, `FEN` (X-FEN, what Cute
//! Chess, python-chess and lichess read), `TimeControl`, `Termination`,
//! `PlyCount`; SAN moves with `{+0.31/12 0.105s}` comments (the mover's
//! evaluation in pawns or `M`ate in moves, the depth, the time used); a
//! final comment saying how the game ended; lines of at most 80 columns.
//!
//! The reader is the `pgn-reader` crate (as for opening books in
//! `openings`): every game's tags, start (`[FEN]` in either
//! castling flavour), main-line moves checked by shakmaty in Chess960
//! mode, and result; an error names the game and the fault (a bad
//! `[FEN]`, an illegal move by its ply and SAN).

use std::fmt::Write as _;

use std::ops::ControlFlow;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use crate::notation::fen::{FenError, FenFlavour, parse_position, position_fen};
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

/// The name a PGN's `[Variant]` tag gives Chess960.
///
/// `fischerandom` by default: cutechess-cli 1.5.1 reads only that name
/// ("Unknown variant: chess960" and the moves dropped otherwise); fastchess
/// writes it too. python-chess (`Headers::is_chess960`: `chess960`, `chess
/// 960`, `fischerandom`, `fischerrandom`, `fischer random`, any case) and
/// this project's reader accept both (checked in tests/it: python-chess
/// replays `match` PGNs in Chess960 mode with either).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PgnVariant {
    #[default]
    Fischerandom,
    Chess960,
}

impl PgnVariant {
    /// The tag's value.
    pub const fn tag(self) -> &'static str {
        match self {
            PgnVariant::Fischerandom => "fischerandom",
            PgnVariant::Chess960 => "Chess960",
        }
    }
}

impl std::str::FromStr for PgnVariant {
    type Err = crate::keyword::UnknownWord;
    fn from_str(s: &str) -> Result<PgnVariant, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "fischerandom" => Ok(PgnVariant::Fischerandom),
            "chess960" => Ok(PgnVariant::Chess960),
            _ => Err(crate::keyword::UnknownWord::new(
                "PGN variant name",
                s,
                "fischerandom or chess960",
            )),
        }
    }
}

/// A game to write.
pub struct PgnGame<'a> {
    /// Tags in order; `FEN` and `SetUp` are added from `initial`, `PlyCount`
    /// and `Result` from the moves and `result`; `Variant` is `Chess960`
    /// unless given here.
    pub tags: Vec<(String, String)>,
    pub initial: &'a Chess,
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

/// A tag value as the PGN standard wants it (section 7): `\` and `"`
/// escaped with a backslash, and no control characters (a `\r` or tab
/// from an engine's `id name` would break the tag line for other readers,
/// python-chess among them); each is written as a space.
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
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
    // `Chess960` unless the caller names it otherwise (the book writes
    // cutechess-cli's `fischerandom`, the only name it reads).
    let variant = get("Variant").unwrap_or_else(|| "Chess960".to_string());
    tags.push(("Variant".into(), variant));
    tags.push(("SetUp".into(), "1".into()));
    tags.push(("FEN".into(), position_fen(game.initial, FenFlavour::XFen)));
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
    let mut pos = game.initial.clone();
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

/// A game read back by [`PgnGames`] or [`read_games`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    /// Every tag in order (none with [`PgnGames::without_tags`]).
    pub tags: Vec<(String, String)>,
    /// The `[FEN]` tag's position (either castling flavour), else the
    /// standard start.
    pub initial: Chess,
    /// The main line (at most [`PgnGames::max_plies`]), each move checked
    /// by shakmaty in Chess960 mode.
    pub moves: Vec<Move>,
    /// The position after `moves`.
    pub position: Chess,
    /// The result token, `*` when the movetext has none (a game cut short).
    pub result: String,
}

impl ReadGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why PGN text cannot be read: the game (1-based) and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("game {game}: {fault}")]
pub struct PgnError {
    pub game: usize,
    pub fault: GameFault,
}

/// What is wrong with one game of a PGN.
#[derive(Debug, thiserror::Error)]
pub enum GameFault {
    #[error("[FEN] tag: {0}")]
    Fen(#[from] FenError),
    #[error("ply {ply} '{san}' is not legal here: {reason}")]
    IllegalMove {
        ply: usize,
        san: String,
        reason: shakmaty::san::SanError,
    },
    /// pgn-reader passes over bytes it cannot read as PGN without a word,
    /// so any text reads as games: a "game" with neither a tag nor a move
    /// is such text (an EPD file, a wrong file), not a game from the
    /// standard start.
    #[error("neither a tag nor a move: this is not PGN")]
    NotPgn,
    #[error("cannot read it: {0}")]
    Read(#[from] std::io::Error),
}

/// Reads every game of PGN text (see [`PgnGames`]).
pub fn read_games(text: &str) -> Result<Vec<ReadGame>, PgnError> {
    PgnGames::new(text.as_bytes()).collect()
}

/// The games of a PGN one at a time, read with the `pgn-reader` crate
/// (comments, NAGs and variations skipped); the first error ends them.
pub struct PgnGames<R: std::io::Read> {
    reader: pgn_reader::Reader<R>,
    visitor: GameVisitor,
    /// Games read so far.
    read: usize,
    failed: bool,
}

impl<R: std::io::Read> PgnGames<R> {
    pub fn new(pgn: R) -> PgnGames<R> {
        PgnGames {
            reader: pgn_reader::Reader::new(pgn),
            visitor: GameVisitor {
                max_plies: usize::MAX,
                keep_tags: true,
            },
            read: 0,
            failed: false,
        }
    }

    /// Keeps at most `plies` moves of each game; the rest is read past
    /// unchecked (an opening book's `plies=`).
    pub fn max_plies(mut self, plies: usize) -> PgnGames<R> {
        self.visitor.max_plies = plies;
        self
    }

    /// Keeps no tags but `[FEN]`'s position: a large book's memory goes to
    /// its moves.
    pub fn without_tags(mut self) -> PgnGames<R> {
        self.visitor.keep_tags = false;
        self
    }
}

impl<R: std::io::Read> Iterator for PgnGames<R> {
    type Item = Result<ReadGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let fault = match self.reader.read_game(&mut self.visitor) {
            Ok(None) => return None,
            Ok(Some(Ok(game))) => {
                self.read += 1;
                return Some(Ok(game));
            }
            Ok(Some(Err(fault))) => fault,
            Err(e) => e.into(),
        };
        self.failed = true;
        Some(Err(PgnError {
            game: self.read + 1,
            fault,
        }))
    }
}

/// A tag value read by `pgn-reader`, decoded as the PGN standard says
/// (section 7: `\"` is `"`, `\\` is `\`). Not `RawTag::decode`: in
/// pgn-reader 0.29 it takes the second backslash of `\\` for the start
/// of another escape, so `\\\"` (a backslash and a quote) reads as `"`.
pub fn tag_value(raw: pgn_reader::RawTag<'_>) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'\\', Some(&next @ (b'\\' | b'"'))) => {
                out.push(next);
                i += 2;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `pgn-reader` visitor of [`PgnGames`].
struct GameVisitor {
    max_plies: usize,
    keep_tags: bool,
}

/// A game's tags as they are read.
#[derive(Default)]
struct Tags {
    list: Vec<(String, String)>,
    start: Option<Chess>,
    any: bool,
}

/// A game's movetext as it is read.
struct Movetext {
    game: ReadGame,
    tagged: bool,
    /// Moves read, kept or not.
    read: usize,
}

impl pgn_reader::Visitor for GameVisitor {
    type Tags = Result<Tags, GameFault>;
    type Movetext = Movetext;
    type Output = Result<ReadGame, GameFault>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Ok(Tags::default()))
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let Ok(read) = tags else {
            return ControlFlow::Continue(());
        };
        read.any = true;
        if name != b"FEN" && !self.keep_tags {
            return ControlFlow::Continue(());
        }
        let value = tag_value(value);
        if name == b"FEN" {
            match parse_position(&value) {
                Ok(pos) => read.start = Some(pos),
                Err(e) => {
                    *tags = Err(e.into());
                    return ControlFlow::Continue(());
                }
            }
        }
        if self.keep_tags {
            read.list
                .push((String::from_utf8_lossy(name).into_owned(), value));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        match tags {
            Ok(tags) => {
                let start = tags.start.unwrap_or_default();
                ControlFlow::Continue(Movetext {
                    game: ReadGame {
                        tags: tags.list,
                        position: start.clone(),
                        initial: start,
                        moves: Vec::new(),
                        result: "*".to_string(),
                    },
                    tagged: tags.any,
                    read: 0,
                })
            }
            Err(fault) => ControlFlow::Break(Err(fault)),
        }
    }

    fn san(&mut self, m: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        m.read += 1;
        if m.game.moves.len() >= self.max_plies {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&m.game.position) {
            Ok(mv) => {
                m.game.position.play_unchecked(mv);
                m.game.moves.push(mv);
                ControlFlow::Continue(())
            }
            Err(reason) => ControlFlow::Break(Err(GameFault::IllegalMove {
                ply: m.game.moves.len() + 1,
                san: san_plus.to_string(),
                reason,
            })),
        }
    }

    fn outcome(
        &mut self,
        m: &mut Self::Movetext,
        outcome: shakmaty::Outcome,
    ) -> ControlFlow<Self::Output> {
        m.game.result = outcome.to_string();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Self::Movetext) -> Self::Output {
        if !m.tagged && m.read == 0 {
            return Err(GameFault::NotPgn);
        }
        Ok(m.game)
    }
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
            initial: &start,
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
        assert_eq!(g.initial, start);
        assert_eq!(g.moves, ms);
        assert!(ms[6].is_castle() && ms[7].is_castle(), "both sides castled");
        assert!(text.contains("O-O"));
    }

    #[test]
    fn black_to_move_start_numbers_with_ellipsis() {
        let start = parse_position("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7").unwrap();
        let ms = moves(&start, "e8d8 e2e4");
        let text = write_game(&PgnGame {
            tags: vec![],
            initial: &start,
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
        let sans = |g: &ReadGame| {
            let mut pos = g.initial.clone();
            g.moves
                .iter()
                .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(sans(&games[0]), ["e4", "Kd8", "Kd2"]);
        assert_eq!(games[0].result, "1-0");
        assert_eq!(sans(&games[1]), ["e4", "e5"]);
        assert_eq!(games[1].tag("Event"), Some("b"));
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
            let text = write_game(&PgnGame { tags: vec![], initial: &start, moves: &ms, book_plies: 0, infos: &[], result: "*", final_comment: None });
            let back = read_games(&text).unwrap();
            proptest::prop_assert_eq!(back.len(), 1);
            proptest::prop_assert_eq!(&back[0].initial, &start);
            proptest::prop_assert_eq!(&back[0].moves, &ms);
        }
    }

    #[test]
    fn reader_errors_name_the_game_and_the_fault() {
        let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n";
        let err = read_games(text).unwrap_err();
        assert_eq!(err.game, 2);
        assert!(
            matches!(err.fault, GameFault::IllegalMove { ply: 3, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("ply 3 'Ke3'"), "{err}");
        let err = read_games("[FEN \"nonsense\"]\n\n*\n").unwrap_err();
        assert!(matches!(err.fault, GameFault::Fen(_)), "{err}");
        assert!(err.to_string().contains("nonsense"), "{err}");
    }

    #[test]
    fn tag_values_with_quotes_backslashes_and_control_characters_read_back() {
        let start = Chess::default();
        for (name, back) in [
            ("plain", "plain"),
            ("a \"quoted\" name", "a \"quoted\" name"),
            ("C:\\dir\\", "C:\\dir\\"),
            // A backslash then a quote: `\\\"` once escaped.
            ("x\\\"y", "x\\\"y"),
            ("tab\tand\rreturn", "tab and return"),
        ] {
            let text = write_game(&PgnGame {
                tags: vec![("White".into(), name.into())],
                initial: &start,
                moves: &[],
                book_plies: 0,
                infos: &[],
                result: "*",
                final_comment: None,
            });
            let games = read_games(&text).unwrap();
            assert_eq!(games[0].tag("White"), Some(back), "{text}");
        }
    }
}
