//! Simulation: seeded random streams and mergeable tallies.
//!
//! - [`seed`]: the one scheme from `(master seed, cell, batch)` to an RNG stream, so results
//!   do not depend on thread count or scheduling and any batch can be replayed alone.
//! - [`tally`]: integer counts and histograms that add up in any order.
//! - [`progress`]: the observer long runs report to (the CLI draws the bar).
//! - [`sample`]: draws `n` outcomes of a dice expression in parallel batches.

pub mod engine;
pub mod progress;
pub mod sample;
pub mod seed;
pub mod tally;

pub use seed::{BATCH, stream};
pub use tally::Histogram;
