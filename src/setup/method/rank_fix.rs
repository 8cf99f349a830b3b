//! The fix-up both bag methods end with: a king that is not between its
//! rooks swaps places with the closer rook.

use shakmaty::Role;

/// Swaps the king with the closer rook when it stands outside both rooks.
/// Returns a note for the record when it swapped.
pub fn king_between_rooks(slots: &mut [Option<Role>; 8]) -> Option<String> {
    let king = slots.iter().position(|&s| s == Some(Role::King))?;
    let rooks: Vec<usize> = (0..8).filter(|&i| slots[i] == Some(Role::Rook)).collect();
    let (&left, &right) = (rooks.first()?, rooks.last()?);
    let closer = if king < left {
        left
    } else if king > right {
        right
    } else {
        return None;
    };
    slots.swap(king, closer);
    Some(format!(
        "king {} swapped with rook {}",
        square(king),
        square(closer)
    ))
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
        assert_eq!(note, "king a1 swapped with rook c1");
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
