//! The fix-up both bag methods end with: a king that is not between its
//! rooks swaps places with the closer rook.

use std::fmt;

use shakmaty::Role;

/// A fix-up made at the end of a draw, for the record. Kept as data (not
/// text) so that drawing stays allocation-light.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Note {
    /// The king stood outside its rooks and swapped with the closer one.
    KingSwapped { king: u8, rook: u8 },
    /// The bishops stood on one colour; the pair starting at `left` swapped.
    PairSwapped { left: u8 },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Note::KingSwapped { king, rook } => write!(
                f,
                "king {} swapped with rook {}",
                square(usize::from(king)),
                square(usize::from(rook))
            ),
            Note::PairSwapped { left } => write!(
                f,
                "bishops on one colour: swapped {} and {}",
                square(usize::from(left)),
                square(usize::from(left) + 1)
            ),
        }
    }
}

/// The fix-ups of one draw, in the order made: at most a bishop-pair swap
/// and a king swap. A fixed array rather than a `Vec`, so that drawing a
/// position allocates nothing for them.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Notes {
    items: [Option<Note>; 2],
}

impl Notes {
    /// Appends `note` when there is one.
    pub fn push(&mut self, note: Option<Note>) {
        let Some(note) = note else { return };
        match self.items.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(note),
            None => debug_assert!(false, "more than two fix-ups in one draw"),
        }
    }

    /// The notes, first made first.
    pub fn iter(&self) -> impl Iterator<Item = &Note> + '_ {
        self.into_iter()
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.items[0].is_none()
    }
}

impl<'a> IntoIterator for &'a Notes {
    type Item = &'a Note;
    type IntoIter = std::iter::Flatten<std::slice::Iter<'a, Option<Note>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter().flatten()
    }
}

/// Swaps the king with the closer rook when it stands outside both rooks.
/// Returns a note for the record when it swapped.
pub fn king_between_rooks(slots: &mut [Option<Role>; 8]) -> Option<Note> {
    let king = slots.iter().position(|&s| s == Some(Role::King))?;
    let left = slots.iter().position(|&s| s == Some(Role::Rook))?;
    let right = slots.iter().rposition(|&s| s == Some(Role::Rook))?;
    let closer = if king < left {
        left
    } else if king > right {
        right
    } else {
        return None;
    };
    slots.swap(king, closer);
    Some(Note::KingSwapped {
        king: king as u8,
        rook: closer as u8,
    })
}

pub(super) fn square(file: usize) -> String {
    format!("{}1", (b'a' + file as u8) as char)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(s: &str) -> [Option<Role>; 8] {
        let mut out = [None; 8];
        for (i, c) in s.chars().enumerate() {
            out[i] = Role::from_char(c.to_ascii_lowercase());
        }
        out
    }

    #[test]
    fn king_left_of_both_rooks_swaps_with_the_left_rook() {
        let mut s = slots("KNRBBRNQ");
        let note = king_between_rooks(&mut s).unwrap();
        assert_eq!(s, slots("RNKBBRNQ"));
        assert_eq!(note.to_string(), "king a1 swapped with rook c1");
    }

    #[test]
    fn king_right_of_both_rooks_swaps_with_the_right_rook() {
        let mut s = slots("RNRBBQNK");
        king_between_rooks(&mut s).unwrap();
        assert_eq!(s, slots("RNKBBQNR"));
    }

    #[test]
    fn king_between_is_left_alone() {
        let mut s = slots("RNBQKBNR");
        assert!(king_between_rooks(&mut s).is_none());
    }
}
