//! The UCI client side: handshake, options, `isready`, positions and
//! searches against an [`EngineProcess`].
//!
//! The protocol state lives in small sans-IO collectors ([`Handshake`],
//! [`SearchCollector`]) fed with lines; [`UciEngine`] only moves lines
//! between them and the process, with timeouts. A search reads every line
//! into one reused buffer and parses only what the result needs (see
//! [`SearchCollector`]): the match runner's own CPU per move is dominated by
//! this loop.

use std::io;
use std::time::{Duration, Instant};

use super::command::EngineCommand;
use super::process::{EngineEvent, EngineProcess, ExitReport, RecvError, SpawnError, SpawnOptions};
use crate::uci::{
    BestMove, EngineMessage, GoParams, Info, OptionDecl, OptionKind, PositionCommand, Score,
    parse_engine_line, token_spans,
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
    /// uci960 itself ran out of descriptors, threads or memory while
    /// talking to the engine: not the engine's fault (issue 21).
    #[error("uci960 is out of resources while talking to engine '{engine}': {reason}")]
    Resources { engine: String, reason: String },
    /// A termination signal arrived while waiting for the engine.
    #[error(
        "interrupted by signal {signal} while waiting for {waiting_for} from engine '{engine}'"
    )]
    Interrupted {
        engine: String,
        waiting_for: &'static str,
        signal: i32,
    },
}

impl EngineError {
    /// The failure is uci960's own lack of resources (see
    /// [`crate::platform::is_out_of_resources`]), at the start or while
    /// playing: the message, for a run that must end without charging the
    /// engine.
    pub fn runner_failure(&self) -> Option<String> {
        match self {
            EngineError::Spawn(SpawnError::Resources { .. }) | EngineError::Resources { .. } => {
                Some(self.to_string())
            }
            _ => None,
        }
    }

    /// A failed write to `engine`, as a resource failure of ours when it
    /// is one.
    fn write(engine: &str, source: io::Error) -> EngineError {
        if crate::platform::is_out_of_resources(&source) {
            EngineError::Resources {
                engine: engine.to_string(),
                reason: format!("cannot write to it: {source}"),
            }
        } else {
            EngineError::Write {
                engine: engine.to_string(),
                source,
            }
        }
    }
}

/// An engine's `id name` as every command shows it (standings, reports,
/// PGN, JSON, errors): a control character in it (a `\r`, an escape
/// sequence that would clear the user's terminal) becomes a space.
fn printable(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Every line an engine writes, before anything reads it (issue 21: an
/// escape sequence in a `bestmove` was printed by `castling-test` and kept
/// in `--json` and PGN comments): control characters — C0 but the tab,
/// DEL, and C1 (`U+0080`..`U+009F`, two bytes in UTF-8; `U+009B` starts
/// an escape sequence on some terminals) — become spaces, so no engine
/// text reaches a terminal, report, JSON or PGN with one. A `\r` at the
/// end is kept (the line splitter's business); UCI has no use for any of
/// them, and a space reads as the separator it is.
fn defuse_controls(line: &mut [u8]) {
    let end = match line.last() {
        Some(b'\r') => line.len() - 1,
        _ => line.len(),
    };
    let mut i = 0;
    while i < end {
        let b = line[i];
        if (b < 0x20 && b != b'\t') || b == 0x7f {
            line[i] = b' ';
        } else if b == 0xc2 && i + 1 < end && (0x80..0xa0).contains(&line[i + 1]) {
            line[i] = b' ';
            line[i + 1] = b' ';
            i += 1;
        }
        i += 1;
    }
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
            EngineMessage::IdName(n) => self.name = Some(printable(&n)),
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
    /// `wdl W D L` (per mille, side to move), when the engine shows it.
    pub wdl: Option<(u32, u32, u32)>,
    /// Number of `info` lines seen.
    pub info_lines: usize,
    /// From writing `go` to reading `bestmove` (monotonic clock).
    pub elapsed: Duration,
}

/// Collects `info` lines until `bestmove` (sans-IO).
///
/// Raw lines ([`SearchCollector::feed_line`]) are parsed lazily: an `info`
/// line is only kept as bytes, and at `bestmove` the kept lines are parsed
/// from the newest back until every field has been found (with Stockfish,
/// the last line alone). The match runner reads every line an engine writes
/// but needs only the final score and depth, so parsing each `info` line as
/// it arrives was a large part of its own CPU. The result is the same as
/// feeding every parsed line to [`SearchCollector::feed`]. At most
/// [`PENDING_MAX`] lines are kept; beyond that they are folded in, in order.
#[derive(Clone, Debug, Default)]
pub struct SearchCollector {
    result: SearchResult,
    /// Raw `info` lines not parsed yet, back to back, oldest first (all
    /// newer than what `result` holds); one buffer reused from search to
    /// search.
    pending: Vec<u8>,
    /// Where each kept line ends in `pending`.
    pending_ends: Vec<usize>,
}

/// How many raw `info` lines a [`SearchCollector`] keeps before parsing
/// them (bounds its memory on long searches).
pub const PENDING_MAX: usize = 64;

impl SearchCollector {
    pub fn new() -> SearchCollector {
        SearchCollector::default()
    }

    /// Forgets the search so far (keeps the buffers' memory).
    pub fn clear(&mut self) {
        self.result = SearchResult::default();
        self.pending.clear();
        self.pending_ends.clear();
    }

    /// The kept lines, oldest first.
    fn pending_lines(&self) -> impl DoubleEndedIterator<Item = &[u8]> {
        let ends = &self.pending_ends;
        (0..ends.len()).map(move |i| {
            let start = if i == 0 { 0 } else { ends[i - 1] };
            &self.pending[start..ends[i]]
        })
    }

    /// Feeds one message; returns the result at `bestmove` (with `elapsed`
    /// left zero for the caller to fill in).
    pub fn feed(&mut self, msg: EngineMessage) -> Option<SearchResult> {
        match msg {
            EngineMessage::Info(info) => {
                self.fold_pending();
                self.result.info_lines += 1;
                apply_info(&mut self.result, info);
                None
            }
            EngineMessage::BestMove(BestMove { mv, ponder }) => {
                self.resolve_pending();
                let mut r = std::mem::take(&mut self.result);
                r.bestmove = mv;
                r.ponder = ponder;
                Some(r)
            }
            _ => None,
        }
    }

    /// Feeds one raw line (with or without its line ending): an `info` line
    /// is kept unparsed, `bestmove` ends the search, anything else is
    /// ignored, as [`SearchCollector::feed`] would.
    pub fn feed_line(&mut self, line: &[u8]) -> Option<SearchResult> {
        let first = token_spans(line).next().unwrap_or_default();
        match &line[first] {
            b"info" => {
                self.result.info_lines += 1;
                if self.pending_ends.len() >= PENDING_MAX {
                    self.fold_pending();
                }
                self.pending.extend_from_slice(line);
                self.pending_ends.push(self.pending.len());
                None
            }
            b"bestmove" => self.feed(parse_engine_line(line)),
            _ => None,
        }
    }

    /// Parses the kept lines in order into `result`.
    fn fold_pending(&mut self) {
        let mut r = std::mem::take(&mut self.result);
        for line in self.pending_lines() {
            if let EngineMessage::Info(info) = parse_engine_line(line) {
                apply_info(&mut r, info);
            }
        }
        self.result = r;
        self.pending.clear();
        self.pending_ends.clear();
    }

    /// Parses the kept lines newest first, each field from the newest line
    /// carrying it, stopping once all are found; older values stay where
    /// no kept line has the field.
    fn resolve_pending(&mut self) {
        // The newest value of each field, gathered as one `Info` and then
        // applied like any newer line.
        let mut late = Info::default();
        for line in self.pending_lines().rev() {
            let EngineMessage::Info(info) = parse_engine_line(line) else {
                continue;
            };
            if info.multipv.unwrap_or(1) != 1 {
                continue;
            }
            late.score = late.score.or(info.score);
            late.depth = late.depth.or(info.depth);
            late.seldepth = late.seldepth.or(info.seldepth);
            late.nodes = late.nodes.or(info.nodes);
            late.wdl = late.wdl.or(info.wdl);
            if late.pv.is_empty() {
                late.pv = info.pv;
            }
            if late.score.is_some()
                && late.depth.is_some()
                && late.seldepth.is_some()
                && late.nodes.is_some()
                && !late.pv.is_empty()
            {
                break;
            }
        }
        self.pending.clear();
        self.pending_ends.clear();
        apply_info(&mut self.result, late);
    }
}

/// One parsed `info` line into the result: each field it carries replaces
/// the older value (first PV line only).
fn apply_info(r: &mut SearchResult, info: Info) {
    if info.multipv.unwrap_or(1) != 1 {
        return;
    }
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
    if info.wdl.is_some() {
        r.wdl = info.wdl;
    }
    if !info.pv.is_empty() {
        r.pv = info.pv;
    }
}

/// A UCI engine after its handshake.
pub struct UciEngine {
    process: EngineProcess,
    handshake: Handshake,
    name: String,
    /// Reused from search to search: no allocation per line read.
    collector: SearchCollector,
    line: Vec<u8>,
}

impl UciEngine {
    /// Spawns the engine (stderr discarded, killed by the kernel if uci960
    /// dies, even by SIGKILL: issue 21) and runs the handshake. Every
    /// thread that starts an engine this way (the match's workers, the
    /// book's, the main thread) ends its engines before it ends.
    pub fn start(cmd: &EngineCommand, timeout: Duration) -> Result<UciEngine, EngineError> {
        let opts = SpawnOptions {
            stderr: super::process::StderrMode::Null,
            die_with_parent: true,
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
            collector: SearchCollector::new(),
            line: Vec::with_capacity(256),
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
            .map_err(|source| EngineError::write(&self.name, source))
    }

    /// `setoption name N value V`.
    /// A name or value with a line break is refused, never sent.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let set = crate::uci::SetOption::new(name, value).map_err(|e| EngineError::Write {
            engine: self.name.clone(),
            source: io::Error::new(io::ErrorKind::InvalidInput, e),
        })?;
        self.send(&set.to_string())
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

    /// A `position` line and a `go` line (both given without `\n`) in one
    /// write, then collects until `bestmove`, like [`UciEngine::position`]
    /// followed by [`UciEngine::go`]. One write wakes the engine once; the
    /// match runner sends this every move.
    pub fn position_and_go(
        &mut self,
        position: &str,
        go: &str,
        timeout: Duration,
    ) -> Result<SearchResult, EngineError> {
        let started = Instant::now();
        self.process
            .send_lines(&[position.as_bytes(), go.as_bytes()])
            .map_err(|source| EngineError::write(&self.name, source))?;
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
        self.collector.clear();
        let mut line = std::mem::take(&mut self.line);
        let result = loop {
            line.clear();
            if let Err(e) = self.recv_line_into(deadline, "bestmove", timeout, &mut line) {
                break Err(e);
            }
            if let Some(mut r) = self.collector.feed_line(&line) {
                r.elapsed = started.elapsed();
                break Ok(r);
            }
        };
        self.line = line;
        result
    }

    /// The next parsed line before `deadline`.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        timeout: Duration,
    ) -> Result<EngineMessage, EngineError> {
        self.recv_line_until(deadline, waiting_for, timeout)
            .map(|line| parse_engine_line(&line))
    }

    /// The next raw line (without its `\n`) before `deadline`.
    pub fn recv_line_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        timeout: Duration,
    ) -> Result<Vec<u8>, EngineError> {
        let mut line = Vec::new();
        self.recv_line_into(deadline, waiting_for, timeout, &mut line)?;
        Ok(line)
    }

    /// The next raw line before `deadline`, appended to `out` (lines past
    /// the length limit are skipped).
    fn recv_line_into(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        timeout: Duration,
        out: &mut Vec<u8>,
    ) -> Result<(), EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let start = out.len();
            return match self.process.recv_into(left, out) {
                Ok(EngineEvent::Line(_)) => {
                    defuse_controls(&mut out[start..]);
                    Ok(())
                }
                Ok(EngineEvent::LineTooLong { .. }) => continue,
                Ok(EngineEvent::OutOfResources(reason)) => Err(EngineError::Resources {
                    engine: self.name.clone(),
                    reason: format!("cannot read from it: {reason}"),
                }),
                Ok(EngineEvent::Eof | EngineEvent::ReadError(_)) | Err(RecvError::Disconnected) => {
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
                Err(RecvError::Timeout) => Err(EngineError::Timeout {
                    engine: self.name.clone(),
                    waiting_for,
                    after: timeout,
                }),
                Err(RecvError::Interrupted(signal)) => Err(EngineError::Interrupted {
                    engine: self.name.clone(),
                    waiting_for,
                    signal,
                }),
            };
        }
    }

    /// `quit`, then SIGTERM, then SIGKILL (1 s apart, 100 ms after a
    /// termination signal so the command still ends within a second);
    /// reaps the process and its group.
    pub fn quit(mut self) -> ExitReport {
        let grace = if crate::platform::interrupt::received().is_some() {
            Duration::from_millis(100)
        } else {
            Duration::from_secs(1)
        };
        self.process.shutdown(grace)
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
    fn control_characters_in_engine_lines_become_spaces() {
        let mut line = b"bestmove e2e4\x1b[2J \xc2\x9b31m\x07ponder\te7e5\r".to_vec();
        defuse_controls(&mut line);
        assert_eq!(line, b"bestmove e2e4 [2J   31m ponder\te7e5\r".to_vec());
        let mut text = "é ü \u{a0}".as_bytes().to_vec();
        defuse_controls(&mut text);
        assert_eq!(text, "é ü \u{a0}".as_bytes(), "other UTF-8 untouched");
    }

    #[test]
    fn control_characters_in_id_name_become_spaces() {
        let mut hs = Handshake::default();
        hs.feed(parse_engine_line(
            b"id name Evil\rname\x1b[2J \"q\" \\ \r\n",
        ));
        assert_eq!(hs.name.as_deref(), Some("Evil name [2J \"q\" \\"));
    }

    /// Raw lines fed lazily give what parsing each line at once gives.
    #[test]
    fn lazy_raw_lines_match_eager_parsing() {
        let vocab: [&[u8]; 10] = [
            b"info depth 3 seldepth 4 multipv 1 score cp 12 nodes 100 nps 5 pv e2e4 e7e5",
            b"info depth 4 multipv 2 score cp -40 nodes 130 pv d2d4",
            b"info depth 5 currmove g1f3 currmovenumber 2",
            b"info string NNUE evaluation using nn.nnue",
            b"info nodes 777 time 3",
            b"info depth 6 score mate -2 lowerbound\r",
            b"info seldepth 9 pv b1c3 g8f6 c3d5",
            b"readyok",
            b"  info   depth 7 score cp 5 upperbound",
            b"infodepth 8",
        ];
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize % n
        };
        for round in 0..300 {
            // Long enough, every 10th round, to fold lines beyond PENDING_MAX.
            let len = if round % 10 == 0 {
                150 + next(60)
            } else {
                next(12)
            };
            let lines: Vec<&[u8]> = (0..len).map(|_| vocab[next(vocab.len())]).collect();
            let mut eager = SearchCollector::new();
            let mut lazy = SearchCollector::new();
            for line in &lines {
                assert!(eager.feed(parse_engine_line(line)).is_none());
                assert!(lazy.feed_line(line).is_none());
            }
            let end = b"bestmove e2e4 ponder e7e5";
            let e = eager.feed(parse_engine_line(end)).unwrap();
            let l = lazy.feed_line(end).unwrap();
            assert_eq!(e, l, "{lines:?}");
            assert_eq!(l.bestmove.as_deref(), Some("e2e4"));
            // The collector is ready for the next search.
            assert!(lazy.pending.is_empty());
            assert_eq!(lazy.feed_line(b"bestmove a2a3").unwrap().info_lines, 0);
        }
    }

    #[test]
    fn lazy_lines_use_the_newest_value_of_each_field() {
        let mut c = SearchCollector::new();
        for line in [
            &b"info depth 9 seldepth 12 score cp 30 nodes 900 pv g1f3 d7d5"[..],
            b"info depth 10 multipv 2 score cp -99 nodes 999 pv a2a3",
            b"info depth 10 currmove e2e4 currmovenumber 1",
            b"info nodes 1000 time 7",
        ] {
            assert!(c.feed_line(line).is_none());
        }
        let r = c.feed_line(b"bestmove g1f3\r").unwrap();
        assert_eq!(r.bestmove.as_deref(), Some("g1f3"));
        assert_eq!(r.ponder, None);
        assert_eq!(r.depth, Some(10));
        assert_eq!(r.seldepth, Some(12));
        assert_eq!(r.nodes, Some(1000));
        assert_eq!(r.score, Some(Score::Cp(30, ScoreBound::Exact)));
        assert_eq!(r.pv, vec!["g1f3", "d7d5"]);
        assert_eq!(r.info_lines, 4);
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
