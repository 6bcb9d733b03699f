//! Pricing a unit: its fair CP fitted against several reference units over several starting
//! distances, one fair-CP experiment per reference ([`super::sweep`] runs each into a folder
//! of its own, with its report). The answer is one price a scenario, their spread (the part
//! of a price the choice of battle decides, beside the dice's CI), and a verdict against the
//! listed cost. docs/pricing.md says what the price means.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::error::{RunError, Watch, io};
use super::{Catalogs, parse};
use crate::analysis::fair_cp::NoWorth;
use crate::catalog::Cp;
use crate::catalog::cost::breakdown;
use crate::scenario::squad::roster::MAX_PER_SIDE;

/// The references a price is fitted against by default: melee, range, and a Hero.
pub const REFERENCES: [&str; 3] = ["minifig-hand-weapon", "minifig-rifle", "hero-hand-weapon"];

/// The starting distances by default, in inches: in reach at once, a short walk, a long one.
pub const DISTANCES: [u32; 3] = [2, 12, 24];

/// The reference's count against the unit's, as multiples of the listed exchange rate: a
/// fit finds any fair price from half to twice the listed one.
pub const SPAN: [f64; 7] = [0.5, 0.63, 0.79, 1.0, 1.26, 1.59, 2.0];

/// What to price, and with how many trials.
#[derive(Clone, Debug)]
pub struct Pricing {
    /// A catalog unit, `NAME` or `NAME+ITEM...`.
    pub unit: String,
    pub catalog: Option<PathBuf>,
    pub references: Vec<String>,
    pub distances: Vec<u32>,
    /// Trials a cell.
    pub trials: u64,
    pub seed: u64,
}

/// The unit's price in one scenario: against a reference, at a starting distance.
#[derive(Clone, Debug)]
pub struct ScenarioPrice {
    pub reference: String,
    pub distance: String,
    /// The fair CP and its 95% CI (the dice of this scenario's cells), or why there is none.
    pub price: Result<[f64; 3], String>,
    /// Cells the curve was fitted to, and the chance of a worse fit were the curve right.
    pub cells: usize,
    pub p_fit: f64,
}

/// The listed cost against the prices of the scenarios.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The listed cost lies within the scenarios' prices (their CIs included).
    Fair,
    /// Listed above every scenario's price: by how much, from the nearest to the farthest.
    OverPriced { by: [f64; 2] },
    /// Listed below every scenario's price.
    UnderPriced { by: [f64; 2] },
    /// No scenario gave a price.
    Unknown,
}

/// The listed cost against the prices `[point, lo, hi]` of the scenarios that have one.
pub fn verdict(listed: f64, prices: &[[f64; 3]]) -> Verdict {
    if prices.is_empty() {
        return Verdict::Unknown;
    }
    let lo = prices.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min);
    let hi = prices
        .iter()
        .map(|p| p[2])
        .fold(f64::NEG_INFINITY, f64::max);
    let points = || prices.iter().map(|p| p[0]);
    let (min, max) = (
        points().fold(f64::INFINITY, f64::min),
        points().fold(f64::NEG_INFINITY, f64::max),
    );
    if listed > hi {
        Verdict::OverPriced {
            by: [listed - max, listed - min],
        }
    } else if listed < lo {
        Verdict::UnderPriced {
            by: [min - listed, max - listed],
        }
    } else {
        Verdict::Fair
    }
}

/// How many of the unit, and which counts of the reference, a fit uses: enough of the unit
/// that the listed exchange rate is at least four references, and counts spanning half to
/// twice that rate ([`SPAN`]), whole, distinct and at most a side's worth.
pub fn grid(cp_unit: Cp, cp_reference: Cp) -> Result<(u64, Vec<u64>), String> {
    let (u, r) = (cp_unit.as_f64(), cp_reference.as_f64());
    if u <= 0.0 || r <= 0.0 {
        return Err("a unit or reference of 0 CP has no exchange rate".into());
    }
    let units = ((4.0 * r / u).ceil() as u64).max(1);
    let rate = units as f64 * u / r;
    let mut counts: Vec<u64> = SPAN
        .iter()
        .map(|k| ((k * rate).round() as u64).max(1))
        .collect();
    counts.dedup();
    let max = MAX_PER_SIDE as u64;
    if units > max || counts.iter().any(|&n| n > max) {
        return Err(format!(
            "the exchange rate ({rate:.1} references for {units}) needs more than {max} units a side"
        ));
    }
    Ok((units, counts))
}

/// The fair-CP experiment of one reference, as an experiment file's text.
pub fn experiment_text(p: &Pricing, reference: &str, units: u64, counts: &[u64]) -> String {
    let name = format!("price-{}-{}", file_name(&p.unit), file_name(reference));
    let mut s = format!(
        "name = {name:?}\ndescription = {:?}\nkind = \"fair-cp\"\nseed = {}\ntrials = {}\n",
        format!(
            "The fair CP of {} in {}s, by starting distance",
            p.unit, reference
        ),
        p.seed,
        p.trials
    );
    if let Some(c) = &p.catalog {
        s.push_str(&format!(
            "\n[scenario]\ncatalog = {:?}\n",
            c.display().to_string()
        ));
    }
    let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(", ");
    s.push_str(&format!(
        "\n[sweep]\ndistance = [{}]\n\n[fair_cp]\nunit = {:?}\nreference = {reference:?}\nunits = {units}\ncounts = [{}]\n",
        list(&mut p.distances.iter().map(u32::to_string)),
        p.unit,
        list(&mut counts.iter().map(u64::to_string)),
    ));
    s
}

/// A name fit for a folder: `hero+heavy-weapon` is `hero_heavy-weapon`.
fn file_name(unit: &str) -> String {
    unit.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// What pricing found.
#[derive(Clone, Debug)]
pub struct Priced {
    pub unit: String,
    pub listed: Cp,
    pub scenarios: Vec<ScenarioPrice>,
    pub verdict: Verdict,
    /// Each reference's folder (its frames and report).
    pub folders: Vec<PathBuf>,
}

impl Priced {
    /// The lowest and highest price of a scenario, if any has one.
    pub fn spread(&self) -> Option<[f64; 2]> {
        let points: Vec<f64> = self
            .scenarios
            .iter()
            .filter_map(|s| s.price.as_ref().ok().map(|p| p[0]))
            .collect();
        (!points.is_empty()).then(|| {
            [
                points.iter().copied().fold(f64::INFINITY, f64::min),
                points.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            ]
        })
    }
}

/// Prices `p.unit` into `dir` (one folder a reference), on `threads` workers a cell.
pub fn price(
    p: &Pricing,
    dir: &Path,
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Priced, RunError> {
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    let cp = |name: &str| -> Result<Cp, RunError> {
        let u = catalog.equipped(name).map_err(|e| RunError::input(e.0))?;
        Ok(breakdown(&u).total())
    };
    let listed = cp(&p.unit)?;
    let mut scenarios = Vec::new();
    let mut folders = Vec::new();
    for reference in &p.references {
        let (units, counts) = grid(listed, cp(reference)?)
            .map_err(|m| RunError::input(format!("{} against {reference}: {m}", p.unit)))?;
        let text = experiment_text(p, reference, units, &counts);
        let e = parse(
            &format!("the price of {} against {reference}", p.unit),
            &text,
            &Catalogs::Files(None),
        )
        .map_err(super::sweep::input_errors)?;
        let folder = dir.join(file_name(reference));
        io(writeln!(
            out,
            "against {reference}: {units} x {} against {} of it, at {}\" apart",
            p.unit,
            counts
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            p.distances
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("\", ")
        ))?;
        // The run's own lines (each cell, the fit, the files) stay in its report.
        let mut said = Vec::new();
        let manifest = super::sweep::manifest(&e, None)?;
        let fits = super::sweep::sweep(
            &e,
            &folder,
            &manifest,
            false,
            true,
            watch,
            cancel,
            &mut said,
            |i, cell| super::sweep::run_cell(&e, i, cell, threads, None, Vec::new(), cancel),
        )?;
        for row in fits {
            // Every price experiment sweeps the distance: a row without one is a bug.
            let distance = row
                .group
                .iter()
                .find(|(k, _)| k == "distance")
                .map(|(_, v)| v.clone())
                .ok_or_else(|| RunError::other("a price scenario lost its distance"))?;
            let (price, cells, p_fit) = match &row.worth {
                Ok(w) => (
                    Ok([
                        w.ratio.point * row.cp_reference,
                        w.ratio.ci[0] * row.cp_reference,
                        w.ratio.ci[1] * row.cp_reference,
                    ]),
                    w.cells,
                    w.p_fit,
                ),
                Err(why) => (Err(no_worth(why)), 0, f64::NAN),
            };
            scenarios.push(ScenarioPrice {
                reference: reference.clone(),
                distance,
                price,
                cells,
                p_fit,
            });
        }
        folders.push(folder);
    }
    let prices: Vec<[f64; 3]> = scenarios
        .iter()
        .filter_map(|s| s.price.as_ref().ok().copied())
        .collect();
    Ok(Priced {
        unit: p.unit.clone(),
        listed,
        verdict: verdict(listed.as_f64(), &prices),
        scenarios,
        folders,
    })
}

/// Why a scenario has no price, in words.
fn no_worth(why: &NoWorth) -> String {
    match why {
        NoWorth::AlwaysAhead { largest } => {
            format!(
                "wins over half its fights even at {largest} references a unit: above twice \
                 its listed cost"
            )
        }
        NoWorth::AlwaysBehind { smallest } => {
            format!(
                "loses over half its fights even at {smallest} references a unit: below half \
                 its listed cost"
            )
        }
        NoWorth::NoFit => {
            "its chance does not fall as the references grow: no price to read".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_spans_half_to_twice_the_listed_rate() {
        // A 13-CP Hero against 6-CP minifigs: two Heroes, 26/6 = 4.33 minifigs listed.
        let (units, counts) = grid(Cp::whole(13), Cp::whole(6)).unwrap();
        assert_eq!(units, 2);
        // 2.17, 2.73, 3.42, 4.33, 5.46, 6.89, 8.67 rounded, the 3 once.
        assert_eq!(counts, vec![2, 3, 4, 5, 7, 9]);
        assert!(grid(Cp::ZERO, Cp::whole(6)).is_err());
        assert!(
            grid(Cp::whole(1000), Cp::whole(1)).is_err(),
            "past a side's 64 units"
        );
    }

    #[test]
    fn the_verdict_weighs_the_listed_cost_against_every_scenario() {
        let prices = [[11.0, 10.8, 11.2], [11.6, 11.4, 11.8]];
        assert_eq!(verdict(11.3, &prices), Verdict::Fair);
        // Inside a CI but outside the points is still fair: the dice cannot tell.
        assert_eq!(verdict(10.9, &prices), Verdict::Fair);
        let Verdict::OverPriced { by } = verdict(13.0, &prices) else {
            panic!("13 CP lies above every scenario");
        };
        assert!(
            (by[0] - 1.4).abs() < 1e-12 && (by[1] - 2.0).abs() < 1e-12,
            "{by:?}"
        );
        assert!(matches!(verdict(9.0, &prices), Verdict::UnderPriced { .. }));
        assert_eq!(verdict(9.0, &[]), Verdict::Unknown);
    }
}
