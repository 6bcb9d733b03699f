//! Prices on a cluster (issue 39, item 7). A price is thousands of small cells whose set the
//! search decides as it goes (the race, the rounds), so `--shard I/N` deals it to N machines
//! in whole **items** that depend on no other: each family of scenarios (one unit against
//! one reference in one formation: every distance, every pair of conducts, the race and the
//! rounds its search adds) and, with `--sensitivity`, each reading. Item `k` (the families
//! in the plan's order, unit by unit in a roster, then the readings) is shard `k mod N`'s.
//!
//! A shard writes its items' folders as one machine would, and [`FILE`]: what it is a shard
//! of. [`check`] sees the shards belong together and cover 1..N once each, [`gather`] copies
//! their folders into one; the caller then prices as one machine does, finding every cell
//! kept, so no battle is fought again and the files are the one machine's, byte for byte.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::roster::Roster;
use super::{Plan, Pricing, folder_of, search};
use crate::experiment::error::{RunError, Watch};
use crate::experiment::lock::{LOCK_FILE, lock};
use crate::experiment::threads::each;
use diemon_core::sim::engine::Shard;

/// The record in a shard's folder.
pub const FILE: &str = "shard.json";

/// What a shard is a shard of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `I/N`, as typed.
    pub shard: String,
    /// [`Plan::key`] of every plan it deals from, hashed together: the same build pricing
    /// the same thing.
    pub key: String,
    /// The job the shards deal.
    pub job: Job,
}

/// The whole job, as the merge prices it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// `diemon price`.
    Price {
        /// What to price.
        pricing: Pricing,
        /// Whether the readings are priced too (`--sensitivity`).
        sensitivity: bool,
        /// Whether each reading is kept whole (`--keep-readings`).
        keep_readings: bool,
        /// The command as typed (without `--shard` and `--out`), for the page.
        command: String,
        /// The same with no `-o`, `--sensitivity` or `--parts`, for the readings' frames.
        base_command: String,
    },
    /// A roster (`kind = "price"`).
    Roster(Roster),
}

impl Job {
    /// The folder a merge writes by default: the one machine's.
    pub fn default_dir(&self) -> PathBuf {
        match self {
            Job::Price { pricing, .. } => {
                PathBuf::from("reports").join(format!("price-{}", super::file_name(&pricing.unit)))
            }
            Job::Roster(r) => PathBuf::from("reports").join(&r.name),
        }
    }

    /// Its [`key`] under this build: a merge by another build (or with another catalog)
    /// would find no cell it trusts, and fight everything again.
    pub fn key(&self) -> Result<String, RunError> {
        match self {
            Job::Price { pricing, .. } => Ok(key(&[&super::plan(pricing)?])),
            Job::Roster(r) => {
                let plans = super::roster::plans(r)?;
                Ok(key(&plans.iter().map(|(_, p)| p).collect::<Vec<_>>()))
            }
        }
    }
}

/// One key over `plans`' keys, in order.
pub fn key(plans: &[&Plan]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in plans {
        h.update(p.key().as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether item `k` is shard `s`'s.
pub fn mine(s: Shard, k: usize) -> bool {
    k as u64 % s.count == s.index
}

/// Runs shard `s`'s families of `plans` (each a pricing, its plan, and the folder it prices
/// into), the `k`-th family over all plans being item `k`, side by side; returns how many
/// it ran. A family's folder is written as one machine writes it.
pub fn run_families(
    plans: &[(&Pricing, &Plan, PathBuf)],
    s: Shard,
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
) -> Result<usize, RunError> {
    let items: Vec<(&Pricing, &super::Planned, PathBuf)> = plans
        .iter()
        .flat_map(|(p, plan, dir)| plan.fits.iter().map(move |f| (*p, f, folder_of(dir, f))))
        .enumerate()
        .filter(|(k, _)| mine(s, *k))
        .map(|(_, item)| item)
        .collect();
    let held = items
        .iter()
        .map(|(_, _, dir)| lock(dir))
        .collect::<Result<Vec<_>, _>>()?;
    let work: Vec<(
        &Pricing,
        &super::Planned,
        &crate::experiment::lock::FolderLock,
    )> = items
        .iter()
        .zip(&held)
        .map(|((p, f, _), h)| (*p, *f, h))
        .collect();
    watch.begin_items(
        work.iter().map(|(_, f, _)| f.cells() as u64).sum(),
        0,
        "cells",
    );
    let ran = each(&work, |&(p, f, h)| {
        search(p, f, h, threads, &super::Cells(watch), cancel)
    });
    watch.finish();
    if ran
        .iter()
        .any(|r| matches!(r, Err(RunError::Interrupted(_))))
    {
        return Err(RunError::Interrupted(
            "interrupted: the families this shard finished are kept\nhint: run the same \
             command again to resume from them"
                .into(),
        ));
    }
    for r in ran {
        r?;
    }
    Ok(work.len())
}

/// Writes `r` into `dir` (temporary file, then renamed).
pub fn write(dir: &Path, r: &Record) -> Result<(), RunError> {
    crate::export::write_json_atomic(dir, FILE, r).map_err(|e| RunError::other(e.to_string()))?;
    Ok(())
}

/// Whether `dir` holds a price's shard.
pub fn is_shard(dir: &Path) -> bool {
    dir.join(FILE).is_file()
}

/// Reads the shards in `dirs` and checks they are the shards of one job covering 1..N once
/// each, priced by this build; returns the job.
pub fn check(dirs: &[PathBuf]) -> Result<Job, RunError> {
    let mut first: Option<(Record, &PathBuf)> = None;
    let mut seen: Vec<Option<&PathBuf>> = Vec::new();
    for dir in dirs {
        let path = dir.join(FILE);
        let r: Record = std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
            .map_err(|e| {
                RunError::input(format!(
                    "{}: not a price's shard: {e}\nhint: give the folders `diemon price \
                     --shard I/N --out DIR` (or `diemon run ROSTER --shard I/N`) wrote",
                    path.display()
                ))
            })?;
        let s = Shard::parse(&r.shard)
            .map_err(|e| RunError::input(format!("{}: shard {e}", path.display())))?;
        if let Some((f, at)) = &first
            && (&f.key, &f.job) != (&r.key, &r.job)
        {
            return Err(RunError::input(format!(
                "{} and {} are shards of different prices (or options, seeds, builds)\n\
                     hint: merge only the shards of one command",
                at.display(),
                dir.display()
            )));
        }
        if seen.is_empty() {
            seen = vec![None; s.count as usize];
        }
        if s.count as usize != seen.len() {
            return Err(RunError::input(format!(
                "{} is shard {}, but the first is one of {}: the shards of one run share N",
                dir.display(),
                r.shard,
                seen.len()
            )));
        }
        if let Some(other) = seen[s.index as usize].replace(dir) {
            return Err(RunError::input(format!(
                "{} and {} are both shard {}",
                other.display(),
                dir.display(),
                r.shard
            )));
        }
        first.get_or_insert((r, dir));
    }
    let Some((r, _)) = first else {
        return Err(RunError::input("no shard folders to merge"));
    };
    if let Some(i) = seen.iter().position(Option::is_none) {
        return Err(RunError::input(format!(
            "shard {}/{} is missing\nhint: merge every shard's folder",
            i + 1,
            seen.len()
        )));
    }
    if r.job.key()? != r.key {
        return Err(RunError::input(
            "the shards were priced by another build of diemon, or with another catalog's \
             text: this build would trust none of their cells\nhint: merge with the diemon \
             (and the catalog files) that ran the shards",
        ));
    }
    Ok(r.job)
}

/// Copies the shards' folders `dirs` into `out` (created), as one machine would have
/// written them ([`check`] them first). An `out` that is a shard's folder, lies inside one
/// or holds one is refused: a merge never touches its inputs.
pub fn gather(dirs: &[PathBuf], out: &Path) -> Result<(), RunError> {
    for dir in dirs {
        let Some(how) = crate::experiment::merge::overlap(out, dir) else {
            continue;
        };
        return Err(RunError::input(format!(
            "--out {} {how} the shard folder {}: a merge never touches its inputs\n\
             hint: merge into a folder beside the shards",
            out.display(),
            dir.display()
        )));
    }
    for dir in dirs {
        copy_tree(dir, out)?;
    }
    Ok(())
}

/// Copies the files under `from` into `to`, folders and all, but for the shard's record and
/// lock files.
fn copy_tree(from: &Path, to: &Path) -> Result<(), RunError> {
    let fail = |p: &Path, e: std::io::Error| RunError::other(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(to).map_err(|e| fail(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| fail(from, e))? {
        let entry = entry.map_err(|e| fail(from, e))?;
        let (path, name) = (entry.path(), entry.file_name());
        if name == FILE || name == LOCK_FILE {
            continue;
        }
        if path.is_dir() {
            copy_tree(&path, &to.join(&name))?;
        } else {
            std::fs::copy(&path, to.join(&name)).map_err(|e| fail(&path, e))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_dealt_in_turn() {
        let s = Shard::parse("2/3").unwrap();
        let got: Vec<usize> = (0..8).filter(|&k| mine(s, k)).collect();
        assert_eq!(got, [1, 4, 7]);
        assert!((0..8).all(|k| mine(Shard::WHOLE, k)));
    }
}
