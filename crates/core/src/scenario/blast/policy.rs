//! Choices in a blast: where the shooter aims, where a miss comes down, and whether the
//! defender declares a critically failed Explosive a dud.

use serde::{Deserialize, Serialize};

/// Where each shot is aimed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    /// The formation's centre.
    #[default]
    Centre,
    /// The standing figure with the most others within 2" (the first such, in order).
    Densest,
}

/// Where a Missed Shot comes down. Ch. 8.4: it "has to come down somewhere", at "any
/// Koincidentally unlucky location within the appropriate distance" that the defender
/// chooses; the distance is the Ranged Combat chapter's, which is not among the texts.
/// diemon's model: it lands as many inches from the aim point as the roll missed by (at
/// least 1").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Scatter {
    /// In a random direction (400 directions, from two d20s).
    #[default]
    Margin,
    /// Short, straight back toward the shooter: the defender's pick that spares the most.
    Short,
}

/// Whether the defender declares a critically failed Explosive a dud (Ch. 8.4 Critical
/// Failures: "the defender has the additional option").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Dud {
    /// Always: a dud does not explode (it lies there, armed; not modelled further).
    #[default]
    Declared,
    /// Never: it explodes where it lands.
    Never,
}

/// How readily an Explosive carried by a target goes off (Ch. 8.4 Premature Detonation).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Stability {
    /// Gunpowder, dynamite, fuel barrels: "a single point of damage" sets it off at once.
    Unstable,
    /// Grenades, plastic explosives: activated by "more points of damage than its Explosive
    /// Size", it goes off at the end of the turn, and is unstable once activated.
    SemiStable,
}
