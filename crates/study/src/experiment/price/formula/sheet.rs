//! What the formula fit shows: a line a part on the terminal, the frames, the implied
//! formula file and the report's sections, a chart a part.

use std::collections::BTreeMap;

use polars::prelude::{Column, DataFrame};

use super::{Axis, BASE, Fitted, Part, Point};
use crate::experiment::error::RunError;
use crate::report::chart::{Body, Chart, Series};
use crate::report::sheet::{Section, Table};

impl Fitted {
    /// A line a part: "move: worth 0.62 CP per inch of Move [0.55, 0.70]; the rules charge
    /// 0.5".
    pub fn text(&self) -> String {
        let mut t = String::from("formula: what each part is worth per step in these battles\n");
        // The widest part's name sets the column: `mind-incompetent` is 16.
        let w = self
            .parts
            .iter()
            .map(|p| p.axis.name().len())
            .max()
            .unwrap_or(0);
        for p in &self.parts {
            let charged = p.charged.map_or("-".into(), |c| format!("{c}"));
            t.push_str(&match (p.worth(), &p.worth) {
                (Some([v, lo, hi]), _) => format!(
                    "  {:<width$} worth {v:.2} CP per {} [{lo:.2}, {hi:.2}]; the rules charge {charged}\n",
                    p.axis.name(),
                    p.axis.step(),
                    width = w
                ),
                (None, Err(why)) => format!(
                    "  {:<width$} no fit ({why}); the rules charge {charged}\n",
                    p.axis.name(),
                    width = w
                ),
                (None, Ok(_)) => String::new(),
            });
            for (u, why) in &p.left_out {
                t.push_str(&format!("    left out {u}: {why}\n"));
            }
            for x in p.inert() {
                t.push_str(&format!("    inert in these battles: {x}\n"));
            }
        }
        t
    }

    /// One row a part.
    pub fn frame(&self) -> Result<DataFrame, RunError> {
        let p = &self.parts;
        let worth = |i: usize| {
            p.iter()
                .map(|x| x.worth().map(|w| w[i]))
                .collect::<Vec<_>>()
        };
        DataFrame::new_infer_height(vec![
            Column::new(
                "part".into(),
                p.iter().map(|x| x.axis.name()).collect::<Vec<_>>(),
            ),
            Column::new(
                "formula_key".into(),
                p.iter().map(|x| x.axis.key()).collect::<Vec<_>>(),
            ),
            Column::new(
                "step".into(),
                p.iter().map(|x| x.axis.step()).collect::<Vec<_>>(),
            ),
            Column::new(
                "rules_cp_per_step".into(),
                p.iter().map(|x| x.charged).collect::<Vec<_>>(),
            ),
            Column::new("worth_cp_per_step".into(), worth(0)),
            Column::new("worth_cp_per_step_lo".into(), worth(1)),
            Column::new("worth_cp_per_step_hi".into(), worth(2)),
            Column::new(
                "misfit".into(),
                p.iter()
                    .map(|x| x.worth.as_ref().ok().and_then(|l| l.misfit))
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "variants".into(),
                p.iter().map(|x| x.points.len() as u32).collect::<Vec<_>>(),
            ),
            Column::new(
                "inert".into(),
                p.iter().map(|x| x.inert().join("; ")).collect::<Vec<_>>(),
            ),
        ])
        .map_err(|e| RunError::other(format!("the formula frame: {e}")))
    }

    /// One row a variant.
    pub fn variants_frame(&self) -> Result<DataFrame, RunError> {
        let rows: Vec<(&Part, &Point)> = self
            .parts
            .iter()
            .flat_map(|p| p.points.iter().map(move |x| (p, x)))
            .collect();
        let price = |i: usize| {
            rows.iter()
                .map(|(_, x)| x.price.map(|p| p[i]))
                .collect::<Vec<_>>()
        };
        DataFrame::new_infer_height(vec![
            Column::new(
                "part".into(),
                rows.iter().map(|(p, _)| p.axis.name()).collect::<Vec<_>>(),
            ),
            Column::new(
                "unit".into(),
                rows.iter().map(|(_, x)| x.unit.clone()).collect::<Vec<_>>(),
            ),
            Column::new(
                "step".into(),
                rows.iter().map(|(_, x)| x.x).collect::<Vec<_>>(),
            ),
            Column::new(
                "cost_cp".into(),
                rows.iter().map(|(_, x)| x.cost).collect::<Vec<_>>(),
            ),
            Column::new("price".into(), price(0)),
            Column::new("price_lo".into(), price(1)),
            Column::new("price_hi".into(), price(2)),
            Column::new(
                "inert".into(),
                rows.iter()
                    .map(|(_, x)| x.inert.join("; "))
                    .collect::<Vec<_>>(),
            ),
        ])
        .map_err(|e| RunError::other(format!("the variants frame: {e}")))
    }

    /// The fitted worths as a formula file `--formula` reads: each part with a fit at its
    /// point estimate (the CIs in comments).
    pub fn implied(&self) -> String {
        let mut top = String::new();
        let mut notes = String::new();
        let mut tables: BTreeMap<&str, String> = BTreeMap::new();
        for p in &self.parts {
            let Some([w, lo, hi]) = p.worth() else {
                continue;
            };
            let rules = p.charged.map_or("-".into(), |c| c.to_string());
            // A formula charges nothing below 0: a part worth less the more of it there is
            // (a Gun's Use climbing past a d6 Skill) is written at 0, its slope kept beside.
            let note = if w < 0.0 {
                format!("# the battles say {w:.4} [{lo:.4}, {hi:.4}], below 0; the rules {rules}")
            } else {
                format!("# 95% CI [{lo:.4}, {hi:.4}]; the rules {rules}")
            };
            let w = w.max(0.0);
            match p.axis {
                Axis::Move => top.push_str(&format!("move = {w:.4}  {note}\n")),
                Axis::Skill => top.push_str(&format!("skill_boost = {w:.4}  {note}\n")),
                Axis::Armor => {
                    let t = tables.entry("item").or_default();
                    t.push_str(&format!("body-armor = {w:.4}  {note}\n"));
                    t.push_str(&format!("heavy-armor = {:.4}  # two steps\n", 2.0 * w));
                }
                // Size moves the body and the Mind at once: no one key to set.
                Axis::Size => {}
                Axis::Weapon(k) => tables
                    .entry("weapon_size")
                    .or_default()
                    .push_str(&format!("{} = {w:.4}  {note}\n", k.key())),
                // One key serves several of these (`half_mind` every Half Mind, `mind` the
                // Mind and its levels, `specialty` both Specialties, `supernatural` each die
                // whole): the readings go beside it, for the designer to weigh.
                Axis::HalfMind(_) | Axis::Trait(_) | Axis::SuperNatural => {
                    notes.push_str(&format!(
                        "# {}: worth {w:.4} per {} [{lo:.4}, {hi:.4}]; the rules {rules} ({})\n",
                        p.axis.name(),
                        p.axis.step(),
                        p.axis.key()
                    ))
                }
            }
        }
        let mut t = String::from(
            "# The cost formula the battles imply (`diemon balance --fit`): each part's worth \
             per step,\n# fitted from designed variants of minifig-hand-weapon. Give it to \
             `diemon balance --formula`.\n",
        );
        t.push_str(&top);
        if !notes.is_empty() {
            t.push_str(
                "# Parts one key cannot hold apart (set them by hand if the readings agree):\n",
            );
            t.push_str(&notes);
        }
        for (name, body) in tables {
            t.push_str(&format!("\n[{name}]\n{body}"));
        }
        t
    }

    /// The report's section: a chart a part, then the table.
    pub fn sections(&self) -> Vec<Section> {
        let mut table = Table {
            header: [
                "part",
                "formula key",
                "step",
                "the rules charge (CP per step)",
                "the battles say (95% CI)",
            ]
            .map(String::from)
            .to_vec(),
            rows: Vec::new(),
        };
        for p in &self.parts {
            let mark = if p.inert().is_empty() { "" } else { " †" };
            table.rows.push(vec![
                p.axis.name(),
                p.axis.key(),
                p.axis.step().into(),
                p.charged.map_or("-".into(), |c| format!("{c}")),
                match (p.worth(), &p.worth) {
                    (Some([w, lo, hi]), _) => format!("{w:.2} [{lo:.2}, {hi:.2}]{mark}"),
                    (_, Err(why)) => format!("no fit: {why}"),
                    _ => "-".into(),
                },
            ]);
        }
        let inert: Vec<String> = self.parts.iter().flat_map(|p| p.inert()).collect();
        let mut sections = vec![Section {
            heading: "The formula the battles imply".into(),
            paragraphs: vec![format!(
                "Each part is priced along its own axis: designed variants of {BASE} that \
                     differ from it in that part alone, each priced as a catalog unit is (the \
                     same scenarios and seeds, at the listed costs of the references). A part's \
                     worth per step is the slope of the variants' card prices, a weighted \
                     least-squares line with its 95% CI; the rules' charge per step is the \
                     slope of their costs. `implied-formula.toml` holds the fitted worths as a \
                     formula `diemon balance --formula` reads (docs/balance.md)."
            )]
            .into_iter()
            .chain((!inert.is_empty()).then(|| {
                format!(
                    "† Paid for and inert in these battles, so its worth is of what acts: {}.",
                    inert.join("; ")
                )
            }))
            .collect(),
            table: Some(table),
            ..Section::default()
        }];
        for p in &self.parts {
            sections.push(Section {
                heading: format!("Formula: {}", p.axis.name()),
                figure: Some((
                    format!("formula-{}", p.axis.name()),
                    p.chart(),
                    format!(
                        "Each variant's card price (dots, 95% CI) and the fitted line with its \
                         band, against what the rules charge for it (the line without a band), \
                         by {}.",
                        p.axis.step()
                    ),
                )),
                ..Section::default()
            });
        }
        sections
    }
}

impl Part {
    /// What its variants pay CP for and never use in these battles, "UNIT: PART (CP): why".
    pub fn inert(&self) -> Vec<String> {
        self.points
            .iter()
            .flat_map(|p| p.inert.iter().map(move |x| format!("{}: {x}", p.unit)))
            .collect()
    }

    /// The variants' prices, the fitted line and the rules' costs over the steps.
    fn chart(&self) -> Chart {
        let dots: Vec<(f64, f64, f64, f64)> = self
            .points
            .iter()
            .filter_map(|p| {
                let [y, lo, hi] = p.price?;
                y.is_finite().then_some((p.x as f64, y, lo, hi))
            })
            .collect();
        let mut series = Vec::new();
        if let (Ok(l), Some([_, lo, _])) = (&self.worth, self.worth()) {
            let h = l.slope - lo;
            series.push(Series {
                label: "fitted worth (95% CI band)".into(),
                points: self
                    .points
                    .iter()
                    .map(|p| {
                        let x = p.x as f64;
                        let d = h * (x - l.x_mean).abs();
                        (x, l.at(x), l.at(x) - d, l.at(x) + d)
                    })
                    .collect(),
                dots: false,
                steps: false,
            });
        }
        series.push(Series {
            label: "what the rules charge".into(),
            points: self
                .points
                .iter()
                .map(|p| (p.x as f64, p.cost, p.cost, p.cost))
                .collect(),
            dots: false,
            steps: false,
        });
        // The prices last, drawn over the lines (the base's price sits on the rules' line).
        series.push(Series {
            label: "card price in battle (95% CI)".into(),
            points: dots,
            dots: true,
            steps: false,
        });
        Chart {
            title: format!(
                "{}: worth in battle against the rules' cost",
                self.axis.name()
            ),
            x_label: self.axis.step().into(),
            y_label: "CP".into(),
            body: Body::Lines {
                series,
                probability: false,
            },
        }
    }
}
