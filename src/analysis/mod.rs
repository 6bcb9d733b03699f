//! Analysis: estimates with confidence intervals and goodness-of-fit tests.
//!
//! - [`estimate`]: [`Estimate`] (point, standard error, CI) for proportions (Wilson) and
//!   means (normal approximation).
//! - [`gof`]: Pearson's chi-squared test of counts against an exact distribution.
//! - [`frame`]: the one conversion point from run reports to Polars frames.
//! - [`fair_cp`]: a unit's worth in a reference unit, from a fitted win-chance curve.
//! - [`matchups`]: every unit of a list against every other, as a matrix and a ranking.

pub mod estimate;
pub mod fair_cp;
pub mod frame;
pub mod gof;
pub mod matchups;

pub use estimate::Estimate;
