//! The grid of an experiment: axes of choices, each choice some parameters and the command
//! flags they set. `[sweep]` axes set one flag each; the `fair-cp` and `matchups` kinds add
//! an axis of their own (the reference count; the pair of units), always innermost, so the
//! cells of one fit or one matrix sit together.

use super::Analysis;

/// One value of an axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub params: Vec<(String, String)>,
    pub args: Vec<String>,
}

/// An axis: its choices, and where the file names it (for errors).
#[derive(Clone, Debug)]
pub struct Axis {
    pub names: Vec<String>,
    pub offset: usize,
    pub choices: Vec<Choice>,
}

/// A `[sweep]` axis: `--key value` for each value, or `-o key=value` when the key names a
/// rule option (`d4_bonus = ["none", "all"]`: what changes if d4s can explode?).
pub fn sweep(key: &str, offset: usize, values: &[String]) -> Axis {
    let option = diemon_core::rules::OPTIONS.iter().any(|o| o.key == key);
    Axis {
        names: vec![key.to_string()],
        offset,
        choices: values
            .iter()
            .map(|v| Choice {
                params: vec![(key.to_string(), v.clone())],
                args: if option {
                    vec!["-o".into(), format!("{key}={v}")]
                } else {
                    flag_text(key, v)
                },
            })
            .collect(),
    }
}

/// The axis an analysis adds: `count` of the reference against the unit (fair CP), or
/// each pair of units once (matchups; `a` before `b` in list order).
pub fn of(analysis: &Analysis, offset: usize) -> Option<Axis> {
    match analysis {
        Analysis::None => None,
        Analysis::FairCp {
            unit,
            reference,
            units,
            counts,
        } => Some(Axis {
            names: vec!["count".into()],
            offset,
            choices: counts
                .iter()
                .map(|n| Choice {
                    params: vec![("count".into(), n.to_string())],
                    args: vec![
                        "--a".into(),
                        format!("{unit}*{units}"),
                        "--b".into(),
                        format!("{reference}*{n}"),
                    ],
                })
                .collect(),
        }),
        Analysis::Matchups { units, count } => {
            // Equal heads: `count` of each; else the budget buys each side's.
            let side = |u: &String| match count {
                Some(n) => format!("{u}*{n}"),
                None => u.clone(),
            };
            let mut choices = Vec::new();
            for (i, x) in units.iter().enumerate() {
                for y in &units[i + 1..] {
                    choices.push(Choice {
                        params: vec![("a".into(), x.clone()), ("b".into(), y.clone())],
                        args: vec!["--a".into(), side(x), "--b".into(), side(y)],
                    });
                }
            }
            Some(Axis {
                names: vec!["a".into(), "b".into()],
                offset,
                choices,
            })
        }
    }
}

/// `--key value`, or `--key` alone for a true switch (and nothing for false); a value that
/// starts with `-` (a negative number) as `--key=value`, so it is read as the flag's value
/// and refused or taken as such, not as another flag.
pub fn flag_text(key: &str, value: &str) -> Vec<String> {
    let name = format!("--{}", key.replace('_', "-"));
    match value {
        "true" => vec![name],
        "false" => vec![],
        v if v.starts_with('-') => vec![format!("{name}={v}")],
        v => vec![name, v.to_string()],
    }
}

/// Cell `index` of the grid (the last axis varies fastest): which choice of each axis.
pub fn cell(axes: &[Axis], index: usize) -> Vec<&Choice> {
    let mut rest = index;
    let mut picked: Vec<&Choice> = axes
        .iter()
        .rev()
        .map(|a| {
            let c = &a.choices[rest % a.choices.len()];
            rest /= a.choices.len();
            c
        })
        .collect();
    picked.reverse();
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchups_play_each_pair_once() {
        let a = of(
            &Analysis::Matchups {
                units: vec!["x".into(), "y".into(), "z".into()],
                count: None,
            },
            0,
        )
        .unwrap();
        let pairs: Vec<(String, String)> = a
            .choices
            .iter()
            .map(|c| (c.params[0].1.clone(), c.params[1].1.clone()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("x".into(), "y".into()),
                ("x".into(), "z".into()),
                ("y".into(), "z".into())
            ]
        );
    }

    #[test]
    fn the_last_axis_varies_fastest() {
        let axes = [
            sweep("d", 0, &["1".into(), "2".into()]),
            sweep("s", 0, &["a".into(), "b".into(), "c".into()]),
        ];
        let c = cell(&axes, 4);
        assert_eq!(
            (c[0].params[0].1.as_str(), c[1].params[0].1.as_str()),
            ("2", "b")
        );
        let o = sweep("d4_bonus", 0, &["all".into()]);
        assert_eq!(o.choices[0].args, ["-o", "d4_bonus=all"]);
        let f = of(
            &Analysis::FairCp {
                unit: "hero".into(),
                reference: "fig".into(),
                units: 2,
                counts: vec![3, 4],
            },
            0,
        )
        .unwrap();
        assert_eq!(f.choices[1].args, ["--a", "hero*2", "--b", "fig*4"]);
    }
}
