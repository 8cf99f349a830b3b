//! `uci960 engine` as a child process in tests (on the shared test client),
//! plus what the game tests share: games under the real arbiter
//! (`uci960::game::arbiter`), move checks by shakmaty.
#![allow(dead_code)]

use std::ops::{Deref, DerefMut};
use std::process::Command;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Role};
use uci960::game::{CastlingPolicy, Game, GameResult};

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

/// How a game ended: the arbiter's result type.
pub type Result = GameResult;

/// A game under the real arbiter (`uci960::game::arbiter`), strict KxR
/// castling.
pub fn new_game(start: Chess) -> Game {
    Game::new(start, CastlingPolicy::Strict)
}

/// What the game tests need beyond the arbiter.
pub trait GameExt {
    /// The `position` command for the game so far (Shredder-FEN, KxR moves).
    fn position_command(&self) -> String;
    /// The result if the rules end the game (the arbiter's verdict).
    fn over(&self) -> Option<Result>;
    /// Adjudication of an unfinished game: the side ahead by at least
    /// `margin` centipawns of plain material (P1 N3 B3 R5 Q9) wins.
    fn adjudicate(&self, margin: i32) -> Result;
}

impl GameExt for Game {
    fn position_command(&self) -> String {
        let mut cmd = format!("position fen {}", fen(self.initial()));
        for (i, m) in self.uci_moves().enumerate() {
            cmd.push_str(if i == 0 { " moves " } else { " " });
            cmd.push_str(&m.to_string());
        }
        cmd
    }

    fn over(&self) -> Option<Result> {
        self.rules_end().map(|o| o.result)
    }

    fn adjudicate(&self, margin: i32) -> Result {
        let mut balance = 0;
        for (_, piece) in self.position().board().iter() {
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
            GameResult::WhiteWins
        } else if balance <= -margin {
            GameResult::BlackWins
        } else {
            GameResult::Draw
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
