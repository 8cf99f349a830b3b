//! How settings reach the library and how it speaks of them: keyword
//! settings parsed by the library's word lists (clap only shows them), and
//! a bad value named as the user wrote it, the flag on the command line or
//! the key in a TOML config.

use std::process::{Command, Output};

use crate::common;

fn uci960(args: &[&str]) -> Output {
    Command::new(common::uci960())
        .args(args)
        .output()
        .expect("uci960 runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Three built-in engines, so that a gauntlet and a round robin differ.
const THREE: [&str; 9] = [
    "--engine", "name=a", "depth=1", "--engine", "name=b", "depth=1", "--engine", "name=c",
    "depth=1",
];

#[test]
fn a_listed_tournament_format_is_read_and_another_word_is_a_usage_error() {
    let mut args = THREE.to_vec();
    args.extend(["--tournament", "gauntlet", "--seed", "1", "--dry-run"]);
    let out = uci960(&["match"].iter().chain(&args).copied().collect::<Vec<_>>());
    common::assert_ok(&out);
    // A gauntlet of three: a plays b and c, 2 games each.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("4 games, 2 pairing(s)"), "{stdout}");

    let out = uci960(&["match", "--tournament", "swiss", "--dry-run"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("invalid value 'swiss' for '--tournament <TOURNAMENT>'")
            && err.contains("[possible values: round-robin, gauntlet, knockout]"),
        "{err}"
    );
    // Words are exact, as before (clap's value enums ignore no case).
    let out = uci960(&["match", "--tournament", "Gauntlet", "--dry-run"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn keyword_settings_show_their_words_and_meanings_in_help() {
    let out = uci960(&["match", "--help"]);
    common::assert_ok(&out);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("- round-robin: Every engine plays every other one")
            && help.contains(
                "- knockout:    A seeded bracket: the winner of each encounter goes on\n"
            ),
        "{help}"
    );
    let out = uci960(&["book", "--help"]);
    common::assert_ok(&out);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("- white: Positive: White is better (the default)")
            && help.contains("- stm:   Positive: the side to move is better"),
        "{help}"
    );
    let out = uci960(&["book", "--eval-view", "black"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("invalid value 'black' for '--eval-view <EVAL_VIEW>'")
            && err.contains("[possible values: white, stm]"),
        "{err}"
    );
}

/// `uci960 match ARGS --dry-run` with a config file holding `toml`
/// (when given); the exit code and stderr.
fn check_match(toml: Option<&str>, args: &[&str]) -> (Option<i32>, String, String) {
    run_match(toml, &[args, &["--dry-run"]].concat())
}

#[test]
fn a_bad_value_is_named_by_the_flag_or_the_config_key_it_came_from() {
    // The same values, once as flags, once as TOML keys.
    let cases: [(&[&str], &str, &str, &str); 3] = [
        (
            &["--games", "0"],
            "seed = 1\ngames = 0\n",
            "--games must be at least 1 (got 0)",
            "games (config {}, line 2) must be at least 1 (got 0)",
        ),
        (
            &["--draw", "movenumber=1", "movecount=1", "score=99999"],
            "# adjudication\n[draw]\nmovenumber = 1\nmovecount = 1\nscore = 99999\n",
            "--draw score='99999': expected a whole number from 0 to 30000",
            "draw (config {}, line 2) score='99999': expected a whole number from 0 to 30000",
        ),
        (
            &["--seed", "3", "--shard", "1/0"],
            "seed = 3\nshard = \"1/0\"\n",
            "--shard '1/0': out of range",
            "shard (config {}, line 2) '1/0': out of range",
        ),
    ];
    for (flags, toml, by_flag, by_key) in cases {
        let (code, err, _) = check_match(None, flags);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(by_flag), "{flags:?}: {err}");
        let (code, err, path) = check_match(Some(toml), &[]);
        assert_eq!(code, Some(2), "{err}");
        let by_key = by_key.replace("{}", &path);
        assert!(err.contains(&by_key), "{toml:?}: {err}");
        assert!(!err.contains(" --"), "no flag was given: {err}");
    }
}

#[test]
fn a_flag_over_a_config_key_is_named_as_the_flag_and_wins() {
    // The flag wins: a good flag mends a bad key, a bad flag is the flag's.
    let (code, err, _) = check_match(Some("seed = 1\ngames = 0\n"), &["--games", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, err, _) = check_match(Some("seed = 1\ngames = 4\n"), &["--games", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--games must be at least 1"), "{err}");
    // The key the config wrote is named as the key; the missing seed,
    // given nowhere, as its flag.
    let (code, err, path) = check_match(Some("castling = \"strict\"\nshard = \"1/2\"\n"), &[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(&format!("shard (config {path}, line 2) 1/2 needs --seed")),
        "{err}"
    );
}

/// `uci960 match` with a config file holding `toml` (when given) and
/// `args`: the exit code, stderr and the config's path.
fn run_match(toml: Option<&str>, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = common::scratch_dir("settings-run");
    let config = dir.join("match.toml");
    let mut all = vec!["match".to_string()];
    if let Some(text) = toml {
        std::fs::write(&config, text).unwrap();
        all.extend(["--config".to_string(), config.display().to_string()]);
    }
    all.extend(args.iter().map(|a| a.to_string()));
    let out = Command::new(common::uci960())
        .args(&all)
        .output()
        .expect("uci960 runs");
    (
        out.status.code(),
        stderr(&out),
        config.display().to_string(),
    )
}

/// The hints of a run (resume, the state file, a PGN appended to) name
/// each setting as the user wrote it: a flag keeps the command line's
/// wording, a config key is named with its file and line.
#[test]
fn run_hints_name_the_flag_or_the_config_key() {
    let two = [
        "--engine", "name=a", "depth=1", "--engine", "name=b", "depth=1", "--quiet",
    ];
    fn with<'a>(two: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
        [two, more].concat()
    }
    let (code, err, _) = run_match(None, &with(&two, &["--resume"]));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot resume: --resume needs --pgn FILE or --state FILE"),
        "{err}"
    );

    let dir = common::scratch_dir("settings-hints");
    let state = dir.join("none.state.json");
    let shown = state.display().to_string();
    let (code, err, _) = run_match(None, &with(&two, &["--state", &shown, "--resume"]));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "cannot resume: no state file {shown} (it is written next to the PGN, or at --state)"
        )),
        "{err}"
    );
    let toml = format!("seed = 1\nstate = {:?}\n", shown);
    let (code, err, path) = run_match(Some(&toml), &with(&two, &["--resume"]));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "no state file {shown} (it is written next to the PGN, or at state (config {path}, line 2))"
        )),
        "{err}"
    );
    assert!(!err.contains("--state"), "no --state was given: {err}");

    // A PGN from the config that already holds games: appended to, and
    // the note names the one way to resume, the flag.
    let pgn = dir.join("old.pgn");
    std::fs::write(&pgn, "[Event \"old\"]\n\n*\n\n").unwrap();
    let toml = format!(
        "seed = 1\ngames = 2\npgn = {:?}\n",
        pgn.display().to_string()
    );
    let (code, err, _) = run_match(Some(&toml), &two);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "appending to {} (use --resume to continue a tournament in it)",
            pgn.display()
        )),
        "{err}"
    );
}
