//! The one conversion point from typed rows to Polars frames.
//!
//! Each experiment cell's answer says its row ([`crate::schema::Row`]); [`summary`] puts
//! the rows side by side, one per cell: the cell index, its sweep parameters, and every
//! figure of the row (an estimate's CI as `*_lo` and `*_hi` columns).
//! [`distributions`] and [`tables`] do the same for the rows' distributions and tables.
//! Timing numbers (trials a second, threads) are in no row: they are measurements, not
//! seeded results, and would make two runs of the same seed differ.

use std::collections::BTreeSet;

use polars::prelude::{Column, DataFrame, DataType, PolarsResult};

use crate::schema::{Ends, Figure, Row};

/// The text columns of `rows` (a side's policies, what it never uses), in the order the
/// rows first give them, null where a row lacks one.
fn text_columns(rows: &[Row]) -> Vec<Column> {
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        for (n, _) in &r.texts {
            if !names.contains(n) {
                names.push(n);
            }
        }
    }
    names
        .into_iter()
        .map(|n| {
            let values: Vec<Option<&str>> = rows
                .iter()
                .map(|r| {
                    r.texts
                        .iter()
                        .find(|(k, _)| *k == n)
                        .map(|(_, t)| t.as_str())
                })
                .collect();
            Column::new(n.into(), values)
        })
        .collect()
}

/// The numeric columns of `rows`, sorted by name, a pair's two ends right after its point:
/// `(column, which)` where `which` is 0 for the point and 1 or 2 for a pair's ends. A point
/// that is null in every row has a column only beside its pair (an empty shard keeps every
/// shard's schema). Names in `skip` are left out. A pair's ends carry how they read; a
/// point's `Ends` is unused.
fn numeric_keys(rows: &[Row], skip: &[&str]) -> BTreeSet<(&'static str, u8, Ends)> {
    let mut keys = BTreeSet::new();
    for r in rows {
        for &(name, f) in &r.figures {
            if skip.contains(&name) {
                continue;
            }
            if f.present() || r.pairs.iter().any(|(n, _, _)| *n == name) {
                keys.insert((name, 0u8, Ends::Ci));
            }
        }
        for &(name, ends, _) in &r.pairs {
            keys.insert((name, 1, ends));
            keys.insert((name, 2, ends));
        }
    }
    keys
}

/// Column `(name, which)` of `rows`: its name and each row's figure.
fn numeric(
    rows: &[&Row],
    name: &'static str,
    which: u8,
    ends: Ends,
) -> (String, Vec<Option<Figure>>) {
    if which == 0 {
        return (
            name.to_string(),
            rows.iter().map(|r| r.figure(name)).collect(),
        );
    }
    let values = rows
        .iter()
        .map(|r| {
            r.pairs
                .iter()
                .find(|(n, _, _)| *n == name)
                .map(|(_, _, v)| v[which as usize - 1])
        })
        .collect();
    (
        format!("{name}{}", ends.suffixes()[which as usize - 1]),
        values,
    )
}

/// One row per cell: `cell`, the parameters (as text), then the rows' numbers, then their
/// texts.
pub fn summary(params: &[Vec<(String, String)>], rows: &[Row]) -> PolarsResult<DataFrame> {
    let mut cols = vec![Column::new(
        "cell".into(),
        (0..rows.len() as u64).collect::<Vec<u64>>(),
    )];
    if let Some(first) = params.first() {
        for (i, (name, _)) in first.iter().enumerate() {
            let values: Vec<String> = params[..rows.len()]
                .iter()
                .map(|p| p[i].1.clone())
                .collect();
            cols.push(param_column(name, values));
        }
    }
    // A parameter's own column already carries a figure of the same name.
    let param_names: Vec<&str> = params
        .first()
        .map(|p| p.iter().map(|(k, _)| k.as_str()).collect())
        .unwrap_or_default();
    let all: Vec<&Row> = rows.iter().collect();
    for (name, which, ends) in numeric_keys(rows, &param_names) {
        let (column, values) = numeric(&all, name, which, ends);
        cols.push(number_column(&column, &values));
    }
    cols.extend(text_columns(rows));
    let mut df = DataFrame::new_infer_height(cols)?;
    derive(&mut df)?;
    Ok(df)
}

/// An integer column when every figure present is whole (counts, settings, a ring's
/// inches), else a float column; null where a row has none.
fn number_column(name: &str, values: &[Option<Figure>]) -> Column {
    let present = values.iter().flatten().filter(|f| f.present());
    let mut any = false;
    let whole = present.into_iter().all(|f| {
        any = true;
        matches!(f, Figure::Whole(_))
    });
    if whole && any {
        let ints: Vec<Option<i64>> = values
            .iter()
            .map(|v| match v {
                Some(Figure::Whole(n)) => Some(*n),
                _ => None,
            })
            .collect();
        Column::new(name.into(), ints)
    } else {
        let floats: Vec<Option<f64>> = values.iter().map(|v| v.and_then(Figure::as_f64)).collect();
        Column::new(name.into(), floats)
    }
}

/// Derived columns, computed in Polars from the report columns when they are there:
/// - `cp_efficiency_a`/`_b`: CP of the other side destroyed per CP fielded (a squad duel);
///   linear in the mean CP left, so its CI is that CI mapped through the same line.
fn derive(df: &mut DataFrame) -> PolarsResult<()> {
    for (me, them) in [("a", "b"), ("b", "a")] {
        let (Ok(cp_me), Ok(cp_them)) = (
            df.column(&format!("cp_{me}")),
            df.column(&format!("cp_{them}")),
        ) else {
            continue;
        };
        let cp_me = cp_me.cast(&DataType::Float64)?;
        let cp_them = cp_them.cast(&DataType::Float64)?;
        // destroyed / fielded = (cp_them - left) / cp_me; the CI's ends swap.
        for (suffix, left) in [("", ""), ("_lo", "_hi"), ("_hi", "_lo")] {
            let Ok(left) = df.column(&format!("cp_left_{them}{left}")) else {
                continue;
            };
            let destroyed = (&cp_them - left)?;
            let v = (&destroyed / &cp_me)?;
            df.with_column(v.with_name(format!("cp_efficiency_{me}{suffix}").into()))?;
        }
    }
    Ok(())
}

/// The rows' distributions in long form: one row per (cell, metric, value) with the
/// parameters and the probability (`kills`, a Marks roll's `pmf`).
pub fn distributions(params: &[Vec<(String, String)>], rows: &[Row]) -> PolarsResult<DataFrame> {
    let mut cell = Vec::new();
    let mut param_cols: Vec<Vec<String>> = vec![Vec::new(); params.first().map_or(0, Vec::len)];
    let mut metric = Vec::new();
    let mut value = Vec::new();
    let mut probability = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        for (name, pairs) in &r.dists {
            for &(x, p) in pairs {
                cell.push(i as u64);
                for (c, (_, pv)) in param_cols.iter_mut().zip(&params[i]) {
                    c.push(pv.clone());
                }
                metric.push(name.to_string());
                value.push(x);
                probability.push(p);
            }
        }
    }
    let mut cols = vec![Column::new("cell".into(), cell)];
    if let Some(first) = params.first() {
        for ((name, _), values) in first.iter().zip(param_cols) {
            cols.push(param_column(name, values));
        }
    }
    cols.push(Column::new("metric".into(), metric));
    // Values stay integers when every one is whole (kills, Marks, turns).
    if value
        .iter()
        .all(|v: &f64| v.fract() == 0.0 && v.abs() < 9.0e15)
    {
        let whole: Vec<i64> = value.iter().map(|v| *v as i64).collect();
        cols.push(Column::new("value".into(), whole));
    } else {
        cols.push(Column::new("value".into(), value));
    }
    cols.push(Column::new("probability".into(), probability));
    DataFrame::new_infer_height(cols)
}

/// Each table the rows give (`by_ring`: kills by ring) as its own long frame, named by the
/// table: one row per (cell, entry) with the parameters and the entry's numbers. Sorted by
/// name; none when no row has an entry.
pub fn tables(
    params: &[Vec<(String, String)>],
    rows: &[Row],
) -> PolarsResult<Vec<(String, DataFrame)>> {
    let mut names = BTreeSet::new();
    for r in rows {
        names.extend(
            r.tables
                .iter()
                .filter(|(_, t)| !t.is_empty())
                .map(|(n, _)| *n),
        );
    }
    let mut out = Vec::new();
    for name in names {
        let entries: Vec<(usize, &Row)> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                r.tables
                    .iter()
                    .filter(|(n, _)| *n == name)
                    .flat_map(move |(_, t)| t.iter().map(move |e| (i, e)))
            })
            .collect();
        let mut cols = vec![Column::new(
            "cell".into(),
            entries.iter().map(|(i, _)| *i as u64).collect::<Vec<u64>>(),
        )];
        if let Some(first) = params.first() {
            for (j, (p, _)) in first.iter().enumerate() {
                let values = entries
                    .iter()
                    .map(|(i, _)| params[*i][j].1.clone())
                    .collect();
                cols.push(param_column(p, values));
            }
        }
        let own: Vec<Row> = entries.iter().map(|(_, e)| (*e).clone()).collect();
        let refs: Vec<&Row> = own.iter().collect();
        for (field, which, ends) in numeric_keys(&own, &[]) {
            let (column, values) = numeric(&refs, field, which, ends);
            cols.push(number_column(&column, &values));
        }
        out.push((name.to_string(), DataFrame::new_infer_height(cols)?));
    }
    Ok(out)
}

/// One fair-CP fit as a row: its group's parameters and the worth.
#[derive(Clone, Debug, PartialEq)]
pub struct WorthRow {
    /// The group's parameters, name and value.
    pub group: Vec<(String, String)>,
    /// The unit priced.
    pub unit: String,
    /// The reference it is priced in.
    pub reference: String,
    /// How many of the unit fought.
    pub units: u64,
    /// One unit's CP.
    pub cp_unit: f64,
    /// One reference's CP.
    pub cp_reference: f64,
    /// The fit, or why there is none (no 50% point among the cells).
    pub worth: Result<super::fair_cp::Worth, super::fair_cp::NoWorth>,
    /// The cells it was read from.
    pub points: Vec<super::fair_cp::Point>,
}

/// The fair-CP fits, one row each: the ratio, the CP it makes, and the fit's quality.
pub fn fair_cp(rows: &[WorthRow]) -> PolarsResult<DataFrame> {
    let mut cols = group_columns(rows.iter().map(|r| &r.group));
    let text = |f: fn(&WorthRow) -> &String| rows.iter().map(f).cloned().collect::<Vec<String>>();
    cols.push(Column::new("unit".into(), text(|r| &r.unit)));
    cols.push(Column::new("reference".into(), text(|r| &r.reference)));
    cols.push(Column::new(
        "units".into(),
        rows.iter().map(|r| r.units).collect::<Vec<u64>>(),
    ));
    // A step with no cell between a sure win and a sure loss has no finite slope: null.
    let num = |f: &dyn Fn(&WorthRow) -> Option<f64>| {
        rows.iter()
            .map(|r| f(r).filter(|x| x.is_finite()))
            .collect::<Vec<_>>()
    };
    let w = |f: fn(&super::fair_cp::Worth) -> f64| move |r: &WorthRow| r.worth.as_ref().ok().map(f);
    let per = |r: &WorthRow| r.cp_reference;
    let columns: [(&str, Vec<Option<f64>>); 17] = [
        ("cp_unit_listed", num(&|r| Some(r.cp_unit))),
        ("cp_reference", num(&|r| Some(r.cp_reference))),
        ("ratio", num(&w(|w| w.ratio.point))),
        ("ratio_lo", num(&w(|w| w.ratio.ci[0]))),
        ("ratio_hi", num(&w(|w| w.ratio.ci[1]))),
        (
            "fair_cp",
            num(&|r| w(|w| w.ratio.point)(r).map(|x| x * per(r))),
        ),
        (
            "fair_cp_lo",
            num(&|r| w(|w| w.ratio.ci[0])(r).map(|x| x * per(r))),
        ),
        (
            "fair_cp_hi",
            num(&|r| w(|w| w.ratio.ci[1])(r).map(|x| x * per(r))),
        ),
        ("cells_fitted", num(&w(|w| w.cells as f64))),
        ("curve_centre", num(&w(|w| w.centre))),
        ("curve_b0", num(&w(|w| w.curve[0]))),
        ("curve_b1", num(&w(|w| w.curve[1]))),
        ("curve_b2", num(&w(|w| w.curve[2]))),
        ("slope", num(&w(|w| w.slope))),
        ("chi2", num(&w(|w| w.chi2))),
        ("p_fit", num(&w(|w| w.p_fit))),
        ("dispersion", num(&w(|w| w.dispersion))),
    ];
    for (name, values) in columns {
        cols.push(Column::new(name.into(), values));
    }
    fn ok(r: &WorthRow) -> Option<&super::fair_cp::Worth> {
        r.worth.as_ref().ok()
    }
    let extra: [(&str, Vec<Option<f64>>); 4] = [
        ("bracket_from", num(&|r| ok(r).map(|w| w.between[0]))),
        ("bracket_to", num(&|r| ok(r).map(|w| w.between[1]))),
        (
            "ratio_odd",
            num(&|r| ok(r).and_then(|w| w.parity).map(|p| p[0])),
        ),
        (
            "ratio_even",
            num(&|r| ok(r).and_then(|w| w.parity).map(|p| p[1])),
        ),
    ];
    for (name, values) in extra {
        cols.push(Column::new(name.into(), values));
    }
    // Why a fit is doubted (null when a price may rest on it).
    cols.push(Column::new(
        "doubt".into(),
        rows.iter()
            .map(|r| ok(r).and_then(|w| w.doubt.as_ref()).map(|d| d.to_string()))
            .collect::<Vec<_>>(),
    ));
    let mut df = DataFrame::new_infer_height(cols)?;
    // A count of cells is a whole number (missing where there is no fit).
    let fitted = df.column("cells_fitted")?.cast(&DataType::Int64)?;
    df.with_column(fitted)?;
    Ok(df)
}

/// A matchup matrix in long form: one row per (unit, opponent) with the unit's chance of
/// winning and its CI, and each unit's score.
pub fn matchups(
    groups: &[(Vec<(String, String)>, super::matchups::Matrix)],
) -> PolarsResult<DataFrame> {
    let mut group = Vec::new();
    let (mut unit, mut opponent) = (Vec::new(), Vec::new());
    let (mut p, mut lo, mut hi) = (Vec::new(), Vec::new(), Vec::new());
    let (mut score, mut score_lo, mut score_hi) = (Vec::new(), Vec::new(), Vec::new());
    for (g, m) in groups {
        for (i, row) in m.wins.iter().enumerate() {
            for (j, e) in row.iter().enumerate() {
                let Some(e) = e else { continue };
                group.push(g);
                unit.push(m.units[i].clone());
                opponent.push(m.units[j].clone());
                p.push(e.point);
                lo.push(e.ci[0]);
                hi.push(e.ci[1]);
                score.push(m.score[i].point);
                score_lo.push(m.score[i].ci[0]);
                score_hi.push(m.score[i].ci[1]);
            }
        }
    }
    let mut cols = group_columns(group.into_iter());
    cols.push(Column::new("unit".into(), unit));
    cols.push(Column::new("opponent".into(), opponent));
    cols.push(Column::new("p_wins".into(), p));
    cols.push(Column::new("p_wins_lo".into(), lo));
    cols.push(Column::new("p_wins_hi".into(), hi));
    cols.push(Column::new("score".into(), score));
    cols.push(Column::new("score_lo".into(), score_lo));
    cols.push(Column::new("score_hi".into(), score_hi));
    DataFrame::new_infer_height(cols)
}

/// The column of a sweep axis: its name in snake_case (`a-spend` is `a_spend`), so every
/// frame's columns read alike in Polars, pandas and SQL.
pub fn column_name(axis: &str) -> String {
    axis.replace('-', "_")
}

/// Axes that count whole things (units, dice, CP, turns, tries): integer columns in every
/// experiment. Any other number is a float wherever it appears (a distance may be 1.5").
const WHOLE_AXES: &[&str] = &[
    "budget",
    "count",
    "max_turns",
    "attr",
    "super_attr",
    "superpower",
    "skill",
    "super_skill",
    "difficulty",
    "tries",
    "plateau",
    "tempo",
    "against_marks",
    "vs_marks",
    "shots",
    "burst",
    "size",
    "xsize",
    "support",
    "room",
];

/// A parameter's column, typed by what the axis is: whole counts as integers
/// ([`WHOLE_AXES`]), other numbers as floats, else text (a unit's name), so analysts sort
/// and plot them as such and a column has one type in every experiment.
fn param_column(name: &str, values: Vec<String>) -> Column {
    let name = column_name(name);
    let name = name.as_str();
    if let Ok(v) = values
        .iter()
        .map(|v| v.parse::<i64>())
        .collect::<Result<Vec<_>, _>>()
        .ok()
        .filter(|_| WHOLE_AXES.contains(&name))
        .ok_or(())
    {
        Column::new(name.into(), v)
    } else if let Ok(v) = values
        .iter()
        .map(|v| v.parse::<f64>())
        .collect::<Result<Vec<_>, _>>()
    {
        Column::new(name.into(), v)
    } else {
        Column::new(name.into(), values)
    }
}

/// A column per group parameter (the sweep axes other than the analysis's own).
fn group_columns<'a>(groups: impl Iterator<Item = &'a Vec<(String, String)>>) -> Vec<Column> {
    let groups: Vec<&Vec<(String, String)>> = groups.collect();
    let Some(first) = groups.first() else {
        return Vec::new();
    };
    (0..first.len())
        .map(|i| {
            let values: Vec<String> = groups.iter().map(|g| g[i].1.clone()).collect();
            param_column(&first[i].0, values)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Figure;

    fn names(df: &DataFrame) -> Vec<String> {
        df.get_column_names()
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn reports_become_rows() {
        let params = vec![
            vec![("distance".to_string(), "6".to_string())],
            vec![("distance".to_string(), "12".to_string())],
        ];
        let mut one = Row::default();
        one.estimate("mean_kills", 2.5, [2.0, 3.0])
            .real("distance", 6.0);
        let mut two = Row::default();
        two.estimate("mean_kills", 1.5, [1.0, 2.0]);
        let reports = vec![one, two];
        let df = summary(&params, &reports).unwrap();
        let names = names(&df);
        assert_eq!(
            names,
            [
                "cell",
                "distance",
                "mean_kills",
                "mean_kills_lo",
                "mean_kills_hi"
            ]
        );
        assert_eq!(df.height(), 2);
        let k = df.column("mean_kills").unwrap().f64().unwrap();
        assert_eq!(k.get(1), Some(1.5));
    }

    #[test]
    fn rates_keep_their_p_and_counts_stay_integers() {
        let params = vec![vec![]];
        let mut r = Row::default();
        r.estimate("p_a_wins", 0.5, [0.4, 0.6])
            .whole("trials", 100u64)
            .real("cp_a", 10.0)
            .real("cp_b", 20.0)
            .estimate("cp_left_a", 4.0, [3.0, 5.0])
            .estimate("cp_left_b", 15.0, [14.0, 16.0]);
        let reports = vec![r];
        let df = summary(&params, &reports).unwrap();
        let f = |c: &str| df.column(c).unwrap().f64().unwrap().get(0).unwrap();
        assert_eq!((f("p_a_wins_lo"), f("p_a_wins_hi")), (0.4, 0.6));
        assert_eq!(
            df.column("trials").unwrap().i64().unwrap().get(0),
            Some(100)
        );
        // A destroyed 20 - 15 = 5 of B's CP with its 10: 0.5, CI (20-16)/10 to (20-14)/10.
        assert_eq!(
            (
                f("cp_efficiency_a"),
                f("cp_efficiency_a_lo"),
                f("cp_efficiency_a_hi")
            ),
            (0.5, 0.4, 0.6)
        );
        assert_eq!(f("cp_efficiency_b"), 0.3);
        let mut r = Row::default();
        r.text("policy_a", "cover=0 sprint=never".into())
            .whole("trials", 1u64);
        let reports = vec![r];
        let df = summary(&params, &reports).unwrap();
        let p = df
            .column("policy_a")
            .unwrap()
            .str()
            .unwrap()
            .get(0)
            .map(String::from);
        assert_eq!(p.as_deref(), Some("cover=0 sprint=never"));
    }

    #[test]
    fn an_empty_shards_figures_keep_their_columns_null() {
        // A shard that drew no batch: its estimates are NaN beside NaN CIs, its counts 0.
        let mut empty = Row::default();
        empty
            .estimate("mean_kills", f64::NAN, [f64::NAN; 2])
            .whole("trials", 0u64)
            .real("kills_per_cp_listed", f64::NAN);
        let df = summary(&[vec![]], &[empty]).unwrap();
        assert_eq!(
            names(&df),
            [
                "cell",
                "mean_kills",
                "mean_kills_lo",
                "mean_kills_hi",
                "trials"
            ]
        );
        assert_eq!(df.column("mean_kills").unwrap().null_count(), 1);
        assert_eq!(df.column("trials").unwrap().i64().unwrap().get(0), Some(0));
        // A count beside a measured number in one column is a float column.
        let (mut a, mut b) = (Row::default(), Row::default());
        a.whole("distance", 6u32);
        b.real("distance", 1.5);
        let df = summary(&[vec![], vec![]], &[a, b]).unwrap();
        let d = df.column("distance").unwrap().f64().unwrap();
        assert_eq!((d.get(0), d.get(1)), (Some(6.0), Some(1.5)));
    }

    #[test]
    fn lists_of_objects_become_their_own_frames() {
        let params = vec![
            vec![("xsize".to_string(), "1".to_string())],
            vec![("xsize".to_string(), "2".to_string())],
        ];
        let ring = |r: i64, k: f64| {
            let mut row = Row::default();
            row.whole("ring", r)
                .span("inches", [Figure::Whole(2 * r), Figure::Whole(2 * r + 2)])
                .estimate("mean_kills", k, [k - 0.5, k + 0.5]);
            row
        };
        let table = |rings: Vec<Row>| {
            let mut row = Row::default();
            row.table("by_ring", rings);
            row
        };
        let reports = vec![
            table(vec![ring(0, 3.0)]),
            table(vec![ring(0, 4.0), ring(1, 1.0)]),
        ];
        let t = tables(&params, &reports).unwrap();
        assert_eq!(t.len(), 1);
        let (name, df) = &t[0];
        assert_eq!(name, "by_ring");
        let names = names(df);
        assert_eq!(
            names,
            [
                "cell",
                "xsize",
                "inches_from",
                "inches_to",
                "mean_kills",
                "mean_kills_lo",
                "mean_kills_hi",
                "ring"
            ]
        );
        assert_eq!(df.height(), 3);
        let f = |c: &str, i: usize| df.column(c).unwrap().f64().unwrap().get(i).unwrap();
        assert_eq!((f("mean_kills", 2), f("mean_kills_lo", 2)), (1.0, 0.5));
        // Whole fields stay integers (issue 24): a ring, its inches.
        let i = |c: &str, k: usize| df.column(c).unwrap().i64().unwrap().get(k);
        assert_eq!((i("inches_to", 2), i("ring", 2)), (Some(4), Some(1)));
        assert_eq!(df.column("xsize").unwrap().i64().unwrap().get(2), Some(2));
    }

    #[test]
    fn histograms_become_long_rows() {
        let params = vec![vec![("distance".to_string(), "6".to_string())]];
        let mut r = Row::default();
        r.dist("kills", [(0.0, 0.25), (3.0, 0.75)])
            .real("mean_kills", 2.25);
        let reports = vec![r];
        let df = distributions(&params, &reports).unwrap();
        let names = names(&df);
        assert_eq!(
            names,
            ["cell", "distance", "metric", "value", "probability"]
        );
        assert_eq!(df.height(), 2);
        let p = df.column("probability").unwrap().f64().unwrap();
        assert_eq!(p.get(1), Some(0.75));
    }
}
