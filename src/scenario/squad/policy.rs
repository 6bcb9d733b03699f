//! The decisions a player makes in a squad duel, as named policies per side (DESIGN: "never
//! hidden constants").

use serde::Serialize;

use crate::rules::medik::Amputate;

/// Whom a unit attacks among the enemies it can reach.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Targeting {
    /// Everyone attacks the first enemy in the roster that they can reach, until it falls.
    #[default]
    Focus,
    /// The reachable enemy attacked least this turn.
    Spread,
    /// The closest reachable enemy.
    Nearest,
    /// The reachable enemy worth the most CP ("biggest threat").
    Threat,
}

/// When a unit with a saved Action (it did not act on its own last turn) uses it in the
/// enemy's turn (Ch. 4.3 Enemy Response).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// Never respond.
    None,
    /// Strike an enemy that moves into Close Combat with it: "it's assumed that the opponent
    /// automatically attacks him, unless the opposing player says otherwise" (Ch. 4.1).
    #[default]
    Close,
    /// Also shoot an enemy that ends its move within Range after moving at least an inch
    /// ("the minifig will automatically be able to act first during that inch", Ch. 4.3).
    All,
}

/// Whether a unit that cannot attack this turn Sprints (Ch. 4.1: + Skill roll inches in a
/// straight line; it costs the Action, so it also gives up its Response).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Sprint {
    #[default]
    Never,
    /// Sprint when even a full move leaves every enemy out of reach.
    Close,
}

/// What a side's SuperNatural units spend their SN dice on (Ch. D.3, D.4): each die once
/// per turn, on one Aspect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Spend {
    /// All dice on Damage, added to the unit's first hit of the turn, carried by its weapon
    /// (a Wand or Staff has no Damage of its own).
    #[default]
    Damage,
    /// All dice on its own Armor, kept as a Lasting Effect: rolled with its Armor every time
    /// it is called for (Size Dependent).
    Armor,
    /// Each die as a Blessing, kept as a Lasting Effect, on the allies within touch with the
    /// strongest weapons first, one die each (Size Dependent; the die at least their Skill).
    Bless,
    /// Each d10 summons a 10amyte (Ch. D.1) that runs its Move roll at the nearest enemy
    /// and blows itself up in a 1d10 Explosion when that enemy is within 2" and no ally is;
    /// else it is dismissed. The other dice go on Damage.
    Summon,
    /// Each hit leaves a Lasting Curse (its largest die in hand that may Curse) on the
    /// target, which then keeps the lower of its Skill die and the Curse's.
    Curse,
    /// Never spend them (a baseline: the dice's worth is the difference).
    Hold,
}

/// One side's policies and conditions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize)]
pub struct Policy {
    pub target: Targeting,
    pub response: Response,
    pub sprint: Sprint,
    /// Thirds of each unit hidden behind cover, against ranged attacks (Ch. 8.3).
    pub cover: u32,
    /// The side fires blind (-5, Ch. 8.3).
    pub blind: bool,
    /// What its SuperNatural units spend their dice on.
    pub spend: Spend,
    /// Which limbs its Mediks Amputate first (Ch. 10.2 leaves it to the players).
    pub amputate: Amputate,
}
