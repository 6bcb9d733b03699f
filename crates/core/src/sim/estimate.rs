//! Estimates: a point value, its standard error and a confidence interval.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

/// A Monte Carlo estimate.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub point: f64,
    /// Its standard error.
    pub standard_error: f64,
    /// `[lo, hi]` at [`Estimate::level`].
    pub ci: [f64; 2],
    /// The interval's confidence level (0.95).
    pub level: f64,
}

/// The confidence level of every interval diemon prints and every precision target it
/// stops on: 95%.
pub const CONFIDENCE: f64 = 0.95;

/// The two-sided standard normal quantile for `level` (1.959963984540054 at 0.95).
pub fn z(level: f64) -> f64 {
    let n = Normal::standard();
    n.inverse_cdf(0.5 + level / 2.0)
}

impl Estimate {
    /// A proportion `k / n` with the Wilson score interval (sound near 0 and 1, where the
    /// chances of dice rules often sit).
    pub fn proportion(k: u64, n: u64, level: f64) -> Estimate {
        if n == 0 {
            return Estimate {
                point: f64::NAN,
                standard_error: f64::NAN,
                ci: [0.0, 1.0],
                level,
            };
        }
        Estimate::proportion_of(k as f64 / n as f64, n as f64, level)
    }

    /// A proportion `p` of `n` trials (a score with draws as halves) with the Wilson score
    /// interval; `n` is above 0.
    pub fn proportion_of(p: f64, nf: f64, level: f64) -> Estimate {
        let z = z(level);
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * nf)) / (1.0 + z2 / nf);
        let half = z / (1.0 + z2 / nf) * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
        Estimate {
            point: p,
            standard_error: (p * (1.0 - p) / nf).sqrt(),
            ci: [(centre - half).max(0.0), (centre + half).min(1.0)],
            level,
        }
    }

    /// A mean from `n` samples with exact integer sums `sum`, `sum_sq` (normal approximation).
    pub fn mean(sum: i128, sum_sq: i128, n: u64, level: f64) -> Estimate {
        let nf = n as f64;
        let m = sum as f64 / nf;
        // Var = (sum_sq - sum^2/n) / (n - 1), computed in i128 to avoid cancellation.
        let num = sum_sq * n as i128 - sum * sum;
        let var = if n > 1 {
            num as f64 / (nf * (nf - 1.0))
        } else {
            0.0
        };
        Estimate::normal(m, (var / nf).sqrt(), level)
    }

    /// A mean of counts (which cannot be negative): [`Estimate::mean`] with the CI cut at 0
    /// below. A rare count (a side's own units blasted once in 2,000 fights) has a normal CI
    /// reaching under 0, a range the quantity never takes.
    pub fn count_mean(sum: i128, sum_sq: i128, n: u64, level: f64) -> Estimate {
        let mut e = Estimate::mean(sum, sum_sq, n, level);
        e.ci[0] = e.ci[0].max(0.0);
        e
    }

    /// A point with its standard error and the normal CI `point +- z se`.
    pub fn normal(point: f64, standard_error: f64, level: f64) -> Estimate {
        let h = z(level) * standard_error;
        Estimate {
            point,
            standard_error,
            ci: [point - h, point + h],
            level,
        }
    }

    /// A ratio of two means, sum(x) / sum(y), from `n` samples with sums `[sx, sy]` and
    /// second moments `[sxx, syy, sxy]` (delta method: the ratio's variance is
    /// `(var x - 2 r cov(x,y) + r^2 var y) / (n mean(y)^2)`).
    pub fn ratio(sums: [f64; 2], second: [f64; 3], n: u64, level: f64) -> Estimate {
        let nf = n as f64;
        let [sx, sy] = sums;
        let [sxx, syy, sxy] = second;
        let r = sx / sy;
        let (mx, my) = (sx / nf, sy / nf);
        let d = (nf - 1.0).max(1.0);
        let vx = (sxx - nf * mx * mx) / d;
        let vy = (syy - nf * my * my) / d;
        let cxy = (sxy - nf * mx * my) / d;
        let var = ((vx - 2.0 * r * cxy + r * r * vy) / (nf * my * my)).max(0.0);
        Estimate::normal(r, var.sqrt(), level)
    }

    /// The CI half-width.
    pub fn half_width(&self) -> f64 {
        (self.ci[1] - self.ci[0]) / 2.0
    }

    /// Whether `x` lies inside the CI.
    pub fn covers(&self, x: f64) -> bool {
        self.ci[0] <= x && x <= self.ci[1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statrs_normal_quantile_is_pinned() {
        // The value every 95% CI rests on (statrs 0.19).
        assert!((z(0.95) - 1.959963984540054).abs() < 1e-12);
        assert!((z(0.99) - 2.5758293035489).abs() < 1e-9);
    }

    #[test]
    fn wilson_matches_a_worked_value() {
        // k = 81, n = 263, 95%: Wilson interval [0.2553, 0.3662] (Newcombe 1998, ex. 1
        // style; recomputed by hand from the formula).
        let e = Estimate::proportion(81, 263, 0.95);
        assert!((e.point - 81.0 / 263.0).abs() < 1e-15);
        assert!((e.ci[0] - 0.2553).abs() < 5e-4, "{:?}", e.ci);
        assert!((e.ci[1] - 0.3662).abs() < 5e-4, "{:?}", e.ci);
        let zero = Estimate::proportion(0, 100, 0.95);
        assert_eq!(zero.ci[0], 0.0);
        assert!(zero.ci[1] > 0.03 && zero.ci[1] < 0.04);
    }

    #[test]
    fn a_ratio_with_constant_denominator_is_a_scaled_mean() {
        // x = 1, 2, 3, 4 over y = 2 each: the ratio is mean(x) / 2 with half its error.
        let r = Estimate::ratio([10.0, 8.0], [30.0, 16.0, 20.0], 4, 0.95);
        let m = Estimate::mean(10, 30, 4, 0.95);
        assert_eq!(r.point, 1.25);
        assert!((r.standard_error - m.standard_error / 2.0).abs() < 1e-15);
        // x proportional to y: no error at all.
        let r = Estimate::ratio([6.0, 3.0], [14.0, 3.5, 7.0], 2, 0.95);
        assert_eq!((r.point, r.standard_error), (2.0, 0.0));
    }

    #[test]
    fn mean_of_known_samples() {
        // 1, 2, 3, 4: mean 2.5, sample variance 5/3.
        let e = Estimate::mean(10, 30, 4, 0.95);
        assert_eq!(e.point, 2.5);
        assert!((e.standard_error - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-15);
        assert!(e.covers(2.5) && !e.covers(5.0));
    }

    #[test]
    fn issue_44_a_mean_of_counts_never_reaches_below_zero() {
        // One unit in 2,000 fights: mean 0.0005, a normal CI of about +-0.00098.
        let m = Estimate::mean(1, 1, 2000, 0.95);
        assert!(m.ci[0] < 0.0);
        let c = Estimate::count_mean(1, 1, 2000, 0.95);
        assert_eq!((c.point, c.ci[1], c.ci[0]), (m.point, m.ci[1], 0.0));
        // Far from 0 it is the normal CI.
        assert_eq!(
            Estimate::count_mean(10, 30, 4, 0.95),
            Estimate::mean(10, 30, 4, 0.95)
        );
    }
}
