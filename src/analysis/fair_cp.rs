//! The fair-CP search: what a unit is worth, in units of a reference.
//!
//! `m` of unit X fight `n` of reference R, for several `n`. The chance that X's side wins
//! (a draw counts half) falls as `n` grows; a logistic curve in the exchange ratio `n / m`,
//!
//! ```text
//! logit P(X wins) = b0 + b1 u + b2 u^2,   u = n / m - centre
//! ```
//!
//! (a straight line when only two cells are fitted) is fitted by maximum likelihood
//! (Newton's method on the binomial likelihood, each cell weighted by its trials) to the
//! cells whose chance lies in a window around 50% (default 10% to 90%: lopsided fights bend
//! away from any smooth curve; with fewer than two cells inside, the two either side of 50%
//! are used). Its 50% point `r` (the root within the cells, where the chance falls) is the
//! exchange ratio: X is worth `r` R's, which is `r * CP(R)` CP. The CI comes from the delta
//! method, with the covariance scaled by the Pearson dispersion when the curve fits the
//! cells worse than binomial noise would (never scaled down), so a poor fit widens the CI
//! instead of hiding. The 50% point must lie among the cells: an extrapolated worth is
//! refused.
//!
//! Why this curve: measured fights are not symmetric about 50% in the ratio or its log.
//! Four minifigs against 3, 4 and 5 of the same (20,000 trials a cell) put a straight logit
//! line's 50% point at 1.019 [1.000, 1.037] though symmetry makes it exactly 1; the
//! quadratic term takes that bend up. The test `a_unit_against_itself_is_worth_one_of_itself`
//! pins it.

use statrs::distribution::{ChiSquared, ContinuousCDF};

use super::Estimate;

/// One cell: `ratio = n / m` of R to X, `trials`, and X's score (wins + draws / 2).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Point {
    pub ratio: f64,
    pub trials: f64,
    pub score: f64,
}

/// A fitted exchange ratio.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Worth {
    /// R's per X at the 50% point, with its CI.
    pub ratio: Estimate,
    /// The curve's slope (in log-odds per unit of ratio) at the 50% point: how sharply
    /// the fight turns there.
    pub slope: f64,
    /// The fitted curve: logit P = b0 + b1 u + b2 u^2 with u = ratio - centre.
    pub curve: [f64; 3],
    pub centre: f64,
    /// Cells the curve was fitted to (those in the window).
    pub cells: usize,
    /// Pearson chi-squared of those cells against the curve, its degrees of freedom, and the
    /// chance of a worse fit if the curve were right.
    pub chi2: f64,
    pub df: usize,
    pub p_fit: f64,
    /// The factor the covariance was scaled by (1 when the fit is within noise).
    pub dispersion: f64,
}

impl Worth {
    /// The fitted chance that X's side wins at exchange ratio `r`.
    pub fn chance(&self, r: f64) -> f64 {
        let u = r - self.centre;
        let [b0, b1, b2] = self.curve;
        1.0 / (1.0 + (-(b0 + b1 * u + b2 * u * u)).exp())
    }
}

/// Why no worth was found.
#[derive(Clone, Debug, PartialEq)]
pub enum NoWorth {
    /// X wins more than half the time against every count: add larger counts.
    AlwaysAhead { largest: f64 },
    /// X loses more than half the time against every count: add smaller counts.
    AlwaysBehind { smallest: f64 },
    /// The fit did not settle (a flat or inverted curve).
    NoFit,
}

/// The chances a fit uses by default: 10% to 90%.
pub const WINDOW: (f64, f64) = (0.1, 0.9);

/// Fits the curve to the `points` within `window` and returns the 50% exchange ratio at
/// `level`.
pub fn worth(points: &[Point], window: (f64, f64), level: f64) -> Result<Worth, NoWorth> {
    let p = |q: &Point| q.score / q.trials;
    let largest = points.iter().map(|q| q.ratio).fold(f64::MIN, f64::max);
    let smallest = points.iter().map(|q| q.ratio).fold(f64::MAX, f64::min);
    if points.iter().all(|q| p(q) > 0.5) {
        return Err(NoWorth::AlwaysAhead { largest });
    }
    if points.iter().all(|q| p(q) < 0.5) {
        return Err(NoWorth::AlwaysBehind { smallest });
    }
    let mut inside: Vec<Point> = points
        .iter()
        .filter(|q| (window.0..=window.1).contains(&p(q)))
        .copied()
        .collect();
    if inside.len() < 2 {
        // The nearest cells either side of 50%.
        let above = points
            .iter()
            .filter(|q| p(q) >= 0.5)
            .min_by(|x, y| p(x).total_cmp(&p(y)));
        let below = points
            .iter()
            .filter(|q| p(q) < 0.5)
            .max_by(|x, y| p(x).total_cmp(&p(y)));
        inside = above.into_iter().chain(below).copied().collect();
    }
    let points = &inside[..];
    // A quadratic in the ratio once three cells allow it (the win chance's curve is not
    // symmetric about 50%: a straight logit line through 3 v 4 and 5 v 4 misses 4 v 4),
    // centred on the cells' mean ratio for a well-conditioned fit.
    let terms = if points.len() >= 3 { 3 } else { 2 };
    let centre = points.iter().map(|q| q.ratio).sum::<f64>() / points.len() as f64;
    let basis = |u: f64| [1.0, u, u * u];
    let eta = |beta: &[f64; 3], u: f64| (0..terms).map(|k| beta[k] * basis(u)[k]).sum::<f64>();
    let mut beta = [0.0f64; 3];
    let mut cov = [[0.0f64; 3]; 3];
    let mut settled = false;
    for _ in 0..200 {
        // Gradient and information of the binomial log-likelihood.
        let mut g = [0.0f64; 3];
        let mut h = [[0.0f64; 3]; 3];
        for q in points {
            let u = q.ratio - centre;
            let mu = 1.0 / (1.0 + (-eta(&beta, u)).exp());
            let w = q.trials * mu * (1.0 - mu);
            let r = q.score - q.trials * mu;
            let x = basis(u);
            for i in 0..terms {
                g[i] += r * x[i];
                for j in 0..terms {
                    h[i][j] += w * x[i] * x[j];
                }
            }
        }
        let Some(inv) = invert(h, terms) else {
            return Err(NoWorth::NoFit);
        };
        cov = inv;
        let mut biggest = 0.0f64;
        for i in 0..terms {
            let step: f64 = (0..terms).map(|j| cov[i][j] * g[j]).sum();
            beta[i] += step;
            biggest = biggest.max(step.abs());
        }
        if !biggest.is_finite() {
            return Err(NoWorth::NoFit);
        }
        if biggest < 1e-12 {
            settled = true;
            break;
        }
    }
    if !settled {
        return Err(NoWorth::NoFit);
    }
    // The 50% point: the root of the curve within the cells where the chance falls.
    let lo = points.iter().map(|q| q.ratio).fold(f64::MAX, f64::min) - centre;
    let hi = points.iter().map(|q| q.ratio).fold(f64::MIN, f64::max) - centre;
    let slope = |u: f64| beta[1] + 2.0 * beta[2] * u;
    let roots: Vec<f64> = if beta[2].abs() < 1e-12 {
        vec![-beta[0] / beta[1]]
    } else {
        let disc = beta[1] * beta[1] - 4.0 * beta[2] * beta[0];
        if disc < 0.0 {
            vec![]
        } else {
            let d = disc.sqrt();
            vec![
                (-beta[1] + d) / (2.0 * beta[2]),
                (-beta[1] - d) / (2.0 * beta[2]),
            ]
        }
    };
    // More R's must make X's win less likely there.
    let Some(u) = roots
        .into_iter()
        .filter(|&u| (lo..=hi).contains(&u) && slope(u) < 0.0)
        .min_by(|x, y| x.abs().total_cmp(&y.abs()))
    else {
        return Err(NoWorth::NoFit);
    };
    let chi2: f64 = points
        .iter()
        .map(|q| {
            let mu = 1.0 / (1.0 + (-eta(&beta, q.ratio - centre)).exp());
            let var = q.trials * mu * (1.0 - mu);
            (q.score - q.trials * mu).powi(2) / var.max(f64::MIN_POSITIVE)
        })
        .sum();
    let df = points.len() - terms;
    let (dispersion, p_fit) = if df > 0 {
        let p_fit = ChiSquared::new(df as f64).map_or(f64::NAN, |c| c.sf(chi2));
        ((chi2 / df as f64).max(1.0), p_fit)
    } else {
        (1.0, f64::NAN)
    };
    // The root moves with the coefficients as -(1, u, u^2) / slope(u) (implicit function).
    let grad: Vec<f64> = basis(u)[..terms].iter().map(|x| -x / slope(u)).collect();
    let var: f64 = (0..terms)
        .map(|i| {
            (0..terms)
                .map(|j| grad[i] * cov[i][j] * grad[j])
                .sum::<f64>()
        })
        .sum::<f64>()
        * dispersion;
    Ok(Worth {
        ratio: Estimate::normal(centre + u, var.sqrt(), level),
        slope: slope(u),
        curve: [beta[0], beta[1], if terms == 3 { beta[2] } else { 0.0 }],
        centre,
        cells: points.len(),
        chi2,
        df,
        p_fit,
        dispersion,
    })
}

/// The inverse of the leading `n` x `n` block of `m` (Gauss-Jordan with partial pivoting),
/// or None when it is singular.
fn invert(mut m: [[f64; 3]; 3], n: usize) -> Option<[[f64; 3]; 3]> {
    let mut inv = [[0.0; 3]; 3];
    for (i, row) in inv.iter_mut().enumerate().take(n) {
        row[i] = 1.0;
    }
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        // A NaN pivot fails this too: no inverse.
        if m[pivot][col].abs().partial_cmp(&1e-300) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for j in 0..n {
            m[col][j] /= d;
            inv[col][j] /= d;
        }
        for r in 0..n {
            if r != col {
                let f = m[r][col];
                for j in 0..n {
                    m[r][j] -= f * m[col][j];
                    inv[r][j] -= f * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells that lie exactly on a known curve: the fit must return its 50% point.
    fn on_curve(a: f64, b: f64, ratios: &[f64], trials: f64) -> Vec<Point> {
        ratios
            .iter()
            .map(|&r| Point {
                ratio: r,
                trials,
                score: trials / (1.0 + (-(a + b * r)).exp()),
            })
            .collect()
    }

    #[test]
    fn recovers_the_50_percent_point_of_an_exact_curve() {
        // logit p = 3 - 2 r: p = 0.5 at r = 1.5.
        let pts = on_curve(3.0, -2.0, &[1.0, 1.25, 1.5, 1.75, 2.0], 10_000.0);
        let w = worth(&pts, WINDOW, 0.95).unwrap();
        assert!((w.ratio.point - 1.5).abs() < 1e-9, "{w:?}");
        assert_eq!(w.cells, 5);
        assert!((w.slope + 2.0).abs() < 1e-9);
        // The curve reads back: 50% at 1.5, logit 1 at r = 1.
        assert!((w.chance(1.5) - 0.5).abs() < 1e-9);
        assert!((w.chance(1.0) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-9);
        assert!(w.chi2 < 1e-12 && w.dispersion == 1.0);
        assert!(w.ratio.ci[0] < w.ratio.point && w.ratio.point < w.ratio.ci[1]);
    }

    #[test]
    fn more_trials_narrow_the_ci_and_a_poor_fit_widens_it() {
        let ratios = [0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0];
        let w1 = worth(&on_curve(2.0, -1.5, &ratios, 1_000.0), WINDOW, 0.95).unwrap();
        let w100 = worth(&on_curve(2.0, -1.5, &ratios, 100_000.0), WINDOW, 0.95).unwrap();
        // Standard error shrinks as 1/sqrt(trials): 10 times here.
        let ratio = w1.ratio.standard_error / w100.ratio.standard_error;
        assert!((ratio - 10.0).abs() < 1e-6, "{ratio}");
        // Zigzag two cells off the curve by far more than binomial noise (about 160 wins):
        // no smooth curve takes that up.
        let mut off = on_curve(2.0, -1.5, &ratios, 100_000.0);
        off[2].score -= 2_000.0;
        off[3].score += 2_000.0;
        let w = worth(&off, WINDOW, 0.95).unwrap();
        assert!(w.dispersion > 10.0 && w.p_fit < 1e-6, "{w:?}");
        assert!(w.ratio.standard_error > 3.0 * w100.ratio.standard_error);
    }

    #[test]
    fn cells_outside_the_window_do_not_bend_the_fit() {
        let mut pts = on_curve(3.0, -2.0, &[0.25, 1.0, 1.25, 1.5, 1.75, 2.0], 100_000.0);
        // A lopsided cell (p about 0.93) far off the curve: outside the window, ignored.
        pts[0].score -= 1_500.0;
        let w = worth(&pts, WINDOW, 0.95).unwrap();
        assert_eq!(w.cells, 5);
        assert!((w.ratio.point - 1.5).abs() < 1e-9, "{w:?}");
        // With the whole range it is fitted, and the fit shows it.
        let all = worth(&pts, (0.0, 1.0), 0.95).unwrap();
        assert_eq!(all.cells, 6);
        assert!(all.dispersion > 3.0 && all.p_fit < 0.001, "{all:?}");
        // Too few cells inside: the two either side of 50% carry it.
        let steep = on_curve(30.0, -20.0, &[1.0, 1.45, 1.55, 2.0], 1_000.0);
        let w = worth(&steep, WINDOW, 0.95).unwrap();
        assert_eq!(w.cells, 2);
        assert!((w.ratio.point - 1.5).abs() < 1e-6, "{w:?}");
    }

    #[test]
    fn refuses_to_extrapolate() {
        let ahead = on_curve(10.0, -1.0, &[1.0, 2.0], 100.0);
        assert_eq!(
            worth(&ahead, WINDOW, 0.95),
            Err(NoWorth::AlwaysAhead { largest: 2.0 })
        );
        let behind = on_curve(-10.0, -1.0, &[3.0, 4.0], 100.0);
        assert_eq!(
            worth(&behind, WINDOW, 0.95),
            Err(NoWorth::AlwaysBehind { smallest: 3.0 })
        );
        // Winning more against more enemies is no curve to read a worth from.
        let inverted = on_curve(-1.0, 2.0, &[0.25, 0.5, 0.75], 100.0);
        assert_eq!(worth(&inverted, WINDOW, 0.95), Err(NoWorth::NoFit));
    }
}
