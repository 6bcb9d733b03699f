//! Burning minifigs in a squad duel (Ch. 8.3 Catching On Fire): a minifig catches fire from
//! a point of Fire Damage (an SN d4 of Damage) or from a 4pion's Burning (Ch. D.1). While
//! it burns it takes -1d4 to Action Rolls (its attacks' Skill rolls, Parries and Sprints)
//! and to Armor, and uses one hand at most. At the beginning of its turn it makes a Burning
//! Roll: a 1 puts the fire out; anything else costs it a limb (as an Amputation, in its
//! side's `amputate` order; never the head) and spreads the fire to one minifig it touches,
//! an enemy if it can, else a friend. Stop, drop and roll and the hysterical running are not
//! modelled (docs/model.md). All of it but `aftermath` (inlined into every strike) is cold
//! code: no duel without Fire weapons or SN d4s calls it.

use super::limbs::{BEYOND, LIMBS};
use super::{CONTACT, Field, Who};
use crate::dice::{Faces, Log};
use crate::rules::fire;
use crate::scenario::squad::Squad;

impl Squad {
    /// What follows a hit on `t` once its Armor is rolled: it catches fire (`ignites`, Ch.
    /// 8.3), and the SN dice's Blast spreads (Ch. D.4).
    #[inline(always)]
    pub(super) fn aftermath<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        ignites: bool,
        sn: Option<&super::supernatural::SnDamage>,
        faces: &mut F,
        log: &mut L,
    ) {
        if ignites {
            self.ignite(fl, t, log);
        }
        if let Some(sn) = sn {
            self.sn_radius(fl, t, sn, faces, log);
        }
    }

    /// Sets minifig `t` on fire, if it is a standing minifig not already burning.
    pub(super) fn ignite<L: Log + ?Sized>(&self, fl: &mut Field, t: usize, log: &mut L) {
        let f = fl.f[t];
        if !f.alive || f.burning || !self.kinds[f.kind as usize].minifig {
            return;
        }
        fl.f[t].burning = true;
        log.note(format_args!("    {} catches fire", Who(self, fl, t)));
    }

    /// Unit `i`'s -1d4 for burning, rolled (0 when it does not burn).
    #[inline]
    pub(super) fn fire_penalty<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        if self.any_fire && fl.f[i].burning {
            -fire::penalty(faces, log)
        } else {
            0
        }
    }

    /// Burning minifig `i`'s Burning Roll at the beginning of its turn.
    #[cold]
    #[inline(never)]
    pub(super) fn burn<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        if fire::burning_roll(faces, log) {
            fl.f[i].burning = false;
            return log.note(format_args!("  {}'s fire goes out", Who(self, fl, i)));
        }
        // "one limb useless ... as if it were Amputated" (Ch. 8.3): the head is not a limb.
        if fl.f[i].lost < LIMBS {
            fl.f[i].lost += 1;
        }
        debug_assert!(fl.f[i].lost != BEYOND);
        log.note(format_args!(
            "  {} burns and loses a limb ({} lost)",
            Who(self, fl, i),
            fl.f[i].lost
        ));
        let side = fl.f[i].side;
        let catches = |fl: &Field, s: u8| {
            self.least(fl, s, |t| {
                let f = &fl.f[t];
                let ok = t != i
                    && f.alive
                    && !f.burning
                    && fl.gap(t, i) <= CONTACT
                    && self.kinds[f.kind as usize].minifig;
                ok.then_some(())
            })
        };
        if let Some((_, t)) = catches(fl, 1 - side).or_else(|| catches(fl, side)) {
            self.ignite(fl, t, log);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::dice::{Die, NoLog, Script};
    use crate::rules::RuleOptions;
    use crate::scenario::duel::First;
    use crate::scenario::squad::{Policy, SideSpec};

    const D4: Die = Die::D4;
    const D6: Die = Die::D6;
    const D10: Die = Die::D10;

    fn squad(a: &[&str], b: &[&str], first: First) -> Squad {
        let o = RuleOptions::default();
        let side = |units: &[&str]| {
            let units: Vec<(String, u32)> = units.iter().map(|k| (k.to_string(), 1)).collect();
            SideSpec::from_catalog(&Catalog::builtin(), &units, Policy::default(), &o).unwrap()
        };
        Squad::new(side(a), side(b), 0, first, 2, o).unwrap()
    }

    #[test]
    fn a_point_of_sn_fire_sets_a_minifig_alight_and_a_one_puts_it_out() {
        // Turn 1: the Pyromantik's Wand hits the Hero (4 vs Use 2); SN d6 2, d4 2, d4 3:
        // 7 against Armor 2d6 (5, 5): no effect, but 5 points of Fire set the Hero alight
        // (Ch. 8.3). Turn 2: the Hero's Burning Roll is a 1, the fire goes out; its d10 is
        // a Critical Failure.
        let s = squad(&["pyromantik"], &["hero-hand-weapon"], First::A);
        let script = [
            (D6, 4),
            (D6, 2),
            (D4, 2),
            (D4, 3),
            (D6, 5),
            (D6, 5),
            (D4, 1),
            (D10, 1),
        ];
        let o = crate::scenario::scripted(&s, &script);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // Fire net of a Fumble: d4 2 and a d4's 1, whose Fumble Die (3) the Hero takes
        // off: -1 point of Fire sets nothing alight, so turn 2 has no Burning Roll.
        let script = [
            (D6, 4),
            (D6, 2),
            (D4, 2),
            (D4, 1),
            (D4, 3),
            (D6, 5),
            (D6, 5),
            (D10, 1),
        ];
        let o = crate::scenario::scripted(&s, &script);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn burning_costs_a_limb_spreads_and_takes_a_d4_off_rolls_and_armor() {
        // (A Pyromantik stands by: fire arises only where SN d4s are.) B1 burns beside A1.
        // Its Burning Roll 2: a leg lost, the fire spreads to A1 (an
        // enemy first). It strikes with -1d4 (2): 4 - 2 meets Use 2; Damage 5 against A1's
        // Armor 4 less its own 1d4 (1): A1 falls.
        let s = squad(
            &["minifig-hand-weapon", "pyromantik"],
            &["minifig-hand-weapon"],
            First::B,
        );
        let mut fl = super::super::standing(&s, 0);
        fl.f[2].burning = true;
        let mut dice = Script::new(&[(D4, 2), (D4, 2), (D6, 4), (D6, 5), (D4, 1)]);
        s.act(&mut fl, 2, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(fl.f[2].lost, 1);
        assert!(!fl.f[0].alive && fl.f[0].burning);
        // Burning, a two-handed weapon cannot be used ("one of his two Hands at most").
        let s = squad(
            &["minifig-hand-weapon", "pyromantik"],
            &["minifig-two-handed"],
            First::B,
        );
        let mut fl = super::super::standing(&s, 0);
        (fl.f[2].burning, fl.f[0].burning, fl.f[1].burning) = (true, true, true);
        let mut dice = Script::new(&[(D4, 3)]);
        s.act(&mut fl, 2, &mut dice, &mut NoLog);
        assert!(dice.is_done(), "no attack: only the Burning Roll");
        assert!(fl.f[0].alive);
    }
}
