//! The UCI client side: handshake, options, `isready`, positions and
//! searches against an [`EngineProcess`].
//!
//! The protocol state lives in small sans-IO collectors ([`Handshake`],
//! [`SearchCollector`]) fed with parsed lines; [`UciEngine`] only moves
//! lines between them and the process, with timeouts.

use std::io;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;

use super::command::EngineCommand;
use super::process::{EngineEvent, EngineProcess, ExitReport, SpawnError, SpawnOptions};
use crate::uci::{
    BestMove, EngineMessage, GoParams, OptionDecl, OptionKind, PositionCommand, Score,
    parse_engine_line,
};

/// What a UCI exchange with an engine can end in.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    #[error("engine '{engine}' did not answer {waiting_for} within {after:?}")]
    Timeout {
        engine: String,
        waiting_for: &'static str,
        after: Duration,
    },
    #[error("engine '{engine}' ended while waiting for {waiting_for} ({status})")]
    Exited {
        engine: String,
        waiting_for: &'static str,
        status: String,
    },
    #[error("cannot write to engine '{engine}': {source}")]
    Write { engine: String, source: io::Error },
}

/// What the engine said about itself between `uci` and `uciok`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Handshake {
    pub name: Option<String>,
    pub author: Option<String>,
    pub options: Vec<OptionDecl>,
    /// Whether `uciok` has been seen.
    pub done: bool,
}

impl Handshake {
    /// Feeds one message; returns true at `uciok`.
    pub fn feed(&mut self, msg: EngineMessage) -> bool {
        match msg {
            EngineMessage::IdName(n) => self.name = Some(n),
            EngineMessage::IdAuthor(a) => self.author = Some(a),
            EngineMessage::Option(o) => self.options.push(o),
            EngineMessage::UciOk => self.done = true,
            _ => {}
        }
        self.done
    }

    /// Whether the engine declared `UCI_Chess960` (as a check option).
    pub fn chess960(&self) -> bool {
        self.option("UCI_Chess960")
            .is_some_and(|o| matches!(o.kind, OptionKind::Check { .. }))
    }

    /// A declared option by name (UCI option names are case-insensitive).
    pub fn option(&self, name: &str) -> Option<&OptionDecl> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// The outcome of one search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchResult {
    /// The move as the engine wrote it (`None` for an empty `bestmove`;
    /// `0000` and `(none)` are kept as written).
    pub bestmove: Option<String>,
    pub ponder: Option<String>,
    /// From the last `info` carrying each field (first PV line only).
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
    /// Number of `info` lines seen.
    pub info_lines: usize,
    /// From writing `go` to reading `bestmove` (monotonic clock).
    pub elapsed: Duration,
}

/// Collects `info` lines until `bestmove` (sans-IO).
#[derive(Clone, Debug, Default)]
pub struct SearchCollector {
    result: SearchResult,
}

impl SearchCollector {
    pub fn new() -> SearchCollector {
        SearchCollector::default()
    }

    /// Feeds one message; returns the result at `bestmove` (with `elapsed`
    /// left zero for the caller to fill in).
    pub fn feed(&mut self, msg: EngineMessage) -> Option<SearchResult> {
        match msg {
            EngineMessage::Info(info) => {
                self.result.info_lines += 1;
                if info.multipv.unwrap_or(1) != 1 {
                    return None;
                }
                let r = &mut self.result;
                if info.score.is_some() {
                    r.score = info.score;
                }
                if info.depth.is_some() {
                    r.depth = info.depth;
                }
                if info.seldepth.is_some() {
                    r.seldepth = info.seldepth;
                }
                if info.nodes.is_some() {
                    r.nodes = info.nodes;
                }
                if !info.pv.is_empty() {
                    r.pv = info.pv;
                }
                None
            }
            EngineMessage::BestMove(BestMove { mv, ponder }) => {
                let mut r = std::mem::take(&mut self.result);
                r.bestmove = mv;
                r.ponder = ponder;
                Some(r)
            }
            _ => None,
        }
    }
}

/// A UCI engine after its handshake.
pub struct UciEngine {
    process: EngineProcess,
    handshake: Handshake,
    name: String,
}

impl UciEngine {
    /// Spawns the engine (stderr discarded) and runs the handshake.
    pub fn start(cmd: &EngineCommand, timeout: Duration) -> Result<UciEngine, EngineError> {
        let opts = SpawnOptions {
            stderr: super::process::StderrMode::Null,
            die_with_parent: false,
        };
        UciEngine::start_with(cmd, opts, timeout)
    }

    /// Spawns with the given options and runs the handshake.
    pub fn start_with(
        cmd: &EngineCommand,
        opts: SpawnOptions,
        timeout: Duration,
    ) -> Result<UciEngine, EngineError> {
        let process = EngineProcess::spawn_with(cmd, opts)?;
        UciEngine::from_process(process, timeout)
    }

    /// Runs the handshake on a spawned process.
    pub fn from_process(
        process: EngineProcess,
        timeout: Duration,
    ) -> Result<UciEngine, EngineError> {
        let name = process.program().to_string();
        let mut engine = UciEngine {
            process,
            handshake: Handshake::default(),
            name,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + timeout;
        let mut hs = Handshake::default();
        loop {
            let msg = engine.recv_until(deadline, "uciok", timeout)?;
            if hs.feed(msg) {
                break;
            }
        }
        if let Some(n) = &hs.name {
            engine.name = n.clone();
        }
        engine.handshake = hs;
        Ok(engine)
    }

    /// What the engine declared.
    pub fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    /// The engine's `id name`, or its program path.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's pid.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// The process underneath (for raw lines or `select!`).
    pub fn process_mut(&mut self) -> &mut EngineProcess {
        &mut self.process
    }

    /// Writes one raw line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.process
            .send_str(line)
            .map_err(|source| EngineError::Write {
                engine: self.name.clone(),
                source,
            })
    }

    /// `setoption name N value V`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `ucinewgame`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")
    }

    /// `isready`, then waits for `readyok` (other lines are dropped).
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            if self.recv_until(deadline, "readyok", timeout)? == EngineMessage::ReadyOk {
                return Ok(());
            }
        }
    }

    /// `position …`.
    pub fn position(&mut self, pos: &PositionCommand) -> Result<(), EngineError> {
        self.send(&pos.to_string())
    }

    /// `go …`, then collects until `bestmove`. On timeout the caller may
    /// [`UciEngine::stop`] and read the move that follows.
    pub fn go(
        &mut self,
        params: &GoParams,
        timeout: Duration,
    ) -> Result<SearchResult, EngineError> {
        let started = Instant::now();
        self.send(&params.to_string())?;
        self.collect_search(started, timeout)
    }

    /// `stop`, then waits for `bestmove`.
    pub fn stop(&mut self, timeout: Duration) -> Result<SearchResult, EngineError> {
        let started = Instant::now();
        self.send("stop")?;
        self.collect_search(started, timeout)
    }

    fn collect_search(
        &mut self,
        started: Instant,
        timeout: Duration,
    ) -> Result<SearchResult, EngineError> {
        let deadline = started + timeout;
        let mut collector = SearchCollector::new();
        loop {
            let msg = self.recv_until(deadline, "bestmove", timeout)?;
            if let Some(mut r) = collector.feed(msg) {
                r.elapsed = started.elapsed();
                return Ok(r);
            }
        }
    }

    /// The next parsed line before `deadline`.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        timeout: Duration,
    ) -> Result<EngineMessage, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.process.recv_timeout(left) {
            Ok(EngineEvent::Line(line)) => Ok(parse_engine_line(&line)),
            Ok(EngineEvent::Eof | EngineEvent::ReadError(_))
            | Err(RecvTimeoutError::Disconnected) => {
                let status = match self.process.wait_timeout(Duration::from_secs(2)) {
                    Some(s) => super::process::describe_status(s),
                    None => "stdout closed".into(),
                };
                Err(EngineError::Exited {
                    engine: self.name.clone(),
                    waiting_for,
                    status,
                })
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                engine: self.name.clone(),
                waiting_for,
                after: timeout,
            }),
        }
    }

    /// `quit`, then SIGTERM, then SIGKILL (1 s apart); reaps the process.
    pub fn quit(mut self) -> ExitReport {
        self.process.shutdown(Duration::from_secs(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::ScoreBound;

    #[test]
    fn handshake_collects_id_and_options() {
        let mut hs = Handshake::default();
        for line in [
            &b"id name Fake 1"[..],
            b"id author Someone",
            b"option name Hash type spin default 16 min 1 max 1024",
            b"option name UCI_Chess960 type check default false",
            b"garbage",
        ] {
            assert!(!hs.feed(parse_engine_line(line)));
        }
        assert!(hs.feed(parse_engine_line(b"uciok")));
        assert_eq!(hs.name.as_deref(), Some("Fake 1"));
        assert!(hs.chess960());
        assert!(hs.option("hash").is_some());
    }

    #[test]
    fn search_keeps_last_fields_of_first_pv() {
        let mut c = SearchCollector::new();
        for line in [
            &b"info depth 1 score cp 10 nodes 20 pv e2e4"[..],
            b"info depth 2 multipv 2 score cp -5 pv d2d4",
            b"info depth 2 score mate 3 upperbound nodes 90",
            b"info string hello",
        ] {
            assert!(c.feed(parse_engine_line(line)).is_none());
        }
        let r = c
            .feed(parse_engine_line(b"bestmove e2e4 ponder e7e5"))
            .unwrap();
        assert_eq!(r.bestmove.as_deref(), Some("e2e4"));
        assert_eq!(r.ponder.as_deref(), Some("e7e5"));
        assert_eq!(r.score, Some(Score::Mate(3, ScoreBound::Upper)));
        assert_eq!(r.depth, Some(2));
        assert_eq!(r.nodes, Some(90));
        assert_eq!(r.pv, vec!["e2e4"]);
        assert_eq!(r.info_lines, 4);
    }
}
