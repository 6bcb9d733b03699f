//! Analysis: estimates with confidence intervals and goodness-of-fit tests.
//!
//! - [`Estimate`] (point, standard error, CI) lives in [`diemon_core::sim::estimate`]: the engine
//!   stops on one.
//! - [`gof`]: Pearson's chi-squared test of counts against an exact distribution.
//! - [`frame`]: the one conversion point from run reports to Polars frames.
//! - [`fair_cp`]: a unit's worth in a reference unit, from a fitted win-chance curve.
//! - [`card`]: the card price (the median of several scenarios' prices) and the verdict.
//! - [`game`]: the value of a small zero-sum game (a price's conduct menus).
//! - [`matchups`]: every unit of a list against every other, as a matrix and a ranking.
//! - [`balance`]: the CP table at which every unit is worth its cost, and the imbalance score.
//! - [`slope`]: a weighted least-squares line, for a part's worth per step.

pub mod balance;
pub mod card;
pub mod fair_cp;
pub mod frame;
pub mod game;
pub mod gof;
pub mod matchups;
pub mod slope;

pub use diemon_core::sim::estimate::{self, Estimate};
