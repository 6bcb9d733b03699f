//! One roll of a pool: the dice sorted into what they show, the best kept, 1s cancelling,
//! and kept Roll-Agains re-rolled (the Marks text, "Types of Dice", "Keep Your Attribute
//! Dice").
//!
//! A die is a 1 (cancels a Mark), a blank, a plain Mark (5+) or a Roll-Again (6 on a d6, 9-10
//! on a d10; also a Mark). The player keeps the best dice, as many as [`Pool::keep`]:
//! d10 Roll-Agains (their re-rolls are the better), then d6 Roll-Agains, then plain Marks,
//! then blanks, then 1s. When a 1 cancels, and which Mark it takes, are rule options
//! (`marks_ones`, `marks_cancel`). Each kept Roll-Again is then re-rolled: a 5+ adds a Mark,
//! a Roll-Again again re-rolls, without limit; a re-rolled 1 cancels a Mark only under
//! `marks_reroll_ones=cancel`. The tally never goes below 0.

use super::pool::Pool;
use crate::dice::{Die, Faces};
use crate::rules::{MarksCancel, MarksOnes, MarksRerollOnes, RuleOptions};

/// How many dice of one kind showed each result.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// Dice showing 1.
    pub ones: u32,
    /// Dice showing a blank.
    pub blanks: u32,
    /// Dice showing a Mark.
    pub marks: u32,
    /// Dice that roll again.
    pub again: u32,
}

/// The kept result before re-rolls: Marks counted, and the kept Roll-Agains of each die.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kept {
    /// Marks kept.
    pub marks: u32,
    /// d10s that roll again.
    pub again10: u32,
    /// d6s that roll again.
    pub again6: u32,
}

/// What one face of `die` shows.
pub fn category(die: Die, face: u32) -> usize {
    match (die, face) {
        (_, 1) => 0,
        (_, 2..=4) => 1,
        (Die::D6, 6) | (Die::D10, 9..=10) => 3,
        _ => 2,
    }
}

/// Keeps the best `keep` dice of `d6` and `d10`, with 1s cancelling as the options say.
pub fn resolve(d6: Shown, d10: Shown, keep: u32, opts: &RuleOptions) -> Kept {
    // Mark dice by strength: plain Marks, d6 Roll-Agains, d10 Roll-Agains.
    let mut plain = d6.marks + d10.marks;
    let (mut a6, mut a10) = (d6.again, d10.again);
    let ones = d6.ones + d10.ones;
    let cancel = |n: u32, plain: &mut u32, a6: &mut u32, a10: &mut u32| {
        let mut n = n;
        let mut take = |x: &mut u32| {
            let t = n.min(*x);
            *x -= t;
            n -= t;
        };
        match opts.marks_cancel {
            MarksCancel::Weakest => {
                take(plain);
                take(a6);
                take(a10);
            }
            MarksCancel::Strongest => {
                take(a10);
                take(a6);
                take(plain);
            }
        }
    };
    match opts.marks_ones {
        MarksOnes::Roll => {
            // Every 1 rolled cancels a Mark die first; cancelled dice are blanks.
            cancel(ones, &mut plain, &mut a6, &mut a10);
            let k10 = keep.min(a10);
            let k6 = (keep - k10).min(a6);
            let kp = (keep - k10 - k6).min(plain);
            Kept {
                marks: k10 + k6 + kp,
                again10: k10,
                again6: k6,
            }
        }
        MarksOnes::Kept => {
            let k10 = keep.min(a10);
            let k6 = (keep - k10).min(a6);
            let kp = (keep - k10 - k6).min(plain);
            let blanks = d6.blanks + d10.blanks;
            let kb = (keep - k10 - k6 - kp).min(blanks);
            let k1 = (keep - k10 - k6 - kp - kb).min(ones);
            let (mut p, mut x6, mut x10) = (kp, k6, k10);
            cancel(k1, &mut p, &mut x6, &mut x10);
            Kept {
                marks: p + x6 + x10,
                again10: x10,
                again6: x6,
            }
        }
    }
}

/// Rolls `pool` once: its d6s, then its d10s, then the re-rolls of the kept Roll-Agains
/// (d10s first). Returns the Marks. Allocates nothing.
pub fn roll<F: Faces + ?Sized>(pool: &Pool, opts: &RuleOptions, faces: &mut F) -> u32 {
    let mut shown = [[0u32; 4]; 2];
    for (k, die, n) in [(0, Die::D6, pool.d6()), (1, Die::D10, pool.d10())] {
        for _ in 0..n {
            shown[k][category(die, faces.face(die))] += 1;
        }
    }
    let to = |s: [u32; 4]| Shown {
        ones: s[0],
        blanks: s[1],
        marks: s[2],
        again: s[3],
    };
    let kept = resolve(to(shown[0]), to(shown[1]), pool.keep(), opts);
    let mut total = kept.marks as i64;
    for (die, n) in [(Die::D10, kept.again10), (Die::D6, kept.again6)] {
        for _ in 0..n {
            loop {
                let c = category(die, faces.face(die));
                match c {
                    0 if opts.marks_reroll_ones == MarksRerollOnes::Cancel => total -= 1,
                    2 | 3 => total += 1,
                    _ => {}
                }
                if c != 3 {
                    break;
                }
            }
        }
    }
    total.max(0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Script;

    fn run(p: Pool, opts: &RuleOptions, script: &[(Die, u32)]) -> u32 {
        let mut dice = Script::new(script);
        let m = roll(&p, opts, &mut dice);
        assert!(dice.is_done(), "script not used up");
        m
    }

    #[test]
    fn adam_keeps_his_three_best_of_six_and_rerolls_the_kept_sixes() {
        // "After rolling 6d6, Adam may only keep his 3 best dice ... may then re-roll those
        // 6s ... even if he eventually ends up with more than 3 Marks."
        use Die::D6;
        let o = RuleOptions::default();
        // 6, 6, 5, 5, 5, 2: keeps 6, 6, 5 (3 Marks; two 5s lost); re-rolls both 6s: a 6 then
        // a 5 (two more Marks), and a 3.
        let m = run(
            Pool::of(3, 3, 0, 0),
            &o,
            &[
                (D6, 6),
                (D6, 6),
                (D6, 5),
                (D6, 5),
                (D6, 5),
                (D6, 2),
                (D6, 6),
                (D6, 5),
                (D6, 3),
            ],
        );
        assert_eq!(m, 5);
    }

    #[test]
    fn marks_are_five_up_and_roll_agains_differ_by_die() {
        use Die::{D6, D10};
        let o = RuleOptions::default();
        // A d10 7 is a plain Mark; a d10 9 re-rolls (a 2: nothing more).
        assert_eq!(
            run(Pool::of(0, 0, 2, 0), &o, &[(D10, 7), (D10, 9), (D10, 2)]),
            2
        );
        // A d6 4 is no Mark.
        assert_eq!(run(Pool::of(1, 0, 0, 0), &o, &[(D6, 4)]), 0);
    }

    #[test]
    fn ones_cancel_as_the_options_say() {
        use Die::D6;
        let mut o = RuleOptions::default();
        // 3 kept of 5 dice: 1, 5, 5, 6, 3. marks_ones=roll: the 1 cancels a 5 (weakest), so
        // the best three are 6, 5, 3: 2 Marks, then the 6 re-rolls a 2.
        let script = [(D6, 1), (D6, 5), (D6, 5), (D6, 6), (D6, 3), (D6, 2)];
        assert_eq!(run(Pool::of(3, 2, 0, 0), &o, &script), 2);
        // marks_cancel=strongest: the 1 takes the 6, so 5, 5, 3 are kept and nothing re-rolls.
        o.marks_cancel = MarksCancel::Strongest;
        assert_eq!(run(Pool::of(3, 2, 0, 0), &o, &script[..5]), 2);
        // marks_ones=kept: the 1 is not among the best three (6, 5, 5): 3 Marks.
        o = RuleOptions::default();
        o.marks_ones = MarksOnes::Kept;
        assert_eq!(run(Pool::of(3, 2, 0, 0), &o, &script), 3);
        // ... unless too few dice: keep 2 of 2 (1, 5): the kept 1 cancels the 5.
        assert_eq!(run(Pool::of(2, 0, 0, 0), &o, &[(D6, 1), (D6, 5)]), 0);
    }

    #[test]
    fn rerolled_ones_cancel_only_by_option() {
        use Die::D6;
        let mut o = RuleOptions::default();
        // A kept 6 re-rolls a 1.
        assert_eq!(run(Pool::of(1, 0, 0, 0), &o, &[(D6, 6), (D6, 1)]), 1);
        o.marks_reroll_ones = MarksRerollOnes::Cancel;
        assert_eq!(run(Pool::of(1, 0, 0, 0), &o, &[(D6, 6), (D6, 1)]), 0);
        // Re-rolls chain without limit: 6, 6, 6, 5.
        assert_eq!(
            run(
                Pool::of(1, 0, 0, 0),
                &RuleOptions::default(),
                &[(D6, 6), (D6, 6), (D6, 6), (D6, 5)]
            ),
            4
        );
    }
}

/// A pool rolled again and again: the Monte Carlo side of [`super::exact`].
#[derive(Clone, Debug)]
pub struct MarksRoll {
    /// The pool rolled.
    pub pool: Pool,
    /// The rule options it rolls under.
    pub opts: RuleOptions,
}

/// Marks counted over many rolls.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MarksTally {
    /// Rolls counted.
    pub trials: u64,
    /// Marks per roll.
    pub marks: crate::sim::Histogram,
}

crate::sim::tally::add_by_field!(MarksTally { trials, marks });

impl crate::scenario::Tally<u32> for MarksTally {
    fn record(&mut self, m: &u32) {
        self.trials += 1;
        self.marks.record(*m as i64);
    }
    fn trials(&self) -> u64 {
        self.trials
    }
}

impl crate::scenario::Scenario for MarksRoll {
    type Outcome = u32;
    type Tally = MarksTally;

    fn trial<F: Faces + ?Sized, L: crate::dice::Log + ?Sized>(
        &self,
        faces: &mut F,
        _log: &mut L,
    ) -> u32 {
        roll(&self.pool, &self.opts, faces)
    }

    /// P(at least one Mark): a success at the Basic level.
    fn key(&self, t: &MarksTally) -> crate::sim::Estimate {
        let fails = t.marks.count(0);
        crate::sim::Estimate::proportion(t.trials - fails, t.trials, crate::sim::CONFIDENCE)
    }
}
