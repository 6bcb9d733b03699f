//! `diemon marks` in the page: a Marks pool's exact Marks, the chance of each success level,
//! and a static roll against Marks a GM assigns.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::options;
use diemon_core::dice::Pmf;
use diemon_core::marks::exact;
use diemon_core::marks::levels::{LEVELS, contest, exactly};
use diemon_core::marks::pool::{Pool, Sheet};

/// A character sheet's pool, as `diemon marks` flags give it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarksQuestion {
    /// Normal Attributes, averaged into d6s.
    #[serde(default)]
    pub attr: Vec<u32>,
    /// Tempo: this many Attribute d6s, whole.
    #[serde(default)]
    pub tempo: Option<u32>,
    /// Super Attributes, whole d10s.
    #[serde(default)]
    pub super_attr: Vec<u32>,
    /// Superpower ranks.
    #[serde(default)]
    pub superpower: u32,
    /// Skill d6s.
    #[serde(default)]
    pub skill: u32,
    /// Super Skill d10s.
    #[serde(default)]
    pub super_skill: u32,
    /// Dice taken away.
    #[serde(default)]
    pub difficulty: u32,
    /// Marks a GM assigns the opposition.
    #[serde(default)]
    pub against_marks: Option<u32>,
    /// Rule options that differ from the defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
}

/// The figures of `diemon marks --json` (same keys) and the command.
#[derive(Clone, Debug, Serialize)]
pub struct MarksAnswer {
    /// The pool, as printed.
    pub pool: String,
    /// d6s rolled.
    pub d6: u32,
    /// d10s rolled.
    pub d10: u32,
    /// Dice kept.
    pub keep: u32,
    /// `[marks, P]`.
    pub pmf: Vec<(i64, f64)>,
    /// Mean Marks.
    pub mean: f64,
    /// Mass cut from re-roll chains.
    pub truncated_mass: f64,
    /// P(exactly each level).
    pub p_levels: BTreeMap<String, f64>,
    /// P(at least each level).
    pub p_at_least: BTreeMap<String, f64>,
    /// The Marks against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs_marks: Option<u32>,
    /// More Marks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_wins: Option<f64>,
    /// Equal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_tie: Option<f64>,
    /// Fewer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_loses: Option<f64>,
    /// The rows a table shows.
    #[serde(flatten)]
    pub rows: crate::dice::Rows,
    /// The rule options.
    pub options: diemon_core::options::RuleOptions,
    /// The same question on the command line.
    pub command: String,
}

/// The default tail cut, as `diemon marks --tail`.
const TAIL: f64 = 1e-12;

/// Answers a pool.
pub fn ask(q: &MarksQuestion) -> Result<MarksAnswer, Error> {
    let opts = options::apply(&q.options)?;
    let sheet = Sheet {
        attributes: q.attr.clone(),
        tempo: q.tempo,
        super_attributes: q.super_attr.clone(),
        superpower: q.superpower,
        skill: q.skill,
        super_skill: q.super_skill,
        difficulty: q.difficulty,
    };
    // The sheet must be able to roll before difficulty takes dice (as the command checks).
    let whole = Pool::new(
        &Sheet {
            difficulty: 0,
            ..sheet.clone()
        },
        &opts,
    )
    .map_err(|m| Error::input("attr", format!("{m}\nhint: a pool has at most 60 dice")))?;
    if whole.dice() == 0 || whole.keep() == 0 {
        return Err(Error::input(
            "attr",
            "no Attribute, Super Attribute or Superpower dice, so no die can be kept\nhint: give Attributes, e.g. 3,3",
        ));
    }
    let pool = Pool::new(&sheet, &opts).map_err(|m| Error::input("difficulty", m.to_string()))?;
    let marks: Pmf = exact::marks(&pool, &opts, TAIL);
    let vs = q
        .against_marks
        .map(|n| (n, contest(&marks, &Pmf::point(n as i64), &opts)));
    Ok(MarksAnswer {
        pool: pool.describe(),
        d6: pool.d6(),
        d10: pool.d10(),
        keep: pool.keep(),
        pmf: marks.iter().filter(|&(_, p)| p > 0.0).collect(),
        mean: marks.mean(),
        truncated_mass: marks.truncated(),
        p_levels: exactly(&marks)
            .into_iter()
            .map(|(n, p)| (n.to_string(), p))
            .collect(),
        p_at_least: LEVELS
            .iter()
            .map(|(n, k)| (n.to_string(), marks.p_at_least(*k)))
            .collect(),
        vs_marks: vs.map(|v| v.0),
        p_wins: vs.map(|v| v.1.0),
        p_tie: vs.map(|v| v.1.1),
        p_loses: vs.map(|v| v.1.2),
        rows: crate::dice::Rows::of(&marks),
        options: opts,
        command: command(q, &opts),
    })
}

fn command(q: &MarksQuestion, opts: &diemon_core::options::RuleOptions) -> String {
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let mut c = String::from("diemon marks");
    if !q.attr.is_empty() {
        c.push_str(&format!(" --attr {}", list(&q.attr)));
    }
    if let Some(t) = q.tempo {
        c.push_str(&format!(" --tempo {t}"));
    }
    if !q.super_attr.is_empty() {
        c.push_str(&format!(" --super-attr {}", list(&q.super_attr)));
    }
    for (flag, n) in [
        ("superpower", q.superpower),
        ("skill", q.skill),
        ("super-skill", q.super_skill),
        ("difficulty", q.difficulty),
    ] {
        if n > 0 {
            c.push_str(&format!(" --{flag} {n}"));
        }
    }
    if let Some(n) = q.against_marks {
        c.push_str(&format!(" --against-marks {n}"));
    }
    for f in options::flags(opts) {
        c.push(' ');
        c.push_str(&f);
    }
    c + " --json"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::same::{assert_same, cli};

    #[test]
    fn the_page_answers_what_the_command_line_does() {
        let q = MarksQuestion {
            attr: vec![4, 2],
            super_attr: vec![3],
            skill: 2,
            against_marks: Some(3),
            ..MarksQuestion::default()
        };
        let page = serde_json::to_value(ask(&q).unwrap()).unwrap();
        assert_same(
            &page,
            &cli(&page["command"].as_str().unwrap()["diemon ".len()..]),
            &[],
        );
    }
}
