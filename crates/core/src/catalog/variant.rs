//! Explosive Variants (Ch. 8.4): which Explosive Damage dice an Explosive carries in place
//! of its d10s. "The Explosive's XSize and other stats remain the same", so a variant
//! changes the Damage and nothing else: not the cost, the Use or the Range.

use serde::{Deserialize, Serialize};

/// Which Explosive Damage dice replace the d10s (Ch. 8.4 Explosive Variants); XSize stays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// d10 Exp, 1" KnockBack a die: the standard Explosive.
    #[default]
    Explosive,
    /// d4 Fire: a minifig taking a point of it is on fire (Ch. 8.3).
    Incendiary,
    /// d6 Pierce: each cancels one layer of Deflection.
    ArmorPiercing,
    /// d6 of KnockBack inches, no Damage (POP's opposition is not modelled).
    Concussion,
    /// d12 Phased, costing two dice each: Deflection does not touch them.
    Phased,
}

/// Why an Explosive cannot carry an Explosive Variant's dice (Ch. 8.4).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantError {
    /// A Phased d12 costs two d10s: an XSize 1 Explosive buys none.
    #[error("a Phased d12 costs two dice (Ch. 8.4): XSize {xsize} buys none; use XSize 2 or more")]
    NoneBought {
        /// The Explosive's XSize.
        xsize: u32,
    },
    /// The swaps take more d10s than the Explosive has.
    #[error(
        "the swaps take {cost} of the d10s and an XSize {xsize} Explosive has {xsize} (a Phased d12 takes two, Ch. 8.4)"
    )]
    TooManySwaps {
        /// The d10s the swaps take.
        cost: u32,
        /// The Explosive's XSize (its d10s).
        xsize: u32,
    },
}

impl Variant {
    /// Every Explosive Variant, in the order a [`Payload`] counts them.
    pub const ALL: [Variant; 5] = [
        Variant::Explosive,
        Variant::Incendiary,
        Variant::ArmorPiercing,
        Variant::Concussion,
        Variant::Phased,
    ];

    /// The standard Explosive (a catalog leaves it unwritten).
    pub fn is_standard(&self) -> bool {
        *self == Variant::Explosive
    }

    /// Its name in catalogs and on the command line.
    pub fn key(self) -> &'static str {
        match self {
            Variant::Explosive => "explosive",
            Variant::Incendiary => "incendiary",
            Variant::ArmorPiercing => "armor-piercing",
            Variant::Concussion => "concussion",
            Variant::Phased => "phased",
        }
    }

    /// The die term for `dice` of this variant's dice.
    pub fn term(self, dice: u32) -> String {
        match self {
            Variant::Explosive => format!("{dice}d10 exp"),
            Variant::Incendiary => format!("{dice}d4 fire"),
            Variant::ArmorPiercing => format!("{dice}d6 pierce"),
            Variant::Concussion => format!("{dice}d6 knockback"),
            Variant::Phased => format!("{dice}d12 phased"),
        }
    }

    /// Dice an Explosive of `xsize` carries ("Phased (cost: 2 dice)").
    pub fn dice(self, xsize: u32) -> u32 {
        xsize / self.cost()
    }

    /// The d10s one of its dice takes.
    pub fn cost(self) -> u32 {
        match self {
            Variant::Phased => 2,
            _ => 1,
        }
    }

    /// Why an Explosive of `xsize` cannot be this variant, if it cannot.
    pub fn check(self, xsize: u32) -> Result<(), VariantError> {
        if self.dice(xsize) == 0 {
            return Err(VariantError::NoneBought { xsize });
        }
        Ok(())
    }
}

/// Which Explosive Damage dice an Explosive carries in place of its d10s: all of one
/// variant, or "any combination" (Ch. 8.4): so many dice of each variant swapped in, the
/// rest d10 Exp.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Swap {
    /// Every die swapped for this variant.
    All(Variant),
    /// Dice swapped in, by [`Variant::ALL`] place (the Explosive's own place is unused).
    Some([u8; 5]),
}

impl Default for Swap {
    fn default() -> Swap {
        Swap::All(Variant::Explosive)
    }
}

impl From<Variant> for Swap {
    fn from(v: Variant) -> Swap {
        Swap::All(v)
    }
}

impl Swap {
    /// The standard Explosive (a catalog leaves it unwritten).
    pub fn is_standard(&self) -> bool {
        match self {
            Swap::All(v) => v.is_standard(),
            Swap::Some(c) => c[1..].iter().all(|&n| n == 0),
        }
    }

    /// The dice an Explosive of `xsize` rolls.
    pub fn payload(&self, xsize: u32) -> Payload {
        let mut dice = [0u32; 5];
        match *self {
            Swap::All(v) => dice[v as usize] = v.dice(xsize),
            Swap::Some(c) => {
                let mut cost = 0;
                for v in &Variant::ALL[1..] {
                    dice[*v as usize] = c[*v as usize] as u32;
                    cost += c[*v as usize] as u32 * v.cost();
                }
                dice[0] = xsize.saturating_sub(cost);
            }
        }
        Payload { dice }
    }

    /// Why an Explosive of `xsize` cannot carry these dice, if it cannot.
    pub fn check(&self, xsize: u32) -> Result<(), VariantError> {
        match *self {
            Swap::All(v) => v.check(xsize),
            Swap::Some(c) => {
                let cost: u32 = Variant::ALL[1..]
                    .iter()
                    .map(|v| c[*v as usize] as u32 * v.cost())
                    .sum();
                if cost > xsize {
                    return Err(VariantError::TooManySwaps { cost, xsize });
                }
                Ok(())
            }
        }
    }
}

impl std::fmt::Display for Swap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Swap::All(v) => write!(f, "{v}"),
            Swap::Some(c) => {
                let mut first = true;
                for v in &Variant::ALL[1..] {
                    if c[*v as usize] > 0 {
                        let sep = if first { "" } else { ", " };
                        write!(f, "{sep}{} {v}", c[*v as usize])?;
                        first = false;
                    }
                }
                if first {
                    f.write_str("explosive")?;
                }
                Ok(())
            }
        }
    }
}

/// A catalog writes a swap as a variant's name (all the dice) or a table of dice swapped in:
/// `variant = { incendiary = 1 }` on XSize 2 is 1d10 Exp + 1d4 Fire.
impl Serialize for Swap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Swap::All(v) => v.serialize(s),
            Swap::Some(c) => {
                let mut m = s.serialize_map(None)?;
                for v in &Variant::ALL[1..] {
                    if c[*v as usize] > 0 {
                        m.serialize_entry(v.key(), &c[*v as usize])?;
                    }
                }
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Swap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Swap, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Swap;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a variant (explosive, incendiary, armor-piercing, concussion, phased) or a \
                     table of dice swapped in, e.g. { incendiary = 1 }",
                )
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Swap, E> {
                Variant::deserialize(serde::de::value::StrDeserializer::new(s)).map(Swap::All)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Swap, A::Error> {
                let mut c = [0u8; 5];
                while let Some(v) = map.next_key::<Variant>()? {
                    if v.is_standard() {
                        return Err(serde::de::Error::custom(
                            "the d10s not swapped stay Explosive: list only the dice swapped in",
                        ));
                    }
                    c[v as usize] = map.next_value()?;
                }
                Ok(Swap::Some(c))
            }
        }
        d.deserialize_any(V)
    }
}

/// The dice one Explosive rolls, by [`Variant::ALL`] place.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Payload {
    /// Dice of each variant.
    pub dice: [u32; 5],
}

impl Payload {
    /// `n` of `v`'s dice.
    pub fn of(v: Variant, n: u32) -> Payload {
        let mut dice = [0; 5];
        dice[v as usize] = n;
        Payload { dice }
    }

    /// Its Damage as a dice expression: each variant's dice, in [`Variant::ALL`] order.
    pub fn term(&self) -> String {
        let terms: Vec<String> = Variant::ALL
            .iter()
            .filter(|v| self.dice[**v as usize] > 0)
            .map(|v| v.term(self.dice[*v as usize]))
            .collect();
        terms.join(" + ")
    }

    /// Whether it carries any of `v`'s dice.
    pub fn has(&self, v: Variant) -> bool {
        self.dice[v as usize] > 0
    }

    /// With one more of its dice (an Overskill Benny, Ch. 4.2 "twice as Explosive"): the one
    /// that adds the most Damage (`most`, the player's pick: a Phased d12, then a d10 Exp, a
    /// Pierce d6, a Fire d4, a Concussion d6 last, which adds none), or the first it carries
    /// in [`Variant::ALL`] order (`first`).
    pub fn plus_one(&self, choice: crate::options::OverskillDie) -> Payload {
        use crate::options::OverskillDie;
        const BY_DAMAGE: [Variant; 5] = [
            Variant::Phased,
            Variant::Explosive,
            Variant::ArmorPiercing,
            Variant::Incendiary,
            Variant::Concussion,
        ];
        let order = match choice {
            OverskillDie::Most => BY_DAMAGE,
            OverskillDie::First => Variant::ALL,
        };
        let mut p = *self;
        if let Some(v) = order.iter().find(|v| self.has(**v)) {
            p.dice[*v as usize] += 1;
        }
        p
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_swaps_the_d10s_by_the_table() {
        // Ch. 8.4 Explosive Variants: XSize 4 is 4d10 Exp, 4d4 Fire, 4d6 Pierce, 4d6
        // KnockBack, or 2d12 Phased at two dice each.
        let terms: Vec<String> = Variant::ALL.iter().map(|v| v.term(v.dice(4))).collect();
        assert_eq!(
            terms,
            [
                "4d10 exp",
                "4d4 fire",
                "4d6 pierce",
                "4d6 knockback",
                "2d12 phased"
            ]
        );
        assert!(Variant::Phased.check(1).is_err() && Variant::Phased.check(2).is_ok());
        assert!(
            Variant::ALL
                .iter()
                .all(|v| v.check(1).is_ok() || *v == Variant::Phased)
        );
    }

    #[test]
    fn issue_40_any_combination_swaps_some_d10s_and_keeps_the_rest() {
        // Ch. 8.4: "swapping out the d10s for any combination of alternate Explosive
        // Damage dice". XSize 3 with a Phased d12 (two d10s' worth) and a d10 left.
        let mut c = [0u8; 5];
        c[Variant::Phased as usize] = 1;
        let s = Swap::Some(c);
        assert_eq!(s.payload(3).term(), "1d10 exp + 1d12 phased");
        assert!(s.check(2).is_ok() && s.check(1).is_err());
        assert_eq!(s.payload(2).term(), "1d12 phased");
        c[Variant::Incendiary as usize] = 2;
        let s = Swap::Some(c);
        assert!(s.check(3).is_err());
        assert_eq!(s.payload(4).term(), "2d4 fire + 1d12 phased");
        assert_eq!(s.to_string(), "2 incendiary, 1 phased");
        // A catalog writes it as a table, read back the same; a whole swap as a name.
        let wire = toml::Value::try_from(s).unwrap();
        assert_eq!(wire.to_string(), "{ incendiary = 2, phased = 1 }");
        let back: Swap = wire.try_into().unwrap();
        assert_eq!(back, s);
        let all: Swap = toml::Value::from("concussion").try_into().unwrap();
        assert_eq!(all, Swap::All(Variant::Concussion));
        // The d10s left are the Explosive's own: listing them is refused.
        let e = toml::from_str::<std::collections::BTreeMap<String, Swap>>("v = { explosive = 1 }")
            .unwrap_err();
        assert!(e.to_string().contains("stay Explosive"), "{e}");
    }

    #[test]
    fn issue_40_an_overskill_benny_adds_the_die_that_adds_the_most() {
        use crate::options::OverskillDie;
        let mut c = [0u8; 5];
        c[Variant::Incendiary as usize] = 1;
        let p = Swap::Some(c).payload(2);
        assert_eq!(p.plus_one(OverskillDie::Most).term(), "2d10 exp + 1d4 fire");
        assert_eq!(
            p.plus_one(OverskillDie::First).term(),
            "2d10 exp + 1d4 fire"
        );
        let p = Swap::All(Variant::Concussion).payload(1);
        assert_eq!(p.plus_one(OverskillDie::Most).term(), "2d6 knockback");
        c[Variant::Concussion as usize] = 1;
        let p = Swap::Some(c).payload(2);
        assert_eq!(
            p.plus_one(OverskillDie::Most).term(),
            "2d4 fire + 1d6 knockback"
        );
    }

    #[test]
    #[cfg(feature = "clap")]
    fn keys_are_the_catalog_and_command_line_names() {
        use clap::ValueEnum;
        for v in Variant::ALL {
            let wire = toml::Value::try_from(v).unwrap();
            assert_eq!(wire.as_str(), Some(v.key()));
            assert_eq!(v.to_possible_value().unwrap().get_name(), v.key());
        }
    }
}
