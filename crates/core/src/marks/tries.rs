//! Rolls over time (the Marks text, "Trying Again", "Extended Rolls"), exactly: each
//! roll is independent of the last, so chances multiply and Marks add up by convolution.
//!
//! - Trying again: after each failure the pool is one die smaller ("starting with Human
//!   Attributes or Skill, then proceeding to Super Skill and Super Attributes": the order of
//!   `marks_penalty`), so try `t` rolls the sheet with `t - 1` more dice of penalty.
//! - Extended rolls: one roll a period, Marks summed, until the Mark Plateau; the action is
//!   not done before the minimum period, and fails if the plateau is not reached by the
//!   maximum.
//!
//! [`OverTime`] rolls the same questions die by die through the engine: the Monte Carlo
//! side, whose agreement with the exact tables the tests check.

use super::exact;
use super::pool::{Pool, PoolError, Sheet};
use super::roll::{MarksTally, roll};
use crate::dice::{Faces, Pmf};
use crate::rules::RuleOptions;

/// P(the first success comes at try t), t = 1..=tries, where success is `need`+ Marks.
pub fn trying_again(
    sheet: &Sheet,
    need: u32,
    tries: u32,
    opts: &RuleOptions,
    tail: f64,
) -> Result<Vec<f64>, PoolError> {
    Ok(OverTime::trying_again(sheet, need, tries, opts)?.done(tail))
}

/// P(an extended roll is done at period k), k = 1..=max: the plateau first reached at
/// period j is done at max(j, min).
pub fn extended(
    pool: &Pool,
    plateau: i64,
    min: u32,
    max: u32,
    opts: &RuleOptions,
    tail: f64,
) -> Vec<f64> {
    let one = exact::marks(pool, opts, tail);
    let mut sum = Pmf::point(0);
    let mut reached_before = 0.0;
    let mut done = vec![0.0; max as usize];
    for k in 1..=max {
        // Marks are never negative, so "reached by k" only grows with k.
        sum = sum.add(&one).trim(tail);
        let reached = sum.p_at_least(plateau);
        let first = (reached - reached_before).max(0.0);
        reached_before = reached;
        done[(k.max(min) - 1) as usize] += first;
    }
    done
}

/// A question asked over several rolls.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// Try again until `need` Marks: try `t` rolls `pools[t - 1]`.
    TryingAgain {
        /// The pool of each try, in order.
        pools: Vec<Pool>,
        /// Marks a try needs.
        need: u32,
    },
    /// One roll a period, Marks summed, until `plateau`; done no earlier than `min`, failed
    /// after `max`.
    Extended {
        /// The pool rolled each period.
        pool: Pool,
        /// Marks the Plateau needs.
        plateau: u32,
        /// The fewest periods.
        min: u32,
        /// The most periods.
        max: u32,
    },
}

/// Rolls over time, rolled: the Monte Carlo side of [`trying_again`] and [`extended`].
/// A trial's outcome is the try or period at which the action is done, 0 for never.
#[derive(Clone, Debug)]
pub struct OverTime {
    question: Question,
    opts: RuleOptions,
}

impl OverTime {
    /// Trying again for `need` Marks, at most `tries` times.
    pub fn trying_again(
        sheet: &Sheet,
        need: u32,
        tries: u32,
        opts: &RuleOptions,
    ) -> Result<OverTime, PoolError> {
        let pools = (0..tries)
            .map(|t| {
                Pool::new(
                    &Sheet {
                        difficulty: sheet.difficulty + t,
                        ..sheet.clone()
                    },
                    opts,
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(OverTime {
            question: Question::TryingAgain { pools, need },
            opts: *opts,
        })
    }

    /// An extended roll of `pool` for `plateau` Marks within periods `min..=max`.
    pub fn extended(pool: Pool, plateau: u32, min: u32, max: u32, opts: &RuleOptions) -> OverTime {
        OverTime {
            question: Question::Extended {
                pool,
                plateau,
                min: min.max(1),
                max: max.max(min.max(1)),
            },
            opts: *opts,
        }
    }

    /// What it asks.
    pub fn question(&self) -> &Question {
        &self.question
    }

    /// P(done at try or period k), k = 1.., exactly.
    pub fn done(&self, tail: f64) -> Vec<f64> {
        match &self.question {
            Question::TryingAgain { pools, need } => {
                let mut all_failed = 1.0;
                let mut out = Vec::with_capacity(pools.len());
                for pool in pools {
                    let p = if pool.keep() == 0 {
                        0.0
                    } else {
                        exact::marks(pool, &self.opts, tail).p_at_least(*need as i64)
                    };
                    out.push(all_failed * p);
                    all_failed *= 1.0 - p;
                }
                out
            }
            Question::Extended {
                pool,
                plateau,
                min,
                max,
            } => extended(pool, *plateau as i64, *min, *max, &self.opts, tail),
        }
    }

    /// The exact distribution of the outcome: k = done at try or period k, 0 = never.
    pub fn exact(&self, tail: f64) -> Pmf {
        let done = self.done(tail);
        let never = (1.0 - done.iter().sum::<f64>()).max(0.0);
        let mut pairs = vec![(0, never)];
        pairs.extend(done.iter().enumerate().map(|(k, &p)| (k as i64 + 1, p)));
        Pmf::from_pairs(&pairs, 0.0)
    }
}

impl crate::scenario::Scenario for OverTime {
    type Outcome = u32;
    type Tally = MarksTally;

    /// Rolls each try (or period) in turn; stops at the first success (or the plateau).
    fn trial<F: Faces + ?Sized, L: crate::dice::Log + ?Sized>(
        &self,
        faces: &mut F,
        _log: &mut L,
    ) -> u32 {
        match &self.question {
            Question::TryingAgain { pools, need } => {
                for (t, pool) in pools.iter().enumerate() {
                    // A pool that can keep nothing cannot succeed; it rolls no dice.
                    if pool.keep() > 0 && roll(pool, &self.opts, faces) >= *need {
                        return t as u32 + 1;
                    }
                }
                0
            }
            Question::Extended {
                pool,
                plateau,
                min,
                max,
            } => {
                let mut sum = 0u32;
                for k in 1..=*max {
                    sum = sum.saturating_add(roll(pool, &self.opts, faces));
                    if sum >= *plateau {
                        return k.max(*min);
                    }
                }
                0
            }
        }
    }

    /// P(done at all): within the tries, or by the maximum period.
    fn key(&self, t: &MarksTally) -> crate::sim::Estimate {
        let never = t.marks.count(0);
        crate::sim::Estimate::proportion(t.trials - never, t.trials, crate::sim::CONFIDENCE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(a: u32, skill: u32) -> Sheet {
        Sheet {
            attributes: vec![a, a],
            skill,
            ..Sheet::default()
        }
    }

    #[test]
    fn each_failure_costs_a_die() {
        let o = RuleOptions::default();
        let s = sheet(2, 1);
        let t = trying_again(&s, 3, 3, &o, 1e-13).unwrap();
        // Try 1 rolls 3d6 keep 2; try 2 loses the Skill d6 (2d6 keep 2); try 3 an Attribute
        // die (1d6 keep 1).
        let p = |d: u32| {
            let pool = Pool::new(
                &Sheet {
                    difficulty: d,
                    ..s.clone()
                },
                &o,
            )
            .unwrap();
            exact::marks(&pool, &o, 1e-13).p_at_least(3)
        };
        assert!((t[0] - p(0)).abs() < 1e-12);
        assert!((t[1] - (1.0 - p(0)) * p(1)).abs() < 1e-12);
        assert!((t[2] - (1.0 - p(0)) * (1.0 - p(1)) * p(2)).abs() < 1e-12);
        // Later tries can only do worse than the first.
        assert!(p(2) <= p(1) && p(1) <= p(0));
    }

    #[test]
    fn an_extended_roll_waits_for_its_minimum() {
        let o = RuleOptions::default();
        let pool = Pool::of(3, 0, 0, 0);
        let free = extended(&pool, 4, 1, 6, &o, 1e-13);
        let slow = extended(&pool, 4, 3, 6, &o, 1e-13);
        // The minimum moves early finishes to period 3 and changes nothing after it.
        assert!((slow[2] - (free[0] + free[1] + free[2])).abs() < 1e-12);
        assert_eq!((slow[0], slow[1]), (0.0, 0.0));
        assert!((slow[3..].iter().sum::<f64>() - free[3..].iter().sum::<f64>()).abs() < 1e-12);
        // Reaching 4 Marks by period 1 is reaching them in one roll.
        let one = exact::marks(&pool, &o, 1e-13).p_at_least(4);
        assert!((free[0] - one).abs() < 1e-12);
    }

    #[test]
    fn a_second_try_rolls_the_smaller_pool() {
        use crate::dice::Die;
        let o = RuleOptions::default();
        // 2d6 keep 2 for 2 Marks: try 1 shows 5, 2 (one Mark); try 2 has a die fewer (1d6
        // keep 1): a 6, a Roll-Again, re-rolled 5 makes 2 Marks.
        let q = OverTime::trying_again(&sheet(2, 0), 2, 3, &o).unwrap();
        let done = crate::scenario::scripted(
            &q,
            &[(Die::D6, 5), (Die::D6, 2), (Die::D6, 6), (Die::D6, 5)],
        );
        assert_eq!(done, 2);
        // Try 1: 1, 2; try 2: 4; try 3 has no die left to keep, so it rolls nothing.
        let never = crate::scenario::scripted(&q, &[(Die::D6, 1), (Die::D6, 2), (Die::D6, 4)]);
        assert_eq!(never, 0);
    }

    #[test]
    fn an_extended_roll_adds_marks_and_waits_for_its_minimum() {
        use crate::dice::Die;
        let o = RuleOptions::default();
        let q = OverTime::extended(Pool::of(2, 0, 0, 0), 3, 3, 4, &o);
        // Periods 1 and 2: 5, 5 then 5, 2 make 3 Marks, but it is done only at period 3.
        let early = [(Die::D6, 5), (Die::D6, 5), (Die::D6, 5), (Die::D6, 2)];
        assert_eq!(crate::scenario::scripted(&q, &early), 3);
        // 1 + 0 + 2 Marks: reached at period 3.
        let on_time = [
            (Die::D6, 5),
            (Die::D6, 2),
            (Die::D6, 2),
            (Die::D6, 3),
            (Die::D6, 5),
            (Die::D6, 5),
        ];
        assert_eq!(crate::scenario::scripted(&q, &on_time), 3);
        // Four periods of blanks and a single Mark: the plateau is missed.
        let mut short = vec![(Die::D6, 2); 7];
        short.push((Die::D6, 5));
        assert_eq!(crate::scenario::scripted(&q, &short), 0);
    }

    #[test]
    fn the_exact_outcome_table_matches_the_chances() {
        let o = RuleOptions::default();
        let s = sheet(3, 2);
        let q = OverTime::trying_again(&s, 3, 4, &o).unwrap();
        let t = trying_again(&s, 3, 4, &o, 1e-13).unwrap();
        let pmf = q.exact(1e-13);
        for (k, p) in t.iter().enumerate() {
            assert!((pmf.prob(k as i64 + 1) - p).abs() < 1e-15);
        }
        assert!((pmf.prob(0) - (1.0 - t.iter().sum::<f64>())).abs() < 1e-12);
        assert!((pmf.mass() - 1.0).abs() < 1e-12);
    }
}
