//! SuperNatural Effects in battle (Ch. D.3, D.4; Ch. 10.3): what spending SN dice on an
//! Aspect does to a fight. The dice themselves (Bonus chains, Fumbles) are
//! [`crate::dice::supernatural`]; the squad duel decides when to spend them
//! (`scenario::squad::policy::Spend`).
//!
//! - Each die spent gives its owner a cumulative -1 Skill until it returns (Ch. 10.3), at
//!   the beginning of the owner's turn, unless it stays out in a Lasting Effect (Ch. D.3).
//! - Damage dice by size (Ch. D.4): a d4 is Fire, a d8 Blast (-1 Damage an inch from the
//!   source), a d10 Explosion (+2" radius, friend and foe alike), a d12 ignores Deflection.
//! - Armor and Blessings are Size Dependent (Ch. 10.3): a target of Size s takes s dice per
//!   die of Effect, the smallest die of each group deciding.
//! - A Blessing needs an SN die at least the size of the Skill die (Ch. D.4).

use crate::dice::Die;

/// Most SN dice one unit may own in a squad duel: the trial marks them in one byte.
pub const MAX_SN_DICE: usize = 8;

/// The Skill penalty for `out` SN dice spent and not yet returned (Ch. 10.3: "a cumulative
/// -1 Skill Penalty until that Die is returned").
pub fn skill_penalty(out: u32) -> i64 {
    -(out as i64)
}

/// Radius in inches of an Effect with `d10s` SN d10s spent on it (Ch. D.4: "each one
/// increases the final Effect's radius by two inches ... whether desired or not").
pub fn radius_inches(d10s: u32) -> u32 {
    2 * d10s
}

/// What Blast Damage (SN d8s) keeps `inches` from its source: "-1 Damage for every inch
/// between the source of the attack and the target" (Ch. 10.3), never below nothing.
pub fn blast_damage(d8_total: i64, inches: u32) -> i64 {
    if d8_total <= 0 {
        return d8_total; // a Fumbled d8 subtracts in full: the loss is the caster's, not his foe's
    }
    (d8_total - inches as i64).max(0)
}

/// Whether an SN die of Damage is Deflected by a Parry: "Deflection is never effective
/// against d12s" (Ch. D.4).
pub fn deflectable(die: Die) -> bool {
    die != Die::D12
}

/// Whether an SN die may Bless or Curse a Skill die: "of its own die size or smaller"
/// (Ch. D.4).
pub fn can_bless(sn: Die, skill: Die) -> bool {
    sn >= skill
}

/// The dice of a Size Dependent Effect made with `dice` on a target of Size `size`
/// (Ch. 10.3): the dice largest first, grouped `size` at a time, each full group giving its
/// smallest die. Writes them to the front of `dice` and returns how many there are.
pub fn size_dependent(dice: &mut [Die], size: u32) -> usize {
    let s = size.max(1) as usize;
    dice.sort_unstable_by(|a, b| b.cmp(a));
    let n = dice.len() / s;
    for g in 0..n {
        dice[g] = dice[g * s + s - 1];
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spent_dice_cost_a_point_of_skill_each() {
        assert_eq!(skill_penalty(0), 0);
        assert_eq!(skill_penalty(3), -3);
    }

    #[test]
    fn d10s_widen_and_d8s_fade() {
        assert_eq!(radius_inches(0), 0);
        assert_eq!(radius_inches(2), 4);
        assert_eq!(blast_damage(7, 3), 4);
        assert_eq!(blast_damage(2, 5), 0, "not below nothing");
        assert_eq!(blast_damage(-3, 5), -3, "a Fumble's loss stands");
        assert!(deflectable(Die::D10) && !deflectable(Die::D12));
    }

    #[test]
    fn blessings_need_a_die_as_large_as_the_skill() {
        assert!(can_bless(Die::D8, Die::D6));
        assert!(can_bless(Die::D6, Die::D6));
        assert!(!can_bless(Die::D4, Die::D6));
    }

    #[test]
    fn size_dependent_effects_group_dice_by_size() {
        use Die::*;
        // Ch. 10.3: "Three Armor d6es and an Armor d8 would raise the minifig's Armor by
        // +3d6+1d8, but the Horse's by only +2d6."
        let mut d = [D6, D6, D8, D6];
        assert_eq!(size_dependent(&mut d, 1), 4);
        assert_eq!(d, [D8, D6, D6, D6]);
        let mut d = [D6, D6, D8, D6];
        assert_eq!(size_dependent(&mut d, 2), 2);
        assert_eq!(&d[..2], &[D6, D6]);
        // "Four Armor d6es could raise ... a Size 20\" castle" section: none for Size 5.
        let mut d = [D6; 4];
        assert_eq!(size_dependent(&mut d, 5), 0);
    }
}
