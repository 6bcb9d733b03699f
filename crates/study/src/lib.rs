//! # diemon-study
//!
//! The studies over the rules in `diemon-core`: each command's typed, checked question, the
//! experiment files and their sweeps, a unit's price and the catalog's balance, estimates
//! turned into Polars frames, the CSV and Parquet exports, and the reports with their
//! charts. Nothing here rolls a die by its own rule: every trial is the core's.
//!
//! The rooms depend one way (the integration test `layers` keeps it so): [`schema`] (the
//! frames' typed rows and the headline figure) and [`export`] (leaves) -> [`analysis`]
//! (frames, fits, matchups, the balance) -> [`question`] and [`report`] -> [`experiment`]
//! (files, sweeps, resume, merge, and `diemon price`).

// Tests set one option at a time on purpose: it reads as the rule variant under test.
#![warn(missing_docs)]
#![cfg_attr(test, allow(clippy::field_reassign_with_default))]

pub mod analysis;
pub mod experiment;
pub mod export;
pub mod question;
pub mod report;
pub mod schema;
