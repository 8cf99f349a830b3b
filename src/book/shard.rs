//! `--shard i/n`: the i-th of n disjoint slices of a book (the numbering
//! and parsing are the shared [`crate::shard`]).
//!
//! A book is one sequence, fixed by its flags and seed: candidate lines in
//! order, each kept or dropped by the filters, duplicates decided on that
//! whole sequence (see [`super::generate`]). The kept positions are
//! numbered 0, 1, 2, … in that order (their *rank*), and shard `i/n` writes
//! the ranks `r` with `r mod n = i - 1`. Slicing comes after uniqueness and
//! after `--count`, so the n shards are disjoint, each about `count / n`
//! long, and together exactly the unsharded book (in round-robin order).
//! Every shard walks the whole sequence to know the ranks: cheap for random
//! lines; for engine books it repeats the engine work in every shard, so
//! generate an engine book once and slice the file with
//! `--start book:FILE --shard i/n` (see docs/BOOKS.md).

pub use crate::shard::{Shard, ShardError, ShardFault};
