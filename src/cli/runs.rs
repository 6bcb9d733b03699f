//! What every Monte Carlo command shares: the run flags, their checks, the engine, the
//! worker pool and progress bar, and writing the report.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use super::progress::Bar;
use super::{Failure, interrupted, io};
use crate::scenario::Scenario;
use crate::sim::engine::{Ended, Engine, Run, Stop};

/// The flags of a seeded run, as one command gives them.
pub(super) struct RunFlags {
    pub trials: u64,
    pub target_ci: Option<f64>,
    /// The largest sensible half-width (0.5 for a probability).
    pub max_half_width: f64,
    /// What the precision target is measured in, for the error message.
    pub ci_unit: &'static str,
    pub seed: u64,
    /// The experiment cell: each cell of a sweep draws its own streams.
    pub cell: u64,
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
            return Err(Failure::input(format!(
                "--target-ci {x}: expected a half-width above 0 and below {} ({})",
                self.max_half_width, self.ci_unit
            )));
        }
        if self.threads == Some(0) {
            return Err(Failure::input("--threads 0: expected at least one thread"));
        }
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
            cell: self.cell,
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
    ) -> Result<(Run<S::Tally>, usize), Failure> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.unwrap_or(0))
            .build()
            .map_err(|e| Failure::other(format!("cannot start worker threads: {e}")))?;
        let threads = pool.current_num_threads();
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
