//! The unit's own Skill (Action) die: Critical Failure, Overskill, Blessing and Curse.
//!
//! A Skill roll is always a single die (Ch. 10.1; Ch. D.4 Action Modifiers). Its natural
//! result decides two things the modifiers never touch:
//! - **Critical Failure**: a natural 1 fails the action whatever the modifiers
//!   (Ch. D.4 Action Modifiers; Ch. 4.2).
//! - **Overskill**: a natural 6 or more earns one Overskill Benny for this action instead of
//!   Bonus Dice (Ch. 4.2). An Incompetent d4 can never reach 6 but may earn a Bonus d4 on a 4
//!   (Ch. 4.2, option `d4_bonus`).
//!
//! **Blessing / Curse** (Ch. D.4): SuperNatural Action dice of the Skill die's size or larger
//! are rolled along with it; Blessed keeps the highest, Cursed the lowest, and each Blessing
//! cancels one Curse. Option `blessing_die` says which die is rolled beside it, option
//! `blessed_natural` which die's natural face decides Critical Failure and Overskill.

use thiserror::Error;

use super::bonus::{DieUse, bonus_die, chain_pmf, roll_chain};
use super::die::{Die, Faces};
use super::log::{DieEvent, Log, Role};
use super::pmf::Pmf;
use crate::options::{BlessedNatural, BlessingDie, BonusChain, RuleOptions};

/// The natural face at which Overskill starts (Ch. 4.2: "any number six or higher").
pub const OVERSKILL_FROM: u32 = 6;

/// A Skill roll: the unit's die plus any Blessings and Curses on it. Validated on
/// construction, so rolling cannot fail.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SkillRoll {
    die: Die,
    blessings: u32,
    curses: u32,
    /// The SuperNatural die carrying the Blessings (Ch. D.4); the Skill die's size if unnamed.
    bless_die: Die,
    curse_die: Die,
}

/// Why a Skill roll cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SkillError {
    /// A Blessing or Curse from a die too small to carry it.
    #[error("a {carrier} cannot Bless or Curse a {die} Skill die")]
    CarrierTooSmall {
        /// The die the blessing rides on.
        carrier: Die,
        /// The die it would carry.
        die: Die,
    },
    /// More dice than a roll may hold.
    #[error("at most {MAX_EXTRA} Blessings or Curses on one die")]
    TooMany,
}

/// A sanity cap on extra dice; far above anything a table would roll.
pub const MAX_EXTRA: u32 = 100;

impl SkillRoll {
    /// A plain Skill roll on `die`.
    pub fn new(die: Die) -> SkillRoll {
        SkillRoll {
            die,
            blessings: 0,
            curses: 0,
            bless_die: die,
            curse_die: die,
        }
    }

    /// Adds `n` Blessings carried by `carrier` (the Skill die's size if `None`).
    /// Ch. D.4: an SN Action die Blesses "an Action Die of its own die size or smaller".
    pub fn blessed(mut self, n: u32, carrier: Option<Die>) -> Result<SkillRoll, SkillError> {
        self.bless_die = self.check(carrier)?;
        self.blessings = self.blessings.saturating_add(n);
        if self.blessings > MAX_EXTRA {
            return Err(SkillError::TooMany);
        }
        Ok(self)
    }

    /// Adds `n` Curses carried by `carrier` (same rule as [`SkillRoll::blessed`]).
    pub fn cursed(mut self, n: u32, carrier: Option<Die>) -> Result<SkillRoll, SkillError> {
        self.curse_die = self.check(carrier)?;
        self.curses = self.curses.saturating_add(n);
        if self.curses > MAX_EXTRA {
            return Err(SkillError::TooMany);
        }
        Ok(self)
    }

    fn check(&self, carrier: Option<Die>) -> Result<Die, SkillError> {
        let c = carrier.unwrap_or(self.die);
        if c < self.die {
            return Err(SkillError::CarrierTooSmall {
                carrier: c,
                die: self.die,
            });
        }
        Ok(c)
    }

    /// The Skill die.
    #[inline]
    pub fn die(&self) -> Die {
        self.die
    }

    /// Blessings left after cancelling Curses one for one (Ch. D.4), as
    /// `(extra dice, keep highest?, extra die)`.
    #[inline]
    fn net(&self, opts: &RuleOptions) -> (u32, bool, Die) {
        let pick = |carrier: Die| match opts.blessing_die {
            BlessingDie::SnDie => carrier,
            BlessingDie::ActionDie => self.die,
        };
        if self.blessings >= self.curses {
            (self.blessings - self.curses, true, pick(self.bless_die))
        } else {
            (self.curses - self.blessings, false, pick(self.curse_die))
        }
    }

    /// Rolls it. `term` tags the log events. In a loop, resolve [`SkillRoll::plan`] once.
    #[inline]
    pub fn roll<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        opts: &RuleOptions,
        faces: &mut F,
        log: &mut L,
        term: usize,
    ) -> SkillOutcome {
        self.plan(opts).roll(faces, log, term)
    }

    /// The roll with `opts` resolved: which extra die, which natural face counts, which
    /// Bonus Die. Rolls the same dice in the same order as [`SkillRoll::roll`].
    #[inline]
    pub fn plan(&self, opts: &RuleOptions) -> SkillPlan {
        let (extra, highest, extra_die) = self.net(opts);
        SkillPlan {
            die: self.die,
            extra,
            highest,
            extra_die,
            own_natural: opts.blessed_natural == BlessedNatural::OwnDie,
            bonus: bonus_die(self.die, DieUse::Skill, opts).filter(|_| opts.bonus_chain.allows(0)),
            chain: opts.bonus_chain,
        }
    }

    /// The exact distribution of the roll, split by what the natural result means.
    pub fn exact(&self, opts: &RuleOptions, eps: f64) -> SkillExact {
        let n = self.die.sides();
        let (extra, highest, extra_die) = self.net(opts);
        // Distribution of the best (or worst) extra die, if any.
        let extra_pmf = (extra > 0).then(|| {
            let one = extra_die.pmf();
            if highest {
                one.highest_of(extra)
            } else {
                one.lowest_of(extra)
            }
        });
        let chain = bonus_die(self.die, DieUse::Skill, opts)
            .filter(|_| opts.bonus_chain.allows(0))
            .map(|b| chain_pmf(b, opts.bonus_chain, eps));
        let mut parts: [Vec<(f64, Pmf)>; 3] = Default::default();
        let q = 1.0 / n as f64;
        for own in 1..=n {
            let outcomes: Vec<(u32, f64)> = match &extra_pmf {
                None => vec![(own, 1.0)],
                Some(e) => e
                    .iter()
                    .filter(|&(_, p)| p > 0.0)
                    .map(|(f, p)| {
                        let f = f as u32;
                        (if highest { own.max(f) } else { own.min(f) }, p)
                    })
                    .collect(),
            };
            for (kept, p) in outcomes {
                let natural = match opts.blessed_natural {
                    BlessedNatural::Kept => kept,
                    BlessedNatural::OwnDie => own,
                };
                let state = if natural == 1 {
                    SkillState::CriticalFailure
                } else if natural >= OVERSKILL_FROM {
                    SkillState::Overskill
                } else {
                    SkillState::Normal
                };
                let total = match &chain {
                    Some(c) if own == n && kept == own => c.shift(kept as i64),
                    _ => Pmf::point(kept as i64),
                };
                parts[state as usize].push((q * p, total));
            }
        }
        let states = parts.map(|branch| {
            let w: f64 = branch.iter().map(|(w, _)| w).sum();
            if w == 0.0 {
                return (0.0, Pmf::point(0));
            }
            let cond: Vec<(f64, &Pmf)> = branch.iter().map(|(bw, p)| (bw / w, p)).collect();
            (w, Pmf::mix(&cond))
        });
        SkillExact { states }
    }
}

impl std::fmt::Display for SkillRoll {
    /// `1d6 skill bless d8`, in the expression notation.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "1{} skill", self.die)?;
        for (word, n, die) in [
            ("bless", self.blessings, self.bless_die),
            ("curse", self.curses, self.curse_die),
        ] {
            match n {
                0 => {}
                1 => write!(f, " {word} {die}")?,
                n => write!(f, " {word} {n}{die}")?,
            }
        }
        Ok(())
    }
}

/// One Skill roll as it fell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SkillOutcome {
    /// The natural face that decides Critical Failure and Overskill.
    pub natural: u32,
    /// The kept face plus any Bonus d4s (Ch. 4.2).
    pub total: i64,
    /// A Critical Failure: the natural Skill face was 1 (Ch. 4.2).
    pub critical_failure: bool,
    /// An Overskill: the natural Skill face was the top one (Ch. 4.2).
    pub overskill: bool,
}

/// A [`SkillRoll`] with the rule options resolved ([`SkillRoll::plan`]); cheap to copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SkillPlan {
    die: Die,
    /// Net Blessings (`highest`) or Curses left after cancelling (Ch. D.4).
    extra: u32,
    highest: bool,
    extra_die: Die,
    /// `blessed_natural = own_die`: the Skill die's own face decides, not the kept one.
    own_natural: bool,
    /// The Incompetent d4's Bonus d4 (Ch. 4.2), when options allow it.
    bonus: Option<Die>,
    chain: BonusChain,
}

impl SkillPlan {
    /// The Skill die and its Bonus Die (the Incompetent d4's), if the roll is that die
    /// alone: no Blessing or Curse, so its own face is the natural one.
    pub fn plain(&self) -> Option<(Die, Option<Die>, BonusChain)> {
        (self.extra == 0).then_some((self.die, self.bonus, self.chain))
    }

    /// Rolls it. `term` tags the log events.
    #[inline(always)] // keeps the RNG state in registers across a trial
    pub fn roll<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
        term: usize,
    ) -> SkillOutcome {
        let own = faces.face(self.die);
        log.die(DieEvent {
            term,
            die: self.die,
            face: own,
            role: Role::Skill,
            counted: own as i64,
        });
        let mut kept = own;
        for _ in 0..self.extra {
            let f = faces.face(self.extra_die);
            log.die(DieEvent {
                term,
                die: self.extra_die,
                face: f,
                role: if self.highest {
                    Role::Blessing
                } else {
                    Role::Curse
                },
                counted: f as i64,
            });
            kept = if self.highest {
                kept.max(f)
            } else {
                kept.min(f)
            };
        }
        let natural = if self.own_natural { own } else { kept };
        let mut bonus = 0;
        // Ch. 4.2: the Incompetent d4's Bonus d4 needs its own natural 4 as the result.
        if own == self.die.sides()
            && kept == own
            && let Some(b) = self.bonus
        {
            bonus = roll_chain(b, self.chain, faces, log, term);
        }
        SkillOutcome {
            natural,
            total: kept as i64 + bonus,
            critical_failure: natural == 1,
            overskill: natural >= OVERSKILL_FROM,
        }
    }
}

/// What a Skill roll's natural result means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SkillState {
    /// A Critical Failure (Ch. 4.2).
    CriticalFailure = 0,
    /// Neither.
    Normal = 1,
    /// An Overskill (Ch. 4.2).
    Overskill = 2,
}

/// The exact Skill roll: for each [`SkillState`], its probability and the distribution of
/// the total given that state.
#[derive(Clone, Debug)]
pub struct SkillExact {
    /// Per [`SkillState`]: its chance, and the total's distribution given it.
    pub states: [(f64, Pmf); 3],
}

impl SkillExact {
    /// The chance of state `s`.
    pub fn p(&self, s: SkillState) -> f64 {
        self.states[s as usize].0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::die::Script;
    use crate::dice::log::NoLog;
    use crate::options::D4Bonus;

    fn roll(s: SkillRoll, opts: &RuleOptions, script: &[(Die, u32)]) -> SkillOutcome {
        let mut dice = Script::new(script);
        let out = s.roll(opts, &mut dice, &mut NoLog, 0);
        assert!(dice.is_done(), "script not used up: {} rolls", dice.used());
        out
    }

    #[test]
    fn natural_one_is_a_critical_failure() {
        // Ch. D.4 Action Modifiers: "only when a unit's own Action die rolls a natural 1".
        let o = roll(
            SkillRoll::new(Die::D6),
            &RuleOptions::default(),
            &[(Die::D6, 1)],
        );
        assert!(o.critical_failure && !o.overskill);
        assert_eq!(o.total, 1);
    }

    #[test]
    fn six_or_more_earns_overskill_not_bonus_dice() {
        // Ch. 4.2: Hero d10 showing 8 earns a Benny; no Bonus d6 follows a Skill 6.
        let o = roll(
            SkillRoll::new(Die::D10),
            &RuleOptions::default(),
            &[(Die::D10, 8)],
        );
        assert!(o.overskill && !o.critical_failure);
        let o = roll(
            SkillRoll::new(Die::D6),
            &RuleOptions::default(),
            &[(Die::D6, 6)],
        );
        assert!(o.overskill);
        assert_eq!(o.total, 6);
        let o = roll(
            SkillRoll::new(Die::D10),
            &RuleOptions::default(),
            &[(Die::D10, 5)],
        );
        assert!(!o.overskill && !o.critical_failure);
    }

    #[test]
    fn incompetent_d4_earns_a_bonus_d4_under_the_option() {
        // Ch. 4.2: "gaining a Bonus d4 on a natural roll of 4"; off by default (Ch. 10.1).
        let s = SkillRoll::new(Die::D4);
        let o = roll(s, &RuleOptions::default(), &[(Die::D4, 4)]);
        assert_eq!(o.total, 4);
        let mut inc = RuleOptions::default();
        inc.d4_bonus = D4Bonus::Incompetent;
        let o = roll(s, &inc, &[(Die::D4, 4), (Die::D4, 4), (Die::D4, 2)]);
        assert_eq!(o.total, 10);
        assert!(
            !o.overskill,
            "a d4 can never roll high enough for Overskill"
        );
    }

    #[test]
    fn blessing_keeps_the_highest_curse_the_lowest() {
        // Ch. D.4: "If the die is Blessed, the unit keeps the highest roll ... if Cursed, the
        // lowest". The extra die is the carrier (default blessing_die = sn_die).
        let o = RuleOptions::default();
        let b = SkillRoll::new(Die::D6).blessed(1, Some(Die::D8)).unwrap();
        let r = roll(b, &o, &[(Die::D6, 1), (Die::D8, 7)]);
        assert_eq!(r.total, 7);
        assert!(
            !r.critical_failure,
            "the kept die decides (blessed_natural = kept)"
        );
        assert!(r.overskill);
        let c = SkillRoll::new(Die::D6).cursed(1, None).unwrap();
        let r = roll(c, &o, &[(Die::D6, 5), (Die::D6, 1)]);
        assert_eq!(r.total, 1);
        assert!(r.critical_failure);
    }

    #[test]
    fn own_die_reading_of_the_natural_result() {
        let mut o = RuleOptions::default();
        o.blessed_natural = BlessedNatural::OwnDie;
        let b = SkillRoll::new(Die::D6).blessed(1, None).unwrap();
        let r = roll(b, &o, &[(Die::D6, 1), (Die::D6, 5)]);
        assert_eq!(r.total, 5);
        assert!(r.critical_failure);
    }

    #[test]
    fn blessings_and_curses_cancel() {
        // Ch. D.4: "ignores one Blessing for every Curse".
        let o = RuleOptions::default();
        let s = SkillRoll::new(Die::D6)
            .blessed(2, None)
            .unwrap()
            .cursed(1, None)
            .unwrap();
        let r = roll(s, &o, &[(Die::D6, 2), (Die::D6, 4)]);
        assert_eq!(r.total, 4);
        let s = SkillRoll::new(Die::D6)
            .blessed(1, None)
            .unwrap()
            .cursed(1, None)
            .unwrap();
        let r = roll(s, &o, &[(Die::D6, 3)]);
        assert_eq!(r.total, 3);
    }

    #[test]
    fn action_die_reading_rolls_the_skill_die_again() {
        let mut o = RuleOptions::default();
        o.blessing_die = BlessingDie::ActionDie;
        let b = SkillRoll::new(Die::D6).blessed(1, Some(Die::D10)).unwrap();
        let r = roll(b, &o, &[(Die::D6, 2), (Die::D6, 3)]);
        assert_eq!(r.total, 3);
    }

    #[test]
    fn a_small_carrier_is_rejected() {
        // Ch. D.4: "a d4 can't be used to Curse an Action d6".
        assert_eq!(
            SkillRoll::new(Die::D6).cursed(1, Some(Die::D4)),
            Err(SkillError::CarrierTooSmall {
                carrier: Die::D4,
                die: Die::D6
            })
        );
    }

    #[test]
    fn exact_states_of_a_plain_d10() {
        let e = SkillRoll::new(Die::D10).exact(&RuleOptions::default(), 1e-12);
        assert!((e.p(SkillState::CriticalFailure) - 0.1).abs() < 1e-15);
        assert!((e.p(SkillState::Overskill) - 0.5).abs() < 1e-15);
        assert!((e.p(SkillState::Normal) - 0.4).abs() < 1e-15);
        let over = &e.states[SkillState::Overskill as usize].1;
        assert!((over.mean() - 8.0).abs() < 1e-12);
    }

    #[test]
    fn exact_blessed_d6_is_the_higher_of_two() {
        // P(max of 2d6 = 1) = 1/36; P(>= 6) = 11/36.
        let s = SkillRoll::new(Die::D6).blessed(1, None).unwrap();
        let e = s.exact(&RuleOptions::default(), 1e-12);
        assert!((e.p(SkillState::CriticalFailure) - 1.0 / 36.0).abs() < 1e-15);
        assert!((e.p(SkillState::Overskill) - 11.0 / 36.0).abs() < 1e-15);
    }
}
