//! Sensitivity: the price again under each alternative reading of the rules that touches
//! the unit's battles. Every rule option's every other value is first tried on a probe (a
//! few thousand battles a scenario, the same seeds as under the defaults); a reading whose
//! probe battles all end exactly as under the defaults does not touch these battles and is
//! not re-priced. The rest are priced in full, and the shift of the mean scenario price
//! against the defaults' is the tornado chart, biggest first.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::{Priced, Pricing, experiment_text, file_name, grid, price};
use crate::catalog::cost::breakdown;
use rayon::prelude::*;

use crate::experiment::error::{RunError, Unwatched, Watch, io};
use crate::experiment::{Catalogs, parse};
use crate::options::{OPTIONS, RuleOptions};
use crate::report::chart::{Body, Chart, Range};
use crate::report::sheet::{Section, Table};

/// Battles a scenario in the probe that decides whether a reading touches them.
pub const PROBE_TRIALS: u64 = 2000;

/// A reading's shift of the price.
#[derive(Clone, Debug)]
pub struct Shift {
    pub option: &'static str,
    pub value: String,
    /// Where the texts leave it open.
    pub source: &'static str,
    /// The mean scenario price under this reading, against the defaults', over the
    /// scenarios priced under both, with its 95% CI (the dice of both), or why there is none.
    pub shift: Result<[f64; 3], String>,
    /// Scenarios priced under both.
    pub common: usize,
    pub folder: PathBuf,
}

/// What re-pricing found.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// The mean scenario price under the defaults.
    pub base: f64,
    /// Readings that touched the battles, the biggest shift first.
    pub shifts: Vec<Shift>,
    /// Options none of whose readings changed a probe battle.
    pub untouched: Vec<&'static str>,
}

/// Every other value of every option than the one in force (`set`, else the default):
/// `(key, value, source)`.
pub fn readings(set: &[(String, String)]) -> Vec<(&'static str, &'static str, &'static str)> {
    let mut out = Vec::new();
    for o in OPTIONS {
        let now = set
            .iter()
            .find(|(k, _)| k == o.key)
            .map_or(o.default, |(_, v)| v.as_str());
        for v in o.values {
            // `...` stands for more numbers in a list of values, and is no value.
            if *v != now && RuleOptions::default().set(o.key, v).is_ok() {
                out.push((o.key, *v, o.source));
            }
        }
    }
    out
}

/// Each probe battle's outcome (its cell's tally) for `p`: every scenario at the listed
/// exchange rate, [`PROBE_TRIALS`] battles each.
fn probe(
    p: &Pricing,
    listed: crate::catalog::Cp,
    cp: &(dyn Fn(&str) -> Result<crate::catalog::Cp, RunError> + Sync),
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Vec<serde_json::Value>, RunError> {
    let mut out = Vec::new();
    for reference in &p.references {
        let (units, counts) = grid(listed, cp(reference)?).map_err(RunError::input)?;
        // The two counts about the listed rate: the fewest a fair-CP experiment takes.
        let m = (counts.len() / 2).max(1);
        let middle = &counts[m - 1..=m];
        for formation in &p.formations {
            let text = experiment_text(
                p,
                &super::Fit {
                    reference,
                    formation,
                    distances: &p.distances,
                    units,
                    counts: middle,
                    trials: PROBE_TRIALS,
                    target_ci: None,
                },
            );
            let e = parse("a sensitivity probe", &text, &Catalogs::Files(None))
                .map_err(crate::experiment::sweep::input_errors)?;
            for (i, cell) in e.cells.iter().enumerate() {
                let v = crate::experiment::sweep::run_cell(
                    &e,
                    i,
                    cell,
                    threads,
                    None,
                    Vec::new(),
                    cancel,
                )?;
                // The tally alone: a cell's answer also holds its speed, which differs run
                // to run. Every fair-CP cell keeps its tally.
                out.push(
                    v.get("tally")
                        .cloned()
                        .ok_or_else(|| RunError::other("a sensitivity probe cell kept no tally"))?,
                );
            }
        }
    }
    Ok(out)
}

/// The mean of the scenario prices priced under both, the shift's CI, and their count.
fn shift(base: &Priced, alt: &Priced, base_mean: f64) -> Result<([f64; 3], usize), String> {
    let se = |p: &[f64; 3]| (p[2] - p[1]) / (2.0 * 1.96);
    let mut d = 0.0;
    let mut var = 0.0;
    let mut k = 0usize;
    for (a, b) in alt.scenarios.iter().zip(&base.scenarios) {
        if let (Ok(a), Ok(b)) = (&a.price, &b.price) {
            d += a[0] - b[0];
            var += se(a).powi(2) + se(b).powi(2);
            k += 1;
        }
    }
    if k == 0 {
        return Err("no scenario priced under both readings".into());
    }
    let (d, half) = (d / k as f64, 1.96 * var.sqrt() / k as f64);
    let at = base_mean + d;
    Ok(([at, at - half, at + half], k))
}

/// Re-prices `p` (priced under the defaults as `base`) under every reading that touches its
/// battles, into `dir/sensitivity/KEY=VALUE/`.
pub fn sensitivity(
    p: &Pricing,
    base: &Priced,
    dir: &Path,
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Sensitivity, RunError> {
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    let cp = |name: &str| -> Result<crate::catalog::Cp, RunError> {
        let u = catalog.equipped(name).map_err(|e| RunError::input(e.0))?;
        Ok(breakdown(&u).total())
    };
    let points: Vec<f64> = base
        .scenarios
        .iter()
        .filter_map(|s| s.price.as_ref().ok().map(|p| p[0]))
        .collect();
    let base_mean = points.iter().sum::<f64>() / points.len().max(1) as f64;
    let all = readings(&p.options);
    io(writeln!(
        out,
        "\nsensitivity: {} readings of {} options, each probed with {PROBE_TRIALS} battles a \
         scenario under the defaults' seeds",
        all.len(),
        OPTIONS.len()
    ))?;
    let defaults = probe(p, base.listed, &cp, threads, cancel)?;
    // The readings side by side: each is seeded on its own, so none depends on another.
    watch.begin_items(all.len() as u64, 0, "readings");
    let tried: Vec<Result<Option<Shift>, RunError>> = all
        .par_iter()
        .map(|&(key, value, source)| {
            let r = reprice(
                p, base, base_mean, key, value, source, &defaults, &cp, dir, threads, cancel,
            );
            watch.done();
            r
        })
        .collect();
    watch.finish();
    let mut shifts = Vec::new();
    for t in tried {
        let Some(s) = t? else { continue };
        io(writeln!(
            out,
            "  {}={}: {}",
            s.option,
            s.value,
            match &s.shift {
                Ok([at, lo, hi]) => format!(
                    "{:+.2} CP (mean price {at:.2}, 95% CI {lo:.2} to {hi:.2}, over {} \
                     scenarios)",
                    at - base_mean,
                    s.common
                ),
                Err(why) => why.clone(),
            }
        ))?;
        shifts.push(s);
    }
    let touched_options: std::collections::BTreeSet<&str> =
        shifts.iter().map(|s| s.option).collect();
    let size = |s: &Shift| s.shift.as_ref().map_or(-1.0, |v| (v[0] - base_mean).abs());
    shifts.sort_by(|a, b| size(b).total_cmp(&size(a)));
    let untouched = OPTIONS
        .iter()
        .map(|o| o.key)
        .filter(|k| !touched_options.contains(k))
        .collect();
    Ok(Sensitivity {
        base: base_mean,
        shifts,
        untouched,
    })
}

/// Re-prices `p` under `key = value` if the reading changes a probe battle; `None` if not.
#[allow(clippy::too_many_arguments)]
fn reprice(
    p: &Pricing,
    base: &Priced,
    base_mean: f64,
    key: &'static str,
    value: &'static str,
    source: &'static str,
    defaults: &[serde_json::Value],
    cp: &(dyn Fn(&str) -> Result<crate::catalog::Cp, RunError> + Sync),
    dir: &Path,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Option<Shift>, RunError> {
    let mut options: Vec<(String, String)> = p
        .options
        .iter()
        .filter(|(k, _)| k != key)
        .cloned()
        .collect();
    options.push((key.to_string(), value.to_string()));
    let alt = Pricing {
        options,
        reports: false,
        ..p.clone()
    };
    if probe(&alt, base.listed, cp, threads, cancel)? == defaults {
        return Ok(None);
    }
    let folder = dir
        .join("sensitivity")
        .join(format!("{key}={}", file_name(value)));
    let _held = crate::experiment::lock::lock(&folder)?;
    let mut said = Vec::new();
    let priced = price(&alt, &folder, threads, &Unwatched, cancel, &mut said)?;
    let (shift, common) = match shift(base, &priced, base_mean) {
        Ok((s, k)) => (Ok(s), k),
        Err(why) => (Err(why), 0),
    };
    Ok(Some(Shift {
        option: key,
        value: value.to_string(),
        source,
        shift,
        common,
        folder,
    }))
}

/// The readings that most need a ruling: those that move the price beyond their CI, the
/// biggest first, one an option (its biggest reading), at most three.
pub fn rulings(s: &Sensitivity) -> Vec<&Shift> {
    let mut named = std::collections::BTreeSet::new();
    s.shifts
        .iter()
        .filter(|r| matches!(&r.shift, Ok([_, lo, hi]) if *lo > s.base || *hi < s.base))
        .filter(|r| named.insert(r.option))
        .take(3)
        .collect()
}

/// The tornado's section of the price's page.
pub fn section(s: &Sensitivity) -> Section {
    let rows: Vec<Range> = s
        .shifts
        .iter()
        .filter_map(|r| {
            let [at, lo, hi] = *r.shift.as_ref().ok()?;
            Some(Range {
                label: format!("{}={}", r.option, r.value),
                from: s.base,
                to: at,
                lo,
                hi,
            })
        })
        .collect();
    let chart = Chart {
        title: "How far each reading of the rules moves the price".into(),
        x_label: "mean fair CP over the scenarios (95% CI of the dice)".into(),
        y_label: String::new(),
        body: Body::Ranges {
            rows,
            dots: "mean price (95% CI)".into(),
            line: Some(("under the defaults".into(), s.base)),
            band: None,
        },
    };
    let mut paragraphs = vec![format!(
        "Each bar runs from the mean scenario price under the default readings ({:.2} CP) to \
         the mean under one other reading, over the scenarios priced under both; the whisker \
         is its 95% CI. A reading whose {PROBE_TRIALS} probe battles a scenario all ended \
         exactly as under the defaults (the same seeds) was not re-priced.",
        s.base
    )];
    let need = rulings(s);
    paragraphs.push(if need.is_empty() {
        "No reading moves the price beyond its CI: for this unit the open points of the texts \
         do not need a ruling."
            .into()
    } else {
        format!(
            "Where the texts most need a ruling for this unit: {}.",
            need.iter()
                .map(|r| {
                    let at = r.shift.as_ref().map_or(0.0, |v| v[0]);
                    format!(
                        "`{}` ({}): `{}` moves the price {:+.2} CP",
                        r.option,
                        r.source,
                        r.value,
                        at - s.base
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        )
    });
    let table = Table {
        header: [
            "reading",
            "source",
            "mean price",
            "shift",
            "95% CI",
            "scenarios",
        ]
        .map(String::from)
        .to_vec(),
        rows: s
            .shifts
            .iter()
            .map(|r| match &r.shift {
                Ok([at, lo, hi]) => vec![
                    format!("`{}={}`", r.option, r.value),
                    r.source.to_string(),
                    format!("{at:.2}"),
                    format!("{:+.2}", at - s.base),
                    format!("{lo:.2} to {hi:.2}"),
                    r.common.to_string(),
                ],
                Err(why) => vec![
                    format!("`{}={}`", r.option, r.value),
                    r.source.to_string(),
                    "-".into(),
                    "-".into(),
                    why.clone(),
                    "0".into(),
                ],
            })
            .collect(),
    };
    let list = if s.untouched.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "Not re-priced (no probe battle changed under any of their readings): {}.",
            s.untouched
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )]
    };
    Section {
        heading: "Sensitivity to the rules' open points".into(),
        figure: Some((
            "tornado".into(),
            chart,
            "Each reading's shift of the mean price, biggest first.".into(),
        )),
        paragraphs,
        table: Some(table),
        list,
        ..Section::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readings_are_every_other_value_of_every_option() {
        let all = readings(&[]);
        // Every value but the one in force, and no `...` (it stands for more numbers).
        assert!(all.contains(&("d4_bonus", "all", "Ch. 4.2 vs Ch. 10.1, 10.3")));
        assert!(!all.iter().any(|r| r.0 == "d4_bonus" && r.1 == "none"));
        assert!(!all.iter().any(|r| r.1 == "..."));
        assert!(all.iter().any(|r| r.0 == "bonus_chain" && r.1 == "0"));
        // With an option set, its default becomes an alternative and its value is not.
        let set = readings(&[("d4_bonus".into(), "all".into())]);
        assert!(set.iter().any(|r| r.0 == "d4_bonus" && r.1 == "none"));
        assert!(!set.iter().any(|r| r.0 == "d4_bonus" && r.1 == "all"));
        assert_eq!(set.len(), all.len());
    }

    fn shift_of(option: &'static str, at: f64) -> Shift {
        Shift {
            option,
            value: "x".into(),
            source: "Ch. 1",
            shift: Ok([at, at - 0.1, at + 0.1]),
            common: 1,
            folder: PathBuf::new(),
        }
    }

    #[test]
    fn a_ruling_is_needed_where_a_reading_moves_the_price_beyond_its_ci() {
        let s = Sensitivity {
            base: 10.0,
            // Biggest first, as `sensitivity` sorts them.
            shifts: vec![
                shift_of("a", 12.0),
                shift_of("b", 9.5),
                shift_of("c", 10.05),
                shift_of("d", 10.5),
                shift_of("e", 10.4),
            ],
            untouched: vec![],
        };
        let named: Vec<&str> = rulings(&s).iter().map(|r| r.option).collect();
        // c's CI holds the base; at most three are named.
        assert_eq!(named, ["a", "b", "d"]);
        // An option with two readings beyond their CI is named once, by its biggest.
        let mut twice = s.clone();
        twice.shifts.insert(1, shift_of("a", 11.0));
        let named: Vec<&str> = rulings(&twice).iter().map(|r| r.option).collect();
        assert_eq!(named, ["a", "b", "d"]);
        let sec = section(&s);
        assert!(sec.paragraphs[1].contains("`a` (Ch. 1): `x` moves the price +2.00 CP"));
    }
}
