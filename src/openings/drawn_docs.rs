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
