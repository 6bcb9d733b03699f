//! `diemon dist` in the page: the exact table of a dice expression, with its mean, sd,
//! Critical Failure and Overskill chances, and P(meets Use) or P(beats Armor) when asked.
//! The Dice tab and the Skill and SN tab both ask this.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::options;
use diemon_core::dice::{Expr, Pmf};
use diemon_core::options::{ArmorTie, RuleOptions};

/// A dice expression and what to hold it against.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceQuestion {
    /// The expression in the rules' notation (`2d10 exp`, `d6 skill bless d8`, `sn d8 + 2`).
    pub expr: String,
    /// Armor to beat: a number or an expression (`--armor`).
    #[serde(default)]
    pub armor: Option<String>,
    /// A Use rating a Skill roll must meet (`--use`).
    #[serde(default, rename = "use")]
    pub use_rating: Option<i64>,
    /// Most mass exact maths may cut from explosion tails (`--tail`).
    #[serde(default = "tail")]
    pub tail: f64,
    /// Rule options that differ from the defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
}

fn tail() -> f64 {
    1e-12
}

/// The figures of `diemon dist --json` (same keys), the rows a table shows, and the command.
#[derive(Clone, Debug, Serialize)]
pub struct DiceAnswer {
    /// The expression as given.
    pub expr: String,
    /// As diemon writes it.
    pub canonical: String,
    /// The rule options it used.
    pub options: RuleOptions,
    /// The tail cut asked for.
    pub tail_bound: f64,
    /// `[value, P]` for every value with a chance.
    pub pmf: Vec<(i64, f64)>,
    /// Mean and standard deviation.
    pub mean: f64,
    /// Standard deviation.
    pub sd: f64,
    /// Mass the cut left out.
    pub truncated_mass: f64,
    /// P(Critical Failure).
    pub p_critical_failure: f64,
    /// P(Overskill), for a Skill roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_overskill: Option<f64>,
    /// The Armor held against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs: Option<String>,
    /// P(beats it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_beats: Option<f64>,
    /// P(ties it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_tie: Option<f64>,
    /// What a tie does (option `armor_tie`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armor_tie: Option<ArmorTie>,
    /// The Use rating met.
    #[serde(skip_serializing_if = "Option::is_none", rename = "use")]
    pub use_rating: Option<i64>,
    /// P(meets it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_meets: Option<f64>,
    /// The rows a table shows.
    #[serde(flatten)]
    pub rows: Rows,
    /// The same question on the command line.
    pub command: String,
}

/// The rows a table of a distribution shows: `[value, P(=), P(>=)]`, the tails beyond
/// [`Pmf::FOLD`] folded into `below` and `above`, as the terminal folds them.
#[derive(Clone, Debug, Serialize)]
pub struct Rows {
    /// The rows.
    pub rows: Vec<(i64, f64, f64)>,
    /// P(below the first row).
    pub below: f64,
    /// P(above the last row).
    pub above: f64,
}

impl Rows {
    /// The rows of `p`.
    pub fn of(p: &Pmf) -> Rows {
        let (lo, hi) = p.likely_range(Pmf::FOLD);
        Rows {
            rows: (lo..=hi).map(|v| (v, p.prob(v), p.p_at_least(v))).collect(),
            below: p.p_at_most(lo - 1),
            above: p.p_at_least(hi + 1),
        }
    }
}

/// Answers a dice question, or says which field is wrong and where.
pub fn ask(q: &DiceQuestion) -> Result<DiceAnswer, Error> {
    let opts = options::apply(&q.options)?;
    let expr =
        Expr::parse(&q.expr).map_err(|e| Error::expr("expr", "<expression>", &q.expr, &e))?;
    let armor = match &q.armor {
        Some(t) if !t.trim().is_empty() => {
            Some(Expr::parse(t).map_err(|e| Error::expr("armor", "--armor", t, &e))?)
        }
        _ => None,
    };
    if !(q.tail > 0.0 && q.tail <= 1e-3) {
        return Err(Error::input(
            "tail",
            format!("tail {}: expected a probability in (0, 0.001]", q.tail),
        ));
    }
    if q.use_rating.is_some() && expr.skill().is_none() {
        return Err(Error::input(
            "use",
            format!(
                "a Use rating needs a Skill roll, but {:?} has no `skill` die\nhint: write e.g. \"d6 skill - 1\" (Ch. 4.2)",
                q.expr
            ),
        ));
    }
    let exact = expr.exact(&opts, q.tail);
    let total: &Pmf = exact.total();
    let armor_pmf = armor
        .as_ref()
        .map(|a| a.exact(&opts, q.tail).total().clone());
    Ok(DiceAnswer {
        expr: q.expr.clone(),
        canonical: expr.to_string(),
        options: opts,
        tail_bound: q.tail,
        pmf: total.iter().filter(|&(_, p)| p > 0.0).collect(),
        mean: total.mean(),
        sd: total.sd(),
        truncated_mass: exact.truncated(),
        p_critical_failure: exact.p_critical_failure(),
        p_overskill: expr.skill().map(|_| exact.p_overskill()),
        vs: armor.as_ref().and(q.armor.clone()),
        p_beats: armor_pmf.as_ref().map(|a| exact.p_beats(a)),
        p_tie: armor_pmf.as_ref().map(|a| exact.p_tie(a)),
        armor_tie: armor.as_ref().map(|_| opts.armor_tie),
        use_rating: q.use_rating,
        p_meets: q.use_rating.map(|u| exact.p_meets(u, &opts, q.tail)),
        rows: Rows::of(total),
        command: command(q, &opts, armor.is_some()),
    })
}

/// `diemon dist "EXPR" --use U --armor A --tail T -o ...`
fn command(q: &DiceQuestion, opts: &RuleOptions, armor: bool) -> String {
    let mut c = format!("diemon dist {}", crate::command::quote(&q.expr));
    if let Some(u) = q.use_rating {
        c.push_str(&format!(" --use {u}"));
    }
    if let (true, Some(a)) = (armor, &q.armor) {
        c.push_str(&format!(" --armor {}", crate::command::quote(a)));
    }
    if q.tail != tail() {
        c.push_str(&format!(" --tail {}", q.tail));
    }
    for f in options::flags(opts) {
        c.push(' ');
        c.push_str(&f);
    }
    c
}
