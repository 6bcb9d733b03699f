//! Experiment kind `price`: a roster of units priced in one file, one row a unit (its
//! card price, spread and verdict), and a report that ranks them from the most over-priced to
//! the most under-priced. Each unit is priced like `diemon price` (the same scenarios and
//! seeds) into `DIR/units/UNIT/`, where its cells are kept so a killed run resumes.
//!
//! ```toml
//! name = "price-catalog"
//! kind = "price"
//! target_ci = 0.01
//! [price]
//! units = ["minifig-hand-weapon", "hero-hand-weapon"]
//! # references, distances, formations and catalog as `diemon price` takes them
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use polars::prelude::{Column, DataFrame};
use serde::Deserialize;
use toml::Spanned;

use super::conduct::Mode;
use super::page::frame;
use super::{DISTANCES, FORMATIONS, Priced, Pricing, REFERENCES, TARGET_CI, file_name};
use crate::analysis::card::TOLERANCE;
use crate::experiment::ExperimentError;
use crate::experiment::error::{Drive, RunError, io};
use crate::experiment::spec::value_text;
use crate::export::csv::Csv;
use crate::export::parquet::Parquet;
use crate::export::{Exporter, write_atomic};
use crate::report::chart::{Body, Chart, Range};
use crate::report::sheet::{self, Section, Sheet, Table};
use diemon_core::catalog::formula::Formula;
use diemon_core::options::RuleOptions;
use diemon_core::scenario::squad::policy::Formation;

mod ranking;
pub(super) use ranking::inert_paragraph;
use ranking::{beyond_note, rank, roster_frame, sheet_of, worth};

/// The most trials a cell may run when the file does not say.
pub const TRIALS: u64 = 200_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RosterSpec {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    #[allow(dead_code)] // read by `is_roster`; kept so the field is not unknown
    kind: String,
    #[serde(default = "one")]
    seed: u64,
    trials: Option<Spanned<u64>>,
    target_ci: Option<Spanned<f64>>,
    #[serde(default)]
    options: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    price: PriceSpec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PriceSpec {
    units: Spanned<Vec<Spanned<String>>>,
    references: Option<Vec<Spanned<String>>>,
    distances: Option<Vec<Spanned<u32>>>,
    formations: Option<Vec<Spanned<String>>>,
    /// `plane` or named table layouts (issue 43).
    tables: Option<Vec<Spanned<String>>>,
    catalog: Option<Spanned<String>>,
    /// The verdict's tolerance, in percent of the listed cost.
    tolerance: Option<Spanned<f64>>,
    /// How the sides choose their conduct (`competent` or `fixed`).
    conduct: Option<Spanned<String>>,
}

fn one() -> u64 {
    1
}

/// A roster, resolved.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Roster {
    /// Names the output folder.
    pub name: String,
    /// What it prices, in words.
    pub description: String,
    /// The units, in order.
    pub units: Vec<String>,
    /// How each unit is priced (its `unit` is set per unit).
    pub pricing: Pricing,
    /// The file as written.
    pub text: String,
    /// The file as named.
    pub file: String,
    /// A cost formula the balance sheet also scores the catalog under (`diemon balance
    /// --formula`); it fights nothing.
    #[serde(default)]
    pub formula: Option<Box<super::balance::Recost>>,
    /// The command that ran it, when not `diemon run FILE` (`diemon balance`, say).
    #[serde(default)]
    pub command: Option<String>,
    /// The parts whose worth per step the formula fit prices designed variants for
    /// (`diemon balance --fit`).
    #[serde(default)]
    pub fit: Vec<super::formula::Axis>,
}

/// Each unit's pricing and plan, in the roster's order: every unit's experiments read and
/// checked, so a unit that cannot fight fails the file before anything runs.
pub fn plans(r: &Roster) -> Result<Vec<(Pricing, super::Plan)>, RunError> {
    r.units
        .iter()
        .map(|unit| {
            let pu = Pricing {
                unit: unit.clone(),
                ..r.pricing.clone()
            };
            let planned = super::plan(&pu).map_err(|e| match e {
                RunError::Input(m) => RunError::Input(format!("{}: unit {unit:?}: {m}", r.file)),
                other => other,
            })?;
            Ok((pu, planned))
        })
        .collect()
}

/// A unit's folder in a roster's `dir`.
pub fn unit_folder(dir: &Path, unit: &str) -> PathBuf {
    dir.join("units").join(file_name(unit))
}

/// Whether an experiment file's `kind` is `price`.
pub fn is_roster(text: &str) -> bool {
    toml::from_str::<toml::Table>(text)
        .ok()
        .and_then(|t| t.get("kind").and_then(|k| k.as_str()).map(|k| k == "price"))
        .unwrap_or(false)
}

/// Parses a roster file's `text`; a `catalog` is read from `base` (the file's folder).
pub fn parse(file: &str, text: &str, base: Option<&Path>) -> Result<Roster, Vec<ExperimentError>> {
    let at = diemon_core::input::at(file, text);
    let spec: RosterSpec = toml::from_str(text).map_err(|e| {
        vec![at(
            e.span().map_or(0, |s| s.start),
            e.message().trim().to_string(),
            "fields: name, description, kind, seed, trials, target_ci, [options], [price] with \
             units, references, distances, formations, tables, catalog, tolerance, conduct (see docs/pricing.md)",
        )]
    })?;
    let mut errors = Vec::new();
    let name = spec.name.get_ref().clone();
    if !crate::experiment::is_folder_name(&name) {
        errors.push(at(
            spec.name.span().start,
            format!("name {name:?} names the output folder"),
            "letters, digits, - and _ only, e.g. \"price-catalog\"",
        ));
    }
    let trials = spec.trials.as_ref().map_or(TRIALS, |t| *t.get_ref());
    if let Some(t) = &spec.trials
        && !(1..=1_000_000_000).contains(t.get_ref())
    {
        errors.push(at(
            t.span().start,
            format!("trials {trials}"),
            "from 1 to 1e9 trials a cell",
        ));
    }
    let target_ci = spec.target_ci.as_ref().map_or(TARGET_CI, |t| *t.get_ref());
    if let Some(t) = &spec.target_ci
        && !(*t.get_ref() > 0.0 && *t.get_ref() < 0.5)
    {
        errors.push(at(
            t.span().start,
            format!("target_ci {}", t.get_ref()),
            "a half-width of a win chance, above 0 and below 0.5 (default 0.01)",
        ));
    }
    let mut options = Vec::new();
    for (k, v) in &spec.options {
        let value = value_text(v.get_ref());
        match RuleOptions::default().set(k.get_ref(), &value) {
            Ok(()) => options.push((k.get_ref().clone(), value)),
            Err(e) => errors.push(at(
                k.span().start,
                e.to_string(),
                "`diemon options` lists them",
            )),
        }
    }
    let p = &spec.price;
    let catalog_path = p.catalog.as_ref().map(|c| match base {
        Some(b) => b.join(c.get_ref()),
        None => PathBuf::from(c.get_ref()),
    });
    let catalog = match crate::question::catalog(catalog_path.as_ref(), None) {
        Ok(c) => Some(c),
        Err(e) => {
            let offset = p.catalog.as_ref().map_or(0, |c| c.span().start);
            errors.push(at(
                offset,
                e.to_string(),
                "a catalog file, relative to this one",
            ));
            None
        }
    };
    let mut check_unit = |u: &Spanned<String>| {
        if let Some(c) = &catalog
            && let Err(e) = c.equipped(u.get_ref())
        {
            // The catalog's message carries its own hint.
            errors.push(at(u.span().start, e.to_string(), ""));
        }
        u.get_ref().clone()
    };
    let units: Vec<String> = p.units.get_ref().iter().map(&mut check_unit).collect();
    let references: Vec<String> = match &p.references {
        Some(r) => r.iter().map(&mut check_unit).collect(),
        None => REFERENCES.iter().map(|r| r.to_string()).collect(),
    };
    if units.is_empty() {
        errors.push(at(
            p.units.span().start,
            "no units".into(),
            "units = [\"hero-hand-weapon\", ...]",
        ));
    }
    let (formations, tables, distances, tolerance) = scenario_axes(p, &at, &mut errors);
    let conduct = conduct_of(p, &at, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Roster {
        name,
        description: spec.description,
        units,
        pricing: Pricing {
            unit: String::new(),
            catalog: catalog_path,
            references,
            distances,
            formations,
            tables,
            trials,
            target_ci: Some(target_ci),
            seed: spec.seed,
            options,
            reports: false,
            tolerance,
            conduct,
        },
        text: text.to_string(),
        file: file.to_string(),
        formula: None,
        command: None,
        fit: Vec::new(),
    })
}

/// A roster's conduct (`competent` by default), checked.
fn conduct_of(
    p: &PriceSpec,
    at: &impl Fn(usize, String, &str) -> ExperimentError,
    errors: &mut Vec<ExperimentError>,
) -> Mode {
    let Some(c) = &p.conduct else {
        return Mode::default();
    };
    <Mode as clap::ValueEnum>::from_str(c.get_ref(), false).unwrap_or_else(|_| {
        errors.push(at(
            c.span().start,
            format!("conduct {:?}", c.get_ref()),
            "competent (the default: each side picks from its menu) or fixed",
        ));
        Mode::default()
    })
}

/// A roster's formations, tables, distances and verdict tolerance, checked (defaults where
/// absent); each bad value is an error at its place.
fn scenario_axes(
    p: &PriceSpec,
    at: &impl Fn(usize, String, &str) -> ExperimentError,
    errors: &mut Vec<ExperimentError>,
) -> (Vec<String>, Vec<String>, Vec<u32>, f64) {
    let mut formations = Vec::new();
    for f in p.formations.iter().flatten() {
        match Formation::parse(f.get_ref()) {
            Ok(x) => formations.push(x.to_string()),
            Err(m) => errors.push(at(f.span().start, m.to_string(), "line, column or ranks:N")),
        }
    }
    if formations.is_empty() {
        formations = FORMATIONS.iter().map(|f| f.to_string()).collect();
    }
    let mut tables = Vec::new();
    for t in p.tables.iter().flatten() {
        match super::table_name(t.get_ref()) {
            Ok(()) => tables.push(t.get_ref().clone()),
            Err(m) => errors.push(at(
                t.span().start,
                m,
                "plane, open, scattered, wall-line or town",
            )),
        }
    }
    if tables.is_empty() {
        tables = super::plane();
    }
    let mut distances = Vec::new();
    for d in p.distances.iter().flatten() {
        if *d.get_ref() > 1000 {
            errors.push(at(
                d.span().start,
                format!("distance {}", d.get_ref()),
                "0 to 1000 inches",
            ));
        }
        distances.push(*d.get_ref());
    }
    if distances.is_empty() {
        distances = DISTANCES.to_vec();
    }
    let tolerance = match &p.tolerance {
        Some(t) if !(0.0..100.0).contains(t.get_ref()) => {
            errors.push(at(
                t.span().start,
                format!("tolerance {}", t.get_ref()),
                "a percentage of the listed cost, from 0 up to 100 (default 10)",
            ));
            TOLERANCE
        }
        Some(t) => t.get_ref() / 100.0,
        None => TOLERANCE,
    };
    (formations, tables, distances, tolerance)
}

/// Prices every unit of `r` into `dir`, then (with `r.fit`) the designed variants of the
/// formula fit into `dir/formula/`, then writes the roster's frames and its page.
pub fn run(r: &Roster, dir: &Path, drive: Drive, out: &mut dyn Write) -> Result<(), RunError> {
    let _lock = crate::experiment::lock::lock(dir)?;
    let priced = price_all(r, dir, drive, out)?;
    let fitted = if r.fit.is_empty() {
        None
    } else {
        Some(super::formula::run(r, dir, drive, out)?)
    };
    write(r, dir, &priced, fitted.as_ref(), out)
}

/// Prices every unit of `r` into `dir/units/`, under one bar.
pub fn price_all(
    r: &Roster,
    dir: &Path,
    drive: Drive,
    out: &mut dyn Write,
) -> Result<Vec<Priced>, RunError> {
    let watch = drive.watch;
    let p = &r.pricing;
    io(writeln!(
        out,
        "{}: {} units {}",
        r.name,
        r.units.len(),
        p.describe()
    ))?;
    // Every unit's experiments read and checked before any runs: a unit that cannot fight
    // fails the file now, not an hour in.
    let plans = plans(r)?;
    // Each unit's folder held from the start, like the roster's own.
    let held = r
        .units
        .iter()
        .map(|unit| crate::experiment::lock::lock(&unit_folder(dir, unit)))
        .collect::<Result<Vec<_>, _>>()?;
    // A resume is never silent: what the whole roster keeps, before anything runs.
    let (mut kept, mut total) = (0, 0);
    for ((_, planned), held) in plans.iter().zip(&held) {
        let (k, t) = super::kept_in(planned, held.path())?;
        (kept, total) = (kept + k, total + t);
    }
    super::say_kept((kept, total), &dir.join("units"), out)?;
    // One bar for the roster, over every unit's grid: the units' kept cells count in as
    // each unit is reached.
    watch.begin_items(total as u64, 0, "cells");
    let priced = each_unit(r, &plans, &held, drive, out);
    watch.finish();
    priced
}

/// Prices each unit of `plans` into its `held` folder, one after another, saying each
/// one's card price above the roster's bar. Each unit's price counts into that bar
/// ([`super::Cells`]) rather than beginning and finishing one of its own.
fn each_unit(
    r: &Roster,
    plans: &[(Pricing, super::Plan)],
    held: &[crate::experiment::lock::FolderLock],
    drive: Drive,
    out: &mut dyn Write,
) -> Result<Vec<Priced>, RunError> {
    let watch = drive.watch;
    let n = r.units.len();
    let mut priced = Vec::new();
    for (i, (pu, planned)) in plans.iter().enumerate() {
        let unit = &pu.unit;
        watch.cell(&[("unit".into(), format!("{unit} ({}/{n})", i + 1))]);
        let mut said = Vec::new();
        let got = super::run(
            pu,
            planned,
            held[i].path(),
            Drive {
                quiet: true,
                watch: &super::Cells(watch),
                ..drive
            },
            &mut said,
            &|_| None,
        )?;
        let summary = match (&got.card, worth(&got)) {
            (Some(c), Some((_, [lo, hi]))) => format!(
                "card price {}, scenarios {lo:.2} to {hi:.2}{}; {}",
                c.text(),
                beyond_note(&got),
                got.verdict.word()
            ),
            _ => "no scenario gave a price".into(),
        } + &super::inert_here(&got.inert);
        // The line is written around the roster's bar, which stays on the terminal.
        let mut wrote = Ok(());
        watch.suspend(&mut || {
            wrote = io(writeln!(
                out,
                "  {}/{n} {unit} (listed {} CP): {summary}",
                i + 1,
                got.listed
            )
            .and_then(|()| out.flush()));
        });
        wrote?;
        priced.push(got);
    }
    Ok(priced)
}

/// Writes the roster's frames (a row a unit, ranked; a row a scenario), its manifest and
/// its page into `dir`, and says so.
fn write(
    r: &Roster,
    dir: &Path,
    priced: &[Priced],
    fitted: Option<&super::formula::Fitted>,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let ranked = rank(priced);
    let command = r
        .command
        .clone()
        .unwrap_or_else(|| format!("diemon run {}", r.file));
    // What made these files: the experiment as written (each unit's own experiments keep
    // their resume keys under units/). Every kind's Parquet carries it as `diemon_manifest`.
    let mut manifest = toml::Table::new();
    manifest.insert("name".into(), r.name.clone().into());
    manifest.insert("kind".into(), "price".into());
    manifest.insert("diemon".into(), env!("CARGO_PKG_VERSION").into());
    manifest.insert("diemon_version".into(), env!("CARGO_PKG_VERSION").into());
    manifest.insert("axes".into(), toml::Value::Array(Vec::new()));
    manifest.insert("source".into(), r.text.clone().into());
    let manifest = manifest.to_string();
    let parquet = Parquet {
        metadata: vec![
            ("diemon_manifest".into(), manifest.clone()),
            ("experiment".into(), r.text.clone()),
        ],
    };
    let mut roster = roster_frame(&ranked)?;
    let mut prices = DataFrame::default();
    for p in priced {
        let f = frame(p)?;
        if prices.width() == 0 {
            prices = f;
        } else {
            prices
                .vstack_mut(&f)
                .map_err(|e| RunError::other(format!("the prices frame: {e}")))?;
        }
    }
    let p = &r.pricing;
    let recosted = match &r.formula {
        Some(f) => Some((&**f, recost(p, priced, &f.formula)?)),
        None => None,
    };
    let balanced = super::balance::of(priced, &p.references, p.tolerance, p.seed, recosted);
    for e in [&Csv as &dyn Exporter, &parquet] {
        write_atomic(e, &mut roster, dir, "summary")?;
        write_atomic(e, &mut prices, dir, "prices")?;
        if let Ok(b) = &balanced {
            write_atomic(e, &mut b.frame()?, dir, "balance")?;
        }
    }
    crate::export::write_text_atomic(dir, "manifest.toml", &manifest)?;
    let mut page = sheet_of(r, &ranked, &command);
    let balance = match &balanced {
        Ok(b) => b.section(p.tolerance),
        Err(why) => Section {
            heading: "Balance".into(),
            paragraphs: vec![format!("No balanced table: {why}.")],
            ..Section::default()
        },
    };
    page.sections.insert(1, balance);
    if fitted.is_none() {
        super::formula::clear(dir)?;
    }
    if let Some(f) = fitted {
        for e in [&Csv as &dyn Exporter, &parquet] {
            write_atomic(e, &mut f.frame()?, dir, "formula")?;
            write_atomic(e, &mut f.variants_frame()?, dir, "variants")?;
        }
        crate::export::write_text_atomic(dir, super::formula::IMPLIED, &f.implied())?;
        for (i, s) in f.sections().into_iter().enumerate() {
            page.sections.insert(2 + i, s);
        }
    }
    sheet::write(dir, &page).map_err(|e| RunError::other(e.to_string()))?;
    io(match &balanced {
        Ok(b) => writeln!(out, "balance: {}\n{}", b.scores(), b.lines().join("\n")),
        Err(why) => writeln!(out, "balance: none ({why})"),
    })?;
    io(writeln!(
        out,
        "wrote {0}/summary.csv and .parquet (one row a unit), {0}/prices.csv and .parquet \
         (one row a scenario){1} and manifest.toml; report: {0}/report.html",
        dir.display(),
        if balanced.is_ok() {
            format!(
                ", {}/balance.csv and .parquet (the balanced table)",
                dir.display()
            )
        } else {
            String::new()
        }
    ))
}

/// Each priced unit's cost under the formula `f`.
fn recost(p: &Pricing, priced: &[Priced], f: &Formula) -> Result<Vec<f64>, RunError> {
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    priced
        .iter()
        .map(|u| {
            let unit = catalog
                .equipped(&u.unit)
                .map_err(|e| RunError::input(e.to_string()))?;
            Ok(diemon_core::catalog::cost::recost(&unit, f))
        })
        .collect()
}

#[test]
fn a_roster_draws_one_bar_that_ends_full() {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    // What a bar would show: how often it began and finished, its length and position.
    #[derive(Default)]
    struct Seen {
        begun: Mutex<Vec<u64>>,
        finished: std::sync::atomic::AtomicU64,
        len: std::sync::atomic::AtomicU64,
        pos: std::sync::atomic::AtomicU64,
    }
    impl crate::experiment::error::Watch for Seen {
        fn begin(&self, total: u64, kept: u64) {
            self.begun.lock().unwrap().push(total);
            self.len.store(total, Relaxed);
            self.pos.store(kept, Relaxed);
        }
        fn more(&self, n: u64) {
            self.len.fetch_add(n, Relaxed);
        }
        fn done(&self) {
            self.pos.fetch_add(1, Relaxed);
        }
        fn finish(&self) {
            self.finished.fetch_add(1, Relaxed);
        }
    }
    let text = "name = \"r\"\nkind = \"price\"\ntarget_ci = 0.05\n[price]\nunits = [\"automaton\", \"cannon-fodder\"]\nreferences = [\"minifig-hand-weapon\"]\ndistances = [2]\nformations = [\"line\"]\n";
    let r = parse("r.toml", text, None).unwrap();
    let dir = std::env::temp_dir().join(format!("diemon-roster-bar-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let price = |seen: &Seen| {
        let cancel = AtomicBool::new(false);
        let drive = Drive {
            threads: Some(1),
            quiet: false,
            watch: seen,
            cancel: &cancel,
        };
        run(&r, &dir, drive, &mut Vec::new()).unwrap()
    };
    let seen = Seen::default();
    price(&seen);
    // One bar over both units' grids, not one a unit; every cell the search added is
    // counted in, and the bar ends full.
    let planned: usize = plans(&r)
        .unwrap()
        .iter()
        .map(|(_, p)| p.fits.iter().map(|f| f.cells()).sum::<usize>())
        .sum();
    assert_eq!(*seen.begun.lock().unwrap(), [planned as u64]);
    assert_eq!(seen.finished.load(Relaxed), 1);
    assert!(seen.len.load(Relaxed) > planned as u64);
    assert_eq!(seen.pos.load(Relaxed), seen.len.load(Relaxed));
    // Again: every cell is kept, and counts as done.
    let again = Seen::default();
    price(&again);
    assert_eq!(again.begun.lock().unwrap().len(), 1);
    assert!(again.pos.load(Relaxed) >= again.len.load(Relaxed));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_43_a_roster_prices_on_the_tables_it_names_and_locates_a_bad_one() {
    let text = |tables: &str| {
        format!("name = \"r\"\nkind = \"price\"\n[price]\nunits = [\"hero\"]\ntables = {tables}\n")
    };
    let r = parse("r.toml", &text("[\"plane\", \"town\"]"), None).unwrap();
    assert_eq!(r.pricing.tables, ["plane", "town"]);
    let r = parse("r.toml", &text("[]"), None).unwrap();
    assert_eq!(r.pricing.tables, super::plane());
    let e = parse("r.toml", &text("[\"plane\", \"moon\"]"), None).unwrap_err();
    let said = e[0].to_string();
    assert!(said.starts_with("r.toml:5:20:"), "{said}");
    assert!(said.contains("no table \"moon\""), "{said}");
}
