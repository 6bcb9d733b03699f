//! Limbs in a squad duel (Ch. 10.2 Effects of Amputation): a unit's Amputations (from
//! Ker-Triage!) or lost Modular Parts (a Construct's) and what they cost it: Move, Half
//! Speed, no legs (no Move, no Sprint, Close Combat attacks hit it automatically), too few
//! hands for its weapons, the head. Bodies are minifigs': two arms, two legs, a head.

use super::Field;
use crate::rules::medik::Body;
use crate::scenario::squad::Squad;
use crate::scenario::squad::kind::Arm;

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

    /// Whether Close Combat attacks on `t` hit automatically: no legs is no Move ability.
    #[inline]
    pub(super) fn legless(&self, fl: &Field, t: usize) -> bool {
        fl.f[t].lost != 0 && self.body(fl, t).immobile()
    }
}
