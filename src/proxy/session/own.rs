//! The proxy's own options (`uci960 Start`, `uci960 SP`, …) as the session
//! holds them, and the start positions they draw: what the settings gave,
//! what the GUI changed, what `options::declarations` shows at `uciok`.

use std::path::PathBuf;
use std::str::FromStr;

use super::{Out, tell};
use crate::keyword::UnknownWord;
use crate::notation::fen::FenFlavour;
use crate::openings::{Drawn, METHOD_NAMES, MethodError, MethodSpec, PositionSource};
use crate::proxy::config::Settings;
use crate::proxy::options::{self, GuiCastling, ProxyOption, Shown};
use crate::proxy::profile::GuiProfile;
use crate::uci::OptionDecl;

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

/// The values of the proxy's options and the start positions drawn by them.
pub(super) struct OwnOptions {
    start_name: String,
    /// The start method of the settings, until the GUI changes one of
    /// the options it was made of.
    cli_start: Option<MethodSpec>,
    sp: u16,
    book: Option<PathBuf>,
    seed: Option<u64>,
    /// Used when no seed is set (drawn by the I/O layer).
    fallback_seed: u64,
    pub(super) engine_fen: FenFlavour,
    pub(super) gui_castling: GuiCastling,
    pub(super) gui: GuiProfile,
    log: Option<PathBuf>,
    /// Engine options of the settings, set after the engine's `uciok`.
    pub(super) engine_options: Vec<(String, String)>,
    /// Made at the first draw after a change of options.
    source: Option<PositionSource>,
    /// This game's start position (injection), if drawn.
    drawn: Option<Drawn>,
}

impl OwnOptions {
    pub(super) fn new(settings: &Settings, fallback_seed: u64) -> OwnOptions {
        let (start_name, sp, book) = match &settings.start {
            None => ("gui".to_string(), 518, None),
            Some(MethodSpec::Fixed(n)) => {
                ("sp".to_string(), n.first().copied().unwrap_or(518), None)
            }
            Some(spec @ MethodSpec::Book { path, .. }) => {
                (spec.name().to_string(), 518, Some(path.clone()))
            }
            Some(other) => (other.name().to_string(), 518, None),
        };
        OwnOptions {
            start_name,
            cli_start: settings.start.clone(),
            sp,
            book,
            seed: settings.seed,
            fallback_seed,
            engine_fen: settings.engine_fen,
            gui_castling: settings.gui_castling,
            gui: settings.gui,
            log: settings.log.clone(),
            engine_options: settings.engine_options.clone(),
            source: None,
            drawn: None,
        }
    }

    /// Sets one option from the GUI's `setoption`.
    pub(super) fn set(
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
            ProxyOption::Gui => self.gui = GuiProfile::from_str(value)?,
            ProxyOption::Log => {
                self.log = (!value.is_empty()).then(|| PathBuf::from(value));
                out.push(Out::SetLog(self.log.clone()));
            }
        }
        self.source = None;
        Ok(())
    }

    /// The declarations shown to the GUI, with the values in force.
    pub(super) fn declarations(&self) -> Vec<OptionDecl> {
        let seed = self.seed.map(|s| s.to_string()).unwrap_or_default();
        let path = |p: &Option<PathBuf>| {
            p.as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        };
        let start = match &self.cli_start {
            Some(spec) => spec.name().to_string(),
            None => self.start_name.clone(),
        };
        options::declarations(&Shown {
            start: &start,
            sp: self.sp,
            seed: &seed,
            book: &path(&self.book),
            engine_fen: &self.engine_fen.to_string(),
            gui_castling: &self.gui_castling.to_string(),
            gui: &self.gui.to_string(),
            log: &path(&self.log),
        })
    }

    /// Whether positions are injected (a start method other than `gui`).
    pub(super) fn injects(&self) -> bool {
        self.start_spec().is_some()
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

    /// A new game: forgets the drawn position and, when injecting, draws
    /// the next one.
    pub(super) fn new_game(&mut self, out: &mut Vec<Out>) {
        self.drawn = None;
        if self.injects() {
            self.draw(out);
        }
    }

    /// This game's start position, drawn now if not yet.
    pub(super) fn start_position(&mut self, out: &mut Vec<Out>) -> Option<Drawn> {
        match &self.drawn {
            Some(d) => Some(d.clone()),
            None => self.draw(out),
        }
    }

    /// Draws the next start position and announces it.
    fn draw(&mut self, out: &mut Vec<Out>) -> Option<Drawn> {
        let spec = match self.start_spec()? {
            Ok(spec) => spec,
            Err(e) => {
                tell(out, e.to_string(), true);
                return None;
            }
        };
        if self.source.is_none() {
            match PositionSource::new(&spec, self.seed.unwrap_or(self.fallback_seed)) {
                Ok(s) => self.source = Some(s),
                Err(e) => {
                    tell(out, format!("start method {spec}: {e}"), true);
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
}
