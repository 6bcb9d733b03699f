//! The Marks dice-pool system (the Marks dice-pool text): a second game in diemon's scope.
//!
//! - [`pool`]: a character's numbers (Attributes averaged, Super Attributes added, Skills,
//!   Superpower ranks, difficulty) as the dice rolled and the dice kept.
//! - [`roll`]: one roll: dice sorted into 1s, blanks, Marks and Roll-Agains, the best kept,
//!   1s cancelling, kept Roll-Agains re-rolled. Scripted-dice tests pin each rule.
//! - [`exact`]: the exact distribution of Marks for any pool, through the same resolution.
//! - [`levels`]: the success levels and contested rolls.
//! - [`tries`]: trying again after a failure, and extended rolls, exactly.

pub mod exact;
pub mod levels;
pub mod pool;
pub mod roll;
pub mod tries;
