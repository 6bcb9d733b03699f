//! The field and movement: positions on the line (half-inches), who is nearest, who can
//! reach whom, the walk toward the enemy with its Sprint, the Responses it draws (Ch. 4.1,
//! 4.3), and KnockBack (Ch. 8.1).

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::{Knockback, combat};
use crate::scenario::squad::Response;

impl Squad {
    /// The roster's slots of a side as first fielded (for names).
    pub(super) fn own(&self, side: u8) -> std::ops::Range<usize> {
        if side == 0 {
            0..self.count[0]
        } else {
            self.count[0]..self.count[0] + self.count[1]
        }
    }

    /// The unit of `side` with the least `key` (ties to the lower slot), over the slots
    /// fighting for `side` now. Only Contagion and Stupidity move a unit between sides;
    /// without them the roster's range is scanned as is: two plain loops, because a
    /// side-checking filter on every scan cost squad duels a tenth of their speed.
    #[inline(always)]
    pub(super) fn least<K: Ord + Copy>(
        &self,
        fl: &Field,
        side: u8,
        key: impl Fn(usize) -> Option<K>,
    ) -> Option<(K, usize)> {
        let mut best: Option<(K, usize)> = None;
        let mut see = |t: usize| {
            if let Some(k) = key(t)
                && best.is_none_or(|b| (k, t) < b)
            {
                best = Some((k, t));
            }
        };
        if self.sides_move {
            for t in 0..self.roster.len() {
                if fl.f[t].side == side {
                    see(t);
                }
            }
        } else {
            for t in self.own(side) {
                see(t);
            }
        }
        best
    }

    /// The distance in half-inches to the nearest living enemy, and that enemy.
    pub(super) fn nearest(&self, fl: &Field, i: usize) -> Option<(i32, usize)> {
        let me = fl.f[i];
        self.least(fl, 1 - me.side, |t| {
            fl.f[t].alive.then(|| (fl.f[t].pos - me.pos).abs())
        })
    }

    /// Whether unit `i` can attack anyone from where it stands.
    pub(super) fn can_attack(&self, fl: &Field, i: usize) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        let reach = k.reach().map_or(CONTACT, |r| (2 * r as i32).max(CONTACT));
        self.nearest(fl, i).is_some_and(|(d, _)| d <= reach)
    }

    /// Whether some weapon of unit `i` reaches the nearest enemy.
    pub(super) fn weapon_reaches(&self, fl: &Field, i: usize) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        self.nearest(fl, i).is_some_and(|(d, _)| {
            k.arms
                .iter()
                .any(|a| (a.close && d <= CONTACT) || a.range.is_some_and(|r| 2 * r as i32 >= d))
        })
    }

    /// Enemies with a saved Action strike the unit that just moved (policy `response`).
    pub(super) fn respond<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        mover: usize,
        moved: i32,
        faces: &mut F,
        log: &mut L,
    ) {
        let them = 1 - fl.f[mover].side;
        let policy = self.policy[them as usize].response;
        if policy == Response::None {
            return;
        }
        let slots = if self.sides_move {
            0..self.roster.len()
        } else {
            self.own(them)
        };
        for j in slots {
            if !fl.f[mover].alive {
                return;
            }
            let r = fl.f[j];
            if r.side != them || !r.alive || !r.saved || r.disrupted {
                continue;
            }
            let d = (r.pos - fl.f[mover].pos).abs();
            let k = &self.kinds[r.kind as usize];
            let in_range = k.reach().is_some_and(|x| 2 * x as i32 >= d);
            let strikes = d <= CONTACT || (policy == Response::All && moved >= 2 && in_range);
            if strikes {
                log.note(format_args!(
                    "  {} responds with its saved Action",
                    Who(self, fl, j)
                ));
                fl.f[j].saved = false;
                self.action(fl, j, Some(mover), faces, log);
            }
        }
    }

    /// A hit from a sized weapon larger than its target pushes it straight away from the
    /// attacker (option `knockback`, Ch. 8.1).
    pub(super) fn knock_back<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        log: &mut L,
    ) {
        if self.opts.knockback == Knockback::Off {
            return;
        }
        let ws = self.kinds[fl.f[i].kind as usize].arms[w].power.unwrap_or(0);
        let inches = combat::knockback(ws, fl.f[t].size) as i32;
        if inches == 0 {
            return;
        }
        let away = match (fl.f[t].pos - fl.f[i].pos).signum() {
            0 if fl.f[t].side == 0 => -1, // side A's back is toward 0
            0 => 1,
            s => s,
        };
        fl.f[t].pos += away * 2 * inches;
        log.note(format_args!(
            "    {} is knocked back {inches}\"",
            Who(self, fl, t)
        ));
        if self.opts.knockback == Knockback::Disrupt {
            fl.f[t].disrupted = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn a_saved_action_strikes_the_unit_that_closes_in() {
        // 8" apart. Turn 1: A moves 5" (3" left), cannot attack, saves its Action. Turn 2: B
        // moves 2" into contact; A's Response comes first (Ch. 4.1): hit (4), Damage 3, no
        // effect. B survives and attacks: hit (5), Damage 6 > 4. A dies.
        let s = squad(&[MF], &[MF], 8, RuleOptions::default());
        let o = run(&s, &[(D6, 4), (D6, 3), (D6, 5), (D6, 6), (D6, 2)]);
        assert_eq!(o.winner, Some(Side::B));
        assert_eq!(o.turns, 2);
        // With no Response, B strikes first and A never rolls: B's 6 earns an Overskill
        // Benny, which adds a Damage die (auto): 1 + 2 = 3, no effect; then A's turn 3.
        let ro = RuleOptions::default();
        let mut a = side(&[MF], &ro);
        a.policy.response = Response::None;
        let s = Squad::new(a, side(&[MF], &ro), 8, First::A, 3, ro).unwrap();
        let o = run(&s, &[(D6, 6), (D6, 1), (D6, 2), (D6, 1)]);
        assert_eq!(o.winner, None, "a draw at the 3-turn limit");
        assert_eq!(o.turns, 3);
    }

    #[test]
    fn shooters_fire_from_range_without_closing() {
        // A Short-Ranged Weapon (6") at 6": A shoots at once; B (a Hand Weapon) must walk.
        let s = squad(&[("minifig-pistol", 1)], &[MF], 6, RuleOptions::default());
        // A: 3 meets Use 3, Damage 5 > 4.
        let o = run(&s, &[(D6, 3), (D6, 5)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
    }

    #[test]
    fn sprinting_closes_the_gap_but_spends_the_action() {
        // 12" apart, Sprint policy close: A moves 5" and Sprints a Skill roll of 4 (9" of 11"
        // wanted); no attack. B then walks 2" into contact; A's Action went on the Sprint, so
        // no Response: B attacks (2 hits, Damage 1).
        let ro = RuleOptions::default();
        let mut a = side(&[MF], &ro);
        a.policy.sprint = Sprint::Close;
        let mut s = Squad::new(a, side(&[MF], &ro), 12, First::A, 2, ro).unwrap();
        s.max_turns = 2;
        let o = run(&s, &[(D6, 4), (D6, 2), (D6, 1)]);
        assert_eq!(o.winner, None);
    }

    #[test]
    fn knockback_pushes_smaller_targets_away() {
        // Ch. 8.1: the Automaton's 3" Giant Sword knocks a 1" minifig back 2" (4 half-inches),
        // away from the attacker; `disrupt` also knocks him over; `off` does nothing.
        for (kb, pos, disrupted) in [
            (Knockback::Push, 4, false),
            (Knockback::Disrupt, 4, true),
            (Knockback::Off, 0, false),
        ] {
            let mut o = RuleOptions::default();
            o.knockback = kb;
            let s = Squad::new(
                side(&[("automaton", 1)], &o),
                side(&[MF], &o),
                0,
                First::A,
                1,
                o,
            )
            .unwrap();
            let mut fl = standing(&s, 0);
            s.knock_back(&mut fl, 0, 0, 1, &mut NoLog);
            assert_eq!((fl.f[1].pos, fl.f[1].disrupted), (pos, disrupted), "{kb:?}");
            // The minifig's Hand Weapon has no Weapon Size: no KnockBack on the Automaton.
            s.knock_back(&mut fl, 1, 0, 0, &mut NoLog);
            assert_eq!(fl.f[0].pos, 0);
        }
    }
}
