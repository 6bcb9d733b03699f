//! What every Monte Carlo command shares on the terminal: the progress bar, the answer as
//! JSON, and the exit after Ctrl-C. The flags, their checks and the run flow are
//! [`crate::question::run`]'s.

use std::io::Write;

use serde::Serialize;

use super::progress::Bar;
use super::{Failure, interrupted, io};
use crate::question::run::{Ran, RunFlags};
use crate::sim::progress::{Progress, Silent};

/// The progress a run shows: a bar counting `what`, unless `--quiet` or `--json`.
pub fn bar(flags: &RunFlags, what: &'static str) -> Box<dyn Progress> {
    if flags.silent {
        Box::new(Silent)
    } else {
        Box::new(Bar::new(what))
    }
}

/// An answer as `--json` prints it: one line, its keys in order.
pub fn to_json<T: Serialize>(answer: &T) -> Result<String, Failure> {
    // Through a Value, whose keys are sorted: the cells of a run store the same object.
    let v = serde_json::to_value(answer)
        .map_err(|e| Failure::other(format!("cannot write the answer: {e}")))?;
    Ok(format!("{v}\n"))
}

/// Writes a run's report; an interrupted run still prints what it finished, then exits 130.
pub(super) fn finish(text: &str, ran: &Ran, out: &mut dyn Write) -> Result<(), Failure> {
    io(out.write_all(text.as_bytes()))?;
    if ran.interrupted {
        return Err(interrupted(ran.trials));
    }
    Ok(())
}
