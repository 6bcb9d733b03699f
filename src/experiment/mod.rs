//! Experiment files: a question written as TOML, swept over a grid of inputs.
//!
//! A file names a `kind` (the command that answers one cell: `duel` or `blast`), its
//! inputs under `[scenario]` (the command's own flags, without dashes), rule `[options]`,
//! and `[sweep]` axes (a flag with a list of values). Parsing is two steps: [`spec`] mirrors
//! the file (`deny_unknown_fields`, positions kept), [`load`] resolves it into an
//! [`Experiment`]: every cell's arguments checked by the command's own parser, so a sweep
//! value that would fail fails before anything runs, with the file, line and column.
//!
//! ```toml
//! name = "launcher-vs-swarm"
//! kind = "blast"
//! trials = 20000
//! [scenario]
//! weapon = "launcher"
//! size = 3
//! [sweep]
//! distance = [6, 12, 18]
//! spacing = [1.0, 1.5, 2.0]
//! ```

pub mod spec;

use std::path::Path;

use crate::rules::RuleOptions;
use spec::{ExperimentSpec, line_column};

/// Which command answers a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Duel,
    Blast,
}

impl Kind {
    pub fn command(self) -> &'static str {
        match self {
            Kind::Duel => "duel",
            Kind::Blast => "blast",
        }
    }
}

/// One cell of the sweep: its parameter values and the command's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub params: Vec<(String, String)>,
    pub args: Vec<String>,
}

/// A resolved experiment.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub name: String,
    pub description: String,
    pub kind: Kind,
    pub seed: u64,
    pub trials: u64,
    pub opts: RuleOptions,
    /// The sweep axes, in file order.
    pub axes: Vec<String>,
    pub cells: Vec<Cell>,
    /// The file as written, stored in every output.
    pub text: String,
}

/// A bad experiment file: where, what, and a hint.
pub type ExperimentError = crate::input::InputError;

/// The experiment `diemon run` runs with no file: how many minifigs a 3" Launcher kills,
/// by distance and spacing (the README's main command).
pub const DEFAULT: &str = include_str!("../../experiments/launcher-vs-swarm.toml");

/// The default experiment, resolved.
pub fn default_experiment() -> Result<Experiment, Vec<ExperimentError>> {
    parse("experiments/launcher-vs-swarm.toml (built in)", DEFAULT)
}

/// Most cells one experiment may hold.
pub const MAX_CELLS: usize = 10_000;

/// Reads and resolves an experiment file.
pub fn load(path: &Path) -> Result<Experiment, Vec<ExperimentError>> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        vec![ExperimentError {
            file: file.clone(),
            line: 0,
            column: 0,
            message: format!("cannot read it: {e}"),
            hint: "`ls experiments/` shows the shipped experiments".into(),
        }]
    })?;
    parse(&file, &text)
}

/// Parses and resolves an experiment's text.
pub fn parse(file: &str, text: &str) -> Result<Experiment, Vec<ExperimentError>> {
    let at = |offset: usize, message: String, hint: &str| {
        let (line, column) = line_column(text, offset);
        ExperimentError {
            file: file.into(),
            line,
            column,
            message,
            hint: hint.into(),
        }
    };
    let spec: ExperimentSpec = toml::from_str(text).map_err(|e| {
        vec![at(
            e.span().map_or(0, |s| s.start),
            e.message().trim().to_string(),
            "fields: name, description, kind, seed, trials, [options], [scenario], [sweep] \
             (see experiments/)",
        )]
    })?;
    let mut errors = Vec::new();
    let kind = match spec.kind.get_ref().as_str() {
        "duel" => Kind::Duel,
        "blast" => Kind::Blast,
        k => {
            errors.push(at(
                spec.kind.span().start,
                format!("kind {k:?} is not a command an experiment can sweep"),
                "kind = \"duel\" or kind = \"blast\"",
            ));
            Kind::Duel
        }
    };
    let name = spec.name.get_ref().clone();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        errors.push(at(
            spec.name.span().start,
            format!("name {name:?} names the output folder"),
            "letters, digits, - and _ only, e.g. \"launcher-vs-swarm\"",
        ));
    }
    let trials = *spec.trials.get_ref();
    if !(1..=1_000_000_000).contains(&trials) {
        errors.push(at(
            spec.trials.span().start,
            format!("trials {trials}"),
            "from 1 to 1e9 trials a cell",
        ));
    }
    let mut opts = RuleOptions::default();
    for (k, v) in &spec.options {
        if let Err(e) = opts.set(k.get_ref(), &spec::value_text(v.get_ref())) {
            errors.push(at(
                k.span().start,
                e.to_string(),
                "`diemon options` lists them",
            ));
        }
    }
    for k in spec.scenario.keys().chain(spec.sweep.keys()) {
        if RESERVED.contains(&k.get_ref().as_str()) {
            errors.push(at(
                k.span().start,
                format!("{:?} is set by the experiment itself", k.get_ref()),
                "use the top-level seed and trials; outputs are always written quietly",
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
    let axes: Vec<(String, usize, Vec<String>)> = spec
        .sweep
        .0
        .iter()
        .map(|(k, v)| {
            (
                k.get_ref().clone(),
                k.span().start,
                v.get_ref().iter().map(spec::value_text).collect(),
            )
        })
        .collect();
    for (k, start, values) in &axes {
        if values.is_empty() {
            errors.push(at(
                *start,
                format!("sweep axis {k:?} has no values"),
                "a list, e.g. [6, 12, 18]",
            ));
        }
    }
    let count = axes
        .iter()
        .map(|(_, _, v)| v.len().max(1))
        .product::<usize>();
    if count > MAX_CELLS {
        errors.push(at(
            0,
            format!("{count} cells"),
            "at most 10000 cells an experiment",
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let base: Vec<String> = spec
        .scenario
        .iter()
        .flat_map(|(k, v)| flag(k.get_ref(), v.get_ref()))
        .collect();
    let mut cells = Vec::with_capacity(count);
    for index in 0..count {
        let mut rest = index;
        let mut params = Vec::new();
        let mut args = base.clone();
        for (k, _, values) in axes.iter().rev() {
            let v = &values[rest % values.len()];
            rest /= values.len();
            params.push((k.clone(), v.clone()));
        }
        params.reverse();
        for (k, v) in &params {
            args.extend(flag_text(k, v));
        }
        // The command's own parser checks every cell before anything runs.
        let mut probe = vec!["diemon".to_string(), kind.command().to_string()];
        probe.extend(args.iter().cloned());
        if let Err(e) = crate::cli::check_args(&probe, &opts) {
            let key = params.first().map(|(k, _)| k.clone()).unwrap_or_default();
            let offset = spec
                .sweep
                .keys()
                .find(|k| k.get_ref() == &key)
                .map_or(0, |k| k.span().start);
            return Err(vec![at(
                offset,
                format!(
                    "cell {} ({}): {e}",
                    index + 1,
                    params
                        .iter()
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "every value must be one the command accepts: try it with `diemon duel` or `diemon blast`",
            )]);
        }
        cells.push(Cell { params, args });
    }
    Ok(Experiment {
        name,
        description: spec.description,
        kind,
        seed: spec.seed,
        trials,
        opts,
        axes: axes.into_iter().map(|(k, _, _)| k).collect(),
        cells,
        text: text.to_string(),
    })
}

/// Flags the experiment sets itself.
const RESERVED: &[&str] = &[
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
];

fn flag(key: &str, value: &toml::Value) -> Vec<String> {
    flag_text(key, &spec::value_text(value))
}

/// `--key value`, or `--key` alone for a true switch (and nothing for false).
fn flag_text(key: &str, value: &str) -> Vec<String> {
    let name = format!("--{}", key.replace('_', "-"));
    match value {
        "true" => vec![name],
        "false" => vec![],
        v => vec![name, v.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[scenario]\nformation = \"line:3\"\n[sweep]\ndistance = [6, 12]\nspacing = [1.0, 2.0, 3.0]\n";

    #[test]
    fn a_sweep_is_the_grid_of_its_axes() {
        let e = parse("t.toml", OK).unwrap();
        assert_eq!(e.cells.len(), 6);
        assert_eq!(e.axes, ["distance", "spacing"]);
        assert_eq!(
            e.cells[1].params,
            [
                ("distance".into(), "6".into()),
                ("spacing".into(), "2.0".into())
            ]
        );
        assert_eq!(
            e.cells[1].args,
            [
                "--formation",
                "line:3",
                "--distance",
                "6",
                "--spacing",
                "2.0"
            ]
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = parse(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\ncolour = 3\n",
        )
        .unwrap_err();
        assert_eq!(
            (e[0].file.as_str(), e[0].line, e[0].column),
            ("x.toml", 4, 1),
            "{e:?}"
        );
        let e = parse("x.toml", "name = \"t\"\nkind = \"race\"\ntrials = 100\n").unwrap_err();
        assert_eq!((e[0].line, e[0].column), (2, 8), "{e:?}");
        let e = parse(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[options]\nd4_bonus = \"often\"\n",
        )
        .unwrap_err();
        assert_eq!(e[0].line, 5, "{e:?}");
        assert!(e[0].message.contains("none, incompetent, all"), "{e:?}");
        // A sweep value the command refuses is caught before anything runs.
        let e = parse(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[sweep]\ndistance = [6, -5000]\n",
        )
        .unwrap_err();
        assert_eq!(e[0].line, 5, "{e:?}");
        assert!(e[0].message.contains("cell 2 (distance = -5000)"), "{e:?}");
        let e = parse(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[scenario]\nseed = 4\n",
        )
        .unwrap_err();
        assert!(e[0].message.contains("set by the experiment"), "{e:?}");
    }
}
