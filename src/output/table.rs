//! The table document and its aligned-text form: every table a command
//! prints (standings, the castling report, engines side by side, a
//! method's probability classes).
//!
//! A column has a header, an alignment, a width and the gap written before
//! it. Cells are padded to the width (counted in characters) and never cut:
//! a longer cell pushes the rest of its row right, as `format!`'s padding
//! does, so a long engine name never loses letters. A width of 0 writes
//! the cell as it is (a last column of notes, without trailing blanks).
//! The application formats its numbers into cells (`12.5`, `FAIL 3/114`):
//! precision is a matter of meaning, layout is this file's.

/// How a cell sits in its column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Align {
    Left,
    Right,
}

/// One column: header, alignment, width, and the gap before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub header: String,
    pub align: Align,
    /// Characters a cell is padded to (0: not padded).
    pub width: usize,
    /// Written before the cell (before the first one too: an indent).
    pub gap: &'static str,
}

impl Column {
    /// A left-aligned column after one blank.
    pub fn left(header: impl Into<String>, width: usize) -> Column {
        Column {
            header: header.into(),
            align: Align::Left,
            width,
            gap: " ",
        }
    }

    /// A right-aligned column after one blank.
    pub fn right(header: impl Into<String>, width: usize) -> Column {
        Column {
            align: Align::Right,
            ..Column::left(header, width)
        }
    }

    /// The same column after `gap` instead of one blank.
    pub fn after(mut self, gap: &'static str) -> Column {
        self.gap = gap;
        self
    }
}

/// A table: columns and rows of cells (a row shorter than the columns
/// leaves the rest empty; extra cells are ignored).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<String>>,
    /// Whether the header line is written (default true).
    pub no_header: bool,
}

impl Table {
    /// A table with these columns, the first without a gap before it.
    pub fn new(mut columns: Vec<Column>) -> Table {
        if let Some(first) = columns.first_mut() {
            first.gap = "";
        }
        Table {
            columns,
            rows: Vec::new(),
            no_header: false,
        }
    }

    /// The same table with every column's gap as given (an indent first).
    pub fn with_gaps(mut self, first: &'static str, others: &'static str) -> Table {
        for (i, c) in self.columns.iter_mut().enumerate() {
            c.gap = if i == 0 { first } else { others };
        }
        self
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// The aligned text, one line a row (header first).
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// Appends the aligned text to `out`.
    pub fn write(&self, out: &mut String) {
        if !self.no_header {
            let header: Vec<&str> = self.columns.iter().map(|c| c.header.as_str()).collect();
            self.line(out, &header);
        }
        for row in &self.rows {
            let cells: Vec<&str> = row.iter().map(String::as_str).collect();
            self.line(out, &cells);
        }
    }

    fn line(&self, out: &mut String, cells: &[&str]) {
        for (i, c) in self.columns.iter().enumerate() {
            let cell = cells.get(i).copied().unwrap_or("");
            out.push_str(c.gap);
            let pad = c.width.saturating_sub(cell.chars().count());
            if c.align == Align::Right {
                out.extend(std::iter::repeat_n(' ', pad));
            }
            out.push_str(cell);
            if c.align == Align::Left {
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_columns() -> Table {
        let mut t = Table::new(vec![Column::left("name", 6), Column::right("score", 7)]);
        t.push(vec!["Alpha".into(), "1.5".into()]);
        t.push(vec!["Ω".into(), "12".into()]);
        t
    }

    #[test]
    fn cells_are_padded_by_characters_left_and_right() {
        assert_eq!(
            two_columns().render(),
            "name     score\nAlpha      1.5\nΩ           12\n"
        );
    }

    #[test]
    fn a_long_cell_is_never_cut_and_width_zero_is_not_padded() {
        let mut t = Table::new(vec![
            Column::left("a", 2),
            Column::left("notes", 0).after("  "),
        ]);
        t.push(vec!["toolong".into(), "x".into()]);
        t.push(vec!["b".into()]);
        assert_eq!(t.render(), "a   notes\ntoolong  x\nb   \n");
    }

    #[test]
    fn gaps_make_an_indent_and_the_header_can_be_left_out() {
        let mut t = two_columns().with_gaps("  ", " | ");
        t.no_header = true;
        assert_eq!(t.render(), "  Alpha  |     1.5\n  Ω      |      12\n");
    }
}
