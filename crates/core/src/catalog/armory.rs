//! Named hand-held weapons and equipment with fixed stats: the minifig weapon table, the
//! minifig Bastard guns, the throwing arm, and creature weapons the texts list.
//!
//! Sources differ by item and are named on each: the minifig table is the 2010 one
//! (readings §3; the 2020 table was not available), the Bastard guns are the 2020
//! Ch. 8.1 table, whose lost cells are filled and flagged in `assumed`.

use serde::Serialize;

use super::cp::Cp;
use super::weapon::Reach;

/// One named weapon or piece of equipment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Item {
    /// Its key in catalogs and on the command line (`hand-weapon`).
    pub key: &'static str,
    /// Its name as the texts print it.
    pub name: &'static str,
    /// Its Use rating; `None` where the wielder or the throw decides.
    pub use_rating: Option<u32>,
    /// How far it reaches: Close Combat, or inches.
    pub range: Reach,
    /// A dice expression, or `None` for equipment and object-dependent throws.
    pub damage: Option<&'static str>,
    /// Hands it takes (0 for worn equipment and natural weapons).
    pub hands: u32,
    /// `None` where the texts give no price.
    pub cost: Option<Cp>,
    /// Armor it adds (Body Armor +2).
    pub armor_bonus: i64,
    /// Worn armor: its wearer is Armored, which Vermin cannot engage (Ch. 10.4).
    pub armored: bool,
    /// Inches of KnockBack a hit gives minifig-sized or smaller targets (the ShotGun's 1").
    pub knockback: u32,
    /// The texts' remarks on it, as listed.
    pub notes: &'static [&'static str],
    /// Where the texts give it (chapter and section).
    pub source: &'static str,
    /// Cells the text lost, filled by diemon (see [`ARMORY`]).
    pub assumed: &'static [&'static str],
}

const fn item(key: &'static str, name: &'static str) -> Item {
    Item {
        key,
        name,
        use_rating: None,
        range: Reach::CloseCombat,
        damage: None,
        hands: 1,
        cost: None,
        armor_bonus: 0,
        armored: false,
        knockback: 0,
        notes: &[],
        source: "",
        assumed: &[],
    }
}

const MINIFIG_2010: &str = "minifig weapon table, 2010 (readings §3)";
const BASTARD_2020: &str = "Ch. 8.1 Minifig Bastard Guns";

/// Every named item, in the order `diemon weapon list` prints them.
///
/// Assumed cells of the Bastard guns: the AutoGun's Use 3 and Damage 1d6+1 (those of the
/// Bastard Gun it is the automatic version of), the ShotGun's Use 2 (BlastGun WSize+1 at
/// 1½", rounded down), the RailGun's Use 3 (Launcher WSize×2 at 1½").
pub static ARMORY: &[Item] = &[
    Item {
        use_rating: Some(2),
        damage: Some("1d6"),
        cost: Some(Cp::whole(2)),
        source: MINIFIG_2010,
        ..item("hand-weapon", "Hand Weapon")
    },
    Item {
        use_rating: Some(3),
        damage: Some("1d6+2"),
        cost: Some(Cp::whole(3)),
        notes: &["one or two hands"],
        source: MINIFIG_2010,
        ..item("heavy-weapon", "Heavy Weapon")
    },
    Item {
        use_rating: Some(4),
        damage: Some("2d6"),
        hands: 2,
        cost: Some(Cp::whole(4)),
        notes: &["cannot be thrown"],
        source: MINIFIG_2010,
        ..item("two-handed-weapon", "Two-Handed Weapon")
    },
    Item {
        use_rating: Some(3),
        range: Reach::Inches(6),
        damage: Some("1d6"),
        cost: Some(Cp::whole(3)),
        source: MINIFIG_2010,
        ..item("short-ranged-weapon", "Short-Ranged Weapon")
    },
    Item {
        use_rating: Some(3),
        range: Reach::Inches(10),
        damage: Some("1d6+1"),
        hands: 2,
        cost: Some(Cp::whole(5)),
        notes: &["the Bastard Gun of Ch. 8.1: two-handed"],
        source: MINIFIG_2010,
        ..item("long-ranged-weapon", "Long-Ranged Weapon")
    },
    Item {
        range: Reach::Inches(3),
        damage: Some("1d10 exp"),
        cost: Some(Cp::whole(1)),
        notes: &["thrown: Use as in Close Combat", "XSize 1 (Ch. 8.4)"],
        source: MINIFIG_2010,
        ..item("explosive", "Explosive (grenade)")
    },
    Item {
        cost: Some(Cp::whole(1)),
        notes: &["Parry"],
        source: MINIFIG_2010,
        ..item("shield", "Shield")
    },
    Item {
        cost: Some(Cp::whole(1)),
        notes: &["Parry"],
        source: MINIFIG_2010,
        ..item("heavy-shield", "Heavy Shield")
    },
    Item {
        hands: 0,
        armored: true,
        cost: Some(Cp::whole(1)),
        armor_bonus: 2,
        notes: &["+2 Armor"],
        source: MINIFIG_2010,
        ..item("body-armor", "Body Armor")
    },
    Item {
        hands: 0,
        armored: true,
        cost: Some(Cp::whole(2)),
        notes: &["Deflection", "Half Speed"],
        source: MINIFIG_2010,
        ..item("heavy-armor", "Heavy Armor")
    },
    Item {
        hands: 0,
        armored: true,
        cost: Some(Cp::whole(4)),
        notes: &["Shielded", "Half Speed"],
        source: "Ch. 10.1 Half-Mind Example: The Horse",
        ..item("horse-heavy-armor", "Horse Heavy Armor")
    },
    Item {
        use_rating: Some(3),
        range: Reach::Inches(8),
        damage: Some("1d6+1"),
        hands: 2,
        notes: &["arc fire or bursts", "may require reload"],
        source: BASTARD_2020,
        assumed: &["use", "damage"],
        ..item("autogun", "AutoGun (Bastard MachineGun)")
    },
    Item {
        use_rating: Some(2),
        range: Reach::Inches(6),
        damage: Some("1d8 blast + 1"),
        hands: 2,
        knockback: 1,
        notes: &[
            "Damage - distance",
            "1 Firing Arc, no Auto Penalty",
            "1\" KnockBack to minifigs or smaller (no Disruption)",
        ],
        source: BASTARD_2020,
        assumed: &["use"],
        ..item("shotgun", "ShotGun (Bastard BlastGun)")
    },
    Item {
        use_rating: Some(2),
        range: Reach::Inches(5),
        damage: Some("1d4 fire + 1"),
        hands: 2,
        notes: &["minimum 1 Firing Arc"],
        source: BASTARD_2020,
        ..item("flamegun", "FlameGun (Bastard FlameThrower)")
    },
    Item {
        use_rating: Some(4),
        range: Reach::Inches(6),
        hands: 2,
        notes: &["Ammo up to XSize 1", "each shot requires reload"],
        source: BASTARD_2020,
        ..item("bazooka", "Bazooka (Bastard Cannon)")
    },
    Item {
        use_rating: Some(3),
        range: Reach::Inches(8),
        hands: 2,
        notes: &["Payload up to Size 1\" or XSize 2"],
        source: BASTARD_2020,
        assumed: &["use"],
        ..item("railgun", "RailGun (Bastard Launcher)")
    },
    Item {
        range: Reach::Inches(3),
        hands: 1,
        notes: &[
            "a 1/2\" Launcher: Size 0\" objects only",
            "Use and Damage of the object, as in Close Combat",
            "-1 Action and Damage per inch beyond Range",
        ],
        source: "Ch. 8.4 Thrown Minifig Weapons",
        ..item("throwing-arm", "Minifig Throwing Arm")
    },
    Item {
        use_rating: Some(3),
        range: Reach::Inches(5),
        damage: Some("1"),
        cost: Some(Cp::ZERO),
        notes: &["CC or 5\"", "free with Cannon Fodder"],
        source: "Ch. 10.4 Cannon Fodder",
        ..item("mook-weapon", "Mook Weapon")
    },
    Item {
        use_rating: Some(2),
        damage: Some("1"),
        hands: 0,
        cost: Some(Cp::ZERO),
        notes: &["only harms unarmored Creatures of Structure Level 1 or less"],
        source: "Ch. 10.4 Swarms",
        ..item("vermin-bite", "Bite")
    },
    Item {
        use_rating: Some(2),
        damage: Some("1d4 poison"),
        hands: 0,
        cost: Some(Cp::ZERO),
        notes: &[
            "Venom",
            "only harms unarmored Creatures of Structure Level 1 or less",
        ],
        source: "Ch. 10.4 Swarms",
        ..item("venomous-bite", "Venomous Bite")
    },
    Item {
        use_rating: Some(2),
        damage: Some("1d4 poison"),
        hands: 0,
        cost: Some(Cp::whole(2)),
        notes: &[
            "Monstrous Contagion: rolled against the victim's Skill roll",
            "only affects minifigs",
        ],
        source: "Ch. 10.4 Contagious Bite",
        ..item("contagious-bite", "Contagious Bite")
    },
    Item {
        use_rating: Some(2),
        range: Reach::Inches(6),
        notes: &[
            "CC or 6\"",
            "no Damage: extends the reach of SuperNatural Effects",
        ],
        source: "Ch. D.3 Wands and Staves",
        ..item("wand", "Wand")
    },
    Item {
        use_rating: Some(3),
        range: Reach::Inches(10),
        hands: 2,
        notes: &[
            "CC or 10\"",
            "no Damage: extends the reach of SuperNatural Effects",
        ],
        source: "Ch. D.3 Wands and Staves",
        ..item("staff", "Staff")
    },
    Item {
        notes: &["Ker-Triage! on 1d8 rather than 1d6 (Ch. 10.2)"],
        source: "Ch. 10.2 Ker-Triage! (the Tools of Ch. 3.4, not among the texts)",
        ..item("medikal-tools", "Medikal Tools")
    },
];

/// The item called `key` (case-insensitive).
pub fn item_named(key: &str) -> Option<&'static Item> {
    ARMORY.iter().find(|i| i.key.eq_ignore_ascii_case(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minifig_table_prices_and_stats() {
        // readings §3 (2010 table).
        let hw = item_named("hand-weapon").unwrap();
        assert_eq!(
            (hw.use_rating, hw.damage, hw.cost),
            (Some(2), Some("1d6"), Some(Cp::whole(2)))
        );
        let th = item_named("two-handed-weapon").unwrap();
        assert_eq!((th.use_rating, th.hands), (Some(4), 2));
        let lr = item_named("long-ranged-weapon").unwrap();
        assert_eq!(lr.range, Reach::Inches(10));
        assert_eq!(item_named("body-armor").unwrap().armor_bonus, 2);
        assert_eq!(item_named("heavy-armor").unwrap().cost, Some(Cp::whole(2)));
    }

    #[test]
    fn bastard_guns_are_two_handed_and_flag_lost_cells() {
        // Ch. 8.1: "All Bastard Guns are two-handed for minifigs."
        for i in ARMORY.iter().filter(|i| i.source == BASTARD_2020) {
            assert_eq!(i.hands, 2, "{}", i.key);
        }
        assert_eq!(item_named("flamegun").unwrap().assumed, &[] as &[&str]);
        assert_eq!(item_named("shotgun").unwrap().assumed, &["use"]);
        assert_eq!(item_named("bazooka").unwrap().use_rating, Some(4));
    }

    #[test]
    fn keys_are_unique_and_damage_parses() {
        let mut keys: Vec<_> = ARMORY.iter().map(|i| i.key).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), ARMORY.len());
        for i in ARMORY {
            if let Some(d) = i.damage {
                crate::dice::Expr::parse(d).unwrap_or_else(|e| panic!("{}: {e:?}", i.key));
            }
        }
    }
}
