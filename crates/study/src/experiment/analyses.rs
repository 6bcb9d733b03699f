//! What `diemon run` and `diemon merge` print and write after the cells of a `fair-cp` or
//! `matchups` experiment: the worth of a unit, or the matchup matrix, per group of the
//! other sweep axes.

use std::io::Write;
use std::path::Path;

use super::error::{RunError, io};
use super::{Analysis, Experiment};
use crate::analysis::card::{self, Scenario};
use crate::analysis::fair_cp::{self, NoWorth, Point};
use crate::analysis::frame::{self, WorthRow};
use crate::analysis::matchups::{self, Matrix, Pair};
use crate::export::{Exporter, write_atomic};
use crate::question::Answer;
use diemon_core::sim::CONFIDENCE;

/// Prints and writes the analysis of `e` over `reports` into `dir` (nothing for a plain
/// sweep, nor for a shard: one shard's trials are not the run's).
pub fn report(
    e: &Experiment,
    reports: &[Answer],
    dir: &Path,
    exporters: &[&dyn Exporter],
    shard: bool,
    out: &mut dyn Write,
) -> Result<Vec<WorthRow>, RunError> {
    if e.analysis != Analysis::None && shard {
        io(writeln!(
            out,
            "the {} analysis runs when `diemon merge` has added up every shard",
            e.kind.name()
        ))?;
        return Ok(Vec::new());
    }
    let mut fits = Vec::new();
    let mut df = match &e.analysis {
        Analysis::None => return Ok(fits),
        Analysis::FairCp {
            unit,
            reference,
            units,
            counts,
        } => {
            io(writeln!(
                out,
                "\nfair CP: {units} x {unit} against n x {reference}, n = {}; where the falling \
                 curve through the cells crosses 50% (draws count half), 95% CI",
                counts
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            ))?;
            let mut rows = Vec::new();
            for (g, chunk) in groups(e, reports, counts.len()) {
                let row = worth(unit, reference, *units, counts, &g, chunk)?;
                io(writeln!(out, "  {}", worth_line(&row)))?;
                rows.push(row);
            }
            if let Some(line) = card_line(&rows) {
                io(writeln!(out, "{line}"))?;
            }
            let df = frame::fair_cp(&rows);
            fits = rows;
            df
        }
        Analysis::Matchups { units, count } => {
            let pairs = units.len() * (units.len() - 1) / 2;
            let mut all = Vec::new();
            for (g, chunk) in groups(e, reports, pairs) {
                let pairs = chunk.iter().map(pair).collect::<Result<Vec<_>, _>>()?;
                let m = matchups::matrix(units, &pairs, CONFIDENCE);
                io(write!(out, "\n{}", matrix_text(&g, &m, *count)))?;
                all.push((g, m));
            }
            frame::matchups(&all)
        }
    }
    .map_err(|err| RunError::other(format!("cannot build the analysis frame: {err}")))?;
    // A price must be a price of the rules: name what the units pay for and never use.
    let mut inert: Vec<String> = Vec::new();
    for r in reports {
        let Answer::Squad(r) = r else { continue };
        for x in r.inert_a.iter().chain(&r.inert_b) {
            if !inert.contains(x) {
                inert.push(x.clone());
            }
        }
    }
    if !inert.is_empty() {
        io(writeln!(
            out,
            "warning: these units pay CP for parts that do nothing in these battles, so the \
             figures above price only what acts:"
        ))?;
        for x in &inert {
            io(writeln!(out, "  {x}"))?;
        }
    }
    let name = match e.analysis {
        Analysis::FairCp { .. } => "fair_cp",
        _ => "matchups",
    };
    for exporter in exporters {
        write_atomic(*exporter, &mut df, dir, name)?;
    }
    io(writeln!(
        out,
        "wrote {}",
        exporters
            .iter()
            .map(|x| format!("{}/{name}.{}", dir.display(), x.extension()))
            .collect::<Vec<_>>()
            .join(" and ")
    ))?;
    Ok(fits)
}

/// A run of cells: the parameters of the other axes, and the cells' reports.
type Group<'a> = (Vec<(String, String)>, &'a [Answer]);

/// The cells in runs of `size` (the analysis axis is innermost), each with the parameters of
/// the other axes.
fn groups<'a>(e: &Experiment, reports: &'a [Answer], size: usize) -> Vec<Group<'a>> {
    let own = ["count", "a", "b"];
    reports
        .chunks(size)
        .enumerate()
        .map(|(i, chunk)| {
            let g = e.cells[i * size]
                .params
                .iter()
                .filter(|(k, _)| !own.contains(&k.as_str()))
                .cloned()
                .collect();
            (g, chunk)
        })
        .collect()
}

/// A squad duel answer's CP, side A's and B's: said, not read as NaN, when it is not one.
fn cp(r: &Answer) -> Result<[f64; 2], RunError> {
    match r {
        Answer::Squad(s) => Ok([s.cp_a.as_f64(), s.cp_b.as_f64()]),
        _ => Err(RunError::other(
            "a fair-CP cell holds no CP: it is not a squad duel's answer",
        )),
    }
}

/// Wins of a report's side A, B and trials, as the integers they were counted as: the
/// raw tally every cell of a run keeps (stat lines and squads alike), never rebuilt from a
/// rounded probability.
pub(crate) fn counts(r: &Answer) -> Result<(u64, u64, u64), RunError> {
    r.tally().and_then(|t| t.wins()).ok_or_else(|| {
        RunError::other(
            "a cell holds no win counts (its tally is missing or not a duel's)\nhint: a \
                 cell written by an older diemon lacks them: delete the run's cells/ folder and \
                 run again",
        )
    })
}

fn pair(r: &Answer) -> Result<Pair, RunError> {
    let (a_wins, b_wins, trials) = counts(r)?;
    Ok(Pair {
        a_wins,
        b_wins,
        trials,
    })
}

fn worth(
    unit: &str,
    reference: &str,
    units: u64,
    counts_: &[u64],
    group: &[(String, String)],
    chunk: &[Answer],
) -> Result<WorthRow, RunError> {
    let points: Vec<Point> = chunk
        .iter()
        .zip(counts_)
        .map(|(r, &n)| {
            let (a, b, t) = counts(r)?;
            Ok(Point {
                count: n,
                ratio: n as f64 / units as f64,
                trials: t as f64,
                score: a as f64 + (t - a - b) as f64 / 2.0,
            })
        })
        .collect::<Result<_, RunError>>()?;
    let fit = fair_cp::worth(&points, CONFIDENCE);
    Ok(WorthRow {
        group: group.to_vec(),
        unit: unit.into(),
        reference: reference.into(),
        units,
        cp_unit: cp(&chunk[0])?[0] / units as f64,
        cp_reference: cp(&chunk[0])?[1] / counts_[0] as f64,
        worth: fit,
        points,
    })
}

/// The card price of several fits and the verdict on the listed cost, by the rule every
/// price page uses ([`card`]); None for a single fit.
fn card_line(rows: &[WorthRow]) -> Option<String> {
    if rows.len() < 2 {
        return None;
    }
    let priced: Vec<Scenario> = rows
        .iter()
        .filter_map(|r| {
            let w = r.worth.as_ref().ok().filter(|w| w.reliable())?;
            Some(Scenario::Priced(
                [w.ratio.point, w.ratio.ci[0], w.ratio.ci[1]].map(|x| x * r.cp_reference),
            ))
        })
        .collect();
    card::sentence(rows[0].cp_unit, &priced)
}

fn worth_line(r: &WorthRow) -> String {
    let g = if r.group.is_empty() {
        String::new()
    } else {
        format!(
            "{}: ",
            r.group
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    match &r.worth {
        Ok(w) => format!(
            "{g}{} is worth {:.3} {}s [{:.3}, {:.3}] = {:.2} CP [{:.2}, {:.2}] (listed {} CP)\n    \
             read between the cells either side of 50%; {} cells around it{}{}{}",
            r.unit,
            w.ratio.point,
            r.reference,
            w.ratio.ci[0],
            w.ratio.ci[1],
            w.ratio.point * r.cp_reference,
            w.ratio.ci[0] * r.cp_reference,
            w.ratio.ci[1] * r.cp_reference,
            r.cp_unit,
            w.cells,
            if w.df == 0 {
                ", all falling".to_string()
            } else {
                format!(
                    ", chi-squared {:.1} on {} df against the falling curve (p = {:.3})",
                    w.chi2, w.df, w.p_fit
                )
            },
            if w.dispersion > 1.0 && w.reliable() {
                // The cells scatter about the falling curve more than their trials explain.
                format!(
                    "; the CI is widened {:.2}x for their scatter (dispersion {:.2})",
                    w.dispersion.sqrt(),
                    w.dispersion
                )
            } else {
                String::new()
            },
            match (&w.doubt, w.parity) {
                (Some(d), _) => format!("\n    no reliable worth: {d}"),
                (None, Some([o, e])) => format!(
                    "\n    odd and even counts follow two curves (figures abreast pair up): \
                     {o:.3} and {e:.3}, read at their mean"
                ),
                _ => String::new(),
            }
        ),
        Err(NoWorth::AlwaysAhead { largest }) => format!(
            "{g}{} wins over half its fights even against {largest} {}s each: no worth found\n    \
             hint: add larger counts",
            r.unit, r.reference
        ),
        Err(NoWorth::AlwaysBehind { smallest }) => format!(
            "{g}{} loses over half its fights even against {smallest} {}s each: no worth found\n    \
             hint: add smaller counts, or raise units",
            r.unit, r.reference
        ),
        Err(NoWorth::NoFit) => format!("{g}{}: no cells to read a worth from", r.unit),
    }
}

fn matrix_text(group: &[(String, String)], m: &Matrix, count: Option<u64>) -> String {
    let equal = match count {
        Some(n) => format!("at equal heads ({n} of each)"),
        None => "at equal CP".into(),
    };
    let mut s = format!(
        "matchups{}: P(row's side wins) {equal}; score = mean over opponents (draw = 1/2), \
         95% CI; each cell's CI is in matchups.csv\n",
        if group.is_empty() {
            String::new()
        } else {
            format!(
                " at {}",
                group
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
    );
    let width = m.units.iter().map(String::len).max().unwrap_or(4);
    s.push_str(&format!("  {:>3} {:<width$}", "", ""));
    for j in 0..m.units.len() {
        s.push_str(&format!(" {:>5}", j + 1));
    }
    s.push_str("   score\n");
    for (i, row) in m.wins.iter().enumerate() {
        s.push_str(&format!("  {:>3} {:<width$}", i + 1, m.units[i]));
        for e in row {
            match e {
                Some(e) => s.push_str(&format!(" {:>5.3}", e.point)),
                None => s.push_str(&format!(" {:>5}", "-")),
            }
        }
        let sc = &m.score[i];
        s.push_str(&format!(
            "   {:.3} [{:.3}, {:.3}]\n",
            sc.point, sc.ci[0], sc.ci[1]
        ));
    }
    s
}
