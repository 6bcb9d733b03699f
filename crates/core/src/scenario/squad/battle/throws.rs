//! Thrown hand weapons (Ch. 8.4 Thrown Minifig Weapons): "A minifig's arms are Size ½"
//! Launchers, capable of throwing Size 0" projectiles like grenades, hand weapons, and small
//! animals", with the Minifig Throwing Arm's Range of 3", and "Thrown objects have the same
//! Use rating and do as much damage as if they had been used in Close Combat".
//!
//! A side's `throw` policy says when a unit throws: after its walk, out of Close Combat, at
//! an enemy within 3". The throw is its Action, so it gives up its Response. The weapon
//! falls at its target's feet (diemon's reading: the texts say nothing of where a thrown
//! weapon lands), and the thrower picks it up when it stands within an inch of that spot at
//! the start of its turn or after its walk: "Picking up or dropping items (no cost)" (Ch.
//! 4.1). Which weapons may be thrown is the kind's ([`crate::scenario::squad::Kind`]'s
//! `throwable`).

use super::strike::Extra;
use super::*;
use crate::dice::{Faces, Log};
use crate::scenario::squad::Throw;

/// The Minifig Throwing Arm's Range, 3" (Ch. 8.4), in half-inches.
const THROW_RANGE: i32 = 6;

impl Squad {
    /// Unit `i`, out of Close Combat after its walk, throws a hand weapon as its side's
    /// `throw` policy says: its weakest throwable weapon not thrown or used this turn (under
    /// `spare`, only while another Close Combat weapon stays in hand), at the enemy its
    /// target policy picks within 3". A ranged attack with the weapon's own Use and Damage.
    /// Returns whether it threw (its Action is spent).
    #[cold]
    #[inline(never)]
    pub(super) fn throw<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let policy = self.policy[fl.f[i].side as usize].throw;
        if policy == Throw::Never {
            return false;
        }
        let k = &self.kinds[fl.f[i].kind as usize];
        let gone = fl.thrown[i] | fl.f[i].used;
        // Weapons are ordered strongest first: the weakest throwable is the last.
        let Some(w) = (0..k.arms.len())
            .rev()
            .find(|&w| k.arms[w].throwable && gone & (1 << w) == 0)
        else {
            return false;
        };
        let kept = k
            .arms
            .iter()
            .enumerate()
            .any(|(v, a)| v != w && a.close && fl.thrown[i] & (1 << v) == 0);
        if policy == Throw::Spare && !kept {
            return false;
        }
        let Some(t) = self.pick::<false>(fl, i, Mode::Ranged, THROW_RANGE) else {
            return false;
        };
        log.note(format_args!(
            "  {} throws its {} at {} ({})",
            Who(self, fl, i),
            k.arms[w].name,
            Who(self, fl, t),
            How(Mode::Ranged, fl.gap(t, i))
        ));
        fl.thrown[i] |= 1 << w;
        fl.fell[i] = fl.at(t);
        fl.f[i].used |= 1 << w;
        let extra = Extra {
            action: 0,
            damage: 0,
        };
        self.strike::<false, F, L>(fl, i, w, t, Mode::Ranged, false, extra, faces, log);
        true
    }

    /// Unit `i` picks up the weapons it threw if it stands within an inch of where they
    /// fell, at no cost (Ch. 4.1 "Picking up or dropping items (no cost)"), ready for this
    /// turn's Action: a unit picks up only before its own throw of the turn, so what it
    /// picks up was thrown in an earlier turn.
    pub(super) fn pick_up<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, log: &mut L) {
        if fl.thrown[i] == 0 || fl.gap_to(i, fl.fell[i]) > CONTACT {
            return;
        }
        fl.f[i].used &= !fl.thrown[i];
        fl.thrown[i] = 0;
        log.note(format_args!(
            "  {} picks up what it threw",
            Who(self, fl, i)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::CONTACT;
    use super::super::testing::*;
    use crate::scenario::squad::{Position, Throw};

    /// `a` (advancing, throwing by `throw`) against one Hand-Weapon minifig `d` inches
    /// off, one player turn, A first.
    fn thrower(a: &str, throw: Throw, d: u32) -> Squad {
        let o = RuleOptions::default();
        let p = Policy {
            throw,
            position: Position::Advance,
            ..Policy::default()
        };
        let mut s = Squad::new(
            side_with(&[(a, 1)], p, &o),
            side(&[MF], &o),
            d,
            First::A,
            50,
            o,
        )
        .unwrap();
        s.max_turns = 1;
        s
    }

    #[test]
    fn issue_40_a_minifig_throws_a_spare_hand_weapon_within_three_inches() {
        // Ch. 8.4: two Hand Weapons, 8" off. A walks 5" to 3", out of Close Combat, and
        // throws one at the Hand Weapon's Use 2 and Damage 1d6: 4 hits, 5 > Armor 4.
        let two = "minifig+hand-weapon+hand-weapon";
        let o = run(&thrower(two, Throw::Spare, 8), &[(D6, 4), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::A));
        // Never: it keeps both and its Action; no die is rolled.
        let o = run(&thrower(two, Throw::Never, 8), &[]);
        assert_eq!(o.winner, None);
        // 9" off, it stops 4" away: beyond the arm's 3", no throw.
        let o = run(&thrower(two, Throw::Spare, 9), &[]);
        assert_eq!(o.winner, None);
    }

    #[test]
    fn issue_40_the_last_weapon_is_thrown_only_under_last_and_picked_up_where_it_fell() {
        // One Hand Weapon: `spare` keeps it; `last` throws it (4 hits; 3 vs Armor 4). It
        // falls at B's feet, 3" off.
        let one = "minifig-hand-weapon";
        assert_eq!(run(&thrower(one, Throw::Spare, 8), &[]).winner, None);
        let mut s = thrower(one, Throw::Last, 8);
        let o = run(&s, &[(D6, 4), (D6, 3)]);
        assert_eq!(o.winner, None);
        // Turn 2: B walks 2" into contact and misses (a natural 1). Turn 3: A stands in
        // Close Combat 3" from where its weapon fell (behind B now), so it has nothing to
        // strike with, and no die is rolled for it.
        s.max_turns = 3;
        let o = run(&s, &[(D6, 4), (D6, 3), (D6, 1)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // The weapon is out of its hands until it stands within an inch of the spot; then
        // it is picked up at no cost (Ch. 4.1).
        let mut fl = s.start();
        fl.thrown[0] = 1;
        fl.fell[0] = fl.ahead(0, (1.0, 0.0), 2 * CONTACT);
        s.pick_up(&mut fl, 0, &mut NoLog);
        assert_eq!(fl.thrown[0], 1, "2\" from the spot: still on the ground");
        fl.fell[0] = fl.ahead(0, (1.0, 0.0), CONTACT);
        s.pick_up(&mut fl, 0, &mut NoLog);
        assert_eq!(fl.thrown[0], 0, "1\" from it: picked up");
    }

    #[test]
    fn issue_40_two_handed_weapons_and_cannon_fodder_are_never_thrown() {
        // The Two-Handed Weapon "cannot be thrown" (Ch. 8.1's Long weapons); Cannon Fodder
        // have "zero throwing ability" (Ch. 10.4); a Hand Weapon is thrown.
        let kinds = |a: &str| {
            let s = thrower(a, Throw::Last, 8);
            s.kinds[0]
                .arms
                .iter()
                .map(|x| x.throwable)
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds("minifig+two-handed-weapon"), [false]);
        assert_eq!(kinds("cannon-fodder"), [false]);
        assert_eq!(kinds("minifig-hand-weapon"), [true]);
        assert!(!thrower("cannon-fodder", Throw::Last, 8).any_throw);
    }
}
