//! The exact distribution of an expression, split by what the roll means.
//!
//! Terms are independent, so totals convolve; the only coupling is the roll's meaning
//! (Critical Failure, Overskill), which is tracked as three weighted states, each with the
//! distribution of the total given that state. The error budget `eps` is shared: half goes to
//! explosion chains (split evenly over every die that can chain), half to trimming the far
//! tails of large sums. Whatever is cut is reported as truncated mass, never renormalised.

use super::{Expr, TermKind};
use crate::dice::bonus::{DieUse, bonus_die, with_bonus_pmf};
use crate::dice::die::Die;
use crate::dice::pmf::Pmf;
use crate::dice::skill::SkillState;
use crate::options::{OverskillPolicy, RuleOptions};

/// The exact result of an expression.
#[derive(Clone, Debug)]
pub struct Exact {
    /// `(probability, total given the state)` indexed by [`SkillState`].
    states: [(f64, Pmf); 3],
    total: Pmf,
}

impl Exact {
    /// The distribution of the total.
    pub fn total(&self) -> &Pmf {
        &self.total
    }

    /// The chance of a Critical Failure (Ch. 4.2).
    pub fn p_critical_failure(&self) -> f64 {
        self.states[SkillState::CriticalFailure as usize].0
    }

    /// The chance of an Overskill (Ch. 4.2).
    pub fn p_overskill(&self) -> f64 {
        self.states[SkillState::Overskill as usize].0
    }

    /// Mass cut from tails, an upper bound on the error of any probability shown.
    pub fn truncated(&self) -> f64 {
        self.total.truncated()
    }

    /// `P(total > armor)`: Damage beats Armor (Ch. 10.2; ties are `armor_tie`).
    pub fn p_beats(&self, armor: &Pmf) -> f64 {
        self.total.p_greater(armor)
    }

    /// `P(total = armor)`.
    pub fn p_tie(&self, armor: &Pmf) -> f64 {
        self.total.p_equal(armor)
    }

    /// The chance a Skill roll meets `use_rating` (Ch. 4.2: roll + modifiers >= Use; a
    /// Critical Failure always misses). An Overskill Benny may add 1d6, with its own Bonus
    /// Dice (Ch. 4.2), as option `overskill` decides: `auto` and `skill` add it exactly when
    /// the roll would otherwise miss, `damage` never does.
    pub fn p_meets(&self, use_rating: i64, opts: &RuleOptions, eps: f64) -> f64 {
        let [_, (wn, normal), (wo, over)] = &self.states;
        let hit_over = match opts.overskill {
            OverskillPolicy::Damage => over.p_at_least(use_rating),
            OverskillPolicy::Auto | OverskillPolicy::Skill => {
                let benny = with_bonus_pmf(
                    Die::D6,
                    bonus_die(Die::D6, DieUse::Regular, opts),
                    opts.bonus_chain,
                    eps,
                );
                over.add(&benny).p_at_least(use_rating)
            }
        };
        wn * normal.p_at_least(use_rating) + wo * hit_over
    }
}

/// A term's exact distribution and, for added dice, the chance that every natural die shows
/// 1 with the total given that.
struct TermExact {
    full: Pmf,
    ones: Option<(f64, Pmf)>,
}

pub(super) fn exact(expr: &Expr, opts: &RuleOptions, eps: f64) -> Exact {
    let chains = chaining_dice(expr, opts).max(1) as f64;
    let chain_eps = eps / 2.0 / chains;
    let dice_terms = expr
        .terms
        .iter()
        .filter(|t| matches!(t.kind, TermKind::Dice { .. } | TermKind::Sn(_)))
        .count()
        .max(1) as f64;
    // Per dice term: half to trim its own sum, half to trim the running total after it.
    let trim_eps = eps / 4.0 / dice_terms;

    let skill = expr.skill();
    // [critical failure, normal, overskill] as (weight, conditional total).
    let mut states: [(f64, Pmf); 3] = match skill {
        Some(s) => s.exact(opts, chain_eps).states,
        None => [
            (1.0, Pmf::point(0)),
            (0.0, Pmf::point(0)),
            (0.0, Pmf::point(0)),
        ],
    };
    for term in &expr.terms {
        let TermExact { full, ones } = match term.kind {
            TermKind::Skill(_) => continue,
            TermKind::Const(c) => TermExact {
                full: Pmf::point(c),
                ones: None,
            },
            TermKind::Dice { count, die, .. } => {
                let bonus = bonus_die(die, DieUse::Regular, opts);
                let one = match bonus {
                    Some(_) => with_bonus_pmf(die, bonus, opts.bonus_chain, chain_eps),
                    None => die.pmf(),
                };
                TermExact {
                    full: one.sum_of_trimmed(count, trim_eps),
                    ones: Some((
                        (1.0 / die.sides() as f64).powi(count as i32),
                        Pmf::point(count as i64),
                    )),
                }
            }
            TermKind::Sn(sn) => {
                let e = sn.exact(opts, chain_eps * sn.count as f64, trim_eps);
                TermExact {
                    full: e.total,
                    ones: Some((e.p_all_ones, e.given_all_ones)),
                }
            }
        };
        let full = if term.negative { full.neg() } else { full };
        match (skill, ones) {
            // Without a Skill die, an added dice term keeps or ends "all dice show 1".
            (None, Some((p1, given_ones))) if !term.negative => {
                let rest = full.without(p1, &given_ones);
                let [(wa, a), (wn, n), _] = &states;
                let (wa, wn) = (*wa, *wn);
                let w_new_n = wa * (1.0 - p1) + wn;
                let new_n = if w_new_n > 0.0 {
                    let from_a = a.add(&rest);
                    let from_n = n.add(&full);
                    Pmf::mix(&[
                        (wa * (1.0 - p1) / w_new_n, &from_a),
                        (wn / w_new_n, &from_n),
                    ])
                } else {
                    Pmf::point(0)
                };
                states[0] = (wa * p1, a.add(&given_ones));
                states[1] = (w_new_n, new_n);
            }
            _ => {
                for (_, s) in states.iter_mut() {
                    *s = s.add(&full);
                }
            }
        }
        if !matches!(term.kind, TermKind::Const(_)) {
            for (_, s) in states.iter_mut() {
                *s = s.trim(trim_eps);
            }
        }
    }
    if skill.is_none() {
        if !expr.has_positive_dice() {
            // No dice can fail: the "all ones" state was never tested.
            let a = std::mem::replace(&mut states[0], (0.0, Pmf::point(0)));
            states[1] = a;
        } else if expr.fire_only() {
            // Ch. 8.3: a critically failed Fire roll has no effect.
            states[0].1 = Pmf::point(0);
        }
    }
    let parts: Vec<(f64, &Pmf)> = states.iter().map(|(w, p)| (*w, p)).collect();
    let total = Pmf::mix(&parts);
    Exact { states, total }
}

/// Dice whose chains may be cut: each gets an equal share of the chain budget.
fn chaining_dice(expr: &Expr, opts: &RuleOptions) -> u32 {
    expr.terms
        .iter()
        .map(|t| match t.kind {
            TermKind::Dice { count, die, .. } => {
                if bonus_die(die, DieUse::Regular, opts).is_some() {
                    count
                } else {
                    0
                }
            }
            TermKind::Sn(s) => s.count,
            TermKind::Skill(s) => bonus_die(s.die(), DieUse::Skill, opts).is_some() as u32,
            TermKind::Const(_) => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(text: &str) -> Exact {
        Expr::parse(text)
            .unwrap()
            .exact(&RuleOptions::default(), 1e-12)
    }

    #[test]
    fn two_d6_is_the_triangle_with_bonus_dice() {
        // 2d6 with Bonus d6es: P(2) = 1/36. A 6 always rolls on, so 12 is only 5 + (6+1),
        // 4 + (6+2) ...: 5 pairs, two orders, each 1/216 -> 10/216.
        let e = ex("2d6");
        assert!((e.total().prob(2) - 1.0 / 36.0).abs() < 1e-15);
        assert!((e.total().prob(12) - 10.0 / 216.0).abs() < 1e-15);
        assert!((e.total().mean() - 8.4).abs() < 1e-9);
        assert!(e.truncated() <= 1e-12);
        assert!((e.p_critical_failure() - 1.0 / 36.0).abs() < 1e-15);
    }

    #[test]
    fn constants_shift_and_never_fail() {
        let e = ex("4");
        assert_eq!(e.total().prob(4), 1.0);
        assert_eq!(e.p_critical_failure(), 0.0);
        let e = ex("1d6 + 1");
        assert!((e.total().mean() - 5.2).abs() < 1e-9);
    }

    #[test]
    fn fire_critical_failure_is_zero() {
        // 1d4 fire: faces 1..4 uniform, no Bonus Dice; a 1 is a Critical Failure -> 0.
        let e = ex("1d4 fire");
        assert_eq!(e.total().prob(0), 0.25);
        assert_eq!(e.total().prob(1), 0.0);
        assert_eq!(e.total().prob(4), 0.25);
    }

    #[test]
    fn skill_meets_use_with_the_overskill_benny() {
        // d6 skill vs Use 7: only a natural 6 plus the Benny d6 can reach 7 -> 1/6.
        let e = ex("d6 skill");
        let o = RuleOptions::default();
        assert!((e.p_meets(7, &o, 1e-12) - 1.0 / 6.0).abs() < 1e-12);
        // Use 3: faces 3..6 -> 4/6.
        assert!((e.p_meets(3, &o, 1e-12) - 4.0 / 6.0).abs() < 1e-12);
        let mut dmg = o;
        dmg.overskill = OverskillPolicy::Damage;
        assert_eq!(e.p_meets(7, &dmg, 1e-12), 0.0);
        // Ch. 4.2 hit example: Use 3 with a -2 penalty needs a natural 5.
        let e = ex("d6 skill - 2");
        assert!((e.p_meets(3, &o, 1e-12) - 2.0 / 6.0).abs() < 1e-12);
        // A natural 1 always misses, even against Use 0 with +5.
        let e = ex("d6 skill + 5");
        assert!((e.p_meets(0, &o, 1e-12) - 5.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn large_sums_are_trimmed_within_budget() {
        let e = ex("300d10 exp");
        assert!(e.truncated() <= 1e-12, "{}", e.truncated());
        assert!((e.total().mean() - 300.0 * 5.92).abs() < 1e-6);
    }
}
