//! The engine's side of UCI as a sans-IO state machine: a line in, effects
//! out (lines to print, jobs for the search thread, stop, quit). The driver
//! owns the threads and pipes; this owns the protocol rules:
//!
//! * `isready` is answered at once, also while a search runs.
//! * Every `go` gets exactly one `bestmove`, in order: a `go` during a
//!   search is queued behind it (as in Stockfish, so piped scripts work),
//!   `stop` ends the running search and everything queued, `quit` (or end
//!   of input) stops the searches and still lets every one answer. `go perft` prints the divide and, as in
//!   Stockfish, no `bestmove`.
//! * `position` is all or nothing: a bad FEN or an illegal move leaves the
//!   last good position in place (and says why in an `info string`), so a
//!   following `go` plays a legal move of that position, or `bestmove 0000`
//!   if it has none.
//! * Unknown commands, options and tokens get an `info string`, never a
//!   crash.

use shakmaty::{CastlingMode, Chess, Move, Position};

use super::moves::{format_line, format_move, notation_for};
use super::search::{Decision, Iteration, MAX_PLY, SearchLimits, position_hash};
use super::time::GoClock;
use super::tt;
use crate::notation::castling::{CastlingNotation, MoveError, parse_move};
use crate::notation::fen::{FenError, parse_position};
use crate::uci::{GoParams, PositionBase, PositionCommand, PositionError};

/// Work for the search thread.
#[derive(Clone, Debug)]
pub enum Job {
    Search(SearchJob),
    Perft {
        position: Chess,
        depth: u32,
        mode: CastlingMode,
    },
    /// Resize the transposition table (MiB).
    Resize(usize),
}

/// One `go`: everything the search thread needs, owned.
#[derive(Clone, Debug)]
pub struct SearchJob {
    pub position: Chess,
    /// Hashes of the game's earlier positions, oldest first.
    pub history: Vec<u64>,
    pub limits: SearchLimits,
    /// `go infinite` / `go ponder`: hold `bestmove` until `stop`.
    pub wait_for_stop: bool,
    pub chess960: bool,
}

/// What the driver must do.
// A handful of effects per input line: boxing the job would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum EngineEffect {
    Print(String),
    /// Hand a job to the search thread (jobs run in order).
    Start(Job),
    /// Raise the stop flags of the running and queued searches and perfts.
    Stop,
    /// Stop the searches (a perft runs to its end, as in Stockfish, so
    /// that `echo "go perft 5" | uci960 engine` works) and leave once the
    /// search thread has answered everything.
    Quit,
}

/// The engine's UCI state.
pub struct EngineSession {
    position: Chess,
    history: Vec<u64>,
    chess960: bool,
    /// Searches and perfts handed out and not yet reported done.
    running: usize,
}

impl Default for EngineSession {
    fn default() -> Self {
        EngineSession::new()
    }
}

fn info(text: impl std::fmt::Display) -> EngineEffect {
    EngineEffect::Print(format!("info string {text}"))
}

fn start_position() -> Chess {
    // In Chess960 castling mode, like every other position the engine holds.
    parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_or_default()
}

impl EngineSession {
    pub fn new() -> EngineSession {
        EngineSession {
            position: start_position(),
            history: Vec::new(),
            chess960: false,
            running: 0,
        }
    }

    /// Whether a search or perft is under way.
    pub fn busy(&self) -> bool {
        self.running > 0
    }

    /// The search thread finished one search or perft.
    pub fn job_done(&mut self) {
        self.running = self.running.saturating_sub(1);
    }

    /// Handles one line from the GUI.
    pub fn handle(&mut self, line: &str) -> Vec<EngineEffect> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Vec::new();
        };
        match command {
            "uci" => vec![
                EngineEffect::Print(format!("id name uci960 {}", env!("CARGO_PKG_VERSION"))),
                EngineEffect::Print("id author the uci960 authors".to_string()),
                EngineEffect::Print(format!(
                    "option name Hash type spin default {} min 1 max {}",
                    tt::DEFAULT_MB,
                    tt::MAX_MB
                )),
                EngineEffect::Print(
                    "option name UCI_Chess960 type check default false".to_string(),
                ),
                EngineEffect::Print("uciok".to_string()),
            ],
            "isready" => vec![EngineEffect::Print("readyok".to_string())],
            "ucinewgame" => Vec::new(), // each search starts afresh anyway
            "debug" | "register" | "ponderhit" => Vec::new(),
            "setoption" => self.setoption(args),
            "position" => self.position(line),
            "go" => self.go(line),
            "stop" => {
                if self.busy() {
                    vec![EngineEffect::Stop]
                } else {
                    Vec::new()
                }
            }
            "quit" => vec![EngineEffect::Quit],
            other => vec![info(format!("unknown command '{other}'"))],
        }
    }

    fn setoption(&mut self, args: &[&str]) -> Vec<EngineEffect> {
        // setoption name <id with spaces> [value <x with spaces>]
        let Some(("name", rest)) = args.split_first().map(|(a, r)| (*a, r)) else {
            return vec![info(
                "setoption: expected 'setoption name <id> [value <x>]'",
            )];
        };
        let split = rest.iter().position(|t| *t == "value");
        let (name, value) = match split {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
            None => (rest.join(" "), None),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_chess960" => match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("true") => {
                    self.chess960 = true;
                    Vec::new()
                }
                Some("false") => {
                    self.chess960 = false;
                    Vec::new()
                }
                _ => vec![info(
                    "setoption: UCI_Chess960 takes 'value true' or 'value false'",
                )],
            },
            "hash" => match value.as_deref().map(str::parse::<usize>) {
                Some(Ok(mb)) if (1..=tt::MAX_MB).contains(&mb) => {
                    vec![EngineEffect::Start(Job::Resize(mb))]
                }
                _ => vec![info(format!(
                    "setoption: Hash takes a value from 1 to {}",
                    tt::MAX_MB
                ))],
            },
            _ => vec![info(format!("setoption: no such option '{name}'"))],
        }
    }

    fn position(&mut self, line: &str) -> Vec<EngineEffect> {
        match parse_position_command(line) {
            Ok((position, history)) => {
                self.position = position;
                self.history = history;
                Vec::new()
            }
            Err(e) => vec![info(format!(
                "position: {e}; keeping the previous position"
            ))],
        }
    }

    fn go(&mut self, line: &str) -> Vec<EngineEffect> {
        let (go, problems) = GoParams::parse_reporting(line);
        let mut effects: Vec<EngineEffect> = problems.into_iter().map(info).collect();
        if let Some(depth) = go.perft {
            self.running += 1;
            effects.push(EngineEffect::Start(Job::Perft {
                position: self.position.clone(),
                depth: depth.max(1),
                mode: notation_for(&self.position, self.chess960),
            }));
            return effects;
        }
        let (limits, problems) = self.limits(&go);
        effects.extend(problems.into_iter().map(info));
        self.running += 1;
        effects.push(EngineEffect::Start(Job::Search(SearchJob {
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            wait_for_stop: go.infinite || go.ponder,
            chess960: self.chess960,
        })));
        effects
    }

    fn limits(&self, go: &GoParams) -> (SearchLimits, Vec<String>) {
        let mut problems = Vec::new();
        let mut searchmoves = Vec::new();
        for token in &go.searchmoves {
            match parse_move(&self.position, token, CastlingNotation::KingTakesRook) {
                Ok(m) => searchmoves.push(m),
                Err(e) => problems.push(format!("searchmoves: {e}; ignored")),
            }
        }
        let mate_depth = go
            .mate
            .map(|n| n.saturating_mul(2).saturating_sub(1).max(1));
        let depth = match (go.depth, mate_depth) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let budget = if go.infinite {
            None
        } else {
            GoClock::from_go(go).budget(self.position.turn())
        };
        let limits = SearchLimits {
            depth: depth.map(|d| d.clamp(1, MAX_PLY as u32 - 1)),
            nodes: go.nodes.map(|n| n.max(1)),
            soft: budget.map(|b| b.soft),
            hard: budget.map(|b| b.hard),
            searchmoves,
        };
        (limits, problems)
    }
}

/// Why a `position` command was refused (the engine keeps its position).
#[derive(Debug, thiserror::Error)]
pub enum PositionCommandError {
    #[error(transparent)]
    Syntax(#[from] PositionError),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error("move {index} {source}")]
    Move { index: usize, source: MoveError },
}

/// Reads a `position` line (through [`PositionCommand`], the one reader of
/// the command) into the position and the hashes of the positions before
/// it.
pub fn parse_position_command(line: &str) -> Result<(Chess, Vec<u64>), PositionCommandError> {
    let command = PositionCommand::parse(line)?;
    let mut position = match &command.base {
        PositionBase::StartPos => start_position(),
        PositionBase::Fen(fen) => parse_position(fen)?,
    };
    let mut history = Vec::with_capacity(command.moves.len());
    for (i, token) in command.moves.iter().enumerate() {
        let m =
            parse_move(&position, token, CastlingNotation::KingTakesRook).map_err(|source| {
                PositionCommandError::Move {
                    index: i + 1,
                    source,
                }
            })?;
        history.push(position_hash(&position));
        position.play_unchecked(m);
    }
    Ok((position, history))
}

/// The `info` line of a finished iteration.
pub fn info_line(report: &Iteration, root: &Chess, chess960: bool) -> String {
    let ms = report.elapsed.as_millis();
    let nps = (u128::from(report.nodes) * 1000)
        .checked_div(ms)
        .unwrap_or(u128::from(report.nodes) * 1000);
    let score = report.score;
    let mut line = format!(
        "info depth {} seldepth {} multipv 1 score {score} nodes {} nps {nps} time {ms}",
        report.depth, report.seldepth, report.nodes
    );
    if !report.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&format_line(root, &report.pv, chess960));
    }
    line
}

/// The `bestmove` line for a result (`bestmove 0000` when there is no move).
pub fn bestmove_line(result: &Decision, root: &Chess, chess960: bool) -> String {
    let mode = notation_for(root, chess960);
    match result.best {
        None => "bestmove 0000".to_string(),
        Some(best) => {
            let mut line = format!("bestmove {}", format_move(best, mode));
            if let Some(ponder) = result.ponder {
                let mut after = root.clone();
                after.play_unchecked(best);
                let ponder: Move = ponder;
                if after.is_legal(ponder) {
                    line.push_str(" ponder ");
                    line.push_str(&format_move(ponder, notation_for(&after, chess960)));
                }
            }
            line
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(effects: &[EngineEffect]) -> Vec<String> {
        effects
            .iter()
            .filter_map(|e| match e {
                EngineEffect::Print(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn no_line_panics(line in "\\PC{0,60}") {
            let _ = EngineSession::new().handle(&line);
        }

        #[test]
        fn no_command_like_line_panics(
            command in proptest::sample::select(vec![
                "position", "position fen", "position startpos moves", "go", "go perft",
                "setoption name", "setoption name Hash value", "go searchmoves",
            ]),
            rest in proptest::collection::vec("[a-hk-rw1-8/ \\-KQkqx0]{0,12}", 0..8),
        ) {
            let mut s = EngineSession::new();
            let _ = s.handle(&format!("{command} {}", rest.join(" ")));
            let _ = s.handle("go depth 1");
        }
    }

    #[test]
    fn uci_handshake_declares_chess960_and_hash() {
        let mut s = EngineSession::new();
        let out = printed(&s.handle("uci"));
        assert!(
            out.iter()
                .any(|l| l.starts_with("option name UCI_Chess960 type check"))
        );
        assert!(
            out.iter()
                .any(|l| l.starts_with("option name Hash type spin"))
        );
        assert_eq!(out.last().unwrap(), "uciok");
        assert_eq!(printed(&s.handle("isready")), vec!["readyok"]);
    }

    #[test]
    fn bad_position_keeps_the_last_good_one() {
        let mut s = EngineSession::new();
        assert!(s.handle("position startpos moves e2e4").is_empty());
        let before = s.position.clone();
        let out = printed(&s.handle("position startpos moves e2e4 e7e5 e1e3"));
        assert!(
            out[0].starts_with("info string position: move 3 'e1e3' is not a legal move"),
            "{out:?}"
        );
        assert_eq!(s.position, before);
        let out = printed(&s.handle("position fen not a fen"));
        assert!(
            out[0].starts_with("info string position: cannot parse FEN"),
            "{out:?}"
        );
        assert_eq!(s.position, before);
    }

    #[test]
    fn go_while_busy_queues_and_stop_only_when_busy() {
        let mut s = EngineSession::new();
        assert!(s.handle("stop").is_empty());
        let e = s.handle("go infinite");
        assert!(matches!(e.as_slice(), [EngineEffect::Start(Job::Search(j))] if j.wait_for_stop));
        let e = s.handle("go depth 2");
        assert!(matches!(e.as_slice(), [EngineEffect::Start(_)]));
        assert!(matches!(s.handle("stop").as_slice(), [EngineEffect::Stop]));
        s.job_done();
        s.job_done();
        assert!(!s.busy());
        assert!(matches!(s.handle("quit").as_slice(), [EngineEffect::Quit]));
    }

    #[test]
    fn unknown_input_is_reported() {
        let mut s = EngineSession::new();
        assert_eq!(
            printed(&s.handle("hello world")),
            vec!["info string unknown command 'hello'"]
        );
        assert!(
            printed(&s.handle("setoption name Foo value 1"))[0].contains("no such option 'Foo'")
        );
        assert!(printed(&s.handle("setoption name Hash value 0"))[0].contains("Hash takes"));
        assert!(
            s.handle("setoption name UCI_Chess960 value true")
                .is_empty()
        );
        assert!(s.chess960);
        assert!(s.handle("").is_empty());
    }

    #[test]
    fn chess960_position_with_castle_in_either_notation() {
        let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
        // Clear the path between king f1 and rook g1 is already clear: O-O.
        let (pos, history) =
            parse_position_command(&format!("position fen {fen} moves f1g1")).unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(
            pos.board().king_of(shakmaty::Color::White),
            Some(shakmaty::Square::G1)
        );
    }
}
