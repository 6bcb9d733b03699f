//! Monte Carlo samples of a dice expression: seeded rolls run by the engine.

use crate::dice::expr::RollPlan;
use crate::dice::{Die, Expr, Faces, Log};
use crate::options::{BonusChain, RuleOptions};
use crate::rules::attack::benny_d6;
use crate::sim::engine::Engine;
use crate::sim::progress::Progress;
use crate::sim::{Estimate, Histogram};
use crate::sim::{Scenario, Tally};

/// The confidence level of the key figure.
const LEVEL: f64 = crate::sim::CONFIDENCE;

/// What `n` rolls of an expression did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DiceTally {
    /// Rolls counted.
    pub trials: u64,
    /// Rolls by total.
    pub totals: Histogram,
    /// Rolls that were Critical Failures.
    pub critical_failures: u64,
    /// Rolls with an Overskill.
    pub overskills: u64,
    /// SuperNatural Fumbles, over all rolls.
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

crate::sim::tally::add_by_field!(DiceTally {
    trials,
    totals,
    critical_failures,
    overskills,
    fumbles,
    beats,
    ties,
    meets,
});

/// Rolls of a dice expression as a [`Scenario`], so `diemon dist --mc` runs on the one engine
/// (seeded batches, any thread count, Ctrl-C keeps the finished batches).
///
/// Each roll is followed, on the same stream, by the armor roll and then any Overskill Benny.
#[derive(Clone, Debug)]
pub struct Rolls {
    plan: RollPlan,
    armor: Option<RollPlan>,
    use_rating: Option<i64>,
    /// The Benny's d6 and its Bonus Die, when the Overskill policy may add it to the roll.
    benny: Option<Option<Die>>,
    chain: BonusChain,
}

impl Rolls {
    /// Rolls of `expr`, against an armor roll or none.
    pub fn new(expr: &Expr, against: Against<'_>, opts: &RuleOptions) -> Rolls {
        Rolls {
            plan: expr.plan(opts),
            armor: against.armor.map(|a| a.plan(opts)),
            use_rating: against.use_rating,
            benny: crate::rules::attack::benny_skill_d6(opts),
            chain: opts.bonus_chain,
        }
    }
}

/// Rolls `expr` `n` times from `seed` (stream cell `cell`) on the engine, to the end: the
/// same digits on any number of rayon threads.
pub fn sample(
    expr: &Expr,
    against: Against<'_>,
    opts: &RuleOptions,
    n: u64,
    seed: u64,
    cell: u64,
    progress: &dyn Progress,
) -> DiceTally {
    Engine::tally_of(&Rolls::new(expr, against, opts), seed, cell, n, progress)
}

/// One roll: its total and what it did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Rolled {
    /// The roll's total.
    pub total: i64,
    /// A Critical Failure: the natural Skill face was 1 (Ch. 4.2).
    pub critical_failure: bool,
    /// An Overskill: the natural Skill face was the top one (Ch. 4.2).
    pub overskill: bool,
    /// SuperNatural Fumbles in it.
    pub fumbles: u32,
    /// It beat the armor roll.
    pub beats: bool,
    /// It tied the armor roll.
    pub tie: bool,
    /// It met the Use rating (a Critical Failure never does).
    pub meets: bool,
}

impl Scenario for Rolls {
    type Outcome = Rolled;
    type Tally = DiceTally;

    #[inline]
    fn trial<F: Faces + ?Sized, L: Log + ?Sized>(&self, faces: &mut F, log: &mut L) -> Rolled {
        let o = self.plan.roll(faces, log);
        let mut r = Rolled {
            total: o.total,
            critical_failure: o.critical_failure,
            overskill: o.overskill,
            fumbles: o.fumbles,
            ..Rolled::default()
        };
        if let Some(a) = &self.armor {
            let armor = a.roll(faces, log).total;
            r.beats = o.total > armor;
            r.tie = o.total == armor;
        }
        if let Some(u) = self.use_rating {
            // Ch. 4.2: a Critical Failure misses; a Benny adds 1d6 only if needed.
            r.meets = !o.critical_failure
                && (o.total >= u
                    || (o.overskill
                        && self.benny.is_some_and(|bonus| {
                            o.total + benny_d6(bonus, self.chain, faces, log) >= u
                        })));
        }
        r
    }

    /// The chance the roll meets the Use rating, else beats the armor, else the mean total.
    fn key(&self, t: &DiceTally) -> Estimate {
        if self.use_rating.is_some() {
            Estimate::proportion(t.meets, t.trials, LEVEL)
        } else if self.armor.is_some() {
            Estimate::proportion(t.beats, t.trials, LEVEL)
        } else {
            let (sum, sum_sq) = t.totals.moments();
            Estimate::mean(sum, sum_sq, t.trials, LEVEL)
        }
    }
}

impl Tally<Rolled> for DiceTally {
    #[inline]
    fn record(&mut self, o: &Rolled) {
        self.trials += 1;
        self.totals.record(o.total);
        self.critical_failures += o.critical_failure as u64;
        self.overskills += o.overskill as u64;
        self.fumbles += o.fumbles as u64;
        self.beats += o.beats as u64;
        self.ties += o.tie as u64;
        self.meets += o.meets as u64;
    }
    fn trials(&self) -> u64 {
        self.trials
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::BATCH;
    use crate::sim::progress::Silent;

    fn on(threads: usize, e: &Expr, n: u64, seed: u64) -> DiceTally {
        let run = || {
            sample(
                e,
                Against::default(),
                &RuleOptions::default(),
                n,
                seed,
                0,
                &Silent,
            )
        };
        #[cfg(feature = "rayon")]
        return rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(run);
        // Without rayon every run is one thread's.
        #[cfg(not(feature = "rayon"))]
        {
            let _ = threads;
            run()
        }
    }

    #[test]
    fn same_seed_same_tally_on_any_thread_count() {
        let e = Expr::parse("2d6 + sn d4").unwrap();
        let n = 3 * BATCH + 17;
        let one = on(1, &e, n, 7);
        let many = on(4, &e, n, 7);
        assert_eq!(one, many);
        assert_eq!(one.trials, n);
        assert_eq!(one.totals.total(), n);
        assert_ne!(one, on(2, &e, n, 8), "another seed gives other rolls");
    }
}
