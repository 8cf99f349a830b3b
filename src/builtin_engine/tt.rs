//! The transposition table: a fixed-size, always-replace hash table keyed by
//! shakmaty's 64-bit Zobrist hash, holding a bound, a depth and a best move.
//!
//! Each `go` starts a new generation and entries of older generations read
//! as empty. That keeps a search at fixed depth or nodes deterministic: its
//! result depends on the position and the limits, never on what was searched
//! before (what Stockfish gives up for strength, a test engine keeps).
//! Starting a generation is O(1), so a game of thousands of tiny searches
//! never pays for clearing megabytes.

use shakmaty::Move;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub generation: u32,
    pub depth: i32,
    pub score: i32,
    pub bound: Bound,
    pub best: Option<Move>,
}

/// Default size in MiB (the UCI `Hash` option's default).
pub const DEFAULT_MB: usize = 16;
/// Largest accepted size in MiB.
pub const MAX_MB: usize = 1024;

pub struct Table {
    entries: Vec<Option<Entry>>,
    generation: u32,
}

impl Table {
    /// A table of about `mb` MiB (at least one entry).
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|| Table {
            entries: vec![None; 1],
            generation: 0,
        })
    }

    /// A table of about `mb` MiB, or `None` when the memory isn't there
    /// (a `setoption name Hash` too big for the machine must not abort).
    pub fn try_new(mb: usize) -> Option<Table> {
        let size = std::mem::size_of::<Option<Entry>>().max(1);
        let count = (mb.clamp(1, MAX_MB) * 1024 * 1024 / size).max(1);
        let mut entries = Vec::new();
        entries.try_reserve_exact(count).ok()?;
        entries.resize(count, None);
        Some(Table {
            entries,
            generation: 0,
        })
    }

    /// Starts a new search: every older entry now reads as empty.
    pub fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 searches a stale entry could look current again.
            self.entries.fill(None);
        }
    }

    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key uniformly onto the table.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries.get(self.slot(key)).copied().flatten()?;
        (entry.key == key && entry.generation == self.generation).then_some(entry)
    }

    pub fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, best: Option<Move>) {
        let slot = self.slot(key);
        let generation = self.generation;
        if let Some(e) = self.entries.get_mut(slot) {
            *e = Some(Entry {
                key,
                generation,
                depth,
                score,
                bound,
                best,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_of_an_older_search_are_invisible() {
        let mut t = Table::new(1);
        t.new_generation();
        t.store(42, 3, 17, Bound::Exact, None);
        assert_eq!(t.probe(42).map(|e| e.score), Some(17));
        assert!(t.probe(43).is_none());
        t.new_generation();
        assert!(t.probe(42).is_none());
    }
}
