//! One fair-CP experiment of a price ([`Fit`]), built as a typed experiment
//! ([`experiment_spec`]): what a file holding it would say, resolved without text.

use super::{Pricing, conduct, file_name};
use crate::experiment::spec::ExperimentSpec;

/// One fair-CP experiment of a price: the unit's `units` against each of `counts` of a
/// reference, both sides in a formation, at each of some distances.
#[derive(Clone, Debug)]
pub struct Fit<'a> {
    /// The reference's key.
    pub reference: &'a str,
    /// How both sides stand.
    pub formation: &'a str,
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
            "price-{}-{}-{}",
            file_name(&p.unit),
            file_name(reference),
            file_name(formation)
        )),
        description: format!(
            "The fair CP of {} in {}s, both sides in {formation}, by starting distance",
            p.unit, reference
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
