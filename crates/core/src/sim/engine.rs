//! The engine: runs a [`Scenario`] over seeded batches in parallel, deterministically.
//!
//! Trials are cut into batches of [`BATCH`]; batch `b` draws from `stream(seed, cell, b)`.
//! Batches run in rounds of a few per thread; each round's tallies are merged **in batch
//! index order**, and every stopping decision (a precision target, a trial cap, an
//! interruption) is taken at a batch boundary in that order, except that a precision run
//! looks at [`FIRST_LOOK`] trials, then at doubling counts up to [`CHECK`] and every
//! [`CHECK`] after, through its first batch, run alone (a target met in a few thousand
//! trials should not cost 65,536). So the result depends only on
//! the seed and the stopping rule, never on the thread count or on which thread was fast: a
//! round may compute batches past the stopping point, and those are simply discarded.
//!
//! A [`Shard`] runs only every n-th batch, so n machines can split a run and add their
//! tallies up to exactly the single-machine result.
//!
//! Memory is one tally per batch of the current round, whatever the trial count.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::progress::Progress;
use super::scenario::{Scenario, Tally};
use super::seed::{BATCH, Rng, stream};
pub use super::steps::Steps;
use crate::dice::{Log, NoLog};

/// When to stop.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Stop {
    /// Exactly this many trials.
    Trials(u64),
    /// Until the 95% CI half-width of the scenario's key metric is at most `half_width`
    /// (checked at 256, 512 and then every [`CHECK`] trials through the first batch, then
    /// after every batch, in index order), but never more than `max_trials`.
    Precision {
        /// The widest half-width accepted.
        half_width: f64,
        /// Trials never exceeded.
        max_trials: u64,
    },
}

impl Stop {
    pub(super) fn max_trials(self) -> u64 {
        match self {
            Stop::Trials(n) => n,
            Stop::Precision { max_trials, .. } => max_trials,
        }
    }
}

/// How a run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The requested number of trials ran.
    Complete,
    /// The precision target was met.
    Precise,
    /// `max_trials` ran before the precision target was met.
    Cap,
    /// Interrupted (Ctrl-C); the tally holds the batches finished before it, in order.
    Interrupted,
}

impl Ended {
    /// How a run ended, in words, as every answer says it.
    pub fn words(self) -> &'static str {
        match self {
            Ended::Complete => "complete",
            Ended::Precise => "precision target met",
            Ended::Cap => "trial cap reached before the precision target",
            Ended::Interrupted => "interrupted",
        }
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct Run<T> {
    /// The sums of the trials run.
    pub tally: T,
    /// Trials run, a prefix gone on from included.
    pub trials: u64,
    /// How the run ended.
    pub ended: Ended,
    /// Wall time it took.
    pub elapsed: Duration,
    /// The first batch's stream where a precision run stopped inside it: a later run of
    /// the same cell to a finer target goes on from here ([`Prefix`]).
    pub rng: Option<Rng>,
    /// The trials this run drew itself (`trials` less a [`Prefix`] it went on from).
    pub fresh: u64,
}

impl<T> Run<T> {
    /// Trials per second of wall time (a measurement, not a seeded result): of the trials
    /// this run drew.
    pub fn trials_per_sec(&self) -> f64 {
        self.fresh as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The first `trials` trials of a precision run of a cell, stopped at one of its looks
/// short of the target (a cap below this run's): their tally and the first batch's stream
/// there. A run of the same cell to a finer target or a higher cap goes on from them and
/// counts exactly what it would from the start: the same streams, the same looks.
#[derive(Clone, Debug)]
pub struct Prefix<T> {
    /// Their sums.
    pub tally: T,
    /// The first batch's stream where they stopped.
    pub rng: Rng,
    /// Trials counted.
    pub trials: u64,
}

/// A seeded engine for one cell of an experiment.
#[derive(Copy, Clone, Debug)]
pub struct Engine {
    /// The experiment's master seed.
    pub seed: u64,
    /// The cell's index: its streams derive from the seed and it.
    pub cell: u64,
    /// When to stop.
    pub stop: Stop,
    /// Which of the cell's batches this run does: all of them, or one shard's.
    pub shard: Shard,
}

/// A disjoint part of a run's batches: shard `index` of `count` (0-based) runs batches
/// `index`, `index + count`, `index + 2 count`, ... (round robin, so shards get equal work
/// even when batches differ). The shards' tallies add up to the whole run's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// Shards in all.
    pub count: u64,
}

/// A shard that does not read ([`Shard::parse`]): the text given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected I/N with 1 <= I <= N, e.g. 2/8")]
pub struct ShardError(pub String);

impl Shard {
    /// Every batch.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `i/n` as written on a command line (1-based: `1/4` to `4/4`).
    pub fn parse(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (i, n): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }

    /// How many of the first `batches` batches are this shard's.
    fn batches(self, batches: u64) -> u64 {
        batches.saturating_sub(self.index).div_ceil(self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// Trials between two looks at the cancel flag inside a batch (a batch of slow trials, large
/// squads, can take seconds, and Ctrl-C must answer within one), and between two looks at
/// a precision target inside the first batch.
pub const CHECK: u64 = 1 << 10;

/// The first look at a precision target: a sure win or a sure loss meets +-0.01 in 256
/// trials (Wilson), and a price's grid is mostly such cells. The looks then double up to
/// [`CHECK`] (256, 512, 1,024, then every 1,024), so a run's first trials are the prefix of
/// its run to any target.
pub const FIRST_LOOK: u64 = 256;

/// Batches per thread in one round: enough to balance uneven batches, few enough that an
/// early precision stop wastes little.
const BATCHES_PER_THREAD: usize = 4;

/// The threads a round spreads over: rayon's pool, or one without the `rayon` feature.
fn threads() -> usize {
    #[cfg(feature = "rayon")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "rayon"))]
    return 1;
}

/// Each batch of a round, on rayon's pool when there is one; in index order either way.
fn each<T: Send>(ks: std::ops::Range<u64>, f: impl Fn(u64) -> T + Sync + Send) -> Vec<T> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        ks.into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "rayon"))]
    ks.map(f).collect()
}

impl Engine {
    /// Trials in batch `b` of a run capped at `max` trials.
    pub(super) fn batch_len(max: u64, b: u64) -> u64 {
        BATCH.min(max.saturating_sub(b * BATCH))
    }

    /// Runs batch `b` with its own stream; `None` when `cancel` was set before it ended
    /// (checked every [`CHECK`] trials, so a slow batch still stops promptly).
    fn batch<S: Scenario>(&self, s: &S, b: u64, len: u64, cancel: &AtomicBool) -> Option<S::Tally> {
        self.batch_until(s, b, len, None, len, cancel, |_| false)
            .map(|(p, _)| p.tally)
    }

    /// Runs batch `b` like [`Self::batch`], but ends it early at the first look
    /// ([`FIRST_LOOK`] trials, doubling to [`CHECK`], then every [`CHECK`]; or its last
    /// trial) whose tally meets `done`, or that reaches `upto` trials, going on from `from`
    /// (its first trials, stopped at a look) if given. Returns where it stopped and whether
    /// `done` was met there.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn batch_until<S: Scenario>(
        &self,
        s: &S,
        b: u64,
        len: u64,
        from: Option<Prefix<S::Tally>>,
        upto: u64,
        cancel: &AtomicBool,
        done: impl Fn(&S::Tally) -> bool,
    ) -> Option<(Prefix<S::Tally>, bool)> {
        let (mut t, mut rng, mut left) = match from {
            Some(p) => (p.tally, p.rng, len.saturating_sub(p.trials)),
            None => (S::Tally::default(), stream(self.seed, self.cell, b), len),
        };
        let at = |tally, rng, left| Prefix {
            tally,
            rng,
            trials: len - left,
        };
        // A prefix that already met the target is where the run from the start stopped.
        if left < len && done(&t) {
            return Some((at(t, rng, left), true));
        }
        while left > 0 && len - left < upto {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            // Looks at FIRST_LOOK, twice it, ... up to CHECK, then every CHECK trials.
            let run = len - left;
            let n = left.min(if run == 0 { FIRST_LOOK } else { run.min(CHECK) });
            for _ in 0..n {
                let o = s.trial(&mut rng, &mut NoLog);
                t.record(&o);
            }
            left -= n;
            if done(&t) {
                return Some((at(t, rng, left), true));
            }
        }
        Some((at(t, rng, left), false))
    }

    /// Whether a tally of whole batches (or of the first batch's first trials) meets this
    /// run's precision target: the one stopping test of both the pool and [`Steps`].
    pub(super) fn met<S: Scenario>(&self, s: &S, tally: &S::Tally) -> bool {
        match self.stop {
            Stop::Precision { half_width, .. } => s.key(tally).half_width() <= half_width,
            Stop::Trials(_) => false,
        }
    }

    /// How a run that ran every batch ended.
    pub(super) fn exhausted(&self) -> Ended {
        match self.stop {
            Stop::Trials(_) => Ended::Complete,
            Stop::Precision { .. } => Ended::Cap,
        }
    }

    /// This run, a few trials at a time ([`Steps`]): every batch, in index order.
    pub fn steps<T: Default>(&self) -> Steps<T> {
        Steps::new(*self)
    }

    /// The tally of exactly `trials` trials of `s`, seed `seed` and cell `cell`, every
    /// batch and uninterrupted: the same digits on any number of rayon threads.
    pub fn tally_of<S: Scenario>(
        s: &S,
        seed: u64,
        cell: u64,
        trials: u64,
        progress: &dyn Progress,
    ) -> S::Tally {
        let e = Engine {
            seed,
            cell,
            stop: Stop::Trials(trials),
            shard: Shard::WHOLE,
        };
        e.run(s, progress, &AtomicBool::new(false)).tally
    }

    /// Runs `s` until the stopping rule or `cancel` says stop.
    pub fn run<S: Scenario>(
        &self,
        s: &S,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Run<S::Tally> {
        self.run_from(s, None, progress, cancel)
    }

    /// Runs `s` like [`Self::run`], a precision run going on from `from` (the first trials
    /// of a run of the same cell, stopped at a look inside the first batch): the same
    /// result as from the start, for only the new trials. A fixed or sharded run, or a
    /// prefix past the first batch, starts from the beginning.
    pub fn run_from<S: Scenario>(
        &self,
        s: &S,
        from: Option<Prefix<S::Tally>>,
        progress: &dyn Progress,
        cancel: &AtomicBool,
    ) -> Run<S::Tally> {
        let start = Instant::now();
        let mut from = from;
        let mut rng = None;
        let mut fresh = 0;
        let max = self.stop.max_trials();
        // This shard's k-th batch is `index + k * count`.
        let batches = self.shard.batches(max.div_ceil(BATCH));
        let batch_of = |k: u64| self.shard.index + k * self.shard.count;
        let round = (threads() * BATCHES_PER_THREAD).max(1) as u64;
        progress.start(
            (0..batches)
                .map(|k| Self::batch_len(max, batch_of(k)))
                .sum(),
        );
        let mut tally = S::Tally::default();
        let mut trials = 0;
        let mut next = 0;
        let ended = 'run: loop {
            // A precision run's first batch alone, looked at 256, 512, then every CHECK trials.
            if let Stop::Precision { .. } = self.stop
                && next == 0
                && batches > 0
                && self.shard == Shard::WHOLE
            {
                let len = Self::batch_len(max, 0);
                let from = from.take().filter(|p| p.trials <= len);
                let before = from.as_ref().map_or(0, |p| p.trials);
                let Some((p, met)) =
                    self.batch_until(s, 0, len, from, len, cancel, |t| self.met(s, t))
                else {
                    break 'run Ended::Interrupted;
                };
                let (t, end) = (p.tally, p.rng);
                trials = t.trials();
                fresh += trials - before;
                progress.advance(len);
                tally = t;
                if met {
                    break 'run Ended::Precise;
                }
                if len == max {
                    // Capped inside the first batch: a higher cap goes on from here.
                    rng = Some(end);
                }
                next = 1;
                continue;
            }
            if next >= batches {
                break self.exhausted();
            }
            let end = (next + round).min(batches);
            let done: Vec<Option<S::Tally>> = each(next..end, |k| {
                let b = batch_of(k);
                let len = Self::batch_len(max, b);
                let t = self.batch(s, b, len, cancel)?;
                progress.advance(len);
                Some(t)
            });
            for (i, t) in done.into_iter().enumerate() {
                let Some(t) = t else {
                    break 'run Ended::Interrupted;
                };
                trials += Self::batch_len(max, batch_of(next + i as u64));
                fresh += Self::batch_len(max, batch_of(next + i as u64));
                tally = tally + t;
                if self.met(s, &tally) {
                    break 'run Ended::Precise;
                }
            }
            if cancel.load(Ordering::Relaxed) {
                break Ended::Interrupted;
            }
            next = end;
        };
        progress.finish();
        Run {
            tally,
            trials,
            ended,
            elapsed: start.elapsed(),
            rng,
            fresh,
        }
    }

    /// Replays trial `n` alone, logging its dice: it draws from the same stream position as
    /// in the full run, so it reproduces exactly what the run counted for it.
    pub fn replay<S: Scenario, L: Log + ?Sized>(&self, s: &S, n: u64, log: &mut L) -> S::Outcome {
        let mut rng = stream(self.seed, self.cell, n / BATCH);
        for _ in 0..n % BATCH {
            s.trial(&mut rng, &mut NoLog);
        }
        s.trial(&mut rng, log)
    }
}
