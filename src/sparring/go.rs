//! Reading a `go` command: limits, clock fields, `searchmoves`, `perft`.
//!
//! Like Stockfish, a bad token is reported and skipped, never fatal: the
//! rest of the command still runs. Negative clock values (some GUIs send
//! them once a flag has fallen) count as zero.

use super::time::Clock;

/// The fields of one `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// `go mate N`: searched as a depth limit of `2N - 1` plies.
    pub mate: Option<u32>,
    pub clock: Clock,
    pub infinite: bool,
    pub ponder: bool,
    /// Move tokens after `searchmoves`, still unchecked.
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
}

const KEYWORDS: &[&str] = &[
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

fn number(token: Option<&str>, what: &str, problems: &mut Vec<String>) -> Option<u64> {
    match token {
        None => {
            problems.push(format!("go: '{what}' needs a number"));
            None
        }
        Some(t) => match t.parse::<i64>() {
            Ok(n) => Some(n.max(0) as u64),
            Err(_) => {
                problems.push(format!("go: '{t}' is not a number for '{what}'; ignored"));
                None
            }
        },
    }
}

/// Parses the tokens after `go`. Returns the command and the problems met
/// (each worth an `info string`).
pub fn parse(tokens: &[&str]) -> (GoCommand, Vec<String>) {
    let mut go = GoCommand::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        i += 1;
        let takes_value = !matches!(key, "infinite" | "ponder" | "searchmoves");
        let value = if takes_value && KEYWORDS.contains(&key) {
            let t = tokens.get(i).copied();
            if t.is_some_and(|t| !KEYWORDS.contains(&t)) {
                i += 1;
                number(t, key, &mut problems)
            } else {
                number(None, key, &mut problems)
            }
        } else {
            None
        };
        let small = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < tokens.len() && !KEYWORDS.contains(&tokens[i]) {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
            }
            "depth" => go.depth = value.map(small).or(go.depth),
            "nodes" => go.nodes = value.or(go.nodes),
            "mate" => go.mate = value.map(small).or(go.mate),
            "perft" => go.perft = value.map(small).or(go.perft),
            "wtime" => go.clock.wtime = value.or(go.clock.wtime),
            "btime" => go.clock.btime = value.or(go.clock.btime),
            "winc" => go.clock.winc = value.or(go.clock.winc),
            "binc" => go.clock.binc = value.or(go.clock.binc),
            "movestogo" => go.clock.movestogo = value.or(go.clock.movestogo),
            "movetime" => go.clock.movetime = value.or(go.clock.movetime),
            other => problems.push(format!("go: unknown token '{other}'; ignored")),
        }
    }
    (go, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_everything() {
        let (go, problems) = parse(&[
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "binc",
            "20",
            "movestogo",
            "7",
            "searchmoves",
            "e2e4",
            "d2d4",
            "depth",
            "3",
        ]);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(go.clock.wtime, Some(1000));
        assert_eq!(go.clock.btime, Some(0));
        assert_eq!(go.clock.movestogo, Some(7));
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(3));
    }

    #[test]
    fn bad_tokens_are_reported_not_fatal() {
        let (go, problems) = parse(&[
            "depth",
            "abc",
            "nodes",
            "infinite",
            "frobnicate",
            "perft",
            "2",
        ]);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert_eq!(go.depth, None);
        assert!(go.infinite);
        assert_eq!(go.perft, Some(2));
        let (go, _) = parse(&["depth", "99999999999"]);
        assert_eq!(go.depth, Some(u32::MAX));
    }
}
