//! The `go` command: its parameters, parsed and written.
//!
//! The one parser of `go` lines: the proxy, the match runner, the engine
//! client and the built-in engine all read `go` through [`GoParams`].

use std::fmt;
use std::num::IntErrorKind;

use super::line::str_tokens;

/// Parameters of `go`. Times are signed: some GUIs send a negative
/// remaining time after a flag fall.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoParams {
    pub searchmoves: Vec<String>,
    pub ponder: bool,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    /// `go perft N` (Stockfish and Fairy-Stockfish).
    pub perft: Option<u32>,
}

const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

impl GoParams {
    /// A search limited to `n` nodes.
    pub fn nodes(n: u64) -> GoParams {
        GoParams {
            nodes: Some(n),
            ..GoParams::default()
        }
    }

    /// A search limited to `d` plies.
    pub fn depth(d: u32) -> GoParams {
        GoParams {
            depth: Some(d),
            ..GoParams::default()
        }
    }

    /// Parses a `go` line (the leading `go` is optional); unknown tokens
    /// and bad numbers are skipped. See [`GoParams::parse_reporting`].
    pub fn parse(text: &str) -> GoParams {
        GoParams::parse_reporting(text).0
    }

    /// Parses a `go` line and also returns the problems met, one message
    /// each (the built-in engine prints them as `info string`).
    ///
    /// As in Stockfish, nothing is fatal: an unknown token is skipped, and
    /// a keyword without a usable number keeps its earlier value (a
    /// following keyword is not taken as its number). Numbers saturate at
    /// the field's range; negative counts (`depth`, `nodes`, `mate`,
    /// `movestogo`, `perft`) read as 0, negative times stay negative for
    /// relaying, and their consumers decide what they mean.
    pub fn parse_reporting(text: &str) -> (GoParams, Vec<String>) {
        let toks: Vec<&str> = str_tokens(text).collect();
        let mut go = GoParams::default();
        let mut problems = Vec::new();
        let mut i = usize::from(toks.first() == Some(&"go"));
        while let Some(&key) = toks.get(i) {
            i += 1;
            match key {
                "searchmoves" => {
                    while let Some(&m) = toks.get(i)
                        && !GO_KEYWORDS.contains(&m)
                    {
                        go.searchmoves.push(m.to_string());
                        i += 1;
                    }
                }
                "ponder" => go.ponder = true,
                "infinite" => go.infinite = true,
                _ if GO_KEYWORDS.contains(&key) => match toks.get(i) {
                    Some(&t) if !GO_KEYWORDS.contains(&t) => {
                        i += 1;
                        match read_number(t) {
                            Some(n) => go.set_number(key, n),
                            None => problems
                                .push(format!("go: '{t}' is not a number for '{key}'; ignored")),
                        }
                    }
                    _ => problems.push(format!("go: '{key}' needs a number")),
                },
                other => problems.push(format!("go: unknown token '{other}'; ignored")),
            }
        }
        (go, problems)
    }

    /// Stores the number read after the numeric keyword `key`.
    fn set_number(&mut self, key: &str, n: i128) {
        let count = |n: i128| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
        let time = |n: i128| i64::try_from(n).unwrap_or(if n < 0 { i64::MIN } else { i64::MAX });
        match key {
            "wtime" => self.wtime = Some(time(n)),
            "btime" => self.btime = Some(time(n)),
            "winc" => self.winc = Some(time(n)),
            "binc" => self.binc = Some(time(n)),
            "movetime" => self.movetime = Some(time(n)),
            "movestogo" => self.movestogo = Some(count(n)),
            "depth" => self.depth = Some(count(n)),
            "mate" => self.mate = Some(count(n)),
            "perft" => self.perft = Some(count(n)),
            "nodes" => self.nodes = Some(u64::try_from(n.max(0)).unwrap_or(u64::MAX)),
            _ => {}
        }
    }
}

/// An integer token, saturated when it overflows; `None` if it is not one.
fn read_number(token: &str) -> Option<i128> {
    match token.parse::<i128>() {
        Ok(n) => Some(n),
        Err(e) => match e.kind() {
            IntErrorKind::PosOverflow => Some(i128::MAX),
            IntErrorKind::NegOverflow => Some(i128::MIN),
            _ => None,
        },
    }
}

impl fmt::Display for GoParams {
    /// The `go` line, keywords in the order of the UCI specification.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if let Some(n) = self.perft {
            return write!(f, " perft {n}");
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let nums: [(&str, Option<i64>); 10] = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(i64::from)),
            ("depth", self.depth.map(i64::from)),
            ("nodes", self.nodes.and_then(|n| i64::try_from(n).ok())),
            ("mate", self.mate.map(i64::from)),
            ("movetime", self.movetime),
            ("", None),
        ];
        for (k, v) in nums {
            if let Some(v) = v {
                write!(f, " {k} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_write() {
        let go = GoParams::parse(
            "go searchmoves e1h1 d2d4 wtime -50 btime 1000 winc 10 binc 10 movestogo 5 depth 300 nodes 5000",
        );
        assert_eq!(go.searchmoves, vec!["e1h1", "d2d4"]);
        assert_eq!(go.wtime, Some(-50));
        assert_eq!(go.depth, Some(300));
        assert_eq!(go.nodes, Some(5000));
        assert_eq!(
            go.to_string(),
            "go searchmoves e1h1 d2d4 wtime -50 btime 1000 winc 10 binc 10 movestogo 5 depth 300 nodes 5000"
        );
        assert_eq!(GoParams::nodes(7).to_string(), "go nodes 7");
        assert_eq!(GoParams::parse("go infinite").to_string(), "go infinite");
        assert_eq!(GoParams::parse("go perft 3").perft, Some(3));
        assert_eq!(GoParams::parse("go ponder movetime x depth").depth, None);
    }

    #[test]
    fn reads_everything_without_problems() {
        let (go, problems) = GoParams::parse_reporting(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 searchmoves e2e4 d2d4 depth 3 mate 2",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(-5));
        assert_eq!((go.winc, go.binc), (Some(10), Some(20)));
        assert_eq!(go.movestogo, Some(7));
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(3));
        assert_eq!(go.mate, Some(2));
        // The leading `go` is optional.
        assert_eq!(GoParams::parse_reporting("depth 3").0, GoParams::depth(3));
    }

    #[test]
    fn bad_tokens_are_reported_not_fatal() {
        let (go, problems) =
            GoParams::parse_reporting("go depth 2 depth abc nodes infinite frobnicate perft 2");
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("'abc' is not a number for 'depth'"));
        assert!(problems[1].contains("'nodes' needs a number"));
        assert!(problems[2].contains("unknown token 'frobnicate'"));
        // A bad value keeps the earlier one; a keyword is never eaten as a value.
        assert_eq!(go.depth, Some(2));
        assert_eq!(go.nodes, None);
        assert!(go.infinite);
        assert_eq!(go.perft, Some(2));
        // `parse` is the same parse, problems dropped.
        assert_eq!(
            GoParams::parse("go depth 2 depth abc nodes infinite frobnicate perft 2"),
            go
        );
        let (go, problems) = GoParams::parse_reporting("go depth x");
        assert_eq!(go.depth, None);
        assert_eq!(problems.len(), 1);
        let (go, problems) = GoParams::parse_reporting("go movetime");
        assert_eq!((go.movetime, problems.len()), (None, 1));
    }

    #[test]
    fn numbers_saturate_and_counts_are_not_negative() {
        let (go, problems) = GoParams::parse_reporting(
            "go depth 99999999999 nodes 99999999999999999999999 wtime -99999999999999999999 mate -3",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(go.depth, Some(u32::MAX));
        assert_eq!(go.nodes, Some(u64::MAX));
        assert_eq!(go.wtime, Some(i64::MIN));
        assert_eq!(go.mate, Some(0));
    }
}
