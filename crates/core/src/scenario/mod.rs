//! Scenarios: one trial of a question, from resolved inputs and dice to an outcome.
//!
//! A [`Scenario`] is an immutable value (its inputs are resolved and validated when it is
//! built); the engine hands each trial a source of faces and a [`Log`](crate::dice::Log). Outcomes fold into a
//! [`Tally`]: plain integer counts that add in any order, so thread count and scheduling never
//! change a result.
//!
//! - [`duel`]: two units in base contact attack in turn until one dies (Ch. 4, Ch. 10.2).
//! - [`rolls`]: rolls of a dice expression (`diemon dist --trials`).
//! - [`squad`]: squads of catalog units close in on a line and fight it out (Ch. 4, 8, 10).

pub mod blast;
pub mod duel;
pub mod rolls;
pub mod squad;
pub mod table;

pub use crate::sim::{Scenario, Tally};

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
