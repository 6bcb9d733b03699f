//! Monte Carlo samples of a dice expression: `n` seeded rolls in parallel batches.

use std::ops::Add;

use rayon::prelude::*;

use super::progress::Progress;
use super::seed::{BATCH, stream};
use super::tally::Histogram;
use crate::dice::bonus::roll_with_bonus;
use crate::dice::{Die, Expr, NoLog, Role};
use crate::rules::RuleOptions;

/// What `n` rolls of an expression did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiceTally {
    pub trials: u64,
    pub totals: Histogram,
    pub critical_failures: u64,
    pub overskills: u64,
    pub fumbles: u64,
    /// Rolls that beat the armor roll (with an armor).
    pub beats: u64,
    /// Rolls equal to the armor roll.
    pub ties: u64,
    /// Rolls that met the Use rating (with a Use rating).
    pub meets: u64,
}

/// What each roll is compared with.
#[derive(Copy, Clone, Debug, Default)]
pub struct Against<'a> {
    /// Armor rolled fresh for every roll (a constant expression for fixed Armor).
    pub armor: Option<&'a Expr>,
    /// A Use rating for a Skill roll (Ch. 4.2).
    pub use_rating: Option<i64>,
}

impl Add for DiceTally {
    type Output = DiceTally;
    fn add(self, o: DiceTally) -> DiceTally {
        DiceTally {
            trials: self.trials + o.trials,
            totals: self.totals + o.totals,
            critical_failures: self.critical_failures + o.critical_failures,
            overskills: self.overskills + o.overskills,
            fumbles: self.fumbles + o.fumbles,
            beats: self.beats + o.beats,
            ties: self.ties + o.ties,
            meets: self.meets + o.meets,
        }
    }
}

/// Rolls `expr` `n` times from `seed` (stream cell `cell`). Bit-identical for any number of
/// rayon threads: batch `b` always uses stream `(seed, cell, b)`.
///
/// Each roll is followed, on the same stream, by the armor roll and then any Overskill Benny.
pub fn sample(
    expr: &Expr,
    against: Against<'_>,
    opts: &RuleOptions,
    n: u64,
    seed: u64,
    cell: u64,
    progress: &dyn Progress,
) -> DiceTally {
    progress.start(n);
    let benny = crate::rules::attack::benny_skill_d6(opts);
    let plan = expr.plan(opts);
    let armor = against.armor.map(|a| a.plan(opts));
    let batches = n.div_ceil(BATCH);
    let tally = (0..batches)
        .into_par_iter()
        .map(|b| {
            let mut rng = stream(seed, cell, b);
            let len = BATCH.min(n - b * BATCH);
            let mut t = DiceTally {
                trials: len,
                ..DiceTally::default()
            };
            for _ in 0..len {
                let o = plan.roll(&mut rng, &mut NoLog);
                t.totals.record(o.total);
                t.critical_failures += o.critical_failure as u64;
                t.overskills += o.overskill as u64;
                t.fumbles += o.fumbles as u64;
                if let Some(a) = &armor {
                    let armor = a.roll(&mut rng, &mut NoLog).total;
                    t.beats += (o.total > armor) as u64;
                    t.ties += (o.total == armor) as u64;
                }
                if let Some(u) = against.use_rating {
                    // Ch. 4.2: a Critical Failure misses; a Benny adds 1d6 only if needed.
                    let hit = !o.critical_failure
                        && (o.total >= u
                            || (o.overskill
                                && benny.is_some_and(|bonus| {
                                    o.total
                                        + roll_with_bonus(
                                            Die::D6,
                                            bonus,
                                            opts.bonus_chain,
                                            &mut rng,
                                            &mut NoLog,
                                            0,
                                            Role::Bonus,
                                        )
                                        >= u
                                })));
                    t.meets += hit as u64;
                }
            }
            progress.advance(len);
            t
        })
        .reduce(DiceTally::default, Add::add);
    progress.finish();
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::progress::Silent;

    #[test]
    fn same_seed_same_tally_on_any_thread_count() {
        let e = Expr::parse("2d6 + sn d4").unwrap();
        let o = RuleOptions::default();
        let n = 3 * BATCH + 17;
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| sample(&e, Against::default(), &o, n, 7, 0, &Silent));
        let many = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap()
            .install(|| sample(&e, Against::default(), &o, n, 7, 0, &Silent));
        assert_eq!(one, many);
        assert_eq!(one.trials, n);
        assert_eq!(one.totals.total(), n);
        assert_ne!(
            one,
            sample(&e, Against::default(), &o, n, 8, 0, &Silent),
            "another seed gives other rolls"
        );
    }
}
