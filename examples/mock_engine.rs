//! The one mock UCI engine of the test suite, on Linux and (built as
//! `mock_engine.exe`) under wine: a legal-move player on shakmaty that can
//! be told, by command-line flags, to misbehave in the ways a real engine
//! will not on demand. Tests find it with `common::mock_engine()`.
//!
//! ```text
//! cargo build --example mock_engine
//! printf 'uci\nposition startpos moves e2e4\ngo perft 1\nquit\n' \
//!     | target/debug/examples/mock_engine --king-two-squares
//! ```
//!
//! Without flags it is a correct, very weak Chess960 engine: it answers
//! `uci` (declaring `UCI_Chess960`), `isready`, `ucinewgame`, `setoption`,
//! `position startpos|fen ... [moves ...]` (castles read in either
//! notation), `go` (mate in one if there is one, else the first legal move
//! in UCI text order, with one `info depth 1 ... pv` line), `go infinite`
//! and `go ponder` (answered at `stop`/`ponderhit`), `stop` and `quit`;
//! `go perft N` prints a Stockfish-style divide (`e2e4: 20` lines, a blank
//! line, `Nodes searched: N`). Castles are written king-takes-rook
//! (`e1h1`) when `UCI_Chess960` is on, as the king's destination otherwise.
//!
//! "The N-th go" counts every `go` (perft included) since the last
//! `ucinewgame` (or the start), so in a match N is the engine's N-th move
//! of each game. `=N` defaults to 1 where it is optional.
//!
//! Fault flags (the names are stable: the tests of several areas use them):
//!
//! | flag | behaviour |
//! |---|---|
//! | `--crash-on-go[=N]` | on its N-th go: one `info depth 1 ... pv` line, then a crash. Unix: SIGSEGV (default action, so the parent sees "killed by signal 11"). Windows: exit status `0xC0000005` (STATUS_ACCESS_VIOLATION) through `ExitProcess`, the status a real access violation leaves, without undefined behaviour |
//! | `--crash-exit=CODE` | crash by `exit(CODE)` instead (alone it means `--crash-on-go=1`) |
//! | `--crash-on-uci` | answers `uci` with `id name` only, then crashes as above (an engine that dies at start) |
//! | `--silent` | reads its input, never writes a byte (not a UCI engine) |
//! | `--hang-after-uci` | completes the handshake, then answers nothing (`isready`, `go`, `stop` unanswered) |
//! | `--slow-uciok` | sends `uciok` only after `--delay-ms` (a GUI's lines pile up before the handshake ends) |
//! | `--hang-after-go` | answers normally until its first go, then nothing |
//! | `--ignore-quit` | ignores `quit` and (Unix) SIGTERM; it still exits at end of input, or when killed |
//! | `--stall-on-go=N` | never answers its N-th go, not even at `stop`; everything else is answered |
//! | `--slow-on-go=N` | answers its N-th go only after `--delay-ms` (time forfeits) |
//! | `--delay-ms=MS` | the delay of `--slow-on-go` and `--slow-uciok` (default 1000) |
//! | `--garbage` | answers every go with: `info string \xff\xfe not utf-8`, a 1 MiB `info string xxx...` line, `info depth 1 pv e2e4\r\n`, an empty line, `\x00\x01 random bytes`, `bestmove e2e4\r\n` |
//! | `--illegal-move[=N]` | its N-th go is answered with an illegal move: `e2e5` (`a1a1` should `e2e5` be legal) |
//! | `--escape-move[=N]` | its N-th go is answered with `bestmove ESC[2JESC[31mzz9` and a C1 CSI (`U+009B`) then `0m`: terminal escape sequences in an illegal move |
//! | `--king-two-squares` | declares `UCI_Chess960` yet castles whenever it can (first castle in text order) and writes castles as the king's destination (`e1g1`) in `bestmove` and `pv`; reads them so in `position ... moves` too, in any setup (a text that is also a plain king move is that move), and king takes rook as well (an engine that speaks standard notation in Chess960: `castles=standard`) |
//! | `--king-two-squares-perft` | the same notation in its perft divide too (what a real engine with this bug does; the perft checks then fail as well) |
//! | `--no-chess960` | does not declare `UCI_Chess960` |
//! | `--drops-castles` | in `position ... moves`, silently drops the first castle and every move after it (as Stockfish does with moves it cannot read) |
//! | `--keeps-rights` | after `position ... moves`, gives back every castling right of the start position whose king and rook stand on their home squares again |
//! | `--bfile-perft` | its perft misses every castle of a king standing on the b-file, anywhere in the tree |
//! | `--shredder-misread` | ignores a Shredder-FEN castling field (file letters) whose White and Black files differ: no castling rights at all (Glaurung 2.2's DFRC bug, in its simplest form) |
//! | `--xfen-standard-rooks` | reads X-FEN `K`/`Q` as the rooks on the h/a files (a right only when such a rook stands there): the standard-chess reading of X-FEN; file letters (Shredder-FEN, X-FEN inner rooks) are read right |
//! | `--castles-through-pieces` | its perft also lists the castles blocked only by pieces between king and rook (counted as one node each) |
//! | `--leaks-rights` | castling rights lost in a `position ... moves` line stay lost, on the same rook squares, in later positions until `ucinewgame` |
//! | `--through-rook-square` | tests the king's squares of a castle with the castling rook still on its square: castles into check when a rook or queen stands beyond a b-file rook (Stockfish #3605's position), in bestmove and perft |
//! | `--refuses-attacked-rook` | never castles while the castling rook stands attacked (legal in chess), in bestmove and perft |
//! | `--inner-rook-misread` | where two rooks of one colour share a wing of the king, reads a castling right on one of them as the other's (innermost and outermost swap) |
//! | `--null-at-castles` | answers `bestmove 0000` whenever a castle is legal (perft is right) |
//! | `--pid-log=FILE` | appends `PID` at start, `PID new` per `ucinewgame` and (with `--fork-child`) `PID child CHILDPID` |
//! | `--setsid-child` | `--fork-child` with a grandchild that calls `setsid()` (Unix): it leaves the engine's session and process group |
//! | `--orphan-child` | at start leaves an orphan, as a daemon does: a middle process spawns the helper (this program, `--idle-child`, after `setsid()` on Unix) and exits at once, so the helper's parent is gone while the engine runs; logged and announced as with `--fork-child` |
//! | `--ignore-eof` | at end of input lives on (at most 10 minutes) instead of exiting: an engine that only a signal ends |
//! | `--fork-child` | at start spawns a grandchild (this program, `--idle-child`) that keeps stdout/stderr open and lives until killed (at most 10 minutes); its pid goes to the pid log and to an `info string grandchild pid N` line before `id name` |
//! | `--announce-pid` | an `info string pid N` line (its own pid) before `id name`: a test learns the engine's pid from the protocol, with no file to wait for |
//! | `--flood` | after `uciok` writes `info string flood ...` lines forever, never reading its input again (ends when the pipe closes) |
//! | `--name=NAME` | the `id name` (default `mock_engine`) |
//! | `--spam-stderr=BYTES` | before each answer to `go`, BYTES of 64-byte `info string stderr spam ...` lines to its stderr (blocking writes: it hangs on a stderr nobody reads) |
//! | `--long-line=BYTES` | before each answer to `go`, an `info string xxx...` line of BYTES `x` (written in 64 KiB pieces, so the mock itself holds little) |
//!
//! Unknown flags exit with status 2 and a message on stderr.

use std::fs::OpenOptions;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, File, FromSetup, Move, Position,
};

#[derive(Default)]
struct Faults {
    crash_on_go: Option<u32>,
    crash_exit: Option<i32>,
    crash_on_uci: bool,
    silent: bool,
    hang_after_uci: bool,
    slow_uciok: bool,
    hang_after_go: bool,
    ignore_quit: bool,
    stall_on_go: Option<u32>,
    slow_on_go: Option<u32>,
    delay_ms: u64,
    garbage: bool,
    illegal_move: Option<u32>,
    escape_move: bool,
    king_two_squares: bool,
    king_two_squares_perft: bool,
    no_chess960: bool,
    drops_castles: bool,
    keeps_rights: bool,
    bfile_perft: bool,
    shredder_misread: bool,
    xfen_standard_rooks: bool,
    castles_through_pieces: bool,
    leaks_rights: bool,
    through_rook_square: bool,
    refuses_attacked_rook: bool,
    inner_rook_misread: bool,
    null_at_castles: bool,
    pid_log: Option<String>,
    fork_child: bool,
    setsid_child: bool,
    ignore_eof: bool,
    announce_pid: bool,
    flood: bool,
    long_line: Option<u64>,
    spam_stderr: Option<u64>,
    idle_child: bool,
    orphan_child: bool,
    spawn_orphan: bool,
    name: String,
}

fn usage(msg: &str) -> ! {
    eprintln!("mock_engine: {msg} (the flags are listed in examples/mock_engine.rs)");
    std::process::exit(2);
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<&str>, default: Option<T>) -> T {
    match (value, default) {
        (None, Some(d)) => d,
        (None, None) => usage(&format!("{flag} needs =VALUE")),
        (Some(v), _) => v
            .parse()
            .unwrap_or_else(|_| usage(&format!("{flag}: '{v}' is not a number"))),
    }
}

fn parse_args() -> Faults {
    let mut f = Faults {
        delay_ms: 1000,
        name: "mock_engine".into(),
        ..Faults::default()
    };
    for arg in std::env::args().skip(1) {
        let (flag, value) = match arg.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v)),
            None => (arg.clone(), None),
        };
        let flag = flag.as_str();
        match flag {
            "--crash-on-go" => f.crash_on_go = Some(number(flag, value, Some(1))),
            "--crash-exit" => f.crash_exit = Some(number(flag, value, None)),
            "--crash-on-uci" => f.crash_on_uci = true,
            "--silent" => f.silent = true,
            "--hang-after-uci" => f.hang_after_uci = true,
            "--slow-uciok" => f.slow_uciok = true,
            "--hang-after-go" => f.hang_after_go = true,
            "--ignore-quit" => f.ignore_quit = true,
            "--stall-on-go" => f.stall_on_go = Some(number(flag, value, Some(1))),
            "--slow-on-go" => f.slow_on_go = Some(number(flag, value, Some(1))),
            "--delay-ms" => f.delay_ms = number(flag, value, None),
            "--garbage" => f.garbage = true,
            "--illegal-move" => f.illegal_move = Some(number(flag, value, Some(1))),
            "--escape-move" => {
                f.illegal_move = Some(number(flag, value, Some(1)));
                f.escape_move = true;
            }
            "--king-two-squares" => f.king_two_squares = true,
            "--king-two-squares-perft" => {
                f.king_two_squares = true;
                f.king_two_squares_perft = true;
            }
            "--no-chess960" => f.no_chess960 = true,
            "--drops-castles" => f.drops_castles = true,
            "--keeps-rights" => f.keeps_rights = true,
            "--bfile-perft" => f.bfile_perft = true,
            "--shredder-misread" => f.shredder_misread = true,
            "--xfen-standard-rooks" => f.xfen_standard_rooks = true,
            "--castles-through-pieces" => f.castles_through_pieces = true,
            "--leaks-rights" => f.leaks_rights = true,
            "--through-rook-square" => f.through_rook_square = true,
            "--refuses-attacked-rook" => f.refuses_attacked_rook = true,
            "--inner-rook-misread" => f.inner_rook_misread = true,
            "--null-at-castles" => f.null_at_castles = true,
            "--pid-log" => match value {
                Some(v) => f.pid_log = Some(v.to_string()),
                None => usage("--pid-log needs =FILE"),
            },
            "--fork-child" => f.fork_child = true,
            "--setsid-child" => {
                f.fork_child = true;
                f.setsid_child = true;
            }
            "--ignore-eof" => f.ignore_eof = true,
            "--announce-pid" => f.announce_pid = true,
            "--flood" => f.flood = true,
            "--long-line" => f.long_line = Some(number(flag, value, None)),
            "--spam-stderr" => f.spam_stderr = Some(number(flag, value, None)),
            "--idle-child" => f.idle_child = true,
            "--orphan-child" => f.orphan_child = true,
            "--spawn-orphan" => f.spawn_orphan = true,
            "--name" => match value {
                Some(v) => f.name = v.to_string(),
                None => usage("--name needs =NAME"),
            },
            _ => usage(&format!("unknown flag '{arg}'")),
        }
    }
    if f.crash_exit.is_some() && f.crash_on_go.is_none() && !f.crash_on_uci {
        f.crash_on_go = Some(1);
    }
    f
}

/// What the search of a `go` does this time.
enum GoFault {
    None,
    Crash,
    Stall,
    Slow,
    Illegal,
}

struct Mock {
    f: Faults,
    out: io::Stdout,
    start: Chess,
    pos: Chess,
    chess960: bool,
    goes: u32,
    /// After `--hang-after-*` triggered: read, never answer.
    hung: bool,
    /// A `go infinite`/`go ponder` waiting for `stop`: the answer to give.
    pending: Option<Vec<Vec<u8>>>,
    /// `--leaks-rights`: rook squares whose rights were lost since `ucinewgame`.
    lost_rights: Bitboard,
}

fn main() {
    let f = parse_args();
    if f.idle_child {
        // The grandchild of `--fork-child`: holds the inherited pipes open.
        std::thread::sleep(Duration::from_secs(600));
        return;
    }
    if f.spawn_orphan {
        // The middle process of `--orphan-child`: starts the helper, says
        // its pid, exits.
        let helper = std::env::current_exe().and_then(|exe| {
            let mut command = std::process::Command::new(exe);
            command
                .arg("--idle-child")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null());
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt;
                // SAFETY: setsid is async-signal-safe.
                unsafe {
                    command.pre_exec(|| {
                        libc::setsid();
                        Ok(())
                    });
                }
            }
            command.spawn()
        });
        match helper {
            Ok(h) => println!("{}", h.id()),
            Err(e) => usage(&format!("--orphan-child: cannot spawn: {e}")),
        }
        return;
    }
    let mut child_pid = None;
    if f.orphan_child {
        let middle = std::env::current_exe().and_then(|exe| {
            std::process::Command::new(exe)
                .arg("--spawn-orphan")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::inherit())
                .output()
        });
        match middle {
            Ok(out) => {
                child_pid = String::from_utf8_lossy(&out.stdout).trim().parse().ok();
            }
            Err(e) => usage(&format!("--orphan-child: cannot spawn: {e}")),
        }
    }
    if f.fork_child {
        // Never waited for on purpose: the grandchild is meant to outlive us.
        #[allow(clippy::zombie_processes)]
        let child = std::env::current_exe()
            .and_then(|exe| {
                let mut command = std::process::Command::new(exe);
                command
                    .arg("--idle-child")
                    .stdin(std::process::Stdio::null());
                #[cfg(unix)]
                if f.setsid_child {
                    use std::os::unix::process::CommandExt;
                    // SAFETY: setsid is async-signal-safe.
                    unsafe {
                        command.pre_exec(|| {
                            libc::setsid();
                            Ok(())
                        });
                    }
                }
                command.spawn()
            })
            .unwrap_or_else(|e| usage(&format!("--fork-child: cannot spawn: {e}")));
        child_pid = Some(child.id());
    }
    let mut mock = Mock {
        f,
        out: io::stdout(),
        start: Chess::default(),
        pos: Chess::default(),
        chess960: false,
        goes: 0,
        hung: false,
        pending: None,
        lost_rights: Bitboard::EMPTY,
    };
    mock.log(&std::process::id().to_string());
    if let Some(c) = child_pid {
        mock.log(&format!("{} child {c}", std::process::id()));
    }
    #[cfg(unix)]
    if mock.f.ignore_quit {
        // SAFETY: installs SIG_IGN for SIGTERM before any other thread runs.
        unsafe {
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
        }
    }
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match input.read_until(b'\n', &mut raw) {
            Ok(0) | Err(_) if mock.f.ignore_eof => {
                // An engine that lives on without its input.
                std::thread::sleep(Duration::from_secs(600));
                break;
            }
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&raw);
        if !mock.command(line.trim(), child_pid) {
            break;
        }
    }
}

impl Mock {
    fn log(&self, text: &str) {
        if let Some(path) = &self.f.pid_log
            && let Ok(mut file) = OpenOptions::new().create(true).append(true).open(path)
        {
            let _ = writeln!(file, "{text}");
        }
    }

    /// Writes whole lines (each given without its line ending) and flushes.
    fn say(&mut self, lines: &[&str]) {
        if self.f.silent || self.hung {
            return;
        }
        let mut out = self.out.lock();
        for l in lines {
            let _ = out.write_all(l.as_bytes());
            let _ = out.write_all(b"\n");
        }
        let _ = out.flush();
    }

    fn say_raw(&mut self, bytes: &[u8]) {
        let mut out = self.out.lock();
        let _ = out.write_all(bytes);
        let _ = out.flush();
    }

    /// Handles one command; `false` ends the program.
    fn command(&mut self, line: &str, child_pid: Option<u32>) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&word) = tokens.first() else {
            return true;
        };
        match word {
            "uci" => {
                if let Some(c) = child_pid {
                    self.say(&[&format!("info string grandchild pid {c}")]);
                }
                if self.f.announce_pid {
                    self.say(&[&format!("info string pid {}", std::process::id())]);
                }
                let name = format!("id name {}", self.f.name);
                self.say(&[&name, "id author uci960 tests"]);
                if self.f.crash_on_uci {
                    crash(self.f.crash_exit);
                }
                if !self.f.no_chess960 {
                    self.say(&["option name UCI_Chess960 type check default false"]);
                }
                if self.f.slow_uciok {
                    std::thread::sleep(Duration::from_millis(self.f.delay_ms));
                }
                self.say(&["uciok"]);
                if self.f.hang_after_uci {
                    self.hung = true;
                }
                if self.f.flood {
                    self.flood();
                }
            }
            "isready" => self.say(&["readyok"]),
            "ucinewgame" => {
                self.goes = 0;
                self.lost_rights = Bitboard::EMPTY;
                self.log(&format!("{} new", std::process::id()));
            }
            "setoption" => {
                let text = line.to_ascii_lowercase();
                if text.contains("name uci_chess960 value") {
                    self.chess960 = text.trim_end().ends_with("true");
                }
            }
            "position" => self.position(&tokens[1..]),
            "go" => self.go(&tokens[1..]),
            "stop" | "ponderhit" => {
                if let Some(lines) = self.pending.take() {
                    let lines: Vec<String> = lines
                        .into_iter()
                        .map(|l| String::from_utf8_lossy(&l).into_owned())
                        .collect();
                    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
                    self.say(&refs);
                }
            }
            "quit" => return self.f.ignore_quit,
            _ => {}
        }
        true
    }

    fn flood(&mut self) -> ! {
        let pad = "x".repeat(200);
        let mut out = self.out.lock();
        for n in 0u64.. {
            if writeln!(out, "info string flood {n} {pad}").is_err() {
                break;
            }
        }
        std::process::exit(0);
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.first() {
            Some(&"startpos") => Some(Chess::default()),
            Some(&"fen") => Fen::from_ascii(misread_field(&self.f, &setup[1..]).as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok()),
            _ => None,
        };
        let Some(mut start) = start else {
            self.say(&["info string mock_engine: cannot read that position"]);
            return;
        };
        if self.f.inner_rook_misread {
            start = castling_bugs::swap_shared_rights(&start);
        }
        let mut pos = start.clone();
        for token in moves {
            let Some(m) = token.parse::<UciMove>().ok().and_then(|u| {
                let read = u.to_move(&pos).ok();
                if self.f.king_two_squares {
                    read_two_squares(&pos, &u, read)
                } else {
                    read
                }
            }) else {
                break;
            };
            if self.f.drops_castles && m.is_castle() {
                break;
            }
            pos.play_unchecked(m);
        }
        if self.f.keeps_rights && !moves.is_empty() {
            pos = restore_rights(&start, pos);
        }
        if self.f.leaks_rights {
            self.lost_rights |=
                start.castles().castling_rights() & !pos.castles().castling_rights();
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.castling_rights &= !self.lost_rights;
            if let Ok(p) = Chess::from_setup(setup, CastlingMode::Chess960) {
                pos = p;
            }
        }
        self.start = start;
        self.pos = pos;
    }

    fn notation(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    fn write_move(&self, m: Move, in_perft: bool) -> String {
        let two_squares = self.f.king_two_squares && (!in_perft || self.f.king_two_squares_perft);
        let mode = if two_squares {
            CastlingMode::Standard
        } else {
            self.notation()
        };
        UciMove::from_move(m, mode).to_string()
    }

    fn go(&mut self, args: &[&str]) {
        if self.hung {
            return;
        }
        self.goes += 1;
        let n = self.goes;
        if self.f.hang_after_go {
            self.hung = true;
            return;
        }
        if let ["perft", depth, ..] = args
            && let Ok(depth) = depth.parse::<u32>()
        {
            if self.f.crash_on_go == Some(n) {
                crash(self.f.crash_exit);
            }
            self.perft(depth);
            return;
        }
        let fault = if self.f.crash_on_go == Some(n) {
            GoFault::Crash
        } else if self.f.stall_on_go == Some(n) {
            GoFault::Stall
        } else if self.f.slow_on_go == Some(n) {
            GoFault::Slow
        } else if self.f.illegal_move == Some(n) {
            GoFault::Illegal
        } else {
            GoFault::None
        };
        if self.f.garbage {
            self.garbage();
            return;
        }
        if let Some(bytes) = self.f.spam_stderr {
            spam_stderr(bytes);
        }
        if let Some(bytes) = self.f.long_line {
            self.long_line(bytes);
        }
        let null = self.f.null_at_castles && self.pos.legal_moves().iter().any(|m| m.is_castle());
        let best = if null { None } else { self.choose() };
        let best_text = best.map(|m| self.write_move(m, false));
        let info = match (&best_text, best) {
            (Some(text), Some(m)) => {
                let mut after = self.pos.clone();
                after.play_unchecked(m);
                let score = if after.is_checkmate() {
                    "mate 1"
                } else {
                    "cp 0"
                };
                format!("info depth 1 score {score} nodes 1 pv {text}")
            }
            _ => "info depth 0 score cp 0".to_string(),
        };
        match fault {
            GoFault::Crash => {
                self.say(&[&info]);
                crash(self.f.crash_exit);
            }
            GoFault::Stall => return,
            GoFault::Slow => std::thread::sleep(Duration::from_millis(self.f.delay_ms)),
            GoFault::Illegal | GoFault::None => {}
        }
        let bestmove = if matches!(fault, GoFault::Illegal) && self.f.escape_move {
            // A terminal escape (clear screen, red) around the move text.
            "bestmove \x1b[2J\x1b[31mzz9\u{9b}0m".to_string()
        } else if matches!(fault, GoFault::Illegal) {
            format!("bestmove {}", self.illegal_move())
        } else {
            format!("bestmove {}", best_text.as_deref().unwrap_or("0000"))
        };
        if args.iter().any(|&a| a == "infinite" || a == "ponder") {
            self.pending = Some(vec![info.into_bytes(), bestmove.into_bytes()]);
            return;
        }
        self.say(&[&info, &bestmove]);
    }

    /// Mate in one if there is one (the castling suite forces castles by
    /// mate), else the first legal move in UCI text order; with
    /// `--king-two-squares` the first castle whenever there is one.
    fn choose(&self) -> Option<Move> {
        let mut legal: Vec<(String, Move)> = self
            .generated(&self.pos, false)
            .into_iter()
            .map(|m| (UciMove::from_move(m, CastlingMode::Chess960).to_string(), m))
            .collect();
        legal.sort_by(|a, b| a.0.cmp(&b.0));
        if self.f.king_two_squares
            && let Some((_, m)) = legal.iter().find(|(_, m)| m.is_castle())
        {
            return Some(*m);
        }
        let mates = legal.iter().find(|(_, m)| {
            let mut after = self.pos.clone();
            after.play_unchecked(*m);
            after.is_checkmate()
        });
        mates.or(legal.first()).map(|(_, m)| *m)
    }

    fn illegal_move(&self) -> &'static str {
        let legal = "e2e5"
            .parse::<UciMove>()
            .ok()
            .is_some_and(|u| u.to_move(&self.pos).is_ok());
        if legal { "a1a1" } else { "e2e5" }
    }

    fn garbage(&mut self) {
        let mut bytes = b"info string \xff\xfe not utf-8\n".to_vec();
        bytes.extend_from_slice(b"info string ");
        bytes.extend(std::iter::repeat_n(b'x', 1 << 20));
        bytes.extend_from_slice(
            b"\ninfo depth 1 pv e2e4\r\n\n\x00\x01 random bytes\nbestmove e2e4\r\n",
        );
        self.say_raw(&bytes);
    }

    fn long_line(&mut self, bytes: u64) {
        let piece = [b'x'; 1 << 16];
        let mut out = self.out.lock();
        let _ = out.write_all(b"info string ");
        let mut left = bytes;
        while left > 0 {
            let n = left.min(piece.len() as u64);
            if out.write_all(&piece[..n as usize]).is_err() {
                return;
            }
            left -= n;
        }
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    }

    fn perft(&mut self, depth: u32) {
        let pos = self.pos.clone();
        let mut lines = Vec::new();
        let mut total = 0;
        for m in self.perft_moves(&pos) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = if depth <= 1 {
                1
            } else {
                self.count(&child, depth - 1)
            };
            total += n;
            lines.push(format!("{}: {n}", self.write_move(m, true)));
        }
        if self.f.castles_through_pieces {
            for m in blocked_castles(&pos) {
                total += 1;
                lines.push(format!("{}: 1", self.write_move(m, true)));
            }
        }
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        self.say(&refs);
    }

    fn perft_moves(&self, pos: &Chess) -> Vec<Move> {
        self.generated(pos, true)
    }

    /// The move generator: shakmaty's legal moves, with the castling bugs
    /// of the flags applied (`--bfile-perft` only in perft).
    fn generated(&self, pos: &Chess, in_perft: bool) -> Vec<Move> {
        let mut moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                !(self.f.bfile_perft
                    && in_perft
                    && m.is_castle()
                    && m.from().is_some_and(|sq| sq.file() == File::B))
            })
            .filter(|m| !(self.f.refuses_attacked_rook && castling_bugs::rook_attacked(pos, *m)))
            .collect();
        if self.f.through_rook_square {
            moves.extend(castling_bugs::castles_with_rook_in_place(pos));
        }
        moves
    }

    fn count(&self, pos: &Chess, depth: u32) -> u64 {
        let generator_bug = self.f.bfile_perft
            || self.f.castles_through_pieces
            || self.f.through_rook_square
            || self.f.refuses_attacked_rook;
        if !generator_bug {
            return shakmaty::perft(pos, depth);
        }
        if depth == 0 {
            return 1;
        }
        let moves = self.perft_moves(pos);
        let blocked = if self.f.castles_through_pieces {
            blocked_castles(pos).len() as u64
        } else {
            0
        };
        if depth == 1 {
            return moves.len() as u64 + blocked;
        }
        blocked
            + moves
                .into_iter()
                .map(|m| {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    self.count(&child, depth - 1)
                })
                .sum::<u64>()
    }
}

/// `--king-two-squares` reads castles as it writes them: a castle written
/// as the king's destination, in any setup (shakmaty reads that form only
/// for a king on e1/e8); a text that is also a legal plain move stays that
/// move (`read` is shakmaty's reading).
fn read_two_squares(pos: &Chess, uci: &UciMove, read: Option<Move>) -> Option<Move> {
    if read.is_some_and(|m| !m.is_castle()) {
        return read;
    }
    let UciMove::Normal { from, to, .. } = *uci else {
        return read;
    };
    pos.legal_moves()
        .into_iter()
        .find(|m| {
            matches!(*m, Move::Castle { king, .. } if king == from)
                && m.castling_side().map(|side| side.king_to(pos.turn())) == Some(to)
        })
        .or(read)
}

/// The castles of the side to move that only pieces between king and rook
/// prevent (`--castles-through-pieces`): king takes own rook, as written.
fn blocked_castles(pos: &Chess) -> Vec<Move> {
    let us = pos.turn();
    let Some(king) = pos.board().king_of(us) else {
        return Vec::new();
    };
    let legal = pos.legal_moves();
    (pos.castles().castling_rights() & us.backrank())
        .into_iter()
        .map(|rook| Move::Castle { king, rook })
        .filter(|m| !legal.contains(m))
        .filter(|m| match *m {
            Move::Castle { king, rook } => {
                let others = pos.board().occupied() & !Bitboard::from(king) & !Bitboard::from(rook);
                (shakmaty::attacks::between(king, rook) & others).any()
            }
            _ => false,
        })
        .collect()
}

/// The FEN text as a buggy reader sees it (`--shredder-misread`,
/// `--xfen-standard-rooks`): the castling field rewritten.
fn misread_field(f: &Faults, fields: &[&str]) -> String {
    let mut fields: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
    let (Some(board), Some(castling)) = (fields.first().cloned(), fields.get(2).cloned()) else {
        return fields.join(" ");
    };
    let files = |upper: bool| -> Vec<char> {
        let mut v: Vec<char> = castling
            .chars()
            .filter(|c| {
                ('a'..='h').contains(&c.to_ascii_lowercase()) && c.is_ascii_uppercase() == upper
            })
            .map(|c| c.to_ascii_lowercase())
            .collect();
        v.sort();
        v
    };
    let shredder = castling
        .chars()
        .any(|c| ('a'..='h').contains(&c.to_ascii_lowercase()));
    if f.shredder_misread && shredder {
        let (w, b) = (files(true), files(false));
        if !w.is_empty() && !b.is_empty() && w != b {
            fields[2] = "-".into();
        }
    }
    if f.xfen_standard_rooks {
        let ranks: Vec<&str> = board.split('/').collect();
        let rook_on = |rank: Option<&&str>, file: usize, rook: char| {
            let mut at = 0;
            for c in rank.map_or("", |r| r).chars() {
                match c.to_digit(10) {
                    Some(n) => at += n as usize,
                    None => {
                        if at == file && c == rook {
                            return true;
                        }
                        at += 1;
                    }
                }
            }
            false
        };
        let kept: String = castling
            .chars()
            .filter(|c| match c {
                'K' => rook_on(ranks.get(7), 7, 'R'),
                'Q' => rook_on(ranks.get(7), 0, 'R'),
                'k' => rook_on(ranks.first(), 7, 'r'),
                'q' => rook_on(ranks.first(), 0, 'r'),
                _ => true,
            })
            .collect();
        fields[2] = if kept.is_empty() { "-".into() } else { kept };
    }
    fields.join(" ")
}

/// `pos` with every castling right of `start` given back whose king and
/// rook stand on their home squares (the `--keeps-rights` bug).
fn restore_rights(start: &Chess, pos: Chess) -> Chess {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    let mut rights: Bitboard = setup.castling_rights;
    for rook in start.castles().castling_rights() {
        let color = if rook.rank() == shakmaty::Rank::First {
            Color::White
        } else {
            Color::Black
        };
        let king_home = start.board().king_of(color);
        let board = &setup.board;
        let rook_home = board.piece_at(rook) == Some(color.rook());
        let king_there = king_home.is_some_and(|k| board.piece_at(k) == Some(color.king()));
        if rook_home && king_there {
            rights.add(rook);
        }
    }
    setup.castling_rights = rights;
    match Chess::from_setup(setup, CastlingMode::Chess960) {
        Ok(p) => p,
        Err(e) => e.ignore_invalid_castling_rights().unwrap_or(pos),
    }
}

/// Dies as a crashing engine does (see the module docs).
/// `--spam-stderr`: BYTES of 64-byte lines to stderr (blocking writes,
/// as an engine's logging does).
fn spam_stderr(bytes: u64) {
    let mut line = *b"info string stderr spam xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n";
    let mut err = io::stderr().lock();
    for i in 0..bytes / line.len() as u64 {
        // The line's number in its last digits, so lines differ.
        let digits = format!("{:08}", i % 100_000_000);
        let n = line.len();
        line[n - 9..n - 1].copy_from_slice(digits.as_bytes());
        if err.write_all(&line).is_err() {
            return;
        }
    }
    let _ = err.flush();
}

fn crash(exit_code: Option<i32>) -> ! {
    let _ = io::stdout().flush();
    if let Some(code) = exit_code {
        std::process::exit(code);
    }
    #[cfg(unix)]
    // SAFETY: back to the default action (std installs a SIGSEGV handler for
    // stack overflows), then the signal: the process dies by SIGSEGV.
    unsafe {
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
        libc::raise(libc::SIGSEGV);
    }
    #[cfg(windows)]
    std::process::exit(0xC000_0005_u32 as i32);
    #[allow(unreachable_code)]
    {
        std::process::abort()
    }
}

#[path = "../src/conformance/castling_bugs.rs"]
mod castling_bugs;
