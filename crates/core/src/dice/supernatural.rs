//! SuperNatural dice (Ch. D.3): same-size Bonus Dice, Fumble Dice and double Fumbles.
//!
//! One SN die adds its face to its Aspect, except:
//! - its **top face** earns a SuperNatural Bonus Die of the same size, which chains
//!   ("SuperNatural Bonus Dice are always the same size ... and can earn SuperNatural Bonus
//!   Dice of their own"); unlike regular dice, an SN d4 earns them too (Ch. 10.3);
//! - a **1** adds nothing and becomes a **Fumble Die** that an opponent rolls against the
//!   Effect (option `fumble`: subtract it from the same Aspect, or ignore it);
//! - a Fumble Die's top face spawns **Bonus Fumble Dice**; a Fumble Die showing 1 is
//!   **double-Fumbled** back to the owner (option `double_fumble`).
//!
//! Options `bonus_chain` (chain length) and `sn_bonus_one` (does a Bonus Die's 1 fumble?)
//! settle what the text leaves open.
//!
//! The exact distribution is a fixed point: rolling can cycle (fumble, double fumble, ...)
//! with geometrically falling probability, so it is iterated by depth until the mass still
//! rolling is at most `eps`, and that mass is reported as truncated.

use super::die::{Die, Faces};
use super::log::{DieEvent, Log, Role};
use super::pmf::Pmf;
use crate::options::{BonusChain, DoubleFumble, FumbleUse, RuleOptions, SnBonusOne};

/// Chain states tracked exactly; a longer `bonus_chain` limit behaves as unlimited, which
/// differs by less than 4^-64 in probability.
const MAX_CHAIN_STATES: u32 = 64;

/// Iteration cap for the exact fixed point; reached only if `eps` is absurdly small.
const MAX_DEPTH: usize = 10_000;

/// `count` SuperNatural dice of one size, rolled for one Aspect.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SnRoll {
    /// How many SN dice.
    pub count: u32,
    /// Which die.
    pub die: Die,
}

/// What one SN roll did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SnOutcome {
    /// Net effect on the Aspect (Fumble Dice subtract).
    pub total: i64,
    /// Fumble Dice handed to the opponent (including Bonus Fumble Dice).
    pub fumbles: u32,
    /// Whether every SN die of the roll (not counting Bonus Dice) showed a natural 1.
    pub all_ones: bool,
}

/// Who holds the die being rolled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Holder {
    Owner,
    Opponent,
}

impl SnRoll {
    /// Rolls it, logging each die.
    #[inline(always)]
    pub fn roll<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        opts: &RuleOptions,
        faces: &mut F,
        log: &mut L,
        term: usize,
    ) -> SnOutcome {
        let mut out = SnOutcome {
            all_ones: self.count > 0,
            ..SnOutcome::default()
        };
        for _ in 0..self.count {
            let (t, fumbles, first) = roll_one(self.die, opts, faces, log, term);
            out.total += t;
            out.fumbles += fumbles;
            out.all_ones &= first == 1;
        }
        out
    }

    /// The exact distribution, with the chance that every SN die shows a natural 1 and the
    /// distribution given that (for the "all dice show 1" Critical Failure, Ch. 10.3).
    /// `eps` bounds the mass cut from chains, `trim` the mass trimmed from the far tails of
    /// the sum of several dice.
    pub fn exact(&self, opts: &RuleOptions, eps: f64, trim: f64) -> SnExact {
        let per_die = eps / self.count.max(1) as f64;
        let one = one_die_exact(self.die, opts, per_die);
        SnExact {
            total: one.total.sum_of_trimmed(self.count, trim / 2.0),
            p_all_ones: one.p_one.powi(self.count as i32),
            given_all_ones: one.given_one.sum_of_trimmed(self.count, trim / 2.0),
        }
    }
}

/// Exact result of [`SnRoll::exact`].
#[derive(Clone, Debug)]
pub struct SnExact {
    /// The total's distribution.
    pub total: Pmf,
    /// The chance every die shows 1 (a Fumble).
    pub p_all_ones: f64,
    /// The total's distribution given a Fumble.
    pub given_all_ones: Pmf,
}

/// Rolls one owner's SN die with everything it sets off, iteratively (no recursion, no
/// allocation). Returns (net total, Fumble Dice, first natural face).
#[inline(always)]
fn roll_one<F: Faces + ?Sized, L: Log + ?Sized>(
    die: Die,
    opts: &RuleOptions,
    faces: &mut F,
    log: &mut L,
    term: usize,
) -> (i64, u32, u32) {
    let n = die.sides();
    let mut total = 0i64;
    let mut fumbles = 0u32;
    let mut first = None;
    let mut holder = Holder::Owner;
    // Bonus Dice already earned in the current chain; `None` for a chain's first die.
    let mut earned: Option<u32> = None;
    let mut role = Role::SuperNatural;
    loop {
        let f = faces.face(die);
        first.get_or_insert(f);
        let sign = if holder == Holder::Owner { 1 } else { -1 };
        let is_bonus = earned.is_some();
        let one_fumbles = !is_bonus || opts.sn_bonus_one == SnBonusOne::Fumble;
        if f == 1 && one_fumbles {
            log.die(DieEvent {
                term,
                die,
                face: f,
                role,
                counted: 0,
            });
            match holder {
                Holder::Owner => {
                    fumbles += 1;
                    if opts.fumble == FumbleUse::Ignore {
                        return (total, fumbles, first.unwrap_or(f));
                    }
                    holder = Holder::Opponent;
                    role = Role::Fumble;
                }
                Holder::Opponent => {
                    if opts.double_fumble == DoubleFumble::Lost {
                        return (total, fumbles, first.unwrap_or(f));
                    }
                    holder = Holder::Owner;
                    role = Role::DoubleFumble;
                }
            }
            earned = None;
            continue;
        }
        log.die(DieEvent {
            term,
            die,
            face: f,
            role,
            counted: sign * f as i64,
        });
        total += sign * f as i64;
        let e = earned.unwrap_or(0);
        if f != n || !opts.bonus_chain.allows(e) {
            return (total, fumbles, first.unwrap_or(f));
        }
        earned = Some(e + 1);
        role = match holder {
            Holder::Owner => Role::SnBonus,
            Holder::Opponent => {
                fumbles += 1;
                Role::FumbleBonus
            }
        };
    }
}

struct OneDie {
    total: Pmf,
    p_one: f64,
    given_one: Pmf,
}

/// Exact distribution of [`roll_one`] by iterating the depth-limited recursion
/// `V = mix(1: F, 2..n-1: face, n: n + V')`, `F = mix(1: V, 2..n-1: -face, n: -n + F')`.
fn one_die_exact(die: Die, opts: &RuleOptions, eps: f64) -> OneDie {
    let n = die.sides() as i64;
    let q = 1.0 / n as f64;
    let mid = 1.0 - 2.0 * q;
    // State index = Bonus Dice earned in the chain; the last state repeats if unlimited.
    let (states, unlimited) = match opts.bonus_chain {
        BonusChain::Unlimited => (2usize, true),
        BonusChain::Max(m) if m > MAX_CHAIN_STATES => (2usize, true),
        BonusChain::Max(m) => (m as usize + 1, false),
    };
    let next = |e: usize| if unlimited { 1 } else { e + 1 };
    let allows = |e: usize| unlimited || opts.bonus_chain.allows(e as u32);
    let owner_mid = Pmf::uniform(2, n - 1);
    let opp_mid = owner_mid.neg();
    let ignore = opts.fumble == FumbleUse::Ignore;
    let lost = opts.double_fumble == DoubleFumble::Lost;
    let mut v: Vec<Pmf> = vec![Pmf::nothing(); states];
    let mut f: Vec<Pmf> = vec![Pmf::nothing(); states];
    let mut depth = 0;
    loop {
        let mut nv = Vec::with_capacity(states);
        let mut nf = Vec::with_capacity(states);
        for e in 0..states {
            let fumbles_here = e == 0 || opts.sn_bonus_one == SnBonusOne::Fumble;
            let v_one = if !fumbles_here {
                Pmf::point(1)
            } else if ignore {
                Pmf::point(0)
            } else {
                f[0].clone()
            };
            let f_one = if !fumbles_here {
                Pmf::point(-1)
            } else if lost {
                Pmf::point(0)
            } else {
                v[0].clone()
            };
            let (v_top, f_top) = if allows(e) {
                (v[next(e)].shift(n), f[next(e)].shift(-n))
            } else {
                (Pmf::point(n), Pmf::point(-n))
            };
            nv.push(Pmf::mix(&[(q, &v_one), (mid, &owner_mid), (q, &v_top)]));
            nf.push(Pmf::mix(&[(q, &f_one), (mid, &opp_mid), (q, &f_top)]));
        }
        v = nv;
        f = nf;
        depth += 1;
        if v[0].truncated() <= eps || depth >= MAX_DEPTH {
            break;
        }
    }
    let given_one = if ignore { Pmf::point(0) } else { f[0].clone() };
    OneDie {
        total: v.swap_remove(0),
        p_one: q,
        given_one,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::die::Script;
    use crate::dice::log::NoLog;
    use crate::options::{BonusChain, SnBonusOne};

    fn roll(die: Die, opts: &RuleOptions, script: &[(Die, u32)]) -> SnOutcome {
        let mut dice = Script::new(script);
        let out = SnRoll { count: 1, die }.roll(opts, &mut dice, &mut NoLog, 0);
        assert!(dice.is_done(), "script not used up: {} rolls", dice.used());
        out
    }

    #[test]
    fn top_face_earns_same_size_bonus_dice_that_chain() {
        // Ch. D.3: "A roll of 8 on a SuperNatural d8 earns a SuperNatural Bonus d8".
        let o = roll(
            Die::D8,
            &RuleOptions::default(),
            &[(Die::D8, 8), (Die::D8, 8), (Die::D8, 3)],
        );
        assert_eq!(o.total, 19);
        assert_eq!(o.fumbles, 0);
    }

    #[test]
    fn sn_d4_earns_bonus_dice() {
        // Ch. 10.3: "Unlike regular d4s, a SuperNatural d4 can earn Bonus Dice".
        let o = roll(
            Die::D4,
            &RuleOptions::default(),
            &[(Die::D4, 4), (Die::D4, 2)],
        );
        assert_eq!(o.total, 6);
    }

    #[test]
    fn a_one_becomes_a_fumble_die_the_opponent_subtracts() {
        // Ch. D.3: a 1 "doesn't add anything"; the enemy uses it "to thwart the Effect".
        let o = roll(
            Die::D6,
            &RuleOptions::default(),
            &[(Die::D6, 1), (Die::D6, 4)],
        );
        assert_eq!(o.total, -4);
        assert_eq!(o.fumbles, 1);
        assert!(o.all_ones);
        let mut ign = RuleOptions::default();
        ign.fumble = FumbleUse::Ignore;
        let o = roll(Die::D6, &ign, &[(Die::D6, 1)]);
        assert_eq!(o.total, 0);
        assert_eq!(o.fumbles, 1);
    }

    #[test]
    fn fumble_top_face_spawns_bonus_fumble_dice() {
        // Ch. D.3: "A Fumble Die that rolls its highest-numbered face can spawn SuperNatural
        // Bonus Fumble Dice for the enemy player."
        let o = roll(
            Die::D6,
            &RuleOptions::default(),
            &[(Die::D6, 1), (Die::D6, 6), (Die::D6, 2)],
        );
        assert_eq!(o.total, -8);
        assert_eq!(o.fumbles, 2);
    }

    #[test]
    fn a_double_fumble_returns_to_the_owner() {
        // Ch. D.3: "A Fumble Die that rolls a 1 is double-Fumbled right back".
        let o = roll(
            Die::D6,
            &RuleOptions::default(),
            &[(Die::D6, 1), (Die::D6, 1), (Die::D6, 5)],
        );
        assert_eq!(o.total, 5);
        let mut lost = RuleOptions::default();
        lost.double_fumble = DoubleFumble::Lost;
        let o = roll(Die::D6, &lost, &[(Die::D6, 1), (Die::D6, 1)]);
        assert_eq!(o.total, 0);
    }

    #[test]
    fn bonus_die_one_under_both_readings() {
        let o = roll(
            Die::D6,
            &RuleOptions::default(),
            &[(Die::D6, 6), (Die::D6, 1), (Die::D6, 3)],
        );
        assert_eq!(
            o.total, 3,
            "6, then the Bonus Die fumbles and the enemy takes 3"
        );
        let mut count = RuleOptions::default();
        count.sn_bonus_one = SnBonusOne::Count;
        let o = roll(Die::D6, &count, &[(Die::D6, 6), (Die::D6, 1)]);
        assert_eq!(o.total, 7);
    }

    #[test]
    fn chain_limit_applies() {
        let mut o = RuleOptions::default();
        o.bonus_chain = BonusChain::Max(1);
        let r = roll(Die::D6, &o, &[(Die::D6, 6), (Die::D6, 6)]);
        assert_eq!(r.total, 12);
    }

    #[test]
    fn exact_mean_matches_the_fixed_point() {
        // E[V] = E[F]/n + S + (n + E[V])/n and E[F] = E[V]/n - S + (-n + E[F])/n, with
        // S = (2 + ... + n-1)/n. Their difference gives E[V] - E[F] = 2(S + 1), their sum
        // E[V] + E[F] = 0, so E[V] = S + 1 = 10/3 for a d6.
        let ev = 14.0 / 6.0 + 1.0;
        let p = SnRoll {
            count: 1,
            die: Die::D6,
        }
        .exact(&RuleOptions::default(), 1e-14, 0.0);
        assert!(p.total.truncated() <= 1e-14);
        assert!(
            (p.total.mean() - ev).abs() < 1e-9,
            "{} vs {ev}",
            p.total.mean()
        );
        assert!((p.total.mass() + p.total.truncated() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn exact_limited_chain_without_fumbles_has_no_truncation() {
        let mut o = RuleOptions::default();
        o.bonus_chain = BonusChain::Max(0);
        o.fumble = FumbleUse::Ignore;
        let p = SnRoll {
            count: 1,
            die: Die::D8,
        }
        .exact(&o, 1e-12, 0.0);
        assert_eq!(p.total.truncated(), 0.0);
        assert!((p.total.prob(0) - 0.125).abs() < 1e-15);
        assert!((p.total.prob(8) - 0.125).abs() < 1e-15);
    }
}
