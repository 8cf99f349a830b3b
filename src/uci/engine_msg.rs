//! Typed messages from an engine: `id`, `option`, `uciok`, `readyok`,
//! `bestmove` and `info`. Anything else is [`EngineMessage::Other`].
//!
//! The parsers are total: unknown tokens are skipped, numbers that do not fit
//! are dropped (a `depth 300` is fine, a `depth x` is ignored), and invalid
//! UTF-8 is read lossily.

use std::ops::Range;

use super::line::{split_line_end, str_tokens, token_spans};
use super::option::OptionDecl;

/// One line from an engine, typed as far as this tool needs it.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineMessage {
    IdName(String),
    IdAuthor(String),
    Option(OptionDecl),
    UciOk,
    ReadyOk,
    BestMove(BestMove),
    Info(Info),
    /// Anything else (including malformed `option` lines and empty lines).
    Other,
}

/// `bestmove M [ponder P]`. `mv` is `None` for an empty `bestmove` line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BestMove {
    pub mv: Option<String>,
    pub ponder: Option<String>,
}

/// Whether a score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// `score cp N` or `score mate N` (N in moves, negative when being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64, ScoreBound),
    Mate(i64, ScoreBound),
}

impl Score {
    /// The score as one number for comparisons and thresholds: centipawns
    /// (clamped to ±500 000), every mate beyond every centipawn score, a
    /// nearer mate further out (book margins, adjudication).
    pub fn centipawns(&self) -> i64 {
        const MATE: i64 = 1_000_000;
        match *self {
            Score::Cp(cp, _) => cp.clamp(-MATE / 2, MATE / 2),
            Score::Mate(n, _) if n > 0 => MATE - n.min(MATE / 4),
            Score::Mate(n, _) => -MATE - n.max(-MATE / 4),
        }
    }
}

impl std::fmt::Display for Score {
    /// The words after `score` in an `info` line: `cp 31`, `mate -3 lowerbound`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (unit, value, bound) = match *self {
            Score::Cp(v, b) => ("cp", v, b),
            Score::Mate(v, b) => ("mate", v, b),
        };
        write!(f, "{unit} {value}")?;
        match bound {
            ScoreBound::Exact => Ok(()),
            ScoreBound::Lower => f.write_str(" lowerbound"),
            ScoreBound::Upper => f.write_str(" upperbound"),
        }
    }
}

/// The fields of an `info` line this tool reads.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    /// `wdl W D L` (per mille).
    pub wdl: Option<(u32, u32, u32)>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<u32>,
    pub pv: Vec<String>,
    /// Text after `info string` (the rest of the line).
    pub string: Option<String>,
}

/// Keywords of an `info` line; a move list (`pv`, `refutation`, `currline`)
/// runs until the next of these.
pub const INFO_KEYWORDS: [&str; 19] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "wdl",
    "ebf",
];

#[inline]
fn is_keyword(t: &[u8]) -> bool {
    // A match compiles to a length switch and a few compares: this runs for
    // every move of every `info` line the proxy translates, and a move
    // (`e2e4`) has a digit second, which no keyword has.
    if t.len() < 2 || t[1].is_ascii_digit() {
        return false;
    }
    matches!(
        t,
        b"depth"
            | b"seldepth"
            | b"time"
            | b"nodes"
            | b"pv"
            | b"multipv"
            | b"score"
            | b"currmove"
            | b"currmovenumber"
            | b"hashfull"
            | b"nps"
            | b"tbhits"
            | b"sbhits"
            | b"cpuload"
            | b"string"
            | b"refutation"
            | b"currline"
            | b"wdl"
            | b"ebf"
    )
}

/// Parses one engine line (with or without its line ending).
pub fn parse_engine_line(line: &[u8]) -> EngineMessage {
    let (content, _) = split_line_end(line);
    let text = String::from_utf8_lossy(content);
    let mut toks = str_tokens(&text);
    match toks.next() {
        Some("uciok") => EngineMessage::UciOk,
        Some("readyok") => EngineMessage::ReadyOk,
        Some("id") => {
            let rest = rest_after(&text, 2);
            match toks.next() {
                Some("name") => EngineMessage::IdName(rest),
                Some("author") => EngineMessage::IdAuthor(rest),
                _ => EngineMessage::Other,
            }
        }
        Some("option") => match OptionDecl::parse(&text) {
            Some(decl) => EngineMessage::Option(decl),
            None => EngineMessage::Other,
        },
        Some("bestmove") => {
            let mv = toks.next().map(str::to_string);
            let ponder = match toks.next() {
                Some("ponder") => toks.next().map(str::to_string),
                _ => None,
            };
            EngineMessage::BestMove(BestMove { mv, ponder })
        }
        Some("info") => EngineMessage::Info(parse_info(&text)),
        _ => EngineMessage::Other,
    }
}

/// The text after the first `n` tokens, trimmed (`id name Stockfish 17`
/// with n = 2 gives `Stockfish 17`).
pub(crate) fn rest_after(text: &str, n: usize) -> String {
    match token_spans(text.as_bytes()).nth(n) {
        Some(span) => text[span.start..].trim_end().to_string(),
        None => String::new(),
    }
}

fn num<T: std::str::FromStr>(t: Option<&str>) -> Option<T> {
    t.and_then(|t| t.parse().ok())
}

/// Parses the fields of an `info` line (the leading `info` token included).
pub fn parse_info(text: &str) -> Info {
    // Room for a typical Stockfish line at once (the iterator gives no
    // size hint, so collecting would grow the vector four times).
    let mut spans: Vec<Range<usize>> = Vec::with_capacity(48);
    spans.extend(token_spans(text.as_bytes()));
    let tok = |i: usize| spans.get(i).map(|r| &text[r.clone()]);
    let mut info = Info::default();
    let mut i = 1;
    while let Some(t) = tok(i) {
        i += 1;
        match t {
            "depth" => info.depth = num(tok(i)),
            "seldepth" => info.seldepth = num(tok(i)),
            "multipv" => info.multipv = num(tok(i)),
            "nodes" => info.nodes = num(tok(i)),
            "nps" => info.nps = num(tok(i)),
            "time" => info.time_ms = num(tok(i)),
            "hashfull" => info.hashfull = num(tok(i)),
            "tbhits" => info.tbhits = num(tok(i)),
            "currmovenumber" => info.currmovenumber = num(tok(i)),
            "currmove" => info.currmove = tok(i).map(str::to_string),
            "wdl" => {
                if let (Some(w), Some(d), Some(l)) = (num(tok(i)), num(tok(i + 1)), num(tok(i + 2)))
                {
                    info.wdl = Some((w, d, l));
                    i += 2;
                }
            }
            "score" => {
                let kind = tok(i);
                let value: Option<i64> = num(tok(i + 1));
                let mut bound = ScoreBound::Exact;
                let mut used = 2;
                match tok(i + 2) {
                    Some("lowerbound") => (bound, used) = (ScoreBound::Lower, 3),
                    Some("upperbound") => (bound, used) = (ScoreBound::Upper, 3),
                    _ => {}
                }
                match (kind, value) {
                    (Some("cp"), Some(v)) => info.score = Some(Score::Cp(v, bound)),
                    (Some("mate"), Some(v)) => info.score = Some(Score::Mate(v, bound)),
                    _ => used = 0,
                }
                i += used;
                continue;
            }
            "pv" => {
                info.pv.clear();
                while let Some(m) = tok(i) {
                    if is_keyword(m.as_bytes()) {
                        break;
                    }
                    info.pv.push(m.to_string());
                    i += 1;
                }
                continue;
            }
            "string" => {
                info.string = Some(match spans.get(i) {
                    Some(r) => text[r.start..].trim_end().to_string(),
                    None => String::new(),
                });
                break;
            }
            _ => continue,
        }
        i += 1;
    }
    info
}

/// Byte ranges of the move tokens of an `info` line, grouped by move
/// sequence: each `pv`, `refutation` and `currline` (after its optional CPU
/// number) is one group played from the search position, each `currmove`
/// a group of one. Nothing after `string` is a move. Used to rewrite moves
/// in place.
pub fn info_move_groups(line: &[u8]) -> Vec<Vec<Range<usize>>> {
    let spans: Vec<Range<usize>> = token_spans(line).collect();
    let mut out = Vec::new();
    let mut i = 1;
    while i < spans.len() {
        let t = &line[spans[i].clone()];
        i += 1;
        match t {
            b"string" => break,
            b"currmove" => {
                if let Some(s) = spans.get(i) {
                    out.push(vec![s.clone()]);
                    i += 1;
                }
            }
            b"pv" | b"refutation" | b"currline" => {
                if t == b"currline"
                    && spans
                        .get(i)
                        .is_some_and(|s| line[s.clone()].iter().all(u8::is_ascii_digit))
                {
                    i += 1;
                }
                let mut group = Vec::new();
                while let Some(s) = spans.get(i) {
                    if is_keyword(&line[s.clone()]) {
                        break;
                    }
                    group.push(s.clone());
                    i += 1;
                }
                out.push(group);
            }
            _ => {}
        }
    }
    out
}

fn is_sep(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The next token at or after `from` (a token boundary) that holds a `v`,
/// `u` or `g`: every keyword that starts a move list, and `string`, does.
fn next_candidate(line: &[u8], from: usize) -> Option<Range<usize>> {
    let hit = from + memchr::memchr3(b'v', b'u', b'g', &line[from..])?;
    let mut start = hit;
    while start > from && !is_sep(line[start - 1]) {
        start -= 1;
    }
    let end = line[hit..]
        .iter()
        .position(|&b| is_sep(b))
        .map_or(line.len(), |n| hit + n);
    Some(start..end)
}

/// Where the first move list of an `info` line starts: the offset of its
/// first `pv`, `refutation`, `currline` or `currmove` token; `None` when
/// `string` comes first or there is none. The move groups of the line (see
/// [`info_move_groups_into`]) are those of the text from there on, so a
/// line whose text from there on was seen before needs no more scanning.
pub fn info_moves_start(line: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        let t = next_candidate(line, at)?;
        match &line[t.clone()] {
            b"pv" | b"refutation" | b"currline" | b"currmove" => return Some(t.start),
            b"string" => return None,
            _ => at = t.end,
        }
    }
}

/// The allocation-free form of [`info_move_groups`] for the proxy's hot
/// path: move spans go to `spans`, and each group is a range of indices
/// into `spans` in `groups`. Both vectors are cleared first.
///
/// One pass over the line: this runs for every `info` line the proxy
/// translates, so it neither collects tokens first nor searches the line
/// once per keyword. Outside a move list, where only `pv`, `refutation`,
/// `currline`, `currmove` and `string` change anything, it does not
/// tokenize at all: each of those holds a `v`, `u` or `g`, so a SIMD
/// search for those three bytes jumps from one candidate token to the next;
/// the tokens it skips (numbers, `depth`, `score`, `cp`, …) cannot change
/// anything there. False hits (`multipv`, `cpuload`, …) are few.
pub fn info_move_groups_into(
    line: &[u8],
    spans: &mut Vec<Range<usize>>,
    groups: &mut Vec<Range<usize>>,
) {
    spans.clear();
    groups.clear();
    #[derive(PartialEq)]
    enum Mode {
        Other,
        Currmove,
        Seq,
        CurrlineStart,
    }
    let n = line.len();
    let mut mode = Mode::Other;
    let mut start = 0;
    let mut i = 0;
    loop {
        let s = if mode == Mode::Other {
            let Some(t) = next_candidate(line, i) else {
                return;
            };
            i = t.end;
            t.start
        } else {
            while i < n && is_sep(line[i]) {
                i += 1;
            }
            if i >= n {
                break;
            }
            let s = i;
            while i < n && !is_sep(line[i]) {
                i += 1;
            }
            s
        };
        let t = &line[s..i];
        // Outside a move list only the list keywords and `string` matter;
        // numbers and the other keywords are skipped without comparing.
        let keyword = match mode {
            Mode::Other => {
                if !matches!(t[0], b'p' | b'c' | b'r' | b's') {
                    continue;
                }
                is_keyword(t)
            }
            _ => is_keyword(t),
        };
        if keyword {
            if matches!(mode, Mode::Seq | Mode::CurrlineStart) && spans.len() > start {
                groups.push(start..spans.len());
            }
            if t == b"string" {
                return;
            }
            start = spans.len();
            mode = match t {
                b"currmove" => Mode::Currmove,
                b"pv" | b"refutation" => Mode::Seq,
                b"currline" => Mode::CurrlineStart,
                _ => Mode::Other,
            };
            continue;
        }
        match mode {
            Mode::Other => {}
            Mode::Currmove => {
                spans.push(s..i);
                groups.push(start..spans.len());
                mode = Mode::Other;
            }
            Mode::CurrlineStart if t.iter().all(u8::is_ascii_digit) => mode = Mode::Seq,
            Mode::Seq | Mode::CurrlineStart => {
                spans.push(s..i);
                mode = Mode::Seq;
            }
        }
    }
    if mode == Mode::Seq && spans.len() > start {
        groups.push(start..spans.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_lines() {
        assert_eq!(
            parse_engine_line(b"id name Stockfish 17.1\n"),
            EngineMessage::IdName("Stockfish 17.1".into())
        );
        assert_eq!(
            parse_engine_line(b"id author the Stockfish developers\r\n"),
            EngineMessage::IdAuthor("the Stockfish developers".into())
        );
        assert_eq!(parse_engine_line(b"uciok"), EngineMessage::UciOk);
        assert_eq!(parse_engine_line(b"readyok\r\n"), EngineMessage::ReadyOk);
        assert!(matches!(
            parse_engine_line(b"option name UCI_Chess960 type check default false"),
            EngineMessage::Option(d) if d.name == "UCI_Chess960"
        ));
    }

    #[test]
    fn bestmove_with_and_without_ponder() {
        assert_eq!(
            parse_engine_line(b"bestmove e2e4 ponder e7e5"),
            EngineMessage::BestMove(BestMove {
                mv: Some("e2e4".into()),
                ponder: Some("e7e5".into())
            })
        );
        assert_eq!(
            parse_engine_line(b"bestmove 0000"),
            EngineMessage::BestMove(BestMove {
                mv: Some("0000".into()),
                ponder: None
            })
        );
        assert_eq!(
            parse_engine_line(b"bestmove"),
            EngineMessage::BestMove(BestMove::default())
        );
    }

    #[test]
    fn info_fields() {
        let EngineMessage::Info(info) = parse_engine_line(
            b"info depth 300 seldepth 12 multipv 1 score mate -3 lowerbound nodes 123456789012 nps 1000 hashfull 5 tbhits 0 time 17 wdl 10 20 970 pv e1h1 e8g8 d2d4",
        ) else {
            panic!("not info")
        };
        assert_eq!(info.depth, Some(300));
        assert_eq!(info.seldepth, Some(12));
        assert_eq!(info.score, Some(Score::Mate(-3, ScoreBound::Lower)));
        assert_eq!(info.nodes, Some(123456789012));
        assert_eq!(info.time_ms, Some(17));
        assert_eq!(info.wdl, Some((10, 20, 970)));
        assert_eq!(info.pv, vec!["e1h1", "e8g8", "d2d4"]);
        let EngineMessage::Info(info) =
            parse_engine_line(b"info score cp 31 depth x string depth 5 pv a2a3")
        else {
            panic!("not info")
        };
        assert_eq!(info.score, Some(Score::Cp(31, ScoreBound::Exact)));
        assert_eq!(info.depth, None);
        assert_eq!(info.string.as_deref(), Some("depth 5 pv a2a3"));
        assert!(info.pv.is_empty());
    }

    #[test]
    fn scores_are_written_as_they_are_read() {
        for score in [
            Score::Cp(31, ScoreBound::Exact),
            Score::Cp(-7, ScoreBound::Upper),
            Score::Mate(-3, ScoreBound::Lower),
            Score::Mate(1, ScoreBound::Exact),
        ] {
            let line = format!("info depth 1 score {score} nodes 5");
            let EngineMessage::Info(info) = parse_engine_line(line.as_bytes()) else {
                panic!("{line}")
            };
            assert_eq!(info.score, Some(score), "{line}");
        }
        assert_eq!(
            Score::Mate(-3, ScoreBound::Lower).to_string(),
            "mate -3 lowerbound"
        );
    }

    #[test]
    fn move_spans_in_info() {
        let line = b"info depth 3 currmove e1h1 currmovenumber 2 pv e1h1 e8g8 score cp 3 refutation b1c3 a7a6 currline 1 e2e4 string pv e1h1";
        let groups: Vec<Vec<&[u8]>> = info_move_groups(line)
            .into_iter()
            .map(|g| g.into_iter().map(|r| &line[r]).collect())
            .collect();
        assert_eq!(
            groups,
            vec![
                vec![&b"e1h1"[..]],
                vec![&b"e1h1"[..], b"e8g8"],
                vec![&b"b1c3"[..], b"a7a6"],
                vec![&b"e2e4"[..]],
            ]
        );
    }

    #[test]
    fn keyword_match_is_the_list() {
        for k in INFO_KEYWORDS {
            assert!(is_keyword(k.as_bytes()), "{k}");
        }
        assert!(!is_keyword(b"e2e4") && !is_keyword(b"pvx") && !is_keyword(b""));
    }

    #[test]
    fn both_group_functions_agree() {
        for line in [
            &b"info depth 3 currmove e1h1 currmovenumber 2 pv e1h1 e8g8 score cp 3 refutation b1c3 a7a6 currline 1 e2e4 string pv e1h1"[..],
            b"info pv",
            b"info currline 2 pv a2a3",
            b"info currmove",
            b"info refutation a1a2 currline a2a3 b2b3",
            b"info depth 5 string pv e2e4",
            b"info\tdepth 7\tpv\te1h1  e8g8\r",
            b"info score cp 3 multipv 2 pv e1h1 nodes 5 currmove e2e4 currline",
            b"info currline 0 currline 1 2 refutation",
            b"info pv string",
        ] {
            let expected = info_move_groups(line);
            let (mut spans, mut groups) = (Vec::new(), Vec::new());
            info_move_groups_into(line, &mut spans, &mut groups);
            let got: Vec<Vec<Range<usize>>> =
                groups.into_iter().map(|g| spans[g].to_vec()).collect();
            let expected: Vec<_> = expected.into_iter().filter(|g| !g.is_empty()).collect();
            assert_eq!(got, expected, "{}", String::from_utf8_lossy(line));
        }
    }

    /// The scan as it was before it jumped between candidate tokens (one
    /// token at a time): the reference the fast scan must equal.
    fn groups_bytewise(line: &[u8]) -> Vec<Vec<Range<usize>>> {
        #[derive(PartialEq)]
        enum Mode {
            Other,
            Currmove,
            Seq,
            CurrlineStart,
        }
        let mut out: Vec<Vec<Range<usize>>> = Vec::new();
        let mut mode = Mode::Other;
        let mut group = Vec::new();
        for r in token_spans(line) {
            let t = &line[r.clone()];
            if is_keyword(t) {
                if !group.is_empty() {
                    out.push(std::mem::take(&mut group));
                }
                if t == b"string" {
                    return out;
                }
                mode = match t {
                    b"currmove" => Mode::Currmove,
                    b"pv" | b"refutation" => Mode::Seq,
                    b"currline" => Mode::CurrlineStart,
                    _ => Mode::Other,
                };
                continue;
            }
            match mode {
                Mode::Other => {}
                Mode::Currmove => {
                    out.push(vec![r]);
                    mode = Mode::Other;
                }
                Mode::CurrlineStart if t.iter().all(u8::is_ascii_digit) => mode = Mode::Seq,
                Mode::Seq | Mode::CurrlineStart => {
                    group.push(r);
                    mode = Mode::Seq;
                }
            }
        }
        if !group.is_empty() {
            out.push(group);
        }
        out
    }

    fn groups_fast(line: &[u8]) -> Vec<Vec<Range<usize>>> {
        let (mut spans, mut groups) = (Vec::new(), Vec::new());
        info_move_groups_into(line, &mut spans, &mut groups);
        groups.into_iter().map(|g| spans[g].to_vec()).collect()
    }

    #[test]
    fn fast_scan_edge_cases() {
        let cases: [(&[u8], &[&[&str]]); 14] = [
            // No move groups at all.
            (b"info depth 12 seldepth 20 multipv 1 score cp 5 nodes 9 nps 3 time 1", &[]),
            (b"info", &[]),
            (b"", &[]),
            (b"info string pv e1h1 currmove e1h1", &[]),
            // Runs of blanks, tabs and a `\r\n` ending.
            (b"info  depth 3\t\tpv   e1h1 \t e8b8  \r\n", &[&["e1h1", "e8b8"]]),
            (b"info pv e1h1\r", &[&["e1h1"]]),
            // Every kind of group.
            (
                b"info currmove e1h1 currmovenumber 1 refutation e1h1 e8b8 currline 1 e1h1 a7a6 pv e1b1",
                &[&["e1h1"], &["e1h1", "e8b8"], &["e1h1", "a7a6"], &["e1b1"]],
            ),
            // `currline` without the CPU number.
            (b"info currline e1h1 e8h8", &[&["e1h1", "e8h8"]]),
            // False hits of the byte search (`multipv`, `cpuload`,
            // `upperbound`, `gu`), and keywords glued to other text.
            (b"info multipv 2 cpuload 5 score cp 1 upperbound gu xpv pvx pv a2a3", &[&["a2a3"]]),
            (b"info xstring pv a2a3 string", &[&["a2a3"]]),
            // The candidate byte in the middle or at the end of a token.
            (b"info abvcd pv e2e4 uuu pv", &[&["e2e4", "uuu"]]),
            // Invalid UTF-8 around and inside the moves.
            (b"\xff\xfeinfo pv \xffu e2e4 \xc3", &[&["\u{fffd}u", "e2e4", "\u{fffd}"]]),
            // A move list at the very end, and one cut off by a keyword.
            (b"info pv e2e4 depth 3 pv", &[&["e2e4"]]),
            (b"info currmove", &[]),
        ];
        for (line, expected) in cases {
            let got: Vec<Vec<String>> = groups_fast(line)
                .into_iter()
                .map(|g| {
                    g.into_iter()
                        .map(|r| String::from_utf8_lossy(&line[r]).into_owned())
                        .collect()
                })
                .collect();
            let expected: Vec<Vec<String>> = expected
                .iter()
                .map(|g| g.iter().map(|t| t.to_string()).collect())
                .collect();
            assert_eq!(got, expected, "{}", String::from_utf8_lossy(line));
            assert_eq!(groups_fast(line), groups_bytewise(line));
        }
        assert_eq!(
            info_moves_start(b"info depth 1 multipv 2 pv e2e4"),
            Some(23)
        );
        assert_eq!(
            info_moves_start(b"info currmovenumber 2 currmove e2e4"),
            Some(22)
        );
        assert_eq!(info_moves_start(b"info string pv e2e4"), None);
        assert_eq!(info_moves_start(b"info depth 1"), None);
    }

    proptest::proptest! {
        /// Random `info` lines from keywords, moves, numbers, words holding
        /// the bytes the scan searches for, odd bytes and odd blanks: the
        /// fast scan finds exactly the groups of the token-by-token one.
        #[test]
        fn fast_scan_equals_token_by_token(
            words in proptest::collection::vec(
                proptest::sample::select(vec![
                    "pv", "refutation", "currline", "currmove", "string", "depth",
                    "multipv", "currmovenumber", "cpuload", "score", "cp", "upperbound",
                    "e1h1", "e8b8", "a2a3", "g1f3", "e7e8q", "1", "0", "123", "gu", "v",
                    "xpv", "pvx", "ustring", "\u{fffd}", "\u{1}", "",
                ]),
                0..24,
            ),
            blanks in proptest::collection::vec(
                proptest::sample::select(vec![" ", "  ", "\t", " \t ", "\r", "\r\n"]),
                24,
            ),
        ) {
            let mut line = String::from("info");
            for (w, b) in words.iter().zip(&blanks) {
                line.push_str(b);
                line.push_str(w);
            }
            let line = line.as_bytes();
            let groups = groups_fast(line);
            proptest::prop_assert_eq!(&groups, &groups_bytewise(line));
            // The groups are those of the tail from `info_moves_start` on.
            match info_moves_start(line) {
                None => proptest::prop_assert!(groups.is_empty()),
                Some(at) => {
                    proptest::prop_assert!(at == 0 || is_sep(line[at - 1]));
                    let shifted: Vec<Vec<Range<usize>>> = groups_fast(&line[at..])
                        .into_iter()
                        .map(|g| g.into_iter().map(|r| r.start + at..r.end + at).collect())
                        .collect();
                    proptest::prop_assert_eq!(shifted, groups);
                }
            }
        }
    }

    #[test]
    fn garbage_does_not_panic() {
        for line in [
            &b"info score"[..],
            b"info score cp",
            b"info wdl 1 2",
            b"info pv",
            b"id",
            b"bestmove",
            b"\xff\xfe info",
            b"info string",
            b"option name",
        ] {
            let _ = parse_engine_line(line);
            let _ = info_move_groups(line);
        }
    }
}
