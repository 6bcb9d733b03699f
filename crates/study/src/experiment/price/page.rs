//! A price's own page and frame: every scenario's price on one chart beside the listed
//! cost and the spread, the table, each reference's report linked, and (when asked) the
//! sensitivity's tornado. The frame `prices.csv`/`.parquet` holds one row a scenario.

use std::path::{Path, PathBuf};

use polars::prelude::{Column, DataFrame};

use super::sensitivity::Sensitivity;
use super::{Priced, ScenarioPrice, Verdict};
use crate::experiment::error::RunError;
use crate::export::csv::Csv;
use crate::export::parquet::Parquet;
use crate::export::{Exporter, write_atomic};
use crate::report::chart::{Body, Chart, Range};
use crate::report::sheet::{self, Section, Sheet, Table};

/// The scenario's name on a chart row and in a table: `minifig-rifle, line, 12"`, and
/// ` on scattered` after it on a table.
pub fn scenario_label(s: &ScenarioPrice) -> String {
    let (reference, formation, distance) = (&s.reference, &s.formation, s.distance);
    match s.table == super::PLANE {
        true => format!("{reference}, {formation}, {distance}\""),
        false => format!("{reference}, {formation}, {distance}\" on {}", s.table),
    }
}

/// The card price in a sentence: "12.40 CP [11.90, 13.10], the median of 18 scenarios
/// (middle half 11.20 to 13.00; 6.97 to 41.49)".
pub fn card_text(r: &Priced) -> String {
    let Some(c) = &r.card else {
        return "none: no scenario gave a price or a bound".into();
    };
    let left = r.scenarios.len() - c.scenarios;
    format!(
        "{}, the median of {} scenario{}{} (95% CI: each scenario's CI read at one end); \
         middle half {:.2} to {:.2} CP, lowest to highest {:.2} to {:.2} CP",
        c.text(),
        c.scenarios,
        diemon_core::plural::s(c.scenarios),
        if left > 0 {
            format!(" ({left} without a reliable price left out)")
        } else {
            String::new()
        },
        c.quartiles[0],
        c.quartiles[1],
        c.range[0],
        c.range[1]
    )
}

/// The verdict in a sentence.
pub fn verdict_text(r: &Priced) -> String {
    let listed = r.listed;
    let pct = r.tolerance * 100.0;
    match &r.verdict {
        Verdict::Fair => format!(
            "fair: the card price's 95% CI reaches within {pct:.0}% of the listed {listed} CP"
        ),
        Verdict::OverPriced { .. } => format!(
            "{}: the listed {listed} CP is more than {pct:.0}% above the card price and its \
             95% CI",
            r.verdict.word()
        ),
        Verdict::UnderPriced { .. } => format!(
            "{}: the listed {listed} CP is more than {pct:.0}% below the card price and its \
             95% CI",
            r.verdict.word()
        ),
        Verdict::Unknown => "none: no scenario gave a price or a bound".to_string(),
    }
}

/// A warning beside a price read across a gap: no count between the two either side of
/// its crossing was fought (the search stopped at a side's limit or its last round).
pub fn fit_warning(s: &super::ScenarioPrice) -> Option<String> {
    match s.between {
        Some(([a, b], true)) => Some(format!(
            "read between {a} and {b} references: not every count between them was fought"
        )),
        _ => None,
    }
}

/// One row a part: its listed CP, the card price without it, and its worth with its CI.
fn parts_frame(r: &Priced, parts: &[super::parts::Worth]) -> Result<DataFrame, RunError> {
    let n = parts.len();
    let worth = |i: usize| {
        parts
            .iter()
            .map(|w| w.worth.as_ref().ok().map(|x| x[i]))
            .collect::<Vec<_>>()
    };
    let without = |i: usize| {
        parts
            .iter()
            .map(|w| w.without.map(|x| x[i]).filter(|x| x.is_finite()))
            .collect::<Vec<_>>()
    };
    DataFrame::new_infer_height(vec![
        Column::new("unit".into(), vec![r.unit.clone(); n]),
        Column::new(
            "part".into(),
            parts
                .iter()
                .map(|w| w.part.label.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "listed_cp".into(),
            parts
                .iter()
                .map(|w| w.part.listed.as_f64())
                .collect::<Vec<_>>(),
        ),
        Column::new("worth".into(), worth(0)),
        Column::new("worth_lo".into(), worth(1)),
        Column::new("worth_hi".into(), worth(2)),
        Column::new("card_price_without".into(), without(0)),
        Column::new("card_price_without_lo".into(), without(1)),
        Column::new("card_price_without_hi".into(), without(2)),
    ])
    .map_err(|e| RunError::other(format!("the parts frame: {e}")))
}

/// The stat card's two columns: each part's listed CP beside its worth in battle.
fn parts_section(r: &Priced, parts: &[super::parts::Worth]) -> Section {
    let rows: Vec<Range> = parts
        .iter()
        .filter_map(|w| {
            let [x, lo, hi] = *w.worth.as_ref().ok()?;
            Some(Range {
                label: format!("{} ({} CP)", w.part.label, w.part.listed),
                from: w.part.listed.as_f64(),
                to: x,
                lo,
                hi,
            })
        })
        .collect();
    let chart = Chart {
        title: format!("What each part of {} is worth in battle", r.unit),
        x_label: "CP: listed (bar's start) and worth in battle (dot, 95% CI)".into(),
        y_label: String::new(),
        body: Body::Ranges {
            rows,
            dots: "worth in battle (95% CI)".into(),
            line: None,
            band: None,
        },
    };
    let mut table = Table {
        header: ["part", "listed CP", "worth in battle", "95% CI"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
    };
    for w in parts {
        let (worth, ci) = match &w.worth {
            Ok([x, lo, hi]) => (format!("{x:.2}"), format!("{lo:.2} to {hi:.2}")),
            Err(why) => ("-".into(), why.clone()),
        };
        table.rows.push(vec![
            w.part.label.clone(),
            w.part.listed.to_string(),
            worth,
            ci,
        ]);
    }
    Section {
        heading: "What each part is worth".into(),
        figure: Some((
            "parts".into(),
            chart,
            "Each priced part's listed CP against the card price it takes away.".into(),
        )),
        paragraphs: vec![
            "A part's worth is the card price of the whole unit less the card price of the \
             unit without it, priced by the same method, seeds and scenarios (`parts/`). Its \
             95% CI is conservative: the two card prices' CIs at their far ends. Parts do not \
             add up to the whole: a part can be worth more beside another (armour on a unit \
             that closes to melee) than alone."
                .into(),
        ],
        table: Some(table),
        ..Section::default()
    }
}

/// One row a scenario: the unit, the scenario, the price and its CI, the fit.
pub fn frame(r: &Priced) -> Result<DataFrame, RunError> {
    let n = r.scenarios.len();
    // A bound's infinite end is no number a frame can hold: null.
    let card = |i: usize| {
        r.card
            .map(|c| c.price[i])
            .filter(|x| x.is_finite() && !(i == 0 && *x == 0.0))
    };
    let price = |i: usize| {
        r.scenarios
            .iter()
            .map(move |s| s.price.as_ref().ok().map(|p| p[i]))
    };
    let mut cols = vec![
        Column::new("unit".into(), vec![r.unit.clone(); n]),
        Column::new("listed_cp".into(), vec![r.listed.as_f64(); n]),
        Column::new(
            "reference".into(),
            r.scenarios
                .iter()
                .map(|s| s.reference.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "formation".into(),
            r.scenarios
                .iter()
                .map(|s| s.formation.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "distance".into(),
            r.scenarios
                .iter()
                .map(|s| s.distance as f64)
                .collect::<Vec<_>>(),
        ),
        // Only a price on a table has the column: a price on the plane keeps its frame.
        Column::new(
            "table".into(),
            r.scenarios
                .iter()
                .map(|s| s.table.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new("price".into(), price(0).collect::<Vec<_>>()),
        Column::new("price_lo".into(), price(1).collect::<Vec<_>>()),
        Column::new("price_hi".into(), price(2).collect::<Vec<_>>()),
        Column::new(
            "cells_fitted".into(),
            r.scenarios
                .iter()
                .map(|s| s.cells as u64)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "p_fit".into(),
            r.scenarios
                .iter()
                .map(|s| s.p_fit.is_finite().then_some(s.p_fit))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "price_bound".into(),
            r.scenarios
                .iter()
                .map(|s| s.beyond.map(|b| b[0]))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "no_price".into(),
            r.scenarios
                .iter()
                .map(|s| s.price.as_ref().err().cloned())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "note".into(),
            r.scenarios
                .iter()
                .map(|s| s.note.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "conduct".into(),
            r.scenarios
                .iter()
                .map(|s| s.conduct.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "counts".into(),
            r.scenarios
                .iter()
                .map(|s| {
                    s.counts
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>(),
        ),
        Column::new("card_price".into(), vec![card(0); n]),
        Column::new("card_price_lo".into(), vec![card(1); n]),
        Column::new("card_price_hi".into(), vec![card(2); n]),
        Column::new("verdict".into(), vec![r.verdict.name(); n]),
        Column::new("tolerance".into(), vec![r.tolerance; n]),
    ];
    // A price on the plane keeps the frame it had before tables.
    if r.scenarios.iter().all(|s| s.table == super::PLANE) {
        cols.retain(|c| c.name() != "table");
    }
    DataFrame::new_infer_height(cols).map_err(|e| RunError::other(format!("the prices frame: {e}")))
}

/// Writes `dir/prices.csv` and `.parquet`, then the page; returns the files written.
pub fn write(
    dir: &Path,
    r: &Priced,
    sensitivity: Option<&Sensitivity>,
    parts: Option<&[super::parts::Worth]>,
    command: &str,
) -> Result<Vec<PathBuf>, RunError> {
    let parquet = parquet_of(r, command);
    let mut written = write_prices(dir, r, command)?;
    if let Some(parts) = parts {
        let mut pf = parts_frame(r, parts)?;
        for e in [&Csv as &dyn Exporter, &parquet] {
            written.push(
                write_atomic(e, &mut pf, dir, "parts")
                    .map_err(|e| RunError::other(e.to_string()))?,
            );
        }
    }
    let page = sheet_of(r, sensitivity, parts, command, dir);
    written.extend(sheet::write(dir, &page).map_err(|e| RunError::other(e.to_string()))?);
    Ok(written)
}

/// Writes the frame alone, `dir/prices.csv` and `.parquet` (a sensitivity's reading keeps
/// no more); returns the files written.
pub fn write_prices(dir: &Path, r: &Priced, command: &str) -> Result<Vec<PathBuf>, RunError> {
    let mut df = frame(r)?;
    let parquet = parquet_of(r, command);
    let mut written = Vec::new();
    for e in [&Csv as &dyn Exporter, &parquet] {
        written.push(
            write_atomic(e, &mut df, dir, "prices").map_err(|e| RunError::other(e.to_string()))?,
        );
    }
    Ok(written)
}

/// The Parquet exporter of a price's frames: every kind's Parquet carries
/// `diemon_manifest` (docs/experiments.md), here what priced it.
fn parquet_of(r: &Priced, command: &str) -> Parquet {
    let mut manifest = toml::Table::new();
    manifest.insert("diemon_version".into(), env!("CARGO_PKG_VERSION").into());
    manifest.insert("kind".into(), "price".into());
    manifest.insert("unit".into(), r.unit.clone().into());
    manifest.insert("command".into(), command.into());
    Parquet {
        metadata: vec![
            ("diemon_manifest".into(), manifest.to_string()),
            ("command".into(), command.into()),
        ],
    }
}

/// Every scenario's price with its CI, beside the listed cost and the card price's CI.
fn prices_chart(r: &Priced) -> Chart {
    let listed = r.listed.as_f64();
    let rows: Vec<Range> = r
        .scenarios
        .iter()
        .filter_map(|s| {
            let [p, lo, hi] = *s.price.as_ref().ok()?;
            Some(Range {
                label: scenario_label(s),
                from: p,
                to: p,
                lo,
                hi,
            })
        })
        .collect();
    let rows_top = rows.iter().map(|r| r.hi).fold(listed, f64::max);
    Chart {
        title: format!("The fair CP of {} by scenario", r.unit),
        x_label: "fair CP (95% CI of the dice)".into(),
        y_label: String::new(),
        body: Body::Ranges {
            rows,
            dots: "fair CP (95% CI)".into(),
            line: Some((format!("listed {} CP", r.listed), listed)),
            // The card price's CI (a bound's open end drawn to the chart's edge).
            band: r.card.map(|c| {
                let top = rows_top.max(c.price[1]);
                (
                    format!("card price {}", c.text()),
                    [c.price[1], c.price[2].min(top)],
                )
            }),
        },
    }
}

/// One row a scenario: its price and CI, the cells around its crossing, and a note.
fn scenario_table(r: &Priced) -> Table {
    let mut table = Table {
        header: [
            "reference",
            "formation",
            "distance",
            "fair CP",
            "95% CI",
            "cells",
            "conduct",
            "note",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    let tables = r.scenarios.iter().any(|s| s.table != super::PLANE);
    if tables {
        table.header.insert(2, "table".into());
    }
    for s in &r.scenarios {
        let (price, ci) = match &s.price {
            Ok([p, lo, hi]) => (format!("{p:.2}"), format!("{lo:.2} to {hi:.2}")),
            Err(_) => ("-".into(), "-".into()),
        };
        let note = match &s.price {
            Ok(_) => [fit_warning(s), s.note.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("; "),
            Err(why) => format!("no price: {why}"),
        };
        table.rows.push(vec![
            s.reference.clone(),
            s.formation.clone(),
            format!("{}\"", s.distance),
            price,
            ci,
            s.cells.to_string(),
            s.conduct.clone().unwrap_or_else(|| "as listed".into()),
            note,
        ]);
        if tables {
            table
                .rows
                .last_mut()
                .expect("just pushed")
                .insert(2, s.table.clone());
        }
    }
    table
}

/// The page of a price.
pub fn sheet_of(
    r: &Priced,
    sensitivity: Option<&Sensitivity>,
    parts: Option<&[super::parts::Worth]>,
    command: &str,
    dir: &Path,
) -> Sheet {
    let mut lines = vec![
        format!(
            "listed cost: {} CP (`diemon unit show {}`)",
            r.listed, r.unit
        ),
        format!("card price: {}", card_text(r)),
        format!("verdict: {}", verdict_text(r)),
        format!("conduct: {}", super::conduct::describe(r.conduct)),
    ];
    if let Some([lo, hi]) = r.spread() {
        lines.push(format!(
            "spread across the scenarios: {lo:.2} to {hi:.2} CP ({:.2} CP that the battle, not \
             the dice, decides); each price's own 95% CI covers only the dice",
            hi - lo
        ));
    }
    let chart = prices_chart(r);
    let table = scenario_table(r);
    let unpriced = r.scenarios.iter().filter(|s| s.price.is_err()).count();
    let mut paragraphs = vec![
        "A scenario's price is the CP of the references the unit is worth where it wins half \
         its fights (draws count half), read from a falling curve fitted to its cells around \
         the crossing. The grey band is the card price's 95% CI: the median of the \
         scenarios' prices. The verdict weighs the listed cost against the \
         card price and its 95% CI, with the tolerance stated above. A scenario whose curve \
         misses its cells beyond the dice has no reliable price and counts nowhere."
            .to_string(),
    ];
    if unpriced > 0 {
        paragraphs.push(format!(
            "{unpriced} scenario{} gave no price (see the table) and {} left out of the chart; \
             a scenario beyond the grid counts in the card price at its bound, a doubted one \
             nowhere.",
            diemon_core::plural::s(unpriced),
            if unpriced == 1 { "is" } else { "are" }
        ));
    }
    let mut sections = vec![Section {
        heading: "Price by scenario".into(),
        figure: Some((
            "prices".into(),
            chart,
            format!(
                "Each scenario's fair CP for {} with its 95% CI, the listed cost and the card \
                 price's 95% CI.",
                r.unit
            ),
        )),
        paragraphs,
        table: Some(table),
        ..Section::default()
    }];
    if let Some(parts) = parts {
        sections.push(parts_section(r, parts));
    }
    if let Some(s) = sensitivity {
        sections.push(super::sensitivity::section(s));
    }
    sections.push(Section {
        heading: "Each reference's experiments".into(),
        paragraphs: vec![
            "Each reference and formation is a fair-CP experiment of its own over every \
             distance (`REFERENCE/FORMATION/`): the grid's cells, its own fits \
             (`fair_cp.csv`) and, unless the price was one of a roster's or a sensitivity's, \
             its report with the curves, all under the default conducts. The counts the \
             search added beside the grid are in `REFERENCE/FORMATION/round-R-Din/`, and the \
             same cells under each other pair of conducts in \
             `REFERENCE/FORMATION/conduct-UNIT-vs-REFERENCE/`; a scenario's price is read from \
             all of them, as the game's values (`prices.csv` lists its `counts` and \
             `conduct`)."
                .into(),
        ],
        links: r
            .folders
            .iter()
            .map(|f| {
                let rel = f.strip_prefix(dir).unwrap_or(f).join("report.html");
                (rel.display().to_string(), rel.display().to_string())
            })
            .collect(),
        ..Section::default()
    });
    sections.push(Section {
        heading: "Reproduce".into(),
        paragraphs: vec![
            "Same seed, same digits, on any thread count; run again into this folder, it \
             resumes from the cells it kept."
                .into(),
        ],
        code: Some(command.to_string()),
        ..Section::default()
    });
    Sheet {
        title: format!("The price of {}", r.unit),
        answer: Some(format!(
            "{}: card price {}; {}.{}",
            r.unit,
            card_text(r),
            verdict_text(r),
            match r.inert.is_empty() {
                true => String::new(),
                false => format!(
                    " It pays for parts that do nothing in these battles, so the price is of \
                     what acts: {}.",
                    r.inert.join("; ")
                ),
            }
        )),
        lines,
        sections,
    }
}
