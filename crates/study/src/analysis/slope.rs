//! A straight line through points with standard errors: weighted least squares, each
//! point weighted by its inverse variance, and the slope's standard error (issue 41: a
//! part's worth per step, from the card prices of designed variants).
//!
//! Where the points stray from the line by more than their errors (a part whose worth is
//! not straight in its steps), the errors alone would make the slope look surer than it
//! is: its standard error is then scaled by the square root of the reduced chi-squared,
//! the usual correction for a model that misses its points.

/// A point: `x`, `y` and the standard error of `y`.
pub type Point = (f64, f64, f64);

/// The fitted line `y = intercept + slope (x - x_mean)`, with the slope's standard error.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Line {
    /// The fitted slope.
    pub slope: f64,
    /// Its standard error.
    pub se: f64,
    /// The weighted mean of `x`, and the line's value there.
    pub x_mean: f64,
    /// The line's value at `x_mean`.
    pub at_mean: f64,
    /// The reduced chi-squared of the points about the line (None with two points): above
    /// 1, they stray from it by more than their errors, and `se` is scaled by its root.
    pub misfit: Option<f64>,
}

impl Line {
    /// The line at `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.at_mean + self.slope * (x - self.x_mean)
    }
}

/// The smallest standard error a point counts with: an exact price (a unit the grid prices
/// without noise) would otherwise take the whole weight.
pub const SE_FLOOR: f64 = 1e-6;

/// The weighted least-squares line through `points`, or None with fewer than two distinct
/// `x`s or a point that is not finite.
pub fn fit(points: &[Point]) -> Option<Line> {
    if points
        .iter()
        .any(|(x, y, s)| !(x.is_finite() && y.is_finite() && s.is_finite()))
    {
        return None;
    }
    let w: Vec<f64> = points
        .iter()
        .map(|p| 1.0 / p.2.max(SE_FLOOR).powi(2))
        .collect();
    let sw: f64 = w.iter().sum();
    let mean =
        |f: fn(&Point) -> f64| points.iter().zip(&w).map(|(p, w)| w * f(p)).sum::<f64>() / sw;
    let (xm, ym) = (mean(|p| p.0), mean(|p| p.1));
    let sxx: f64 = points
        .iter()
        .zip(&w)
        .map(|(p, w)| w * (p.0 - xm).powi(2))
        .sum();
    if sxx <= 0.0 || points.len() < 2 {
        return None;
    }
    let sxy: f64 = points
        .iter()
        .zip(&w)
        .map(|(p, w)| w * (p.0 - xm) * (p.1 - ym))
        .sum();
    let slope = sxy / sxx;
    let misfit = (points.len() > 2).then(|| {
        let chi2: f64 = points
            .iter()
            .zip(&w)
            .map(|(p, w)| w * (p.1 - ym - slope * (p.0 - xm)).powi(2))
            .sum();
        chi2 / (points.len() - 2) as f64
    });
    Some(Line {
        slope,
        se: (1.0 / sxx).sqrt() * misfit.unwrap_or(1.0).max(1.0).sqrt(),
        x_mean: xm,
        at_mean: ym,
        misfit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_on_a_line_give_its_slope_and_the_errors_set_the_slope_s_error() {
        // y = 2 + 0.5 x at x = 3, 5, 7, each with standard error 0.1: the slope is 0.5, and
        // its error 0.1 / sqrt(sum (x - 5)^2) = 0.1 / sqrt(8).
        let l = fit(&[(3.0, 3.5, 0.1), (5.0, 4.5, 0.1), (7.0, 5.5, 0.1)]).unwrap();
        assert!((l.slope - 0.5).abs() < 1e-12, "{l:?}");
        assert!((l.se - 0.1 / 8f64.sqrt()).abs() < 1e-12, "{l:?}");
        assert!((l.at(9.0) - 6.5).abs() < 1e-12);
        assert!(l.misfit.unwrap() < 1e-20, "{l:?}");
    }

    #[test]
    fn points_that_stray_from_the_line_widen_its_slope_s_error() {
        // 0, 1, 5 at x 0, 1, 2, each +-0.1: the slope 2.5, the residuals -0.5, 1, -0.5
        // over 0.1 make a chi-squared of 150 on one degree of freedom, so the slope's error
        // 0.1 / sqrt(2) grows by sqrt(150).
        let l = fit(&[(0.0, 0.0, 0.1), (1.0, 1.0, 0.1), (2.0, 5.0, 0.1)]).unwrap();
        assert!((l.slope - 2.5).abs() < 1e-12, "{l:?}");
        assert!((l.misfit.unwrap() - 150.0).abs() < 1e-9, "{l:?}");
        assert!(
            (l.se - 0.1 / 2f64.sqrt() * 150f64.sqrt()).abs() < 1e-12,
            "{l:?}"
        );
    }

    #[test]
    fn a_noisier_point_weighs_less() {
        // Two exact-ish points on y = x, and a third far off with a huge error: the line
        // follows the first two.
        let l = fit(&[(0.0, 0.0, 0.01), (1.0, 1.0, 0.01), (2.0, 10.0, 100.0)]).unwrap();
        assert!((l.slope - 1.0).abs() < 1e-4, "{l:?}");
        // Unequal errors, worked by hand: weights 1, 1, 0.25 at x 0, 1, 2 with y 0, 2, 2, so
        // the weighted means are 1.5 / 2.25 and 2.5 / 2.25.
        let l = fit(&[(0.0, 0.0, 1.0), (1.0, 2.0, 1.0), (2.0, 2.0, 2.0)]).unwrap();
        let m: f64 = 1.5 / 2.25;
        let ym = (2.0 + 0.5) / 2.25;
        let sxx = m * m + (1.0 - m).powi(2) + 0.25 * (2.0 - m).powi(2);
        let sxy = (0.0 - m) * (0.0 - ym) + (1.0 - m) * (2.0 - ym) + 0.25 * (2.0 - m) * (2.0 - ym);
        let b = sxy / sxx;
        assert!((l.slope - b).abs() < 1e-12, "{l:?}");
        // Residuals about the line, weighted: their sum over one degree of freedom.
        let r = |x: f64, y: f64| y - ym - b * (x - m);
        let chi2 = r(0.0, 0.0).powi(2) + r(1.0, 2.0).powi(2) + 0.25 * r(2.0, 2.0).powi(2);
        assert!((l.misfit.unwrap() - chi2).abs() < 1e-12, "{l:?}");
        let want = (1.0 / sxx).sqrt() * chi2.max(1.0).sqrt();
        assert!((l.se - want).abs() < 1e-12, "{l:?} {chi2}");
    }

    #[test]
    fn one_x_or_a_missing_price_gives_no_line() {
        assert_eq!(fit(&[(1.0, 1.0, 0.1), (1.0, 2.0, 0.1)]), None);
        assert_eq!(fit(&[(1.0, 1.0, 0.1)]), None);
        assert_eq!(fit(&[(1.0, 1.0, 0.1), (2.0, f64::INFINITY, 0.1)]), None);
    }
}
