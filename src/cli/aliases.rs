//! cutechess-cli's and fastchess's spellings for `uci960 match`: their
//! single-dash flags (`-engine`, `-each`, `-games`, `-pgnout`, …) and their
//! engine and opening keys (`proto=uci`, `tc=inf`, `args=`, `timemargin=`,
//! `start=`, `policy=`) rewritten into the native flags before the command
//! line is parsed, so that a cutechess-cli or fastchess command line for a
//! Chess960 match, with the program's name replaced by `uci960 match`, runs
//! as it would there.
//!
//! Everything is in one table, [`FLAGS`] (flags) and [`KEYS`] (keys), each
//! entry with the tool(s) that spell it so and its native form; the tests
//! below hold one case per entry, and docs/MATCH.md prints the table. What
//! cannot be honoured is refused (exit 2) with a message naming the native
//! equivalent, never ignored.
//!
//! Decisions:
//! * `-each` keys go to every engine, after the engine's own keys, so
//!   where both give a key `-each` wins (the native `--engine` parser takes
//!   a key's last value; `arg=` adds). Both tools do the same: cutechess-cli
//!   parses every `-engine`, then applies the `-each` keys to each engine's
//!   configuration (overwriting; projects/cli/src/main.cpp, `parseMatch`),
//!   and fastchess defers `-each` until every option is read, then applies
//!   its keys to every engine (app/src/cli/cli.cpp, `parseEach`). Several
//!   `-each` are accepted, their keys in order, as fastchess (cutechess-cli
//!   refuses a second `-each`).
//! * `-repeat` / `-repeat 2` is how uci960 always plays (each opening
//!   twice, colours reversed); without it cutechess-cli gives every game a
//!   new opening, which uci960 cannot do: a note says so, the match runs.
//! * Per-engine `timemargin=` and `restart=` are global in uci960
//!   (`--margin`, `--restart`): taken when every engine says the same.
//! * `tc=inf` is "no clock": the key is dropped (give `nodes=`/`depth=`,
//!   else uci960's default `nodes=5000` applies, noted).

use std::fmt;

/// How one single-dash flag becomes native arguments.
#[derive(Clone, Copy, Debug)]
pub enum FlagRule {
    /// The same values under the native name.
    Rename(&'static str),
    /// A switch without value.
    Switch(&'static str),
    /// KEY=VALUE tokens under the native name, keys through [`KEYS`].
    KeyValues(&'static str, KeyScope),
    /// `-engine`: one engine's keys.
    Engine,
    /// `-each`: keys for every engine.
    Each,
    /// `-repeat [N]`.
    Repeat,
    /// `-variant NAME`.
    Variant,
    /// `-tournament NAME`.
    Tournament,
    /// `-pgnout FILE [min] [fi]` or `-pgnout file=FILE …`.
    PgnOut,
    /// Cannot be honoured: the message says what uci960 does instead.
    Refused(&'static str),
}

/// Which flag a key belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KeyScope {
    Engine,
    Openings,
    Sprt,
    Draw,
    Resign,
}

/// One flag of the table.
#[derive(Clone, Copy, Debug)]
pub struct FlagAlias {
    pub flag: &'static str,
    /// `cutechess-cli`, `fastchess` or both.
    pub tools: &'static str,
    pub rule: FlagRule,
    /// The native form, for docs/MATCH.md and messages.
    pub native: &'static str,
}

/// How one key becomes native keys.
#[derive(Clone, Copy, Debug)]
pub enum KeyRule {
    /// The same key and value.
    Same,
    /// Another native key, same value.
    Rename(&'static str),
    /// `args="A B"`: one `arg=` per word.
    SplitArgs,
    /// Dropped when the value is one of these (`proto=uci`, `tc=inf`),
    /// refused otherwise.
    DropIf(&'static [&'static str], &'static str),
    /// Becomes a global native flag (`timemargin=` → `--margin`).
    Global(&'static str),
    /// Accepted when the value is one of these (uci960's behaviour
    /// already), refused otherwise.
    AcceptIf(&'static [&'static str], &'static str),
    /// Cannot be honoured.
    Refused(&'static str),
}

/// One key of the table.
#[derive(Clone, Copy, Debug)]
pub struct KeyAlias {
    pub scope: KeyScope,
    pub key: &'static str,
    pub tools: &'static str,
    pub rule: KeyRule,
    pub native: &'static str,
}

const BOTH: &str = "cutechess-cli, fastchess";
const CUTE: &str = "cutechess-cli";
const FAST: &str = "fastchess";

/// The flags.
pub const FLAGS: &[FlagAlias] = &[
    FlagAlias {
        flag: "-engine",
        tools: BOTH,
        rule: FlagRule::Engine,
        native: "--engine KEY=VALUE…",
    },
    FlagAlias {
        flag: "-each",
        tools: BOTH,
        rule: FlagRule::Each,
        native: "the keys added to every --engine",
    },
    FlagAlias {
        flag: "-games",
        tools: BOTH,
        rule: FlagRule::Rename("--games"),
        native: "--games N",
    },
    FlagAlias {
        flag: "-rounds",
        tools: BOTH,
        rule: FlagRule::Rename("--rounds"),
        native: "--rounds N",
    },
    FlagAlias {
        flag: "-repeat",
        tools: BOTH,
        rule: FlagRule::Repeat,
        native: "always: each opening twice, colours reversed",
    },
    FlagAlias {
        flag: "-concurrency",
        tools: BOTH,
        rule: FlagRule::Rename("--concurrency"),
        native: "--concurrency N",
    },
    FlagAlias {
        flag: "-openings",
        tools: BOTH,
        rule: FlagRule::KeyValues("--openings", KeyScope::Openings),
        native: "--openings KEY=VALUE…",
    },
    FlagAlias {
        flag: "-pgnout",
        tools: BOTH,
        rule: FlagRule::PgnOut,
        native: "--pgn FILE",
    },
    FlagAlias {
        flag: "-srand",
        tools: BOTH,
        rule: FlagRule::Rename("--seed"),
        native: "--seed N",
    },
    FlagAlias {
        flag: "-variant",
        tools: BOTH,
        rule: FlagRule::Variant,
        native: "always Chess960 (fischerandom)",
    },
    FlagAlias {
        flag: "-tournament",
        tools: BOTH,
        rule: FlagRule::Tournament,
        native: "--tournament round-robin|gauntlet|knockout",
    },
    FlagAlias {
        flag: "-sprt",
        tools: BOTH,
        rule: FlagRule::KeyValues("--sprt", KeyScope::Sprt),
        native: "--sprt KEY=VALUE…",
    },
    FlagAlias {
        flag: "-resign",
        tools: BOTH,
        rule: FlagRule::KeyValues("--resign", KeyScope::Resign),
        native: "--resign movecount=N score=CP",
    },
    FlagAlias {
        flag: "-draw",
        tools: BOTH,
        rule: FlagRule::KeyValues("--draw", KeyScope::Draw),
        native: "--draw movenumber=N movecount=N score=CP",
    },
    FlagAlias {
        flag: "-maxmoves",
        tools: BOTH,
        rule: FlagRule::Rename("--maxmoves"),
        native: "--maxmoves N",
    },
    FlagAlias {
        flag: "-recover",
        tools: BOTH,
        rule: FlagRule::Switch("--recover"),
        native: "--recover",
    },
    FlagAlias {
        flag: "-ratinginterval",
        tools: BOTH,
        rule: FlagRule::Rename("--rating-interval"),
        native: "--rating-interval N",
    },
    FlagAlias {
        flag: "-noswap",
        tools: BOTH,
        rule: FlagRule::Refused("uci960 always swaps colours within each game pair"),
        native: "(none)",
    },
    FlagAlias {
        flag: "-reverse",
        tools: CUTE,
        rule: FlagRule::Refused("uci960 always swaps colours within each game pair"),
        native: "(none)",
    },
    FlagAlias {
        flag: "-epdout",
        tools: BOTH,
        rule: FlagRule::Refused("write the positions with `uci960 book` instead"),
        native: "uci960 book",
    },
    FlagAlias {
        flag: "-debug",
        tools: BOTH,
        rule: FlagRule::Refused(
            "uci960 match has no engine log; `uci960 proxy --log` records one engine's traffic",
        ),
        native: "uci960 proxy --log",
    },
];

/// The keys, by flag.
pub const KEYS: &[KeyAlias] = &[
    KeyAlias {
        scope: KeyScope::Engine,
        key: "cmd",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "cmd=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "name",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "name=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "dir",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "dir=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "arg",
        tools: CUTE,
        rule: KeyRule::Same,
        native: "arg=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "args",
        tools: BOTH,
        rule: KeyRule::SplitArgs,
        native: "arg= per word",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "option.",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "option.NAME=VALUE",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "proto",
        tools: BOTH,
        rule: KeyRule::DropIf(&["uci"], "uci960 plays UCI engines only"),
        native: "(always UCI)",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "tc",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "tc= (tc=inf: no clock, the key dropped)",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "st",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "st=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "nodes",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "nodes=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "depth",
        tools: FAST,
        rule: KeyRule::Same,
        native: "depth=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "plies",
        tools: CUTE,
        rule: KeyRule::Rename("depth"),
        native: "depth=",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "timemargin",
        tools: BOTH,
        rule: KeyRule::Global("--margin"),
        native: "--margin MS (one for all engines)",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "restart",
        tools: BOTH,
        rule: KeyRule::Global("--restart"),
        native: "--restart on|off (one for all engines)",
    },
    KeyAlias {
        scope: KeyScope::Engine,
        key: "ponder",
        tools: BOTH,
        rule: KeyRule::Refused("uci960 engines never ponder"),
        native: "(none)",
    },
    KeyAlias {
        scope: KeyScope::Openings,
        key: "file",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "file=",
    },
    KeyAlias {
        scope: KeyScope::Openings,
        key: "format",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "format=epd|pgn",
    },
    KeyAlias {
        scope: KeyScope::Openings,
        key: "order",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "order=sequential|random",
    },
    KeyAlias {
        scope: KeyScope::Openings,
        key: "plies",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "plies=",
    },
    KeyAlias {
        scope: KeyScope::Openings,
        key: "start",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "start=N (1-based first line)",
    },
    KeyAlias {
        scope: KeyScope::Openings,
        key: "policy",
        tools: CUTE,
        rule: KeyRule::AcceptIf(
            &["default", "round"],
            "uci960 moves to the next opening after each game pair, every pairing playing opening i before i+1 (cutechess-cli's policy=default with -repeat, policy=round with -games 2)",
        ),
        native: "(the schedule: docs/MATCH.md)",
    },
    KeyAlias {
        scope: KeyScope::Sprt,
        key: "elo0",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "elo0=",
    },
    KeyAlias {
        scope: KeyScope::Sprt,
        key: "elo1",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "elo1=",
    },
    KeyAlias {
        scope: KeyScope::Sprt,
        key: "alpha",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "alpha=",
    },
    KeyAlias {
        scope: KeyScope::Sprt,
        key: "beta",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "beta=",
    },
    KeyAlias {
        scope: KeyScope::Sprt,
        key: "model",
        tools: FAST,
        rule: KeyRule::Same,
        native: "model=normalized|logistic|bayeselo (bayesian)",
    },
    KeyAlias {
        scope: KeyScope::Draw,
        key: "movenumber",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "movenumber=",
    },
    KeyAlias {
        scope: KeyScope::Draw,
        key: "movecount",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "movecount=",
    },
    KeyAlias {
        scope: KeyScope::Draw,
        key: "score",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "score=",
    },
    KeyAlias {
        scope: KeyScope::Resign,
        key: "movecount",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "movecount=",
    },
    KeyAlias {
        scope: KeyScope::Resign,
        key: "score",
        tools: BOTH,
        rule: KeyRule::Same,
        native: "score=",
    },
    KeyAlias {
        scope: KeyScope::Resign,
        key: "twosided",
        tools: BOTH,
        rule: KeyRule::Refused("uci960's resign rule is its own (docs/MATCH.md, adjudication)"),
        native: "--resign movecount= score=",
    },
];

/// A spelling that cannot be honoured, or a token that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AliasError(pub String);

impl fmt::Display for AliasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AliasError {}

/// Native arguments, and notes for stderr.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Translated {
    pub args: Vec<String>,
    pub notes: Vec<String>,
}

/// A single-dash flag of the other tools (not `-h`, not a number).
fn is_foreign_flag(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() > 2 && b[0] == b'-' && b[1].is_ascii_alphabetic()
}

fn key_alias(scope: KeyScope, key: &str) -> Option<&'static KeyAlias> {
    KEYS.iter().find(|k| {
        k.scope == scope && (k.key == key || (k.key.ends_with('.') && key.starts_with(k.key)))
    })
}

fn refused(what: &str, why: &str, native: &str) -> AliasError {
    AliasError(format!(
        "{what} cannot be honoured: {why} (uci960: {native})"
    ))
}

/// What the engine keys put on global flags.
#[derive(Default)]
struct Globals {
    flags: Vec<(&'static str, String)>,
}

impl Globals {
    fn set(&mut self, flag: &'static str, value: &str, key: &str) -> Result<(), AliasError> {
        match self.flags.iter().find(|(f, _)| *f == flag) {
            Some((_, v)) if v != value => Err(AliasError(format!(
                "engine key {key}= differs between engines ({v} and {value}); uci960 has one {flag} for all engines"
            ))),
            Some(_) => Ok(()),
            None => {
                self.flags.push((flag, value.to_string()));
                Ok(())
            }
        }
    }
}

/// Translates KEY=VALUE tokens of `scope`.
fn keys(
    scope: KeyScope,
    flag: &str,
    tokens: &[String],
    globals: &mut Globals,
    notes: &mut Vec<String>,
) -> Result<Vec<String>, AliasError> {
    let mut out = Vec::new();
    for t in tokens {
        let Some((key, value)) = t.split_once('=') else {
            // Not KEY=VALUE: the native parser says so.
            out.push(t.clone());
            continue;
        };
        let Some(alias) = key_alias(scope, key) else {
            out.push(t.clone());
            continue;
        };
        let what = format!("{flag} {key}={value}");
        match alias.rule {
            KeyRule::Same if scope == KeyScope::Engine && key == "tc" && value == "inf" => {
                notes.push(format!(
                    "{what}: no clock (give nodes= or depth=; without any limit uci960 uses nodes=5000)"
                ));
            }
            KeyRule::Same => out.push(t.clone()),
            KeyRule::Rename(native) => out.push(format!("{native}={value}")),
            KeyRule::SplitArgs => {
                let words = value.trim_matches('"');
                out.extend(words.split_whitespace().map(|w| format!("arg={w}")));
            }
            KeyRule::DropIf(values, why) => {
                if !values.contains(&value) {
                    return Err(refused(&what, why, alias.native));
                }
            }
            KeyRule::Global(native) => globals.set(native, value, key)?,
            KeyRule::AcceptIf(values, why) => {
                if !values.contains(&value) {
                    return Err(refused(&what, why, alias.native));
                }
            }
            KeyRule::Refused(why) => return Err(refused(&what, why, alias.native)),
        }
    }
    Ok(out)
}

/// Rewrites the arguments of `uci960 match` (after `match`). Arguments
/// without a single-dash flag come back unchanged.
pub fn translate(args: &[String]) -> Result<Translated, AliasError> {
    if !args
        .iter()
        .any(|a| is_foreign_flag(a) && !a.starts_with("--"))
    {
        return Ok(Translated {
            args: args.to_vec(),
            notes: Vec::new(),
        });
    }
    let mut out = Vec::new();
    let mut notes = Vec::new();
    let mut engines: Vec<Vec<String>> = Vec::new();
    let mut each: Vec<String> = Vec::new();
    let mut globals = Globals::default();
    let mut repeat = false;
    let mut i = 0;
    while i < args.len() {
        let t = &args[i];
        i += 1;
        if !is_foreign_flag(t) || t.starts_with("--") {
            out.push(t.clone());
            continue;
        }
        // The flag's values: the tokens up to the next flag.
        let end = args[i..]
            .iter()
            .position(|a| {
                a.starts_with('-')
                    && a.len() > 1
                    && !a[1..2].chars().all(|c| c.is_ascii_digit() || c == '.')
            })
            .map_or(args.len(), |p| i + p);
        let values = &args[i..end];
        i = end;
        let Some(alias) = FLAGS.iter().find(|f| f.flag == t) else {
            return Err(AliasError(format!(
                "unknown flag {t}: neither uci960's nor a cutechess-cli/fastchess flag it knows (docs/MATCH.md lists both)"
            )));
        };
        let one = |values: &[String]| -> Result<String, AliasError> {
            match values {
                [v] => Ok(v.clone()),
                _ => Err(AliasError(format!(
                    "{t} takes one value (got {})",
                    values.len()
                ))),
            }
        };
        match alias.rule {
            FlagRule::Rename(native) => {
                out.push(native.to_string());
                out.push(one(values)?);
            }
            FlagRule::Switch(native) => {
                if !values.is_empty() {
                    return Err(AliasError(format!(
                        "{t} takes no value (got {})",
                        values.join(" ")
                    )));
                }
                out.push(native.to_string());
            }
            FlagRule::KeyValues(native, scope) => {
                out.push(native.to_string());
                out.extend(keys(scope, t, values, &mut globals, &mut notes)?);
            }
            FlagRule::Engine => {
                engines.push(keys(KeyScope::Engine, t, values, &mut globals, &mut notes)?)
            }
            FlagRule::Each => {
                each.extend(keys(KeyScope::Engine, t, values, &mut globals, &mut notes)?)
            }
            FlagRule::Repeat => match values {
                [] => repeat = true,
                [n] if n == "2" => repeat = true,
                _ => {
                    return Err(refused(
                        &format!("{t} {}", values.join(" ")),
                        "uci960 plays each opening exactly twice, colours reversed",
                        alias.native,
                    ));
                }
            },
            FlagRule::Variant => {
                let v = one(values)?;
                if !["fischerandom", "chess960", "frc"].contains(&v.to_ascii_lowercase().as_str()) {
                    return Err(refused(
                        &format!("{t} {v}"),
                        "uci960 plays Chess960 only",
                        alias.native,
                    ));
                }
            }
            FlagRule::Tournament => {
                let v = one(values)?;
                let native = match v.as_str() {
                    "round-robin" | "roundrobin" => "round-robin",
                    "gauntlet" => "gauntlet",
                    "knockout" => "knockout",
                    _ => {
                        return Err(refused(
                            &format!("{t} {v}"),
                            "not a tournament uci960 plays",
                            alias.native,
                        ));
                    }
                };
                out.extend(["--tournament".to_string(), native.to_string()]);
            }
            FlagRule::PgnOut => out.extend(pgnout(t, values, alias)?),
            FlagRule::Refused(why) => {
                return Err(refused(t, why, alias.native));
            }
        }
    }
    if !repeat {
        notes.push(
            "without -repeat cutechess-cli gives every game its own opening; uci960 always plays each opening twice, colours reversed".into(),
        );
    }
    for (flag, value) in globals.flags {
        out.push(flag.to_string());
        out.push(value);
    }
    for mut e in engines {
        e.extend(each.iter().cloned());
        out.push("--engine".into());
        out.extend(e);
    }
    Ok(Translated { args: out, notes })
}

/// `-pgnout FILE [min] [fi]` (cutechess-cli) or `-pgnout file=FILE
/// [notation=san] …` (fastchess).
fn pgnout(t: &str, values: &[String], alias: &FlagAlias) -> Result<Vec<String>, AliasError> {
    let mut file = None;
    for v in values {
        match v.split_once('=') {
            Some(("file", f)) => file = Some(f.to_string()),
            Some(("notation", "san")) => {}
            Some((k, val)) => {
                return Err(refused(
                    &format!("{t} {k}={val}"),
                    "uci960's PGN holds SAN moves with {score/depth time} comments",
                    alias.native,
                ));
            }
            None if file.is_none() && v != "min" && v != "fi" => file = Some(v.clone()),
            None => {
                return Err(refused(
                    &format!("{t} … {v}"),
                    "uci960 writes every finished game in full",
                    alias.native,
                ));
            }
        }
    }
    match file {
        Some(f) => Ok(vec!["--pgn".into(), f]),
        None => Err(AliasError(format!("{t} needs a file"))),
    }
}

/// The process's arguments with `match`'s translated (unchanged when the
/// translation fails: the caller reported it already).
pub fn native_argv() -> Vec<String> {
    let argv: Vec<String> = std::env::args().collect();
    match argv.get(1).map(String::as_str) {
        Some("match") => match translate(&argv[2..]) {
            Ok(t) => argv[..2].iter().cloned().chain(t.args).collect(),
            Err(_) => argv,
        },
        _ => argv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn tr(s: &str) -> Result<String, String> {
        translate(&toks(s))
            .map(|t| t.args.join(" "))
            .map_err(|e| e.0)
    }

    /// One case per entry of [`FLAGS`]: the command line, and what it
    /// becomes (`Err(text)`: refused, the message containing `text`).
    const FLAG_CASES: &[(&str, &str, Result<&str, &str>)] = &[
        (
            "-engine",
            "-engine cmd=sf name=a -repeat",
            Ok("--engine cmd=sf name=a"),
        ),
        (
            "-each",
            "-engine cmd=a -engine cmd=b -each nodes=10 -repeat",
            Ok("--engine cmd=a nodes=10 --engine cmd=b nodes=10"),
        ),
        ("-games", "-games 4 -repeat", Ok("--games 4")),
        ("-rounds", "-rounds 50 -repeat", Ok("--rounds 50")),
        ("-repeat", "-repeat 2", Ok("")),
        (
            "-concurrency",
            "-concurrency 3 -repeat",
            Ok("--concurrency 3"),
        ),
        (
            "-openings",
            "-openings file=b.epd format=epd order=random plies=8 start=3 policy=round -repeat",
            Ok("--openings file=b.epd format=epd order=random plies=8 start=3"),
        ),
        ("-pgnout", "-pgnout out.pgn -repeat", Ok("--pgn out.pgn")),
        ("-srand", "-srand 42 -repeat", Ok("--seed 42")),
        ("-variant", "-variant fischerandom -repeat", Ok("")),
        (
            "-tournament",
            "-tournament roundrobin -repeat",
            Ok("--tournament round-robin"),
        ),
        (
            "-sprt",
            "-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=bayesian -repeat",
            Ok("--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=bayesian"),
        ),
        (
            "-resign",
            "-resign movecount=3 score=600 -repeat",
            Ok("--resign movecount=3 score=600"),
        ),
        (
            "-draw",
            "-draw movenumber=40 movecount=8 score=10 -repeat",
            Ok("--draw movenumber=40 movecount=8 score=10"),
        ),
        ("-maxmoves", "-maxmoves 150 -repeat", Ok("--maxmoves 150")),
        ("-recover", "-recover -repeat", Ok("--recover")),
        (
            "-ratinginterval",
            "-ratinginterval 5 -repeat",
            Ok("--rating-interval 5"),
        ),
        (
            "-noswap",
            "-noswap",
            Err("-noswap cannot be honoured: uci960 always swaps colours"),
        ),
        ("-reverse", "-reverse", Err("-reverse cannot be honoured")),
        ("-epdout", "-epdout x.epd", Err("uci960 book")),
        ("-debug", "-debug", Err("uci960 proxy --log")),
    ];

    /// One case per entry of [`KEYS`].
    const KEY_CASES: &[(KeyScope, &str, &str, Result<&str, &str>)] = &[
        (
            KeyScope::Engine,
            "cmd",
            "-engine cmd=/usr/games/sf -repeat",
            Ok("--engine cmd=/usr/games/sf"),
        ),
        (
            KeyScope::Engine,
            "name",
            "-engine cmd=a name=x -repeat",
            Ok("--engine cmd=a name=x"),
        ),
        (
            KeyScope::Engine,
            "dir",
            "-engine cmd=a dir=/tmp -repeat",
            Ok("--engine cmd=a dir=/tmp"),
        ),
        (
            KeyScope::Engine,
            "arg",
            "-engine cmd=a arg=-v -repeat",
            Ok("--engine cmd=a arg=-v"),
        ),
        (
            KeyScope::Engine,
            "args",
            "-engine cmd=a args=\"-v x\" -repeat",
            Ok("--engine cmd=a arg=-v arg=x"),
        ),
        (
            KeyScope::Engine,
            "option.",
            "-engine cmd=a option.Hash=16 -repeat",
            Ok("--engine cmd=a option.Hash=16"),
        ),
        (
            KeyScope::Engine,
            "proto",
            "-engine cmd=a proto=uci -repeat",
            Ok("--engine cmd=a"),
        ),
        (
            KeyScope::Engine,
            "tc",
            "-engine cmd=a tc=inf nodes=9 -engine cmd=b tc=40/60+0.6 -repeat",
            Ok("--engine cmd=a nodes=9 --engine cmd=b tc=40/60+0.6"),
        ),
        (
            KeyScope::Engine,
            "st",
            "-engine cmd=a st=0.5 -repeat",
            Ok("--engine cmd=a st=0.5"),
        ),
        (
            KeyScope::Engine,
            "nodes",
            "-engine cmd=a nodes=100 -repeat",
            Ok("--engine cmd=a nodes=100"),
        ),
        (
            KeyScope::Engine,
            "depth",
            "-engine cmd=a depth=3 -repeat",
            Ok("--engine cmd=a depth=3"),
        ),
        (
            KeyScope::Engine,
            "plies",
            "-engine cmd=a plies=3 -repeat",
            Ok("--engine cmd=a depth=3"),
        ),
        (
            KeyScope::Engine,
            "timemargin",
            "-each timemargin=50 -engine cmd=a -engine cmd=b -repeat",
            Ok("--margin 50 --engine cmd=a --engine cmd=b"),
        ),
        (
            KeyScope::Engine,
            "restart",
            "-engine cmd=a restart=on -engine cmd=b restart=off -repeat",
            Err("differs between engines"),
        ),
        (
            KeyScope::Engine,
            "ponder",
            "-engine cmd=a ponder -each ponder=true",
            Err("never ponder"),
        ),
        (
            KeyScope::Openings,
            "file",
            "-openings file=x.pgn -repeat",
            Ok("--openings file=x.pgn"),
        ),
        (
            KeyScope::Openings,
            "format",
            "-openings file=x format=pgn -repeat",
            Ok("--openings file=x format=pgn"),
        ),
        (
            KeyScope::Openings,
            "order",
            "-openings file=x order=sequential -repeat",
            Ok("--openings file=x order=sequential"),
        ),
        (
            KeyScope::Openings,
            "plies",
            "-openings file=x plies=4 -repeat",
            Ok("--openings file=x plies=4"),
        ),
        (
            KeyScope::Openings,
            "start",
            "-openings file=x start=10 -repeat",
            Ok("--openings file=x start=10"),
        ),
        (
            KeyScope::Openings,
            "policy",
            "-openings file=x policy=encounter -repeat",
            Err("policy=encounter cannot be honoured"),
        ),
        (
            KeyScope::Sprt,
            "elo0",
            "-sprt elo0=-1 -repeat",
            Ok("--sprt elo0=-1"),
        ),
        (
            KeyScope::Sprt,
            "elo1",
            "-sprt elo1=3 -repeat",
            Ok("--sprt elo1=3"),
        ),
        (
            KeyScope::Sprt,
            "alpha",
            "-sprt alpha=0.1 -repeat",
            Ok("--sprt alpha=0.1"),
        ),
        (
            KeyScope::Sprt,
            "beta",
            "-sprt beta=0.1 -repeat",
            Ok("--sprt beta=0.1"),
        ),
        (
            KeyScope::Sprt,
            "model",
            "-sprt model=logistic -repeat",
            Ok("--sprt model=logistic"),
        ),
        (
            KeyScope::Draw,
            "movenumber",
            "-draw movenumber=30 -repeat",
            Ok("--draw movenumber=30"),
        ),
        (
            KeyScope::Draw,
            "movecount",
            "-draw movecount=5 -repeat",
            Ok("--draw movecount=5"),
        ),
        (
            KeyScope::Draw,
            "score",
            "-draw score=8 -repeat",
            Ok("--draw score=8"),
        ),
        (
            KeyScope::Resign,
            "movecount",
            "-resign movecount=3 -repeat",
            Ok("--resign movecount=3"),
        ),
        (
            KeyScope::Resign,
            "score",
            "-resign score=900 -repeat",
            Ok("--resign score=900"),
        ),
        (
            KeyScope::Resign,
            "twosided",
            "-resign twosided=true",
            Err("twosided=true cannot be honoured"),
        ),
    ];

    #[test]
    fn every_flag_alias_as_documented() {
        for f in FLAGS {
            let cases: Vec<_> = FLAG_CASES.iter().filter(|c| c.0 == f.flag).collect();
            assert_eq!(cases.len(), 1, "one case for {}", f.flag);
        }
        for (flag, line, want) in FLAG_CASES {
            let got = tr(line);
            match want {
                Ok(w) => assert_eq!(got.as_deref(), Ok(*w), "{flag}: {line}"),
                Err(w) => {
                    let e = got.expect_err(line);
                    assert!(e.contains(w), "{flag}: {e}");
                }
            }
        }
    }

    #[test]
    fn every_key_alias_as_documented() {
        for k in KEYS {
            let n = KEY_CASES
                .iter()
                .filter(|c| c.0 == k.scope && c.1 == k.key)
                .count();
            assert_eq!(n, 1, "one case for {:?} {}", k.scope, k.key);
        }
        for (scope, key, line, want) in KEY_CASES {
            // `args="-v x"` is one shell word.
            let args: Vec<String> = if line.contains('"') {
                let (a, rest) = line.split_once("args=\"").unwrap();
                let (q, b) = rest.split_once('"').unwrap();
                toks(a)
                    .into_iter()
                    .chain([format!("args=\"{q}\"")])
                    .chain(toks(b))
                    .collect()
            } else {
                toks(line)
            };
            let got = translate(&args).map(|t| t.args.join(" ")).map_err(|e| e.0);
            match want {
                Ok(w) => assert_eq!(got.as_deref(), Ok(*w), "{scope:?} {key}: {line}"),
                Err(w) => {
                    let e = got.expect_err(line);
                    assert!(e.contains(w), "{scope:?} {key}: {e}");
                }
            }
        }
    }

    #[test]
    fn native_lines_pass_and_others_are_named() {
        let native = "--engine cmd=a --games 4 --draw movenumber=1 movecount=2 score=-3";
        assert_eq!(tr(native).as_deref(), Ok(native));
        let e = tr("-games 2 -wait 10").unwrap_err();
        assert!(e.contains("unknown flag -wait"), "{e}");
        // Without -repeat: a note, not an error.
        let t = translate(&toks("-games 2")).unwrap();
        assert_eq!(t.args, toks("--games 2"));
        assert!(t.notes[0].contains("-repeat"), "{:?}", t.notes);
        assert!(
            tr("-variant standard")
                .unwrap_err()
                .contains("Chess960 only")
        );
        assert!(tr("-repeat 4").unwrap_err().contains("exactly twice"));
        assert!(
            tr("-engine cmd=a proto=xboard")
                .unwrap_err()
                .contains("UCI engines only")
        );
        assert!(tr("-pgnout x.pgn min").unwrap_err().contains("in full"));
        assert_eq!(
            tr("-pgnout file=x.pgn notation=san -repeat").as_deref(),
            Ok("--pgn x.pgn")
        );
    }

    #[test]
    fn docs_match_lists_every_alias() {
        let doc = include_str!("../../docs/MATCH.md");
        let table = &doc[doc.find("### From cutechess-cli / from fastchess").unwrap()..];
        for f in FLAGS {
            assert!(
                table.contains(&format!("`{} ", f.flag))
                    || table.contains(&format!("`{}`", f.flag)),
                "{}",
                f.flag
            );
        }
        for k in KEYS {
            assert!(
                table.contains(&format!("{}=", k.key))
                    || table.contains(&format!("`{}", k.key))
                    || table.contains(k.key),
                "{}",
                k.key
            );
        }
    }
}
