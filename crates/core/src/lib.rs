//! # diemon-core
//!
//! The rules of **BrikWars** and the **Marks** dice-pool system, once, with the seeded
//! engine that plays them. diemon rolls the dice exactly as the rule texts say, with every
//! point the texts leave open made a named [`options::RuleOptions`] field, and answers with
//! exact probabilities where they exist and seeded, replayable Monte Carlo estimates
//! elsewhere. This crate has no Polars, plotters, clap or indicatif: the studies
//! (`diemon-study`) and the command line (`diemon`) sit on top of it, and it builds for
//! `wasm32-unknown-unknown` without its default `rayon` feature.
//!
//! The rooms depend one way (the integration test `layers` keeps it so): [`options`],
//! [`input`] and [`plural`] (leaves) -> [`dice`] -> [`sim`] (seeded streams, the engine, tallies,
//! estimates) -> [`catalog`] -> [`rules`] -> [`scenario`] -> [`marks`].
//!
//! Where each rule text lives:
//!
//! | Text | Rooms |
//! |---|---|
//! | Ch. D, SuperNatural dice | [`dice::supernatural`] (SN dice, Bonus and Fumble Dice), [`dice::skill`] (Blessings and Curses), [`rules::supernatural`] and `scenario::squad::battle::supernatural` (Effects in battle) |
//! | Ch. 4, the player turn | [`rules::attack`] (Skill rolls, Use, Overskill), [`rules::combat`], `scenario::squad::battle::turn` (movement, Actions, Responses) |
//! | Ch. 8, weapons and Explosions | [`catalog::weapon`] and [`catalog::armory`] (stats), [`rules::explosion`] (rings), [`rules::auto`] (automatic fire), [`rules::fire`], [`scenario::blast`], `scenario::squad::battle` (`explosives`, `arcs`, `gunnery`) |
//! | Ch. 10, creatures and CP costs | [`catalog::unit`], [`catalog::cost`] and [`catalog::cp`] (CP), [`rules::medik`], [`rules::contagion`], [`rules::constructs`], `scenario::squad::battle` (`minds`, `thralls`, `medik`) |
//! | The Marks dice-pool system | [`marks`] |
//! | What the texts leave open | [`options`] (every point as a named option; docs/readings.md) |
//!
//! ```
//! use diemon_core::dice::Expr;
//! use diemon_core::options::RuleOptions;
//!
//! // Three Explosive d10s against a minifig's Armor 4 (Ch. 8.4, Ch. 10.2).
//! let expr = Expr::parse("3d10 exp").unwrap();
//! let exact = expr.exact(&RuleOptions::default(), 1e-12);
//! let p = exact.p_beats(&diemon_core::dice::Pmf::point(4));
//! assert!(p > 0.99 && exact.truncated() <= 1e-12);
//! ```

// Tests set one option at a time on purpose: it reads as the rule variant under test.
#![warn(missing_docs)]
#![cfg_attr(test, allow(clippy::field_reassign_with_default))]

pub mod catalog;
pub mod dice;
pub mod input;
pub mod marks;
pub mod options;
pub mod plural;
pub mod rules;
pub mod scenario;
pub mod sim;
