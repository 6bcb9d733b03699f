//! One fair-CP experiment of a price ([`Fit`]), built as a typed experiment
//! ([`experiment_spec`]): what a file holding it would say, resolved without text.

use super::{Pricing, TABLE_WIDTH, conduct, file_name};
use crate::experiment::error::RunError;
use crate::experiment::spec::ExperimentSpec;
use diemon_core::scenario::squad::policy::{Formation, Spacing};
use diemon_core::scenario::squad::roster::MAX_PER_SIDE;
use diemon_core::scenario::squad::{Policy, ROOM};

/// One fair-CP experiment of a price: the unit's `units` against each of `counts` of a
/// reference, both sides in a formation, at each of some distances.
#[derive(Clone, Debug)]
pub struct Fit<'a> {
    /// The reference's key.
    pub reference: &'a str,
    /// How both sides stand.
    pub formation: &'a str,
    /// The named table they stand on and its width in inches (`fit::width`); `None` on the
    /// plane.
    pub table: Option<(&'a str, u32)>,
    /// Starting distances in inches, one cell axis.
    pub distances: &'a [u32],
    /// How many of the unit fight.
    pub units: u64,
    /// How many of the reference they face.
    pub counts: &'a [u64],
    /// Trials a cell (with `target_ci`, the most).
    pub trials: u64,
    /// Each cell stops once its win chance's CI half-width is at most this.
    pub target_ci: Option<f64>,
    /// The unit's conduct and the reference's.
    pub conduct: (&'a conduct::Conduct, &'a conduct::Conduct),
}

/// The fair-CP experiment `f` of pricing `p`, typed: what an experiment file holding it
/// would say (its serialisation is the text its manifest keeps).
pub fn experiment_spec(p: &Pricing, f: &Fit) -> ExperimentSpec {
    use crate::experiment::spec::{FairCpSpec, Sweep, unplaced};
    let (reference, formation) = (f.reference, f.formation);
    let text = |s: &str| unplaced(toml::Value::String(s.to_string()));
    let mut scenario = std::collections::BTreeMap::new();
    let mut set = |k: String, v: &str| scenario.insert(unplaced(k), text(v));
    set("a_formation".into(), formation);
    set("b_formation".into(), formation);
    for (k, v) in f
        .conduct
        .0
        .keys('a')
        .into_iter()
        .chain(f.conduct.1.keys('b'))
    {
        set(k, &v);
    }
    // On a table, each distance is the gap between the sides' fronts.
    if let Some((table, width)) = f.table {
        set("table".into(), table);
        set("table_width".into(), &width.to_string());
    }
    if let Some(c) = &p.catalog {
        set("catalog".into(), &c.display().to_string());
    }
    let options = p
        .options
        .iter()
        .map(|(k, v)| (unplaced(k.clone()), text(v)))
        .collect();
    let distances = f.distances.iter().map(|&d| i64::from(d).into()).collect();
    ExperimentSpec {
        name: unplaced(format!(
            "price-{}-{}-{}{}",
            file_name(&p.unit),
            file_name(reference),
            file_name(formation),
            f.table
                .map_or(String::new(), |(t, _)| format!("-on-{}", file_name(t)))
        )),
        description: format!(
            "The fair CP of {} in {}s, both sides in {formation}{}, by starting distance",
            p.unit,
            reference,
            f.table.map_or(String::new(), |(t, _)| super::on_words(t))
        ),
        kind: unplaced("fair-cp".into()),
        seed: p.seed,
        trials: unplaced(f.trials),
        target_ci: f.target_ci.map(unplaced),
        outputs: None,
        options,
        scenario,
        sweep: Sweep(vec![(unplaced("distance".into()), unplaced(distances))]),
        fair_cp: Some(FairCpSpec {
            unit: unplaced(p.unit.clone()),
            reference: unplaced(reference.to_string()),
            units: unplaced(f.units),
            counts: unplaced(f.counts.to_vec()),
        }),
        matchups: None,
    }
}

/// The width of a family's table, and the most of the reference that deploy on it: the
/// table is [`TABLE_WIDTH`] across, or wider where a side's widest line at the grid's
/// `counts` (the unit's `units` against the most of the reference), at the widest spacing
/// on its menu, needs it with an inch spare at each end. The search's rounds add only
/// counts that deploy ([`super::Planned::most`]): neither wider than the table, nor
/// deeper than the room behind the front ([`ROOM`]: a priced table is each distance and
/// that room behind each front deep, as the plane is).
pub fn width(
    formation: &str,
    menus: &conduct::Menus,
    units: u64,
    counts: &[u64],
) -> Result<(u32, u64), RunError> {
    let formation = Formation::parse(formation).map_err(|e| RunError::input(e.to_string()))?;
    let widest = |menu: &[conduct::Conduct]| {
        menu.iter()
            .map(|c| {
                c.choices
                    .iter()
                    .find_map(|x| match x {
                        conduct::Choice::Spacing(s) => Some(*s),
                        _ => None,
                    })
                    .unwrap_or(Policy::default().spacing)
            })
            .max_by_key(|s| s.0)
            .unwrap_or(Policy::default().spacing)
    };
    // Inches across a line of `n` at `spacing`, and inches behind its front.
    let extent = |n: u64, spacing: Spacing| {
        let (across, behind) = formation.places(n as usize, spacing);
        let span = across.iter().fold(0.0f64, |m, x| m.max(x.abs())) * 2.0;
        let back = behind.iter().copied().max().unwrap_or(0) as f64 / 2.0;
        (span, back)
    };
    let (su, sr) = (widest(&menus.unit), widest(&menus.reference));
    let most_counted = counts.iter().copied().max().unwrap_or(1);
    let need = extent(units, su).0.max(extent(most_counted, sr).0) + 2.0;
    let width = TABLE_WIDTH.max(need.ceil() as u32);
    let room = ROOM as f64;
    let fits = |n: u64| {
        let (span, back) = extent(n, sr);
        span + 2.0 <= width as f64 && back + 0.5 <= room
    };
    let most = (1..=MAX_PER_SIDE as u64)
        .take_while(|&n| fits(n))
        .last()
        .unwrap_or(0);
    let deep = extent(units, su).1.max(extent(most_counted, sr).1);
    if deep + 0.5 > room {
        return Err(RunError::input(format!(
            "in {formation} a side stands {deep}\" deep, more than the {ROOM}\" behind its front on a priced table\nhint: --formation line or ranks:N"
        )));
    }
    Ok((width, most))
}

#[cfg(test)]
mod tests {
    use super::*;
    use conduct::{Choice, Conduct, Menus};

    fn menus(unit: Option<u32>, reference: Option<u32>) -> Menus {
        let side = |s: Option<u32>| Conduct {
            choices: s.map(|q| Choice::Spacing(Spacing(q))).into_iter().collect(),
        };
        Menus {
            unit: vec![Conduct::default(), side(unit)],
            reference: vec![side(reference)],
        }
    }

    #[test]
    fn issue_43_a_priced_table_widens_to_the_widest_line_on_the_menus() {
        // 24 references 1.5" apart abreast: 34.5" wide, so 48" holds them.
        let (w, most) = width("line", &menus(None, None), 6, &[3, 24]).unwrap();
        assert_eq!(w, 48);
        // The most that fit 48" with an inch spare each end: 31 (45" wide).
        assert_eq!(most, 31);
        // At 6" apart (Spacing 24 quarters), 24 need 138" and an inch each end.
        let (w, most) = width("line", &menus(None, Some(24)), 6, &[3, 24]).unwrap();
        assert_eq!((w, most), (140, 24));
        // The unit's own line counts too; two ranks halve the width.
        let (w, _) = width("line", &menus(Some(24), None), 30, &[3]).unwrap();
        assert_eq!(w, 176);
        let (w, _) = width("ranks:2", &menus(None, Some(24)), 6, &[3, 24]).unwrap();
        assert_eq!(w, 68);
        // A column deeper than the room behind its front does not deploy: 12" of room holds
        // a column of 8 at 1.5" a rank (the last 10.5" behind, half an inch spare).
        let (_, most) = width("column", &menus(None, None), 6, &[3]).unwrap();
        assert_eq!(most, 8);
        let e = width("column", &menus(None, None), 6, &[3, 9]).unwrap_err();
        assert!(e.to_string().contains("12\" deep"), "{e}");
    }
}
