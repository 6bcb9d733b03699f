//! `diemon marks`: the Marks dice-pool system's odds for one roll, exactly.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use clap::Args;
use serde_json::json;

use super::runs::{CellArgs, RunFlags};
use super::{Failure, io};
use crate::analysis::Estimate;
use crate::analysis::gof::chi_squared;
use crate::dice::Pmf;
use crate::marks::exact;
use crate::marks::levels::{LEVELS, contest, exactly};
use crate::marks::pool::{Pool, Sheet};
use crate::marks::roll::MarksRoll;
use crate::rules::RuleOptions;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon marks --attr 4,2 --super-attr 3                 Marshall: 3d6 + 3d10, keep 6
  diemon marks --attr 3,3 --skill 3                      Adam's Intimidation: 6d6, keep 3
  diemon marks --attr 4,2 --super-attr 3 --skill 3 --difficulty 2 --json
  diemon marks --attr 3,3 --skill 2 --vs-marks 2         against 2 Marks a GM assigns
  diemon marks --attr 3,3 --vs \"attr=4,4 skill=1\"        a contested roll
  diemon marks --attr 3,3 --mc 1000000                   exact against seeded Monte Carlo

Options the text leaves open: marks_ones, marks_cancel, marks_reroll_ones, marks_penalty,
marks_tie (`diemon options`; set with -o, e.g. -o marks_ones=kept).")]
pub struct MarksArgs {
    /// The normal Attributes the roll calls for, averaged and rounded down into d6s.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub attr: Vec<u32>,
    /// Tempo, the exception to averaging: this many Attribute d6s, whole.
    #[arg(long, value_name = "N", conflicts_with = "attr")]
    pub tempo: Option<u32>,
    /// Super Attributes, added whole as d10s.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub super_attr: Vec<u32>,
    /// Ranks of the Superpower used: d10s that count toward the dice kept.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub superpower: u32,
    /// Skill or Combat Style: d6s rolled, not kept beyond the Attribute dice.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skill: u32,
    /// Super Skill: d10s, likewise.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub super_skill: u32,
    /// Dice taken away: 1 Challenging, 2 Difficult, 3 Expert, 4+ Super.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub difficulty: u32,
    /// Marks a GM assigns the opposition (a static roll against them).
    #[arg(long, value_name = "N", conflicts_with = "vs")]
    pub vs_marks: Option<u32>,
    /// A contested roll against another pool: "attr=4,4 super-attr=2 skill=1 difficulty=1".
    #[arg(long, value_name = "POOL")]
    pub vs: Option<String>,
    /// Also roll N seeded times and test the agreement with the exact table.
    #[arg(long, value_name = "N", value_parser = super::duel::parse_count)]
    pub mc: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Most probability mass exact maths may cut from re-roll chains.
    #[arg(long, value_name = "EPS", default_value_t = 1e-12)]
    pub tail: f64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A sheet from the flags.
fn sheet(a: &MarksArgs) -> Sheet {
    Sheet {
        attributes: a.attr.clone(),
        tempo: a.tempo,
        super_attributes: a.super_attr.clone(),
        superpower: a.superpower,
        skill: a.skill,
        super_skill: a.super_skill,
        difficulty: a.difficulty,
    }
}

/// "attr=4,4 skill=1": the opposing pool.
fn parse_vs(text: &str) -> Result<Sheet, Failure> {
    let bad = |m: String| {
        Failure::input(format!(
            "--vs {text:?}: {m}\nhint: write KEY=VALUE pairs, e.g. --vs \"attr=4,4 \
             super-attr=2 skill=1\" (keys: attr, tempo, super-attr, superpower, skill, \
             super-skill, difficulty)"
        ))
    };
    let mut s = Sheet::default();
    for part in text.split_whitespace() {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("{part:?} is not KEY=VALUE")))?;
        let list = || -> Result<Vec<u32>, Failure> {
            v.split(',')
                .map(|x| x.trim().parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| bad(format!("{k}={v}: expected whole numbers")))
        };
        let one = || -> Result<u32, Failure> {
            v.trim()
                .parse()
                .map_err(|_| bad(format!("{k}={v}: expected a whole number")))
        };
        match k {
            "attr" => s.attributes = list()?,
            "tempo" => s.tempo = Some(one()?),
            "super-attr" | "super_attr" => s.super_attributes = list()?,
            "superpower" => s.superpower = one()?,
            "skill" => s.skill = one()?,
            "super-skill" | "super_skill" => s.super_skill = one()?,
            "difficulty" => s.difficulty = one()?,
            other => return Err(bad(format!("unknown key {other:?}"))),
        }
    }
    Ok(s)
}

pub fn run(
    a: &MarksArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if !(a.tail > 0.0 && a.tail < 1e-3) {
        return Err(Failure::input(format!(
            "--tail {}: expected a small positive mass, e.g. 1e-12",
            a.tail
        )));
    }
    let pool = Pool::new(&sheet(a), opts)
        .map_err(|m| Failure::input(format!("{m}\nhint: a pool has at most 60 dice")))?;
    if pool.dice() == 0 {
        return Err(Failure::input(
            "the pool has no dice\nhint: give --attr (e.g. --attr 3,3), --tempo, --super-attr \
             or --superpower; --difficulty may have taken them all",
        ));
    }
    if pool.keep() == 0 {
        return Err(Failure::input(format!(
            "{}: no Attribute or Superpower dice, so no die can be kept
hint: a roll is made              with Attributes (--attr A,B or --tempo N) or a Super Attribute or Superpower;              Skills only add dice to choose from",
            pool.describe()
        )));
    }
    let marks = exact::marks(&pool, opts, a.tail);
    let opponent = match &a.vs {
        Some(t) => {
            let p = Pool::new(&parse_vs(t)?, opts).map_err(Failure::input)?;
            Some((p, exact::marks(&p, opts, a.tail)))
        }
        None => None,
    };
    let mc = match a.mc {
        Some(n) => {
            let flags = RunFlags {
                trials: n,
                target_ci: None,
                max_half_width: 0.5,
                ci_unit: "",
                seed: a.seed,
                part: CellArgs::default(),
                threads: None,
                replay: None,
                silent: a.json,
            };
            flags.check()?;
            let s = MarksRoll { pool, opts: *opts };
            let (run, _) = flags.execute(&flags.engine(), &s, "rolls", cancel)?;
            Some(run.tally)
        }
        None => None,
    };
    let mean = marks.mean();
    let levels = exactly(&marks);
    let text = if a.json {
        let mut o = json!({
            "pool": pool.describe(),
            "d6": pool.d6(),
            "d10": pool.d10(),
            "keep": pool.keep(),
            "pmf": marks.iter().filter(|&(_, p)| p > 0.0).map(|(v, p)| json!([v, p])).collect::<Vec<_>>(),
            "mean": mean,
            "truncated_mass": marks.truncated(),
            "p_levels": levels.iter().map(|(n, p)| (n.to_string(), json!(p))).collect::<serde_json::Map<_, _>>(),
            "p_at_least": LEVELS.iter().map(|(n, k)| (n.to_string(), json!(marks.p_at_least(*k)))).collect::<serde_json::Map<_, _>>(),
            "options": opts,
        });
        if let Some(n) = a.vs_marks {
            let (w, t, l) = against_marks(&marks, n, opts);
            o["vs_marks"] = json!(n);
            o["p_wins"] = json!(w);
            o["p_tie"] = json!(t);
            o["p_loses"] = json!(l);
        }
        if let Some((p, m)) = &opponent {
            let (w, t, l) = contest(&marks, m, opts);
            o["vs"] = json!(p.describe());
            o["p_wins"] = json!(w);
            o["p_tie"] = json!(t);
            o["p_loses"] = json!(l);
        }
        if let Some(t) = &mc {
            let fit = chi_squared(&t.marks, &marks);
            let (s, q) = t.marks.moments();
            let m = Estimate::mean(s, q, t.trials, 0.95);
            o["mc"] = json!({
                "trials": t.trials,
                "seed": a.seed,
                "mean": m.point,
                "ci_mean": m.ci,
                "chi_squared": {"statistic": fit.statistic, "dof": fit.dof, "p_value": fit.p_value},
                "agrees": fit.p_value >= 0.001 && fit.impossible == 0,
            });
        }
        format!("{o}\n")
    } else {
        table(
            a,
            &pool,
            &marks,
            &levels,
            opponent.as_ref(),
            mc.as_ref(),
            opts,
        )
    };
    io(out.write_all(text.as_bytes()))
}

/// A static roll against `n` Marks a GM assigns: more Marks wins, a tie as `marks_tie`.
fn against_marks(marks: &Pmf, n: u32, opts: &RuleOptions) -> (f64, f64, f64) {
    contest(marks, &Pmf::point(n as i64), opts)
}

fn table(
    a: &MarksArgs,
    pool: &Pool,
    marks: &Pmf,
    levels: &[(&str, f64)],
    opponent: Option<&(Pool, Pmf)>,
    mc: Option<&crate::marks::roll::MarksTally>,
    opts: &RuleOptions,
) -> String {
    let mut s = format!(
        "Marks: roll {} (exact; at most {:.1e} of the mass cut from re-roll chains)\n\n",
        pool.describe(),
        marks.truncated()
    );
    s.push_str("  level          needs   P(exactly)   P(at least)\n");
    s.push_str(&format!("  failure        0 Marks {:>10.6}\n", levels[0].1));
    for ((name, need), (_, p)) in LEVELS.iter().zip(&levels[1..]) {
        s.push_str(&format!(
            "  {:<14} {need} Mark{} {:>10.6}   {:>10.6}\n",
            name.replace('_', " "),
            if *need == 1 { " " } else { "s" },
            p,
            marks.p_at_least(*need).max(0.0)
        ));
    }
    s.push_str(&format!(
        "\n  mean Marks {:.4}   sd {:.4}\n",
        marks.mean(),
        marks.sd()
    ));
    s.push_str("\n  Marks  P\n");
    for (v, p) in marks.iter().filter(|&(_, p)| p >= 1e-6) {
        s.push_str(&format!("  {v:>5}  {p:.6}\n"));
    }
    if let Some(n) = a.vs_marks {
        let (w, t, l) = against_marks(marks, n, opts);
        s.push_str(&format!(
            "\n  against {n} Marks: wins {w:.6}, ties {t:.6}, loses {l:.6} (marks_tie={})\n",
            opts.marks_tie
        ));
    }
    if let Some((p, m)) = opponent {
        let (w, t, l) = contest(marks, m, opts);
        s.push_str(&format!(
            "\n  contested against {}: wins {w:.6}, ties {t:.6}, loses {l:.6} (marks_tie={})\n",
            p.describe(),
            opts.marks_tie
        ));
    }
    if let Some(t) = mc {
        let fit = chi_squared(&t.marks, marks);
        let (sum, q) = t.marks.moments();
        let m = Estimate::mean(sum, q, t.trials, 0.95);
        s.push_str(&format!(
            "\n  Monte Carlo: {} rolls (seed {}): mean {:.4} [{:.4}, {:.4}]; chi-squared {:.1} on {} df, p = {:.3}: {}\n",
            t.trials,
            a.seed,
            m.point,
            m.ci[0],
            m.ci[1],
            fit.statistic,
            fit.dof,
            fit.p_value,
            if fit.p_value >= 0.001 && fit.impossible == 0 {
                "agrees with the exact table (alpha 0.001)"
            } else {
                "DISAGREES with the exact table (alpha 0.001)"
            }
        ));
    }
    s
}
