//! Bailing out of an Explosion (Ch. 4.3 Enemy Response): "Minifigs are not able to Sprint
//! as a Response Action. Instead ... they have the option to Bail. A Bailing minifig makes a
//! Skill roll and can dive to any spot within that many inches of his current position,
//! ending up lying prone on the ground and Disrupted."
//!
//! Under a side's `bail = blast` policy, when an Explosive comes down with some of its units
//! in the rings, each of them with a saved Action (and its legs) Bails before the Damage is
//! rolled:
//! - the Skill roll, with its Action modifiers (a burning unit's -1d4, SN dice out), is the
//!   dive in inches; at Half Speed it dives one inch for every two (Ch. 4.3);
//! - it dives straight away from the burst (toward its own back from the burst's own
//!   spot), no farther than the table's edge;
//! - it ends Disrupted, unless the roll earned an Overskill Benny: "A minifig who rolls an
//!   Overskill Benny on the Skill roll for Bailing distance may choose to land on his feet";
//! - a Critical Failure "means he just slips and falls on his face right where he's
//!   standing": Disrupted, and not moved.
//!
//! A unit that does not dive far enough is still caught, in the ring it lands in.
//!
//! Under `bail = all` a unit also Bails from a ranged attack whose Range a dive could carry
//! it out of (its Skill die's top face): straight away from the shooter, and the shots come
//! at its new place, each inch Out of Range -1 to the roll and to the Damage (Ch. 4.2). On
//! the open table a dive changes nothing else a shot measures. Arc fire is not dodged.

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::measure;
use crate::scenario::squad::Bail;

impl Squad {
    /// Whether unit `u` may Bail now under its side's policy: it stands, keeps a saved
    /// Action, and has legs to dive with.
    fn may_bail(&self, fl: &Field, u: usize, from_shot: bool) -> bool {
        let f = fl.f[u];
        let wants = match self.policy[f.side as usize].bail {
            Bail::Never => false,
            Bail::Blast => !from_shot,
            Bail::All => true,
        };
        wants
            && f.alive
            && f.saved
            && !f.acted
            && !f.disrupted
            && self.kinds[f.kind as usize].move_halves > 0
            && !(self.any_limbs && self.legless(fl, u))
    }

    /// Unit `u` Bails along heading `away`: its saved Action spent, a dive of its
    /// Skill roll in inches to the table's edge at most, then Disrupted unless Overskill.
    fn dive<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        u: usize,
        away: Heading,
        from: &str,
        faces: &mut F,
        log: &mut L,
    ) {
        let f = fl.f[u];
        fl.f[u].saved = false;
        fl.f[u].acted = true;
        let r = self.skill_of(fl, u).roll(faces, log, 0);
        if r.critical_failure {
            fl.f[u].disrupted = true;
            return log.note(format_args!(
                "    {} Bails: a Critical Failure, it falls where it stands",
                Who(self, fl, u)
            ));
        }
        let inches =
            (r.total + self.penalty(fl, u) + self.fire_penalty(fl, u, faces, log)).max(0) as i32;
        // Half-inches: a Half Speed unit dives one inch for every two.
        let dive = if self.kinds[f.kind as usize].half_speed {
            inches
        } else {
            2 * inches
        };
        let moved = self.room_along(fl, u, away, dive);
        fl.step(u, away, moved);
        fl.moved(fl.f[u].side);
        fl.f[u].disrupted = !r.overskill;
        log.note(format_args!(
            "    {} Bails {}\" away from {from}{}",
            Who(self, fl, u),
            moved as f64 / 2.0,
            if r.overskill {
                ", and its Overskill Benny lands it on its feet"
            } else {
                ", and lies Disrupted"
            }
        ));
    }

    /// The units with a `blast` (or `all`) Bail policy and a saved Action standing within
    /// `radius` of an Explosive coming down at `centre` Bail, away from the burst.
    pub(super) fn bail_from<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        centre: (f64, f64),
        radius: f64,
        faces: &mut F,
        log: &mut L,
    ) {
        for u in 0..self.roster.len() {
            if !self.may_bail(fl, u, false) {
                continue;
            }
            let at = self.spot(fl, u);
            if !measure::near(at, centre, radius) {
                continue;
            }
            let away = fl.away(u, Squad::spot_of(centre));
            self.dive(fl, u, away, "the burst", faces, log);
        }
    }

    /// Target `t` of `i`'s ranged Action with `reach` (half-inches, its longest Range) Bails
    /// straight away from the shooter under an `all` policy, if a dive of its Skill die's
    /// top face could carry it out of that Range. Returns whether it Bailed: the shots then
    /// come at its new place, Out of Range by what it gained (Ch. 4.3: "the riflemen just
    /// fire at him in his new position").
    pub(super) fn bail_from_shot<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        reach: i32,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        if !self.may_bail(fl, t, true) {
            return false;
        }
        let k = &self.kinds[fl.f[t].kind as usize];
        let top = 2 * k.skill.die().sides() as i32 / if k.half_speed { 2 } else { 1 };
        let d = fl.gap(t, i);
        if d + top <= reach {
            return false;
        }
        let away = fl.away(t, fl.at(i));
        self.dive(fl, t, away, "the shot", faces, log);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::dice::Script;
    use crate::scenario::squad::Bail;

    const D10: Die = Die::D10;

    fn bailing(o: RuleOptions) -> Squad {
        let bail = Policy {
            bail: Bail::Blast,
            ..Policy::default()
        };
        let b = side_with(&[MF], bail, &o);
        Squad::new(side(&[("minifig-grenadier", 1)], &o), b, 3, First::A, 50, o).unwrap()
    }

    #[test]
    fn a_minifig_with_a_saved_action_dives_out_of_the_blast() {
        // A grenade bursts on B (1d10 Exp, a 2" ring). B has its Action saved: it Bails, a
        // Skill roll of 3: 3" along the line, away from the thrower, out of the ring. The
        // 9 of the blast finds no one. B lies Disrupted, its Action spent.
        let s = bailing(RuleOptions::default());
        let mut fl = s.start();
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 4), (D6, 3), (D10, 9)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert!(fl.f[1].alive && fl.f[1].disrupted && !fl.f[1].saved);
        assert_eq!(fl.f[1].pos, 12.0, "3\" + 3\" in half-inches");
        // A roll of 1 is a Critical Failure: he falls where he stands, and the 9 fells him.
        let mut fl = s.start();
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 4), (D6, 1), (D10, 9)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
        // A 2" dive is too short: exactly 2" from the burst is still the inner ring.
        let mut fl = s.start();
        fl.f[1].saved = true;
        fl.f[1].pos = 5.0; // 2.5" from the thrower
        let mut dice = Script::new(&[(D6, 4), (D6, 2), (D10, 9)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
    }

    #[test]
    fn under_bail_all_a_target_dives_out_of_range_and_the_shot_follows_it() {
        // A rifle (Use 3, Range 10", 1d6+1) at a minifig 10" off that keeps its Action and
        // Bails from shots: a dive of 3" leaves it 3" Out of Range, -3 to the roll and to the
        // Damage, +1 for a Disrupted target. 5 - 3 + 1 hits; 5 + 1 - 3 does not beat 4.
        let o = RuleOptions::default();
        let shots = |bail| {
            let p = Policy {
                bail,
                ..Policy::default()
            };
            let b = side_with(&[MF], p, &o);
            Squad::new(side(&[("minifig-rifle", 1)], &o), b, 10, First::A, 50, o).unwrap()
        };
        let s = shots(Bail::All);
        let mut fl = s.start();
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 3), (D6, 5), (D6, 5)]);
        assert!(s.action(&mut fl, 0, Some(1), &mut dice, &mut NoLog));
        assert!(dice.is_done());
        assert!(fl.f[1].alive && fl.f[1].disrupted && !fl.f[1].saved);
        assert_eq!(fl.f[1].pos, 26.0);
        // 3" off, no dive of a d6 gets it out of Range: it keeps its Action, and falls.
        let mut fl = s.start();
        fl.f[1].saved = true;
        fl.f[1].pos = 6.0;
        let mut dice = Script::new(&[(D6, 5), (D6, 5)]);
        s.action(&mut fl, 0, Some(1), &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
        // Under `blast` it stands to the shot.
        let s = shots(Bail::Blast);
        let mut fl = s.start();
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 5), (D6, 5)]);
        s.action(&mut fl, 0, Some(1), &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
    }

    #[test]
    fn an_overskill_benny_lands_it_on_its_feet_and_no_saved_action_no_bail() {
        // A natural 6 on the Bail earns a Benny: 6" away, on its feet.
        let s = bailing(RuleOptions::default());
        let mut fl = s.start();
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 4), (D6, 6), (D10, 9)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert!(fl.f[1].alive && !fl.f[1].disrupted);
        assert_eq!(fl.f[1].pos, 18.0);
        // Without a saved Action there is no Bail: the 9 fells him where he stands.
        let mut fl = s.start();
        fl.f[1].saved = false;
        let mut dice = Script::new(&[(D6, 4), (D10, 9)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
    }
}
