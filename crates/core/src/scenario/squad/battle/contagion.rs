//! Monstrous Contagion (Ch. 10.4): a Contagious Bite's Poison against the victim's Skill; a
//! destroyed Mind rises on the biters' side.

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::{ContagionRise, contagion};

impl Squad {
    /// A Contagious Bite that hit: its Poison against the victim's Skill roll; a higher
    /// Poison destroys the Mind, and the victim rises on the biter's side at the beginning
    /// of its next turn (Ch. 10.4). Only minifigs are affected, never the Non-Living, and a
    /// unit that carries the Contagion itself is already converted.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn contagion<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        mode: Mode,
        benny: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        let (ki, kt) = (fl.f[i].kind as usize, fl.f[t].kind as usize);
        let tgt = &self.kinds[kt];
        if !tgt.minifig || tgt.non_living || tgt.contagious() {
            return log.note(format_args!(
                "    the Contagion does nothing to {}",
                Who(self, fl, t)
            ));
        }
        let plan = self.plan(ki, w, kt);
        let deflection = self.deflection(fl, i, w, t, mode, faces, log);
        let poison = if !deflection.is_none() {
            plan.damage_deflected(faces, log, benny, &deflection, &[])
        } else {
            plan.damage(faces, log, benny)
        };
        let skill = self.skill[kt].roll(faces, log, 0).total;
        let who = Who(self, fl, t);
        if contagion::mind_destroyed(poison, skill) {
            log.note(format_args!(
                "    Poison {poison} vs Skill {skill}: {who}'s Mind is destroyed; it will rise \
                 with the biters"
            ));
            self.kill(fl, t);
            let (kind, side) = (fl.f[i].kind, fl.f[i].side);
            let f = &mut fl.f[t];
            (f.comatose, f.rise_as, f.rise_side) = (true, kind, side);
            fl.converted += 1;
        } else {
            log.note(format_args!(
                "    Poison {poison} vs Skill {skill}: {who} resists"
            ));
        }
    }

    /// The victims of Monstrous Contagion bitten by `side` rise on it, as its biters' kind
    /// (option `contagion_rise`: they act this turn, or wait for the next).
    #[cold]
    #[inline(never)]
    pub(super) fn rise<L: Log + ?Sized>(&self, fl: &mut Field, side: u8, log: &mut L) {
        for t in 0..self.roster.len() {
            let f = fl.f[t];
            if !f.comatose || f.rise_side != side {
                continue;
            }
            fl.moved(0);
            fl.moved(1);
            fl.f[t] = Figure {
                kind: f.rise_as,
                side,
                alive: true,
                pos: f.pos,
                size: self.kinds[f.rise_as as usize].size,
                acted: self.opts.contagion_rise == ContagionRise::Waits,
                ..EMPTY
            };
            fl.alive[side as usize] += 1;
            log.note(format_args!(
                "  {} rises as a {}",
                Who(self, fl, t),
                self.kinds[f.rise_as as usize].key
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn a_contagious_bite_converts_and_the_victim_rises_with_the_biters() {
        // Ch. 10.4: a Dimmy against two minifigs, in contact.
        let s = squad(
            &[("dimmy", 1)],
            &[("minifig-hand-weapon", 2)],
            0,
            RuleOptions::default(),
        );
        const D4: Die = Die::D4;
        let o = run(
            &s,
            &[
                // Turn 1, A1 bites B1: Skill 3 vs Use 2 hits; Poison 4 vs B1's Skill 2: B1's
                // Mind is destroyed.
                (D4, 3),
                (D4, 4),
                (D6, 2),
                // Turn 2, B2 strikes A1: hit (3), Damage 2 vs Armor 4: no effect.
                (D6, 3),
                (D6, 2),
                // Turn 3: B1 rises on side A; two Stupid Dimmies, so B takes A1 and turns it
                // on B1: a hit (2), but the Contagion does nothing to a Dimmy. Then B1 bites
                // B2: hit (4), Poison 3 vs Skill 1: converted; side B is gone.
                (D4, 2),
                (D4, 4),
                (D4, 3),
                (D6, 1),
            ],
        );
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!((o.turns, o.converted), (3, 2));
        assert_eq!(o.survivors, [2, 0]);
        // Turn by turn: A standing 1, 1, 2; B 1, 1, 0; converted 1, 1, 2.
        assert_eq!(&o.standing[0][..3], &[1, 1, 2]);
        assert_eq!(&o.standing[1][..3], &[1, 1, 0]);
        assert_eq!(&o.converted_by[..3], &[1, 1, 2]);
        // Stupidity `idle`: the enemy only holds A1 still, so its roll is not made.
        let mut idle = RuleOptions::default();
        idle.stupidity = Stupidity::Idle;
        let s = squad(&[("dimmy", 1)], &[("minifig-hand-weapon", 2)], 0, idle);
        let o = run(
            &s,
            &[
                (D4, 3),
                (D4, 4),
                (D6, 2),
                (D6, 3),
                (D6, 2),
                (D4, 4),
                (D4, 3),
                (D6, 1),
            ],
        );
        assert_eq!((o.winner, o.turns, o.converted), (Some(Side::A), 3, 2));
        // A resisted bite: Poison 2 vs Skill 2 (a tie keeps the Mind).
        let s = squad(
            &[("dimmy", 1)],
            &[("minifig-hand-weapon", 1)],
            0,
            RuleOptions::default(),
        );
        let s = Squad { max_turns: 1, ..s };
        let o = run(&s, &[(D4, 2), (D4, 2), (D6, 2)]);
        assert_eq!((o.winner, o.converted), (None, 0));
    }
}
