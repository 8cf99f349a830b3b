//! `uci960 book`: write an opening book (EPD or PGN). Flags to a
//! [`BookPlan`], the writer, the progress bar (only when stderr is a
//! terminal) and the final report; the pipeline is [`crate::book`]. See
//! docs/BOOKS.md.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::engine_flags::group_engine_tokens;
use super::keyword::keyword;
use crate::book::engine::BookEngineError;
use crate::book::filter::{EvalView, EvalWindow, Tally, Windows};
use crate::book::package::{self, Framework};
use crate::book::plies::PlyRange;
use crate::book::shard::Shard;
use crate::book::stored::StoredLines;
use crate::book::wdl::RateWindow;
use crate::book::write::BookWriter;
use crate::book::{BookError, BookLine, BookPlan, MoveChoice, Stop, generate};
use crate::engines::{EngineKeys, EngineSpec};
use crate::keyword::Keyword;
use crate::notation::fen::FenFlavour;
use crate::openings::BookFormat;
use crate::openings::StartSpec;
use crate::openings::engine_plies::EnginePlyError;
use crate::output::note;
use crate::output::{Destination, Sink};
use crate::platform::interrupt;

/// Node limit when neither `--depth` nor `--nodes` is given.
pub const DEFAULT_NODES: u64 = 20_000;

#[derive(Args, Debug)]
pub struct BookArgs {
    /// Starts: any method of `positions` (die, bag-redraw, bag-swap, random,
    /// dfrc, sp:N.., book:PATH, book-shuffle:PATH), or `all` (the 960) or
    /// `dfrc-all` (the 921,600 pairs).
    #[arg(long, default_value = "random")]
    pub start: String,
    /// Shuffle `all`/`dfrc-all` by the seed instead of SP order.
    #[arg(long)]
    pub shuffle: bool,
    /// Positions in the whole book (default: the size of `all`/`dfrc-all`,
    /// or of a `book:` start passed through without plies; required with
    /// another method).
    #[arg(long, short = 'n')]
    pub count: Option<u64>,
    /// Seed (announced on stderr when not given).
    #[arg(long, short)]
    pub seed: Option<u64>,
    /// Plies played from each start: N, or N-M drawn uniformly per line.
    #[arg(long, default_value = "0")]
    pub plies: String,
    /// How the plies are chosen.
    #[arg(long, value_enum, default_value_t = Moves::Random)]
    pub moves: Moves,
    /// The engine for `--moves engine`, `--eval-window` and the `ce`
    /// opcode: cmd=PATH [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
    /// (the built-in engine when not given).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Search depth per engine move and evaluation.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes per engine move and evaluation (20000 when neither limit is given).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// `--moves engine`: pick among moves at most this many centipawns
    /// below the best.
    #[arg(long, default_value_t = 30)]
    pub margin: i64,
    /// `--moves engine`: lines searched per move (MultiPV).
    #[arg(long, default_value_t = 5)]
    pub multipv: u32,
    /// Keep positions whose evaluation lies in A..B centipawns (inclusive).
    /// Without --engine, a `book:` start without plies is judged by the
    /// `ce`/`wdl` opcodes its lines carry (re-filtering, no engine).
    #[arg(long, allow_hyphen_values = true, value_name = "A..B")]
    pub eval_window: Option<String>,
    /// Keep positions whose draw rate lies in A..B (fractions or percent:
    /// 0.48..0.52, 48%..52%): the engine's UCI_ShowWDL, else Stockfish
    /// 17.1's model of its score.
    #[arg(long, value_name = "A..B")]
    pub draw_window: Option<String>,
    /// Keep positions whose win rate (White's, or the side to move's with
    /// --eval-view stm) lies in A..B (0.40..0.60).
    #[arg(long, value_name = "A..B")]
    pub win_window: Option<String>,
    /// Whose view the window takes: white (default) or stm (side to move).
    #[arg(long, value_parser = keyword::<EvalView>(), default_value = EvalView::White.word())]
    pub eval_view: EvalView,
    /// Drop positions where the side to move is in check.
    #[arg(long)]
    pub no_check: bool,
    /// Engine processes working at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write only slice i of n (1-based): `--shard 2/4`.
    #[arg(long, value_name = "i/n")]
    pub shard: Option<String>,
    /// Output format: epd (one position a line, with opcodes) or pgn (one
    /// game a position).
    #[arg(long, value_name = "epd|pgn", default_value = "epd")]
    pub format: BookFormat,
    /// FEN flavour of EPD lines: shredder (rook files, default) or xfen
    /// (KQkq). PGN `[FEN]` tags are always X-FEN. (`--castling` is the old
    /// name.)
    #[arg(long, alias = "castling", value_name = "shredder|xfen")]
    pub fen: Option<FenFlavour>,
    /// Write to this file instead of stdout (with --package: the directory).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Package the book for a test framework: `--package fishtest NAME` or
    /// `--package openbench NAME` writes NAME.epd, NAME.epd.zip and
    /// books.json (fishtest) or NAME.epd.json (OpenBench) into --output DIR.
    #[arg(long, num_args = 2, value_names = ["FRAMEWORK", "NAME"])]
    pub package: Option<Vec<String>>,
    /// OpenBench's `source`: the URL the zip will be served from (default:
    /// the zip's file name).
    #[arg(long, value_name = "URL", requires = "package")]
    pub package_source: Option<String>,
    /// Print the statistics of an EPD or PGN book (what fishtest and
    /// OpenBench check) and write nothing; with --engine, the draw and win
    /// rates are the engine's evaluation of every position.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,
    /// Seconds an engine may take for one search or `isready` before the
    /// run fails (a hang guard).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = crate::seconds::parse_positive)]
    pub timeout: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Moves {
    /// Uniformly among the legal moves.
    Random,
    /// Among the engine's MultiPV moves within --margin of its best.
    Engine,
}

/// The flags checked and turned into a plan.
fn plan_of(args: &BookArgs) -> anyhow::Result<BookPlan> {
    let start: StartSpec = args.start.parse()?;
    let plies: PlyRange = args
        .plies
        .parse()
        .map_err(|e: String| anyhow!("--plies: {e}"))?;
    // A book passed through keeps its lines' moves and evaluations; with
    // no engine asked for, a window judges the evaluations it carries.
    let stored = StoredLines::for_plan(&start, plies.max)?;
    let count = match (args.count, start.set_size(), &stored) {
        (Some(n), _, _) => n,
        (None, Some(n), _) => n,
        (None, None, Some(book)) => book.positions() as u64,
        (None, None, None) => {
            bail!("--count N is needed with --start {start} (it draws without end)")
        }
    };
    let rate = |text: &Option<String>, flag: &str| {
        text.as_deref()
            .map(str::parse::<RateWindow>)
            .transpose()
            .map_err(|e| anyhow!("--{flag}: {e}"))
    };
    let window = Windows {
        eval: args
            .eval_window
            .as_deref()
            .map(str::parse::<EvalWindow>)
            .transpose()
            .map_err(|e| anyhow!("--eval-window {e}"))?,
        draw: rate(&args.draw_window, "draw-window")?,
        win: rate(&args.win_window, "win-window")?,
    };
    let shard = match &args.shard {
        Some(s) => s.parse::<Shard>().map_err(|e| anyhow!("--shard {e}"))?,
        None => Shard::WHOLE,
    };
    if args.format == BookFormat::Pgn && args.fen.is_some() {
        bail!("--fen sets the EPD castling field; PGN [FEN] tags are always X-FEN");
    }
    if args.format == BookFormat::Pgn && args.package.is_some() {
        // fishtest's books.json counts (side to move, min/max ply) are
        // defined on EPD lines, and every Chess960 book of both frameworks
        // is EPD; a PGN book is packaged by passing its positions through.
        bail!(
            "--package writes an EPD book (fishtest counts a book's side to move and plies from EPD lines, and all Chess960 books of fishtest and OpenBench are EPD); drop --format pgn, or package a PGN book's positions with --start book:FILE.pgn"
        );
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    if !(1..=crate::openings::multipv::MAX_MULTIPV).contains(&args.multipv) {
        bail!(
            "--multipv must be 1..{}",
            crate::openings::multipv::MAX_MULTIPV
        );
    }
    if args.margin < 0 {
        bail!("--margin must not be negative");
    }
    let moves = match args.moves {
        Moves::Random => MoveChoice::Random,
        Moves::Engine => MoveChoice::Engine {
            multipv: args.multipv,
            margin: args.margin,
        },
    };
    let by_stored = args.moves == Moves::Random
        && args.engine.is_empty()
        && window.any()
        && stored.as_ref().is_some_and(|s| s.evaluated() > 0);
    if let Some(stored) = stored.as_ref().filter(|_| by_stored) {
        stored.check_all_evaluated()?;
    }
    let wants_engine =
        args.moves == Moves::Engine || (window.any() && !by_stored) || !args.engine.is_empty();
    let engine = if wants_engine {
        Some(engine_setup(args)?)
    } else {
        None
    };
    let seed = super::seed_or_announce(args.seed);
    Ok(BookPlan {
        start,
        shuffle: args.shuffle,
        seed,
        plies,
        moves,
        engine,
        engine_timeout: args.timeout,
        concurrency: args.concurrency,
        window,
        view: args.eval_view,
        no_check: args.no_check,
        count,
        shard,
        stored: stored.map(Arc::new),
    })
}

/// The engine of `--engine` (the parser `match` uses) with the limits.
fn engine_setup(args: &BookArgs) -> anyhow::Result<EngineSpec> {
    let argv: Vec<String> = std::env::args().collect();
    let groups = group_engine_tokens(&args.engine, &argv);
    if groups.len() > 1 {
        bail!(
            "a book uses one engine (--engine given {} times)",
            groups.len()
        );
    }
    let config = EngineKeys::parse_flag(groups.first().map(Vec::as_slice).unwrap_or(&[]))
        .map_err(|e| anyhow!("--engine: {e}"))?;
    if config.tc.is_some() || config.st.is_some() {
        bail!(
            "--engine tc=/st=: a book's searches are limited by --depth or --nodes (reproducible), not by time"
        );
    }
    let depth = args.depth.or(config.depth);
    let mut nodes = args.nodes.or(config.nodes);
    if depth.is_none() && nodes.is_none() {
        nodes = Some(DEFAULT_NODES);
    }
    let mut spec = config
        .spec(crate::game::Limits::default())
        .map_err(|e| anyhow!("--engine: {e}"))?;
    spec.limits.depth = depth;
    spec.limits.nodes = nodes;
    Ok(spec)
}

/// The progress bar: kept positions against the book size, with rate and
/// ETA; hidden unless stderr is a terminal.
fn progress_bar(total: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {human_pos}/{human_len} kept  {per_sec}  ETA {eta}  {msg}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// `--package FRAMEWORK NAME` checked: the framework and the book's file
/// name.
fn package_of(args: &BookArgs) -> anyhow::Result<Option<(Framework, String, PathBuf)>> {
    let Some(words) = &args.package else {
        return Ok(None);
    };
    let [framework, name] = words.as_slice() else {
        bail!("--package takes two values: fishtest|openbench NAME");
    };
    let framework = Framework::parse(&framework.to_ascii_lowercase())
        .map_err(|_| anyhow!("--package '{framework}': the framework is fishtest or openbench"))?;
    let file = package::book_file_name(framework, name).map_err(|e| anyhow!("--package: {e}"))?;
    let Some(dir) = args.output.clone() else {
        bail!("--package needs --output DIR, the directory the package is written into");
    };
    if args.shard.is_some() {
        bail!("--package packages a whole book; --shard slices one");
    }
    Ok(Some((framework, file, dir)))
}

/// `--stats FILE`, with `--engine` the rates measured by the engine.
fn stats(args: &BookArgs, path: &std::path::Path) -> anyhow::Result<ExitCode> {
    use crate::book::stats::{StatsError, book_stats_with, pgn_book_stats};
    let text = crate::files::read_text(path, "book", crate::files::BOOK_LIMIT)?;
    // A PGN book (what `--format pgn` writes) counts the positions its
    // games reach; the reader names the game that does not read.
    let games = if crate::openings::pgn::looks_like_pgn(path, text.as_bytes()) {
        Some(crate::openings::book::read_pgn_openings(
            text.as_bytes(),
            path,
            None,
        )?)
    } else {
        None
    };
    let mut engine = if args.engine.is_empty() {
        None
    } else {
        let spec = engine_setup(args)?;
        match crate::book::engine::BookEngine::start(&spec, args.timeout) {
            Ok(engine) => Some(engine),
            Err(e) => {
                note(e);
                return Ok(ExitCode::from(super::exit::RUNTIME));
            }
        }
    };
    let result = match &games {
        Some(games) => pgn_book_stats(games, engine.as_mut()),
        None => book_stats_with(&text, engine.as_mut()),
    };
    if let Some(engine) = engine {
        engine.quit();
    }
    match result {
        Ok(stats) => {
            print!("{stats}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ StatsError::Line { .. }) => Err(anyhow!("{}:{e}", path.display())),
        Err(StatsError::Engine { line, source }) if games.is_some() => {
            note(format_args!("{}: game {line}: {source}", path.display()));
            Ok(ExitCode::from(3))
        }
        Err(e @ StatsError::Engine { .. }) => {
            note(format_args!("{}:{e}", path.display()));
            Ok(ExitCode::from(super::exit::RUNTIME))
        }
    }
}

pub fn run(args: BookArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.stats {
        return stats(&args, path);
    }
    let package = package_of(&args)?;
    let plan = plan_of(&args)?;
    let flavour = args.fen.unwrap_or(FenFlavour::Shredder);

    // The platform's handlers: the flag stops the generator, a second signal
    // (or a run that does not end in time) ends the process, as in every command.
    let interrupted = Arc::new(AtomicBool::new(false));
    interrupt::install(Some(Arc::clone(&interrupted))).context("installing the signal handler")?;

    // A file output is staged and renamed over the old one only when the
    // book is done (issue 21): filtering a book in place reads it whole
    // first, and an engine that does not start leaves the old file intact.
    let out = match &args.output {
        Some(_) if package.is_some() => Sink::Discard,
        Some(path) => Destination::file("book output", path).open()?,
        None => Destination::Stdout.open()?,
    };
    // Engine books are slow: each line is written at once, so readers see
    // it; random books go out in large writes.
    let mut output = BookWriter::new(
        out,
        args.format,
        flavour,
        plan.engine.is_some(),
        package.is_some(),
    );
    let mut sink = |rank: u64, line: &BookLine| output.push(rank, line);

    let bar = progress_bar(plan.count);
    let mut progress = |tally: &Tally| {
        bar.set_position(tally.kept);
        bar.set_message(format!("{} dropped", tally.dropped()));
    };
    let result = generate(&plan, &interrupted, &mut sink, &mut progress);
    bar.finish_and_clear();
    let flushed = output.flush();

    let outcome = match result {
        Ok(outcome) => outcome,
        Err(BookError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            return Ok(ExitCode::SUCCESS);
        }
        Err(e @ BookError::Start(_)) => return Err(anyhow!(e)),
        // The engine-chosen plies are `--moves engine` here.
        Err(BookError::Engine(BookEngineError::Ply(EnginePlyError::NoMultiPv(name)))) => {
            note(format_args!(
                "engine '{name}' does not declare the MultiPV option, which --moves engine needs"
            ));
            return Ok(ExitCode::from(super::exit::RUNTIME));
        }
        Err(e) => {
            note(e);
            return Ok(ExitCode::from(super::exit::RUNTIME));
        }
    };
    match flushed {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => {
            note(format_args!("writing the book: {e}"));
            return Ok(ExitCode::from(super::exit::RUNTIME));
        }
        Ok(()) => {}
    }
    // The book is whole (or cut by a signal, as a streamed book would be):
    // it takes the old file's place.
    if let Err(e) = output.commit() {
        note(e);
        return Ok(ExitCode::from(super::exit::RUNTIME));
    }

    crate::diag_line!("uci960 book: {}", outcome.tally);
    if let Some((framework, file, dir)) = &package
        && outcome.stop != Stop::Interrupted
    {
        let written = package::write_package(
            *framework,
            file,
            output.text(),
            dir,
            args.package_source.as_deref(),
        );
        match written {
            Ok(p) => crate::diag_line!(
                "uci960 book: {framework} package: {}, {}, {} ({} positions, white {}, black {}, ply {}..{})",
                p.book.display(),
                p.zip.display(),
                p.description.display(),
                p.facts.total,
                p.facts.white,
                p.facts.black,
                p.facts.min_ply.map_or("-".into(), |n| n.to_string()),
                p.facts.max_ply.map_or("-".into(), |n| n.to_string()),
            ),
            Err(e) => {
                note(e);
                return Ok(ExitCode::from(super::exit::RUNTIME));
            }
        }
    }
    if plan.engine.is_some() && plan.window.any() {
        crate::diag_line!(
            "uci960 book: win/draw/loss rates of {} lines from the engine (UCI_ShowWDL), of {} from Stockfish 17.1's model of the score",
            outcome.tally.wdl_engine,
            outcome.tally.wdl_model
        );
    } else if plan.window.any() {
        crate::diag_line!(
            "uci960 book: no engine: the windows judged the evaluations the book's lines carry: win/draw/loss rates of {} lines from their wdl opcode, of {} from Stockfish 17.1's model of their ce",
            outcome.tally.wdl_stored,
            outcome.tally.wdl_model
        );
    }
    if plan.shard != Shard::WHOLE {
        crate::diag_line!(
            "uci960 book: shard {} wrote {} of the book's {} positions",
            plan.shard,
            outcome.written,
            outcome.tally.kept
        );
    }
    if plan.engine.is_some() {
        let cpu = crate::platform::cpu::cpu_times();
        let own = cpu.own;
        match cpu.children {
            Some(engines) => {
                let share = if engines > 0.0 {
                    format!("{:.2} %", 100.0 * own / engines)
                } else {
                    "-".into()
                };
                crate::diag_line!(
                    "uci960 book: CPU uci960 {own:.2} s, engines {engines:.2} s ({share})"
                );
            }
            None => {
                crate::diag_line!(
                    "uci960 book: CPU uci960 {own:.2} s, engines not measured on this system"
                )
            }
        }
    }
    match outcome.stop {
        Stop::Complete => Ok(ExitCode::SUCCESS),
        Stop::Exhausted => {
            crate::diag_line!(
                "uci960 book: only {} of {} positions: {} lines in a row gave nothing new (the starts and plies hold no more unique positions)",
                outcome.tally.kept,
                plan.count,
                crate::book::generate::GIVE_UP_AFTER
            );
            Ok(ExitCode::from(1))
        }
        Stop::EndOfBook if args.count.is_some() && outcome.tally.kept < plan.count => {
            crate::diag_line!(
                "uci960 book: only {} of {} positions: every line of {} was read",
                outcome.tally.kept,
                plan.count,
                args.start
            );
            Ok(ExitCode::from(1))
        }
        Stop::EndOfBook => Ok(ExitCode::SUCCESS),
        Stop::Interrupted => {
            let sig = interrupt::received().unwrap_or(interrupt::SIGINT);
            Ok(ExitCode::from(interrupt::exit_code(sig)))
        }
    }
}
