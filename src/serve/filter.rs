//! Safe UCI: what the server lets through between a remote client and its
//! engine. Sans-IO: lines and the time in, verdicts out.
//!
//! Client → engine:
//! * only the UCI commands a GUI sends pass (`uci`, `debug`, `isready`,
//!   `setoption`, `ucinewgame`, `position`, `go`, `stop`, `ponderhit`,
//!   `quit`): Stockfish's own extras such as `export_net FILE` or
//!   `bench … FILE` touch files and are refused;
//! * `setoption` only for options the engine declared and the server did
//!   not hide; `Threads` and `Hash` above the ceilings are lowered to them;
//! * a line with a control character or invalid UTF-8 is refused (a line
//!   never carries a `\n`: the stream is split at each one first);
//! * an empty line is a keep-alive and goes nowhere;
//! * lines a second are held to the ceiling (a burst of one second's
//!   worth is allowed): [`Filter::admit`] says when the next line may
//!   pass, and the connection reads nothing from the client until then, so
//!   a flood is slowed by TCP's own back-pressure, and nothing is lost or
//!   reordered. A ceiling, like `Threads` and `Hash`, lowers what is asked
//!   rather than ending the session: a client that merely bursts (a GUI
//!   replaying a long analysis) keeps its engine.
//!
//! Engine → client: declarations of options that reach the server's files
//! or processes are hidden (see [`is_file_option`]), as are options the
//! server sets itself; `Threads`/`Hash` declare the ceilings as their
//! maximum. At `uciok` the server's own option values go to the engine.
//!
//! A search (from `go` to `bestmove`) longer than the search-time ceiling
//! gets a `stop`; an engine that still has not answered [`STOP_GRACE`]
//! later has its connection closed.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::uci::{OptionDecl, OptionKind, SetOption};

/// How long an engine may take to answer the ceiling's `stop`.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

/// The commands that pass.
const COMMANDS: [&str; 10] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// Option names known to take a path (normalized, see [`normalize`]).
const FILE_OPTIONS: [&str; 9] = [
    "debug log file",
    "syzygypath",
    "evalfile",
    "evalfilesmall",
    "bookfile",
    "book file",
    "nnuefile",
    "variantpath",
    "gaviotatbpath",
];

/// Words in an option's name that say it names a file.
const FILE_WORDS: [&str; 6] = ["file", "path", "dir", "folder", "log", "book"];

/// Per-connection ceilings.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_threads: i64,
    pub max_hash: i64,
    pub max_search: Duration,
    pub lines_per_second: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_threads: 1,
            max_hash: 256,
            max_search: Duration::from_secs(600),
            lines_per_second: 5000,
        }
    }
}

/// What to do with a client's line.
#[derive(Debug, PartialEq, Eq)]
pub enum FromClient {
    /// Send it to the engine as it is.
    Forward,
    /// Send this instead, and tell the client why.
    Rewrite { line: Vec<u8>, note: String },
    /// Nothing (a keep-alive).
    Drop,
    /// Not sent; the client is told why, and the refusal is logged.
    Refuse(String),
}

/// What to do with an engine's line.
#[derive(Debug, PartialEq, Eq)]
pub enum FromEngine {
    Forward,
    Rewrite(Vec<u8>),
    /// Hidden from the client.
    Drop,
    /// `uciok`: send these to the engine first, then forward it.
    UciOk(Vec<Vec<u8>>),
}

/// What the clock says.
#[derive(Debug, PartialEq, Eq)]
pub enum Tick {
    Nothing,
    /// Send `stop` to the engine (the search ceiling passed).
    Stop(String),
    Close(String),
}

/// One connection's filter.
#[derive(Debug)]
pub struct Filter {
    limits: Limits,
    /// Normalized names of file options the server allows.
    allowed: HashSet<String>,
    /// The server's own option values (normalized name, name, value).
    preset: Vec<(String, String, String)>,
    declared: HashSet<String>,
    hidden: HashSet<String>,
    search_from: Option<Instant>,
    stop_at: Option<Instant>,
    tokens: f64,
    tokens_at: Option<Instant>,
}

/// Lower case, single spaces: how engines compare option names
/// (Stockfish ignores case), so `debug  LOG file` is caught too.
pub fn normalize(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// Whether an option can reach the server's files or processes: a known
/// path option, any `string` option (engines' free-text options are paths
/// in practice: log files, tablebases, networks, books), or a name that
/// says file, path, folder, log or book.
pub fn is_file_option(decl: &OptionDecl) -> bool {
    let name = normalize(&decl.name);
    matches!(decl.kind, OptionKind::String { .. })
        || FILE_OPTIONS.contains(&name.as_str())
        || name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| FILE_WORDS.iter().any(|f| w == *f || w.ends_with(f)))
}

impl Filter {
    /// A filter with the server's ceilings, allowed file options and its
    /// own option values.
    pub fn new(limits: Limits, allowed: &[String], preset: &[(String, String)]) -> Filter {
        Filter {
            tokens: f64::from(limits.lines_per_second.max(1)),
            limits,
            allowed: allowed.iter().map(|a| normalize(a)).collect(),
            preset: preset
                .iter()
                .map(|(n, v)| (normalize(n), n.clone(), v.clone()))
                .collect(),
            declared: HashSet::new(),
            hidden: HashSet::new(),
            search_from: None,
            stop_at: None,
            tokens_at: None,
        }
    }

    /// Judges a client's line (without its `\n`), once [`Filter::admit`]
    /// let it pass.
    pub fn from_client(&mut self, line: &[u8], now: Instant) -> FromClient {
        self.refill(now);
        self.tokens -= 1.0;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(text) = std::str::from_utf8(line) else {
            return FromClient::Refuse("a line that is not UTF-8".into());
        };
        if text.chars().any(|c| c.is_control() && c != '\t') {
            return FromClient::Refuse("a line with a control character".into());
        }
        let Some(command) = text.split_whitespace().next() else {
            return FromClient::Drop;
        };
        if !COMMANDS.contains(&command) {
            return FromClient::Refuse(format!(
                "'{}' is not a UCI command this server passes",
                crate::excerpt::excerpt(command, 40)
            ));
        }
        match command {
            "setoption" => self.setoption(text),
            "go" => {
                self.search_from.get_or_insert(now);
                FromClient::Forward
            }
            _ => FromClient::Forward,
        }
    }

    fn setoption(&mut self, text: &str) -> FromClient {
        let Some(set) = SetOption::parse(text) else {
            return FromClient::Refuse("a setoption without a name".into());
        };
        let name = normalize(&set.name);
        let shown = crate::excerpt::excerpt(&set.name, 60);
        if self.preset.iter().any(|(n, _, _)| *n == name) {
            return FromClient::Refuse(format!("option '{shown}' is set by the server"));
        }
        if self.hidden.contains(&name) {
            return FromClient::Refuse(format!(
                "option '{shown}' reaches the server's files and is not allowed here"
            ));
        }
        if !self.declared.contains(&name) {
            return FromClient::Refuse(format!("the engine declared no option '{shown}'"));
        }
        let ceiling = match name.as_str() {
            "threads" => Some(self.limits.max_threads),
            "hash" => Some(self.limits.max_hash),
            _ => None,
        };
        if let (Some(max), Some(value)) = (ceiling, set.value.as_deref()) {
            let asked: Option<i64> = value.trim().parse().ok();
            if asked.is_none_or(|v| v > max) {
                let line = SetOption {
                    name: set.name.clone(),
                    value: Some(max.to_string()),
                };
                return FromClient::Rewrite {
                    line: line.to_string().into_bytes(),
                    note: format!("{} {value} lowered to the server's ceiling {max}", set.name),
                };
            }
        }
        FromClient::Forward
    }

    /// Judges an engine's line.
    pub fn from_engine(&mut self, line: &[u8]) -> FromEngine {
        let first = crate::uci::tokens(line).next().unwrap_or(b"");
        match first {
            b"option" => {
                let text = String::from_utf8_lossy(line);
                let Some(mut decl) = OptionDecl::parse(&text) else {
                    return FromEngine::Forward;
                };
                let name = normalize(&decl.name);
                if self.preset.iter().any(|(n, _, _)| *n == name)
                    || (is_file_option(&decl) && !self.allowed.contains(&name))
                {
                    self.hidden.insert(name);
                    return FromEngine::Drop;
                }
                let ceiling = match name.as_str() {
                    "threads" => Some(self.limits.max_threads),
                    "hash" => Some(self.limits.max_hash),
                    _ => None,
                };
                self.declared.insert(name);
                if let (
                    Some(max),
                    OptionKind::Spin {
                        default, max: m, ..
                    },
                ) = (ceiling, &mut decl.kind)
                    && m.is_none_or(|m| m > max)
                {
                    *m = Some(max);
                    *default = default.map(|d| d.min(max));
                    return FromEngine::Rewrite(decl.to_string().into_bytes());
                }
                FromEngine::Forward
            }
            b"uciok" => FromEngine::UciOk(
                self.preset
                    .iter()
                    .map(|(_, n, v)| format!("setoption name {n} value {v}").into_bytes())
                    .collect(),
            ),
            b"bestmove" => {
                self.search_from = None;
                self.stop_at = None;
                FromEngine::Forward
            }
            _ => FromEngine::Forward,
        }
    }

    /// When [`Filter::tick`] has something to do, if ever.
    pub fn next_deadline(&self) -> Option<Instant> {
        match (self.stop_at, self.search_from) {
            (Some(stop), _) => Some(stop + STOP_GRACE),
            (None, Some(from)) => Some(from + self.limits.max_search),
            _ => None,
        }
    }

    /// What the search ceiling asks for at `now`.
    pub fn tick(&mut self, now: Instant) -> Tick {
        match (self.stop_at, self.search_from) {
            (Some(stop), _) if now >= stop + STOP_GRACE => Tick::Close(format!(
                "the engine did not answer stop within {STOP_GRACE:?}"
            )),
            (None, Some(from)) if now >= from + self.limits.max_search => {
                self.stop_at = Some(now);
                Tick::Stop(format!(
                    "search stopped at the server's ceiling of {:?}",
                    self.limits.max_search
                ))
            }
            _ => Tick::Nothing,
        }
    }

    /// The lines-per-second ceiling, a token bucket (one second's worth of
    /// burst, refilled continuously): `None` when a client line may pass
    /// now, else the time one may. Each line [`Filter::from_client`] judges
    /// takes a token.
    pub fn admit(&mut self, now: Instant) -> Option<Instant> {
        self.refill(now);
        // (The epsilon: a token earned in float arithmetic may fall a hair
        // short of 1.)
        if self.tokens >= 1.0 - 1e-9 {
            return None;
        }
        let rate = f64::from(self.limits.lines_per_second.max(1));
        let wait = (1.0 - self.tokens) / rate;
        // At least a millisecond: a wake-up that finds no token yet would
        // only ask again.
        Some(now + Duration::from_secs_f64(wait).max(Duration::from_millis(1)))
    }

    fn refill(&mut self, now: Instant) {
        let rate = f64::from(self.limits.lines_per_second.max(1));
        if let Some(at) = self.tokens_at {
            let earned = now.saturating_duration_since(at).as_secs_f64() * rate;
            self.tokens = (self.tokens + earned).min(rate);
        }
        self.tokens_at = Some(now.max(self.tokens_at.unwrap_or(now)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SF_OPTIONS: [&str; 8] = [
        "option name Debug Log File type string default <empty>",
        "option name NumaPolicy type string default auto",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name Hash type spin default 16 min 1 max 33554432",
        "option name SyzygyPath type string default <empty>",
        "option name EvalFile type string default nn-1c0000000000.nnue",
        "option name UCI_Chess960 type check default false",
        "option name Skill Level type spin default 20 min 0 max 20",
    ];

    fn handshaken(allowed: &[String], preset: &[(String, String)]) -> (Filter, Vec<String>) {
        let limits = Limits {
            max_threads: 2,
            max_hash: 64,
            max_search: Duration::from_secs(10),
            lines_per_second: 100,
        };
        let mut f = Filter::new(limits, allowed, preset);
        let mut shown = Vec::new();
        for line in SF_OPTIONS {
            match f.from_engine(line.as_bytes()) {
                FromEngine::Forward => shown.push(line.to_string()),
                FromEngine::Rewrite(l) => shown.push(String::from_utf8(l).unwrap()),
                FromEngine::Drop => {}
                FromEngine::UciOk(_) => unreachable!(),
            }
        }
        (f, shown)
    }

    #[test]
    fn file_options_are_hidden_and_refused_in_any_spelling() {
        let (mut f, shown) = handshaken(&[], &[]);
        assert_eq!(
            shown,
            [
                "option name Threads type spin default 1 min 1 max 2",
                "option name Hash type spin default 16 min 1 max 64",
                "option name UCI_Chess960 type check default false",
                "option name Skill Level type spin default 20 min 0 max 20",
            ]
        );
        let now = Instant::now();
        for line in [
            "setoption name Debug Log File value /tmp/x",
            "setoption name debug   log FILE value /tmp/x",
            "setoption name SyzygyPath value /",
            "setoption name EvalFile value /etc/passwd",
            "setoption name NumaPolicy value 0",
        ] {
            let v = f.from_client(line.as_bytes(), now);
            assert!(
                matches!(v, FromClient::Refuse(ref r) if r.contains("files")),
                "{line}: {v:?}"
            );
        }
        assert!(matches!(
            f.from_client(b"setoption name Made Up value 1", now),
            FromClient::Refuse(r) if r.contains("no option")
        ));
        assert_eq!(
            f.from_client(b"setoption name UCI_Chess960 value true", now),
            FromClient::Forward
        );
    }

    #[test]
    fn an_allowed_file_option_passes_and_a_preset_one_is_locked() {
        let preset = vec![("SyzygyPath".to_string(), "/srv/tb".to_string())];
        let (mut f, shown) = handshaken(&["Debug Log File".to_string()], &preset);
        assert!(shown.iter().any(|l| l.contains("Debug Log File")));
        assert!(!shown.iter().any(|l| l.contains("SyzygyPath")));
        let now = Instant::now();
        assert_eq!(
            f.from_client(b"setoption name Debug Log File value x", now),
            FromClient::Forward
        );
        assert!(matches!(
            f.from_client(b"setoption name SyzygyPath value /", now),
            FromClient::Refuse(r) if r.contains("set by the server")
        ));
        assert_eq!(
            f.from_engine(b"uciok"),
            FromEngine::UciOk(vec![b"setoption name SyzygyPath value /srv/tb".to_vec()])
        );
    }

    #[test]
    fn ceilings_lower_threads_and_hash() {
        let (mut f, _) = handshaken(&[], &[]);
        let now = Instant::now();
        assert_eq!(
            f.from_client(b"setoption name Threads value 2", now),
            FromClient::Forward
        );
        for (line, want) in [
            (
                "setoption name Threads value 64",
                "setoption name Threads value 2",
            ),
            (
                "setoption name hash value 99999",
                "setoption name hash value 64",
            ),
            (
                "setoption name Hash value lots",
                "setoption name Hash value 64",
            ),
        ] {
            match f.from_client(line.as_bytes(), now) {
                FromClient::Rewrite { line, note } => {
                    assert_eq!(String::from_utf8(line).unwrap(), want);
                    assert!(note.contains("ceiling"), "{note}");
                }
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn only_uci_commands_pass_and_odd_bytes_are_refused() {
        let (mut f, _) = handshaken(&[], &[]);
        let now = Instant::now();
        for ok in [
            "uci",
            "isready",
            "position startpos moves e2e4",
            "go depth 3",
            "stop",
            "quit\r",
        ] {
            assert_eq!(
                f.from_client(ok.as_bytes(), now),
                FromClient::Forward,
                "{ok}"
            );
        }
        assert_eq!(f.from_client(b"   ", now), FromClient::Drop);
        for bad in [
            &b"export_net /tmp/x"[..],
            b"bench 16 1 13 /etc/passwd",
            b"eval",
            b"isready\x00quit",
            b"go \xff",
            b"position\rquit",
        ] {
            assert!(
                matches!(f.from_client(bad, now), FromClient::Refuse(_)),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_flood_is_held_to_the_ceiling_and_a_steady_client_is_not() {
        let (mut f, _) = handshaken(&[], &[]);
        let t0 = Instant::now();
        // 100 a second: a burst of 100, then one every 10 ms.
        let line = |f: &mut Filter, t| {
            assert_eq!(f.admit(t), None);
            assert_eq!(f.from_client(b"isready", t), FromClient::Forward);
        };
        for _ in 0..100 {
            line(&mut f, t0);
        }
        let next = f.admit(t0).expect("the 101st line waits");
        assert_eq!(next, t0 + Duration::from_millis(10));
        // Asking again early changes nothing; at the time given, it passes.
        assert_eq!(f.admit(t0 + Duration::from_millis(4)), Some(next));
        line(&mut f, next);
        for i in 2..500u64 {
            line(&mut f, t0 + Duration::from_millis(10 * i));
        }
        // A flood of 1,000 lines at once passes at the ceiling's pace: the
        // burst at once, then one each time the filter gives, 10 ms apart.
        let mut now = t0 + Duration::from_secs(10);
        let mut waited = 0;
        for _ in 0..1000 {
            while let Some(at) = f.admit(now) {
                assert!(at > now);
                now = at;
                waited += 1;
            }
            line(&mut f, now);
        }
        assert_eq!(waited, 900);
        let took = now - (t0 + Duration::from_secs(10));
        assert!(
            took.abs_diff(Duration::from_secs(9)) < Duration::from_millis(1),
            "{took:?}"
        );
    }

    #[test]
    fn a_long_search_is_stopped_then_closed() {
        let (mut f, _) = handshaken(&[], &[]);
        let t0 = Instant::now();
        assert_eq!(f.next_deadline(), None);
        f.from_client(b"go infinite", t0);
        assert_eq!(f.next_deadline(), Some(t0 + Duration::from_secs(10)));
        assert_eq!(f.tick(t0 + Duration::from_secs(9)), Tick::Nothing);
        let t1 = t0 + Duration::from_secs(10);
        assert!(matches!(f.tick(t1), Tick::Stop(_)));
        assert_eq!(f.tick(t1 + Duration::from_secs(1)), Tick::Nothing);
        assert!(matches!(f.tick(t1 + STOP_GRACE), Tick::Close(_)));
        // A bestmove ends the search.
        f.from_engine(b"bestmove e2e4");
        assert_eq!(f.next_deadline(), None);
    }
}
