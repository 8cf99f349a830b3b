//! Issue 21's proof at process level: seeded random interleavings of two
//! `uci960 match` runs on one directory, SIGKILL at random moments,
//! foreign appends and damaged files, then `--resume`; after each, every
//! game any run finished is in the PGN exactly once, or the resume was
//! refused (exit 2) with the PGN byte for byte as it was.
//!
//! One interleaving (a "case", all choices from its seed):
//!
//! 1. the PGN starts empty or with a foreign game (ending in a blank line,
//!    one line break or none);
//! 2. run A plays tournament T1 (mock engines `a` and `b`, its own state);
//!    at a random moment run B starts: T1 again with `--resume` (the same
//!    state and PGN), or another tournament T2 (`c` and `d`, its own
//!    state) on the same PGN, each with or without `--shared-pgn`;
//! 3. maybe a foreign game is appended while they run (a `cat >>`, which
//!    takes no lock);
//! 4. each run is SIGKILLed at a random moment or runs to its end;
//! 5. maybe one damage: a foreign game appended (with or without its last
//!    line break), a state truncated, a byte of it changed (any byte, or a
//!    digit for another digit: still JSON), a game's PGN offset, length,
//!    hash or number changed, the PGN byte count or the pending game
//!    changed, the PGN truncated, or a byte of a recorded game changed;
//! 6. each tournament is resumed, maybe first once more killed at a random
//!    moment, then to its end.
//!
//! **The oracle** reads only files, with its own reader, never uci960's:
//! a game is a chunk of the PGN from one `[Event "` to the next (wherever
//! it starts, so a game after a cut one still counts), and it is
//! *finished* when its tags give its tournament and round and its
//! movetext ends with its `Result` tag's value. A game is keyed by Event,
//! the two players and Round; foreign games have unique players. Checked:
//!
//! - after the runs (before any damage) no key is finished twice, and
//!   every game a state file records (its `games[].number`, read as plain
//!   JSON) is finished in the PGN (written before recorded);
//! - a run that was not killed exits 0, or 2 with a refusal (another run
//!   holds the tournament or the PGN, or its resume was refused);
//! - the same tournament started again (`--resume`) while the first run
//!   holds its lock (the first run's state existed before the second
//!   started and the first was still running when the second ended) is
//!   refused at once: exit 2 naming the first run's process; another
//!   tournament on the same PGN, unshared on either side, likewise: exit
//!   2, another run is writing the PGN;
//! - the final resume of each tournament exits 0, or 2 with the PGN
//!   untouched (byte-identical);
//! - at the end, every game finished in the PGN before the resumes (after
//!   the damage: a game the test itself destroyed is not asked for) is
//!   finished exactly once, and a tournament whose final resume exited 0
//!   has every round finished exactly once.
//!
//! **Random moments**: a run is killed after a random delay (0–60 ms; any
//! moment is legal, the assertions hold wherever the kill lands), or right
//! after the PGN grows past a random length, or right after the state
//! file is replaced (so kills fall between the PGN's write and the
//! state's, and between saving the pending game and writing it). The
//! waits poll the file (1 ms), with a 120 s guard against hangs; nothing
//! sleeps to synchronise.
//!
//! Environment: `UCI960_INTERLEAVINGS` (how many, default 200),
//! `UCI960_INTERLEAVING_SEED` (default 2121), `UCI960_INTERLEAVING_JOBS`
//! (cases at once, default 4), `UCI960_INTERLEAVING_CASE` (one case seed,
//! as a failure prints it). A failing case keeps its directory and prints
//! its steps.

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long any wait may take before the case fails as a hang.
const GUARD: Duration = Duration::from_secs(120);

/// SplitMix64: seeded, reproducible choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A game's identity: Event, the two players (sorted), Round.
type Key = (String, String, String, u64);

/// One chunk of a PGN as the oracle reads it.
struct Chunk {
    key: Option<Key>,
    finished: bool,
}

fn tag<'a>(chunk: &'a str, name: &str) -> Option<&'a str> {
    chunk.lines().find_map(|line| {
        let rest = line.strip_prefix('[')?.strip_prefix(name)?;
        let rest = rest.trim_start_matches([' ', '\t']);
        let rest = rest.strip_prefix('"')?;
        Some(&rest[..rest.find('"')?])
    })
}

/// The oracle's PGN reader (module docs): chunks from each `[Event "`.
fn chunks(bytes: &[u8]) -> Vec<Chunk> {
    let text = String::from_utf8_lossy(bytes);
    let mut starts: Vec<usize> = text.match_indices("[Event").map(|(i, _)| i).collect();
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| {
            let chunk = &text[w[0]..w[1]];
            let key = (|| {
                let (w, b) = (tag(chunk, "White")?, tag(chunk, "Black")?);
                let (lo, hi) = if w <= b { (w, b) } else { (b, w) };
                Some((
                    tag(chunk, "Event")?.to_string(),
                    lo.to_string(),
                    hi.to_string(),
                    tag(chunk, "Round")?.parse().ok()?,
                ))
            })();
            let finished = key.is_some()
                && tag(chunk, "Result").is_some_and(|r| {
                    chunk
                        .split_once("\n\n")
                        .is_some_and(|(_, moves)| moves.trim_end().ends_with(r))
                });
            Chunk { key, finished }
        })
        .collect()
}

/// How many times each key is finished in `bytes`.
fn finished(bytes: &[u8]) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    for c in chunks(bytes) {
        if let (Some(k), true) = (c.key, c.finished) {
            *out.entry(k).or_insert(0) += 1;
        }
    }
    out
}

/// A tournament of the case.
struct Tournament {
    label: &'static str,
    players: [&'static str; 2],
    state: PathBuf,
    shared: bool,
    games: u64,
    args: Vec<String>,
}

impl Tournament {
    fn key(&self, round: u64) -> Key {
        (
            "uci960 match".into(),
            self.players[0].into(),
            self.players[1].into(),
            round,
        )
    }

    fn args(&self, resume: bool) -> Vec<String> {
        let mut a = self.args.clone();
        if resume {
            a.push("--resume".into());
        }
        a
    }

    /// The rounds the state file records, read as plain JSON (none when
    /// it is missing or unreadable).
    fn recorded(&self) -> Vec<u64> {
        std::fs::read(&self.state)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .and_then(|v| {
                v["games"]
                    .as_array()
                    .map(|g| g.iter().filter_map(|g| g["number"].as_u64()).collect())
            })
            .unwrap_or_default()
    }
}

/// A running `uci960 match`.
struct Run {
    who: String,
    child: Child,
    err: PathBuf,
    status: Option<ExitStatus>,
    killed: bool,
}

/// When to act on a run.
#[derive(Debug, Clone, Copy)]
enum Moment {
    Delay(u64),
    PgnPast(u64),
    StateReplaced,
    End,
}

/// Counts over all cases, printed at the end (what was exercised).
#[derive(Default)]
struct Stats {
    cases: AtomicU64,
    kills: AtomicU64,
    refused_at_once: AtomicU64,
    runs_refused: AtomicU64,
    damages: AtomicU64,
    resumed: AtomicU64,
    resume_refused: AtomicU64,
    games_checked: AtomicU64,
}

fn add(c: &AtomicU64, n: u64) {
    c.fetch_add(n, Ordering::Relaxed);
}

/// One case: its choices, its files and its log.
struct Case<'a> {
    rng: Rng,
    dir: PathBuf,
    pgn: PathBuf,
    log: String,
    stats: &'a Stats,
    foreign: u64,
}

fn file_id(path: &Path) -> Option<(u64, u64, std::time::SystemTime)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.ino(), m.len(), m.modified().ok()?))
}

impl Case<'_> {
    fn note(&mut self, line: String) {
        let _ = writeln!(self.log, "  {line}");
    }

    fn fail<T>(&self, what: String) -> Result<T, String> {
        Err(format!(
            "{what}\n  files kept in {}\n  steps:\n{}",
            self.dir.display(),
            self.log
        ))
    }

    fn len(&self) -> u64 {
        std::fs::metadata(&self.pgn).map(|m| m.len()).unwrap_or(0)
    }

    fn spawn(&mut self, who: &str, args: &[String]) -> Run {
        let err = self.dir.join(format!("{who}.err"));
        let child = Command::new(common::uci960())
            .arg("match")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&err).expect("create a stderr file"))
            .spawn()
            .expect("start uci960 match");
        self.note(format!(
            "{who}: started (pid {}): {}",
            child.id(),
            args.join(" ")
        ));
        Run {
            who: who.to_string(),
            child,
            err,
            status: None,
            killed: false,
        }
    }

    fn moment(&mut self) -> Moment {
        match self.rng.below(4) {
            0 => Moment::Delay(self.rng.below(60)),
            1 => Moment::PgnPast(self.len() + self.rng.below(2500)),
            2 => Moment::StateReplaced,
            _ => Moment::End,
        }
    }

    /// Waits for `moment` (or the run's end); false on a hang.
    fn wait(&self, run: &mut Run, moment: Moment, state: &Path) -> bool {
        let start = Instant::now();
        let before = file_id(state);
        loop {
            if run.status.is_none() {
                run.status = run.child.try_wait().expect("try_wait");
            }
            if run.status.is_some() {
                return true;
            }
            let reached = match moment {
                Moment::Delay(ms) => start.elapsed() >= Duration::from_millis(ms),
                Moment::PgnPast(n) => self.len() > n,
                Moment::StateReplaced => file_id(state) != before,
                Moment::End => false,
            };
            if reached {
                return true;
            }
            if start.elapsed() > GUARD {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn kill(&mut self, run: &mut Run) {
        if run.status.is_none() {
            // SAFETY: kill(2) on our own child, not yet reaped.
            unsafe { libc::kill(run.child.id() as i32, libc::SIGKILL) };
            run.killed = true;
            add(&self.stats.kills, 1);
        }
    }

    /// Waits for the run's end; its stderr; fails on a hang.
    fn end(&mut self, run: &mut Run) -> Result<String, String> {
        if run.status.is_none() {
            match common::wait_exit(&mut run.child, GUARD) {
                Some(s) => run.status = Some(s),
                None => return self.fail(format!("{} hung", run.who)),
            }
        }
        let err = std::fs::read_to_string(&run.err).unwrap_or_default();
        let status = run.status.expect("ended");
        self.note(format!(
            "{}: {} ({})",
            run.who,
            match (run.killed && status.code().is_none(), status.code()) {
                (true, _) => "SIGKILLed".to_string(),
                (false, Some(c)) => format!("exit {c}"),
                (false, None) => format!("{status}"),
            },
            err.lines().last().unwrap_or("").trim()
        ));
        Ok(err)
    }

    /// A run that was not killed exits 0, or 2 refusing.
    fn check_run(&mut self, run: &mut Run) -> Result<(), String> {
        let err = self.end(run)?;
        let status = run.status.expect("ended");
        if run.killed && status.code().is_none() {
            return Ok(());
        }
        match status.code() {
            Some(0) => Ok(()),
            Some(2)
                if ["another run", "cannot resume", "no state file"]
                    .iter()
                    .any(|w| err.contains(w)) =>
            {
                add(&self.stats.runs_refused, 1);
                Ok(())
            }
            _ => self.fail(format!("{} ended with {status}: {err}", run.who)),
        }
    }

    /// A foreign game (another program's), with unique players.
    fn foreign_game(&mut self, ending: &str) -> String {
        self.foreign += 1;
        format!(
            "[Event \"foreign\"]\n[Site \"?\"]\n[White \"x{n}\"]\n[Black \"y{n}\"]\n[Round \"1\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 1-0{ending}",
            n = self.foreign
        )
    }

    fn append_foreign(&mut self) {
        let ending = ["\n\n", "\n", ""][self.rng.below(3) as usize];
        let text = self.foreign_game(ending);
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.pgn)
            .expect("open the PGN to append");
        f.write_all(text.as_bytes()).expect("append");
        self.note(format!(
            "foreign game x{} appended ({} line breaks after it)",
            self.foreign,
            ending.len()
        ));
    }

    /// Step 5: one damage of the PGN or a state file.
    fn damage(&mut self, ts: &[Tournament]) {
        add(&self.stats.damages, 1);
        let t = &ts[self.rng.below(ts.len() as u64) as usize];
        let state_text = std::fs::read_to_string(&t.state).ok();
        let mut state: Option<serde_json::Value> = state_text
            .as_deref()
            .and_then(|s| serde_json::from_str(s).ok());
        let games = state
            .as_ref()
            .and_then(|s| s["games"].as_array().map(|g| g.len()))
            .unwrap_or(0);
        let kind = self.rng.below(12);
        let label = t.label;
        let state_path = t.state.clone();
        let mut edit =
            |case: &mut Case, what: String, f: &mut dyn FnMut(&mut serde_json::Value)| {
                if let Some(s) = state.as_mut() {
                    f(s);
                    std::fs::write(&state_path, s.to_string()).unwrap();
                    case.note(format!("damage: {label} state: {what}"));
                }
            };
        match kind {
            0 => self.append_foreign(),
            1 => {
                if let Some(text) = &state_text {
                    let at = self.rng.below(text.len() as u64) as usize;
                    std::fs::write(&t.state, &text.as_bytes()[..at]).unwrap();
                    self.note(format!("damage: {label} state truncated to {at} bytes"));
                }
            }
            2 | 3 => {
                if let Some(text) = &state_text {
                    let mut bytes = text.clone().into_bytes();
                    let digits: Vec<usize> = (0..bytes.len())
                        .filter(|&i| bytes[i].is_ascii_digit())
                        .collect();
                    let (at, new) = if kind == 2 || digits.is_empty() {
                        let at = self.rng.below(bytes.len() as u64) as usize;
                        (at, bytes[at] ^ (1 + self.rng.below(127) as u8))
                    } else {
                        let at = digits[self.rng.below(digits.len() as u64) as usize];
                        let d = bytes[at] - b'0';
                        (at, b'0' + (d + 1 + self.rng.below(9) as u8) % 10)
                    };
                    bytes[at] = new;
                    std::fs::write(&t.state, &bytes).unwrap();
                    self.note(format!(
                        "damage: {label} state byte {at} changed to {:?}",
                        new as char
                    ));
                }
            }
            4..=7 if games > 0 => {
                let i = self.rng.below(games as u64) as usize;
                let delta = 1 + self.rng.below(700);
                let bit = self.rng.below(64);
                let number = 1 + self.rng.below(t.games + 1);
                let field = ["offset", "len", "hash", "number"][kind as usize - 4];
                edit(self, format!("game {i}: {field} changed"), &mut |s| {
                    let g = &mut s["games"][i];
                    match field {
                        "number" => g["number"] = number.into(),
                        "hash" => {
                            if let Some(h) = g["pgn"]["hash"].as_u64() {
                                g["pgn"]["hash"] = (h ^ (1 << bit)).into();
                            }
                        }
                        f => {
                            if let Some(v) = g["pgn"][f].as_u64() {
                                g["pgn"][f] = (v + delta).into();
                            }
                        }
                    }
                });
            }
            8 => {
                let n = self.rng.below(self.len() + 100);
                edit(self, format!("pgn_bytes = {n}"), &mut |s| {
                    s["pgn_bytes"] = n.into()
                });
            }
            9 => {
                let d = self.rng.below(3);
                edit(self, format!("pending changed ({d})"), &mut |s| {
                    if let Some(p) = s.get_mut("pending").filter(|p| p.is_object()) {
                        match d {
                            0 => p["offset"] = (p["offset"].as_u64().unwrap_or(0) + 1).into(),
                            1 => p["text"] = "[Event \"x\"]".into(),
                            _ => *p = serde_json::Value::Null,
                        }
                    }
                });
            }
            10 => {
                let len = self.len();
                let to = len.saturating_sub(self.rng.below(700));
                if let Ok(f) = std::fs::OpenOptions::new().write(true).open(&self.pgn) {
                    f.set_len(to).unwrap();
                }
                self.note(format!("damage: PGN truncated from {len} to {to} bytes"));
            }
            _ => {
                // A byte of a recorded game: a space becomes a tab (the
                // oracle reads the game the same; the resume must refuse).
                let spans: Vec<(u64, u64)> = state
                    .as_ref()
                    .and_then(|s| s["games"].as_array().cloned())
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|g| Some((g["pgn"]["offset"].as_u64()?, g["pgn"]["len"].as_u64()?)))
                    .collect();
                let mut bytes = std::fs::read(&self.pgn).unwrap_or_default();
                if !spans.is_empty() {
                    let (off, len) = spans[self.rng.below(spans.len() as u64) as usize];
                    let spaces: Vec<usize> = (off as usize..(off + len) as usize)
                        .filter(|&i| bytes.get(i) == Some(&b' '))
                        .collect();
                    if !spaces.is_empty() {
                        let at = spaces[self.rng.below(spaces.len() as u64) as usize];
                        bytes[at] = b'\t';
                        std::fs::write(&self.pgn, &bytes).unwrap();
                        self.note(format!(
                            "damage: PGN byte {at} of a recorded {label} game changed"
                        ));
                    }
                }
            }
        }
    }
}

fn tournament(
    rng: &mut Rng,
    label: &'static str,
    players: [&'static str; 2],
    dir: &Path,
    pgn: &Path,
    shared: bool,
) -> Tournament {
    let games = 2 * (1 + rng.below(3));
    let state = dir.join(format!("{label}.state.json"));
    let mut args = common::mock_engine_spec(players[0], &[]);
    args.extend(common::mock_engine_spec(players[1], &[]));
    args.extend(common::strs(&[
        "--games",
        &games.to_string(),
        "--maxmoves",
        &(1 + rng.below(3)).to_string(),
        "--concurrency",
        &(1 + rng.below(2)).to_string(),
        "--start",
        "random",
        "--seed",
        &rng.below(1000).to_string(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ]));
    if shared {
        args.push("--shared-pgn".into());
    }
    Tournament {
        label,
        players,
        state,
        shared,
        games,
        args,
    }
}

fn run_case(seed: u64, stats: &Stats) -> Result<(), String> {
    let dir = common::scratch_dir("interleaving");
    let pgn = dir.join("g.pgn");
    let mut c = Case {
        rng: Rng(seed),
        dir: dir.clone(),
        pgn: pgn.clone(),
        log: String::new(),
        stats,
        foreign: 0,
    };
    add(&stats.cases, 1);

    // 1. The PGN before.
    match c.rng.below(4) {
        0 => {}
        n => {
            let text = c.foreign_game(["\n\n", "\n", ""][n as usize - 1]);
            std::fs::write(&pgn, &text).unwrap();
            c.note(format!(
                "PGN starts with foreign game x1 ({} line breaks after it)",
                3 - n
            ));
        }
    }

    // 2. Two runs.
    let mode = c.rng.below(4);
    let t1_shared = mode == 2 || (mode == 3 && c.rng.chance(50));
    let mut ts = vec![tournament(
        &mut c.rng,
        "t1",
        ["a", "b"],
        &dir,
        &pgn,
        t1_shared,
    )];
    if mode != 0 {
        let shared = mode == 2 || (mode == 3 && !t1_shared);
        ts.push(tournament(&mut c.rng, "t2", ["c", "d"], &dir, &pgn, shared));
    }
    c.note(format!(
        "mode {mode}: {}",
        ts.iter()
            .map(|t| format!(
                "{} {} games{}",
                t.label,
                t.games,
                if t.shared { " shared" } else { "" }
            ))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut a = c.spawn("A", &ts[0].args(false));
    let m = c.moment();
    c.note(format!("B at {m:?}"));
    if !c.wait(&mut a, m, &ts[0].state) {
        return c.fail("A hung".into());
    }
    // A's state exists once A holds its lock and has opened (and locked)
    // the PGN.
    let a_holds = ts[0].state.exists() && a.status.is_none();
    let mut b = if mode == 0 {
        c.spawn("B", &ts[0].args(true))
    } else {
        c.spawn("B", &ts[1].args(false))
    };
    if mode != 2 {
        // The first of A and B to end. While A holds the tournament (mode
        // 0) or the PGN unshared on either side (modes 1 and 3), B is
        // refused at once.
        let start = Instant::now();
        while b.status.is_none() && a.status.is_none() {
            b.status = b.child.try_wait().unwrap();
            if b.status.is_none() {
                a.status = a.child.try_wait().unwrap();
            }
            if start.elapsed() > GUARD {
                return c.fail("neither A nor B ended".into());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if b.status.is_some() && a.status.is_none() {
            a.status = a.child.try_wait().unwrap();
        }
        if a_holds && b.status.is_some() && a.status.is_none() {
            let err = c.end(&mut b)?;
            let said = match mode {
                0 => format!("process {}", a.child.id()),
                _ => "another run is writing".to_string(),
            };
            if b.status.unwrap().code() != Some(2) || !err.contains(&said) {
                return c.fail(format!(
                    "B ran while A held the {}: {:?}, {err}",
                    if mode == 0 { "tournament" } else { "PGN" },
                    b.status
                ));
            }
            add(&stats.refused_at_once, 1);
        }
    }

    // 3. A foreign append while they run.
    if c.rng.chance(20) {
        std::thread::sleep(Duration::from_millis(c.rng.below(40)));
        c.append_foreign();
    }

    // 4. Kills.
    for (run, state) in [
        (&mut a, ts[0].state.clone()),
        (&mut b, ts[ts.len() - 1].state.clone()),
    ] {
        let m = if c.rng.chance(70) {
            c.moment()
        } else {
            Moment::End
        };
        c.note(format!("{} killed at {m:?}", run.who));
        if !c.wait(run, m, &state) {
            return c.fail(format!("{} hung", run.who));
        }
        if !matches!(m, Moment::End) {
            c.kill(run);
        }
    }
    c.check_run(&mut a)?;
    c.check_run(&mut b)?;

    // The runs' invariants, before any damage.
    let bytes = std::fs::read(&pgn).unwrap_or_default();
    let counts = finished(&bytes);
    if let Some((k, n)) = counts.iter().find(|(_, n)| **n > 1) {
        return c.fail(format!("after the runs, {k:?} is in the PGN {n} times"));
    }
    for t in &ts {
        for round in t.recorded() {
            if !counts.contains_key(&t.key(round)) {
                return c.fail(format!(
                    "{} state records round {round}, not finished in the PGN",
                    t.label
                ));
            }
        }
    }

    // 5. Damage.
    if c.rng.chance(50) {
        c.damage(&ts);
    }
    let wanted = finished(&std::fs::read(&pgn).unwrap_or_default());

    // 6. Resumes.
    let mut order: Vec<usize> = (0..ts.len()).collect();
    if c.rng.chance(50) {
        order.reverse();
    }
    let mut complete = Vec::new();
    for i in order {
        let t = &ts[i];
        if c.rng.chance(25) {
            let mut r = c.spawn(&format!("{}-resume-killed", t.label), &t.args(true));
            let m = c.moment();
            c.note(format!("killed at {m:?}"));
            if !c.wait(&mut r, m, &t.state) {
                return c.fail("a resume hung".into());
            }
            c.kill(&mut r);
            c.end(&mut r)?;
        }
        let before = std::fs::read(&pgn).unwrap_or_default();
        let mut r = c.spawn(&format!("{}-resume", t.label), &t.args(true));
        let err = c.end(&mut r)?;
        match r.status.unwrap().code() {
            Some(0) => {
                add(&stats.resumed, 1);
                complete.push(i);
            }
            Some(2) => {
                add(&stats.resume_refused, 1);
                if std::fs::read(&pgn).unwrap_or_default() != before {
                    return c.fail(format!(
                        "the {} resume was refused but changed the PGN: {err}",
                        t.label
                    ));
                }
            }
            _ => return c.fail(format!("the {} resume: {:?}: {err}", t.label, r.status)),
        }
    }

    // The oracle.
    let end = finished(&std::fs::read(&pgn).unwrap_or_default());
    for k in wanted.keys() {
        let n = end.get(k).copied().unwrap_or(0);
        if n != 1 {
            return c.fail(format!(
                "{k:?} was finished before the resumes; now in the PGN {n} times"
            ));
        }
    }
    for i in complete {
        let t = &ts[i];
        for round in 1..=t.games {
            let n = end.get(&t.key(round)).copied().unwrap_or(0);
            if n != 1 {
                return c.fail(format!(
                    "{} resumed to its end, but round {round} is in the PGN {n} times",
                    t.label
                ));
            }
        }
    }
    if let Some((k, n)) = end.iter().find(|(_, n)| **n > 1) {
        return c.fail(format!("at the end, {k:?} is in the PGN {n} times"));
    }
    add(&stats.games_checked, end.len() as u64);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a whole number")),
        Err(_) => default,
    }
}

/// The seed of case `i` of a run seeded with `seed`.
fn case_seed(seed: u64, i: u64) -> u64 {
    Rng(seed ^ i.wrapping_mul(0xa076_1d64_78bd_642f)).next()
}

#[test]
fn interleaved_runs_kills_and_damage_never_lose_or_duplicate_a_game() {
    // Built once before the threads start.
    common::mock_engine();
    let stats = Stats::default();
    let started = Instant::now();
    if let Ok(one) = std::env::var("UCI960_INTERLEAVING_CASE") {
        let seed = one
            .parse()
            .expect("UCI960_INTERLEAVING_CASE is a case seed");
        if let Err(e) = run_case(seed, &stats) {
            panic!("case {seed}: {e}");
        }
        return;
    }
    let count = env_u64("UCI960_INTERLEAVINGS", 200);
    let seed = env_u64("UCI960_INTERLEAVING_SEED", 2121);
    let jobs = env_u64("UCI960_INTERLEAVING_JOBS", 4).max(1);
    let next = AtomicU64::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    // Stop after a few failures: each prints its case.
                    if i >= count
                        || failures.lock().unwrap().len()
                            >= env_u64("UCI960_INTERLEAVING_MAX_FAILURES", 3) as usize
                    {
                        break;
                    }
                    let cs = case_seed(seed, i);
                    if let Err(e) = run_case(cs, &stats) {
                        failures.lock().unwrap().push(format!(
                            "interleaving {i} of UCI960_INTERLEAVING_SEED={seed} \
                             (again alone: UCI960_INTERLEAVING_CASE={cs}): {e}"
                        ));
                    }
                }
            });
        }
    });
    let l = |c: &AtomicU64| c.load(Ordering::Relaxed);
    eprintln!(
        "interleavings: seed {seed}, {} cases in {:.1} s ({} jobs): {} runs SIGKILLed, \
         {} second runs refused at once, {} runs refused, {} damages, \
         {} resumes to the end, {} refused untouched, {} games checked",
        l(&stats.cases),
        started.elapsed().as_secs_f64(),
        jobs,
        l(&stats.kills),
        l(&stats.refused_at_once),
        l(&stats.runs_refused),
        l(&stats.damages),
        l(&stats.resumed),
        l(&stats.resume_refused),
        l(&stats.games_checked),
    );
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        l(&stats.resumed) > 0 && (count < 50 || l(&stats.resume_refused) > 0),
        "the cases exercised too little"
    );
}
