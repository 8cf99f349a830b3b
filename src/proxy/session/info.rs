//! Castles in the engine's `info` lines (`pv`, `currmove`, `refutation`,
//! `currline`) written in the GUI's notation. Engines send many lines per
//! search, most repeating the last one's moves, so two caches skip the
//! replay: the last line's tail (everything from its first move list on)
//! and the last castling move sequence. Neither ever changes a result
//! (`info_tests.rs`).

use std::ops::Range;

use shakmaty::{Chess, Position};

use super::castles::{self, GuiNotation, maybe_castle};
use super::{Out, Warnings};
use crate::notation::castling::{CastlingNotation, parse_move};
use crate::uci::engine_msg::{info_move_groups_into, info_moves_start};

/// A translated move sequence (its bytes) and its replacements (token
/// index in the sequence, new text).
type PvCache = (Vec<u8>, Vec<(usize, String)>);

/// The text of the last translated `info` line from its first move list
/// on, and what it became. Engines repeat lines whose moves are the same
/// and only the numbers before them change (`nodes`, `time`, …), so most
/// lines need only this compare and two copies.
#[derive(Default)]
struct TailCache {
    /// Whether it holds a translation.
    valid: bool,
    input: Vec<u8>,
    /// Whether a castle in it was rewritten: else the line is forwarded.
    changed: bool,
    /// The translated tail (when `changed`).
    output: Vec<u8>,
}

/// Translates `info` lines, with its caches and buffers.
#[derive(Default)]
pub(super) struct InfoTranslator {
    /// The last translated move sequence of an `info` line and its
    /// replacements (token index, text): engines repeat a PV over many
    /// lines, so this saves replaying it.
    seq_cache: Option<PvCache>,
    tail_cache: TailCache,
    /// The notations (GUI, engine) both caches were filled for: a GUI may
    /// change its castling option, or send a position that switches the
    /// engine's notation, during a search.
    cached_for: Option<(GuiNotation, CastlingNotation)>,
    /// Scratch buffers (no allocation per line).
    scratch_spans: Vec<Range<usize>>,
    scratch_groups: Vec<Range<usize>>,
    /// A buffer for the next rewritten line (handed back by the I/O layer
    /// through `Session::recycle`).
    spare_line: Vec<u8>,
}

impl InfoTranslator {
    /// Forgets both caches: at each `go` (a new search position) and each
    /// `ucinewgame` (a cached translation skips warnings, due again).
    pub(super) fn clear(&mut self) {
        self.seq_cache = None;
        self.tail_cache.valid = false;
    }

    /// Keeps the larger of the spare buffer and `line`.
    pub(super) fn recycle(&mut self, line: Vec<u8>) {
        if line.capacity() > self.spare_line.capacity() {
            self.spare_line = line;
        }
    }

    /// An `info` line of a search from `search`: forwarded, or rewritten
    /// with its castles in the GUI's notation.
    pub(super) fn translate(
        &mut self,
        content: &[u8],
        search: &Chess,
        notations: (GuiNotation, CastlingNotation),
        warnings: &mut Warnings,
        out: &mut Vec<Out>,
    ) {
        // Nothing before the first move list changes; the rest may be the
        // tail of the last line again.
        let Some(tail_start) = info_moves_start(content) else {
            out.push(Out::Forward);
            return;
        };
        if self.cached_for != Some(notations) {
            self.clear();
            self.cached_for = Some(notations);
        }
        let tail = &content[tail_start..];
        if !(self.tail_cache.valid && self.tail_cache.input == tail) {
            let mut new_tail = std::mem::take(&mut self.tail_cache.output);
            new_tail.clear();
            let changed =
                self.translate_moves(tail, &mut new_tail, search, notations, warnings, out);
            let cache = &mut self.tail_cache;
            cache.valid = true;
            cache.input.clear();
            cache.input.extend_from_slice(tail);
            cache.changed = changed;
            cache.output = new_tail;
        }
        if self.tail_cache.changed {
            let mut line = std::mem::take(&mut self.spare_line);
            line.clear();
            line.extend_from_slice(&content[..tail_start]);
            line.extend_from_slice(&self.tail_cache.output);
            out.push(Out::Gui(line));
        } else {
            out.push(Out::Forward);
        }
    }

    /// Writes the moves part of an `info` line (from its first move list
    /// on) to `new` with its castles translated; false if none changed.
    fn translate_moves(
        &mut self,
        content: &[u8],
        new: &mut Vec<u8>,
        search: &Chess,
        notations: (GuiNotation, CastlingNotation),
        warnings: &mut Warnings,
        out: &mut Vec<Out>,
    ) -> bool {
        let mut spans = std::mem::take(&mut self.scratch_spans);
        let mut groups = std::mem::take(&mut self.scratch_groups);
        info_move_groups_into(content, &mut spans, &mut groups);
        // `at`: the first byte of `content` not yet copied (0 while
        // nothing changed).
        let mut at = 0;
        for g in groups.iter() {
            let group = &spans[g.clone()];
            // Only moves along a back rank can be castles; the moves after
            // the last of them cannot change, and a group without one
            // needs no position at all.
            let Some(last) = group
                .iter()
                .rposition(|r| maybe_castle(&content[r.clone()]))
            else {
                continue;
            };
            let key = &content[group[0].start..group[last].end];
            let hit = matches!(&self.seq_cache, Some((cached, _)) if cached == key);
            if !hit {
                let reps =
                    translate_sequence(content, &group[..=last], search, notations, warnings, out);
                self.seq_cache = Some((key.to_vec(), reps));
            }
            let Some((_, reps)) = &self.seq_cache else {
                continue;
            };
            for (i, text) in reps {
                let span = &group[*i];
                new.extend_from_slice(&content[at..span.start]);
                new.extend_from_slice(text.as_bytes());
                at = span.end;
            }
        }
        self.scratch_spans = spans;
        self.scratch_groups = groups;
        new.extend_from_slice(&content[at..]);
        at > 0
    }
}

/// Replays a move sequence of an `info` line from the search position up
/// to an unreadable move; returns the castles to rewrite (index in
/// `group`, text in the GUI's notation). Ambiguous castles are warned
/// about and left as written.
fn translate_sequence(
    content: &[u8],
    group: &[Range<usize>],
    search: &Chess,
    (gui_n, eng_n): (GuiNotation, CastlingNotation),
    warnings: &mut Warnings,
    out: &mut Vec<Out>,
) -> Vec<(usize, String)> {
    let mut reps = Vec::new();
    let mut pos = search.clone();
    for (i, span) in group.iter().enumerate() {
        let Ok(text) = std::str::from_utf8(&content[span.clone()]) else {
            break;
        };
        let Ok(m) = parse_move(&pos, text, eng_n) else {
            break;
        };
        if m.is_castle()
            && let Some(s) = castles::for_gui(&pos, m, text, gui_n, warnings, out)
        {
            reps.push((i, s));
        }
        pos.play_unchecked(m);
    }
    reps
}
