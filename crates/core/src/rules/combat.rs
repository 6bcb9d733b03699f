//! The rules around an attack in battle: modifiers, who may attack whom, and what a hit does
//! to a larger creation.
//!
//! Each function is one rule of the texts, cited on it; the squad duel
//! ([`crate::scenario::squad`]) calls them and [`super::attack::AttackPlan`] rolls the dice.

use super::{ArmorTie, TargetSize};
use crate::catalog::unit::Structure;
use crate::catalog::weapon::HandClass;
use crate::dice::Die;

/// Inches beyond a weapon's Range: each costs -1 to the Skill roll and -1 to Damage
/// (Ch. 4.2 "-5 to each Skill and Damage die for being five inches Out of Range"; Ch. 8.4).
pub fn out_of_range(distance: u32, range: u32) -> u32 {
    distance.saturating_sub(range)
}

/// The Action modifier for the target's Effective Size (option `target_size`).
pub fn target_size(size: u32, opt: TargetSize) -> i64 {
    match opt {
        TargetSize::Off => 0,
        // Ch. 8.2: "+1 for every 2\" in the Size"; Ch. 8.3: the baby's "-1 ... small target".
        TargetSize::Rated if size == 0 => -1,
        TargetSize::Rated => (size / 2) as i64,
    }
}

/// Firing blind (Ch. 8.3, readings §2).
pub const BLIND_FIRE: i64 = -5;

/// A Disrupted target is "an inanimate object, granting +1 to target with Ranged Attacks,
/// and granting Automatic Hits" to attackers that can touch it (Ch. 4.1).
pub const DISRUPTED_RANGED: i64 = 1;

/// Cover: -1 per third of the target hidden (Ch. 8.3 ShotGun Wedding: "1/3 cover ...
/// reducing her risk by another -1").
pub fn cover(thirds: u32) -> i64 {
    -(thirds.min(3) as i64)
}

/// Gunnery Support: +1 per supporting Gunner, the firing team (shooter plus supporters)
/// "limited to the number of inches in the Weapon Size" (Ch. 8.5). `None` if too many.
pub fn gunnery_support(supporters: u32, weapon_size: u32) -> Option<i64> {
    (supporters < weapon_size).then_some(supporters as i64)
}

/// Whether a ranged weapon is mounted rather than hand-held: beyond Bastard size (1.5x its
/// user's Size) "no ranged weapon is allowed" in the hands (Ch. 8.1 Hand-Held Weapons), so
/// Gunnery's d8 applies (Ch. 8.5).
pub fn mounted(weapon_size: u32, user_size: u32) -> bool {
    HandClass::of(2 * weapon_size, user_size.max(1))
        .and_then(HandClass::ranged_hands)
        .is_none()
}

/// The Action die a shooter rolls with a ranged weapon of `weapon_size`: a Gunner rolls
/// Gunnery's d8 "rather than their Action d6" on a mounted weapon (Ch. 8.5); anyone else,
/// or a Gunner with a hand-held weapon, its own Skill die.
pub fn action_die(skill: Die, gunnery: bool, weapon_size: u32, user_size: u32) -> Die {
    if gunnery && mounted(weapon_size, user_size) {
        Die::D8
    } else {
        skill
    }
}

/// KnockBack in inches from a non-Explosive weapon striking a smaller target: "one inch for
/// every inch of difference between the Weapon Size and the target's Effective Size"
/// (Ch. 8.1).
pub fn knockback(weapon_size: u32, target_size: u32) -> u32 {
    weapon_size.saturating_sub(target_size)
}

/// Parrying a large weapon: "+1 for every 2\" in the Size of the weapon or object being
/// Parried" (Ch. 8.2).
pub fn parry_bonus(weapon_size: u32) -> i64 {
    (weapon_size / 2) as i64
}

/// "A large combatant ... can't Parry Close Combat maneuvers from" opponents "half its Size
/// or smaller" (Ch. 8.2 Too Large).
pub fn can_parry(defender_size: u32, attacker_size: u32) -> bool {
    2 * attacker_size > defender_size
}

/// "The usual Close Combat limit of three attackers for every inch in the target's Size"
/// (Ch. 10.4 Swarms). A Size 0 target counts as one inch, so it can be attacked at all.
pub fn close_combat_limit(target_size: u32) -> u32 {
    3 * target_size.max(1)
}

/// A stomp on a Vermin that is not Disrupted: "treat this as an Attack with Use:0"
/// (Ch. 10.4), by a unit of Size 1" or more.
pub const STOMP_USE: i64 = 0;

/// A Vermin's Bite "is only effective against unarmored Creatures of Structure Level 1 or
/// less"; others the Vermin "cannot engage ... in Close Combat at all" (Ch. 10.4).
pub fn vermin_can_engage(target: Structure, armored: bool) -> bool {
    !armored && target <= Structure::Level(1)
}

/// Vermin and Cannon Fodder die to any hit, without a Damage roll (Ch. 10.4;
/// readings §3: "any hit kills it").
pub fn any_hit_kills(vermin: bool, cannon_fodder: bool) -> bool {
    vermin || cannon_fodder
}

/// Poison is "irrelevant to things that aren't alive" (Ch. 10.4 Non-Living and Undead).
pub fn poison_affects(non_living: bool) -> bool {
    !non_living
}

/// What a successful hit (Damage above Armor) does: a Size 1 creature dies; a larger
/// creation loses 1" of Effective Size and dies at 0 (readings §2; Ch. 8.1 Scorpiosaurus
/// Rex "takes an inch of Size Damage"). Returns the Effective Size left.
pub fn size_damage(effective_size: u32) -> u32 {
    effective_size.saturating_sub(1)
}

/// Whether Damage exactly equal to Armor Disrupts the target (option `armor_tie`): the
/// optional Dismemberment rule knocks a target over (Ch. 10.2), "something bad" is modelled
/// as Disrupted. Amputation needs limbs, which the duel does not track (docs/model.md).
pub fn tie_disrupts(opt: ArmorTie) -> bool {
    !matches!(opt, ArmorTie::Survive)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thieven_out_of_range() {
        // Ch. 4.2: Range 10" at 15" is five inches Out of Range; +2" of Range makes it three.
        assert_eq!(out_of_range(15, 10), 5);
        assert_eq!(out_of_range(15, 12), 3);
        assert_eq!(out_of_range(6, 10), 0);
    }

    #[test]
    fn target_size_modifiers() {
        assert_eq!(target_size(1, TargetSize::Rated), 0);
        assert_eq!(target_size(2, TargetSize::Rated), 1);
        assert_eq!(target_size(3, TargetSize::Rated), 1);
        assert_eq!(target_size(4, TargetSize::Rated), 2);
        assert_eq!(target_size(0, TargetSize::Rated), -1);
        assert_eq!(target_size(4, TargetSize::Off), 0);
        assert_eq!(cover(1), -1);
        assert_eq!(cover(7), -3);
    }

    #[test]
    fn a_gunner_rolls_the_d8_only_on_a_mounted_weapon() {
        // A 3" Launcher is past a minifig's Bastard size (Size 1): mounted.
        assert_eq!(action_die(Die::D6, true, 3, 1), Die::D8);
        assert_eq!(action_die(Die::D6, false, 3, 1), Die::D6);
        // A 1" gun is hand-held by a minifig: its own die even for a Gunner.
        assert_eq!(action_die(Die::D6, true, 1, 1), Die::D6);
        assert!(mounted(3, 1) && !mounted(1, 1));
    }

    #[test]
    fn gunnery_support_is_capped_by_weapon_size() {
        // A 3" weapon: the shooter and two supporters at most, +2.
        assert_eq!(gunnery_support(2, 3), Some(2));
        assert_eq!(gunnery_support(3, 3), None);
        assert_eq!(gunnery_support(0, 1), Some(0));
        // A minifig holds a 1" Launcher; a 2" one (Long for him) must be mounted.
        assert!(mounted(3, 1) && mounted(2, 1) && !mounted(1, 1));
        assert!(!mounted(3, 2), "Bastard-sized for a 2\" creature");
    }

    #[test]
    fn knockback_by_size_difference() {
        // The Automaton's 3" sword knocks a minifig back 2"; a 1" claw knocks nobody back.
        assert_eq!(knockback(3, 1), 2);
        assert_eq!(knockback(1, 1), 0);
        assert_eq!(knockback(5, 0), 5);
        assert_eq!(knockback(2, 3), 0);
    }

    #[test]
    fn parry_bonus_and_too_large() {
        assert_eq!(parry_bonus(1), 0);
        assert_eq!(parry_bonus(3), 1);
        assert_eq!(parry_bonus(5), 2);
        // A Size 4" creation cannot Parry a 2" or a 1" foe; it can Parry a 3" one.
        assert!(!can_parry(4, 2) && !can_parry(4, 1) && can_parry(4, 3));
        assert!(can_parry(1, 1) && can_parry(2, 2));
    }

    #[test]
    fn three_attackers_per_inch() {
        assert_eq!(close_combat_limit(1), 3);
        assert_eq!(close_combat_limit(3), 9);
        assert_eq!(close_combat_limit(0), 3);
    }

    #[test]
    fn vermin_bite_only_the_unarmored_and_soft() {
        assert!(vermin_can_engage(Structure::Zero, false));
        assert!(vermin_can_engage(Structure::Level(1), false));
        assert!(!vermin_can_engage(Structure::Level(2), false));
        assert!(!vermin_can_engage(Structure::Zero, true));
    }

    #[test]
    fn any_hit_kills_vermin_and_cannon_fodder_and_size_damage_counts_down() {
        assert!(any_hit_kills(true, false) && any_hit_kills(false, true));
        assert!(!any_hit_kills(false, false));
        assert_eq!(size_damage(3), 2);
        assert_eq!(size_damage(1), 0);
        assert!(!poison_affects(true) && poison_affects(false));
        assert!(!tie_disrupts(ArmorTie::Survive));
        assert!(tie_disrupts(ArmorTie::Dismemberment) && tie_disrupts(ArmorTie::SomethingBad));
    }
}
