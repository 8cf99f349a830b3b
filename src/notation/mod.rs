//! Notation that differs between Chess960 consumers: the FEN castling field
//! (X-FEN or Shredder-FEN) and, for the protocol layers, castling moves.

pub mod epd;
pub mod fen;

pub mod castling;
