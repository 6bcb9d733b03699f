//! # diemon
//!
//! Monte Carlo and exact balance analysis for **BrikWars** (and the Marks dice-pool
//! system). This crate is the command line on top of two others, which the compiler keeps
//! in order:
//!
//! - `diemon-core` (`crates/core`): the rules, once, and the seeded engine. No Polars,
//!   plotters, clap or indicatif; it builds for `wasm32-unknown-unknown`.
//! - `diemon-study` (`crates/study`): questions, experiments, prices, frames, exports and
//!   reports.
//! - [`cli`] here: clap flags -> typed questions, answers -> text, progress, exit codes.
//!
//! The rooms of both crates are re-exported under their own names, so `diemon::dice` is
//! `diemon_core::dice` and `diemon::report` is `diemon_study::report`.
//!
//! ```
//! use diemon::dice::Expr;
//! use diemon::options::RuleOptions;
//!
//! // Three Explosive d10s against a minifig's Armor 4 (Ch. 8.4, Ch. 10.2).
//! let expr = Expr::parse("3d10 exp").unwrap();
//! let exact = expr.exact(&RuleOptions::default(), 1e-12);
//! let p = exact.p_beats(&diemon::dice::Pmf::point(4));
//! assert!(p > 0.99 && exact.truncated() <= 1e-12);
//! ```

pub use diemon_core::{catalog, dice, input, marks, options, plural, rules, scenario, sim};
pub use diemon_study::{analysis, experiment, export, question, report};

pub mod cli;
