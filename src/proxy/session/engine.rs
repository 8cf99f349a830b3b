//! The engine side: what the engine said in its handshake (name, whether
//! it declares `UCI_Chess960`), the mode the proxy put it in, what it owes
//! an answer to, and the check of each `bestmove` against the legal moves
//! of the position searched.

use std::ops::Range;

use shakmaty::{Chess, Position};

use super::castles::{self, GuiNotation, rewrite};
use super::{Awaiting, Out, Warnings, tell};
use crate::notation::castling::{CastlingNotation, parse_move, write_move};
use crate::notation::fen::{FenFlavour, position_fen};
use crate::uci::OptionDecl;
use crate::uci::line::{str_tokens, token_spans};

pub(super) struct EngineSide {
    /// The engine's `id name` (the program, before it comes).
    pub(super) name: String,
    /// It declared `UCI_Chess960`.
    pub(super) declares_960: bool,
    /// Its `uciok` came.
    pub(super) uciok: bool,
    /// Its `id name` line (with the suffix), sent at its `uciok`.
    held_id: Option<Vec<u8>>,
    /// It is in `UCI_Chess960` mode (so writes castles king-takes-rook).
    pub(super) chess960: bool,
    pub(super) awaiting: Option<Awaiting>,
    /// The engine's `castles` setting: `None` follows the UCI rule.
    castles: Option<CastlingNotation>,
}

impl EngineSide {
    pub(super) fn new(program: &str, castles: Option<CastlingNotation>) -> EngineSide {
        EngineSide {
            castles,
            name: program.to_string(),
            declares_960: false,
            uciok: false,
            held_id: None,
            chess960: false,
            awaiting: None,
        }
    }

    /// The castling notation the engine reads and writes.
    pub(super) fn notation(&self) -> CastlingNotation {
        self.notation_in(self.chess960)
    }

    /// An `id` line before `uciok`: `id name` is held for `uciok` (GUIs
    /// keep the first `id name`, and an engine that dies before `uciok`
    /// leaves that place to the proxy's reason, see `failed_start`).
    pub(super) fn on_id(&mut self, content: &[u8], out: &mut Vec<Out>) {
        let text = String::from_utf8_lossy(content);
        let mut toks = str_tokens(&text);
        if toks.nth(1) == Some("name") {
            self.name = crate::uci::engine_msg::rest_after(&text, 2);
            self.held_id = Some(format!("{} (uci960)", text.trim_end()).into_bytes());
        } else {
            out.push(Out::Forward);
        }
    }

    /// An `option` declaration (forwarded).
    pub(super) fn on_option(&mut self, content: &[u8]) {
        if let Ok(text) = std::str::from_utf8(content)
            && let Some(decl) = OptionDecl::parse(text)
            && decl.name.eq_ignore_ascii_case("UCI_Chess960")
        {
            self.declares_960 = true;
        }
    }

    /// `uciok`: the held `id name`, for the GUI.
    pub(super) fn on_uciok(&mut self, out: &mut Vec<Out>) {
        self.uciok = true;
        if let Some(id) = self.held_id.take() {
            out.push(Out::Gui(id));
        }
    }

    /// At `uciok`, after the proxy's options: tells the user when the
    /// engine cannot play Chess960.
    pub(super) fn report_without_960(&self, out: &mut Vec<Out>) {
        if !self.declares_960 {
            tell(
                out,
                format!(
                    "engine {} does not declare UCI_Chess960: Chess960 positions will be refused",
                    self.name
                ),
                true,
            );
        }
    }

    /// Why a Chess960 position cannot go to this engine, if it cannot.
    pub(super) fn refuses_chess960(&self) -> Option<String> {
        if self.declares_960 {
            None
        } else if self.uciok {
            Some(format!(
                "engine {} does not support Chess960 (no UCI_Chess960 option)",
                self.name
            ))
        } else {
            Some(
                "no 'uci' handshake yet, so the engine has not said whether it supports \
                 Chess960 (send 'uci' first)"
                    .to_string(),
            )
        }
    }

    /// The mode the engine would be in for a position that wants
    /// `UCI_Chess960` on or off: unchanged for an engine without it.
    pub(super) fn mode_for(&self, want: bool) -> bool {
        if self.declares_960 {
            want
        } else {
            self.chess960
        }
    }

    /// Puts the engine in `UCI_Chess960` mode or out of it: the line to
    /// send first, if its mode changes.
    pub(super) fn set_chess960(&mut self, want: bool, out: &mut Vec<Out>) -> Option<Vec<u8>> {
        if self.mode_for(want) == self.chess960 {
            return None;
        }
        let line = format!("setoption name UCI_Chess960 value {want}");
        out.push(Out::Note {
            text: format!("injecting '{line}'"),
            stderr: false,
        });
        self.chess960 = want;
        Some(line.into_bytes())
    }

    /// The castling notation of the engine in mode `chess960`: its
    /// `castles` setting, else the UCI rule.
    pub(super) fn notation_in(&self, chess960: bool) -> CastlingNotation {
        self.castles
            .unwrap_or_else(|| CastlingNotation::of_uci_mode(chess960))
    }

    /// A `bestmove` of a search from `pos`: checked against its legal
    /// moves, castles (move and ponder) written in the GUI's notation; an
    /// illegal one is reported and passed on unchanged.
    pub(super) fn on_bestmove(
        &self,
        content: &[u8],
        pos: &Chess,
        gui_n: GuiNotation,
        warnings: &mut Warnings,
        out: &mut Vec<Out>,
    ) {
        let eng_n = self.notation();
        let spans: Vec<Range<usize>> = token_spans(content).collect();
        let text_at = |i: usize| {
            spans
                .get(i)
                .and_then(|r| std::str::from_utf8(&content[r.clone()]).ok())
        };
        let Some(mv) = text_at(1) else {
            tell(out, "engine sent an empty bestmove".into(), true);
            out.push(Out::Forward);
            return;
        };
        let fen = || position_fen(pos, FenFlavour::XFen);
        if mv == "0000" || mv == "(none)" {
            if !pos.legal_moves().is_empty() {
                let text = format!(
                    "engine has no move ('{mv}') in {} where moves are legal",
                    fen()
                );
                tell(out, text, true);
            }
            out.push(Out::Forward);
            return;
        }
        let m = match parse_move(pos, mv, eng_n) {
            Ok(m) => m,
            Err(e) => {
                tell(
                    out,
                    format!("illegal bestmove '{mv}' in {}: {e}", fen()),
                    true,
                );
                out.push(Out::Forward);
                return;
            }
        };
        let mut replacements = Vec::new();
        if m.is_castle() {
            if let Ok(expected) = write_move(pos, m, eng_n)
                && expected != mv
            {
                warnings.warn_once(
                    out,
                    format!("notation {mv}"),
                    format!(
                        "engine wrote castle '{mv}' outside its notation ({eng_n}: '{expected}')"
                    ),
                );
            }
            if let Some(s) = castles::for_gui(pos, m, mv, gui_n, warnings, out) {
                replacements.push((spans[1].clone(), s));
            }
        }
        if text_at(2) == Some("ponder")
            && let Some(p) = text_at(3)
            && let Ok(after) = pos.clone().play(m)
            && let Ok(pm) = parse_move(&after, p, eng_n)
            && pm.is_castle()
            && let Some(s) = castles::for_gui(&after, pm, p, gui_n, warnings, out)
        {
            replacements.push((spans[3].clone(), s));
        }
        if replacements.is_empty() {
            out.push(Out::Forward);
        } else {
            out.push(Out::Gui(rewrite(content, &replacements)));
        }
    }
}
