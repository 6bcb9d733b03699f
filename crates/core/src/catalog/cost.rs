//! The CP calculator: a unit's price, item by item (Ch. 10; readings §3).
//!
//! Built up as Ch. 10 builds the minifig: body (Size x Structure Level), Move, Mind, Skill
//! Boosts, Multitasking and Multidexterity, then weapons, equipment, Specialties and
//! SuperNatural dice. Units the texts price as a whole (Vermin, Cannon Fodder, the Hero) carry
//! that listed price instead. Anything the texts do not price is listed as unpriced, never
//! counted as zero silently.

use serde::Serialize;

use super::cp::Cp;
use super::formula::Formula;
use super::unit::{Armament, Mind, Propulsion, Structure, Unit};
use super::weapon::WeaponKind;
use crate::dice::Die;

/// A price with its items.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Breakdown {
    /// Each priced part with its CP, in the order they are added.
    pub items: Vec<(String, Cp)>,
    /// Parts the texts give no price for; the total leaves them out.
    pub unpriced: Vec<String>,
}

impl Breakdown {
    /// The sum of the priced items (the unpriced left out).
    pub fn total(&self) -> Cp {
        self.items.iter().map(|(_, c)| *c).sum()
    }
}

/// SuperNatural die prices (Ch. 10.3): d4 3CP, d6 4, d8 5, d10 6, d12 7; the d20 has none
/// ("Only available to BrikThulhu").
pub fn sn_die(d: Die) -> Option<Cp> {
    Some(Cp::whole(match d {
        Die::D4 => 3,
        Die::D6 => 4,
        Die::D8 => 5,
        Die::D10 => 6,
        Die::D12 => 7,
        Die::D20 => return None,
    }))
}

/// SuperNatural die values in Unit Inches (Ch. D.1): d4 ½Ü, d6 1Ü, d8 1Ü, d10 2Ü, d12 2Ü;
/// the d20 "N/A".
pub fn sn_die_u(d: Die) -> Option<Cp> {
    match d {
        Die::D4 => Some(Cp::halves(1)),
        Die::D6 | Die::D8 => Some(Cp::whole(1)),
        Die::D10 | Die::D12 => Some(Cp::whole(2)),
        Die::D20 => None,
    }
}

/// The Mind's price (Ch. 10.1): Size CP, at least 1; a Half Mind half that.
pub fn mind(size: u32, kind: Mind) -> Cp {
    let size = size.max(1) as i64;
    match kind {
        Mind::Full => Cp::whole(size),
        Mind::None => Cp::ZERO,
        _ => Cp::halves(size),
    }
}

/// Move's price: ground (and climbing) 1CP per 2" (Ch. 10 minifig); flying
/// (2 + Structure Level) CP per 2" (readings §3).
pub fn movement(inches: u32, how: Propulsion, structure: Structure) -> Cp {
    match how {
        Propulsion::Ground | Propulsion::Spidering => Cp::halves(inches as i64),
        // (2 + SL)/2 CP per inch = (4 + 2 SL) quarters per inch, SL in halves below.
        Propulsion::Flying => {
            let sl_halves = match structure {
                Structure::Zero => 0,
                Structure::Half => 1,
                Structure::Level(n) => 2 * n as i64,
            };
            Cp::quarters(inches as i64 * (4 + sl_halves))
        }
    }
}

/// Ch. 10.1: a Skill Boost costs "the Creature's Size in CP again" per die size.
pub const BOOST_PER_SIZE: Cp = Cp::whole(1);

/// Ch. 10.4: a Master or Thrall Specialty.
pub const SPECIALTY: Cp = Cp::whole(1);

/// Ch. 10.4 Constructs: CP per point of Connection Strength.
pub const CONNECTION: Cp = Cp::whole(1);

/// What an item of a breakdown buys, in steps a cost formula prices
/// ([`super::formula::Formula::cost`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Part {
    /// A price the texts list whole (Vermin, the Hero): no formula re-costs it.
    Listed,
    /// Size inches of body at a Structure Level ([`Structure::cost_halves`]).
    Body {
        /// Effective Size in inches.
        size: u32,
        /// The body's Structure Level.
        structure: Structure,
    },
    /// Inches of Move (Ch. 10.1): ground, flying or spidering, priced by Structure when flying.
    Move {
        /// Inches of Move.
        inches: u32,
        /// How the unit moves.
        propulsion: Propulsion,
        /// The body's Structure Level (flying Move costs more per level).
        structure: Structure,
    },
    /// A Mind at Size `size` (Ch. 10.1): full, or a Half Mind.
    Mind {
        /// Effective Size in inches (at least 1 for the price).
        size: u32,
        /// A Half Mind rather than a full one.
        half: bool,
    },
    /// Skill Boosts: `n` die sizes at Size `size`.
    Boosts {
        /// Effective Size in inches.
        size: u32,
        /// Die sizes above d6.
        n: u32,
    },
    /// Multitasking or Multidexterity levels, each the Mind's price.
    Levels {
        /// Effective Size in inches.
        size: u32,
        /// Priced at a Half Mind's rate.
        half: bool,
        /// Levels bought.
        n: u32,
    },
    /// A weapon of the Ch. 8.1 table at its Weapon (or Explosive) Size.
    Weapon {
        /// The weapon's kind.
        kind: WeaponKind,
        /// Its Weapon Size in inches (Explosive Size in bricks).
        size: u32,
    },
    /// A named armory item.
    Item {
        /// The item's armory key.
        key: &'static str,
    },
    /// A Specialty (Gunnery, Medik, ...).
    Specialty,
    /// A Construct's Connection Strength, in points (Ch. 10.4).
    Connection(u32),
    /// One SuperNatural die of this size (Ch. D).
    SuperNatural(Die),
}

/// The unit's CP, itemised.
pub fn breakdown(u: &Unit) -> Breakdown {
    let (items, unpriced) = itemised(u);
    Breakdown {
        items: items.into_iter().map(|(n, c, _)| (n, c)).collect(),
        unpriced,
    }
}

/// The unit's cost under the formula `f`: each priced item re-costed by its part (what the
/// texts leave unpriced stays out, as in [`breakdown`]).
pub fn recost(u: &Unit, f: &Formula) -> f64 {
    itemised(u).0.iter().map(|(_, c, p)| f.cost(p, *c)).sum()
}

/// Each priced item with its CP by the rules and the part it buys, and the unpriced parts.
fn itemised(u: &Unit) -> (Vec<(String, Cp, Part)>, Vec<String>) {
    let s = &u.spec;
    let mut items = Vec::new();
    let mut unpriced = Vec::new();
    if let Some(listed) = s.listed_cp {
        items.push((
            format!("{} as listed ({})", s.name, s.source),
            Cp::quarters((listed * 4.0) as i64),
            Part::Listed,
        ));
    } else if u.has_trait("summoned") {
        unpriced.push("summoned by spending its SuperNatural die (Ch. D.1), not bought".into());
    } else {
        built(u, &mut items);
    }
    // Weapons are bought on top of a listed price too: the listings' own weapons (Mook
    // Weapon, Bites) are priced 0 in the armory because their listing includes them.
    for w in &u.weapons {
        let part = match w {
            Armament::Item(i) => Part::Item { key: i.key },
            Armament::Sized { stats, .. } => Part::Weapon {
                kind: stats.kind,
                size: stats.size,
            },
        };
        match w.cost() {
            Some(c) => items.push((w.name(), c, part)),
            None => unpriced.push(format!("{} (no price in the texts)", w.name())),
        }
    }
    if s.listed_cp.is_none() {
        for sp in &s.specialties {
            match sp.as_str() {
                "master" | "thrall" => {
                    items.push((format!("Specialty: {sp}"), SPECIALTY, Part::Specialty))
                }
                _ => unpriced.push(format!("Specialty: {sp} (no price in the texts)")),
            }
        }
        if let Some(c) = s.connection_strength {
            items.push((
                format!("Construct, Connection Strength {c}"),
                CONNECTION * c as i64,
                Part::Connection(c),
            ));
        }
        for d in &u.sn_dice {
            match sn_die(*d) {
                Some(c) => items.push((format!("SuperNatural {d}"), c, Part::SuperNatural(*d))),
                None => unpriced.push(format!("SuperNatural {d} (BrikThulhu's alone)")),
            }
        }
        if matches!(
            s.power,
            super::unit::Power::Enhanced3x | super::unit::Power::Enhanced4x
        ) {
            unpriced.push("Power enhancement (priced only in Unit Inches, 2020)".into());
        }
    }
    (items, unpriced)
}

/// The items of a unit built part by part (Ch. 10): body, Move, Mind, Skill Boosts and
/// Multitasking or Multidexterity.
fn built(u: &Unit, items: &mut Vec<(String, Cp, Part)>) {
    let s = &u.spec;
    items.push((
        format!("body: Size {}\" x Structure Level {}", s.size, s.structure),
        Cp::halves(s.size as i64 * s.structure.cost_halves()),
        Part::Body {
            size: s.size,
            structure: s.structure,
        },
    ));
    let how = match s.propulsion {
        Propulsion::Ground => "ground",
        Propulsion::Flying => "flying",
        Propulsion::Spidering => "spidering",
    };
    items.push((
        format!("Move {}\" ({how})", s.move_inches),
        movement(s.move_inches, s.propulsion, s.structure),
        Part::Move {
            inches: s.move_inches,
            propulsion: s.propulsion,
            structure: s.structure,
        },
    ));
    let m = mind(s.size, s.mind);
    let half = s.mind.is_half();
    if s.mind != Mind::None {
        let kind = match s.mind {
            Mind::Full => "Mind",
            Mind::Incompetent => "Half Mind (Incompetent)",
            Mind::Programmed => "Half Mind (Programmed)",
            Mind::Submissive => "Half Mind (Submissive)",
            Mind::Subjugated => "Half Mind (Subjugated)",
            Mind::None => "",
        };
        items.push((
            format!("{kind}: Skill 1{}", Die::D6.min(u.skill)),
            m,
            Part::Mind { size: s.size, half },
        ));
    }
    if u.boosts > 0 {
        // Ch. 10.1: "pay the Creature's Size in CP again" per die size, Half Mind or not.
        items.push((
            format!("{} Skill Boost(s) to 1{}", u.boosts, u.skill),
            BOOST_PER_SIZE * (s.size.max(1) * u.boosts) as i64,
            Part::Boosts {
                size: s.size,
                n: u.boosts,
            },
        ));
    }
    // Ch. 10.1: each level costs "the Creature's original Mind"; Professor Monkeyhead
    // pays 1CP a level with a 1CP Mind and 2CP of Boosts, so the Boosts are not included.
    for (n, what) in [
        (s.multitasking, "Multitasking"),
        (s.multidexterity, "Multidexterity"),
    ] {
        if n > 0 {
            items.push((
                format!("{what} x{n}"),
                m * n as i64,
                Part::Levels {
                    size: s.size,
                    half,
                    n,
                },
            ));
        }
    }
}

/// The unit's value in Unit Inches (Ü), where the texts give one: a listed 2020 price plus
/// its SuperNatural dice (Ch. D.1).
pub fn unit_inches(u: &Unit) -> Option<Cp> {
    let base = Cp::quarters((u.spec.listed_u? * 4.0) as i64);
    u.sn_dice
        .iter()
        .map(|d| sn_die_u(*d))
        .sum::<Option<Cp>>()
        .map(|dice| base + dice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    #[test]
    fn flying_move_costs_by_structure_level() {
        // readings §3: (2 + SL) CP per 2". SL 1/2: 2.5 per 2"; SL 2: 4 per 2".
        assert_eq!(
            movement(4, Propulsion::Flying, Structure::Half),
            Cp::whole(5)
        );
        assert_eq!(
            movement(5, Propulsion::Flying, Structure::Half),
            Cp::quarters(25)
        );
        assert_eq!(
            movement(6, Propulsion::Flying, Structure::Level(2)),
            Cp::whole(12)
        );
        assert_eq!(
            movement(5, Propulsion::Ground, Structure::Level(2)),
            Cp::halves(5)
        );
    }

    #[test]
    fn sn_dice_prices() {
        // Ch. 10.3 (CP) and Ch. D.1 (Ü).
        let cp: Vec<Option<Cp>> = Die::ALL.map(sn_die).to_vec();
        let mut want: Vec<Option<Cp>> = [3, 4, 5, 6, 7].map(|n| Some(Cp::whole(n))).to_vec();
        want.push(None);
        assert_eq!(cp, want);
        let u: Vec<Option<Cp>> = Die::ALL.map(sn_die_u).to_vec();
        assert_eq!(
            u,
            vec![
                Some(Cp::halves(1)),
                Some(Cp::whole(1)),
                Some(Cp::whole(1)),
                Some(Cp::whole(2)),
                Some(Cp::whole(2)),
                None
            ]
        );
    }

    #[test]
    fn unpriced_parts_are_listed_not_zeroed() {
        let c = Catalog::builtin();
        let g = breakdown(c.get("gunner").unwrap());
        assert_eq!(g.total(), Cp::whole(4));
        assert_eq!(g.unpriced.len(), 1);
        assert!(g.unpriced[0].contains("gunnery"));
        let mut s = c.get("minifig").unwrap().spec.clone();
        s.connection_strength = Some(1);
        s.specialties = vec!["master".into()];
        s.traits = vec!["undead".into()];
        s.sn_dice = vec!["d8".into()];
        let b = breakdown(&s.resolve("x").unwrap());
        // 4 + Construct 1 + Master 1 + SN d8 5; Undead +0.
        assert_eq!(b.total(), Cp::whole(11));
        assert!(b.unpriced.is_empty());
    }
}
