//! The tournament's settings by name. Library errors name a [`Setting`],
//! never a flag: a value may come from the command line or from a TOML
//! config, and only the command layer knows which, so it turns a setting
//! into what the user wrote (`--games`, or `games` in the config file and
//! line) through the errors' `describe`. Read alone, a message names the
//! setting by its TOML key ([`Setting::canonical`]).

use crate::keyword::Keyword;

/// One setting of [`super::config::TournamentConfig`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Setting {
    Engine,
    Tournament,
    Games,
    Rounds,
    Concurrency,
    Start,
    RandomPlies,
    Openings,
    Seed,
    Tc,
    Nodes,
    Depth,
    St,
    Pgn,
    Json,
    State,
    Sprt,
    Draw,
    Resign,
    MaxMoves,
    CastlingMoves,
    Restart,
    Recover,
    SharedPgn,
    Margin,
    Timeout,
    PgnVariant,
    RatingInterval,
    Shard,
    Dir,
    /// Go on with the tournament in the state file: a run's setting only
    /// the command line gives (`session::Options::resume`), never a
    /// config key.
    Resume,
}

impl Keyword for Setting {
    const WHAT: &'static str = "setting";
    /// The TOML keys (the flags are these with `-` for `_`), and
    /// `resume`, which only the command line gives.
    const WORDS: &'static [(Setting, &'static str, &'static str)] = &[
        (Setting::Engine, "engine", "an engine"),
        (Setting::Tournament, "tournament", "how engines are paired"),
        (Setting::Games, "games", "games of each pairing per round"),
        (Setting::Rounds, "rounds", "rounds"),
        (Setting::Concurrency, "concurrency", "games at once"),
        (Setting::Start, "start", "how start positions are drawn"),
        (
            Setting::RandomPlies,
            "random_plies",
            "random plies after the start",
        ),
        (Setting::Openings, "openings", "an opening book"),
        (Setting::Seed, "seed", "the random seed"),
        (Setting::Tc, "tc", "time control"),
        (Setting::Nodes, "nodes", "nodes a move"),
        (Setting::Depth, "depth", "depth a move"),
        (Setting::St, "st", "seconds a move"),
        (Setting::Pgn, "pgn", "the PGN file"),
        (Setting::Json, "json", "the JSON summary file"),
        (Setting::State, "state", "the state file"),
        (Setting::Sprt, "sprt", "the SPRT"),
        (Setting::Draw, "draw", "draw adjudication"),
        (Setting::Resign, "resign", "resign adjudication"),
        (Setting::MaxMoves, "maxmoves", "moves before a draw"),
        (
            Setting::CastlingMoves,
            "castling_moves",
            "how castling moves are read",
        ),
        (Setting::Restart, "restart", "fresh engines every game"),
        (Setting::Recover, "recover", "go on after an engine fails"),
        (
            Setting::SharedPgn,
            "shared_pgn",
            "the PGN shared with other runs",
        ),
        (Setting::Margin, "margin", "milliseconds of time overrun"),
        (Setting::Timeout, "timeout", "seconds of silence"),
        (Setting::PgnVariant, "pgn_variant", "the PGN [Variant] name"),
        (
            Setting::RatingInterval,
            "rating_interval",
            "games between standings",
        ),
        (Setting::Shard, "shard", "the slice of the schedule played"),
        (Setting::Dir, "dir", "the run directory"),
        (Setting::Resume, "resume", "go on with the tournament"),
    ];
}

impl Setting {
    /// Every setting.
    pub fn all() -> impl Iterator<Item = Setting> {
        Setting::WORDS.iter().map(|(s, ..)| *s)
    }

    /// Old TOML keys still read for it.
    pub fn old_keys(self) -> &'static [&'static str] {
        match self {
            Setting::CastlingMoves => &["castling"],
            _ => &[],
        }
    }

    /// The name a message uses when nobody says where the value came
    /// from: the TOML key.
    pub fn canonical(self) -> String {
        self.word().to_string()
    }
}

/// What names a setting in a message: [`Setting::canonical`] in the
/// library, the flag or config key the user wrote in the command layer.
pub type Namer<'a> = &'a dyn Fn(Setting) -> String;
