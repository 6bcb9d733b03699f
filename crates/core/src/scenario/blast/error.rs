//! Why a turn of fire cannot be set up: each case the rules or the table refuse, typed, with
//! the words the command line prints.

use crate::catalog::variant::VariantError;
use crate::catalog::weapon::SizeError;
use crate::dice::ParseError;
use crate::rules::explosion::ExplosionError;

/// A turn of fire the rules or the table do not allow (an Explosive Size out of range, a
/// formation that does not parse or fit, a distance off the table): bad input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BlastError {
    /// An Explosive of XSize 0.
    #[error("an Explosive has an XSize of at least 1 brick")]
    NoXSize,
    /// A carried Explosive (a Bail's own) of XSize 0.
    #[error("a carried Explosive has an XSize of at least 1")]
    NoCarriedXSize,
    /// More XSize than a Launcher of `width` inches fires (Ch. 8.4).
    #[error(
        "a {width}\" Launcher fires Explosives of combined XSize up to {width}; XSize {xsize} is too big (Ch. 8.4)"
    )]
    PastLauncher {
        /// The Launcher's Weapon Size in inches.
        width: u32,
        /// The Explosive's XSize.
        xsize: u32,
    },
    /// More XSize than a Cannon of `width` inches takes as Ammo (Ch. 8.4).
    #[error(
        "a {width}\" Cannon fires Ammo up to XSize {width}; XSize {xsize} is too big (Ch. 8.4)"
    )]
    PastCannon {
        /// The Cannon's Weapon Size in inches.
        width: u32,
        /// The Ammo's XSize.
        xsize: u32,
    },
    /// A thrown Explosive bigger than Size 0" (Ch. 8.4).
    #[error(
        "a minifig's arm throws Size 0\" objects only; an XSize {xsize} Explosive is too big (Ch. 8.4)"
    )]
    TooBigToThrow {
        /// The Explosive's XSize.
        xsize: u32,
    },
    /// A weapon or Explosive Size its table does not cover.
    #[error("{0}")]
    Size(SizeError),
    /// An Explosive Variant the Explosive's dice cannot carry (Ch. 8.4).
    #[error("{0}")]
    Variant(VariantError),
    /// A payload that cannot explode.
    #[error("{0}")]
    Explosion(ExplosionError),
    /// A Volley's distance off the table.
    #[error("distance {0}: expected 0 to 1000 inches")]
    Distance(f64),
    /// Arc fire's distance off the table (arc fire needs a target beyond the barrel).
    #[error("distance {0}: expected above 0, up to 1000 inches")]
    ArcDistance(f64),
    /// A formation that does not parse.
    #[error(
        "formation {0:?}: expected grid:ROWSxCOLS, line:N, column:N, cluster:N or scatter:N:WIDTH, e.g. grid:5x5"
    )]
    Formation(String),
    /// A formation's spacing that is not a positive number of inches.
    #[error("spacing {0}: expected inches above 0, e.g. 1.5")]
    Spacing(f64),
    /// A formation with more figures than a turn of fire resolves.
    #[error("formation {text:?} has {figures} figures; at most {most}")]
    TooManyFigures {
        /// The formation as written.
        text: String,
        /// Its figures.
        figures: usize,
        /// The most a formation may hold.
        most: usize,
    },
    /// A burst from anything but a MachineGun (Ch. 8.3).
    #[error("only a MachineGun fires bursts (Ch. 8.3)")]
    BurstNotMachineGun,
    /// A burst's shots out of 1 to 100.
    #[error("a burst of {0} shots: expected 1 to 100")]
    BurstShots(u32),
    /// A BlastGun with an arc other than its fixed 1 (Ch. 8.3).
    #[error("a BlastGun fires with a fixed Firing Arc of 1 (Ch. 8.3)")]
    BlastGunArc,
    /// Arc fire of no arc.
    #[error("arc fire needs a Firing Arc of at least 1 point")]
    NoArc,
    /// An arc of this many points that covers the whole circle.
    #[error("an arc of {0} points is a full circle or more")]
    FullCircle(u32),
}

impl From<SizeError> for BlastError {
    fn from(e: SizeError) -> BlastError {
        BlastError::Size(e)
    }
}

impl From<VariantError> for BlastError {
    fn from(e: VariantError) -> BlastError {
        BlastError::Variant(e)
    }
}

impl From<ExplosionError> for BlastError {
    fn from(e: ExplosionError) -> BlastError {
        BlastError::Explosion(e)
    }
}

/// Why an automatic weapon's stats cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WeaponError {
    /// The Weapon Size is outside what the weapon's table covers (bad input).
    #[error("{0}")]
    Size(SizeError),
    /// A catalog entry without a Use, a Range in inches or dice Damage: a bug, said as such
    /// rather than read as 0.
    #[error("{of} has no {what} in the catalog")]
    Missing {
        /// What the entry lacks.
        what: String,
        /// The entry's key.
        of: String,
    },
    /// A key the armory does not hold.
    #[error("no item {0}")]
    NoItem(String),
    /// A catalog Damage that does not parse: a bug in the catalog.
    #[error("{0}")]
    Damage(ParseError),
}

impl WeaponError {
    /// A bug in the built-in catalog rather than bad input.
    pub fn is_catalog(&self) -> bool {
        !matches!(self, WeaponError::Size(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::weapon::WeaponKind;

    #[test]
    fn each_error_says_what_the_rules_refuse_in_the_commands_words() {
        let launcher = BlastError::PastLauncher { width: 3, xsize: 4 };
        assert_eq!(
            launcher.to_string(),
            "a 3\" Launcher fires Explosives of combined XSize up to 3; XSize 4 is too big (Ch. 8.4)"
        );
        let many = BlastError::TooManyFigures {
            text: "grid:99x99".into(),
            figures: 9801,
            most: 256,
        };
        assert_eq!(
            many.to_string(),
            "formation \"grid:99x99\" has 9801 figures; at most 256"
        );
        let size = WeaponError::Size(WeaponKind::MachineGun.at(0).unwrap_err());
        assert!(!size.is_catalog());
        assert!(WeaponError::NoItem("x".into()).is_catalog());
    }
}
