//! Seeding: one `Xoshiro256PlusPlus` stream per fixed batch of trials.
//!
//! The stream for `(master, cell, batch)` is seeded with four outputs of a SplitMix64
//! generator whose state absorbs the three numbers in turn (each followed by a SplitMix64
//! step, so nearby inputs give unrelated seeds). Trials are cut into batches of exactly
//! [`BATCH`]; batch `b` holds trials `b*BATCH .. (b+1)*BATCH`. Since a batch's stream depends
//! only on these numbers, any thread count and any run order give the same results, and a
//! batch (hence a trial) can be replayed alone.
//!
//! Changing anything here changes every seeded result: record it under "Value-breaking".

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Trials per batch (and per RNG stream).
pub const BATCH: u64 = 1 << 16;

/// The RNG type of every stream.
pub type Rng = Xoshiro256PlusPlus;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stream of trial batch `batch` of `cell` (one configuration of an experiment) under
/// `master`.
pub fn stream(master: u64, cell: u64, batch: u64) -> Rng {
    let mut s = 0u64;
    for x in [master, cell, batch] {
        s ^= x;
        s = splitmix(&mut s);
    }
    let mut seed = [0u8; 32];
    for chunk in seed.chunks_exact_mut(8) {
        chunk.copy_from_slice(&splitmix(&mut s).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    #[test]
    fn value_stability() {
        // Pinned: a change here changes every seeded result in diemon (CHANGELOG).
        let mut r = stream(42, 0, 0);
        let got: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(got, PINNED);
    }

    const PINNED: [u64; 3] = [
        4427422853152464211,
        14674475439000431669,
        5689646192054837311,
    ];

    #[test]
    fn streams_differ_by_every_coordinate() {
        let first = |m, c, b| stream(m, c, b).next_u64();
        let base = first(1, 2, 3);
        assert_ne!(base, first(2, 2, 3));
        assert_ne!(base, first(1, 3, 3));
        assert_ne!(base, first(1, 2, 4));
        // Swapping coordinates must not collide either.
        assert_ne!(first(1, 2, 3), first(3, 2, 1));
        assert_eq!(base, first(1, 2, 3));
    }
}
