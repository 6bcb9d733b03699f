//! One attack: Skill roll against Use, then Damage against Armor.
//!
//! - Hit: the Skill roll plus modifiers meets the action's Use rating; a Critical Failure
//!   (natural 1) always misses (Ch. 4.2; Ch. D.4 Action Modifiers; readings §2).
//! - Overskill (natural 6+) earns one Benny (Ch. 4.2), spent by the `overskill` policy:
//!   +1d6 to the Skill roll (its Bonus Dice included, "still add regular +1d6es"), or one
//!   more of the attack's own Damage dice ("a 1d6+1 Rifle gets an Overskill bonus of +1d6").
//! - Damage greater than Armor succeeds; equal is a tie (`armor_tie`, Ch. 10.2); less does
//!   nothing. Armor is rolled fresh for each hit when it is dice.

mod plain;

pub use plain::PlainAttack;

use super::{BonusChain, OverskillPolicy, RuleOptions};
use crate::dice::bonus::{DieUse, bonus_die, roll_with_bonus};
use crate::dice::expr::RollPlan;
use crate::dice::skill::SkillPlan;
use crate::dice::{Die, Expr, Faces, Log, Role, SkillRoll};

/// The attacker's side of an attack: Skill die, the weapon's Use and Damage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attacker {
    /// The attacker's Skill roll.
    pub skill: SkillRoll,
    /// The weapon's Use rating.
    pub use_rating: i64,
    /// The weapon's Damage roll.
    pub damage: Expr,
}

/// What an attack did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttackResult {
    /// The Skill die showed a natural 1.
    CriticalFailure,
    /// The Skill roll fell short of Use.
    Miss,
    /// Hit, but Damage was below Armor.
    NoEffect,
    /// Damage exactly equal to Armor (`armor_tie`).
    Tie,
    /// Damage beat Armor: a minifig dies.
    Kill,
}

impl Attacker {
    /// This attack against `armor` under `opts`, resolved once for rolling many times.
    pub fn against(&self, armor: &Expr, opts: &RuleOptions) -> AttackPlan {
        let damage = self.damage.plan(opts);
        let benny_damage = match opts.overskill {
            OverskillPolicy::Skill => None,
            _ => damage.benny_die(opts.overskill_die),
        };
        AttackPlan {
            skill: self.skill.plan(opts),
            use_rating: self.use_rating,
            benny_skill: benny_skill_d6(opts),
            benny_damage,
            chain: opts.bonus_chain,
            damage,
            armor: armor.plan(opts),
        }
    }
}

/// The Overskill Benny's +1d6 to a Skill roll (Ch. 4.2), if the `overskill` policy allows
/// it: `Some(that d6's Bonus Die)`. Shared by attacks and `dist --use`.
pub fn benny_skill_d6(opts: &RuleOptions) -> Option<Option<Die>> {
    (opts.overskill != OverskillPolicy::Damage).then(|| bonus_die(Die::D6, DieUse::Regular, opts))
}

/// The Overskill Benny's d6 on a Skill roll or a Sprint, with its Bonus Die `bonus` (Ch.
/// 4.2: "+1d6 on the Action roll", "+1d6 inches to the distance of a Sprint"): one roll for
/// every place that spends it.
#[inline(always)]
pub fn benny_d6<F: Faces + ?Sized, L: Log + ?Sized>(
    bonus: Option<Die>,
    chain: BonusChain,
    faces: &mut F,
    log: &mut L,
) -> i64 {
    roll_with_bonus(Die::D6, bonus, chain, faces, log, 0, Role::Bonus)
}

/// Most Damage dice one hit can have deflected; weapons with more are refused by the catalog
/// kinds that Parry applies to.
pub const MAX_DEFLECTABLE: usize = 64;

/// The Deflection on one hit: `layers` from a Parry, which reach every die but d12s (Ch.
/// 8.2), and SuperNatural levels, each reaching Damage dice of its own die's size or
/// smaller (Ch. D.4 Deflection), counted by the die's place in [`Die::ALL`]; and `less`,
/// an enemy's SN dice that "remove one level of Deflection against d4s and d6es" (a d6's)
/// and so on, by the same count.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Deflection {
    /// Layers from a Parry.
    pub layers: u32,
    /// SuperNatural Deflection levels, by die size.
    pub sn: [u8; 6],
    /// Levels an enemy's SN dice remove, by die size.
    pub less: [u8; 6],
}

impl Deflection {
    /// `layers` of a Parry.
    pub fn layers(layers: u32) -> Deflection {
        Deflection {
            layers,
            ..Deflection::default()
        }
    }

    /// No Deflection at all.
    pub fn is_none(&self) -> bool {
        self.layers == 0 && self.sn == [0; 6]
    }

    /// Removes the dice (total, die) that this Deflection takes, the defender's best use:
    /// the highest totals first, each by the smallest level that reaches it (the levels'
    /// reaches are nested, so this takes the most). Dice below zero stay (a Fumble Die's
    /// loss is the defender's gain). Returns the sum removed.
    fn remove(&self, dice: &mut [(i64, Die)]) -> i64 {
        self.remove_left(dice).0
    }

    /// [`Deflection::remove`], which also leaves the dice it did not take at the front of
    /// `dice`: (the sum removed, how many are left).
    fn remove_left(&self, dice: &mut [(i64, Die)]) -> (i64, usize) {
        let mut left = *self;
        // An enemy's level of size `l` narrows the widest level it reaches (a layer, else the
        // largest SN level) to the dice above `l`: a band (lo, hi] of die places, `hi` past
        // the last for a layer's. One a level is enough for the SN dice a unit holds.
        let mut bands = [(0usize, 0usize); MAX_SN_LEVELS];
        let mut nb = 0;
        for l in (0..Die::ALL.len()).rev() {
            for _ in 0..self.less[l] {
                let narrowed = if left.layers > 0 {
                    left.layers -= 1;
                    Some(usize::MAX)
                } else if let Some(s) = (0..Die::ALL.len()).rev().find(|&s| left.sn[s] > 0) {
                    left.sn[s] -= 1;
                    (s > l).then_some(s)
                } else {
                    None
                };
                if let Some(hi) = narrowed
                    && nb < MAX_SN_LEVELS
                {
                    bands[nb] = (l, hi);
                    nb += 1;
                }
            }
        }
        let mut n = dice.len();
        let mut removed = 0;
        // The examined dice it did not take (a bit per place; at most MAX_DEFLECTABLE).
        let mut passed = 0u64;
        while n > 0 && (!left.is_none() || nb > 0) {
            let (i, &(top, die)) = dice[..n]
                .iter()
                .enumerate()
                .max_by_key(|&(i, &(t, _))| (t, std::cmp::Reverse(i)))
                .expect("n > 0");
            if top < 0 {
                break;
            }
            // A d20 (BrikThulhu's) is beyond every SN level; a Parry still takes it.
            let sn = (die != Die::D20)
                .then(|| (die.index()..Die::ALL.len()).find(|&l| left.sn[l] > 0))
                .flatten();
            // The narrowest band that reaches it (a layer's reaches a d20 too).
            let at = die.index();
            let band = (0..nb)
                .filter(|&b| {
                    bands[b].0 < at
                        && (at <= bands[b].1 && die != Die::D20 || bands[b].1 == usize::MAX)
                })
                .min_by_key(|&b| bands[b].1);
            let taken = if let Some(l) = sn {
                left.sn[l] -= 1;
                true
            } else if let Some(b) = band {
                bands[b] = bands[nb - 1];
                nb -= 1;
                true
            } else if left.layers > 0 {
                left.layers -= 1;
                true
            } else {
                false
            };
            dice[i] = dice[n - 1];
            dice[n - 1] = (top, die);
            n -= 1;
            if taken {
                removed += top;
            } else {
                // Past the unexamined ones; gathered back below.
                passed |= 1u64 << n;
            }
        }
        // The dice it passed over join the unexamined ones at the front.
        let mut kept = n;
        for j in n..dice.len() {
            if passed & (1u64 << j) != 0 {
                dice.swap(kept, j);
                kept += 1;
            }
        }
        (removed, kept)
    }
}

/// Most Deflection levels an enemy's SN dice narrow on one hit (a unit holds at most
/// [`crate::rules::supernatural::MAX_SN_DICE`]).
const MAX_SN_LEVELS: usize = 8;

/// Most layers the quick path of [`AttackPlan::damage_deflected`] keeps totals for.
const TOP_LAYERS: usize = 4;

/// The highest totals seen, highest first (-1: none yet; a total below zero is never
/// taken, as in [`Deflection::remove`]).
#[derive(Clone, Copy)]
struct Top([i64; TOP_LAYERS]);

impl Default for Top {
    fn default() -> Top {
        Top([-1; TOP_LAYERS])
    }
}

impl Top {
    /// Keeps `(t, _)` if it is among the `layers` highest so far.
    #[inline(always)]
    fn keep(&mut self, (t, _): (i64, Die), layers: usize) {
        if layers == 0 || t <= self.0[layers - 1] {
            return;
        }
        let mut j = layers - 1;
        while j > 0 && self.0[j - 1] < t {
            self.0[j] = self.0[j - 1];
            j -= 1;
        }
        self.0[j] = t;
    }

    /// What `layers` layers take: the sum of the highest totals, none below zero.
    #[inline(always)]
    fn sum(&self, layers: usize) -> i64 {
        self.0[..layers].iter().filter(|&&t| t >= 0).sum()
    }
}

/// One attacker against one Armor with the options resolved ([`Attacker::against`]): the
/// trial loop only draws and compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackPlan {
    skill: SkillPlan,
    use_rating: i64,
    /// The Benny may add 1d6 to a missing Skill roll: `Some(that d6's Bonus Die)`.
    benny_skill: Option<Option<Die>>,
    /// The Benny may add one Damage die: `Some((die, its Bonus Die))`.
    benny_damage: Option<(Die, Option<Die>)>,
    chain: BonusChain,
    damage: RollPlan,
    armor: RollPlan,
}

/// The Skill roll's verdict ([`AttackPlan::hit`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A Critical Failure (Ch. 4.2).
    CriticalFailure,
    /// Missed by `by` (Use minus the roll, at least 1): how far a Missed Explosive lands.
    Miss {
        /// Use minus the roll.
        by: i64,
    },
    /// A hit; `benny` if an unspent Overskill Benny is left for the Damage roll.
    Hit {
        /// An unspent Overskill Benny is left.
        benny: bool,
    },
}

impl AttackPlan {
    /// Resolves one attack.
    #[inline(always)] // keeps the RNG state in registers across a trial
    pub fn attack<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> AttackResult {
        let benny = match self.hit(faces, log, 0) {
            Hit::CriticalFailure => return told(log, AttackResult::CriticalFailure, 0, 0),
            Hit::Miss { .. } => return told(log, AttackResult::Miss, 0, 0),
            Hit::Hit { benny } => benny,
        };
        let damage = self.damage(faces, log, benny);
        let armor = self.armor(faces, log);
        let result = match damage.cmp(&armor) {
            std::cmp::Ordering::Greater => AttackResult::Kill,
            std::cmp::Ordering::Equal => AttackResult::Tie,
            std::cmp::Ordering::Less => AttackResult::NoEffect,
        };
        told(log, result, damage, armor)
    }

    /// The Skill roll plus `modifier` against Use (Ch. 4.2): a natural 1 always misses; the
    /// Overskill Benny may add 1d6 to rescue a miss (`overskill` policy).
    #[inline(always)]
    pub fn hit<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        modifier: i64,
    ) -> Hit {
        self.hit_natural(faces, log, modifier).0
    }

    /// [`AttackPlan::hit`] with the Skill die's natural face (a MachineGun checks it for a
    /// jam, Ch. 8.3).
    #[inline(always)]
    pub fn hit_natural<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        modifier: i64,
    ) -> (Hit, u32) {
        let skill = self.skill.roll(faces, log, 0);
        (self.verdict(skill, faces, log, modifier), skill.natural)
    }

    /// [`AttackPlan::hit_natural`] rolled with another Skill roll for the same die: a
    /// Blessed or Cursed one (Ch. D.4), which the plan does not know of.
    #[inline(always)]
    pub fn hit_as<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        skill: &SkillPlan,
        faces: &mut F,
        log: &mut L,
        modifier: i64,
    ) -> (Hit, u32) {
        let roll = skill.roll(faces, log, 0);
        (self.verdict(roll, faces, log, modifier), roll.natural)
    }

    /// [`AttackPlan::hit_as`] with how far the roll (its modifier and any Benny d6 added)
    /// passed Use: at least 0 on a hit (an enemy's Action modifiers must take that and one
    /// more to make it miss, Ch. D.4), below 0 on a miss.
    #[inline(always)]
    pub fn hit_as_over<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        skill: &SkillPlan,
        faces: &mut F,
        log: &mut L,
        modifier: i64,
    ) -> (Hit, u32, i64) {
        let roll = skill.roll(faces, log, 0);
        let (hit, total) = self.verdict_total(roll, faces, log, modifier);
        (hit, roll.natural, total - self.use_rating)
    }

    /// An unspent Overskill Benny's d6 on a Skill roll an enemy's modifiers made miss (Ch.
    /// 4.2): `None` where the `overskill` policy keeps it for Damage. The verdict of every
    /// Skill roll spends it so too.
    #[inline(always)]
    pub fn benny_rescue<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> Option<i64> {
        let bonus = self.benny_skill?;
        Some(benny_d6(bonus, self.chain, faces, log))
    }

    #[inline(always)]
    fn verdict<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        skill: crate::dice::SkillOutcome,
        faces: &mut F,
        log: &mut L,
        modifier: i64,
    ) -> Hit {
        self.verdict_total(skill, faces, log, modifier).0
    }

    /// [`AttackPlan::verdict`] and the roll's total (the modifier and a Benny d6 in it).
    #[inline(always)]
    fn verdict_total<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        skill: crate::dice::SkillOutcome,
        faces: &mut F,
        log: &mut L,
        modifier: i64,
    ) -> (Hit, i64) {
        let mut roll = skill.total + modifier;
        if skill.critical_failure {
            return (Hit::CriticalFailure, roll);
        }
        let mut benny = skill.overskill;
        if roll < self.use_rating
            && benny
            && let Some(d6) = self.benny_rescue(faces, log)
        {
            benny = false;
            roll += d6;
        }
        let hit = if roll < self.use_rating {
            Hit::Miss {
                by: self.use_rating - roll,
            }
        } else {
            Hit::Hit { benny }
        };
        (hit, roll)
    }

    /// The Damage roll; an unspent Benny adds one more of its own dice (Ch. 4.2).
    #[inline(always)]
    pub fn damage<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        benny: bool,
    ) -> i64 {
        let mut damage = self.damage.roll(faces, log).total;
        if benny && let Some((die, bonus)) = self.benny_damage {
            damage += roll_with_bonus(die, bonus, self.chain, faces, log, 1, Role::Regular);
        }
        damage
    }

    /// The Damage roll against Deflection: each level removes one Damage die (with its
    /// Bonus Dice) that it reaches, the highest first; d12s are never deflected (Ch. 8.2
    /// Parrying, Ch. D.4 Deflection; readings §2). The same draws as
    /// [`AttackPlan::damage`]. `extra` are dice already rolled into the same Damage
    /// (SuperNatural Damage dice, each with its Bonus Dice): they may be deflected too, and
    /// their sum is added.
    #[inline(always)]
    pub fn damage_deflected<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        benny: bool,
        deflection: &Deflection,
        extra: &[(Die, i64)],
    ) -> i64 {
        // Layers alone (a Parry, Heavy Armor) take the highest totals whatever their dice:
        // only those few are kept, not every die (zeroing a pool of MAX_DEFLECTABLE was a
        // tenth of a Knight's battles).
        if deflection.sn == [0; 6]
            && deflection.less == [0; 6]
            && deflection.layers as usize <= TOP_LAYERS
        {
            let layers = deflection.layers as usize;
            let mut top = Top::default();
            let damage = self.damage_kept(faces, log, benny, extra, |t| top.keep(t, layers));
            let off = top.sum(layers);
            deflected(log, off);
            return damage - off;
        }
        let mut dice = [(0i64, Die::D4); MAX_DEFLECTABLE];
        let mut n = 0;
        let damage = self.damage_kept(faces, log, benny, extra, |t| {
            dice[n] = t;
            n += 1;
        });
        let off = deflection.remove(&mut dice[..n]);
        deflected(log, off);
        damage - off
    }

    /// [`AttackPlan::damage_deflected`] (the same draws and total), handing `each` every
    /// Damage die the Deflection left, (total, die), d12s included: the dice an SN die of
    /// the same size may cancel (Ch. D.4, Ch. 10.3).
    pub fn damage_each<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        benny: bool,
        deflection: &Deflection,
        extra: &[(Die, i64)],
        mut each: impl FnMut((i64, Die)),
    ) -> i64 {
        let mut dice = [(0i64, Die::D4); MAX_DEFLECTABLE];
        let mut n = 0;
        // Deflection never takes a d12 (Ch. D.4): they are kept apart from its dice.
        let mut twelves = [(0i64, Die::D12); MAX_DEFLECTABLE];
        let mut m = 0;
        let damage = self.damage_all(faces, log, benny, extra, |(t, die)| {
            if die == Die::D12 {
                if m < MAX_DEFLECTABLE {
                    twelves[m] = (t, die);
                    m += 1;
                }
            } else if n < MAX_DEFLECTABLE {
                dice[n] = (t, die);
                n += 1;
            }
        });
        let (off, left) = deflection.remove_left(&mut dice[..n]);
        deflected(log, off);
        for &d in dice[..left].iter().chain(&twelves[..m]) {
            each(d);
        }
        damage - off
    }

    /// The Damage roll with `extra` dice added, handing `keep` each die Deflection may take
    /// (total, die): every one but d12s, the first [`MAX_DEFLECTABLE`] of them.
    #[inline(always)]
    fn damage_kept<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        benny: bool,
        extra: &[(Die, i64)],
        mut keep: impl FnMut((i64, Die)),
    ) -> i64 {
        let mut n = 0;
        self.damage_all(faces, log, benny, extra, |(t, die)| {
            if die != Die::D12 && n < MAX_DEFLECTABLE {
                keep((t, die));
                n += 1;
            }
        })
    }

    /// The Damage roll with `extra` dice added, handing `each` every die, (total, die):
    /// `extra` first, then the roll's, then an unspent Benny's.
    #[inline(always)]
    fn damage_all<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        benny: bool,
        extra: &[(Die, i64)],
        mut each: impl FnMut((i64, Die)),
    ) -> i64 {
        for &(die, t) in extra {
            each((t, die));
        }
        let mut damage = self
            .damage
            .roll_each(faces, log, |_, die, t| each((t, die)))
            .total
            + extra.iter().map(|e| e.1).sum::<i64>();
        if benny && let Some((die, bonus)) = self.benny_damage {
            let t = roll_with_bonus(die, bonus, self.chain, faces, log, 1, Role::Regular);
            damage += t;
            each((t, die));
        }
        damage
    }

    /// The target's Armor for this hit: a number, or dice rolled fresh (readings §2).
    #[inline(always)]
    pub fn armor<F: Faces + ?Sized, L: Log + ?Sized>(&self, faces: &mut F, log: &mut L) -> i64 {
        self.armor.roll(faces, log).total
    }
}

/// Narrates one attack's `result` (with its Damage against Armor if it hit) and returns it.
#[inline(always)]
pub(crate) fn told<L: Log + ?Sized>(
    log: &mut L,
    result: AttackResult,
    damage: i64,
    armor: i64,
) -> AttackResult {
    if L::NOTES {
        match result {
            AttackResult::CriticalFailure => log.note(format_args!("  a miss")),
            AttackResult::Miss => log.note(format_args!("  miss")),
            AttackResult::NoEffect => log.note(format_args!(
                "  Damage {damage} vs Armor {armor}: no effect"
            )),
            AttackResult::Tie => log.note(format_args!("  Damage {damage} = Armor {armor}: a tie")),
            AttackResult::Kill => {
                log.note(format_args!("  Damage {damage} vs Armor {armor}: it falls"))
            }
        }
    }
    result
}
/// Narrates the Damage that Deflection took off a hit (Ch. 8.2, D.4): without the line a
/// deflected die would vanish from the story.
fn deflected<L: Log + ?Sized>(log: &mut L, off: i64) {
    if off != 0 {
        log.note(format_args!("    Deflection takes {off} off the Damage"));
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{NoLog, Script};

    fn minifig() -> Attacker {
        Attacker {
            skill: SkillRoll::new(Die::D6),
            use_rating: 3,
            damage: Expr::parse("1d6").unwrap(),
        }
    }

    fn attack(
        a: &Attacker,
        armor: &str,
        opts: &RuleOptions,
        script: &[(Die, u32)],
    ) -> AttackResult {
        let mut dice = Script::new(script);
        let r = a
            .against(&Expr::parse(armor).unwrap(), opts)
            .attack(&mut dice, &mut NoLog);
        assert!(dice.is_done(), "script not used up: {} rolls", dice.used());
        r
    }

    #[test]
    fn natural_one_misses_whatever_the_use() {
        let mut a = minifig();
        a.use_rating = -10;
        let r = attack(&a, "4", &RuleOptions::default(), &[(Die::D6, 1)]);
        assert_eq!(r, AttackResult::CriticalFailure);
    }

    #[test]
    fn hit_then_damage_against_armor() {
        // Ch. 4.2: Skill 3 meets Use 3; Ch. 10.2: Damage 5 > Armor 4 kills, 4 ties, 3 nothing.
        let o = RuleOptions::default();
        let a = minifig();
        assert_eq!(
            attack(&a, "4", &o, &[(Die::D6, 3), (Die::D6, 5)]),
            AttackResult::Kill
        );
        assert_eq!(
            attack(&a, "4", &o, &[(Die::D6, 3), (Die::D6, 4)]),
            AttackResult::Tie
        );
        assert_eq!(
            attack(&a, "4", &o, &[(Die::D6, 4), (Die::D6, 3)]),
            AttackResult::NoEffect
        );
        assert_eq!(attack(&a, "4", &o, &[(Die::D6, 2)]), AttackResult::Miss);
    }

    #[test]
    fn armor_dice_are_rolled_per_hit() {
        let o = RuleOptions::default();
        let a = minifig();
        let r = attack(&a, "1d6", &o, &[(Die::D6, 3), (Die::D6, 5), (Die::D6, 5)]);
        assert_eq!(r, AttackResult::Tie);
    }

    #[test]
    fn overskill_benny_rescues_a_miss_or_adds_damage() {
        // Ch. 4.2. Use 8: natural 6 misses, the Benny d6 (3) makes 9: hit. Damage 2 vs 4.
        let o = RuleOptions::default();
        let mut a = minifig();
        a.use_rating = 8;
        let r = attack(&a, "4", &o, &[(Die::D6, 6), (Die::D6, 3), (Die::D6, 2)]);
        assert_eq!(r, AttackResult::NoEffect);
        // Use 3: natural 6 hits; auto spends the Benny on one more Damage d6: 2 + 3 > 4.
        a.use_rating = 3;
        let r = attack(&a, "4", &o, &[(Die::D6, 6), (Die::D6, 2), (Die::D6, 3)]);
        assert_eq!(r, AttackResult::Kill);
        // overskill=skill never adds Damage.
        let mut sk = o;
        sk.overskill = OverskillPolicy::Skill;
        let r = attack(&a, "4", &sk, &[(Die::D6, 6), (Die::D6, 2)]);
        assert_eq!(r, AttackResult::NoEffect);
        // overskill=damage never helps the Skill roll.
        let mut dm = o;
        dm.overskill = OverskillPolicy::Damage;
        a.use_rating = 8;
        assert_eq!(attack(&a, "4", &dm, &[(Die::D6, 6)]), AttackResult::Miss);
    }

    #[test]
    fn modifiers_move_the_skill_roll_not_the_natural_face() {
        // Ch. 4.2 Thieven: Use 3 with -2 (Target Size) and -3 (Out of Range) needs an 8.
        let o = RuleOptions::default();
        let mut a = minifig();
        a.use_rating = 3;
        let p = a.against(&Expr::parse("4").unwrap(), &o);
        let mut dice = Script::new(&[(Die::D6, 5)]);
        assert_eq!(p.hit(&mut dice, &mut NoLog, -2), Hit::Hit { benny: false });
        let mut dice = Script::new(&[(Die::D6, 4)]);
        assert_eq!(p.hit(&mut dice, &mut NoLog, -2), Hit::Miss { by: 1 });
        // A natural 6 at -5 is 1, a miss, but its Benny d6 (a 2) makes 3.
        let mut dice = Script::new(&[(Die::D6, 6), (Die::D6, 2)]);
        assert_eq!(p.hit(&mut dice, &mut NoLog, -5), Hit::Hit { benny: false });
        // A natural 1 fails even at +10.
        let mut dice = Script::new(&[(Die::D6, 1)]);
        assert_eq!(p.hit(&mut dice, &mut NoLog, 10), Hit::CriticalFailure);
    }

    #[test]
    fn deflection_removes_the_highest_dice_but_never_d12s() {
        // A 3" Giant Sword (3d6) against a 2" shield's two layers: 5, 2, 6 (+Bonus 3) ->
        // the 9 and the 5 go, 2 is left. The same draws as an undeflected roll.
        let o = RuleOptions::default();
        let sword = Attacker {
            skill: SkillRoll::new(Die::D6),
            use_rating: 4,
            damage: Expr::parse("3d6").unwrap(),
        };
        let p = sword.against(&Expr::parse("4").unwrap(), &o);
        let script = [(Die::D6, 5), (Die::D6, 2), (Die::D6, 6), (Die::D6, 3)];
        let mut dice = Script::new(&script);
        assert_eq!(
            p.damage_deflected(&mut dice, &mut NoLog, false, &Deflection::layers(2), &[]),
            2
        );
        assert!(dice.is_done());
        let mut dice = Script::new(&script);
        assert_eq!(p.damage(&mut dice, &mut NoLog, false), 16);
        let mut dice = Script::new(&script);
        assert_eq!(
            p.damage_deflected(&mut dice, &mut NoLog, false, &Deflection::layers(9), &[]),
            0
        );
        // Constants stay; d12s are not deflected (Ch. D.4).
        let magik = Attacker {
            damage: Expr::parse("1d12 phased + 1d6 + 2").unwrap(),
            ..sword
        };
        let p = magik.against(&Expr::parse("4").unwrap(), &o);
        let mut dice = Script::new(&[(Die::D12, 3), (Die::D6, 4)]);
        assert_eq!(
            p.damage_deflected(&mut dice, &mut NoLog, false, &Deflection::layers(2), &[]),
            5
        );
        // Dice rolled into the same Damage (SN dice) are deflected with the weapon's: one
        // layer takes the SN 7 before the d6's 4: 3 + 4 + 2 + 7 - 7.
        let mut dice = Script::new(&[(Die::D12, 3), (Die::D6, 4)]);
        assert_eq!(
            p.damage_deflected(
                &mut dice,
                &mut NoLog,
                false,
                &Deflection::layers(1),
                &[(Die::D8, 7)]
            ),
            9
        );
    }

    #[test]
    fn issue_40_an_enemys_sn_die_removes_a_level_against_dice_of_its_size_or_smaller() {
        // Ch. D.4: "A d6 used to weaken a target's Deflection would remove one level of
        // Deflection against d4s and d6es ..., but not d8s or d10s." 9 (d10), 5 (d6), 3 (d4).
        let pool = [(9, Die::D10), (5, Die::D6), (3, Die::D4)];
        let with = |layers, sn: &[Die], less: &[Die]| {
            let mut d = Deflection::layers(layers);
            for die in sn {
                d.sn[die.index()] += 1;
            }
            for die in less {
                d.less[die.index()] += 1;
            }
            let mut dice = pool;
            let (off, left) = d.remove_left(&mut dice);
            let mut kept: Vec<i64> = dice[..left].iter().map(|x| x.0).collect();
            kept.sort();
            (off, kept)
        };
        // A layer narrowed by a d6 still takes the d10; by a d10, nothing here.
        assert_eq!(with(1, &[], &[Die::D6]), (9, vec![3, 5]));
        assert_eq!(with(1, &[], &[Die::D10]), (0, vec![3, 5, 9]));
        // Two layers, one narrowed by a d10: the other takes the 9.
        assert_eq!(with(2, &[], &[Die::D10]), (9, vec![3, 5]));
        // An SN d8 level narrowed by a d6 reaches only d8s: nothing here; a d10 level so
        // narrowed takes the d10. A d8 level removed by a d8 is gone.
        assert_eq!(with(0, &[Die::D8], &[Die::D6]), (0, vec![3, 5, 9]));
        assert_eq!(with(0, &[Die::D10], &[Die::D6]), (9, vec![3, 5]));
        assert_eq!(with(0, &[Die::D8], &[Die::D8]), (0, vec![3, 5, 9]));
        // Without an enemy's dice, as before.
        assert_eq!(with(1, &[Die::D6], &[]), (14, vec![3]));
    }

    #[test]
    fn layers_take_what_the_full_pool_takes() {
        // The quick path's highest totals against the pool's own removal, over every pool
        // of up to 5 totals from -2 to 5 (Fumble losses included) and 0 to 4 layers.
        let dice = [Die::D4, Die::D6, Die::D8, Die::D10, Die::D20];
        for layers in 0..=TOP_LAYERS as u32 {
            for code in 0..8u32.pow(5) {
                for len in 0..=5usize {
                    let pool: Vec<(i64, Die)> = (0..len)
                        .map(|k| ((code / 8u32.pow(k as u32) % 8) as i64 - 2, dice[k]))
                        .collect();
                    let mut top = Top::default();
                    for &d in &pool {
                        top.keep(d, layers as usize);
                    }
                    let mut full = pool.clone();
                    let want = Deflection::layers(layers).remove(&mut full);
                    assert_eq!(top.sum(layers as usize), want, "{pool:?}, {layers} layers");
                }
            }
        }
    }

    #[test]
    fn sn_deflection_reaches_dice_of_its_size_or_smaller() {
        // Ch. D.4: "A d8 added to Deflection would provide one level of Deflection against
        // d4s, d6es, and d8s of Damage, but not against d10s." 1d10 + 1d6 + 1d4: 9, 5, 3.
        let o = RuleOptions::default();
        let a = Attacker {
            skill: SkillRoll::new(Die::D6),
            use_rating: 4,
            damage: Expr::parse("1d10 + 1d6 + 1d4").unwrap(),
        };
        let p = a.against(&Expr::parse("4").unwrap(), &o);
        let script = [(Die::D10, 9), (Die::D6, 5), (Die::D4, 3)];
        let levels = |sn: &[(Die, u8)], layers| {
            let mut d = Deflection::layers(layers);
            for &(die, n) in sn {
                d.sn[die.index()] += n;
            }
            d
        };
        let roll = |d: Deflection| {
            let mut dice = Script::new(&script);
            let r = p.damage_deflected(&mut dice, &mut NoLog, false, &d, &[]);
            assert!(dice.is_done());
            r
        };
        // A d8 level passes over the d10's 9 and takes the 5.
        assert_eq!(roll(levels(&[(Die::D8, 1)], 0)), 12);
        // A d4 level reaches the d4 only; a d10 level the 9.
        assert_eq!(roll(levels(&[(Die::D4, 1)], 0)), 14);
        assert_eq!(roll(levels(&[(Die::D10, 1)], 0)), 8);
        // A d10 and a d4 level: the d4 level cannot take the 5, so the best is 9 and 3.
        assert_eq!(roll(levels(&[(Die::D10, 1), (Die::D4, 1)], 0)), 5);
        // A d6 level and a Parry layer: the layer takes the 9, the level the 5.
        assert_eq!(roll(levels(&[(Die::D6, 1)], 1)), 3);
        // Levels never reach the d12s; a Fumble's loss below zero is left in place.
        let mut dice = Script::new(&[(Die::D10, 9), (Die::D6, 5), (Die::D4, 3)]);
        let d = levels(&[(Die::D12, 3)], 0);
        assert_eq!(
            p.damage_deflected(
                &mut dice,
                &mut NoLog,
                false,
                &d,
                &[(Die::D12, 6), (Die::D6, -2)]
            ),
            6 - 2
        );
    }

    #[test]
    fn overskill_damage_die_is_the_attacks_own() {
        // Ch. 4.2: "a 1d10 (Exp) Grenade gets an Overskill bonus of +1d10 (Exp)": natural 6,
        // Damage 3, the Benny's d10 shows 2: 5 > 4.
        let o = RuleOptions::default();
        let g = Attacker {
            skill: SkillRoll::new(Die::D6),
            use_rating: 3,
            damage: Expr::parse("1d10 exp").unwrap(),
        };
        let r = attack(&g, "4", &o, &[(Die::D6, 6), (Die::D10, 3), (Die::D10, 2)]);
        assert_eq!(r, AttackResult::Kill);
        // Subtracted dice are not the attack's own Damage dice: "5 - 1d6" has none to add, so
        // the script's last die is the subtracted d6 and 5 - 1 ties Armor 4.
        let fixed = Attacker {
            damage: Expr::parse("5 - 1d6").unwrap(),
            ..g
        };
        let r = attack(&fixed, "4", &o, &[(Die::D6, 6), (Die::D6, 1)]);
        assert_eq!(r, AttackResult::Tie);
    }
}
