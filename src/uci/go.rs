//! The `go` command: its parameters, parsed and written.

use std::fmt;

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

    /// Parses a `go` line; unknown tokens and bad numbers are skipped.
    pub fn parse(text: &str) -> GoParams {
        let toks: Vec<&str> = str_tokens(text).collect();
        let mut go = GoParams::default();
        let mut i = usize::from(toks.first() == Some(&"go"));
        while let Some(&t) = toks.get(i) {
            i += 1;
            let next = toks.get(i).copied();
            let mut used = 1;
            match t {
                "searchmoves" => {
                    while let Some(&m) = toks.get(i) {
                        if GO_KEYWORDS.contains(&m) {
                            break;
                        }
                        go.searchmoves.push(m.to_string());
                        i += 1;
                    }
                    used = 0;
                }
                "ponder" => (go.ponder, used) = (true, 0),
                "infinite" => (go.infinite, used) = (true, 0),
                "wtime" => go.wtime = next.and_then(|n| n.parse().ok()),
                "btime" => go.btime = next.and_then(|n| n.parse().ok()),
                "winc" => go.winc = next.and_then(|n| n.parse().ok()),
                "binc" => go.binc = next.and_then(|n| n.parse().ok()),
                "movestogo" => go.movestogo = next.and_then(|n| n.parse().ok()),
                "depth" => go.depth = next.and_then(|n| n.parse().ok()),
                "nodes" => go.nodes = next.and_then(|n| n.parse().ok()),
                "mate" => go.mate = next.and_then(|n| n.parse().ok()),
                "movetime" => go.movetime = next.and_then(|n| n.parse().ok()),
                "perft" => go.perft = next.and_then(|n| n.parse().ok()),
                _ => used = 0,
            }
            i += used;
        }
        go
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
}
