//! # diemon
//!
//! Monte Carlo and exact balance analysis for **BrikWars** (and, later, the Marks dice-pool
//! system). diemon rolls the dice exactly as the rule texts say, with every point the texts
//! leave open made a named [`rules::RuleOptions`] field, and answers with exact
//! probabilities where they exist and seeded, replayable Monte Carlo estimates elsewhere.
//!
//! The pipeline runs one way: [`dice`] (dice, rules of rolling, expressions, exact
//! distributions) -> [`sim`] (seeded streams, tallies) -> [`analysis`] (estimates with
//! confidence intervals, goodness of fit) -> [`cli`] (the `diemon` commands).
//!
//! ```
//! use diemon::dice::Expr;
//! use diemon::rules::RuleOptions;
//!
//! // Three Explosive d10s against a minifig's Armor 4 (Ch. 8.4, Ch. 10.2).
//! let expr = Expr::parse("3d10 exp").unwrap();
//! let exact = expr.exact(&RuleOptions::default(), 1e-12);
//! let p = exact.p_beats(&diemon::dice::Pmf::point(4));
//! assert!(p > 0.99 && exact.truncated() <= 1e-12);
//! ```

// Tests set one option at a time on purpose: it reads as the rule variant under test.
#![cfg_attr(test, allow(clippy::field_reassign_with_default))]

pub mod analysis;
pub mod catalog;
pub mod cli;
pub mod dice;
pub mod experiment;
pub mod export;
pub mod input;
pub mod marks;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod sim;
