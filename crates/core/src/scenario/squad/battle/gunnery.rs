//! Gunners in a squad battle (Ch. 8.5 Manning Guns). A unit with the Gunnery Specialty
//! rolls its d8 "rather than their Action d6" with a mounted weapon (a Launcher, Cannon or
//! ranged weapon too big for its hands; the plans are built so in `Squad::new`). A Gunner
//! with no mounted weapon of its own is crew:
//! - on its turn it walks to its side's nearest gun (a unit working a mounted weapon of 2"
//!   or more) and keeps its Action;
//! - when that gun fires, each crew Gunner in contact with it whose Action is unspent spends
//!   it on Gunnery Support, +1 each, "the number of minifigs in the firing team ... limited
//!   to the number of inches in the Weapon Size";
//! - when the gun walks, the crew in contact walk with it, as far as their own Move.
//!
//! - teamwork (Ch. 8.1): when a gun's Power requirement is beyond its unit's own Power, crew
//!   Gunners in contact whose Action is unspent add theirs until it is met, spending their
//!   Action on it (not on Gunnery Support as well: one Action buys one thing).
//!
//! - homing in (Ch. 8.5): a gun that fires again at the target it last fired at, neither
//!   having moved, keeps the Gunnery Support bonus it built on it and adds this Action's;
//!   a Critical Failure, a move or another target starts it over ([`Homing`]).

use super::*;
use crate::dice::Log;
use crate::rules::combat;

/// A gun's homing in on its target (Ch. 8.5: "For each new attack they can add new Gunnery
/// Support bonuses to the bonuses from the previous turn"): the target it last fired at,
/// where both stood then (half-inches along the line; places across it never change), and
/// the bonus built on it. Kept in `Field::homing`, beside the figures.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct Homing {
    /// 1 + the target's slot (0: none).
    target: u8,
    gun_at: Spot,
    target_at: Spot,
    bonus: i32,
}

impl Homing {
    pub const NONE: Homing = Homing {
        target: 0,
        gun_at: (0.0, 0.0),
        target_at: (0.0, 0.0),
        bonus: 0,
    };
}

impl Squad {
    /// Gun `g`'s Action bonus for a shot at `t` with this Action's Gunnery `support` (Ch.
    /// 8.5 homing in): "the Action Bonuses from Gunnery Support can be considered permanent
    /// until the weapon moves or aims somewhere else", and homing in adds each new Action's
    /// to them; a gun that moved or aims at another target starts from `support`.
    pub(super) fn home_in<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        g: usize,
        t: usize,
        support: i64,
        log: &mut L,
    ) -> i64 {
        let h = fl.homing[g];
        let (gun_at, target_at) = (fl.at(g), fl.at(t));
        let kept = if h.target == t as u8 + 1 && h.gun_at == gun_at && h.target_at == target_at {
            h.bonus as i64
        } else {
            0
        };
        if kept > 0 {
            log.note(format_args!(
                "    homing in on {}: +{kept} from its earlier shots",
                Who(self, fl, t)
            ));
        }
        let bonus = (kept + support).clamp(0, i32::MAX as i64);
        fl.homing[g] = Homing {
            target: t as u8 + 1,
            gun_at,
            target_at,
            bonus: bonus as i32,
        };
        bonus
    }

    /// Unit `g` Critically Failed its Action roll: "any Critical Failure cancels the homing
    /// in bonus and requires the Gunners to start over" (Ch. 8.5).
    #[inline]
    pub(super) fn lose_homing(&self, fl: &mut Field, g: usize) {
        fl.homing[g] = Homing::NONE;
    }

    /// The gun crew unit `i` serves: the nearest unit of its side working a mounted weapon
    /// of 2" or more (ties to the lower slot).
    fn gun_of(&self, fl: &Field, i: usize) -> Option<usize> {
        let me = fl.f[i];
        (0..self.units)
            .filter(|&g| {
                let f = fl.f[g];
                g != i && f.alive && f.side == me.side && self.kinds[f.kind as usize].team >= 2
            })
            .min_by_key(|&g| (fl.gap(g, i), g))
    }

    /// A crew Gunner's turn: it walks to its gun and keeps its Action for Gunnery Support.
    /// Returns false when its side has no gun left (it fights as any unit).
    pub(super) fn crew_turn<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, log: &mut L) -> bool {
        let Some(g) = self.gun_of(fl, i) else {
            return false;
        };
        let step = fl
            .gap(g, i)
            .min(self.kinds[fl.f[i].kind as usize].move_halves);
        if step > 0 {
            self.walk_to(fl, i, fl.at(g), step);
            fl.moved(fl.f[i].side);
            log.note(format_args!(
                "  {} moves {}\" to crew {}",
                Who(self, fl, i),
                step as f64 / 2.0,
                Who(self, fl, g)
            ));
        }
        true
    }

    /// Whether unit `j` is crew of gun `g`'s side standing in contact with it, with its
    /// Action unspent and on its feet: one who may help work the gun now.
    fn crew_ready(&self, fl: &Field, g: usize, j: usize) -> bool {
        let f = fl.f[j];
        j != g
            && f.alive
            && f.side == fl.f[g].side
            && !f.acted
            && !f.disrupted
            && self.kinds[f.kind as usize].crew()
            && fl.gap(j, g) <= CONTACT
    }

    /// Gunnery Support for unit `g` firing its mounted weapon (Ch. 8.5): each crew Gunner of
    /// its side in contact with it, a minifig whose Action is unspent, spends it for +1,
    /// while the firing team stays within the gun's Weapon Size. Returns the bonus.
    pub(super) fn support<L: Log + ?Sized>(&self, fl: &mut Field, g: usize, log: &mut L) -> i64 {
        let team = self.kinds[fl.f[g].kind as usize].team;
        let mut n = 0;
        for j in 0..self.units {
            if combat::gunnery_support(n + 1, team).is_none() {
                break;
            }
            // Gunnery Support is a minifig's (Ch. 8.5).
            if !self.crew_ready(fl, g, j) || !self.kinds[fl.f[j].kind as usize].minifig {
                continue;
            }
            fl.f[j].acted = true;
            fl.f[j].saved = false;
            n += 1;
        }
        if n > 0 {
            log.note(format_args!(
                "    Gunnery Support from {n} Gunner{}: +{n}",
                crate::plural::s(n)
            ));
        }
        n as i64
    }

    /// Teamwork for unit `g` working a weapon `short` inches beyond its own Power (Ch. 8.1):
    /// the crew Gunners of its side in contact whose Action is unspent add their Power, in
    /// slot order, until `short` is met, and spend their Action on it. Returns false and
    /// spends nothing when those in contact fall short.
    #[cold]
    #[inline(never)]
    pub(super) fn teamwork<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        g: usize,
        short: u32,
        log: &mut L,
    ) -> bool {
        let mut lent = 0u32;
        let mut team = 0u128;
        for j in 0..self.units {
            if lent >= short {
                break;
            }
            if !self.crew_ready(fl, g, j) {
                continue;
            }
            lent += self.kinds[fl.f[j].kind as usize].power.inches(fl.f[j].size);
            team |= 1 << j;
        }
        if lent < short {
            return false;
        }
        for j in (0..self.units).filter(|&j| team & (1 << j) != 0) {
            fl.f[j].acted = true;
            fl.f[j].saved = false;
        }
        log.note(format_args!(
            "    teamwork: {} crew lend {lent}\" of Power to {} (Ch. 8.1)",
            team.count_ones(),
            Who(self, fl, g)
        ));
        true
    }

    /// Gunnery Support for unit `g`'s ranged Action at `t` with the weapons `chosen` (a bit
    /// each), if one of them is mounted and `g` works a gun of 2" or more, homed in.
    #[cold]
    #[inline(never)]
    pub(super) fn mounted_support<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        g: usize,
        t: usize,
        chosen: u64,
        log: &mut L,
    ) -> i64 {
        let k = &self.kinds[fl.f[g].kind as usize];
        let mounted = (0..k.arms.len()).any(|w| chosen & (1 << w) != 0 && k.arms[w].mounted);
        if k.team >= 2 && mounted {
            let support = self.support(fl, g, log);
            self.home_in(fl, g, t, support, log)
        } else {
            0
        }
    }

    /// Gun `g` walked from `from`: its crew in contact there walk with it, each as far as its
    /// own Move allows.
    #[cold]
    #[inline(never)]
    pub(super) fn carry<L: Log + ?Sized>(&self, fl: &mut Field, g: usize, from: Spot, log: &mut L) {
        let to = fl.at(g);
        for j in 0..self.units {
            let f = fl.f[j];
            if j == g
                || !f.alive
                || f.disrupted
                || f.side != fl.f[g].side
                || !self.kinds[f.kind as usize].crew()
                || fl.gap_to(j, from) > CONTACT
            {
                continue;
            }
            let step = fl
                .gap_to(j, to)
                .min(self.kinds[f.kind as usize].move_halves);
            if step > 0 {
                let h = fl.toward(j, to);
                fl.step(j, h, step);
                fl.moved(fl.f[j].side);
                log.note(format_args!(
                    "  {} moves {}\" with its gun",
                    Who(self, fl, j),
                    step as f64 / 2.0
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::dice::Script;

    const D8: Die = Die::D8;

    #[test]
    fn a_gunner_rolls_its_d8_with_a_mounted_cannon_and_its_crew_adds_one() {
        // A Gunner working a 2" Cannon (Use 5, Range 8"; mounted, too big for its hands)
        // rolls d8, not d6 (Ch. 8.5), here at a minifig 7" off. A crew Gunner beside it
        // gives Gunnery Support: +1, and the team of two is all a 2" gun takes.
        let o = RuleOptions::default();
        let s = squad_on_spot(&[("gunner-cannon", 1), ("gunner", 2)], &[MF], 7, o);
        let mut fl = s.start();
        let support = s.support(&mut fl, 0, &mut NoLog);
        assert_eq!(support, 1, "one supporter: the team is at most 2\"");
        assert!(fl.f[1].acted && !fl.f[2].acted);
        // Its shot: a d8 of 4 + 1 = 5 hits Use 5 and bursts on the target (2d10 Exp: 6 and
        // 5 against Armor 4 in the first ring).
        let mut fl = s.start();
        let mut dice = Script::new(&[(D8, 4), (Die::D10, 6), (Die::D10, 5)]);
        let shot = s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert_eq!(shot, super::super::explosives::Shot::Fired);
        assert!(dice.is_done(), "a hit: no scatter dice");
        assert!(!fl.f[3].alive);
        // Without the crew, the 4 misses by 1: it comes down 1" off (two d20s for the
        // direction), and its 1 and 1 do not beat Armor 4.
        let s = squad_on_spot(&[("gunner-cannon", 1)], &[MF], 7, o);
        let mut fl = s.start();
        #[rustfmt::skip]
        let mut dice = Script::new(&[
            (D8, 4), (Die::D20, 1), (Die::D20, 1), (Die::D10, 1), (Die::D10, 1),
        ]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert!(fl.f[1].alive);
    }

    #[test]
    fn issue_40_a_gun_homes_in_on_a_target_that_stays_put() {
        // The 2" Cannon (Use 5) and one crew Gunner, a minifig 7" off. Turn 1: 4 + 1 = 5
        // hits, 1 and 1 do not beat Armor 4. Turn 2 it reloads. Turn 3: the crew's +1 adds
        // to the +1 kept from turn 1 (neither moved): 3 + 2 = 5 hits again. Without homing
        // in, 3 + 1 misses and the script would run out on the scatter's d20s.
        let o = RuleOptions::default();
        let s = squad_on_spot(&[("gunner-cannon", 1), ("gunner", 1)], &[MF], 7, o);
        let mut fl = s.start();
        let t = 2;
        let mut dice = Script::new(&[(D8, 4), (Die::D10, 1), (Die::D10, 1)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.f[t].alive);
        for _ in 0..2 {
            // B's turn passes (its minifig gets up from the blast's KnockBack: no +1 for a
            // Disrupted target), then A's.
            s.new_turn::<false>(&mut fl, 1);
            s.new_turn::<false>(&mut fl, 0);
            assert!(!fl.f[t].disrupted);
            let mut dice = Script::new(&[(D8, 3), (Die::D10, 1), (Die::D10, 1)]);
            let shot = s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
            if shot == super::super::explosives::Shot::Fired {
                assert!(dice.is_done(), "3 + 2 hits: no scatter dice");
            }
        }
        // The target moved: it starts over from this Action's +1.
        fl.f[t].pos -= 2.0;
        assert_eq!(s.home_in(&mut fl, 0, t, 1, &mut NoLog), 1);
        assert_eq!(s.home_in(&mut fl, 0, t, 1, &mut NoLog), 2);
        // A Critical Failure cancels it.
        s.lose_homing(&mut fl, 0);
        assert_eq!(s.home_in(&mut fl, 0, t, 0, &mut NoLog), 0);
    }

    /// A Gunner with a 3" Cannon on a carriage (Use 6, Range 12"): 1" beyond its 2" of
    /// Power. Side A fields `crew` crew Gunners beside it; side B one minifig 7" off.
    fn big_gun(crew: u32) -> Squad {
        let text = "[big-gun]\nname = \"G\"\nsource = \"test\"\nsize = 1\nstructure = \"0\"\n\
                    armor = \"4\"\nmove = 5\nspecialties = [\"gunnery\"]\nweapons = [{ kind = \
                    \"cannon\", size = 3, mount = \"carriage\" }, { kind = \"explosive\", size = 1 }]\n";
        let c = Catalog::with_text("t.toml", text).unwrap();
        let o = RuleOptions::default();
        let mut a = vec![("big-gun".to_string(), 1)];
        if crew > 0 {
            a.push(("gunner".to_string(), crew));
        }
        // On one spot: the crew in contact with their gun.
        let a = SideSpec::from_catalog(&c, &a, on_spot(), &o).unwrap();
        Squad::new(a, side_on_spot(&[MF], &o), 7, First::A, 50, o).unwrap()
    }

    #[test]
    fn issue_40_crew_lend_their_power_to_a_gun_beyond_its_own_by_teamwork() {
        // Ch. 8.1 Teamwork: the crew Gunner in slot 1 lends its 2" (3" met), spending its
        // Action; the one in slot 2 gives Gunnery Support (+1, a team of 2 within 3"). The
        // d8's 5 + 1 meets Use 6; the XSize 1 round's 1d10 of 5 beats Armor 4.
        let s = big_gun(2);
        assert!(s.kinds[0].explosives.is_some() && s.kinds[0].inert.is_empty());
        let mut fl = s.start();
        let mut dice = Script::new(&[(D8, 5), (Die::D10, 5)]);
        let mut told = crate::dice::Narration::default();
        let shot = s.fire_explosives(&mut fl, 0, &mut dice, &mut told);
        assert_eq!(shot, super::super::explosives::Shot::Fired);
        assert!(dice.is_done() && !fl.f[3].alive);
        assert!(fl.f[1].acted && fl.f[2].acted);
        assert!(
            told.notes()
                .iter()
                .any(|n| n.contains("teamwork: 1 crew lend 2\"")),
            "{:?}",
            told.notes()
        );
        // With its crew out of contact, the gun cannot be worked: no shot, no dice.
        let mut fl = s.start();
        fl.f[1].pos -= 10.0;
        fl.f[2].pos -= 10.0;
        let mut dice = Script::new(&[]);
        let shot = s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert_eq!(shot, super::super::explosives::Shot::No);
        assert!(!fl.f[1].acted && !fl.f[2].acted);
        // A side with no crew: the Cannon is inert, named with why, and the round is thrown.
        let s = big_gun(0);
        let k = &s.kinds[0];
        assert!(
            k.inert
                .iter()
                .any(|x| x.why.contains("3\" of Power") && x.why.contains("teamwork")),
            "{:?}",
            k.inert
        );
        assert_eq!(k.explosives.unwrap().delivery.range, 3, "thrown");
    }

    #[test]
    fn issue_40_teamwork_works_a_mounted_gun_beyond_its_firers_power() {
        // A minifig (2" of Power) with a 3" Gun on a carriage (Use 5, 3d6) and a crew Gunner
        // beside it, 7" from a minifig: the Gunner lends 2" (Ch. 8.1) and spends its Action;
        // 5 meets Use 5, and 3 + 1 + 1 = 5 beats Armor 4.
        let text = "[big-rifle]\nname = \"R\"\nsource = \"test\"\nsize = 1\nstructure = \"0\"\n\
                    armor = \"4\"\nmove = 5\nweapons = [{ kind = \"gun\", size = 3, mount = \
                    \"carriage\" }]\n";
        let c = Catalog::with_text("t.toml", text).unwrap();
        let o = RuleOptions::default();
        let units = [("big-rifle".to_string(), 1), ("gunner".to_string(), 1)];
        let a = SideSpec::from_catalog(&c, &units, on_spot(), &o).unwrap();
        let s = Squad::new(a, side_on_spot(&[MF], &o), 7, First::A, 50, o).unwrap();
        let mut fl = s.start();
        let mut dice = Script::new(&[(D6, 5), (D6, 3), (D6, 1), (D6, 1)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[2].alive);
        assert!(fl.f[1].acted, "the crew's Action went into the gun");
        // Its crew out of contact: the gun stays silent (no dice drawn).
        let mut fl = s.start();
        fl.f[1].pos -= 10.0;
        let mut dice = Script::new(&[]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(fl.f[2].alive && !fl.f[1].acted);
    }

    #[test]
    fn crew_walk_to_their_gun_and_with_it() {
        // A crew Gunner 3" from its gun walks to it and keeps its Action; when the gun walks
        // 2", the crew in contact walk with it.
        let o = RuleOptions::default();
        let s = squad_on_spot(&[("gunner-cannon", 1), ("gunner", 1)], &[MF], 20, o);
        let mut fl = s.start();
        fl.f[1].pos = -6.0;
        assert!(s.crew_turn(&mut fl, 1, &mut NoLog));
        assert_eq!(fl.f[1].pos, 0.0);
        assert!(!fl.f[1].acted);
        fl.f[0].pos = 4.0;
        s.carry(&mut fl, 0, (0.0, 0.0), &mut NoLog);
        assert_eq!(fl.f[1].pos, 4.0);
        // A side of crew and no gun is refused, with a hint.
        let e = Squad::new(
            side_on_spot(&[("gunner", 2)], &o),
            side_on_spot(&[MF], &o),
            8,
            First::A,
            50,
            o,
        )
        .unwrap_err();
        assert!(e.to_string().contains("gunner-cannon"), "{e}");
    }
}
