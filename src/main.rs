//! The `uci960` binary: parse arguments, run one command, map errors to exit
//! codes (0 ok, 1 check failed, 2 usage or input error, 3 runtime failure,
//! 128+signal; see `uci960::cli::exit`).

use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    let code = run();
    // Notes still queued for stderr go out first; a stderr nobody reads
    // holds the exit back at most `diag::STALL`.
    uci960::platform::diag::flush();
    code
}

fn run() -> ExitCode {
    // Every child of this program is an engine: descendants an engine
    // leaves behind come back to it and are ended with the engine.
    uci960::platform::adopt_orphans();
    // A GUI that starts `uci960` with no arguments gets the proxy its
    // config file describes; on a terminal the usage is printed as ever.
    if std::env::args_os().len() == 1 && !std::io::stdin().is_terminal() {
        return uci960::cli::proxy::zero_argument_start();
    }
    let cli = match uci960::cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match uci960::cli::run(cli) {
        Ok(code) => code,
        Err(err) => uci960::cli::exit::report(&err),
    }
}
