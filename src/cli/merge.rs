//! `diemon merge DIR...`: the shards of a run, added up into one machine's frames
//! ([`crate::experiment::merge`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::Failure;
use super::progress::Cells;
use crate::experiment::price::shard;

#[derive(Args, Debug)]
#[command(
    after_help = "Example (docs/cluster.md runs this on Slurm and Kubernetes):
  diemon run experiments/first-strike.toml --shard 1/2 --out /shared/fs-1
  diemon run experiments/first-strike.toml --shard 2/2 --out /shared/fs-2
  diemon merge /shared/fs-1 /shared/fs-2 --out reports/first-strike

The merged frames equal those of `diemon run experiments/first-strike.toml`, digit for digit.
The shards of a price (`diemon price UNIT --shard I/N`) or of a price roster merge the same
way: their folders are copied into one and priced as one machine does, fighting nothing
again."
)]
pub struct MergeArgs {
    /// The shards' output folders (`diemon run --shard I/N --out DIR`), one per shard.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where to write (default: reports/NAME).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// No per-cell lines and no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(a: &MergeArgs, cancel: &AtomicBool, out: &mut dyn Write) -> Result<(), Failure> {
    if a.dirs.iter().any(|d| shard::is_shard(d)) {
        return merge_prices(a, cancel, out);
    }
    let _guard = super::interrupt::Guard::new();
    let watch = Cells::new(a.quiet);
    Ok(crate::experiment::merge::merge(
        &a.dirs,
        a.out.as_ref(),
        a.quiet,
        &watch,
        cancel,
        out,
    )?)
}

/// The shards of a price or a price roster: checked, copied into one folder and priced there
/// as one machine prices them (every cell is kept, so nothing is fought again).
fn merge_prices(a: &MergeArgs, cancel: &AtomicBool, out: &mut dyn Write) -> Result<(), Failure> {
    let job = shard::check(&a.dirs)?;
    let dir = a.out.clone().unwrap_or_else(|| job.default_dir());
    {
        let _held = crate::experiment::lock::lock(&dir)?;
        shard::gather(&a.dirs, &dir)?;
    }
    super::io(writeln!(
        out,
        "{} shards gathered into {}",
        a.dirs.len(),
        dir.display()
    ))?;
    match job {
        shard::Job::Price {
            pricing,
            sensitivity,
            keep_readings,
            command,
            base_command,
        } => {
            let w = super::price::Whole {
                sensitivity,
                keep_readings,
                parts: false,
                command,
                base_command,
            };
            super::price::whole(&pricing, &w, &dir, None, a.quiet, cancel, out)
        }
        shard::Job::Roster(r) => {
            let _guard = super::interrupt::Guard::new();
            let watch = Cells::new(a.quiet);
            let drive = crate::experiment::error::Drive {
                threads: None,
                quiet: a.quiet,
                watch: &watch,
                cancel,
            };
            Ok(crate::experiment::price::roster::run(&r, &dir, drive, out)?)
        }
    }
}
