//! The proxy's protocol core, sans-IO: a line from the GUI or the engine
//! goes in, [`Out`] actions come out (forward the line unchanged, send other
//! lines, notes for the log, quit). No clocks, no threads, no files.
//!
//! The rules, each with unit tests below:
//! * handshake: `id name` gets " (uci960)"; the proxy's options follow the
//!   engine's before `uciok`; an engine without `UCI_Chess960` is reported;
//!   configured engine options are set after the engine's `uciok`.
//! * positions: FENs validated; Chess960 positions get `UCI_Chess960 true`
//!   injected and the engine's FEN flavour; a standard position restores what
//!   the GUI asked for; invalid ones never reach the engine, and the next
//!   `go` is answered with `bestmove 0000`.
//! * start-position injection: `ucinewgame` draws the next position by the
//!   chosen method, `position startpos` uses it.
//! * moves: castles translated both ways; illegal GUI moves and illegal
//!   `bestmove`s reported; ambiguous castles warned once and left as written.

use std::collections::HashSet;
use std::ops::Range;
use std::path::PathBuf;
use std::str::FromStr;

use shakmaty::{Chess, Move, Position};

use super::config::Settings;
use super::options::{self, GuiCastling, ProxyOption};
use crate::keyword::UnknownWord;
use crate::notation::castling::{CastlingNotation, MoveError, parse_move, write_move};
use crate::notation::fen::{FenFlavour, needs_chess960, parse_position, position_fen};
use crate::start::method::{Drawn, METHOD_NAMES, MethodError, MethodSpec, PositionSource};
use crate::uci::engine_msg::{info_move_groups_into, info_moves_start};
use crate::uci::line::{split_line_end, str_tokens, token_spans};
use crate::uci::{OptionDecl, PositionBase, PositionCommand, SetOption};

/// Why a value of one of the proxy's own options was refused (told to the
/// GUI as `setoption NAME: reason`).
#[derive(Debug, thiserror::Error)]
pub enum OptionValueError {
    /// A start method, FEN flavour or castling notation not in the list.
    #[error(transparent)]
    Word(#[from] UnknownWord),
    #[error("'{0}' is not a start position number 0..959")]
    Sp(String),
    #[error("'{0}' is not a seed (0..2^64-1)")]
    Seed(String),
}

/// Why no start position can be drawn with the options in force.
#[derive(Debug, thiserror::Error)]
pub enum StartOptionError {
    #[error("start method {0} needs 'uci960 Book' set to a file")]
    NoBook(String),
    #[error(transparent)]
    Method(#[from] MethodError),
}

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

/// The position the engine was last given.
#[derive(Clone, Debug)]
enum Current {
    /// No `position` yet: the engine's own start position.
    Unset,
    Valid(Chess),
    /// The last `position` was refused and not sent.
    Refused,
}

/// A translated move sequence (its bytes) and its replacements (token
/// index in the sequence, new text).
type PvCache = (Vec<u8>, Vec<(usize, String)>);

/// The text of the last translated `info` line from its first move list
/// on, and what it became. Engines repeat lines whose moves are the same
/// and only the numbers before them change (`nodes`, `time`, …), so most
/// lines need only this compare and two copies.
#[derive(Default)]
struct TailCache {
    /// Whether it holds a translation.
    valid: bool,
    input: Vec<u8>,
    /// Whether a castle in it was rewritten: else the line is forwarded.
    changed: bool,
    /// The translated tail (when `changed`).
    output: Vec<u8>,
}

/// The proxy session.
pub struct Session {
    engine_name: String,
    // proxy options
    start_name: String,
    cli_start: Option<MethodSpec>,
    sp: u16,
    book: Option<PathBuf>,
    seed: Option<u64>,
    fallback_seed: u64,
    engine_fen: FenFlavour,
    gui_castling: GuiCastling,
    log: Option<PathBuf>,
    engine_options: Vec<(String, String)>,
    // start positions
    source: Option<PositionSource>,
    drawn: Option<Drawn>,
    // engine and GUI state
    engine_declares_960: bool,
    engine_uciok: bool,
    /// `uci` was forwarded and `uciok` has not come back yet.
    in_handshake: bool,
    /// GUI lines held back during the handshake (a client that does not
    /// wait for `uciok` must not have its positions judged before the
    /// engine said whether it supports Chess960).
    held: Vec<Vec<u8>>,
    /// The engine's `id name` line (with the suffix), sent at its `uciok`.
    held_id: Option<Vec<u8>>,
    /// The GUI set `UCI_Chess960 true`.
    gui_960: bool,
    /// The GUI set `UCI_Variant` to a Chess960 name (Cute Chess does so
    /// for engines that list variants, Fairy-Stockfish among them).
    gui_variant_960: bool,
    /// The GUI's last `position fen` was a Chess960 FEN.
    gui_fen_960: bool,
    engine_960: bool,
    current: Current,
    search: Option<Chess>,
    awaiting: Option<Awaiting>,
    warned: HashSet<String>,
    /// The last translated move sequence of an `info` line and its
    /// replacements (token index, text): engines repeat a PV over many
    /// lines, so this saves replaying it. Cleared at each `go`.
    info_cache: Option<PvCache>,
    /// The last `info` line's tail and its translation; cleared with
    /// `info_cache`.
    tail_cache: TailCache,
    /// The notations (GUI, engine) both caches were filled for: a GUI may
    /// change its castling option, or send a position that switches the
    /// engine's notation, during a search.
    cached_for: Option<(CastlingNotation, CastlingNotation)>,
    /// Scratch buffers for `info` lines (no allocation per line).
    scratch_spans: Vec<Range<usize>>,
    scratch_groups: Vec<Range<usize>>,
    /// A buffer for the next rewritten `info` line (handed back by the I/O
    /// layer through [`Session::recycle`]).
    spare_line: Vec<u8>,
}

impl Session {
    /// A session; `fallback_seed` is used when no seed is set (the I/O
    /// layer draws it, so the session itself stays deterministic).
    pub fn new(settings: &Settings, fallback_seed: u64, engine_name: &str) -> Session {
        let (start_name, sp, book) = match &settings.start {
            None => ("gui".to_string(), 518, None),
            Some(MethodSpec::Fixed(n)) => {
                ("sp".to_string(), n.first().copied().unwrap_or(518), None)
            }
            Some(MethodSpec::Book { path, .. }) => (
                settings
                    .start
                    .as_ref()
                    .map_or("book", |s| s.name())
                    .to_string(),
                518,
                Some(path.clone()),
            ),
            Some(other) => (other.name().to_string(), 518, None),
        };
        Session {
            engine_name: engine_name.to_string(),
            start_name,
            cli_start: settings.start.clone(),
            sp,
            book,
            seed: settings.seed,
            fallback_seed,
            engine_fen: settings.engine_fen,
            gui_castling: settings.gui_castling,
            log: settings.log.clone(),
            engine_options: settings.engine_options.clone(),
            source: None,
            drawn: None,
            engine_declares_960: false,
            engine_uciok: false,
            in_handshake: false,
            held: Vec::new(),
            held_id: None,
            gui_960: false,
            gui_variant_960: false,
            gui_fen_960: false,
            engine_960: false,
            current: Current::Unset,
            search: None,
            awaiting: None,
            warned: HashSet::new(),
            info_cache: None,
            tail_cache: TailCache::default(),
            cached_for: None,
            scratch_spans: Vec::new(),
            scratch_groups: Vec::new(),
            spare_line: Vec::new(),
        }
    }

    /// What the engine owes an answer to, if anything.
    pub fn awaiting(&self) -> Option<Awaiting> {
        self.awaiting
    }

    /// Whether the engine declared `UCI_Chess960` (known after its `uciok`).
    pub fn engine_supports_chess960(&self) -> bool {
        self.engine_declares_960
    }

    fn gui_notation(&self) -> CastlingNotation {
        match self.gui_castling {
            GuiCastling::Kxr => CastlingNotation::KingTakesRook,
            GuiCastling::Standard => CastlingNotation::KingTwoSquares,
            GuiCastling::Auto if self.gui_selects_960() => CastlingNotation::KingTakesRook,
            GuiCastling::Auto => CastlingNotation::KingTwoSquares,
        }
    }

    /// Whether the GUI plays Chess960 by any of the signals GUIs give (see
    /// `docs/PROXY.md`, "How `auto` recognises a Chess960 GUI").
    fn gui_selects_960(&self) -> bool {
        self.gui_960 || self.gui_variant_960 || self.gui_fen_960
    }

    fn engine_notation(&self) -> CastlingNotation {
        if self.engine_960 {
            CastlingNotation::KingTakesRook
        } else {
            CastlingNotation::KingTwoSquares
        }
    }

    /// Tells the GUI (`info string`) and the log.
    fn tell(&self, out: &mut Vec<Out>, text: String, stderr: bool) {
        out.push(Out::Gui(format!("info string uci960: {text}").into_bytes()));
        out.push(Out::Note { text, stderr });
    }

    fn warn_once(&mut self, out: &mut Vec<Out>, key: String, text: String) {
        if self.warned.insert(key) {
            self.tell(out, text, false);
        }
    }

    // ----- GUI side -----

    /// A line from the GUI (with or without its line ending).
    pub fn from_gui(&mut self, line: &[u8], out: &mut Vec<Out>) {
        let (content, _) = split_line_end(line);
        // A `\r` inside a line reads as a line break to some engines: a
        // second command the GUI never sent.
        if content.trim_ascii_end().contains(&b'\r') {
            let text = "a GUI line holds a carriage return (\\r) inside it; not sent".into();
            return self.tell(out, text, false);
        }
        let first = token_spans(content).next().map(|r| &content[r]);
        if self.in_handshake && first != Some(b"quit") {
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
                self.warned.clear();
                // A cached translation skips warnings; after a reset they
                // are due again.
                self.clear_info_caches();
                self.drawn = None;
                if self.start_spec().is_some() {
                    self.draw(out);
                }
            }
            Some(b"isready") => {
                out.push(Out::Forward);
                self.awaiting = Some(Awaiting::ReadyOk);
            }
            Some(b"stop") => {
                out.push(Out::Forward);
                if self.search.is_some() {
                    self.awaiting = Some(Awaiting::BestMove);
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
        if set.name.eq_ignore_ascii_case("UCI_Chess960") {
            let on = set
                .value
                .as_deref()
                .is_some_and(|v| v.eq_ignore_ascii_case("true"));
            self.gui_960 = on;
            self.engine_960 = on;
            out.push(Out::Forward);
            return;
        }
        if set.name.eq_ignore_ascii_case("UCI_Variant") {
            self.gui_variant_960 = set
                .value
                .as_deref()
                .is_some_and(|v| is_chess960_variant(v.trim()));
            out.push(Out::Forward);
            return;
        }
        match ProxyOption::from_name(&set.name) {
            Some(opt) => {
                let value = set.value.unwrap_or_default();
                if let Err(e) = self.set_proxy_option(opt, value.trim(), out) {
                    self.tell(out, format!("setoption {}: {e}", set.name), false);
                }
            }
            None => out.push(Out::Forward),
        }
    }

    fn set_proxy_option(
        &mut self,
        opt: ProxyOption,
        value: &str,
        out: &mut Vec<Out>,
    ) -> Result<(), OptionValueError> {
        match opt {
            ProxyOption::Start => {
                let v = value.to_ascii_lowercase();
                if v != "gui" && !METHOD_NAMES.contains(&v.as_str()) {
                    let expected = format!("gui, {}", METHOD_NAMES.join(", "));
                    return Err(UnknownWord::new("start method", value, expected).into());
                }
                self.start_name = v;
                self.cli_start = None;
            }
            ProxyOption::Sp => {
                let n: u16 = value
                    .parse()
                    .ok()
                    .filter(|n| *n < 960)
                    .ok_or_else(|| OptionValueError::Sp(value.to_string()))?;
                self.sp = n;
                if matches!(self.cli_start, Some(MethodSpec::Fixed(_))) {
                    self.cli_start = None;
                }
            }
            ProxyOption::Seed => {
                self.seed = if value.is_empty() {
                    None
                } else {
                    Some(
                        value
                            .parse()
                            .map_err(|_| OptionValueError::Seed(value.to_string()))?,
                    )
                };
            }
            ProxyOption::Book => {
                self.book = (!value.is_empty()).then(|| PathBuf::from(value));
                if matches!(self.cli_start, Some(MethodSpec::Book { .. })) {
                    self.cli_start = None;
                }
            }
            ProxyOption::EngineFen => self.engine_fen = FenFlavour::from_str(value)?,
            ProxyOption::GuiCastling => self.gui_castling = GuiCastling::from_str(value)?,
            ProxyOption::Log => {
                self.log = (!value.is_empty()).then(|| PathBuf::from(value));
                out.push(Out::SetLog(self.log.clone()));
            }
        }
        self.source = None;
        Ok(())
    }

    /// The start method in force, `None` for `gui`.
    fn start_spec(&self) -> Option<Result<MethodSpec, StartOptionError>> {
        if let Some(spec) = &self.cli_start {
            return Some(Ok(spec.clone()));
        }
        match self.start_name.as_str() {
            "gui" => None,
            "sp" => Some(Ok(MethodSpec::Fixed(vec![self.sp]))),
            "book" | "book-shuffle" => Some(match &self.book {
                Some(path) => Ok(MethodSpec::Book {
                    path: path.clone(),
                    shuffle: self.start_name == "book-shuffle",
                }),
                None => Err(StartOptionError::NoBook(self.start_name.clone())),
            }),
            name => Some(MethodSpec::from_str(name).map_err(StartOptionError::from)),
        }
    }

    /// Draws the next start position and announces it.
    fn draw(&mut self, out: &mut Vec<Out>) -> Option<Drawn> {
        let spec = match self.start_spec()? {
            Ok(spec) => spec,
            Err(e) => {
                self.tell(out, e.to_string(), true);
                return None;
            }
        };
        if self.source.is_none() {
            match PositionSource::new(&spec, self.seed.unwrap_or(self.fallback_seed)) {
                Ok(s) => self.source = Some(s),
                Err(e) => {
                    self.tell(out, format!("start method {spec}: {e}"), true);
                    return None;
                }
            }
        }
        let drawn = self.source.as_mut()?.next_position();
        let line = format!(
            "info string uci960 start sp {} method {} fen {}",
            drawn.sp_label(),
            drawn.method,
            drawn.fen(FenFlavour::XFen)
        );
        out.push(Out::Note {
            text: line.clone(),
            stderr: false,
        });
        out.push(Out::Gui(line.into_bytes()));
        self.drawn = Some(drawn.clone());
        Some(drawn)
    }

    fn refuse(&mut self, out: &mut Vec<Out>, text: String) {
        self.current = Current::Refused;
        self.tell(
            out,
            format!("{text}; position not sent to the engine"),
            false,
        );
    }

    /// A GUI move illegal in the injected position: the GUI keeps its own
    /// board, which injection cannot work with. Said once per game, on
    /// stderr too (GUIs that hide `info string` still log stderr).
    fn explain_injection(&mut self, out: &mut Vec<Out>) {
        if self.warned.insert("injection".into()) {
            self.tell(
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
        // The base position and the text the engine gets for it (None:
        // as the GUI wrote it).
        let (base, mut base_out): (Chess, Option<String>) = match &cmd.base {
            PositionBase::StartPos if self.start_spec().is_some() => {
                let drawn = match self.drawn.clone() {
                    Some(d) => Some(d),
                    None => self.draw(out),
                };
                match drawn {
                    Some(d) => (d.position.clone(), Some(String::new())),
                    None => return self.refuse(out, "no start position could be drawn".into()),
                }
            }
            PositionBase::StartPos => (Chess::default(), None),
            PositionBase::Fen(fen) => match parse_position(fen) {
                Ok(pos) => (pos, None),
                Err(e) => return self.refuse(out, e.to_string()),
            },
        };
        let chess960 = needs_chess960(&base);
        let injected = base_out.is_some();
        self.gui_fen_960 =
            matches!(&cmd.base, PositionBase::Fen(f) if chess960 || names_rook_files(f));
        if chess960 && !self.engine_declares_960 {
            let why = if self.engine_uciok {
                format!(
                    "engine {} does not support Chess960 (no UCI_Chess960 option)",
                    self.engine_name
                )
            } else {
                "no 'uci' handshake yet, so the engine has not said whether it supports Chess960 (send 'uci' first)".to_string()
            };
            return self.refuse(
                out,
                format!("{why}, refusing {}", position_fen(&base, FenFlavour::XFen)),
            );
        }
        if chess960 || base_out.is_some() {
            let fen = position_fen(
                &base,
                if chess960 {
                    self.engine_fen
                } else {
                    FenFlavour::XFen
                },
            );
            let same = matches!(&cmd.base, PositionBase::Fen(f) if *f == fen);
            base_out = (!same).then_some(fen);
        }
        // UCI_Chess960: on for Chess960 positions, else what the GUI asked
        // (by `UCI_Chess960` or by `UCI_Variant`).
        let want = chess960 || self.gui_960 || self.gui_variant_960;
        let mut setoption = None;
        if want != self.engine_960 && self.engine_declares_960 {
            let line = format!("setoption name UCI_Chess960 value {want}");
            out.push(Out::Note {
                text: format!("injecting '{line}'"),
                stderr: false,
            });
            setoption = Some(line);
            self.engine_960 = want;
        }
        let (gui_n, eng_n) = (self.gui_notation(), self.engine_notation());
        let mut pos = base;
        let mut moves_out = Vec::with_capacity(cmd.moves.len());
        let mut changed = false;
        for (i, text) in cmd.moves.iter().enumerate() {
            let ply = i + 1;
            let m = match parse_move(&pos, text, gui_n) {
                Ok(m) => m,
                Err(MoveError::Ambiguous(a)) => {
                    self.warn_once(
                        out,
                        format!("gui {text}"),
                        format!("move '{text}' at ply {ply}: {a}; sent as written"),
                    );
                    match parse_move(&pos, text, eng_n) {
                        Ok(m) => {
                            moves_out.push(text.clone());
                            pos.play_unchecked(m);
                            continue;
                        }
                        Err(_) => {
                            return self
                                .refuse(out, format!("ambiguous move '{text}' at ply {ply}"));
                        }
                    }
                }
                Err(e) => {
                    if injected {
                        self.explain_injection(out);
                    }
                    return self.refuse(out, format!("illegal move '{text}' at ply {ply}: {e}"));
                }
            };
            let mut written = text.clone();
            if m.is_castle() {
                match write_move(&pos, m, eng_n) {
                    Ok(s) => written = s,
                    Err(a) => self.warn_once(
                        out,
                        format!("engine {text}"),
                        format!("castle '{text}' at ply {ply}: {a}; sent as written"),
                    ),
                }
            }
            changed |= written != *text;
            moves_out.push(written);
            pos.play_unchecked(m);
        }
        if let Some(line) = setoption {
            out.push(Out::Engine(line.into_bytes()));
        }
        if base_out.is_none() && !changed {
            out.push(Out::Forward);
        } else {
            let base = match (&base_out, &cmd.base) {
                (Some(fen), _) => PositionBase::Fen(fen.clone()),
                (None, b) => b.clone(),
            };
            let line = PositionCommand {
                base,
                moves: moves_out,
            };
            out.push(Out::Engine(line.to_string().into_bytes()));
        }
        self.current = Current::Valid(pos);
    }

    fn on_go(&mut self, content: &[u8], out: &mut Vec<Out>) {
        let pos = match &self.current {
            Current::Refused => {
                self.tell(
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
        // Translate `searchmoves` (everything after it that is a move).
        let (gui_n, eng_n) = (self.gui_notation(), self.engine_notation());
        let mut replacements = Vec::new();
        let mut in_moves = false;
        for span in token_spans(content) {
            let tok = &content[span.clone()];
            if tok == b"searchmoves" {
                in_moves = true;
                continue;
            }
            if !in_moves {
                continue;
            }
            let Ok(text) = std::str::from_utf8(tok) else {
                break;
            };
            match parse_move(&pos, text, gui_n) {
                Ok(m) => {
                    if m.is_castle()
                        && let Ok(s) = write_move(&pos, m, eng_n)
                        && s != text
                    {
                        replacements.push((span, s));
                    }
                }
                Err(MoveError::Ambiguous(a)) => self.warn_once(
                    out,
                    format!("gui {text}"),
                    format!("searchmoves '{text}': {a}; sent as written"),
                ),
                Err(_) => break,
            }
        }
        if replacements.is_empty() {
            out.push(Out::Forward);
        } else {
            out.push(Out::Engine(rewrite(content, &replacements)));
        }
        self.search = Some(pos);
        self.clear_info_caches();
        self.awaiting = None;
    }

    // ----- engine side -----

    /// A line from the engine (without `\n`; a `\r` may remain).
    pub fn from_engine(&mut self, line: &[u8], out: &mut Vec<Out>) {
        let (content, _) = split_line_end(line);
        let first = token_spans(content).next().map(|r| &content[r]);
        match first {
            Some(b"info") => self.on_info(content, out),
            Some(b"bestmove") => self.on_bestmove(content, out),
            Some(b"readyok") => {
                if self.awaiting == Some(Awaiting::ReadyOk) {
                    self.awaiting = None;
                }
                out.push(Out::Forward);
            }
            Some(b"id") if !self.engine_uciok => {
                let text = String::from_utf8_lossy(content);
                let mut toks = str_tokens(&text);
                if toks.nth(1) == Some("name") {
                    let name = crate::uci::engine_msg::rest_after(&text, 2);
                    self.engine_name = name;
                    // Held until `uciok`: GUIs keep the first `id name`,
                    // and an engine that dies before `uciok` leaves that
                    // place to the proxy's reason (see `failed_start`).
                    self.held_id = Some(format!("{} (uci960)", text.trim_end()).into_bytes());
                } else {
                    out.push(Out::Forward);
                }
            }
            Some(b"option") => {
                if let Ok(text) = std::str::from_utf8(content)
                    && let Some(decl) = OptionDecl::parse(text)
                    && decl.name.eq_ignore_ascii_case("UCI_Chess960")
                {
                    self.engine_declares_960 = true;
                }
                out.push(Out::Forward);
            }
            Some(b"uciok") => self.on_uciok(out),
            _ => out.push(Out::Forward),
        }
    }

    fn on_uciok(&mut self, out: &mut Vec<Out>) {
        self.engine_uciok = true;
        if let Some(id) = self.held_id.take() {
            out.push(Out::Gui(id));
        }
        let seed = self.seed.map(|s| s.to_string()).unwrap_or_default();
        let book = self
            .book
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let log = self
            .log
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let start = match &self.cli_start {
            Some(spec) => spec.name().to_string(),
            None => self.start_name.clone(),
        };
        for decl in options::declarations(
            &start,
            self.sp,
            &seed,
            &book,
            &self.engine_fen.to_string(),
            &self.gui_castling.to_string(),
            &log,
        ) {
            out.push(Out::Gui(decl.to_string().into_bytes()));
        }
        for (name, value) in &self.engine_options {
            // Checked at config load; never let a line break through.
            match SetOption::new(name, value) {
                Ok(set) => out.push(Out::Engine(set.to_string().into_bytes())),
                Err(e) => self.tell(out, format!("{e}; not sent"), true),
            }
        }
        let held = std::mem::take(&mut self.held);
        self.in_handshake = false;
        if !self.engine_declares_960 {
            self.tell(
                out,
                format!(
                    "engine {} does not declare UCI_Chess960: Chess960 positions will be refused",
                    self.engine_name
                ),
                true,
            );
        }
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

    fn on_bestmove(&mut self, content: &[u8], out: &mut Vec<Out>) {
        self.awaiting = None;
        let Some(pos) = self.search.take() else {
            out.push(Out::Forward);
            return;
        };
        let spans: Vec<Range<usize>> = token_spans(content).collect();
        let text_at = |i: usize| {
            spans
                .get(i)
                .and_then(|r| std::str::from_utf8(&content[r.clone()]).ok())
        };
        let (gui_n, eng_n) = (self.gui_notation(), self.engine_notation());
        let Some(mv) = text_at(1) else {
            self.tell(out, "engine sent an empty bestmove".into(), true);
            out.push(Out::Forward);
            return;
        };
        let mut replacements = Vec::new();
        let fen = || position_fen(&pos, FenFlavour::XFen);
        if mv == "0000" || mv == "(none)" {
            if !pos.legal_moves().is_empty() {
                self.tell(
                    out,
                    format!(
                        "engine has no move ('{mv}') in {} where moves are legal",
                        fen()
                    ),
                    true,
                );
            }
            out.push(Out::Forward);
            return;
        }
        let m = match parse_move(&pos, mv, eng_n) {
            Ok(m) => m,
            Err(e) => {
                self.tell(
                    out,
                    format!("illegal bestmove '{mv}' in {}: {e}", fen()),
                    true,
                );
                out.push(Out::Forward);
                return;
            }
        };
        if m.is_castle() {
            if let Ok(expected) = write_move(&pos, m, eng_n)
                && expected != mv
            {
                self.warn_once(
                    out,
                    format!("notation {mv}"),
                    format!(
                        "engine wrote castle '{mv}' outside its notation ({eng_n}: '{expected}')"
                    ),
                );
            }
            self.translate_out(&pos, m, mv, gui_n, spans[1].clone(), &mut replacements, out);
        }
        if text_at(2) == Some("ponder")
            && let Some(p) = text_at(3)
        {
            let after = pos.clone().play(m).ok();
            if let Some(after) = after
                && let Ok(pm) = parse_move(&after, p, eng_n)
                && pm.is_castle()
            {
                self.translate_out(
                    &after,
                    pm,
                    p,
                    gui_n,
                    spans[3].clone(),
                    &mut replacements,
                    out,
                );
            }
        }
        if replacements.is_empty() {
            out.push(Out::Forward);
        } else {
            out.push(Out::Gui(rewrite(content, &replacements)));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn translate_out(
        &mut self,
        pos: &Chess,
        m: Move,
        text: &str,
        gui_n: CastlingNotation,
        span: Range<usize>,
        replacements: &mut Vec<(Range<usize>, String)>,
        out: &mut Vec<Out>,
    ) {
        match write_move(pos, m, gui_n) {
            Ok(s) if s != text => replacements.push((span, s)),
            Ok(_) => {}
            Err(a) => self.warn_once(
                out,
                format!("engine {text}"),
                format!("engine move '{text}': {a}; passed on as written"),
            ),
        }
    }

    fn clear_info_caches(&mut self) {
        self.info_cache = None;
        self.tail_cache.valid = false;
    }

    fn on_info(&mut self, content: &[u8], out: &mut Vec<Out>) {
        let (gui_n, eng_n) = (self.gui_notation(), self.engine_notation());
        if gui_n == eng_n || self.search.is_none() {
            out.push(Out::Forward);
            return;
        }
        // Nothing before the first move list changes; the rest may be the
        // tail of the last line again.
        let Some(tail_start) = info_moves_start(content) else {
            out.push(Out::Forward);
            return;
        };
        if self.cached_for != Some((gui_n, eng_n)) {
            self.clear_info_caches();
            self.cached_for = Some((gui_n, eng_n));
        }
        let tail = &content[tail_start..];
        if !(self.tail_cache.valid && self.tail_cache.input == tail) {
            let mut new_tail = std::mem::take(&mut self.tail_cache.output);
            new_tail.clear();
            let changed = self.translate_moves(tail, &mut new_tail, gui_n, eng_n, out);
            let cache = &mut self.tail_cache;
            cache.valid = true;
            cache.input.clear();
            cache.input.extend_from_slice(tail);
            cache.changed = changed;
            cache.output = new_tail;
        }
        if self.tail_cache.changed {
            let mut line = std::mem::take(&mut self.spare_line);
            line.clear();
            line.extend_from_slice(&content[..tail_start]);
            line.extend_from_slice(&self.tail_cache.output);
            out.push(Out::Gui(line));
        } else {
            out.push(Out::Forward);
        }
    }

    /// Writes the moves part of an `info` line (from its first move list
    /// on) to `new` with its castles translated; false if none changed.
    fn translate_moves(
        &mut self,
        content: &[u8],
        new: &mut Vec<u8>,
        gui_n: CastlingNotation,
        eng_n: CastlingNotation,
        out: &mut Vec<Out>,
    ) -> bool {
        let mut spans = std::mem::take(&mut self.scratch_spans);
        let mut groups = std::mem::take(&mut self.scratch_groups);
        info_move_groups_into(content, &mut spans, &mut groups);
        // `at`: the first byte of `content` not yet copied (0 while
        // nothing changed).
        let mut at = 0;
        for g in groups.iter() {
            let group = &spans[g.clone()];
            // Only moves along a back rank can be castles; the moves after
            // the last of them cannot change, and a group without one
            // needs no position at all.
            let Some(last) = group
                .iter()
                .rposition(|r| maybe_castle(&content[r.clone()]))
            else {
                continue;
            };
            let key = &content[group[0].start..group[last].end];
            let hit = matches!(&self.info_cache, Some((cached, _)) if cached == key);
            if !hit {
                let reps = self.translate_sequence(content, &group[..=last], gui_n, eng_n, out);
                self.info_cache = Some((key.to_vec(), reps));
            }
            let Some((_, reps)) = &self.info_cache else {
                continue;
            };
            for (i, text) in reps {
                let span = &group[*i];
                new.extend_from_slice(&content[at..span.start]);
                new.extend_from_slice(text.as_bytes());
                at = span.end;
            }
        }
        self.scratch_spans = spans;
        self.scratch_groups = groups;
        new.extend_from_slice(&content[at..]);
        at > 0
    }

    /// Replays a move sequence of an `info` line from the search position
    /// up to an unreadable move; returns the castles to rewrite (index in
    /// `group`, text in the GUI's notation). Ambiguous castles are warned
    /// about and left as written.
    fn translate_sequence(
        &mut self,
        content: &[u8],
        group: &[Range<usize>],
        gui_n: CastlingNotation,
        eng_n: CastlingNotation,
        out: &mut Vec<Out>,
    ) -> Vec<(usize, String)> {
        let mut reps = Vec::new();
        let Some(mut pos) = self.search.clone() else {
            return reps;
        };
        let mut one = Vec::new();
        for (i, span) in group.iter().enumerate() {
            let Ok(text) = std::str::from_utf8(&content[span.clone()]) else {
                break;
            };
            let Ok(m) = parse_move(&pos, text, eng_n) else {
                break;
            };
            if m.is_castle() {
                self.translate_out(&pos, m, text, gui_n, span.clone(), &mut one, out);
                reps.extend(one.drain(..).map(|(_, s)| (i, s)));
            }
            pos.play_unchecked(m);
        }
        reps
    }

    /// The silence timeout expired: report once.
    pub fn on_silence(&mut self, seconds: f64, out: &mut Vec<Out>) {
        if let Some(a) = self.awaiting.take() {
            self.tell(
                out,
                format!(
                    "engine {} silent for {seconds} s after {}",
                    self.engine_name,
                    a.command()
                ),
                true,
            );
        }
    }

    /// Hands back the buffer of a written line (the I/O loop returns those
    /// of [`Out::Gui`] lines, where rewritten `info` lines go), for the
    /// session to reuse; the larger buffer is kept.
    pub fn recycle(&mut self, line: Vec<u8>) {
        if line.capacity() > self.spare_line.capacity() {
            self.spare_line = line;
        }
    }

    /// Before the engine's `uciok`: the GUI lines still owed an answer
    /// (`uci` if it was sent, then the lines held back), taken so that
    /// [`super::failed_start`] can answer them; `None` after `uciok`.
    pub fn take_unanswered_handshake(&mut self) -> Option<Vec<Vec<u8>>> {
        if self.engine_uciok {
            return None;
        }
        let mut lines = Vec::new();
        if self.in_handshake {
            lines.push(b"uci".to_vec());
        }
        lines.append(&mut self.held);
        Some(lines)
    }

    /// Whether GUI lines are being held until the engine's `uciok`.
    pub fn in_handshake(&self) -> bool {
        self.in_handshake
    }

    /// The engine's `id name` (or the program, before the handshake).
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }
}

/// Whether a `UCI_Variant` value names Chess960: `chess960` (what Cute
/// Chess sends for its "fischerandom"), `fischerandom` (Cute Chess's and
/// Fairy-Stockfish's name) or `fischerrandom`, in any case.
fn is_chess960_variant(value: &str) -> bool {
    ["chess960", "fischerandom", "fischerrandom"]
        .iter()
        .any(|v| value.eq_ignore_ascii_case(v))
}

/// Whether a FEN's castling field names rook files (Shredder-FEN `HAha`,
/// X-FEN `Bb`): only Chess960 GUIs write those.
fn names_rook_files(fen: &str) -> bool {
    fen.split_ascii_whitespace().nth(2).is_some_and(|c| {
        c.bytes()
            .any(|b| b.is_ascii_alphabetic() && !b"KQkq".contains(&b))
    })
}

/// A move token that starts and ends on the same back rank (`e1h1`).
fn maybe_castle(tok: &[u8]) -> bool {
    tok.len() == 4 && tok[1] == tok[3] && (tok[1] == b'1' || tok[1] == b'8')
}

/// The line with the token ranges replaced (ranges in increasing order).
fn rewrite<S: AsRef<str>>(content: &[u8], replacements: &[(Range<usize>, S)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(content.len() + 8);
    let mut at = 0;
    for (r, s) in replacements {
        out.extend_from_slice(&content[at..r.start]);
        out.extend_from_slice(s.as_ref().as_bytes());
        at = r.end;
    }
    out.extend_from_slice(&content[at..]);
    out
}

#[cfg(test)]
mod info_tests;
#[cfg(test)]
mod tests;
