//! Experiment files: a question written as TOML, swept over a grid of inputs.
//!
//! A file names a `kind` (the command that answers one cell: `duel`, `blast` or `marks`), its
//! inputs under `[scenario]` (the command's own flags, without dashes), rule `[options]`,
//! and `[sweep]` axes (a flag with a list of values). Parsing is two steps: [`spec`] mirrors
//! the file (`deny_unknown_fields`, positions kept), [`load`] resolves it into an
//! [`Experiment`]: every cell's arguments checked by the command's own parser, so a sweep
//! value that would fail fails before anything runs, with the file, line and column.
//! Each cell holds its typed question ([`crate::question::Asked`]).
//!
//! - [`sweep`]: a run: the cells asked in turn and kept as they finish, then the frames,
//!   the [`analyses`] (fair CP, matchups) and the report; resumed when run again.
//! - [`merge`]: the shards of a run, added up into one machine's frames.
//! - [`lock`]: one writer per output folder. [`error`]: what can go wrong, and the
//!   [`error::Watch`] a sweep reports its cells to.
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

pub mod analyses;
mod axes;
pub mod cell;
pub mod error;
mod fields;
pub mod lock;
pub mod maps;
pub mod merge;
pub mod price;
pub mod spec;
pub mod sweep;
pub mod threads;

use std::collections::BTreeMap;
use std::path::Path;

use crate::question::Asked;
use diemon_core::options::RuleOptions;
use spec::ExperimentSpec;

use fields::*;

/// What an experiment is: a sweep of one command, or an analysis built on duels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A sweep of `diemon duel`.
    Duel,
    /// A sweep of `diemon blast`.
    Blast,
    /// Marks dice pools (exact, with a seeded Monte Carlo check of `trials` rolls a cell).
    Marks,
    /// What a unit is worth in a reference unit (`[fair_cp]`).
    FairCp,
    /// Every unit of a list against every other at equal CP (`[matchups]`).
    Matchups,
}

impl Kind {
    /// As the file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Duel => "duel",
            Kind::Blast => "blast",
            Kind::Marks => "marks",
            Kind::FairCp => "fair-cp",
            Kind::Matchups => "matchups",
        }
    }

    /// The command that answers one cell.
    pub fn command(self) -> &'static str {
        match self {
            Kind::Blast => "blast",
            Kind::Marks => "marks",
            _ => "duel",
        }
    }
}

/// Which formats an experiment writes (the manifest is always written).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outputs {
    /// Write CSV.
    pub csv: bool,
    /// Write Parquet.
    pub parquet: bool,
}

/// The analysis a kind runs over its cells.
#[derive(Clone, Debug, PartialEq)]
pub enum Analysis {
    /// A sweep alone.
    None,
    /// What `unit` is worth in `reference`.
    FairCp {
        /// The unit priced.
        unit: String,
        /// The unit it is priced in.
        reference: String,
        /// How many of `unit` fight.
        units: u64,
        /// How many of `reference` they face, one cell each.
        counts: Vec<u64>,
    },
    /// Every unit against every other.
    Matchups {
        /// The units.
        units: Vec<String>,
        /// Each side's head count, when the sides are equal in heads rather than in CP
        /// (the `budget`).
        count: Option<u64>,
    },
}

/// One cell of the sweep: its parameter values and the command's arguments.
#[derive(Clone, Debug)]
pub struct Cell {
    /// The cell's value of each axis, name and value.
    pub params: Vec<(String, String)>,
    /// The cell's flags as the sweep wrote them (what `diemon COMMAND` would take).
    pub args: Vec<String>,
    /// Those flags read and checked: the question the cell asks.
    pub question: Asked,
    /// The options it runs under: the experiment's, with the cell's own `-o` on top.
    pub opts: RuleOptions,
}

/// A resolved experiment.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// Names the output folder.
    pub name: String,
    /// What it asks, in words.
    pub description: String,
    /// What it is.
    pub kind: Kind,
    /// The master seed.
    pub seed: u64,
    /// Trials a cell (with `target_ci`, the most).
    pub trials: u64,
    /// Each cell stops once its key figure's CI half-width is at most this (`trials` caps).
    pub target_ci: Option<f64>,
    /// The formats written.
    pub outputs: Outputs,
    /// Whether a run ends with the report (a price's many fair-CP runs skip theirs: the
    /// price's own page draws what they found).
    pub report: bool,
    /// The rule options every cell runs under.
    pub opts: RuleOptions,
    /// The parameter names of the cells, in file order (an analysis's own last).
    pub axes: Vec<String>,
    /// The analysis over its cells.
    pub analysis: Analysis,
    /// Its cells, in sweep order.
    pub cells: Vec<Cell>,
    /// The file as written, stored in every output.
    pub text: String,
    /// The file as read (or as a price built it).
    pub spec: ExperimentSpec,
    /// Each `catalog` the cells use, by its path as written, with the text read once: cells
    /// run from this text, and the manifest keeps it.
    pub catalogs: BTreeMap<String, String>,
}

/// A bad experiment file: where, what, and a hint.
pub type ExperimentError = diemon_core::input::InputError;

/// The experiment `diemon run` runs with no file: how many minifigs a 3" Launcher kills,
/// by distance and spacing (the README's main command).
pub const DEFAULT: &str = include_str!("../../../../experiments/launcher-vs-swarm.toml");

/// The default experiment, resolved.
pub fn default_experiment() -> Result<Experiment, Vec<ExperimentError>> {
    parse(
        "experiments/launcher-vs-swarm.toml (built in)",
        DEFAULT,
        &Catalogs::Files(None),
    )
}

/// Most units of each kind a side of a `count` matchup fields.
pub const MAX_COUNT: u64 = 100;

/// Most cells one experiment may hold.
pub const MAX_CELLS: usize = 10_000;

impl Experiment {
    /// The same experiment with every cell's run capped at `trials` (a raced price's
    /// stages, issue 39): the same target, seeds and streams, so a cell that stops at the cap
    /// short of its target is the prefix of its run to it, and one that meets it is that run.
    pub fn capped(&self, trials: u64) -> Experiment {
        let mut e = self.clone();
        e.trials = trials;
        e.spec.trials = spec::unplaced(trials);
        e.text = toml::to_string(&e.spec).unwrap_or_else(|_| {
            format!(
                "{}\n# run as a raced price's stage: at most {trials} trials a cell\n",
                e.text
            )
        });
        e
    }

    /// A SHA-256 of everything that decides a cell's figures: diemon's version and a hash
    /// of its source (build.rs), the built-in catalog, the experiment as written, every rule
    /// option (defaults included) and each user catalog's text. A run resumes only from cells written under the same key.
    pub fn key(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        // Each part is length-prefixed, so no two different inputs join to the same bytes.
        let mut part = |label: &str, text: &str| {
            for t in [label, text] {
                h.update((t.len() as u64).to_le_bytes());
                h.update(t.as_bytes());
            }
        };
        part("diemon", env!("CARGO_PKG_VERSION"));
        // The build's own source: a rebuild that changes the rules changes every key.
        part("source", env!("DIEMON_SOURCE_HASH"));
        part("built-in catalog", diemon_core::catalog::BUILTIN);
        part("experiment", &self.text);
        for (k, v) in self.opts.pairs() {
            part(k, &v);
        }
        for (path, text) in &self.catalogs {
            part(path, text);
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Where an experiment's `catalog` files are read from.
#[derive(Clone, Debug)]
pub enum Catalogs<'a> {
    /// From disk, a relative path against this folder (the experiment file's own; `None`:
    /// the working directory).
    Files(Option<&'a Path>),
    /// From a manifest's copies, by the path as the experiment writes it (a merge).
    Kept(&'a BTreeMap<String, String>),
}

impl Catalogs<'_> {
    /// The text of the catalog written `path` in the experiment.
    fn read(&self, path: &str) -> Result<String, String> {
        match self {
            Catalogs::Files(dir) => {
                let full = match dir {
                    Some(d) if Path::new(path).is_relative() => d.join(path),
                    _ => Path::new(path).to_path_buf(),
                };
                diemon_core::input::read(&full)
                    .map_err(|e| format!("catalog {}: {e}", full.display()))
            }
            Catalogs::Kept(texts) => texts
                .get(path)
                .cloned()
                .ok_or_else(|| format!("catalog {path:?} is not in the manifest")),
        }
    }
}

/// Reads an experiment file's text, once ([`diemon_core::input::read`]).
pub fn read(path: &Path) -> Result<String, Vec<ExperimentError>> {
    diemon_core::input::read(path).map_err(|message| {
        vec![ExperimentError {
            file: path.display().to_string(),
            line: 0,
            column: 0,
            message: message.to_string(),
            hint: "`ls experiments/` shows the shipped experiments".into(),
        }]
    })
}

/// Reads and resolves an experiment file; its catalogs are read relative to its folder.
pub fn load(path: &Path) -> Result<Experiment, Vec<ExperimentError>> {
    load_text(path, &read(path)?)
}

/// Resolves the `text` of the experiment file at `path` (read once, [`read`]); its catalogs
/// are read relative to its folder.
pub fn load_text(path: &Path, text: &str) -> Result<Experiment, Vec<ExperimentError>> {
    parse(
        &path.display().to_string(),
        text,
        &Catalogs::Files(path.parent()),
    )
}

/// Parses and resolves an experiment's text, reading any `catalog` from `catalogs`.
pub fn parse(
    file: &str,
    text: &str,
    catalogs: &Catalogs,
) -> Result<Experiment, Vec<ExperimentError>> {
    let at = diemon_core::input::at(file, text);
    let spec: ExperimentSpec = toml::from_str(text).map_err(|e| {
        let message = e.message().trim().to_string();
        let near = diemon_core::input::unknown_field_hint(&message);
        let fields = "fields: name, description, kind, seed, trials, target_ci, outputs, \
             [options], [scenario], [sweep], [fair_cp], [matchups] (see docs/experiments.md)";
        let hint = near.map_or(fields.to_string(), |n| format!("{n} ({fields})"));
        vec![at(e.span().map_or(0, |s| s.start), message, &hint)]
    })?;
    resolve(spec, file, text, catalogs)
}

/// Resolves an experiment built in code (a price's fair-CP runs) as a file holding it would
/// be. Its text, kept in the manifest for the reader, is the spec's serialisation; nothing
/// parses it back.
pub fn build(
    file: &str,
    spec: ExperimentSpec,
    catalogs: &Catalogs,
) -> Result<Experiment, Vec<ExperimentError>> {
    let text = written(file, &spec)?;
    resolve(spec, file, &text, catalogs)
}

/// The experiment file `spec` is, as text.
fn written(file: &str, spec: &ExperimentSpec) -> Result<String, Vec<ExperimentError>> {
    toml::to_string(spec).map_err(|e| {
        vec![diemon_core::input::at(file, "")(
            0,
            format!("cannot write the experiment: {e}"),
            "a bug: please report it with the command that ran",
        )]
    })
}

/// Checks `spec` (the file `file`, whose text is `text`) and resolves it into its cells.
fn resolve(
    spec: ExperimentSpec,
    file: &str,
    text: &str,
    catalogs: &Catalogs,
) -> Result<Experiment, Vec<ExperimentError>> {
    let at = diemon_core::input::at(file, text);
    let mut errors = Vec::new();
    let kind = match spec.kind.get_ref().as_str() {
        "duel" => Kind::Duel,
        "blast" => Kind::Blast,
        "marks" => Kind::Marks,
        "fair-cp" => Kind::FairCp,
        "matchups" => Kind::Matchups,
        k => {
            errors.push(at(
                spec.kind.span().start,
                format!("kind {k:?} is not a kind of experiment"),
                "kind = \"duel\", \"blast\", \"marks\", \"fair-cp\" or \"matchups\"",
            ));
            Kind::Duel
        }
    };
    let analysis = analysis(&spec, kind, &at, &mut errors);
    let name = spec.name.get_ref().clone();
    if !is_folder_name(&name) {
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
    let target_ci = spec.target_ci.as_ref().map(|t| *t.get_ref());
    let outputs = outputs_of(&spec, &at, &mut errors);
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
    check_keys(&spec, &at, &mut errors);
    let mut axes = sweep_axes(&spec, &at, &mut errors);
    let analysis_at = spec
        .fair_cp
        .as_ref()
        .map(|f| f.unit.span().start)
        .or(spec.matchups.as_ref().map(|m| m.units.span().start))
        .unwrap_or(0);
    axes.extend(axes::of(&analysis, analysis_at));
    let count = axes
        .iter()
        .map(|a| a.choices.len())
        .try_fold(1usize, |n, k| n.checked_mul(k))
        .unwrap_or(usize::MAX);
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
    let mut base: Vec<String> = spec
        .scenario
        .iter()
        .flat_map(|(k, v)| axes::flag_text(k.get_ref(), &spec::value_text(v.get_ref())))
        .collect();
    // The command checks the target like any flag (a probability's is below 0.5).
    if let Some(t) = target_ci {
        base.extend(["--target-ci".into(), t.to_string()]);
    }
    let (cells, texts) = cells_of(&spec, kind, &opts, &base, &axes, catalogs, &at)?;
    Ok(Experiment {
        name,
        description: spec.description.clone(),
        kind,
        seed: spec.seed,
        trials,
        target_ci,
        outputs,
        report: true,
        opts,
        axes: axes.into_iter().flat_map(|a| a.names).collect(),
        analysis,
        cells,
        text: text.to_string(),
        catalogs: texts,
        spec,
    })
}

/// Each user catalog's text, by the path the experiment writes it.
type Texts = BTreeMap<String, String>;

/// Every cell of the grid `axes` over the `base` flags, each read by its command's own parser
/// into its typed question and checked, before anything runs; with the text of each catalog
/// the cells name, read once (every cell runs from that text). A refused cell is placed at
/// the axis or `[scenario]` key whose value the command refused. The grid's size is
/// checked against [`MAX_CELLS`] before.
fn cells_of(
    spec: &ExperimentSpec,
    kind: Kind,
    opts: &RuleOptions,
    base: &[String],
    axes: &[axes::Axis],
    catalogs: &Catalogs,
    at: &dyn Fn(usize, String, &str) -> ExperimentError,
) -> Result<(Vec<Cell>, Texts), Vec<ExperimentError>> {
    // Each catalog is read once, before any cell runs, and every cell runs from that text.
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let catalog_at = spec
        .scenario
        .keys()
        .chain(spec.sweep.keys())
        .find(|k| k.get_ref() == "catalog")
        .map_or(0, |k| k.span().start);
    // The text of the `--catalog` a cell names, read once for the whole run.
    let mut catalog_of = |args: &[String]| -> Result<Option<String>, ExperimentError> {
        let path = match args.iter().position(|a| a == "--catalog") {
            Some(i) => args.get(i + 1).cloned(),
            None => args
                .iter()
                .find_map(|a| a.strip_prefix("--catalog=").map(String::from)),
        };
        let Some(path) = path else {
            return Ok(None);
        };
        if !texts.contains_key(&path) {
            let text = catalogs.read(&path).map_err(|m| {
                at(
                    catalog_at,
                    m,
                    "a relative catalog path is read from the experiment file's folder",
                )
            })?;
            texts.insert(path.clone(), text);
        }
        Ok(Some(texts[&path].clone()))
    };
    let count: usize = axes.iter().map(|a| a.choices.len()).product();
    let mut cells = Vec::with_capacity(count);
    for index in 0..count {
        let picked = axes::cell(axes, index);
        let params: Vec<(String, String)> = picked
            .iter()
            .flat_map(|c| c.params.iter().cloned())
            .collect();
        let mut args = base.to_vec();
        args.extend(picked.iter().flat_map(|c| c.args.iter().cloned()));
        let catalog_text = catalog_of(&args).map_err(|e| vec![e])?;
        // The command's own parser reads every cell into its typed question, and checks
        // it, before anything runs.
        let line = |args: &[String], text: Option<String>| {
            let mut probe = vec![kind.command().to_string()];
            probe.extend(args.iter().cloned());
            Asked::parse(&probe, opts, text)
        };
        let (question, cell_opts) = match line(&args, catalog_text) {
            Ok(q) => q,
            Err(e) => {
                // Point at the axis whose value is refused: the one that, put back to its first
                // value, makes the cell acceptable (else the first axis).
                let culprit = (0..axes.len()).find(|&k| {
                    let mut args = base.to_vec();
                    for (j, c) in picked.iter().enumerate() {
                        let c = if j == k { &axes[k].choices[0] } else { c };
                        args.extend(c.args.iter().cloned());
                    }
                    let Ok(text) = catalog_of(&args) else {
                        return false;
                    };
                    line(&args, text).is_ok()
                });
                let offset = match (&spec.target_ci, culprit) {
                    (Some(t), _) if e.message().starts_with("--target-ci") => t.span().start,
                    (_, Some(k)) => axes[k].offset,
                    (_, None) => named(spec, e.message())
                        .or(axes.first().map(|a| a.offset))
                        .unwrap_or(0),
                };
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
                    "every value must be one the command accepts: try it with `diemon duel`, `diemon blast` or `diemon marks`",
                )]);
            }
        };
        cells.push(Cell {
            params,
            args,
            question,
            opts: cell_opts,
        });
    }
    Ok((cells, texts))
}

/// The `[matchups]` section, checked: the units, and a budget or a count but not both.
fn matchups(
    m: &spec::MatchupsSpec,
    sets: &dyn Fn(&str) -> Option<usize>,
    at: &dyn Fn(usize, String, &str) -> ExperimentError,
    errors: &mut Vec<ExperimentError>,
) -> Analysis {
    for key in ["a", "b", "a-squad", "b-squad"] {
        if let Some(o) = sets(key) {
            errors.push(at(
                o,
                format!("{key:?}: a matchups experiment pairs the units itself"),
                "list them in [matchups] units",
            ));
        }
    }
    let count = m.count.as_ref().map(|c| (*c.get_ref(), c.span().start));
    match (sets("budget"), count) {
        (None, None) => errors.push(at(
            m.units.span().start,
            "matchups need a budget (equal CP) or a count (equal heads)".into(),
            "set budget = 36 under [scenario] (or sweep it), or count = 6 under [matchups]",
        )),
        (Some(o), Some(_)) => errors.push(at(
            o,
            "matchups take a budget or a count, not both".into(),
            "budget makes the sides equal in CP, count in heads: keep one",
        )),
        (None, Some((n, o))) if !(1..=MAX_COUNT).contains(&n) => errors.push(at(
            o,
            format!("count {n}: expected 1 to {MAX_COUNT} of each unit a side"),
            "count = 6 fields six of each unit",
        )),
        _ => {}
    }
    let units = m.units.get_ref().clone();
    if units.len() < 2 {
        errors.push(at(
            m.units.span().start,
            format!("{} unit(s): a matchup needs two", units.len()),
            "list at least two catalog units (`diemon unit list`)",
        ));
    }
    for (i, u) in units.iter().enumerate() {
        if units[..i].contains(u) {
            errors.push(at(
                m.units.span().start,
                format!("{u:?} is listed twice"),
                "list each unit once",
            ));
        }
    }
    Analysis::Matchups {
        units,
        count: count.map(|(n, _)| n),
    }
}

/// Whether `name` can name an output folder: letters, digits, `-` and `_`, at least one.
pub fn is_folder_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_cwd(file: &str, text: &str) -> Result<Experiment, Vec<ExperimentError>> {
        parse(file, text, &Catalogs::Files(None))
    }

    const OK: &str = "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[scenario]\nformation = \"line:3\"\n[sweep]\ndistance = [6, 12]\nspacing = [1.0, 2.0, 3.0]\n";

    #[test]
    fn a_sweep_is_the_grid_of_its_axes() {
        let e = parse("t.toml", OK, &Catalogs::Files(None)).unwrap();
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
    fn matchups_at_equal_heads_take_a_count_instead_of_a_budget() {
        // Issue 44: "all minifigs cost the same" took five duels by hand.
        let units = "[matchups]\nunits = [\"minifig-hand-weapon\", \"minifig-pistol\"]\n";
        let head = "name = \"m\"\nkind = \"matchups\"\ntrials = 100\n[scenario]\n";
        let e = at_cwd("m.toml", &format!("{head}{units}count = 4\n")).unwrap();
        assert_eq!(
            e.cells[0].args,
            ["--a", "minifig-hand-weapon*4", "--b", "minifig-pistol*4"]
        );
        let both = at_cwd("m.toml", &format!("{head}budget = 36\n{units}count = 4\n"));
        let e = both.unwrap_err();
        assert!(e[0].message.contains("not both") && e[0].line == 5, "{e:?}");
        let neither = at_cwd("m.toml", &format!("{head}{units}")).unwrap_err();
        assert!(
            neither[0]
                .message
                .contains("a budget (equal CP) or a count"),
            "{neither:?}"
        );
        let zero = at_cwd("m.toml", &format!("{head}{units}count = 0\n")).unwrap_err();
        assert!(
            zero[0].message.contains("count 0") && zero[0].line == 7,
            "{zero:?}"
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = at_cwd(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\ncolour = 3\n",
        )
        .unwrap_err();
        assert_eq!(
            (e[0].file.as_str(), e[0].line, e[0].column),
            ("x.toml", 4, 1),
            "{e:?}"
        );
        let e = at_cwd("x.toml", "name = \"t\"\nkind = \"race\"\ntrials = 100\n").unwrap_err();
        assert_eq!((e[0].line, e[0].column), (2, 8), "{e:?}");
        let e = at_cwd(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[options]\nd4_bonus = \"often\"\n",
        )
        .unwrap_err();
        assert_eq!(e[0].line, 5, "{e:?}");
        assert!(e[0].message.contains("none, incompetent, all"), "{e:?}");
        // A sweep value the command refuses is caught before anything runs.
        let e = at_cwd(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[sweep]\ndistance = [6, -5000]\n",
        )
        .unwrap_err();
        assert_eq!(e[0].line, 5, "{e:?}");
        assert!(e[0].message.contains("cell 2 (distance = -5000)"), "{e:?}");
        let e = at_cwd(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[scenario]\nseed = 4\n",
        )
        .unwrap_err();
        assert!(e[0].message.contains("set by the experiment"), "{e:?}");
    }

    #[test]
    fn a_value_listed_twice_is_refused() {
        let e = at_cwd(
            "x.toml",
            "name = \"t\"\nkind = \"blast\"\ntrials = 100\n[sweep]\ndistance = [6, 12, 6]\n",
        )
        .unwrap_err();
        assert_eq!((e[0].line, e[0].column), (5, 1), "{e:?}");
        assert!(e[0].message.contains("lists 6 twice"), "{e:?}");
        assert_eq!(repeated(&[1, 2, 3]), None);
        assert_eq!(repeated(&[1, 2, 1, 2]), Some(&1));
    }
}
