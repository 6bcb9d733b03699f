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
//! - Summoned items: SN dice rolled against the items' SN Price (Ch. D.3), rolled and exact
//!   ([`summon`], [`summon_exact`]); no squad duel summons items yet.

use crate::dice::{Die, Faces, Log, Pmf, SnRoll};
use crate::rules::RuleOptions;

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

/// A target's Armor `armor` with `off` subtracted by hostile Armor dice (Ch. 10.3:
/// "Subtracted Armor Dice can never lower a target's Armor below zero"); an `off` below
/// zero (their Fumble Dice net) raises it.
pub fn armor_lowered(armor: i64, off: i64) -> i64 {
    if off <= 0 {
        return armor - off;
    }
    (armor - off).max(armor.min(0))
}

/// Whether a Mind die rolling `mind` suppresses an Action whose Skill die rolled `skill`
/// (Ch. 10.3 Mind: "if the Mind Die rolls higher, the Action is suppressed, otherwise
/// nothing happens").
pub fn suppresses(mind: i64, skill: i64) -> bool {
    mind > skill
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

/// An item's length for a summoning (Ch. D.3 Summoned Items).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ItemSize {
    /// A Short item: SN Price 2.
    Short,
    /// A Medium item: SN Price 3.
    Medium,
    /// A Long item: SN Price 4.
    Long,
}

/// An item's SuperNatural Price: "Short items have a Price of 2, Medium items have a Price
/// of 3, Long items have a Price of 4, and any item with Ranged capability adds 1".
pub fn item_price(size: ItemSize, ranged: bool) -> u32 {
    let base = match size {
        ItemSize::Short => 2,
        ItemSize::Medium => 3,
        ItemSize::Long => 4,
    };
    base + ranged as u32
}

/// The lengths of the minifig weapons for a summoning (Ch. D.3: "Short ... Medium ...
/// Long ... any item with Ranged capability adds 1"). The texts name the lengths, not which
/// weapon has which; diemon reads them off the minifig weapon table (readings §3),
/// where each weapon's CP is exactly the SN Price of this length: Hand Weapon 2, Heavy
/// Weapon 3, Two-Handed Weapon 4, Short-Ranged Weapon 3, Long-Ranged Weapon 5.
pub const ITEM_LENGTHS: &[(&str, ItemSize, bool)] = &[
    ("hand-weapon", ItemSize::Short, false),
    ("heavy-weapon", ItemSize::Medium, false),
    ("two-handed-weapon", ItemSize::Long, false),
    ("short-ranged-weapon", ItemSize::Short, true),
    ("long-ranged-weapon", ItemSize::Long, true),
];

/// Item `key`'s length and whether it is Ranged, where diemon knows them ([`ITEM_LENGTHS`]).
pub fn item_length(key: &str) -> Option<(ItemSize, bool)> {
    ITEM_LENGTHS
        .iter()
        .find(|x| x.0 == key)
        .map(|&(_, l, r)| (l, r))
}

/// What a summoning did: "If the roll is equal or higher, the unit receives the objects
/// ... If the roll is lower, the Dice are wasted ... If all of the Dice roll a 1, then the
/// entire summoning is a Fumble".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Summoning {
    /// The roll met the SN Price: the unit receives the objects.
    Summoned,
    /// The roll fell short: the dice are wasted.
    Wasted,
    /// Every die rolled a 1: the summoning is a Fumble.
    Fumbled,
}

/// Rolls `dice` (SN dice, each with its Bonus and Fumble Dice) against `price`.
pub fn summon<F: Faces + ?Sized, L: Log + ?Sized>(
    dice: &[Die],
    price: u32,
    opts: &RuleOptions,
    faces: &mut F,
    log: &mut L,
) -> Summoning {
    let mut total = 0;
    let mut all_ones = !dice.is_empty();
    for &die in dice {
        let o = SnRoll { count: 1, die }.roll(opts, faces, log, 0);
        total += o.total;
        all_ones &= o.all_ones;
    }
    if all_ones {
        Summoning::Fumbled
    } else if total >= price as i64 {
        Summoning::Summoned
    } else {
        Summoning::Wasted
    }
}

/// Exact chances of [`summon`]: (P(summoned), P(fumbled)), the SN chains cut at `eps`.
pub fn summon_exact(dice: &[Die], price: u32, opts: &RuleOptions, eps: f64) -> (f64, f64) {
    let per = eps / dice.len().max(1) as f64;
    let mut total = Pmf::point(0);
    let mut p_all = 1.0;
    // Split each die's table by its first face: all ones vs the rest, to keep the Fumbled
    // summoning (every die a 1) apart from a high total.
    let mut ones = Pmf::point(0);
    for &die in dice {
        let x = SnRoll { count: 1, die }.exact(opts, per, 0.0);
        total = total.add(&x.total);
        ones = ones.add(&x.given_all_ones);
        p_all *= x.p_all_ones;
    }
    if dice.is_empty() {
        return (0.0, 0.0);
    }
    let p_high = total.p_at_least(price as i64);
    let p_high_all_ones = p_all * ones.p_at_least(price as i64);
    (p_high - p_high_all_ones, p_all)
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
    fn armor_dice_lower_armor_to_zero_at_most() {
        assert_eq!(armor_lowered(4, 3), 1);
        assert_eq!(armor_lowered(4, 6), 0);
        // Already below zero (a burning minifig's d4): no lower, and no higher.
        assert_eq!(armor_lowered(-1, 2), -1);
        // A Fumble Die's net: the opponent adds it back.
        assert_eq!(armor_lowered(4, -2), 6);
    }

    #[test]
    fn a_mind_die_must_roll_higher_to_suppress() {
        assert!(suppresses(5, 4));
        assert!(!suppresses(4, 4));
        assert!(!suppresses(3, 4));
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

    #[test]
    fn each_minifig_weapons_sn_price_is_its_cp() {
        // The reading of ITEM_LENGTHS: the 2010 table's CP equals the SN Price.
        for &(key, length, ranged) in ITEM_LENGTHS {
            let item = crate::catalog::armory::ARMORY
                .iter()
                .find(|i| i.key == key)
                .expect("an armory item");
            let cp = item.cost.expect("priced");
            assert_eq!(
                cp,
                crate::catalog::cp::Cp::whole(item_price(length, ranged) as i64),
                "{key}"
            );
        }
        assert_eq!(item_length("bazooka"), None);
    }

    #[test]
    fn item_prices_by_the_table() {
        // Short 2, Medium 3, Long 4, Ranged +1: a Hand Weapon 2, a Long-Ranged Weapon 4.
        assert_eq!(item_price(ItemSize::Short, false), 2);
        assert_eq!(item_price(ItemSize::Medium, true), 4);
        assert_eq!(item_price(ItemSize::Long, false), 4);
    }

    #[test]
    fn a_summoning_succeeds_at_its_price_and_fumbles_on_all_ones() {
        use crate::dice::{NoLog, Script};
        let o = RuleOptions::default();
        let roll = |dice: &[Die], price, script: &[(Die, u32)]| {
            let mut f = Script::new(script);
            let r = summon(dice, price, &o, &mut f, &mut NoLog);
            assert!(f.is_done());
            r
        };
        // An SN d6 showing 2 meets a Short item's Price 2; a 3 and a 1 (its Fumble Die
        // rolled by the opponent: 2) make 1 < 2, wasted; two 1s (Fumble Dice 2 and 3)
        // fumble the whole summoning.
        assert_eq!(roll(&[Die::D6], 2, &[(Die::D6, 2)]), Summoning::Summoned);
        let d6 = Die::D6;
        assert_eq!(
            roll(&[d6, d6], 2, &[(d6, 3), (d6, 1), (d6, 2)]),
            Summoning::Wasted
        );
        let s = [(d6, 1), (d6, 2), (d6, 1), (d6, 3)];
        assert_eq!(roll(&[d6, d6], 2, &s), Summoning::Fumbled);
    }

    #[test]
    fn summoning_exact_agrees_with_rolling() {
        use rand::SeedableRng;
        use rand_xoshiro::Xoshiro256PlusPlus;
        let mut o = RuleOptions::default();
        // With Fumbles ignored, one SN d6 meets Price 2 unless it shows 1: exactly 5/6.
        o.fumble = crate::rules::FumbleUse::Ignore;
        let (p, f) = summon_exact(&[Die::D6], 2, &o, 1e-12);
        assert!((p - 5.0 / 6.0).abs() < 1e-12 && (f - 1.0 / 6.0).abs() < 1e-12);
        // Defaults, a d8 and a d6 against a Long Ranged item (5): 400k seeded rolls within
        // z = 4.9 of the exact chance (two-sided alpha 1e-6).
        let o = RuleOptions::default();
        let dice = [Die::D8, Die::D6];
        let (p, f) = summon_exact(&dice, 5, &o, 1e-12);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(10);
        let n = 400_000;
        let (mut ok, mut fumbled) = (0u32, 0u32);
        for _ in 0..n {
            match summon(&dice, 5, &o, &mut rng, &mut crate::dice::NoLog) {
                Summoning::Summoned => ok += 1,
                Summoning::Fumbled => fumbled += 1,
                Summoning::Wasted => {}
            }
        }
        for (k, q) in [(ok, p), (fumbled, f)] {
            let se = (q * (1.0 - q) / n as f64).sqrt();
            let z = (k as f64 / n as f64 - q) / se;
            assert!(
                z.abs() < 4.9,
                "p {q}, rolled {}, z {z}",
                k as f64 / n as f64
            );
        }
    }
}
