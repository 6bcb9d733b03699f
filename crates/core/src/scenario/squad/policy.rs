//! The decisions a player makes in a squad duel, as named policies per side (DESIGN: "never
//! hidden constants").

use serde::{Deserialize, Serialize};

use crate::rules::medik::Amputate;

/// Whom a unit attacks among the enemies it can reach.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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
    /// The reachable enemy with the most Damage pooled on it this turn: it joins the
    /// combined attack under way (option `combined_fire`, Ch. 10.4); with none, as `focus`.
    Combined,
}

/// When a unit with a saved Action (it did not act on its own last turn) uses it in the
/// enemy's turn (Ch. 4.3 Enemy Response).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// Never respond.
    None,
    /// Strike an enemy that moves into Close Combat with it: "it's assumed that the opponent
    /// automatically attacks him, unless the opposing player says otherwise" (Ch. 4.1).
    Close,
    /// Also step the Angry Inch (Ch. 4.3: Responding minifigs "may move up to one inch ...
    /// to position themselves in range of a target for a Close Combat ... Attack") to strike
    /// an enemy that ends its move within an inch of Close Combat reach ("whack soldiers
    /// that wander into range of his melee weapon").
    Inch,
    /// The Angry Inch, and shoot an enemy that ends its move within Range after moving at
    /// least an inch: "if the enemy is running across an open field with a polearm while the
    /// minifig's aiming a pistol ... the minifig is going to have plenty of time to act
    /// before the enemy gets close enough" (Ch. 4.3).
    #[default]
    All,
}

/// Where a unit walks when it cannot strike from where it stands (Ch. 4.1, 4.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// Straight at the nearest enemy, stopping in reach (contact, or a shooter's Range):
    /// whoever closes the last gap walks into the other's Response.
    Advance,
    /// What a sensible player does: strike from where it stands (a shooter first steps back
    /// to its Range); close and strike when the enemy cannot strike first; otherwise, if it
    /// out-reaches the enemy (its Move and reach beat the enemy's), hold just outside the
    /// enemy's Move and reach with its Action saved for the Response, and let the enemy come;
    /// a unit that does not out-reach its enemy gains nothing by waiting, so it advances. An
    /// Explosive user whose nearest enemy stands inside its own blast steps back out of it
    /// before firing (issue 39).
    #[default]
    Hold,
}

/// Whether a unit that cannot attack this turn Sprints (Ch. 4.1: + Skill roll inches in a
/// straight line; it costs the Action, so it also gives up its Response).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Sprint {
    /// Never Sprint.
    #[default]
    Never,
    /// Sprint when even a full move leaves every enemy out of reach.
    Close,
}

/// How a side's units walk on a table (issue 43; off a table there is nothing to hide
/// behind, and every conduct walks alike).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Conduct {
    /// Along its way at the enemy (or the objective), as far as it wants to go.
    #[default]
    Advance,
    /// From cover to cover: a unit that strikes no one this turn walks all the way where
    /// no enemy shooter would see it at the end; else it ends its walk, somewhere between
    /// half of it and all of it (and up to 2" to either side), where the fewest thirds of
    /// it stand in the sight of enemy shooters that could reach it, the nearest its goal
    /// among equals. A shooter that has a target holds where it stands and shoots.
    Cover,
    /// Spread out against Explosives: the same places weighed by how many friends stand
    /// within 2" (an Explosion's first ring) rather than by enemy sight.
    Spread,
    /// Flank: the same places weighed by how many enemies could Respond to the walker
    /// there (Ch. 4.3: each with its Action saved, in reach, and seeing it inside its Cone
    /// of Vision), so a walk ends outside the enemy's cones where it can.
    Flank,
}

/// Whether a unit that ends its walk out of Close Combat throws a hand weapon at an enemy
/// within its arm's 3" (Ch. 8.4 Thrown Minifig Weapons: the weapon's Close Combat Use and
/// Damage). The throw is its Action, so it gives up its Response; the weapon falls at its
/// target's feet, out of the thrower's hands until it stands within an inch of the spot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Throw {
    /// Keep every weapon.
    #[default]
    Never,
    /// Throw its weakest throwable weapon only while another Close Combat weapon stays in
    /// hand.
    Spare,
    /// Throw even its last Close Combat weapon (it then fights on with what is left).
    Last,
}

/// Whether a unit with a weapon too big for its Power (Ch. 8.1 Gathering Power: a creation
/// whose Effective Size fell, like the Scorpiosaurus Rex's stinger at 2") Diverts All Power:
/// a full turn without moving or acting, saving its Power to add to the next turn's for one
/// weapon's activation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Divert {
    /// Fight with the weapons its Power works.
    #[default]
    Never,
    /// Divert while an enemy stands within reach of its largest weapon beyond its Power,
    /// until the Power saved is enough to strike with it.
    InReach,
}

/// Whether a unit fires its Explosives at a target beyond 12" (Ch. 8.4 Trajectories: a
/// projectile flies 12" a turn, and its Action roll waits for it to come down on the marker
/// at the target's spot, "giving potential targets a chance to scatter").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Lob {
    /// Walk within 12" and fire at once: the target is where it is aimed at.
    #[default]
    Near,
    /// Fire at any target within the delivery's Range: beyond 12" the shell flies a turn or
    /// more, and comes down on the spot the target stood at.
    Far,
}

/// What a side's SuperNatural units spend their SN dice on (Ch. D.3, D.4): each die once
/// per turn, on one Aspect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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
    /// else it is dismissed. Each d4 summons a 4pion that stays, runs at the enemy and sets
    /// the minifigs it touches on fire until it burns itself out. The other dice go on
    /// Damage.
    Summon,
    /// Each hit leaves a Lasting Curse (its largest die in hand that may Curse) on the
    /// target, which then keeps the lower of its Skill die and the Curse's.
    Curse,
    /// Action modifiers (Ch. D.4): a Skill roll that misses (not a Critical Failure, which
    /// SN dice never change) is rescued with the dice in hand, smallest first, one at a
    /// time, when their mean reaches the shortfall; the dice left go on Damage.
    Aim,
    /// Movement dice (Ch. D.4): a unit that must walk and cannot reach an enemy this turn
    /// adds its dice in hand to its Move, largest first, one at a time, until it reaches;
    /// the dice left go on Damage.
    Move,
    /// An extra Mind (Ch. D.4 Minds and Specialties): a unit that must walk and cannot
    /// reach an enemy this turn gives itself its largest die in hand as a new SN Mind,
    /// whose Action Sprints (the die rolled as its Action die), so its own Action can still
    /// attack; the dice left go on Damage.
    Mind,
    /// All dice on its own Deflection, kept as a Lasting Effect: each a level that removes
    /// one Damage die of its own size or smaller from every hit (Ch. D.4 Deflection; Size
    /// Dependent).
    Deflect,
    /// Summons an item (`mystik@arm:hand-weapon`, Ch. D.3 Summoned Items) at the beginning
    /// of its turn while it holds none: its dice in hand, largest first until their mean
    /// reaches the item's SN Price, rolled against it; a summoned item is kept as a Lasting
    /// Effect. The dice left go on Damage.
    Arm,
    /// Never spend them (a baseline: the dice's worth is the difference).
    Hold,
    /// Defensive Damage dice (Ch. D.4, Ch. 10.3): kept in hand, and spent on a hit that
    /// would harm the unit itself, once its Damage is rolled: a die of the same size as one
    /// of the hit's Damage dice cancels it unrolled; under option `sn_subtract=points` the
    /// other dice are then rolled off the Damage, smallest first, when their mean reaches
    /// what is left to save.
    Nullify,
    /// Defensive Action modifiers (Ch. D.4 Action Modifiers): kept in hand, and subtracted
    /// from an enemy's Skill roll that hits the unit itself, smallest first, when their
    /// mean reaches the roll's margin (a Critical Failure is the die's alone).
    Hinder,
    /// Hostile Armor dice (Ch. D.4 Armor, Ch. 10.3): each hit leaves the smallest die in
    /// hand (one per inch of the target's Size) on the target's Armor as a Lasting Effect,
    /// rolled off it each time its Armor is called for, never below zero; on a target with
    /// Deflection (Heavy Armor), a level of it lost against dice of the die's size or
    /// smaller instead. The dice left go on the hit's Damage.
    Weaken,
    /// Hostile Mind dice (Ch. 10.3 Mind): each hit on a Size 1" enemy rolls the largest die
    /// in hand at least as large as its Skill die against that Skill die; if higher, its
    /// Actions are suppressed (a comatose stupor: it neither moves nor acts) for as long as
    /// the die stays on it. The dice left go on the hit's Damage.
    Suppress,
    /// `suppress`, then Mind Control (Ch. 10.3): the next die in hand gives the suppressed
    /// enemy a new Mind under the caster's control, the die its Skill; it fights for the
    /// caster's side until it Critically Fails a Skill roll or the caster falls.
    Control,
}

impl Spend {
    /// Whether the dice this policy leaves in hand go on the Damage of a hit.
    pub fn damage_too(self) -> bool {
        matches!(
            self,
            Spend::Damage
                | Spend::Summon
                | Spend::Aim
                | Spend::Move
                | Spend::Mind
                | Spend::Arm
                | Spend::Weaken
                | Spend::Suppress
                | Spend::Control
        )
    }

    /// The policies that leave Lasting dice on enemies they hit, a bit each.
    pub const HEXES: u32 =
        1 << Spend::Weaken as u32 | 1 << Spend::Suppress as u32 | 1 << Spend::Control as u32;

    /// Whether the policy leaves Lasting dice on enemies it hits (`Field::hex`).
    pub fn hexes(self) -> bool {
        Spend::HEXES & (1 << self as u32) != 0
    }

    /// Every policy, in the order the flags list them.
    pub const ALL: [Spend; 16] = [
        Spend::Damage,
        Spend::Armor,
        Spend::Bless,
        Spend::Summon,
        Spend::Curse,
        Spend::Aim,
        Spend::Move,
        Spend::Mind,
        Spend::Deflect,
        Spend::Arm,
        Spend::Hold,
        Spend::Nullify,
        Spend::Hinder,
        Spend::Weaken,
        Spend::Suppress,
        Spend::Control,
    ];

    /// The policy's name, as rosters, flags and summaries spell it (its serde name).
    pub fn name(self) -> String {
        match toml::Value::try_from(self) {
            Ok(toml::Value::String(s)) => s,
            // A unit variant serializes to its name (the test below holds every policy).
            other => unreachable!("spend policy {self:?} serialized as {other:?}"),
        }
    }

    /// Every policy's name, as rosters and flags spell it.
    pub fn names() -> Vec<String> {
        Spend::ALL.iter().map(|s| s.name()).collect()
    }

    /// The policy a roster names (`wizard@bless`), in any case.
    pub fn named(name: &str) -> Option<Spend> {
        Spend::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }
}

/// Where a side aims its Explosives (thrown, launched, Cannon rounds, Rockets): at the enemy whose burst would
/// catch the most enemies, the nearest, or the most enemy CP (issue 23). Whatever the
/// aim, a thrower never aims where its own side (itself included) stands in the blast.
// Written as typed (`most-cp`), so a summary's policy reads back as a flag.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum AreaAim {
    /// The enemy with the most enemies within the blast around it.
    #[default]
    Densest,
    /// The nearest enemy.
    Nearest,
    /// The enemy with the most enemy CP within the blast around it.
    MostCp,
}

/// How far apart a side's figures stand abreast, across the line of battle, in quarter
/// inches. Only area effects measure across the line; 1.5" is `diemon blast`'s default
/// spacing, and 0 stands a whole side on one spot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Spacing(pub u32);

/// Written in inches (`spacing=1.5`), as it is typed.
impl Serialize for Spacing {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.inches())
    }
}

/// Read back as written: inches in quarters.
impl<'de> Deserialize<'de> for Spacing {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Spacing, D::Error> {
        let inches = f64::deserialize(d)?;
        Spacing::parse(&inches.to_string()).map_err(serde::de::Error::custom)
    }
}

impl Default for Spacing {
    fn default() -> Spacing {
        Spacing(6)
    }
}

/// A policy's value that does not read ([`Spacing::parse`], [`AutoFire::parse`],
/// [`Formation::parse`]): what was given, and what is expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}; got {given:?}")]
pub struct PolicyError {
    /// The text given.
    pub given: String,
    /// What was expected, in words.
    pub expected: &'static str,
}

impl Spacing {
    /// The spacing in inches.
    pub fn inches(self) -> f64 {
        self.0 as f64 / 4.0
    }

    /// "1.5": inches from 0 to 12 in quarters.
    pub fn parse(s: &str) -> Result<Spacing, PolicyError> {
        let bad = || PolicyError {
            given: s.to_string(),
            expected: "inches from 0 to 12 in quarter inches, like 1.5",
        };
        let v: f64 = s.trim().parse().map_err(|_| bad())?;
        let q = v * 4.0;
        if !(0.0..=48.0).contains(&q) || q.fract() != 0.0 {
            return Err(bad());
        }
        Ok(Spacing(q as u32))
    }
}

impl std::fmt::Display for Spacing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.inches())
    }
}

/// When a side's units Bail (Ch. 4.3): "there are times when a minifig's best bet is to
/// make a desperate leap for safety". A Bail is a Response: it takes the unit's saved
/// Action, dives it its Skill roll in inches (half at Half Speed) and leaves it Disrupted,
/// unless the roll earned an Overskill Benny ("may choose to land on his feet").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Bail {
    /// Never: a saved Action is kept for attacks.
    #[default]
    Never,
    /// Out of an Explosion it stands in: when an Explosive comes down with a unit of the
    /// side in its rings, each such unit with a saved Action dives along the line, away
    /// from the burst, before the Damage is rolled.
    Blast,
    /// Out of Explosions, and away from a ranged attack whose Range a dive could carry it
    /// out of; the shots come at its new place, Out of Range by what it gained.
    All,
}

/// How a side's automatic weapons fire (Ch. 8.3): "the player chooses the size of the arc
/// they are going to attempt", or, with a MachineGun, "the number of shots" of a burst at
/// one target. An arc of N points gives every figure in it one attack at -N (a BlastGun's
/// arc is fixed at 1, with no Auto Penalty); a burst of N shots fires at the target alone,
/// shot k at -k (option `auto_penalty`). A FlameThrower cannot burst: under a burst policy
/// it sweeps 1 point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AutoFire {
    /// Sweep an arc of this many points.
    Arc(u8),
    /// Fire a burst of this many shots at one target.
    Burst(u8),
}

/// The widest arc and the longest burst a policy may name.
pub const MAX_ARC: u8 = 6;
/// The longest burst a policy may name.
pub const MAX_BURST: u8 = 10;

impl Default for AutoFire {
    fn default() -> AutoFire {
        AutoFire::Arc(1)
    }
}

impl AutoFire {
    /// "arc:2" or "burst:3".
    pub fn parse(s: &str) -> Result<AutoFire, PolicyError> {
        let bad = || PolicyError {
            given: s.to_string(),
            expected: "arc:N (N from 1 to 6 points) or burst:N (N from 1 to 10 shots), \
                       like arc:1 or burst:3",
        };
        let (kind, n) = s.trim().split_once(':').ok_or_else(bad)?;
        let n: u8 = n.trim().parse().map_err(|_| bad())?;
        match kind.trim() {
            "arc" if (1..=MAX_ARC).contains(&n) => Ok(AutoFire::Arc(n)),
            "burst" if (1..=MAX_BURST).contains(&n) => Ok(AutoFire::Burst(n)),
            _ => Err(bad()),
        }
    }

    /// Points of Firing Arc a sweep takes under this policy (1 under a burst policy).
    pub fn arc(self) -> u32 {
        match self {
            AutoFire::Arc(n) => n as u32,
            AutoFire::Burst(_) => 1,
        }
    }
}

impl std::fmt::Display for AutoFire {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AutoFire::Arc(n) => write!(f, "arc:{n}"),
            AutoFire::Burst(n) => write!(f, "burst:{n}"),
        }
    }
}

/// Written as typed (`arc:1`).
impl Serialize for AutoFire {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// How a side stands at the start: in `ranks` ranks, one behind another `spacing` apart
/// (rounded up to the half inch, as positions along the line are), each rank abreast,
/// `spacing` apart and centred on the line. Its units fill the front rank first, in roster
/// order. One rank (the default) is a line abreast; as many ranks as units, a column.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Formation {
    /// Ranks, one behind another.
    pub ranks: u8,
}

impl Default for Formation {
    fn default() -> Formation {
        Formation { ranks: 1 }
    }
}

impl Formation {
    /// "line", "column" or "ranks:N" (N from 1 to 64).
    pub fn parse(s: &str) -> Result<Formation, PolicyError> {
        match s.trim() {
            "line" => Ok(Formation { ranks: 1 }),
            "column" => Ok(Formation { ranks: u8::MAX }),
            t => match t.strip_prefix("ranks:").map(|n| n.trim().parse::<u8>()) {
                Some(Ok(n)) if (1..=64).contains(&n) => Ok(Formation { ranks: n }),
                _ => Err(PolicyError {
                    given: s.to_string(),
                    expected: "line, column or ranks:N (N from 1 to 64), like ranks:2",
                }),
            },
        }
    }

    /// The places of `n` figures `spacing` apart: each one's inches across the line, and
    /// half-inches behind the starting line.
    pub fn places(self, n: usize, spacing: Spacing) -> (Vec<f64>, Vec<i32>) {
        let ranks = (self.ranks as usize).clamp(1, n.max(1));
        let wide = n.div_ceil(ranks);
        let deep = spacing.0.div_ceil(2) as i32;
        let mut across = Vec::with_capacity(n);
        let mut behind = Vec::with_capacity(n);
        for j in 0..n {
            let (rank, file) = (j / wide, j % wide);
            let in_rank = wide.min(n - rank * wide);
            across.push((file as f64 - (in_rank as f64 - 1.0) / 2.0) * spacing.inches());
            behind.push(rank as i32 * deep);
        }
        (across, behind)
    }
}

impl std::fmt::Display for Formation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ranks {
            1 => f.write_str("line"),
            u8::MAX => f.write_str("column"),
            n => write!(f, "ranks:{n}"),
        }
    }
}

/// Written as typed (`line`, `ranks:2`).
impl Serialize for Formation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Read back as typed (`line`, `ranks:2`).
impl<'de> Deserialize<'de> for Formation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Formation, D::Error> {
        Formation::parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Read back as typed (`arc:1`).
impl<'de> Deserialize<'de> for AutoFire {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<AutoFire, D::Error> {
        AutoFire::parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// One side's policies and conditions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Policy {
    /// Whom each unit attacks.
    pub target: Targeting,
    /// Where each unit stands and moves.
    pub position: Position,
    /// When a unit Responds.
    pub response: Response,
    /// Whether a unit that cannot attack Sprints.
    pub sprint: Sprint,
    /// Thirds of each unit hidden behind cover, against ranged attacks (Ch. 8.3).
    pub cover: u32,
    /// The side fires blind (-5, Ch. 8.3).
    pub blind: bool,
    /// What its SuperNatural units spend their dice on.
    pub spend: Spend,
    /// Which limbs its Mediks Amputate first (Ch. 10.2 leaves it to the players).
    pub amputate: Amputate,
    /// Where its Explosives aim.
    pub aim: AreaAim,
    /// How far apart its figures stand abreast.
    pub spacing: Spacing,
    /// How its automatic weapons fire.
    pub auto: AutoFire,
    /// When its units Bail.
    pub bail: Bail,
    /// How its figures stand at the start.
    pub formation: Formation,
    /// When its units throw a hand weapon.
    pub throw: Throw,
    /// When its units Divert All Power to a weapon too big for their Power.
    pub divert: Divert,
    /// Whether its Explosives fire at targets beyond 12".
    pub lob: Lob,
    /// How its units walk on a table.
    #[serde(default)]
    pub conduct: Conduct,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_reads_back_as_it_was_written() {
        let p = Policy {
            target: Targeting::Threat,
            response: Response::Close,
            cover: 2,
            blind: true,
            spend: Spend::Bless,
            amputate: Amputate::ArmsFirst,
            aim: AreaAim::MostCp,
            spacing: Spacing(10),
            auto: AutoFire::Burst(3),
            bail: Bail::All,
            formation: Formation { ranks: 3 },
            throw: Throw::Last,
            ..Policy::default()
        };
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<Policy>(&text).unwrap(), p, "{text}");
        let column = Formation { ranks: u8::MAX };
        let back: Formation =
            serde_json::from_str(&serde_json::to_string(&column).unwrap()).unwrap();
        assert_eq!(back, column);
        // What no policy can be is refused, not read as a default.
        assert!(serde_json::from_str::<Spacing>("1.3").is_err());
        assert!(serde_json::from_str::<AutoFire>("\"arc:9\"").is_err());
    }

    #[test]
    fn spend_names_are_the_serde_names_of_every_policy() {
        assert_eq!(Spend::named("BLESS"), Some(Spend::Bless));
        assert_eq!(Spend::named("blessing"), None);
        for (i, s) in Spend::ALL.into_iter().enumerate() {
            // ALL lists each variant once, in declaration order.
            assert_eq!(s as usize, i);
            assert_eq!(Spend::named(&s.name()), Some(s));
        }
        assert_eq!(Spend::Control.name(), "control");
    }

    #[test]
    #[cfg(feature = "clap")]
    fn every_policy_is_written_as_its_flag_takes_it() {
        // A summary's policy column (serde) reads back through the flags (clap).
        use clap::ValueEnum;
        fn each<T: ValueEnum + Serialize + std::fmt::Debug>() {
            for v in T::value_variants() {
                let written = serde_json::to_value(v).unwrap();
                let typed = v.to_possible_value().unwrap();
                assert_eq!(written.as_str(), Some(typed.get_name()), "{v:?}");
            }
        }
        each::<Targeting>();
        each::<Position>();
        each::<Response>();
        each::<Sprint>();
        each::<Throw>();
        each::<Divert>();
        each::<Lob>();
        each::<Spend>();
        assert_eq!(Spend::ALL.as_slice(), Spend::value_variants());
        each::<AreaAim>();
        each::<Bail>();
        assert_eq!(
            serde_json::to_value(AreaAim::MostCp).unwrap().as_str(),
            Some("most-cp")
        );
    }

    #[test]
    fn formations_place_ranks_behind_the_line_and_files_across_it() {
        // Five figures 1.5" apart in two ranks: three abreast in front, two behind (1.5" =
        // 3 half-inches), each rank centred.
        let f = Formation::parse("ranks:2").unwrap();
        let (across, behind) = f.places(5, Spacing(6));
        assert_eq!(across, [-1.5, 0.0, 1.5, -0.75, 0.75]);
        assert_eq!(behind, [0, 0, 0, 3, 3]);
        // A line is today's abreast; a column stands one behind another (0.25" rounds up to
        // the half inch).
        let (across, behind) = Formation::default().places(3, Spacing(6));
        assert_eq!((across, behind), (vec![-1.5, 0.0, 1.5], vec![0, 0, 0]));
        let column = Formation::parse("column").unwrap();
        assert_eq!(column.places(3, Spacing(1)).1, [0, 1, 2]);
        assert_eq!(column.to_string(), "column");
        for bad in ["ranks:0", "ranks:65", "wedge", "ranks:x"] {
            assert!(
                Formation::parse(bad)
                    .unwrap_err()
                    .to_string()
                    .contains("ranks:N"),
                "{bad}"
            );
        }
    }

    #[test]
    fn auto_fire_reads_arcs_and_bursts_and_names_the_bounds() {
        assert_eq!(AutoFire::parse("arc:2"), Ok(AutoFire::Arc(2)));
        assert_eq!(AutoFire::parse(" burst:10 "), Ok(AutoFire::Burst(10)));
        assert_eq!(AutoFire::Burst(3).to_string(), "burst:3");
        assert_eq!((AutoFire::Burst(3).arc(), AutoFire::Arc(4).arc()), (1, 4));
        for bad in ["arc:0", "arc:7", "burst:11", "burst", "spray:2", "arc:x"] {
            let e = AutoFire::parse(bad).unwrap_err();
            assert_eq!(e.given, bad);
            let e = e.to_string();
            assert!(e.contains("arc:N") && e.contains(bad), "{e}");
        }
    }
}
