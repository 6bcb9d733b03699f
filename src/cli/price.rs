//! `diemon price UNIT`: what a unit should cost, fitted against several references over
//! several starting distances ([`crate::experiment::price`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::progress::Cells;
use super::{Failure, io};
use crate::experiment::price::{DISTANCES, Priced, Pricing, REFERENCES, Verdict, price};
use crate::question::run::{check_threads, parse_trials};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon price hero-hand-weapon
  diemon price ogre --catalog catalogs/example.toml --trials 5000
  diemon price minifig+heavy-weapon --reference minifig-hand-weapon --distance 12

Each reference is a fair-CP experiment of its own (`kind = \"fair-cp\"`, docs/experiments.md),
written with its frames and report to DIR/REFERENCE/. A scenario's price is the CP of the
references the unit is worth where it wins half its fights (draws count half); the spread
across scenarios is how far the choice of battle moves it, beside the dice's 95% CI.
docs/pricing.md says what the price means and what the verdict needs.")]
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
    /// Trials a cell (accepts 1e4, 20k).
    #[arg(long, value_parser = parse_trials, default_value = "20000")]
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
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(a: &PriceArgs, cancel: &AtomicBool, out: &mut dyn Write) -> Result<(), Failure> {
    check_threads(a.threads)?;
    let p = Pricing {
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
        trials: a.trials,
        seed: a.seed,
    };
    let dir = a.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(format!(
            "price-{}",
            a.unit
                .replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_")
        ))
    });
    io(writeln!(
        out,
        "pricing {} against {} at {}\" apart, {} trials a cell, seed {}",
        p.unit,
        p.references.join(", "),
        p.distances
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join("\", "),
        p.trials,
        p.seed
    ))?;
    let priced = {
        let _guard = super::interrupt::Guard::new();
        let watch = Cells::new(a.quiet);
        price(&p, &dir, a.threads, &watch, cancel, out)?
    };
    io(out.write_all(text(&priced).as_bytes()))
}

/// The prices, their spread and the verdict.
fn text(r: &Priced) -> String {
    let mut s = format!(
        "\n{} (listed {} CP): fair CP by scenario, 95% CI of the dice\n",
        r.unit, r.listed
    );
    for sc in &r.scenarios {
        let at = format!("{}\" apart", sc.distance);
        match &sc.price {
            Ok([p, lo, hi]) => s.push_str(&format!(
                "  against {:<22} {at:>11}  {p:>7.2} CP  [{lo:.2}, {hi:.2}]{}\n",
                sc.reference,
                fit_warning(sc.cells, sc.p_fit)
            )),
            Err(why) => s.push_str(&format!(
                "  against {:<22} {at:>11}  no price: {why}\n",
                sc.reference
            )),
        }
    }
    let listed = r.listed.as_f64();
    match r.spread() {
        Some([lo, hi]) => s.push_str(&format!(
            "\nspread across the scenarios: {lo:.2} to {hi:.2} CP ({:.2} CP that the battle, not \
             the dice, decides)\n",
            hi - lo
        )),
        None => s.push_str("\nno scenario gave a price\n"),
    }
    s.push_str(&match &r.verdict {
        Verdict::Fair => format!(
            "verdict: fair: the listed {listed} CP lies within the prices of these scenarios\n"
        ),
        Verdict::OverPriced { by: [near, far] } => format!(
            "verdict: over-priced by {near:.2} to {far:.2} CP: the listed {listed} CP is above \
             every scenario's price and its 95% CI\n"
        ),
        Verdict::UnderPriced { by: [near, far] } => format!(
            "verdict: under-priced by {near:.2} to {far:.2} CP: the listed {listed} CP is below \
             every scenario's price and its 95% CI\n"
        ),
        Verdict::Unknown => "verdict: none: no scenario gave a price\n".to_string(),
    });
    let unpriced = r.scenarios.iter().filter(|s| s.price.is_err()).count();
    if unpriced > 0 {
        s.push_str(&format!(
            "  ({unpriced} scenario{} gave no price and {} not in the spread or the verdict: \
             see above)\n",
            if unpriced == 1 { "" } else { "s" },
            if unpriced == 1 { "is" } else { "are" }
        ));
    }
    s.push_str(&format!(
        "reports: {}\n",
        r.folders
            .iter()
            .map(|f| f.join("report.html").display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    s
}

/// A warning beside a price whose fit rests on few cells or misses them.
fn fit_warning(cells: usize, p_fit: f64) -> String {
    if cells < 4 {
        format!("  (fit to {cells} cells: too few to test the curve)")
    } else if p_fit < 0.001 {
        format!("  (the curve misses its cells: p = {p_fit:.1e})")
    } else {
        String::new()
    }
}
