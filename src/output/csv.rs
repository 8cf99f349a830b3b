//! A table as CSV (RFC 4180): the header line, then one line a row, cells
//! separated by commas; a cell holding a comma, a quote, a line break or
//! blanks at either end is quoted, its quotes doubled. Lines end in CRLF,
//! as the RFC says and spreadsheets expect. Widths and alignments are the
//! text form's business and are ignored here.
//!
//! The worked example of a new format (docs/ARCHITECTURE.md): this file is
//! all it took to write every [`Table`] as CSV.

use super::Table;

/// The CSV text of `table`.
pub fn render(table: &Table) -> String {
    let mut out = String::new();
    if !table.no_header {
        let header: Vec<&str> = table.columns.iter().map(|c| c.header.as_str()).collect();
        line(&mut out, &header, table.columns.len());
    }
    for row in &table.rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        line(&mut out, &cells, table.columns.len());
    }
    out
}

fn line(out: &mut String, cells: &[&str], columns: usize) {
    for i in 0..columns {
        if i > 0 {
            out.push(',');
        }
        let cell = cells.get(i).copied().unwrap_or("");
        let quote = cell.contains([',', '"', '\n', '\r'])
            || cell.starts_with(char::is_whitespace)
            || cell.ends_with(char::is_whitespace);
        if quote {
            out.push('"');
            out.push_str(&cell.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(cell);
        }
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Column;

    #[test]
    fn cells_with_commas_quotes_and_blanks_are_quoted() {
        let mut t = Table::new(vec![Column::left("Engine", 10), Column::right("Points", 7)]);
        t.push(vec!["Stockfish, dev".into(), "2.5".into()]);
        t.push(vec!["say \"hi\"".into(), " 1".into()]);
        t.push(vec!["short".into()]);
        assert_eq!(
            render(&t),
            "Engine,Points\r\n\"Stockfish, dev\",2.5\r\n\"say \"\"hi\"\"\",\" 1\"\r\nshort,\r\n"
        );
    }
}
