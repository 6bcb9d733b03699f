//! Analysis: estimates with confidence intervals and goodness-of-fit tests.
//!
//! - [`estimate`]: [`Estimate`] (point, standard error, CI) for proportions (Wilson) and
//!   means (normal approximation).
//! - [`gof`]: Pearson's chi-squared test of counts against an exact distribution.

pub mod estimate;
pub mod frame;
pub mod gof;

pub use estimate::Estimate;
