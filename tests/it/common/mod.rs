//! Helpers shared by the integration tests: the binary under test, the
//! mock engine, real engines and python-chess, scratch directories,
//! running commands and reading their output ([`commands`]), and the one
//! test UCI client ([`client::Client`]).
//!
//! A test that needs a real engine or python-chess FAILS when it is
//! missing. Set `UCI960_ALLOW_SKIP=1` to skip such tests instead (never in
//! CI, `CI=true`): each skip prints `SKIPPED: <test>: <what>` and appends
//! that line to the skip log (`$UCI960_SKIP_LOG`, default
//! `target/tmp/skips.log`), which `scripts/test.sh` counts in its summary.
#![allow(dead_code)]

pub mod client;
pub mod commands;
pub mod process;

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

// Not every platform's test set uses every helper.
#[allow(unused_imports)]
pub use client::{Client, OnDrop, PATIENCE};
#[allow(unused_imports)]
pub use commands::{
    assert_each_round_once, assert_ok, check_pgn, deterministic_match, engine_args, read_json,
    run_match, spawn_match, stdout_json, strs,
};
#[cfg(any(target_os = "linux", windows))]
pub use process::gone_within;
#[cfg(target_os = "linux")]
pub use process::wait_for_file;
#[allow(unused_imports)]
pub use process::{alive, children_of, wait_exit};

/// The `uci960` binary built for this test run.
pub fn uci960() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_uci960"))
}

/// The Rust mock engine (`examples/mock_engine.rs`; its fault flags are
/// listed there), built next to the binary under test.
pub fn mock_engine() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| example("mock_engine")).clone()
}

/// One of the project's examples (`examples/NAME.rs`), built next to the
/// binary under test. `cargo test` and `cargo test --no-run` build them
/// (`scripts/test-windows.sh` builds them with `--examples`); a run
/// filtered with `--test it` does not, so then it is built here.
pub fn example(name: &str) -> PathBuf {
    let bin = uci960();
    let dir = bin.parent().expect("the binary has a directory");
    let path = dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !path.is_file() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--profile", "test", "--example", name])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status();
        assert!(
            path.is_file(),
            "{} is missing and `cargo build --profile test --example {name}` \
             did not build it ({status:?})",
            path.display()
        );
    }
    path
}

/// `--engine` arguments of `uci960 match` for the mock engine with `flags`.
pub fn mock_engine_spec(name: &str, flags: &[&str]) -> Vec<String> {
    let mut spec = engine_args(&mock_engine(), &[]);
    spec.extend(flags.iter().map(|f| format!("arg={f}")));
    spec.push(format!("name={name}"));
    spec
}

/// A new, empty directory for one test's files: named after `name`, the
/// process and a counter, so that tests running at once never share one.
pub fn scratch_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("uci960-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// Whether the tests run in CI, where nothing may be skipped.
pub fn in_ci() -> bool {
    std::env::var("CI")
        .map(|v| v == "true" || v == "1")
        .unwrap_or(false)
}

/// Whether the user asked for tests with missing dependencies to be
/// skipped (`UCI960_ALLOW_SKIP=1`) rather than failed.
pub fn skips_allowed() -> bool {
    !in_ci() && std::env::var("UCI960_ALLOW_SKIP").is_ok_and(|v| v == "1" || v == "true")
}

/// Finds an engine on PATH or in /usr/games (Debian puts engines there).
/// Missing: the test fails, or with `UCI960_ALLOW_SKIP=1` gets `None`
/// (a counted skip).
pub fn require_engine(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.push(PathBuf::from("/usr/games"));
    for dir in dirs {
        let candidate = dir.join(name);
        if candidate.is_file() {
            return Some(candidate);
        }
    }
    missing(&format!("engine '{name}' (apt-get install {name})"))
}

/// Finds a python3 that can `import chess`. Missing: as [`require_engine`].
pub fn require_python_chess() -> Option<PathBuf> {
    static FOUND: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    require_python_module(
        &FOUND,
        "chess, chess.engine",
        "python-chess (pip install chess)",
    )
}

/// Finds a python3 that can `import kubernetes_validate` (PyPI
/// `kubernetes-validate`, the Kubernetes API's schemas). Missing: as
/// [`require_engine`].
pub fn require_kubernetes_validate() -> Option<PathBuf> {
    static FOUND: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    require_python_module(
        &FOUND,
        "kubernetes_validate, yaml",
        "kubernetes-validate (pip install kubernetes-validate)",
    )
}

/// A python3 (or python) that can `import MODULES`, looked for once.
fn require_python_module(
    found: &std::sync::OnceLock<Option<PathBuf>>,
    modules: &str,
    what: &str,
) -> Option<PathBuf> {
    let found = found.get_or_init(|| {
        ["python3", "python"].into_iter().find_map(|python| {
            Command::new(python)
                .args(["-c", &format!("import {modules}")])
                .output()
                .is_ok_and(|o| o.status.success())
                .then(|| PathBuf::from(python))
        })
    });
    match found {
        Some(p) => Some(p.clone()),
        None => missing(what),
    }
}

/// A missing dependency: fail, or skip loudly and log the skip.
fn missing<T>(what: &str) -> Option<T> {
    let test = std::thread::current()
        .name()
        .unwrap_or("unnamed test")
        .to_string();
    if !skips_allowed() {
        panic!(
            "{what} is missing. Install it (scripts/install-deps.sh), or set \
             UCI960_ALLOW_SKIP=1 to skip the tests that need it{}",
            if in_ci() { " (not in CI)" } else { "" }
        );
    }
    let line = format!("SKIPPED: {test}: {what} is not installed");
    eprintln!("{line}");
    let log = std::env::var_os("UCI960_SKIP_LOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("skips.log"));
    if let Some(dir) = log.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
    {
        let _ = writeln!(f, "{line}");
    }
    None
}

/// Runs a python script (`python -c SCRIPT`) with `input` on its stdin.
pub fn run_python(python: &std::path::Path, script: &str, input: &str) -> std::process::Output {
    use std::process::Stdio;
    let mut child = Command::new(python)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python");
    child
        .stdin
        .take()
        .expect("python stdin")
        .write_all(input.as_bytes())
        .expect("write to python");
    child.wait_with_output().expect("python output")
}

/// Runs a python script (`python -c SCRIPT ARGS…`), its stdin empty.
pub fn run_python_args(
    python: &std::path::Path,
    script: &str,
    args: &[&str],
) -> std::process::Output {
    Command::new(python)
        .args(["-c", script])
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run python")
}
