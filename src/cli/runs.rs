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

/// A Monte Carlo command's answer on the terminal, the same for every such command: asked
/// under the Ctrl-C guard with a progress bar counting `what`, printed as one line of JSON
/// (`json`) or as the command's `table`, then [`finish`]ed.
pub(super) fn answer<A: Serialize>(
    flags: &RunFlags,
    what: &'static str,
    json: bool,
    ask: impl FnOnce(&dyn Progress) -> Result<A, crate::question::Error>,
    ran: impl Fn(&A) -> &Ran,
    table: impl FnOnce(&A) -> String,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let answer = {
        let _guard = super::interrupt::Guard::new();
        ask(&*bar(flags, what))?
    };
    let text = if json {
        to_json(&answer)?
    } else {
        table(&answer)
    };
    finish(&text, ran(&answer), out)
}

/// Writes a run's report; an interrupted run still prints what it finished, then exits 130.
pub(super) fn finish(text: &str, ran: &Ran, out: &mut dyn Write) -> Result<(), Failure> {
    io(out.write_all(text.as_bytes()))?;
    if ran.interrupted {
        return Err(interrupted(ran.trials));
    }
    Ok(())
}
