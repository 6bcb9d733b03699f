//! What each part of a unit is worth in battle (`diemon price UNIT --parts`): the unit is
//! priced again without each of its priced parts, and a part's worth is the card price it
//! takes away, beside the CP the rules list for it. Two columns of a stat card.
//!
//! The parts are what the CP breakdown charges for beyond the body: each weapon and armory
//! item (armour and shields are items), each SuperNatural die, a Master's or Thrall's
//! Specialty, the Skill die above d6 (its Boosts) and the Move above 5" (a minifig's). A
//! unit without a part is written as a catalog entry of its own (`DIR/parts/catalog.toml`,
//! the unit's catalog and the variants), and priced like any unit, by the same method, seeds
//! and scenarios, into `DIR/parts/without-N/`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::{Pricing, price};
use crate::experiment::error::{RunError, Unwatched, io};
use diemon_core::catalog::cost::{movement, sn_die};
use diemon_core::catalog::unit::UnitSpec;
use diemon_core::catalog::{Cp, Unit};

/// The Move a part's worth is counted above: a minifig's 5".
pub const BASE_MOVE: u32 = 5;

/// One priced part of a unit, and the unit without it.
#[derive(Clone, Debug)]
pub struct Part {
    /// As the breakdown names it: "Horse Heavy Armor", "Move above 5\"".
    pub label: String,
    /// The CP the rules list for it.
    pub listed: Cp,
    /// The catalog key of the unit without it.
    pub key: String,
    /// The unit's card without it.
    pub without: UnitSpec,
}

/// The priced parts of `u` (the unit `name` as equipped).
pub fn parts(u: &Unit) -> Vec<Part> {
    let s = &u.spec;
    let mut out = Vec::new();
    let mut add = |label: String, listed: Cp, without: UnitSpec| {
        let slug: String = label
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let key = format!("without-{}-{slug}", out.len() + 1);
        let mut without = without;
        without.name = format!("{} without {label}", s.name);
        out.push(Part {
            label,
            listed,
            key,
            without,
        });
    };
    for (i, w) in u.weapons.iter().enumerate() {
        let Some(cost) = w.cost().filter(|c| *c > Cp::ZERO) else {
            continue;
        };
        let mut v = s.clone();
        v.weapons.remove(i);
        add(w.name(), cost, v);
    }
    // A listed unit's price covers its body, Move, Mind and Skill: only its weapons are parts.
    if s.listed_cp.is_none() {
        if u.boosts > 0 {
            let mut v = s.clone();
            v.skill = "d6".into();
            add(
                format!("Skill 1{} (above d6)", u.skill),
                Cp::whole(s.size.max(1) as i64) * u.boosts as i64,
                v,
            );
        }
        if s.move_inches > BASE_MOVE {
            let mut v = s.clone();
            v.move_inches = BASE_MOVE;
            let listed = movement(s.move_inches, s.propulsion, s.structure)
                - movement(BASE_MOVE, s.propulsion, s.structure);
            add(format!("Move above {BASE_MOVE}\""), listed, v);
        }
        for (i, d) in u.sn_dice.iter().enumerate() {
            if let Some(c) = sn_die(*d) {
                let mut v = s.clone();
                v.sn_dice.remove(i);
                add(format!("SuperNatural {d}"), c, v);
            }
        }
        for (i, sp) in s.specialties.iter().enumerate() {
            if sp == "master" || sp == "thrall" {
                let mut v = s.clone();
                v.specialties.remove(i);
                add(format!("Specialty: {sp}"), Cp::whole(1), v);
            }
        }
    }
    out
}

/// A catalog holding `text` (the unit's own catalog, if any) and the `entries`, headed by
/// what wrote it.
pub fn catalog_text(
    header: &str,
    text: Option<&str>,
    entries: &BTreeMap<&str, &UnitSpec>,
) -> Result<String, RunError> {
    let written = toml::to_string(entries)
        .map_err(|e| RunError::other(format!("cannot write the variants' catalog: {e}")))?;
    Ok(format!(
        "# Written by {header}.\n{}\n{written}",
        text.unwrap_or_default()
    ))
}

/// A part's worth in battle: the card price it takes away.
#[derive(Clone, Debug)]
pub struct Worth {
    /// The part.
    pub part: Part,
    /// The card price `[point, lo, hi]` of the unit without it.
    pub without: Option<[f64; 3]>,
    /// `whole - without`, with a conservative 95% CI (the two CIs' far ends), or why none.
    pub worth: Result<[f64; 3], String>,
}

/// Prices `p.unit` without each of its parts into `dir/parts/`; `whole` is its own card
/// price. Says each part's worth on `out` as it is found.
pub fn price_parts(
    p: &Pricing,
    whole: Option<[f64; 3]>,
    dir: &Path,
    threads: Option<usize>,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Vec<Worth>, RunError> {
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    let u = catalog
        .equipped(&p.unit)
        .map_err(|e| RunError::input(e.to_string()))?;
    let parts = parts(&u);
    if parts.is_empty() {
        io(writeln!(
            out,
            "\nparts: {} has no priced part beyond its body (`diemon unit show {}`)",
            p.unit, p.unit
        ))?;
        return Ok(Vec::new());
    }
    let own = match &p.catalog {
        Some(f) => Some(std::fs::read_to_string(f).map_err(|e| {
            RunError::input(format!("cannot read the catalog {}: {e}", f.display()))
        })?),
        None => None,
    };
    let folder = dir.join("parts");
    std::fs::create_dir_all(&folder)
        .map_err(|e| RunError::other(format!("cannot create {}: {e}", folder.display())))?;
    let file = crate::export::write_text_atomic(
        &folder,
        "catalog.toml",
        &catalog_text(
            "`diemon price --parts`: the unit's catalog, then the unit without each of its \
             priced parts",
            own.as_deref(),
            &parts.iter().map(|p| (p.key.as_str(), &p.without)).collect(),
        )?,
    )?;
    io(writeln!(
        out,
        "\nparts: pricing {} without each of its {} priced parts (catalog {})",
        p.unit,
        parts.len(),
        file.display()
    ))?;
    let variants = crate::question::catalog(Some(&file), None)?;
    let mut opts = diemon_core::options::RuleOptions::default();
    for (k, v) in &p.options {
        opts.set(k, v).map_err(|e| RunError::input(e.to_string()))?;
    }
    let mut worths = Vec::new();
    for part in parts {
        // Without its only weapon a unit cannot fight: the part is worth the whole price.
        let v = variants
            .equipped(&part.key)
            .map_err(|e| RunError::other(e.to_string()))?;
        let cp = diemon_core::catalog::cost::breakdown(&v).total();
        if diemon_core::scenario::squad::kind::Kind::from_unit(&v, cp, &opts).is_err() {
            let worth = whole.filter(|w| w[0].is_finite()).ok_or_else(|| {
                "it cannot fight without it, and the unit has no card price".to_string()
            });
            io(writeln!(
                out,
                "  {}  (it cannot fight without it: the whole card price)",
                line(&part, &worth)
            ))?;
            worths.push(Worth {
                part,
                without: Some([0.0; 3]),
                worth,
            });
            continue;
        }
        let alt = Pricing {
            unit: part.key.clone(),
            catalog: Some(file.clone()),
            reports: false,
            ..p.clone()
        };
        let into: PathBuf = folder.join(&part.key);
        let _held = crate::experiment::lock::lock(&into)?;
        let mut said = Vec::new();
        let priced = price(&alt, &into, threads, &Unwatched, cancel, &mut said)?;
        // Its own frame and page beside its experiments, as `diemon price` would write them.
        super::page::write(
            &into,
            &priced,
            None,
            None,
            &format!("diemon price {} --catalog {}", part.key, file.display()),
        )?;
        let without = priced.card.map(|c| c.price);
        let worth = match (whole, without) {
            (Some(w), Some(o)) if [w[0], o[0]].iter().all(|x| x.is_finite() && *x > 0.0) => {
                Ok([w[0] - o[0], w[1] - o[2], w[2] - o[1]])
            }
            _ => Err("no card price for the unit or for the unit without it".to_string()),
        };
        io(writeln!(out, "  {}", line(&part, &worth)))?;
        worths.push(Worth {
            part,
            without,
            worth,
        });
    }
    Ok(worths)
}

/// "Horse Heavy Armor   listed 4.00 CP   worth 36.20 CP [35.10, 37.30]".
pub fn line(part: &Part, worth: &Result<[f64; 3], String>) -> String {
    format!(
        "{:<32} listed {:>6.2} CP   {}",
        part.label,
        part.listed.as_f64(),
        match worth {
            Ok([w, lo, hi]) => format!("worth {w:>6.2} CP [{lo:.2}, {hi:.2}]"),
            Err(why) => why.clone(),
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use diemon_core::catalog::Catalog;
    use diemon_core::dice::Die;

    #[test]
    fn issue_39_the_parts_are_what_the_breakdown_charges_beyond_the_body() {
        let c = Catalog::builtin();
        let file = |f: &str| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../catalogs")
                .join(f)
        };
        let knights = Catalog::with_file(&file("knight.toml")).unwrap();
        let u = knights.equipped("knight").unwrap();
        let p = parts(&u);
        let labels: Vec<(&str, f64)> = p
            .iter()
            .map(|p| (p.label.as_str(), p.listed.as_f64()))
            .collect();
        // The Knight's weapons and armour, and its Move from 5" to 10" (1 CP per 2").
        assert_eq!(
            labels,
            [
                ("Hand Weapon", 2.0),
                ("Kick or Bite", 2.0),
                ("Horse Heavy Armor", 4.0),
                ("Move above 5\"", 2.5)
            ]
        );
        assert_eq!(p[2].key, "without-3-horse-heavy-armor");
        // Each variant is the unit less that part, and costs that much less.
        let entries = p.iter().map(|x| (x.key.as_str(), &x.without)).collect();
        let text = catalog_text("a test", None, &entries).unwrap();
        let parsed = Catalog::with_text("parts.toml", &text).unwrap();
        let total = |u: &Unit| diemon_core::catalog::cost::breakdown(u).total();
        for part in &p {
            let v = parsed.get(&part.key).unwrap();
            assert_eq!(total(v) + part.listed, total(&u), "{}", part.label);
        }
        assert!(!parsed.get("without-3-horse-heavy-armor").unwrap().armored());
        // A Hero's listed price covers its body: only its weapon is a part.
        let h = c.equipped("hero+hand-weapon").unwrap();
        let p = parts(&h);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].label, "Hand Weapon");
        // A d8 Skill is two CP of Boosts on a minifig... priced as one part.
        let v = Catalog::with_file(&file("example.toml")).unwrap();
        let vet = v.equipped("veteran").unwrap();
        let p = parts(&vet);
        assert!(
            p.iter().any(|p| p.label == "Skill 1d8 (above d6)"),
            "{:?}",
            p.iter().map(|p| &p.label).collect::<Vec<_>>()
        );
        assert_eq!(Die::D8, vet.skill);
    }
}
