//! The `diemon` command line: clap definitions, dispatch, and exit codes.
//!
//! `main` calls [`run`] and exits with what it returns: 0 on success, 2 on bad input (a dice
//! expression, an option, an argument), 1 when something else failed (writing output), 130
//! after Ctrl-C (the `interrupt` module). The library never prints; only this module does.

mod balance;
mod blast;
mod burst;
mod dist;
mod duel;
mod index;
mod interrupt;
mod layout;
mod marks;
mod merge;
mod options;
mod price;
mod progress;
mod report;
mod roll;
mod run;
mod runs;
mod shell;
mod squad;
mod table;
mod unit;
mod weapon;

use std::ffi::OsString;
use std::fmt;
use std::io::{IsTerminal, Write};

use clap::{Parser, Subcommand};

use crate::dice::ParseError;
use crate::rules::RuleOptions;

/// Exit code for bad input.
pub const EXIT_INPUT: i32 = 2;
/// Exit code for any other failure.
pub const EXIT_FAILURE: i32 = 1;
/// Exit code after Ctrl-C (128 + SIGINT), once the finished part was reported.
pub const EXIT_INTERRUPTED: i32 = 130;
/// Exit code after SIGTERM (128 + SIGTERM), handled as Ctrl-C is.
pub const EXIT_TERMINATED: i32 = 143;

use interrupt::CANCEL;

/// The failure reported after an interrupted run.
fn interrupted(trials: u64) -> Failure {
    Failure {
        code: EXIT_INTERRUPTED,
        message: format!("interrupted: the figures above cover the {trials} trials finished"),
    }
}

/// The end of `diemon --help`: examples and the exit status.
const AFTER_HELP: &str = "Examples:
  diemon dist \"2d10 exp\" --armor 4
  diemon dist \"d6 skill - 1\" --use 3 --trials 1000000 --seed 7
  diemon roll \"sn d8 + 2\" --seed 12
  diemon duel d6/2/1d6/4 d10/3/1d6+1/2d6 --trials 10M
  diemon run experiments/hero-worth.toml
  diemon options
  diemon unit show minifig
  diemon weapon launcher --size 3";

/// How every command's help (and man page) ends: [`command`] appends it to each.
pub const EXIT_STATUS: &str = "Exit status:
  0    success
  1    something failed that is not the input's fault (writing a file, a full disk)
  2    bad input: an expression, flag, experiment file or catalog (the message names the
       file, line and column, and nothing is written)
  130  interrupted by Ctrl-C: a run prints the figures of the trials it finished, and
       `diemon run` keeps the cells it finished and resumes from them when run again
  143  stopped by SIGTERM (kill, a batch system, a container stop): as Ctrl-C";

/// diemon's command line as parsed, completed and paged: the clap definitions, with the
/// exit status at the end of every command's help.
pub fn command() -> clap::Command {
    fn with_exit(c: clap::Command) -> clap::Command {
        let after = match c.get_after_help() {
            Some(h) => format!("{h}\n\n{EXIT_STATUS}"),
            None => EXIT_STATUS.to_string(),
        };
        c.after_help(after).mut_subcommands(with_exit)
    }
    with_exit(<Cli as clap::CommandFactory>::command())
}

#[derive(Parser, Debug)]
#[command(
    name = "diemon",
    version,
    about = "Exact and Monte Carlo balance analysis for BrikWars",
    long_about = "diemon plays BrikWars by the rule texts (dice with Bonus Dice, Critical Failure, \
Overskill, Blessings, Curses and SuperNatural Fumbles; the catalog's units and CP costs; squad \
battles fought to the end with every weapon of Ch. 8; Explosions and automatic weapons against \
formations) and answers with exact \
probabilities, or seeded Monte Carlo estimates with confidence intervals. Experiment files \
sweep a question over a grid and export CSV and Parquet (`diemon run`).\n\n\
Dice expressions use the notation of the texts: 1d6+1, 2d6-1, 3d10 exp, 1d4 fire, 1d8 blast, \
1d6 pierce, 1d12 phased, d10 skill, d6 skill bless d8, d8 skill curse, sn d8, and sums of these.",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Set a rule option for this run, as key=value (repeatable; `diemon options` lists them).
    #[arg(short = 'o', long = "option", value_name = "KEY=VALUE", global = true)]
    pub options: Vec<String>,
}

#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant, reason = "one command a run, parsed once")]
pub enum Command {
    /// The exact distribution of a dice expression: table, chart, mean, and chances.
    Dist(dist::DistArgs),
    /// Duels: two stat lines in base contact, or squads of catalog units fought to the end
    /// (seeded Monte Carlo).
    Duel(crate::question::duel::DuelArgs),
    /// A turn of Explosive fire at a formation: kills by ring, per shot and per CP.
    Blast(crate::question::blast::BlastArgs),
    /// A MachineGun burst's exact chances of jamming (Ch. 8.3).
    Burst(burst::BurstArgs),
    /// The Marks dice-pool system: exact odds of each success level for one roll.
    Marks(crate::question::marks::MarksArgs),
    /// Run an experiment file: a sweep of duels, blasts or Marks pools, exported as CSV
    /// and Parquet, with a report.
    Run(run::RunArgs),
    /// Add up the shards of an experiment run on several machines (`run --shard I/N`) into
    /// the frames one machine would have written.
    Merge(merge::MergeArgs),
    /// What a unit should cost: its fair CP against several references over several
    /// starting distances, their spread, and a verdict against its listed CP.
    Price(price::PriceArgs),
    /// Balance a whole catalog: the CP table at which every unit is worth its cost against
    /// the others, the imbalance score as listed and proposed, and under a cost formula.
    Balance(balance::BalanceArgs),
    /// Redraw a run's report (report.md, report.html, charts/) from its Parquet files.
    Report(report::ReportArgs),
    /// Write the reports' first page (DIR/index.html): every report, its question, its
    /// answer in one sentence and its first chart.
    Index(index::IndexArgs),
    /// Roll a dice expression once, narrated die by die.
    Roll(roll::RollArgs),
    /// List the rule options: what the texts leave open and diemon's defaults.
    Options,
    /// Units of the catalog: stat cards and CP breakdowns.
    Unit(unit::UnitArgs),
    /// A weapon's stats from its Weapon Size (Ch. 8.1), or a named item's.
    Weapon(weapon::WeaponArgs),
    /// A table's layout: its size, zones and terrain drawn an inch a character (a named
    /// layout from a seed, or a layout file checked line by line).
    Table(layout::TableArgs),
    /// Shell completions for bash, zsh, fish, elvish or PowerShell, on stdout.
    Completions(shell::CompletionsArgs),
    /// A man page (roff) on stdout: diemon's, or one command's.
    Man(shell::ManArgs),
}

/// A failure with its exit code; the message is printed as `error: ...`.
#[derive(Debug)]
pub struct Failure {
    pub code: i32,
    pub message: String,
}

impl Failure {
    pub fn input(message: impl Into<String>) -> Failure {
        Failure {
            code: EXIT_INPUT,
            message: message.into(),
        }
    }
    pub fn other(message: impl Into<String>) -> Failure {
        Failure {
            code: EXIT_FAILURE,
            message: message.into(),
        }
    }
}

impl From<crate::question::Error> for Failure {
    fn from(e: crate::question::Error) -> Failure {
        match e {
            crate::question::Error::Input(m) => Failure::input(m),
            crate::question::Error::Other(m) => Failure::other(m),
            other => Failure::other(other.to_string()),
        }
    }
}

impl From<crate::experiment::error::RunError> for Failure {
    fn from(e: crate::experiment::error::RunError) -> Failure {
        use crate::experiment::error::RunError;
        match e {
            RunError::Input(m) => Failure::input(m),
            RunError::Other(m) => Failure::other(m),
            RunError::Interrupted(message) => Failure {
                code: EXIT_INTERRUPTED,
                message,
            },
            other => Failure::other(other.to_string()),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Parses `args` (including the program name), runs the command, writes to `out`/`err`,
/// and returns the exit code.
pub fn run_with<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let parsed = command()
        .try_get_matches_from(args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            // Help and version are not errors.
            let code = if e.use_stderr() { EXIT_INPUT } else { 0 };
            // Colour only on a terminal that has not asked for none (NO_COLOR).
            let tty = if code == 0 {
                std::io::stdout().is_terminal()
            } else {
                std::io::stderr().is_terminal()
            };
            let text = if tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            let _ = if code == 0 {
                write!(out, "{text}")
            } else {
                write!(err, "{text}")
            };
            return code;
        }
    };
    match dispatch(&cli, out, err) {
        Ok(()) => 0,
        Err(f) => {
            let _ = writeln!(err, "error: {}", f.message);
            match f.code {
                // The same clean stop, whichever signal asked for it.
                EXIT_INTERRUPTED => interrupt::exit_code(),
                code => code,
            }
        }
    }
}

/// Runs the process's own command line on stdout/stderr.
pub fn run() -> i32 {
    interrupt::install();
    // Unlocked handles: a progress bar draws on stderr from worker threads, and a lock held
    // here for the whole command would stop them for good (and with them, Ctrl-C).
    run_with(
        std::env::args_os(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    )
}

fn dispatch(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Failure> {
    let opts = rule_options(&cli.options)?;
    unused_options(cli)?;
    match &cli.command {
        Command::Dist(a) => dist::run(a, &opts, &CANCEL, out),
        Command::Duel(a) => duel::run(a, &opts, &CANCEL, out),
        Command::Blast(a) => blast::run(a, &opts, &CANCEL, out),
        Command::Burst(a) => burst::run(a, &opts, out),
        Command::Marks(a) => marks::run(a, &opts, &CANCEL, out),
        Command::Run(_) if !cli.options.is_empty() => Err(Failure::input(
            "-o sets options for one command; an experiment keeps its own\nhint: put them under \
             [options] in the experiment file",
        )),
        Command::Run(a) => run::run(a, &CANCEL, out, err),
        Command::Merge(_) if !cli.options.is_empty() => Err(Failure::input(
            "-o: a merge adds up runs that already chose their options",
        )),
        Command::Merge(a) => merge::run(a, &CANCEL, out),
        Command::Price(a) => price::run(a, &cli.options, &CANCEL, out),
        Command::Balance(a) => balance::run(a, &cli.options, &CANCEL, out),
        Command::Report(a) => report::run(a, out),
        Command::Index(a) => index::run(a, out),
        Command::Roll(a) => roll::run(a, &opts, out),
        Command::Options => options::run(&opts, out),
        Command::Unit(a) => unit::run(a, out),
        Command::Weapon(a) => weapon::run(a, out),
        Command::Table(a) => layout::run(a, out),
        Command::Completions(a) => shell::completions(a, out),
        Command::Man(a) => shell::man(a, out),
    }
}

impl Command {
    /// The subcommand's name as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Dist(_) => "dist",
            Command::Duel(_) => "duel",
            Command::Blast(_) => "blast",
            Command::Burst(_) => "burst",
            Command::Marks(_) => "marks",
            Command::Run(_) => "run",
            Command::Merge(_) => "merge",
            Command::Price(_) => "price",
            Command::Balance(_) => "balance",
            Command::Report(_) => "report",
            Command::Index(_) => "index",
            Command::Roll(_) => "roll",
            Command::Options => "options",
            Command::Unit(_) => "unit",
            Command::Weapon(_) => "weapon",
            Command::Table(_) => "table",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
        }
    }
}

/// Refuses an `-o` the command would ignore (`run` and `merge` refuse theirs in `dispatch`).
fn unused_options(cli: &Cli) -> Result<(), Failure> {
    let Some(first) = cli.options.first() else {
        return Ok(());
    };
    if matches!(
        cli.command,
        Command::Report(_)
            | Command::Index(_)
            | Command::Unit(_)
            | Command::Weapon(_)
            | Command::Table(_)
            | Command::Completions(_)
            | Command::Man(_)
    ) {
        return Err(Failure::input(format!(
            "-o {first}: `diemon {}` uses no rule option\nhint: options change dice, duels, \
             blasts and Marks rolls; `diemon options` lists them",
            cli.command.name()
        )));
    }
    if matches!(
        cli.command,
        Command::Options
            | Command::Run(_)
            | Command::Merge(_)
            | Command::Price(_)
            | Command::Balance(_)
    ) {
        return Ok(());
    }
    match misplaced(&cli.command, &cli.options) {
        Some(o) => Err(Failure::input(format!(
            "-o {o}: `diemon {}` does not use this option\nhint: {}",
            cli.command.name(),
            if matches!(cli.command, Command::Marks(_)) {
                "only the marks_* options change a Marks roll"
            } else {
                "the marks_* options change only `diemon marks`"
            }
        ))),
        None => Ok(()),
    }
}

/// The first `-o` that the command cannot use: a `marks_*` option anywhere but `marks`, or
/// any other option in `marks` (the Marks system shares no rule with BrikWars).
fn misplaced<'a>(c: &Command, options: &'a [String]) -> Option<&'a str> {
    let marks = matches!(c, Command::Marks(_));
    options
        .iter()
        .find(|o| o.trim_start().starts_with("marks_") != marks)
        .map(String::as_str)
}

fn rule_options(assignments: &[String]) -> Result<RuleOptions, Failure> {
    let mut o = RuleOptions::default();
    for a in assignments {
        o.assign(a).map_err(|e| {
            Failure::input(format!(
                "-o {a}: {e}\nhint: `diemon options` lists every option and its values"
            ))
        })?;
    }
    Ok(o)
}

/// Turns a parse error into an input failure pointing at the column.
fn bad_expr(name: &str, text: &str, e: &ParseError) -> Failure {
    crate::question::Error::expr(name, text, e).into()
}

/// Writes, mapping an I/O error (a closed pipe, a full disk) to a failure.
fn io(r: std::io::Result<()>) -> Result<(), Failure> {
    match r {
        Ok(()) => Ok(()),
        // `diemon dist ... | head` closes the pipe early: that is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::other(format!("cannot write output: {e}"))),
    }
}
