//! Where a race keeps its cells: each stage's refined cells sealed and stamped as a
//! sweep's ([`Store`]), read back on a resume; and a set's experiments written at the end.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::super::super::error::{Drive, RunError, Watch};
use super::super::super::lock::FolderLock;
use super::super::super::{Experiment, cell, sweep};
use crate::analysis::frame::WorthRow;
use crate::export::write_text_atomic;
use crate::question::{Answer, Asked};

/// The refined cells of one pair: each kept the moment it ends, sealed and stamped like a
/// sweep's, under the fine experiment's manifest and resume key.
pub(super) struct Store {
    dir: std::path::PathBuf,
    stamp: Box<dyn Fn(usize) -> cell::Stamp + Send + Sync>,
    /// Each cell's question, which its kept answer reads back as.
    questions: Vec<Asked>,
}

impl Store {
    /// Opens `dir` for `e`'s refined cells: those a run under the same manifest and key
    /// kept are read back; anything else is cleared.
    pub(super) fn open(e: &Experiment, dir: &Path) -> Result<Store, RunError> {
        let manifest = sweep::manifest(e, None)?;
        let cells = dir.join("cells");
        if !sweep::resumes(e, dir, &manifest) && cells.exists() {
            std::fs::remove_dir_all(&cells).map_err(|err| {
                RunError::other(format!("cannot clear {}: {err}", cells.display()))
            })?;
        }
        std::fs::create_dir_all(&cells)
            .map_err(|err| RunError::other(format!("cannot create {}: {err}", cells.display())))?;
        write_text_atomic(&cells, sweep::KEY_FILE, &e.key())?;
        write_text_atomic(dir, "manifest.toml", &manifest)?;
        Ok(Store {
            dir: cells,
            stamp: Box::new(sweep::stamp_of(e, &manifest)),
            questions: e.cells.iter().map(|c| c.question.clone()).collect(),
        })
    }

    pub(super) fn has(&self, i: usize) -> bool {
        self.dir.join(sweep::cell_file(i)).exists()
    }

    /// Cell `i` if a run kept it whole with this run's stamp; a foreign one is refused.
    pub(super) fn read(&self, i: usize) -> Result<Option<Answer>, RunError> {
        if !self.has(i) {
            return Ok(None);
        }
        let (r, stamp) = read_stamped(
            self.dir.parent().unwrap_or(&self.dir),
            i,
            &self.questions[i],
        )?;
        if stamp != (self.stamp)(i) {
            return Err(RunError::input(format!(
                "{} was not written by this run\nhint: remove {} and run the same command again",
                self.dir.join(sweep::cell_file(i)).display(),
                self.dir.display()
            )));
        }
        Ok(Some(r))
    }

    pub(super) fn write(&self, i: usize, r: &Answer) -> Result<(), RunError> {
        let text = cell::seal(r, &(self.stamp)(i))
            .map_err(|err| RunError::other(format!("cell {}: {err}", i + 1)))?;
        write_text_atomic(&self.dir, &sweep::cell_file(i), &text)?;
        Ok(())
    }
}

/// Cell `i` of the run in `dir` (`dir/cells/NNNNN.json`), checked whole: its answer to
/// `question`.
pub(super) fn read_cell(dir: &Path, i: usize, question: &Asked) -> Result<Answer, RunError> {
    read_stamped(dir, i, question).map(|(a, _)| a)
}

/// Cell `i` of the run in `dir`, checked whole, with its stamp.
fn read_stamped(dir: &Path, i: usize, question: &Asked) -> Result<(Answer, cell::Stamp), RunError> {
    let path = dir.join("cells").join(sweep::cell_file(i));
    let bytes = std::fs::read(&path)
        .map_err(|err| RunError::other(format!("cannot read {}: {err}", path.display())))?;
    cell::unseal(&bytes, question).map_err(|why| {
        RunError::input(format!(
            "{}: {why}\nhint: remove it and run the same command again",
            path.display()
        ))
    })
}

/// Sweeps `e` into `folder` with `cell` making each cell it lacks; returns the fits.
pub(super) fn sweep_with(
    e: &Experiment,
    folder: &FolderLock,
    watch: &dyn Watch,
    cancel: &AtomicBool,
    cell: impl Fn(usize) -> Result<Answer, RunError>,
) -> Result<Vec<WorthRow>, RunError> {
    // The run's own lines (each cell, the fit, the files) stay in its folder.
    let mut said = Vec::new();
    let manifest = sweep::manifest(e, None)?;
    sweep::sweep(
        e,
        folder,
        &manifest,
        false,
        Drive {
            threads: None,
            quiet: true,
            watch,
            cancel,
        },
        &mut said,
        |i, _| cell(i),
    )
}

/// Each cell of a price experiment by its distance and count.
pub(super) fn cell_index(e: &Experiment) -> HashMap<(String, u64), usize> {
    e.cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let get = |k: &str| c.params.iter().find(|(n, _)| n == k).map(|(_, v)| v);
            Some(((get("distance")?.clone(), get("count")?.parse().ok()?), i))
        })
        .collect()
}

/// The distance a fit's group names.
pub(super) fn distance_of(group: &[(String, String)]) -> String {
    group
        .iter()
        .find(|(k, _)| k == "distance")
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}
