//! A dice expression compiled against rule options, for rolling in a loop.
//!
//! Rolling an [`Expr`] needs each term's Bonus Die, the Skill die's options and two facts for
//! Critical Failure (are there added dice? are they all Fire?). A [`RollPlan`] resolves those
//! once and folds the constants, so a trial loop only draws faces and adds. [`Expr::roll`]
//! is defined through it, so both roll the same dice in the same order.

use super::{Expr, RollOutcome, TermKind};
use crate::dice::action::SkillPlan;
use crate::dice::bonus::{DieUse, bonus_die, roll_with_bonus};
use crate::dice::die::{Die, Faces};
use crate::dice::log::{Log, Role};
use crate::dice::supernatural::SnRoll;
use crate::rules::RuleOptions;

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

    /// The die an Overskill Benny adds to this roll as Damage: one more of its first added
    /// dice term's die (Ch. 4.2), with that die's Bonus Die; `None` for fixed Damage.
    pub fn first_added_die(&self) -> Option<(Die, Option<Die>)> {
        self.steps.iter().find_map(|s| match *s {
            Step::Dice {
                negative: false,
                die,
                bonus,
                ..
            } => Some((die, bonus)),
            _ => None,
        })
    }
}
