//! A unit's stat card checked and resolved ([`UnitSpec::resolve`]): its Skill die, what it
//! holds and mounts (hands, Power, Size), its names, and every error located at its field.

use super::*;

/// What is wrong with a catalog entry; `field` names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitError {
    /// The card's field at fault.
    pub field: &'static str,
    /// What is wrong with it.
    pub message: String,
    /// How to mend it.
    pub hint: String,
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)?;
        if !self.hint.is_empty() {
            write!(f, " (hint: {})", self.hint)?;
        }
        Ok(())
    }
}

pub(super) fn err(field: &'static str, message: String, hint: &str) -> UnitError {
    UnitError {
        field,
        message,
        hint: hint.into(),
    }
}

/// A weapon the unit cannot carry as written (Ch. 8.1 Large Hand-Held Weapons): "Not
/// Allowed" for a ranged weapon past 1.5x the creation's Size, and no class at all for a
/// Close Combat weapon past 2x. A carriage is for ranged weapons too long for the hands,
/// and only for them, so "mounted" means one thing everywhere (Gunnery, Half Speed).
pub(super) fn hand_held(name: &str, stats: &Stats, mount: Mount, size: u32) -> Option<UnitError> {
    use crate::catalog::weapon::HandClass;
    let class = HandClass::of(2 * stats.size, size);
    let w = stats.size;
    match stats.kind {
        // Sized in bricks (XSize) or a device: not hand-held by inches.
        WeaponKind::Explosive | WeaponKind::Rocket | WeaponKind::Spawner => (mount != Mount::Hand)
            .then(|| {
                err(
                    "weapons",
                    format!("{name}: a {} does not ride a carriage", stats.kind),
                    "drop `mount`: only Guns, Cannons and Launchers too long for the hands \
                     are mounted (Ch. 8.1)",
                )
            }),
        WeaponKind::MeleeWeapon | WeaponKind::MeleeShield => match (class, mount) {
            (_, Mount::Carriage) => Some(err(
                "weapons",
                format!("{name}: a Close Combat weapon does not ride a carriage"),
                "drop `mount`: a carriage carries a ranged weapon (Ch. 8.1)",
            )),
            (None, Mount::Hand) => Some(err(
                "weapons",
                format!(
                    "{name}: a {w}\" {} is more than twice a Size {size}\" creation, past \
                     every Hand-Held class",
                    stats.kind
                ),
                "Ch. 8.1 Large Hand-Held Weapons stop at Long (2x the creation's Size); \
                 make it smaller or the creation larger",
            )),
            (Some(_), Mount::Hand) => None,
        },
        _ => match (class.and_then(HandClass::ranged_hands), mount) {
            (Some(_), Mount::Hand) | (None, Mount::Carriage) => None,
            (None, Mount::Hand) => Some(err(
                "weapons",
                format!(
                    "{name}: a {w}\" {} is more than 1.5x a Size {size}\" creation, and no \
                     ranged weapon that long may be hand-held",
                    stats.kind
                ),
                "Ch. 8.1 Large Hand-Held Weapons: a Long ranged weapon is \"Not Allowed\"; \
                 add mount = \"carriage\" (worked from its controls, hauled at Half Speed, \
                 Ch. 4.1 and 8.5) or make it smaller",
            )),
            (Some(_), Mount::Carriage) => Some(err(
                "weapons",
                format!(
                    "{name}: a {w}\" {} fits a Size {size}\" creation's hands",
                    stats.kind
                ),
                "drop `mount`: a carriage is for a ranged weapon too long for the hands \
                 (Ch. 8.1)",
            )),
        },
    }
}

/// Die sizes from d6 up to `die` (Skill Boosts), or `None` below d6.
pub(super) fn steps_above_d6(die: Die) -> Option<u32> {
    Some(match die {
        Die::D6 => 0,
        Die::D8 => 1,
        Die::D10 => 2,
        Die::D12 => 3,
        _ => return None,
    })
}

impl UnitSpec {
    /// The Skill die and the Skill Boosts it buys (Ch. 10.1), with what is wrong with it.
    fn skill(&self, errors: &mut Vec<UnitError>) -> (Die, u32) {
        let s = self;
        // Ch. 10.1: one die, d4 (Incompetent only) to d12.
        let skill = Die::from_name(&s.skill);
        let mut boosts = 0;
        let skill = match skill {
            Some(Die::D20) => {
                errors.push(err(
                    "skill",
                    "d20 is beyond d12".into(),
                    "Skill Boosts stop at 1d12 (Ch. 10.1); the d20 is BrikThulhu's alone",
                ));
                Die::D12
            }
            Some(Die::D4)
                if s.mind != Mind::Incompetent && !s.traits.iter().any(|t| t == "summoned") =>
            {
                errors.push(err(
                    "skill",
                    "d4 is the Incompetent Skill".into(),
                    "set mind = \"incompetent\", or use d6 to d12 (Ch. 10.1)",
                ));
                Die::D4
            }
            Some(d) if s.mind == Mind::Incompetent && d != Die::D4 => {
                errors.push(err(
                    "skill",
                    format!("an Incompetent Creature's Skill is 1d4, not {d}"),
                    "Incompetence \"cannot be raised any further with Skill boosts\" (Ch. 10.1)",
                ));
                d
            }
            Some(d) => {
                if s.mind != Mind::Incompetent && !s.traits.iter().any(|t| t == "summoned") {
                    boosts = steps_above_d6(d).unwrap_or(0);
                }
                d
            }
            None => {
                errors.push(err(
                    "skill",
                    format!("{:?} is not a die", s.skill),
                    "write one die: d4, d6, d8, d10 or d12 (Ch. 10.1: never \"1d6+2\")",
                ));
                Die::D6
            }
        };
        (skill, boosts)
    }

    /// The weapons as written, resolved and checked against the hands (Ch. 10.2) and the
    /// Large Hand-Held Weapons table (Ch. 8.1).
    fn armaments(&self, errors: &mut Vec<UnitError>) -> Vec<Armament> {
        let s = self;
        let mut weapons = Vec::new();
        for w in &s.weapons {
            match w {
                WeaponRef::Item(k) => match item_named(k) {
                    Some(i) => {
                        if i.hands > s.hands {
                            errors.push(err(
                                "weapons",
                                format!("{} takes {} hands; {} has {}", i.name, i.hands, s.name, s.hands),
                                "Ch. 10.2: one hand \"can't use a Two-Handed or Long-Ranged Weapon\"",
                            ));
                        }
                        weapons.push(Armament::Item(i));
                    }
                    None => errors.push(err(
                        "weapons",
                        format!("no weapon or item called {k:?}"),
                        "`diemon weapon list` shows the names",
                    )),
                },
                WeaponRef::Sized {
                    kind,
                    size,
                    name,
                    mount,
                    variant,
                } => match WeaponKind::from_key(kind).map(|k| k.at(*size)) {
                    Some(Ok(mut stats)) => {
                        let name = name.clone().unwrap_or_else(|| match variant {
                            _ if variant.is_standard() => format!("{size}\" {}", stats.kind),
                            Swap::All(v) => format!("{size}\" {v} {}", stats.kind),
                            Swap::Some(_) => format!("{size}\" {} ({variant})", stats.kind),
                        });
                        if let Some(e) = hand_held(&name, &stats, *mount, s.size) {
                            errors.push(e);
                        }
                        if let Err(e) = explosive_variant(&mut stats, *variant) {
                            errors.push(err("weapons", format!("{name}: {e}"), VARIANT_HINT));
                        }
                        weapons.push(Armament::Sized {
                            name,
                            stats,
                            mount: *mount,
                            variant: *variant,
                        });
                    }
                    Some(Err(e)) => errors.push(err("weapons", e.to_string(), "")),
                    None => errors.push(err(
                        "weapons",
                        format!("no weapon kind called {kind:?}"),
                        &format!("kinds: {}", WeaponKind::ALL.map(WeaponKind::key).join(", ")),
                    )),
                },
            }
        }
        weapons
    }

    /// The named lists and the prices as written: Specialties, traits, a Construct's
    /// Connection Strength, assumed fields and listed prices.
    fn check_names(&self, errors: &mut Vec<UnitError>) {
        let s = self;
        for sp in &s.specialties {
            if !SPECIALTIES.iter().any(|(k, _)| k == sp) {
                errors.push(err(
                    "specialties",
                    format!("unknown Specialty {sp:?}"),
                    "gunnery, medik, master or thrall",
                ));
            }
        }
        for t in &s.traits {
            if !TRAITS.iter().any(|(k, _)| k == t) {
                errors.push(err(
                    "traits",
                    format!("unknown trait {t:?}"),
                    "vermin, cannon-fodder, undead, non-living, hero or summoned",
                ));
            }
        }
        if let Some(c) = s.connection_strength
            && (c == 0 || c > s.size.max(1))
        {
            errors.push(err(
                "connection_strength",
                format!("Connection Strength {c} for Size {}\"", s.size),
                "from 1 up to the Construct's Size (Ch. 10.4)",
            ));
        }
        for a in &s.assumed {
            if !ASSUMABLE.contains(&a.as_str()) {
                errors.push(err(
                    "assumed",
                    format!("{a:?} is not a stat that can be assumed"),
                    &format!("one of {}", ASSUMABLE.join(", ")),
                ));
            }
        }
        for (field, v) in [("listed_cp", s.listed_cp), ("listed_u", s.listed_u)] {
            if let Some(x) = v
                && !(x >= 0.0 && (x * 4.0).fract() == 0.0 && x < 1e6)
            {
                errors.push(err(
                    field,
                    format!("{x} is not a price"),
                    "a multiple of 0.25, at least 0",
                ));
            }
        }
    }

    /// Checks the entry against the rules; returns every problem found, not just the first.
    pub fn resolve(&self, key: &str) -> Result<Unit, Vec<UnitError>> {
        let mut errors = Vec::new();
        let s = self;
        // Ch. 7.1: a Structure Level above the Size is not allowed (Size 0 Vermin have SL 0).
        if s.structure.halves() > 2 * s.size.max(1)
            || (s.size == 0 && s.structure != Structure::Zero)
        {
            errors.push(err(
                "structure",
                format!("Structure Level {} is above Size {}\"", s.structure, s.size),
                "a creation's Structure Level cannot exceed its Size (Ch. 7.1)",
            ));
        }
        // Sizes and Moves beyond any table: refused so later arithmetic stays in range.
        if s.size > 1000 || s.move_inches > 1000 || s.hands > 1000 {
            errors.push(err(
                "size",
                format!(
                    "Size {}\", Move {}\" or {} hands is beyond any table",
                    s.size, s.move_inches, s.hands
                ),
                "Size, Move and hands up to 1000",
            ));
        }
        let (skill, boosts) = self.skill(&mut errors);
        if s.mind == Mind::None && (s.multitasking > 0 || s.multidexterity > 0) {
            errors.push(err(
                "mind",
                "Multitasking and Multidexterity need a Mind".into(),
                "give the creation a Mind (Ch. 10.1)",
            ));
        }
        if s.power == Power::Half && s.size == 0 {
            errors.push(err(
                "power",
                "Half Power needs Size 1\" or more".into(),
                "Ch. 8.1: \"A creation must be at least Size 1\" to take a Power Impairment\"",
            ));
        }
        let weapons = self.armaments(&mut errors);
        let armor_text = s.armor.clone().unwrap_or_else(|| s.structure.armor());
        let mut armor = match Expr::parse(&armor_text) {
            Ok(e) if e.skill().is_none() => e,
            _ => {
                errors.push(err(
                    "armor",
                    format!("{armor_text:?} is not an Armor rating"),
                    "a number (4) or dice (2d6, 3d10)",
                ));
                Expr::parse("0").expect("a constant parses")
            }
        };
        // Worn armor adds to the rating (Body Armor +2, readings §3).
        let bonus: i64 = weapons
            .iter()
            .map(|w| match w {
                Armament::Item(i) => i.armor_bonus,
                Armament::Sized { .. } => 0,
            })
            .sum();
        if bonus > 0 {
            armor = Expr::parse(&format!("{armor} + {bonus}"))
                .expect("an Armor rating plus a constant parses");
        }
        self.check_names(&mut errors);
        let mut sn_dice = Vec::new();
        for d in &s.sn_dice {
            match Die::from_name(d) {
                Some(Die::D20) | None => errors.push(err(
                    "sn_dice",
                    format!("{d:?} is not a SuperNatural die a unit can own"),
                    "d4, d6, d8, d10 or d12 (the d20 is BrikThulhu's, Ch. 10.3)",
                )),
                Some(die) => sn_dice.push(die),
            }
        }
        if errors.is_empty() {
            Ok(Unit {
                key: key.into(),
                spec: s.clone(),
                skill,
                boosts,
                armor,
                weapons,
                sn_dice,
            })
        } else {
            Err(errors)
        }
    }
}
