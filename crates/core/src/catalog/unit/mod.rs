//! Stat blocks: what a unit is, as written in a catalog, and its validation (Ch. 10).
//!
//! [`UnitSpec`] mirrors a catalog entry field for field (unknown fields are errors);
//! [`UnitSpec::resolve`] checks it against the rules and gives a [`Unit`], or every reason it
//! cannot be one.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::armory::{Item, item_named};
use super::cp::Cp;
use super::variant::Swap;
use super::weapon::{Damage, Stats, WeaponKind};
use crate::dice::{Die, Expr};

mod resolve;
pub use resolve::UnitError;
#[cfg(test)]
use resolve::hand_held;

/// Structure Level (Ch. 7.1, Ch. 10.2). The texts call flesh both 0 and ½ (readings §2),
/// so both are kept as written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Structure {
    /// Flesh as Ch. 10 writes the minifig ("Structure Level is 0, for an Armor of 1d6").
    Zero,
    /// Flesh as the Horse is written (SL ½, Armor 1d6).
    Half,
    /// 1 to 5: Armor that many d10s.
    Level(u32),
}

impl Structure {
    /// The Armor it gives (readings §2): 0 and ½ -> 1d6, n -> nd10.
    pub fn armor(self) -> String {
        match self {
            Structure::Zero | Structure::Half => "1d6".into(),
            Structure::Level(n) => format!("{n}d10"),
        }
    }

    /// Limbs are one level lower, never below ½ (Ch. 10.2).
    pub fn limb(self) -> Structure {
        match self {
            Structure::Level(n) if n >= 2 => Structure::Level(n - 1),
            Structure::Level(_) | Structure::Half => Structure::Half,
            Structure::Zero => Structure::Zero,
        }
    }

    /// The body's CP per inch of Size, in halves: Ch. 10 prices SL 0 flesh at "one half for
    /// its Structure Level of zero" and the SL ½ Horse at ½ per inch; higher levels their
    /// number.
    pub fn cost_halves(self) -> i64 {
        match self {
            Structure::Zero | Structure::Half => 1,
            Structure::Level(n) => 2 * n as i64,
        }
    }

    fn halves(self) -> u32 {
        match self {
            Structure::Zero => 0,
            Structure::Half => 1,
            Structure::Level(n) => 2 * n,
        }
    }
}

impl TryFrom<String> for Structure {
    type Error = String;
    fn try_from(s: String) -> Result<Structure, String> {
        match s.trim() {
            "0" => Ok(Structure::Zero),
            "1/2" | "½" | "0.5" => Ok(Structure::Half),
            t => match t.parse::<u32>() {
                Ok(n @ 1..=5) => Ok(Structure::Level(n)),
                _ => Err(format!(
                    "Structure Level {t:?}: expected 0, 1/2, or a whole number from 1 to 5 (Ch. 7.1)"
                )),
            },
        }
    }
}

impl From<Structure> for String {
    fn from(s: Structure) -> String {
        s.to_string()
    }
}

impl fmt::Display for Structure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Structure::Zero => f.write_str("0"),
            Structure::Half => f.write_str("1/2"),
            Structure::Level(n) => write!(f, "{n}"),
        }
    }
}

/// How a unit moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Propulsion {
    /// Walks: Move over the ground.
    #[default]
    Ground,
    /// Flies (Ch. 10.1: flying Move costs more).
    Flying,
    /// Climbs any surface (Ch. 10.4 Vermin, the 8vian).
    Spidering,
}

/// A Mind (Ch. 10.1): full, one of the four Half Minds, or none (an object).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mind {
    /// A full Mind.
    #[default]
    Full,
    /// Half Mind: Incompetent.
    Incompetent,
    /// Half Mind: Programmed.
    Programmed,
    /// Half Mind: Submissive.
    Submissive,
    /// Half Mind: Subjugated.
    Subjugated,
    /// No Mind: an object.
    None,
}

impl Mind {
    /// One of the four Half Minds.
    pub fn is_half(self) -> bool {
        matches!(
            self,
            Mind::Incompetent | Mind::Programmed | Mind::Submissive | Mind::Subjugated
        )
    }
}

/// Power (Ch. 8.1 Power Limits): 2x Effective Size, enhanced to 3x or 4x, or Half Power.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Power {
    /// Power of twice the Effective Size.
    #[default]
    Normal,
    /// Enhanced to three times the Effective Size.
    Enhanced3x,
    /// Enhanced to four times the Effective Size.
    Enhanced4x,
    /// Half Power.
    Half,
}

impl Power {
    /// Power inches at Effective Size `size`.
    pub fn inches(self, size: u32) -> u32 {
        match self {
            Power::Normal => 2 * size,
            Power::Enhanced3x => 3 * size,
            Power::Enhanced4x => 4 * size,
            Power::Half => size,
        }
    }

    /// Whether weapons of these sizes (inches, or XSize for a dropped Explosive) can all be
    /// activated in one turn at Effective Size `size`: "the sizes added together" must not
    /// exceed the Power limit (Ch. 8.1 Power Limits).
    pub fn allows(self, size: u32, weapons: &[u32]) -> bool {
        weapons.iter().map(|&w| w as u64).sum::<u64>() <= self.inches(size) as u64
    }
}

/// A weapon as a catalog names it: an armory item, or a kind and size by the Ch. 8 formulas.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum WeaponRef {
    /// An armory item, by key.
    Item(String),
    /// A weapon kind at a size, priced by the Ch. 8.1 formulas.
    Sized {
        /// The weapon kind's key (`gun`, `launcher`, ...).
        kind: String,
        /// Its Weapon Size in inches (Explosive Size in bricks).
        size: u32,
        /// A name for it; else one is made from the kind and size.
        #[serde(default)]
        name: Option<String>,
        /// In the hands, or on a carriage.
        #[serde(default, skip_serializing_if = "Mount::is_hand")]
        mount: Mount,
        /// An Explosive's or Rocket's Explosive Variants (Ch. 8.4); unwritten, standard.
        #[serde(default, skip_serializing_if = "Swap::is_standard")]
        variant: Swap,
    },
}

/// The hint for a `variant` the rules do not allow.
const VARIANT_HINT: &str =
    "only an Explosive or a Rocket takes a `variant`, and a Phased one needs XSize 2 or more";

/// Swaps an Explosive's or Rocket's d10s for `variant`'s dice (Ch. 8.4 Explosive Variants:
/// "The Explosive's XSize and other stats remain the same"): only its Damage changes.
fn explosive_variant(stats: &mut Stats, variant: Swap) -> Result<(), String> {
    if variant.is_standard() {
        return Ok(());
    }
    if !matches!(stats.kind, WeaponKind::Explosive | WeaponKind::Rocket) {
        return Err(format!(
            "a {} has no Explosive Variant: only Explosives and Rockets swap their d10s \
             (Ch. 8.4)",
            stats.kind
        ));
    }
    variant.check(stats.size).map_err(|e| e.to_string())?;
    stats.damage = Damage::Dice(variant.payload(stats.size).term());
    Ok(())
}

/// The fields of a sized weapon, read on their own so that a bad one is named (an untagged
/// enum would only say that nothing matched).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SizedRef {
    kind: String,
    size: u32,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    mount: Mount,
    #[serde(default)]
    variant: Swap,
}

impl<'de> Deserialize<'de> for WeaponRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<WeaponRef, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = WeaponRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an item's name, or a table { kind = ..., size = ... }")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<WeaponRef, E> {
                Ok(WeaponRef::Item(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<WeaponRef, A::Error> {
                let s = SizedRef::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(WeaponRef::Sized {
                    kind: s.kind,
                    size: s.size,
                    name: s.name,
                    mount: s.mount,
                    variant: s.variant,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// How a unit carries a weapon (Ch. 8.1 Large Hand-Held Weapons): in its hands, or, for a
/// ranged weapon too long for them, on a carriage (a tripod, a gun carriage) it works from
/// its controls (Ch. 8.5) and hauls as "a heavy item" at Half Speed (Ch. 4.1).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mount {
    /// Held in the hands.
    #[default]
    Hand,
    /// On a carriage, worked from its controls.
    Carriage,
}

impl Mount {
    /// Held in the hands (the default, left unwritten).
    pub fn is_hand(&self) -> bool {
        *self == Mount::Hand
    }
}

/// A catalog entry as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Its name as printed.
    pub name: String,
    /// Where the texts describe it.
    pub source: String,
    /// Size in inches (0 for Vermin).
    pub size: u32,
    /// Its Structure Level (Ch. 10.1).
    pub structure: Structure,
    /// Armor if not the Structure Level's (minifigs: "simplify the 1d6 rating to 4").
    #[serde(default)]
    pub armor: Option<String>,
    /// Inches of Move.
    #[serde(rename = "move")]
    pub move_inches: u32,
    /// How it moves.
    #[serde(default)]
    pub propulsion: Propulsion,
    /// Its Mind: full, a Half Mind, or none.
    #[serde(default)]
    pub mind: Mind,
    /// The Skill die, `d4` to `d12`.
    #[serde(default = "default_skill")]
    pub skill: String,
    /// Multitasking levels: an Action more each (Ch. 10.1).
    #[serde(default)]
    pub multitasking: u32,
    /// Multidexterity levels: more weapons an attack (Ch. 10.1).
    #[serde(default)]
    pub multidexterity: u32,
    /// Its Power (Ch. 8.1 Power Limits).
    #[serde(default)]
    pub power: Power,
    /// Hands it holds weapons in.
    #[serde(default = "two")]
    pub hands: u32,
    /// The weapons it carries.
    #[serde(default)]
    pub weapons: Vec<WeaponRef>,
    /// Gunnery, Medik, Master, Thrall.
    #[serde(default)]
    pub specialties: Vec<String>,
    /// Vermin, Cannon Fodder, Undead, Non-Living, Hero, Summoned.
    #[serde(default)]
    pub traits: Vec<String>,
    /// Construct with this Connection Strength (Ch. 10.4).
    #[serde(default)]
    pub connection_strength: Option<u32>,
    /// SuperNatural dice owned (Ch. 10.3).
    #[serde(default)]
    pub sn_dice: Vec<String>,
    /// A price the texts state for the whole unit instead of building it up (Vermin,
    /// Cannon Fodder, the Hero).
    #[serde(default)]
    pub listed_cp: Option<f64>,
    /// The 2020 price in Unit Inches, where the texts give one.
    #[serde(default)]
    pub listed_u: Option<f64>,
    /// Fields the texts do not give for this unit, filled by the catalog and printed as
    /// assumptions (the worked-example creations of Ch. 8 state only Size and weapons).
    #[serde(default)]
    pub assumed: Vec<String>,
}

/// Fields an `assumed` list may name.
pub const ASSUMABLE: &[&str] = &[
    "structure",
    "armor",
    "move",
    "propulsion",
    "mind",
    "skill",
    "hands",
    "power",
    "sn_dice",
];

fn default_skill() -> String {
    "d6".into()
}

fn two() -> u32 {
    2
}

/// Specialties the texts name, with their Skill-like die where they have one.
pub const SPECIALTIES: &[(&str, &str)] = &[
    (
        "gunnery",
        "Gunnery d8 on Action Rolls with mounted weapons (Ch. 8.5)",
    ),
    ("medik", "Ker-Triage! d8 with Tools, d6 without (Ch. 10.2)"),
    ("master", "may Sacrifice Thralls, +1CP (Ch. 10.4)"),
    ("thrall", "may be Sacrificed to a Master, +1CP (Ch. 10.4)"),
];

/// Traits later scenarios read.
pub const TRAITS: &[(&str, &str)] = &[
    (
        "vermin",
        "any hit kills; bites only unarmored SL 1 or less (Ch. 10.4)",
    ),
    (
        "cannon-fodder",
        "any hit kills; every weapon does 1 Damage (Ch. 10.4)",
    ),
    (
        "undead",
        "immune to Poison; Blessings and Curses swap (Ch. 10.4), +0CP",
    ),
    (
        "non-living",
        "immune to Poison and the like (Ch. 10.4), +0CP",
    ),
    ("hero", "Heroism (readings §3)"),
    (
        "summoned",
        "a Summoned Diemon, kept by its SuperNatural die (Ch. D.1)",
    ),
];

/// One weapon a unit carries, resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Armament {
    /// An armory item.
    Item(&'static Item),
    /// A weapon kind at a size.
    Sized {
        /// Its name.
        name: String,
        /// Its statistics at its size.
        stats: Stats,
        /// In the hands, or on a carriage.
        mount: Mount,
        /// Its Explosive Variants (Ch. 8.4), whose dice `stats` already carries.
        #[serde(skip_serializing_if = "Swap::is_standard")]
        variant: Swap,
    },
}

impl Armament {
    /// Its name as printed.
    pub fn name(&self) -> String {
        match self {
            Armament::Item(i) => i.name.to_string(),
            Armament::Sized { name, .. } => name.clone(),
        }
    }

    /// Its CP; `None` where the texts give no price.
    pub fn cost(&self) -> Option<Cp> {
        match self {
            Armament::Item(i) => i.cost,
            Armament::Sized { stats, .. } => Some(stats.cost),
        }
    }

    /// It rides a carriage (Ch. 8.1): a gun too long for the hands.
    pub fn on_carriage(&self) -> bool {
        matches!(
            self,
            Armament::Sized {
                mount: Mount::Carriage,
                ..
            }
        )
    }
}

/// A validated unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// Its key in the catalog.
    pub key: String,
    /// Its entry as written.
    pub spec: UnitSpec,
    /// Its Skill die.
    pub skill: Die,
    /// Skill Boosts bought: die sizes above d6 (Ch. 10.1).
    pub boosts: u32,
    /// Its Armor roll.
    pub armor: Expr,
    /// Its weapons, resolved.
    pub weapons: Vec<Armament>,
    /// Its SuperNatural dice (Ch. D).
    pub sn_dice: Vec<Die>,
}

impl Unit {
    /// Whether its card lists the trait `t` (Gunnery, Medik, Master, Thrall, ...).
    pub fn has_trait(&self, t: &str) -> bool {
        self.spec.traits.iter().any(|x| x == t)
    }

    /// Wears armor (Ch. 10.4: Vermin "cannot engage" an Armored target).
    pub fn armored(&self) -> bool {
        self.weapons
            .iter()
            .any(|w| matches!(w, Armament::Item(i) if i.armored))
    }

    /// Power inches (Ch. 8.1): Size zero creations have zero Power.
    pub fn power(&self) -> u32 {
        self.spec.power.inches(self.spec.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    fn minifig() -> UnitSpec {
        Catalog::builtin().get("minifig").unwrap().spec.clone()
    }

    #[test]
    fn issue_40_every_catalog_weapon_is_held_or_mounted_and_within_power() {
        // Ch. 8.1: each weapon fits its unit's hands (a ranged one up to Bastard, 1.5x the
        // Size) or rides a carriage, and each fits the unit's Power on its own.
        let catalog = Catalog::builtin();
        let mut carriages = Vec::new();
        for u in catalog.units() {
            for w in &u.weapons {
                let Armament::Sized {
                    name, stats, mount, ..
                } = w
                else {
                    continue;
                };
                assert!(
                    hand_held(name, stats, *mount, u.spec.size).is_none(),
                    "{}: {name}",
                    u.key
                );
                assert!(stats.power <= u.power(), "{}: {name} beyond Power", u.key);
                if *mount == Mount::Carriage {
                    carriages.push(u.key.as_str());
                }
            }
        }
        assert_eq!(
            carriages,
            ["gunner-cannon", "minifig-cannon", "minifig-launcher"]
        );
    }

    #[test]
    fn issue_40_a_long_ranged_weapon_in_the_hands_is_refused_with_the_carriage_hint() {
        // A 2" Launcher is Long for a 1" minifig: "Not Allowed" in the hands (Ch. 8.1).
        let mut s = minifig();
        let launcher = |size, mount| WeaponRef::Sized {
            kind: "launcher".into(),
            size,
            name: None,
            mount,
            variant: Swap::default(),
        };
        s.weapons = vec![launcher(2, Mount::Hand)];
        let e = s.resolve("x").unwrap_err();
        assert_eq!(e.len(), 1);
        assert!(
            e[0].message.contains("no ranged weapon that long"),
            "{}",
            e[0]
        );
        assert!(e[0].hint.contains("mount = \"carriage\""), "{}", e[0]);
        s.weapons = vec![launcher(2, Mount::Carriage)];
        assert!(s.resolve("x").is_ok());
        // A carriage is for weapons too long to hold, and for no melee weapon.
        s.weapons = vec![launcher(1, Mount::Carriage)];
        assert!(s.resolve("x").unwrap_err()[0].message.contains("fits"));
        s.weapons = vec![WeaponRef::Sized {
            kind: "melee-weapon".into(),
            size: 1,
            name: None,
            mount: Mount::Carriage,
            variant: Swap::default(),
        }];
        assert!(s.resolve("x").is_err());
        // A 3" Melee Weapon is past Long (2x) for a 1" minifig.
        s.weapons = vec![WeaponRef::Sized {
            kind: "melee-weapon".into(),
            size: 3,
            name: None,
            mount: Mount::Hand,
            variant: Swap::default(),
        }];
        assert!(s.resolve("x").unwrap_err()[0].message.contains("twice"));
    }

    #[test]
    fn scorpiosaurus_rex_power() {
        // Ch. 8.1 example: Size 3" -> 6" of Power; at Effective Size 2", 4".
        assert_eq!(Power::Normal.inches(3), 6);
        assert_eq!(Power::Normal.inches(2), 4);
        // Stinger 5" + one claw 1" fits in 6"; all three (7") do not.
        assert!(Power::Normal.allows(3, &[5, 1]));
        assert!(Power::Normal.allows(3, &[1, 1]));
        assert!(!Power::Normal.allows(3, &[5, 1, 1]));
        // "an inch of Size Damage ... he no longer has the strength to use" the stinger.
        assert!(!Power::Normal.allows(2, &[5]));
        assert!(Power::Normal.allows(2, &[1, 1]));
        // The catalog's Scorpiosaurus Rex carries exactly those three weapons.
        let rex = Catalog::builtin().get("scorpiosaurus-rex").unwrap().clone();
        let sizes: Vec<u32> = rex
            .weapons
            .iter()
            .map(|w| match w {
                Armament::Sized { stats, .. } => stats.power,
                Armament::Item(i) => panic!("{} is not sized", i.name),
            })
            .collect();
        assert_eq!(sizes, [1, 1, 5]);
        assert_eq!(rex.power(), 6);
        assert_eq!(Power::Enhanced4x.inches(3), 12);
        assert_eq!(Power::Half.inches(3), 3);
        assert_eq!(
            Power::Normal.inches(0),
            0,
            "Size zero creations have zero Power"
        );
    }

    #[test]
    fn armor_and_limbs_by_structure_level() {
        // readings §2: SL 1/2 -> 1d6, n -> nd10; Ch. 10.2: limbs one level lower, not
        // below 1/2.
        assert_eq!(Structure::Half.armor(), "1d6");
        assert_eq!(Structure::Level(3).armor(), "3d10");
        assert_eq!(Structure::Level(3).limb(), Structure::Level(2));
        assert_eq!(Structure::Level(1).limb(), Structure::Half);
        assert_eq!(Structure::Half.limb(), Structure::Half);
        assert!(Structure::try_from("6".to_string()).is_err());
        let mut s = minifig();
        s.armor = None;
        s.structure = Structure::Level(1);
        assert_eq!(s.resolve("x").unwrap().armor.to_string(), "1d10");
    }

    #[test]
    fn incompetent_is_d4_and_d20_is_refused() {
        // Ch. 10.1: Incompetent Skill is 1d4 and cannot be boosted; Skill stops at d12.
        let mut s = minifig();
        s.mind = Mind::Incompetent;
        s.skill = "d6".into();
        assert_eq!(s.resolve("x").unwrap_err()[0].field, "skill");
        s.skill = "d4".into();
        assert_eq!(s.resolve("x").unwrap().boosts, 0);
        s.mind = Mind::Full;
        assert!(
            s.resolve("x").is_err(),
            "d4 needs the Incompetent Half Mind"
        );
        s.skill = "d20".into();
        assert!(
            s.resolve("x").unwrap_err()[0]
                .message
                .contains("beyond d12")
        );
        s.skill = "1d6+2".into();
        assert!(s.resolve("x").is_err(), "a Skill is one die, never 1d6+2");
        s.skill = "d12".into();
        assert_eq!(s.resolve("x").unwrap().boosts, 3);
    }
}
