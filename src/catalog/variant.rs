//! Explosive Variants (Ch. 8.4): which Explosive Damage dice an Explosive carries in place
//! of its d10s. "The Explosive's XSize and other stats remain the same", so a variant
//! changes the Damage and nothing else: not the cost, the Use or the Range.

use serde::{Deserialize, Serialize};

/// Which Explosive Damage dice replace the d10s (Ch. 8.4 Explosive Variants); XSize stays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
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

impl Variant {
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
        match self {
            Variant::Phased => xsize / 2,
            _ => xsize,
        }
    }

    /// Why an Explosive of `xsize` cannot be this variant, if it cannot.
    pub fn check(self, xsize: u32) -> Result<(), String> {
        if self.dice(xsize) == 0 {
            return Err(format!(
                "a Phased d12 costs two dice (Ch. 8.4): XSize {xsize} buys none; use XSize 2 or more"
            ));
        }
        Ok(())
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
    fn keys_are_the_catalog_and_command_line_names() {
        use clap::ValueEnum;
        for v in Variant::ALL {
            let wire = toml::Value::try_from(v).unwrap();
            assert_eq!(wire.as_str(), Some(v.key()));
            assert_eq!(v.to_possible_value().unwrap().get_name(), v.key());
        }
    }
}
