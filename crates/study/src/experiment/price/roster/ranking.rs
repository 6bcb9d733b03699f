//! A roster's ranking: its units from the most over-priced to the most under-priced, as a
//! frame and a table, the answer in one sentence, and the sheet of its page.

use super::*;

/// Where a unit ranks: its card price `[point, lo, hi]` and its scenarios' lowest and
/// highest price, a bound counting at its bound (never at infinity).
pub(super) fn worth(r: &Priced) -> Option<([f64; 3], [f64; 2])> {
    let c = r.card?;
    let bounds = || {
        r.scenarios
            .iter()
            .filter_map(|s| s.price.as_ref().ok().copied().or(s.beyond).map(|p| p[0]))
    };
    let lowest = bounds().fold(f64::INFINITY, f64::min);
    let highest = bounds().fold(f64::NEG_INFINITY, f64::max);
    // A card price that is itself a bound ranks at it.
    let [p, lo, hi] = c.price;
    let point = if p.is_infinite() {
        lo
    } else if p == 0.0 {
        hi
    } else {
        p
    };
    Some(([point, c.price[1], c.price[2]], [lowest, highest]))
}

/// "; inert here: PART (CP): why", or nothing: a price is of what acts.
/// The units marked † in a table and what they pay for and never use, in a paragraph (a
/// table cell holds only the mark: a sentence with figures would wrap on a phone).
pub(in crate::experiment::price) fn inert_paragraph<'a>(
    units: impl Iterator<Item = (&'a String, &'a Vec<String>)>,
) -> Option<String> {
    let lines: Vec<String> = units
        .filter(|(_, x)| !x.is_empty())
        .map(|(u, x)| format!("{u}: {}", x.join("; ")))
        .collect();
    (!lines.is_empty()).then(|| {
        format!(
            "† Paid for and inert in these battles, so the price is of what acts: {}.",
            lines.join("; ")
        )
    })
}

/// How many scenarios count at a bound, if any: " (3 at a bound)".
pub(super) fn beyond_note(r: &Priced) -> String {
    let n = r.scenarios.iter().filter(|s| s.beyond.is_some()).count();
    if n == 0 {
        String::new()
    } else {
        format!(" ({n} at a bound)")
    }
}

/// The units from the most over-priced (the lowest median price for its listed cost) to
/// the most under-priced; units with no price last, in the file's order.
pub(super) fn rank(priced: &[Priced]) -> Vec<&Priced> {
    let ratio = |r: &Priced| worth(r).map(|(w, _)| w[0] / r.listed.as_f64());
    let mut v: Vec<&Priced> = priced.iter().collect();
    v.sort_by(|a, b| match (ratio(a), ratio(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    v
}

/// One row a unit, ranked.
pub(super) fn roster_frame(ranked: &[&Priced]) -> Result<DataFrame, RunError> {
    let w: Vec<Option<([f64; 3], [f64; 2])>> = ranked.iter().map(|r| worth(r)).collect();
    let card = |i: usize| w.iter().map(|x| x.map(|v| v.0[i])).collect::<Vec<_>>();
    let range = |i: usize| w.iter().map(|x| x.map(|v| v.1[i])).collect::<Vec<_>>();
    let quartile = |i: usize| {
        ranked
            .iter()
            .map(|r| r.card.map(|c| c.quartiles[i]).filter(|x| x.is_finite()))
            .collect::<Vec<_>>()
    };
    // Positive when over-priced; null where fair, or at an open end.
    let gap = |i: usize| {
        ranked
            .iter()
            .map(|r| r.verdict.gap().map(|g| g[i]).filter(|x| x.is_finite()))
            .collect::<Vec<_>>()
    };
    let cols = vec![
        Column::new("rank".into(), (1..=ranked.len() as u64).collect::<Vec<_>>()),
        Column::new(
            "unit".into(),
            ranked.iter().map(|r| r.unit.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "listed_cp".into(),
            ranked.iter().map(|r| r.listed.as_f64()).collect::<Vec<_>>(),
        ),
        Column::new("card_price".into(), card(0)),
        Column::new("card_price_lo".into(), card(1)),
        Column::new("card_price_hi".into(), card(2)),
        Column::new("price_q1".into(), quartile(0)),
        Column::new("price_q3".into(), quartile(1)),
        Column::new("price_min".into(), range(0)),
        Column::new("price_max".into(), range(1)),
        Column::new(
            "worth_of_listed".into(),
            ranked
                .iter()
                .zip(&w)
                .map(|(r, x)| x.map(|v| v.0[0] / r.listed.as_f64()))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "verdict".into(),
            ranked.iter().map(|r| r.verdict.name()).collect::<Vec<_>>(),
        ),
        Column::new("over_by".into(), gap(0)),
        Column::new("over_by_least".into(), gap(1)),
        Column::new("over_by_most".into(), gap(2)),
        Column::new(
            "tolerance".into(),
            ranked.iter().map(|r| r.tolerance).collect::<Vec<_>>(),
        ),
        Column::new(
            "scenarios_priced".into(),
            ranked
                .iter()
                .map(|r| r.scenarios.iter().filter(|s| s.price.is_ok()).count() as u64)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "scenarios".into(),
            ranked
                .iter()
                .map(|r| r.scenarios.len() as u64)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "inert".into(),
            ranked
                .iter()
                .map(|r| r.inert.join("; "))
                .collect::<Vec<_>>(),
        ),
    ];
    DataFrame::new_infer_height(cols).map_err(|e| RunError::other(format!("the roster frame: {e}")))
}

/// One row a unit, ranked: its card price, spread, worth and verdict.
pub(super) fn ranking_table(ranked: &[&Priced]) -> Table {
    let mut table = Table {
        header: [
            "rank",
            "unit",
            "listed CP",
            "card price",
            "spread",
            "worth",
            "verdict",
            "priced",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    for (i, u) in ranked.iter().enumerate() {
        let (m, spread, share) = match (worth(u), &u.card) {
            (Some(([m, ..], [lo, hi])), Some(c)) => (
                c.text(),
                format!("{lo:.2} to {hi:.2}{}", beyond_note(u)),
                format!("{:.0}%", 100.0 * m / u.listed.as_f64()),
            ),
            _ => ("-".into(), "-".into(), "-".into()),
        };
        table.rows.push(vec![
            (i + 1).to_string(),
            u.unit.clone(),
            u.listed.to_string(),
            m,
            spread,
            share,
            u.verdict.word() + if u.inert.is_empty() { "" } else { " †" },
            format!(
                "{} of {}",
                u.scenarios.iter().filter(|s| s.price.is_ok()).count(),
                u.scenarios.len()
            ),
        ]);
    }
    table
}

/// The roster in one sentence: how many units each verdict holds, and the most over- and
/// under-priced (the ranking's ends).
pub(super) fn answer(ranked: &[&Priced]) -> String {
    let of = |w: &str| {
        ranked
            .iter()
            .filter(|u| u.verdict.word().starts_with(w))
            .count()
    };
    let mut s = format!(
        "Of {} units, {} are over-priced, {} fair and {} under-priced",
        ranked.len(),
        of("over-priced"),
        of("fair"),
        of("under-priced")
    );
    let over = ranked
        .iter()
        .find(|u| u.verdict.word().starts_with("over-priced"));
    let under = ranked
        .iter()
        .rev()
        .find(|u| u.verdict.word().starts_with("under-priced"));
    for (what, u) in [("most over-priced", over), ("most under-priced", under)] {
        if let Some(u) = u {
            s.push_str(&format!(
                "; {what}: {} (listed {} CP, {})",
                u.unit,
                u.listed,
                u.verdict.word()
            ));
        }
    }
    s.push('.');
    s
}

/// The roster's page: the ranking chart and table.
pub(super) fn sheet_of(r: &Roster, ranked: &[&Priced], command: &str) -> Sheet {
    let p = &r.pricing;
    let rows: Vec<Range> = ranked
        .iter()
        .filter_map(|u| {
            let ([m, ..], [lo, hi]) = worth(u)?;
            let l = u.listed.as_f64();
            Some(Range {
                label: format!("{} ({} CP)", u.unit, u.listed),
                from: 100.0,
                to: 100.0 * m / l,
                lo: 100.0 * lo / l,
                hi: 100.0 * hi / l,
            })
        })
        .collect();
    let chart = Chart {
        title: "What each unit is worth, as a share of its listed cost".into(),
        x_label: "card price, % of listed CP (whisker: lowest to highest scenario)".into(),
        y_label: String::new(),
        body: Body::Ranges {
            rows,
            dots: "card price (whisker: spread)".into(),
            line: Some(("listed cost (100%)".into(), 100.0)),
            band: None,
        },
    };
    let table = ranking_table(ranked);
    let scenarios = p.references.len() * p.formations.len() * p.tables.len() * p.distances.len();
    let mut lines = vec![
        format!(
            "{} units ({scenarios} scenario{} each), each priced {}",
            r.units.len(),
            diemon_core::plural::s(scenarios),
            p.describe()
        ),
        format!(
            "verdict: fair when the card price's 95% CI comes within {:.0}% of the listed cost",
            p.tolerance * 100.0
        ),
    ];
    if !p.options.is_empty() {
        lines.push(format!(
            "rule options: {}",
            p.options
                .iter()
                .map(|(k, v)| format!("`{k}={v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Sheet {
        title: if r.description.is_empty() {
            r.name.clone()
        } else {
            r.description.clone()
        },
        answer: Some(answer(ranked)),
        lines,
        sections: vec![
            Section {
                heading: "Ranking".into(),
                figure: Some((
                    "ranking".into(),
                    chart,
                    "Each unit's card price (the median of its scenarios' prices) as a share \
                     of its listed cost, most over-priced at the top; the whisker spans its \
                     scenarios."
                        .into(),
                )),
                paragraphs: vec![
                    "A unit below 100% is worth less in these battles than it costs \
                     (over-priced), above 100% more (under-priced). The verdict weighs the \
                     listed cost against the card price and its 95% CI, with the tolerance \
                     stated above (docs/pricing.md). A scenario whose price lies beyond the \
                     grid counts at that bound (\"3 at a bound\"); one whose curve misses \
                     its cells beyond the dice counts nowhere. `prices.csv` holds every \
                     scenario's price; `diemon price UNIT` prices one unit with its \
                     own page."
                        .into(),
                ]
                .into_iter()
                .chain(inert_paragraph(ranked.iter().map(|u| (&u.unit, &u.inert))))
                .collect(),
                table: Some(table),
                ..Section::default()
            },
            Section {
                heading: "Reproduce".into(),
                paragraphs: vec![format!(
                    "`{command}` (same seed, same digits, on any thread count; run again, it \
                     resumes from the cells kept under `units/`).{}",
                    if r.command.is_some() {
                        " The same units and scenarios as an experiment file \
                         (`diemon run FILE`):"
                    } else {
                        ""
                    }
                )],
                code: Some(r.text.clone()),
                ..Section::default()
            },
        ],
    }
}
