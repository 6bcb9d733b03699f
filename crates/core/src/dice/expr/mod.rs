//! Dice expressions in the notation of the rule texts, rolled and computed exactly.
//!
//! `1d6+1`, `2d6-1`, `3d10 exp`, `1d4 fire`, `d10 skill`, `d6 skill bless d8`, `sn d8`, and
//! sums of them. [`Expr::parse`] validates against the rules (a Skill die is a single die,
//! Exp dice are d10s ...), so rolling cannot fail. [`Expr::roll`] rolls one outcome with
//! any [`Faces`] source and [`Log`]; [`Expr::exact`] gives the exact distribution.
//!
//! **Critical Failure** of a roll: with a Skill die, that die's natural 1 (Ch. D.4 Action
//! Modifiers). Without one, every added die showing a natural 1 (Ch. 10.3: "only ... when
//! all the positive dice roll results of 1, regardless of the rolls on the subtracting
//! dice"); SuperNatural dice count as dice. A critically failed roll whose added dice are all
//! Fire has no effect: its total is 0 (Ch. 8.3 Catching On Fire).

mod exact;
mod parse;
mod plan;

use std::fmt;

pub use exact::Exact;
pub use parse::{MAX_CONST, MAX_DICE, MAX_TERMS, ParseError, parse};
pub use plan::{PlainDice, RollPlan};

use super::damage::DamageType;
use super::die::{Die, Faces};
use super::log::{Log, NoLog};
use super::skill::SkillRoll;
use super::supernatural::SnRoll;
use crate::options::RuleOptions;

/// A parsed, validated dice expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    text: String,
    terms: Vec<Term>,
}

/// One signed term.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Subtracted rather than added.
    pub negative: bool,
    /// Dice or a number.
    pub kind: TermKind,
}

/// What a term rolls.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TermKind {
    /// `count` regular dice, each earning Bonus Dice (Ch. 4.2).
    Dice {
        /// How many dice.
        count: u32,
        /// Which die.
        die: Die,
        /// Its damage type (`exp`, `fire`, ...).
        kind: DamageType,
    },
    /// The unit's Skill die (Ch. 4.2, Ch. D.4).
    Skill(SkillRoll),
    /// SuperNatural dice (Ch. D.3).
    Sn(SnRoll),
    /// A fixed number (Armor 4, +1).
    Const(i64),
}

/// One roll of an expression.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RollOutcome {
    /// The roll's total.
    pub total: i64,
    /// A Critical Failure: the natural Skill face was 1 (Ch. 4.2).
    pub critical_failure: bool,
    /// The Skill die earned an Overskill Benny (Ch. 4.2).
    pub overskill: bool,
    /// Fumble Dice handed to the opponent (Ch. D.3).
    pub fumbles: u32,
}

impl Expr {
    /// Parses and validates `text`.
    pub fn parse(text: &str) -> Result<Expr, ParseError> {
        parse(text)
    }

    /// The expression as typed (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its terms, in the order written.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The Skill roll, if the expression has one.
    pub fn skill(&self) -> Option<SkillRoll> {
        self.terms.iter().find_map(|t| match t.kind {
            TermKind::Skill(s) => Some(s),
            _ => None,
        })
    }

    /// Whether a Critical Failure zeroes the total: every added die is Fire (Ch. 8.3).
    fn fire_only(&self) -> bool {
        let mut any = false;
        for t in self.terms.iter().filter(|t| !t.negative) {
            match t.kind {
                TermKind::Dice {
                    kind: DamageType::Fire,
                    ..
                } => any = true,
                TermKind::Const(_) => {}
                _ => return false,
            }
        }
        any
    }

    /// Whether the roll has added dice that can all show 1.
    fn has_positive_dice(&self) -> bool {
        self.terms
            .iter()
            .any(|t| !t.negative && matches!(t.kind, TermKind::Dice { .. } | TermKind::Sn(_)))
    }

    /// Rolls once. Pass [`NoLog`] in simulations; a `Vec` to narrate. This resolves the
    /// options on every call; in a loop, build [`Expr::plan`] once and roll that.
    pub fn roll<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        opts: &RuleOptions,
        faces: &mut F,
        log: &mut L,
    ) -> RollOutcome {
        self.plan(opts).roll(faces, log)
    }

    /// The expression compiled against `opts`, for rolling many times.
    pub fn plan(&self, opts: &RuleOptions) -> RollPlan {
        RollPlan::new(self, opts)
    }

    /// A sampler for rand's `Distribution` interface (no log).
    pub fn sampler<'a>(&'a self, opts: &'a RuleOptions) -> Sampler<'a> {
        Sampler { expr: self, opts }
    }

    /// The exact distribution; explosion tails are cut at a total of at most `eps`.
    pub fn exact(&self, opts: &RuleOptions, eps: f64) -> Exact {
        exact::exact(self, opts, eps)
    }
}

impl fmt::Display for Expr {
    /// The canonical form: `2d10 exp + 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            match (i, t.negative) {
                (0, true) => f.write_str("-")?,
                (0, false) => {}
                (_, true) => f.write_str(" - ")?,
                (_, false) => f.write_str(" + ")?,
            }
            match t.kind {
                TermKind::Const(c) => write!(f, "{c}")?,
                TermKind::Dice { count, die, kind } => {
                    write!(f, "{count}{die}")?;
                    if kind != DamageType::Plain {
                        write!(f, " {}", kind.tag())?;
                    }
                }
                TermKind::Skill(s) => write!(f, "{}", s)?,
                TermKind::Sn(s) => write!(f, "sn {}{}", s.count, s.die)?,
            }
        }
        Ok(())
    }
}

/// [`Expr::roll`] as a rand `Distribution`.
#[derive(Copy, Clone, Debug)]
pub struct Sampler<'a> {
    expr: &'a Expr,
    opts: &'a RuleOptions,
}

impl rand::distr::Distribution<RollOutcome> for Sampler<'_> {
    fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> RollOutcome {
        self.expr.roll(self.opts, rng, &mut NoLog)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::die::Script;

    fn roll(text: &str, script: &[(Die, u32)]) -> RollOutcome {
        let e = Expr::parse(text).unwrap();
        let mut dice = Script::new(script);
        let o = e.roll(&RuleOptions::default(), &mut dice, &mut NoLog);
        assert!(dice.is_done(), "script not used up: {} rolls", dice.used());
        o
    }

    #[test]
    fn sums_and_modifiers() {
        let o = roll("2d6-1", &[(Die::D6, 3), (Die::D6, 4)]);
        assert_eq!(o.total, 6);
        let o = roll("1d6 - 1d6", &[(Die::D6, 2), (Die::D6, 6), (Die::D6, 3)]);
        assert_eq!(
            o.total, -7,
            "a subtracted die earns subtracted Bonus Dice (Ch. 10.3)"
        );
    }

    #[test]
    fn all_added_dice_showing_one_is_a_critical_failure() {
        // Ch. 10.3: "when all the positive dice roll results of 1, regardless of the rolls on
        // the subtracting Dice".
        assert!(roll("2d6", &[(Die::D6, 1), (Die::D6, 1)]).critical_failure);
        assert!(!roll("2d6", &[(Die::D6, 1), (Die::D6, 2)]).critical_failure);
        assert!(roll("1d6 - 1d6", &[(Die::D6, 1), (Die::D6, 4)]).critical_failure);
        assert!(!roll("4", &[]).critical_failure);
    }

    #[test]
    fn critically_failed_fire_has_no_effect() {
        // Ch. 8.3: "A Critical Failure on a Fire Damage Roll ... has no effect."
        let o = roll("2d4 fire + 1", &[(Die::D4, 1), (Die::D4, 1)]);
        assert!(o.critical_failure);
        assert_eq!(o.total, 0);
        // Larger dice are drawn first, whatever the order written (`RollPlan`).
        let o = roll("1d4 fire + 1d6", &[(Die::D6, 1), (Die::D4, 1)]);
        assert_eq!(o.total, 2, "only an all-Fire roll is zeroed");
    }

    #[test]
    fn skill_die_decides_critical_failure_and_overskill() {
        // Ch. D.4: modifiers never change a Critical Failure.
        let o = roll("d6 skill + 3", &[(Die::D6, 1)]);
        assert!(o.critical_failure);
        assert_eq!(o.total, 4);
        let o = roll("d10 skill - 2", &[(Die::D10, 7)]);
        assert!(o.overskill && !o.critical_failure);
        assert_eq!(o.total, 5);
    }

    #[test]
    fn typed_damage_earns_bonus_d6es() {
        // Ch. 4.2 / readings §1: a top face earns a Bonus d6 "of the same kind of roll".
        let o = roll("1d10 exp", &[(Die::D10, 10), (Die::D6, 4)]);
        assert_eq!(o.total, 14);
        let o = roll("1d4 fire", &[(Die::D4, 4)]);
        assert_eq!(o.total, 4, "regular d4s earn no Bonus Dice (Ch. 10.3)");
    }

    #[test]
    fn sn_terms_count_fumbles() {
        let o = roll("sn d8 + 2", &[(Die::D8, 1), (Die::D8, 3)]);
        assert_eq!(o.total, -1);
        assert_eq!(o.fumbles, 1);
        assert!(o.critical_failure, "its only added die showed 1");
    }

    #[test]
    fn canonical_display() {
        let e = Expr::parse("-1+ 2D10  EXP+d6 skill bless d8+sn d4").unwrap();
        assert_eq!(e.to_string(), "-1 + 2d10 exp + 1d6 skill bless d8 + sn 1d4");
        assert_eq!(
            Expr::parse(&e.to_string()).unwrap(),
            Expr {
                text: e.to_string(),
                ..e
            }
        );
    }
}
