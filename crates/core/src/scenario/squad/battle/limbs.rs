//! Limbs in a squad duel (Ch. 10.2 Effects of Amputation): a unit's Amputations (from
//! Ker-Triage!) or lost Modular Parts (a Construct's) and what they cost it: Move, Half
//! Speed, no legs (no Move, no Sprint, Close Combat attacks hit it automatically), too few
//! hands for its weapons, the head. Bodies are minifigs': two arms, two legs, a head.

use super::{CONTACT, Field, Who};
use crate::dice::Log;
use crate::rules::Cutting;
use crate::rules::medik::Body;
use crate::scenario::squad::Squad;
use crate::scenario::squad::kind::Arm;

/// A minifig's limbs: two arms and two legs; an Amputation past them takes the head.
pub(super) const LIMBS: u8 = 4;

/// `Figure::lost` for a unit beyond revival (its head Amputated or knocked off).
pub(super) const BEYOND: u8 = u8::MAX;

impl Squad {
    /// The body of unit `i` after its Amputations, in its side's order.
    pub(super) fn body(&self, fl: &Field, i: usize) -> Body {
        let mut b = Body::MINIFIG;
        let order = self.policy[fl.f[i].side as usize].amputate;
        b.amputate(fl.f[i].lost as u32, order);
        b
    }

    /// Unit `i`'s Move this turn in half-inches: its kind's, less its Amputations (Ch. 10.2).
    #[inline]
    pub(super) fn step(&self, fl: &Field, i: usize) -> i32 {
        let halves = self.kinds[fl.f[i].kind as usize].move_halves;
        if fl.f[i].lost == 0 {
            return halves;
        }
        2 * self.body(fl, i).move_inches((halves / 2) as u32) as i32
    }

    /// Whether unit `i`'s remaining hands can use `arm` ("reduced to one arm may not use
    /// two-handed equipment; all arms lost may not hold items").
    #[inline]
    pub(super) fn wields(&self, fl: &Field, i: usize, arm: &Arm) -> bool {
        if fl.f[i].lost == 0 || arm.hands == 0 {
            return true;
        }
        let b = self.body(fl, i);
        b.holds_items() && (arm.hands < 2 || b.two_handed())
    }

    /// Whether `i`'s weapon `w` striking `t` is a cutting weapon for Dismemberment (option
    /// `cutting`, Ch. 10.2): a Close Combat weapon striking in Close Combat, under
    /// `close_combat`; and "Dismemberment rules only apply to minifigs".
    pub(super) fn cuts(&self, fl: &Field, i: usize, w: usize, t: usize) -> bool {
        self.opts.cutting == Cutting::CloseCombat
            && self.kinds[fl.f[i].kind as usize].arms[w].close
            && fl.gap(i, t) <= CONTACT
            && self.kinds[fl.f[t].kind as usize].minifig
    }

    /// Minifig `t` "immediately suffers one Amputation of the defending player's choice"
    /// (Ch. 10.2 Dismemberment): the next limb in its side's `amputate` order, and with no
    /// limb left the head, which kills it (Ch. 10.2 Effects of Amputation).
    pub(super) fn dismember<L: Log + ?Sized>(&self, fl: &mut Field, t: usize, log: &mut L) {
        if fl.f[t].lost < LIMBS {
            fl.f[t].lost += 1;
            log.note(format_args!(
                "    {} loses a limb ({} lost)",
                Who(self, fl, t),
                fl.f[t].lost
            ));
        } else {
            log.note(format_args!("    {} loses its head", Who(self, fl, t)));
            fl.f[t].lost = BEYOND;
            self.kill(fl, t);
        }
    }

    /// Whether Close Combat attacks on `t` hit automatically: no legs is no Move ability.
    #[inline]
    pub(super) fn legless(&self, fl: &Field, t: usize) -> bool {
        fl.f[t].lost != 0 && self.body(fl, t).immobile()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::dice::Script;

    /// Two Hand-Weapon minifigs in contact under Dismemberment and option `cutting`.
    fn tie(cutting: &str, lost: u8) -> (Squad, Box<super::Field>) {
        let mut o = RuleOptions::default();
        o.assign("armor_tie=dismemberment").unwrap();
        o.assign(&format!("cutting={cutting}")).unwrap();
        let s = squad(&[MF], &[MF], 0, o);
        let mut fl = s.start();
        fl.f[1].lost = lost;
        // A hits (4 meets Use 2; a legless target is hit automatically, Ch. 10.2) for 4
        // against Armor 4: a tie.
        let script: &[_] = if lost >= super::LIMBS {
            &[(D6, 4)]
        } else {
            &[(D6, 4), (D6, 4)]
        };
        let mut dice = Script::new(script);
        let mut told = crate::dice::Narration::default();
        s.act(&mut fl, 0, &mut dice, &mut told);
        assert!(dice.is_done(), "{:?}", told.notes());
        (s, fl)
    }

    #[test]
    fn issue_40_a_cutting_weapons_tie_amputates_by_option() {
        // Ch. 10.2 Dismemberment: "hit by a cutting weapon, it immediately suffers one
        // Amputation"; "any other type of damage causes the minifig to be knocked over".
        let (_, fl) = tie("close_combat", 0);
        assert!(fl.f[1].alive && !fl.f[1].disrupted);
        assert_eq!(fl.f[1].lost, 1, "a leg first (`amputate = legs_first`)");
        let (_, fl) = tie("none", 0);
        assert!(fl.f[1].alive && fl.f[1].disrupted && fl.f[1].lost == 0);
        // With every limb gone (no legs: hit automatically) the head goes, and the minifig
        // with it.
        let (_, fl) = tie("close_combat", super::LIMBS);
        assert!(!fl.f[1].alive);
    }
}
