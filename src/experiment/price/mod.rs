//! Pricing a unit: its fair CP fitted against several reference units over several starting
//! distances, one fair-CP experiment per reference ([`super::sweep`] runs each into a folder
//! of its own, with its report). The answer is one price a scenario, their spread (the part
//! of a price the choice of battle decides, beside the dice's CI), and a verdict against the
//! listed cost. docs/pricing.md says what the price means.
//!
//! - [`page`]: the price's own page and frame, every scenario on one chart.
//! - [`sensitivity`]: the price again under each reading of the rules that touches it.
//! - [`roster`]: experiment kind `price`, a list of units priced and ranked.

pub mod page;
pub mod roster;
pub mod sensitivity;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::error::{RunError, Watch, io};
use super::{Catalogs, parse};
use crate::analysis::fair_cp::NoWorth;
use crate::analysis::frame::WorthRow;
use crate::catalog::Cp;
use crate::catalog::cost::breakdown;
use crate::scenario::squad::kind::Kind;
use crate::scenario::squad::roster::MAX_PER_SIDE;

/// The references a price is fitted against by default: melee, range, and a Hero.
pub const REFERENCES: [&str; 3] = ["minifig-hand-weapon", "minifig-rifle", "hero-hand-weapon"];

/// The starting distances by default, in inches: in reach at once, a short walk, a long one.
pub const DISTANCES: [u32; 3] = [2, 12, 24];

/// How both sides stand by default: abreast, and two ranks deep (a target for Explosions
/// and a shorter front for melee).
pub const FORMATIONS: [&str; 2] = ["line", "ranks:2"];

/// The precision a cell runs to by default: its win chance within +-0.01 (95% CI).
pub const TARGET_CI: f64 = 0.01;

/// How big a battle is: enough of the unit that its listed exchange rate is at least this
/// many references. A price depends on the battle's size as well as on its kind (a Hero
/// outfights a few minifigs better than many), so this is a stated choice: a skirmish of
/// eight or more references a side, big enough for several whole counts between a sure
/// win and a sure loss.
pub const SIDE_RATE: f64 = 8.0;

/// The reference's counts against the unit's run from a third to three times the listed
/// exchange rate (so a fit finds any fair price from a third to three times the listed
/// one), in at most [`STEPS`] steps of equal ratio: every whole count while the rate is
/// small, since a fit needs several cells between 10% and 90%. Cells far from an even
/// fight meet the precision target in a thousand trials or two, so the wide span is cheap.
pub const SPAN: [f64; 2] = [1.0 / 3.0, 3.0];

/// At most this many counts a fit.
pub const STEPS: usize = 20;

/// What to price, and with how many trials.
#[derive(Clone, Debug)]
pub struct Pricing {
    /// A catalog unit, `NAME` or `NAME+ITEM...`.
    pub unit: String,
    pub catalog: Option<PathBuf>,
    pub references: Vec<String>,
    pub distances: Vec<u32>,
    /// How both sides stand (`line`, `column`, `ranks:N`), one scenario each.
    pub formations: Vec<String>,
    /// Trials a cell: exactly, or with `target_ci` the most a cell may run.
    pub trials: u64,
    /// Run each cell until its win chance's 95% CI is within +- this.
    pub target_ci: Option<f64>,
    pub seed: u64,
    /// Rule options other than the defaults, `(key, value)`.
    pub options: Vec<(String, String)>,
    /// Whether each reference's experiment writes its own report (a roster's and a
    /// sensitivity's do not: their pages draw what the runs found).
    pub reports: bool,
}

impl Pricing {
    /// Its scenarios and precision in words: "against minifig-rifle, in line, ranks:2, at
    /// 2\", 12\" apart; each cell until its win chance is within +-0.01 (at most 200000
    /// trials), seed 1".
    pub fn describe(&self) -> String {
        format!(
            "against {}, in {}, at {}\" apart; each cell {} seed {}",
            self.references.join(", "),
            self.formations.join(", "),
            self.distances
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("\", "),
            match self.target_ci {
                Some(t) => format!(
                    "until its win chance is within +-{t} (at most {} trials),",
                    self.trials
                ),
                None => format!("{} trials,", self.trials),
            },
            self.seed
        )
    }
}

/// The unit's price in one scenario: against a reference, at a starting distance.
#[derive(Clone, Debug)]
pub struct ScenarioPrice {
    pub reference: String,
    pub formation: String,
    /// Inches apart at the start.
    pub distance: u32,
    /// The fair CP and its 95% CI (the dice of this scenario's cells), or why there is none.
    pub price: Result<[f64; 3], String>,
    /// With no price because it lies beyond the grid: the bound and the range it lies in,
    /// `[bound, 0, bound]` below the grid or `[bound, bound, inf]` above it.
    pub beyond: Option<[f64; 3]>,
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

/// The listed cost against the prices `[point, lo, hi]` of the scenarios that have one (or
/// a bound: `[x, 0, x]` for a price below `x`, `[x, x, inf]` above).
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
/// that the listed exchange rate is at least [`SIDE_RATE`] references, and counts spanning
/// [`SPAN`] of that rate, whole, distinct and at most a side's worth.
pub fn grid(cp_unit: Cp, cp_reference: Cp) -> Result<(u64, Vec<u64>), String> {
    let (u, r) = (cp_unit.as_f64(), cp_reference.as_f64());
    if u <= 0.0 || r <= 0.0 {
        return Err("a unit or reference of 0 CP has no exchange rate".into());
    }
    let units = ((SIDE_RATE * r / u).ceil() as u64).max(1);
    let rate = units as f64 * u / r;
    let mut counts: Vec<u64> = (0..STEPS)
        .map(|i| {
            let k = SPAN[0] * (SPAN[1] / SPAN[0]).powf(i as f64 / (STEPS - 1) as f64);
            ((k * rate).round() as u64).max(1)
        })
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

/// One fair-CP experiment of a price: the unit's `units` against each of `counts` of a
/// reference, both sides in a formation, at each of some distances.
#[derive(Clone, Debug)]
pub struct Fit<'a> {
    pub reference: &'a str,
    pub formation: &'a str,
    pub distances: &'a [u32],
    pub units: u64,
    pub counts: &'a [u64],
    /// Trials a cell (with `target_ci`, the most).
    pub trials: u64,
    pub target_ci: Option<f64>,
}

/// The fair-CP experiment `f` of pricing `p`, as an experiment file's text.
pub fn experiment_text(p: &Pricing, f: &Fit) -> String {
    let (reference, formation) = (f.reference, f.formation);
    let name = format!(
        "price-{}-{}-{}",
        file_name(&p.unit),
        file_name(reference),
        file_name(formation)
    );
    let mut s = format!(
        "name = {name:?}\ndescription = {:?}\nkind = \"fair-cp\"\nseed = {}\ntrials = {}\n",
        format!(
            "The fair CP of {} in {}s, both sides in {formation}, by starting distance",
            p.unit, reference
        ),
        p.seed,
        f.trials
    );
    if let Some(t) = f.target_ci {
        s.push_str(&format!("target_ci = {t}\n"));
    }
    s.push_str(&format!(
        "\n[scenario]\na_formation = {formation:?}\nb_formation = {formation:?}\n"
    ));
    if let Some(c) = &p.catalog {
        s.push_str(&format!("catalog = {:?}\n", c.display().to_string()));
    }
    if !p.options.is_empty() {
        s.push_str("\n[options]\n");
        for (k, v) in &p.options {
            s.push_str(&format!("{k} = {v:?}\n"));
        }
    }
    let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(", ");
    s.push_str(&format!(
        "\n[sweep]\ndistance = [{}]\n\n[fair_cp]\nunit = {:?}\nreference = {reference:?}\nunits = {}\ncounts = [{}]\n",
        list(&mut f.distances.iter().map(u32::to_string)),
        p.unit,
        f.units,
        list(&mut f.counts.iter().map(u64::to_string)),
    ));
    s
}

/// A name fit for a folder: `hero+heavy-weapon` is `hero_heavy-weapon`.
pub fn file_name(unit: &str) -> String {
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
    /// Each reference and formation's folder (its frames and report).
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

/// Prices `p.unit` into `dir`, on `threads` workers a cell: one fair-CP experiment for
/// each reference and formation, over every distance. The experiments run side by side
/// (a precision run's first batch is one thread's work, and most cells end inside it);
/// each is seeded on its own, so the prices never depend on which ran first. `watch` counts
/// their cells.
pub fn plan(p: &Pricing) -> Result<Plan, RunError> {
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    let cp = |name: &str| -> Result<Cp, RunError> {
        let u = catalog.equipped(name).map_err(|e| RunError::input(e.0))?;
        Ok(breakdown(&u).total())
    };
    let listed = cp(&p.unit)?;
    let mut opts = crate::options::RuleOptions::default();
    for (k, v) in &p.options {
        opts.set(k, v).map_err(|e| RunError::input(e.to_string()))?;
    }
    // A unit that cannot fight has no price: said once, before anything runs.
    for name in std::iter::once(&p.unit).chain(&p.references) {
        let u = catalog.equipped(name).map_err(|e| RunError::input(e.0))?;
        if let Err(e) = Kind::from_unit(&u, breakdown(&u).total(), &opts) {
            return Err(RunError::input(format!(
                "{name} cannot fight a squad battle: it {}\nhint: price it armed, e.g. \
                 {name}+hand-weapon (`diemon weapon list` lists the armory)",
                e.message
            )));
        }
    }
    let mut fits = Vec::new();
    for (reference, formation) in p
        .references
        .iter()
        .flat_map(|r| p.formations.iter().map(move |f| (r, f)))
    {
        let (units, counts) = grid(listed, cp(reference)?)
            .map_err(|m| RunError::input(format!("{} against {reference}: {m}", p.unit)))?;
        let f = Fit {
            reference,
            formation,
            distances: &p.distances,
            units,
            counts: &counts,
            trials: p.trials,
            target_ci: p.target_ci,
        };
        let mut experiment = parse(
            &format!("the price of {} against {reference} in {formation}", p.unit),
            &experiment_text(p, &f),
            &Catalogs::Files(None),
        )
        .map_err(super::sweep::input_errors)?;
        experiment.report = p.reports;
        fits.push(Planned {
            reference: reference.clone(),
            formation: formation.clone(),
            units,
            counts,
            experiment,
        });
    }
    Ok(Plan { listed, fits })
}

/// A price's experiments, read and checked: every cell of every one resolved, so a unit
/// that cannot fight a reference fails before anything runs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub listed: Cp,
    pub fits: Vec<Planned>,
}

/// One fair-CP experiment of a [`Plan`].
#[derive(Clone, Debug)]
pub struct Planned {
    pub reference: String,
    pub formation: String,
    pub units: u64,
    pub counts: Vec<u64>,
    pub experiment: super::Experiment,
}

/// Prices `p.unit` into `dir`, on `threads` workers a cell: one fair-CP experiment for
/// each reference and formation, over every distance. The experiments run side by side
/// (a precision run's first batch is one thread's work, and most cells end inside it);
/// each is seeded on its own, so the prices never depend on which ran first. `watch` counts
/// their cells.
pub fn price(
    p: &Pricing,
    dir: &Path,
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Priced, RunError> {
    run(p, &plan(p)?, dir, threads, watch, cancel, out)
}

/// Runs a price's `plan` (of `p`) into `dir`, which the caller holds locked (with the page
/// it writes there); the experiments' folders inside it are locked here before any runs.
pub fn run(
    p: &Pricing,
    plan: &Plan,
    dir: &Path,
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Priced, RunError> {
    let folder = |f: &Planned| folder_of(dir, f);
    for f in &plan.fits {
        io(writeln!(
            out,
            "against {} in {}: {} x {} against {} of it",
            f.reference,
            f.formation,
            f.units,
            p.unit,
            f.counts
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ))?;
    }
    // Every folder it writes is locked before any is written: a second price into them is
    // refused before it runs a cell.
    let held = plan
        .fits
        .iter()
        .map(|f| crate::experiment::lock::lock(&folder(f)))
        .collect::<Result<Vec<_>, _>>()?;
    let cells: u64 = plan
        .fits
        .iter()
        .map(|f| f.experiment.cells.len() as u64)
        .sum();
    say_kept(kept_in(plan, dir)?, dir, out)?;
    watch.begin_items(cells, 0, "cells");
    let rows: Vec<Result<Vec<WorthRow>, RunError>> = plan
        .fits
        .par_iter()
        .zip(&held)
        .map(|(f, held)| {
            fit(
                &f.experiment,
                &p.distances,
                held,
                threads,
                &Cells(watch),
                cancel,
            )
        })
        .collect();
    watch.finish();
    // Ctrl-C stops every experiment: say what the whole price kept, not one experiment's.
    if rows
        .iter()
        .any(|r| matches!(r, Err(RunError::Interrupted(_))))
    {
        return Err(interrupted(plan, dir, &folder));
    }
    let listed = plan.listed;
    let mut scenarios = Vec::new();
    let mut folders = Vec::new();
    for (f, rows) in plan.fits.iter().zip(rows) {
        let (reference, formation) = (&f.reference, &f.formation);
        for (distance, row) in p.distances.iter().zip(rows?) {
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
                Err(why) => (Err(no_worth(why, row.cp_reference)), 0, f64::NAN),
            };
            let beyond = match &row.worth {
                Err(NoWorth::AlwaysBehind { smallest }) => {
                    let x = smallest * row.cp_reference;
                    Some([x, 0.0, x])
                }
                Err(NoWorth::AlwaysAhead { largest }) => {
                    let x = largest * row.cp_reference;
                    Some([x, x, f64::INFINITY])
                }
                _ => None,
            };
            scenarios.push(ScenarioPrice {
                reference: reference.to_string(),
                formation: formation.to_string(),
                distance: *distance,
                price,
                beyond,
                cells,
                p_fit,
            });
        }
        folders.push(folder(f));
    }
    // A scenario beyond the grid counts at its bound: the verdict's gap is then a least.
    let prices: Vec<[f64; 3]> = scenarios
        .iter()
        .filter_map(|s| s.price.as_ref().ok().copied().or(s.beyond))
        .collect();
    Ok(Priced {
        unit: p.unit.clone(),
        listed,
        verdict: verdict(listed.as_f64(), &prices),
        scenarios,
        folders,
    })
}

/// The folder of one of a price's experiments under the price's `dir`.
fn folder_of(dir: &Path, f: &Planned) -> PathBuf {
    dir.join(file_name(&f.reference))
        .join(file_name(&f.formation))
}

/// Of the cells of a price's `plan` into `dir`: how many a rerun finds kept, and how many
/// there are. A resumed price says so at its start.
pub fn kept_in(plan: &Plan, dir: &Path) -> Result<(usize, usize), RunError> {
    let (mut kept, mut total) = (0, 0);
    for f in &plan.fits {
        let manifest = super::sweep::manifest(&f.experiment, None)?;
        kept += super::sweep::kept_count(&f.experiment, &folder_of(dir, f), &manifest);
        total += f.experiment.cells.len();
    }
    Ok((kept, total))
}

/// "resuming: K of N cells kept in DIR", when a rerun keeps any (`kept` of `total`).
pub fn say_kept(
    (kept, total): (usize, usize),
    dir: &Path,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    if kept > 0 {
        io(writeln!(
            out,
            "resuming: {kept} of {total} cells kept in {}",
            dir.display()
        ))?;
    }
    Ok(())
}

/// The failure of a price's `plan` into `dir` stopped by Ctrl-C: how many cells the whole
/// price kept (in each experiment's `folder`).
fn interrupted(plan: &Plan, dir: &Path, folder: &dyn Fn(&Planned) -> PathBuf) -> RunError {
    let kept: usize = plan
        .fits
        .iter()
        .map(|f| {
            std::fs::read_dir(folder(f).join("cells")).map_or(0, |d| {
                d.flatten()
                    .filter(|c| c.path().extension().is_some_and(|x| x == "json"))
                    .count()
            })
        })
        .sum();
    let total: usize = plan.fits.iter().map(|f| f.experiment.cells.len()).sum();
    RunError::Interrupted(format!(
        "interrupted: {kept} of {total} cells are kept in {}\n\
         hint: run the same command again to resume from them",
        dir.display()
    ))
}

/// Runs a price's fair-CP experiment `e` into the held `folder`; returns its fits, one a distance
/// of `distances` in order.
fn fit(
    e: &super::Experiment,
    distances: &[u32],
    folder: &crate::experiment::lock::FolderLock,
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
) -> Result<Vec<WorthRow>, RunError> {
    // The run's own lines (each cell, the fit, the files) stay in its folder.
    let mut said = Vec::new();
    let manifest = super::sweep::manifest(e, None)?;
    let fits = super::sweep::sweep(
        e,
        folder,
        &manifest,
        false,
        true,
        watch,
        cancel,
        &mut said,
        |i, cell| super::sweep::run_cell(e, i, cell, threads, None, Vec::new(), cancel),
    )?;
    // Every price experiment sweeps the distance, one fit each, in the file's order.
    if fits.len() != distances.len()
        || fits.iter().zip(distances).any(|(r, d)| {
            !r.group
                .iter()
                .any(|(k, v)| k == "distance" && v == &d.to_string())
        })
    {
        return Err(RunError::other("a price's fits do not match its distances"));
    }
    Ok(fits)
}

/// One experiment's cells, counted on the whole price's watch: its cells as they end (and
/// those a resumed run kept), never a bar of its own.
struct Cells<'a>(&'a dyn Watch);

impl Watch for Cells<'_> {
    fn begin(&self, _total: u64, kept: u64) {
        for _ in 0..kept {
            self.0.done();
        }
    }
    // A cell's parameters alone would not say which of the experiments side by side it is
    // in: the bar counts, and names none.
    fn done(&self) {
        self.0.done()
    }
    fn suspend(&self, f: &mut dyn FnMut()) {
        self.0.suspend(f)
    }
}

/// Why a scenario has no price, in words (`cp_reference` prices the bound).
fn no_worth(why: &NoWorth, cp_reference: f64) -> String {
    match why {
        NoWorth::AlwaysAhead { largest } => {
            format!(
                "wins over half its fights even at {largest:.2} references a unit: above {:.2} \
                 CP",
                largest * cp_reference
            )
        }
        NoWorth::AlwaysBehind { smallest } => {
            format!(
                "loses over half its fights even at {smallest:.2} references a unit: below {:.2} \
                 CP",
                smallest * cp_reference
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
    fn the_grid_spans_a_third_to_three_times_the_listed_rate() {
        // A 13-CP Hero against 6-CP minifigs: four Heroes, 52/6 = 8.67 minifigs listed.
        let (units, counts) = grid(Cp::whole(13), Cp::whole(6)).unwrap();
        assert_eq!(units, 4);
        // 2.89 to 26 in 20 steps of equal ratio (about 12%), each count once.
        assert_eq!(
            counts,
            vec![3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 15, 16, 18, 21, 23, 26]
        );
        // A 60-CP unit against 6-CP ones, 10 listed.
        let (units, counts) = grid(Cp::whole(60), Cp::whole(6)).unwrap();
        assert_eq!(units, 1);
        assert_eq!(
            counts,
            vec![3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 17, 19, 21, 24, 27, 30]
        );
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
        // A scenario beyond the grid counts at its bound: below 0.75 CP, a 2-CP unit is
        // over-priced by at least 1.25 CP.
        let Verdict::OverPriced { by } = verdict(2.0, &[[0.75, 0.0, 0.75]]) else {
            panic!("below 0.75 CP is below 2");
        };
        assert_eq!(by, [1.25, 1.25]);
        assert_eq!(
            verdict(2.0, &[[3.0, 3.0, f64::INFINITY], [1.9, 1.8, 2.0]]),
            Verdict::Fair
        );
        assert_eq!(verdict(9.0, &[]), Verdict::Unknown);
    }
}
