//! Where `uci960` started with no arguments finds its proxy configuration.
//!
//! Many GUIs start an engine as a bare program path: the Cute Chess GUI's
//! engine dialog has a command and a working directory and no arguments,
//! its `engines.json` has no arguments key, and its engine builder starts
//! the command with an empty argument list, unsplit. So `uci960` started
//! with no arguments by a GUI (stdin not a terminal) becomes the proxy
//! configured by the first of these that exists:
//! 1. the file named by the environment variable `UCI960_PROXY_CONFIG`
//!    (when set, nothing else is tried);
//! 2. a TOML named after the program as it was started, beside it: a copy
//!    of or a link to `uci960` named `sf960` reads `sf960.toml` in the
//!    same directory (the name as started, so a symbolic link works; a
//!    name without a directory is looked up on `PATH`, as the GUI did);
//! 3. the same beside the real binary (`/usr/local/bin/uci960.toml`), when
//!    that is another file;
//! 4. `uci960.toml` in the working directory.
//!
//! With none found the proxy has no engine to run, and says so through
//! [`super::failed_start`] (exit 2): running the built-in engine instead
//! would let a user who thought a config was read play a tournament with
//! the wrong engine without noticing. A config without an `[engine]`
//! section runs the built-in engine for those who want it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable that names the config.
pub const ENV_VAR: &str = "UCI960_PROXY_CONFIG";

/// What the lookup sees of the process.
#[derive(Clone, Debug, Default)]
pub struct Lookup {
    /// `UCI960_PROXY_CONFIG`, if set and not empty.
    pub env: Option<PathBuf>,
    /// `argv[0]`.
    pub argv0: OsString,
    /// `PATH`.
    pub path_var: Option<OsString>,
    /// The real binary (`/proc/self/exe`), if known.
    pub current_exe: Option<PathBuf>,
    /// The working directory.
    pub cwd: PathBuf,
}

impl Lookup {
    /// This process's view.
    pub fn from_process() -> Lookup {
        Lookup {
            env: std::env::var_os(ENV_VAR)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            argv0: std::env::args_os().next().unwrap_or_default(),
            path_var: std::env::var_os("PATH"),
            current_exe: std::env::current_exe().ok(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }

    /// The places to look, in order (no duplicates).
    pub fn candidates(&self, is_file: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
        if let Some(env) = &self.env {
            return vec![env.clone()];
        }
        let mut out: Vec<PathBuf> = Vec::new();
        let mut push = |p: PathBuf| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        let argv0 = Path::new(&self.argv0);
        let started = if self.argv0.is_empty() {
            None
        } else if argv0.components().count() > 1 {
            Some(self.cwd.join(argv0))
        } else {
            self.path_var.as_ref().and_then(|p| {
                std::env::split_paths(p)
                    .map(|dir| self.cwd.join(dir).join(argv0))
                    .find(|c| is_file(c))
            })
        };
        for program in started.iter().chain(self.current_exe.iter()) {
            if let Some(toml) = beside(program) {
                push(toml);
            }
        }
        push(self.cwd.join("uci960.toml"));
        out
    }

    /// The first candidate that exists, or an error naming them all.
    pub fn find(&self, is_file: impl Fn(&Path) -> bool) -> Result<PathBuf, NotFound> {
        let candidates = self.candidates(&is_file);
        match candidates.iter().find(|c| is_file(c)) {
            Some(found) => Ok(found.clone()),
            None => Err(NotFound {
                env: self.env.is_some(),
                looked: candidates,
            }),
        }
    }
}

/// `dir/name.toml` for a program `dir/name` (or `dir/name.exe`).
fn beside(program: &Path) -> Option<PathBuf> {
    let stem = program.file_stem()?;
    let mut name = stem.to_os_string();
    name.push(".toml");
    Some(program.with_file_name(name))
}

/// No configuration was found.
#[derive(Debug)]
pub struct NotFound {
    /// The places looked at, in order.
    pub looked: Vec<PathBuf>,
    env: bool,
}

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.env {
            let path = self.looked.first().map(|p| p.display().to_string());
            return write!(
                f,
                "{ENV_VAR} names '{}', which is not a file",
                path.unwrap_or_default()
            );
        }
        let looked: Vec<String> = self
            .looked
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        write!(
            f,
            "no proxy config (started without arguments; looked for {}; \
             or set {ENV_VAR}, or give arguments: uci960 proxy -- ENGINE)",
            looked.join(", ")
        )
    }
}

impl std::error::Error for NotFound {}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(argv0: &str) -> Lookup {
        Lookup {
            env: None,
            argv0: argv0.into(),
            path_var: std::env::join_paths(["/usr/bin", "/opt/chess"]).ok(),
            current_exe: Some("/opt/uci960/uci960".into()),
            cwd: "/home/u/games".into(),
        }
    }

    fn paths(v: &[&str]) -> Vec<PathBuf> {
        v.iter().map(PathBuf::from).collect()
    }

    /// How a message shows a path built by joining its file name to its
    /// directory (`\` before the name on Windows).
    fn shown(path: &str) -> String {
        let path = Path::new(path);
        match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) => dir.join(name).display().to_string(),
            _ => path.display().to_string(),
        }
    }

    #[test]
    fn order_env_then_started_name_then_binary_then_working_dir() {
        let l = lookup("/opt/chess/sf960");
        assert_eq!(
            l.candidates(|_| false),
            paths(&[
                "/opt/chess/sf960.toml",
                "/opt/uci960/uci960.toml",
                "/home/u/games/uci960.toml"
            ])
        );
        let with_env = Lookup {
            env: Some("/etc/p.toml".into()),
            ..l
        };
        assert_eq!(with_env.candidates(|_| true), paths(&["/etc/p.toml"]));
    }

    #[test]
    fn a_bare_name_is_found_on_path_and_a_relative_one_in_the_working_dir() {
        let l = lookup("sf960");
        let on_path = |p: &Path| p == Path::new("/opt/chess/sf960");
        assert_eq!(
            l.candidates(on_path)[0],
            PathBuf::from("/opt/chess/sf960.toml")
        );
        let l = lookup("./bin/sf960.exe");
        assert_eq!(
            l.candidates(|_| false)[0],
            PathBuf::from("/home/u/games/./bin/sf960.toml")
        );
        // The real binary under its own name is not listed twice.
        let l = lookup("/opt/uci960/uci960");
        assert_eq!(l.candidates(|_| false).len(), 2);
    }

    #[test]
    fn find_takes_the_first_that_exists_and_names_all_when_none_does() {
        let l = lookup("/opt/chess/sf960");
        let found = l.find(|p| p.ends_with("uci960.toml"));
        assert_eq!(found.unwrap(), PathBuf::from("/opt/uci960/uci960.toml"));
        let err = l.find(|_| false).unwrap_err().to_string();
        assert!(err.contains(&shown("/opt/chess/sf960.toml")), "{err}");
        assert!(err.contains(&shown("/home/u/games/uci960.toml")), "{err}");
        assert!(err.contains(ENV_VAR), "{err}");
        let l = Lookup {
            env: Some("/nope.toml".into()),
            ..lookup("x")
        };
        let err = l.find(|_| false).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("{ENV_VAR} names '/nope.toml', which is not a file")
        );
    }
}
