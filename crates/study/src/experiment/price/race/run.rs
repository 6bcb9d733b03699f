//! A scenario family's race ([`Race`]): its sets of cells (the grid, then each round of
//! added counts) fought to their first stage, refined where they can move a price, and
//! written at the price's target.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::super::super::error::{RunError, Unwatched, Watch};
use super::super::super::lock::{FolderLock, lock};
use super::super::super::threads::each;
use super::super::super::{Experiment, analyses, sweep};
use super::super::conduct::Menus;
use super::store::{Store, cell_index, distance_of, read_cell, sweep_with};
use super::{Entry, Near, STAGES, Stage, bounds, near_crossing, unsettled};
use crate::analysis::frame::WorthRow;
use crate::question::Answer;
use crate::question::run::Resume;
use diemon_core::sim::engine::Ended;

/// A folder a set is written into: one the caller holds, or one the race locked.
pub(in crate::experiment::price) enum Held<'a> {
    Borrowed(&'a FolderLock),
    Owned(FolderLock),
}

impl Held<'_> {
    pub fn lock(&self) -> &FolderLock {
        match self {
            Held::Borrowed(l) => l,
            Held::Owned(l) => l,
        }
    }
}

/// One experiment per conduct pair over the same cells (row-major as [`Menus::pair`]),
/// each written into its folder: the grid, or a round of added counts.
pub(in crate::experiment::price) struct Set<'a> {
    pub fine: Vec<Experiment>,
    pub folders: Vec<Held<'a>>,
}

/// A set in the race.
struct Raced<'a> {
    set: Set<'a>,
    /// Each cell's distance and count.
    at: Vec<(String, u64)>,
    /// Each pair's fits as its first pass read them (whole, when the set is not raced).
    first: Vec<Vec<WorthRow>>,
    /// Each pair's cells as fought so far, and how far.
    entries: Vec<Vec<Entry>>,
    stage: Vec<Vec<Stage>>,
    /// Each pair's cells fought past the first stage.
    answers: Vec<BTreeMap<usize, Answer>>,
    /// Its scratch; none when the set is not raced.
    scratch: Option<Scratch>,
}

/// A raced set's scratch: each pair's first stage (`PAIR/race/256/`), and each later
/// stage's experiments and stores (`PAIR/race/1024/`, ..., `PAIR/race/fine/`).
struct Scratch {
    first: Vec<FolderLock>,
    /// By stage after the first ([`later`]), then by pair.
    exps: Vec<Vec<Experiment>>,
    stores: Vec<Vec<Store>>,
}

/// The index of a stage after the first in a [`Scratch`]'s lists.
fn later(stage: Stage) -> usize {
    match stage {
        Stage::Capped(k) => k - 1,
        Stage::Full => STAGES.len() - 1,
    }
}

/// The stages after the first, in order.
fn stages_after_first() -> impl Iterator<Item = Stage> {
    (1..STAGES.len()).map(Stage::Capped).chain([Stage::Full])
}

/// A family's race: every set it fought, and how it runs cells.
pub(in crate::experiment::price) struct Race<'a> {
    menus: &'a Menus,
    threads: Option<usize>,
    watch: &'a dyn Watch,
    cancel: &'a AtomicBool,
    sets: Vec<Raced<'a>>,
}

impl<'a> Race<'a> {
    pub fn new(
        menus: &'a Menus,
        threads: Option<usize>,
        watch: &'a dyn Watch,
        cancel: &'a AtomicBool,
    ) -> Race<'a> {
        Race {
            menus,
            threads,
            watch,
            cancel,
            sets: Vec::new(),
        }
    }

    /// Adds `sets` and fights their first pass side by side: each cell to its first stage,
    /// or, when the price has no finer target or the sets were `written` whole by a run
    /// before, each pair's sweep as it is.
    pub fn add(&mut self, sets: Vec<Set<'a>>, written: bool) -> Result<(), RunError> {
        let raced =
            |s: &Set| !written && s.fine[0].target_ci.is_some() && s.fine[0].trials > STAGES[0];
        let firsts: Vec<Vec<Experiment>> = sets
            .iter()
            .map(|s| {
                if raced(s) {
                    s.fine.iter().map(|e| Stage::Capped(0).of(e)).collect()
                } else {
                    s.fine.clone()
                }
            })
            .collect();
        let scratch: Vec<Option<Vec<FolderLock>>> = sets
            .iter()
            .map(|s| {
                raced(s)
                    .then(|| {
                        s.folders
                            .iter()
                            .map(|f| lock(&scratch_dir(f.lock(), Stage::Capped(0))))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .transpose()
            })
            .collect::<Result<_, _>>()?;
        let jobs: Vec<(usize, usize)> = (0..sets.len())
            .flat_map(|s| (0..sets[s].fine.len()).map(move |k| (s, k)))
            .collect();
        let (watch, cancel, threads) = (self.watch, self.cancel, self.threads);
        let rows = each(&jobs, |&(s, k)| {
            let e = &firsts[s][k];
            let folder = match &scratch[s] {
                Some(locks) => &locks[k],
                None => sets[s].folders[k].lock(),
            };
            sweep_with(e, folder, watch, cancel, |i| {
                sweep::run_cell(e, i, &e.cells[i], threads, None, Vec::new(), cancel)
            })
        });
        let mut rows = rows.into_iter();
        for (set, first) in sets.into_iter().zip(scratch) {
            let fits = (0..set.fine.len())
                .map(|_| rows.next().expect("one fit list a job"))
                .collect::<Result<Vec<_>, _>>()?;
            self.sets.push(Raced::new(set, fits, first)?);
        }
        Ok(())
    }

    /// Each pair's fit at `distance` over every set, its points as fought so far.
    pub fn rows(&self, distance: &str) -> Vec<WorthRow> {
        (0..self.menus.pairs())
            .map(|k| {
                let mut row: Option<WorthRow> = None;
                for r in &self.sets {
                    let Some(fit) = r.first[k]
                        .iter()
                        .find(|f| distance_of(&f.group) == distance)
                    else {
                        continue;
                    };
                    let mut fit = fit.clone();
                    for p in &mut fit.points {
                        if let Some(i) = r.at.iter().position(|a| a.0 == distance && a.1 == p.count)
                        {
                            p.score = r.entries[k][i].score;
                            p.trials = r.entries[k][i].trials;
                        }
                    }
                    match &mut row {
                        None => row = Some(fit),
                        Some(row) => row.points.extend(fit.points),
                    }
                }
                row.expect("the grid fits every distance")
            })
            .collect()
    }

    /// Refines the cells near each distance's crossing ([`near_crossing`], over every set)
    /// that can move their count's value ([`unsettled`]), a stage at a time, until none
    /// can; whether it fought any.
    pub fn refine(&mut self) -> Result<bool, RunError> {
        let mut any = false;
        loop {
            let todo = self.next_cells();
            if todo.is_empty() {
                return Ok(any);
            }
            any = true;
            let fresh = todo
                .iter()
                .filter(|&&(s, k, i, to)| !self.store(s, k, to).has(i))
                .count();
            self.watch.more(fresh as u64);
            let this = &*self;
            let answers: Vec<Answer> = each(&todo, |&(s, k, i, to)| this.fight(s, k, i, to))
                .into_iter()
                .collect::<Result<_, RunError>>()?;
            for (&(s, k, i, to), r) in todo.iter().zip(answers) {
                let (a, b, t) = analyses::counts(&r)?;
                // A cell that met the target at a stage's cap is where its full run ends.
                let met = r.ran().map(|r| r.ended.as_str())
                    == Some(crate::question::run::ended(Ended::Precise));
                let set = &mut self.sets[s];
                set.entries[k][i] = Entry {
                    score: a as f64 + (t - a - b) as f64 / 2.0,
                    trials: t as f64,
                    full: to == Stage::Full || met,
                };
                set.stage[k][i] = if met { Stage::Full } else { to };
                set.answers[k].insert(i, r);
            }
        }
    }

    fn store(&self, s: usize, k: usize, to: Stage) -> &Store {
        let scratch = self.sets[s]
            .scratch
            .as_ref()
            .expect("only a raced set refines");
        &scratch.stores[later(to)][k]
    }

    /// Cell `i` of pair `k` of set `s` fought on to stage `to` from where it stopped (or
    /// read back, when a run before kept it).
    fn fight(&self, s: usize, k: usize, i: usize, to: Stage) -> Result<Answer, RunError> {
        let store = self.store(s, k, to);
        if let Some(r) = store.read(i)? {
            return Ok(r);
        }
        let r = &self.sets[s];
        let scratch = r.scratch.as_ref().expect("only a raced set refines");
        let before = match r.stage[k][i] {
            Stage::Capped(0) => {
                read_cell(scratch.first[k].path(), i, &r.set.fine[k].cells[i].question)?
            }
            _ => r.answers[k][&i].clone(),
        };
        let e = &scratch.exps[later(to)][k];
        let a = sweep::run_cell_from(e, i, self.threads, resume_of(&before), self.cancel);
        if self.cancel.load(Ordering::SeqCst) {
            return Err(RunError::Interrupted("interrupted while refining".into()));
        }
        let a = a?;
        store.write(i, &a)?;
        self.watch.done();
        Ok(a)
    }

    /// The cells to fight next, `(set, pair, cell, stage)`: at each count near its
    /// distance's crossing over every set, those whose interval can move its value.
    fn next_cells(&self) -> Vec<(usize, usize, usize, Stage)> {
        let (m, n) = (self.menus.unit.len(), self.menus.reference.len());
        let mut counts: BTreeMap<&str, Vec<(u64, usize, usize)>> = BTreeMap::new();
        for (s, r) in self.sets.iter().enumerate() {
            for (i, (d, c)) in r.at.iter().enumerate() {
                counts.entry(d.as_str()).or_default().push((*c, s, i));
            }
        }
        let mut todo = Vec::new();
        for cells in counts.values_mut() {
            cells.sort_unstable();
            let rows: Vec<Vec<Entry>> = cells
                .iter()
                .map(|&(_, s, i)| self.sets[s].entries.iter().map(|e| e[i]).collect())
                .collect();
            let b: Vec<[f64; 2]> = rows.iter().map(|r| bounds(m, n, r)).collect();
            let near = near_crossing(&b);
            // The counts that can set the crossing first: their neighbours are refined only
            // once those are settled, when it is known which neighbours the gate reads.
            let wanted = |level: Near| -> Vec<(usize, usize, usize, Stage)> {
                cells
                    .iter()
                    .zip(&rows)
                    .zip(&near)
                    .filter(|(_, n)| **n == level)
                    .flat_map(|((&(_, s, i), row), _)| {
                        unsettled(m, n, row)
                            .into_iter()
                            .map(move |k| (s, k, i, self.sets[s].stage[k][i].next()))
                    })
                    .collect()
            };
            let inner = wanted(Near::Crossing);
            todo.extend(if inner.is_empty() {
                wanted(Near::Beside)
            } else {
                inner
            });
        }
        // In the sets' and cells' order, whatever the distances' order.
        todo.sort_unstable_by_key(|&(s, k, i, _)| (s, i, k));
        todo
    }

    /// Writes every set's experiments at the price's target, each cell as far as it was
    /// fought; returns each set's pairs' fits (by set, pair, distance). The scratch stays
    /// until [`Self::clear`].
    pub fn finish(&self) -> Result<Vec<Vec<Vec<WorthRow>>>, RunError> {
        let jobs: Vec<(usize, usize)> = (0..self.sets.len())
            .flat_map(|s| (0..self.sets[s].set.fine.len()).map(move |k| (s, k)))
            .collect();
        let rows = each(&jobs, |&(s, k)| {
            let r = &self.sets[s];
            match &r.scratch {
                None => Ok(r.first[k].clone()),
                Some(scratch) => sweep_with(
                    &r.set.fine[k],
                    r.set.folders[k].lock(),
                    &Unwatched,
                    self.cancel,
                    |i| match r.answers[k].get(&i) {
                        Some(a) => Ok(a.clone()),
                        None => {
                            read_cell(scratch.first[k].path(), i, &r.set.fine[k].cells[i].question)
                        }
                    },
                ),
            }
        });
        let mut rows = rows.into_iter();
        self.sets
            .iter()
            .map(|r| {
                (0..r.set.fine.len())
                    .map(|_| rows.next().expect("one fit list a job"))
                    .collect()
            })
            .collect()
    }

    /// Removes the race's scratch (every set is written whole: a rerun reads them).
    pub fn clear(self) {
        for r in self.sets {
            let folders: Vec<std::path::PathBuf> = r
                .set
                .folders
                .iter()
                .map(|f| f.lock().path().join("race"))
                .collect();
            drop(r.scratch);
            for f in folders {
                let _ = std::fs::remove_dir_all(f);
            }
        }
    }
}

impl<'a> Raced<'a> {
    /// Set `set` after its first pass (each pair's `fits`), raced when it has a `first`
    /// stage's scratch.
    fn new(
        set: Set<'a>,
        fits: Vec<Vec<WorthRow>>,
        first: Option<Vec<FolderLock>>,
    ) -> Result<Raced<'a>, RunError> {
        let index = cell_index(&set.fine[0]);
        let mut at = vec![(String::new(), 0); set.fine[0].cells.len()];
        for ((d, c), &i) in &index {
            at[i] = (d.clone(), *c);
        }
        let full = first.is_none();
        let entries = fits
            .iter()
            .map(|rows| {
                let mut e = vec![None; at.len()];
                for row in rows {
                    let d = distance_of(&row.group);
                    for p in &row.points {
                        if let Some(&i) = index.get(&(d.clone(), p.count)) {
                            e[i] = Some(Entry {
                                score: p.score,
                                trials: p.trials,
                                full,
                            });
                        }
                    }
                }
                // Every cell is a point of its distance's fit: a missing one is a bug.
                e.into_iter()
                    .enumerate()
                    .map(|(i, e)| {
                        e.ok_or_else(|| {
                            RunError::other(format!("cell {} of a price has no point", i + 1))
                        })
                    })
                    .collect::<Result<Vec<Entry>, RunError>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let pairs = set.fine.len();
        let stage = if full { Stage::Full } else { Stage::Capped(0) };
        let scratch = match first {
            None => None,
            Some(first) => {
                let exps: Vec<Vec<Experiment>> = stages_after_first()
                    .map(|st| set.fine.iter().map(|e| st.of(e)).collect())
                    .collect();
                let stores = stages_after_first()
                    .zip(&exps)
                    .map(|(st, es)| {
                        es.iter()
                            .zip(&set.folders)
                            .map(|(e, f)| Store::open(e, &scratch_dir(f.lock(), st)))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Some(Scratch {
                    first,
                    exps,
                    stores,
                })
            }
        };
        Ok(Raced {
            stage: vec![vec![stage; at.len()]; pairs],
            answers: vec![BTreeMap::new(); pairs],
            at,
            first: fits,
            entries,
            scratch,
            set,
        })
    }
}

/// A pair's scratch folder for `stage`: `PAIR/race/256/`, ..., `PAIR/race/fine/`.
fn scratch_dir(pair: &FolderLock, stage: Stage) -> std::path::PathBuf {
    pair.path().join("race").join(stage.folder())
}

/// Where a cell's answer stopped, for a run to a finer stage to go on from: none when it
/// kept no stream (it met its target, or ran past its first batch).
fn resume_of(a: &Answer) -> Option<Resume> {
    let ran = a.ran()?;
    Some(Resume {
        tally: ran.tally.clone()?,
        rng: ran.rng.clone()?,
        trials: ran.trials,
    })
}
