//! The physical-limit baseline: a hand-written, single-purpose loop of the default minifig
//! melee duel (Skill d6 vs Use 2, Damage 1d6 with Bonus d6es vs Armor 4, Overskill Benny
//! on a natural 6 adds one more Damage d6, d6 roll-off for the first attack). Same rules as
//! `diemon duel`, with nothing general left: no expressions, no options, no logging.

use rand::distr::{Distribution, Uniform};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::dice;

/// Returns how many of `n` duels side A won.
pub fn duels(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    let d6 = Uniform::new_inclusive(1u32, 6).unwrap();
    let mut a_wins = 0;
    for _ in 0..n {
        let mut a_turn = d6.sample(rng) % 2 == 1;
        loop {
            let skill = d6.sample(rng);
            if skill >= 2 && dice::damage(skill, 0, &d6, rng) > 4 {
                a_wins += a_turn as u64;
                break;
            }
            a_turn = !a_turn;
        }
    }
    a_wins
}
