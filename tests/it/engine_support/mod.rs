//! A UCI client for driving `uci960 engine` as a child process in tests,
//! plus the arbitration helpers the game tests share (all chess truth from
//! shakmaty). Every read has a timeout, so no test can hang.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

use crate::common;

/// Long enough for any single answer on a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(60);

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    /// Starts `uci960 engine` and completes the handshake.
    pub fn start() -> Engine {
        let mut child = Command::new(common::uci960())
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start uci960 engine");
        let stdin = child.stdin.take().expect("stdin");
        let lines = common::line_reader(child.stdout.take().expect("stdout"));
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        engine.send("uci");
        engine.until(|l| l == "uciok");
        engine
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to engine");
        self.stdin.flush().expect("flush to engine");
    }

    /// Writes raw bytes (for input that isn't UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to engine");
        self.stdin.flush().expect("flush to engine");
    }

    /// The next line with its arrival time, or `None` after `timeout`.
    pub fn next_line(&self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("engine closed its output"),
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them.
    pub fn until(&mut self, mut done: impl FnMut(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((_, line)) = self.next_line(left) else {
                panic!("engine did not answer in {PATIENCE:?}; lines so far: {seen:?}");
            };
            let finished = done(&line);
            seen.push(line);
            if finished {
                return seen;
            }
        }
    }

    /// `isready` round trip: everything before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `go ...` and returns the `bestmove` token and all lines.
    pub fn go(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        let lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .expect("bestmove token")
            .to_string();
        (best, lines)
    }

    pub fn set_chess960(&mut self, on: bool) {
        self.send(&format!("setoption name UCI_Chess960 value {on}"));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks a `bestmove` token against shakmaty: legal in `pos`, and written
/// exactly as `mode` writes it.
pub fn checked_move(pos: &Chess, token: &str, mode: CastlingMode) -> Move {
    let uci: UciMove = token
        .parse()
        .unwrap_or_else(|_| panic!("'{token}' is not UCI"));
    let m = uci
        .to_move(pos)
        .unwrap_or_else(|_| panic!("'{token}' is illegal in {}", fen(pos)));
    assert_eq!(
        UciMove::from_move(m, mode).to_string(),
        token,
        "'{token}' is not in {mode:?} notation in {}",
        fen(pos)
    );
    m
}

pub fn fen(pos: &Chess) -> String {
    uci960::notation::fen::position_fen(pos, uci960::notation::fen::FenFlavour::Shredder)
}

/// How a game ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    WhiteWins,
    BlackWins,
    Draw,
}

/// A game under arbitration: positions, moves in UCI, repetition counts.
pub struct Game {
    pub start: Chess,
    pub pos: Chess,
    pub moves: Vec<String>,
    hashes: Vec<u64>,
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl Game {
    pub fn new(start: Chess) -> Game {
        Game {
            hashes: vec![hash(&start)],
            pos: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The `position` command for the game so far (Shredder-FEN, KxR moves).
    pub fn position_command(&self) -> String {
        let mut cmd = format!("position fen {}", fen(&self.start));
        if !self.moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&self.moves.join(" "));
        }
        cmd
    }

    pub fn play(&mut self, m: Move) {
        self.moves
            .push(UciMove::from_move(m, CastlingMode::Chess960).to_string());
        self.pos.play_unchecked(m);
        self.hashes.push(hash(&self.pos));
    }

    /// The result if the game is over by the rules (mate, stalemate,
    /// insufficient material, fifty moves, threefold repetition).
    pub fn over(&self) -> Option<Result> {
        if self.pos.is_checkmate() {
            return Some(if self.pos.turn().is_white() {
                Result::BlackWins
            } else {
                Result::WhiteWins
            });
        }
        let now = hash(&self.pos);
        let repeats = self.hashes.iter().filter(|&&h| h == now).count();
        if self.pos.is_stalemate()
            || self.pos.is_insufficient_material()
            || self.pos.halfmoves() >= 100
            || repeats >= 3
        {
            return Some(Result::Draw);
        }
        None
    }

    /// Adjudication of an unfinished game: the side ahead by at least
    /// `margin` centipawns of plain material (P1 N3 B3 R5 Q9) wins.
    pub fn adjudicate(&self, margin: i32) -> Result {
        let mut balance = 0;
        for (_, piece) in self.pos.board().iter() {
            let v = match piece.role {
                Role::Pawn => 100,
                Role::Knight | Role::Bishop => 300,
                Role::Rook => 500,
                Role::Queen => 900,
                Role::King => 0,
            };
            balance += if piece.color.is_white() { v } else { -v };
        }
        if balance >= margin {
            Result::WhiteWins
        } else if balance <= -margin {
            Result::BlackWins
        } else {
            Result::Draw
        }
    }
}

/// A random Chess960 start position from `rng`.
pub fn random_start(rng: &mut rand_chacha::ChaCha8Rng) -> Chess {
    let sp = uci960::start::method::procedure::uniform_below(rng, 960);
    uci960::start::StartPosition::from_sp(sp)
        .expect("SP below 960")
        .to_chess()
}
