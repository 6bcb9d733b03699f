//! Masters and Thralls in a squad duel (Ch. 10.4): "a Thrall who is killed by any other
//! means may be counted as a Sacrifice if its Master is within 1d6\"", and the Master
//! "receives an immediate Instant Benny equal to the Sacrificed Thrall's Skill die", to be
//! used "before the end of his turn (or the end of his following turn, if the Sacrifice
//! occurs on someone else's turn)". A Sacrificed Thrall is beyond revival.
//!
//! The Benny is spent as the `overskill=auto` policy spends a Benny: on the Master's next
//! attack, added to a Skill roll that would miss, else to the Damage of its hit. A Master
//! holds one Benny at a time (a larger die replaces a smaller). Masters who Sacrifice
//! Thralls by touch, and RedShirting, are not modelled: the duel's players never choose
//! to kill their own units.

use super::limbs::BEYOND;
use super::{Field, Who};
use crate::dice::{Die, DieEvent, Faces, Log, Role};
use crate::rules::attack::Hit;
use crate::scenario::squad::Squad;

impl Squad {
    /// Resolves the Sacrifices of the Thralls that fell in the last unit's turn (its
    /// attacks and the Responses to it), in roster order: the nearest standing Master of
    /// the Thrall's side takes it if it is within a roll of 1d6 inches.
    #[cold]
    #[inline(never)]
    pub(super) fn sacrifices<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        faces: &mut F,
        log: &mut L,
    ) {
        while fl.fallen_thralls != 0 {
            let t = fl.fallen_thralls.trailing_zeros() as usize;
            fl.fallen_thralls &= fl.fallen_thralls - 1;
            let side = fl.f[t].side;
            let master = self.least(fl, side, |m| {
                let f = &fl.f[m];
                (f.alive && self.kinds[f.kind as usize].master).then(|| fl.gap(m, t))
            });
            let Some((d, m)) = master else {
                continue;
            };
            let reach = faces.face(Die::D6);
            log.die(DieEvent {
                term: 0,
                die: Die::D6,
                face: reach,
                role: Role::Regular,
                counted: reach as i64,
            });
            if d > 2 * reach as i32 {
                continue;
            }
            fl.f[t].lost = BEYOND;
            let die = self.kinds[fl.f[t].kind as usize].skill.die();
            let idx = die.index() as u8 + 1;
            fl.f[m].benny = fl.f[m].benny.max(idx);
            log.note(format_args!(
                "    {} is Sacrificed to {}: an Instant Benny of {die}",
                Who(self, fl, t),
                Who(self, fl, m)
            ));
        }
    }

    /// Master `i`'s Instant Benny on a Skill roll that missed: its die added, which may
    /// turn the miss into a hit (a Critical Failure stays one).
    #[cold]
    #[inline(never)]
    pub(super) fn instant_benny_to_hit<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        hit: Hit,
        faces: &mut F,
        log: &mut L,
    ) -> Hit {
        let Hit::Miss { by } = hit else {
            return hit;
        };
        let r = self.instant_benny(fl, i, faces, log);
        if r >= by {
            Hit::Hit { benny: false }
        } else {
            Hit::Miss { by: by - r }
        }
    }

    /// Spends Master `i`'s Instant Benny: its die's roll.
    #[cold]
    #[inline(never)]
    pub(super) fn instant_benny<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        let die = Die::ALL[fl.f[i].benny as usize - 1];
        fl.f[i].benny = 0;
        let r = faces.face(die);
        log.die(DieEvent {
            term: 0,
            die,
            face: r,
            role: Role::Bonus,
            counted: r as i64,
        });
        r as i64
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
    fn a_fallen_thrall_near_its_master_becomes_an_instant_benny() {
        // B first, in contact. Turn 1: B1 kills the Kultist (3, Damage 5); its Master is
        // 0" away, within the 1d6" roll (1): a Sacrifice, an Instant Benny d6. Turn 2: the
        // Master's Heavy Weapon roll 2 misses Use 3 by 1; the Benny's 3 makes it a hit;
        // Damage 3 + 2 > 4.
        let o = RuleOptions::default();
        let side = |units: &[&str]| {
            let units: Vec<(String, u32)> = units.iter().map(|k| (k.to_string(), 1)).collect();
            // On one spot: the Thrall falls in touch with its Master.
            let p = Policy {
                spacing: crate::scenario::squad::Spacing(0),
                ..Policy::default()
            };
            SideSpec::from_catalog(&Catalog::builtin(), &units, p, &o).unwrap()
        };
        let s = Squad::new(
            side(&["kultist", "kult-master"]),
            side(&["minifig-hand-weapon"]),
            0,
            First::B,
            2,
            o,
        )
        .unwrap();
        let script = [(D6, 3), (D6, 5), (D6, 1), (D6, 2), (D6, 3), (D6, 3)];
        let out = crate::scenario::scripted(&s, &script);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 2));
    }
}
