//! The two traits the engine runs on: a [`Scenario`] plays one trial from a source of faces,
//! and a [`Tally`] counts outcomes in integers that add in any order.

use std::ops::Add;

use super::Estimate;
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

/// Integer tallies that add. They serialize so that shards of a run, written by different
/// machines, can be added up later (`diemon merge`).
pub trait Tally<O>:
    Default + Clone + Send + Add<Output = Self> + serde::Serialize + serde::de::DeserializeOwned
{
    /// Counts one trial's outcome.
    fn record(&mut self, outcome: &O);
    /// Trials recorded.
    fn trials(&self) -> u64;
}
