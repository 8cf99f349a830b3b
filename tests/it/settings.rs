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
