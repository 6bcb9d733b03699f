//! Bonus Dice: a top face earns another die.
//!
//! readings §1 (from the 2020 author's answer, and Ch. 4.2: "any Bonus Dice rolled off of an
//! Overskill die still add regular +1d6es"): a regular die (Damage, Armor, range, Sprint
//! inches ...) that shows its highest face earns a Bonus d6 for the same roll, and a Bonus d6
//! that shows 6 earns another. Exceptions:
//! - regular d4s earn nothing (Ch. 10.3), unless option `d4_bonus` says otherwise;
//! - the Skill die earns an Overskill Benny instead (Ch. 4.2), except that an Incompetent d4
//!   Skill die may earn a Bonus d4 on a 4 (Ch. 4.2, option `d4_bonus`);
//! - the chain length is option `bonus_chain`.
//!
//! Exact distributions cut the chain once the mass still rolling is at most `eps`, and
//! report that mass as truncated.

use super::die::{Die, Faces};
use super::log::{DieEvent, Log, Role};
use super::pmf::Pmf;
use crate::options::{BonusChain, D4Bonus, RuleOptions};

/// Whether a die is the unit's Skill die or any other ("regular") die.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DieUse {
    /// A Regular die: a top face adds a Bonus Die.
    Regular,
    /// A Skill die: its top face is an Overskill, not a Bonus Die.
    Skill,
}

/// The Bonus Die a `die` earns on its top face under `opts`, if any.
#[inline]
pub fn bonus_die(die: Die, usage: DieUse, opts: &RuleOptions) -> Option<Die> {
    match (usage, die, opts.d4_bonus) {
        // Ch. 4.2: an Incompetent d4 Skill die gains "a Bonus d4 on a natural roll of 4".
        (DieUse::Skill, Die::D4, D4Bonus::Incompetent | D4Bonus::All) => Some(Die::D4),
        // Ch. 4.2: the Skill die earns Overskill "rather than scoring a Critical Success".
        (DieUse::Skill, _, _) => None,
        // Ch. 10.3: "Unlike regular d4s, a SuperNatural d4 can earn Bonus Dice".
        (DieUse::Regular, Die::D4, D4Bonus::All) => Some(Die::D6),
        (DieUse::Regular, Die::D4, _) => None,
        (DieUse::Regular, _, _) => Some(Die::D6),
    }
}

/// Rolls `die` and any Bonus Dice it earns; returns the total it adds.
#[inline(always)] // keeps the RNG state in registers across a trial
pub fn roll_with_bonus<F: Faces + ?Sized, L: Log + ?Sized>(
    die: Die,
    bonus: Option<Die>,
    chain: BonusChain,
    faces: &mut F,
    log: &mut L,
    term: usize,
    role: Role,
) -> i64 {
    let face = faces.face(die);
    log.die(DieEvent {
        term,
        die,
        face,
        role,
        counted: face as i64,
    });
    let mut total = face as i64;
    if face == die.sides()
        && let Some(b) = bonus
        && chain.allows(0)
    {
        total += roll_chain(b, chain, faces, log, term);
    }
    total
}

/// Rolls a chain of Bonus Dice that starts with one `bonus` die.
#[inline(always)] // an out-of-line call would pin the RNG state to memory for the whole trial
pub fn roll_chain<F: Faces + ?Sized, L: Log + ?Sized>(
    bonus: Die,
    chain: BonusChain,
    faces: &mut F,
    log: &mut L,
    term: usize,
) -> i64 {
    let mut total = 0;
    let mut earned = 1;
    loop {
        let face = faces.face(bonus);
        log.die(DieEvent {
            term,
            die: bonus,
            face,
            role: Role::Bonus,
            counted: face as i64,
        });
        total += face as i64;
        if face != bonus.sides() || !chain.allows(earned) {
            return total;
        }
        earned += 1;
    }
}

/// Exact distribution of [`roll_with_bonus`], chain cut at `eps` of remaining mass.
pub fn with_bonus_pmf(die: Die, bonus: Option<Die>, chain: BonusChain, eps: f64) -> Pmf {
    let n = die.sides() as i64;
    let q = 1.0 / n as f64;
    let plain: Vec<(i64, f64)> = (1..n).map(|f| (f, q)).collect();
    let Some(b) = bonus.filter(|_| chain.allows(0)) else {
        return die.pmf();
    };
    let top = chain_pmf(b, chain, eps / q).shift(n);
    Pmf::mix(&[
        (
            1.0 - q,
            &Pmf::from_pairs(&plain, 0.0).scaled_to_one(1.0 - q),
        ),
        (q, &top),
    ])
}

/// Exact distribution of [`roll_chain`], cut once the chance of still rolling is `<= eps`.
pub fn chain_pmf(bonus: Die, chain: BonusChain, eps: f64) -> Pmf {
    let n = bonus.sides() as i64;
    let q = 1.0 / n as f64;
    let mut pairs = Vec::new();
    let mut reach = 1.0; // P(the k-th Bonus Die is rolled)
    let mut earned: u32 = 1;
    loop {
        let base = n * (earned as i64 - 1);
        for f in 1..n {
            pairs.push((base + f, reach * q));
        }
        if !chain.allows(earned) {
            pairs.push((base + n, reach * q));
            return Pmf::from_pairs(&pairs, 0.0);
        }
        reach *= q;
        if reach <= eps {
            return Pmf::from_pairs(&pairs, reach);
        }
        earned += 1;
    }
}

impl Pmf {
    /// Rescales a sub-distribution whose listed mass is `m` so it sums to one (used to feed
    /// [`Pmf::mix`], which takes conditional branches).
    fn scaled_to_one(&self, m: f64) -> Pmf {
        let pairs: Vec<(i64, f64)> = self.iter().map(|(v, p)| (v, p / m)).collect();
        Pmf::from_pairs(&pairs, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::die::Script;
    use crate::dice::log::NoLog;

    fn opts() -> RuleOptions {
        RuleOptions::default()
    }

    #[test]
    fn who_earns_bonus_dice() {
        let o = opts();
        assert_eq!(bonus_die(Die::D6, DieUse::Regular, &o), Some(Die::D6));
        assert_eq!(bonus_die(Die::D10, DieUse::Regular, &o), Some(Die::D6));
        assert_eq!(bonus_die(Die::D4, DieUse::Regular, &o), None);
        assert_eq!(bonus_die(Die::D6, DieUse::Skill, &o), None);
        assert_eq!(bonus_die(Die::D4, DieUse::Skill, &o), None);
        let mut inc = opts();
        inc.d4_bonus = D4Bonus::Incompetent;
        assert_eq!(bonus_die(Die::D4, DieUse::Skill, &inc), Some(Die::D4));
        assert_eq!(bonus_die(Die::D4, DieUse::Regular, &inc), None);
        let mut all = opts();
        all.d4_bonus = D4Bonus::All;
        assert_eq!(bonus_die(Die::D4, DieUse::Regular, &all), Some(Die::D6));
    }

    #[test]
    fn top_face_earns_a_bonus_d6_that_chains() {
        // d10 shows 10 -> Bonus d6 shows 6 -> another shows 2: 18.
        let mut s = Script::new(&[(Die::D10, 10), (Die::D6, 6), (Die::D6, 2)]);
        let mut log = Vec::new();
        let t = roll_with_bonus(
            Die::D10,
            Some(Die::D6),
            BonusChain::Unlimited,
            &mut s,
            &mut log,
            0,
            Role::Regular,
        );
        assert_eq!(t, 18);
        assert!(s.is_done());
        assert_eq!(log.len(), 3);
        assert_eq!(log[1].role, Role::Bonus);
    }

    #[test]
    fn no_bonus_below_the_top_face() {
        let mut s = Script::new(&[(Die::D10, 9)]);
        let t = roll_with_bonus(
            Die::D10,
            Some(Die::D6),
            BonusChain::Unlimited,
            &mut s,
            &mut NoLog,
            0,
            Role::Regular,
        );
        assert_eq!(t, 9);
        assert!(s.is_done());
    }

    #[test]
    fn chain_limit_stops_the_chain() {
        // bonus_chain=1: d6 6 -> one Bonus d6 showing 6 earns nothing more.
        let mut s = Script::new(&[(Die::D6, 6), (Die::D6, 6)]);
        let t = roll_with_bonus(
            Die::D6,
            Some(Die::D6),
            BonusChain::Max(1),
            &mut s,
            &mut NoLog,
            0,
            Role::Regular,
        );
        assert_eq!(t, 12);
        assert!(s.is_done());
        // bonus_chain=0: no Bonus Dice at all.
        let mut s = Script::new(&[(Die::D6, 6)]);
        let t = roll_with_bonus(
            Die::D6,
            Some(Die::D6),
            BonusChain::Max(0),
            &mut s,
            &mut NoLog,
            0,
            Role::Regular,
        );
        assert_eq!(t, 6);
        assert!(s.is_done());
    }

    #[test]
    fn exploding_d6_matches_its_closed_form() {
        // P(X = 6k + f) = 6^-(k+1) for f in 1..=5; E[X] = 3.5 / (1 - 1/6) = 4.2.
        let p = with_bonus_pmf(Die::D6, Some(Die::D6), BonusChain::Unlimited, 1e-15);
        for k in 0..5 {
            for f in 1..=5 {
                let want = 6f64.powi(-(k + 1));
                let got = p.prob(6 * k as i64 + f);
                assert!((got - want).abs() < 1e-15, "P(X={})", 6 * k + f as i32);
            }
            assert_eq!(p.prob(6 * (k as i64 + 1)), 0.0, "a 6 always rolls on");
        }
        assert!((p.mean() - 4.2).abs() < 1e-12);
        assert!(p.truncated() <= 1e-15 && p.truncated() > 0.0);
        assert!((p.mass() + p.truncated() - 1.0).abs() < 1e-14);
    }

    #[test]
    fn d10_with_bonus_mean() {
        // E = 5.5 + (1/10) * E[chain of d6] = 5.5 + 0.42.
        let p = with_bonus_pmf(Die::D10, Some(Die::D6), BonusChain::Unlimited, 1e-15);
        assert!((p.mean() - 5.92).abs() < 1e-12);
    }

    #[test]
    fn limited_chain_is_exact_with_no_truncation() {
        let p = with_bonus_pmf(Die::D6, Some(Die::D6), BonusChain::Max(1), 1e-15);
        assert_eq!(p.truncated(), 0.0);
        assert!((p.prob(12) - 1.0 / 36.0).abs() < 1e-15);
        assert!((p.mass() - 1.0).abs() < 1e-15);
    }
}
