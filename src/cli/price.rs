//! `diemon price UNIT`: what a unit should cost, fitted against several references over
//! several starting distances ([`crate::experiment::price`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::progress::Cells;
use super::{Failure, io};
use crate::experiment::error::Drive;
use crate::experiment::price::conduct::Mode;
use crate::experiment::price::parts::price_parts;
use crate::experiment::price::sensitivity::{
    Keep, Sensitivity, rulings, run_readings, sensitivity,
};
use crate::experiment::price::{
    DISTANCES, FORMATIONS, Priced, Pricing, REFERENCES, TARGET_CI, file_name, page, plan, price,
    shard,
};
use crate::question::run::{check_threads, parse_trials};
use crate::scenario::squad::policy::Formation;
use crate::sim::engine::Shard;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon price hero-hand-weapon
  diemon price ogre --catalog catalogs/example.toml --target-ci 0.02
  diemon price minifig+heavy-weapon --reference minifig-hand-weapon --distance 12 --formation line
  diemon price knight --catalog catalogs/knight.toml --parts

A scenario is a reference, a formation (both sides), a table (--table; by default none) and a
starting distance: by default 3 x 2 x 1 x 3 = 18. Each reference, formation and table is a
fair-CP experiment of its own (`kind = \"fair-cp\"`, docs/experiments.md), written with its
frames and report to DIR/REFERENCE/FORMATION/ (FORMATION-on-TABLE/ on a table), and the search adds counts beside it (round-R-Din/) until each
crossing lies between neighbouring whole counts. Each side picks its conduct (spacing,
Bailing) from a menu of answers to the enemy's weapons, every pair of conducts fought on the
same dice, and a cell's win chance is the value of that game (--conduct fixed: the default
policies). A scenario's price is the CP of the references the unit is worth where it wins
half its fights (draws count half), read from the falling curve through its cells; a
scenario whose cells rise and fall beyond the dice has no reliable price and says why. The
card price is the median of the scenarios' prices with its 95% CI, and the verdict sets the
listed CP against it within --tolerance. DIR/report.html puts the whole price on one page.
docs/pricing.md says what the price means.")]
pub struct PriceArgs {
    /// The unit to price: a catalog unit, with any armory items (`hero+heavy-weapon`).
    #[arg(value_name = "UNIT")]
    pub unit: String,
    /// A catalog file (TOML) whose units are added to the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
    /// A reference unit to price against (repeatable; default: minifig-hand-weapon,
    /// minifig-rifle and hero-hand-weapon).
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
    /// What both sides stand on: plane (no table: the sides on one line) or a named table
    /// (open, scattered, wall-line, town): the fronts each distance apart with 12" behind
    /// each (as on the plane), the terrain between them, 48" across or as wide as the
    /// widest line needs. On a table each side may also walk from cover to cover
    /// against shooters, or spread out against Explosives (repeatable; default: plane).
    #[arg(long = "table", value_name = "TABLE", value_parser = table_name)]
    pub tables: Vec<String>,
    /// Run each cell that can move the price until its win chance's 95% CI is within +-X
    /// (a cell far from the crossing, or that cannot set its count's value, stops at 256,
    /// 1,024 or 4,096 trials).
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
    /// Where to write (default: reports/price-UNIT).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The verdict's tolerance: the listed cost is fair when the card price's 95% CI comes
    /// within this many percent of it.
    #[arg(long, value_name = "PCT", default_value_t = 10.0)]
    pub tolerance: f64,
    /// How each side chooses its conduct: competent (each side picks from its menu, as a
    /// skilled player would, and a cell's win chance is the value of the game: against a
    /// Launcher the swarm spreads out or Bails) or fixed (both keep the default policies).
    #[arg(long, value_enum, default_value_t = Mode::Competent)]
    pub conduct: Mode,
    /// Also re-price under each other reading of every rule option that touches these
    /// battles, and draw how far each moves the price (a tornado chart, biggest first).
    #[arg(long)]
    pub sensitivity: bool,
    /// With --sensitivity: keep each reading's experiments whole (cells, frames, charts and
    /// pages). By default a reading keeps its prices frame and the record a rerun reads, and
    /// a unit's sensitivity folder stays under a MB.
    #[arg(long, requires = "sensitivity")]
    pub keep_readings: bool,
    /// Also price the unit without each of its priced parts (each weapon and item, Skill
    /// above d6, Move above 5 inches, SuperNatural dice): each part's listed CP beside its
    /// worth in battle, with its 95% CI.
    #[arg(long)]
    pub parts: bool,
    /// Run only shard I of N (1-based), for a cluster: whole families of scenarios (a
    /// reference, a formation and a table) and readings, dealt in turn. `diemon merge` the shards'
    /// folders to price it, exactly as one machine does.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(
    a: &PriceArgs,
    options: &[String],
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    check_threads(a.threads)?;
    if !(a.target_ci > 0.0 && a.target_ci < 0.5) {
        return Err(Failure::input(format!(
            "--target-ci {}: expected a half-width of a win chance, above 0 and below 0.5\n\
             hint: 0.01 (the default) runs about 9,600 trials a cell near an even fight",
            a.target_ci
        )));
    }
    if !(0.0..100.0).contains(&a.tolerance) {
        return Err(Failure::input(format!(
            "--tolerance {}: expected a percentage of the listed cost, from 0 up to 100\n\
             hint: 10 (the default) calls a 13-CP unit fair when its card price reaches 11.7 \
             to 14.3 CP",
            a.tolerance
        )));
    }
    let p = Pricing {
        conduct: a.conduct,
        tolerance: a.tolerance / 100.0,
        unit: a.unit.clone(),
        catalog: a.catalog.clone(),
        references: if a.references.is_empty() {
            REFERENCES.iter().map(|r| r.to_string()).collect()
        } else {
            a.references.clone()
        },
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
        // Checked by the command line already: each is KEY=VALUE.
        options: options
            .iter()
            .filter_map(|o| o.split_once('='))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect(),
        reports: true,
        seed: a.seed,
    };
    let w = Whole {
        sensitivity: a.sensitivity,
        keep_readings: a.keep_readings,
        parts: a.parts,
        command: command(a, options, true),
        base_command: command(a, &[], false),
    };
    if let Some(s) = a.shard {
        return run_shard(a, &p, &w, s, cancel, out);
    }
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports").join(format!("price-{}", file_name(&a.unit))));
    whole(&p, &w, &dir, a.threads, a.quiet, cancel, out)
}

/// What a whole price does beside pricing `p`, and the commands its files record.
#[derive(Clone, Debug)]
pub struct Whole {
    pub sensitivity: bool,
    pub keep_readings: bool,
    pub parts: bool,
    /// The command as typed (without `--shard` and `--out`).
    pub command: String,
    /// The same with no `-o`, `--sensitivity` or `--parts`: each reading's frame adds its
    /// options to it.
    pub base_command: String,
}

/// Prices `p` into `dir` as `w` says, with its page: as one machine does, or after a merge
/// of shards (whose cells are all kept, so nothing is fought again).
pub fn whole(
    p: &Pricing,
    w: &Whole,
    dir: &std::path::Path,
    threads: Option<usize>,
    quiet: bool,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    // The folder is held from the first line to the page: a second price into it is
    // refused before it runs anything.
    let _held = crate::experiment::lock::lock(dir)?;
    io(writeln!(out, "pricing {} {}", p.unit, p.describe()))?;
    let _guard = super::interrupt::Guard::new();
    let watch = Cells::new(quiet);
    let priced = price(p, dir, threads, &watch, cancel, out)?;
    io(out.write_all(text(&priced).as_bytes()))?;
    let sensitivity = if w.sensitivity {
        let keep = Keep {
            whole: w.keep_readings,
            command: &w.base_command,
        };
        let drive = Drive {
            threads,
            quiet,
            watch: &watch,
            cancel,
        };
        Some(sensitivity(p, &priced, dir, keep, drive, out)?)
    } else {
        None
    };
    if let Some(s) = &sensitivity {
        io(out.write_all(tornado_text(s).as_bytes()))?;
    }
    let parts = if w.parts {
        Some(price_parts(
            p,
            priced.card.map(|c| c.price),
            dir,
            threads,
            cancel,
            out,
        )?)
    } else {
        None
    };
    page::write(
        dir,
        &priced,
        sensitivity.as_ref(),
        parts.as_deref(),
        &w.command,
    )?;
    io(writeln!(
        out,
        "report: {}",
        dir.join("report.html").display()
    ))
}

/// Shard `s` of the price `p` (issue 39, item 7): its share of the families and readings
/// ([`crate::experiment::price::shard`]), and the record `diemon merge` reads.
fn run_shard(
    a: &PriceArgs,
    p: &Pricing,
    w: &Whole,
    s: Shard,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if w.parts {
        return Err(Failure::input(
            "--shard with --parts: a part's price is a price of its own, not dealt to shards\n\
             hint: shard the price alone, merge it, then run --parts on one machine (the \
             price's cells are kept)",
        ));
    }
    let dir = a.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(format!(
            "price-{}-shard-{}-of-{}",
            file_name(&a.unit),
            s.index + 1,
            s.count
        ))
    });
    let _held = crate::experiment::lock::lock(&dir)?;
    let plan = plan(p)?;
    io(writeln!(
        out,
        "pricing {} {}; shard {s}",
        p.unit,
        p.describe()
    ))?;
    let _guard = super::interrupt::Guard::new();
    let watch = Cells::new(a.quiet);
    let families = shard::run_families(&[(p, &plan, dir.clone())], s, a.threads, &watch, cancel)?;
    let mut readings = 0;
    if w.sensitivity {
        let all = crate::experiment::price::sensitivity::readings(&p.options);
        let keep = Keep {
            whole: w.keep_readings,
            command: &w.base_command,
        };
        let share = Some((s, plan.fits.len()));
        for r in run_readings(
            p,
            plan.listed,
            &all,
            share,
            &dir,
            keep,
            Drive {
                threads: a.threads,
                quiet: a.quiet,
                watch: &watch,
                cancel,
            },
        )? {
            readings += usize::from(r?.is_some());
        }
    }
    shard::write(
        &dir,
        &shard::Record {
            shard: s.to_string(),
            key: shard::key(&[&plan]),
            job: shard::Job::Price {
                pricing: p.clone(),
                sensitivity: w.sensitivity,
                keep_readings: w.keep_readings,
                command: w.command.clone(),
                base_command: w.base_command.clone(),
            },
        },
    )?;
    io(writeln!(
        out,
        "shard {s}: {families} of {} families{} kept in {}\nhint: `diemon merge` every \
         shard's folder to price it (nothing is fought again)",
        plan.fits.len(),
        if w.sensitivity {
            format!(" and {readings} readings")
        } else {
            String::new()
        },
        dir.display()
    ))
}

/// A `--table`: plane or a named layout (`price` and `balance` alike).
pub(super) fn table_name(s: &str) -> Result<String, String> {
    crate::experiment::price::table_name(s).map(|()| s.to_string())
}

/// The command that prices it again, as typed (`extras`: with `--sensitivity` and `--parts`
/// as given).
fn command(a: &PriceArgs, options: &[String], extras: bool) -> String {
    let mut c = vec!["diemon".to_string(), "price".into(), a.unit.clone()];
    let mut flag = |f: &str, v: String| c.extend([f.to_string(), v]);
    if let Some(x) = &a.catalog {
        flag("--catalog", x.display().to_string());
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
    flag("--target-ci", a.target_ci.to_string());
    flag("--trials", a.trials.to_string());
    flag("--seed", a.seed.to_string());
    if a.tolerance != 10.0 {
        flag("--tolerance", a.tolerance.to_string());
    }
    if a.conduct != Mode::Competent {
        flag("--conduct", "fixed".into());
    }
    for o in options {
        flag("-o", o.clone());
    }
    if extras && a.sensitivity {
        c.push("--sensitivity".into());
        if a.keep_readings {
            c.push("--keep-readings".into());
        }
    }
    if extras && a.parts {
        c.push("--parts".into());
    }
    c.join(" ")
}

/// The readings that moved the price, out of the grid first, then the biggest, and those
/// that need a ruling.
fn tornado_text(s: &Sensitivity) -> String {
    let mut t = format!(
        "\nsensitivity: card price {:.2} CP under the defaults; by reading (each against the \
         defaults over the scenarios both price), out of the grid first, then the biggest \
         shift\n",
        s.base
    );
    for r in &s.shifts {
        t.push_str(&format!(
            "  {:<32} {}\n",
            format!("{}={}", r.option, r.value),
            match &r.shift {
                Ok(m) => m.text(),
                Err(why) => why.to_string(),
            }
        ));
    }
    let need = rulings(s);
    if need.is_empty() {
        t.push_str("no reading moves the price beyond its CI\n");
    } else {
        t.push_str(&format!(
            "most in need of a ruling: {}\n",
            need.iter()
                .map(|r| format!("{} ({})", r.option, r.source))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    if !s.untouched.is_empty() {
        t.push_str(&format!(
            "not re-priced (no probe battle changed): {}\n",
            s.untouched.join(", ")
        ));
    }
    t
}

/// The prices, their spread and the verdict.
fn text(r: &Priced) -> String {
    let mut s = format!(
        "\n{} (listed {} CP): fair CP by scenario, 95% CI of the dice\n",
        r.unit, r.listed
    );
    let at_of = |sc: &crate::experiment::price::ScenarioPrice| match sc.table.as_str() {
        crate::experiment::price::PLANE => format!("{}, {}\" apart", sc.formation, sc.distance),
        t => format!("{}, {}\" apart on {t}", sc.formation, sc.distance),
    };
    // One column for the scenarios, as wide as the widest.
    let w = r
        .scenarios
        .iter()
        .map(|sc| at_of(sc).len())
        .max()
        .unwrap_or(0)
        .max(18);
    for sc in &r.scenarios {
        let at = at_of(sc);
        match &sc.price {
            Ok([p, lo, hi]) => s.push_str(&format!(
                "  against {:<22} {at:<w$} {p:>7.2} CP  [{lo:.2}, {hi:.2}]{}{}\n",
                sc.reference,
                page::fit_warning(sc)
                    .map(|w| format!("  ({w})"))
                    .unwrap_or_default(),
                sc.note
                    .as_ref()
                    .map(|n| format!("\n      {n}"))
                    .unwrap_or_default()
            )),
            Err(why) => s.push_str(&format!(
                "  against {:<22} {at:<w$} no price: {why}\n",
                sc.reference
            )),
        }
        if let Some(c) = &sc.conduct {
            s.push_str(&format!("      conduct: {c}\n"));
        }
    }
    s.push_str(&format!("\ncard price: {}\n", page::card_text(r)));
    s.push_str(&format!("verdict: {}\n", page::verdict_text(r)));
    // A price must be a price of the rules: what it pays for and never uses, beside it.
    for x in &r.inert {
        s.push_str(&format!("  inert in these battles: {x}\n"));
    }
    let unpriced = r.scenarios.iter().filter(|s| s.price.is_err()).count();
    if unpriced > 0 {
        s.push_str(&format!(
            "  ({unpriced} scenario{} gave no price: one beyond the grid counts at its bound, \
             one whose curve misses its cells is left out)\n",
            crate::plural::s(unpriced),
        ));
    }
    s
}
