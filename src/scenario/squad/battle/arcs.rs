//! Arc fire in a squad battle (Ch. 8.3): a MachineGun (or an AutoGun, a Bastard MachineGun)
//! fired alone sweeps its Firing Arc, centred on its target, and "every target within the
//! attacker's Firing Arc receives a single attack from the weapon", each its own Action roll
//! at the Auto Penalty of -1 per point of arc, taken from one end of the arc to the other.
//! Each attack is the battle's own strike (modifiers, Deflection, Damage against Armor).
//!
//! The arc is measured on the plane ([`super::explosives`]), with `diemon blast`'s angle
//! code. Simplifications (docs/model.md): the arc is 1 point (option `arc_point` degrees),
//! so the Auto Penalty is -1 and the gun cannot jam (a jam needs a natural roll below the
//! penalty); the gunner holds its fire over friends in the arc; a figure beyond the Range on
//! the plane is not attacked, save the target itself, chosen by its distance along the line.

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::measure::within;
use crate::scenario::blast::arc::turn;

impl Squad {
    /// Unit `i` sweeps weapon `w`'s Firing Arc around its target `t`.
    #[cold]
    #[inline(never)]
    pub(super) fn sweep<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        let arm = &self.kinds[fl.f[i].kind as usize].arms[w];
        let from = self.spot(fl, i);
        let at = self.spot(fl, t);
        let bearing = (at.0 - from.0).atan2(at.1 - from.1);
        let half = arm.arc as f64 * self.opts.arc_point.degrees().to_radians() / 2.0;
        let range = arm.range.unwrap_or(0) as f64;
        let side = fl.f[i].side;
        // The enemies in the arc, ordered from one end to the other (ties by slot).
        let mut order = [(0.0f64, 0usize); SLOTS];
        let mut m = 0;
        for u in 0..self.roster.len() {
            let fu = fl.f[u];
            if !fu.alive || fu.side == side {
                continue;
            }
            let p = self.spot(fl, u);
            let a = turn(bearing, (p.0 - from.0).atan2(p.1 - from.1));
            let d = (p.0 - from.0).hypot(p.1 - from.1);
            if u == t || (within(a.abs(), half) && within(d, range)) {
                order[m] = (a, u);
                m += 1;
            }
        }
        order[..m].sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let penalty = arm.arc as i64;
        for &(_, u) in &order[..m] {
            if fl.f[u].alive && self.may_engage(fl, i, u, Mode::Ranged) {
                log.note(format_args!(
                    "    at {} (Auto Penalty -{penalty})",
                    Who(self, fl, u)
                ));
                self.strike(fl, i, w, u, Mode::Ranged, false, -penalty, faces, log);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    const D6_: Die = Die::D6;

    #[test]
    fn a_machinegun_attacks_every_enemy_in_its_arc_at_minus_one() {
        // A minifig with a 1" MachineGun (Use 3, Range 5", 1d6) 5" from three minifigs
        // standing on one spot (spacing 0): the arc (1 point, 20 degrees) holds all three. Each is attacked at -1: 4 - 1 = 3 hits, 5 fells; again; again. A wins.
        let o = RuleOptions::default();
        let close = Policy {
            spacing: crate::scenario::squad::Spacing(0),
            ..Policy::default()
        };
        let units: Vec<(String, u32)> = vec![("minifig-hand-weapon".into(), 3)];
        let b = SideSpec::from_catalog(&Catalog::builtin(), &units, close, &o).unwrap();
        let s = Squad::new(
            side(&[("minifig-machinegunner", 1)], &o),
            b,
            5,
            First::A,
            50,
            o,
        )
        .unwrap();
        let out = run(
            &s,
            &[(D6_, 4), (D6_, 5), (D6_, 4), (D6_, 5), (D6_, 4), (D6_, 5)],
        );
        assert_eq!((out.winner, out.turns), (Some(Side::A), 1));
        // At -1, a 3 misses Use 3: the first target stands, the sweep goes on.
        let mut s = s.clone();
        s.max_turns = 1;
        let out = run(&s, &[(D6_, 3), (D6_, 4), (D6_, 5), (D6_, 4), (D6_, 5)]);
        assert_eq!(out.survivors, [1, 1]);
    }

    #[test]
    fn the_gunner_holds_its_fire_over_friends_in_the_arc() {
        // A's gunner (slot 0) and a friend (slot 1) abreast 0.25" apart; the friend has
        // walked 4" forward, into the arc toward B's minifig (slot 2) 5" off. The sweep
        // attacks B alone: one roll (a natural 1), and the friend is never rolled against.
        let o = RuleOptions::default();
        let close = Policy {
            spacing: crate::scenario::squad::Spacing(1),
            ..Policy::default()
        };
        let units: Vec<(String, u32)> = vec![
            ("minifig-machinegunner".into(), 1),
            ("minifig-hand-weapon".into(), 1),
        ];
        let a = SideSpec::from_catalog(&Catalog::builtin(), &units, close, &o).unwrap();
        let s = Squad::new(a, side(&[MF], &o), 5, First::A, 50, o).unwrap();
        let mut fl = s.start();
        fl.f[1].pos = 8;
        let mut dice = crate::dice::Script::new(&[(D6_, 1)]);
        s.sweep(&mut fl, 0, 0, 2, &mut dice, &mut NoLog);
        assert!(dice.is_done(), "one attack, on the enemy only");
        assert!(fl.f[1].alive && fl.f[2].alive);
    }
}
