//! Questions: what a Monte Carlo command asks, typed and checked before anything runs.
//!
//! Each command's inputs are a clap `Args` struct here, in the library, so the command line
//! and an experiment file's cells build the same values and check them the same way
//! ([`Asked::parse`]). [`Asked::ask`] runs one and returns its typed [`Answer`]. A question builds the scenario it asks about; the CLI runs it and prints.
//!
//! - [`run`]: the flags every seeded run shares (trials, a precision target, the seed,
//!   threads, a replayed trial, the experiment cell) and their checks.
//! - [`duel`] and [`squad`]: `diemon duel`, two stat lines or two squads of catalog units.
//! - [`blast`]: `diemon blast`, a turn of Explosive or automatic fire at a formation.
//! - [`outcomes`]: who won how often, the figures both duels answer with.
//! - [`marks`]: `diemon marks`, a Marks pool's roll, tries or extended roll.
//! - [`table`]: a table by name or layout file, for `diemon table` and `--table`.

pub mod blast;
pub mod duel;
pub mod kept;
pub mod marks;
pub mod outcomes;
pub mod rows;
pub mod run;
pub mod squad;
pub mod table;
pub mod tally;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::{Parser, Subcommand};
use serde::Serialize;

use diemon_core::catalog::{Catalog, CatalogError};
use diemon_core::dice::ParseError;
use diemon_core::options::RuleOptions;
use diemon_core::sim::progress::Progress;

/// Why a question cannot be asked. The CLI picks the exit code from the kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad input: a flag, an expression, a unit or item the catalog lacks (exit code 2).
    #[error("{0}")]
    Input(String),
    /// Not the input's fault: a catalog entry the code cannot use, said as a bug (exit 1).
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// Bad input, in the words of `message` (text, or a room's own error).
    pub fn input(message: impl std::fmt::Display) -> Error {
        Error::Input(message.to_string())
    }
    /// Not the input's fault, in the words of `message` (exit code 1).
    pub fn other(message: impl std::fmt::Display) -> Error {
        Error::Other(message.to_string())
    }
    /// A dice expression's parse error, pointing at its column.
    pub fn expr(name: &str, text: &str, e: &ParseError) -> Error {
        Error::Input(e.render(name, text))
    }
    /// The message, whatever the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::Input(m) | Error::Other(m) => m,
        }
    }
}

/// Loads the catalog a question names: the built-in one, plus a `--catalog` file. An
/// experiment cell gives the `text` its experiment read (so a cell never sees a file edited
/// since); else the file at `path` is read.
pub fn catalog(path: Option<&PathBuf>, text: Option<&str>) -> Result<Catalog, Error> {
    let loaded = match (path, text) {
        (None, _) => return Ok(Catalog::builtin()),
        (Some(p), Some(t)) => Catalog::with_text(&p.display().to_string(), t),
        (Some(p), None) => Catalog::with_file(p),
    };
    loaded.map_err(|es| {
        Error::input(
            es.iter()
                .map(CatalogError::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })
}

/// A question as an experiment cell gives it: `diemon COMMAND [-o KEY=VALUE]... FLAGS...`.
#[derive(Parser, Debug)]
#[command(name = "diemon", disable_help_subcommand = true)]
struct Line {
    #[command(subcommand)]
    asked: Asked,
    /// A cell's own rule options (a swept option).
    #[arg(short = 'o', long = "option", global = true)]
    options: Vec<String>,
}

/// The questions an experiment's cells ask, typed: each holds its command's flags.
#[derive(Subcommand, Debug, Clone)]
#[allow(
    clippy::large_enum_variant,
    reason = "one question a cell, parsed once and never in a loop"
)]
pub enum Asked {
    /// `diemon duel`.
    Duel(duel::DuelArgs),
    /// `diemon blast`.
    Blast(blast::BlastArgs),
    /// `diemon marks`.
    Marks(marks::MarksArgs),
}

/// What a question answers: the JSON of `--json` and a row of an experiment's frames.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
#[allow(
    clippy::large_enum_variant,
    reason = "one answer a question, made once and never in a loop"
)]
pub enum Answer {
    /// A duel of two stat lines.
    Duel(duel::DuelAnswer),
    /// A battle of two squads of catalog units.
    Squad(squad::SquadAnswer),
    /// A turn of Explosive or automatic fire.
    Blast(blast::BlastAnswer),
    /// A Marks roll.
    Marks(marks::MarksAnswer),
}

impl Answer {
    /// How the run went; none for a Marks roll, which is exact (its check has its own).
    pub fn ran(&self) -> Option<&run::Ran> {
        match self {
            Answer::Duel(a) => Some(&a.ran),
            Answer::Squad(a) => Some(&a.ran),
            Answer::Blast(a) => Some(&a.ran),
            Answer::Marks(_) => None,
        }
    }

    /// The raw tally an experiment's cell keeps (what a merge adds up), if it has one.
    pub fn tally(&self) -> Option<&tally::AnyTally> {
        match self {
            Answer::Marks(a) => a.tally.as_ref(),
            other => other.ran().and_then(|r| r.tally.as_ref()),
        }
    }

    /// Trials finished when Ctrl-C stopped the run, if it did.
    pub fn interrupted(&self) -> Option<u64> {
        let ran = match self {
            Answer::Duel(a) => &a.ran,
            Answer::Squad(a) => &a.ran,
            Answer::Blast(a) => &a.ran,
            Answer::Marks(a) => return a.interrupted,
        };
        ran.interrupted.then_some(ran.trials)
    }
}

/// The run an experiment gives every cell: its seed, trials and threads, the cell's
/// streams, a shard, and the shards' tallies a merge adds up instead of running.
#[derive(Debug, Clone, Default)]
pub struct CellRun {
    /// The experiment's master seed.
    pub seed: u64,
    /// The cell's index: its streams derive from it.
    pub cell: u64,
    /// Trials (with a precision target, the most).
    pub trials: u64,
    /// Worker threads; none, every core.
    pub threads: Option<usize>,
    /// The shard this run is, if one.
    pub shard: Option<run::Shard>,
    /// Shards' tallies to add up instead of running (a merge).
    pub tallies: Vec<tally::AnyTally>,
    /// The first trials of an earlier run of this cell to go on from.
    pub resume: Option<run::Resume>,
}

impl Asked {
    /// Reads a cell's question, `COMMAND [-o KEY=VALUE]... FLAGS...` (the experiment's
    /// `opts` under the line's own `-o`), and checks it as running it would: the question
    /// and the options it runs under. `catalog_text` is the text of its `--catalog` file as
    /// the experiment read it.
    pub fn parse(
        args: &[String],
        opts: &RuleOptions,
        catalog_text: Option<String>,
    ) -> Result<(Asked, RuleOptions), Error> {
        let mut argv = vec!["diemon".to_string()];
        argv.extend(args.iter().cloned());
        let line = Line::try_parse_from(argv).map_err(|e| {
            Error::input(
                e.render()
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or("bad arguments")
                    .trim_start_matches("error: "),
            )
        })?;
        let marks = matches!(line.asked, Asked::Marks(_));
        let mut opts = *opts;
        for a in &line.options {
            // The Marks system shares no rule with BrikWars: each takes only its own.
            if a.trim_start().starts_with("marks_") != marks {
                return Err(Error::input(format!(
                    "-o {a}: {}",
                    if marks {
                        "only the marks_* options change a Marks roll"
                    } else {
                        "the marks_* options change only a Marks roll"
                    }
                )));
            }
            opts.assign(a)
                .map_err(|e| Error::input(format!("-o {a}: {e}")))?;
        }
        let mut asked = line.asked;
        asked.seeded().part.catalog_text = catalog_text;
        asked.check(&opts)?;
        Ok((asked, opts))
    }

    /// Checks the question as running it would, without running it.
    pub fn check(&self, opts: &RuleOptions) -> Result<(), Error> {
        match self {
            Asked::Duel(a) if squad::wanted(a) => squad::build(a, opts).map(|_| ()),
            Asked::Duel(a) => duel::build(a, opts).map(|_| ()),
            Asked::Blast(a) => blast::validate(a, opts),
            Asked::Marks(a) => marks::validate(a, opts),
        }
    }

    /// The seed, threads, output and cell of the question's run.
    fn seeded(&mut self) -> &mut run::Seeded {
        match self {
            Asked::Duel(a) => &mut a.run.out,
            Asked::Blast(a) => &mut a.run.out,
            Asked::Marks(a) => &mut a.out,
        }
    }

    /// The question as cell `run.cell` of an experiment asks it: the experiment's seed,
    /// trials and threads over the cell's own, quiet, with its raw tally in the answer.
    pub fn for_cell(&self, run: &CellRun) -> Asked {
        let mut q = self.clone();
        match &mut q {
            Asked::Duel(a) => a.run.trials = run.trials,
            Asked::Blast(a) => a.run.trials = run.trials,
            // An experiment's Marks cell is always checked by Monte Carlo too.
            Asked::Marks(a) => a.mc = Some(run.trials),
        }
        let s = q.seeded();
        s.seed = run.seed;
        s.threads = run.threads;
        s.quiet = true;
        s.json = true;
        s.part.cell = run.cell;
        s.part.shard = run.shard;
        s.part.with_tally = true;
        s.part.tallies = run.tallies.clone();
        s.part.resume = run.resume.clone();
        q
    }

    /// Asks the question: builds it, runs it on its own pool of threads, and answers.
    pub fn ask(
        &self,
        opts: &RuleOptions,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<Answer, Error> {
        Ok(match self {
            Asked::Duel(a) if squad::wanted(a) => {
                Answer::Squad(squad::ask(a, opts, progress, cancel)?)
            }
            Asked::Duel(a) => Answer::Duel(duel::ask(a, opts, progress, cancel)?),
            Asked::Blast(a) => Answer::Blast(blast::ask(a, opts, progress, cancel)?),
            Asked::Marks(a) => Answer::Marks(marks::ask(a, opts, progress, cancel)?),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use diemon_core::sim::progress::Silent;

    /// A command's flags parsed as typed (`line` split on spaces): the questions' tests.
    pub(crate) fn parse<T: clap::Args + clap::FromArgMatches>(
        command: &'static str,
        line: &str,
    ) -> T {
        let cmd = T::augment_args(clap::Command::new(command));
        let m = cmd
            .try_get_matches_from(std::iter::once(command).chain(line.split_whitespace()))
            .unwrap();
        T::from_arg_matches(&m).unwrap()
    }

    fn line(words: &str) -> Vec<String> {
        words.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_cell_is_read_into_its_question_with_its_own_options_on_top() {
        let base = RuleOptions::default();
        let (q, opts) = Asked::parse(
            &line("duel -o armor_tie=dismemberment d6/2/1d6/4 d6/2/1d6/4"),
            &base,
            None,
        )
        .unwrap();
        assert!(matches!(q, Asked::Duel(_)));
        assert_eq!(opts.armor_tie.name(), "dismemberment");
        // A Marks option on a duel, or a BrikWars one on a Marks roll, is refused.
        let e = Asked::parse(&line("duel -o marks_tie=defender"), &base, None).unwrap_err();
        assert!(e.message().contains("marks_*"), "{e}");
        let e = Asked::parse(&line("marks --attr 3,3 -o d4_bonus=all"), &base, None).unwrap_err();
        assert!(e.message().contains("marks_*"), "{e}");
        // A flag the command refuses is an input error naming it.
        let e = Asked::parse(&line("blast --size 0"), &base, None).unwrap_err();
        assert!(
            matches!(e, Error::Input(_)) && e.message().contains("--size 0"),
            "{e}"
        );
    }

    #[test]
    fn a_cell_runs_with_the_experiments_seed_and_trials_and_keeps_its_tally() {
        let base = RuleOptions::default();
        let (q, opts) = Asked::parse(&line("duel --trials 7 --seed 99"), &base, None).unwrap();
        let run = CellRun {
            seed: 5,
            cell: 2,
            trials: 300,
            threads: Some(1),
            ..CellRun::default()
        };
        let cancel = AtomicBool::new(false);
        let Answer::Duel(a) = q.for_cell(&run).ask(&opts, &Silent, &cancel).unwrap() else {
            panic!("a stat-line duel answers as one");
        };
        assert_eq!((a.ran.trials, a.ran.seed), (300, 5));
        let Some(tally::AnyTally::Duel(tally)) = a.ran.tally.clone() else {
            panic!("a duel keeps a duel's tally");
        };
        let tally = *tally;
        assert_eq!(tally.a_wins + tally.b_wins + tally.draws, 300);
        assert_eq!(a.outcomes.shares[0].point, tally.a_wins as f64 / 300.0);
        // Another cell draws other streams; the same cell the same ones.
        let other = CellRun {
            cell: 3,
            ..run.clone()
        };
        let again = |r: &CellRun| match q.for_cell(r).ask(&opts, &Silent, &cancel).unwrap() {
            Answer::Duel(a) => a.ran.tally,
            _ => unreachable!("a duel"),
        };
        assert_eq!(again(&run), a.ran.tally);
        assert_ne!(again(&other), a.ran.tally);
        // A merge adds up the shards' tallies instead of running.
        let halves = CellRun {
            tallies: vec![a.ran.tally.clone().unwrap(), a.ran.tally.clone().unwrap()],
            trials: 600,
            ..run.clone()
        };
        let Answer::Duel(m) = q.for_cell(&halves).ask(&opts, &Silent, &cancel).unwrap() else {
            panic!("a duel");
        };
        assert_eq!(m.outcomes.shares[0].point, tally.a_wins as f64 / 300.0);
        assert_eq!((m.ran.trials_per_sec, m.ran.threads), (None, None));
        // Another question's tally is refused, not added.
        let foreign = CellRun {
            tallies: vec![tally::AnyTally::Marks(Default::default())],
            trials: 300,
            ..run.clone()
        };
        let refused = q.for_cell(&foreign).ask(&opts, &Silent, &cancel);
        assert!(
            matches!(&refused, Err(Error::Input(m)) if m.contains("not a tally of this question")),
            "{refused:?}"
        );
    }
}
