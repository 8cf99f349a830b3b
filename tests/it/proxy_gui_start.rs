//! How GUIs start the proxy, and what they show when it cannot run its
//! engine: `uci960` with no arguments finds its config (working directory,
//! a renamed copy or link with its TOML beside it) for python-chess; the
//! shipped Cute Chess `engines.json`, turned into a process by cutechess's
//! rules (the command alone, no arguments, in its working directory),
//! starts the proxy; a missing engine and an engine that dies are told in
//! the GUI's own channel (the engine's name, `info string`, the exit).

use crate::common::{self, Client, OnDrop};

use std::path::Path;
use std::process::{Command, Stdio};

/// python-chess plays a few Chess960 moves with `command` (no arguments)
/// started in `cwd`; prints the engine's name, then `ok` or the error.
const PLAY: &str = r#"
import sys, chess, chess.engine
try:
    engine = chess.engine.SimpleEngine.popen_uci([sys.argv[1]], cwd=sys.argv[2], timeout=30)
except Exception as e:
    print("START", type(e).__name__, e)
    sys.exit(0)
print("NAME", engine.id.get("name"))
try:
    board = chess.Board.from_chess960_pos(int(sys.argv[3]))
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(nodes=2000))
        board.push(result.move)
    print("OK", board.fen())
except Exception as e:
    print("PLAY", type(e).__name__, e)
finally:
    try:
        engine.quit()
    except Exception:
        pass
"#;

fn python_play(command: &Path, cwd: &Path, sp: u32) -> Option<String> {
    let python = common::require_python_chess()?;
    let out = Command::new(python)
        .args(["-c", PLAY])
        .arg(command)
        .arg(cwd)
        .arg(sp.to_string())
        .env_remove("UCI960_PROXY_CONFIG")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn stockfish_config(dir: &Path) -> Option<()> {
    let sf = common::require_engine("stockfish")?;
    std::fs::write(
        dir,
        format!(
            "[engine]\nprogram = \"{}\"\n[engine.options]\nHash = 8\n",
            sf.display()
        ),
    )
    .unwrap();
    Some(())
}

#[test]
fn no_arguments_reads_uci960_toml_in_the_working_directory() {
    let dir = common::scratch_dir("gui-cwd");
    if stockfish_config(&dir.join("uci960.toml")).is_none() {
        return;
    }
    let Some(out) = python_play(&common::uci960(), &dir, 312) else {
        return;
    };
    assert!(out.contains("NAME Stockfish"), "{out}");
    assert!(out.contains("(uci960)"), "{out}");
    assert!(out.contains("\nOK "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_renamed_copy_or_link_reads_the_toml_named_after_it() {
    let dir = common::scratch_dir("gui-renamed");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let copy = bin.join("sf960");
    std::fs::copy(common::uci960(), &copy).unwrap();
    let link = bin.join("sflink");
    std::os::unix::fs::symlink(common::uci960(), &link).unwrap();
    if stockfish_config(&bin.join("sf960.toml")).is_none() {
        return;
    }
    // The link's TOML runs the built-in engine (no [engine]): a different
    // engine name shows which file was read.
    std::fs::write(bin.join("sflink.toml"), "[proxy]\nstart = \"gui\"\n").unwrap();
    // A working directory with no config of its own.
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let Some(out) = python_play(&copy, &elsewhere, 100) else {
        return;
    };
    assert!(out.contains("NAME Stockfish"), "{out}");
    assert!(out.contains("\nOK "), "{out}");
    let out = python_play(&link, &elsewhere, 200).unwrap();
    assert!(!out.contains("Stockfish"), "{out}");
    assert!(out.contains("(uci960)") && out.contains("\nOK "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_arguments_and_no_config_is_said_in_the_engine_name() {
    let dir = common::scratch_dir("gui-noconfig");
    let Some(out) = python_play(&common::uci960(), &dir, 5) else {
        return;
    };
    let name = out.lines().find(|l| l.starts_with("NAME ")).unwrap_or("");
    assert!(name.starts_with("NAME uci960: no proxy config"), "{out}");
    assert!(
        name.contains(&dir.join("uci960.toml").display().to_string()),
        "{out}"
    );
    // The first search ends the session: python-chess sees the engine end.
    assert!(out.contains("PLAY EngineTerminatedError"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn on_a_terminal_no_arguments_still_prints_usage() {
    // `script` gives the child a terminal; without it this test cannot run.
    let Ok(out) = Command::new("script")
        .args(["-qec"])
        .arg(common::uci960())
        .arg("/dev/null")
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("SKIPPED: no `script` (util-linux) to give uci960 a terminal");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Usage"), "{text}");
    assert_eq!(out.status.code(), Some(2), "{text}");
}

/// The keys cutechess's `EngineConfiguration(const QVariant&)` reads.
const CUTECHESS_KEYS: &[&str] = &[
    "name",
    "command",
    "workingDirectory",
    "stderrFile",
    "protocol",
    "timeoutScaleFactor",
    "initStrings",
    "whitepov",
    "ponder",
    "restart",
    "validateClaims",
    "debug",
    "variants",
    "options",
];

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_shipped_cutechess_engines_json_starts_the_proxy() {
    // cutechess-cli reads engines.json in its working directory: a copy of
    // configs/cutechess stands for that directory.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/cutechess");
    let dir = common::scratch_dir("gui-enginesjson");
    copy_dir(&shipped, &dir);
    let text = std::fs::read_to_string(dir.join("engines.json")).unwrap();
    let entries: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entries = entries.as_array().expect("a list of engines");
    assert!(entries.len() >= 2);
    // `uci960` found on PATH, as QProcess finds a bare command.
    let bin_dir = common::uci960().parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    for entry in entries {
        let map = entry.as_object().unwrap();
        for key in map.keys() {
            assert!(
                CUTECHESS_KEYS.contains(&key.as_str()),
                "cutechess does not read '{key}'"
            );
        }
        let name = map["name"].as_str().unwrap();
        assert_eq!(map["protocol"], "uci", "{name}");
        // The engine its TOML names must be here.
        let work = dir.join(map["workingDirectory"].as_str().unwrap());
        let toml = std::fs::read_to_string(work.join("uci960.toml")).unwrap();
        let program = toml
            .lines()
            .find_map(|l| l.strip_prefix("program = "))
            .map(|p| p.trim_matches('"').to_string())
            .unwrap();
        let engine_name = Path::new(&program).file_name().unwrap().to_str().unwrap();
        if common::require_engine(engine_name).is_none() {
            continue;
        }
        // EngineBuilder::create: the command unsplit, no arguments, the
        // working directory (stderr goes to stderrFile, opened by the GUI).
        let mut cmd = Command::new(map["command"].as_str().unwrap());
        cmd.current_dir(&work)
            .env("PATH", &path)
            .env_remove("UCI960_PROXY_CONFIG");
        let mut gui = Client::spawn(cmd, true, OnDrop::Kill);
        // What UciEngine sends for a fischerandom game.
        gui.send("uci");
        let id = gui.wait_line("id name");
        assert!(id.ends_with("(uci960)"), "{name}: {id}");
        assert!(!id.contains("uci960:"), "{name}: {id}");
        gui.wait_line("uciok");
        gui.send("isready");
        gui.wait_line("readyok");
        gui.send("setoption name UCI_Chess960 value true");
        gui.send("ucinewgame");
        gui.send("position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
        gui.send("go wtime 1000 btime 1000");
        let best = gui.wait_line("bestmove");
        assert_ne!(best, "bestmove 0000", "{name}");
        gui.send("quit");
        let (status, _, stderr) = gui.finish();
        assert!(status.success(), "{name}: {status}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_engine_is_named_where_the_gui_shows_it() {
    use crate::proxy_util::Proxy;
    let mut p = Proxy::start(&["--", "/nonexistent/engine"]);
    p.send("uci");
    let id = p.wait_line("id name");
    assert_eq!(id, "id name uci960: engine '/nonexistent/engine' not found");
    let info = p.wait_line("info string");
    assert!(info.contains("'/nonexistent/engine' not found"), "{info}");
    p.wait_line("uciok");
    p.send("isready");
    p.wait_line("readyok");
    // Cute Chess starts the game; at `go` the proxy ends, so the GUI
    // reports a disconnection at once instead of waiting for the clock.
    p.send("ucinewgame");
    p.send("position startpos");
    p.send("go wtime 1000 btime 1000");
    let again = p.wait_line("info string");
    assert!(again.contains("not found"), "{again}");
    let (status, _, stderr) = p.finish();
    assert_eq!(status.code(), Some(3), "engine could not start");
    assert_eq!(stderr.matches("not found").count(), 1, "{stderr}");
}

#[test]
fn an_engine_that_dies_at_start_is_named_where_the_gui_shows_it() {
    use crate::proxy_util::Proxy;
    let mock = common::mock_engine();
    let mut p = Proxy::start(&["--", mock.to_str().unwrap(), "--crash-on-uci"]);
    p.send("uci");
    // The engine's own `id name` (held until its `uciok`) never reaches
    // the GUI: the proxy's is the first, the one GUIs keep.
    let id = p.wait_line("id name");
    assert!(
        id.contains("killed by signal 11 (SIGSEGV) before its uciok"),
        "{id}"
    );
    p.wait_line("uciok");
    p.send("isready");
    p.wait_line("readyok");
    p.send("go wtime 1000 btime 1000");
    let info = p.wait_line("info string");
    assert!(info.contains("SIGSEGV"), "{info}");
    let (status, _, stderr) = p.finish();
    assert_eq!(status.code(), Some(3));
    assert_eq!(stderr.matches("SIGSEGV").count(), 1, "{stderr}");
}

#[test]
fn a_board_tracking_gui_under_injection_is_told_why_once_per_game() {
    use crate::proxy_util::Proxy;
    // The built-in engine behind the proxy; SP 0 (king g1, bishops a1/b1)
    // injected where the GUI believes in the standard start.
    let mut p = Proxy::start(&["--start", "sp:0"]);
    p.handshake();
    let why = "the GUI plays from its own start position";
    for game in 0..2 {
        p.send("ucinewgame");
        p.send("position startpos moves e2e4 e7e5 g1f3");
        p.send("go wtime 1000 btime 1000");
        assert_eq!(p.wait_line("bestmove"), "bestmove 0000", "game {game}");
        p.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
        p.send("go wtime 1000 btime 1000");
        assert_eq!(p.wait_line("bestmove"), "bestmove 0000");
    }
    p.send("quit");
    let (status, seen, stderr) = p.finish();
    assert!(status.success());
    let told = seen
        .iter()
        .filter(|l| l.starts_with("info string") && l.contains(why));
    assert_eq!(told.count(), 2, "once per game: {seen:?}");
    assert_eq!(stderr.matches(why).count(), 2, "{stderr}");
    assert!(stderr.contains("set `uci960 Start` to `gui`"), "{stderr}");
}
