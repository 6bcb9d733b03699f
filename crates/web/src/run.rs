//! What every seeded run of the page shares: how long to run (trials, a precision target,
//! the seed) read as the command line reads its flags, the run stepped by the core's
//! [`Steps`] ([`Running`]), and the win shares every duel answer opens with.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use diemon_core::sim::count::parse_trials;
use std::time::Duration;

use diemon_core::sim::engine::{Engine, Run, Shard, Stop};
use diemon_core::sim::scenario::Scenario;
use diemon_core::sim::steps::Steps;
use diemon_core::sim::{CONFIDENCE, Estimate};

/// How long to run, as the page's fields give it.
#[derive(Clone, Debug, Deserialize)]
pub struct RunSpec {
    /// Trials (with a target, the most): `1000000`, `1e6`, `1M`.
    #[serde(default = "trials")]
    pub trials: String,
    /// Stop once the key figure's 95% CI half-width is at most this.
    #[serde(default)]
    pub target_ci: Option<String>,
    /// The master seed, as typed (a seed past 2^53 would not survive a JavaScript number).
    #[serde(default = "seed")]
    pub seed: String,
}

fn trials() -> String {
    "1000000".into()
}
fn seed() -> String {
    "1".into()
}

/// Most trials the page runs (the command line takes more).
pub const MAX_TRIALS: u64 = 10_000_000_000;

/// A run's reading of its [`RunSpec`]: checked, and the engine of cell 0 (as a command runs).
#[derive(Copy, Clone, Debug)]
pub struct Checked {
    /// Trials, or the cap.
    pub trials: u64,
    /// The precision target.
    pub target_ci: Option<f64>,
    /// The seed.
    pub seed: u64,
}

impl RunSpec {
    /// Checks the fields; `max_half_width` is the widest sensible target of the key figure.
    pub fn check(&self, max_half_width: f64) -> Result<Checked, Error> {
        let trials = parse_trials(&self.trials)
            .map_err(|e| Error::input("trials", format!("trials {:?}: {e}", self.trials)))?;
        if trials > MAX_TRIALS {
            return Err(Error::input(
                "trials",
                format!(
                    "trials {trials}: the page runs at most {MAX_TRIALS}\nhint: run more on the command line"
                ),
            ));
        }
        let target_ci = match self.target_ci.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(t) => match t.parse::<f64>() {
                Ok(x) if x > 0.0 && x < max_half_width => Some(x),
                _ => {
                    return Err(Error::input(
                        "target_ci",
                        format!(
                            "target CI {t:?}: expected a half-width above 0 and below {max_half_width}, e.g. 0.001"
                        ),
                    ));
                }
            },
        };
        let seed = self.seed.trim().parse::<u64>().map_err(|_| {
            Error::input(
                "seed",
                format!(
                    "seed {:?}: expected a whole number from 0 to 18446744073709551615",
                    self.seed
                ),
            )
        })?;
        Ok(Checked {
            trials,
            target_ci,
            seed,
        })
    }
}

impl Checked {
    /// The engine a command runs these flags on: cell 0, every batch.
    pub fn engine(&self) -> Engine {
        Engine {
            seed: self.seed,
            cell: 0,
            stop: match self.target_ci {
                Some(half_width) => Stop::Precision {
                    half_width,
                    max_trials: self.trials,
                },
                None => Stop::Trials(self.trials),
            },
            shard: Shard::WHOLE,
        }
    }

    /// The run's flags on a command line: `--trials N [--target-ci X] --seed S`, or, for a
    /// run stopped after `ran` trials, `--trials ran`: the first `ran` trials of a seed are
    /// what that run counts.
    pub fn flags(&self, stopped: bool, ran: u64) -> String {
        match (stopped, self.target_ci) {
            (true, _) => format!(" --trials {ran} --seed {}", self.seed),
            (false, Some(x)) => format!(
                " --trials {} --target-ci {x} --seed {}",
                self.trials, self.seed
            ),
            (false, None) => format!(" --trials {} --seed {}", self.trials, self.seed),
        }
    }
}

/// Who won how often, with 95% CIs (Wilson): the keys of `diemon duel --json`.
#[derive(Copy, Clone, Debug, Serialize, PartialEq)]
pub struct Shares {
    /// P(A wins).
    pub p_a_wins: f64,
    /// Its 95% CI.
    pub ci_a_wins: [f64; 2],
    /// P(B wins).
    pub p_b_wins: f64,
    /// Its 95% CI.
    pub ci_b_wins: [f64; 2],
    /// P(draw).
    pub p_draw: f64,
    /// Its 95% CI.
    pub ci_draw: [f64; 2],
    /// P(the side that acted first wins).
    pub p_first_side_wins: f64,
    /// Its 95% CI.
    pub ci_first_side_wins: [f64; 2],
}

impl Shares {
    /// From the counts: wins of A, of B, draws and wins of the side that acted first.
    pub fn of(trials: u64, counts: [u64; 4]) -> Shares {
        let [a, b, d, f] = counts.map(|k| Estimate::proportion(k, trials, CONFIDENCE));
        Shares {
            p_a_wins: a.point,
            ci_a_wins: a.ci,
            p_b_wins: b.point,
            ci_b_wins: b.ci,
            p_draw: d.point,
            ci_draw: d.ci,
            p_first_side_wins: f.point,
            ci_first_side_wins: f.ci,
        }
    }
}

/// How a run went: the keys every run's answer opens with.
#[derive(Clone, Debug, Serialize)]
pub struct Ran {
    /// Trials run.
    pub trials: u64,
    /// The master seed.
    pub seed: u64,
    /// How the run ended, in words.
    pub ended: &'static str,
    /// Trials a second of the page's wall time (a measurement, not a seeded figure).
    pub trials_per_sec: f64,
    /// Threads: a worker has one.
    pub threads: usize,
}

/// A run under way that the page steps (kept between calls, whatever its question).
pub trait Stepped {
    /// Runs about `trials` more; true once the run has ended.
    fn step(&mut self, trials: u64) -> bool;
    /// The most trials it may take.
    fn total(&self) -> u64;
    /// The answer as it stands, `seconds` of wall time in: final once ended, else
    /// "interrupted" with every trial so far.
    fn answer(&self, seconds: f64) -> Result<serde_json::Value, Error>;
}

/// A seeded run under way: what was asked, how long it may run, the scenario each trial
/// plays, and the core's steps over it.
pub struct Running<S: Scenario, Q> {
    /// The question.
    pub question: Q,
    /// How long it may run.
    pub run: Checked,
    /// What each trial plays.
    pub scenario: S,
    steps: Steps<S::Tally>,
}

impl<S: Scenario, Q> Running<S, Q> {
    /// `scenario` ready to step as `run` says.
    pub fn new(question: Q, run: Checked, scenario: S) -> Running<S, Q> {
        Running {
            steps: run.engine().steps(),
            question,
            run,
            scenario,
        }
    }

    /// The run as it stands, `seconds` of wall time in, and whether it was stopped before
    /// its end (its command then reruns the trials drawn: [`Checked::flags`]).
    pub fn now(&self, seconds: f64) -> (Run<S::Tally>, bool) {
        let elapsed = Duration::from_secs_f64(seconds.max(0.0));
        (
            self.steps.run::<S::Outcome>(elapsed),
            self.steps.ended().is_none(),
        )
    }

    /// How `run` went: the keys every answer opens with.
    pub fn ran(&self, run: &Run<S::Tally>) -> Ran {
        Ran {
            trials: run.trials,
            seed: self.run.seed,
            ended: run.ended.words(),
            trials_per_sec: run.trials_per_sec(),
            threads: 1,
        }
    }
}

/// A question whose run the page steps: how its answer reads the run.
pub trait Answers: Sized {
    /// What each trial plays.
    type Scenario: Scenario;
    /// The figures, with the keys of the command line's `--json`.
    type Answer: Serialize;
    /// The answer of `r` as it stands, `seconds` of wall time in.
    fn figures(r: &Running<Self::Scenario, Self>, seconds: f64) -> Self::Answer;
}

impl<Q: Answers> Stepped for Running<Q::Scenario, Q> {
    fn step(&mut self, trials: u64) -> bool {
        self.steps.step(&self.scenario, trials)
    }

    fn total(&self) -> u64 {
        self.steps.total()
    }

    fn answer(&self, seconds: f64) -> Result<serde_json::Value, Error> {
        serde_json::to_value(Q::figures(self, seconds))
            .map_err(|e| Error::input("answer", format!("the answer does not serialize: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_the_command_line_reads_them() {
        let spec = |t: &str, x: Option<&str>| RunSpec {
            trials: t.into(),
            target_ci: x.map(Into::into),
            seed: "3".into(),
        };
        let c = spec("2M", Some("0.01")).check(0.5).unwrap();
        assert_eq!((c.trials, c.target_ci), (2_000_000, Some(0.01)));
        assert_eq!(
            c.flags(false, 0),
            " --trials 2000000 --target-ci 0.01 --seed 3"
        );
        assert_eq!(c.flags(true, 70_000), " --trials 70000 --seed 3");
        assert_eq!(spec("0", None).check(0.5).unwrap_err().field, "trials");
        assert_eq!(
            spec("1M", Some("0.7")).check(0.5).unwrap_err().field,
            "target_ci"
        );
        assert_eq!(spec("1M", Some("")).check(0.5).unwrap().target_ci, None);
        let big = RunSpec {
            seed: "18446744073709551615".into(),
            ..spec("1M", None)
        };
        assert_eq!(big.check(0.5).unwrap().seed, u64::MAX);
        let bad = RunSpec {
            seed: "-1".into(),
            ..spec("1M", None)
        };
        assert_eq!(bad.check(0.5).unwrap_err().field, "seed");
    }
}
