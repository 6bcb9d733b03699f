//! The cost formula the battles imply (issue 41, item 3; `diemon balance --fit`).
//!
//! Each part of the formula is priced along its own axis: designed variants of one base
//! unit, the minifig with a Hand Weapon, that differ from it in that part alone (Move 3" to
//! 10", Skill d6 to d12, no armour to Heavy Armor, Size 1 to 3, a weapon kind at Weapon Size
//! 1 to 4 in place of the Hand Weapon, borne by the base at Size 3: Ch. 8.1 lets a Size 1
//! minifig hold no gun over 1.5" and no melee weapon over 2"). Every variant is priced as a
//! catalog unit is, by the same method, scenarios and seeds, into `DIR/formula/units/`; the
//! variants are entries of `DIR/formula/catalog.toml`, written first (the way `--parts`
//! writes its own).
//!
//! A part's worth per step is the slope of the variants' card prices over their steps, a
//! weighted least-squares line ([`crate::analysis::slope`]) with its 95% CI; beside it is
//! what the formula charges per step, the slope of the variants' costs. The fitted worths
//! are written as a formula file (`implied-formula.toml`) that `--formula` reads back.
//!
//! - [`axis`]: the parts and their designed variants.
//! - [`sheet`]: the lines, frames, implied formula and charts.

pub mod axis;
pub mod sheet;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

pub use axis::{ALL, Axis, BEARER_SIZE, NoPart, Step, Trait, group};

use super::roster::{Roster, price_all};
use super::{Pricing, fights};
use crate::analysis::slope::{self, Line};
use crate::experiment::error::{Drive, RunError, io};
use diemon_core::catalog::cost::recost;
use diemon_core::catalog::formula::Formula;
use diemon_core::catalog::unit::UnitSpec;
use diemon_core::sim::CONFIDENCE;
use diemon_core::sim::estimate::z;

/// The unit every variant is made from.
pub const BASE: &str = "minifig-hand-weapon";

/// One variant: its step, key, cost under the rules and card price `[point, lo, hi]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The step.
    pub x: u32,
    /// The variant's catalog key.
    pub unit: String,
    /// Its cost under the rules, in CP.
    pub cost: f64,
    /// Its card price `[point, lo, hi]`, if it has one.
    pub price: Option<[f64; 3]>,
    /// What it pays CP for and never uses in these battles ([`super::inert`]).
    pub inert: Vec<String>,
}

/// One part's fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The part.
    pub axis: Axis,
    /// Its variants, by step.
    pub points: Vec<Point>,
    /// Variants that could not fight, with why.
    pub left_out: Vec<(String, String)>,
    /// The line through the card prices, or why there is none.
    pub worth: Result<Line, String>,
    /// What the rules charge per step (the slope of the costs).
    pub charged: Option<f64>,
}

impl Part {
    /// Its worth per step `[point, lo, hi]` (95%).
    pub fn worth(&self) -> Option<[f64; 3]> {
        let l = self.worth.as_ref().ok()?;
        let h = z(CONFIDENCE) * l.se;
        Some([l.slope, l.slope - h, l.slope + h])
    }
}

/// Every part's fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// Each part fitted.
    pub parts: Vec<Part>,
}

/// Writes the variants of `r.fit`'s parts, prices them into `dir/formula/` and fits each
/// part's worth per step.
pub fn run(r: &Roster, dir: &Path, drive: Drive, out: &mut dyn Write) -> Result<Fitted, RunError> {
    let p = &r.pricing;
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    let base = catalog
        .get(BASE)
        .ok_or_else(|| RunError::input(format!("the formula fit needs {BASE}")))?
        .spec
        .clone();
    let steps: Vec<(Axis, Vec<Step>)> = r.fit.iter().map(|a| (*a, a.steps(&base))).collect();
    let folder = dir.join("formula");
    let (file, mut cannot) = write_variants(p, &steps, &folder)?;
    let variants = crate::question::catalog(Some(&file), None)?;
    let mut opts = diemon_core::options::RuleOptions::default();
    for (k, v) in &p.options {
        opts.set(k, v).map_err(|e| RunError::input(e.to_string()))?;
    }
    // Those that can fight, once each (the base stands on several axes).
    let mut units: Vec<String> = Vec::new();
    for (_, s) in &steps {
        for (_, key, _) in s {
            if cannot.contains_key(key) {
                continue;
            }
            match fights(&variants, key, &opts) {
                Ok(()) if !units.contains(key) => units.push(key.clone()),
                Ok(()) => {}
                Err(why) => {
                    let first = why.lines().next().unwrap_or_default();
                    cannot.insert(key.clone(), first.to_string());
                }
            }
        }
    }
    io(writeln!(
        out,
        "\nformula: pricing {} designed variants of {BASE} ({}) into {}",
        units.len(),
        r.fit.iter().map(Axis::name).collect::<Vec<_>>().join(", "),
        folder.display()
    ))?;
    let fit = Roster {
        name: "formula".into(),
        description: String::new(),
        units,
        pricing: Pricing {
            catalog: Some(file),
            ..p.clone()
        },
        text: String::new(),
        file: "the formula fit".into(),
        formula: None,
        command: None,
        fit: Vec::new(),
    };
    let priced = price_all(&fit, &folder, drive, out)?;
    let price_of = |key: &str| {
        priced
            .iter()
            .find(|x| x.unit == key)
            .and_then(|x| x.card.map(|c| c.price))
    };
    let rules = Formula::rules();
    let parts = steps
        .into_iter()
        .map(|(axis, s)| {
            let mut points = Vec::new();
            let mut left_out = Vec::new();
            for (x, key, _) in s {
                if let Some(why) = cannot.get(&key) {
                    left_out.push((key, why.clone()));
                    continue;
                }
                let u = variants
                    .equipped(&key)
                    .map_err(|e| RunError::other(e.to_string()))?;
                points.push(Point {
                    x,
                    cost: recost(&u, &rules),
                    price: price_of(&key),
                    inert: super::inert(&variants, &key, &opts).map_err(RunError::other)?,
                    unit: key,
                });
            }
            Ok(part(axis, points, left_out))
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    let fitted = Fitted { parts };
    io(out.write_all(fitted.text().as_bytes()))?;
    Ok(fitted)
}

/// Writes `folder/catalog.toml`: the pricing's catalog and every variant of `steps` the
/// rules allow. Returns the file and the variants refused, with why (a weapon too long for
/// its bearer's hands).
fn write_variants(
    p: &Pricing,
    steps: &[(Axis, Vec<Step>)],
    folder: &Path,
) -> Result<(std::path::PathBuf, BTreeMap<String, String>), RunError> {
    let own = match &p.catalog {
        Some(f) => Some(std::fs::read_to_string(f).map_err(|e| {
            RunError::input(format!("cannot read the catalog {}: {e}", f.display()))
        })?),
        None => None,
    };
    let mut cannot = BTreeMap::new();
    let mut entries: BTreeMap<&str, &UnitSpec> = BTreeMap::new();
    for (key, spec) in steps
        .iter()
        .flat_map(|(_, s)| s.iter())
        .filter_map(|(_, key, spec)| spec.as_ref().map(|s| (key, s)))
    {
        match spec.resolve(key) {
            Ok(_) => {
                entries.insert(key, spec);
            }
            Err(es) => {
                cannot.insert(key.clone(), es[0].to_string());
            }
        }
    }
    std::fs::create_dir_all(folder)
        .map_err(|e| RunError::other(format!("cannot create {}: {e}", folder.display())))?;
    let file = crate::export::write_text_atomic(
        folder,
        "catalog.toml",
        &super::parts::catalog_text(
            "`diemon balance --fit`: the catalog, then the formula fit's designed variants",
            own.as_deref(),
            &entries,
        )?,
    )?;
    Ok((file, cannot))
}

/// Removes a previous fit's files from `dir` (its frames, formula and charts), for a run
/// without `--fit`: nothing stale stays beside the new page. Its cells stay.
pub fn clear(dir: &Path) -> Result<(), RunError> {
    let gone = |p: std::path::PathBuf| match std::fs::remove_file(&p) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(RunError::other(format!(
            "cannot remove {}: {e}",
            p.display()
        ))),
        _ => Ok(()),
    };
    for stem in ["formula", "variants"] {
        for ext in ["csv", "parquet"] {
            gone(dir.join(format!("{stem}.{ext}")))?;
        }
    }
    gone(dir.join(IMPLIED))?;
    if let Ok(charts) = std::fs::read_dir(dir.join("charts")) {
        for e in charts.flatten() {
            if e.file_name().to_string_lossy().starts_with("formula-") {
                gone(e.path())?;
            }
        }
    }
    Ok(())
}

/// The file the implied formula is written to.
pub const IMPLIED: &str = "implied-formula.toml";

/// The fit of one axis's priced points.
fn part(axis: Axis, points: Vec<Point>, left_out: Vec<(String, String)>) -> Part {
    let z = z(CONFIDENCE);
    let priced: Vec<slope::Point> = points
        .iter()
        .filter_map(|p| {
            let [y, lo, hi] = p.price?;
            (y.is_finite() && y > 0.0).then_some((p.x as f64, y, (hi - lo) / (2.0 * z)))
        })
        .collect();
    let worth = if priced.len() < points.len() {
        Err(format!(
            "{} of {} variants have no finite card price",
            points.len() - priced.len(),
            points.len()
        ))
    } else {
        slope::fit(&priced).ok_or_else(|| "fewer than two variants to fit".to_string())
    };
    let costs: Vec<slope::Point> = points.iter().map(|p| (p.x as f64, p.cost, 1.0)).collect();
    Part {
        axis,
        charged: slope::fit(&costs).map(|l| l.slope),
        points,
        left_out,
        worth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diemon_core::catalog::weapon::WeaponKind;

    #[test]
    fn a_part_s_worth_is_the_slope_of_its_prices_and_its_charge_that_of_its_costs() {
        // Prices 5.5, 6, 6.5 CP at Move 4, 5, 6 (each +-0.1): worth 0.5 CP an inch, and the
        // costs 5.5, 6, 6.5 charge 0.5 too.
        let pt = |x: u32, y: f64| Point {
            x,
            unit: format!("u{x}"),
            cost: 6.0 + 0.5 * (x as f64 - 5.0),
            price: Some([y, y - 0.1 * z(0.95), y + 0.1 * z(0.95)]),
            inert: Vec::new(),
        };
        let p = part(
            Axis::Move,
            vec![pt(4, 5.5), pt(5, 6.0), pt(6, 6.5)],
            Vec::new(),
        );
        let [w, lo, hi] = p.worth().unwrap();
        assert!((w - 0.5).abs() < 1e-9, "{p:?}");
        let h = z(0.95) * 0.1 / 2f64.sqrt();
        assert!((lo - (0.5 - h)).abs() < 1e-9 && (hi - (0.5 + h)).abs() < 1e-9);
        assert!((p.charged.unwrap() - 0.5).abs() < 1e-12);
        // A variant without a price leaves the part without a fit, and says why.
        let mut none = pt(7, 7.0);
        none.price = None;
        let q = part(Axis::Move, vec![pt(4, 5.5), none], Vec::new());
        assert!(q.worth().is_none());
        assert!(q.worth.unwrap_err().contains("1 of 2 variants"));
        // The implied formula reads back as a formula.
        let mut falling = part(
            Axis::Weapon(WeaponKind::Gun),
            vec![pt(1, 9.0), pt(2, 8.0)],
            Vec::new(),
        );
        falling.charged = Some(3.0);
        // A trait that does nothing says so beside its worth, and its reading stays a comment.
        let mut master = pt(1, 6.0);
        master.inert = vec!["Specialty: master (1 CP): no Thrall on its side".into()];
        let idle = part(
            Axis::Trait(Trait::Master),
            vec![pt(0, 6.0), master],
            Vec::new(),
        );
        let f = Fitted {
            parts: vec![p, falling, idle],
        };
        // Each part's figures start in one column, whatever the length of its name.
        let mind = part(
            Axis::HalfMind(diemon_core::catalog::unit::Mind::Incompetent),
            vec![pt(0, 5.0), pt(1, 6.0)],
            Vec::new(),
        );
        let wide = Fitted {
            parts: vec![f.parts[0].clone(), mind],
        };
        let columns: Vec<usize> = wide
            .text()
            .lines()
            .skip(1)
            .filter_map(|l| l.find(" worth "))
            .collect();
        assert_eq!(columns, [18, 18], "{}", wide.text());
        assert!(f.text().contains(
            "inert in these battles: u1: Specialty: master (1 CP): no Thrall on its side"
        ));
        assert!(
            f.implied().contains("# master: worth 0.0000"),
            "{}",
            f.implied()
        );
        assert_eq!(
            f.frame()
                .unwrap()
                .column("inert")
                .unwrap()
                .str()
                .unwrap()
                .get(2),
            Some("u1: Specialty: master (1 CP): no Thrall on its side")
        );
        let back = Formula::parse("implied.toml", &f.implied()).unwrap();
        assert!((back.ground_move - 0.5).abs() < 1e-4);
        // A part worth less with each step is charged 0, its slope in the comment.
        assert_eq!(back.weapon_size["gun"], 0.0);
        assert!(
            f.implied().contains("the battles say -1.0000"),
            "{}",
            f.implied()
        );
    }
}
