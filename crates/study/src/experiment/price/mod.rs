//! Pricing a unit: its fair CP fitted against several reference units over several starting
//! distances, one fair-CP experiment per reference ([`super::sweep`] runs each into a folder
//! of its own, with its report). The answer is one price a scenario, their spread (the part
//! of a price the choice of battle decides, beside the dice's CI), and a verdict against the
//! listed cost. docs/pricing.md says what the price means.
//!
//! - [`page`]: the price's own page and frame, every scenario on one chart.
//! - [`sensitivity`]: the price again under each reading of the rules that touches it.
//! - [`roster`]: experiment kind `price`, a list of units priced and ranked.
//! - [`parts`]: what each priced part of a unit is worth in battle (`--parts`).
//! - [`balance`]: a roster's balanced table and imbalance score (issue 41).
//! - [`formula`]: the cost formula the battles imply, from designed variants (issue 41).
//! - [`conduct`]: each side's menu of competent conducts; [`value`]: the game they make at
//!   each count, whose values the fit reads.

pub mod balance;
pub mod conduct;
mod fit;
pub mod formula;
pub mod page;
pub mod parts;
pub mod race;
pub mod reading;
pub mod roster;
mod search;
pub mod sensitivity;
pub mod shard;
pub mod tables;
pub mod value;

pub use search::wanted;
use search::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::error::{Drive, RunError, Watch, io};
use super::threads::each;
use super::{Catalogs, build};
use crate::analysis::card::{self, Scenario};
pub use crate::analysis::card::{Card, Verdict};
use crate::analysis::fair_cp::{Doubt, NoWorth, Worth};
use crate::analysis::frame::WorthRow;
use diemon_core::catalog::Cp;
use diemon_core::catalog::cost::breakdown;
use diemon_core::scenario::squad::kind::Kind;
use diemon_core::scenario::squad::roster::MAX_PER_SIDE;
pub use fit::{Fit, experiment_spec};
pub use tables::{PLANE, TABLE_WIDTH, on, on_words, plane, table_name};

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

/// A grid widens to this span of the listed rate (a tenth to ten times) before a price is
/// reported as a bound: a unit worth far more or less than listed is still priced.
pub const WIDE: [f64; 2] = [0.1, 10.0];

/// After its grid, a scenario takes at most this many rounds of added counts ([`wanted`]).
pub const ROUNDS: u32 = 3;

/// At most this many counts a round adds to one scenario.
pub const ADDED: usize = 8;

/// The seed of a scenario's added round: its own streams, apart from the grid's and from
/// every other round's (splitmix64 of the price's seed, the round and the distance).
pub fn round_seed(seed: u64, round: u32, distance: u32) -> u64 {
    let mut z = seed ^ ((round as u64) << 32 | distance as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What to price, and with how many trials.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pricing {
    /// A catalog unit, `NAME` or `NAME+ITEM...`.
    pub unit: String,
    /// A catalog file beside the built-in one.
    pub catalog: Option<PathBuf>,
    /// The units it is priced in.
    pub references: Vec<String>,
    /// Starting distances in inches.
    pub distances: Vec<u32>,
    /// How both sides stand (`line`, `column`, `ranks:N`), one scenario each.
    pub formations: Vec<String>,
    /// What they stand on ([`PLANE`] or a named table layout), one scenario each.
    #[serde(default = "plane")]
    pub tables: Vec<String>,
    /// Trials a cell: exactly, or with `target_ci` the most a cell may run.
    pub trials: u64,
    /// Run each cell until its win chance's 95% CI is within +- this.
    pub target_ci: Option<f64>,
    /// The master seed.
    pub seed: u64,
    /// Rule options other than the defaults, `(key, value)`.
    pub options: Vec<(String, String)>,
    /// How far the card price may lie from the listed cost for a "fair" verdict, as a
    /// share of the listed cost.
    pub tolerance: f64,
    /// Whether each reference's experiment writes its own report (a roster's and a
    /// sensitivity's do not: their pages draw what the runs found).
    pub reports: bool,
    /// How the sides choose their conduct: competently (the game's value) or fixed.
    pub conduct: conduct::Mode,
}

impl Pricing {
    /// Its scenarios and precision in words: "against minifig-rifle, in line, ranks:2, at
    /// 2\", 12\" apart; each cell until its win chance is within +-0.01 (at most 200000
    /// trials), seed 1".
    pub fn describe(&self) -> String {
        format!(
            "against {}, in {}, {}at {}\" apart; each cell {} seed {}",
            self.references.join(", "),
            self.formations.join(", "),
            match self.tables[..] == plane()[..] {
                true => String::new(),
                false => format!("on {}, ", self.tables.join(", ")),
            },
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
    /// The reference's key.
    pub reference: String,
    /// How both sides stand.
    pub formation: String,
    /// What they stand on ([`PLANE`] or a named table).
    pub table: String,
    /// Inches apart at the start.
    pub distance: u32,
    /// The fair CP and its 95% CI (the dice of this scenario's cells), or why there is none.
    pub price: Result<[f64; 3], String>,
    /// With no price because it lies beyond the grid: the bound and the range it lies in,
    /// `[bound, 0, bound]` below the grid or `[bound, bound, inf]` above it.
    pub beyond: Option<[f64; 3]>,
    /// Cells the curve was fitted to, and the chance of a worse fit were the curve right.
    pub cells: usize,
    /// The chance of a worse fit were the curve right.
    pub p_fit: f64,
    /// How the price was read, when not from one curve: odd and even counts priced apart.
    pub note: Option<String>,
    /// Every count of the reference fought (the grid and the rounds added to it), in order.
    pub counts: Vec<u64>,
    /// The counts either side of the crossing, where one was read, and whether a count
    /// between them (of the same parity, if read apart) was never fought.
    pub between: Option<([u64; 2], bool)>,
    /// The conduct that priced it, in words ([`value::Played::conduct`]); `None` where
    /// neither side had a choice (the default policies).
    pub conduct: Option<String>,
}

impl ScenarioPrice {
    /// The price of planned fit `f` at `distance` from its fit `row`: a price only where
    /// the reading is reliable (the gate), a bound beyond the grid, or why there is none.
    fn read(f: &Planned, distance: u32, row: &WorthRow) -> ScenarioPrice {
        let cp = row.cp_reference;
        let (price, cells, p_fit) = match &row.worth {
            Ok(w) if w.reliable() => (
                Ok([w.ratio.point * cp, w.ratio.ci[0] * cp, w.ratio.ci[1] * cp]),
                w.cells,
                w.p_fit,
            ),
            // The gate: a price never rests on a curve the cells deny.
            Ok(w) => (
                Err(format!(
                    "no reliable price: {} (the curve would say {:.2} CP)",
                    w.doubt.as_ref().map(|d| d.to_string()).unwrap_or_default(),
                    w.ratio.point * cp
                )),
                w.cells,
                w.p_fit,
            ),
            Err(why) => (Err(no_worth(why, cp)), 0, f64::NAN),
        };
        let note = row
            .worth
            .as_ref()
            .ok()
            .and_then(|w| w.parity)
            .map(|[o, e]| {
                format!(
                    "odd and even counts follow two curves (figures abreast pair up): {:.2} and \
                 {:.2} CP, priced at their mean",
                    o * cp,
                    e * cp
                )
            });
        let beyond = match &row.worth {
            Err(NoWorth::AlwaysBehind { smallest }) => Some([smallest * cp, 0.0, smallest * cp]),
            Err(NoWorth::AlwaysAhead { largest }) => {
                Some([largest * cp, largest * cp, f64::INFINITY])
            }
            _ => None,
        };
        let mut counts: Vec<u64> = row.points.iter().map(|q| q.count).collect();
        counts.sort_unstable();
        ScenarioPrice {
            reference: f.reference.clone(),
            formation: f.formation.clone(),
            table: f.table.clone(),
            distance,
            price,
            beyond,
            cells,
            p_fit,
            note,
            between: row.worth.as_ref().ok().map(|w| {
                (
                    w.between.map(|r| (r * f.units as f64).round() as u64),
                    w.open,
                )
            }),
            counts,
            conduct: None,
        }
    }

    /// What the card price counts it as: its price, a bound, or nothing.
    pub fn for_card(&self) -> Option<Scenario> {
        match (&self.price, self.beyond) {
            (Ok(p), _) => Some(Scenario::Priced(*p)),
            (Err(_), Some([x, _, hi])) if hi.is_infinite() => Some(Scenario::Above(x)),
            (Err(_), Some([x, ..])) => Some(Scenario::Below(x)),
            _ => None,
        }
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
    /// The unit priced.
    pub unit: String,
    /// Its listed cost.
    pub listed: Cp,
    /// Its price in each scenario.
    pub scenarios: Vec<ScenarioPrice>,
    /// The median scenario price, with its CI ([`Card`]).
    pub card: Option<Card>,
    /// The verdict's tolerance (a share of the listed cost).
    pub tolerance: f64,
    /// The listed cost against the card price.
    pub verdict: Verdict,
    /// Each reference and formation's folder (its frames and report).
    pub folders: Vec<PathBuf>,
    /// How the sides chose their conduct.
    pub conduct: conduct::Mode,
    /// What the unit pays CP for and never uses in these battles ([`inert`]).
    pub inert: Vec<String>,
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
        let u = catalog
            .equipped(name)
            .map_err(|e| RunError::input(e.to_string()))?;
        Ok(breakdown(&u).total())
    };
    let listed = cp(&p.unit)?;
    let mut opts = diemon_core::options::RuleOptions::default();
    for (k, v) in &p.options {
        opts.set(k, v).map_err(|e| RunError::input(e.to_string()))?;
    }
    // A unit that cannot fight has no price: said once, before anything runs.
    for name in std::iter::once(&p.unit).chain(&p.references) {
        fights(&catalog, name, &opts).map_err(RunError::input)?;
    }
    let mut fits = Vec::new();
    for (reference, formation, table) in families(p) {
        let (units, counts) = grid(listed, cp(reference)?)
            .map_err(|m| RunError::input(format!("{} against {reference}: {m}", p.unit)))?;
        let menus = menus(p, reference, table)?;
        let (width, most) = match table == PLANE {
            true => (0, u64::MAX),
            false => fit::width(formation, &menus, units, &counts)?,
        };
        let experiments = (0..menus.pairs())
            .map(|k| {
                let f = Fit {
                    reference,
                    formation,
                    table: on(table, width),
                    distances: &p.distances,
                    units,
                    counts: &counts,
                    trials: p.trials,
                    target_ci: p.target_ci,
                    conduct: menus.pair(k),
                };
                let mut experiment = build(
                    &format!(
                        "the price of {} against {reference} in {formation}{}",
                        p.unit,
                        on_words(table)
                    ),
                    experiment_spec(p, &f),
                    &Catalogs::Files(None),
                )
                .map_err(super::sweep::input_errors)?;
                // The default pair's report draws the grid; the other pairs' are its peers.
                experiment.report = p.reports && k == 0;
                Ok(experiment)
            })
            .collect::<Result<Vec<_>, RunError>>()?;
        fits.push(Planned {
            reference: reference.clone(),
            formation: formation.clone(),
            table: table.clone(),
            width,
            most,
            units,
            counts,
            menus,
            experiments,
        });
    }
    let inert = inert(&catalog, &p.unit, &opts).map_err(RunError::input)?;
    Ok(Plan {
        listed,
        fits,
        inert,
    })
}

/// A price's scenario families, in order: each reference, in each formation, on each table.
pub fn families(p: &Pricing) -> impl Iterator<Item = (&String, &String, &String)> {
    p.references.iter().flat_map(move |r| {
        p.formations
            .iter()
            .flat_map(move |f| p.tables.iter().map(move |t| (r, f, t)))
    })
}

/// Whether the unit `name` can fight a squad battle on its own, and why not (with a hint).
pub fn fights(
    catalog: &diemon_core::catalog::Catalog,
    name: &str,
    opts: &diemon_core::options::RuleOptions,
) -> Result<(), String> {
    let u = catalog.equipped(name).map_err(|e| e.to_string())?;
    let why = match Kind::from_unit(&u, breakdown(&u).total(), opts) {
        Err(e) => e.message,
        Ok(k) if k.idle_crew() => "only crews its side's mounted gun (Ch. 8.5)".into(),
        Ok(_) => return Ok(()),
    };
    Err(format!(
        "{name} cannot fight a squad battle: it {why}\nhint: price it armed, e.g. \
         {name}+hand-weapon (`diemon weapon list` lists the armory)"
    ))
}

/// The tail of a unit's line naming what it pays for and never uses ([`inert`]'s parts):
/// "; inert here: PART (CP): why; ...", or nothing.
pub(super) fn inert_here(parts: &[String]) -> String {
    match parts.is_empty() {
        true => String::new(),
        false => format!("; inert here: {}", parts.join("; ")),
    }
}

/// What unit `name` pays CP for and never uses when it fights alone on its side, as a price
/// fields it (the default policies): one line each, "PART (CP): why".
pub fn inert(
    catalog: &diemon_core::catalog::Catalog,
    name: &str,
    opts: &diemon_core::options::RuleOptions,
) -> Result<Vec<String>, String> {
    use diemon_core::scenario::squad::{Policy, SideSpec};
    let side = SideSpec::from_catalog(catalog, &[(name.to_string(), 1)], Policy::default(), opts)
        .map_err(|e| e.to_string())?;
    let mut v: Vec<String> = Vec::new();
    for (_, x) in side.inert() {
        let line = x.to_string();
        if !v.contains(&line) {
            v.push(line);
        }
    }
    Ok(v)
}

/// The conduct menus of `p.unit` against `reference` on `table`, under `p`'s options and
/// conduct.
pub fn menus(p: &Pricing, reference: &str, table: &str) -> Result<conduct::Menus, RunError> {
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    let mut opts = diemon_core::options::RuleOptions::default();
    for (k, v) in &p.options {
        opts.set(k, v).map_err(|e| RunError::input(e.to_string()))?;
    }
    let kind = |name: &str| -> Result<Kind, RunError> {
        let u = catalog
            .equipped(name)
            .map_err(|e| RunError::input(e.to_string()))?;
        Kind::from_unit(&u, breakdown(&u).total(), &opts).map_err(|e| RunError::input(e.message))
    };
    Ok(conduct::Menus::of(
        &kind(&p.unit)?,
        &kind(reference)?,
        p.conduct,
        table != PLANE,
    ))
}

/// A price's experiments, read and checked: every cell of every one resolved, so a unit
/// that cannot fight a reference fails before anything runs.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The unit's listed cost.
    pub listed: Cp,
    /// Each scenario family's experiments.
    pub fits: Vec<Planned>,
    /// What the unit pays CP for and never uses alone on its side ([`inert`]).
    pub inert: Vec<String>,
}

impl Plan {
    /// A SHA-256 over the resume key of every experiment (each hashes diemon's source, the
    /// options, the experiment as written and every catalog's text): a kept reading or a
    /// shard is trusted only under the same build pricing the same thing. The rounds the
    /// search adds are decided by these experiments' cells, so they need no key of their own.
    pub fn key(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for e in self.fits.iter().flat_map(|f| &f.experiments) {
            let k = e.key();
            h.update((k.len() as u64).to_le_bytes());
            h.update(k.as_bytes());
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// One scenario family of a [`Plan`] (a reference, a formation, every distance): one
/// fair-CP experiment per pair of conducts, row-major as [`conduct::Menus::pair`].
#[derive(Clone, Debug)]
pub struct Planned {
    /// The reference's key.
    pub reference: String,
    /// How both sides stand.
    pub formation: String,
    /// What they stand on ([`PLANE`] or a named table).
    pub table: String,
    /// The table's width, in inches (a side's widest line fits on it).
    pub width: u32,
    /// The most of the reference that deploy on the table (unbounded on the plane): the
    /// search adds no count beyond it.
    pub most: u64,
    /// How many of the unit fight.
    pub units: u64,
    /// How many of the reference they face.
    pub counts: Vec<u64>,
    /// Both sides' conducts.
    pub menus: conduct::Menus,
    /// One experiment per pair of conducts.
    pub experiments: Vec<super::Experiment>,
}

impl Planned {
    /// Every experiment's cells.
    pub fn cells(&self) -> usize {
        self.experiments.iter().map(|e| e.cells.len()).sum()
    }

    /// The folder of conduct pair `k` under the family's folder `base`: the default pair's
    /// is `base` itself, so a price whose menus are one pair keeps today's layout.
    pub fn pair_folder(&self, base: &Path, k: usize) -> PathBuf {
        if k == 0 {
            return base.to_path_buf();
        }
        let (u, r) = self.menus.pair(k);
        base.join(format!("conduct-{}-vs-{}", u.slug(), r.slug()))
    }
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
    let drive = Drive {
        threads,
        quiet: false,
        watch,
        cancel,
    };
    run(p, &plan(p)?, dir, drive, out, &|_| None)
}

/// A scenario family's games found elsewhere, by its index in a plan's fits: `None` to
/// search it.
pub type Reuse<'a> = dyn Fn(usize) -> Option<Result<Vec<value::Played>, RunError>> + Sync + 'a;

/// Runs a price's `plan` (of `p`) into `dir`, which the caller holds locked (with the page
/// it writes there); the experiments' folders inside it are locked here before any runs.
/// Each family that `reuse` gives is taken as given instead of searched (a sensitivity's
/// reading that does not touch it); `&|_| None` searches them all.
pub fn run(
    p: &Pricing,
    plan: &Plan,
    dir: &Path,
    drive: Drive,
    out: &mut dyn Write,
    reuse: &Reuse,
) -> Result<Priced, RunError> {
    let Drive {
        threads,
        watch,
        cancel,
        ..
    } = drive;
    let folder = |f: &Planned| folder_of(dir, f);
    for f in &plan.fits {
        io(writeln!(
            out,
            "against {} in {}{}: {} x {} against {} of it",
            f.reference,
            f.formation,
            on_words(&f.table),
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
    let cells: u64 = plan.fits.iter().map(|f| f.cells() as u64).sum();
    say_kept(kept_in(plan, dir)?, dir, out)?;
    watch.begin_items(cells, 0, "cells");
    let fits: Vec<(usize, &Planned, &crate::experiment::lock::FolderLock)> = plan
        .fits
        .iter()
        .zip(&held)
        .enumerate()
        .map(|(k, (f, h))| (k, f, h))
        .collect();
    let rows: Vec<Result<Vec<value::Played>, RunError>> = each(&fits, |&(k, f, held)| {
        reuse(k).unwrap_or_else(|| search(p, f, held, threads, &Cells(watch), cancel))
    });
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
        for (distance, played) in p.distances.iter().zip(rows?) {
            let mut s = ScenarioPrice::read(f, *distance, &played.row);
            s.conduct = played.conduct(&f.menus, f.units);
            scenarios.push(s);
        }
        folders.push(folder(f));
    }
    // A scenario beyond the grid counts at its bound; a doubted one not at all.
    let counted: Vec<Scenario> = scenarios.iter().filter_map(|s| s.for_card()).collect();
    let card = Card::of(&counted);
    Ok(Priced {
        unit: p.unit.clone(),
        listed,
        verdict: card::verdict(listed.as_f64(), card.as_ref(), p.tolerance),
        card,
        tolerance: p.tolerance,
        scenarios,
        folders,
        conduct: p.conduct,
        inert: plan.inert.clone(),
    })
}

/// The folder of one of a price's experiments under the price's `dir`.
pub fn folder_of(dir: &Path, f: &Planned) -> PathBuf {
    let stand = match f.table == PLANE {
        true => file_name(&f.formation),
        false => format!("{}-on-{}", file_name(&f.formation), file_name(&f.table)),
    };
    dir.join(file_name(&f.reference)).join(stand)
}

/// Of the cells of a price's `plan` into `dir`: how many a rerun finds kept, and how many
/// there are. A resumed price says so at its start.
pub fn kept_in(plan: &Plan, dir: &Path) -> Result<(usize, usize), RunError> {
    let (mut kept, mut total) = (0, 0);
    for f in &plan.fits {
        for (k, e) in f.experiments.iter().enumerate() {
            let manifest = super::sweep::manifest(e, None)?;
            let pair = f.pair_folder(&folder_of(dir, f), k);
            kept += super::sweep::kept_count(e, &pair, &manifest) + race::kept(e, &pair)?;
            total += e.cells.len();
        }
    }
    Ok((kept, total))
}

/// "resuming: K of N cells kept in DIR", when a rerun keeps any (`kept` of `total`).
pub fn say_kept(
    (kept, total): (usize, usize),
    dir: &Path,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    if kept > total {
        io(writeln!(
            out,
            "resuming: {kept} cells kept in {} (the grid has {total}; racing and the search \
             add more)",
            dir.display()
        ))?;
    } else if kept > 0 {
        io(writeln!(
            out,
            "resuming: {kept} of {total} cells kept in {}",
            dir.display()
        ))?;
    }
    Ok(())
}

/// The failure of a price's `plan` into `dir` stopped by Ctrl-C: how many cells the whole
/// price kept (in each experiment's `folder`, its race's scratch and its rounds) of the
/// grid's.
fn interrupted(plan: &Plan, dir: &Path, folder: &dyn Fn(&Planned) -> PathBuf) -> RunError {
    let kept: usize = plan.fits.iter().map(|f| cells_under(&folder(f))).sum();
    let total: usize = plan.fits.iter().map(Planned::cells).sum();
    RunError::Interrupted(format!(
        "interrupted: {kept} cells are kept in {} (the grid has {total}; the search adds more)\n\
         hint: run the same command again to resume from them",
        dir.display()
    ))
}

/// The cell files in every `cells/` folder under `dir`.
fn cells_under(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .map(|p| {
            if p.file_name().is_some_and(|n| n == "cells") {
                race::cell_files(&p)
            } else {
                cells_under(&p)
            }
        })
        .sum()
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
    use crate::analysis::fair_cp;

    #[test]
    fn a_price_experiment_is_a_typed_value_whose_file_says_it_in_full() {
        let p = Pricing {
            unit: "hero+hand-weapon".into(),
            catalog: None,
            references: vec!["minifig-rifle".into()],
            distances: vec![2, 12],
            formations: vec!["ranks:2".into()],
            tables: super::plane(),
            trials: 4000,
            target_ci: Some(0.02),
            seed: 7,
            options: vec![("bonus_chain".into(), "1".into())],
            tolerance: 0.1,
            reports: false,
            conduct: conduct::Mode::Competent,
        };
        let plan = plan(&p).unwrap();
        let experiments = &plan.fits[0].experiments;
        assert!(
            experiments.len() > 1,
            "a rifle reference has conduct to choose"
        );
        let built = experiments.last().unwrap();
        assert_eq!(built.text, toml::to_string(&built.spec).unwrap());
        // The text a manifest keeps, read as a person's experiment file, asks the same.
        let read =
            crate::experiment::parse("kept.toml", &built.text, &Catalogs::Files(None)).unwrap();
        let args = |e: &super::super::Experiment| {
            e.cells.iter().map(|c| c.args.clone()).collect::<Vec<_>>()
        };
        assert_eq!(args(&read), args(built));
        assert_eq!(
            (read.seed, read.trials, read.target_ci),
            (7, 4000, Some(0.02))
        );
        assert_eq!(read.opts, built.opts);
        assert_ne!(read.opts, diemon_core::options::RuleOptions::default());
        assert_eq!(read.axes, built.axes);
        assert!(built.text.contains("kind = \"fair-cp\""), "{}", built.text);
        // The conduct pair reaches the cells' flags.
        assert!(
            args(built)[0].iter().any(|a| a.starts_with("--a-")),
            "{:?}",
            args(built)[0]
        );
        // A capped stage says its own cap and is otherwise the same experiment.
        let capped = built.capped(500);
        assert_eq!(capped.spec.trials.get_ref(), &500);
        assert!(capped.text.contains("trials = 500"), "{}", capped.text);
        assert_eq!(args(&capped), args(built));
    }

    #[test]
    fn a_line_ends_with_what_its_unit_never_uses_or_with_nothing() {
        assert_eq!(inert_here(&[]), "");
        let parts = [
            "Specialty: master (1 CP): no Thrall on its side".to_string(),
            "b".into(),
        ];
        assert_eq!(
            inert_here(&parts),
            "; inert here: Specialty: master (1 CP): no Thrall on its side; b"
        );
    }

    #[test]
    fn a_price_names_what_its_unit_pays_for_and_never_uses_alone_on_its_side() {
        let (cat, o) = (
            diemon_core::catalog::Catalog::builtin(),
            diemon_core::options::RuleOptions::default(),
        );
        // Ch. 10.4: a Master alone has no Thrall to Sacrifice, a Thrall no Master.
        assert_eq!(
            inert(&cat, "kult-master", &o).unwrap(),
            vec!["Specialty: master (1 CP): no Thrall on its side".to_string()]
        );
        assert_eq!(
            inert(&cat, "kultist", &o).unwrap(),
            vec!["Specialty: thrall (1 CP): no Master on its side".to_string()]
        );
        assert!(inert(&cat, "minifig-hand-weapon", &o).unwrap().is_empty());
        assert!(inert(&cat, "wizard", &o).unwrap().is_empty());
    }

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

    /// Cells at `counts` against 4 units with chances `p`, 10,000 trials each.
    fn read(counts: &[u64], p: &[f64]) -> Result<Worth, NoWorth> {
        let points: Vec<fair_cp::Point> = counts
            .iter()
            .zip(p)
            .map(|(&n, &p)| fair_cp::Point {
                count: n,
                ratio: n as f64 / 4.0,
                trials: 10_000.0,
                score: p * 10_000.0,
            })
            .collect();
        fair_cp::worth(&points, 0.95)
    }

    #[test]
    fn issue_39_the_search_widens_the_grid_then_fills_the_bracket() {
        // Four 14-CP Launchers against 6-CP minifigs: 9.33 listed, a grid of 3 to 28.
        let rate = 4.0 * 14.0 / 6.0;
        let (_, grid) = grid(Cp::whole(14), Cp::whole(6)).unwrap();
        assert_eq!((grid[0], *grid.last().unwrap()), (3, 28));
        // Ahead at every count: 12% steps on from 28, to a side's 64 (ten times is 94).
        let ahead = Err(NoWorth::AlwaysAhead { largest: 7.0 });
        assert_eq!(
            wanted(4, rate, &grid, &ahead),
            vec![31, 35, 39, 44, 49, 55, 62]
        );
        assert!(
            wanted(4, rate, &[40, 50, 64], &ahead).is_empty(),
            "at the limit"
        );
        // Behind at every count: every whole count below, down to one figure.
        let behind = Err(NoWorth::AlwaysBehind { smallest: 0.75 });
        assert_eq!(wanted(4, rate, &grid, &behind), vec![1, 2]);
        // The crossing between 18 and 20: the whole counts around it, 17, 19 and 21.
        let counts = [12, 14, 16, 18, 20, 22, 25];
        let w = read(&counts, &[0.9, 0.84, 0.71, 0.52, 0.07, 0.001, 0.0]);
        assert_eq!(wanted(4, rate, &counts, &w), vec![17, 19, 21]);
        // Once they are fought, the search stops.
        let full = [12, 14, 16, 17, 18, 19, 20, 21, 22, 25];
        let w = read(
            &full,
            &[0.9, 0.84, 0.71, 0.6, 0.52, 0.3, 0.07, 0.02, 0.001, 0.0],
        );
        assert!(wanted(4, rate, &full, &w).is_empty());
        // A lone count is fought beside its nearest neighbour, whose trials add up.
        let have = [4, 5, 6, 8, 9];
        let w = read(&have, &[0.9, 0.7, 0.6, 0.3, 0.2]);
        assert_eq!(wanted(4, rate, &have, &w), vec![6, 7]);
    }

    #[test]
    fn each_round_has_its_own_streams() {
        let seeds: Vec<u64> = [(2, 12), (3, 12), (2, 24), (2, 2)]
            .iter()
            .map(|&(r, d)| round_seed(1, r, d))
            .collect();
        for (i, a) in seeds.iter().enumerate() {
            assert!(
                seeds[i + 1..].iter().all(|b| b != a) && *a != 1,
                "{seeds:?}"
            );
        }
        // Value stability: a round's seed never changes between builds (splitmix64, by hand).
        assert_eq!(round_seed(1, 2, 12), 12655261765295607999);
        assert_ne!(round_seed(1, 2, 12), round_seed(2, 2, 12));
    }
}
