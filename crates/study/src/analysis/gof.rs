//! Goodness of fit: do Monte Carlo counts agree with an exact distribution?
//!
//! Pearson's chi-squared test. Adjacent values are pooled left to right until each bin
//! expects at least [`MIN_EXPECTED`] counts (the usual validity rule); the truncated tail of
//! the exact distribution joins the top bin. Observations at values the exact distribution
//! rules out entirely are counted separately as `impossible`: no statistic should excuse those.

use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF};

use diemon_core::dice::Pmf;
use diemon_core::sim::Histogram;

/// Smallest expected count per bin.
pub const MIN_EXPECTED: f64 = 5.0;

/// The outcome of a chi-squared goodness-of-fit test.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    /// The chi-squared statistic.
    pub statistic: f64,
    /// Its degrees of freedom.
    pub dof: u32,
    /// `P(chi2 >= statistic)` under the exact distribution.
    pub p_value: f64,
    /// Observations at values with zero exact probability (and no truncated tail above).
    pub impossible: u64,
}

/// Tests `observed` against `expected`.
pub fn chi_squared(observed: &Histogram, expected: &Pmf) -> Fit {
    let n = observed.total() as f64;
    let lo = expected
        .min_value()
        .min(observed.iter().next().map_or(0, |(v, _)| v));
    let hi_obs = observed
        .iter()
        .filter(|&(_, c)| c > 0)
        .map(|(v, _)| v)
        .max()
        .unwrap_or(lo);
    let hi = expected.max_value().max(hi_obs);
    let mut impossible = 0;
    let mut bins: Vec<(f64, f64)> = Vec::new(); // (expected, observed)
    let (mut e, mut o) = (0.0, 0.0);
    for v in lo..=hi {
        let p = expected.prob(v);
        let c = observed.count(v);
        let beyond = v > expected.max_value() && expected.truncated() > 0.0;
        if p == 0.0 && c > 0 && !beyond {
            impossible += c;
        }
        e += p * n;
        o += c as f64;
        if e >= MIN_EXPECTED {
            bins.push((e, o));
            e = 0.0;
            o = 0.0;
        }
    }
    e += expected.truncated() * n;
    match bins.last_mut() {
        Some(last) => {
            last.0 += e;
            last.1 += o;
        }
        None => bins.push((e, o)),
    }
    let statistic: f64 = bins
        .iter()
        .filter(|(e, _)| *e > 0.0)
        .map(|(e, o)| (o - e) * (o - e) / e)
        .sum();
    let dof = bins.len().saturating_sub(1) as u32;
    let p_value = if dof == 0 {
        1.0
    } else {
        match ChiSquared::new(dof as f64) {
            Ok(d) => d.sf(statistic),
            Err(_) => f64::NAN,
        }
    };
    Fit {
        statistic,
        dof,
        p_value,
        impossible,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statrs_chi_squared_is_pinned() {
        // Table values: the 95% points for 1 and 10 degrees of freedom.
        let c1 = ChiSquared::new(1.0).unwrap();
        assert!((c1.cdf(3.841458820694124) - 0.95).abs() < 1e-9);
        let c10 = ChiSquared::new(10.0).unwrap();
        assert!((c10.cdf(18.307038053275146) - 0.95).abs() < 1e-9);
        assert!((c10.sf(18.307038053275146) - 0.05).abs() < 1e-9);
    }

    fn hist(counts: &[(i64, u64)]) -> Histogram {
        let mut h = Histogram::default();
        for &(v, c) in counts {
            for _ in 0..c {
                h.record(v);
            }
        }
        h
    }

    #[test]
    fn perfect_counts_fit_perfectly() {
        let h = hist(&[(1, 100), (2, 100), (3, 100), (4, 100)]);
        let f = chi_squared(&h, &Pmf::uniform(1, 4));
        assert_eq!(f.statistic, 0.0);
        assert_eq!(f.dof, 3);
        assert!((f.p_value - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_loaded_die_is_caught() {
        // 40% ones on a "fair" d4: statistic = 2*(40-25)^2/25... computed below.
        let h = hist(&[(1, 160), (2, 80), (3, 80), (4, 80)]);
        let f = chi_squared(&h, &Pmf::uniform(1, 4));
        // E = 100 each: (60^2 + 3 * 20^2) / 100 = 48.
        assert!((f.statistic - 48.0).abs() < 1e-9);
        assert!(f.p_value < 1e-9);
    }

    #[test]
    fn impossible_values_are_counted() {
        let h = hist(&[(1, 50), (2, 50), (7, 1)]);
        let f = chi_squared(&h, &Pmf::uniform(1, 2));
        assert_eq!(f.impossible, 1);
    }
}
