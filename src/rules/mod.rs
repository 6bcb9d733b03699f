//! BrikWars rules beyond the dice: for now the [`RuleOptions`] that settle what the texts
//! leave open. Stat blocks, costs, weapons and attacks arrive with later issues.

pub mod attack;
pub mod options;

pub use options::*;
