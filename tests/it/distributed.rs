//! Matches split over machines (docs/DISTRIBUTED.md): `match --shard I/N
//! --dir RUN/` and `uci960 merge`. The shards' games together are the
//! single-machine tournament (same Round, White, Black, FEN, moves; the
//! same standings); merge refuses what is not one tournament and labels
//! partial merges; SIGTERM keeps every finished game and the same command
//! resumes; the SPRT over a shared run directory stops every shard.
//! (A real scheduler: scripts/test-slurm.sh.)

use crate::common;
use crate::tournament::{Game, games};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn with(mut args: Vec<String>, more: &[&str]) -> Vec<String> {
    args.extend(common::strs(more));
    args
}

fn shard_args(base: &[String], shard: &str, dir: &Path) -> Vec<String> {
    with(
        base.to_vec(),
        &["--shard", shard, "--dir", dir.to_str().unwrap()],
    )
}

fn merge(args: &[&str]) -> Output {
    Command::new(common::uci960())
        .arg("merge")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run uci960 merge")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The games by Round, without Date (shards may run on other days).
fn by_round(path: &Path) -> BTreeMap<u64, Game> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = BTreeMap::new();
    for mut g in games(&text) {
        // When a game was played differs from run to run.
        for tag in ["Date", "GameStartTime", "GameEndTime", "GameDuration"] {
            g.tags.remove(tag);
        }
        let round = g.tags["Round"].parse().unwrap();
        assert!(out.insert(round, g).is_none(), "game {round} twice");
    }
    out
}

fn rounds_in_order(path: &Path) -> Vec<u64> {
    games(&std::fs::read_to_string(path).unwrap())
        .iter()
        .map(|g| g.tags["Round"].parse().unwrap())
        .collect()
}

/// What must be equal between the merge and the single run.
fn standings(json: &Value) -> Value {
    serde_json::json!({
        "games": json["games"],
        "engines": json["engines"],
        "pairings": json["pairings"],
        "terminations": json["terminations"],
        "seed": json["seed"],
    })
}

fn state(dir: &Path, shard: &str) -> PathBuf {
    let (i, n) = shard.split_once('/').unwrap();
    dir.join(format!("shard-{i}-of-{n}.state.json"))
}

fn state_games(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v["games"].as_array().map(|a| a.len()))
        .unwrap_or(0)
}

#[test]
fn the_shards_together_are_the_single_run() {
    let dir = common::scratch_dir("distributed-union");
    let base = common::deterministic_match(10, 21);
    let single = dir.join("single.pgn");
    let single_json = dir.join("single.json");
    let single_out = common::run_match(&with(
        base.clone(),
        &[
            "--pgn",
            single.to_str().unwrap(),
            "--json",
            single_json.to_str().unwrap(),
            // Only the final table: what merge prints after its summary.
            "--quiet",
        ],
    ));
    common::assert_ok(&single_out);

    // 5 pairs over 3 shards: 2, 2 and 1 pairs. Shard 3 finds its number
    // in a Slurm array job's variables.
    let run = dir.join("run");
    for shard in ["1/3", "2/3"] {
        common::assert_ok(&common::run_match(&shard_args(&base, shard, &run)));
    }
    let out = Command::new(common::uci960())
        .arg("match")
        .args(shard_args(&base, "auto", &run))
        .env("SLURM_ARRAY_TASK_ID", "7")
        .env("SLURM_ARRAY_TASK_MIN", "5")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    common::assert_ok(&out);
    assert_eq!(state_games(&state(&run, "3/3")), 2);
    assert_eq!(state_games(&state(&run, "1/3")), 4);

    let merged = dir.join("merged.pgn");
    let merged_json = dir.join("merged.json");
    let out = merge(&[
        run.to_str().unwrap(),
        "--pgn",
        merged.to_str().unwrap(),
        "--json",
        merged_json.to_str().unwrap(),
    ]);
    common::assert_ok(&out);
    let (stdout, _) = text(&out);
    assert!(
        stdout.starts_with("merged 3 of 3 shard(s): 10 of 10 games"),
        "{stdout}"
    );
    assert_eq!(by_round(&merged), by_round(&single));
    assert_eq!(rounds_in_order(&merged), (1..=10).collect::<Vec<_>>());
    let (m, s) = (
        common::read_json(&merged_json),
        common::read_json(&single_json),
    );
    assert_eq!(standings(&m), standings(&s));
    assert_eq!(m["partial"], false);
    // What merge prints after its summary is what the single run printed.
    let single_table = text(&single_out).0;
    assert!(
        stdout.ends_with(&single_table),
        "{stdout}\nvs\n{single_table}"
    );
}

#[test]
fn merge_refuses_what_is_not_one_tournament_and_labels_partial_merges() {
    let dir = common::scratch_dir("distributed-refusals");
    let base = common::deterministic_match(4, 5);
    let run = dir.join("run");
    for shard in ["1/2", "2/2"] {
        common::assert_ok(&common::run_match(&shard_args(&base, shard, &run)));
    }
    let s1 = state(&run, "1/2");
    let s2 = state(&run, "2/2");
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    let refused = |args: &[String], want: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = merge(&args);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
        assert!(stderr.contains(want), "wanted '{want}' in: {stderr}");
    };

    // Another tournament: a different seed.
    let other = dir.join("other");
    common::assert_ok(&common::run_match(&shard_args(
        &common::deterministic_match(4, 6),
        "2/2",
        &other,
    )));
    refused(
        &[arg(&s1), arg(&state(&other, "2/2"))],
        "different tournaments",
    );
    // Another shard count of the same settings.
    let thirds = dir.join("thirds");
    common::assert_ok(&common::run_match(&shard_args(&base, "2/3", &thirds)));
    refused(
        &[arg(&run), arg(&thirds)],
        "one of 3: merge the shards of one run",
    );
    // The same shard twice (a copy from another machine).
    let copy = dir.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(&s2, copy.join("shard-2-of-2.state.json")).unwrap();
    refused(&[arg(&run), arg(&copy)], "shard 2/2 is given twice");
    // A state file renamed to another shard.
    let renamed = dir.join("renamed");
    std::fs::create_dir_all(&renamed).unwrap();
    std::fs::copy(&s1, renamed.join("shard-2-of-2.state.json")).unwrap();
    refused(&[arg(&s1), arg(&renamed)], "holds shard 1/2");
    // Damaged states: not JSON, and a game of another shard.
    let damaged = dir.join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    std::fs::write(damaged.join("shard-2-of-2.state.json"), "{\"version\": 1").unwrap();
    refused(&[arg(&s1), arg(&damaged)], "is damaged");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&s2).unwrap()).unwrap();
    v["games"][0]["number"] = serde_json::json!(1);
    std::fs::write(damaged.join("shard-2-of-2.state.json"), v.to_string()).unwrap();
    // Edited, its check no longer matches (issue 21); without a check (a
    // state written before checks were kept) the game itself is refused.
    refused(&[arg(&s1), arg(&damaged)], "check does not match");
    v.as_object_mut().unwrap().remove("check");
    std::fs::write(damaged.join("shard-2-of-2.state.json"), v.to_string()).unwrap();
    refused(&[arg(&s1), arg(&damaged)], "not one of shard 2/2's");
    refused(&[arg(&dir.join("nothing-here"))], "nothing-here");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    refused(&[arg(&dir.join("empty"))], "no shard state files");

    // Partial: shard 2 missing, then unfinished; the merge still prints,
    // says so, and exits 1.
    let out = merge(&[&arg(&s1)]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with("PARTIAL: merged 1 of 2 shard(s): 2 of 4 games"),
        "{stdout}"
    );
    assert!(
        stdout.contains("shard 2/2: missing (0 of 2 games)"),
        "{stdout}"
    );
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&s2).unwrap()).unwrap();
    v["games"].as_array_mut().unwrap().pop();
    // Without its check: an edited state, read as one written before
    // checks were kept.
    v.as_object_mut().unwrap().remove("check");
    let unfinished = dir.join("unfinished");
    std::fs::create_dir_all(&unfinished).unwrap();
    std::fs::write(unfinished.join("shard-2-of-2.state.json"), v.to_string()).unwrap();
    let json = dir.join("partial.json");
    let out = merge(&[&arg(&s1), &arg(&unfinished), "--json", &arg(&json)]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("shard 2/2: unfinished (1 of 2 games)"),
        "{stdout}"
    );
    let j = common::read_json(&json);
    assert_eq!(j["partial"], true);
    assert_eq!(j["games"], 3);
    assert_eq!(j["shards"][1]["status"], "unfinished");
    // A merged PGN needs every recorded game in the shard PGNs.
    let out = merge(&[
        &arg(&s1),
        &arg(&unfinished),
        "--pgn",
        &arg(&dir.join("m.pgn")),
    ]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("shard-2-of-2.pgn"), "{stderr}");
    // Each game is found where its state file says (its span starts a
    // tag section with its Round): a PGN with its two games swapped is
    // not the one written with the state.
    let swapped = dir.join("swapped");
    std::fs::create_dir_all(&swapped).unwrap();
    std::fs::copy(&s2, swapped.join("shard-2-of-2.state.json")).unwrap();
    let pgn2 = std::fs::read_to_string(run.join("shard-2-of-2.pgn")).unwrap();
    let (first, second) = pgn2.split_at(pgn2.find("\n\n[Event ").unwrap() + 2);
    std::fs::write(swapped.join("shard-2-of-2.pgn"), format!("{second}{first}")).unwrap();
    let out = merge(&[&arg(&s1), &arg(&swapped), "--pgn", &arg(&dir.join("m.pgn"))]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("where its state says"), "{stderr}");
    assert!(!dir.join("m.pgn").exists());
    // A state without the games' spans (an older uci960): the PGN is
    // split at its tag sections, with the same merged result.
    let spanless = dir.join("spanless");
    std::fs::create_dir_all(&spanless).unwrap();
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&s2).unwrap()).unwrap();
    for g in v["games"].as_array_mut().unwrap() {
        g.as_object_mut().unwrap().remove("pgn");
    }
    // Older states had no check either.
    v.as_object_mut().unwrap().remove("check");
    std::fs::write(spanless.join("shard-2-of-2.state.json"), v.to_string()).unwrap();
    std::fs::write(spanless.join("shard-2-of-2.pgn"), &pgn2).unwrap();
    let (whole, old) = (dir.join("whole.pgn"), dir.join("old.pgn"));
    common::assert_ok(&merge(&[&arg(&run), "--pgn", &arg(&whole)]));
    common::assert_ok(&merge(&[&arg(&s1), &arg(&spanless), "--pgn", &arg(&old)]));
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&old).unwrap());
    assert_eq!(rounds_in_order(&whole), vec![1, 2, 3, 4]);

    // One run directory, one shard count: a shard of another count (a
    // Slurm task submitted again on its own resolves `auto` to 1/1) is
    // refused before it writes anything.
    let before = std::fs::read_dir(&run).unwrap().count();
    for shard in ["1/3", "1/1"] {
        let out = common::run_match(&shard_args(&base, shard, &run));
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("holds shards of 2"), "{stderr}");
    }
    assert_eq!(std::fs::read_dir(&run).unwrap().count(), before);

    // Usage: --shard without --seed, --dir with --pgn.
    let out = common::run_match(&common::strs(&["--shard", "1/2", "--dir", &arg(&run)]));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("needs --seed"), "{}", text(&out).1);
    let out = common::run_match(&with(
        shard_args(&base, "1/2", &run),
        &["--pgn", &arg(&dir.join("x.pgn"))],
    ));
    assert_eq!(out.status.code(), Some(2));
    let out = common::run_match(&with(base.clone(), &["--shard", "auto"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains("no scheduler index"),
        "{}",
        text(&out).1
    );
}

#[test]
fn sigterm_keeps_every_finished_game_and_the_same_command_resumes() {
    let dir = common::scratch_dir("distributed-preempt");
    let base = common::deterministic_match(12, 9);
    let run = dir.join("run");
    let args = shard_args(&base, "1/2", &run);
    let st = state(&run, "1/2");
    let mut child = common::spawn_match(&args);
    // The poll is the event; the deadline only guards against a hang.
    let deadline = Instant::now() + Duration::from_secs(300);
    while state_games(&st) < 2 && child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: plain kill(2) on our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    let kept = state_games(&st);
    let pgn = run.join("shard-1-of-2.pgn");
    let before = by_round(&pgn);
    assert!(kept >= 2, "{kept}");
    if kept < 6 {
        assert_eq!(status.code(), Some(143), "SIGTERM: 128 + 15");
    }
    assert_eq!(
        before.len(),
        kept,
        "the PGN holds exactly the recorded games"
    );

    // Requeued: the same command, nothing more.
    common::assert_ok(&common::run_match(&args));
    let after = by_round(&pgn);
    assert_eq!(after.len(), 6);
    for (round, game) in before {
        assert_eq!(after[&round], game, "game {round} kept as it was");
    }
    // And the whole equals one machine's run.
    common::assert_ok(&common::run_match(&shard_args(&base, "2/2", &run)));
    let single = dir.join("single.pgn");
    common::assert_ok(&common::run_match(&with(
        base.clone(),
        &["--pgn", single.to_str().unwrap()],
    )));
    let merged = dir.join("merged.pgn");
    common::assert_ok(&merge(&[
        run.to_str().unwrap(),
        "--pgn",
        merged.to_str().unwrap(),
    ]));
    assert_eq!(by_round(&merged), by_round(&single));
}

#[test]
fn the_sprt_over_a_shared_run_directory_stops_every_shard() {
    let dir = common::scratch_dir("distributed-sprt");
    let run = dir.join("run");
    // A depth-1 engine against a depth-4 one: H0 (elo ≥ 200 for the first)
    // is accepted after a few games.
    let base = common::strs(&[
        "--engine",
        "name=weak",
        "depth=1",
        "--engine",
        "name=strong",
        "depth=4",
        "--games",
        "200",
        "--seed",
        "3",
        "--maxmoves",
        "80",
        "--sprt",
        "elo0=0",
        "elo1=200",
        "alpha=0.1",
        "beta=0.1",
    ]);
    let first = common::run_match(&shard_args(&base, "1/2", &run));
    let (stdout, _) = text(&first);
    assert_eq!(first.status.code(), Some(1), "H0 accepted: {stdout}");
    let played = state_games(&state(&run, "1/2"));
    assert!(played > 0 && played < 100, "{played}");
    // The second shard finds the decision in its sibling's state.
    let second = common::run_match(&shard_args(&base, "2/2", &run));
    let (_, stderr) = text(&second);
    assert!(stderr.contains("already decided"), "{stderr}");
    assert_eq!(state_games(&state(&run, "2/2")), 0);
    let json = dir.join("m.json");
    let out = merge(&[run.to_str().unwrap(), "--json", json.to_str().unwrap()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "H0 accepted: {stdout}");
    assert!(
        stdout.contains(&format!("SPRT: decided on {played} games")),
        "{stdout}"
    );
    assert!(stdout.contains("H0 accepted"), "{stdout}");
    let j = common::read_json(&json);
    assert_eq!(j["partial"], false);
    assert_eq!(j["sprt_decided"], true);
    assert_eq!(j["sprt"]["verdict"], "accept_h0");
}

/// The Indexed Job of docs/DISTRIBUTED.md, as written there.
fn kubernetes_job_in_the_docs() -> String {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/DISTRIBUTED.md"))
        .unwrap();
    let section = doc
        .split("\n## Kubernetes Indexed Job")
        .nth(1)
        .expect("docs/DISTRIBUTED.md has a Kubernetes section");
    let block = section.split("```yaml\n").nth(1).expect("a yaml block");
    block.split("\n```").next().unwrap().to_string()
}

#[test]
fn the_kubernetes_job_in_the_docs_is_valid_and_its_pods_make_the_single_run() {
    let Some(py) = common::require_kubernetes_validate() else {
        return;
    };
    let dir = common::scratch_dir("distributed-kubernetes");
    let yaml = dir.join("job.yaml");
    std::fs::write(&yaml, kubernetes_job_in_the_docs()).unwrap();
    // The Kubernetes API's own schema (strict: no unknown field), then
    // the document as JSON for the checks below.
    let script = r#"
import json, sys, yaml, kubernetes_validate
doc = yaml.safe_load(open(sys.argv[1]))
kubernetes_validate.validate(doc, "1.37.0", strict=True)
print(json.dumps(doc))
"#;
    let out = Command::new(&py)
        .args(["-c", script])
        .arg(&yaml)
        .output()
        .unwrap();
    common::assert_ok(&out);
    let job: Value = serde_json::from_slice(&out.stdout).unwrap();
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let completions = spec["completions"].as_u64().unwrap();
    let command: Vec<String> = spec["template"]["spec"]["containers"][0]["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    assert_eq!(command[..2], ["uci960", "match"]);
    let value_of = |flag: &str| {
        let at = command.iter().position(|t| t == flag).unwrap();
        command[at + 1].clone()
    };
    // The pod only sees its index: the count must repeat `completions`.
    assert_eq!(value_of("--shard"), format!("auto/{completions}"));

    // Each pod's command, with this test's engines, games and volume in
    // place of the image's: one pair of games per pod.
    let games = 2 * completions as u32;
    let base = common::deterministic_match(games, value_of("--seed").parse().unwrap());
    let single = dir.join("single.pgn");
    common::assert_ok(&common::run_match(&with(
        base.clone(),
        &["--pgn", single.to_str().unwrap()],
    )));
    let run = dir.join("run");
    let pod = |index: u64| {
        Command::new(common::uci960())
            .arg("match")
            .args(shard_args(&base, &value_of("--shard"), &run))
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env_remove("SLURM_ARRAY_TASK_ID")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // `parallelism` pods at once, as the Job runs them.
    let parallelism = spec["parallelism"].as_u64().unwrap();
    assert_eq!(parallelism, completions);
    let pods: Vec<_> = (0..completions).map(pod).collect();
    for p in pods {
        common::assert_ok(&p.wait_with_output().unwrap());
    }
    // A retried pod (`backoffLimit`) runs the same command: it resumes a
    // finished shard and adds nothing.
    common::assert_ok(&pod(3).wait_with_output().unwrap());
    for index in 0..completions {
        let shard = format!("{}/{completions}", index + 1);
        assert_eq!(state_games(&state(&run, &shard)), 2, "shard {shard}");
    }
    let merged = dir.join("merged.pgn");
    common::assert_ok(&merge(&[
        run.to_str().unwrap(),
        "--pgn",
        merged.to_str().unwrap(),
    ]));
    assert_eq!(by_round(&merged), by_round(&single));
    assert_eq!(
        rounds_in_order(&merged),
        (1..=u64::from(games)).collect::<Vec<_>>()
    );
}
