//! Burning minifigs (Ch. 8.3 Catching On Fire).
//!
//! A minifig still on fire at the beginning of his turn makes a Burning Roll on 1d4: on a 1
//! the fire goes out; on anything else it keeps burning, he takes a point of Grinding Damage
//! (one limb useless, as if Amputated) and the fire spreads to one flammable object he
//! touches. While he burns he takes -1d4 to Action Rolls and Armor.

use crate::dice::{Die, DieEvent, Faces, Log, Pmf, Role};

/// The chance a Burning Roll puts the fire out: a 1 on 1d4.
pub const P_OUT: f64 = 0.25;

/// One Burning Roll: `true` if the fire goes out.
pub fn burning_roll<F: Faces + ?Sized, L: Log + ?Sized>(faces: &mut F, log: &mut L) -> bool {
    burning_face(faces, log) == 1
}

/// One Burning Roll's face: 1 puts the fire out; a 4pion's Burning spreads to an object of
/// a lower Weight class (Ch. D.1).
pub fn burning_face<F: Faces + ?Sized, L: Log + ?Sized>(faces: &mut F, log: &mut L) -> u32 {
    d4(faces, log, 1) as u32
}

/// One plain d4, logged as counted with `sign`: its face.
fn d4<F: Faces + ?Sized, L: Log + ?Sized>(faces: &mut F, log: &mut L, sign: i64) -> i64 {
    let face = faces.face(Die::D4);
    log.die(DieEvent {
        term: 0,
        die: Die::D4,
        face,
        role: Role::Regular,
        counted: sign * face as i64,
    });
    face as i64
}

/// A minifig's Weight class is at most this: a burning minifig's fire "spreads to any one
/// flammable object with a Weight class of 1 or below ... potentially including other
/// minifigs" (Ch. 8.3).
pub const MINIFIG_WEIGHT: u32 = 1;

/// Whether a 4pion's Burning Roll `roll` spreads to an object of Weight class `weight`:
/// "as long as the object has a Weight class less than the number rolled" (Ch. D.1).
pub fn spreads_to(roll: u32, weight: u32) -> bool {
    roll > 1 && weight < roll
}

/// The -1d4 a burning minifig takes "to Action Rolls and Armor" (Ch. 8.3), rolled each
/// time: the d4's face, to subtract.
pub fn penalty<F: Faces + ?Sized, L: Log + ?Sized>(faces: &mut F, log: &mut L) -> i64 {
    d4(faces, log, -1)
}

/// The exact distribution of limbs a burning minifig loses over his next `turns` turns
/// (one per Burning Roll that does not put the fire out; the fire is out for good after a
/// 1). With 4 limbs, more than 4 losses still count as 4 (nothing more burns off).
pub fn limbs_lost(turns: u32) -> Pmf {
    let mut pairs = Vec::new();
    let mut alight = 1.0;
    for k in 0..turns {
        // Out on roll k+1, after k limbs.
        pairs.push(((k as i64).min(4), alight * P_OUT));
        alight *= 1.0 - P_OUT;
    }
    pairs.push(((turns as i64).min(4), alight));
    Pmf::from_pairs(&pairs, 0.0)
}

/// Mean turns a minifig stays alight (Burning Rolls until a 1): 1 / P_OUT = 4.
pub fn mean_turns_alight() -> f64 {
    1.0 / P_OUT
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{NoLog, Script};

    #[test]
    fn a_4pions_burning_spreads_to_lighter_objects() {
        // "a Weight class less than the number rolled": a minifig (Weight 1 or below)
        // catches on a 2 or more; a 1 burns the 4pion out instead.
        assert!(!spreads_to(1, 0));
        assert!(spreads_to(2, MINIFIG_WEIGHT));
        assert!(!spreads_to(3, 3));
        assert!(spreads_to(4, 3));
    }

    #[test]
    fn a_one_puts_the_fire_out() {
        let mut dice = Script::new(&[(Die::D4, 1), (Die::D4, 3)]);
        assert!(burning_roll(&mut dice, &mut NoLog));
        assert!(!burning_roll(&mut dice, &mut NoLog));
    }

    #[test]
    fn limbs_lost_over_the_next_turns() {
        // Two turns: out at once (1/4): 0 limbs; out on the second (3/4 x 1/4): 1; still
        // burning after both (9/16): 2.
        let p = limbs_lost(2);
        assert!((p.prob(0) - 0.25).abs() < 1e-12);
        assert!((p.prob(1) - 0.1875).abs() < 1e-12);
        assert!((p.prob(2) - 0.5625).abs() < 1e-12);
        assert!((p.mass() - 1.0).abs() < 1e-12);
        // Limbs run out at four.
        assert_eq!(limbs_lost(10).max_value(), 4);
        assert_eq!(mean_turns_alight(), 4.0);
    }

    #[test]
    fn rolled_burning_agrees_with_the_exact_table() {
        // 40,000 burning minifigs over 3 turns, seeded; each bin within 5 standard errors of
        // the exact probability (a normal bound, false alarm rate below 1e-6 per bin).
        let mut rng = crate::sim::stream(9, 0, 0);
        let n = 40_000;
        let mut counts = [0u32; 5];
        for _ in 0..n {
            let mut limbs = 0;
            for _ in 0..3 {
                if burning_roll(&mut rng, &mut NoLog) {
                    break;
                }
                limbs += 1;
            }
            counts[limbs] += 1;
        }
        let exact = limbs_lost(3);
        for (k, &c) in counts.iter().enumerate() {
            let p = exact.prob(k as i64);
            let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
            let got = c as f64 / n as f64;
            assert!((got - p).abs() <= 5.0 * se, "{k} limbs: {got} vs {p}");
        }
    }
}
