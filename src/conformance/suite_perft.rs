//! The perft checks: `go perft N` against shakmaty, and for a failing
//! position the drill-down a perft debugger does by hand: follow the move
//! whose count differs, one ply at a time (`position … moves m1 m2`, `go
//! perft N-1`), until a move is missing from or extra in the engine's list.
//! That move, in that position, names the bug (see
//! [`diagnosis::perft_move`](super::diagnosis::perft_move)); a Shredder or
//! X-FEN misreading is confirmed by asking `go perft 1` again with a field
//! the engine cannot misread.

use std::time::Instant;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use super::answer::castle_notations;
use super::causes;
use super::diagnosis::{self, Diagnosis};
use super::driver::DriverError;
use super::perft::{Divide, compare, reference_divide};
use super::perft_sets::Labelled;
use super::report::{CheckName, CheckReport, Failure};
use super::suite::Run;
use crate::notation::fen::position_fen;

/// What one level of a divide comparison says.
#[derive(Debug, PartialEq)]
pub(super) enum Level {
    /// A move missing or extra (or written in the wrong notation): the bug.
    Found {
        diagnosis: Diagnosis,
        text: String,
        /// The move, as shakmaty or the engine wrote it.
        mv: String,
        /// Missing from the engine's divide (else extra in it).
        missing: bool,
    },
    /// Both list the move but count differently below it: go down.
    Descend {
        mv: Move,
        text: String,
    },
    /// Every move agrees; only the announced total differs.
    Total {
        text: String,
    },
    Agrees,
}

/// Compares one level: notation first, then missing and extra moves, then
/// differing counts.
pub(super) fn analyse(pos: &Chess, reference: &Divide, engine: &Divide) -> Level {
    // The standard form counts when it is not also a plain king move, or
    // when it is listed a second time.
    let listed = |mv: &str| {
        engine.duplicates.iter().any(|d| d == mv)
            || (engine.moves.contains_key(mv) && !reference.moves.contains_key(mv))
    };
    for castle in pos.legal_moves().into_iter().filter(|m| m.is_castle()) {
        let (kxr, standard) = castle_notations(castle);
        if kxr != standard && !engine.moves.contains_key(&kxr) && listed(&standard) {
            return Level::Found {
                mv: kxr.clone(),
                missing: true,
                text: format!(
                    "castle {kxr} listed as {standard}{}",
                    if engine.duplicates.contains(&standard) {
                        format!(" ({standard} listed twice: also the plain king move)")
                    } else {
                        String::new()
                    }
                ),
                diagnosis: Diagnosis::KingTwoSquares,
            };
        }
    }
    let engine_moves: Vec<&str> = engine.moves.keys().map(String::as_str).collect();
    if let Some(mv) = reference
        .moves
        .keys()
        .find(|m| !engine.moves.contains_key(*m))
    {
        return Level::Found {
            diagnosis: diagnosis::perft_move(pos, mv, true, &engine_moves),
            text: format!("move {mv} missing from the engine's divide"),
            mv: mv.clone(),
            missing: true,
        };
    }
    if let Some(mv) = engine
        .moves
        .keys()
        .find(|m| !reference.moves.contains_key(*m))
    {
        return Level::Found {
            diagnosis: diagnosis::perft_move(pos, mv, false, &engine_moves),
            text: format!("move {mv} is not legal but the engine lists it"),
            mv: mv.clone(),
            missing: false,
        };
    }
    if let Some(mv) = engine.duplicates.first() {
        return Level::Found {
            diagnosis: Diagnosis::PerftNonCastling,
            text: format!("move {mv} listed twice"),
            mv: mv.clone(),
            missing: false,
        };
    }
    match compare(reference, engine) {
        None => Level::Agrees,
        Some(m) => match m.mv.as_deref().and_then(|mv| legal(pos, mv)) {
            Some(mv) => Level::Descend {
                mv,
                text: m.to_string(),
            },
            None => Level::Total {
                text: m.to_string(),
            },
        },
    }
}

fn legal(pos: &Chess, text: &str) -> Option<Move> {
    UciMove::from_ascii(text.as_bytes()).ok()?.to_move(pos).ok()
}

fn castling_bug(d: Diagnosis) -> bool {
    matches!(
        d,
        Diagnosis::PerftMissesLegalCastle
            | Diagnosis::PerftCastlesThroughPieces
            | Diagnosis::PerftRookOnKingSquare
            | Diagnosis::PerftIllegalCastle
            | Diagnosis::CastlesIntoCheckThroughRookSquare
    )
}

/// Why the perft checks are skipped (their reason in the report).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum NoPerft {
    #[error("perft not wanted")]
    NotWanted,
    #[error(
        "the engine does not answer `go perft N` with a divide (Stockfish's `move: count` lines)"
    )]
    NoDivide,
    #[error("`go perft 1` failed: {0}")]
    Failed(DriverError),
}

impl Run<'_> {
    /// Whether the engine answers `go perft 1` with a divide: `Ok`, or why
    /// the perft checks are skipped.
    pub(super) fn probe_perft(&mut self, material: &super::suite::Material) -> Result<(), NoPerft> {
        let wanted = [
            CheckName::PerftStart,
            CheckName::PerftMidgame,
            CheckName::PerftDfrc,
            CheckName::CastleTraps,
            CheckName::RightsTracking,
        ]
        .into_iter()
        .any(|c| self.options.wants(c));
        if !wanted {
            return Err(NoPerft::NotWanted);
        }
        let probe = material
            .starts
            .first()
            .and_then(|l| self.line(&l.position, &[]).ok())
            .unwrap_or_else(|| "position startpos".into());
        match self.engine(|d| d.perft(&probe, 1)) {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(NoPerft::NoDivide),
            Err(err) => Err(NoPerft::Failed(err)),
        }
    }

    pub(super) fn perft_check(&mut self, check: CheckName, positions: &[Labelled]) -> CheckReport {
        let (mut tally, started) = self.begin(check);
        let depth = self.options.perft_depth;
        let go = format!("go perft {depth}");
        let (mut engine_secs, mut ours_secs, mut nodes) = (0.0, 0.0, 0u64);
        let mut left = 0;
        for (i, l) in positions.iter().enumerate() {
            if self.giving_up() {
                left = positions.len() - i;
                break;
            }
            let readable = self.speech().readable(&l.position);
            let position = match self.line(&l.position, &[]).and_then(|line| {
                readable?;
                Ok(line)
            }) {
                Ok(line) => line,
                Err(why) => {
                    tally.skip(why);
                    self.tick();
                    continue;
                }
            };
            let fen = position_fen(&l.position, self.options.fen);
            let t = Instant::now();
            let answer = self.divide(&position, &l.position, depth);
            engine_secs += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let reference = reference_divide(&l.position, depth);
            ours_secs += t.elapsed().as_secs_f64();
            nodes += reference.total;
            let reproduce = self.reproduce(&position, &go);
            match answer {
                Err(err) => tally.fail(self.engine_failure(&l.label, fen, reproduce, &err)),
                Ok(None) => tally.fail(
                    Failure::wrong(&l.label, fen, reproduce, "a divide", "no divide (bestmove)")
                        .diagnosed(Diagnosis::Unreadable),
                ),
                Ok(Some(divide)) => match analyse(&l.position, &reference, &divide) {
                    Level::Agrees => tally.pass(),
                    level => {
                        let f = Failure::wrong(
                            &l.label,
                            fen,
                            reproduce,
                            format!("{} nodes in total", reference.total),
                            String::new(),
                        );
                        tally.fail(self.drill(l, level, f));
                    }
                },
            }
            self.tick();
        }
        tally.note(format!(
            "depth {depth}, {nodes} nodes; engine {engine_secs:.2} s, shakmaty {ours_secs:.2} s (shakmaty/engine time x{:.2})",
            if engine_secs > 0.0 { ours_secs / engine_secs } else { 0.0 }
        ));
        self.finish(tally, started, left)
    }

    /// Follows a differing count down to the move that is missing or
    /// extra; the failure's reproducer becomes that shorter query.
    fn drill(&mut self, l: &Labelled, mut level: Level, root: Failure) -> Failure {
        let mut path: Vec<Move> = Vec::new();
        let mut pos = l.position.clone();
        let mut depth = self.options.perft_depth;
        let mut failure = root;
        loop {
            match level {
                Level::Descend { mv, text } if depth > 1 => {
                    failure.got = text;
                    path.push(mv);
                    pos.play_unchecked(mv);
                    depth -= 1;
                    let readable = self.speech().readable(&pos);
                    let position = match self.line(&l.position, &path).and_then(|line| {
                        readable?;
                        Ok(line)
                    }) {
                        Ok(line) => line,
                        // The declared notation cannot go on: the failure
                        // stays at this level, undiagnosed, not guessed.
                        Err(why) => {
                            failure.got =
                                format!("{}; the drill-down stops here: {why}", failure.got);
                            return failure;
                        }
                    };
                    let go = format!("go perft {depth}");
                    let divide = match self.divide(&position, &pos, depth) {
                        Ok(Some(divide)) => divide,
                        // The engine gave up on the deeper query: keep the
                        // level above, named by how the engine failed.
                        Err(err) => return failure.diagnosed(err.diagnosis()),
                        Ok(None) => return failure.diagnosed(Diagnosis::Unreadable),
                    };
                    let reference = reference_divide(&pos, depth);
                    failure.label = format!("{} after {}", l.label, moves_text(&path));
                    failure.reproduce = self.reproduce(&position, &go);
                    failure.expected = format!("{} nodes in total", reference.total);
                    level = analyse(&pos, &reference, &divide);
                }
                Level::Found {
                    diagnosis,
                    text,
                    mv,
                    missing,
                } => {
                    failure.got = text;
                    failure.expected = format!(
                        "the legal moves of {}",
                        position_fen(&pos, self.options.fen)
                    );
                    let named = self.perft_cause(&l.position, &path, &pos, diagnosis, &mv, missing);
                    return failure.diagnosed(named);
                }
                Level::Descend { text, .. } | Level::Total { text } => {
                    failure.got = text;
                    return failure.diagnosed(Diagnosis::PerftCountsInconsistent);
                }
                Level::Agrees => {
                    failure.got =
                        "the deeper query agrees: the engine's counts are not repeatable".into();
                    return failure.diagnosed(Diagnosis::PerftCountsInconsistent);
                }
            }
        }
    }

    /// `go perft 1` after `path` with a castling field the engine cannot
    /// misread; the diagnosis it confirms when the engine then agrees.
    fn confirm_perft_misread(&mut self, root: &Chess, path: &[Move]) -> Option<Diagnosis> {
        let (diagnosis, position, probe) = self.field_probe(root, path)?;
        self.speech().readable(&probe).ok()?;
        let answer = self.divide(&position, &probe, 1).ok()??;
        (analyse(&probe, &reference_divide(&probe, 1), &answer) == Level::Agrees)
            .then_some(diagnosis)
    }

    /// What a castle found missing or extra in `pos` (reached from `root`
    /// by `path`) says, cause tests first: a misread castling field, then a
    /// right read against the wrong one of two rooks on a wing (`go perft
    /// 1` again with the outer rook taken off), then a castle refused for
    /// its attacked rook (again with the rook's attackers taken off); the
    /// layout category of the move only when no cause test fits.
    pub(super) fn perft_cause(
        &mut self,
        root: &Chess,
        path: &[Move],
        pos: &Chess,
        found: Diagnosis,
        mv: &str,
        missing: bool,
    ) -> Diagnosis {
        if !castling_bug(found) {
            return found;
        }
        if let Some(d) = self.confirm_perft_misread(root, path) {
            return d;
        }
        if causes::castle_named(pos, mv)
            .is_some_and(|c| causes::wrong_rook_pattern(pos, c, missing))
            && let Some(probe) = causes::without_outer_rooks(pos, pos.turn())
            && self.perft_agrees(&probe)
        {
            return Diagnosis::InnerRookRightMisread;
        }
        if missing
            && let Some(castle) = pos
                .legal_moves()
                .into_iter()
                .find(|m| m.is_castle() && super::suite::uci(*m) == mv)
            && causes::rook_attacked(pos, castle)
            && let Some(probe) = causes::without_rook_attackers(pos, castle)
            && self.speech().readable(&probe).is_ok()
            && let Ok(line) = self.line(&probe, &[])
            && let Ok(Some(divide)) = self.divide(&line, &probe, 1)
            && divide.moves.contains_key(mv)
        {
            return Diagnosis::RefusesCastleWithAttackedRook;
        }
        found
    }

    /// `go perft 1` on `pos` (given as a FEN) agrees with shakmaty.
    pub(super) fn perft_agrees(&mut self, pos: &Chess) -> bool {
        if self.speech().readable(pos).is_err() {
            return false;
        }
        let Ok(line) = self.line(pos, &[]) else {
            return false;
        };
        match self.divide(&line, pos, 1) {
            Ok(Some(divide)) => analyse(pos, &reference_divide(pos, 1), &divide) == Level::Agrees,
            _ => false,
        }
    }
}

fn moves_text(path: &[Move]) -> String {
    path.iter()
        .map(|m| super::suite::uci(*m))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;

    #[test]
    fn king_two_squares_divide_is_a_notation_bug_not_a_duplicate() {
        // K f1, R h1: f1g1 is both a king step and, in standard UCI, the castle.
        let pos = parse_position("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        let reference = reference_divide(&pos, 1);
        let mut engine = reference.clone();
        engine.moves.remove("f1h1").unwrap();
        engine.duplicates.push("f1g1".into());
        match analyse(&pos, &reference, &engine) {
            Level::Found {
                diagnosis, text, ..
            } => {
                assert_eq!(diagnosis, Diagnosis::KingTwoSquares);
                assert!(text.contains("listed twice"), "{text}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(analyse(&pos, &reference, &reference), Level::Agrees);
    }
}
