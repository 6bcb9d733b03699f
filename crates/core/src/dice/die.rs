//! The physical dice and where their faces come from.
//!
//! [`Die`] is one of the polyhedra the texts use. Faces come from a [`Faces`] source: any
//! seeded RNG (through rand's unbiased, prebuilt `Uniform`), or a [`Script`] of loaded dice
//! for tests, which also checks that the rules asked for the die the test expected.

use std::fmt;

use rand::Rng;
use rand::distr::{Distribution, Uniform};

use super::pmf::Pmf;

/// A single die. BrikWars uses d4 to d12; the d20 belongs to BrikThulhu alone (Ch. D.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Die {
    /// A four-sided die.
    D4,
    /// A six-sided die.
    D6,
    /// An eight-sided die.
    D8,
    /// A ten-sided die.
    D10,
    /// A twelve-sided die.
    D12,
    /// A twenty-sided die.
    D20,
}

impl Die {
    /// Every die, smallest first.
    pub const ALL: [Die; 6] = [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12, Die::D20];

    /// Number of faces, which is also the top face.
    #[inline]
    pub const fn sides(self) -> u32 {
        match self {
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
            Die::D10 => 10,
            Die::D12 => 12,
            Die::D20 => 20,
        }
    }

    /// Its place in [`Die::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Die::D4 => 0,
            Die::D6 => 1,
            Die::D8 => 2,
            Die::D10 => 3,
            Die::D12 => 4,
            Die::D20 => 5,
        }
    }

    /// The die with `n` sides, if BrikWars has one.
    pub fn from_sides(n: u32) -> Option<Die> {
        Die::ALL.into_iter().find(|d| d.sides() == n)
    }

    /// The die written `d6` (or `1d6`, `D6`), if BrikWars has one.
    pub fn from_name(s: &str) -> Option<Die> {
        let t = s.trim().to_ascii_lowercase();
        let t = t.strip_prefix('1').unwrap_or(&t);
        t.strip_prefix('d')?.parse().ok().and_then(Die::from_sides)
    }

    /// The fair distribution of one natural roll.
    pub fn pmf(self) -> Pmf {
        Pmf::uniform(1, self.sides() as i64)
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

/// rand's unbiased `Uniform` over `1..=sides`. Each arm builds it from constants, so the
/// compiler folds the set-up division away: no table, no lazy initialisation, nothing that
/// pins the RNG state to memory in an inlined trial loop.
impl Distribution<u32> for Die {
    #[inline(always)]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        #[inline(always)]
        fn fair<R: Rng + ?Sized, const N: u32>(rng: &mut R) -> u32 {
            match Uniform::new_inclusive(1, N) {
                Ok(u) => u.sample(rng),
                Err(_) => unreachable!("1..=N is never empty for a die"),
            }
        }
        match self {
            Die::D4 => fair::<R, 4>(rng),
            Die::D6 => fair::<R, 6>(rng),
            Die::D8 => fair::<R, 8>(rng),
            Die::D10 => fair::<R, 10>(rng),
            Die::D12 => fair::<R, 12>(rng),
            Die::D20 => fair::<R, 20>(rng),
        }
    }
}

/// A source of die faces: a seeded RNG in simulations, a [`Script`] in loaded-dice tests.
pub trait Faces {
    /// The natural face shown by one roll of `die`, in `1..=die.sides()`.
    fn face(&mut self, die: Die) -> u32;
}

impl<R: Rng + ?Sized> Faces for R {
    #[inline(always)]
    fn face(&mut self, die: Die) -> u32 {
        die.sample(self)
    }
}

/// Loaded dice: hands out scripted faces in order and checks that each was asked for by the
/// expected die. Built for tests, so a mismatch panics with the position that went wrong.
#[derive(Clone, Debug)]
pub struct Script {
    rolls: Vec<(Die, u32)>,
    next: usize,
}

impl Script {
    /// # Panics
    /// If a face is outside its die.
    pub fn new(rolls: &[(Die, u32)]) -> Script {
        for (i, &(d, f)) in rolls.iter().enumerate() {
            assert!(
                (1..=d.sides()).contains(&f),
                "scripted roll {i}: {d} cannot show {f}"
            );
        }
        Script {
            rolls: rolls.to_vec(),
            next: 0,
        }
    }

    /// True once every scripted face was used: a test asserts this so that a rule which
    /// silently skips a die fails.
    pub fn is_done(&self) -> bool {
        self.next == self.rolls.len()
    }

    /// How many faces were used so far.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl Faces for Script {
    fn face(&mut self, die: Die) -> u32 {
        let i = self.next;
        let Some(&(want, f)) = self.rolls.get(i) else {
            panic!("the rules rolled a {die} after the script ran out ({i} rolls scripted)");
        };
        assert_eq!(
            want, die,
            "scripted roll {i} is a {want}, but the rules rolled a {die}"
        );
        self.next += 1;
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_the_place_in_all() {
        for (i, d) in Die::ALL.iter().enumerate() {
            assert_eq!(d.index(), i, "{d}");
        }
    }
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn faces_are_rands_uniform_draw_for_draw() {
        // The constant-folded arms must not change a single seeded face.
        for d in Die::ALL {
            let u = Uniform::new_inclusive(1, d.sides()).unwrap();
            let mut ours = Xoshiro256PlusPlus::seed_from_u64(7);
            let mut rands = ours.clone();
            for _ in 0..10_000 {
                assert_eq!(d.sample(&mut ours), u.sample(&mut rands), "{d}");
            }
        }
    }

    #[test]
    fn sides_round_trip() {
        for d in Die::ALL {
            assert_eq!(Die::from_sides(d.sides()), Some(d));
        }
        assert_eq!(Die::from_sides(7), None);
        assert_eq!(Die::from_name("d8"), Some(Die::D8));
        assert_eq!(Die::from_name(" 1D12"), Some(Die::D12));
        assert_eq!(Die::from_name("d7"), None);
        assert_eq!(Die::from_name("2d6"), None);
        assert_eq!(Die::D10.to_string(), "d10");
    }

    #[test]
    fn rng_faces_stay_on_the_die() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for d in Die::ALL {
            let mut seen = vec![false; d.sides() as usize];
            for _ in 0..2000 {
                let f = rng.face(d);
                assert!((1..=d.sides()).contains(&f));
                seen[f as usize - 1] = true;
            }
            assert!(seen.iter().all(|&s| s), "{d} never showed some face");
        }
    }

    #[test]
    fn script_hands_out_in_order() {
        let mut s = Script::new(&[(Die::D6, 6), (Die::D10, 1)]);
        assert_eq!(s.face(Die::D6), 6);
        assert!(!s.is_done());
        assert_eq!(s.face(Die::D10), 1);
        assert!(s.is_done());
    }

    #[test]
    #[should_panic(expected = "is a d6, but the rules rolled a d8")]
    fn script_catches_the_wrong_die() {
        Script::new(&[(Die::D6, 3)]).face(Die::D8);
    }
}
