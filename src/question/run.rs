//! The flags every seeded run shares, and their checks: trials, a precision target, the
//! seed, worker threads, a replayed trial, and what an experiment tells a cell (its index,
//! its shard, the tallies it resumes from). Each command flattens [`RunFlags`]' inputs in
//! its own `Args`; the checks here are the only ones.

use clap::Args;

use super::Error;
use crate::sim::engine::{Engine, Shard, Stop};

/// What `diemon run` and `diemon merge` tell a command about the experiment cell it runs.
/// Hidden: a person runs a cell with the command's own flags.
#[derive(Args, Debug, Clone, Default)]
pub struct CellArgs {
    /// The experiment cell: each cell of a sweep draws its own streams.
    #[arg(long, hide = true, default_value_t = 0)]
    pub cell: u64,
    /// Run only shard I/N of the cell's batches.
    #[arg(long, hide = true, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Put the raw tally in the JSON report (what a merge adds up).
    #[arg(long, hide = true)]
    pub with_tally: bool,
    /// Run nothing: add up these tallies (JSON, one per flag) and report their sum.
    #[arg(long = "tally", hide = true, value_name = "JSON")]
    pub tallies: Vec<String>,
    /// The text of the `--catalog` file as the experiment read it (kept in its manifest).
    #[arg(long = "catalog-text", hide = true, value_name = "TOML")]
    pub catalog_text: Option<String>,
}

/// The flags of a seeded Monte Carlo run, declared once for `duel` and `blast` (each may
/// change a default or a help line with clap's `mut_arg`).
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Trials to run (accepts 1e7, 10M, 10_000_000).
    #[arg(long, value_parser = parse_trials, allow_negative_numbers = true, default_value = "1000000")]
    pub trials: u64,
    /// Stop once the 95% CI half-width of the key figure is at most X (at most --trials
    /// trials).
    #[arg(long, value_name = "X")]
    pub target_ci: Option<f64>,
    /// Narrate trial N (0-based) of this run instead of running it all.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub replay_trial: Option<u64>,
    #[command(flatten)]
    pub out: Seeded,
}

/// The seed, the worker threads and the output of any seeded run (`marks --trials` too).
#[derive(Args, Debug, Clone)]
pub struct Seeded {
    /// Master seed (same seed, same digits, on any thread count).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Never changes a result.
    #[arg(long)]
    pub threads: Option<usize>,
    /// What `diemon run` tells the command about the cell it runs (hidden flags).
    #[command(flatten)]
    pub part: CellArgs,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object (no progress bar).
    #[arg(long)]
    pub json: bool,
}

impl RunArgs {
    /// The checked run flags, with the largest sensible half-width of the key figure and
    /// what it is measured in (for the error message).
    pub fn flags(&self, max_half_width: f64, ci_unit: &'static str) -> RunFlags {
        RunFlags {
            trials: self.trials,
            target_ci: self.target_ci,
            max_half_width,
            ci_unit,
            seed: self.out.seed,
            part: self.out.part.clone(),
            threads: self.out.threads,
            replay: self.replay_trial,
            silent: self.out.quiet || self.out.json,
        }
    }
}

/// The flags of a seeded run, as one command gives them.
pub struct RunFlags {
    pub trials: u64,
    pub target_ci: Option<f64>,
    /// The largest sensible half-width (0.5 for a probability).
    pub max_half_width: f64,
    /// What the precision target is measured in, for the error message.
    pub ci_unit: &'static str,
    pub seed: u64,
    /// The experiment cell, shard and merge inputs.
    pub part: CellArgs,
    pub threads: Option<usize>,
    pub replay: Option<u64>,
    /// No progress bar (`--quiet` or `--json`).
    pub silent: bool,
}

impl RunFlags {
    pub fn check(&self) -> Result<(), Error> {
        if self.trials == 0 {
            return Err(Error::input("--trials 0: expected at least one trial"));
        }
        if let Some(x) = self.target_ci
            && !(x > 0.0 && x < self.max_half_width)
        {
            let range = if self.max_half_width.is_finite() {
                format!("above 0 and below {}", self.max_half_width)
            } else {
                "above 0".to_string()
            };
            return Err(Error::input(format!(
                "--target-ci {x}: expected a half-width {range} ({})",
                self.ci_unit
            )));
        }
        if self.part.shard.is_some() && self.target_ci.is_some() {
            return Err(Error::input(
                "--shard with --target-ci: a precision stop needs every batch in order\n\
                 hint: shard a run of fixed --trials",
            ));
        }
        check_threads(self.threads)?;
        if let Some(n) = self.replay
            && n >= self.trials
        {
            return Err(Error::input(format!(
                "--replay-trial {n}: this run has trials 0 to {}",
                self.trials - 1
            )));
        }
        Ok(())
    }

    pub fn engine(&self) -> Engine {
        Engine {
            seed: self.seed,
            cell: self.part.cell,
            shard: self.part.shard.unwrap_or(Shard::WHOLE),
            stop: match self.target_ci {
                Some(x) => Stop::Precision {
                    half_width: x,
                    max_trials: self.trials,
                },
                None => Stop::Trials(self.trials),
            },
        }
    }
}

/// The most worker threads a run may ask for: four per core. More only slows a run down
/// (10,000 threads turned a 0.01 s duel into 47 s) and, far past it, cannot start.
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Checks `--threads`: from 1 to [`max_threads`].
pub fn check_threads(threads: Option<usize>) -> Result<(), Error> {
    match threads {
        Some(0) => Err(Error::input("--threads 0: expected at least one thread")),
        Some(n) if n > max_threads() => Err(Error::input(format!(
            "--threads {n}: expected at most {} on this machine (4 a core)
hint: leave              --threads out to use every core; more threads never change a result",
            max_threads()
        ))),
        _ => Ok(()),
    }
}

/// Parses a trial count: `1000000`, `1_000_000`, `1e6`, `1M`, `10k`, `2G`.
pub fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.trim().replace('_', "");
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1e3),
        Some('M') => (&t[..t.len() - 1], 1e6),
        Some('G' | 'B') => (&t[..t.len() - 1], 1e9),
        _ => (&t[..], 1.0),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| format!("expected a whole number like 1000000, 1e6 or 1M, got {s:?}"))?;
    let v = v * mult;
    if !((0.0..=1e15).contains(&v) && v.fract() == 0.0) {
        return Err(format!("expected a whole number from 0 to 1e15, got {s:?}"));
    }
    Ok(v as u64)
}

/// Parses a count of trials or rolls, as [`parse_count`], from 1 (a run of no trials answers
/// nothing).
pub fn parse_trials(s: &str) -> Result<u64, String> {
    match parse_count(s) {
        Ok(0) | Err(_) => Err(format!(
            "expected a whole number from 1 to 1e15 (like 1000000, 1e6 or 1M), got {s:?}"
        )),
        Ok(n) => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_every_spelling() {
        assert_eq!(parse_count("1000000"), Ok(1_000_000));
        assert_eq!(parse_count("1_000_000"), Ok(1_000_000));
        assert_eq!(parse_count("1e7"), Ok(10_000_000));
        assert_eq!(parse_count("10M"), Ok(10_000_000));
        assert_eq!(parse_count("2.5k"), Ok(2_500));
        assert!(parse_count("1.5").is_err());
        assert!(parse_count("-3").is_err());
        assert!(parse_count("lots").is_err());
    }
}
