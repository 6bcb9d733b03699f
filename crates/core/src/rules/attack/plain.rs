//! The plain attack: an [`AttackPlan`] whose every roll is plain dice, specialised.
//!
//! Most stat lines are one Skill die, a number to meet, one term of Damage dice and a
//! constant Armor (a minifig's `d6/2/1d6/4`). [`PlainAttack`] holds just that, so a trial
//! loop rolls it without walking a plan's steps, and [`PlainAttack::attack`] with `D6 = true`
//! knows at compile time that every die is a d6 (the compiler folds each die's sampling).
//! It draws the same faces in the same order, and logs the same events, as
//! [`AttackPlan::attack`]: the rules are that function's (Ch. 4.2, Ch. 10.2), and the tests
//! below hold the two draw for draw.

use super::{AttackPlan, AttackResult, Hit, told};
use crate::dice::bonus::{roll_chain, roll_with_bonus};
use crate::dice::skill::OVERSKILL_FROM;
use crate::dice::{Die, DieEvent, Faces, Log, Role};
use crate::options::BonusChain;

/// An [`AttackPlan`] of plain dice ([`PlainAttack::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlainAttack {
    skill: Die,
    /// The Incompetent d4's Bonus Die, where options give it (Ch. 4.2).
    skill_bonus: Option<Die>,
    use_rating: i64,
    benny_skill: Option<Option<Die>>,
    /// Damage: `count` `die`s with their `bonus` chains, plus `constant`; `term` for the log.
    term: usize,
    count: u32,
    die: Die,
    bonus: Option<Die>,
    constant: i64,
    benny_damage: Option<(Die, Option<Die>)>,
    chain: BonusChain,
    armor: i64,
}

impl PlainAttack {
    /// `plan` as a plain attack, if it is one: a Skill die without Blessings or Curses,
    /// Damage of one term of dice (not all Fire) and a constant, and a constant Armor.
    pub fn of(plan: &AttackPlan) -> Option<PlainAttack> {
        let (skill, skill_bonus, skill_chain) = plan.skill.plain()?;
        let damage = plan.damage.plain()?;
        let armor = plan.armor.plain().filter(|a| a.count == 0)?;
        // One chain rule for every die (they all come from the same options).
        if skill_chain != plan.chain || damage.chain != plan.chain {
            return None;
        }
        Some(PlainAttack {
            skill,
            skill_bonus,
            use_rating: plan.use_rating,
            benny_skill: plan.benny_skill,
            term: damage.term,
            count: damage.count,
            die: damage.die,
            bonus: damage.bonus,
            constant: damage.constant,
            benny_damage: plan.benny_damage,
            chain: plan.chain,
            armor: armor.constant,
        })
    }

    /// Whether every die it may roll is a d6, so `attack::<true>` may be used.
    pub fn all_d6(&self) -> bool {
        let d6 = |d: Option<Die>| d.is_none_or(|d| d == Die::D6);
        self.skill == Die::D6
            && d6(self.skill_bonus)
            && d6(self.benny_skill.flatten())
            && (self.count == 0 || self.die == Die::D6)
            && d6(self.bonus)
            && d6(self.benny_damage.map(|b| b.0))
            && d6(self.benny_damage.and_then(|b| b.1))
    }

    /// Resolves one attack, as [`AttackPlan::attack`] does. With `D6`, every die is taken
    /// to be a d6: only when [`PlainAttack::all_d6`].
    #[inline(always)] // keeps the RNG state in registers across a trial
    pub fn attack<const D6: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> AttackResult {
        let benny = match self.hit::<D6, F, L>(faces, log, 0).0 {
            Hit::CriticalFailure => return told(log, AttackResult::CriticalFailure, 0, 0),
            Hit::Miss { .. } => return told(log, AttackResult::Miss, 0, 0),
            Hit::Hit { benny } => benny,
        };
        let damage = self.damage::<D6, F, L>(faces, log, benny);
        let result = match damage.cmp(&self.armor) {
            std::cmp::Ordering::Greater => AttackResult::Kill,
            std::cmp::Ordering::Equal => AttackResult::Tie,
            std::cmp::Ordering::Less => AttackResult::NoEffect,
        };
        told(log, result, damage, self.armor)
    }

    /// The Skill roll plus `modifier` against Use, and the natural face, as
    /// [`AttackPlan::hit_natural`] rolls them (Ch. 4.2: a natural 1 always misses; the
    /// Overskill Benny may add 1d6 to rescue a miss).
    #[inline(always)]
    pub fn hit<const D6: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        modifier: i64,
    ) -> (Hit, u32) {
        let pick = |d: Die| if D6 { Die::D6 } else { d };
        // Its own face is the natural one.
        let skill = pick(self.skill);
        let own = faces.face(skill);
        log.die(DieEvent {
            term: 0,
            die: skill,
            face: own,
            role: Role::Skill,
            counted: own as i64,
        });
        if own == 1 {
            return (Hit::CriticalFailure, own);
        }
        let mut roll = own as i64;
        if own == skill.sides()
            && let Some(b) = self.skill_bonus
        {
            roll += roll_chain(pick(b), self.chain, faces, log, 0);
        }
        roll += modifier;
        let mut benny = own >= OVERSKILL_FROM;
        if roll < self.use_rating
            && benny
            && let Some(bonus) = self.benny_skill
        {
            benny = false;
            let b = bonus.map(pick);
            roll += roll_with_bonus(Die::D6, b, self.chain, faces, log, 0, Role::Bonus);
        }
        let verdict = if roll < self.use_rating {
            Hit::Miss {
                by: self.use_rating - roll,
            }
        } else {
            Hit::Hit { benny }
        };
        (verdict, own)
    }

    /// The Damage roll (Ch. 10.2); an unspent Benny adds one more Damage die, as
    /// [`AttackPlan::damage`].
    #[inline(always)]
    pub fn damage<const D6: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        benny: bool,
    ) -> i64 {
        let pick = |d: Die| if D6 { Die::D6 } else { d };
        let mut damage = self.constant;
        let (die, bonus) = (pick(self.die), self.bonus.map(pick));
        for _ in 0..self.count {
            damage += roll_with_bonus(die, bonus, self.chain, faces, log, self.term, Role::Regular);
        }
        if benny && let Some((d, b)) = self.benny_damage {
            let (d, b) = (pick(d), b.map(pick));
            damage += roll_with_bonus(d, b, self.chain, faces, log, 1, Role::Regular);
        }
        damage
    }

    /// The target's Armor: a number.
    #[inline(always)]
    pub fn armor(&self) -> i64 {
        self.armor
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Expr, SkillRoll};
    use crate::options::{D4Bonus, OverskillDie, OverskillPolicy, RuleOptions};
    use crate::rules::attack::Attacker;
    use crate::sim::stream;

    fn plan(line: &str, armor: &str, opts: &RuleOptions) -> AttackPlan {
        let (skill, rest) = line.split_once('/').unwrap();
        let (use_rating, damage) = rest.split_once('/').unwrap();
        Attacker {
            skill: SkillRoll::new(Die::from_name(skill).unwrap()),
            use_rating: use_rating.parse().unwrap(),
            damage: Expr::parse(damage).unwrap(),
        }
        .against(&Expr::parse(armor).unwrap(), opts)
    }

    /// Rolls `n` attacks both ways on one seeded stream each and compares every result and
    /// every logged die.
    fn same_draws<const D6: bool>(p: &AttackPlan, q: &PlainAttack, n: usize) {
        let (mut r1, mut r2) = (stream(5, 0, 0), stream(5, 0, 0));
        let (mut l1, mut l2): (Vec<DieEvent>, Vec<DieEvent>) = (vec![], vec![]);
        for k in 0..n {
            let a = p.attack(&mut r1, &mut l1);
            let b = q.attack::<D6, _, _>(&mut r2, &mut l2);
            assert_eq!(a, b, "attack {k} of {p:?}");
        }
        assert_eq!(l1, l2, "{p:?}");
    }

    #[test]
    fn it_draws_what_the_general_plan_draws() {
        let base = RuleOptions::default();
        let mut d4 = base;
        d4.d4_bonus = D4Bonus::All;
        let mut capped = base;
        capped.bonus_chain = BonusChain::Max(1);
        let mut skill_only = base;
        skill_only.overskill = OverskillPolicy::Skill;
        let mut damage_only = base;
        damage_only.overskill = OverskillPolicy::Damage;
        let mut most = base;
        most.overskill_die = OverskillDie::Most;
        let lines = [
            ("d6/2/1d6", "4", base, true),
            ("d6/8/1d6", "4", base, true),
            ("d6/3/2d6+1", "5", base, true),
            ("d6/3/3", "2", base, true),
            ("d6/2/1d6", "4", capped, true),
            ("d6/6/1d6", "4", skill_only, true),
            ("d6/6/1d6", "4", damage_only, true),
            ("d4/2/1d8", "4", d4, false),
            ("d8/4/1d10+2", "7", most, false),
            ("d10/5/2d4", "3", base, false),
        ];
        for (line, armor, opts, all_d6) in lines {
            let p = plan(line, armor, &opts);
            let q = PlainAttack::of(&p).expect("plain");
            assert_eq!(q.all_d6(), all_d6, "{line}");
            same_draws::<false>(&p, &q, 20_000);
            if all_d6 {
                same_draws::<true>(&p, &q, 20_000);
            }
        }
    }

    #[test]
    fn dice_armor_or_two_damage_terms_are_not_plain() {
        let o = RuleOptions::default();
        assert!(PlainAttack::of(&plan("d6/2/1d6", "1d6", &o)).is_none());
        assert!(PlainAttack::of(&plan("d6/2/1d6+1d4", "4", &o)).is_none());
        assert!(PlainAttack::of(&plan("d6/2/1d6-1d4", "4", &o)).is_none());
        let blessed = Attacker {
            skill: SkillRoll::new(Die::D6).blessed(1, None).unwrap(),
            use_rating: 2,
            damage: Expr::parse("1d6").unwrap(),
        };
        let p = blessed.against(&Expr::parse("4").unwrap(), &o);
        assert!(PlainAttack::of(&p).is_none());
    }
}
