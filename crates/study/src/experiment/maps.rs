//! An example battle of each cell fought on a table (issue 43): its first trial replayed and
//! drawn to `maps/cell-NNN.svg` ([`crate::report::map`]), for the report to step through.
//! Replaying a trial draws the same dice as the run did, so the map is that trial's.

use std::path::Path;

use super::Experiment;
use super::error::RunError;
use crate::export::write_text_atomic;
use crate::question::Asked;
use crate::question::CellRun;
use crate::report::map;

/// Draws the first trial of each cell of `e` fought on a table into `dir/maps/`; a run
/// with none writes nothing.
pub fn write(e: &Experiment, dir: &Path) -> Result<(), RunError> {
    for (i, cell) in e.cells.iter().enumerate() {
        let run = CellRun {
            seed: e.seed,
            cell: i as u64,
            trials: e.trials,
            ..CellRun::default()
        };
        let Asked::Duel(a) = cell.question.for_cell(&run) else {
            continue;
        };
        if a.table.is_none() || a.a_squad.is_none() {
            continue;
        }
        let fail = |err: String| RunError::other(format!("cell {}'s map: {err}", i + 1));
        let mut picture = map::Picture::default();
        let (squad, o) = crate::question::squad::replay(&a, &cell.opts, 0, &mut picture)
            .map_err(|e| fail(e.to_string()))?;
        let params: Vec<String> = cell
            .params
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        let title = format!("{}\ntrial 0: {}", params.join(", "), map::ending(&o));
        let Some(svg) = map::draw(&squad, &picture, &title, false) else {
            continue;
        };
        let maps = dir.join(crate::report::battles::DIR);
        std::fs::create_dir_all(&maps).map_err(|err| fail(err.to_string()))?;
        write_text_atomic(&maps, &format!("cell-{:03}.svg", i + 1), &svg)?;
    }
    Ok(())
}
