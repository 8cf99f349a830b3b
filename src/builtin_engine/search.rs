//! The search: iterative deepening negamax with alpha-beta and principal
//! variation search, a transposition table, check extension, quiescence on
//! captures and promotions, and move ordering by hash move, MVV-LVA, killers
//! and history. Draws by repetition, the fifty-move rule and insufficient
//! material score 0; mate scores count plies from the root.
//!
//! Single-threaded and deterministic: with only depth or node limits no
//! clock is read for any decision, killers, history and the table's
//! generation are reset per search, so the same position, history and limits
//! give the same move. Time only ends a search when the caller gives a time
//! budget; the stop flag ends it whenever it is raised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{ByColor, Chess, Color, EnPassantMode, Move, MoveList, Position, Role};

use super::eval::{evaluate, value};
use super::tt::{Bound, Table};
use crate::uci::{Score, ScoreBound};

/// Deepest ply the search ever reaches (also the iterative deepening cap).
pub const MAX_PLY: usize = 100;
const INF: i32 = 32_000;
/// The score of mating right now; a mate in `p` plies scores `MATE - p`.
pub const MATE: i32 = 31_000;
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// How many nodes pass between looks at the stop flag and the clock.
const CHECK_EVERY: u64 = 1024;

/// What ends a search (besides the stop flag). `None` means no such limit.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Don't start another iteration after this much time.
    pub soft: Option<Duration>,
    /// Abort the search at this much time.
    pub hard: Option<Duration>,
    /// Search only these root moves (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<Move>,
}

impl SearchLimits {
    fn timed(&self) -> bool {
        self.soft.is_some() || self.hard.is_some()
    }
}

/// An internal score (centipawns, or mate distance near [`MATE`]) as UCI
/// reports it.
pub fn uci_score(score: i32) -> Score {
    let exact = ScoreBound::Exact;
    if score >= MATE_BOUND {
        Score::Mate(i64::from((MATE - score + 1) / 2), exact)
    } else if score <= -MATE_BOUND {
        Score::Mate(i64::from(-(MATE + score) / 2), exact)
    } else {
        Score::Cp(i64::from(score), exact)
    }
}

/// One finished iteration, for an `info` line.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct Decision {
    /// `None` only when the root has no legal move (or none in `searchmoves`).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub nodes: u64,
    pub depth: u32,
}

/// The searcher and its memory (transposition table, killers, history).
pub struct Searcher {
    tt: Table,
    killers: Vec<[Option<Move>; 2]>,
    history: Box<ByColor<[[i32; 64]; 64]>>,
    pv: Vec<Vec<Move>>,
    // Per-search state.
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    start: Instant,
    limits: SearchLimits,
    /// Hashes of the game so far and of the current line, for repetitions.
    path: Vec<u64>,
}

fn hash_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The Zobrist hash of `pos`, as used for repetitions by [`Searcher::search`].
pub fn position_hash(pos: &Chess) -> u64 {
    hash_of(pos)
}

fn child_hash(pos: &Chess, hash: u64, m: Move, child: &Chess) -> u64 {
    pos.update_zobrist_hash(Zobrist64(hash), m, EnPassantMode::Legal)
        .map(|z| z.0)
        .unwrap_or_else(|| hash_of(child))
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn is_tactical(m: &Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// MVV-LVA: the most valuable victim first, the cheapest attacker breaking ties.
fn mvv_lva(m: &Move) -> i32 {
    let victim = m.capture().map(value).unwrap_or(0);
    let promo = m.promotion().map(value).unwrap_or(0);
    (victim + promo) * 16 - m.role() as i32
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mb),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new(ByColor::new_with(|_| [[0; 64]; 64])),
            pv: vec![Vec::new(); MAX_PLY + 2],
            nodes: 0,
            seldepth: 0,
            aborted: false,
            start: Instant::now(),
            limits: SearchLimits::default(),
            path: Vec::new(),
        }
    }

    /// Replaces the table by one of `mb` MiB; false (and the old table
    /// kept) when that much memory can't be had.
    pub fn resize(&mut self, mb: usize) -> bool {
        // Free the old table first so that the two never need to coexist.
        self.tt = Table::new(1);
        match Table::try_new(mb) {
            Some(t) => {
                self.tt = t;
                true
            }
            None => false,
        }
    }

    /// Searches `root`. `history` holds the hashes of the game's earlier
    /// positions (oldest first, see [`position_hash`]) so that repetitions
    /// of them count as draws. `report` gets every finished iteration.
    pub fn search(
        &mut self,
        root: &Chess,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Iteration),
    ) -> Decision {
        self.tt.new_generation();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        *self.history = ByColor::new_with(|_| [[0; 64]; 64]);
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.start = Instant::now();
        self.limits = limits.clone();
        self.path.clear();
        self.path.extend_from_slice(history);

        let mut root_moves = root.legal_moves();
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|m| limits.searchmoves.contains(m));
        }
        let mut result = Decision::default();
        let Some(&first) = root_moves.first() else {
            return result;
        };
        result.best = Some(first);

        let root_hash = hash_of(root);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.negamax(
                root,
                root_hash,
                depth as i32,
                0,
                -INF,
                INF,
                stop,
                &root_moves,
            );
            let pv = self.pv[0].clone();
            if self.aborted {
                // A partial iteration is trusted only when nothing else is
                // known yet: its best move was fully searched.
                if depth == 1
                    && let Some(&m) = pv.first()
                {
                    result.best = Some(m);
                    result.ponder = None;
                }
                break;
            }
            if let Some(&m) = pv.first() {
                result.best = Some(m);
                result.ponder = pv.get(1).copied();
            }
            result.depth = depth;
            report(&Iteration {
                depth,
                seldepth: self.seldepth as u32,
                score: uci_score(score),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv,
            });
            if limits.timed() {
                // A forced move or a found mate needs no more thought.
                if root_moves.len() == 1 || score.abs() >= MATE_BOUND {
                    break;
                }
                if limits.soft.is_some_and(|soft| self.start.elapsed() >= soft) {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Counts a node; returns true when the search must unwind.
    fn count_node(&mut self, stop: &AtomicBool) -> bool {
        if self.aborted {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if stop.load(Ordering::Relaxed) {
                self.aborted = true;
            } else if let Some(hard) = self.limits.hard
                && self.start.elapsed() >= hard
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn is_repetition(&self, hash: u64, halfmoves: u32) -> bool {
        let len = self.path.len();
        let mut back = 2;
        while back <= halfmoves as usize && back <= len {
            if self.path[len - back] == hash {
                return true;
            }
            back += 2;
        }
        false
    }

    fn order(&self, moves: &mut MoveList, tt_move: Option<Move>, ply: usize, turn: Color) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let key = |m: &Move| -> i32 {
            if Some(*m) == tt_move {
                4_000_000
            } else if is_tactical(m) {
                2_000_000 + mvv_lva(m)
            } else if Some(*m) == killers[0] {
                1_000_001
            } else if Some(*m) == killers[1] {
                1_000_000
            } else {
                let from = m.from().map(|s| s as usize).unwrap_or(0);
                self.history[turn][from][m.to() as usize]
            }
        };
        moves.sort_by_cached_key(|m| std::cmp::Reverse(key(m)));
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Chess,
        hash: u64,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        stop: &AtomicBool,
        root_moves: &MoveList,
    ) -> i32 {
        if self.count_node(stop) {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            if pos.halfmoves() >= 100 && !pos.is_checkmate() {
                return 0;
            }
            if self.is_repetition(hash, pos.halfmoves()) || pos.is_insufficient_material() {
                return 0;
            }
            // Mate distance pruning: no line here beats a shorter mate.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(pos);
            }
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta, stop);
        }

        let mut tt_move = None;
        if let Some(e) = self.tt.probe(hash) {
            tt_move = e.best;
            if ply > 0 && e.depth >= depth {
                let score = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }

        let mut moves = if ply == 0 {
            root_moves.clone()
        } else {
            pos.legal_moves()
        };
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let turn = pos.turn();
        self.order(&mut moves, tt_move, ply, turn);

        let original_alpha = alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        self.path.push(hash);
        for (i, &m) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let h = child_hash(pos, hash, m, &child);
            let mut score;
            if i == 0 {
                score = -self.negamax(
                    &child,
                    h,
                    depth - 1,
                    ply + 1,
                    -beta,
                    -alpha,
                    stop,
                    root_moves,
                );
            } else {
                score = -self.negamax(
                    &child,
                    h,
                    depth - 1,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    stop,
                    root_moves,
                );
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(
                        &child,
                        h,
                        depth - 1,
                        ply + 1,
                        -beta,
                        -alpha,
                        stop,
                        root_moves,
                    );
                }
            }
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !is_tactical(&m) {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let from = m.from().map(|s| s as usize).unwrap_or(0);
                            let h = &mut self.history[turn][from][m.to() as usize];
                            *h = (*h + depth * depth).min(900_000);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if self.aborted {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, depth, to_tt(best_score, ply), bound, best_move);
        best_score
    }

    fn quiesce(
        &mut self,
        pos: &Chess,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        if self.count_node(stop) {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let in_check = pos.is_check();
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut best = -INF;
        if !in_check {
            // Stand pat: the side to move may decline every capture.
            let stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            moves.retain(|m| is_tactical(m));
            moves.sort_by_cached_key(|m| std::cmp::Reverse(mvv_lva(m)));
        }
        for &m in moves.iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.quiesce(&child, ply + 1, -beta, -alpha, stop);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    fn search(fen: &str, depth: u32) -> (Decision, Vec<Iteration>) {
        let pos = parse_position(fen).unwrap();
        let mut reports = Vec::new();
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let result =
            Searcher::new(1).search(&pos, &[], &limits, &AtomicBool::new(false), &mut |r| {
                reports.push(r.clone())
            });
        (result, reports)
    }

    #[test]
    fn finds_mate_in_one() {
        let (result, reports) = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
        let m = result.best.unwrap();
        assert_eq!(m.to(), shakmaty::Square::A8);
        assert_eq!(
            reports.last().unwrap().score,
            Score::Mate(1, ScoreBound::Exact)
        );
    }

    #[test]
    fn takes_a_free_queen() {
        let (result, _) = search("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", 2);
        assert_eq!(result.best.unwrap().to(), shakmaty::Square::D5);
    }

    #[test]
    fn no_move_when_mated_or_stalemated() {
        let (result, _) = search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert!(result.best.is_none());
        let (result, _) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert!(result.best.is_none());
    }

    #[test]
    fn node_limit_is_exact_and_deterministic() {
        let pos = Chess::default();
        let limits = SearchLimits {
            nodes: Some(5000),
            ..SearchLimits::default()
        };
        let stop = AtomicBool::new(false);
        let a = Searcher::new(1).search(&pos, &[], &limits, &stop, &mut |_| {});
        let mut s = Searcher::new(1);
        s.search(
            &pos,
            &[],
            &SearchLimits {
                depth: Some(3),
                ..SearchLimits::default()
            },
            &stop,
            &mut |_| {},
        );
        let b = s.search(&pos, &[], &limits, &stop, &mut |_| {});
        assert_eq!(a.nodes, 5000);
        assert_eq!(a.best, b.best);
        assert_eq!(a.nodes, b.nodes);
    }
}
