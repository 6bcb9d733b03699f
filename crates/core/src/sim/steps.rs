//! A run a few trials at a time, for a caller that must get control back between steps: the
//! browser page's worker draws its progress bar and answers Stop between them, and has no
//! threads and no clock of its own.
//!
//! [`Steps`] runs every batch in index order, one look ([`super::engine::CHECK`] trials, or
//! the first batch's shorter first looks) at a time, and takes every decision with the
//! engine's own rules (`Engine::met`, `Engine::exhausted`, the looks of
//! `Engine::batch_until`), so a run stepped to its end has the digits of [`Engine::run`].
//! Stopped early, it keeps every trial drawn: the first `n` trials of a seed, which is
//! exactly what a run of `Stop::Trials(n)` counts.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::engine::{Ended, Engine, Prefix, Run};
use super::scenario::{Scenario, Tally};

/// A run under way, stepped by its caller ([`Engine::steps`]).
#[derive(Clone, Debug)]
pub struct Steps<T> {
    engine: Engine,
    /// Batches in the run.
    batches: u64,
    /// The whole batches done, folded in index order.
    tally: T,
    /// Their trials.
    trials: u64,
    /// The next batch.
    next: u64,
    /// The batch under way: its first trials and stream.
    part: Option<Prefix<T>>,
    /// How it ended, once it has.
    ended: Option<Ended>,
}

impl<T: Default> Steps<T> {
    pub(super) fn new(engine: Engine) -> Steps<T> {
        Steps {
            batches: engine.stop.max_trials().div_ceil(super::BATCH),
            engine,
            tally: T::default(),
            trials: 0,
            next: 0,
            part: None,
            ended: None,
        }
    }
}

impl<T> Steps<T> {
    /// The most trials the run may draw (its cap).
    pub fn total(&self) -> u64 {
        self.engine.stop.max_trials()
    }

    /// Trials drawn so far, the batch under way included.
    pub fn done(&self) -> u64 {
        self.trials + self.part.as_ref().map_or(0, |p| p.trials)
    }

    /// How the run ended, once it has.
    pub fn ended(&self) -> Option<Ended> {
        self.ended
    }

    /// Runs about `trials` more trials (whole looks, at least one), or to the end. Returns
    /// whether the run has ended.
    pub fn step<S: Scenario<Tally = T>>(&mut self, s: &S, trials: u64) -> bool
    where
        T: Tally<S::Outcome>,
    {
        let e = self.engine;
        let max = e.stop.max_trials();
        let never = AtomicBool::new(false);
        let mut budget = trials.max(1);
        while self.ended.is_none() && budget > 0 {
            if self.next >= self.batches {
                self.ended = Some(e.exhausted());
                break;
            }
            let b = self.next;
            let len = Engine::batch_len(max, b);
            let part = self.part.take();
            let before = part.as_ref().map_or(0, |p| p.trials);
            let upto = before.saturating_add(budget).min(len);
            // Only the first batch is looked at inside (as the pool does).
            let (p, met) = e
                .batch_until(s, b, len, part, upto, &never, |t| b == 0 && e.met(s, t))
                .expect("never cancelled");
            budget = budget.saturating_sub(p.trials - before);
            if met {
                self.tally = p.tally;
                self.trials = p.trials;
                self.ended = Some(Ended::Precise);
            } else if p.trials < len {
                self.part = Some(p);
            } else {
                self.tally = std::mem::take(&mut self.tally) + p.tally;
                self.trials += len;
                self.next += 1;
                if e.met(s, &self.tally) {
                    self.ended = Some(Ended::Precise);
                }
            }
        }
        self.ended.is_some()
    }

    /// The tally so far: every trial drawn, the batch under way included.
    pub fn tally<O>(&self) -> T
    where
        T: Tally<O>,
    {
        match &self.part {
            Some(p) => self.tally.clone() + p.tally.clone(),
            None => self.tally.clone(),
        }
    }

    /// The run as it stands, `elapsed` being the wall time its caller measured: ended as
    /// decided, or [`Ended::Interrupted`] with every trial drawn.
    pub fn run<O>(&self, elapsed: Duration) -> Run<T>
    where
        T: Tally<O>,
    {
        let trials = self.done();
        Run {
            tally: self.tally(),
            trials,
            ended: self.ended.unwrap_or(Ended::Interrupted),
            elapsed,
            rng: None,
            fresh: trials,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::rolls::{Against, Rolls};
    use crate::sim::engine::{Shard, Stop};
    use crate::sim::progress::Silent;
    use crate::{dice::Expr, options::RuleOptions};

    fn engine(stop: Stop) -> Engine {
        Engine {
            seed: 7,
            cell: 3,
            stop,
            shard: Shard::WHOLE,
        }
    }

    /// Steps of every size give the pool's tally, trials and ending.
    #[test]
    fn stepped_to_the_end_is_the_pools_run() {
        let opts = RuleOptions::default();
        let expr = Expr::parse("d6 skill").unwrap();
        let against = Against {
            armor: None,
            use_rating: Some(4),
        };
        let rolls = Rolls::new(&expr, against, &opts);
        let stops = [
            Stop::Trials(3 * crate::sim::BATCH + 17),
            // Met inside the first batch, at a look.
            Stop::Precision {
                half_width: 0.02,
                max_trials: 1 << 20,
            },
            // Met after some whole batches.
            Stop::Precision {
                half_width: 0.002,
                max_trials: 1 << 22,
            },
            // Capped before it is met.
            Stop::Precision {
                half_width: 1e-5,
                max_trials: 2 * crate::sim::BATCH + 5,
            },
        ];
        for stop in stops {
            let e = engine(stop);
            let pool = e.run(&rolls, &Silent, &AtomicBool::new(false));
            for size in [1, 700, 5000, 1 << 20] {
                let mut st = e.steps();
                while !st.step(&rolls, size) {}
                let r = st.run(Duration::ZERO);
                assert_eq!(r.trials, pool.trials, "{stop:?} in steps of {size}");
                assert_eq!(r.ended, pool.ended, "{stop:?} in steps of {size}");
                assert_eq!(r.tally, pool.tally, "{stop:?} in steps of {size}");
            }
        }
    }

    /// Stopped early, a run keeps its first `n` trials: what `Stop::Trials(n)` counts.
    #[test]
    fn stopped_early_it_is_a_run_of_its_trials() {
        let opts = RuleOptions::default();
        let expr = Expr::parse("2d6").unwrap();
        let rolls = Rolls::new(&expr, Against::default(), &opts);
        let e = engine(Stop::Trials(10 * crate::sim::BATCH));
        let mut st = e.steps();
        for _ in 0..70 {
            assert!(!st.step(&rolls, 1500));
        }
        let r = st.run(Duration::ZERO);
        assert_eq!(r.ended, Ended::Interrupted);
        assert!(r.trials > crate::sim::BATCH, "{}", r.trials);
        let again = engine(Stop::Trials(r.trials)).run(&rolls, &Silent, &AtomicBool::new(false));
        assert_eq!(r.tally, again.tally);
    }
}
