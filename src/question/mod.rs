//! Questions: what a Monte Carlo command asks, typed and checked before anything runs.
//!
//! Each command's inputs are a clap `Args` struct here, in the library, so the command line
//! and an experiment file's cells build the same values and check them the same way
//! ([`check`]). A question builds the scenario it asks about; the CLI runs it and prints.
//!
//! - [`run`]: the flags every seeded run shares (trials, a precision target, the seed,
//!   threads, a replayed trial, the experiment cell) and their checks.
//! - [`duel`] and [`squad`]: `diemon duel`, two stat lines or two squads of catalog units.
//! - [`blast`]: `diemon blast`, a turn of Explosive or automatic fire at a formation.
//! - [`outcomes`]: who won how often, the figures both duels answer with.
//! - [`marks`]: `diemon marks`, a Marks pool's roll, tries or extended roll.

pub mod blast;
pub mod duel;
pub mod marks;
pub mod outcomes;
pub mod run;
pub mod squad;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::catalog::{Catalog, CatalogError};
use crate::dice::ParseError;
use crate::options::RuleOptions;

/// Why a question cannot be asked. The CLI picks the exit code from the kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Bad input: a flag, an expression, a unit or item the catalog lacks (exit code 2).
    #[error("{0}")]
    Input(String),
    /// Not the input's fault: a catalog entry the code cannot use, said as a bug (exit 1).
    #[error("{0}")]
    Other(String),
}

impl Error {
    pub fn input(message: impl Into<String>) -> Error {
        Error::Input(message.into())
    }
    pub fn other(message: impl Into<String>) -> Error {
        Error::Other(message.into())
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

/// The questions an experiment's cells can ask.
#[derive(Subcommand, Debug)]
enum Asked {
    Duel(duel::DuelArgs),
    Blast(blast::BlastArgs),
    Marks(marks::MarksArgs),
}

/// Checks a `duel`, `blast` or `marks` command line (with `opts`, under the line's own
/// `-o`) as running it would, without running it: what an experiment checks of every cell
/// before it starts.
pub fn check(args: &[String], opts: &RuleOptions) -> Result<(), Error> {
    let line = Line::try_parse_from(args).map_err(|e| {
        Error::input(
            e.render()
                .to_string()
                .lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: "),
        )
    })?;
    let mut opts = *opts;
    for a in &line.options {
        opts.assign(a)
            .map_err(|e| Error::input(format!("-o {a}: {e}")))?;
    }
    match &line.asked {
        Asked::Duel(a) if squad::wanted(a) => squad::build(a, &opts).map(|_| ()),
        Asked::Duel(a) => duel::build(a, &opts).map(|_| ()),
        Asked::Blast(a) => blast::validate(a, &opts),
        Asked::Marks(a) => marks::validate(a, &opts),
    }
}
