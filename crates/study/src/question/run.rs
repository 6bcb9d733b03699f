//! The flags every seeded run shares, and their checks: trials, a precision target, the
//! seed, worker threads, a replayed trial, and what an experiment tells a cell (its index,
//! its shard, the tallies it resumes from). Each command flattens [`RunFlags`]' inputs in
//! its own `Args`; the checks here are the only ones.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use serde::{Deserialize, Serialize};

use super::Error;
use super::tally::{AnyTally, Kept};
pub use diemon_core::sim::engine::Shard;
use diemon_core::sim::engine::{Ended, Engine, Run, Stop};
use diemon_core::sim::progress::Progress;
use diemon_core::sim::{Scenario, Tally};

/// What `diemon run` and `diemon merge` tell a question about the experiment cell it is:
/// set in the typed question, never on a command line (a person runs a cell with the
/// command's own flags).
#[derive(Debug, Clone, Default)]
pub struct CellArgs {
    /// The experiment cell: each cell of a sweep draws its own streams.
    pub cell: u64,
    /// Run only shard I/N of the cell's batches.
    pub shard: Option<Shard>,
    /// Put the raw tally in the answer (what a merge adds up).
    pub with_tally: bool,
    /// Run nothing: add up these tallies (each a shard's) and answer their sum.
    pub tallies: Vec<AnyTally>,
    /// Go on from the first trials of an earlier run of this cell to a lower cap (its
    /// tally, as JSON, and stream): the race of a price refines a cell this way.
    pub resume: Option<Resume>,
    /// The text of the `--catalog` file as the experiment read it (kept in its manifest).
    pub catalog_text: Option<String>,
}

/// The first trials of a cell's precision run, as its answer kept them (`tally`, `rng`,
/// `trials`), for a run to a finer target or a higher cap to go on from.
#[derive(Debug, Clone)]
pub struct Resume {
    /// Their sums.
    pub tally: AnyTally,
    /// The first batch's stream where they stopped.
    pub rng: diemon_core::sim::seed::Rng,
    /// Trials counted.
    pub trials: u64,
}

/// The flags of a seeded Monte Carlo run, declared once for `duel` and `blast` (each may
/// change a default or a help line with clap's `mut_arg`).
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Trials to run (accepts 1e7, 10M, 10_000_000).
    #[arg(long, value_parser = parse_trials, allow_negative_numbers = true, default_value = "1000000")]
    pub trials: u64,
    /// Stop once the 95% CI half-width of the key figure is at most X (at most --trials
    /// trials).
    #[arg(long, value_name = "X")]
    pub target_ci: Option<f64>,
    /// Narrate trial N (0-based) of this run instead of running it all.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub replay_trial: Option<u64>,
    /// The seed, threads and output.
    #[command(flatten)]
    pub out: Seeded,
}

/// The seed, the worker threads and the output of any seeded run (`marks --trials` too).
#[derive(Args, Debug, Clone)]
pub struct Seeded {
    /// Master seed (same seed, same digits, on any thread count).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Never changes a result.
    #[arg(long)]
    pub threads: Option<usize>,
    /// What `diemon run` tells the question about the cell it is (never a flag).
    #[arg(skip)]
    pub part: CellArgs,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object (no progress bar).
    #[arg(long)]
    pub json: bool,
}

impl RunArgs {
    /// The checked run flags, with the largest sensible half-width of the key figure and
    /// what it is measured in (for the error message).
    pub fn flags(&self, max_half_width: f64, ci_unit: &'static str) -> RunFlags {
        RunFlags {
            trials: self.trials,
            target_ci: self.target_ci,
            max_half_width,
            ci_unit,
            seed: self.out.seed,
            part: self.out.part.clone(),
            threads: self.out.threads,
            replay: self.replay_trial,
            silent: self.out.quiet || self.out.json,
        }
    }
}

/// The flags of a seeded run, as one command gives them.
pub struct RunFlags {
    /// Trials (with a precision target, the most).
    pub trials: u64,
    /// Stop once the key figure's 95% CI half-width is at most this.
    pub target_ci: Option<f64>,
    /// The largest sensible half-width (0.5 for a probability).
    pub max_half_width: f64,
    /// What the precision target is measured in, for the error message.
    pub ci_unit: &'static str,
    /// The master seed.
    pub seed: u64,
    /// The experiment cell, shard and merge inputs.
    pub part: CellArgs,
    /// Worker threads; none, every core.
    pub threads: Option<usize>,
    /// The trial to narrate instead of running all.
    pub replay: Option<u64>,
    /// No progress bar (`--quiet` or `--json`).
    pub silent: bool,
}

impl RunFlags {
    /// Checks the flags as running would.
    pub fn check(&self) -> Result<(), Error> {
        if self.trials == 0 {
            return Err(Error::input("--trials 0: expected at least one trial"));
        }
        if let Some(x) = self.target_ci
            && !(x > 0.0 && x < self.max_half_width)
        {
            let range = if self.max_half_width.is_finite() {
                format!("above 0 and below {}", self.max_half_width)
            } else {
                "above 0".to_string()
            };
            return Err(Error::input(format!(
                "--target-ci {x}: expected a half-width {range} ({})",
                self.ci_unit
            )));
        }
        if self.part.shard.is_some() && self.target_ci.is_some() {
            return Err(Error::input(
                "--shard with --target-ci: a precision stop needs every batch in order\n\
                 hint: shard a run of fixed --trials",
            ));
        }
        check_threads(self.threads)?;
        if let Some(n) = self.replay
            && n >= self.trials
        {
            return Err(Error::input(format!(
                "--replay-trial {n}: this run has trials 0 to {}",
                self.trials - 1
            )));
        }
        Ok(())
    }

    /// The seeded engine these flags run.
    pub fn engine(&self) -> Engine {
        Engine {
            seed: self.seed,
            cell: self.part.cell,
            shard: self.part.shard.unwrap_or(Shard::WHOLE),
            stop: match self.target_ci {
                Some(x) => Stop::Precision {
                    half_width: x,
                    max_trials: self.trials,
                },
                None => Stop::Trials(self.trials),
            },
        }
    }
}

/// The most worker threads a run may ask for: four per core. More only slows a run down
/// (10,000 threads turned a 0.01 s duel into 47 s) and, far past it, cannot start.
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Checks `--threads`: from 1 to [`max_threads`].
pub fn check_threads(threads: Option<usize>) -> Result<(), Error> {
    match threads {
        Some(0) => Err(Error::input("--threads 0: expected at least one thread")),
        Some(n) if n > max_threads() => Err(Error::input(format!(
            "--threads {n}: expected at most {} on this machine (4 a core)
hint: leave --threads out to use every core; more threads never change a result",
            max_threads()
        ))),
        _ => Ok(()),
    }
}

pub use diemon_core::sim::count::{CountError, parse_count, parse_trials};

/// How a run went: the part every Monte Carlo answer opens with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ran {
    /// Trials run.
    pub trials: u64,
    /// The master seed.
    pub seed: u64,
    /// How the run ended, in words ("complete", "precision target met", ...).
    pub ended: String,
    /// Trials a second of wall time: a measurement, not a seeded figure; none for a merge,
    /// whose shards' machines did the work.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub trials_per_sec: Option<f64>,
    /// Worker threads used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// The raw tally, when an experiment asks for it: what a merge adds up and an analysis
    /// counts.
    #[serde(
        with = "super::tally::as_text",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub tally: Option<AnyTally>,
    /// With the tally, the stream where a precision run stopped at its cap inside its
    /// first batch: a run to a finer target goes on from it ([`Resume`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rng: Option<diemon_core::sim::seed::Rng>,
    /// Wall time the run took.
    #[serde(skip)]
    pub elapsed: Duration,
    /// Ctrl-C stopped it.
    #[serde(skip)]
    pub interrupted: bool,
}

impl Ran {
    /// How run `run` of flags `flags` went.
    pub fn new<T: Kept + Clone>(
        flags: &RunFlags,
        run: &Run<T>,
        threads: usize,
    ) -> Result<Ran, Error> {
        let merged = !flags.part.tallies.is_empty();
        let tally = flags.part.with_tally.then(|| run.tally.clone().kept());
        Ok(Ran {
            trials: run.trials,
            seed: flags.seed,
            ended: ended(run.ended).to_string(),
            trials_per_sec: (!merged).then(|| run.trials_per_sec()),
            threads: (!merged).then_some(threads),
            rng: if flags.part.with_tally {
                run.rng.clone()
            } else {
                None
            },
            tally,
            elapsed: run.elapsed,
            interrupted: run.ended == Ended::Interrupted,
        })
    }

    /// "14.63 M duels/s on 2 threads (0.00 s)", or what a merge says instead.
    pub fn speed(&self, what: &str, decimals: usize) -> String {
        match (self.trials_per_sec, self.threads) {
            (Some(r), Some(t)) => format!(
                "{:.decimals$} M {what}/s on {t} thread{} ({:.2} s)",
                r / 1e6,
                diemon_core::plural::s(t),
                self.elapsed.as_secs_f64()
            ),
            _ => "added up from the shards' tallies".to_string(),
        }
    }
}

impl RunFlags {
    /// The worker pool of `--threads` (all cores by default) a run goes on.
    pub fn pool(&self) -> Result<rayon::ThreadPool, Error> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()
            .map_err(|e| Error::other(format!("cannot start worker threads: {e}")))
    }

    /// Runs `scenario` on its own pool and says how it went: [`execute`] with the pool's
    /// thread count.
    pub fn ran<S: Scenario<Tally: Kept>>(
        &self,
        scenario: &S,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Result<(Run<S::Tally>, Ran), Error> {
        let pool = self.pool()?;
        let run = pool.install(|| execute(self, scenario, progress, cancel))?;
        let ran = Ran::new(self, &run, pool.current_num_threads())?;
        Ok((run, ran))
    }
}

/// How a run ended, in words.
pub fn ended(e: Ended) -> &'static str {
    e.words()
}

/// Runs `scenario` as `flags` ask on the current rayon pool, or adds up the tallies a merge
/// gives instead of running. Ctrl-C (`cancel`) stops it at a batch boundary.
pub fn execute<S: Scenario<Tally: Kept>>(
    flags: &RunFlags,
    scenario: &S,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<Run<S::Tally>, Error> {
    if flags.part.tallies.is_empty() {
        let from = match &flags.part.resume {
            Some(r) => Some(diemon_core::sim::engine::Prefix {
                tally: S::Tally::from_kept(r.tally.clone())
                    .ok_or_else(|| Error::input("the kept tally is not one of this question"))?,
                rng: r.rng.clone(),
                trials: r.trials,
            }),
            None => None,
        };
        Ok(flags.engine().run_from(scenario, from, progress, cancel))
    } else {
        merged::<S>(flags)
    }
}

/// The sum of the `--tally` inputs: what the run that made them all would have counted.
fn merged<S: Scenario<Tally: Kept>>(flags: &RunFlags) -> Result<Run<S::Tally>, Error> {
    let mut tally = S::Tally::default();
    for (i, t) in flags.part.tallies.iter().enumerate() {
        let t = S::Tally::from_kept(t.clone()).ok_or_else(|| {
            Error::input(format!(
                "shard tally {}: not a tally of this question",
                i + 1
            ))
        })?;
        tally = tally + t;
    }
    let trials = tally.trials();
    if trials != flags.trials {
        return Err(Error::input(format!(
            "the tallies hold {trials} trials, the cell asks for {}\n\
             hint: every shard must have finished the cell",
            flags.trials
        )));
    }
    Ok(Run {
        tally,
        trials,
        ended: Ended::Complete,
        elapsed: Duration::ZERO,
        rng: None,
        fresh: 0,
    })
}
