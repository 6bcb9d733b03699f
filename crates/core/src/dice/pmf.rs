//! Exact probability mass over integers.
//!
//! A [`Pmf`] holds `P(X = v)` for every integer `v` in a contiguous range, plus the mass it
//! does *not* hold: exploding dice (Bonus Dice chains, SuperNatural bonus and Fumble dice)
//! have unbounded support, so their tails are cut once the remaining mass is below a stated
//! bound. That cut is never hidden: [`Pmf::truncated`] reports it, every operation carries it
//! forward, and probabilities are never renormalised to paper over it.
//!
//! Operations are the ones dice maths needs: sum of independent variables (convolution),
//! negation, shift, mixtures, max/min, highest/lowest of `n` independent copies, and the
//! comparisons `P(X > Y)` and `P(X >= Y)` used for Damage vs Armor and Skill vs Use.

use std::fmt;

/// Probability mass over the integers `min..min + p.len()`, with a stated truncated tail.
#[derive(Clone, Debug, PartialEq)]
pub struct Pmf {
    min: i64,
    p: Vec<f64>,
    /// Mass cut from explosion tails (not present in `p`).
    truncated: f64,
}

impl Pmf {
    /// All mass on one value.
    pub fn point(v: i64) -> Pmf {
        Pmf {
            min: v,
            p: vec![1.0],
            truncated: 0.0,
        }
    }

    /// Uniform over `lo..=hi` (a fair die is `uniform(1, n)`).
    ///
    /// # Panics
    /// If `hi < lo`; callers build these from validated dice.
    pub fn uniform(lo: i64, hi: i64) -> Pmf {
        assert!(hi >= lo, "uniform({lo}, {hi}) is empty");
        let n = (hi - lo + 1) as usize;
        Pmf {
            min: lo,
            p: vec![1.0 / n as f64; n],
            truncated: 0.0,
        }
    }

    /// The empty sub-distribution: no mass anywhere, all of it truncated.
    /// The starting point of a depth-limited recursion.
    pub fn nothing() -> Pmf {
        Pmf {
            min: 0,
            p: Vec::new(),
            truncated: 1.0,
        }
    }

    /// Builds a distribution from `(value, probability)` pairs; repeated values add up.
    /// `truncated` is the mass deliberately left out.
    pub fn from_pairs(pairs: &[(i64, f64)], truncated: f64) -> Pmf {
        let Some(lo) = pairs.iter().map(|&(v, _)| v).min() else {
            return Pmf {
                min: 0,
                p: Vec::new(),
                truncated,
            };
        };
        let hi = pairs.iter().map(|&(v, _)| v).max().unwrap_or(lo);
        let mut p = vec![0.0; (hi - lo + 1) as usize];
        for &(v, q) in pairs {
            p[(v - lo) as usize] += q;
        }
        Pmf {
            min: lo,
            p,
            truncated,
        }
    }

    /// Smallest value with a slot (its probability may be zero).
    pub fn min_value(&self) -> i64 {
        self.min
    }

    /// Largest value with a slot.
    pub fn max_value(&self) -> i64 {
        self.min + self.p.len() as i64 - 1
    }

    /// `P(X = v)`.
    pub fn prob(&self, v: i64) -> f64 {
        if v < self.min {
            return 0.0;
        }
        self.p.get((v - self.min) as usize).copied().unwrap_or(0.0)
    }

    /// Mass cut from the tails and not represented here.
    pub fn truncated(&self) -> f64 {
        self.truncated
    }

    /// Mass represented here (`1 - truncated`, up to rounding).
    pub fn mass(&self) -> f64 {
        self.p.iter().sum()
    }

    /// `(value, P(=value))` for every slot with non-zero probability, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.p
            .iter()
            .enumerate()
            .filter(|&(_, &q)| q > 0.0)
            .map(move |(i, &q)| (self.min + i as i64, q))
    }

    /// `P(X >= v)` over the represented mass.
    pub fn p_at_least(&self, v: i64) -> f64 {
        let start = (v - self.min).max(0) as usize;
        // `+ 0.0`: an empty f64 sum is -0.0, which would print as "-0".
        self.p.iter().skip(start).sum::<f64>() + 0.0
    }

    /// The tail chance below which a table folds its rows into one (unless asked for all).
    pub const FOLD: f64 = 1e-6;

    /// The values worth a row of a table: from the first with `P(<=) >= cut` to the last
    /// with `P(>=) >= cut` (the terminal's and the page's tables fold the rest).
    pub fn likely_range(&self, cut: f64) -> (i64, i64) {
        let (lo, hi) = (self.min_value(), self.max_value());
        let first = (lo..=hi).find(|&v| self.p_at_most(v) >= cut).unwrap_or(lo);
        let last = (lo..=hi)
            .rev()
            .find(|&v| self.p_at_least(v) >= cut)
            .unwrap_or(hi);
        (first, last.max(first))
    }

    /// `P(X <= v)` over the represented mass.
    pub fn p_at_most(&self, v: i64) -> f64 {
        if v < self.min {
            return 0.0;
        }
        let end = ((v - self.min) as usize + 1).min(self.p.len());
        self.p[..end].iter().sum()
    }

    /// Mean of the represented mass, given that the value is not in the truncated tail.
    /// (Unconditioned, a cut of 1e-12 at values near 30,000 would already show in the 8th
    /// digit; conditioned, the error is the tail's pull on the mean, far smaller.)
    pub fn mean(&self) -> f64 {
        let m = self.mass();
        if m <= 0.0 {
            return f64::NAN;
        }
        self.iter().map(|(v, q)| v as f64 * q).sum::<f64>() / m
    }

    /// Standard deviation of the represented mass, conditioned like [`Pmf::mean`].
    pub fn sd(&self) -> f64 {
        let m = self.mean();
        let var: f64 = self
            .iter()
            .map(|(v, q)| {
                let d = v as f64 - m;
                d * d * q
            })
            .sum::<f64>()
            / self.mass();
        var.max(0.0).sqrt()
    }

    /// `X + k`.
    pub fn shift(&self, k: i64) -> Pmf {
        Pmf {
            min: self.min + k,
            ..self.clone()
        }
    }

    /// `-X`.
    pub fn neg(&self) -> Pmf {
        let mut p = self.p.clone();
        p.reverse();
        Pmf {
            min: -self.max_value(),
            p,
            truncated: self.truncated,
        }
    }

    /// `X + Y` for independent `X` and `Y` (convolution).
    pub fn add(&self, other: &Pmf) -> Pmf {
        if self.p.is_empty() || other.p.is_empty() {
            return Pmf {
                min: self.min + other.min,
                p: Vec::new(),
                truncated: 1.0,
            };
        }
        let mut p = vec![0.0; self.p.len() + other.p.len() - 1];
        for (i, &a) in self.p.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in other.p.iter().enumerate() {
                p[i + j] += a * b;
            }
        }
        Pmf {
            min: self.min + other.min,
            p,
            truncated: combine_truncation(self.truncated, other.truncated),
        }
    }

    /// Sum of `n` independent copies of `X` (`n = 0` is the point 0).
    pub fn sum_of(&self, n: u32) -> Pmf {
        // Square-and-multiply keeps 100d6 cheap.
        let mut acc = Pmf::point(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.add(&base);
            }
            k >>= 1;
            if k > 0 {
                base = base.add(&base);
            }
        }
        acc
    }

    /// The mixture `sum w_i X_i`. Weights are probabilities of disjoint branches that
    /// together cover everything (they sum to 1); the truncated mass of the result is
    /// `sum w_i truncated_i`, so an unresolved branch ([`Pmf::nothing`]) counts as truncated.
    pub fn mix(parts: &[(f64, &Pmf)]) -> Pmf {
        let truncated: f64 = parts.iter().map(|(w, x)| w * x.truncated).sum();
        let live: Vec<_> = parts
            .iter()
            .filter(|(w, x)| *w > 0.0 && !x.p.is_empty())
            .collect();
        if live.is_empty() {
            return Pmf {
                min: 0,
                p: Vec::new(),
                truncated,
            };
        }
        let lo = live.iter().map(|(_, x)| x.min).min().unwrap_or(0);
        let hi = live.iter().map(|(_, x)| x.max_value()).max().unwrap_or(lo);
        let mut p = vec![0.0; (hi - lo + 1) as usize];
        for (w, x) in live {
            let off = (x.min - lo) as usize;
            for (i, &q) in x.p.iter().enumerate() {
                p[off + i] += w * q;
            }
        }
        Pmf {
            min: lo,
            p,
            truncated,
        }
    }

    /// `max(X, Y)` for independent `X` and `Y`.
    pub fn max(&self, other: &Pmf) -> Pmf {
        self.order_stat(other, true)
    }

    /// `min(X, Y)` for independent `X` and `Y`.
    pub fn min(&self, other: &Pmf) -> Pmf {
        self.order_stat(other, false)
    }

    /// The highest of `n >= 1` independent copies of `X`.
    pub fn highest_of(&self, n: u32) -> Pmf {
        let mut acc = self.clone();
        for _ in 1..n {
            acc = acc.max(self);
        }
        acc
    }

    /// The sum of the `keep` lowest of `n` independent copies of `X` (`keep <= n`): an
    /// Explosion's damage in ring `n - keep` (Ch. 8.4). Exact by dynamic programming over the
    /// values in increasing order, tracking how many copies are placed and the sum of those
    /// among the lowest `keep`; the represented mass is that of `n` copies.
    pub fn sum_of_lowest(&self, n: u32, keep: u32) -> Pmf {
        assert!(keep <= n, "keep {keep} of {n}");
        if keep == 0 || self.p.is_empty() {
            let mass = self.mass().powi(n as i32);
            let mut out = Pmf::point(0);
            out.p[0] = mass;
            out.truncated = 1.0 - mass;
            return out;
        }
        let (n, keep) = (n as usize, keep as usize);
        let lo = self.min;
        let width = keep * (self.p.len() - 1) + 1;
        // state[c][s]: c copies placed, s = (sum of the kept ones) - keep_placed * lo.
        let mut state = vec![vec![0.0; width]; n + 1];
        state[0][0] = 1.0;
        let binom =
            |a: usize, b: usize| (0..b).fold(1.0, |acc, i| acc * (a - i) as f64 / (i + 1) as f64);
        for (idx, &q) in self.p.iter().enumerate() {
            if q == 0.0 {
                continue;
            }
            let mut next = vec![vec![0.0; width]; n + 1];
            for c in 0..=n {
                for s in 0..width {
                    let w = state[c][s];
                    if w == 0.0 {
                        continue;
                    }
                    let mut qj = 1.0;
                    for j in 0..=n - c {
                        let kept = j.min(keep.saturating_sub(c));
                        next[c + j][s + kept * idx] += w * binom(n - c, j) * qj;
                        qj *= q;
                    }
                }
            }
            state = next;
        }
        let p = state.swap_remove(n);
        let mass: f64 = p.iter().sum();
        Pmf {
            min: keep as i64 * lo,
            p,
            truncated: (1.0 - mass).max(0.0),
        }
    }

    /// The lowest of `n >= 1` independent copies of `X`.
    pub fn lowest_of(&self, n: u32) -> Pmf {
        let mut acc = self.clone();
        for _ in 1..n {
            acc = acc.min(self);
        }
        acc
    }

    fn order_stat(&self, other: &Pmf, highest: bool) -> Pmf {
        // Via CDFs over the represented mass; the truncated tails are combined as for a sum,
        // an upper bound on what the result lost.
        let lo = self.min.min(other.min);
        let hi = self.max_value().max(other.max_value());
        let mut out = Vec::with_capacity((hi - lo + 1) as usize);
        let (mut prev_a, mut prev_b) = (0.0, 0.0);
        let mut prev = 0.0;
        for v in lo..=hi {
            let a = prev_a + self.prob(v);
            let b = prev_b + other.prob(v);
            let c = if highest {
                a * b
            } else {
                let (ma, mb) = (1.0 - self.truncated, 1.0 - other.truncated);
                // P(min <= v) = P(X<=v) + P(Y<=v) - P(X<=v)P(Y<=v) within represented mass.
                a * mb + b * ma - a * b
            };
            out.push(c - prev);
            prev = c;
            prev_a = a;
            prev_b = b;
        }
        Pmf {
            min: lo,
            p: out,
            truncated: combine_truncation(self.truncated, other.truncated),
        }
    }

    /// `P(X > Y)` for independent `X` and `Y`: "Damage beats Armor".
    pub fn p_greater(&self, other: &Pmf) -> f64 {
        self.iter().map(|(v, q)| q * other.p_at_most(v - 1)).sum()
    }

    /// `P(X >= Y)` for independent `X` and `Y`: "Skill meets Use".
    pub fn p_at_least_other(&self, other: &Pmf) -> f64 {
        self.iter().map(|(v, q)| q * other.p_at_most(v)).sum()
    }

    /// `P(X = Y)` for independent `X` and `Y`: the Armor tie.
    pub fn p_equal(&self, other: &Pmf) -> f64 {
        self.iter().map(|(v, q)| q * other.prob(v)).sum()
    }

    /// The distribution given that a disjoint branch of probability `w` with distribution
    /// `part` did not happen: `(self - w part) / (1 - w)`. Rounding dust below zero is cut.
    pub fn without(&self, w: f64, part: &Pmf) -> Pmf {
        if w <= 0.0 {
            return self.clone();
        }
        if w >= 1.0 {
            return Pmf::nothing();
        }
        let mut pairs: Vec<(i64, f64)> = self.iter().collect();
        pairs.extend(part.iter().map(|(v, q)| (v, -w * q)));
        let mut out = Pmf::from_pairs(&pairs, 0.0);
        for q in &mut out.p {
            *q = (*q / (1.0 - w)).max(0.0);
        }
        out.truncated = ((self.truncated - w * part.truncated) / (1.0 - w)).max(0.0);
        out
    }

    /// Cuts at most `budget` of mass from the two ends (half each) into the truncated tail:
    /// keeps sums of many exploding dice to the values that matter.
    pub fn trim(&self, budget: f64) -> Pmf {
        let half = budget / 2.0;
        let (mut lo, mut hi) = (0, self.p.len());
        let mut cut = 0.0;
        let mut acc = 0.0;
        while lo < hi && acc + self.p[lo] <= half {
            acc += self.p[lo];
            lo += 1;
        }
        cut += acc;
        acc = 0.0;
        while hi > lo && acc + self.p[hi - 1] <= half {
            acc += self.p[hi - 1];
            hi -= 1;
        }
        cut += acc;
        if lo == 0 && hi == self.p.len() {
            return self.clone();
        }
        Pmf {
            min: self.min + lo as i64,
            p: self.p[lo..hi].to_vec(),
            truncated: self.truncated + cut,
        }
    }

    /// [`Pmf::sum_of`], trimming at most `budget` of mass in all. A cut from the doubled
    /// base at level `i` is repeated in up to `n / 2^i` copies, so its share shrinks with
    /// that multiplicity.
    pub fn sum_of_trimmed(&self, n: u32, budget: f64) -> Pmf {
        let levels = (32 - n.leading_zeros()).max(1) as f64;
        let per_acc = budget / (2.0 * levels);
        let mut per_base = budget / (2.0 * levels * n.max(1) as f64);
        let mut acc = Pmf::point(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.add(&base).trim(per_acc);
            }
            k >>= 1;
            if k > 0 {
                per_base *= 2.0;
                base = base.add(&base).trim(per_base);
            }
        }
        acc
    }

    /// Moves the mass at `from` to `to` (e.g. a critically failed Fire roll does nothing).
    pub fn move_mass(&self, from: i64, to: i64, amount: f64) -> Pmf {
        let mut pairs: Vec<(i64, f64)> = self.iter().collect();
        pairs.push((from, -amount));
        pairs.push((to, amount));
        let mut out = Pmf::from_pairs(&pairs, self.truncated);
        // Cancel rounding dust left where the whole mass moved.
        for q in &mut out.p {
            if q.abs() < 1e-300 || (*q < 0.0 && *q > -1e-15) {
                *q = 0.0;
            }
        }
        out
    }
}

/// Mass lost by combining two independent truncated variables: `1 - (1-a)(1-b)`.
fn combine_truncation(a: f64, b: f64) -> f64 {
    a + b - a * b
}

impl fmt::Display for Pmf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (v, q) in self.iter() {
            writeln!(f, "{v:>6} {q:.12}")?;
        }
        write!(f, "truncated {:.3e}", self.truncated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_of_lowest_matches_sums_and_minima() {
        let d = Pmf::uniform(1, 6);
        let close = |a: &Pmf, b: &Pmf| {
            (a.min_value()..=a.max_value().max(b.max_value()))
                .all(|v| (a.prob(v) - b.prob(v)).abs() < 1e-12)
        };
        assert!(close(&d.sum_of_lowest(3, 3), &d.sum_of(3)));
        assert!(close(&d.sum_of_lowest(2, 1), &d.lowest_of(2)));
        // Lowest two of three d6: P(sum = 2) = P(at least two 1s) = 16/216.
        let l = d.sum_of_lowest(3, 2);
        assert!((l.prob(2) - 16.0 / 216.0).abs() < 1e-12);
        assert!((l.mass() - 1.0).abs() < 1e-12);
        // keep 0: all mass on 0.
        assert!((d.sum_of_lowest(3, 0).prob(0) - 1.0).abs() < 1e-12);
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn two_d6_is_the_triangle() {
        let d6 = Pmf::uniform(1, 6);
        let s = d6.add(&d6);
        for v in 2..=12 {
            let ways = 6 - (v - 7i64).abs();
            assert!(close(s.prob(v), ways as f64 / 36.0), "P(2d6={v})");
        }
        assert!(close(s.mean(), 7.0));
        assert!(close(s.sd(), (35.0f64 / 6.0).sqrt()));
    }

    #[test]
    fn sum_of_matches_repeated_add() {
        let d4 = Pmf::uniform(1, 4);
        let a = d4.sum_of(5);
        let b = d4.add(&d4).add(&d4).add(&d4).add(&d4);
        for v in 5..=20 {
            assert!(close(a.prob(v), b.prob(v)));
        }
        assert_eq!(Pmf::uniform(1, 6).sum_of(0), Pmf::point(0));
    }

    #[test]
    fn neg_and_shift() {
        let d6 = Pmf::uniform(1, 6).shift(2).neg();
        assert_eq!(d6.min_value(), -8);
        assert_eq!(d6.max_value(), -3);
        assert!(close(d6.mean(), -5.5));
    }

    #[test]
    fn max_of_two_d6_is_the_blessing_table() {
        // P(max = k) = (2k - 1) / 36.
        let d6 = Pmf::uniform(1, 6);
        let m = d6.highest_of(2);
        for k in 1..=6 {
            assert!(close(m.prob(k), (2 * k - 1) as f64 / 36.0));
        }
        let l = d6.lowest_of(2);
        for k in 1..=6 {
            assert!(close(l.prob(k), (13 - 2 * k) as f64 / 36.0));
        }
    }

    #[test]
    fn comparisons() {
        let d6 = Pmf::uniform(1, 6);
        // P(d6 > 4) = 2/6, P(d6 >= 4) = 3/6, P(d6 = 4) = 1/6.
        let four = Pmf::point(4);
        assert!(close(d6.p_greater(&four), 2.0 / 6.0));
        assert!(close(d6.p_at_least_other(&four), 3.0 / 6.0));
        assert!(close(d6.p_equal(&four), 1.0 / 6.0));
        // Two independent d6: P(X > Y) = 15/36.
        assert!(close(d6.p_greater(&d6), 15.0 / 36.0));
    }

    #[test]
    fn mixture_carries_unresolved_mass() {
        let m = Pmf::mix(&[
            (0.5, &Pmf::point(1)),
            (0.25, &Pmf::point(3)),
            (0.25, &Pmf::nothing()),
        ]);
        assert!(close(m.prob(1), 0.5));
        assert!(close(m.prob(3), 0.25));
        assert!(close(m.truncated(), 0.25));
        let exact = Pmf::mix(&[(1.0 / 3.0, &Pmf::point(1)), (2.0 / 3.0, &Pmf::point(2))]);
        assert_eq!(
            exact.truncated(),
            0.0,
            "no rounding dust counted as truncation"
        );
        assert!(close(Pmf::nothing().truncated(), 1.0));
    }

    #[test]
    fn truncation_combines_under_addition() {
        let a = Pmf::from_pairs(&[(1, 0.9)], 0.1);
        let b = Pmf::from_pairs(&[(1, 0.8)], 0.2);
        let s = a.add(&b);
        assert!(close(s.truncated(), 1.0 - 0.9 * 0.8));
        assert!(close(s.mass(), 0.72));
    }

    #[test]
    fn move_mass_relocates_exactly() {
        let d4 = Pmf::uniform(1, 4).shift(1);
        let m = d4.move_mass(2, 0, 0.25);
        assert_eq!(m.prob(2), 0.0);
        assert!(close(m.prob(0), 0.25));
        assert!(close(m.mass(), 1.0));
    }
}
