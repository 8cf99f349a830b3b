//! The `uci960` binary: parse arguments, run one command, map errors to exit
//! codes (0 ok, 1 check failed, 2 usage or input error, 3 runtime failure,
//! 128+signal; see `uci960::cli::exit`).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = uci960::cli::Cli::parse();
    match uci960::cli::run(cli) {
        Ok(code) => code,
        Err(err) => uci960::cli::exit::report(&err),
    }
}
