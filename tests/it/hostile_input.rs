//! Issue 12's examples of hostile input, one test each, against the real
//! binary: a closed or full stdout, absurd numbers of seconds, files that
//! never end (devices, FIFOs, a 1 GB line), a config value that would
//! inject a UCI command, errors that repeated themselves or blamed the
//! wrong thing, a built-in engine deaf during `go perft 99`.

use std::io::Write;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::common::uci960;
use crate::common::{PATIENCE as T, wait_exit};
use crate::engine_support::Engine;
use crate::proxy_util::Proxy;

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("uci960-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

/// Runs `uci960 ARGS` with stdout going to `stdout` (kept in the output
/// when it is `Stdio::piped()`), and a hang guard.
fn run_with(args: &[&str], stdout: Stdio) -> Output {
    let mut child = Command::new(uci960())
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start uci960");
    fn drain(mut from: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = from.read_to_end(&mut buf);
            buf
        })
    }
    let stderr = drain(child.stderr.take().expect("stderr"));
    let stdout = child.stdout.take().map(drain);
    let status = wait_exit(&mut child, T).unwrap_or_else(|| panic!("uci960 {args:?} hung"));
    Output {
        status,
        stdout: stdout
            .map(|r| r.join().expect("stdout reader"))
            .unwrap_or_default(),
        stderr: stderr.join().expect("stderr reader"),
    }
}

fn run(args: &[&str]) -> Output {
    run_with(args, Stdio::null())
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A pipe whose reader is already gone: every write gets EPIPE.
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe");
    // SAFETY: both descriptors were just made by pipe(2) and are owned here.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    Stdio::from(write)
}

fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

/// The commands that print to stdout, each short with the built-in engine.
const PRINTING: [&[&str]; 5] = [
    &["show", "518"],
    &["positions", "-n", "100000", "-s", "1"],
    &["analyze", "-m", "die"],
    &["castling-test", "--only", "declares-chess960"],
    &["match", "--games", "2", "--nodes", "50", "--seed", "1"],
];

fn assert_no_panic(out: &Output, what: &str) {
    let err = stderr_of(out);
    assert!(!err.contains("panicked"), "{what} panicked: {err}");
    assert_ne!(out.status.code(), Some(101), "{what}: {err}");
}

#[test]
fn a_closed_stdout_ends_every_command_quietly_with_141() {
    for args in PRINTING {
        let out = run_with(args, closed_pipe());
        assert_no_panic(&out, &format!("{args:?} | (closed)"));
        assert_eq!(
            out.status.code(),
            Some(141),
            "{args:?}: {}",
            stderr_of(&out)
        );
        let err = stderr_of(&out);
        assert!(
            !err.contains("stdout"),
            "{args:?}: a closed stdout is not an error to report: {err}"
        );
    }
}

#[test]
fn a_full_disk_is_a_message_and_status_3() {
    for args in PRINTING {
        let out = run_with(args, dev_full());
        assert_no_panic(&out, &format!("{args:?} > /dev/full"));
        assert_eq!(out.status.code(), Some(3), "{args:?}: {}", stderr_of(&out));
        let err = stderr_of(&out);
        assert!(
            err.contains("cannot write to stdout: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_full_stderr_loses_notes_not_the_command() {
    // `positions` without --seed announces its seed on stderr.
    let out = Command::new(uci960())
        .args(["positions", "-n", "3"])
        .stdout(Stdio::piped())
        .stderr(dev_full())
        .output()
        .expect("run");
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
}

#[test]
fn absurd_seconds_are_usage_errors_naming_flag_and_value() {
    for (args, flag, value) in [
        (
            &["proxy", "--silence-timeout", "1e20"][..],
            "--silence-timeout",
            "1e20",
        ),
        (&["match", "--timeout", "1e300"], "--timeout", "1e300"),
        (&["match", "--timeout", "NaN"], "--timeout", "NaN"),
        (&["match", "--timeout=-3"], "--timeout", "-3"),
        (
            &["proxy", "--silence-timeout", "inf"],
            "--silence-timeout",
            "inf",
        ),
        (&["match", "--st", "1e300"], "--st", "1e300"),
    ] {
        let out = run(args);
        assert_no_panic(&out, &format!("{args:?}"));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr_of(&out));
        let err = stderr_of(&out);
        assert!(err.contains(flag) && err.contains(value), "{args:?}: {err}");
    }
}

#[test]
fn config_keys_with_absurd_seconds_name_the_key() {
    let path = scratch("timeout.toml");
    std::fs::write(&path, "[proxy]\nsilence-timeout = 1e300\n").expect("write");
    let out = run(&["proxy", "--config", path.to_str().expect("utf-8")]);
    assert_no_panic(&out, "silence-timeout = 1e300");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("silence-timeout: '1e300'"),
        "{}",
        stderr_of(&out)
    );
    let path = scratch("match-timeout.toml");
    std::fs::write(&path, "timeout = nan\n").expect("write");
    let out = run(&["match", "--config", path.to_str().expect("utf-8")]);
    assert_no_panic(&out, "timeout = nan");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("timeout: 'NaN'"),
        "{}",
        stderr_of(&out)
    );
}

/// A FIFO nobody writes to: opening it for reading blocks without care.
fn fifo(name: &str) -> PathBuf {
    let path = scratch(name);
    let _ = std::fs::remove_file(&path);
    let c = std::ffi::CString::new(path.to_str().expect("utf-8")).expect("no NUL");
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
    path
}

#[test]
fn endless_files_are_refused_at_once() {
    let fifo = fifo("book.fifo");
    let fifo = fifo.to_str().expect("utf-8");
    for (args, kind) in [
        (vec!["proxy", "--config", "/dev/zero"], "a device"),
        (vec!["proxy", "--config", fifo], "a FIFO"),
        (vec!["match", "--config", "/dev/zero"], "a device"),
        (vec!["positions", "-m", "book:/dev/zero"], "a device"),
        (vec!["positions", "-m", &format!("book:{fifo}")], "a FIFO"),
        (
            vec!["proxy", "--start", "book:/dev/zero", "--seed", "1"],
            "a device",
        ),
        // `--resume` read its state file whole, whatever it was.
        (
            vec!["match", "--state", "/dev/zero", "--resume"],
            "a device",
        ),
        (vec!["match", "--state", fifo, "--resume"], "a FIFO"),
        (
            vec!["match", "--openings", "file=/dev/zero", "format=pgn"],
            "a device",
        ),
        (
            vec!["match", "--openings", &format!("file={fifo}"), "format=epd"],
            "a FIFO",
        ),
    ] {
        let out = run(&args);
        assert_no_panic(&out, &format!("{args:?}"));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr_of(&out));
        assert!(
            stderr_of(&out).contains(kind),
            "{args:?}: {}",
            stderr_of(&out)
        );
    }
}

/// pgn-reader reads any text as games (it passes over what it cannot
/// read), so an EPD book given as `format=pgn` used to be a book of the
/// standard chess start position. It is an input error naming the file.
#[test]
fn a_file_that_is_not_pgn_is_not_a_pgn_book() {
    let epd = scratch("openings.epd");
    std::fs::write(
        &epd,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n",
    )
    .expect("write");
    let file = format!("file={}", epd.display());
    let out = run(&["match", "--openings", &file, "format=pgn", "--games", "2"]);
    assert_no_panic(&out, "an EPD as PGN");
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.contains(&epd.display().to_string())
            && err.contains("game 1")
            && err.contains("not PGN"),
        "{err}"
    );
}

/// `match --resume` checks the end of the PGN it appends to; it used to
/// read the whole file for that, so a PGN on `/dev/zero` was read forever.
#[test]
fn a_resume_does_not_read_a_device_pgn() {
    let (pgn, state) = (scratch("resume.pgn"), scratch("resume.state.json"));
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&state);
    let state = state.to_str().expect("utf-8");
    let args = |pgn: &str| {
        let mut a = vec!["match", "--games", "2", "--maxmoves", "4", "--seed", "3"];
        a.extend(["--start", "sp:518", "--state", state, "--pgn"]);
        a.push(pgn);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let first = args(pgn.to_str().expect("utf-8"));
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    let out = run(&first);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    // The state file records a PGN of some bytes; /dev/zero is shorter.
    let mut again = args("/dev/zero");
    again.push("--resume".into());
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    let out = run(&again);
    assert_no_panic(&out, "resume into /dev/zero");
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
}

#[test]
fn the_proxy_refuses_a_book_device_set_by_the_gui_and_goes_on() {
    let mut p = Proxy::start(&[]);
    p.handshake();
    p.send("setoption name uci960 Start value book");
    p.send("setoption name uci960 Book value /dev/zero");
    p.send("ucinewgame");
    let said = p.wait_line("info string uci960: start method");
    assert!(said.contains("a device"), "{said}");
    p.send("isready");
    p.wait_line("readyok");
}

#[test]
fn a_huge_book_line_is_neither_read_whole_nor_echoed() {
    // Sparse: a gigabyte of one line costs no disk.
    let huge = scratch("huge.epd");
    let f = std::fs::File::create(&huge).expect("create");
    f.set_len(1 << 30).expect("set_len");
    drop(f);
    let out = run(&["positions", "-m", &format!("book:{}", huge.display())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("larger than 64 MiB"),
        "{}",
        stderr_of(&out)
    );
    // Under the size limit, one line of 10 MB: read past, quoted briefly.
    let long = scratch("long.epd");
    let mut text = vec![b'x'; 10 << 20];
    text.push(b'\n');
    std::fs::write(&long, text).expect("write");
    let out = run(&["positions", "-m", &format!("book:{}", long.display())]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(err.contains(":1: the line is 10485760 bytes long"), "{err}");
    assert!(err.len() < 400, "the line is echoed: {} bytes", err.len());
    std::fs::remove_file(&huge).ok();
    std::fs::remove_file(&long).ok();
}

#[test]
fn a_book_may_start_with_a_byte_order_mark() {
    let book = scratch("bom.epd");
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    std::fs::write(&book, format!("\u{feff}{fen}\r\n")).expect("write");
    let out = Command::new(uci960())
        .args(["positions", "-m", &format!("book:{}", book.display())])
        .args(["-f", "shredder"])
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), fen);
}

#[test]
fn a_config_option_value_cannot_inject_a_uci_command() {
    let config = scratch("inject.toml");
    std::fs::write(
        &config,
        format!(
            "[engine]\nprogram = \"{}\"\nargs = [\"engine\"]\n[engine.options]\nHash = \"1\\nquit\"\n",
            uci960().display()
        ),
    )
    .expect("write");
    let out = run(&["proxy", "--config", config.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains(&config.display().to_string()), "{err}");
    assert!(
        err.contains("[engine.options] option 'Hash' value '1\\nquit' holds a line break"),
        "{err}"
    );
    // The same in a match: `option.NAME=VALUE` and `name=`.
    let out = run(&[
        "match",
        "--engine",
        "option.Hash=1\nquit",
        "--engine",
        "name=b",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(
        stderr_of(&out).contains("holds a line break"),
        "{}",
        stderr_of(&out)
    );
    let out = run(&["proxy", "--log", "/tmp/a\nquit"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("log path"), "{}", stderr_of(&out));
}

#[test]
fn a_carriage_return_inside_a_gui_line_is_not_sent() {
    let mut p = Proxy::start(&[]);
    p.handshake();
    p.send_bytes(b"setoption name Hash value 1\rquit\n");
    let said = p.wait_line("info string uci960: a GUI line holds a carriage return");
    assert!(said.contains("not sent"), "{said}");
    // The engine did not quit: it still answers.
    p.send("isready");
    p.wait_line("readyok");
}

/// Asserts that `text` holds `part` exactly once.
fn once(text: &str, part: &str) {
    assert_eq!(
        text.matches(part).count(),
        1,
        "'{part}' not once in: {text}"
    );
}

#[test]
fn errors_say_what_is_wrong_once() {
    let err = stderr_of(&run(&["positions", "-m", "die", "--rolls", "7,1,1"]));
    once(&err, "a die shows 1 to 6, not 7");
    let err = stderr_of(&run(&["positions", "-m", "bag-redraw", "--draws", "RNX"]));
    once(&err, "not a piece letter");
    let err = stderr_of(&run(&["positions", "-m", "bag-redraw", "--draws", "RNB"]));
    once(&err, "still needs a draw");
    let bad = scratch("bad.epd");
    std::fs::write(&bad, "foo bar\n").expect("write");
    let err = stderr_of(&run(&[
        "positions",
        "-m",
        &format!("book:{}", bad.display()),
    ]));
    once(&err, "is not a legal Chess960 position");
    let err = stderr_of(&run(&["positions", "-m", "book:/no/such/book.epd"]));
    once(&err, "No such file or directory");
}

#[test]
fn a_nine_rank_fen_is_not_an_invalid_pocket() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/pppppppp w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
    ] {
        let out = run(&["show", fen]);
        assert_eq!(out.status.code(), Some(2), "{fen} was accepted");
        let err = stderr_of(&out);
        assert!(!err.contains("pocket"), "{err}");
        assert!(err.contains("9 ranks"), "{err}");
    }
}

#[test]
fn an_out_of_range_number_is_out_of_range() {
    for n in ["20000000000000000000", "4294967296", "960"] {
        let out = run(&["show", n]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr_of(&out);
        assert!(!err.contains("8 pieces"), "{err}");
        assert!(
            err.contains(&format!("number {n} is out of range")),
            "{err}"
        );
    }
}

#[test]
fn a_chess960_position_before_uci_is_not_blamed_on_the_engine() {
    let mut p = Proxy::start(&[]);
    p.send("position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    let said = p.wait_line("info string uci960:");
    assert!(said.contains("'uci'"), "{said}");
    assert!(!said.contains("does not support Chess960"), "{said}");
    // After the handshake the same position is taken.
    p.handshake();
    p.send("position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    p.send("go depth 1");
    p.wait_line("bestmove");
}

#[test]
fn the_builtin_engine_hears_stop_quit_and_eof_during_a_deep_perft() {
    // stop
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 99");
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("stop");
    e.until(|l| l == "info string perft stopped");
    e.send("isready");
    e.until(|l| l == "readyok");
    // quit and end of input
    for last in ["quit\n", ""] {
        let mut child = Command::new(uci960())
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("engine");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(format!("position startpos\ngo perft 99\n{last}").as_bytes())
            .expect("write");
        drop(stdin);
        let status = wait_exit(&mut child, Duration::from_secs(20))
            .unwrap_or_else(|| panic!("perft 99 ignored {last:?}"));
        assert!(status.success(), "{status}");
    }
}

/// The PGN standard's reading of a tag value (section 7): `\"` is `"`,
/// `\\` is `\`.
fn pgn_unescape(raw: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(n @ ('\\' | '"'))) => {
                out.push(n);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The White and Black tags of each game as pgn-reader delimits them,
/// decoded by the standard. (Not by `RawTag::decode`: pgn-reader 0.29
/// decodes `\\\"` as `"`, where the standard reads `\"`.)
fn players_by_pgn_reader(text: &str) -> Vec<(String, String)> {
    use pgn_reader::{RawTag, Reader, Visitor};
    use std::ops::ControlFlow;
    struct Players;
    impl Visitor for Players {
        type Tags = (String, String);
        type Movetext = (String, String);
        type Output = (String, String);
        fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
            ControlFlow::Continue(Default::default())
        }
        fn tag(
            &mut self,
            tags: &mut Self::Tags,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<Self::Output> {
            let value = pgn_unescape(&String::from_utf8_lossy(value.as_bytes()));
            match name {
                b"White" => tags.0 = value,
                b"Black" => tags.1 = value,
                _ => {}
            }
            ControlFlow::Continue(())
        }
        fn begin_movetext(
            &mut self,
            tags: Self::Tags,
        ) -> ControlFlow<Self::Output, Self::Movetext> {
            ControlFlow::Continue(tags)
        }
        fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
            movetext
        }
    }
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(players) = reader.read_game(&mut Players).expect("pgn-reader") {
        games.push(players);
    }
    games
}

/// An engine's name becomes a PGN tag value. One with `"` and `\` (from
/// `id name` or `name=`) is escaped as the PGN standard says (`\"`, `\\`)
/// and a control character inside it (a `\r` or an escape sequence in
/// `id name`) is a space, in the PGN and on the terminal (the standings). pgn-reader, python-chess and uci960's own reader each read every
/// tag whole, and the names decode back (python-chess 1.11 and pgn-reader
/// give the value as written, escapes and all; the test decodes it).
#[test]
fn engine_names_with_quotes_and_backslashes_do_not_break_pgn_tags() {
    let Some(py) = crate::common::require_python_chess() else {
        return;
    };
    let dir = scratch("names");
    std::fs::create_dir_all(&dir).expect("dir");
    let pgn = dir.join("names.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mock = crate::common::mock_engine();
    let mock = mock.to_str().expect("utf-8");
    // With an escape sequence that would clear the terminal.
    let id_name = "Mock \"Evil\" C:\\engines\\x\ry \\\x1b[2J";
    let given = "Back\\slash \"B\" \\\"";
    let out = run_with(
        &[
            "match",
            "--engine",
            &format!("cmd={mock}"),
            &format!("arg=--name={id_name}"),
            "--engine",
            &format!("cmd={mock}"),
            &format!("name={given}"),
            "--games",
            "2",
            "--maxmoves",
            "6",
            "--start",
            "sp:518",
            "--pgn",
            pgn.to_str().expect("utf-8"),
        ],
        Stdio::piped(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let standings = String::from_utf8_lossy(&out.stdout);
    assert!(standings.contains("Mock \"Evil\""), "{standings}");
    assert!(
        !out.stdout.contains(&0x1b) && !out.stderr.contains(&0x1b),
        "an engine's name reached the terminal with its escape sequence: {standings:?}"
    );
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    let id_shown = "Mock \"Evil\" C:\\engines\\x y \\ [2J";
    assert!(
        text.contains(r#"[White "Mock \"Evil\" C:\\engines\\x y \\ [2J"]"#),
        "{text}"
    );
    let by_reader = players_by_pgn_reader(&text);
    assert_eq!(
        by_reader,
        [
            (id_shown.to_string(), given.to_string()),
            (given.to_string(), id_shown.to_string())
        ]
    );
    let ours: Vec<(String, String)> = uci960::game::pgn::read_games(&text)
        .expect("uci960 reads its PGN")
        .iter()
        .map(|g| {
            let tag = |n| g.tag(n).expect("tag").to_string();
            (tag("White"), tag("Black"))
        })
        .collect();
    assert_eq!(ours, by_reader);
    let report = crate::common::check_pgn(&py, &pgn);
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert_eq!(report["games"], 2, "{report}");
    let mut names: Vec<String> = report["score"]
        .as_object()
        .expect("score")
        .keys()
        .map(|k| pgn_unescape(k))
        .collect();
    names.sort();
    assert_eq!(names, [given, id_shown]);
}

/// `program` and `cmd` are one key in every config (crate::engines::keys),
/// and the proxy's engine refuses the match's search limits.
#[test]
fn engine_keys_are_the_same_in_every_config() {
    let exe = uci960().display().to_string();
    let config = scratch("keys-match.toml");
    std::fs::write(
        &config,
        format!(
            "games = 2\nnodes = 200\n[[engine]]\nprogram = \"{exe}\"\nargs = [\"engine\"]\n[[engine]]\ncmd = \"{exe}\"\nargs = [\"engine\"]\n"
        ),
    )
    .expect("write");
    let out = run(&["match", "--config", config.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let config = scratch("keys-proxy.toml");
    std::fs::write(
        &config,
        format!("[engine]\ncmd = \"{exe}\"\nargs = [\"engine\"]\nnodes = 5\n"),
    )
    .expect("write");
    let out = run(&["proxy", "--config", config.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(
        stderr_of(&out).contains("[engine] nodes"),
        "{}",
        stderr_of(&out)
    );
}
