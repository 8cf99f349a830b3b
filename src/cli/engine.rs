//! `uci960 engine`: the built-in UCI engine on stdin and stdout (see
//! docs/ENGINE.md).

use std::process::ExitCode;

use clap::Args;

#[derive(Args, Debug)]
pub struct EngineArgs {}

pub fn run(_args: EngineArgs) -> anyhow::Result<ExitCode> {
    match crate::builtin_engine::driver::run_stdio() {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The GUI went away: nothing left to tell it.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(anyhow::Error::new(e).context("engine: writing to stdout")),
    }
}
