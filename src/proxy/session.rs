//! The proxy's protocol core, sans-IO: a line from the GUI or the engine
//! goes in, [`Out`] actions come out (forward the line unchanged, send other
//! lines, notes for the log, quit). No clocks, no threads, no files.
//!
//! This file is the state machine: it reads the first word of each line and
//! hands it to the concern it belongs to, each in its own module:
//! * [`gui`]: how the GUI selects Chess960, so its castling notation;
//! * [`engine`]: the engine's handshake, its mode, `bestmove` checks;
//! * [`own`]: the proxy's own options and the start positions they draw;
//! * [`info`]: castles in `info` lines, with their caches;
//! * [`castles`]: castles between the two notations in commands and moves.
//!
//! What it ties together, each rule with unit tests (`tests.rs`,
//! `info_tests.rs`):
//! * handshake: GUI lines sent before the engine's `uciok` are held and
//!   replayed after it; the proxy's options follow the engine's; configured
//!   engine options are set after the engine's `uciok`.
//! * positions: FENs validated; Chess960 positions get `UCI_Chess960 true`
//!   injected and the engine's FEN flavour; a standard position restores what
//!   the GUI asked for; invalid ones never reach the engine, and the next
//!   `go` is answered with `bestmove 0000`.
//! * start-position injection: `ucinewgame` draws the next position by the
//!   chosen method, `position startpos` uses it.
//! * moves: castles translated both ways; illegal GUI moves and illegal
//!   `bestmove`s reported; ambiguous castles warned once and left as written.

mod castles;
mod engine;
mod gui;
mod info;
mod own;

use std::collections::HashSet;
use std::path::PathBuf;

use shakmaty::Chess;

use super::config::Settings;
use super::options::ProxyOption;
use crate::notation::castling::CastlingNotation;
use crate::notation::fen::{FenFlavour, needs_chess960, parse_position, position_fen};
use crate::uci::line::{split_line_end, token_spans};
use crate::uci::{PositionBase, PositionCommand, SetOption};
use castles::{GuiNotation, MovesRefused, rewrite};
use engine::EngineSide;
use gui::GuiSide;
use info::InfoTranslator;
use own::OwnOptions;
pub use own::{OptionValueError, StartOptionError};

/// One action for the I/O layer, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// The input line, byte for byte, to the other side.
    Forward,
    /// A line for the GUI.
    Gui(Vec<u8>),
    /// A line for the engine.
    Engine(Vec<u8>),
    /// A proxy note for the log; `stderr` also for the user's terminal.
    Note { text: String, stderr: bool },
    /// The GUI chose a log file (`None`: stop logging).
    SetLog(Option<PathBuf>),
    /// The GUI said `quit`: shut the engine down and exit 0.
    Quit,
}

/// What the engine owes an answer to (for the silence timeout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaiting {
    ReadyOk,
    BestMove,
}

impl Awaiting {
    pub fn command(self) -> &'static str {
        match self {
            Awaiting::ReadyOk => "isready",
            Awaiting::BestMove => "stop",
        }
    }
}

/// Tells the GUI (`info string`) and the log.
fn tell(out: &mut Vec<Out>, text: String, stderr: bool) {
    out.push(Out::Gui(format!("info string uci960: {text}").into_bytes()));
    out.push(Out::Note { text, stderr });
}

/// Warnings given once per game.
#[derive(Default)]
struct Warnings(HashSet<String>);

impl Warnings {
    fn warn_once(&mut self, out: &mut Vec<Out>, key: String, text: String) {
        if self.0.insert(key) {
            tell(out, text, false);
        }
    }
}

/// The position the engine was last given.
#[derive(Clone, Debug)]
enum Current {
    /// No `position` yet: the engine's own start position.
    Unset,
    Valid(Chess),
    /// The last `position` was refused and not sent.
    Refused,
}

/// How many bytes of GUI lines may wait for the engine's `uciok` before
/// the GUI is no longer read. A real GUI sends a few lines (`isready`,
/// `setoption`s) before `uciok`.
pub const HELD_BOUND: usize = 1 << 20;
/// What one held line costs beyond its bytes (its `Vec`), so that a flood
/// of empty lines is bounded too.
const HELD_LINE_COST: usize = 32;

/// The proxy session.
pub struct Session {
    own: OwnOptions,
    gui: GuiSide,
    engine: EngineSide,
    info: InfoTranslator,
    warnings: Warnings,
    /// `uci` was forwarded and `uciok` has not come back yet.
    in_handshake: bool,
    /// GUI lines held back during the handshake (a client that does not
    /// wait for `uciok` must not have its positions judged before the
    /// engine said whether it supports Chess960).
    held: Vec<Vec<u8>>,
    /// What `held` costs, counted against [`HELD_BOUND`].
    held_bytes: usize,
    current: Current,
    /// The position of the search under way.
    search: Option<Chess>,
}

impl Session {
    /// A session; `fallback_seed` is used when no seed is set (the I/O
    /// layer draws it, so the session itself stays deterministic).
    pub fn new(settings: &Settings, fallback_seed: u64, engine_name: &str) -> Session {
        Session {
            own: OwnOptions::new(settings, fallback_seed),
            gui: GuiSide::default(),
            engine: EngineSide::new(engine_name, settings.engine_castles),
            info: InfoTranslator::default(),
            warnings: Warnings::default(),
            in_handshake: false,
            held: Vec::new(),
            held_bytes: 0,
            current: Current::Unset,
            search: None,
        }
    }

    /// What the engine owes an answer to, if anything.
    pub fn awaiting(&self) -> Option<Awaiting> {
        self.engine.awaiting
    }

    /// Whether the engine declared `UCI_Chess960` (known after its `uciok`).
    pub fn engine_supports_chess960(&self) -> bool {
        self.engine.declares_960
    }

    /// The castling notations (GUI, engine) in force.
    fn notations(&self) -> (GuiNotation, CastlingNotation) {
        (self.gui_notation(), self.engine.notation())
    }

    fn gui_notation(&self) -> GuiNotation {
        self.gui.notation(self.own.gui_castling, self.own.gui)
    }

    // ----- GUI side -----

    /// A line from the GUI (with or without its line ending).
    pub fn from_gui(&mut self, line: &[u8], out: &mut Vec<Out>) {
        let (content, _) = split_line_end(line);
        // A `\r` inside a line reads as a line break to some engines: a
        // second command the GUI never sent.
        if content.trim_ascii_end().contains(&b'\r') {
            let text = "a GUI line holds a carriage return (\\r) inside it; not sent".into();
            return tell(out, text, false);
        }
        let first = token_spans(content).next().map(|r| &content[r]);
        if self.in_handshake && first != Some(b"quit") {
            self.held_bytes += line.len() + HELD_LINE_COST;
            self.held.push(line.to_vec());
            return;
        }
        match first {
            Some(b"uci") => {
                self.in_handshake = true;
                out.push(Out::Forward);
            }
            Some(b"position") => self.on_position(content, out),
            Some(b"go") => self.on_go(content, out),
            Some(b"setoption") => self.on_setoption(content, out),
            Some(b"ucinewgame") => {
                out.push(Out::Forward);
                self.warnings = Warnings::default();
                // A cached translation skips warnings; after a reset they
                // are due again.
                self.info.clear();
                self.gui.new_game();
                self.own.new_game(out);
            }
            Some(b"isready") => {
                out.push(Out::Forward);
                self.engine.awaiting = Some(Awaiting::ReadyOk);
            }
            Some(b"stop") => {
                out.push(Out::Forward);
                if self.search.is_some() {
                    self.engine.awaiting = Some(Awaiting::BestMove);
                }
            }
            Some(b"quit") => out.push(Out::Quit),
            _ => out.push(Out::Forward),
        }
    }

    fn on_setoption(&mut self, content: &[u8], out: &mut Vec<Out>) {
        let Some(set) = std::str::from_utf8(content).ok().and_then(SetOption::parse) else {
            out.push(Out::Forward);
            return;
        };
        if self.gui.on_setoption(&set) {
            if set.name.eq_ignore_ascii_case("UCI_Chess960") {
                // Forwarded: the engine is now in the mode the GUI chose.
                self.engine.chess960 = self.gui.chess960_option();
            }
            out.push(Out::Forward);
            return;
        }
        match ProxyOption::from_name(&set.name) {
            Some(opt) => {
                let value = set.value.unwrap_or_default();
                if let Err(e) = self.own.set(opt, value.trim(), out) {
                    tell(out, format!("setoption {}: {e}", set.name), false);
                }
            }
            None => out.push(Out::Forward),
        }
    }

    fn refuse(&mut self, out: &mut Vec<Out>, text: String) {
        self.current = Current::Refused;
        tell(
            out,
            format!("{text}; position not sent to the engine"),
            false,
        );
    }

    /// A GUI move illegal in the injected position: the GUI keeps its own
    /// board, which injection cannot work with. Said once per game, on
    /// stderr too (GUIs that hide `info string` still log stderr).
    fn explain_injection(&mut self, out: &mut Vec<Out>) {
        if self.warnings.0.insert("injection".into()) {
            tell(
                out,
                "the GUI plays from its own start position: set `uci960 Start` to `gui` \
                 and give the GUI a book from `uci960 positions`"
                    .into(),
                true,
            );
        }
    }

    fn on_position(&mut self, content: &[u8], out: &mut Vec<Out>) {
        let Ok(text) = std::str::from_utf8(content) else {
            return self.refuse(out, "position command is not valid UTF-8".into());
        };
        let cmd = match PositionCommand::parse(text) {
            Ok(cmd) => cmd,
            Err(e) => return self.refuse(out, format!("cannot read '{}': {e}", text.trim())),
        };
        // The base position and whether it was injected.
        let (base, injected) = match &cmd.base {
            PositionBase::StartPos if self.own.injects() => match self.own.start_position(out) {
                Some(d) => (d.position, true),
                None => return self.refuse(out, "no start position could be drawn".into()),
            },
            PositionBase::StartPos => (Chess::default(), false),
            PositionBase::Fen(fen) => match parse_position(fen) {
                Ok(pos) => (pos, false),
                Err(e) => return self.refuse(out, e.to_string()),
            },
        };
        let chess960 = needs_chess960(&base);
        self.gui.on_position(&cmd.base, chess960, self.own.gui);
        if chess960 && let Some(why) = self.engine.refuses_chess960() {
            let fen = position_fen(&base, FenFlavour::XFen);
            return self.refuse(out, format!("{why}, refusing {fen}"));
        }
        // The text the engine gets for the base (None: as the GUI wrote it).
        let base_out = if chess960 || injected {
            let flavour = if chess960 {
                self.own.engine_fen
            } else {
                FenFlavour::XFen
            };
            let fen = position_fen(&base, flavour);
            let same = matches!(&cmd.base, PositionBase::Fen(f) if *f == fen);
            (!same).then_some(fen)
        } else {
            None
        };
        // UCI_Chess960: on for Chess960 positions, else what the GUI asked
        // (by `UCI_Chess960` or by `UCI_Variant`).
        // The mode changes only once the position is sent: a refused one
        // leaves the engine as it was.
        let want = chess960 || self.gui.wants_engine_960();
        let notations = (
            self.gui_notation(),
            self.engine.notation_in(self.engine.mode_for(want)),
        );
        let moves = match castles::gui_moves(base, &cmd.moves, notations, &mut self.warnings, out) {
            Ok(m) => m,
            Err(MovesRefused::Ambiguous(text)) => return self.refuse(out, text),
            Err(MovesRefused::Illegal(text)) => {
                if injected {
                    self.explain_injection(out);
                }
                return self.refuse(out, text);
            }
        };
        if moves.named {
            self.gui.on_named_castle();
        }
        if let Some(line) = self.engine.set_chess960(want, out) {
            out.push(Out::Engine(line));
        }
        if base_out.is_none() && !moves.changed {
            out.push(Out::Forward);
        } else {
            let line = PositionCommand {
                base: match base_out {
                    Some(fen) => PositionBase::Fen(fen),
                    None => cmd.base,
                },
                moves: moves.moves,
            };
            out.push(Out::Engine(line.to_string().into_bytes()));
        }
        self.current = Current::Valid(moves.position);
    }

    fn on_go(&mut self, content: &[u8], out: &mut Vec<Out>) {
        let pos = match &self.current {
            Current::Refused => {
                tell(
                    out,
                    "no valid position, answering bestmove 0000".into(),
                    false,
                );
                out.push(Out::Gui(b"bestmove 0000".to_vec()));
                return;
            }
            Current::Unset => Chess::default(),
            Current::Valid(p) => p.clone(),
        };
        let replacements =
            castles::searchmoves(content, &pos, self.notations(), &mut self.warnings, out);
        if replacements.is_empty() {
            out.push(Out::Forward);
        } else {
            out.push(Out::Engine(rewrite(content, &replacements)));
        }
        self.search = Some(pos);
        self.info.clear();
        self.engine.awaiting = None;
    }

    // ----- engine side -----

    /// A line from the engine (without `\n`; a `\r` may remain).
    pub fn from_engine(&mut self, line: &[u8], out: &mut Vec<Out>) {
        let (content, _) = split_line_end(line);
        let first = token_spans(content).next().map(|r| &content[r]);
        match first {
            Some(b"info") => {
                let (gui_n, eng_n) = self.notations();
                match &self.search {
                    Some(search) if !gui_n.same_as(eng_n) => self.info.translate(
                        content,
                        search,
                        (gui_n, eng_n),
                        &mut self.warnings,
                        out,
                    ),
                    _ => out.push(Out::Forward),
                }
            }
            Some(b"bestmove") => {
                self.engine.awaiting = None;
                match self.search.take() {
                    Some(pos) => {
                        let gui_n = self.gui_notation();
                        self.engine
                            .on_bestmove(content, &pos, gui_n, &mut self.warnings, out)
                    }
                    None => out.push(Out::Forward),
                }
            }
            Some(b"readyok") => {
                if self.engine.awaiting == Some(Awaiting::ReadyOk) {
                    self.engine.awaiting = None;
                }
                out.push(Out::Forward);
            }
            Some(b"id") if !self.engine.uciok => self.engine.on_id(content, out),
            Some(b"option") => {
                self.engine.on_option(content);
                out.push(Out::Forward);
            }
            Some(b"uciok") => self.on_uciok(out),
            _ => out.push(Out::Forward),
        }
    }

    fn on_uciok(&mut self, out: &mut Vec<Out>) {
        self.engine.on_uciok(out);
        for decl in self.own.declarations() {
            out.push(Out::Gui(decl.to_string().into_bytes()));
        }
        for (name, value) in &self.own.engine_options {
            // Checked at config load; never let a line break through.
            match SetOption::new(name, value) {
                Ok(set) => out.push(Out::Engine(set.to_string().into_bytes())),
                Err(e) => tell(out, format!("{e}; not sent"), true),
            }
        }
        let held = std::mem::take(&mut self.held);
        self.held_bytes = 0;
        self.in_handshake = false;
        self.engine.report_without_960(out);
        out.push(Out::Forward);
        for line in held {
            let mut replay = Vec::new();
            self.from_gui(&line, &mut replay);
            for o in replay {
                out.push(match o {
                    Out::Forward => Out::Engine(line.clone()),
                    other => other,
                });
            }
        }
    }

    /// The silence timeout expired: report once.
    pub fn on_silence(&mut self, seconds: f64, out: &mut Vec<Out>) {
        if let Some(a) = self.engine.awaiting.take() {
            let text = format!(
                "engine {} silent for {seconds} s after {}",
                self.engine.name,
                a.command()
            );
            tell(out, text, true);
        }
    }

    /// Hands back the buffer of a written line (the I/O loop returns those
    /// of [`Out::Gui`] lines, where rewritten `info` lines go), for the
    /// session to reuse; the larger buffer is kept.
    pub fn recycle(&mut self, line: Vec<u8>) {
        self.info.recycle(line);
    }

    /// Before the engine's `uciok`: the GUI lines still owed an answer
    /// (`uci` if it was sent, then the lines held back), taken so that
    /// [`super::failed_start`] can answer them; `None` after `uciok`.
    pub fn take_unanswered_handshake(&mut self) -> Option<Vec<Vec<u8>>> {
        if self.engine.uciok {
            return None;
        }
        let mut lines = Vec::new();
        if self.in_handshake {
            lines.push(b"uci".to_vec());
        }
        lines.append(&mut self.held);
        self.held_bytes = 0;
        Some(lines)
    }

    /// Whether the lines held for `uciok` reached [`HELD_BOUND`]: the I/O
    /// layer then stops reading the GUI until the engine answers (issue
    /// 21: 512 MiB of `isready` before `uciok` grew the proxy to 3.7 GB).
    pub fn holding_full(&self) -> bool {
        self.held_bytes >= HELD_BOUND
    }

    /// Whether GUI lines are being held until the engine's `uciok`.
    pub fn in_handshake(&self) -> bool {
        self.in_handshake
    }

    /// The engine's `id name` (or the program, before the handshake).
    pub fn engine_name(&self) -> &str {
        &self.engine.name
    }
}

#[cfg(test)]
mod gui_tests;
#[cfg(test)]
mod info_tests;
#[cfg(test)]
mod tests;
