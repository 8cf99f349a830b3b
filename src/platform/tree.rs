//! Linux: an engine's whole process tree, including descendants that left
//! its process group or session (`setsid()`), which a signal to the group
//! misses (issue 21: such a descendant survived SIGTERM, SIGINT and SIGHUP
//! of the proxy).
//!
//! The `uci960` program makes itself a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`) at its start, so a descendant whose parent died is
//! re-parented to uci960 instead of PID 1 and can still be found. Ending
//! an engine then signals, besides its group: every descendant of the
//! engine found through `/proc` (by parent PID), and every child of
//! uci960 that is not an engine (an orphan of an engine's tree), which is
//! also reaped. Decided: an orphan is ended when any engine ends, not only
//! its own: once its parent is gone nothing tells whose it was, and an
//! engine's helper whose parent exited is rare next to the daemon a
//! wrapper leaves behind.

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

/// Sends `sig` to every descendant of the engine `root` and, when
/// `orphans`, kills (SIGKILL) and reaps every child of ours that is not one
/// of `engines`, with its descendants.
pub fn signal_tree(root: i32, sig: i32, orphans: bool, engines: &[i32]) {
    let table = table();
    for pid in descendants(&table, root) {
        // SAFETY: kill(2); a descendant found a moment ago (a PID reused in
        // between is the race every process-tree killer has).
        unsafe {
            libc::kill(pid, sig);
        }
    }
    if !orphans || !SUBREAPER.load(Ordering::SeqCst) {
        return;
    }
    let me = std::process::id() as i32;
    for &(pid, ppid) in &table {
        if ppid != me || pid == root || engines.contains(&pid) {
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
}
