//! Constructs in a squad duel (Ch. 10.4): Connection Strength instead of Armor; the rule is
//! [`crate::rules::constructs`], the lost parts' penalties [`super::limbs`].

use super::limbs::BEYOND;
use super::{Field, Who};
use crate::dice::Log;
use crate::rules::constructs;
use crate::scenario::squad::Squad;

impl Squad {
    /// A hit on Construct `t`: its Connection Strength `cs` stands in for Armor. Damage at or
    /// above it knocks off one Modular Part per multiple, of the defender's choice (its
    /// side's `amputate` order, the head last), with the penalties of Amputation; it falls
    /// when its head goes (Ch. 10.4 Constructs, Ch. 10.2 Effects of Amputation).
    #[cold]
    #[inline(never)]
    pub(super) fn knock_apart<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        damage: i64,
        cs: u32,
        log: &mut L,
    ) {
        let parts = constructs::parts_knocked_off(damage, cs);
        if parts == 0 {
            return log.note(format_args!(
                "    Damage {damage} vs Connection Strength {cs}: no effect"
            ));
        }
        let lost = (fl.f[t].lost as u32 + parts).min(BEYOND as u32 - 1) as u8;
        fl.f[t].lost = lost;
        let gone = !self.body(fl, t).alive();
        log.note(format_args!(
            "    Damage {damage} vs Connection Strength {cs}: {} loses {parts} Modular Parts{}",
            Who(self, fl, t),
            if gone { " and falls apart" } else { "" }
        ));
        if gone {
            fl.f[t].lost = BEYOND;
            self.kill(fl, t);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::Catalog;
    use crate::dice::Die;
    use crate::rules::RuleOptions;
    use crate::scenario::duel::{First, Side};
    use crate::scenario::squad::{Policy, SideSpec, Squad};

    const D6: Die = Die::D6;

    #[test]
    fn a_constructs_parts_are_knocked_off_by_multiples_of_its_connection_strength() {
        // A Skelly (Connection Strength 1) against a minifig, in contact; A first. Turn 1:
        // A1 hits (4), Damage 3: three Modular Parts, legs first: both legs and an arm.
        // Turn 2: the one-armed Skelly still swings its Hand Weapon: hit (2), Damage 3.
        // Turn 3: A1 hits the legless Skelly automatically; Damage 1 knocks off its last
        // arm. Turn 4: it holds no weapon. Turn 5: Damage 1 knocks off the head.
        let o = RuleOptions::default();
        let side = |k: &str| {
            let units = vec![(k.to_string(), 1)];
            SideSpec::from_catalog(&Catalog::builtin(), &units, Policy::default(), &o).unwrap()
        };
        let s = Squad::new(
            side("minifig-hand-weapon"),
            side("skelly"),
            0,
            First::A,
            10,
            o,
        )
        .unwrap();
        let script = [(D6, 4), (D6, 3), (D6, 2), (D6, 3), (D6, 1), (D6, 1)];
        let out = crate::scenario::scripted(&s, &script);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 5));
    }
}
