//! `diemon run FILE`: an experiment file's sweep, exported as CSV and Parquet.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::Failure;
use super::progress::Cells;
use crate::experiment;
use crate::experiment::price::{roster, shard};
use crate::sim::engine::Shard;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon run                                   the default experiment (launcher-vs-swarm)
  diemon run experiments/hero-worth.toml       what a Hero is worth, in minifigs and CP
  diemon run experiments/cp-matched-duels.toml --out /tmp/duels --threads 2
  diemon run experiments/first-strike.toml --shard 2/4 --out /shared/first-strike-2
                                               one machine's quarter; `diemon merge` adds them

Writes DIR/manifest.toml first, then each cell's report to DIR/cells/ the moment it
finishes, so a killed run keeps the cells it finished and running the same experiment
again resumes where it stopped. At the end (or on Ctrl-C, from the cells finished) it
writes DIR/summary.csv and .parquet (one row per cell), DIR/distributions.csv and
.parquet (each cell's histograms, long form) and DIR/by_ring.csv and .parquet for
Explosions (kills by ring), with the manifest as Parquet key-value metadata, then the
report. Every file is written whole or not at all (a temporary file renamed into place).
One command writes a folder at a time. docs/cluster.md shows sharded runs on Slurm and
Kubernetes.")]
pub struct RunArgs {
    /// The experiment file (TOML; see experiments/). Without one, the built-in default:
    /// experiments/launcher-vs-swarm.toml.
    pub file: Option<PathBuf>,
    /// Where to write (default: reports/NAME, or reports/NAME-shard-I-of-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Worker threads for each cell (default: all cores). Never changes a result.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only shard I of N of every cell's trial batches (1-based), for a cluster; the
    /// shards' outputs add up exactly with `diemon merge`.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// No per-cell lines and no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(
    a: &RunArgs,
    cancel: &AtomicBool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    // Read once: `/dev/stdin` or a pipe has no second reading.
    let loaded = match &a.file {
        Some(f) => {
            let text = experiment::read(f).map_err(experiment::sweep::input_errors)?;
            if roster::is_roster(&text) {
                return run_roster(a, f, &text, cancel, out);
            }
            experiment::load_text(f, &text)
        }
        None => experiment::default_experiment(),
    };
    let e = loaded.map_err(experiment::sweep::input_errors)?;
    crate::question::run::check_threads(a.threads)?;
    if a.shard.is_some() && e.target_ci.is_some() {
        return Err(Failure::input(format!(
            "--shard: {} stops each cell at a CI target, which needs every batch in order\n\
             hint: shard an experiment of fixed trials (drop target_ci)",
            e.name
        )));
    }
    let dir = a.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(match a.shard {
            Some(s) => format!("{}-shard-{}-of-{}", e.name, s.index + 1, s.count),
            None => e.name.clone(),
        })
    });
    let _guard = super::interrupt::Guard::new();
    let watch = Cells::new(a.quiet);
    let drive = experiment::error::Drive {
        threads: a.threads,
        quiet: a.quiet,
        watch: &watch,
        cancel,
    };
    Ok(experiment::sweep::run(&e, &dir, a.shard, drive, out, err)?)
}

/// An experiment of kind `price`: a roster of units priced and ranked.
fn run_roster(
    a: &RunArgs,
    file: &std::path::Path,
    text: &str,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let r = roster::parse(&file.display().to_string(), text, file.parent())
        .map_err(experiment::sweep::input_errors)?;
    crate::question::run::check_threads(a.threads)?;
    let how = Job {
        out: a.out.clone(),
        shard: a.shard,
        threads: a.threads,
        quiet: a.quiet,
    };
    roster_job(&r, &how, cancel, out)
}

/// Where and how a roster runs.
pub struct Job {
    pub out: Option<PathBuf>,
    pub shard: Option<Shard>,
    pub threads: Option<usize>,
    pub quiet: bool,
}

/// Prices the roster `r` into `how.out` (default reports/NAME), or only its shard
/// `how.shard` (default reports/NAME-shard-I-of-N).
pub fn roster_job(
    r: &roster::Roster,
    how: &Job,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let _guard = super::interrupt::Guard::new();
    let watch = Cells::new(how.quiet);
    let Some(s) = how.shard else {
        let dir = how
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("reports").join(&r.name));
        let drive = experiment::error::Drive {
            threads: how.threads,
            quiet: how.quiet,
            watch: &watch,
            cancel,
        };
        return Ok(roster::run(r, &dir, drive, out)?);
    };
    // Shard I/N of a roster: whole families of every unit dealt in turn (issue 39, item 7).
    let dir = how.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(format!("{}-shard-{}-of-{}", r.name, s.index + 1, s.count))
    });
    let _held = experiment::lock::lock(&dir)?;
    let plans = roster::plans(r)?;
    let items: Vec<_> = plans
        .iter()
        .map(|(p, plan)| (p, plan, roster::unit_folder(&dir, &p.unit)))
        .collect();
    let ran = shard::run_families(&items, s, how.threads, &watch, cancel)?;
    let all: usize = plans.iter().map(|(_, plan)| plan.fits.len()).sum();
    shard::write(
        &dir,
        &shard::Record {
            shard: s.to_string(),
            key: shard::key(&plans.iter().map(|(_, plan)| plan).collect::<Vec<_>>()),
            job: shard::Job::Roster(r.clone()),
        },
    )?;
    super::io(writeln!(
        out,
        "{}: shard {s}: {ran} of {all} families of {} units kept in {}\nhint: `diemon merge` \
         every shard's folder to price the roster (nothing is fought again)",
        r.name,
        r.units.len(),
        dir.display()
    ))
}
