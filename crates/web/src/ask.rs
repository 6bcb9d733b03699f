//! The page's questions, typed, and the one dispatch from JSON text to JSON answer.
//!
//! A run is started (`duel`, `squad`), then stepped (`step`) until it says it has ended or
//! the page stops asking (Stop), then dropped (`drop`). Runs live here between calls, by
//! number.

use std::cell::RefCell;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::duel::{DuelQuestion, DuelRun};
use crate::error::Error;
use crate::run::Stepped;
use crate::squad::{SquadQuestion, SquadRun};
use crate::{burst, catalog, dice, marks, options};

/// One question.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum Ask {
    /// The exact table of an expression.
    Dice(dice::DiceQuestion),
    /// A MachineGun burst, exactly.
    Burst(burst::BurstQuestion),
    /// A Marks pool, exactly.
    Marks(marks::MarksQuestion),
    /// Every rule option, as controls.
    Options,
    /// The built-in units and the policies the squad tab sets.
    Catalog,
    /// Start a stat-line duel: answers its run number, size and command.
    Duel(DuelQuestion),
    /// Start a squad battle, likewise.
    Squad(Box<SquadQuestion>),
    /// Run about `trials` more trials of run `run`, `seconds` of wall time having passed
    /// since it started (the page's clock: the module has none).
    Step {
        /// The run.
        run: usize,
        /// Trials to add.
        trials: u64,
        /// Wall time so far.
        seconds: f64,
    },
    /// Forget run `run`.
    Drop {
        /// The run.
        run: usize,
    },
}

thread_local! {
    static RUNS: RefCell<Vec<Option<Box<dyn Stepped>>>> = const { RefCell::new(Vec::new()) };
}

/// The answer to a question in JSON: `{"ok": ...}` or `{"error": {...}}`.
pub fn answer(text: &str) -> String {
    let out = match serde_json::from_str::<Ask>(text) {
        Ok(q) => reply(q),
        Err(e) => Err(Error::input(
            "question",
            format!("the page sent a question diemon cannot read: {e}"),
        )),
    };
    match out {
        Ok(v) => json!({ "ok": v }),
        Err(e) => json!({ "error": e }),
    }
    .to_string()
}

fn value<T: serde::Serialize>(v: T) -> Result<Value, Error> {
    serde_json::to_value(v).map_err(|e| Error::input("answer", e.to_string()))
}

/// Keeps a started run; answers its number and size.
fn keep(r: Box<dyn Stepped>) -> Value {
    let total = r.total();
    let run = RUNS.with(|runs| {
        let mut runs = runs.borrow_mut();
        runs.push(Some(r));
        runs.len() - 1
    });
    json!({ "run": run, "total": total })
}

fn reply(q: Ask) -> Result<Value, Error> {
    match q {
        Ask::Dice(q) => value(dice::ask(&q)?),
        Ask::Burst(q) => value(burst::ask(&q)?),
        Ask::Marks(q) => value(marks::ask(&q)?),
        Ask::Options => value(options::controls()),
        Ask::Catalog => value(catalog::offer()),
        Ask::Duel(q) => Ok(keep(Box::new(DuelRun::start(q)?))),
        Ask::Squad(q) => Ok(keep(Box::new(SquadRun::start(*q)?))),
        Ask::Step {
            run,
            trials,
            seconds,
        } => RUNS.with(|runs| {
            let mut runs = runs.borrow_mut();
            let r = runs
                .get_mut(run)
                .and_then(Option::as_mut)
                .ok_or_else(|| Error::input("run", format!("no run {run}")))?;
            let done = r.step(trials);
            Ok(json!({ "done": done, "total": r.total(), "answer": r.answer(seconds)? }))
        }),
        Ask::Drop { run } => RUNS.with(|runs| {
            if let Some(r) = runs.borrow_mut().get_mut(run) {
                *r = None;
            }
            Ok(Value::Null)
        }),
    }
}
