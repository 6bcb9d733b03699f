//! The sensitivity section of a price's page: each reading's ruling (does the card price
//! move beyond its CI?), drawn as a bar and read as a table.

use super::*;

/// The readings that most need a ruling: those that move the price beyond the dice (or out
/// of the grid), in the tornado's order, one an option (its first reading), at most three.
pub fn rulings(s: &Sensitivity) -> Vec<&Shift> {
    let mut named = std::collections::BTreeSet::new();
    s.shifts
        .iter()
        .filter(|r| r.shift.as_ref().is_ok_and(Moved::beyond_dice))
        .filter(|r| named.insert(r.option))
        .take(3)
        .collect()
}

/// The tornado's section of the price's page.
pub fn section(s: &Sensitivity) -> Section {
    let rows: Vec<Range> = s
        .shifts
        .iter()
        .filter_map(|r| Some(bar(r, r.shift.as_ref().ok()?)))
        .collect();
    let chart = Chart {
        title: "How far each reading of the rules moves the card price".into(),
        x_label: "card price, CP (95% CI of the dice)".into(),
        y_label: String::new(),
        body: Body::Ranges {
            rows,
            dots: "card price (95% CI)".into(),
            line: Some(("under the defaults".into(), s.base)),
            band: None,
        },
    };
    let mut paragraphs = vec![format!(
        "Each bar runs from the card price under the default readings to the card price \
         under one other reading, both over the scenarios priced or bounded under both (so \
         the base of a bar may differ a little from the line, {:.2} CP over every scenario); \
         the whisker is its 95% CI. A reading that pushes the price out of the search's grid \
         (the unit wins, or loses, past its largest or smallest count) ends at that bound, \
         marked > or <, and comes first. A reading whose {PROBE_TRIALS} probe battles a \
         scenario all ended exactly as under the defaults (the same seeds) was not re-priced. \
         Each reading's scenario prices are in `sensitivity/KEY=VALUE/prices.csv` (and \
         `.parquet`); `--keep-readings` keeps its experiments whole, with their reports.",
        s.base
    )];
    paragraphs.push(ruling_text(s));
    let table = table_of(s);
    let list = if s.untouched.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "Not re-priced (no probe battle changed under any of their readings): {}.",
            s.untouched
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )]
    };
    Section {
        heading: "Sensitivity to the rules' open points".into(),
        figure: Some((
            "tornado".into(),
            chart,
            "Each reading's shift of the card price: out of the grid first, then biggest.".into(),
        )),
        paragraphs,
        table: Some(table),
        list,
        ..Section::default()
    }
}

/// A reading's bar on the tornado: from the defaults' card price to the reading's, or to
/// its bound when the price left the grid (the label says which way).
pub(super) fn bar(r: &Shift, m: &Moved) -> Range {
    let label = format!("{}={}", r.option, r.value);
    match m.open() {
        Some((above, x)) => Range {
            label: format!("{label} ({} {x:.1})", if above { ">" } else { "<" }),
            from: m.from[0],
            to: x,
            lo: x,
            hi: x,
        },
        None => Range {
            label,
            from: m.from[0],
            to: m.to[0],
            lo: m.to[1],
            hi: m.to[2],
        },
    }
}

/// Where the texts most need a ruling, in a sentence.
pub(super) fn ruling_text(s: &Sensitivity) -> String {
    let need = rulings(s);
    if need.is_empty() {
        return "No reading moves the price beyond its CI: for this unit the open points of the \
                texts do not need a ruling."
            .into();
    }
    format!(
        "Where the texts most need a ruling for this unit: {}.",
        need.iter()
            .map(|r| {
                let m = r.shift.as_ref().expect("a ruling has a shift");
                format!(
                    "`{}` ({}): `{}` moves the price {}",
                    r.option,
                    r.source,
                    r.value,
                    match m.open() {
                        Some((true, x)) => format!("above {x:.2} CP"),
                        Some((false, x)) => format!("below {x:.2} CP"),
                        None => format!("{:+.2} CP", m.by()),
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// One row a reading: its card price, shift and CI, or why it has none.
pub(super) fn table_of(s: &Sensitivity) -> Table {
    let row = |r: &Shift| -> Vec<String> {
        let reading = format!("`{}={}`", r.option, r.value);
        let Ok(m) = &r.shift else {
            let why = r
                .shift
                .as_ref()
                .err()
                .map(ToString::to_string)
                .unwrap_or_default();
            return vec![
                reading,
                r.source.into(),
                "-".into(),
                "-".into(),
                why,
                "0".into(),
            ];
        };
        let (price, ci, sign) = match m.open() {
            Some((true, x)) => (format!("above {x:.2}"), "-".into(), ">= "),
            Some((false, x)) => (format!("below {x:.2}"), "-".into(), "<= "),
            None => (
                format!("{:.2}", m.to[0]),
                format!("{:.2} to {:.2}", m.to[1], m.to[2]),
                "",
            ),
        };
        let decisive = m
            .decisive
            .map(|d| format!(" (decisive: {d} every battle)"))
            .unwrap_or_default();
        vec![
            reading,
            r.source.to_string(),
            price,
            format!("{sign}{:+.2}{decisive}", m.by()),
            ci,
            m.common.to_string(),
        ]
    };
    Table {
        header: [
            "reading",
            "source",
            "card price",
            "shift",
            "95% CI",
            "scenarios",
        ]
        .map(String::from)
        .to_vec(),
        rows: s.shifts.iter().map(row).collect(),
    }
}
