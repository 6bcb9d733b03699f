//! The cost formula (Ch. 10; issue 41): what each part of a unit costs per step, so a
//! designer can re-cost a whole catalog under other rates and ask whether it is fairer.
//!
//! [`Formula::rules`] is the texts' formula, read off the rule functions at one step
//! ([`super::cost`], [`WeaponKind::at`], the armory), so no price is written twice. Every
//! part of a unit is linear in its steps (inches of Move, Weapon Size, die sizes), and
//! [`super::cost::recost`] under the rules' formula equals the breakdown's total for every
//! built-in unit (pinned below). A formula file overrides any of its keys:
//!
//! ```toml
//! move = 0.75            # CP per inch of ground Move (the rules: 0.5)
//! [weapon_size]
//! gun = 2.5              # CP per Weapon Size of a Gun (the rules: 3)
//! [item]
//! body-armor = 2         # a named armory item (the rules: 1)
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::armory::ARMORY;
use super::cost::{BOOST_PER_SIZE, CONNECTION, Part, SPECIALTY, mind, movement, sn_die};
use super::cp::Cp;
use super::unit::{Mind, Propulsion, Structure};
use super::weapon::WeaponKind;
use crate::dice::Die;
use crate::input::InputError;

/// CP per step of every part a unit is built from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Formula {
    /// Per inch of Size per Structure Level (SL 0 and ½ flesh count half a level).
    pub body: f64,
    /// Per inch of ground (or climbing) Move.
    #[serde(rename = "move")]
    pub ground_move: f64,
    /// Per inch of flying Move, and per inch per Structure Level on top.
    pub flying_move: f64,
    /// Per inch of flying Move per Structure Level above the first.
    pub flying_move_per_level: f64,
    /// Per inch of Size (at least 1): a full Mind, a Half Mind.
    pub mind: f64,
    /// Per inch of Size: a Half Mind.
    pub half_mind: f64,
    /// Per inch of Size per Skill die size above d6.
    pub skill_boost: f64,
    /// Per Specialty.
    pub specialty: f64,
    /// Per point of a Construct's Connection Strength.
    pub connection: f64,
    /// A SuperNatural die, by die (`d4` to `d12`).
    pub supernatural: BTreeMap<String, f64>,
    /// Per Weapon Size (Explosive Size for Explosives and Rockets), by weapon kind.
    pub weapon_size: BTreeMap<String, f64>,
    /// A named armory item, by key.
    pub item: BTreeMap<String, f64>,
}

impl Formula {
    /// The texts' formula.
    pub fn rules() -> Formula {
        let per = |c: Cp| c.as_f64();
        let flying = |s| per(movement(1, Propulsion::Flying, s));
        Formula {
            body: per(Cp::halves(Structure::Level(1).cost_halves())),
            ground_move: per(movement(1, Propulsion::Ground, Structure::Zero)),
            flying_move: flying(Structure::Zero),
            flying_move_per_level: flying(Structure::Level(1)) - flying(Structure::Zero),
            mind: per(mind(1, Mind::Full)),
            half_mind: per(mind(1, Mind::Incompetent)),
            skill_boost: per(BOOST_PER_SIZE),
            specialty: per(SPECIALTY),
            connection: per(CONNECTION),
            supernatural: Die::ALL
                .iter()
                .filter_map(|d| sn_die(*d).map(|c| (d.to_string(), per(c))))
                .collect(),
            weapon_size: WeaponKind::ALL
                .iter()
                .filter_map(|k| k.at(1).ok().map(|s| (k.key().to_string(), per(s.cost))))
                .collect(),
            item: ARMORY
                .iter()
                .filter_map(|i| i.cost.map(|c| (i.key.to_string(), per(c))))
                .collect(),
        }
    }

    /// What `part` costs under this formula; `rules` is its cost by the texts, which a part
    /// the formula does not price (a listed price, an item it does not name) keeps.
    pub fn cost(&self, part: &Part, rules: Cp) -> f64 {
        let size = |s: u32| s.max(1) as f64;
        let mind = |s: u32, half: bool| size(s) * if half { self.half_mind } else { self.mind };
        match *part {
            Part::Listed => rules.as_f64(),
            Part::Body { size, structure } => {
                self.body * size as f64 * structure.cost_halves() as f64 / 2.0
            }
            Part::Move {
                inches,
                propulsion,
                structure,
            } => {
                inches as f64
                    * match propulsion {
                        Propulsion::Ground | Propulsion::Spidering => self.ground_move,
                        Propulsion::Flying => {
                            self.flying_move + self.flying_move_per_level * levels(structure)
                        }
                    }
            }
            Part::Mind { size, half } => mind(size, half),
            Part::Boosts { size: s, n } => self.skill_boost * size(s) * n as f64,
            Part::Levels { size, half, n } => mind(size, half) * n as f64,
            Part::Weapon { kind, size } => self
                .weapon_size
                .get(kind.key())
                .map_or(rules.as_f64(), |per| per * size as f64),
            Part::Item { key } => self.item.get(key).copied().unwrap_or(rules.as_f64()),
            Part::Specialty => self.specialty,
            Part::Connection(c) => self.connection * c as f64,
            Part::SuperNatural(d) => self
                .supernatural
                .get(&d.to_string())
                .copied()
                .unwrap_or(rules.as_f64()),
        }
    }

    /// The rules' formula with the overrides of the file at `path`.
    pub fn read(path: &Path) -> Result<Formula, InputError> {
        let file = path.display().to_string();
        let text = crate::input::read(path).map_err(|e| InputError {
            file: file.clone(),
            line: 0,
            column: 0,
            message: format!("cannot read the formula: {e}"),
            hint: "check the path given to --formula".into(),
        })?;
        Formula::parse(&file, &text)
    }

    /// The rules' formula with the overrides of `text` (named `file` in errors).
    pub fn parse(file: &str, text: &str) -> Result<Formula, InputError> {
        let at = crate::input::at(file, text);
        let spec: FileSpec = toml::from_str(text).map_err(|e| {
            at(
                e.span().map_or(0, |s| s.start),
                e.message().trim().to_string(),
                "key = CP per step, e.g. move = 0.75 (docs/balance.md lists the keys)",
            )
        })?;
        let mut f = Formula::rules();
        let scalars = [
            (&spec.body, &mut f.body),
            (&spec.ground_move, &mut f.ground_move),
            (&spec.flying_move, &mut f.flying_move),
            (&spec.flying_move_per_level, &mut f.flying_move_per_level),
            (&spec.mind, &mut f.mind),
            (&spec.half_mind, &mut f.half_mind),
            (&spec.skill_boost, &mut f.skill_boost),
            (&spec.specialty, &mut f.specialty),
            (&spec.connection, &mut f.connection),
        ];
        for (given, slot) in scalars {
            if let Some(v) = given {
                *slot = per_step(v.get_ref()).ok_or_else(|| {
                    at(
                        v.span().start,
                        format!("{} is not a CP per step", v.get_ref()),
                        "a number from 0 up, e.g. 0.75",
                    )
                })?;
            }
        }
        for (table, given, held) in [
            ("supernatural", &spec.supernatural, &mut f.supernatural),
            ("weapon_size", &spec.weapon_size, &mut f.weapon_size),
            ("item", &spec.item, &mut f.item),
        ] {
            for (name, v) in given.iter().flatten() {
                let key = name.get_ref();
                let Some(slot) = held.get_mut(key) else {
                    let keys = || held.keys().map(String::as_str);
                    let near = crate::input::nearest(key, keys());
                    return Err(at(
                        name.span().start,
                        format!("[{table}] has no {key:?}"),
                        &if near.is_empty() {
                            format!("one of: {}", keys().collect::<Vec<_>>().join(", "))
                        } else {
                            format!("did you mean {}?", near.join(", "))
                        },
                    ));
                };
                *slot = per_step(v.get_ref()).ok_or_else(|| {
                    at(
                        v.span().start,
                        format!("{table}.{key} = {} is not a CP per step", v.get_ref()),
                        "a number from 0 up, e.g. 2.5",
                    )
                })?;
            }
        }
        Ok(f)
    }

    /// The keys where this formula differs from the rules', with both values:
    /// `move 0.75 (rules 0.5)`.
    pub fn changes(&self) -> Vec<String> {
        let r = Formula::rules();
        let mut out = Vec::new();
        let scalars = [
            ("body", self.body, r.body),
            ("move", self.ground_move, r.ground_move),
            ("flying_move", self.flying_move, r.flying_move),
            (
                "flying_move_per_level",
                self.flying_move_per_level,
                r.flying_move_per_level,
            ),
            ("mind", self.mind, r.mind),
            ("half_mind", self.half_mind, r.half_mind),
            ("skill_boost", self.skill_boost, r.skill_boost),
            ("specialty", self.specialty, r.specialty),
            ("connection", self.connection, r.connection),
        ];
        for (k, mine, rules) in scalars {
            if mine != rules {
                out.push(format!("{k} {mine} (rules {rules})"));
            }
        }
        for (map, mine, rules) in [
            ("supernatural", &self.supernatural, &r.supernatural),
            ("weapon_size", &self.weapon_size, &r.weapon_size),
            ("item", &self.item, &r.item),
        ] {
            for (k, v) in mine {
                if rules.get(k) != Some(v) {
                    let was = rules.get(k).map_or("none".into(), |x| x.to_string());
                    out.push(format!("{map}.{k} {v} (rules {was})"));
                }
            }
        }
        out
    }
}

/// A formula file: any key of [`Formula`], CP per step.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    body: Option<Spanned<toml::Value>>,
    #[serde(rename = "move")]
    ground_move: Option<Spanned<toml::Value>>,
    flying_move: Option<Spanned<toml::Value>>,
    flying_move_per_level: Option<Spanned<toml::Value>>,
    mind: Option<Spanned<toml::Value>>,
    half_mind: Option<Spanned<toml::Value>>,
    skill_boost: Option<Spanned<toml::Value>>,
    specialty: Option<Spanned<toml::Value>>,
    connection: Option<Spanned<toml::Value>>,
    supernatural: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    weapon_size: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    item: Option<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
}

/// Structure Levels for flying Move: 0, ½ or n.
fn levels(s: Structure) -> f64 {
    match s {
        Structure::Zero => 0.0,
        Structure::Half => 0.5,
        Structure::Level(n) => n as f64,
    }
}

/// A CP per step: a finite number from 0 up, integer or float.
fn per_step(v: &toml::Value) -> Option<f64> {
    let x = v.as_float().or_else(|| v.as_integer().map(|i| i as f64))?;
    (x.is_finite() && x >= 0.0).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::catalog::cost::{breakdown, recost};

    #[test]
    fn the_rules_formula_re_costs_every_built_in_unit_at_its_breakdown() {
        let f = Formula::rules();
        let c = Catalog::builtin();
        for u in c.units() {
            assert_eq!(recost(u, &f), breakdown(u).total().as_f64(), "{}", u.key);
        }
        // The texts' per-step prices, read off the rule functions.
        assert_eq!(
            (
                f.body,
                f.ground_move,
                f.flying_move,
                f.flying_move_per_level
            ),
            (1.0, 0.5, 1.0, 0.5)
        );
        assert_eq!((f.mind, f.half_mind, f.skill_boost), (1.0, 0.5, 1.0));
        assert_eq!(f.weapon_size["gun"], 3.0);
        assert_eq!(f.item["body-armor"], 1.0);
        assert_eq!(f.supernatural["d12"], 7.0);
    }

    #[test]
    fn an_override_re_costs_the_parts_it_names() {
        let f = Formula::parse("f.toml", "move = 0.75\n[weapon_size]\ngun = 2\n").unwrap();
        let c = Catalog::builtin();
        // minifig-blastgunner: 4 CP minifig with 5" of Move, BlastGun 1 (3 CP): +1.25 CP.
        let bg = c.get("minifig-blastgunner").unwrap();
        assert_eq!(recost(bg, &f), 7.0 + 5.0 * 0.25);
        // gunner-cannon keeps its Cannon at 3 CP a size; automaton's listed price stays.
        let hero = c.get("hero-hand-weapon").unwrap();
        assert_eq!(recost(hero, &f), 13.0);
        assert_eq!(
            f.changes(),
            vec!["move 0.75 (rules 0.5)", "weapon_size.gun 2 (rules 3)"]
        );
    }

    #[test]
    fn a_bad_formula_is_named_at_its_place() {
        let e = Formula::parse("f.toml", "mov = 1\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("`move`"), "{e}");
        let e = Formula::parse("f.toml", "move = 1\n[item]\nbody-armour = 2\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        assert!(e.hint.contains("body-armor"), "{e}");
        let e = Formula::parse("f.toml", "body = -1\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 8), "{e}");
        let e = Formula::parse("f.toml", "move = \"fast\"\n").unwrap_err();
        assert!(e.hint.contains("0.75"), "{e}");
        assert!(e.message.contains("\"fast\""), "{e}");
    }
}
