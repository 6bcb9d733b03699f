//! An experiment file's fields checked, each error at its place in the file: the keys the
//! experiment sets itself, the outputs, the sweep's axes and the analysis tables
//! (`[fair_cp]`, `[matchups]`).

use super::*;

/// The `[scenario]` and `[sweep]` keys checked: none the experiment sets itself, none in
/// both tables.
pub(super) fn check_keys(
    spec: &ExperimentSpec,
    at: &dyn Fn(usize, String, &str) -> ExperimentError,
    errors: &mut Vec<ExperimentError>,
) {
    for k in spec.scenario.keys().chain(spec.sweep.keys()) {
        if RESERVED.contains(&k.get_ref().as_str()) {
            errors.push(at(
                k.span().start,
                format!("{:?} is set by the experiment itself", k.get_ref()),
                "use the top-level seed, trials and target_ci; outputs are always written quietly",
            ));
        }
    }
    for k in spec.sweep.keys() {
        if spec.scenario.keys().any(|s| s.get_ref() == k.get_ref()) {
            errors.push(at(
                k.span().start,
                format!(
                    "{:?} is both a scenario input and a sweep axis",
                    k.get_ref()
                ),
                "give it in one place",
            ));
        }
    }
}

/// The `outputs` the experiment asks for (both CSV and Parquet when it names none).
pub(super) fn outputs_of(
    spec: &ExperimentSpec,
    at: &dyn Fn(usize, String, &str) -> ExperimentError,
    errors: &mut Vec<ExperimentError>,
) -> Outputs {
    let mut outputs = Outputs {
        csv: true,
        parquet: true,
    };
    if let Some(o) = &spec.outputs {
        outputs = Outputs {
            csv: false,
            parquet: false,
        };
        for f in o.get_ref() {
            match f.as_str() {
                "csv" => outputs.csv = true,
                "parquet" => outputs.parquet = true,
                other => errors.push(at(
                    o.span().start,
                    format!("output {other:?} is not a format diemon writes"),
                    "outputs = [\"csv\", \"parquet\"] (or one of them)",
                )),
            }
        }
        if !outputs.csv && !outputs.parquet {
            errors.push(at(
                o.span().start,
                "outputs is empty".into(),
                "outputs = [\"csv\", \"parquet\"] (or one of them)",
            ));
        }
    }
    outputs
}

/// The `[sweep]` axes in the file's order, each checked: values given, none twice.
pub(super) fn sweep_axes(
    spec: &ExperimentSpec,
    at: &dyn Fn(usize, String, &str) -> ExperimentError,
    errors: &mut Vec<ExperimentError>,
) -> Vec<axes::Axis> {
    let mut axes: Vec<axes::Axis> = Vec::new();
    for (k, v) in &spec.sweep.0 {
        let values: Vec<String> = v.get_ref().iter().map(spec::value_text).collect();
        if values.is_empty() {
            errors.push(at(
                k.span().start,
                format!("sweep axis {:?} has no values", k.get_ref()),
                "a list, e.g. [6, 12, 18]",
            ));
            continue;
        }
        if let Some(dup) = repeated(&values) {
            errors.push(at(
                k.span().start,
                format!("sweep axis {:?} lists {dup} twice", k.get_ref()),
                "each value once: a repeated value would run the same cells twice",
            ));
            continue;
        }
        axes.push(axes::sweep(k.get_ref(), k.span().start, &values));
    }
    axes
}

/// Where the `[scenario]` key a refusal's `message` names is written: the key whose flag
/// it names anywhere, else the key it opens with ("distance -1: expected ...").
pub(super) fn named(spec: &ExperimentSpec, message: &str) -> Option<usize> {
    let flag = |k: &str| format!("--{}", k.replace('_', "-"));
    let keys = || spec.scenario.keys();
    keys()
        .find(|k| {
            message
                .split(|c: char| !(c.is_alphanumeric() || c == '-'))
                .any(|w| w == flag(k.get_ref()))
        })
        .or_else(|| {
            keys().find(|k| {
                message
                    .strip_prefix(k.get_ref().as_str())
                    .is_some_and(|rest| rest.starts_with([' ', ':']))
            })
        })
        .map(|k| k.span().start)
}

/// Flags the experiment sets itself.
pub(super) const RESERVED: &[&str] = &[
    "seed",
    "trials",
    "json",
    "quiet",
    "threads",
    "cell",
    "replay-trial",
    "replay_trial",
    "target-ci",
    "target_ci",
    "mc",
    "with-tally",
    "tally",
    "shard",
];

/// The `[fair_cp]` or `[matchups]` section, checked against the kind.
pub(super) fn analysis(
    spec: &ExperimentSpec,
    kind: Kind,
    at: &dyn Fn(usize, String, &str) -> ExperimentError,
    errors: &mut Vec<ExperimentError>,
) -> Analysis {
    let sets = |key: &str| {
        spec.scenario
            .keys()
            .chain(spec.sweep.keys())
            .find(|k| k.get_ref() == key)
            .map(|k| k.span().start)
    };
    match (kind, &spec.fair_cp, &spec.matchups) {
        (Kind::FairCp, Some(f), None) => {
            for key in ["a", "b", "budget", "a-squad", "b-squad"] {
                if let Some(o) = sets(key) {
                    errors.push(at(
                        o,
                        format!("{key:?}: a fair-cp experiment sets the sides itself"),
                        "name them in [fair_cp]: unit, reference, units, counts",
                    ));
                }
            }
            let counts = f.counts.get_ref().clone();
            if counts.len() < 2 || counts.contains(&0) {
                errors.push(at(
                    f.counts.span().start,
                    format!("counts {counts:?}: the fit needs at least two sizes, each above 0"),
                    "e.g. counts = [1, 2, 3, 4, 5, 6]: the 50% point must lie among them",
                ));
            }
            if let Some(dup) = repeated(&counts) {
                errors.push(at(
                    f.counts.span().start,
                    format!("counts lists {dup} twice"),
                    "each count once: a repeated count would run the same cells twice",
                ));
            }
            if *f.units.get_ref() == 0 {
                errors.push(at(
                    f.units.span().start,
                    "units 0".into(),
                    "how many of the unit fight: 1 or more",
                ));
            }
            Analysis::FairCp {
                unit: f.unit.get_ref().clone(),
                reference: f.reference.get_ref().clone(),
                units: *f.units.get_ref(),
                counts,
            }
        }
        (Kind::Matchups, None, Some(m)) => matchups(m, &sets, at, errors),
        (Kind::Duel | Kind::Blast | Kind::Marks, None, None) => Analysis::None,
        (k, f, m) => {
            let (want, offset) = match k {
                Kind::FairCp => ("a [fair_cp] section and no [matchups]", 0),
                Kind::Matchups => ("a [matchups] section and no [fair_cp]", 0),
                _ => (
                    "no [fair_cp] or [matchups] section",
                    f.as_ref()
                        .map(|f| f.unit.span().start)
                        .or(m.as_ref().map(|m| m.units.span().start))
                        .unwrap_or(0),
                ),
            };
            // Point at the stray section, or else at the kind.
            let offset = if offset == 0 {
                spec.kind.span().start
            } else {
                offset
            };
            errors.push(at(
                offset,
                format!("kind {:?} takes {want}", k.name()),
                "kind = \"fair-cp\" goes with [fair_cp], kind = \"matchups\" with [matchups]",
            ));
            Analysis::None
        }
    }
}

/// The first value listed twice, if any.
pub(super) fn repeated<T: PartialEq + std::fmt::Display>(values: &[T]) -> Option<&T> {
    values
        .iter()
        .enumerate()
        .find(|(i, v)| values[..*i].contains(v))
        .map(|(_, v)| v)
}
