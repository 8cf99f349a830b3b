//! The proxy driven exactly as Cute Chess drives an engine in its
//! "fischerandom" variant (cutechess `projects/lib/src/uciengine.cpp`):
//! `uci`, `isready`; per game the variant option (`UCI_Variant value
//! chess960` for an engine that lists variants, Fairy-Stockfish;
//! `UCI_Chess960 value true` otherwise, Stockfish), then `ucinewgame`,
//! `setoption name Ponder`, and `position fen <Shredder-FEN> moves …` after
//! every move, with castles written king-takes-rook (cutechess
//! `WesternBoard::lanMoveString` for random variants); `go wtime … btime …`;
//! after a `bestmove X ponder Y`, `position … X Y`, `isready`, `go ponder …`,
//! then `ponderhit` or `stop`. A book of moves with castles on both wings
//! comes first, as cutechess plays book moves. The log shows what reached
//! the engine.

use crate::common;
use crate::proxy_util::Proxy;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, CastlingSide, Chess, Move, Position, Role};

/// King c1 between rooks b1 and f1: one bishop move and the long castle
/// (`c1b1`, king takes rook) is legal.
const START: &str = "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w FBfb - 0 1";

struct Game {
    start_fen: String,
    pos: Chess,
    moves: Vec<String>,
}

impl Game {
    fn new() -> Game {
        let fen: Fen = START.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Chess960).unwrap();
        Game {
            start_fen: START.to_string(),
            pos,
            moves: Vec::new(),
        }
    }

    /// What cutechess sends: `position fen F` and the moves, if any.
    fn position(&self) -> String {
        let mut s = format!("position fen {}", self.start_fen);
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        s
    }

    /// A move in cutechess's notation: king-takes-rook for castles.
    fn text(m: &Move) -> String {
        m.to_uci(CastlingMode::Chess960).to_string()
    }

    /// Plays a move given as text (KxR castles); panics if illegal.
    fn play_text(&mut self, text: &str) -> Move {
        let m = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&self.pos).ok())
            .unwrap_or_else(|| panic!("illegal move '{text}' in {}", self.position()));
        self.play(&m);
        m
    }

    fn play(&mut self, m: &Move) {
        self.moves.push(Game::text(m));
        self.pos.play_unchecked(*m);
    }

    /// The book policy: castle when possible (long first, so both wings
    /// come up), else move a minor piece or the queen off the back rank,
    /// else the first legal move.
    fn book_move(&self) -> Move {
        let legal = self.pos.legal_moves();
        let castle = |side| {
            legal
                .iter()
                .find(|m| m.castling_side() == Some(side))
                .cloned()
        };
        let back = self.pos.turn().backrank();
        castle(CastlingSide::QueenSide)
            .or_else(|| castle(CastlingSide::KingSide))
            .or_else(|| {
                legal
                    .iter()
                    .find(|m| {
                        !matches!(m.role(), Role::King | Role::Rook | Role::Pawn)
                            && m.from().is_some_and(|f| f.rank() == back)
                            && !self
                                .pos
                                .board()
                                .attacks_to(m.to(), !self.pos.turn(), self.pos.board().occupied())
                                .any()
                    })
                    .cloned()
            })
            .or_else(|| legal.iter().find(|m| m.role() == Role::Pawn).cloned())
            .unwrap_or(legal[0])
    }
}

/// The log's lines as (direction, text).
fn log_lines(path: &std::path::Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|l| {
            // timestamp pid direction(padded) text
            let mut it = l.splitn(3, ' ');
            let (_ts, _pid, rest) = (it.next()?, it.next()?, it.next()?);
            let (dir, text) = rest.split_once(' ')?;
            Some((dir.to_string(), text.trim_start().to_string()))
        })
        .collect()
}

/// One fischerandom game's opening and six engine moves with ponder.
fn drive(engine: &str, variant_line: &str) {
    let Some(path) = common::require_engine(engine) else {
        return;
    };
    let dir = common::scratch_dir(&format!("cutechess-{engine}"));
    let log = dir.join("proxy.log");
    let path = path.to_string_lossy().into_owned();
    let mut p = Proxy::start(&["--log", log.to_str().unwrap(), "--", &path]);
    p.send("uci");
    p.wait_line("uciok");
    p.send("isready");
    p.wait_line("readyok");
    // ChessGame start: the variant, ucinewgame, Ponder, the position.
    p.send(variant_line);
    p.send("ucinewgame");
    p.send("setoption name Ponder value true");
    let mut game = Game::new();
    p.send(&game.position());
    // Book moves: each one re-sends the position (UciEngine::makeMove).
    let mut castles = 0;
    let mut searchmoves_done = false;
    for _ in 0..40 {
        // A side castles once: two castles are one of each side.
        if castles == 2 {
            break;
        }
        let m = game.book_move();
        // Once, where a castle is legal: a search restricted to it.
        if m.is_castle() && !searchmoves_done {
            searchmoves_done = true;
            let other = game
                .pos
                .legal_moves()
                .iter()
                .find(|o| !o.is_castle())
                .map(Game::text)
                .unwrap();
            p.send(&format!(
                "go wtime 1000 btime 1000 searchmoves {} {other}",
                Game::text(&m)
            ));
            let best = p.wait_line("bestmove");
            let mv = best.split_whitespace().nth(1).unwrap();
            assert!(mv == Game::text(&m) || mv == other, "{best}");
            p.send("isready");
            p.wait_line("readyok");
        }
        castles += usize::from(m.is_castle());
        game.play(&m);
        p.send(&game.position());
    }
    assert_eq!(
        castles,
        2,
        "both sides castle in the book: {}",
        game.position()
    );
    // Six engine moves: the first ponder move is played (ponderhit), the
    // second is not (stop), and so on.
    for round in 0..6 {
        p.send("go wtime 2000 btime 2000 winc 20 binc 20");
        let best = p.wait_line("bestmove");
        let mut toks = best.split_whitespace().skip(1);
        let mv = toks.next().unwrap().to_string();
        game.play_text(&mv);
        if game.pos.is_game_over() {
            break;
        }
        let ponder = match (toks.next(), toks.next()) {
            (Some("ponder"), Some(pm)) => Some(pm.to_string()),
            _ => None,
        };
        let Some(pm) = ponder else {
            // No ponder move: the opponent replies, the engine plays on.
            let reply = game.book_move();
            game.play(&reply);
            p.send(&game.position());
            continue;
        };
        // startPondering: position with the ponder move, isready, go ponder.
        let mut pondered = Game {
            start_fen: game.start_fen.clone(),
            pos: game.pos.clone(),
            moves: game.moves.clone(),
        };
        pondered.play_text(&pm);
        p.send(&pondered.position());
        p.send("isready");
        p.wait_line("readyok");
        p.send("go ponder wtime 2000 btime 2000 winc 20 binc 20");
        if round % 2 == 0 {
            game = pondered;
            p.send("ponderhit");
        } else {
            p.send("stop");
            p.wait_line("bestmove");
            p.send("isready");
            p.wait_line("readyok");
            let reply = game
                .pos
                .legal_moves()
                .iter()
                .find(|m| Game::text(m) != pm)
                .cloned();
            let Some(reply) = reply else { break };
            game.play(&reply);
            p.send(&game.position());
        }
        if round % 2 == 0 {
            // The ponderhit search's move comes as the next bestmove.
            let best = p.wait_line("bestmove");
            let mv = best.split_whitespace().nth(1).unwrap().to_string();
            game.play_text(&mv);
            if game.pos.is_game_over() {
                break;
            }
            let reply = game.book_move();
            game.play(&reply);
            p.send(&game.position());
        }
    }
    p.send("quit");
    let (status, seen, stderr) = p.finish();
    assert!(status.success(), "{status}: {stderr}");
    let all = format!("{}\n{stderr}", seen.join("\n"));
    assert!(!all.contains("as written"), "{all}");
    assert!(!all.contains("illegal"), "{all}");
    assert!(!all.contains("outside its notation"), "{all}");

    // What reached the engine: every position exactly as the GUI wrote it.
    let lines = log_lines(&log);
    let from_gui: Vec<&String> = lines
        .iter()
        .filter(|(d, t)| d == "gui>proxy" && t.starts_with("position"))
        .map(|(_, t)| t)
        .collect();
    let to_engine: Vec<&String> = lines
        .iter()
        .filter(|(d, t)| d == "proxy>engine" && t.starts_with("position"))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(from_gui, to_engine, "no position rewritten");
    assert!(
        from_gui
            .iter()
            .any(|l| l.contains(" c1b1 ") && l.contains(" c8b8")),
        "king-takes-rook castles were sent: {from_gui:?}"
    );
    // Every searchmoves and bestmove unchanged in both directions.
    let gui_go: Vec<&String> = lines
        .iter()
        .filter(|(d, t)| d == "gui>proxy" && t.starts_with("go"))
        .map(|(_, t)| t)
        .collect();
    let engine_go: Vec<&String> = lines
        .iter()
        .filter(|(d, t)| d == "proxy>engine" && t.starts_with("go"))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(gui_go, engine_go);
    let engine_best: Vec<&String> = lines
        .iter()
        .filter(|(d, t)| d == "engine>proxy" && t.starts_with("bestmove"))
        .map(|(_, t)| t)
        .collect();
    let gui_best: Vec<&String> = lines
        .iter()
        .filter(|(d, t)| d == "proxy>gui" && t.starts_with("bestmove"))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(engine_best, gui_best, "no bestmove rewritten");
    // The engine was put in Chess960 mode.
    assert!(
        lines
            .iter()
            .any(|(d, t)| d == "proxy>engine" && t.contains("UCI_Chess960 value true"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cutechess_fischerandom_with_fairy_stockfish_uci_variant() {
    drive(
        "fairy-stockfish",
        "setoption name UCI_Variant value chess960",
    );
}

#[test]
fn cutechess_fischerandom_with_stockfish_uci_chess960() {
    drive("stockfish", "setoption name UCI_Chess960 value true");
}
