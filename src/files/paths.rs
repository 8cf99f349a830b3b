//! What an output path names, and the check that a command's outputs are
//! different files, made before anything is opened: `--pgn X --state X`,
//! `--json` on the state file, or the same file through `./X`, a symbolic
//! or a hard link would have one output destroy another.

use std::path::{Path, PathBuf};

/// What a path names now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputKind {
    Missing,
    /// A regular file (through links).
    Regular,
    /// A directory, device, FIFO or socket: `a directory`, `a device`, …
    Special(&'static str),
}

impl OutputKind {
    /// Whether writes stream into it (a device or FIFO: `--pgn /dev/null`).
    pub fn is_stream(self) -> bool {
        matches!(self, OutputKind::Special(k) if k != "a directory")
    }
}

/// What `path` names (links followed).
pub fn output_kind(path: &Path) -> OutputKind {
    match std::fs::metadata(path) {
        Err(_) => OutputKind::Missing,
        Ok(m) if m.is_file() => OutputKind::Regular,
        Ok(m) if m.is_dir() => OutputKind::Special("a directory"),
        Ok(m) => OutputKind::Special(
            crate::platform::fs::special_kind(&m.file_type()).unwrap_or("not a regular file"),
        ),
    }
}

/// Two outputs that are one file.
#[derive(Debug, thiserror::Error)]
#[error("the {first} and the {second} are the same file ('{}' and '{}'); give each its own path", first_path.display(), second_path.display())]
pub struct Collision {
    pub first: &'static str,
    pub first_path: PathBuf,
    pub second: &'static str,
    pub second_path: PathBuf,
}

/// The path as the file system resolves it (the folder resolved when the
/// file does not exist yet).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(parent), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// Refuses outputs that name one file (module docs). Each output is its
/// role (`PGN file`, `state file`) and its path. Streams (`/dev/null`
/// twice) may be shared.
pub fn check_distinct(outputs: &[(&'static str, &Path)]) -> Result<(), Collision> {
    let seen: Vec<_> = outputs
        .iter()
        .map(|(what, path)| {
            let id = std::fs::metadata(path)
                .ok()
                .and_then(|m| crate::platform::fs::file_id(&m));
            (
                *what,
                *path,
                resolved(path),
                id,
                output_kind(path).is_stream(),
            )
        })
        .collect();
    for (i, a) in seen.iter().enumerate() {
        for b in &seen[i + 1..] {
            let same = a.2 == b.2 || (a.3.is_some() && a.3 == b.3);
            if same && !(a.4 && b.4) {
                return Err(Collision {
                    first: a.0,
                    first_path: a.1.to_path_buf(),
                    second: b.0,
                    second_path: b.1.to_path_buf(),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_file_under_two_names_is_refused() {
        let dir = crate::files::replace::tests::scratch("paths");
        let a = dir.join("a.pgn");
        let dotted = dir.join(".").join("a.pgn");
        assert!(check_distinct(&[("PGN file", &a), ("state file", &dotted)]).is_err());
        assert!(check_distinct(&[("PGN file", &a), ("state file", &dir.join("b"))]).is_ok());
        // Hard links are told apart by device and inode, which only POSIX
        // gives here (platform::fs::file_id is None on Windows).
        #[cfg(unix)]
        {
            std::fs::write(&a, "").unwrap();
            let hard = dir.join("hard.pgn");
            std::fs::hard_link(&a, &hard).unwrap();
            let err = check_distinct(&[("PGN file", &a), ("JSON file", &hard)]).unwrap_err();
            assert!(err.to_string().contains("JSON file"), "{err}");
        }
        #[cfg(unix)]
        {
            let null = Path::new("/dev/null");
            assert!(check_distinct(&[("PGN file", null), ("log", null)]).is_ok());
            assert_eq!(output_kind(null), OutputKind::Special("a device"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
