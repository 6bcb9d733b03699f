//! From frames to figures: which charts a run gets, and the sentence that says what each
//! shows, written from the numbers.

use crate::analysis::card::{self, Scenario};
use polars::prelude::DataFrame;

use super::chart::{Body, Chart, Series};
use super::frames::{Frames, is_numeric, numbers, texts};

mod counts;
mod matchups;
mod worth;

use counts::{histograms, rings, turns};
use matchups::matchups;
use worth::fair_cp;

/// A chart with its file stem and the sentence under it.
pub struct Figure {
    /// The chart's file stem.
    pub stem: String,
    /// The chart.
    pub chart: Chart,
    /// The sentence under it.
    pub sentence: String,
}

/// Most lines one chart draws; more are left out and the sentence says so.
const MAX_SERIES: usize = 8;

/// The figure a run's charts and sentences are about.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    /// Its column in the summary frame.
    pub column: &'static str,
    /// In words, naming side A's units where every cell fields the same ("P(A:
    /// minifig-launcher wins)").
    pub label: String,
    /// A probability (drawn on 0..1, printed as a percentage).
    pub probability: bool,
    /// Computed exactly, so it has no CI.
    pub exact: bool,
}

/// The key figure of a run's kind: its headline ([`crate::schema::headline`]); a run with
/// none (no such column yet) speaks of mean kills, as a blast would.
pub fn key(frames: &Frames) -> Key {
    let has = |c: &str| frames.summary.column(c).is_ok();
    let h = crate::schema::headline(has).unwrap_or(crate::schema::MEAN_KILLS);
    let (column, label, probability, exact) = (h.column, h.label, h.probability, h.exact);
    let label = match (column, super::page::side_name(frames, 'a')) {
        ("p_a_wins", Some(a)) => format!("P(A: {a} wins)"),
        _ => label.to_string(),
    };
    Key {
        column,
        label,
        probability,
        exact,
    }
}

/// A figure as text: "42.1%" or "0.421".
pub fn plain(point: f64, probability: bool) -> String {
    if probability {
        format!("{:.1}%", point * 100.0)
    } else {
        format!("{point:.3}")
    }
}

/// Every figure the run's frames support.
pub fn figures(frames: &Frames) -> Vec<Figure> {
    let mut out = Vec::new();
    match frames.text("kind") {
        "fair-cp" => out.extend(fair_cp(frames)),
        "matchups" => out.extend(matchups(frames)),
        "marks" => {
            out.extend(grid(frames));
            out.extend(sweep(frames));
        }
        // Two axes of names (a policy by an opponent): a grid reads better than a bar a
        // cell, and shows a whole row or column at zero at a glance.
        _ if two_named_axes(frames) => out.extend(grid(frames)),
        _ => out.extend(sweep(frames)),
    }
    out.extend(histograms(frames));
    out.extend(rings(frames));
    out.extend(turns(frames));
    for f in &mut out {
        if let Some(note) = narrow_bands(&f.chart) {
            f.sentence.push(' ');
            f.sentence.push_str(&note);
        }
    }
    out
}

/// The share of a line chart's height below which a 95% band hides under its line (a line
/// is 3 px wide, with its markers 6, on a plot about 380 px high: 2% is under 8 px).
pub const HIDDEN_BAND: f64 = 0.02;

/// Where a line chart's every 95% band is narrower than its line ([`HIDDEN_BAND`] of the
/// y axis), a sentence saying so with the widest band's half-width: a reader who sees no
/// band must not take it for a missing CI (issue 44).
pub fn narrow_bands(chart: &Chart) -> Option<String> {
    let Body::Lines {
        series,
        probability,
    } = &chart.body
    else {
        return None;
    };
    let points: Vec<&(f64, f64, f64, f64)> = series.iter().flat_map(|s| &s.points).collect();
    if points.is_empty() {
        return None;
    }
    // The y axis as the chart draws it.
    let span = if *probability {
        1.0
    } else {
        let lo = points.iter().map(|p| p.2).fold(0.0f64, f64::min);
        let hi = points.iter().map(|p| p.3).fold(f64::NEG_INFINITY, f64::max);
        (hi - lo) * 1.08
    };
    let widest = points.iter().map(|p| p.3 - p.2).fold(0.0f64, f64::max);
    // An exact figure (every band of no width) has no band to hide.
    if widest <= 0.0 || span.is_nan() || span <= 0.0 || widest >= HIDDEN_BAND * span {
        return None;
    }
    let h = widest / 2.0;
    let half = if *probability {
        format!("{}%", short_of(h * 100.0))
    } else {
        short_of(h)
    };
    Some(format!(
        "Every 95% band is too narrow to see beside its line here (the widest is ±{half})."
    ))
}

/// A half-width to its first significant digit and one more.
fn short_of(x: f64) -> String {
    if x <= 0.0 {
        return "0".into();
    }
    let d = (1 - x.log10().floor() as i32).max(0) as usize;
    format!("{x:.d$}")
}

/// "0.421 ± 0.004" or, for a probability, "42.1% ± 0.4%" (the 95% CI's half-width), with
/// as many decimals as the half-width needs to show its first digit (never "± 0.0%" for
/// an interval that has a width): 10M trials print "61.03% ± 0.03%".
pub fn pm(point: f64, lo: f64, hi: f64, probability: bool) -> String {
    let h = (hi - lo) / 2.0;
    let (scale, unit, least) = if probability {
        (100.0, "%", 1)
    } else {
        (1.0, "", 3)
    };
    let d = decimals(h * scale, least);
    format!(
        "{:.d$}{unit} ± {:.d$}{unit}",
        point * scale,
        h * scale,
        d = d
    )
}

/// Decimals that show the first significant digit of `width` (at least `least`, at most 6).
fn decimals(width: f64, least: usize) -> usize {
    if width.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !width.is_finite() {
        return least;
    }
    let first = (-width.log10().floor()) as i64;
    (first.max(least as i64) as usize).min(6)
}

/// Cell labels "distance: 6, spacing: 1.5" over the named parameters, in words rather
/// than flag syntax (`b_spacing` reads "B's spacing").
fn labels(df: &DataFrame, names: &[String]) -> Vec<String> {
    let cols: Vec<Vec<String>> = names.iter().filter_map(|n| texts(df, n)).collect();
    (0..df.height())
        .map(|i| {
            names
                .iter()
                .zip(&cols)
                .map(|(n, c)| {
                    // A side's units as a reader writes them: "3 × minifig-hand-weapon".
                    format!("{}: {}", human(n), value_text(n, &c[i]))
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect()
}

/// A cell's value of `axis` as a reader writes it (a side's units: "3 × name").
fn value_text(axis: &str, v: &str) -> String {
    if axis == "a" || axis == "b" {
        units_text(v)
    } else {
        v.to_string()
    }
}

/// "minifig-hand-weapon*3, field-medik" as "3 × minifig-hand-weapon + field-medik".
pub fn units_text(s: &str) -> String {
    s.split(',')
        .map(|u| {
            let u = u.trim();
            match u.rsplit_once('*') {
                Some((name, n)) if n.trim().parse::<u32>().is_ok() => {
                    format!("{} × {}", n.trim(), name.trim())
                }
                _ => u.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// An axis name in words: `a` is "A", `b_bail` "B's bail", `max_turns` "max turns".
pub fn human(axis: &str) -> String {
    let words = |s: &str| s.replace(['_', '-'], " ");
    match axis {
        "a" => "A".into(),
        "b" => "B".into(),
        _ => match axis.split_at_checked(2) {
            Some(("a_" | "a-", rest)) => format!("A's {}", words(rest)),
            Some(("b_" | "b-", rest)) => format!("B's {}", words(rest)),
            _ => words(axis),
        },
    }
}

/// The top (or, with `low`, the bottom) of `cells` (label, point, lo, hi) in words, never
/// naming one cell as highest when others' 95% CIs reach its own: then it says how many
/// share the top within noise.
fn extreme(
    cells: &[(String, f64, f64, f64)],
    low: bool,
    fmt: &dyn Fn(f64, f64, f64) -> String,
) -> Option<String> {
    let cmp = |a: &&(String, f64, f64, f64), b: &&(String, f64, f64, f64)| a.1.total_cmp(&b.1);
    let best = if low {
        cells.iter().min_by(cmp)?
    } else {
        cells.iter().max_by(cmp)?
    };
    let word = if low { "lowest" } else { "highest" };
    // Cells whose interval reaches the best one's: not told apart from it by these trials.
    let close: Vec<&(String, f64, f64, f64)> = cells
        .iter()
        .filter(|c| !std::ptr::eq(*c, best))
        .filter(|c| if low { c.2 <= best.3 } else { c.3 >= best.2 })
        .collect();
    let at = fmt(best.1, best.2, best.3);
    Some(match close.len() {
        0 => format!("{word}: {at} at {}", best.0),
        n if n <= 2 => format!(
            "no single {word}: {at} at {} is within noise of {} (overlapping 95% CIs)",
            best.0,
            close
                .iter()
                .map(|c| format!("{} at {}", fmt(c.1, c.2, c.3), c.0))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        n => format!(
            "no single {word}: {at} at {} is within noise of {n} other cells (overlapping 95% \
             CIs)",
            best.0
        ),
    })
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// (point, lo, hi) of `name` in row `i`.
fn triple(df: &DataFrame, name: &str) -> Vec<(f64, f64, f64)> {
    let p = numbers(df, name).unwrap_or_default();
    let lo = numbers(df, &format!("{name}_lo")).unwrap_or_else(|| p.clone());
    let hi = numbers(df, &format!("{name}_hi")).unwrap_or_else(|| p.clone());
    p.iter()
        .zip(lo.iter().zip(&hi))
        .map(|(p, (l, h))| {
            let p = p.unwrap_or(f64::NAN);
            (p, l.unwrap_or(p), h.unwrap_or(p))
        })
        .collect()
}

/// The key figure against the first numeric axis, a line per combination of the others
/// (or bars when no axis is a number).
fn sweep(frames: &Frames) -> Option<Figure> {
    let df = &frames.summary;
    let axes = frames.axes();
    let k = key(frames);
    let (metric, label, prob) = (k.column, k.label, k.probability);
    // An exact figure reads as itself; an estimate with its CI.
    let pm = |p: f64, lo: f64, hi: f64, prob: bool| {
        if k.exact {
            plain(p, prob)
        } else {
            pm(p, lo, hi, prob)
        }
    };
    let ci = if k.exact { "exact" } else { "95% CI" };
    let values = triple(df, metric);
    if values.is_empty() {
        return None;
    }
    // Every cell as (label, point, lo, hi), for the bars and for the captions.
    let cells: Vec<(String, f64, f64, f64)> = labels(df, &axes)
        .into_iter()
        .zip(&values)
        .map(|(n, v)| (n, v.0, v.1, v.2))
        .collect();
    let f = |p: f64, lo: f64, hi: f64| pm(p, lo, hi, prob);
    let x_axis = axes.iter().find(|a| is_numeric(df, a)).cloned();
    let Some(x_axis) = x_axis else {
        let bars = cells;
        let sentence = format!(
            "{}; {} ({ci}).",
            capital(&extreme(&bars, false, &f)?),
            extreme(&bars, true, &f)?
        );
        return Some(Figure {
            stem: "sweep".into(),
            chart: Chart {
                title: format!("{label} by cell"),
                x_label: format!("{label} ({ci})"),
                y_label: String::new(),
                body: Body::Bars {
                    bars,
                    probability: prob,
                },
            },
            sentence,
        });
    };
    let xs = numbers(df, &x_axis)?;
    let others: Vec<String> = axes.iter().filter(|a| **a != x_axis).cloned().collect();
    let mut series = lines_of(&labels(df, &others), &xs, &values);
    let total = series.len();
    series.truncate(MAX_SERIES);
    let cliff = range_cliff(df, &x_axis);
    // Say what moved most, and where the figure peaks.
    let change = |s: &Series| {
        let (a, b) = (s.points.first().unwrap(), s.points.last().unwrap());
        (b.1 - a.1).abs()
    };
    let s = series
        .iter()
        .max_by(|a, b| change(a).total_cmp(&change(b)))?;
    let (a, b) = (s.points.first()?, s.points.last()?);
    let verb = if b.1 > a.1 + (a.3 - a.2 + b.3 - b.2) / 2.0 {
        "rises"
    } else if b.1 < a.1 - (a.3 - a.2 + b.3 - b.2) / 2.0 {
        "falls"
    } else {
        "stays within its CI"
    };
    let top = capital(&extreme(&cells, false, &f)?);
    let x_words = human(&x_axis);
    let mut sentence = format!(
        "{label} {verb} from {} at {x_words} {} to {} at {x_words} {}{}. {top}.",
        pm(a.1, a.2, a.3, prob),
        a.0,
        pm(b.1, b.2, b.3, prob),
        b.0,
        if s.label.is_empty() {
            String::new()
        } else {
            format!(" ({})", s.label)
        },
    );
    if total > MAX_SERIES {
        sentence.push_str(&format!(" The chart shows {MAX_SERIES} of {total} lines."));
    }
    if let Some(r) = cliff {
        mark_range(r, &mut series, &mut sentence);
    }
    Some(Figure {
        stem: "sweep".into(),
        chart: Chart {
            title: format!("{label} by {}", human(&x_axis)),
            x_label: axis_label(&x_axis),
            y_label: if k.exact {
                format!("{label} (exact)")
            } else {
                format!("{label} (95% CI band)")
            },
            body: Body::Lines {
                series,
                probability: prob,
            },
        },
        sentence,
    })
}

/// One line per group of the other axes: each cell's `(x, point, lo, hi)` on its group's
/// line, in x order.
fn lines_of(groups: &[String], xs: &[Option<f64>], values: &[(f64, f64, f64)]) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let point = (
            xs[i].unwrap_or(f64::NAN),
            values[i].0,
            values[i].1,
            values[i].2,
        );
        match series.iter_mut().find(|s| &s.label == g) {
            Some(s) => s.points.push(point),
            None => series.push(Series {
                label: g.clone(),
                points: vec![point],
                dots: false,
                steps: false,
            }),
        }
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    series
}

/// The weapon's Range `r`, where the figure falls off a cliff, not along the slope a line
/// between two cells would suggest: marked as a vertical line and said.
fn mark_range(r: f64, series: &mut Vec<Series>, sentence: &mut String) {
    let top = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.3))
        .fold(0.0, f64::max);
    series.push(Series {
        label: format!("Range {r}\" (beyond: Out of Range)"),
        points: vec![(r, 0.0, 0.0, 0.0), (r, top, top, top)],
        dots: false,
        steps: false,
    });
    sentence.push_str(&format!(
        " The weapon's Range is {r}\": beyond it each inch Out of Range takes 1 off the \
         Action and the Damage (Ch. 8.4), so the figure drops at {r}\", not gradually \
         between the cells either side."
    ));
}

/// The Range of a blast sweep over `distance`, when some cells are Out of Range and some
/// are not: a cell's distance less its `out_of_range` inches.
fn range_cliff(df: &DataFrame, x_axis: &str) -> Option<f64> {
    if x_axis != "distance" {
        return None;
    }
    let (xs, oor) = (numbers(df, x_axis)?, numbers(df, "out_of_range")?);
    let beyond: Vec<f64> = xs
        .iter()
        .zip(&oor)
        .filter_map(|(x, o)| match (x, o) {
            (Some(x), Some(o)) if *o > 0.0 => Some(x - o),
            _ => None,
        })
        .collect();
    let within = oor.iter().any(|o| o.is_some_and(|o| o == 0.0));
    (within && !beyond.is_empty()).then(|| beyond.iter().copied().fold(f64::MAX, f64::min))
}

/// Exactly two sweep axes, neither a number, each with more than one value.
fn two_named_axes(frames: &Frames) -> bool {
    let df = &frames.summary;
    let axes = frames.axes();
    axes.len() == 2
        && axes.iter().all(|a| {
            !is_numeric(df, a)
                && texts(df, a).is_some_and(|v| {
                    let mut d = v.clone();
                    d.sort();
                    d.dedup();
                    d.len() > 1
                })
        })
}

/// The key figure over the first two axes as a heatmap (first axis across, second down),
/// when the sweep has exactly two axes.
fn grid(frames: &Frames) -> Option<Figure> {
    let df = &frames.summary;
    let axes = frames.axes();
    let [x, y] = axes.as_slice() else {
        return None;
    };
    let k = key(frames);
    let (xs, ys, v) = (texts(df, x)?, texts(df, y)?, numbers(df, k.column)?);
    let distinct = |col: &[String]| {
        let mut d: Vec<String> = Vec::new();
        for c in col {
            if !d.contains(c) {
                d.push(c.clone());
            }
        }
        d
    };
    // The axis with more values runs down the side, where each has a row and room for its
    // label; across, a dozen labels would run into each other.
    let (x, y, xs, ys) = if distinct(&xs).len() > distinct(&ys).len() {
        (y, x, ys, xs)
    } else {
        (x, y, xs, ys)
    };
    let (columns, rows) = (distinct(&xs), distinct(&ys));
    let mut values = vec![vec![None; columns.len()]; rows.len()];
    place(&mut values, &v, (&columns, &xs), (&rows, &ys));
    // A win chance's draws, cell by cell: a white 0% may be a stand-off, not a sure loss.
    let drawn = (k.column == "p_a_wins")
        .then(|| numbers(df, "p_draw"))
        .flatten();
    let draws = drawn.as_ref().map(|d| {
        let mut grid = vec![vec![None; columns.len()]; rows.len()];
        place(&mut grid, d, (&columns, &xs), (&rows, &ys));
        grid
    });
    let cells: Vec<(usize, f64)> = v
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    let hi = cells.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let lo = cells.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let even = cells.iter().filter(|c| c.1 >= 0.5).count();
    let (xw, yw) = (human(x), human(y));
    // Whole columns or rows where the figure is zero in every cell: said, not left to a
    // reader to puzzle over.
    let zero = |v: &Option<f64>| v.is_some_and(|p| p.abs() < 1e-12);
    let zero_columns: Vec<&String> = (0..columns.len())
        .filter(|&j| rows.len() > 1 && values.iter().all(|r| zero(&r[j])))
        .map(|j| &columns[j])
        .collect();
    let zero_rows: Vec<&String> = (0..rows.len())
        .filter(|&i| columns.len() > 1 && values[i].iter().all(zero))
        .map(|i| &rows[i])
        .collect();
    let mut zeros = String::new();
    for (w, list) in [(&xw, &zero_columns), (&yw, &zero_rows)] {
        if !list.is_empty() {
            zeros.push_str(&format!(
                " {} is {} at {w}: {}.",
                k.label,
                if k.exact {
                    "exactly 0"
                } else {
                    "0 in every trial"
                },
                list.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let standoffs = drawn.as_ref().map_or(0, |d| {
        d.iter().filter(|p| p.is_some_and(|p| p > 0.5)).count()
    });
    if standoffs > 0 {
        zeros.push_str(&format!(
            " In {standoffs} cell{} most battles end in a draw (the turn limit): a low win \
             chance there is a stand-off, not a sure loss; each cell gives its draws beneath.",
            diemon_core::plural::s(standoffs)
        ));
    }
    let sentence = format!(
        "{} runs from {} at {xw}: {}, {yw}: {} to {} at {xw}: {}, {yw}: {}{}; {} of {} cells \
         are at 50% or better.{zeros}",
        k.label,
        plain(lo.1, k.probability),
        value_text(x, &xs[lo.0]),
        value_text(y, &ys[lo.0]),
        plain(hi.1, k.probability),
        value_text(x, &xs[hi.0]),
        value_text(y, &ys[hi.0]),
        if k.exact { " (exact)" } else { "" },
        even,
        cells.len()
    );
    Some(Figure {
        stem: "grid".into(),
        chart: Chart {
            title: format!("{} by {xw} and {yw}", k.label),
            x_label: axis_label(x),
            y_label: axis_label(y),
            body: Body::Heatmap {
                rows: rows
                    .iter()
                    .map(|r| format!("{yw}: {}", value_text(y, r)))
                    .collect(),
                columns: columns.iter().map(|c| value_text(x, c)).collect(),
                values,
                diverging: k.column == "p_wins",
                draws,
            },
        },
        sentence,
    })
}

/// Puts each row `i` of a frame's column `v` in the heatmap cell of its `x` (among
/// `columns`) and `y` (among `rows`).
fn place(
    grid: &mut [Vec<Option<f64>>],
    v: &[Option<f64>],
    (columns, xs): (&[String], &[String]),
    (rows, ys): (&[String], &[String]),
) {
    for (i, value) in v.iter().enumerate() {
        if let (Some(c), Some(r)) = (
            columns.iter().position(|c| *c == xs[i]),
            rows.iter().position(|r| *r == ys[i]),
        ) {
            grid[r][c] = *value;
        }
    }
}

/// An axis name with its unit, where it has one.
fn axis_label(axis: &str) -> String {
    match axis {
        "distance" | "spacing" | "size" => format!("{axis} (inches)"),
        "xsize" => "XSize (bricks)".into(),
        "budget" => "budget (CP)".into(),
        "count" => "count".into(),
        "difficulty" => "difficulty (dice taken away)".into(),
        "attr" => "Attributes (averaged into d6s)".into(),
        "skill" => "Skill (d6s)".into(),
        "super-attr" | "super_attr" => "Super Attributes (d10s)".into(),
        a if a.ends_with("spacing") || a.ends_with("distance") => format!("{} (inches)", human(a)),
        a => human(a),
    }
}

/// Up to `n` cells spread over `len`.
fn spread(len: usize, n: usize) -> Vec<usize> {
    if len <= n {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..n).map(|k| k * (len - 1) / (n - 1)).collect();
    v.dedup();
    v
}

/// What a histogram counts, for titles and axes, naming a side's units where every cell
/// fields the same.
fn counted_in(frames: &Frames, metric: &str) -> String {
    let side = match metric {
        "survivors_a" => 'a',
        "survivors_b" => 'b',
        _ => return counted(metric),
    };
    match super::page::side_name(frames, side) {
        Some(n) => format!(
            "side {}'s units ({n}) left standing",
            side.to_ascii_uppercase()
        ),
        None => counted(metric),
    }
}

/// What a histogram counts, for titles and axes.
fn counted(metric: &str) -> String {
    match metric {
        "kills" => "figures killed in a turn".into(),
        "turns" => "player turns the battle lasts".into(),
        "survivors_a" => "side A's units left standing".into(),
        "survivors_b" => "side B's units left standing".into(),
        "pmf" => "Marks in one roll (exact)".into(),
        "done_at" => "the try or period it is done at (0 = never; exact)".into(),
        m => m.replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_44_a_band_hidden_under_its_line_is_said_to_be() {
        let chart = |hw: f64, probability: bool, label: &str| Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: label.into(),
            body: Body::Lines {
                series: vec![Series {
                    label: "a".into(),
                    points: vec![
                        (0.0, 0.5, 0.5 - hw, 0.5 + hw),
                        (1.0, 0.3, 0.3 - hw, 0.3 + hw),
                    ],
                    dots: false,
                    steps: false,
                }],
                probability,
            },
        };
        // +-0.3% on a 0-100% axis hides under the line; +-2% does not.
        assert_eq!(
            narrow_bands(&chart(0.003, true, "P (95% CI band)")).as_deref(),
            Some(
                "Every 95% band is too narrow to see beside its line here (the widest is ±0.30%)."
            )
        );
        assert_eq!(narrow_bands(&chart(0.02, true, "P (95% CI band)")), None);
        // An exact figure has no band to hide.
        assert_eq!(narrow_bands(&chart(0.0, true, "P (exact)")), None);
        // A mean on its own axis (0 to about 0.55): +-0.002 hides.
        assert!(narrow_bands(&chart(0.002, false, "kills (95% CI band)")).is_some());
    }

    #[test]
    fn plus_minus_reads_as_the_issue_asks() {
        assert_eq!(pm(0.61, 0.606, 0.614, true), "61.0% ± 0.4%");
        // Issue 24: a narrow interval keeps its first digit.
        assert_eq!(pm(0.61031, 0.61, 0.61062, true), "61.03% ± 0.03%");
        assert_eq!(pm(2.0, 1.9994, 2.0006, false), "2.0000 ± 0.0006");
        assert_eq!(pm(8.9, 8.8, 9.0, false), "8.900 ± 0.100");
    }

    #[test]
    fn issue_44_a_heatmap_of_win_chances_says_which_zeros_are_stand_offs() {
        // Two cells of 0% wins: one a sure loss, one all draws. The draws go beneath each
        // cell, and the sentence names the stand-off.
        let summary = polars::df!(
            "spend" => ["damage", "damage"],
            "b" => ["1", "2"],
            "p_a_wins" => [0.0, 0.0],
            "p_draw" => [0.0, 1.0],
        )
        .unwrap();
        let mut manifest = toml::Table::new();
        manifest.insert(
            "axes".into(),
            toml::Value::Array(vec!["spend".into(), "b".into()]),
        );
        let frames = Frames {
            manifest,
            summary,
            distributions: None,
            by_ring: None,
            by_turn: None,
            fair_cp: None,
            matchups: None,
        };
        let f = grid(&frames).unwrap();
        let Body::Heatmap { values, draws, .. } = &f.chart.body else {
            panic!("{:?}", f.chart.body);
        };
        assert_eq!(values, &vec![vec![Some(0.0)], vec![Some(0.0)]]);
        assert_eq!(draws, &Some(vec![vec![Some(0.0)], vec![Some(1.0)]]));
        assert!(
            f.sentence.contains("In 1 cell most battles end in a draw"),
            "{}",
            f.sentence
        );
    }

    #[test]
    fn spread_picks_ends_and_middle() {
        assert_eq!(spread(3, 6), [0, 1, 2]);
        assert_eq!(spread(16, 4), [0, 5, 10, 15]);
    }
}
