//! A drawn position's documents (`uci960 positions`), beside its JSON
//! object ([`Drawn::to_json`]): an empty PGN game for the one PGN writer,
//! the diagram card for people, and a table row (CSV) with the same
//! fields as the JSON object. The command chooses one and a destination;
//! the formats are the output room's.

use std::fmt::Write as _;

use super::source::Drawn;
use crate::game::pgn::PgnGame;
use crate::notation::fen::FenFlavour;
use crate::output::board::diagram;
use crate::output::{Column, Table};

impl Drawn {
    /// An empty game from the position: the roster (`Event` names the
    /// method and `index`, counted from 1; `Round` is `index`), and the
    /// writer adds Variant, SetUp, FEN and PlyCount.
    pub fn pgn_game(&self, index: usize) -> PgnGame<'_> {
        let tags = [
            ("Event", format!("uci960 {} position {index}", self.method)),
            ("Date", "????.??.??".to_string()),
            ("Round", index.to_string()),
        ];
        PgnGame {
            tags: tags.map(|(n, v)| (n.to_string(), v)).to_vec(),
            initial: &self.position,
            moves: &[],
            book_plies: 0,
            infos: &[],
            result: "*",
            final_comment: None,
        }
    }

    /// The card for people: a title line (`index`, SP, method), the
    /// diagram, both FENs and the record, then a blank line.
    pub fn board(&self, index: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "#{index}  SP {}  method {}",
            self.sp_label(),
            self.method
        );
        out.push_str(&diagram(&self.position));
        let _ = writeln!(out, "X-FEN:    {}", self.fen(FenFlavour::XFen));
        let _ = writeln!(out, "Shredder: {}", self.fen(FenFlavour::Shredder));
        let _ = writeln!(out, "record:   {}\n", self.record);
        out
    }

    /// The columns of [`Drawn::row`], named as the JSON object's keys.
    pub fn table() -> Table {
        Table::new(
            ["sp", "black_sp", "fen", "shredder_fen", "method", "record"]
                .map(|h| Column::left(h, 0))
                .to_vec(),
        )
    }

    /// The position as a row of [`Drawn::table`]: the SPs (empty for a
    /// book position that is no start), both FENs, the method and its
    /// record as text.
    pub fn row(&self) -> Vec<String> {
        let (sp, black_sp) = match self.start {
            Some(s) => (s.white.sp().to_string(), s.black.sp().to_string()),
            None => (String::new(), String::new()),
        };
        vec![
            sp,
            black_sp,
            self.fen(FenFlavour::XFen),
            self.fen(FenFlavour::Shredder),
            self.method.to_string(),
            self.record.to_string(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::PositionSource;

    /// The CSV of a drawn position: the JSON object's fields, the record's
    /// commas quoted by the output room.
    #[test]
    fn a_row_has_the_json_fields_and_renders_as_csv() {
        let mut source = PositionSource::new(&"sp:518,0".parse().unwrap(), 0).unwrap();
        let mut table = Drawn::table();
        table.push(source.next_position().row());
        let drawn = source.next_position();
        table.push(drawn.row());
        let json = drawn.to_json();
        assert_eq!(drawn.row()[2], json["fen"].as_str().unwrap());
        assert_eq!(drawn.row()[3], json["shredder_fen"].as_str().unwrap());
        let csv = crate::output::csv::render(&table);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], "sp,black_sp,fen,shredder_fen,method,record");
        assert!(
            lines[1]
                .starts_with("518,518,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,"),
            "{csv}"
        );
        assert!(lines[2].starts_with("0,0,bbqnnrkr/"), "{csv}");
        assert_eq!(lines.len(), 4, "{csv}");

        let dfrc = PositionSource::new(&"dfrc".parse().unwrap(), 1)
            .unwrap()
            .next_position();
        let record = dfrc.record.to_string();
        assert!(record.contains(','), "{record}");
        let mut table = Drawn::table();
        table.no_header = true;
        table.push(dfrc.row());
        assert!(
            crate::output::csv::render(&table).ends_with(&format!(",dfrc,\"{record}\"\r\n")),
            "{record}"
        );
    }
}
