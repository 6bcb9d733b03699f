//! `diemon burst`: a MachineGun burst's exact chances of jamming (Ch. 8.3).

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::{Failure, io};
use crate::dice::Die;
use crate::rules::RuleOptions;
use crate::rules::auto::{burst_shots, exact_burst};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon burst --shots 4                  a minifig's d6, four shots
  diemon burst --shots 6 --skill d8       a Gunner's d8 on a mounted MachineGun
  diemon burst --shots 4 -o auto_penalty=overall --json")]
pub struct BurstArgs {
    /// Shots intended in the burst (its Auto Penalty).
    #[arg(long, default_value_t = 3)]
    pub shots: u32,
    /// The Action die that fires it.
    #[arg(long, default_value = "d6")]
    pub skill: String,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &BurstArgs, opts: &RuleOptions, out: &mut dyn Write) -> Result<(), Failure> {
    let die = Die::from_name(&a.skill)
        .filter(|d| *d != Die::D20)
        .ok_or_else(|| {
            Failure::input(format!(
                "--skill {:?}: expected one Action die, d4 to d12",
                a.skill
            ))
        })?;
    if !(1..=100).contains(&a.shots) {
        return Err(Failure::input(format!(
            "--shots {}: expected 1 to 100 shots",
            a.shots
        )));
    }
    let (pmf, p_jam) = exact_burst(die, a.shots, opts);
    let text = if a.json {
        let v = json!({
            "shots": a.shots,
            "skill": die.to_string(),
            "auto_penalty": opts.auto_penalty,
            "p_jam": p_jam,
            "fired": pmf.iter().map(|(k, p)| json!([k, p])).collect::<Vec<_>>(),
            "mean_fired": pmf.mean(),
        });
        format!("{v}\n")
    } else {
        let mut s = format!(
            "MachineGun burst of {} with a {die} (Ch. 8.3; auto_penalty={}): exact\n\n",
            a.shots, opts.auto_penalty
        );
        s.push_str("  shot  penalty  P(jams on it)  P(fired this many)\n");
        for r in burst_shots(die, a.shots, opts) {
            s.push_str(&format!(
                "  {:>4}  {:>7}  {:>13.6}  {:>18.6}\n",
                r.shot,
                -(r.penalty as i64),
                r.p_jams,
                r.p_fired
            ));
        }
        s.push_str(&format!(
            "\n  P(the gun jams)  {p_jam:.6}\n  mean shots fired {:.4}\n",
            pmf.mean()
        ));
        s
    };
    io(out.write_all(text.as_bytes()))
}
