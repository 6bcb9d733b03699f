//! How an Explosive gets there (Ch. 8.4): Launchers, Cannons, Rockets and thrown grenades.

use super::BlastError;
use std::fmt;

use crate::catalog::cp::Cp;
pub use crate::catalog::variant::{Payload, Swap, Variant};
use crate::catalog::weapon::WeaponKind;

/// The weapon that delivers the Explosives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Launch {
    /// A Launcher of this Weapon Size: Explosives of combined XSize up to its WSize a turn,
    /// one Action roll each (Ch. 8.4 Payload Launchers).
    Launcher(u32),
    /// A Cannon of this Weapon Size: one round of Ammo up to XSize = WSize, then a turn
    /// reloading (Ch. 8.4 Cannons).
    Cannon(u32),
    /// A Rocket: the Explosive flies itself (Use XSize x 2, Range XSize x 6").
    Rocket,
    /// Thrown by a minifig's arm: a 1/2" Launcher, Range 3", Size 0" objects; the Use is the
    /// object's Close Combat Use (Ch. 8.4 Thrown Minifig Weapons).
    Thrown {
        /// The thrown object's Close Combat Use.
        use_rating: i64,
    },
}

/// A delivery, validated: what one turn of fire is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// What fires it.
    pub launch: Launch,
    /// XSize of each Explosive.
    pub xsize: u32,
    /// Which Explosive Damage dice replace its d10s (Ch. 8.4 Explosive Variants).
    pub swap: Swap,
    /// The Action roll's Use.
    pub use_rating: i64,
    /// Range in inches.
    pub range: u32,
    /// Explosives fired a turn, each with its own Action roll.
    pub shots: u32,
    /// Turns one volley takes (a Cannon fires every other turn).
    pub turns: u32,
    /// The weapon's price, and the Explosives' price per volley (readings §3).
    pub weapon_cp: Cp,
    /// The Explosives' price per volley.
    pub ammo_cp: Cp,
}

impl Delivery {
    /// Standard Explosives of XSize `xsize` from `launch`, checked (Ch. 8.4).
    pub fn new(launch: Launch, xsize: u32) -> Result<Delivery, BlastError> {
        Self::with_variant(launch, xsize, Swap::default())
    }

    /// Explosives with Variants `swap`, checked against the launch and their dice (Ch. 8.4).
    pub fn with_variant(
        launch: Launch,
        xsize: u32,
        swap: impl Into<Swap>,
    ) -> Result<Delivery, BlastError> {
        let swap = swap.into();
        if xsize == 0 {
            return Err(BlastError::NoXSize);
        }
        swap.check(xsize)?;
        let cost = |k: WeaponKind, s: u32| k.at(s).map(|st| st.cost).map_err(BlastError::Size);
        let explosive = cost(WeaponKind::Explosive, xsize)?;
        let d = match launch {
            Launch::Launcher(w) => {
                if xsize > w {
                    return Err(BlastError::PastLauncher { width: w, xsize });
                }
                let shots = w / xsize;
                Delivery {
                    launch,
                    xsize,
                    swap,
                    use_rating: 2 * w as i64,
                    range: 6 * w,
                    shots,
                    turns: 1,
                    weapon_cp: cost(WeaponKind::Launcher, w)?,
                    ammo_cp: explosive * shots as i64,
                }
            }
            Launch::Cannon(w) => {
                if xsize > w {
                    return Err(BlastError::PastCannon { width: w, xsize });
                }
                Delivery {
                    launch,
                    xsize,
                    swap,
                    use_rating: w as i64 + 3,
                    range: 4 * w,
                    shots: 1,
                    turns: 2,
                    weapon_cp: cost(WeaponKind::Cannon, w)?,
                    // "Ammo is never used up" (Ch. 8.4).
                    ammo_cp: Cp::ZERO,
                }
            }
            Launch::Rocket => Delivery {
                launch,
                xsize,
                swap,
                use_rating: 2 * xsize as i64,
                range: 6 * xsize,
                shots: 1,
                turns: 1,
                weapon_cp: Cp::ZERO,
                ammo_cp: cost(WeaponKind::Rocket, xsize)?,
            },
            Launch::Thrown { use_rating } => {
                if xsize > 1 {
                    return Err(BlastError::TooBigToThrow { xsize });
                }
                Delivery {
                    launch,
                    xsize,
                    swap,
                    use_rating,
                    range: 3,
                    shots: 1,
                    turns: 1,
                    weapon_cp: Cp::ZERO,
                    ammo_cp: explosive,
                }
            }
        };
        Ok(d)
    }

    /// The Damage of each Explosive: XSize d10 Exp (Ch. 8.4 Heavy Explosions), or its
    /// variant's dice.
    pub fn damage(&self) -> String {
        self.payload().term()
    }

    /// The dice each Explosive rolls.
    pub fn payload(&self) -> Payload {
        self.swap.payload(self.xsize)
    }
}

impl fmt::Display for Delivery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.launch {
            Launch::Launcher(w) => write!(f, "{w}\" Launcher")?,
            Launch::Cannon(w) => write!(f, "{w}\" Cannon")?,
            Launch::Rocket => write!(f, "Rocket")?,
            Launch::Thrown { .. } => write!(f, "thrown by a minifig")?,
        }
        write!(
            f,
            " (Use {}, Range {}\"): {} x XSize {} Explosive{} ({}) a {}",
            self.use_rating,
            self.range,
            self.shots,
            self.xsize,
            crate::plural::s(self.shots),
            self.damage(),
            if self.turns == 1 {
                "turn"
            } else {
                "volley (fire, then a turn to reload)"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bleaktron_fires_three_missiles_a_turn() {
        // Ch. 8.4: a 3" Launcher turret fires up to three Size 1 Explosives per turn, each
        // against Use 6; Range 18".
        let d = Delivery::new(Launch::Launcher(3), 1).unwrap();
        assert_eq!((d.shots, d.use_rating, d.range), (3, 6, 18));
        assert_eq!(d.weapon_cp, Cp::whole(9));
        assert_eq!(d.ammo_cp, Cp::whole(3));
        assert_eq!(Delivery::new(Launch::Launcher(3), 2).unwrap().shots, 1);
        assert!(Delivery::new(Launch::Launcher(1), 2).is_err());
    }

    #[test]
    fn cannons_rockets_and_throws() {
        let c = Delivery::new(Launch::Cannon(2), 2).unwrap();
        assert_eq!((c.use_rating, c.range, c.turns), (5, 8, 2));
        let r = Delivery::new(Launch::Rocket, 3).unwrap();
        assert_eq!((r.use_rating, r.range, r.ammo_cp), (6, 18, Cp::whole(6)));
        let t = Delivery::new(Launch::Thrown { use_rating: 3 }, 1).unwrap();
        assert_eq!((t.range, t.damage()), (3, "1d10 exp".to_string()));
        assert!(Delivery::new(Launch::Thrown { use_rating: 3 }, 2).is_err());
        assert!(Delivery::new(Launch::Rocket, 0).is_err());
    }
}
