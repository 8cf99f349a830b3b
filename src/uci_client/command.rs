//! How to start an engine process: program, arguments, working directory.
//! (An engine as users describe it — name, options, limits — is
//! [`crate::engines::EngineSpec`], a floor up.)

use std::path::PathBuf;

/// The command line of an engine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineCommand {
    pub program: PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory; the caller's when `None`.
    #[serde(default)]
    pub dir: Option<PathBuf>,
}

impl EngineCommand {
    /// A program without arguments.
    pub fn new(program: impl Into<PathBuf>) -> EngineCommand {
        EngineCommand {
            program: program.into(),
            args: Vec::new(),
            dir: None,
        }
    }

    /// Adds arguments.
    pub fn with_args<I, S>(mut self, args: I) -> EngineCommand
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// The built-in engine: this very binary with the `engine` subcommand.
    pub fn builtin() -> EngineCommand {
        let program = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("uci960"));
        EngineCommand::new(program).with_args(["engine"])
    }

    /// The command as a user would type it (for messages).
    pub fn display(&self) -> String {
        let mut s = self.program.display().to_string();
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}
