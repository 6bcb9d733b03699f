//! Racing the conducts (issue 39, item 6): a scenario's conduct pairs are fought first to a
//! coarse precision, and only the cells that can still move the price are then fought to
//! the price's own: those that can move the game value of a count near the crossing.
//!
//! At each count the value is that of the matrix of the pairs' win chances ([`value`]).
//! Most pairs cannot set it: a swarm packed 0.5" apart loses far more often than one 3"
//! apart, and the unit's value is the swarm's best answer. So:
//! 1. every pair's cells run to their first [`COARSE_TRIALS`] trials in
//!    `PAIR/race/coarse/`;
//! 2. the counts that can still move the price are those near where the values cross 50%
//!    ([`near_crossing`]: the counts whose value may be an even fight or that stand either
//!    side of the crossing, and [`NEAR`] counts either side of them); far from it a count's
//!    value lies surely on one side and is read the same at any precision. At each such
//!    count, [`unsettled`] names the cells short of the target whose 99.9% interval can
//!    move the value; they run again, a coarse one to [`MID_TRIALS`] in
//!    `PAIR/race/mid/` and one there to the price's target in `PAIR/race/fine/` (a cell's
//!    first trials are a prefix of its run to any target: same streams, so a cell at the
//!    target is exactly what an unraced price would have found), until none can;
//! 3. each pair's folder is written as its experiment at the price's target, every cell
//!    as far as it was fought (its trials say which); `race/` is then removed.
//!
//! Every decision follows from seeded cells alone, so the race is the same on any thread
//! count and after any resume. A cell left short of the target lies, at 99.9%, where it
//! cannot move the value or its count cannot move the crossing; docs/pricing.md states
//! this. A scenario with one pair of conducts is raced too: its far counts stay coarse.
//!
//! [`value`]: super::value

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::super::error::{RunError, Unwatched, Watch};
use super::super::lock::{FolderLock, lock};
use super::super::threads::each;
use super::super::{Experiment, cell, sweep};
use super::conduct::Menus;
use crate::analysis::frame::WorthRow;
use crate::analysis::game;
use crate::export::write_text_atomic;
use crate::sim::estimate::Estimate;

/// The coarse pass's trials a cell: the first trials of its run to any precision target
/// (+-0.061 at an even chance).
pub const COARSE_TRIALS: u64 = 256;

/// The middle stage's trials: a coarse cell that can move a value runs this many first
/// (+-0.022 at an even chance), and on to the price's target only if it still can. A cell
/// whose coarse chance says the target needs no more than twice this goes straight to the
/// target.
pub const MID_TRIALS: u64 = 2048;

/// The level of the interval a coarse cell's chance is trusted in when asking whether it
/// can move a count's value: wider than the 95% the price reports, so that over the
/// thousands of cells of a catalog few stand outside it.
pub const RACE_LEVEL: f64 = 0.999;

/// How far two values may differ and still be one (float noise of the game's simplex).
const SAME: f64 = 1e-12;

/// A cell of a count's matrix: its score (wins plus half the draws) of `trials`, and
/// whether it was fought to the price's own precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub score: f64,
    pub trials: f64,
    pub full: bool,
}

impl Entry {
    /// Its chance at the ends of what it may be: a full cell at its point, a coarse one
    /// across its [`RACE_LEVEL`] interval.
    fn ends(&self) -> [f64; 2] {
        let p = self.score / self.trials;
        if self.full {
            [p, p]
        } else {
            Estimate::proportion_of(p, self.trials, RACE_LEVEL).ci
        }
    }
}

/// Of an `m` x `n` matrix of `entries` (row-major: the unit's conducts by the
/// reference's), the cells short of full precision ("coarse" here, whatever their stage)
/// to fight further next; none when the value is the same wherever those cells stand in
/// their intervals.
///
/// The value rises with every cell, so it lies between the value with every coarse cell
/// at its low end and with every one at its high end. When those differ, the cells that
/// move either end alone are refined (two columns tied at the minimum move the high end
/// each), or, if no cell alone does, every coarse cell.
pub fn unsettled(m: usize, n: usize, entries: &[Entry]) -> Vec<usize> {
    let at = |end: usize| -> Vec<f64> { entries.iter().map(|e| e.ends()[end]).collect() };
    let (lo, hi) = (at(0), at(1));
    let value = |a: &[f64]| game::solve(a, m, n).value;
    let (v_lo, v_hi) = (value(&lo), value(&hi));
    if v_hi - v_lo <= SAME {
        return Vec::new();
    }
    let coarse: Vec<usize> = (0..entries.len()).filter(|&k| !entries[k].full).collect();
    let moving: Vec<usize> = coarse
        .iter()
        .copied()
        .filter(|&k| {
            let mut up = lo.clone();
            up[k] = hi[k];
            let mut down = hi.clone();
            down[k] = lo[k];
            value(&up) > v_lo + SAME || value(&down) < v_hi - SAME
        })
        .collect();
    if moving.is_empty() { coarse } else { moving }
}

/// The count's value with every cell short of full precision at the low end of its
/// interval, and at the high end: where the value may lie.
pub fn bounds(m: usize, n: usize, entries: &[Entry]) -> [f64; 2] {
    let at = |end: usize| -> Vec<f64> { entries.iter().map(|e| e.ends()[end]).collect() };
    [0, 1].map(|end| game::solve(&at(end), m, n).value)
}

/// How many counts either side (in the order of one distance's counts) of a count that can
/// set the crossing still matter to the price: the two the crossing is read between, the
/// quality gate's neighbour beyond each ([`crate::analysis::fair_cp::REACH`]), and a count
/// of each parity either side (odd and even counts may be read apart).
pub const NEAR: usize = 2;

/// Of one distance's counts in order, each count's value `bounds`: whether it can still
/// move the price. A count whose value may be an even fight, or that stands either side of
/// where the values cross 50% (one surely above, the next not), can set the crossing; a
/// count within [`NEAR`] of such a count matters. Where every value lies surely on one
/// side, none does: the price is a bound, read the same at any precision.
pub fn near_crossing(bounds: &[[f64; 2]]) -> Vec<bool> {
    let side = |[lo, hi]: [f64; 2]| {
        if lo > 0.5 {
            1
        } else if hi < 0.5 {
            -1
        } else {
            0
        }
    };
    let sides: Vec<i32> = bounds.iter().map(|&b| side(b)).collect();
    let mut sets = vec![false; sides.len()];
    for (j, &s) in sides.iter().enumerate() {
        if s == 0 {
            sets[j] = true;
        }
        if j + 1 < sides.len() && s != sides[j + 1] {
            sets[j] = true;
            sets[j + 1] = true;
        }
    }
    (0..sides.len())
        .map(|j| (j.saturating_sub(NEAR)..=(j + NEAR).min(sides.len() - 1)).any(|k| sets[k]))
        .collect()
}

/// Runs `fine` (one experiment per conduct pair of `menus`, the same cells each, at the
/// price's target) into `folders`, racing the pairs when there is more than one and the
/// target is finer than the coarse pass; returns each pair's fits, as its sweep reads them.
pub(super) fn race(
    menus: &Menus,
    fine: &[Experiment],
    folders: &[&FolderLock],
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<WorthRow>>, RunError> {
    let whole = |e: &Experiment, l: &FolderLock| -> Result<bool, RunError> {
        let m = sweep::manifest(e, None)?;
        Ok(sweep::kept_count(e, l.path(), &m) == e.cells.len())
    };
    let plain = fine[0].target_ci.is_none()
        || fine[0].trials <= COARSE_TRIALS
        || fine
            .iter()
            .zip(folders)
            .map(|(e, l)| whole(e, l))
            .collect::<Result<Vec<bool>, _>>()?
            .into_iter()
            .all(|w| w);
    if plain {
        // No finer target, or a race already written: each pair's sweep as it is.
        return unraced(fine, folders, threads, watch, cancel);
    }
    let coarse_exps: Vec<Experiment> = fine.iter().map(|e| e.at_trials(COARSE_TRIALS)).collect();
    let coarse_locks = folders
        .iter()
        .map(|l| lock(&l.path().join("race").join("coarse")))
        .collect::<Result<Vec<_>, _>>()?;
    let coarse: Vec<Vec<WorthRow>> = each(&(0..fine.len()).collect::<Vec<_>>(), |&k| {
        let e = &coarse_exps[k];
        sweep_with(e, &coarse_locks[k], watch, cancel, |i| {
            sweep::run_cell(e, i, &e.cells[i], threads, None, Vec::new(), cancel)
        })
    })
    .into_iter()
    .collect::<Result<_, _>>()?;
    let refined = refine(menus, fine, folders, &coarse, threads, watch, cancel)?;
    let rows = each(&(0..fine.len()).collect::<Vec<_>>(), |&k| {
        sweep_with(
            &fine[k],
            folders[k],
            &Unwatched,
            cancel,
            |i| match refined[k].get(&i) {
                Some(r) => Ok(r.clone()),
                None => read_cell(coarse_locks[k].path(), i),
            },
        )
    })
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    drop(coarse_locks);
    // The race is written into the pairs' folders: its scratch goes (a rerun finds them whole).
    for l in folders {
        let _ = std::fs::remove_dir_all(l.path().join("race"));
    }
    Ok(rows)
}

/// The cells an unfinished race of `fine` left in `pair/race/` (coarse and refined) that a
/// rerun keeps.
pub(super) fn kept(fine: &Experiment, pair: &Path) -> Result<usize, RunError> {
    let scratch = pair.join("race");
    if !scratch.exists() {
        return Ok(0);
    }
    let coarse = fine.at_trials(COARSE_TRIALS);
    let dir = scratch.join("coarse");
    let mut n = sweep::kept_count(&coarse, &dir, &sweep::manifest(&coarse, None)?);
    for (e, name) in [(&fine.at_trials(MID_TRIALS), "mid"), (fine, "fine")] {
        let dir = scratch.join(name);
        if sweep::resumes(e, &dir, &sweep::manifest(e, None)?) {
            n += cell_files(&dir.join("cells"));
        }
    }
    Ok(n)
}

/// The cell files (`*.json`) in a `cells/` folder; none when it is missing.
pub(super) fn cell_files(cells: &Path) -> usize {
    std::fs::read_dir(cells).map_or(0, |d| {
        d.flatten()
            .filter(|c| c.path().extension().is_some_and(|x| x == "json"))
            .count()
    })
}

/// Every pair's every cell to the price's own target, as before the race.
fn unraced(
    fine: &[Experiment],
    folders: &[&FolderLock],
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<WorthRow>>, RunError> {
    each(&(0..fine.len()).collect::<Vec<_>>(), |&k| {
        let e = &fine[k];
        sweep_with(e, folders[k], watch, cancel, |i| {
            sweep::run_cell(e, i, &e.cells[i], threads, None, Vec::new(), cancel)
        })
    })
    .into_iter()
    .collect()
}

/// The refined cells of each pair (by cell index), fought until no coarse cell can move any
/// count's value; kept in `PAIR/race/fine/` as each ends, and read back on a resume in the
/// order a fresh run would have fought them.
fn refine(
    menus: &Menus,
    fine: &[Experiment],
    folders: &[&FolderLock],
    coarse: &[Vec<WorthRow>],
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
) -> Result<Vec<BTreeMap<usize, serde_json::Value>>, RunError> {
    // Every pair has the same cells: index them once by distance and count.
    let index = cell_index(&fine[0]);
    let mut entries: Vec<Vec<Option<Entry>>> = coarse
        .iter()
        .map(|rows| {
            let mut e = vec![None; fine[0].cells.len()];
            for row in rows {
                let d = distance_of(&row.group);
                for p in &row.points {
                    if let Some(&i) = index.get(&(d.clone(), p.count)) {
                        e[i] = Some(Entry {
                            score: p.score,
                            trials: p.trials,
                            full: false,
                        });
                    }
                }
            }
            e
        })
        .collect();
    // Each pair's experiment at its two refined stages, and where each keeps its cells.
    let mids: Vec<Experiment> = fine.iter().map(|e| e.at_trials(MID_TRIALS)).collect();
    let stores = [(&mids, "mid"), (&fine.to_vec(), "fine")]
        .iter()
        .map(|(es, name)| {
            es.iter()
                .zip(folders)
                .map(|(e, l)| Store::open(e, &l.path().join("race").join(name)))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut stage = vec![vec![Stage::Coarse; fine[0].cells.len()]; fine.len()];
    let mut refined: Vec<BTreeMap<usize, serde_json::Value>> = vec![BTreeMap::new(); fine.len()];
    // Each distance's cells in the order of their counts.
    let mut counts: BTreeMap<&str, Vec<(u64, usize)>> = BTreeMap::new();
    for ((d, count), &i) in &index {
        counts.entry(d.as_str()).or_default().push((*count, i));
    }
    for cells in counts.values_mut() {
        cells.sort_unstable();
    }
    loop {
        let todo = next_cells(menus, fine, &counts, &entries, &stage)?;
        if todo.is_empty() {
            return Ok(refined);
        }
        let store = |to: Stage, k: usize| &stores[usize::from(to == Stage::Full)][k];
        let fresh = todo
            .iter()
            .filter(|&&(k, i, to)| !store(to, k).has(i))
            .count();
        watch.more(fresh as u64);
        let answers: Vec<serde_json::Value> = each(&todo, |&(k, i, to)| {
            if let Some(r) = store(to, k).read(i)? {
                return Ok(r);
            }
            let e = if to == Stage::Full {
                &fine[k]
            } else {
                &mids[k]
            };
            let r = sweep::run_cell(e, i, &e.cells[i], threads, None, Vec::new(), cancel);
            if cancel.load(Ordering::SeqCst) {
                return Err(RunError::Interrupted("interrupted while refining".into()));
            }
            let r = r?;
            store(to, k).write(i, &r)?;
            watch.done();
            Ok(r)
        })
        .into_iter()
        .collect::<Result<_, RunError>>()?;
        for (&(k, i, to), r) in todo.iter().zip(answers) {
            let (a, b, t) = super::super::analyses::counts(&r)?;
            entries[k][i] = Some(Entry {
                score: a as f64 + (t - a - b) as f64 / 2.0,
                trials: t as f64,
                full: to == Stage::Full,
            });
            stage[k][i] = to;
            refined[k].insert(i, r);
        }
    }
}

/// The cells to fight next, `(pair, cell, stage)` in the cells' order: at each count near
/// its distance's crossing ([`near_crossing`]; `counts` holds each distance's cells in the
/// order of their counts), those whose interval can move the count's value ([`unsettled`]).
fn next_cells(
    menus: &Menus,
    fine: &[Experiment],
    counts: &BTreeMap<&str, Vec<(u64, usize)>>,
    entries: &[Vec<Option<Entry>>],
    stage: &[Vec<Stage>],
) -> Result<Vec<(usize, usize, Stage)>, RunError> {
    let (m, n) = (menus.unit.len(), menus.reference.len());
    let alone = m * n == 1;
    // Every cell is a point of its distance's fit: a missing one is a bug, not a cell to
    // leave coarse.
    let rows = (0..fine[0].cells.len())
        .map(|i| {
            entries
                .iter()
                .map(|e| e[i])
                .collect::<Option<Vec<Entry>>>()
                .ok_or_else(|| {
                    RunError::other(format!(
                        "cell {} of a raced price has no coarse point",
                        i + 1
                    ))
                })
        })
        .collect::<Result<Vec<Vec<Entry>>, RunError>>()?;
    let mut todo: Vec<(usize, usize, Stage)> = Vec::new();
    for cells in counts.values() {
        let bounds: Vec<[f64; 2]> = cells.iter().map(|&(_, i)| bounds(m, n, &rows[i])).collect();
        for (&(_, i), near) in cells.iter().zip(near_crossing(&bounds)) {
            if near {
                todo.extend(unsettled(m, n, &rows[i]).into_iter().map(|k| {
                    (
                        k,
                        i,
                        stage[k][i].next(&rows[i][k], fine[k].target_ci, alone),
                    )
                }));
            }
        }
    }
    // In the cells' order, whatever the distances' order.
    todo.sort_unstable_by_key(|&(k, i, _)| (i, k));
    Ok(todo)
}

/// How far a cell has been fought: its coarse trials, the middle stage's, or to the
/// price's target.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    Coarse,
    Mid,
    Full,
}

impl Stage {
    /// The stage a cell at this one goes to when it can still move a value: a coarse cell
    /// whose chance says the `target` needs no more than twice [`MID_TRIALS`] goes straight
    /// to it (the middle stage would cost about as much as the target: at +-0.02 an even
    /// chance needs 2,401 trials), and so does one of a scenario with one pair of conducts
    /// (`alone`: its cell is its count's value, so one that can move it always goes on).
    fn next(self, e: &Entry, target: Option<f64>, alone: bool) -> Stage {
        match self {
            // A lone pair's cell that can move the value always goes on to the target.
            Stage::Coarse if alone => Stage::Full,
            Stage::Coarse => {
                let p = e.score / e.trials;
                let needs = target.map_or(f64::INFINITY, |t| {
                    p * (1.0 - p) * (crate::sim::estimate::z(0.95) / t).powi(2)
                });
                if needs <= 2.0 * MID_TRIALS as f64 {
                    Stage::Full
                } else {
                    Stage::Mid
                }
            }
            Stage::Mid | Stage::Full => Stage::Full,
        }
    }
}

/// The refined cells of one pair: each kept the moment it ends, sealed and stamped like a
/// sweep's, under the fine experiment's manifest and resume key.
struct Store {
    dir: std::path::PathBuf,
    stamp: Box<dyn Fn(usize) -> serde_json::Value + Send + Sync>,
}

impl Store {
    /// Opens `dir` for `e`'s refined cells: those a run under the same manifest and key
    /// kept are read back; anything else is cleared.
    fn open(e: &Experiment, dir: &Path) -> Result<Store, RunError> {
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
        })
    }

    fn has(&self, i: usize) -> bool {
        self.dir.join(sweep::cell_file(i)).exists()
    }

    /// Cell `i` if a run kept it whole with this run's stamp; a foreign one is refused.
    fn read(&self, i: usize) -> Result<Option<serde_json::Value>, RunError> {
        if !self.has(i) {
            return Ok(None);
        }
        let r = read_cell(self.dir.parent().unwrap_or(&self.dir), i)?;
        if r.get("stamp") != Some(&(self.stamp)(i)) {
            return Err(RunError::input(format!(
                "{} was not written by this run\nhint: remove {} and run the same command again",
                self.dir.join(sweep::cell_file(i)).display(),
                self.dir.display()
            )));
        }
        Ok(Some(r))
    }

    fn write(&self, i: usize, r: &serde_json::Value) -> Result<(), RunError> {
        let mut r = r.clone();
        r["stamp"] = (self.stamp)(i);
        write_text_atomic(&self.dir, &sweep::cell_file(i), &cell::seal(&r))?;
        Ok(())
    }
}

/// Cell `i` of the run in `dir` (`dir/cells/NNNNN.json`), checked whole.
fn read_cell(dir: &Path, i: usize) -> Result<serde_json::Value, RunError> {
    let path = dir.join("cells").join(sweep::cell_file(i));
    let bytes = std::fs::read(&path)
        .map_err(|err| RunError::other(format!("cannot read {}: {err}", path.display())))?;
    cell::unseal(&bytes).map_err(|why| {
        RunError::input(format!(
            "{}: {why}\nhint: remove it and run the same command again",
            path.display()
        ))
    })
}

/// Sweeps `e` into `folder` with `cell` making each cell it lacks; returns the fits.
fn sweep_with(
    e: &Experiment,
    folder: &FolderLock,
    watch: &dyn Watch,
    cancel: &AtomicBool,
    cell: impl Fn(usize) -> Result<serde_json::Value, RunError>,
) -> Result<Vec<WorthRow>, RunError> {
    // The run's own lines (each cell, the fit, the files) stay in its folder.
    let mut said = Vec::new();
    let manifest = sweep::manifest(e, None)?;
    sweep::sweep(
        e,
        folder,
        &manifest,
        false,
        true,
        watch,
        cancel,
        &mut said,
        |i, _| cell(i),
    )
}

/// Each cell of a price experiment by its distance and count.
fn cell_index(e: &Experiment) -> HashMap<(String, u64), usize> {
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
fn distance_of(group: &[(String, String)]) -> String {
    group
        .iter()
        .find(|(k, _)| k == "distance")
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::price::{Pricing, conduct, plan, value};

    /// `p`'s first scenario family at its first distance, raced and every pair fought in
    /// full, into `name` folders of their own: both games, and how many of the unit a side.
    fn raced_and_full(p: &Pricing, name: &str) -> (value::Played, value::Played, u64) {
        let planned = &plan(p).unwrap().fits[0];
        let base = std::env::temp_dir().join(format!("diemon-{name}-{}", std::process::id()));
        let run = |name: &str, raced: bool| {
            let dir = base.join(name);
            let locks: Vec<FolderLock> = (0..planned.experiments.len())
                .map(|k| lock(&planned.pair_folder(&dir, k)).unwrap())
                .collect();
            let held: Vec<&FolderLock> = locks.iter().collect();
            let cancel = AtomicBool::new(false);
            let rows = if raced {
                race(
                    &planned.menus,
                    &planned.experiments,
                    &held,
                    None,
                    &Unwatched,
                    &cancel,
                )
            } else {
                unraced(&planned.experiments, &held, None, &Unwatched, &cancel)
            }
            .unwrap();
            value::play(
                &planned.menus,
                &rows.iter().map(|r| &r[0]).collect::<Vec<_>>(),
            )
        };
        let got = (run("raced", true), run("full", false), planned.units);
        // A race leaves no scratch.
        assert!(!base.join("raced").join("race").exists());
        std::fs::remove_dir_all(&base).unwrap();
        got
    }

    /// Asserts the raced game reads the same price as the full one, from the same cells
    /// either side of the crossing; returns how many counts the race left short.
    fn same_price(raced: &value::Played, full: &value::Played, units: u64) -> usize {
        assert_eq!(raced.row.points.len(), full.row.points.len());
        let (Ok(a), Ok(b)) = (&raced.row.worth, &full.row.worth) else {
            panic!("no worth: {:?} {:?}", raced.row.worth, full.row.worth)
        };
        assert_eq!(
            (a.ratio.point, a.ratio.ci, a.between, a.p_fit),
            (b.ratio.point, b.ratio.ci, b.between, b.p_fit)
        );
        let [lo, hi] = a.between.map(|r| (r * units as f64).round() as u64);
        let mut short = 0;
        for (a, b) in raced.row.points.iter().zip(&full.row.points) {
            assert_eq!(a.count, b.count);
            if (lo..=hi).contains(&a.count) {
                assert_eq!(
                    (a.trials, a.score),
                    (b.trials, b.score),
                    "count {}",
                    a.count
                );
            }
            short += usize::from(a.trials < b.trials);
        }
        short
    }

    fn pricing(unit: &str, distance: u32, target: f64) -> Pricing {
        Pricing {
            unit: unit.into(),
            catalog: None,
            references: vec!["minifig-hand-weapon".into()],
            distances: vec![distance],
            formations: vec!["line".into()],
            trials: 200_000,
            target_ci: Some(target),
            seed: 5,
            options: Vec::new(),
            tolerance: 0.1,
            reports: false,
            conduct: conduct::Mode::Competent,
        }
    }

    #[test]
    fn issue_39_a_raced_price_reads_the_values_of_an_unraced_one() {
        // Four Launchers with two aims against a swarm that chooses its spacing and Bail
        // (twelve pairs), 12" apart in a line: raced, most pairs stay at their coarse
        // trials, yet the price is that of every pair fought in full, and so are the cells
        // it is read between.
        let p = pricing("minifig-launcher", 12, 0.03);
        assert_eq!(plan(&p).unwrap().fits[0].menus.pairs(), 12);
        let (raced, full, units) = raced_and_full(&p, "race");
        same_price(&raced, &full, units);
        // Some pair's cells stayed at their coarse trials.
        let base = std::env::temp_dir().join(format!("diemon-race-kept-{}", std::process::id()));
        let planned = &plan(&p).unwrap().fits[0];
        let locks: Vec<FolderLock> = (0..planned.experiments.len())
            .map(|k| lock(&planned.pair_folder(&base, k)).unwrap())
            .collect();
        race(
            &planned.menus,
            &planned.experiments,
            &locks.iter().collect::<Vec<_>>(),
            None,
            &Unwatched,
            &AtomicBool::new(false),
        )
        .unwrap();
        let kept = std::fs::read_dir(
            base.join("conduct-aim-densest-vs-spacing-0p5_bail-never")
                .join("cells"),
        )
        .unwrap()
        .flatten()
        .filter(|f| f.path().extension().is_some_and(|x| x == "json"))
        .filter(|f| {
            let r = cell::unseal(&std::fs::read(f.path()).unwrap()).unwrap();
            r["trials"] == COARSE_TRIALS
        })
        .count();
        assert!(kept > 0, "no cell of a packed swarm stayed coarse");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn issue_39_a_lone_pair_leaves_its_counts_far_from_the_crossing_coarse() {
        // A Hero against minifigs 2" apart (one pair of conducts) at +-0.01: the counts
        // where it surely wins or surely loses stay at their first 256 trials, and the
        // price is the one every count fought to +-0.01 gives.
        let p = pricing("hero-hand-weapon", 2, 0.01);
        assert_eq!(plan(&p).unwrap().fits[0].menus.pairs(), 1);
        let (raced, full, units) = raced_and_full(&p, "race-lone");
        let short = same_price(&raced, &full, units);
        assert!(short >= 2, "{short} counts short: {:?}", raced.row.points);
    }

    fn coarse(p: f64) -> Entry {
        Entry {
            score: p * 1024.0,
            trials: 1024.0,
            full: false,
        }
    }

    fn full(p: f64) -> Entry {
        Entry {
            score: p * 10240.0,
            trials: 10240.0,
            full: true,
        }
    }

    #[test]
    fn issue_39_only_the_answers_that_can_set_the_value_are_refined() {
        // The reference's three answers (one row): 0.50 and 0.52 may each be the
        // minimum, 0.90 cannot.
        let e = [coarse(0.50), coarse(0.90), coarse(0.52)];
        assert_eq!(unsettled(1, 3, &e), vec![0, 2]);
        // Refined, the two stand apart beyond the third's reach: settled.
        let e = [full(0.50), coarse(0.90), full(0.52)];
        assert!(unsettled(1, 3, &e).is_empty());
        // A coarse cell whose interval reaches below the refined minimum is refined.
        let e = [full(0.50), coarse(0.55), full(0.52)];
        assert_eq!(unsettled(1, 3, &e), vec![1]);
    }

    #[test]
    fn issue_39_an_even_cell_passes_the_middle_stage_and_a_sure_one_does_not() {
        // At +-0.01 an even chance needs about 9,600 trials: first 2,048. A sure win needs
        // under 256, and at +-0.02 an even chance 2,401: straight to the target. Without a
        // target, always the middle stage. One pair of conducts: its cell is the value, so
        // on to the target at once.
        for (from, p, target, alone, to) in [
            (Stage::Coarse, 0.5, Some(0.01), false, Stage::Mid),
            (Stage::Coarse, 1.0, Some(0.01), false, Stage::Full),
            (Stage::Coarse, 0.5, Some(0.02), false, Stage::Full),
            (Stage::Coarse, 1.0, None, false, Stage::Mid),
            (Stage::Mid, 0.5, Some(0.01), false, Stage::Full),
            (Stage::Coarse, 0.5, Some(0.01), true, Stage::Full),
        ] {
            assert_eq!(
                from.next(&coarse(p), target, alone),
                to,
                "{from:?} {p} {target:?}"
            );
        }
    }

    #[test]
    fn issue_39_only_the_counts_near_the_crossing_are_refined() {
        // Surely above ..., may be even, surely below ...: the even one and its neighbours
        // either side can set the crossing, and two counts either side of them matter.
        let b = |lo: f64, hi: f64| [lo, hi];
        let bounds = [
            b(0.95, 1.0),
            b(0.9, 0.99),
            b(0.8, 0.95),
            b(0.7, 0.9),
            b(0.45, 0.6),
            b(0.3, 0.45),
            b(0.1, 0.3),
            b(0.0, 0.1),
            b(0.0, 0.05),
        ];
        let near = near_crossing(&bounds);
        assert_eq!(
            near,
            [false, true, true, true, true, true, true, true, false]
        );
        // No count may be even: the crossing lies between a sure win and a sure loss,
        // and both, with two either side, matter.
        let sharp = [
            b(0.99, 1.0),
            b(0.9, 1.0),
            b(0.7, 0.8),
            b(0.1, 0.2),
            b(0.0, 0.01),
            b(0.0, 0.0),
        ];
        assert_eq!(near_crossing(&sharp), [true, true, true, true, true, true]);
        let sharp = [
            b(0.99, 1.0),
            b(0.99, 1.0),
            b(0.99, 1.0),
            b(0.9, 1.0),
            b(0.7, 0.8),
            b(0.1, 0.2),
        ];
        assert_eq!(
            near_crossing(&sharp),
            [false, false, true, true, true, true]
        );
        // Every value surely above 50%: a bound, no count matters.
        assert_eq!(near_crossing(&[b(0.9, 1.0), b(0.6, 0.8)]), [false, false]);
        assert!(near_crossing(&[]).is_empty());
    }

    #[test]
    fn issue_39_cells_tied_at_the_value_are_each_refined() {
        // Two sure losses: neither alone moves the low end, each moves the high end.
        let e = [coarse(0.0), coarse(0.0), coarse(1.0)];
        assert_eq!(unsettled(1, 3, &e), vec![0, 1]);
    }

    #[test]
    fn issue_39_a_saddle_settles_a_two_sided_game() {
        // The unit's rows against the reference's columns: row 0 col 1 is a saddle well
        // apart from the rest once refined.
        let e = [coarse(0.9), full(0.4), coarse(0.2), coarse(0.1)];
        // Row 1 (0.2, 0.1) is dominated by row 0 (>= 0.4 after 0.9): settled.
        assert!(unsettled(2, 2, &e).is_empty());
        // Unrefined, the saddle's own cell moves the value.
        let e = [coarse(0.9), coarse(0.4), coarse(0.2), coarse(0.1)];
        assert_eq!(unsettled(2, 2, &e), vec![1]);
    }
}
