//! No position twice: a 64-bit key per position and the set of keys seen.
//!
//! The key is shakmaty's Zobrist hash (board, side to move, castling
//! sides, a legal en-passant square) with the castling rights' rook squares
//! mixed in, because in Chess960 the same board can carry a right for
//! either of two rooks on one wing. Positions that differ only in the move
//! counters are the same position. A 64-bit collision could only drop a
//! distinct position as a duplicate (about 3·10⁻⁸ for a million
//! positions); it can never let a position through twice.

use std::hash::Hasher;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position};

/// The key of a position, as [`unique`](self) describes.
pub fn position_key(pos: &Chess) -> u64 {
    let Zobrist64(z) = pos.zobrist_hash(EnPassantMode::Legal);
    let rooks = pos.castles().castling_rights().0;
    // A multiplicative mix, so that rook squares do not cancel board bits.
    z ^ rooks.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

/// A hasher that passes a Zobrist key through: the keys are random bits
/// already, and SipHash would cost more than the rest of a random line.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Keys of the positions seen so far: an open-addressing table of keys
/// (linear probing, at most half full), so that a lookup is one cache miss
/// in a table of millions; `std`'s set costs two (control bytes, then the
/// slot), and this lookup was a tenth of a random book's time.
#[derive(Default)]
pub struct SeenPositions {
    /// 0 marks an empty slot; the key 0 itself is kept in `zero`.
    slots: Vec<u64>,
    len: usize,
    zero: bool,
}

impl SeenPositions {
    pub fn with_capacity(n: usize) -> SeenPositions {
        SeenPositions {
            slots: vec![0; (2 * n.max(8)).next_power_of_two()],
            len: 0,
            zero: false,
        }
    }

    /// Records the key; true when it is new.
    pub fn insert(&mut self, key: u64) -> bool {
        if key == 0 {
            let new = !self.zero;
            self.zero = true;
            self.len += usize::from(new);
            return new;
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let new = place(&mut self.slots, key);
        self.len += usize::from(new);
        new
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(16);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for key in old.into_iter().filter(|&k| k != 0) {
            place(&mut self.slots, key);
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Puts a non-zero key into a power-of-two table with a free slot; true
/// when it was not there. The keys are random bits, so their low bits
/// serve as the home slot.
fn place(slots: &mut [u64], key: u64) -> bool {
    let mask = slots.len() - 1;
    let mut i = key as usize & mask;
    loop {
        match slots[i] {
            0 => {
                slots[i] = key;
                return true;
            }
            k if k == key => return false,
            _ => i = (i + 1) & mask,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    #[test]
    fn same_position_same_key_whatever_the_counters_or_flavour() {
        let a = parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1").unwrap();
        let b =
            parse_position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 7 30").unwrap();
        assert_eq!(position_key(&a), position_key(&b));
    }

    #[test]
    fn rights_on_different_rooks_of_one_wing_differ() {
        // Same board, White's queenside right on the a-rook or the b-rook.
        let a = parse_position("4k3/8/8/8/8/8/8/RR2K3 w A - 0 1").unwrap();
        let b = parse_position("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1").unwrap();
        assert_ne!(position_key(&a), position_key(&b));
        let none = parse_position("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1").unwrap();
        assert_ne!(position_key(&a), position_key(&none));
    }

    #[test]
    fn side_to_move_and_en_passant_count() {
        let w = parse_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let b = parse_position("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        assert_ne!(position_key(&w), position_key(&b));
        let mut seen = SeenPositions::default();
        assert!(seen.insert(position_key(&w)));
        assert!(!seen.insert(position_key(&w)));
        assert!(seen.insert(position_key(&b)));
        assert_eq!(seen.len(), 2);
    }

    #[test]
    fn the_table_grows_and_forgets_nothing() {
        let mut seen = SeenPositions::with_capacity(4);
        let keys: Vec<u64> = (0..50_000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & !0xF)
            .collect();
        for &k in &keys {
            assert!(seen.insert(k), "{k}");
        }
        assert!(seen.insert(1) && !seen.insert(1));
        for &k in &keys {
            assert!(!seen.insert(k), "{k} forgotten");
        }
        assert_eq!(seen.len(), 50_001);
    }
}
