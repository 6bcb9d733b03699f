//! What every Monte Carlo command shares: the run flags, their checks, the engine, the
//! worker pool and progress bar, and writing the report.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::progress::Bar;
use super::{Failure, interrupted, io};
use crate::scenario::{Scenario, Tally};
use crate::sim::engine::{Ended, Engine, Run, Shard, Stop};

/// What `diemon run` and `diemon merge` tell a command about the experiment cell it runs.
/// Hidden: a person runs a cell with the command's own flags.
#[derive(Args, Debug, Clone, Default)]
pub struct CellArgs {
    /// The experiment cell: each cell of a sweep draws its own streams.
    #[arg(long, hide = true, default_value_t = 0)]
    pub cell: u64,
    /// Run only shard I/N of the cell's batches.
    #[arg(long, hide = true, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Put the raw tally in the JSON report (what a merge adds up).
    #[arg(long, hide = true)]
    pub with_tally: bool,
    /// Run nothing: add up these tallies (JSON, one per flag) and report their sum.
    #[arg(long = "tally", hide = true, value_name = "JSON")]
    pub tallies: Vec<String>,
    /// The text of the `--catalog` file as the experiment read it (kept in its manifest).
    #[arg(long = "catalog-text", hide = true, value_name = "TOML")]
    pub catalog_text: Option<String>,
}

/// The flags of a seeded run, as one command gives them.
pub(super) struct RunFlags {
    pub trials: u64,
    pub target_ci: Option<f64>,
    /// The largest sensible half-width (0.5 for a probability).
    pub max_half_width: f64,
    /// What the precision target is measured in, for the error message.
    pub ci_unit: &'static str,
    pub seed: u64,
    /// The experiment cell, shard and merge inputs.
    pub part: CellArgs,
    pub threads: Option<usize>,
    pub replay: Option<u64>,
    /// No progress bar (`--quiet` or `--json`).
    pub silent: bool,
}

impl RunFlags {
    pub fn check(&self) -> Result<(), Failure> {
        if self.trials == 0 {
            return Err(Failure::input("--trials 0: expected at least one trial"));
        }
        if let Some(x) = self.target_ci
            && !(x > 0.0 && x < self.max_half_width)
        {
            let range = if self.max_half_width.is_finite() {
                format!("above 0 and below {}", self.max_half_width)
            } else {
                "above 0".to_string()
            };
            return Err(Failure::input(format!(
                "--target-ci {x}: expected a half-width {range} ({})",
                self.ci_unit
            )));
        }
        if self.part.shard.is_some() && self.target_ci.is_some() {
            return Err(Failure::input(
                "--shard with --target-ci: a precision stop needs every batch in order\n\
                 hint: shard a run of fixed --trials",
            ));
        }
        check_threads(self.threads)?;
        if let Some(n) = self.replay
            && n >= self.trials
        {
            return Err(Failure::input(format!(
                "--replay-trial {n}: this run has trials 0 to {}",
                self.trials - 1
            )));
        }
        Ok(())
    }

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

    /// Runs `scenario` on a pool of `--threads` workers, with a bar unless silent.
    pub fn execute<S: Scenario>(
        &self,
        engine: &Engine,
        scenario: &S,
        what: &'static str,
        cancel: &AtomicBool,
    ) -> Result<(Run<S::Tally>, usize), Failure>
    where
        S::Tally: DeserializeOwned,
    {
        if !self.part.tallies.is_empty() {
            return Ok((self.merged::<S>()?, 0));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()
            .map_err(|e| Failure::other(format!("cannot start worker threads: {e}")))?;
        let threads = pool.current_num_threads();
        // Ctrl-C stops the run at a batch boundary, and the figures of what it finished print.
        let _guard = super::interrupt::Guard::new();
        let run = pool.install(|| {
            if self.silent {
                engine.run(scenario, &crate::sim::progress::Silent, cancel)
            } else {
                engine.run(scenario, &Bar::new(what), cancel)
            }
        });
        Ok((run, threads))
    }
}

impl RunFlags {
    /// The sum of the `--tally` inputs: what the run that made them all would have counted.
    fn merged<S: Scenario>(&self) -> Result<Run<S::Tally>, Failure>
    where
        S::Tally: DeserializeOwned,
    {
        let mut tally = S::Tally::default();
        for (i, t) in self.part.tallies.iter().enumerate() {
            let t: S::Tally = serde_json::from_str(t).map_err(|e| {
                Failure::input(format!(
                    "--tally {}: not a tally of this command: {e}",
                    i + 1
                ))
            })?;
            tally = tally + t;
        }
        let trials = tally.trials();
        if trials != self.trials {
            return Err(Failure::input(format!(
                "the tallies hold {trials} trials, the cell asks for {}\n\
                 hint: every shard must have finished the cell",
                self.trials
            )));
        }
        Ok(Run {
            tally,
            trials,
            ended: Ended::Complete,
            elapsed: Duration::ZERO,
        })
    }

    /// The JSON report as printed: with the raw tally when `diemon run` asks for it.
    pub fn json<T: Serialize>(
        &self,
        mut report: serde_json::Value,
        run: &Run<T>,
    ) -> Result<String, Failure> {
        if self.part.with_tally {
            // As a string: serde_json's Value cannot hold the tallies' 128-bit sums.
            let t = serde_json::to_string(&run.tally)
                .map_err(|e| Failure::other(format!("cannot write the tally: {e}")))?;
            report["tally"] = t.into();
        }
        if !self.part.tallies.is_empty()
            && let Some(m) = report.as_object_mut()
        {
            // A merge measures no speed: the shards' machines did the work.
            m.remove("trials_per_sec");
            m.remove("threads");
        }
        Ok(format!("{report}\n"))
    }
}

/// The most worker threads a run may ask for: four per core. More only slows a run down
/// (10,000 threads turned a 0.01 s duel into 47 s) and, far past it, cannot start.
pub(super) fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Checks `--threads`: from 1 to [`max_threads`].
pub(super) fn check_threads(threads: Option<usize>) -> Result<(), Failure> {
    match threads {
        Some(0) => Err(Failure::input("--threads 0: expected at least one thread")),
        Some(n) if n > max_threads() => Err(Failure::input(format!(
            "--threads {n}: expected at most {} on this machine (4 a core)
hint: leave              --threads out to use every core; more threads never change a result",
            max_threads()
        ))),
        _ => Ok(()),
    }
}

/// Writes a run's report; an interrupted run still prints what it finished, then exits 130.
pub(super) fn finish<T>(text: &str, run: &Run<T>, out: &mut dyn Write) -> Result<(), Failure> {
    io(out.write_all(text.as_bytes()))?;
    if run.ended == Ended::Interrupted {
        return Err(interrupted(run.trials));
    }
    Ok(())
}

pub(super) fn ended(e: Ended) -> &'static str {
    match e {
        Ended::Complete => "complete",
        Ended::Precise => "precision target met",
        Ended::Cap => "trial cap reached before the precision target",
        Ended::Interrupted => "interrupted",
    }
}
