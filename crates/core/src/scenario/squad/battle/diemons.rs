//! Summoned Diemons in a squad duel (Ch. D.1, D.3), under the `summon` spend policy: each
//! SN d10 in hand becomes a 10amyte that runs at the enemy and blows itself up, and each
//! SN d4 a 4pion that stays on the field as a Lasting Effect, burning.
//!
//! A 4pion is "an elemental Vermin with Size 0" and Armor:0"" (any hit kills it, a stomp
//! is Use 0). It arrives touching its summoner, with its Move but no Action (Ch. 10.4), in
//! a slot of its own after the fielded units, and is never counted among its side's units.
//! At the beginning of each of its turns it makes a Burning Roll on 1d4: a 1 burns it out
//! and its d4 returns to its owner; otherwise the Burning spreads to an enemy minifig it
//! touches (a minifig's Weight class, 1 or below, is less than any roll but a 1; Ch. 8.3).
//! Then it runs its own d4's roll in inches at the nearest enemy (a Diemon moves or acts
//! with its own die, and the texts give a 4pion no Action on a unit). It is gone when its
//! summoner falls, which ends the summoner's Lasting Effects (Ch. D.3).

use super::{CONTACT, Field, Who};
use crate::dice::{Die, Faces, Log};
use crate::rules::{explosion, fire};
use crate::scenario::squad::Squad;

impl Squad {
    /// SN unit `i` summons its Diemons at the beginning of its turn: 10amytes, then 4pions.
    pub(super) fn summon<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        self.summon_10amytes(fl, i, faces, log);
        if !self.pions.is_empty() && fl.f[i].alive && !self.over(fl) {
            self.summon_4pions(fl, i, log);
        }
    }

    /// Each SN d10 in hand summons a 10amyte touching its caster (Ch. D.1, D.3). It arrives
    /// as a spawned unit does, with its Move but no Action (Ch. 10.4), runs its own die's
    /// roll in inches at the nearest enemy, and blows itself up (no Action needed) in a 1d10
    /// Explosion when that enemy is within the 2" ring and no ally (the caster included)
    /// is; otherwise its caster dismisses it. Either way its die is spent for the turn and
    /// comes back at the caster's next. It is never on the field between turns.
    fn summon_10amytes<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        let k = &self.kinds[fl.f[i].kind as usize];
        // The Explosion's first ring, in half-inches (Ch. 8.4: 2").
        const RING: i32 = (2.0 * explosion::RING_INCHES) as i32;
        for b in 0..k.sn.len() {
            if k.sn[b] != Die::D10 || self.sn_ready(fl, i) & (1 << b) == 0 {
                continue;
            }
            let Some((d, e)) = self.nearest(fl, i) else {
                return;
            };
            fl.f[i].spent |= 1 << b;
            let run = 2 * faces.face(Die::D10) as i32;
            log.die(crate::dice::DieEvent {
                term: 0,
                die: Die::D10,
                face: (run / 2) as u32,
                role: crate::dice::Role::Regular,
                counted: (run / 2) as i64,
            });
            let side = fl.f[i].side;
            let at = fl.ahead(i, fl.toward(i, fl.at(e)), run.min(d));
            let near = |s: bool| {
                (0..self.roster.len()).any(|u| {
                    let f = &fl.f[u];
                    f.alive && (f.side == side) == s && fl.gap_to(u, at) <= RING
                })
            };
            if !near(false) || near(true) {
                log.note(format_args!(
                    "  {} summons a 10amyte: it runs {}\" and is dismissed",
                    Who(self, fl, i),
                    run / 2
                ));
                continue;
            }
            let blast = self.amyte.roll(faces, log);
            let damage = blast
                .damage(0)
                .expect("a 1d10 Explosion reaches its first ring");
            log.note(format_args!(
                "  {} summons a 10amyte: it runs {}\" and explodes, Damage {damage}",
                Who(self, fl, i),
                run / 2
            ));
            self.area(fl, at, RING, damage, false, true, None, faces, log);
            if self.over(fl) {
                return;
            }
        }
    }

    /// Each SN d4 in hand summons a 4pion touching its caster, kept out as a Lasting
    /// Effect (Ch. D.3: "keep it active ... as a summoned Diemon").
    fn summon_4pions<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, log: &mut L) {
        for (n, &(caster, b)) in self.pions.iter().enumerate() {
            let j = self.units + n;
            if caster as usize != i || fl.f[j].alive || self.sn_ready(fl, i) & (1 << b) == 0 {
                continue;
            }
            let c = fl.f[i];
            fl.moved(c.side);
            fl.lat[j] = fl.lat[i];
            fl.f[j] = super::Figure {
                kind: self.roster[j].1,
                side: c.side,
                alive: true,
                pos: c.pos,
                size: 0,
                spawned: true,
                ..super::EMPTY
            };
            fl.f[i].lasting |= 1 << b;
            log.note(format_args!("  {} summons a 4pion", Who(self, fl, i)));
        }
    }

    /// 4pion `j`'s turn: its Burning Roll, then its run at the nearest enemy.
    #[cold]
    #[inline(never)]
    pub(super) fn fourpion_turn<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        j: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        let roll = fire::burning_face(faces, log);
        if roll == 1 {
            log.note(format_args!(
                "  {}'s Burning Roll is a 1: it burns itself out",
                Who(self, fl, j)
            ));
            return self.pion_gone(fl, j);
        }
        let side = fl.f[j].side;
        let victim = self.least(fl, 1 - side, |t| {
            let f = &fl.f[t];
            let ok = f.alive
                && !f.burning
                && fl.gap(t, j) <= CONTACT
                && self.kinds[f.kind as usize].minifig
                && fire::spreads_to(roll, fire::MINIFIG_WEIGHT);
            ok.then_some(())
        });
        if let Some((_, t)) = victim {
            log.note(format_args!(
                "  {}'s Burning Roll {roll} spreads to a minifig it touches",
                Who(self, fl, j)
            ));
            self.ignite(fl, t, log);
        }
        let Some((d, e)) = self.nearest(fl, j) else {
            return;
        };
        let run = 2 * faces.face(Die::D4) as i32;
        let moved = run.min((d - CONTACT).max(0));
        if moved == 0 {
            return;
        }
        self.walk_to(fl, j, fl.at(e), moved);
        fl.moved(fl.f[j].side);
        log.note(format_args!(
            "  {} runs {}\"",
            Who(self, fl, j),
            moved as f64 / 2.0
        ));
    }

    /// 4pion `j` leaves the field (burnt out, killed, or its summoner fell): its d4 is
    /// back with its owner.
    pub(super) fn pion_gone(&self, fl: &mut Field, j: usize) {
        fl.f[j].alive = false;
        fl.moved(fl.f[j].side);
        let (caster, b) = self.pions[j - self.units];
        fl.f[caster as usize].lasting &= !(1 << b);
    }

    /// The 4pions of summoner `c`, gone with its Lasting Effects.
    pub(super) fn dismiss_pions(&self, fl: &mut Field, c: usize) {
        for (n, &(caster, _)) in self.pions.iter().enumerate() {
            if caster as usize == c {
                fl.f[self.units + n].alive = false;
                fl.moved(fl.f[self.units + n].side);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::catalog::Catalog;
    use crate::dice::Die;
    use crate::rules::RuleOptions;
    use crate::scenario::duel::{First, Side};
    use crate::scenario::squad::{Policy, SideSpec, Spend, Squad, SquadOutcome};

    const D4: Die = Die::D4;
    const D6: Die = Die::D6;

    fn run(turns: u32, script: &[(Die, u32)]) -> SquadOutcome {
        let o = RuleOptions::default();
        let side = |unit: &str, spend| {
            let p = Policy {
                spend,
                ..Policy::default()
            };
            SideSpec::from_catalog(&Catalog::builtin(), &[(unit.into(), 1)], p, &o).unwrap()
        };
        let a = side("pyromantik", Spend::Summon);
        let b = side("minifig-hand-weapon", Spend::Damage);
        let s = Squad::new(a, b, 0, First::A, turns, o).unwrap();
        crate::scenario::scripted(&s, script)
    }

    /// Turn 1, in contact: the Pyromantik summons two 4pions (-2 Skill for the d4s out)
    /// and its Wand hits (6 - 2 vs Use 2) with the SN d6 (3): no effect. The first 4pion's
    /// Burning Roll 3 spreads to B1; it runs no farther (its d4, 1). The second's Burning
    /// Roll is a 1: it burns itself out.
    const TURN_1: [(Die, u32); 5] = [(D6, 6), (D6, 3), (D4, 3), (D4, 1), (D4, 1)];

    #[test]
    fn a_4pion_burns_what_it_touches_or_burns_itself_out() {
        // The 4pions are not counted among side A's units.
        let o = run(1, &TURN_1);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn a_4pion_is_gone_with_its_summoner() {
        // Turn 2: burning B1's Burning Roll 2 costs it a leg and spreads to the Pyromantik;
        // it strikes at -1d4 (2): 4 - 2 meets Use 2; Damage 5 against Armor 4 less 1d4 (3).
        // The Pyromantik falls and its 4pion with it: side A has nothing standing.
        let mut script = TURN_1.to_vec();
        script.extend([(D4, 2), (D4, 2), (D6, 4), (D6, 5), (D4, 3)]);
        let o = run(2, &script);
        assert_eq!((o.winner, o.turns, o.survivors), (Some(Side::B), 2, [0, 1]));
    }
}
