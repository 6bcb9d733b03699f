//! The game of each count (issue 39): a scenario's conduct pairs fought at the same counts,
//! read as one curve of game values that the fit then crosses at 50%.
//!
//! Every pair's experiment runs the same cells on the same streams (the conduct is no
//! axis: a cell's seed is the same under every conduct), so the pairs' win chances differ
//! by their conduct, not by their dice (common random numbers). At each count the
//! unit's win chances form a matrix (its conducts by the reference's), whose value
//! ([`game::solve`]) is the point the fit reads. The point carries the trials of the cell
//! that set it (the saddle's, or the fewest among a mixed solution's cells), so the
//! fit's CI is that cell's dice; it does not widen for the choice among conducts.

use crate::analysis::fair_cp::{self, Point};
use crate::analysis::frame::WorthRow;
use crate::analysis::game::{self, Solution};

use super::conduct::Menus;
use diemon_core::sim::CONFIDENCE;

/// A scenario's game: the value at each count, and how each side played it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The fit of the values (its `points` are the values).
    pub row: WorthRow,
    /// Each count's solution, in `row.points`' order.
    pub games: Vec<(u64, Solution)>,
}

/// The game of `rows` (one per conduct pair of `menus`, row-major, each the same
/// scenario's fit), read at every count all of them fought.
pub fn play(menus: &Menus, rows: &[&WorthRow]) -> Played {
    let (m, n) = (menus.unit.len(), menus.reference.len());
    let first = rows[0];
    let mut points = Vec::new();
    let mut games = Vec::new();
    for (j, p) in first.points.iter().enumerate() {
        // Every pair fought the same cells in the same order; a count fought twice (a
        // round's beside the grid's) is each cell in its place.
        let cells: Option<Vec<Point>> = rows
            .iter()
            .map(|r| {
                r.points
                    .get(j)
                    .filter(|q| q.count == p.count)
                    .or_else(|| r.points.iter().find(|q| q.count == p.count))
                    .copied()
            })
            .collect();
        let Some(cells) = cells else { continue };
        let chance: Vec<f64> = cells.iter().map(|c| c.score / c.trials).collect();
        let s = game::solve(&chance, m, n);
        let trials = match s.pure() {
            Some((i, j)) => cells[i * n + j].trials,
            None => (0..m * n)
                .filter(|k| s.rows[k / n] > 0.0 && s.cols[k % n] > 0.0)
                .map(|k| cells[k].trials)
                .fold(f64::INFINITY, f64::min),
        };
        points.push(Point {
            count: p.count,
            ratio: p.ratio,
            trials,
            score: s.value * trials,
        });
        games.push((p.count, s));
    }
    let worth = fair_cp::worth(&points, CONFIDENCE);
    Played {
        row: WorthRow {
            points,
            worth,
            ..first.clone()
        },
        games,
    }
}

impl Played {
    /// The count whose game names the conduct that priced the scenario: the last count at
    /// or above an even fight beside the crossing, or the grid's end a bound rests on.
    pub fn deciding(&self, units: u64) -> Option<&(u64, Solution)> {
        let count = match &self.row.worth {
            Ok(w) => (w.between[0] * units as f64).round() as u64,
            Err(fair_cp::NoWorth::AlwaysAhead { .. }) => self.games.iter().map(|g| g.0).max()?,
            Err(fair_cp::NoWorth::AlwaysBehind { .. }) => self.games.iter().map(|g| g.0).min()?,
            Err(_) => return None,
        };
        self.games.iter().find(|g| g.0 == count)
    }

    /// The conduct that priced it, in words (`menus` as played); `None` when neither side
    /// had a choice (the default policies).
    pub fn conduct(&self, menus: &Menus, units: u64) -> Option<String> {
        if menus.pairs() == 1 {
            return None;
        }
        let Some((count, s)) = self.deciding(units) else {
            return Some("no game decided it: no price was read".into());
        };
        let side = |who: &str, menu: &[super::conduct::Conduct], mix: &[f64]| -> Option<String> {
            if menu.len() == 1 {
                return None;
            }
            let played: Vec<(usize, f64)> = mix
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, w)| w > 1e-9)
                .collect();
            Some(match played[..] {
                [(i, _)] => format!("{who} {}", menu[i].words()),
                _ => format!(
                    "{who} mixes {}",
                    played
                        .iter()
                        .map(|&(i, w)| format!("{} ({:.0}%)", menu[i].words(), w * 100.0))
                        .collect::<Vec<_>>()
                        .join(" with ")
                ),
            })
        };
        let parts: Vec<String> = [
            side("the unit", &menus.unit, &s.rows),
            side("the reference", &menus.reference, &s.cols),
        ]
        .into_iter()
        .flatten()
        .collect();
        Some(format!(
            "{} (at {count} reference{})",
            parts.join("; "),
            diemon_core::plural::s(*count)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::price::conduct::{Choice, Conduct};
    use diemon_core::scenario::squad::policy::Bail;

    fn row(counts: &[u64], chances: &[f64]) -> WorthRow {
        let points: Vec<Point> = counts
            .iter()
            .zip(chances)
            .map(|(&count, &p)| Point {
                count,
                ratio: count as f64 / 2.0,
                trials: 10_000.0,
                score: p * 10_000.0,
            })
            .collect();
        WorthRow {
            group: Vec::new(),
            unit: "u".into(),
            reference: "r".into(),
            units: 2,
            cp_unit: 8.0,
            cp_reference: 4.0,
            worth: fair_cp::worth(&points, 0.95),
            points,
        }
    }

    #[test]
    fn the_reference_answers_with_its_best_conduct_at_each_count() {
        let bail = |b| Conduct {
            choices: vec![Choice::Bail(b)],
        };
        let menus = Menus {
            unit: vec![Conduct::default()],
            reference: vec![bail(Bail::Never), bail(Bail::Blast)],
        };
        // Standing, the swarm loses up to 6; Bailing, it holds the unit to less from 3 on.
        let stand = row(&[2, 3, 4, 5, 6, 7], &[0.99, 0.95, 0.9, 0.8, 0.6, 0.3]);
        let dive = row(&[2, 3, 4, 5, 6, 7], &[0.995, 0.8, 0.6, 0.4, 0.2, 0.1]);
        let g = play(&menus, &[&stand, &dive]);
        let values: Vec<f64> = g.row.points.iter().map(|p| p.score / p.trials).collect();
        assert_eq!(values, [0.99, 0.8, 0.6, 0.4, 0.2, 0.1]);
        // The crossing is the Bailing swarm's (between 4 and 5), not the standing one's.
        let w = g.row.worth.as_ref().unwrap();
        assert!(w.ratio.point > 2.0 && w.ratio.point < 2.5, "{w:?}");
        assert_eq!(
            g.conduct(&menus, 2).unwrap(),
            "the reference Bails from blasts (at 4 references)"
        );
    }

    #[test]
    fn one_pair_is_the_fit_of_its_cells_unchanged() {
        let menus = Menus {
            unit: vec![Conduct::default()],
            reference: vec![Conduct::default()],
        };
        let r = row(&[2, 3, 4, 5], &[0.9, 0.7, 0.4, 0.1]);
        let g = play(&menus, &[&r]);
        assert_eq!(g.row.points, r.points);
        assert_eq!(g.row.worth, r.worth);
        assert_eq!(g.conduct(&menus, 2), None);
    }
}
