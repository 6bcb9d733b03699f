//! The fair-CP figures: what a unit is worth in a reference unit, each scenario's
//! crossing drawn with its fitted curve, and the sentence that reads the price.

use super::*;

/// The fair-CP fit: each cell's chance against the exchange ratio, the curve and the 50%
/// crossing with its CI.
/// What a fair price's ± covers, and how far the price moved across the scenarios this run
/// swept: the CI is the dice noise of these cells alone; a price is a price of one scenario.
pub(super) fn scenario_spread(fit: &DataFrame, cp: &[Option<f64>]) -> String {
    let prices: Vec<f64> = cp
        .iter()
        .flatten()
        .copied()
        .filter(|p| p.is_finite())
        .collect();
    let base = "The ± covers the dice of these cells only: it holds for this scenario (its \
                distance, policies, rule options and CP budget), and the price moves with the \
                scenario";
    if prices.len() < 2 {
        return format!("{base}; sweep `distance` or a policy beside `count` to see how far.");
    }
    let (lo, hi) = prices
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &p| (a.min(p), b.max(p)));
    let axes: Vec<String> = fit
        .get_column_names()
        .iter()
        .map(|c| c.to_string())
        .take_while(|c| c != "unit")
        .collect();
    format!(
        "{base}: across the {} scenarios of this run ({}), the fair price runs from {lo:.2} \
         to {hi:.2} CP.",
        prices.len(),
        if axes.is_empty() {
            "its units".to_string()
        } else {
            axes.iter().map(|a| human(a)).collect::<Vec<_>>().join(", ")
        }
    )
}

/// The card price of a fair-CP page's reliable fits (`cp` point, lo, hi a fit) and the
/// verdict on the listed cost, as a sentence.
pub(super) fn page_verdict(
    doubt: &[String],
    cp: [&[Option<f64>]; 3],
    listed: &[Option<f64>],
) -> String {
    let priced: Vec<Scenario> = (0..cp[0].len())
        .filter(|&g| doubt.get(g).is_none_or(|d| d.is_empty()))
        .filter_map(|g| Some(Scenario::Priced([cp[0][g]?, cp[1][g]?, cp[2][g]?])))
        .collect();
    let listed = listed.iter().flatten().copied().next().unwrap_or(f64::NAN);
    match card::sentence(listed, &priced) {
        Some(s) => format!("C{}.", &s[1..]),
        None => "No fit here gives a price to weigh the listed cost against.".into(),
    }
}

/// Fit `g`'s figure when no count gives the unit an even fight: its cells alone.
pub(super) fn no_crossing(
    g: usize,
    unit: &str,
    reference: &str,
    points: Vec<(f64, f64, f64, f64)>,
) -> Figure {
    Figure {
        stem: format!("fair_cp_{g}"),
        chart: Chart {
            title: format!("{unit} against {reference}: no 50% point"),
            x_label: format!("{reference} per {unit} (exchange ratio)"),
            y_label: format!("P({unit} side wins)"),
            body: Body::Lines {
                series: vec![Series {
                    label: "cells (95% CI)".into(),
                    points,
                    dots: true,
                    steps: false,
                }],
                probability: true,
            },
        },
        sentence: format!(
            "No exchange ratio among these cells gives {unit} an even fight: the counts need \
             extending."
        ),
    }
}

pub(super) fn fair_cp(frames: &Frames) -> Vec<Figure> {
    let (Some(fit), df) = (&frames.fair_cp, &frames.summary) else {
        return Vec::new();
    };
    let units = numbers(fit, "units").unwrap_or_default();
    let unit = texts(fit, "unit").unwrap_or_default();
    let reference = texts(fit, "reference").unwrap_or_default();
    let col = |n: &str| numbers(fit, n).unwrap_or_default();
    let (ratio, lo, hi) = (col("ratio"), col("ratio_lo"), col("ratio_hi"));
    let (cp, cp_lo, cp_hi, listed) = (
        col("fair_cp"),
        col("fair_cp_lo"),
        col("fair_cp_hi"),
        col("cp_unit_listed"),
    );
    let (centre, b0, b1, b2) = (
        col("curve_centre"),
        col("curve_b0"),
        col("curve_b1"),
        col("curve_b2"),
    );
    let counts = numbers(df, "count").unwrap_or_default();
    let wins = triple(df, "p_a_wins");
    let draws = numbers(df, "p_draw").unwrap_or_default();
    let per = if fit.height() == 0 {
        0
    } else {
        df.height() / fit.height()
    };
    let cp_all = cp.clone();
    let doubt = texts(fit, "doubt").unwrap_or_else(|| vec![String::new(); fit.height()]);
    let (odd, even) = (col("ratio_odd"), col("ratio_even"));
    let between: Vec<[Option<f64>; 2]> = col("bracket_from")
        .into_iter()
        .zip(col("bracket_to"))
        .map(|(a, b)| [a, b])
        .collect();
    // One verdict for the page, by the card-price rule every price page uses.
    let verdict = page_verdict(&doubt, [&cp, &cp_lo, &cp_hi], &listed);
    // What sets one fit apart from the others (a swept distance, say): named in its title.
    let groups: Vec<(String, Vec<String>)> = frames
        .axes()
        .into_iter()
        .filter_map(|a| texts(fit, &a).map(|v| (a, v)))
        .collect();
    let mut out = Vec::new();
    for g in 0..fit.height() {
        let m = units[g].unwrap_or(1.0);
        let which = group_label(&groups, g);
        let points: Vec<(f64, f64, f64, f64)> = (g * per..(g + 1) * per)
            .filter(|&i| i < counts.len())
            .map(|i| cell_point(counts[i], wins[i], draws.get(i).copied().flatten(), m))
            .collect();
        let (Some(r), Some(rl), Some(rh)) = (ratio[g], lo[g], hi[g]) else {
            out.push(no_crossing(g, &unit[g], &reference[g], points));
            continue;
        };
        // The log-odds line the worth was read from, drawn between the two cells either
        // side of 50% only (a sure win beside a sure loss has none: no line).
        let curve = match (centre[g], b0[g], b1[g], b2[g], between[g]) {
            (Some(c0), Some(k0), Some(k1), Some(k2), [Some(xmin), Some(xmax)]) => {
                log_odds_line(c0, [k0, k1, k2], [xmin, xmax])
            }
            _ => Vec::new(),
        };
        let (cp, cl, ch, l) = (
            cp[g].unwrap_or(f64::NAN),
            cp_lo[g].unwrap_or(f64::NAN),
            cp_hi[g].unwrap_or(f64::NAN),
            listed[g].unwrap_or(f64::NAN),
        );
        let read = how_read(&doubt[g], [odd[g], even[g]], cp / r);
        let sentence = format!(
            "{} is worth {} {}s = {:.2} ± {:.2} CP (95% CI; listed {l} CP). {read} {} {}",
            unit[g],
            pm(r, rl, rh, false),
            reference[g],
            cp,
            (ch - cl) / 2.0,
            scenario_spread(fit, &cp_all),
            verdict
        );
        out.push(Figure {
            stem: if fit.height() == 1 {
                "fair_cp".into()
            } else {
                format!("fair_cp_{g}")
            },
            chart: Chart {
                title: if which.is_empty() {
                    format!("What a {} is worth in {}s", unit[g], reference[g])
                } else {
                    format!("What a {} is worth in {}s, {which}", unit[g], reference[g])
                },
                x_label: format!("{}s per {} (exchange ratio)", reference[g], unit[g]),
                y_label: format!("P({} side wins), draws half", unit[g]),
                body: Body::Crossing {
                    points,
                    curve,
                    at: (r, rl, rh),
                },
            },
            sentence,
        });
    }
    out
}

/// What sets fit `g` apart from the others, in words ("12\" apart"), from its `groups`.
pub(super) fn group_label(groups: &[(String, Vec<String>)], g: usize) -> String {
    groups
        .iter()
        .map(|(a, v)| match (a.as_str(), v[g].trim_end_matches(".0")) {
            ("distance", d) => format!("{d}\" apart"),
            (a, v) => format!("{a} {v}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A fair-CP cell as drawn: its exchange ratio (`count` per `units`) and its win chance
/// with its CI, draws counted half.
pub(super) fn cell_point(
    count: Option<f64>,
    wins: (f64, f64, f64),
    draws: Option<f64>,
    units: f64,
) -> (f64, f64, f64, f64) {
    let half = draws.unwrap_or(0.0) / 2.0;
    (
        count.unwrap_or(0.0) / units,
        wins.0 + half,
        wins.1 + half,
        wins.2 + half,
    )
}

/// The log-odds line `b0 + b1 u + b2 u^2` (`u = x - centre`) as chances, drawn across
/// `span` (the two cells either side of 50%).
pub(super) fn log_odds_line(centre: f64, b: [f64; 3], span: [f64; 2]) -> Vec<(f64, f64)> {
    (0..=20)
        .map(|k| {
            let x = span[0] + (span[1] - span[0]) * k as f64 / 20.0;
            let u = x - centre;
            (x, 1.0 / (1.0 + (-(b[0] + b[1] * u + b[2] * u * u)).exp()))
        })
        .collect()
}

/// How a fit's worth was read, in a sentence: by its `doubt` (none: ""), its odd and even
/// ratios when read apart, and the CP of one reference (`cp_each`).
pub(super) fn how_read(doubt: &str, [odd, even]: [Option<f64>; 2], cp_each: f64) -> String {
    match (doubt, odd, even) {
        ("", Some(o), Some(e)) => format!(
            "Odd and even counts follow two curves (figures abreast pair up): {:.2} and \
             {:.2} CP, read at their mean.",
            o * cp_each,
            e * cp_each
        ),
        ("", ..) => "It is read where the falling curve through the cells crosses 50%, \
                     between the cells either side."
            .to_string(),
        (why, ..) => format!("No price rests on it: {why}."),
    }
}
