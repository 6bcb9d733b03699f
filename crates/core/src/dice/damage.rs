//! Damage types and the die each is rolled on.
//!
//! The type travels with the dice because later rules read it: only Exp dice widen an
//! Explosion (Ch. 8.4), Fire sets targets alight and a critically failed Fire roll does
//! nothing (Ch. 8.3 Catching On Fire), Pierce cancels Deflection and Phased ignores it
//! (Ch. 8.4 Explosive Variants), Blast gives BlastGun arcs (Ch. 8.3; Ch. D.4 Damage).

use std::fmt;

use super::die::Die;

/// The kind of a Damage die.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DamageType {
    /// Ordinary damage (weapons, Armor, stats): any die.
    Plain,
    /// Explosive, d10 (Ch. 8.4).
    Exp,
    /// Fire, d4 (Ch. 8.3: "Fire-based attacks measure their Damage Ratings in d4s").
    Fire,
    /// Blast, d8 (Ch. 8.3 BlastGun; Ch. D.4).
    Blast,
    /// Armor Piercing, d6 (Ch. 8.4 Explosive Variants).
    Pierce,
    /// Phased, d12 (Ch. 8.4 Explosive Variants).
    Phased,
    /// Poison (Ch. 8.3, Ch. 10.4 Vermin and Contagious Bite): a Fire-like d4 that does not
    /// set anything alight.
    Poison,
    /// Concussion, d6 (Ch. 8.4 Explosive Variants: "1d6\" KnockBack"): inches of KnockBack,
    /// not Damage.
    KnockBack,
}

impl DamageType {
    /// The typed damage kinds with their tag in expressions.
    pub const TAGS: [(&'static str, DamageType); 7] = [
        ("exp", DamageType::Exp),
        ("fire", DamageType::Fire),
        ("blast", DamageType::Blast),
        ("pierce", DamageType::Pierce),
        ("phased", DamageType::Phased),
        ("poison", DamageType::Poison),
        ("knockback", DamageType::KnockBack),
    ];

    /// The die this type is rolled on; `None` for plain damage (any die).
    pub fn die(self) -> Option<Die> {
        match self {
            DamageType::Plain => None,
            DamageType::Exp => Some(Die::D10),
            DamageType::Fire => Some(Die::D4),
            DamageType::Blast => Some(Die::D8),
            DamageType::Pierce => Some(Die::D6),
            DamageType::Phased => Some(Die::D12),
            DamageType::Poison => Some(Die::D4),
            DamageType::KnockBack => Some(Die::D6),
        }
    }

    /// Where the texts define it.
    pub fn source(self) -> &'static str {
        match self {
            DamageType::Plain => "Ch. 8.1",
            DamageType::Exp => "Ch. 8.4 Heavy Explosions",
            DamageType::Fire => "Ch. 8.3 Catching On Fire",
            DamageType::Blast => "Ch. 8.3 BlastGuns",
            DamageType::Pierce | DamageType::Phased | DamageType::KnockBack => {
                "Ch. 8.4 Explosive Variants"
            }
            DamageType::Poison => "Ch. 10.4 Swarms, Monstrous Contagion",
        }
    }

    /// The tag used in expressions (`""` for plain).
    pub fn tag(self) -> &'static str {
        Self::TAGS
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("", |(s, _)| s)
    }
}

impl fmt::Display for DamageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_has_its_die() {
        assert_eq!(DamageType::Exp.die(), Some(Die::D10));
        assert_eq!(DamageType::Fire.die(), Some(Die::D4));
        assert_eq!(DamageType::Blast.die(), Some(Die::D8));
        assert_eq!(DamageType::Pierce.die(), Some(Die::D6));
        assert_eq!(DamageType::Phased.die(), Some(Die::D12));
        assert_eq!(DamageType::Poison.die(), Some(Die::D4));
        assert_eq!(DamageType::KnockBack.die(), Some(Die::D6));
        assert_eq!(DamageType::Plain.die(), None);
        for (tag, t) in DamageType::TAGS {
            assert_eq!(t.tag(), tag);
        }
    }
}
