//! The die every hand-written loop rolls for Damage: a d6 that adds a Bonus d6 on its top
//! face, the chain going on while they show 6 (Ch. 4.2).

use rand::distr::{Distribution, Uniform};
use rand_xoshiro::Xoshiro256PlusPlus;

/// One Damage d6 with its chain of Bonus d6es, drawn from `d6`.
#[inline(always)]
pub fn exploding(d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let mut total = 0;
    loop {
        let f = d6.sample(rng);
        total += f;
        if f != 6 {
            return total;
        }
    }
}

/// The Damage of a hit whose natural Skill roll was `skill`: one Damage d6 (with its Bonus
/// d6es) plus `plus`, and one more d6 for the Overskill Benny a natural 6 earns (Ch. 4.2:
/// "one more of the attack's existing Damage dice").
#[inline(always)]
pub fn damage(skill: u32, plus: u32, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let mut total = exploding(d6, rng) + plus;
    if skill == 6 {
        total += exploding(d6, rng);
    }
    total
}

/// One Exp d10 of an Explosion (Ch. 8.4) with its Bonus Dice: a 10 adds a Bonus d6, which
/// chains on 6 (readings §1).
#[allow(dead_code)] // only the Launcher team's loop rolls Exp dice
#[inline(always)]
pub fn exploding_d10(d10: &Uniform<u32>, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let f = d10.sample(rng);
    if f == 10 { f + exploding(d6, rng) } else { f }
}
