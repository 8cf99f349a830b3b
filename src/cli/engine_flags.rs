//! The `--engine` flag's tokens, one group per `--engine` on the command
//! line: clap gives every value of a repeatable multi-value flag in one flat
//! list (stable clap has no `Vec<Vec<_>>`), so the groups are read back
//! from the raw command line. Here, in the CLI, because only the CLI knows
//! argv; each group is then parsed by [`crate::engines::EngineKeys`].

/// Splits the `--engine` values into one group per `--engine` (clap gives
/// them flat; stable clap has no `Vec<Vec<_>>`). The groups come from the
/// raw command line; when that does not match (a caller other than the command line, or a line the aliases rewrote), a new
/// engine starts at each `cmd=` or `program=`.
pub fn group_engine_tokens(flat: &[String], argv: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut in_engine = false;
    for a in argv.iter().skip(1) {
        if a == "--engine" {
            groups.push(Vec::new());
            in_engine = true;
        } else if let Some(v) = a.strip_prefix("--engine=") {
            groups.push(vec![v.to_string()]);
            in_engine = true;
        } else if a.starts_with('-') {
            in_engine = false;
        } else if in_engine && let Some(g) = groups.last_mut() {
            g.push(a.clone());
        }
    }
    if groups.concat() == flat {
        return groups;
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    for t in flat {
        match groups.last_mut() {
            Some(g) if !t.starts_with("cmd=") && !t.starts_with("program=") => g.push(t.clone()),
            _ => groups.push(vec![t.clone()]),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engine_groups_follow_the_command_line() {
        let argv = toks("uci960 match --engine name=a nodes=5 --games 4 --engine=cmd=b arg=x");
        let flat = toks("name=a nodes=5 cmd=b arg=x");
        assert_eq!(
            group_engine_tokens(&flat, &argv),
            vec![toks("name=a nodes=5"), toks("cmd=b arg=x")]
        );
        assert_eq!(
            group_engine_tokens(&toks("cmd=a nodes=1 program=b"), &[]),
            vec![toks("cmd=a nodes=1"), toks("program=b")]
        );
    }
}
