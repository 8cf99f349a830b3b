//! A position for people: an ASCII diagram, rank 8 first, with the file
//! letters under it (`positions --format board`, `show`).

use std::fmt::Write as _;

use shakmaty::{Chess, Color, File, Position, Rank, Square};

/// The diagram of `pos`: pieces by their FEN letters, `.` for an empty
/// square.
pub fn diagram(pos: &Chess) -> String {
    let mut out = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        let _ = write!(out, "{} ", rank.char());
        for file in File::ALL {
            let c = pos
                .board()
                .piece_at(Square::from_coords(file, rank))
                .map(|p| p.char())
                .unwrap_or('.');
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h\n");
    out
}

/// `White` or `Black`.
pub fn color_name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_start_reads_rank_eight_first() {
        let text = diagram(&Chess::default());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9);
        assert_eq!(lines[0], "8  r n b q k b n r");
        assert_eq!(lines[4], "4  . . . . . . . .");
        assert_eq!(lines[7], "1  R N B Q K B N R");
        assert_eq!(lines[8], "   a b c d e f g h");
        assert_eq!(color_name(Color::Black), "Black");
    }
}
