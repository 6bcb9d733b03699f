//! Dice: the physical dice, the BrikWars rules for rolling them, and exact distributions.
//!
//! - [`die`]: [`Die`] (d4..d20) and where faces come from ([`Faces`]: an RNG or loaded dice).
//! - [`bonus`]: Bonus Dice on the top face and their chains (Ch. 4.2).
//! - [`skill`]: the unit's Skill (Action) die: Critical Failure, Overskill, Blessing and
//!   Curse (Ch. 4.2, Ch. D.4).
//! - [`supernatural`]: SuperNatural dice, their bonus dice and Fumble Dice (Ch. D.3).
//! - [`damage`]: damage types and the dice they fix (Ch. 8).
//! - [`expr`]: dice expressions in the notation of the texts (`3d10 exp`, `d6 skill`,
//!   `sn d8`), parsed with column-exact errors, rolled, and computed exactly.
//! - [`pmf`]: exact probability mass with a stated truncated tail.
//! - [`log`]: what every die did, for narration.
//! - [`scene`]: what a battle's map draws, passed to the same log.

pub mod bonus;
pub mod damage;
pub mod die;
pub mod expr;
pub mod log;
pub mod pmf;
pub mod scene;
pub mod skill;
pub mod supernatural;

pub use bonus::DieUse;
pub use damage::DamageType;
pub use die::{Die, Faces, Script};
pub use expr::{Expr, ParseError, RollOutcome, Term, TermKind};
pub use log::{DieEvent, Entry, Log, Narration, NoLog, Role};
pub use pmf::Pmf;
pub use scene::Scene;
pub use skill::{SkillExact, SkillOutcome, SkillRoll};
pub use supernatural::SnRoll;
