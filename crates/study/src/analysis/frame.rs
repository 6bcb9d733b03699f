//! The one conversion point from run reports to Polars frames.
//!
//! Each experiment cell yields its command's JSON report; [`summary`] turns the reports into
//! one row per cell: the cell index, its sweep parameters, and every number of the report
//! (a `ci_*` pair becomes `*_lo` and `*_hi` columns). Timing numbers (`trials_per_sec`,
//! `threads`) are left out: they are measurements, not seeded results, and would make two
//! runs of the same seed differ.

use std::collections::BTreeSet;

use polars::prelude::{Column, DataFrame, DataType, PolarsResult};
use serde_json::Value;

/// Report keys that are not seeded results.
const UNSEEDED: &[&str] = &["trials_per_sec", "threads"];

/// The reports' policies (objects such as `policy_a`, as "response=close sprint=never
/// ...") and lists of text (`inert_a`, "; " between the items), one text column each.
fn text_columns(reports: &[Value]) -> Vec<Column> {
    let policy = |o: &Value| {
        o.as_object().map(|o| {
            o.iter()
                .map(|(f, v)| match v {
                    Value::String(s) => format!("{f}={s}"),
                    v => format!("{f}={v}"),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    let list = |a: &Value| {
        a.as_array().map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("; ")
        })
    };
    let mut cols = keyed_text(reports, "policy_", Value::is_object, policy);
    cols.extend(keyed_text(reports, "inert_", Value::is_array, list));
    cols
}

/// One text column for each report key starting with `prefix` whose value `fits`, sorted,
/// each cell's value as `text` gives it (null where a report lacks the key).
fn keyed_text(
    reports: &[Value],
    prefix: &str,
    fits: fn(&Value) -> bool,
    text: impl Fn(&Value) -> Option<String>,
) -> Vec<Column> {
    let mut keys = BTreeSet::new();
    for r in reports {
        if let Value::Object(m) = r {
            keys.extend(
                m.iter()
                    .filter(|(k, v)| k.starts_with(prefix) && fits(v))
                    .map(|(k, _)| k.clone()),
            );
        }
    }
    keys.into_iter()
        .map(|k| {
            let values: Vec<Option<String>> =
                reports.iter().map(|r| r.get(&k).and_then(&text)).collect();
            Column::new(k.as_str().into(), values)
        })
        .collect()
}

/// One row per cell: `cell`, the parameters (as text), then the reports' numbers.
pub fn summary(params: &[Vec<(String, String)>], reports: &[Value]) -> PolarsResult<DataFrame> {
    let mut cols = vec![Column::new(
        "cell".into(),
        (0..reports.len() as u64).collect::<Vec<u64>>(),
    )];
    if let Some(first) = params.first() {
        for (i, (name, _)) in first.iter().enumerate() {
            let values: Vec<String> = params[..reports.len()]
                .iter()
                .map(|p| p[i].1.clone())
                .collect();
            cols.push(param_column(name, values));
        }
    }
    // Every numeric key any report has, in sorted order; a parameter's own column already
    // carries a key of the same name.
    let param_names: Vec<&str> = params
        .first()
        .map(|p| p.iter().map(|(k, _)| k.as_str()).collect())
        .unwrap_or_default();
    let mut keys = BTreeSet::new();
    for r in reports {
        if let Value::Object(m) = r {
            for (k, v) in m {
                if UNSEEDED.contains(&k.as_str()) || param_names.contains(&k.as_str()) {
                    continue;
                }
                // (column base, 0 point / 1 low / 2 high, report key): a CI sits after its
                // point, and `ci_a_wins` belongs to `p_a_wins` when the report has one.
                match v {
                    Value::Number(_) => {
                        keys.insert((k.clone(), 0u8, k.clone()));
                    }
                    // A Monte Carlo figure with no trials behind it (an empty shard) is null
                    // beside its CI: its column is still there, so every shard has the
                    // same schema.
                    Value::Null
                        if m.get(&format!("ci_{}", k.strip_prefix("p_").unwrap_or(k)))
                            .is_some_and(Value::is_array) =>
                    {
                        keys.insert((k.clone(), 0u8, k.clone()));
                    }
                    Value::Array(a) if k.starts_with("ci_") && a.len() == 2 => {
                        let base = &k[3..];
                        let base = if m.contains_key(&format!("p_{base}")) {
                            format!("p_{base}")
                        } else {
                            base.to_string()
                        };
                        keys.insert((base.clone(), 1, k.clone()));
                        keys.insert((base, 2, k.clone()));
                    }
                    _ => {}
                }
            }
        }
    }
    for (base, part, k) in keys {
        let name = match part {
            0 => base,
            1 => format!("{base}_lo"),
            _ => format!("{base}_hi"),
        };
        let values: Vec<Option<&Value>> = reports
            .iter()
            .map(|r| match (r.get(&k), part) {
                (Some(v), 0) => Some(v),
                (Some(Value::Array(a)), p) => a.get(p as usize - 1),
                _ => None,
            })
            .collect();
        // Counts stay integers (trials, seed, units); anything else is a float.
        cols.push(number_column(&name, &values, part == 0));
    }
    cols.extend(text_columns(reports));
    let mut df = DataFrame::new_infer_height(cols)?;
    derive(&mut df)?;
    Ok(df)
}

/// A column of report numbers: integers when `whole_allowed` and every figure present is
/// one, else floats (so is a column with no figure at all: an empty shard's).
fn number_column(name: &str, values: &[Option<&Value>], whole_allowed: bool) -> Column {
    let present: Vec<&&Value> = values.iter().flatten().filter(|v| !v.is_null()).collect();
    if whole_allowed && !present.is_empty() && present.iter().all(|v| v.is_i64()) {
        let ints: Vec<Option<i64>> = values.iter().map(|v| v.and_then(Value::as_i64)).collect();
        Column::new(name.into(), ints)
    } else {
        let floats: Vec<Option<f64>> = values.iter().map(|v| v.and_then(Value::as_f64)).collect();
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

/// The reports' histograms in long form: one row per (cell, histogram, value) with the
/// parameters and the probability. A histogram is a report key ending in `_hist` holding
/// `[value, probability]` pairs (`kills_hist`), or an exact table under `pmf` (Marks).
pub fn distributions(
    params: &[Vec<(String, String)>],
    reports: &[Value],
) -> PolarsResult<DataFrame> {
    let mut cell = Vec::new();
    let mut param_cols: Vec<Vec<String>> = vec![Vec::new(); params.first().map_or(0, Vec::len)];
    let mut metric = Vec::new();
    let mut value = Vec::new();
    let mut probability = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        let Value::Object(m) = r else { continue };
        for (k, v) in m {
            let name = k
                .strip_suffix("_hist")
                .or((k == "pmf").then_some(k.as_str()));
            let (Some(name), Value::Array(pairs)) = (name, v) else {
                continue;
            };
            for pair in pairs {
                let (Some(x), Some(p)) = (
                    pair.get(0).and_then(Value::as_f64),
                    pair.get(1).and_then(Value::as_f64),
                ) else {
                    continue;
                };
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
    // Every histogram counts whole things (kills, units standing, turns, Marks, periods):
    // integers, unless a value is not whole.
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

/// Each report key holding a list of objects (`by_ring`: kills by ring) as its own long
/// frame: one row per (cell, entry) with the parameters and the entry's numbers (a `ci_*`
/// pair as `*_lo`, `*_hi`). Named by the key; none when no report has such a key.
pub fn tables(
    params: &[Vec<(String, String)>],
    reports: &[Value],
) -> PolarsResult<Vec<(String, DataFrame)>> {
    let mut names = BTreeSet::new();
    for r in reports {
        if let Value::Object(m) = r {
            for (k, v) in m {
                if let Value::Array(a) = v
                    && a.first().is_some_and(Value::is_object)
                {
                    names.insert(k.clone());
                }
            }
        }
    }
    let mut out = Vec::new();
    for name in names {
        // Rows: (cell, entry); columns: every numeric field any entry has, in sorted order.
        let mut rows: Vec<(usize, &serde_json::Map<String, Value>)> = Vec::new();
        for (i, r) in reports.iter().enumerate() {
            if let Some(Value::Array(a)) = r.get(&name) {
                rows.extend(a.iter().filter_map(Value::as_object).map(|o| (i, o)));
            }
        }
        let mut fields = BTreeSet::new();
        for (_, o) in &rows {
            for (k, v) in o.iter() {
                match v {
                    Value::Number(_) => {
                        fields.insert((k.clone(), 0u8));
                    }
                    // As in `summary`: a null figure beside its CI keeps its column.
                    Value::Null if o.get(&format!("ci_{k}")).is_some_and(Value::is_array) => {
                        fields.insert((k.clone(), 0u8));
                    }
                    Value::Array(a) if a.len() == 2 => {
                        let base = k.strip_prefix("ci_").unwrap_or(k).to_string();
                        fields.insert((base.clone(), 1));
                        fields.insert((base, 2));
                    }
                    _ => {}
                }
            }
        }
        let mut cols = vec![Column::new(
            "cell".into(),
            rows.iter().map(|(i, _)| *i as u64).collect::<Vec<u64>>(),
        )];
        if let Some(first) = params.first() {
            for (j, (p, _)) in first.iter().enumerate() {
                let values = rows.iter().map(|(i, _)| params[*i][j].1.clone()).collect();
                cols.push(param_column(p, values));
            }
        }
        for (field, part) in fields {
            let ci = format!("ci_{field}");
            let (key, col) = match part {
                0 => (field.clone(), field.clone()),
                // A pair under its own name is a range (`inches`); under ci_ a CI.
                p => {
                    let ranged = rows
                        .iter()
                        .any(|(_, o)| o.get(&field).is_some_and(Value::is_array));
                    let key = if ranged { field.clone() } else { ci.clone() };
                    let suffix = match (ranged, p) {
                        (true, 1) => "_from",
                        (true, _) => "_to",
                        (false, 1) => "_lo",
                        (false, _) => "_hi",
                    };
                    (key, format!("{field}{suffix}"))
                }
            };
            let values: Vec<Option<&Value>> = rows
                .iter()
                .map(|(_, o)| match (o.get(&key), part) {
                    (Some(v), 0) => Some(v),
                    (Some(Value::Array(a)), p) => a.get(p as usize - 1),
                    _ => None,
                })
                .collect();
            // Whole numbers (a turn, a ring, inches of a ring) stay integers; a producer
            // writes a measure as a float, so the type is the field's, not the data's.
            cols.push(number_column(&col, &values, part == 0 || key == field));
        }
        out.push((name, DataFrame::new_infer_height(cols)?));
    }
    Ok(out)
}

/// One fair-CP fit as a row: its group's parameters and the worth.
#[derive(Clone, Debug, PartialEq)]
pub struct WorthRow {
    pub group: Vec<(String, String)>,
    pub unit: String,
    pub reference: String,
    pub units: u64,
    pub cp_unit: f64,
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
    use serde_json::json;

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
        let reports = vec![
            json!({"mean_kills": 2.5, "ci_mean_kills": [2.0, 3.0], "threads": 2, "weapon": "x", "distance": 6.0}),
            json!({"mean_kills": 1.5, "ci_mean_kills": [1.0, 2.0], "threads": 8}),
        ];
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
        let reports = vec![json!({
            "p_a_wins": 0.5, "ci_a_wins": [0.4, 0.6], "trials": 100,
            "cp_a": 10.0, "cp_b": 20.0, "cp_left_a": 4.0, "ci_cp_left_a": [3.0, 5.0],
            "cp_left_b": 15.0, "ci_cp_left_b": [14.0, 16.0],
        })];
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
        let reports = vec![json!({"policy_a": {"sprint": "never", "cover": 0}, "trials": 1})];
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
    fn lists_of_objects_become_their_own_frames() {
        let params = vec![
            vec![("xsize".to_string(), "1".to_string())],
            vec![("xsize".to_string(), "2".to_string())],
        ];
        let ring = |r: u64, k: f64| json!({"ring": r, "inches": [2 * r, 2 * r + 2], "mean_kills": k, "ci_mean_kills": [k - 0.5, k + 0.5]});
        let reports = vec![
            json!({"by_ring": [ring(0, 3.0)]}),
            json!({"by_ring": [ring(0, 4.0), ring(1, 1.0)]}),
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
        let reports = vec![json!({"kills_hist": [[0, 0.25], [3, 0.75]], "mean_kills": 2.25})];
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
