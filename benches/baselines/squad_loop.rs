//! The floor for squad battles (issue 27): a hand-written loop of the default 6 v 6 battle of
//! minifigs with Hand Weapons, 12" apart, with nothing general left. Two sides of six stand
//! on a line; sides alternate turns (a d6 roll-off for the first). In its turn each standing
//! unit walks up to 5" toward the nearest standing enemy and, once within 1", strikes it:
//! Skill d6 against Use 2 (a natural 1 fails; a natural 6 adds a Damage die), then 1d6 with
//! chaining Bonus d6es against Armor 4, felling it when more. No Responses, no Knockback, no
//! formation: cruder than diemon's battle, it is the bookkeeping's lower bound, not its twin.

use rand::distr::{Distribution, Uniform};
use rand_xoshiro::Xoshiro256PlusPlus;

const SIDE: usize = 6;
/// Turns before a battle is called a draw (diemon's default cap).
const TURNS: u32 = 100;

/// Returns how many of `n` battles side A won (every B felled while an A stands).
pub fn battles(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    let d6 = Uniform::new_inclusive(1u32, 6).unwrap();
    let exploding = |rng: &mut Xoshiro256PlusPlus| {
        let mut total = 0;
        loop {
            let f = d6.sample(rng);
            total += f;
            if f != 6 {
                return total;
            }
        }
    };
    let mut a_wins = 0;
    for _ in 0..n {
        // Positions along the line in inches (A at 0, B at 12), and who stands.
        let mut pos = [[0.0f32; SIDE], [12.0; SIDE]];
        let mut up = [[true; SIDE]; 2];
        let mut standing = [SIDE; 2];
        let mut side = (d6.sample(rng) % 2) as usize;
        for _ in 0..TURNS {
            let foe = 1 - side;
            for i in 0..SIDE {
                if !up[side][i] {
                    continue;
                }
                // The nearest standing enemy.
                let mut target = usize::MAX;
                let mut gap = f32::MAX;
                for j in 0..SIDE {
                    let d = (pos[foe][j] - pos[side][i]).abs();
                    if up[foe][j] && d < gap {
                        gap = d;
                        target = j;
                    }
                }
                if target == usize::MAX {
                    break;
                }
                if gap > 1.0 {
                    let step = (gap - 1.0).min(5.0);
                    pos[side][i] += step * (pos[foe][target] - pos[side][i]).signum();
                    gap -= step;
                }
                if gap <= 1.0 {
                    let skill = d6.sample(rng);
                    if skill >= 2 {
                        let mut dmg = exploding(rng);
                        if skill == 6 {
                            dmg += exploding(rng);
                        }
                        if dmg > 4 {
                            up[foe][target] = false;
                            standing[foe] -= 1;
                        }
                    }
                }
            }
            if standing[foe] == 0 {
                a_wins += (side == 0) as u64;
                break;
            }
            side = foe;
        }
    }
    a_wins
}
