//! `diemon burst` in the page: a MachineGun burst's exact chances of jamming (Ch. 8.3).

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::options;
use diemon_core::dice::Die;
use diemon_core::options::AutoPenalty;
use diemon_core::rules::auto::{BurstShot, burst_shots, exact_burst};

/// A burst: its shots and the Action die that fires it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BurstQuestion {
    /// Shots intended (its Auto Penalty).
    pub shots: Option<u32>,
    /// The Action die, `d4` to `d12`.
    pub skill: String,
    /// Rule options that differ from the defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
}

/// The figures of `diemon burst --json`, each shot's row, and the command.
#[derive(Clone, Debug, Serialize)]
pub struct BurstAnswer {
    /// Shots intended.
    pub shots: u32,
    /// The Action die.
    pub skill: String,
    /// Option `auto_penalty`.
    pub auto_penalty: AutoPenalty,
    /// P(the gun jams).
    pub p_jam: f64,
    /// `[shots fired, P]`.
    pub fired: Vec<(i64, f64)>,
    /// Mean shots fired.
    pub mean_fired: f64,
    /// Each shot.
    pub shots_table: Vec<BurstShot>,
    /// The same question on the command line.
    pub command: String,
}

/// Answers a burst.
pub fn ask(q: &BurstQuestion) -> Result<BurstAnswer, Error> {
    let opts = options::apply(&q.options)?;
    let die = Die::from_name(&q.skill)
        .filter(|d| *d != Die::D20)
        .ok_or_else(|| {
            Error::input(
                "skill",
                format!("Action die {:?}: expected one die, d4 to d12", q.skill),
            )
        })?;
    let shots = q
        .shots
        .filter(|s| (1..=100).contains(s))
        .ok_or_else(|| Error::input("shots", "shots: expected 1 to 100 shots"))?;
    let (pmf, p_jam) = exact_burst(die, shots, &opts);
    let mut command = format!("diemon burst --shots {shots} --skill {die}");
    for f in options::flags(&opts) {
        command.push(' ');
        command.push_str(&f);
    }
    Ok(BurstAnswer {
        shots,
        skill: die.to_string(),
        auto_penalty: opts.auto_penalty,
        p_jam,
        fired: pmf.iter().collect(),
        mean_fired: pmf.mean(),
        shots_table: burst_shots(die, shots, &opts),
        command: command + " --json",
    })
}
