//! The run flow every Monte Carlo command shares: the worker pool and progress bar, adding
//! up merged tallies, and writing the report. The flags and their checks are
//! [`crate::question::run`]'s.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::progress::Bar;
use super::{Failure, interrupted, io};
use crate::question::run::RunFlags;
use crate::scenario::{Scenario, Tally};
use crate::sim::engine::{Ended, Engine, Run};

/// Runs `scenario` on a pool of `--threads` workers, with a bar unless silent.
pub fn execute<S: Scenario>(
    flags: &RunFlags,
    engine: &Engine,
    scenario: &S,
    what: &'static str,
    cancel: &AtomicBool,
) -> Result<(Run<S::Tally>, usize), Failure>
where
    S::Tally: DeserializeOwned,
{
    if !flags.part.tallies.is_empty() {
        return Ok((merged::<S>(flags)?, 0));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(flags.threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::other(format!("cannot start worker threads: {e}")))?;
    let threads = pool.current_num_threads();
    // Ctrl-C stops the run at a batch boundary, and the figures of what it finished print.
    let _guard = super::interrupt::Guard::new();
    let run = pool.install(|| {
        if flags.silent {
            engine.run(scenario, &crate::sim::progress::Silent, cancel)
        } else {
            engine.run(scenario, &Bar::new(what), cancel)
        }
    });
    Ok((run, threads))
}

/// The sum of the `--tally` inputs: what the run that made them all would have counted.
fn merged<S: Scenario>(flags: &RunFlags) -> Result<Run<S::Tally>, Failure>
where
    S::Tally: DeserializeOwned,
{
    let mut tally = S::Tally::default();
    for (i, t) in flags.part.tallies.iter().enumerate() {
        let t: S::Tally = serde_json::from_str(t).map_err(|e| {
            Failure::input(format!(
                "--tally {}: not a tally of this command: {e}",
                i + 1
            ))
        })?;
        tally = tally + t;
    }
    let trials = tally.trials();
    if trials != flags.trials {
        return Err(Failure::input(format!(
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
    })
}

/// The JSON report as printed: with the raw tally when `diemon run` asks for it.
pub fn json<T: Serialize>(
    flags: &RunFlags,
    mut report: serde_json::Value,
    run: &Run<T>,
) -> Result<String, Failure> {
    if flags.part.with_tally {
        // As a string: serde_json's Value cannot hold the tallies' 128-bit sums.
        let t = serde_json::to_string(&run.tally)
            .map_err(|e| Failure::other(format!("cannot write the tally: {e}")))?;
        report["tally"] = t.into();
    }
    if !flags.part.tallies.is_empty()
        && let Some(m) = report.as_object_mut()
    {
        // A merge measures no speed: the shards' machines did the work.
        m.remove("trials_per_sec");
        m.remove("threads");
    }
    Ok(format!("{report}\n"))
}

/// Adds the fields of `extra` (a struct serialised as a map) to the JSON object `o`.
pub fn extend<T: Serialize>(o: &mut serde_json::Value, extra: &T) {
    if let (Some(o), Ok(serde_json::Value::Object(m))) =
        (o.as_object_mut(), serde_json::to_value(extra))
    {
        o.extend(m);
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
