//! The axes of the formula fit: each part of a unit, and the designed variants of the base
//! unit that step along it.

use serde::{Deserialize, Serialize};

use super::BASE;
use diemon_core::catalog::unit::{Mind, UnitSpec, WeaponRef};
use diemon_core::catalog::weapon::WeaponKind;
use diemon_core::dice::Die;

/// The base's Size on a weapon axis: the smallest that holds every kind at Weapon Size 4 in
/// hand (Ch. 8.1 Large Hand-Held Weapons: a ranged weapon up to 1.5x the Size, a melee one
/// up to 2x).
pub const BEARER_SIZE: u32 = 3;

/// The axes `--fit all` prices.
pub const ALL: [Axis; 15] = [
    Axis::Move,
    Axis::Skill,
    Axis::Armor,
    Axis::Size,
    Axis::Weapon(WeaponKind::MeleeWeapon),
    Axis::Weapon(WeaponKind::Gun),
    Axis::HalfMind(Mind::Incompetent),
    Axis::HalfMind(Mind::Programmed),
    Axis::HalfMind(Mind::Submissive),
    Axis::HalfMind(Mind::Subjugated),
    Axis::Trait(Trait::Multitasking),
    Axis::Trait(Trait::Multidexterity),
    Axis::Trait(Trait::Master),
    Axis::Trait(Trait::Thrall),
    Axis::SuperNatural,
];

/// The names that stand for several axes: `mind` (each Half Mind) and `traits`.
pub fn group(name: &str) -> Option<Vec<Axis>> {
    let of = |f: fn(&Axis) -> bool| Some(ALL.iter().copied().filter(f).collect());
    match name.trim().to_ascii_lowercase().as_str() {
        "all" => Some(ALL.to_vec()),
        "mind" | "minds" => of(|a| matches!(a, Axis::HalfMind(_))),
        "traits" | "trait" => of(|a| matches!(a, Axis::Trait(_))),
        _ => None,
    }
}

/// A trait the catalog prices (Ch. 10.1 Enhanced Abilities, Ch. 10.4 Masters and Thralls).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Trait {
    /// A level of Multitasking, on the base with two Hand Weapons (one for each Action).
    Multitasking,
    /// A level of Multidexterity, on the base with four hands and four Hand Weapons (a
    /// standard Mind strikes with two).
    Multidexterity,
    /// The master Specialty.
    Master,
    /// The thrall Specialty.
    Thrall,
}

impl Trait {
    /// Its name in a formula file and on `--fit`.
    pub fn name(self) -> &'static str {
        match self {
            Trait::Multitasking => "multitasking",
            Trait::Multidexterity => "multidexterity",
            Trait::Master => "master",
            Trait::Thrall => "thrall",
        }
    }
}

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
    /// A Half Mind (step 0) against the base's full Mind (step 1): one step.
    HalfMind(Mind),
    /// The base without the trait (step 0) and with it (step 1).
    Trait(Trait),
    /// One SuperNatural die, d4 (step 0) to d12 (step 4), on the base.
    SuperNatural,
}

impl Axis {
    /// By its name: `move`, `skill`, `armor`, `size`, a weapon kind (`gun`,
    /// `melee-weapon`, ...), `mind-incompetent` (each Half Mind), a trait (`multitasking`,
    /// `master`, ...) or `supernatural`.
    pub fn parse(s: &str) -> Result<Axis, NoPart> {
        let lower = s.trim().to_ascii_lowercase();
        if let Some(a) = ALL.iter().find(|a| a.name() == lower) {
            return Ok(*a);
        }
        match lower.as_str() {
            "armour" => Ok(Axis::Armor),
            other => WeaponKind::from_key(other)
                .map(Axis::Weapon)
                .ok_or_else(|| NoPart(s.to_string())),
        }
    }

    /// Its name in a formula file and on `--fit`.
    pub fn name(&self) -> String {
        match self {
            Axis::Move => "move".into(),
            Axis::Skill => "skill".into(),
            Axis::Armor => "armor".into(),
            Axis::Size => "size".into(),
            Axis::Weapon(k) => k.key().into(),
            Axis::HalfMind(m) => format!("mind-{}", half_name(*m)),
            Axis::Trait(t) => t.name().into(),
            Axis::SuperNatural => "supernatural".into(),
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
            Axis::HalfMind(Mind::Incompetent) => "Mind over an Incompetent Half Mind (d4)",
            Axis::HalfMind(Mind::Programmed) => "Mind over a Programmed Half Mind",
            Axis::HalfMind(Mind::Submissive) => "Mind over a Submissive Half Mind",
            Axis::HalfMind(_) => "Mind over a Subjugated Half Mind",
            Axis::Trait(Trait::Multitasking) => "level of Multitasking (two Hand Weapons)",
            Axis::Trait(Trait::Multidexterity) => {
                "level of Multidexterity (four hands, four Hand Weapons)"
            }
            Axis::Trait(Trait::Master) => "master Specialty",
            Axis::Trait(Trait::Thrall) => "thrall Specialty",
            Axis::SuperNatural => "SuperNatural die size (one die, d4 to d12)",
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
            Axis::HalfMind(_) => "mind, half_mind".into(),
            // Ch. 10.1: each level costs the Creature's original Mind.
            Axis::Trait(Trait::Multitasking | Trait::Multidexterity) => "mind".into(),
            Axis::Trait(_) => "specialty".into(),
            Axis::SuperNatural => "supernatural".into(),
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
            Axis::HalfMind(m) => vec![
                (
                    0,
                    format!("fit-{n}"),
                    with(&|s| {
                        s.mind = *m;
                        // Ch. 10.1: an Incompetent Creature's Skill is set at 1d4.
                        if *m == Mind::Incompetent {
                            s.skill = "d4".into();
                        }
                    }),
                ),
                (1, BASE.to_string(), None),
            ],
            Axis::Trait(t) => {
                // The loadout the trait acts with, on both steps.
                let armed = |s: &mut UnitSpec| match t {
                    Trait::Multitasking => {
                        s.weapons = [base.weapons.clone(), base.weapons.clone()].concat()
                    }
                    Trait::Multidexterity => {
                        s.hands = 4;
                        s.weapons = vec![base.weapons.clone(); 4].concat();
                    }
                    Trait::Master | Trait::Thrall => {}
                };
                let bare = match t {
                    Trait::Master | Trait::Thrall => (0, BASE.to_string(), None),
                    _ => (0, format!("fit-{n}-0"), with(&armed)),
                };
                let trait_on = with(&|s| {
                    armed(s);
                    match t {
                        Trait::Multitasking => s.multitasking = 1,
                        Trait::Multidexterity => s.multidexterity = 1,
                        Trait::Master | Trait::Thrall => s.specialties = vec![t.name().into()],
                    }
                });
                vec![bare, (1, format!("fit-{n}-1"), trait_on)]
            }
            Axis::SuperNatural => [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12]
                .iter()
                .zip(0..)
                .map(|(d, x)| {
                    let spec = with(&|s| s.sn_dice = vec![d.to_string()]);
                    (x, format!("fit-{n}-{d}"), spec)
                })
                .collect(),
        }
    }
}

/// A Half Mind's name in the catalog (`incompetent`, ...).
fn half_name(m: Mind) -> &'static str {
    match m {
        Mind::Incompetent => "incompetent",
        Mind::Programmed => "programmed",
        Mind::Submissive => "submissive",
        Mind::Subjugated => "subjugated",
        Mind::Full => "full",
        Mind::None => "none",
    }
}

impl From<Axis> for String {
    fn from(a: Axis) -> String {
        a.name()
    }
}

impl TryFrom<String> for Axis {
    type Error = NoPart;
    fn try_from(s: String) -> Result<Axis, NoPart> {
        Axis::parse(&s)
    }
}

/// A name that is no formula part, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no formula part {0:?}\nhint: move, skill, armor, size, mind (or mind-incompetent, ...), traits (or multitasking, multidexterity, master, thrall), supernatural, or a weapon kind ({kinds})",
    kinds = WeaponKind::ALL.map(WeaponKind::key).join(", ")
)]
pub struct NoPart(pub String);

#[cfg(test)]
mod tests {
    use super::*;
    use diemon_core::catalog::Catalog;

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
                .to_string()
                .contains("hint: move, skill, armor")
        );
        assert_eq!(group("mind").unwrap().len(), 4);
        assert_eq!(group("traits").unwrap().len(), 4);
        // A Half Mind steps down from the base; a trait steps up from its own loadout.
        let inc = Axis::HalfMind(Mind::Incompetent).steps(&base);
        let s = inc[0].2.as_ref().unwrap();
        assert_eq!(
            (s.mind, s.skill.as_str(), inc[1].2.is_none()),
            (Mind::Incompetent, "d4", true)
        );
        let md = Axis::Trait(Trait::Multidexterity).steps(&base);
        let (bare, on) = (md[0].2.as_ref().unwrap(), md[1].2.as_ref().unwrap());
        assert_eq!(
            (bare.hands, bare.weapons.len(), bare.multidexterity),
            (4, 4, 0)
        );
        assert_eq!((on.hands, on.weapons.len(), on.multidexterity), (4, 4, 1));
        let sn = Axis::SuperNatural.steps(&base);
        assert_eq!(
            sn.last().unwrap().2.as_ref().unwrap().sn_dice,
            vec!["d12".to_string()]
        );
    }
}
