//! The Medik (Ch. 10.2): Ker-Triage! revives a fallen minifig or Creature at the price of
//! Amputations, and the Effects of Amputation on what the patient can still do.
//!
//! - [`triage_die`]: 1d8 with medikal Tools, 1d6 without (a bladed weapon), one die size up
//!   per assisting Medik, to 1d12.
//! - [`triage`]: the table (5+ none, 4 one, 3 two, 2 three Amputations; a Critical Failure
//!   takes the head) and [`triage_exact`], its exact chances.
//! - [`Body`]: a patient's limbs, Amputations in the order of an [`Amputate`] policy (the
//!   text leaves the choice of limbs to the players), and what they cost: Move, Half Speed,
//!   two-handed weapons, any weapon at all, Actions, life.

use crate::dice::{Die, DieEvent, Faces, Log, Role};

/// What Ker-Triage! prescribes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Triage {
    /// Revived after this many Amputations (0 to 3).
    Amputations(u32),
    /// "Crit Fail: Head Amputated": a one-headed patient is dead beyond revival.
    Head,
}

/// The Ker-Triage! die: "1d8 ... Additional Medix at the scene can assist ..., each
/// increasing the die rolled by one die size, to a maximum of 1d12. A Medik without his
/// Tools ... rolls 1d6 rather than 1d8."
pub fn triage_die(tools: bool, assistants: u32) -> Die {
    const UP: [Die; 4] = [Die::D6, Die::D8, Die::D10, Die::D12];
    let start = if tools { 1 } else { 0 };
    UP[(start + assistants as usize).min(UP.len() - 1)]
}

/// The Ker-Triage! table for a natural roll. A Bonus Die on the top face changes nothing:
/// every top face is already 5 or more.
pub fn triage(face: u32) -> Triage {
    match face {
        1 => Triage::Head,
        2 => Triage::Amputations(3),
        3 => Triage::Amputations(2),
        4 => Triage::Amputations(1),
        _ => Triage::Amputations(0),
    }
}

/// Rolls Ker-Triage! on `die`.
pub fn roll_triage<F: Faces + ?Sized, L: Log + ?Sized>(
    die: Die,
    faces: &mut F,
    log: &mut L,
) -> Triage {
    let face = faces.face(die);
    log.die(DieEvent {
        term: 0,
        die,
        face,
        role: Role::Skill,
        counted: face as i64,
    });
    triage(face)
}

/// Exact chances of each Ker-Triage! result on `die`: P(0, 1, 2, 3 Amputations), then
/// P(head).
pub fn triage_exact(die: Die) -> [f64; 5] {
    let n = die.sides() as f64;
    let one = 1.0 / n;
    // Faces 2, 3, 4 give 3, 2, 1 Amputations; 5 and up none; 1 the head.
    [(n - 4.0) / n, one, one, one, one]
}

/// Which limbs the players give up first (the text leaves the choice to them: "Arms and
/// legs are the most common limbs chosen").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Amputate {
    /// Arms first: the patient keeps walking (a runner, a blocker).
    #[cfg_attr(feature = "clap", value(name = "arms_first"))]
    ArmsFirst,
    /// Legs first: the patient keeps its weapons (a gunner who can still shoot).
    #[default]
    #[cfg_attr(feature = "clap", value(name = "legs_first"))]
    LegsFirst,
}

impl Amputate {
    /// The wire names, in declaration order.
    pub const NAMES: [&'static str; 2] = ["legs_first", "arms_first"];

    /// By its wire name.
    pub fn parse(s: &str) -> Option<Amputate> {
        match s {
            "legs_first" => Some(Amputate::LegsFirst),
            "arms_first" => Some(Amputate::ArmsFirst),
            _ => None,
        }
    }

    /// Its wire name.
    pub fn name(self) -> &'static str {
        match self {
            Amputate::LegsFirst => "legs_first",
            Amputate::ArmsFirst => "arms_first",
        }
    }
}

/// A creature's limbs as Amputation counts them (tails do not count).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Body {
    /// Arms left.
    pub arms: u32,
    /// Legs left.
    pub legs: u32,
    /// Heads left.
    pub heads: u32,
    /// Limbs it was born with, for "reduced by half".
    pub full_arms: u32,
    /// Legs it was born with.
    pub full_legs: u32,
}

impl Body {
    /// A minifig: two arms, two legs, one head.
    pub const MINIFIG: Body = Body {
        arms: 2,
        legs: 2,
        heads: 1,
        full_arms: 2,
        full_legs: 2,
    };

    /// Takes `n` Amputations in `order`; with no arm or leg left, the head goes ("If there
    /// are not enough regular limbs ... the Medik has no choice but to Amputate the head").
    pub fn amputate(&mut self, n: u32, order: Amputate) {
        for _ in 0..n {
            let (first, second) = match order {
                Amputate::LegsFirst => (&mut self.legs, &mut self.arms),
                Amputate::ArmsFirst => (&mut self.arms, &mut self.legs),
            };
            if *first > 0 {
                *first -= 1;
            } else if *second > 0 {
                *second -= 1;
            } else {
                self.heads = self.heads.saturating_sub(1);
            }
        }
    }

    /// "all heads lost: Death".
    pub fn alive(&self) -> bool {
        self.heads > 0
    }

    /// Move in inches after lost legs: -1" a leg (not below 1" while a leg remains), then
    /// Half Speed once half the legs are gone (rounded down, as Ch. 4.1's Half Speed);
    /// no legs: 0" ("may use Action to drag self the length of remaining arms").
    pub fn move_inches(&self, base: u32) -> u32 {
        if self.legs == 0 {
            return 0;
        }
        let lost = self.full_legs - self.legs;
        let m = base.saturating_sub(lost).max(1);
        if 2 * lost >= self.full_legs && lost > 0 {
            m / 2
        } else {
            m
        }
    }

    /// "reduced to one arm: may not use two-handed equipment".
    pub fn two_handed(&self) -> bool {
        self.arms >= 2
    }

    /// "all arms lost: may not hold items or use devices".
    pub fn holds_items(&self) -> bool {
        self.arms > 0
    }

    /// Actions a turn: "1 head lost: -1 Action".
    pub fn actions(&self, base: u32) -> u32 {
        let lost = 1u32.saturating_sub(self.heads.min(1));
        base.saturating_sub(lost)
    }

    /// With no legs it has no Move ability: "all Close Combat attacks against it
    /// automatically hit".
    pub fn immobile(&self) -> bool {
        self.legs == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{NoLog, Script};

    #[test]
    fn ker_triage_table_by_the_text() {
        // "5+ No Amputations / 4 1 Amputation / 3 2 Amputations / 2 3 Amputations / Crit
        // Fail Head Amputated".
        let mut d = Script::new(&[
            (Die::D8, 8),
            (Die::D8, 5),
            (Die::D8, 4),
            (Die::D8, 3),
            (Die::D8, 2),
            (Die::D8, 1),
        ]);
        let got: Vec<Triage> = (0..6)
            .map(|_| roll_triage(Die::D8, &mut d, &mut NoLog))
            .collect();
        assert_eq!(
            got,
            [
                Triage::Amputations(0),
                Triage::Amputations(0),
                Triage::Amputations(1),
                Triage::Amputations(2),
                Triage::Amputations(3),
                Triage::Head
            ]
        );
        assert!(d.is_done());
    }

    #[test]
    fn tools_and_assistants_set_the_die() {
        assert_eq!(triage_die(true, 0), Die::D8);
        assert_eq!(triage_die(false, 0), Die::D6);
        assert_eq!(triage_die(true, 1), Die::D10);
        assert_eq!(triage_die(false, 2), Die::D10);
        // "to a maximum of 1d12".
        assert_eq!(triage_die(true, 5), Die::D12);
    }

    #[test]
    fn exact_triage_chances() {
        // A d8: 4 faces of 8 revive cleanly, each other face 1/8.
        let p = triage_exact(Die::D8);
        assert_eq!(p, [0.5, 0.125, 0.125, 0.125, 0.125]);
        let p6 = triage_exact(Die::D6);
        assert!((p6[0] - 1.0 / 3.0).abs() < 1e-15);
        for d in [Die::D6, Die::D8, Die::D10, Die::D12] {
            assert!((triage_exact(d).iter().sum::<f64>() - 1.0).abs() < 1e-15);
        }
    }

    #[test]
    fn amputations_take_limbs_in_the_policy_s_order_then_the_head() {
        let mut b = Body::MINIFIG;
        b.amputate(1, Amputate::LegsFirst);
        // One leg of two: -1" and legs reduced by half: Half Speed on top.
        assert_eq!((b.legs, b.arms, b.move_inches(5)), (1, 2, 2));
        assert!(b.two_handed());
        b.amputate(2, Amputate::LegsFirst);
        // The other leg, then an arm: no Move, one arm, no two-handed weapons.
        assert_eq!((b.legs, b.arms, b.move_inches(5)), (0, 1, 0));
        assert!(!b.two_handed() && b.holds_items() && b.immobile());
        let mut c = Body::MINIFIG;
        c.amputate(3, Amputate::ArmsFirst);
        assert_eq!((c.arms, c.legs, c.move_inches(5)), (0, 1, 2));
        assert!(!c.holds_items());
        // Five Amputations on four limbs: the head goes, and a one-headed minifig dies.
        let mut d = Body::MINIFIG;
        d.amputate(5, Amputate::LegsFirst);
        assert!(!d.alive());
        assert_eq!(d.actions(1), 0);
        assert_eq!(Body::MINIFIG.actions(1), 1);
    }
}
