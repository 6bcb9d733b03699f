//! Mediks in a squad duel (Ch. 10.2): Ker-Triage! on fallen allies. What the Amputations
//! leave the revived able to do is in [`super::limbs`]; the rules in
//! [`crate::rules::medik`].
//!
//! On its turn a Medik operates on a fallen minifig of its side within touch (a full-round
//! Action: it neither moves nor attacks); with none within touch, it walks to the nearest
//! one unless an enemy is in contact with it, and otherwise fights as any unit. Other
//! Mediks of the side within touch of the patient assist, one die size each. A revived
//! patient stands where it fell, with its Amputations: Move lost, Half Speed, no legs (no
//! Move, and Close Combat attacks hit it automatically), too few hands for its weapons. A
//! patient whose head is Amputated is dead beyond revival.

use super::limbs::BEYOND;
use super::{CONTACT, Field, Who};
use crate::dice::{Faces, Log};
use crate::rules::medik::{self, Triage};
use crate::scenario::squad::Squad;

impl Squad {
    /// A fallen unit Ker-Triage! may revive: a minifig (limbs are known for minifigs only)
    /// with its head, not turned by Monstrous Contagion.
    fn patient(&self, fl: &Field, t: usize, side: u8) -> bool {
        let f = &fl.f[t];
        !f.alive
            && !f.comatose
            && f.side == side
            && f.lost != BEYOND
            && self.kinds[f.kind as usize].minifig
            && self.kinds[f.kind as usize].connection.is_none()
    }

    /// Medik `i`'s turn, if it has a patient: Ker-Triage! on one within touch, or a walk
    /// toward the nearest. Returns whether that took its turn.
    #[cold]
    #[inline(never)]
    pub(super) fn medik_turn<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let Some(tools) = self.kinds[fl.f[i].kind as usize].medik else {
            return false;
        };
        let side = fl.f[i].side;
        let nearest = (0..self.roster.len())
            .filter(|&t| self.patient(fl, t, side))
            .map(|t| (fl.gap(t, i), t))
            .min();
        let Some((d, t)) = nearest else {
            return false;
        };
        if d > CONTACT {
            let engaged = self.nearest(fl, i).is_some_and(|(e, _)| e <= CONTACT);
            if engaged || fl.f[i].lost != 0 && self.body(fl, i).immobile() {
                return false;
            }
            let step = self.step(fl, i).min(d - CONTACT).max(0);
            self.walk_to(fl, i, fl.at(t), step);
            fl.moved(fl.f[i].side);
            log.note(format_args!(
                "  {} hurries {}\" toward the fallen {}",
                Who(self, fl, i),
                step as f64 / 2.0,
                Who(self, fl, t)
            ));
            return true;
        }
        let assistants = (0..self.roster.len())
            .filter(|&m| {
                let f = &fl.f[m];
                m != i
                    && f.alive
                    && f.side == side
                    && self.kinds[f.kind as usize].medik.is_some()
                    && fl.gap(m, t) <= CONTACT
            })
            .count() as u32;
        let die = medik::triage_die(tools, assistants);
        fl.f[i].acted = true;
        match medik::roll_triage(die, faces, log) {
            Triage::Head => {
                fl.f[t].lost = BEYOND;
                log.note(format_args!(
                    "  {} operates on {} ({die}): the head is Amputated",
                    Who(self, fl, i),
                    Who(self, fl, t)
                ));
            }
            Triage::Amputations(n) => {
                let lost = (fl.f[t].lost as u32 + n).min(BEYOND as u32 - 1) as u8;
                fl.f[t].lost = lost;
                if !self.body(fl, t).alive() {
                    fl.f[t].lost = BEYOND;
                    log.note(format_args!(
                        "  {} operates on {} ({die}): no limbs left, the head goes",
                        Who(self, fl, i),
                        Who(self, fl, t)
                    ));
                    return true;
                }
                fl.moved(fl.f[t].side);
                let f = &mut fl.f[t];
                f.alive = true;
                // "Creatures larger than Size 1\" are revived with an Effective Size of 1\"".
                f.size = 1;
                (f.disrupted, f.recovering, f.saved) = (false, false, false);
                (f.combined, f.combo) = (super::Pool::EMPTY, super::Pool::EMPTY);
                fl.blast[t] = super::Pool::EMPTY;
                fl.alive[side as usize] += 1;
                fl.revived += 1;
                log.note(format_args!(
                    "  {} revives {} ({die}) with {n} Amputations",
                    Who(self, fl, i),
                    Who(self, fl, t)
                ));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::dice::Die;
    use crate::rules::RuleOptions;
    use crate::rules::medik::Amputate;
    use crate::scenario::duel::{First, Side};
    use crate::scenario::squad::{Policy, SideSpec, SquadOutcome};

    const D6: Die = Die::D6;
    const D8: Die = Die::D8;

    /// A minifig and a Medik with Tools against a minifig, in contact; B first.
    fn run(amputate: Amputate, script: &[(Die, u32)]) -> SquadOutcome {
        let o = RuleOptions::default();
        let side = |units: &[&str]| {
            let units: Vec<(String, u32)> = units.iter().map(|k| (k.to_string(), 1)).collect();
            // On one spot: the Medik in touch with its ally.
            let p = Policy {
                amputate,
                spacing: crate::scenario::squad::Spacing(0),
                ..Policy::default()
            };
            SideSpec::from_catalog(&Catalog::builtin(), &units, p, &o).unwrap()
        };
        let a = side(&["minifig-hand-weapon", "field-medik"]);
        let b = side(&["minifig-hand-weapon"]);
        let s = Squad::new(a, b, 0, First::B, 10, o).unwrap();
        crate::scenario::scripted(&s, script)
    }

    #[test]
    fn ker_triage_revives_a_fallen_ally_without_its_legs() {
        // Turn 1: B1 kills A1 (4 hits, Damage 5 > 4). Turn 2: the Medik operates on A1 (its
        // whole turn), 1d8 with Tools: 3, two Amputations, legs first. Turn 3: B1 hits the
        // legless A1 automatically, Damage 2: no effect. Turn 4: A1 hits (3), Damage 5.
        let script = [(D6, 4), (D6, 5), (D8, 3), (D6, 2), (D6, 3), (D6, 5)];
        let o = run(Amputate::LegsFirst, &script);
        assert_eq!((o.winner, o.turns, o.revived), (Some(Side::A), 4, 1));
        assert_eq!(o.survivors, [2, 0]);
    }

    #[test]
    fn without_arms_the_revived_cannot_fight() {
        // Arms first: A1 is revived armless and walking. Turn 3: B1 must roll to hit it (4),
        // Damage 2. Turn 4: A1 holds no weapon; the Medik strikes: hit (3), Damage 5.
        let script = [
            (D6, 4),
            (D6, 5),
            (D8, 3),
            (D6, 4),
            (D6, 2),
            (D6, 3),
            (D6, 5),
        ];
        let o = run(Amputate::ArmsFirst, &script);
        assert_eq!((o.winner, o.turns, o.revived), (Some(Side::A), 4, 1));
    }

    #[test]
    fn a_critical_failure_takes_the_head() {
        // Ker-Triage! rolls 1: A1's head is Amputated, beyond revival. Turn 3: B1 kills
        // the Medik (4, Damage 5).
        let script = [(D6, 4), (D6, 5), (D8, 1), (D6, 4), (D6, 5)];
        let o = run(Amputate::LegsFirst, &script);
        assert_eq!((o.winner, o.turns, o.revived), (Some(Side::B), 3, 0));
    }
}
