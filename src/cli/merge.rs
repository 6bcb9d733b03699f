//! `diemon merge DIR...`: the shards of a run, added up into one machine's frames
//! ([`crate::experiment::merge`]).

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::Failure;
use super::progress::Cells;

#[derive(Args, Debug)]
#[command(
    after_help = "Example (docs/cluster.md runs this on Slurm and Kubernetes):
  diemon run experiments/first-strike.toml --shard 1/2 --out /shared/fs-1
  diemon run experiments/first-strike.toml --shard 2/2 --out /shared/fs-2
  diemon merge /shared/fs-1 /shared/fs-2 --out reports/first-strike

The merged frames equal those of `diemon run experiments/hero-worth.toml`, digit for digit."
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
