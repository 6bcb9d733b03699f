//! The exact distribution of Marks for any pool.
//!
//! Each die lands in one of four results (1, blank, plain Mark, Roll-Again), so a roll of
//! `h` d6s and `s` d10s is one of the multinomial splits of each; [`super::roll::resolve`]
//! (the same function the Monte Carlo roll uses) turns a split into the Marks kept and the
//! Roll-Agains to re-roll. A re-roll chain adds a Mark per 5+ and goes on while it shows a
//! Roll-Again; its distribution is summed geometrically, cut where the chance left is below
//! `tail` (the cut mass is reported, never hidden).

use std::collections::BTreeMap;

use super::pool::Pool;
use super::roll::{Kept, Shown, resolve};
use crate::dice::Pmf;
use crate::rules::{MarksRerollOnes, RuleOptions};

/// Chances of (1, blank, plain Mark, Roll-Again) on a d6 and on a d10.
const D6: [f64; 4] = [1.0 / 6.0, 3.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0];
const D10: [f64; 4] = [0.1, 0.3, 0.4, 0.2];

/// The Marks one kept Roll-Again's re-rolls add (a chain), cut at `tail`.
pub fn chain(die: [f64; 4], opts: &RuleOptions, tail: f64) -> Pmf {
    let [one, blank, mark, again] = die;
    let (stop0, stop_minus) = match opts.marks_reroll_ones {
        MarksRerollOnes::Ignore => (one + blank, 0.0),
        MarksRerollOnes::Cancel => (blank, one),
    };
    // j Roll-Agains, then a stop: +1 (Mark), 0 or -1 (a cancelling 1).
    let mut pairs: BTreeMap<i64, f64> = BTreeMap::new();
    let mut reach = 1.0;
    let mut j = 0i64;
    while reach > tail {
        *pairs.entry(j + 1).or_default() += reach * mark;
        *pairs.entry(j).or_default() += reach * stop0;
        *pairs.entry(j - 1).or_default() += reach * stop_minus;
        reach *= again;
        j += 1;
    }
    let v: Vec<(i64, f64)> = pairs.into_iter().filter(|&(_, p)| p > 0.0).collect();
    Pmf::from_pairs(&v, reach)
}

/// Multinomial splits of `n` dice over the four results: `(Shown, probability)`.
fn splits(n: u32, p: [f64; 4]) -> Vec<(Shown, f64)> {
    let fact = |k: u32| (1..=k).map(f64::from).product::<f64>();
    let mut out = Vec::new();
    for ones in 0..=n {
        for blanks in 0..=n - ones {
            for marks in 0..=n - ones - blanks {
                let again = n - ones - blanks - marks;
                let coeff = fact(n) / (fact(ones) * fact(blanks) * fact(marks) * fact(again));
                let prob = coeff
                    * p[0].powi(ones as i32)
                    * p[1].powi(blanks as i32)
                    * p[2].powi(marks as i32)
                    * p[3].powi(again as i32);
                out.push((
                    Shown {
                        ones,
                        blanks,
                        marks,
                        again,
                    },
                    prob,
                ));
            }
        }
    }
    out
}

/// The exact distribution of Marks for `pool`, with at most about `tail` mass cut per
/// re-roll chain (the total cut is `Pmf::truncated`).
pub fn marks(pool: &Pool, opts: &RuleOptions, tail: f64) -> Pmf {
    // How often each kept result comes up.
    let mut kept: BTreeMap<Kept, f64> = BTreeMap::new();
    let s6 = splits(pool.d6(), D6);
    let s10 = splits(pool.d10(), D10);
    for (a, pa) in &s6 {
        for (b, pb) in &s10 {
            *kept.entry(resolve(*a, *b, pool.keep(), opts)).or_default() += pa * pb;
        }
    }
    let c6 = chain(D6, opts, tail);
    let c10 = chain(D10, opts, tail);
    let mut parts: Vec<(f64, Pmf)> = Vec::new();
    for (k, p) in kept {
        let rerolls = c10.sum_of(k.again10).add(&c6.sum_of(k.again6));
        parts.push((p, rerolls.shift(k.marks as i64)));
    }
    let refs: Vec<(f64, &Pmf)> = parts.iter().map(|(p, d)| (*p, d)).collect();
    let mut total = Pmf::mix(&refs);
    // The tally never goes below 0 (a re-rolled 1 with nothing left to cancel).
    for v in total.min_value()..0 {
        let p = total.prob(v);
        if p > 0.0 {
            total = total.move_mass(v, 0, p);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_d6_by_hand() {
        // 1d6 keep 1: 1-4 no Mark (4/6); 5 one Mark (1/6); 6 one Mark and a re-roll chain:
        // P(exactly 1) = 1/6 + 1/6 * (4/6 + 0) ... the chain adds k with (1/6)^(k) ... so
        // P(0) = 4/6, P(1) = 1/6 + 1/6 * 4/6, P(2) = 1/6 * (1/6 + 1/6 * 4/6).
        let d = marks(&Pool::of(1, 0, 0, 0), &RuleOptions::default(), 1e-15);
        assert!((d.prob(0) - 4.0 / 6.0).abs() < 1e-12);
        let p1 = 1.0 / 6.0 + (1.0 / 6.0) * (4.0 / 6.0);
        assert!((d.prob(1) - p1).abs() < 1e-12, "{}", d.prob(1));
        assert!((d.prob(2) - p1 / 6.0).abs() < 1e-12);
        assert!((d.mass() + d.truncated() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_d10_marks_on_five_up_and_rerolls_nine_and_ten() {
        let d = marks(&Pool::of(0, 0, 1, 0), &RuleOptions::default(), 1e-15);
        assert!((d.prob(0) - 0.4).abs() < 1e-12);
        // Mean: 0.6 Marks, plus 0.2 of a chain whose mean is 0.6 / (1 - 0.2) = 0.75.
        assert!((d.mean() - (0.6 + 0.2 * 0.75)).abs() < 1e-9, "{}", d.mean());
    }

    #[test]
    fn skill_dice_only_help() {
        // 3d6 keep 3 against 6d6 keep 3: more dice to choose from, never fewer Marks.
        let o = RuleOptions::default();
        let three = marks(&Pool::of(3, 0, 0, 0), &o, 1e-13);
        let six = marks(&Pool::of(3, 3, 0, 0), &o, 1e-13);
        for k in 1..8 {
            assert!(six.p_at_least(k) >= three.p_at_least(k) - 1e-12, "{k}");
        }
    }
}
