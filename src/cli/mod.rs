//! The command line: one file per subcommand, each turning arguments into
//! library calls and output.

pub mod aliases;
pub mod analyze;
pub mod book;
pub mod castling_test;
pub mod engine;
pub mod engine_flags;
pub mod exit;
pub mod keyword;
pub mod match_cmd;
pub mod merge;
pub mod positions;
pub mod proxy;
pub mod serve;
pub mod show;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Chess960 with UCI engines: start positions, analysis, a UCI proxy, matches
/// and a castling conformance suite.
#[derive(Parser, Debug)]
#[command(name = "uci960", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Draw start positions by a method and print them.
    Positions(positions::PositionsArgs),
    /// Show one position: diagram, SP, both FENs and the verdict.
    Show(show::ShowArgs),
    /// A method's exact distribution over the 960, optionally with a Monte Carlo check.
    Analyze(analyze::AnalyzeArgs),
    /// Run the built-in Chess960 UCI engine on stdin/stdout.
    Engine(engine::EngineArgs),
    /// Castling conformance suite: does an engine castle right in Chess960?
    CastlingTest(castling_test::CastlingTestArgs),
    /// Wrap a UCI engine for a GUI: Chess960 positions, FEN flavour and
    /// castling notation fixed, every move checked.
    Proxy(proxy::ProxyArgs),
    /// Serve engines to remote `proxy --remote` clients over TLS, safely.
    Serve(serve::ServeArgs),
    /// Play an engine-vs-engine Chess960 match (PGN, Elo, SPRT).
    Match(Box<match_cmd::MatchArgs>),
    /// Write an opening book (EPD or PGN): starts, plies, engine filter, shards.
    Book(Box<book::BookArgs>),
    /// Merge the shards of `match --shard … --dir RUN/` into one result.
    Merge(merge::MergeArgs),
}

/// The command line, with `match`'s cutechess-cli / fastchess spellings
/// translated ([`aliases`]); a spelling that cannot be honoured is exit 2.
pub fn parse() -> Result<Cli, ExitCode> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let is_match = argv.get(1).is_some_and(|a| a == "match");
    let texts: Option<Vec<String>> = argv.iter().map(|a| a.to_str().map(String::from)).collect();
    let (true, Some(texts)) = (is_match, texts) else {
        return Ok(Cli::parse_from(argv));
    };
    match aliases::translate(&texts[2..]) {
        Ok(t) => {
            for n in &t.notes {
                crate::output::note(n);
            }
            Ok(Cli::parse_from(texts[..2].iter().cloned().chain(t.args)))
        }
        Err(e) => {
            crate::output::note(format_args!("match: {e}"));
            Err(ExitCode::from(2))
        }
    }
}

/// Runs the chosen command.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Positions(args) => positions::run(args),
        Command::Show(args) => show::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Engine(args) => engine::run(args),
        Command::CastlingTest(args) => castling_test::run(args),
        Command::Proxy(args) => proxy::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Match(args) => match_cmd::run(*args),
        Command::Book(args) => book::run(*args),
        Command::Merge(args) => merge::run(args),
    }
}

/// The seed the user gave, or a fresh one announced on stderr so the run
/// can be repeated.
pub fn seed_or_announce(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        );
        hasher.write_u32(std::process::id());
        let seed = hasher.finish();
        crate::output::note(format_args!("seed {seed}"));
        seed
    })
}
