//! Inputs for the fuzzers (`examples/fuzz.rs` in process,
//! `examples/fuzz_proxy.rs` against the real proxy): random bytes, protocol
//! words, and mutations of a corpus of valid inputs, all from one seed.
#![allow(dead_code)]

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Words that make inputs reach deep into the parsers.
pub const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "quit",
    "setoption",
    "name",
    "value",
    "UCI_Chess960",
    "true",
    "false",
    "uci960",
    "Start",
    "SP",
    "Seed",
    "Book",
    "EngineFEN",
    "GuiCastling",
    "searchmoves",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "perft",
    "mate",
    "info",
    "score",
    "cp",
    "lowerbound",
    "upperbound",
    "pv",
    "currmove",
    "refutation",
    "currline",
    "multipv",
    "seldepth",
    "hashfull",
    "nps",
    "string",
    "bestmove",
    "readyok",
    "uciok",
    "id",
    "author",
    "option",
    "type",
    "spin",
    "check",
    "combo",
    "var",
    "default",
    "min",
    "max",
    "button",
    "die",
    "bag-redraw",
    "bag-swap",
    "random",
    "dfrc",
    "sp",
    "book",
    "gui",
    "kxr",
    "standard",
    "auto",
    "xfen",
    "shredder",
    "e1g1",
    "e1h1",
    "e1a1",
    "e1c1",
    "e8g8",
    "e8h8",
    "g1h1",
    "b1a1",
    "f1g1",
    "c1b1",
    "e2e4",
    "e7e5",
    "g1f3",
    "a7a8q",
    "0000",
    "(none)",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR",
    "w",
    "b",
    "KQkq",
    "HAha",
    "HFhf",
    "-",
    "e3",
    "0",
    "1",
    "518",
    "959",
    "960",
    "-1",
    "99999999999999999999",
    "1e300",
    "NaN",
    "/",
    "8",
    "\r",
    "\n",
    "\t",
    " ",
    "\u{feff}",
    "#",
    ";",
    "=",
    "[",
    "]",
    "\"",
    "\u{ff}",
    "RNBQKBNR",
    "BBQNNRKR",
    "R",
    "N",
    "B",
    "Q",
    "K",
    // PGN movetext and tags.
    "{",
    "}",
    "(",
    ")",
    "\\",
    "%",
    "$1",
    "1.",
    "1...",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "O-O",
    "O-O-O",
    "Nf3",
    "e4",
    "Qxh7#",
    "e8=Q+",
    "!?",
    "[FEN",
    "[Variant",
    "\"Chess960\"]",
];

/// Valid inputs to mutate, per target.
pub fn corpus(target: &str) -> Vec<Vec<u8>> {
    let lines: &[&str] = match target {
        "gui" => &[
            "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 3\nstop",
            "setoption name UCI_Chess960 value true\nposition fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g1f3\ngo searchmoves e1h1 g2g3 wtime 1000 btime 1000",
            "setoption name uci960 Start value die\nsetoption name uci960 Seed value 7\nucinewgame\nposition startpos\ngo nodes 10",
            "setoption name uci960 SP value 0\nsetoption name uci960 Start value sp\nucinewgame\nposition startpos moves b1a1\ngo",
            "setoption name uci960 GuiCastling value standard\nposition fen rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1 moves e1g1",
        ],
        "engine" => &[
            "id name X\nid author Y\noption name UCI_Chess960 type check default false\noption name Hash type spin default 16 min 1 max 1024\nuciok\nreadyok",
            "info depth 3 seldepth 4 score cp 20 nodes 100 nps 1000 pv e1h1 e8h8 g1f3\nbestmove e1h1 ponder e8h8",
            "info currmove e1g1 currmovenumber 1\ninfo refutation e1h1 e8h8\ninfo currline 1 e1a1\nbestmove e1g1",
            "info string hello\ninfo score mate -3 lowerbound pv a2a3\nbestmove (none)",
        ],
        "uci" => &[
            "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g1f3 g8f6",
            "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 40 depth 5 nodes 100 mate 3 searchmoves e2e4",
            "option name uci960 Start type combo default gui var gui var die",
            "setoption name Skill Level value 5",
            "info depth 10 multipv 2 score cp -35 upperbound hashfull 10 pv e2e4 e7e5",
            "bestmove e1h1 ponder e8h8",
            "info depth 8 multipv 1 score cp 20 pv e2e4\ninfo depth 8 multipv 2 score mate 3 pv d2d4\ninfo depth 8 multipv 3 score cp -5 lowerbound pv g1f3\nbestmove e2e4",
        ],
        "fen" => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 3 20",
            "518",
            "518/100",
            "RNBQKBNR",
            "RNBQKBNR/BBQNNRKR",
        ],
        "replay" => &[
            "die 2,3,3,2,3",
            "die 6 6 1 1 1 1 1",
            "bag-redraw RNBQKBNR",
            "bag-swap BBRNNQKR",
        ],
        "book" => &[
            "# a book\nbbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n",
            "\u{feff}bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 id \"x\";\r\n",
        ],
        "config" => &[
            "[engine]\nprogram = \"/usr/games/stockfish\"\nargs = [\"-x\"]\n[engine.options]\nHash = 64\n\"Skill Level\" = \"5\"\n[proxy]\nstart = \"sp:518,0\"\nseed = 7\nengine-fen = \"xfen\"\ngui-castling = \"kxr\"\nsilence-timeout = 2.5\n",
            "games = 5\nstart = \"die\"\ntimeout = 3\nst = 0.5\n[[engine]]\ncmd = \"a\"\nnodes = 10\n[engine.options]\nHash = 16\n[[engine]]\ncmd = \"b\"\n",
        ],
        "pgn" => &[
            "[Event \"uci960 match\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 {+0.10/3 0.1s} g6 2. O-O 1-0\n\n",
        ],
        "openings" => &[
            "[Event \"?\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. g3 g6 2. Nf3 {x} (2. Nd3) Nf6 3. Ne3 Ne6 *\n\n",
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]\n\n1. e4 $1 e5 2. Nf3!? Nc6 3. Bb5 a6 {Ruy} 1/2-1/2\n",
            "% escaped line\n1. d4 d5 2. c4 ; rest of line\n e6 *\n\n[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n\n1. O-O-O Kf7 2. Rd7+ *\n",
        ],
        "flags" => &[
            "movenumber=40 movecount=8 score=10",
            "movecount=3 score=600",
            "elo0=0 elo1=5 alpha=0.05 beta=0.05",
            "file=book.pgn format=pgn order=random plies=8",
            "cmd=/usr/games/stockfish name=sf arg=-x dir=/tmp option.Hash=16 option.Threads=1 st=0.5 fen=xfen",
            "cmd=a tc=40/60+0.5 nodes=1000 depth=5",
        ],
        _ => &[],
    };
    lines.iter().map(|l| l.as_bytes().to_vec()).collect()
}

/// A seeded source of inputs.
pub struct Gen {
    pub rng: ChaCha8Rng,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    pub fn random_bytes(&mut self) -> Vec<u8> {
        let n = self.below(200);
        (0..n).map(|_| self.rng.next_u32() as u8).collect()
    }

    pub fn words(&mut self) -> Vec<u8> {
        let n = 1 + self.below(40);
        let mut out = Vec::new();
        for i in 0..n {
            if i > 0 {
                out.push(match self.below(10) {
                    0 => b'\n',
                    1 => b'\t',
                    _ => b' ',
                });
            }
            out.extend_from_slice(WORDS[self.below(WORDS.len())].as_bytes());
        }
        out
    }

    pub fn mutate(&mut self, corpus: &[Vec<u8>]) -> Vec<u8> {
        let mut data = corpus[self.below(corpus.len())].clone();
        for _ in 0..1 + self.below(8) {
            let len = data.len();
            match self.below(7) {
                0 if len > 0 => {
                    let i = self.below(len);
                    data[i] ^= 1 << self.below(8);
                }
                1 => {
                    let i = self.below(len + 1);
                    data.insert(i, self.rng.next_u32() as u8);
                }
                2 if len > 0 => {
                    let i = self.below(len);
                    let n = self.below(len - i + 1);
                    data.drain(i..i + n);
                }
                3 if len > 0 => {
                    // Duplicate a slice (long lines, repeated tokens).
                    let i = self.below(len);
                    let n = self.below((len - i).min(64) + 1);
                    let piece = data[i..i + n].to_vec();
                    for _ in 0..1 + self.below(4) {
                        data.splice(i..i, piece.iter().copied());
                    }
                }
                4 => {
                    let i = self.below(len + 1);
                    let w = WORDS[self.below(WORDS.len())].as_bytes();
                    data.splice(i..i, w.iter().copied());
                }
                5 => {
                    let other = &corpus[self.below(corpus.len())];
                    let at = self.below(other.len() + 1);
                    let cut = self.below(data.len() + 1);
                    data.truncate(cut);
                    data.extend_from_slice(&other[at..]);
                }
                _ if len > 0 => {
                    // Replace a digit run with a hostile number.
                    let i = self.below(len);
                    let n = ["0", "-1", "4294967296", "99999999999999999999999", "1e309"]
                        [self.below(5)];
                    data.splice(i..i, n.bytes());
                }
                _ => {}
            }
        }
        data
    }

    pub fn input(&mut self, round: u64, corpus: &[Vec<u8>]) -> Vec<u8> {
        match round % 3 {
            0 => self.random_bytes(),
            1 => self.words(),
            _ if corpus.is_empty() => self.words(),
            _ => self.mutate(corpus),
        }
    }
}
