//! The one shuffle of the crate: Fisher–Yates driven by
//! [`uniform_below`], so a seed gives the same order on every platform and
//! with every `rand` version. Books (`book-shuffle:`, `order=random`) and
//! the complete sets (`--start all --shuffle`) all go through it.

use crate::start::method::procedure::uniform_below;

/// Shuffles `items` in place: the last item swaps with a uniformly chosen
/// one at or before it, then the one before, down to the second.
pub fn shuffle<T>(items: &mut [T], rng: &mut impl rand_core::Rng) {
    for i in (1..items.len()).rev() {
        // A slice longer than u32::MAX cannot be a book or a set here (the
        // largest, dfrc-all, holds 921,600).
        let j = uniform_below(rng, (i + 1).min(u32::MAX as usize) as u32) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_the_seed() {
        let order = |seed| {
            let mut v: Vec<u32> = (0..100).collect();
            shuffle(&mut v, &mut ChaCha8Rng::seed_from_u64(seed));
            v
        };
        let a = order(3);
        assert_eq!(a, order(3));
        assert_ne!(a, order(4));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        let mut empty: [u8; 0] = [];
        shuffle(&mut empty, &mut ChaCha8Rng::seed_from_u64(0));
    }
}
