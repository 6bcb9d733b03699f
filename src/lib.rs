//! # diemon
//!
//! Monte Carlo and exact balance analysis for **BrikWars** (and, later, the Marks dice-pool
//! system). diemon rolls the dice exactly as the rule texts say, with every point the texts
//! leave open made a named [`options::RuleOptions`] field, and answers with exact
//! probabilities where they exist and seeded, replayable Monte Carlo estimates elsewhere.
//!
//! The rooms depend one way (a test, `layers`, keeps it so): [`options`] (the open points,
//! a leaf) -> [`dice`] -> [`sim`] (seeded streams, the engine, tallies, estimates) ->
//! [`analysis`] -> [`catalog`] -> [`rules`] -> [`scenario`] and [`marks`] -> [`question`]
//! (each command's typed, checked inputs) -> [`experiment`] -> [`report`] -> [`cli`].
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
//! use diemon::dice::Expr;
//! use diemon::options::RuleOptions;
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
pub mod options;
pub mod question;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod sim;
