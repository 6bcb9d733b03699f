//! Scenarios: one trial of a question, from resolved inputs and dice to an outcome.
//!
//! A [`Scenario`] is an immutable value (its inputs are resolved and validated when it is
//! built); the engine hands each trial a source of faces and a [`Log`]. Outcomes fold into a
//! [`Tally`]: plain integer counts that add in any order, so thread count and scheduling never
//! change a result.
//!
//! - [`duel`]: two units in base contact attack in turn until one dies (Ch. 4, Ch. 10.2).
//! - [`squad`]: squads of catalog units close in on a line and fight it out (Ch. 4, 8, 10).

pub mod blast;
pub mod duel;
pub mod squad;

use std::ops::Add;

use crate::analysis::Estimate;
use crate::dice::{Faces, Log};

/// One kind of trial.
pub trait Scenario: Sync {
    /// What one trial produced.
    type Outcome: Copy;
    /// The running tally of outcomes.
    type Tally: Tally<Self::Outcome>;

    /// Runs one trial. Must not allocate (with [`crate::dice::NoLog`]) and must draw every
    /// face from `faces`, so the trial replays exactly from the same stream.
    fn trial<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> Self::Outcome;

    /// The metric a precision stopping rule watches (e.g. the first side's win rate).
    fn key(&self, tally: &Self::Tally) -> Estimate;
}

/// Runs one trial of `s` on scripted dice and checks the script was used up exactly: the
/// loaded-dice tests of every scenario.
#[cfg(test)]
pub(crate) fn scripted<S: Scenario>(s: &S, script: &[(crate::dice::Die, u32)]) -> S::Outcome
where
    S::Outcome: std::fmt::Debug,
{
    let mut dice = crate::dice::Script::new(script);
    let o = s.trial(&mut dice, &mut crate::dice::NoLog);
    assert!(
        dice.is_done(),
        "script not used up: {} rolls, outcome {o:?}",
        dice.used()
    );
    o
}

/// Integer tallies that add. They serialize so that shards of a run, written by different
/// machines, can be added up later (`diemon merge`).
pub trait Tally<O>:
    Default + Clone + Send + Add<Output = Self> + serde::Serialize + serde::de::DeserializeOwned
{
    fn record(&mut self, outcome: &O);
    /// Trials recorded.
    fn trials(&self) -> u64;
}
