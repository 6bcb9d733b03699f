//! BrikWars rules beyond the dice (the [`RuleOptions`] that settle what the texts leave
//! open live in [`crate::options`]): one attack ([`attack`]) and the rules around attacks in battle ([`combat`]); the
//! Medik's Ker-Triage! ([`medik`]) and Monstrous Contagion ([`contagion`]) and Constructs
//! ([`constructs`]) of Ch. 10; SuperNatural Effects in battle
//! ([`supernatural`]); what "within" a distance means on a table of `f64` inches ([`measure`]).
//! Stat blocks, weapons and costs are in [`crate::catalog`].

pub mod attack;
pub mod auto;
pub mod combat;
pub mod constructs;
pub mod contagion;
pub mod explosion;
pub mod fire;
pub mod measure;
pub mod medik;
pub mod supernatural;

// The options are a leaf module of their own (dice use them too); here for the rules' users.
pub use crate::options::*;
