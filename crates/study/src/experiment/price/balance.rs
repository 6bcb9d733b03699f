//! A priced roster's balance sheet (issue 41): the CP table at which every unit of the
//! roster is worth its cost, each unit's proposed cost with its CI beside the listed one,
//! and the imbalance score of both tables ([`crate::analysis::balance`]).
//!
//! Every scenario's price is a fitted rate times its reference's listed cost, so the rates
//! are read back from the prices and re-priced at any table; the references must be among
//! the roster's units (their costs move too), and the first reference keeps its listed
//! cost (the table's scale).

use polars::prelude::{Column, DataFrame};
use serde::{Deserialize, Serialize};

use super::Priced;
use crate::analysis::balance::{self, Catalog, Interval, NoBalance, Rate};
use crate::analysis::card::{Card, Verdict, verdict};
use crate::experiment::error::RunError;
use crate::report::chart::{Body, Chart, Range};
use crate::report::sheet::{Section, Table};
use diemon_core::catalog::formula::Formula;
use diemon_core::sim::CONFIDENCE;
use diemon_core::sim::estimate::z;

/// Bootstrap draws behind the CIs.
pub const DRAWS: usize = 1000;

/// A cost formula to score the catalog under, and the file it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recost {
    /// The formula file as named.
    pub file: String,
    /// The formula read.
    pub formula: Formula,
}

/// One unit's line of the sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The unit's key.
    pub unit: String,
    /// Its listed cost in CP.
    pub listed: f64,
    /// Its card price at the listed table.
    pub price: Option<f64>,
    /// The proposed cost, and rounded to the half CP a stat card lists.
    pub proposed: Interval,
    /// The proposed cost rounded to the half CP.
    pub rounded: f64,
    /// Its cost under the formula, if one is given.
    pub formula: Option<f64>,
    /// The listed cost against the proposed one (fair when the proposal's CI reaches within
    /// the tolerance of it).
    pub verdict: Verdict,
    /// What it pays CP for and never uses in these battles: its price is of what acts.
    pub inert: Vec<String>,
}

/// The roster's balance: its rows (the roster's order) and the sheet they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Balanced {
    /// One row a unit, in the roster's order.
    pub rows: Vec<Row>,
    /// The sheet the rows came from.
    pub sheet: balance::Sheet,
    /// The unit that keeps its listed cost.
    pub anchor: String,
    /// The formula the catalog was also scored under (its score is the sheet's first other).
    pub formula: Option<Recost>,
}

/// Why a roster has no balance sheet, in words.
fn why(e: &NoBalance, units: &[String]) -> String {
    match e {
        NoBalance::Unpriced(u) => format!(
            "{} has no price in these battles, and units are priced against it",
            units[*u]
        ),
        NoBalance::Cycles(moved, n) => format!(
            "the references' costs still moved by {:.1}% after {n} iterations",
            100.0 * (moved.exp() - 1.0)
        ),
    }
}

/// Half a CP: the step a stat card lists.
fn half_cp(x: f64) -> f64 {
    (2.0 * x).round() / 2.0
}

/// The balance of `priced`, fitted against `references` (the first keeps its cost), with
/// CIs from `DRAWS` bootstrap draws seeded by `seed`; `formula` is also scored, at each
/// unit's cost under it (in `priced`'s order).
pub fn of(
    priced: &[Priced],
    references: &[String],
    tolerance: f64,
    seed: u64,
    formula: Option<(&Recost, Vec<f64>)>,
) -> Result<Balanced, String> {
    let units: Vec<String> = priced.iter().map(|p| p.unit.clone()).collect();
    let at = |name: &str| units.iter().position(|u| u == name);
    for r in references {
        if at(r).is_none() {
            return Err(format!(
                "the reference {r} is not among the units, so its cost cannot move with \
                 theirs: add it to `units`"
            ));
        }
    }
    let listed: Vec<f64> = priced.iter().map(|p| p.listed.as_f64()).collect();
    let z = z(CONFIDENCE);
    let rates = priced
        .iter()
        .map(|p| {
            p.scenarios
                .iter()
                .filter_map(|s| {
                    let r = at(&s.reference)?;
                    let cp = listed[r];
                    match (&s.price, s.beyond) {
                        (Ok([point, lo, hi]), _) => Some(Rate::Fitted {
                            reference: r,
                            rate: point / cp,
                            se: (hi - lo) / (2.0 * z) / cp,
                        }),
                        (Err(_), Some([bound, _, hi])) if hi.is_infinite() => Some(Rate::Above {
                            reference: r,
                            rate: bound / cp,
                        }),
                        (Err(_), Some([bound, ..])) => Some(Rate::Below {
                            reference: r,
                            rate: bound / cp,
                        }),
                        _ => None,
                    }
                })
                .collect()
        })
        .collect();
    let anchor = at(&references[0]).expect("checked above");
    let cat = Catalog {
        listed: listed.clone(),
        rates,
        anchor,
    };
    let others: Vec<Vec<f64>> = formula.iter().map(|(_, c)| c.clone()).collect();
    let sheet = balance::sheet(&cat, DRAWS, seed, half_cp, &others).map_err(|e| why(&e, &units))?;
    let at_listed = cat.prices(&listed);
    let rows = priced
        .iter()
        .enumerate()
        .map(|(u, p)| {
            let c = sheet.cost[u];
            let card = Card {
                price: [c.point, c.lo, c.hi],
                quartiles: [c.point; 2],
                range: [c.point; 2],
                scenarios: p.scenarios.len(),
            };
            Row {
                unit: p.unit.clone(),
                listed: listed[u],
                price: at_listed[u],
                proposed: c,
                rounded: half_cp(c.point),
                formula: others.first().map(|t| t[u]),
                verdict: verdict(listed[u], Some(&card), tolerance),
                inert: p.inert.clone(),
            }
        })
        .collect();
    Ok(Balanced {
        rows,
        sheet,
        anchor: references[0].clone(),
        formula: formula.map(|(r, _)| r.clone()),
    })
}

impl Balanced {
    /// The two scores in a line: "imbalance 0.214 [0.208, 0.221] as listed, 0.031 [...]
    /// at the proposed table".
    pub fn scores(&self) -> String {
        let s = |i: &Interval| format!("{:.3} [{:.3}, {:.3}]", i.point, i.lo, i.hi);
        let formula = match (&self.formula, self.sheet.other_scores.first()) {
            (Some(r), Some(i)) => format!(
                ", {} re-costed by the formula {} ({})",
                s(i),
                r.file,
                match r.formula.changes() {
                    c if c.is_empty() => "the rules' own".to_string(),
                    c => c.join(", "),
                }
            ),
            _ => String::new(),
        };
        format!(
            "imbalance {} as listed, {} at the proposed table (re-priced there, to the half \
             CP){formula}",
            s(&self.sheet.listed_score),
            s(&self.sheet.proposed_score)
        )
    }

    /// A line a unit, the largest change first: "minifig-rifle: 9 CP listed, 15.5 on the
    /// card (15.41 [15.20, 15.63]); under-priced by ...".
    pub fn lines(&self) -> Vec<String> {
        let width = self.rows.iter().map(|r| r.unit.len()).max().unwrap_or(0);
        self.by_change()
            .iter()
            .map(|r| {
                let p = r.proposed;
                format!(
                    "  {:width$}  {:>5} CP listed -> {:>5} on the card ({:.2} [{:.2}, {:.2}]); {}{}",
                    r.unit,
                    r.listed,
                    r.rounded,
                    p.point,
                    p.lo,
                    p.hi,
                    match &r.verdict {
                        Verdict::Fair => "fair as listed".into(),
                        v => v.word(),
                    },
                    super::inert_here(&r.inert)
                )
            })
            .collect()
    }

    /// One row a unit.
    pub fn frame(&self) -> Result<DataFrame, RunError> {
        let r = &self.rows;
        let f = |x: fn(&Row) -> f64| Column::new("".into(), r.iter().map(x).collect::<Vec<f64>>());
        let named = |c: Column, n: &str| c.with_name(n.into());
        let mut columns = vec![
            Column::new(
                "unit".into(),
                r.iter().map(|x| x.unit.clone()).collect::<Vec<_>>(),
            ),
            named(f(|x| x.listed), "listed_cp"),
            Column::new(
                "price_at_listed".into(),
                r.iter().map(|x| x.price).collect::<Vec<_>>(),
            ),
            named(f(|x| x.proposed.point), "proposed_cp"),
            named(f(|x| x.proposed.lo), "proposed_cp_lo"),
            named(f(|x| x.proposed.hi), "proposed_cp_hi"),
            named(f(|x| x.rounded), "proposed_card_cp"),
            Column::new(
                "verdict".into(),
                r.iter().map(|x| x.verdict.name()).collect::<Vec<_>>(),
            ),
        ];
        if self.formula.is_some() {
            columns.push(Column::new(
                "formula_cp".into(),
                r.iter().map(|x| x.formula).collect::<Vec<_>>(),
            ));
        }
        columns.push(Column::new(
            "inert".into(),
            r.iter().map(|x| x.inert.join("; ")).collect::<Vec<_>>(),
        ));
        DataFrame::new_infer_height(columns)
            .map_err(|e| RunError::other(format!("the balance frame: {e}")))
    }

    /// The rows from the largest change of cost (as a ratio, either way) to the smallest.
    fn by_change(&self) -> Vec<&Row> {
        let change = |r: &Row| (r.proposed.point / r.listed).ln().abs();
        let mut v: Vec<&Row> = self.rows.iter().collect();
        v.sort_by(|a, b| change(b).total_cmp(&change(a)));
        v
    }

    /// Each unit's proposed cost as a share of its listed one, the largest change on top.
    fn chart(&self, tolerance: f64) -> Chart {
        let rows = self
            .by_change()
            .iter()
            .map(|r| Range {
                label: format!("{} ({} CP)", r.unit, r.listed),
                from: 100.0,
                to: 100.0 * r.proposed.point / r.listed,
                lo: 100.0 * r.proposed.lo / r.listed,
                hi: 100.0 * r.proposed.hi / r.listed,
            })
            .collect();
        Chart {
            title: "The balanced table: each unit's proposed cost against its listed one".into(),
            x_label: "proposed CP, % of listed CP (whisker: 95% CI)".into(),
            y_label: String::new(),
            body: Body::Ranges {
                rows,
                dots: "proposed cost (95% CI)".into(),
                line: Some(("listed cost (100%)".into(), 100.0)),
                band: Some((
                    format!("within the tolerance ({:.0}%)", 100.0 * tolerance),
                    [100.0 * (1.0 - tolerance), 100.0 * (1.0 + tolerance)],
                )),
            },
        }
    }

    /// The report's section: the scores, the drift, the chart and a row a unit, the largest
    /// change first.
    pub fn section(&self, tolerance: f64) -> Section {
        let mut table = Table {
            header: [
                "unit",
                "listed CP",
                "card price as listed",
                "proposed CP (95% CI)",
                "on the card",
                "listed against proposed",
            ]
            .map(String::from)
            .to_vec(),
            rows: Vec::new(),
        };
        if let Some(f) = &self.formula {
            table.header.push(format!("by {}", f.file));
        }
        for r in self.by_change() {
            let p = r.proposed;
            let mut row = vec![
                r.unit.clone(),
                format!("{}", r.listed),
                r.price.map_or("-".into(), |x| format!("{x:.2}")),
                format!("{:.2} [{:.2}, {:.2}]", p.point, p.lo, p.hi),
                format!("{}", r.rounded),
                match &r.verdict {
                    Verdict::Fair => "fair as listed".into(),
                    v => v.word(),
                } + if r.inert.is_empty() { "" } else { " †" },
            ];
            if let Some(c) = r.formula {
                row.push(format!("{}", (c * 100.0).round() / 100.0));
            }
            table.rows.push(row);
        }
        let s = &self.sheet;
        Section {
            heading: "Balance".into(),
            figure: Some((
                "balance".into(),
                self.chart(tolerance),
                "Each unit's cost in the balanced table as a share of its listed cost, the \
                 largest change on top; the whisker is its 95% CI, the band the verdict's \
                 tolerance."
                    .into(),
            )),
            paragraphs: vec![
                format!(
                    "The table at which every unit is worth its cost against the others: each \
                     unit re-priced (the same battles, its scenarios' rates) with the references \
                     at their proposed costs, until none moves; {} keeps its listed cost, the \
                     table's scale. {}.",
                    self.anchor,
                    self.scores()
                ),
                format!(
                    "The score is the root mean square of ln(card price / cost) over the units: \
                     0 when every unit costs its price, 0.1 when the typical unit is about 10% \
                     off. The references price one another with a drift of {:.3} (1 when they \
                     close the loop: each costs its price against the others). CIs: {} seeded \
                     bootstrap draws of every scenario's rate ({} without a fixed point, left \
                     out); the proposed costs are rounded to the half CP for the card \
                     (docs/balance.md).",
                    s.balance.drift, s.draws, s.failed
                ),
                "Every price rests on diemon's readings of what the texts leave open, at their \
                 defaults (docs/readings.md, `diemon options`): `diemon price UNIT \
                 --sensitivity` re-prices a unit under each other reading and draws how far \
                 each moves its price."
                    .into(),
            ]
            .into_iter()
            .chain(super::roster::inert_paragraph(
                self.rows.iter().map(|r| (&r.unit, &r.inert)),
            ))
            .collect(),
            table: Some(table),
            ..Section::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_lists_the_nearest_half_cp() {
        assert_eq!(
            [4.24, 4.26, 4.74, 4.76, 0.2].map(half_cp),
            [4.0, 4.5, 4.5, 5.0, 0.0]
        );
    }
}
