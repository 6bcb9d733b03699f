//! Thrown hand weapons (Ch. 8.4 Thrown Minifig Weapons): "A minifig's arms are Size ½"
//! Launchers, capable of throwing Size 0" projectiles like grenades, hand weapons, and small
//! animals", with the Minifig Throwing Arm's Range of 3", and "Thrown objects have the same
//! Use rating and do as much damage as if they had been used in Close Combat".
//!
//! A side's `throw` policy says when a unit throws: after its walk, out of Close Combat, at
//! an enemy within 3". The throw is its Action, so it gives up its Response; the weapon is
//! gone for the rest of the battle (no text lets it be picked up). Which weapons may be
//! thrown is the kind's ([`crate::scenario::squad::Kind`]'s `throwable`).

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
            How(Mode::Ranged, (fl.f[t].pos - fl.f[i].pos).abs())
        ));
        fl.thrown[i] |= 1 << w;
        fl.f[i].used |= 1 << w;
        let extra = Extra {
            action: 0,
            damage: 0,
        };
        self.strike::<false, F, L>(fl, i, w, t, Mode::Ranged, false, extra, faces, log);
        true
    }
}

#[cfg(test)]
mod tests {
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
    fn issue_40_the_last_weapon_is_thrown_only_under_last_and_then_it_is_gone() {
        // One Hand Weapon: `spare` keeps it; `last` throws it (4 hits; 3 vs Armor 4).
        let one = "minifig-hand-weapon";
        assert_eq!(run(&thrower(one, Throw::Spare, 8), &[]).winner, None);
        let mut s = thrower(one, Throw::Last, 8);
        let o = run(&s, &[(D6, 4), (D6, 3)]);
        assert_eq!(o.winner, None);
        // Turn 2: B walks into contact and misses (a natural 1); turn 3: A, unarmed, has
        // nothing left to strike with, and no die is rolled for it.
        s.max_turns = 3;
        let o = run(&s, &[(D6, 4), (D6, 3), (D6, 1)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn issue_40_two_handed_weapons_and_cannon_fodder_are_never_thrown() {
        // The Two-Handed Weapon "cannot be thrown" (Ch. 8.1's Long weapons); Cannon Fodder
        // have "no ... throwing" (Ch. 10.4); a Hand Weapon is thrown.
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
