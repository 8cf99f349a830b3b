//! Linux: an engine's whole process tree, including descendants that left
//! its process group or session (`setsid()`), which a signal to the group
//! misses (issue 21: such a descendant survived SIGTERM, SIGINT and SIGHUP
//! of the proxy).
//!
//! The `uci960` program makes itself a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`) at its start, so a descendant whose parent
//! died is re-parented to uci960 instead of PID 1 and can still be found.
//! Ending an engine then signals, besides its group: every descendant of
//! the engine found through `/proc` (by parent PID), and every child of
//! uci960 that is not an engine but comes from this engine's tree (an
//! orphan of it), which is also reaped.
//!
//! Decided: whose an orphan is, is read from its environment. Every engine
//! is started with [`MARK_VAR`] holding its mark (`UCI960PID.N`, appended
//! to the marks of any uci960 around this one), which its descendants
//! inherit; the sweep reads `/proc/PID/environ` of each orphan and ends
//! only those of the engine that ends, so a live engine's helper survives
//! the end of another engine (a match has two at once). Chosen over
//! process groups or sessions, which the very processes in question leave.
//! An orphan without a mark of ours (its environment cleared, or not
//! readable) cannot be told apart: it is ended with the last engine, and
//! at the signal watchdog's exit.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set once this process is a subreaper: only then are children that are
/// not engines orphans of an engine's tree (a library user, such as the
/// test binary, has children of its own).
static SUBREAPER: AtomicBool = AtomicBool::new(false);

/// Makes uci960 the subreaper of its descendants (the `uci960` program
/// only, at its start: every child it has is an engine).
pub fn become_subreaper() {
    // SAFETY: prctl with integer arguments only.
    let ok = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0;
    SUBREAPER.store(ok, Ordering::SeqCst);
}

/// (pid, parent pid) of every process `/proc` shows.
fn table() -> Vec<(i32, i32)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let pid: i32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid …`: comm may hold spaces and parentheses.
        let after = &stat[stat.rfind(')')? + 1..];
        let ppid = after.split_whitespace().nth(1)?.parse().ok()?;
        Some((pid, ppid))
    })
    .collect()
}

/// Every descendant of `root` (not `root` itself), parents first.
fn descendants(table: &[(i32, i32)], root: i32) -> Vec<i32> {
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            table
                .iter()
                .filter(|&&(_, pp)| pp == parent)
                .map(|&(p, _)| p),
        );
        i += 1;
    }
    found.remove(0);
    found
}

/// The environment variable that carries the marks of an engine's tree.
pub const MARK_VAR: &str = "UCI960_ENGINE_TREE";

/// The value of [`MARK_VAR`] for an engine with mark `tag`: the marks this
/// process inherited (a uci960 run as another's engine), then its own.
pub fn mark_for(tag: &str) -> String {
    match std::env::var(MARK_VAR) {
        Ok(outer) if !outer.trim().is_empty() => format!("{} {tag}", outer.trim()),
        _ => tag.to_string(),
    }
}

/// Which orphans (children of ours that are not engines) a kill ends.
#[derive(Clone, Copy, Debug)]
pub enum Sweep<'a> {
    /// None (a polite SIGTERM to the tree).
    None,
    /// Those marked with `tag`, and when `unmarked` those without a mark
    /// of this process (no other engine runs).
    Of {
        tag: Option<&'a str>,
        unmarked: bool,
    },
    /// All of them (the process is about to exit).
    All,
}

/// Whose orphan: the marks in a `/proc/PID/environ` text.
#[derive(Debug, PartialEq, Eq)]
enum Owner {
    /// Marked by the engine with this tag (of this process).
    Engine(String),
    /// No mark of this process.
    Unmarked,
}

/// Reads the owner from an environment block (`KEY=VALUE\0…`): the last
/// mark made by process `me` (an inner uci960's marks come after ours).
fn owner(environ: &[u8], me: u32) -> Owner {
    let prefix = format!("{MARK_VAR}=");
    let ours = format!("{me}.");
    environ
        .split(|&b| b == 0)
        .filter_map(|entry| entry.strip_prefix(prefix.as_bytes()))
        .filter_map(|value| std::str::from_utf8(value).ok())
        .flat_map(str::split_whitespace)
        .rfind(|mark| mark.starts_with(&ours))
        .map_or(Owner::Unmarked, |m| Owner::Engine(m.to_string()))
}

/// Whether `sweep` ends the orphan `pid`.
fn ends(sweep: Sweep, pid: i32) -> bool {
    match sweep {
        Sweep::None => false,
        Sweep::All => true,
        Sweep::Of { tag, unmarked } => {
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            match owner(&environ, std::process::id()) {
                Owner::Engine(mark) => Some(mark.as_str()) == tag,
                Owner::Unmarked => unmarked,
            }
        }
    }
}

/// Sends `sig` to every descendant of the engine `root` and kills
/// (SIGKILL) and reaps every child of ours that is not one of `engines`
/// and that `sweep` ends, with its descendants.
pub fn signal_tree(root: i32, sig: i32, sweep: Sweep, engines: &[i32]) {
    let table = table();
    for pid in descendants(&table, root) {
        // SAFETY: kill(2); a descendant found a moment ago (a PID reused in
        // between is the race every process-tree killer has).
        unsafe {
            libc::kill(pid, sig);
        }
    }
    if matches!(sweep, Sweep::None) || !SUBREAPER.load(Ordering::SeqCst) {
        return;
    }
    let me = std::process::id() as i32;
    for &(pid, ppid) in &table {
        if ppid != me || pid == root || engines.contains(&pid) || !ends(sweep, pid) {
            continue;
        }
        for d in descendants(&table, pid) {
            // SAFETY: as above.
            unsafe {
                libc::kill(d, libc::SIGKILL);
            }
        }
        // SAFETY: `pid` is our child (re-parented to us): killing and
        // reaping it touches no process of anyone else.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descendants_are_found_through_parent_pids() {
        let t = [(1, 0), (10, 1), (11, 10), (12, 11), (13, 10), (20, 1)];
        assert_eq!(descendants(&t, 10), vec![11, 13, 12]);
        assert!(descendants(&t, 20).is_empty());
    }

    #[test]
    fn an_orphan_s_engine_is_read_from_its_environment() {
        let env = |v: &str| format!("PATH=/bin\0{MARK_VAR}={v}\0HOME=/x\0").into_bytes();
        assert_eq!(owner(&env("70.2"), 70), Owner::Engine("70.2".into()));
        // An outer uci960's mark first, ours after; an inner one's after ours.
        assert_eq!(owner(&env("9.1 70.3"), 70), Owner::Engine("70.3".into()));
        assert_eq!(owner(&env("70.3 81.1"), 70), Owner::Engine("70.3".into()));
        assert_eq!(owner(&env("9.1"), 70), Owner::Unmarked);
        // `7.1` is not a mark of process 70.
        assert_eq!(owner(&env("7.1"), 70), Owner::Unmarked);
        assert_eq!(owner(b"PATH=/bin\0", 70), Owner::Unmarked);
        assert_eq!(owner(b"", 70), Owner::Unmarked);
    }
}
