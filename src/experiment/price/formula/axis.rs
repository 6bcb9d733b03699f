//! The axes of the formula fit: each part of a unit, and the designed variants of the base
//! unit that step along it.

use serde::{Deserialize, Serialize};

use super::BASE;
use crate::catalog::unit::{UnitSpec, WeaponRef};
use crate::catalog::weapon::WeaponKind;

/// The base's Size on a weapon axis: the smallest that holds every kind at Weapon Size 4 in
/// hand (Ch. 8.1 Large Hand-Held Weapons: a ranged weapon up to 1.5x the Size, a melee one
/// up to 2x).
pub const BEARER_SIZE: u32 = 3;

/// The axes `--fit all` prices.
pub const ALL: [Axis; 6] = [
    Axis::Move,
    Axis::Skill,
    Axis::Armor,
    Axis::Size,
    Axis::Weapon(WeaponKind::MeleeWeapon),
    Axis::Weapon(WeaponKind::Gun),
];

/// A step of an axis: its x, the variant's key and its spec (None: the base unit itself).
pub type Step = (u32, String, Option<UnitSpec>);

/// One part of the formula, priced along its steps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Axis {
    /// Ground Move, 3" to 10" (the base has 5").
    Move,
    /// The Skill die, d6 (the base) to d12: Skill Boosts.
    Skill,
    /// None (the base), Body Armor, Heavy Armor.
    Armor,
    /// Size 1 (the base) to 3.
    Size,
    /// A weapon of the kind at Weapon Size 1 to 4 in place of the Hand Weapon.
    Weapon(WeaponKind),
}

impl Axis {
    /// By its name: `move`, `skill`, `armor` or a weapon kind (`gun`, `melee-weapon`, ...).
    pub fn parse(s: &str) -> Result<Axis, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "move" => Ok(Axis::Move),
            "skill" => Ok(Axis::Skill),
            "armor" | "armour" => Ok(Axis::Armor),
            "size" => Ok(Axis::Size),
            other => WeaponKind::from_key(other)
                .map(Axis::Weapon)
                .ok_or_else(|| {
                    format!(
                        "no formula part {s:?}\nhint: move, skill, armor or a weapon kind ({})",
                        WeaponKind::ALL.map(WeaponKind::key).join(", ")
                    )
                }),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Axis::Move => "move".into(),
            Axis::Skill => "skill".into(),
            Axis::Armor => "armor".into(),
            Axis::Size => "size".into(),
            Axis::Weapon(k) => k.key().into(),
        }
    }

    /// What one step is.
    pub fn step(&self) -> &'static str {
        match self {
            Axis::Move => "inch of Move",
            Axis::Skill => "Skill die size above d6",
            Axis::Armor => "Armor step (none, Body Armor, Heavy Armor)",
            Axis::Size => "inch of Size",
            Axis::Weapon(_) => "Weapon Size (borne at Size 3)",
        }
    }

    /// The formula key its worth per step sets.
    pub fn key(&self) -> String {
        match self {
            Axis::Move => "move".into(),
            Axis::Skill => "skill_boost".into(),
            Axis::Armor => "item.body-armor, item.heavy-armor".into(),
            Axis::Size => "body, mind".into(),
            Axis::Weapon(k) => format!("weapon_size.{}", k.key()),
        }
    }

    /// Its steps: `(x, the variant's key, its spec)`; the spec is None where the step is
    /// the base unit itself.
    pub fn steps(&self, base: &UnitSpec) -> Vec<Step> {
        let n = self.name();
        let with = |f: &dyn Fn(&mut UnitSpec)| {
            let mut s = base.clone();
            f(&mut s);
            Some(s)
        };
        match self {
            Axis::Move => (3..=10)
                .map(|m| match m {
                    5 => (m, BASE.to_string(), None),
                    _ => (m, format!("fit-{n}-{m}"), with(&|s| s.move_inches = m)),
                })
                .collect(),
            Axis::Skill => ["d6", "d8", "d10", "d12"]
                .iter()
                .zip(0..)
                .map(|(d, x)| match x {
                    0 => (x, BASE.to_string(), None),
                    _ => (
                        x,
                        format!("fit-{n}-{d}"),
                        with(&|s| s.skill = d.to_string()),
                    ),
                })
                .collect(),
            Axis::Armor => [None, Some("body-armor"), Some("heavy-armor")]
                .iter()
                .zip(0..)
                .map(|(item, x)| match item {
                    None => (x, BASE.to_string(), None),
                    Some(i) => (
                        x,
                        format!("fit-{n}-{i}"),
                        with(&|s| s.weapons.push(WeaponRef::Item(i.to_string()))),
                    ),
                })
                .collect(),
            Axis::Size => (1..=3)
                .map(|size| match size {
                    1 => (size, BASE.to_string(), None),
                    _ => (size, format!("fit-{n}-{size}"), with(&|s| s.size = size)),
                })
                .collect(),
            Axis::Weapon(k) => (1..=4)
                .map(|size| {
                    let spec = with(&|s| {
                        s.size = BEARER_SIZE;
                        s.weapons = vec![WeaponRef::Sized {
                            kind: k.key().into(),
                            size,
                            name: None,
                            mount: Default::default(),
                            variant: Default::default(),
                        }]
                    });
                    (size, format!("fit-{n}-{size}"), spec)
                })
                .collect(),
        }
    }
}

impl From<Axis> for String {
    fn from(a: Axis) -> String {
        a.name()
    }
}

impl TryFrom<String> for Axis {
    type Error = String;
    fn try_from(s: String) -> Result<Axis, String> {
        Axis::parse(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    #[test]
    fn each_axis_varies_its_part_alone_and_names_parse_back() {
        let base = Catalog::builtin().get(BASE).unwrap().spec.clone();
        let moves = Axis::Move.steps(&base);
        assert_eq!(
            moves.iter().map(|s| s.0).collect::<Vec<_>>(),
            (3..=10).collect::<Vec<_>>()
        );
        assert!(moves.iter().all(|(x, key, s)| match s {
            None => *x == 5 && key == BASE,
            Some(s) => s.move_inches == *x && s.weapons == base.weapons,
        }));
        let gun = Axis::Weapon(WeaponKind::Gun).steps(&base);
        assert_eq!(gun.len(), 4);
        assert!(
            gun.iter()
                .all(|(_, _, s)| s.as_ref().unwrap().weapons.len() == 1)
        );
        for a in ALL {
            assert_eq!(Axis::parse(&a.name()), Ok(a));
        }
        assert!(
            Axis::parse("speed")
                .unwrap_err()
                .contains("hint: move, skill, armor")
        );
    }
}
