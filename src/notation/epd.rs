//! EPD lines as the opening books of the test frameworks hold them: the
//! four FEN fields, the two move counters when the line is a full FEN,
//! then EPD operations (`opcode operand…;`).
//!
//! Every form the frameworks ship reads: `FEN` (6 fields, fishtest's
//! `FRC_openings.epd`, `DFRC_4852_v1.epd`), 4 fields alone, 4 fields with
//! `hmvc N; fmvn N;` (what `uci960 book` writes, python-chess's
//! `Board.epd(hmvc=…, fmvn=…)`), and a full FEN followed by operations
//! (`… w HFhf - 2 9 ;D1 21`, perft suites). The move counters come from
//! the FEN's own fields, else from `hmvc`/`fmvn`, else `0 1` (what
//! python-chess and cutechess-cli assume); a FEN whose counters disagree
//! with its opcodes is refused, as neither can be trusted.
//!
//! ```
//! use uci960::notation::epd::EpdLine;
//! let line = EpdLine::parse("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - hmvc 3; fmvn 7; c0 \"a;b\";").unwrap();
//! assert_eq!(line.fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 3 7");
//! assert_eq!(line.operand("c0"), Some("a;b"));
//! ```

/// One EPD operation: its opcode and operands (quotes removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOp {
    pub opcode: String,
    pub operands: Vec<String>,
}

/// A line split into its FEN fields, counters and operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdLine {
    /// Board, side to move, castling, en passant.
    pub fields: [String; 4],
    /// The counters written as FEN fields 5 and 6 (a lone field 5 is the
    /// half-move clock).
    pub fen_counters: (Option<u32>, Option<u32>),
    pub ops: Vec<EpdOp>,
}

/// Why a line is not an EPD line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdFault {
    #[error("{0} fields where a FEN has at least 4 (board, side to move, castling, en passant)")]
    FewFields(usize),
    #[error("a quoted operand of '{0}' has no closing '\"'")]
    OpenQuote(String),
    #[error("'{opcode} {operand}': the operand is not a whole number ≥ {min}")]
    BadCounter {
        opcode: &'static str,
        operand: String,
        min: u32,
    },
    #[error("'{opcode}' has {count} operands; it takes one")]
    CounterOperands { opcode: &'static str, count: usize },
    #[error("the FEN's {field} {fen} disagrees with its {opcode} {op}")]
    CountersDisagree {
        field: &'static str,
        fen: u32,
        opcode: &'static str,
        op: u32,
    },
}

impl EpdLine {
    /// Splits one line (no line ending, comments already removed).
    pub fn parse(text: &str) -> Result<EpdLine, EpdFault> {
        let mut rest = text.trim();
        let mut fields: [String; 4] = Default::default();
        for (i, field) in fields.iter_mut().enumerate() {
            let (word, after) = next_word(rest);
            if word.is_empty() {
                return Err(EpdFault::FewFields(i));
            }
            *field = word.to_string();
            rest = after;
        }
        let mut fen_counters = (None, None);
        for slot in [&mut fen_counters.0, &mut fen_counters.1] {
            let (word, after) = next_word(rest);
            match word.parse::<u32>() {
                Ok(n) if !word.starts_with('+') => {
                    *slot = Some(n);
                    rest = after;
                }
                _ => break,
            }
        }
        let ops = parse_ops(rest)?;
        let line = EpdLine {
            fields,
            fen_counters,
            ops,
        };
        line.counters()?;
        Ok(line)
    }

    /// The first operand of `opcode`, if the line has that operation.
    pub fn operand(&self, opcode: &str) -> Option<&str> {
        self.ops
            .iter()
            .find(|op| op.opcode == opcode)
            .and_then(|op| op.operands.first())
            .map(String::as_str)
    }

    /// The half-move clock and full-move number: the FEN's, else the
    /// `hmvc`/`fmvn` opcodes', else 0 and 1.
    pub fn counters(&self) -> Result<(u32, u32), EpdFault> {
        let hmvc = self.counter_op("hmvc", 0)?;
        let fmvn = self.counter_op("fmvn", 1)?;
        let pick = |fen: Option<u32>, op: Option<u32>, field, opcode, default| match (fen, op) {
            (Some(f), Some(o)) if f != o => Err(EpdFault::CountersDisagree {
                field,
                fen: f,
                opcode,
                op: o,
            }),
            (Some(v), _) | (None, Some(v)) => Ok(v),
            (None, None) => Ok(default),
        };
        Ok((
            pick(self.fen_counters.0, hmvc, "half-move clock", "hmvc", 0)?,
            pick(self.fen_counters.1, fmvn, "full-move number", "fmvn", 1)?,
        ))
    }

    fn counter_op(&self, opcode: &'static str, min: u32) -> Result<Option<u32>, EpdFault> {
        let Some(op) = self.ops.iter().find(|op| op.opcode == opcode) else {
            return Ok(None);
        };
        if op.operands.len() != 1 {
            return Err(EpdFault::CounterOperands {
                opcode,
                count: op.operands.len(),
            });
        }
        let text = &op.operands[0];
        match text.parse::<u32>() {
            Ok(n) if n >= min && !text.starts_with('+') => Ok(Some(n)),
            _ => Err(EpdFault::BadCounter {
                opcode,
                operand: crate::excerpt::excerpt(text, 20),
                min,
            }),
        }
    }

    /// The six-field FEN of the line (counters as [`EpdLine::counters`]
    /// says; `0 1` if they do not read, which [`EpdLine::parse`] refuses).
    pub fn fen(&self) -> String {
        let (h, f) = self.counters().unwrap_or((0, 1));
        format!("{} {h} {f}", self.fields.join(" "))
    }
}

/// The next whitespace-separated word and the text after it.
fn next_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    (&text[..end], &text[end..])
}

/// `opcode operand… ;` repeated; quoted operands keep their spaces and
/// semicolons; a last operation without `;` is accepted.
fn parse_ops(text: &str) -> Result<Vec<EpdOp>, EpdFault> {
    let mut ops = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let finish = |words: &mut Vec<String>, ops: &mut Vec<EpdOp>| {
        if !words.is_empty() {
            let opcode = words.remove(0);
            ops.push(EpdOp {
                opcode,
                operands: std::mem::take(words),
            });
        }
    };
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == ';' {
            chars.next();
            finish(&mut words, &mut ops);
        } else if c == '"' {
            chars.next();
            let mut word = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => word.push(c),
                    None => {
                        let opcode = words.first().cloned().unwrap_or_default();
                        return Err(EpdFault::OpenQuote(opcode));
                    }
                }
            }
            words.push(word);
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == ';' || c == '"' {
                    break;
                }
                word.push(c);
                chars.next();
            }
            words.push(word);
        }
    }
    finish(&mut words, &mut ops);
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_the_frameworks_ship_reads() {
        let six =
            EpdLine::parse("1rbbnnkr/p1pp1ppp/8/1p2p3/1P2q3/5N2/P1PP1PPP/QRBB1NKR w KQkq - 0 4")
                .unwrap();
        assert_eq!(six.counters(), Ok((0, 4)));
        assert!(six.ops.is_empty());
        let four = EpdLine::parse("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -").unwrap();
        assert_eq!(four.counters(), Ok((0, 1)));
        let ops = EpdLine::parse(
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR b HFhf - hmvc 5; fmvn 12; ce -31; c0 \"e2e4 e7e5\";",
        )
        .unwrap();
        assert_eq!(ops.counters(), Ok((5, 12)));
        assert_eq!(ops.operand("ce"), Some("-31"));
        assert_eq!(ops.operand("c0"), Some("e2e4 e7e5"));
        let perft = EpdLine::parse(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21",
        )
        .unwrap();
        assert_eq!(perft.counters(), Ok((2, 9)));
        assert_eq!(perft.operand("D1"), Some("21"));
        let last_without_semicolon = EpdLine::parse("8/8/8/8/8/8/8/K6k w - - id \"x y\"").unwrap();
        assert_eq!(last_without_semicolon.operand("id"), Some("x y"));
    }

    #[test]
    fn bad_counters_and_quotes_are_refused_with_the_reason() {
        let base = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -";
        assert_eq!(
            EpdLine::parse(&format!("{base} 0 4 fmvn 5;")),
            Err(EpdFault::CountersDisagree {
                field: "full-move number",
                fen: 4,
                opcode: "fmvn",
                op: 5
            })
        );
        assert!(matches!(
            EpdLine::parse(&format!("{base} fmvn 0;")),
            Err(EpdFault::BadCounter { opcode: "fmvn", .. })
        ));
        assert!(matches!(
            EpdLine::parse(&format!("{base} hmvc x;")),
            Err(EpdFault::BadCounter { opcode: "hmvc", .. })
        ));
        assert_eq!(
            EpdLine::parse(&format!("{base} c0 \"e2e4;")),
            Err(EpdFault::OpenQuote("c0".into()))
        );
        assert_eq!(EpdLine::parse("8/8 w"), Err(EpdFault::FewFields(2)));
        // Agreeing FEN counters and opcodes are fine.
        assert_eq!(
            EpdLine::parse(&format!("{base} 3 7 hmvc 3; fmvn 7;"))
                .unwrap()
                .counters(),
            Ok((3, 7))
        );
    }
}
