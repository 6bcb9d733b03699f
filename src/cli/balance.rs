//! `diemon balance`: a whole catalog priced unit by unit, the CP table at which every unit
//! is worth its cost against the others, and the catalog's imbalance score, as listed, as
//! proposed and under a cost formula ([`crate::experiment::price::balance`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::Failure;
use super::run::{Job, roster_job};
use crate::catalog::Catalog;
use crate::catalog::formula::Formula;
use crate::experiment::price::balance::Recost;
use crate::experiment::price::conduct::Mode;
use crate::experiment::price::formula::{Axis, NoPart, group};
use crate::experiment::price::roster::{Roster, TRIALS};
use crate::experiment::price::{DISTANCES, FORMATIONS, Pricing, REFERENCES, fights};
use crate::options::RuleOptions;
use crate::question::run::{check_threads, parse_trials};
use crate::scenario::squad::policy::Formation;
use crate::sim::engine::Shard;

/// Each cell's precision by default: a catalog is dozens of prices, so twice `diemon
/// price`'s half-width (experiments/price-catalog.toml runs the same).
pub const TARGET_CI: f64 = 0.02;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon balance
  diemon balance --formula formulas/dearer-move.toml
  diemon balance --fit all
  diemon balance --catalog catalogs/knight.toml
  diemon balance --units minifig-hand-weapon,minifig-rifle,hero-hand-weapon,automaton

Each unit is priced as `diemon price UNIT` prices it (the same scenarios, seeds and competent
conduct) into DIR/units/UNIT/, where its cells stay: a killed run resumes, and a second run
with another --formula fights nothing again. The battles do not depend on what anyone costs,
so each scenario's fitted rate re-prices its unit at any table. The balanced table is the one
at which every unit costs its price, the references included; the first reference keeps its
listed cost (the table's scale). The imbalance score is the root mean square of ln(card price
/ cost) over the units, with its 95% CI: as listed, at the proposed table (re-priced there,
rounded to the half CP) and, with --formula, at every unit's cost under that formula. --fit
prices designed variants of minifig-hand-weapon (Move 3\" to 10\", Skill d6 to d12, no
armour to Heavy Armor, Size 1 to 3, a weapon kind at Weapon Size 1 to 4) and fits each
part's worth per step, written as implied-formula.toml for --formula.
docs/balance.md says how to read it.")]
pub struct BalanceArgs {
    /// A catalog file (TOML): its units are balanced, with the references (default: every
    /// built-in unit that can fight).
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
    /// The units to balance, comma-separated or repeated (the references are added).
    #[arg(long, value_name = "UNIT", value_delimiter = ',', num_args = 1..)]
    pub units: Vec<String>,
    /// A cost formula file: CP per step of Move, Armor, Skill, Weapon Size, ...; the rules'
    /// formula where it is silent. The catalog is re-costed by it and scored (no battle).
    #[arg(long, value_name = "FILE")]
    pub formula: Option<PathBuf>,
    /// Also fit the cost formula the battles imply: price designed variants of
    /// minifig-hand-weapon along each part (move, skill, armor, size, a weapon kind such as
    /// gun, mind: each Half Mind, traits: multitasking, multidexterity, master and thrall,
    /// supernatural; `all`: those with melee-weapon and gun), and draw each part's worth per
    /// step against what the rules charge.
    #[arg(long, value_name = "PART", value_delimiter = ',', num_args = 1..,
          value_parser = fit_part)]
    pub fit: Vec<FitParts>,
    /// A reference unit (repeatable; default: minifig-hand-weapon, minifig-rifle and
    /// hero-hand-weapon). The first keeps its listed cost.
    #[arg(long = "reference", value_name = "UNIT")]
    pub references: Vec<String>,
    /// A starting distance in inches (repeatable; default: 2, 12 and 24).
    #[arg(long = "distance", value_name = "INCHES",
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub distances: Vec<u32>,
    /// How both sides stand: line, column or ranks:N (repeatable; default: line and
    /// ranks:2).
    #[arg(long = "formation", value_name = "FORMATION", value_parser = Formation::parse)]
    pub formations: Vec<Formation>,
    /// What both sides stand on: plane or a named table (open, scattered, wall-line,
    /// town), as `diemon price --table` takes it; each table is a scenario family of every
    /// unit (repeatable; default: plane).
    #[arg(long = "table", value_name = "TABLE", value_parser = super::price::table_name)]
    pub tables: Vec<String>,
    /// Run each cell that can move a price until its win chance's 95% CI is within +-X.
    #[arg(long, value_name = "X", default_value_t = TARGET_CI)]
    pub target_ci: f64,
    /// The most trials a cell may run (accepts 1e5, 200k).
    #[arg(long, value_parser = parse_trials, default_value = "200000")]
    pub trials: u64,
    /// Master seed (same seed, same digits, on any thread count).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads for each cell (default: all cores). Never changes a result.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where to write (default: reports/balance, or reports/balance-CATALOG).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The verdict's tolerance: a listed cost is fair when the proposed cost's 95% CI comes
    /// within this many percent of it.
    #[arg(long, value_name = "PCT", default_value_t = 10.0)]
    pub tolerance: f64,
    /// How each side chooses its conduct: competent (the value of the game over each side's
    /// menu) or fixed (the default policies).
    #[arg(long, value_enum, default_value_t = Mode::Competent)]
    pub conduct: Mode,
    /// Run only shard I of N (1-based): whole families of scenarios of every unit, dealt in
    /// turn. `diemon merge` the shards' folders to balance it, exactly as one machine does.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(
    a: &BalanceArgs,
    options: &[String],
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let raw = options;
    check_threads(a.threads)?;
    if !(a.target_ci > 0.0 && a.target_ci < 0.5) {
        return Err(Failure::input(format!(
            "--target-ci {}: expected a half-width of a win chance, above 0 and below 0.5\n\
             hint: 0.02 (the default) runs about 2,400 trials a cell near an even fight",
            a.target_ci
        )));
    }
    if !(0.0..100.0).contains(&a.tolerance) {
        return Err(Failure::input(format!(
            "--tolerance {}: expected a percentage of the listed cost, from 0 up to 100",
            a.tolerance
        )));
    }
    let formula = match &a.formula {
        Some(f) => Some(Box::new(Recost {
            file: f.display().to_string(),
            formula: Formula::read(f).map_err(|e| Failure::input(e.to_string()))?,
        })),
        None => None,
    };
    let catalog = crate::question::catalog(a.catalog.as_ref(), None)?;
    // Checked by the command line already: each is KEY=VALUE.
    let options: Vec<(String, String)> = options
        .iter()
        .filter_map(|o| o.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut opts = RuleOptions::default();
    for (k, v) in &options {
        opts.set(k, v).map_err(|e| Failure::input(e.to_string()))?;
    }
    let references: Vec<String> = if a.references.is_empty() {
        REFERENCES.iter().map(|r| r.to_string()).collect()
    } else {
        a.references.clone()
    };
    let (units, left_out) = chosen(a, &catalog, &references, &opts)?;
    let mut fit: Vec<Axis> = Vec::new();
    for x in a.fit.iter().flat_map(|p| &p.0) {
        if !fit.contains(x) {
            fit.push(*x);
        }
    }
    if !fit.is_empty() && a.shard.is_some() {
        return Err(Failure::input(
            "--fit with --shard: the formula fit runs on one machine for now
hint: balance              the catalog in shards and merge, then run `diemon balance --fit ...` into the              merged folder (its cells are kept)",
        ));
    }
    for (u, why) in &left_out {
        super::io(writeln!(out, "left out: {u} ({why})"))?;
    }
    let name = match &a.catalog {
        Some(c) => format!(
            "balance-{}",
            c.file_stem()
                .map_or("catalog".into(), |s| s.to_string_lossy())
        ),
        None => "balance".into(),
    };
    let pricing = Pricing {
        unit: String::new(),
        catalog: a.catalog.clone(),
        references,
        distances: if a.distances.is_empty() {
            DISTANCES.to_vec()
        } else {
            a.distances.clone()
        },
        formations: if a.formations.is_empty() {
            FORMATIONS.iter().map(|f| f.to_string()).collect()
        } else {
            a.formations.iter().map(Formation::to_string).collect()
        },
        tables: if a.tables.is_empty() {
            crate::experiment::price::plane()
        } else {
            a.tables.clone()
        },
        trials: a.trials,
        target_ci: Some(a.target_ci),
        seed: a.seed,
        options,
        tolerance: a.tolerance / 100.0,
        reports: false,
        conduct: a.conduct,
    };
    let r = Roster {
        name: name.clone(),
        description: "The balanced table: what every unit should cost against the others".into(),
        text: roster_text(&name, &units, &pricing),
        file: "diemon balance".into(),
        command: Some(command(a, raw)),
        units,
        pricing,
        formula,
        fit,
    };
    let how = Job {
        out: a.out.clone(),
        shard: a.shard,
        threads: a.threads,
        quiet: a.quiet,
    };
    roster_job(&r, &how, cancel, out)
}

/// A `--fit` value: a part, or `all` of them.
#[derive(Clone, Debug)]
pub struct FitParts(Vec<Axis>);

fn fit_part(s: &str) -> Result<FitParts, NoPart> {
    match group(s) {
        Some(axes) => Ok(FitParts(axes)),
        None => Axis::parse(s).map(|a| FitParts(vec![a])),
    }
}

/// The units to balance, and those left out with why.
type Chosen = (Vec<String>, Vec<(String, String)>);

/// The units to balance, the references included, and those left out with why: the units
/// asked for, else every unit of the catalog file (or the built-in one) that has a price
/// and can fight a squad battle.
fn chosen(
    a: &BalanceArgs,
    catalog: &Catalog,
    references: &[String],
    opts: &RuleOptions,
) -> Result<Chosen, Failure> {
    let mut units = Vec::new();
    let mut left_out = Vec::new();
    if !a.units.is_empty() {
        for u in &a.units {
            catalog
                .equipped(u)
                .map_err(|e| Failure::input(e.to_string()))?;
            units.push(u.clone());
        }
    } else {
        let keys: Vec<String> = match &a.catalog {
            Some(path) => {
                let text = crate::input::read(path)
                    .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
                crate::catalog::parse(&path.display().to_string(), &text)
                    .map_err(|es| Failure::input(es[0].to_string()))?
                    .into_keys()
                    .collect()
            }
            None => catalog.units().map(|u| u.key.clone()).collect(),
        };
        for k in keys {
            let u = catalog.get(&k).expect("a key of the catalog");
            if crate::catalog::cost::breakdown(u).items.is_empty() {
                left_out.push((k, "no price: it is summoned, not bought".into()));
                continue;
            }
            match fights(catalog, &k, opts) {
                Ok(()) => units.push(k),
                Err(why) => {
                    let first = why.lines().next().unwrap_or_default();
                    let reason = first.split_once(": it ").map_or(first, |(_, r)| r);
                    left_out.push((k, reason.to_string()));
                }
            }
        }
    }
    for r in references {
        fights(catalog, r, opts).map_err(Failure::input)?;
        if !units.contains(r) {
            units.push(r.clone());
        }
    }
    Ok((units, left_out))
}

/// The command that reproduces the balance (without `--shard`, `--out` and `-q`).
fn command(a: &BalanceArgs, options: &[String]) -> String {
    let mut c = vec!["diemon".to_string(), "balance".into()];
    let mut flag = |f: &str, v: String| c.extend([f.to_string(), v]);
    if let Some(x) = &a.catalog {
        flag("--catalog", x.display().to_string());
    }
    if !a.units.is_empty() {
        flag("--units", a.units.join(","));
    }
    if let Some(x) = &a.formula {
        flag("--formula", x.display().to_string());
    }
    let fit: Vec<String> = a.fit.iter().flat_map(|p| &p.0).map(Axis::name).collect();
    if !fit.is_empty() {
        flag("--fit", fit.join(","));
    }
    for r in &a.references {
        flag("--reference", r.clone());
    }
    for d in &a.distances {
        flag("--distance", d.to_string());
    }
    for f in &a.formations {
        flag("--formation", f.to_string());
    }
    for t in &a.tables {
        flag("--table", t.clone());
    }
    if a.target_ci != TARGET_CI {
        flag("--target-ci", a.target_ci.to_string());
    }
    if a.trials != TRIALS {
        flag("--trials", a.trials.to_string());
    }
    if a.seed != 1 {
        flag("--seed", a.seed.to_string());
    }
    if a.tolerance != 10.0 {
        flag("--tolerance", a.tolerance.to_string());
    }
    if a.conduct != Mode::Competent {
        flag("--conduct", "fixed".into());
    }
    for o in options {
        flag("-o", o.clone());
    }
    c.join(" ")
}

/// The same balance as an experiment file (`kind = "price"`), for the report's record.
fn roster_text(name: &str, units: &[String], p: &Pricing) -> String {
    let mut price = toml::Table::new();
    let list = |xs: Vec<toml::Value>| toml::Value::Array(xs);
    price.insert(
        "units".into(),
        list(units.iter().map(|u| u.clone().into()).collect()),
    );
    price.insert(
        "references".into(),
        list(p.references.iter().map(|u| u.clone().into()).collect()),
    );
    price.insert(
        "distances".into(),
        list(p.distances.iter().map(|d| i64::from(*d).into()).collect()),
    );
    price.insert(
        "formations".into(),
        list(p.formations.iter().map(|f| f.clone().into()).collect()),
    );
    if p.tables != crate::experiment::price::plane() {
        price.insert(
            "tables".into(),
            list(p.tables.iter().map(|t| t.clone().into()).collect()),
        );
    }
    if let Some(c) = &p.catalog {
        price.insert("catalog".into(), c.display().to_string().into());
    }
    price.insert("tolerance".into(), (p.tolerance * 100.0).into());
    let mut t = toml::Table::new();
    t.insert("name".into(), name.into());
    t.insert("kind".into(), "price".into());
    t.insert("seed".into(), (p.seed as i64).into());
    t.insert("trials".into(), (p.trials as i64).into());
    if let Some(ci) = p.target_ci {
        t.insert("target_ci".into(), ci.into());
    }
    if !p.options.is_empty() {
        let o: toml::Table = p
            .options
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into()))
            .collect();
        t.insert("options".into(), o.into());
    }
    t.insert("price".into(), price.into());
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        a: BalanceArgs,
    }

    #[test]
    fn every_built_in_unit_that_can_fight_is_balanced_and_the_rest_are_said() {
        let a = Line::parse_from(["balance"]).a;
        let refs: Vec<String> = REFERENCES.iter().map(|r| r.to_string()).collect();
        let (units, out) = chosen(&a, &Catalog::builtin(), &refs, &RuleOptions::default()).unwrap();
        // experiments/price-catalog.toml lists the same 33 units, by hand.
        let text = include_str!("../../experiments/price-catalog.toml");
        let listed = crate::experiment::price::roster::parse("p.toml", text, None).unwrap();
        assert_eq!(units, listed.units);
        let why: Vec<(&str, &str)> = out.iter().map(|(u, w)| (u.as_str(), w.as_str())).collect();
        assert!(why.contains(&("civilian", "carries no weapon")), "{why:?}");
        assert!(why.contains(&("gunner", "only crews its side's mounted gun (Ch. 8.5)")));
        assert!(
            why.iter()
                .any(|(u, w)| *u == "4pion" && w.contains("summoned"))
        );
    }
}
