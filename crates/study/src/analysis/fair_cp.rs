//! The fair-CP search: what a unit is worth, in units of a reference.
//!
//! `m` of unit X fight `n` of reference R, for several `n`. The chance that X's side wins
//! (a draw counts half) falls as `n` grows. The worth is the exchange ratio `n / m` where it
//! crosses 50%, read in four steps ([`worth`]):
//!
//! 1. **A falling curve.** More enemies never help, so the curve is the best-fitting falling
//!    one: the cells, in order of ratio, are pooled where a later cell beats an earlier one
//!    (antitonic regression by pool-adjacent-violators, weighted by trials; the maximum
//!    likelihood under that one assumption). No shape is assumed beyond it, so a slow slide
//!    and then a cliff (one more reference and the unit is overwhelmed) fit as well as a
//!    smooth curve. X "always wins" or "always loses" only if the pooled curve stays on one
//!    side of 50%.
//! 2. **The crossing, always bracketed.** The crossing lies between the last pooled cell at or
//!    above 50% and the first below. It is read by a straight line in log-odds between the
//!    two (so `logit P = b1 (ratio - worth)` there); its CI comes from the two cells' dice by
//!    the delta method. Where either is a sure win or a sure loss, the worth is the midpoint
//!    and its CI the two cells themselves. Adding the whole counts between the two
//!    ([`crate::experiment::price`] does) narrows the bracket to one figure.
//! 3. **Odd and even counts.** Figures abreast pair up: against an odd count one figure
//!    fights alone, so odd and even counts can follow two curves (a formation artefact, not
//!    dice). When the cells around the crossing rise and fall beyond the dice ([`GATE`]) but
//!    the odd counts and the even counts each fall, the worth is the mean of the two
//!    crossings, and both are kept ([`Worth::parity`]).
//! 4. **A quality gate.** Otherwise, cells around the crossing that rise and fall beyond the
//!    dice (Pearson chi-squared of the cells against the pooled curve, p below [`GATE`]) make
//!    the worth doubted ([`Worth::doubt`]): no price rests on it. A milder scatter widens
//!    the CI by the Pearson dispersion (never narrows it).
//!
//! The chi-squared uses the cells of the bracket and [`REACH`] pooled cells beyond it on
//! each side, with one degree of freedom per pooled cell merged (an approximation to the
//! chi-bar-squared law of a monotone fit, on the strict side).

use statrs::distribution::{ChiSquared, ContinuousCDF};

use super::Estimate;

/// One cell: `count` of R against X's units, `ratio = count / units`, `trials`, and X's
/// score (wins + draws / 2).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Point {
    /// R's units in the cell.
    pub count: u64,
    /// `count / units`.
    pub ratio: f64,
    /// Trials the cell ran.
    pub trials: f64,
    /// X's score: wins plus half the draws, a share.
    pub score: f64,
}

/// A fitted exchange ratio.
#[derive(Clone, Debug, PartialEq)]
pub struct Worth {
    /// R's per X at the 50% point, with its CI.
    pub ratio: Estimate,
    /// The curve's slope (in log-odds per unit of ratio) at the 50% point: how sharply
    /// the fight turns there (infinite where no cell lies between a sure win and loss).
    pub slope: f64,
    /// The fitted curve: logit P = b0 + b1 u + b2 u^2 with u = ratio - centre.
    pub curve: [f64; 3],
    /// The ratio `u` is centred on.
    pub centre: f64,
    /// Cells the curve rests on (those between the outermost pooled cells it was fitted to).
    pub cells: usize,
    /// Pearson chi-squared of those cells against the curve, its degrees of freedom, and the
    /// chance of a worse fit if the curve were right (NaN with no degree of freedom left).
    pub chi2: f64,
    /// Its degrees of freedom.
    pub df: usize,
    /// The chance of a worse fit were the curve right.
    pub p_fit: f64,
    /// The factor the covariance was scaled by (1 when the fit is within noise).
    pub dispersion: f64,
    /// The ratios of the cells either side of the crossing (for odd and even counts read
    /// apart, the outermost of both brackets): the whole counts between them would narrow it.
    pub between: [f64; 2],
    /// Whether a whole count (of the same parity, when odd and even counts are read apart)
    /// lies strictly inside a bracket and was not fought: more cells would narrow it.
    pub open: bool,
    /// Counts apart of the cells either side of the crossing (of one curve).
    pub gap: u64,
    /// The odd counts' and the even counts' own ratios, when the worth is their mean.
    pub parity: Option<[f64; 2]>,
    /// Why the worth is not to be relied on, if it is not.
    pub doubt: Option<Doubt>,
}

impl Worth {
    /// The fitted chance that X's side wins at exchange ratio `r`.
    pub fn chance(&self, r: f64) -> f64 {
        let u = r - self.centre;
        let [b0, b1, b2] = self.curve;
        1.0 / (1.0 + (-(b0 + b1 * u + b2 * u * u)).exp())
    }

    /// Whether a price may rest on it.
    pub fn reliable(&self) -> bool {
        self.doubt.is_none()
    }
}

/// Why a worth is doubted.
#[derive(Clone, Debug, PartialEq)]
pub enum Doubt {
    /// The cells around the crossing rise and fall beyond the dice (the chi-squared p of
    /// the cells against the falling curve), and odd and even counts apart do not explain it.
    NotMonotone {
        /// The chi-squared p of the cells against the falling curve.
        p: f64,
    },
    /// Odd and even counts follow two curves, and only one of them crosses 50% among the
    /// cells (`odd`, `even`: each one's ratio, where it has one).
    Parity {
        /// The odd counts' ratio, or why none.
        odd: Result<f64, NoWorth>,
        /// The even counts' ratio, or why none.
        even: Result<f64, NoWorth>,
    },
}

impl std::fmt::Display for Doubt {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Doubt::NotMonotone { p } => write!(
                f,
                "the chance rises and falls around the crossing by more than the dice explain \
                 (p = {p:.1e})"
            ),
            Doubt::Parity { odd, even } => {
                let say = |r: &Result<f64, NoWorth>| match r {
                    Ok(r) => format!("crosses 50% at {r:.2}"),
                    Err(NoWorth::AlwaysAhead { .. }) => "stays above 50% to the largest".into(),
                    Err(NoWorth::AlwaysBehind { .. }) => "stays below 50% from the smallest".into(),
                    Err(NoWorth::NoFit) => "has no cells".into(),
                };
                write!(
                    f,
                    "odd and even counts follow two curves (figures abreast pair up): the odd \
                     {}, the even {}",
                    say(odd),
                    say(even)
                )
            }
        }
    }
}

/// Why no worth was found.
#[derive(Clone, Debug, PartialEq)]
pub enum NoWorth {
    /// X wins more than half the time against every count: add larger counts.
    AlwaysAhead {
        /// The largest ratio fought.
        largest: f64,
    },
    /// X loses more than half the time against every count: add smaller counts.
    AlwaysBehind {
        /// The smallest ratio fought.
        smallest: f64,
    },
    /// The fit did not settle (no cells).
    NoFit,
}

/// How many pooled cells beyond the bracket, on each side, the quality gate tests: a zigzag
/// far from the crossing (a 0.95 after a 0.93) does not move the worth.
pub const REACH: usize = 1;

/// The quality gate's alpha: cells around the crossing that rise and fall with a
/// chi-squared p below this make the worth doubted, and no price rests on it.
pub const GATE: f64 = 0.001;

/// The worth of X from `points` (any order): the 50% point of the falling curve through
/// them, with its CI at `level`.
pub fn worth(points: &[Point], level: f64) -> Result<Worth, NoWorth> {
    let cells = sorted(points);
    let w = crossing(&cells, level)?;
    if w.p_fit >= GATE {
        return Ok(w);
    }
    // The curve misses its cells: odd and even counts may follow two curves.
    let half = |odd: u64| -> Vec<Point> {
        cells
            .iter()
            .filter(|p| p.count % 2 == odd)
            .copied()
            .collect()
    };
    let (odd, even) = (half(1), half(0));
    if odd.len() >= 2 && even.len() >= 2 {
        let fits = |w: &Result<Worth, NoWorth>| w.as_ref().is_ok_and(|w| w.p_fit >= GATE);
        let (o, e) = (crossing(&odd, level), crossing(&even, level));
        match (&o, &e) {
            (Ok(a), Ok(b)) if fits(&o) && fits(&e) => return Ok(mean_of(a, b, level)),
            (Ok(_), Err(NoWorth::AlwaysAhead { .. } | NoWorth::AlwaysBehind { .. }))
            | (Err(NoWorth::AlwaysAhead { .. } | NoWorth::AlwaysBehind { .. }), Ok(_))
                if fits(&o) || fits(&e) =>
            {
                let ratio = |w: &Result<Worth, NoWorth>| {
                    w.as_ref().map(|w| w.ratio.point).map_err(Clone::clone)
                };
                return Ok(Worth {
                    doubt: Some(Doubt::Parity {
                        odd: ratio(&o),
                        even: ratio(&e),
                    }),
                    ..w
                });
            }
            _ => {}
        }
    }
    let p = w.p_fit;
    Ok(Worth {
        doubt: Some(Doubt::NotMonotone { p }),
        ..w
    })
}

/// The odd counts' worth `a` and the even counts' `b` as one: the mean of the two ratios,
/// whose dice are independent.
fn mean_of(a: &Worth, b: &Worth, level: f64) -> Worth {
    let point = (a.ratio.point + b.ratio.point) / 2.0;
    let se = (a.ratio.standard_error.powi(2) + b.ratio.standard_error.powi(2)).sqrt() / 2.0;
    let ratio = if se.is_finite() {
        Estimate::normal(point, se, level)
    } else {
        Estimate {
            point,
            standard_error: f64::INFINITY,
            ci: [
                (a.ratio.ci[0] + b.ratio.ci[0]) / 2.0,
                (a.ratio.ci[1] + b.ratio.ci[1]) / 2.0,
            ],
            level,
        }
    };
    let chi2 = a.chi2 + b.chi2;
    let df = a.df + b.df;
    let slope = (a.slope + b.slope) / 2.0;
    Worth {
        ratio,
        slope,
        curve: [0.0, slope, 0.0],
        centre: point,
        cells: a.cells + b.cells,
        chi2,
        df,
        p_fit: if df == 0 { 1.0 } else { p_value(chi2, df) },
        dispersion: a.dispersion.max(b.dispersion),
        between: [
            a.between[0].min(b.between[0]),
            a.between[1].max(b.between[1]),
        ],
        // Within one parity, the next count is two away.
        open: a.gap > 2 || b.gap > 2,
        gap: a.gap.max(b.gap),
        parity: Some([a.ratio.point, b.ratio.point]),
        doubt: None,
    }
}

/// The points by ratio, those at one ratio added up.
fn sorted(points: &[Point]) -> Vec<Point> {
    let mut v: Vec<Point> = points
        .iter()
        .filter(|p| p.trials > 0.0 && p.ratio.is_finite())
        .copied()
        .collect();
    v.sort_by(|a, b| a.ratio.total_cmp(&b.ratio));
    let mut out: Vec<Point> = Vec::with_capacity(v.len());
    for p in v {
        match out.last_mut() {
            Some(q) if q.ratio == p.ratio => {
                q.trials += p.trials;
                q.score += p.score;
            }
            _ => out.push(p),
        }
    }
    out
}

/// A run of cells pooled into one falling step: cells `from..to`, their trials, score and
/// trial-weighted ratio.
#[derive(Copy, Clone, Debug)]
struct Block {
    from: usize,
    to: usize,
    trials: f64,
    score: f64,
    ratio_trials: f64,
}

impl Block {
    fn chance(&self) -> f64 {
        self.score / self.trials
    }
    fn point(&self, cells: &[Point]) -> Point {
        Point {
            count: cells[self.from].count,
            ratio: self.ratio_trials / self.trials,
            trials: self.trials,
            score: self.score,
        }
    }
}

/// Pool-adjacent-violators for a falling curve: sorted `cells` pooled until each block's
/// chance is at most the one before.
fn antitonic(cells: &[Point]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::with_capacity(cells.len());
    for (i, c) in cells.iter().enumerate() {
        blocks.push(Block {
            from: i,
            to: i + 1,
            trials: c.trials,
            score: c.score,
            ratio_trials: c.ratio * c.trials,
        });
        while blocks.len() >= 2 {
            let n = blocks.len();
            if blocks[n - 1].chance() <= blocks[n - 2].chance() {
                break;
            }
            let last = blocks.pop().expect("two blocks");
            let prev = blocks.last_mut().expect("one block");
            prev.to = last.to;
            prev.trials += last.trials;
            prev.score += last.score;
            prev.ratio_trials += last.ratio_trials;
        }
    }
    blocks
}

/// The chance of a chi-squared of `chi2` or more on `df` degrees of freedom (NaN with none).
fn p_value(chi2: f64, df: usize) -> f64 {
    if df == 0 {
        return f64::NAN;
    }
    ChiSquared::new(df as f64).map_or(f64::NAN, |c| c.sf(chi2))
}

/// Steps 1, 2 and the gate's test of [`worth`] on sorted `cells`: the crossing of their
/// falling curve.
fn crossing(cells: &[Point], level: f64) -> Result<Worth, NoWorth> {
    let blocks = antitonic(cells);
    let (Some(first), Some(last)) = (blocks.first(), blocks.last()) else {
        return Err(NoWorth::NoFit);
    };
    if last.chance() >= 0.5 {
        return Err(NoWorth::AlwaysAhead {
            largest: cells[cells.len() - 1].ratio,
        });
    }
    if first.chance() < 0.5 {
        return Err(NoWorth::AlwaysBehind {
            smallest: cells[0].ratio,
        });
    }
    // The last block at or above 50%, and the first below: the bracket.
    let i = blocks
        .iter()
        .rposition(|b| b.chance() >= 0.5)
        .expect("the first block is at or above 50%");
    let (a, b) = (
        i.saturating_sub(REACH),
        (i + 1 + REACH).min(blocks.len() - 1),
    );
    // The cells around the crossing against the falling curve: how far they rise and fall.
    let near = &blocks[a..=b];
    let on = blocks[a].from..blocks[b].to;
    let chi2: f64 = near
        .iter()
        .flat_map(|k| cells[k.from..k.to].iter().map(move |q| (k.chance(), q)))
        .map(|(mu, q)| {
            let var = q.trials * mu * (1.0 - mu);
            let d = q.score - q.trials * mu;
            if var > 0.0 { d * d / var } else { 0.0 }
        })
        .sum();
    let df = on.len() - near.len();
    let p_fit = if df == 0 { 1.0 } else { p_value(chi2, df) };
    let dispersion = if df > 0 {
        (chi2 / df as f64).max(1.0)
    } else {
        1.0
    };
    let [hi, lo] = [blocks[i].point(cells), blocks[i + 1].point(cells)];
    // Whole counts from the upper block's last cell to the lower block's first.
    let gap = cells[blocks[i + 1].from]
        .count
        .abs_diff(cells[blocks[i].to - 1].count);
    let (ph, pl) = (hi.score / hi.trials, lo.score / lo.trials);
    let width = lo.ratio - hi.ratio;
    let base = Worth {
        ratio: Estimate::normal(f64::NAN, f64::NAN, level),
        slope: f64::NEG_INFINITY,
        curve: [0.0, f64::NEG_INFINITY, 0.0],
        centre: f64::NAN,
        cells: on.len(),
        chi2,
        df,
        p_fit,
        dispersion,
        between: [hi.ratio, lo.ratio],
        open: gap > 1,
        gap,
        parity: None,
        doubt: None,
    };
    if ph >= 1.0 || pl <= 0.0 {
        // A sure win next to a sure loss: the crossing is somewhere between.
        let mid = (hi.ratio + lo.ratio) / 2.0;
        return Ok(Worth {
            ratio: Estimate {
                point: mid,
                standard_error: width / (2.0 * super::estimate::z(level)),
                ci: [hi.ratio, lo.ratio],
                level,
            },
            centre: mid,
            ..base
        });
    }
    // A straight line in log-odds between the two; each end's variance 1 / (t p (1 - p)).
    let logit = |p: f64| (p / (1.0 - p)).ln();
    let (xh, xl) = (logit(ph), logit(pl));
    let span = xh - xl;
    let root = hi.ratio + width * xh / span;
    let (vh, vl) = (
        1.0 / (hi.trials * ph * (1.0 - ph)),
        1.0 / (lo.trials * pl * (1.0 - pl)),
    );
    let var = (width / (span * span)).powi(2) * (xl * xl * vh + xh * xh * vl) * dispersion;
    let slope = -span / width;
    Ok(Worth {
        ratio: Estimate::normal(root, var.sqrt(), level),
        slope,
        curve: [0.0, slope, 0.0],
        centre: root,
        ..base
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells at `counts` of the reference against 4 units, with the chances `p`.
    fn cells(counts: &[u64], p: &[f64], trials: f64) -> Vec<Point> {
        counts
            .iter()
            .zip(p)
            .map(|(&n, &p)| Point {
                count: n,
                ratio: n as f64 / 4.0,
                trials,
                score: p * trials,
            })
            .collect()
    }

    fn logistic(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    #[test]
    fn the_crossing_is_read_in_log_odds_between_the_cells_either_side() {
        // logit p = 3 - 2 r at r = 1.25 and 1.75: 50% at 1.5, on a straight log-odds line.
        let counts = [3, 4, 5, 7, 8];
        let p: Vec<f64> = counts
            .iter()
            .map(|&n| logistic(3.0 - 2.0 * n as f64 / 4.0))
            .collect();
        let w = worth(&cells(&counts, &p, 10_000.0), 0.95).unwrap();
        assert!((w.ratio.point - 1.5).abs() < 1e-9, "{w:?}");
        assert!((w.slope + 2.0).abs() < 1e-9);
        assert!((w.chance(1.5) - 0.5).abs() < 1e-9);
        // The bracket (5 and 7) and one cell beyond each: four cells, none pooled.
        assert_eq!((w.cells, w.df, w.p_fit), (4, 0, 1.0));
        assert!(w.ratio.ci[0] < 1.5 && 1.5 < w.ratio.ci[1] && w.reliable());
        // Delta method: var = (w / d^2)^2 (x_l^2 v_h + x_h^2 v_l), x = +-0.5, w = 0.5, d = 1.
        let v = 1.0 / (10_000.0 * logistic(0.5) * logistic(-0.5));
        let se = (0.5f64 * 0.5 * (0.25 * v + 0.25 * v)).sqrt();
        assert!((w.ratio.standard_error - se).abs() < 1e-12, "{w:?}");
        // A hundred times the trials: a tenth of the standard error.
        let w100 = worth(&cells(&counts, &p, 1_000_000.0), 0.95).unwrap();
        let shrink = w.ratio.standard_error / w100.ratio.standard_error;
        assert!((shrink - 10.0).abs() < 1e-6, "{shrink}");
    }

    #[test]
    fn issue_39_a_steep_crossing_is_always_bracketed() {
        // A Launcher team at 12" (measured): sure wins to 16 references, then 0.52 at 18 and
        // 0.07 at 20. A curve fitted to the cells between 10% and 90% found no crossing;
        // the bracket always holds one.
        let counts = [3, 6, 9, 12, 14, 16, 18, 20, 22, 25];
        let p = [
            0.997, 0.991, 0.974, 0.907, 0.837, 0.713, 0.521, 0.073, 0.001, 0.0,
        ];
        let w = worth(&cells(&counts, &p, 10_000.0), 0.95).unwrap();
        assert!((18.0 / 4.0..20.0 / 4.0).contains(&w.ratio.point), "{w:?}");
        assert_eq!(w.between, [4.5, 5.0]);
        assert!(w.open && w.gap == 2, "19 was not fought");
        assert!(
            w.ratio.ci[0] > 4.4 && w.ratio.ci[1] < 4.7 && w.reliable(),
            "{w:?}"
        );
        // A sure win next to a sure loss: the crossing is between them, the two cells its CI.
        let w = worth(&cells(&[4, 5, 6, 7], &[1.0, 1.0, 0.0, 0.0], 2_000.0), 0.95).unwrap();
        assert_eq!(w.ratio.point, 5.5 / 4.0);
        assert_eq!(w.ratio.ci, [1.25, 1.5]);
        assert!(w.reliable() && w.slope == f64::NEG_INFINITY);
    }

    #[test]
    fn a_blip_that_rises_is_pooled_and_a_zigzag_is_doubted() {
        // 0.62 then 0.66 on 200 trials each: luck. Pooled, the curve still falls through 50%
        // once, between the pair and 0.45.
        let counts = [2, 3, 4, 5, 6, 7];
        let p = [0.9, 0.62, 0.66, 0.45, 0.3, 0.1];
        let w = worth(&cells(&counts, &p, 200.0), 0.95).unwrap();
        assert!((3.5 / 4.0..5.0 / 4.0).contains(&w.ratio.point), "{w:?}");
        // The bracket (the pooled pair, 0.45) and one pooled cell beyond each: 2 to 6.
        assert_eq!((w.cells, w.df), (5, 1));
        assert!(w.reliable() && w.p_fit > GATE, "{w:?}");
        // A rise on 20,000 trials a cell is no luck, and here odd and even counts apart do
        // not explain it (the odd counts 0.8, 0.66, 0.7, 0.1 rise too).
        let p = [0.9, 0.8, 0.62, 0.66, 0.45, 0.7, 0.2, 0.1];
        let w = worth(&cells(&[2, 3, 4, 5, 6, 7, 8, 9], &p, 20_000.0), 0.95).unwrap();
        assert!(
            matches!(w.doubt, Some(Doubt::NotMonotone { p }) if p < GATE),
            "{w:?}"
        );
        assert!(
            w.to_owned()
                .doubt
                .unwrap()
                .to_string()
                .contains("rises and falls")
        );
        // A milder scatter widens the CI instead.
        let p = [0.9, 0.62, 0.64, 0.45, 0.3, 0.1];
        let w = worth(&cells(&counts, &p, 2_000.0), 0.95).unwrap();
        assert!(w.reliable() && w.dispersion > 1.0, "{w:?}");
    }

    #[test]
    fn refuses_to_extrapolate() {
        let ahead = cells(&[4, 8], &[0.9, 0.6], 100.0);
        assert_eq!(
            worth(&ahead, 0.95),
            Err(NoWorth::AlwaysAhead { largest: 2.0 })
        );
        let behind = cells(&[12, 16], &[0.4, 0.1], 100.0);
        assert_eq!(
            worth(&behind, 0.95),
            Err(NoWorth::AlwaysBehind { smallest: 3.0 })
        );
        // Winning more against more enemies pools into one flat step: below 50% there,
        // it never crosses.
        let inverted = cells(&[1, 2, 3], &[0.2, 0.3, 0.4], 100.0);
        assert_eq!(
            worth(&inverted, 0.95),
            Err(NoWorth::AlwaysBehind { smallest: 0.25 })
        );
        assert_eq!(worth(&[], 0.95), Err(NoWorth::NoFit));
    }

    #[test]
    fn issue_39_odd_and_even_counts_on_two_curves_are_priced_as_their_mean() {
        // Odd counts on logit = 3 - 2 r (50% at 1.5), even counts on logit = 1 - 2 r (50%
        // at 0.5): together they zigzag; each parity falls on its own.
        let counts: Vec<u64> = (1..=10).collect();
        let p: Vec<f64> = counts
            .iter()
            .map(|&n| {
                let (a, r) = (if n % 2 == 1 { 3.0 } else { 1.0 }, n as f64 / 4.0);
                logistic(a - 2.0 * r)
            })
            .collect();
        let w = worth(&cells(&counts, &p, 20_000.0), 0.95).unwrap();
        let [odd, even] = w.parity.expect("two curves");
        // Each parity's bracket lies on its own straight log-odds line: read exactly.
        assert!(
            (odd - 1.5).abs() < 1e-9 && (even - 0.5).abs() < 1e-9,
            "{w:?}"
        );
        assert!((w.ratio.point - 1.0).abs() < 1e-9);
        assert!(w.reliable());
        // Odd 5 and 7 bracket 1.5; even 2 and 4 bracket 0.5.
        assert_eq!(w.between, [0.5, 1.75]);
        assert!(!w.open, "each parity's bracket is two counts apart");
        // The even counts never cross among the cells: doubted, and said why.
        let counts: Vec<u64> = (3..=10).collect();
        let p: Vec<f64> = counts
            .iter()
            .map(|&n| {
                if n % 2 == 1 {
                    0.9 - 0.1 * n as f64
                } else {
                    0.2
                }
            })
            .collect();
        let w = worth(&cells(&counts, &p, 20_000.0), 0.95).unwrap();
        let Some(Doubt::Parity {
            odd,
            even: Err(NoWorth::AlwaysBehind { .. }),
        }) = &w.doubt
        else {
            panic!("{w:?}");
        };
        assert!(
            odd.as_ref().is_ok_and(|r| (r - 1.0).abs() < 0.01),
            "{odd:?}"
        );
    }
}
