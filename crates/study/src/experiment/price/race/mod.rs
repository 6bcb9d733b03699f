//! Racing the conducts (issue 39, item 6): a scenario's cells are fought first to a
//! coarse precision, its counts are searched at that precision, and only the cells that
//! can still move the price are then fought further: those that can move the game value
//! of a count near the crossing.
//!
//! At each count the value is that of the matrix of the pairs' win chances
//! ([`super::value`]). Most pairs cannot set it (a swarm packed 0.5" apart loses far more
//! often than one 3" apart, and the unit's value is the swarm's best answer), and most
//! counts cannot move the crossing. So a scenario's search (`run::Race`):
//! 1. fights every pair's cells of the grid to their first [`STAGES`]`[0]` trials, in
//!    `PAIR/race/256/`;
//! 2. adds the rounds of counts the values at that precision want
//!    ([`super::wanted`]), fought the same way, until none are wanted;
//! 3. refines: at each count near where the values cross 50% over all the counts fought
//!    ([`near_crossing`]), the cells whose 99.9% interval can move the value
//!    ([`unsettled`]) go on to the next of [`STAGES`] and then to the price's target, each
//!    from where it stopped (the same streams: a cell at the target is exactly what an
//!    unraced price finds, for no trial twice), until none can; then back to 2, as the
//!    refined values may want counts the coarse ones did not;
//! 4. writes each experiment at the price's target, every cell as far as it was fought (its
//!    trials say which); `race/` is then removed.
//!
//! Every decision follows from seeded cells alone, so the race is the same on any thread
//! count and after any resume. A cell left short of the target lies, at 99.9%, where it
//! cannot move the value or its count cannot move the crossing; docs/pricing.md states
//! this.

pub(super) mod run;
mod store;

use std::path::Path;

use super::super::error::RunError;
use super::super::{Experiment, sweep};
use crate::analysis::game;
use diemon_core::sim::estimate::Estimate;

/// The caps a refined cell passes on its way to the price's target: its first trials
/// (+-0.061 at an even chance), then +-0.031 and +-0.015. Each stage goes on from the last,
/// so a stage costs only its new trials; between stages the race asks again which cells
/// can still move the price.
pub const STAGES: [u64; 3] = [256, 1024, 4096];

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
    /// Wins plus half the draws, a share.
    pub score: f64,
    /// Trials fought.
    pub trials: f64,
    /// Fought to the price's own precision.
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

/// How many blocks either side of the two the crossing is read between still matter to
/// the price: the quality gate's neighbours ([`crate::analysis::fair_cp::REACH`]).
pub const NEAR: usize = crate::analysis::fair_cp::REACH;

/// Where a count stands to the crossing ([`near_crossing`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Near {
    /// Its value lies surely on one side, and so do its neighbours': it cannot move the
    /// price.
    Far,
    /// In a block the quality gate reads beside the crossing's.
    Beside,
    /// It can set the crossing: its value may be an even fight, or it stands either side
    /// of where the values cross 50%, or it may pool with such a count.
    Crossing,
}

/// Of one distance's counts in order, each count's value `bounds`: whether it can still
/// move the price. A count whose value may be an even fight, or that stands either side of
/// where the values cross 50% (one surely above, the next not), can set the crossing. The
/// price reads blocks, not counts ([`crate::analysis::fair_cp::worth`] pools a count whose
/// chance rises above the one before): a count that may pool with one that can set the
/// crossing can set it too, and the gate reads [`NEAR`] blocks beyond, each with every
/// count that may pool into it. Where every value lies surely on one side, none matters:
/// the price is a bound, read the same at any precision.
pub fn near_crossing(bounds: &[[f64; 2]]) -> Vec<Near> {
    let side = |[lo, hi]: [f64; 2]| {
        if lo > 0.5 {
            1
        } else if hi < 0.5 {
            -1
        } else {
            0
        }
    };
    let n = bounds.len();
    let sides: Vec<i32> = bounds.iter().map(|&b| side(b)).collect();
    let mut near = vec![Near::Far; n];
    for (j, &s) in sides.iter().enumerate() {
        if s == 0 {
            near[j] = Near::Crossing;
        }
        if j + 1 < n && s != sides[j + 1] {
            near[j] = Near::Crossing;
            near[j + 1] = Near::Crossing;
        }
    }
    // Counts j and j + 1 may pool: j's chance may lie below j + 1's.
    let pools = |j: usize| bounds[j][0] < bounds[j + 1][1];
    // Spreads `level` over every count that may pool with one already at it.
    let spread = |near: &mut Vec<Near>, level: Near| {
        for j in 0..n.saturating_sub(1) {
            if near[j] == level && near[j + 1] == Near::Far && pools(j) {
                near[j + 1] = level;
            }
        }
        for j in (0..n.saturating_sub(1)).rev() {
            if near[j + 1] == level && near[j] == Near::Far && pools(j) {
                near[j] = level;
            }
        }
    };
    spread(&mut near, Near::Crossing);
    for _ in 0..NEAR {
        let next: Vec<usize> = (0..n)
            .filter(|&j| {
                near[j] == Near::Far
                    && ((j > 0 && near[j - 1] != Near::Far)
                        || (j + 1 < n && near[j + 1] != Near::Far))
            })
            .collect();
        for j in next {
            near[j] = Near::Beside;
        }
        spread(&mut near, Near::Beside);
    }
    near
}

/// How far a cell has been fought: to one of [`STAGES`] (by index), or to the price's
/// target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// To the stage of this index.
    Capped(usize),
    /// To the price's target.
    Full,
}

impl Stage {
    /// The stage after this one.
    pub fn next(self) -> Stage {
        match self {
            Stage::Capped(k) if k + 1 < STAGES.len() => Stage::Capped(k + 1),
            _ => Stage::Full,
        }
    }

    /// Its folder under `race/`: the cap's trials, or `fine`.
    pub fn folder(self) -> String {
        match self {
            Stage::Capped(k) => STAGES[k].to_string(),
            Stage::Full => "fine".into(),
        }
    }

    /// `fine` at this stage's cap.
    pub fn of(self, fine: &Experiment) -> Experiment {
        match self {
            Stage::Capped(k) => fine.capped(STAGES[k]),
            Stage::Full => fine.clone(),
        }
    }
}

/// The cells an unfinished race of `fine` left in `pair/race/` (every stage's) that a
/// rerun keeps.
pub(super) fn kept(fine: &Experiment, pair: &Path) -> Result<usize, RunError> {
    let scratch = pair.join("race");
    if !scratch.exists() {
        return Ok(0);
    }
    let first = Stage::Capped(0).of(fine);
    let dir = scratch.join(Stage::Capped(0).folder());
    let mut n = sweep::kept_count(&first, &dir, &sweep::manifest(&first, None)?);
    for stage in (1..STAGES.len()).map(Stage::Capped).chain([Stage::Full]) {
        let e = stage.of(fine);
        let dir = scratch.join(stage.folder());
        if sweep::resumes(&e, &dir, &sweep::manifest(&e, None)?) {
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::run::{Held, Race, Set};
    use super::*;
    use crate::analysis::frame::WorthRow;
    use crate::experiment::error::Unwatched;
    use crate::experiment::lock::{FolderLock, lock};
    use crate::experiment::price::{Planned, Pricing, conduct, plan, value};

    /// Races `planned`'s grid into `dir` (or fights it whole, not `raced`): its sets'
    /// pairs' fits, the race's scratch removed.
    fn fought(planned: &Planned, dir: &Path, raced: bool) -> Vec<Vec<WorthRow>> {
        let locks: Vec<FolderLock> = (0..planned.experiments.len())
            .map(|k| lock(&planned.pair_folder(dir, k)).unwrap())
            .collect();
        let cancel = AtomicBool::new(false);
        let mut race = Race::new(&planned.menus, None, &Unwatched, &cancel);
        let set = Set {
            fine: planned.experiments.clone(),
            folders: locks.iter().map(Held::Borrowed).collect(),
        };
        race.add(vec![set], !raced).unwrap();
        race.refine().unwrap();
        let mut rows = race.finish().unwrap();
        race.clear();
        rows.remove(0)
    }

    /// `p`'s first scenario family at its first distance, raced and every pair fought in
    /// full, into `name` folders of their own: both games, and how many of the unit a side.
    fn raced_and_full(p: &Pricing, name: &str) -> (value::Played, value::Played, u64) {
        let planned = &plan(p).unwrap().fits[0];
        let base = std::env::temp_dir().join(format!("diemon-{name}-{}", std::process::id()));
        let run = |name: &str, raced: bool| {
            let rows = fought(planned, &base.join(name), raced);
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
            tables: crate::experiment::price::plane(),
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
        // Some pair's cells stayed at their first stage's trials.
        let base = std::env::temp_dir().join(format!("diemon-race-kept-{}", std::process::id()));
        fought(&plan(&p).unwrap().fits[0], &base, true);
        let kept = std::fs::read_dir(
            base.join("conduct-aim-densest-vs-spacing-0p5_bail-never")
                .join("cells"),
        )
        .unwrap()
        .flatten()
        .filter(|f| f.path().extension().is_some_and(|x| x == "json"))
        .filter(|f| {
            // Every cell of a price asks a squad duel: any one's question reads them.
            let q = &plan(&p).unwrap().fits[0].experiments[0].cells[0].question;
            let (r, _) =
                crate::experiment::cell::unseal(&std::fs::read(f.path()).unwrap(), q).unwrap();
            r.ran().unwrap().trials == STAGES[0]
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
    fn issue_39_a_refined_cell_passes_every_stage_then_the_target() {
        // 256, 1,024 and 4,096 trials, then the price's own target, each in its folder.
        let mut st = Stage::Capped(0);
        let mut seen = vec![st.folder()];
        while st != Stage::Full {
            st = st.next();
            seen.push(st.folder());
        }
        assert_eq!(seen, ["256", "1024", "4096", "fine"]);
        assert_eq!(Stage::Full.next(), Stage::Full);
    }

    #[test]
    fn issue_39_only_the_counts_near_the_crossing_are_refined() {
        // Surely above ..., may be even, surely below ...: the even one and its neighbours
        // either side can set the crossing, and one count (block) either side of them
        // matters.
        use Near::{Beside as B, Crossing as C, Far as F};
        let b = |lo: f64, hi: f64| [lo, hi];
        let bounds = [
            b(0.97, 1.0),
            b(0.9, 0.96),
            b(0.8, 0.89),
            b(0.7, 0.79),
            b(0.45, 0.6),
            b(0.3, 0.45),
            b(0.1, 0.3),
            b(0.0, 0.1),
            b(0.0, 0.05),
        ];
        assert_eq!(near_crossing(&bounds), [F, F, B, C, C, C, B, F, F]);
        // No count may be even: the crossing lies between a sure win and a sure loss,
        // and both, with one either side, matter.
        let sharp = [
            b(0.99, 1.0),
            b(0.9, 0.98),
            b(0.7, 0.8),
            b(0.1, 0.2),
            b(0.0, 0.01),
            b(0.0, 0.0),
        ];
        assert_eq!(near_crossing(&sharp), [F, B, C, C, B, F]);
        // Counts 2 and 3 may rise (the price pools them into one block): 2 can set the
        // crossing too. Counts 0 and 1 may pool into the block beside it: both matter.
        let pooled = [
            b(0.93, 0.99),
            b(0.9, 0.96),
            b(0.68, 0.74),
            b(0.69, 0.75),
            b(0.3, 0.4),
            b(0.2, 0.29),
            b(0.1, 0.19),
            b(0.0, 0.05),
        ];
        assert_eq!(near_crossing(&pooled), [B, B, C, C, C, B, F, F]);
        // Every value surely above 50%: a bound, no count matters.
        assert_eq!(near_crossing(&[b(0.9, 1.0), b(0.6, 0.8)]), [F, F]);
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
