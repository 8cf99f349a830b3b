//! `uci960 engine` as a child process in tests (on the shared test client),
//! plus the helpers the game tests share (all chess truth from shakmaty).
#![allow(dead_code)]

use std::ops::{Deref, DerefMut};
use std::process::Command;

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

use crate::common::{self, Client, OnDrop};

/// `uci960 engine` driven by the shared test client ([`common::Client`]);
/// dropping it sends `quit`.
pub struct Engine(Client);

impl Engine {
    /// Starts `uci960 engine` and completes the handshake.
    pub fn start() -> Engine {
        let mut cmd = Command::new(common::uci960());
        cmd.arg("engine");
        let mut engine = Engine(Client::spawn(cmd, false, OnDrop::Quit));
        engine.handshake();
        engine
    }
}

impl Deref for Engine {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.0
    }
}

impl DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut Client {
        &mut self.0
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
