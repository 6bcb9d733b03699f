//! Simulation: seeded random streams and mergeable tallies.
//!
//! - [`seed`]: the one scheme from `(master seed, cell, batch)` to an RNG stream, so results
//!   do not depend on thread count or scheduling and any batch can be replayed alone.
//! - [`tally`]: integer counts and histograms that add up in any order.
//! - [`progress`]: the observer long runs report to (the CLI draws the bar).
//! - [`Scenario`] and [`Tally`]: what the engine runs and what it counts (the scenarios
//!   themselves are in [`crate::scenario`]).
//! - [`count`]: trial counts as people write them (`1M`, `1e6`).
//! - [`engine`]: seeded batches on a worker pool, with stopping rules and Ctrl-C.
//! - [`steps`]: the same run a few trials at a time, for a caller without threads (the
//!   browser page).
//! - [`estimate`]: [`Estimate`] (point, standard error, CI) for proportions (Wilson) and
//!   means (normal approximation).

pub mod count;
pub mod engine;
pub mod estimate;
pub mod progress;
pub mod scenario;
pub mod seed;
pub mod steps;
pub mod tally;

pub use estimate::{CONFIDENCE, Estimate};
pub use scenario::{Scenario, Tally};
pub use seed::{BATCH, stream};
pub use tally::Histogram;
