//! A dice expression compiled against rule options, for rolling in a loop.
//!
//! Rolling an [`Expr`] needs each term's Bonus Die, the Skill die's options and two facts for
//! Critical Failure (are there added dice? are they all Fire?). A [`RollPlan`] resolves those
//! once and folds the constants, so a trial loop only draws faces and adds. [`Expr::roll`]
//! is defined through it, so both roll the same dice in the same order.

use super::{Expr, RollOutcome, TermKind};
use crate::dice::bonus::{DieUse, bonus_die, roll_with_bonus};
use crate::dice::die::{Die, Faces};
use crate::dice::log::{Log, Role};
use crate::dice::skill::SkillPlan;
use crate::dice::supernatural::SnRoll;
use crate::options::{OverskillDie, RuleOptions};

/// An [`Expr`] with `opts` resolved ([`Expr::plan`]). Built once, rolled many times without
/// allocating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollPlan {
    steps: Vec<Step>,
    /// Every constant term, summed.
    constant: i64,
    /// The expression has a Skill die, whose natural face alone decides Critical Failure.
    skill: bool,
    /// Added dice exist, so all of them showing 1 is a Critical Failure (Ch. 10.3).
    positive_dice: bool,
    /// Every added die is Fire: a Critical Failure has no effect (Ch. 8.3).
    fire_only: bool,
    opts: RuleOptions,
}

/// One rolled term; `term` is its index in the expression, for the log.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Step {
    Dice {
        term: usize,
        negative: bool,
        count: u32,
        die: Die,
        bonus: Option<Die>,
    },
    Skill {
        term: usize,
        plan: SkillPlan,
    },
    Sn {
        term: usize,
        negative: bool,
        roll: SnRoll,
    },
}

/// A [`RollPlan`] of one term of plain dice: `count` `die`s (each with its `bonus` chain)
/// plus `constant`; `term` is the dice term's index, for the log.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlainDice {
    /// The term's place in the expression.
    pub term: usize,
    /// How many dice.
    pub count: u32,
    /// Which die.
    pub die: Die,
    /// The Bonus Die a top face adds, if any.
    pub bonus: Option<Die>,
    /// The expression's number, added once.
    pub constant: i64,
    /// How far Bonus Dice chain (option `bonus_chain`).
    pub chain: crate::options::BonusChain,
}

impl RollPlan {
    pub(super) fn new(expr: &Expr, opts: &RuleOptions) -> RollPlan {
        let mut steps = Vec::with_capacity(expr.terms.len());
        let mut constant = 0i64;
        let mut skill = false;
        for (term, t) in expr.terms.iter().enumerate() {
            let negative = t.negative;
            match t.kind {
                TermKind::Const(c) => constant += if negative { -c } else { c },
                TermKind::Dice { count, die, .. } => steps.push(Step::Dice {
                    term,
                    negative,
                    count,
                    die,
                    bonus: bonus_die(die, DieUse::Regular, opts),
                }),
                TermKind::Skill(s) => {
                    skill = true;
                    steps.push(Step::Skill {
                        term,
                        plan: s.plan(opts),
                    })
                }
                TermKind::Sn(roll) => steps.push(Step::Sn {
                    term,
                    negative,
                    roll,
                }),
            }
        }
        // Regular dice in one canonical order (added before subtracted, larger first), in the
        // slots they take: a sum reads the same whichever way it is written, so it draws the
        // same faces (`1d10+1d4` and `1d4+1d10` give the same digits).
        let slots: Vec<usize> = (0..steps.len())
            .filter(|&k| matches!(steps[k], Step::Dice { .. }))
            .collect();
        let mut dice: Vec<Step> = slots.iter().map(|&k| steps[k]).collect();
        dice.sort_by_key(|s| match *s {
            Step::Dice { negative, die, .. } => (negative, std::cmp::Reverse(die)),
            _ => unreachable!("only dice steps are sorted"),
        });
        for (&k, d) in slots.iter().zip(dice) {
            steps[k] = d;
        }
        RollPlan {
            steps,
            constant,
            skill,
            positive_dice: expr.has_positive_dice(),
            fire_only: expr.fire_only(),
            opts: *opts,
        }
    }

    /// Rolls once. Pass [`crate::dice::NoLog`] in simulations; a `Vec` to narrate.
    #[inline(always)] // keeps the RNG state in registers across a trial
    pub fn roll<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> RollOutcome {
        self.roll_each(faces, log, |_, _, _| {})
    }

    /// Rolls like [`RollPlan::roll`] (the same draws) and hands `each` every added regular
    /// die as (term, die, total with its Bonus Dice): Deflection removes dice, Explosions
    /// remove their highest Exp die per ring.
    #[inline(always)]
    pub fn roll_each<F: Faces + ?Sized, L: Log + ?Sized, E: FnMut(usize, Die, i64)>(
        &self,
        faces: &mut F,
        log: &mut L,
        mut each: E,
    ) -> RollOutcome {
        let mut out = RollOutcome {
            total: self.constant,
            ..RollOutcome::default()
        };
        let mut all_ones = true;
        let mut skill_crit = false;
        for step in &self.steps {
            match *step {
                Step::Dice {
                    term,
                    negative,
                    count,
                    die,
                    bonus,
                } => {
                    for _ in 0..count {
                        let t = roll_with_bonus(
                            die,
                            bonus,
                            self.opts.bonus_chain,
                            faces,
                            log,
                            term,
                            Role::Regular,
                        );
                        // A Bonus Die needs the top face, so a total of 1 is a natural 1.
                        all_ones &= negative || t == 1;
                        if !negative {
                            each(term, die, t);
                        }
                        out.total += if negative { -t } else { t };
                    }
                }
                Step::Skill { term, plan } => {
                    let o = plan.roll(faces, log, term);
                    out.total += o.total;
                    out.overskill = o.overskill;
                    skill_crit = o.critical_failure;
                }
                Step::Sn {
                    term,
                    negative,
                    roll,
                } => {
                    let o = roll.roll(&self.opts, faces, log, term);
                    out.total += if negative { -o.total } else { o.total };
                    out.fumbles += o.fumbles;
                    all_ones &= negative || o.all_ones;
                }
            }
        }
        out.critical_failure = if self.skill {
            skill_crit
        } else {
            all_ones && self.positive_dice
        };
        if out.critical_failure && self.fire_only {
            out.total = 0;
        }
        out
    }

    /// This plan as one term of plain dice and a constant, if that is all it is: no Skill or
    /// SuperNatural die, nothing subtracted, not all Fire (so a Critical Failure cannot
    /// change its total). What a specialised trial rolls instead ([`PlainDice`]).
    pub fn plain(&self) -> Option<PlainDice> {
        if self.fire_only {
            return None;
        }
        let (term, count, die, bonus) = match self.steps[..] {
            // No dice: `count` 0, so the die is never rolled.
            [] => (0, 0, Die::D6, None),
            [
                Step::Dice {
                    term,
                    negative: false,
                    count,
                    die,
                    bonus,
                },
            ] => (term, count, die, bonus),
            _ => return None,
        };
        Some(PlainDice {
            term,
            count,
            die,
            bonus,
            constant: self.constant,
            chain: self.opts.bonus_chain,
        })
    }

    /// The die an Overskill Benny adds to this roll as Damage: "one more of the attack's
    /// existing Damage dice" (Ch. 4.2), picked by `choice`, with that die's Bonus Die; `None`
    /// for Damage without added dice.
    pub fn benny_die(&self, choice: OverskillDie) -> Option<(Die, Option<Die>)> {
        let added = self.steps.iter().filter_map(|s| match *s {
            Step::Dice {
                term,
                negative: false,
                die,
                bonus,
                ..
            } => Some((term, die, bonus)),
            _ => None,
        });
        let pick = match choice {
            OverskillDie::First => added.min_by_key(|&(term, ..)| term),
            // The largest mean; among equals the larger die, then the first written.
            OverskillDie::Most => added.max_by(|a, b| {
                let (ma, mb) = (
                    self.mean_with_bonus(a.1, a.2),
                    self.mean_with_bonus(b.1, b.2),
                );
                ma.total_cmp(&mb).then(a.1.cmp(&b.1)).then(b.0.cmp(&a.0))
            }),
        };
        pick.map(|(_, die, bonus)| (die, bonus))
    }

    /// The mean of one `die` with its chain of `bonus` dice under this plan's `bonus_chain`.
    fn mean_with_bonus(&self, die: Die, bonus: Option<Die>) -> f64 {
        let face = (die.sides() as f64 + 1.0) / 2.0;
        let Some(b) = bonus else {
            return face;
        };
        // Each link of the chain earns the next with chance 1/sides of the link before.
        let (mut total, mut p, mut link, mut earned) = (face, 1.0 / die.sides() as f64, b, 0);
        while self.opts.bonus_chain.allows(earned) && p > 1e-15 {
            total += p * (link.sides() as f64 + 1.0) / 2.0;
            p /= link.sides() as f64;
            earned += 1;
            // A Bonus Die earns its own kind of Bonus Die (a d6 for regular dice).
            link = bonus_die(link, DieUse::Regular, &self.opts).unwrap_or(link);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{NoLog, Script};
    use crate::sim::stream;

    fn plan(text: &str, opts: &RuleOptions) -> RollPlan {
        Expr::parse(text).unwrap().plan(opts)
    }

    #[test]
    fn a_sum_rolls_the_same_however_it_is_written() {
        let o = RuleOptions::default();
        for (a, b) in [
            ("1d10 + 1d4", "1d4 + 1d10"),
            ("2d6 - 1d4 + 1d8", "1d8 - 1d4 + 2d6"),
            ("1d4 fire + 1d10 exp + 1", "1 + 1d10 exp + 1d4 fire"),
        ] {
            let (pa, pb) = (plan(a, &o), plan(b, &o));
            let (mut ra, mut rb) = (stream(9, 0, 0), stream(9, 0, 0));
            for _ in 0..200 {
                assert_eq!(
                    pa.roll(&mut ra, &mut NoLog),
                    pb.roll(&mut rb, &mut NoLog),
                    "{a} / {b}"
                );
            }
        }
        // Larger dice first, added before subtracted: the d10 is drawn first.
        let mut d = Script::new(&[(Die::D10, 3), (Die::D4, 2)]);
        assert_eq!(plan("1d4 + 1d10", &o).roll(&mut d, &mut NoLog).total, 5);
        assert!(d.is_done());
    }

    #[test]
    fn the_overskill_die_is_the_players_pick() {
        // Ch. 4.2: "one more of the attack's existing Damage dice": with `most`, the d10
        // (5.5 and a Bonus d6 on a 10) over the d4 (2.5, no Bonus Die), however written.
        let o = RuleOptions::default();
        assert_eq!(o.overskill_die, OverskillDie::Most);
        for text in ["1d10 + 1d4", "1d4 + 1d10"] {
            assert_eq!(
                plan(text, &o).benny_die(OverskillDie::Most),
                Some((Die::D10, Some(Die::D6))),
                "{text}"
            );
        }
        // `first`: the die written first.
        assert_eq!(
            plan("1d4 + 1d10", &o).benny_die(OverskillDie::First),
            Some((Die::D4, None))
        );
        // Subtracted dice and fixed Damage add nothing.
        assert_eq!(plan("3 - 1d6", &o).benny_die(OverskillDie::Most), None);
        // A d6 with its chain of Bonus d6s is worth 4.2; a d4 without one 2.5.
        let p = plan("1d6", &o);
        assert!((p.mean_with_bonus(Die::D6, Some(Die::D6)) - 4.2).abs() < 1e-12);
        assert!((p.mean_with_bonus(Die::D4, None) - 2.5).abs() < 1e-12);
    }
}
