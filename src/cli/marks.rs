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
use crate::marks::roll::{MarksRoll, MarksTally};
use crate::marks::tries::{OverTime, Question};
use crate::rules::RuleOptions;
use crate::sim::engine::{Ended, Run};

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon marks --attr 4,2 --super-attr 3                 Marshall: 3d6 + 3d10, keep 6
  diemon marks --attr 3,3 --skill 3                      Adam's Intimidation: 6d6, keep 3
  diemon marks --attr 4,2 --super-attr 3 --skill 3 --difficulty 2 --json
  diemon marks --attr 3,3 --skill 2 --against-marks 2    against 2 Marks a GM assigns
  diemon marks --attr 3,3 --against \"attr=4,4 skill=1\"   a contested roll
  diemon marks --attr 3,3 --trials 1000000               exact against seeded Monte Carlo
  diemon marks --attr 3,3 --skill 1 --tries 3 --level competent   trying again, a die fewer each time
  diemon marks --attr 3,3 --plateau 8 --periods 2..6     an extended roll

Options the text leaves open: marks_ones, marks_cancel, marks_reroll_ones, marks_penalty,
marks_tie (`diemon options`; set with -o, e.g. -o marks_ones=kept).")]
pub struct MarksArgs {
    /// The normal Attributes the roll calls for, averaged and rounded down into d6s.
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = parse_whole)]
    pub attr: Vec<u32>,
    /// Tempo, the exception to averaging: this many Attribute d6s, whole.
    #[arg(long, value_name = "N", conflicts_with = "attr", value_parser = parse_whole)]
    pub tempo: Option<u32>,
    /// Super Attributes, added whole as d10s.
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = parse_whole)]
    pub super_attr: Vec<u32>,
    /// Ranks of the Superpower used: d10s that count toward the dice kept.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_whole)]
    pub superpower: u32,
    /// Skill or Combat Style: d6s rolled, not kept beyond the Attribute dice.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_whole)]
    pub skill: u32,
    /// Super Skill: d10s, likewise.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_whole)]
    pub super_skill: u32,
    /// Dice taken away: 1 Challenging, 2 Difficult, 3 Expert, 4+ Super.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_whole)]
    pub difficulty: u32,
    /// Marks a GM assigns the opposition (a static roll against them).
    #[arg(long = "against-marks", visible_alias = "vs-marks", value_name = "N", conflicts_with = "vs", value_parser = parse_whole)]
    pub vs_marks: Option<u32>,
    /// A contested roll against another pool: "attr=4,4 super-attr=2 skill=1 difficulty=1".
    #[arg(long = "against", visible_alias = "vs", value_name = "POOL")]
    pub vs: Option<String>,
    /// Trying again: the chance of success (at --level) within N tries, each failure
    /// costing a die.
    #[arg(long, value_name = "N", value_parser = parse_whole)]
    pub tries: Option<u32>,
    /// The success level --tries aims at: basic, competent, mastery, super_human.
    #[arg(long, default_value = "basic", value_parser = ["basic", "competent", "mastery", "super_human"])]
    pub level: String,
    /// An extended roll: the Mark Plateau to reach, one roll a period (with --periods).
    #[arg(long, value_name = "MARKS", requires = "periods", value_parser = parse_whole)]
    pub plateau: Option<u32>,
    /// The extended roll's minimum and maximum periods, e.g. 2..6.
    #[arg(long, value_name = "MIN..MAX", requires = "plateau")]
    pub periods: Option<String>,
    /// Also roll the question N seeded times (the one roll, the tries or the extended
    /// roll) and test the agreement with the exact table (chi-squared, alpha 0.001).
    #[arg(long = "trials", visible_alias = "mc", value_name = "N", value_parser = super::duel::parse_trials, allow_negative_numbers = true)]
    pub mc: Option<u64>,
    /// The seed of the Monte Carlo check: the same seed gives the same digits.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads for --trials (default: all cores). Never changes a result.
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub part: CellArgs,
    /// Most probability mass exact maths may cut from re-roll chains.
    #[arg(long, value_name = "EPS", default_value_t = 1e-12)]
    pub tail: f64,
    /// Print one JSON object (no progress bar).
    #[arg(long)]
    pub json: bool,
    /// No progress bar for --trials.
    #[arg(long, short)]
    pub quiet: bool,
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
            "--against {text:?}: {m}\nhint: write KEY=VALUE pairs, e.g. --against \"attr=4,4 \
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
                .map(parse_whole)
                .collect::<Result<_, _>>()
                .map_err(|e| bad(format!("{k}={v}: {e}")))
        };
        let one =
            || -> Result<u32, Failure> { parse_whole(v).map_err(|e| bad(format!("{k}={v}: {e}"))) };
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

/// What the flags ask, checked: the pool, the question over time, the opponent.
struct Asked {
    pool: Pool,
    /// Marks that make --level.
    need: u32,
    tries: Option<OverTime>,
    /// The plateau, the minimum and maximum periods, and the question.
    extended: Option<(u32, u32, u32, OverTime)>,
    opponent: Option<Pool>,
}

/// Checks the flags as running them would (what an experiment checks of every cell).
pub(super) fn validate(a: &MarksArgs, opts: &RuleOptions) -> Result<(), Failure> {
    asked(a, opts).map(|_| ())
}

fn asked(a: &MarksArgs, opts: &RuleOptions) -> Result<Asked, Failure> {
    if !(a.tail > 0.0 && a.tail < 1e-3) {
        return Err(Failure::input(format!(
            "--tail {}: expected a small positive mass, e.g. 1e-12",
            a.tail
        )));
    }
    // The sheet must be able to roll; difficulty may then take every die (P = 0).
    let unpenalised = Pool::new(
        &Sheet {
            difficulty: 0,
            ..sheet(a)
        },
        opts,
    )
    .map_err(|m| Failure::input(format!("{m}\nhint: a pool has at most 60 dice")))?;
    if unpenalised.dice() == 0 {
        return Err(Failure::input(
            "the pool has no dice\nhint: give --attr (e.g. --attr 3,3), --tempo, --super-attr \
             or --superpower",
        ));
    }
    if unpenalised.keep() == 0 {
        return Err(Failure::input(format!(
            "{}: no Attribute or Superpower dice, so no die can be kept\nhint: a roll is made \
             with Attributes (--attr A,B or --tempo N) or a Super Attribute or Superpower; \
             Skills only add dice to choose from",
            unpenalised.describe()
        )));
    }
    let pool = Pool::new(&sheet(a), opts).map_err(Failure::input)?;
    let need = LEVELS
        .iter()
        .find(|(n, _)| *n == a.level)
        .map(|(_, k)| *k as u32)
        .ok_or_else(|| {
            Failure::input(format!(
                "--level {:?}: expected basic, competent, mastery or super_human",
                a.level
            ))
        })?;
    let tries = match a.tries {
        Some(0) => return Err(Failure::input("--tries 0: expected at least one try")),
        Some(n) if n > 100 => {
            return Err(Failure::input(format!("--tries {n}: expected at most 100")));
        }
        Some(n) => Some(OverTime::trying_again(&sheet(a), need, n, opts).map_err(Failure::input)?),
        None => None,
    };
    let extended = match (a.plateau, &a.periods) {
        (Some(0), _) => {
            return Err(Failure::input(
                "--plateau 0: expected at least 1 Mark\nhint: the Mark Plateau is the Marks \
                 the action needs in all",
            ));
        }
        (Some(p), Some(text)) => {
            let (min, max) = periods(text)?;
            Some((p, min, max, OverTime::extended(pool, p, min, max, opts)))
        }
        _ => None,
    };
    if tries.is_some() && extended.is_some() && a.mc.is_some() {
        return Err(Failure::input(
            "--trials checks one question: give --tries or --plateau, not both",
        ));
    }
    let opponent = match &a.vs {
        Some(t) => Some(Pool::new(&parse_vs(t)?, opts).map_err(Failure::input)?),
        None => None,
    };
    if a.mc.is_some() {
        flags(a).check()?;
    }
    Ok(Asked {
        pool,
        need,
        tries,
        extended,
        opponent,
    })
}

/// The seeded-run flags of `--trials`.
fn flags(a: &MarksArgs) -> RunFlags {
    RunFlags {
        trials: a.mc.unwrap_or(0),
        target_ci: None,
        max_half_width: 0.5,
        ci_unit: "",
        seed: a.seed,
        part: a.part.clone(),
        threads: a.threads,
        replay: None,
        silent: a.quiet || a.json,
    }
}

/// What `--trials` rolls: the question the flags ask.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Rolled {
    Roll,
    Tries,
    Extended,
}

impl Rolled {
    /// As the JSON names it.
    fn name(self) -> &'static str {
        match self {
            Rolled::Roll => "roll",
            Rolled::Tries => "tries",
            Rolled::Extended => "extended",
        }
    }

    /// The chance the check estimates.
    fn chance(self) -> &'static str {
        match self {
            Rolled::Roll => "P(at least 1 Mark)",
            Rolled::Tries => "P(success within the tries)",
            Rolled::Extended => "P(done by the last period)",
        }
    }
}

/// A Monte Carlo check: what was rolled, the run, and the exact table it is tested against.
struct Check {
    question: Rolled,
    run: Run<MarksTally>,
    exact: Pmf,
}

pub fn run(
    a: &MarksArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let asked = asked(a, opts)?;
    let pool = asked.pool;
    let marks = exact::marks(&pool, opts, a.tail);
    let tries = asked.tries.as_ref().map(|q| q.done(a.tail));
    let extended = asked
        .extended
        .as_ref()
        .map(|(p, min, max, q)| (*p, *min, *max, q.done(a.tail)));
    let opponent = asked.opponent.map(|p| (p, exact::marks(&p, opts, a.tail)));
    let check = match a.mc {
        None => None,
        Some(_) => {
            let f = flags(a);
            Some(
                match asked
                    .tries
                    .as_ref()
                    .or(asked.extended.as_ref().map(|e| &e.3))
                {
                    Some(q) => {
                        let (run, _) = f.execute(&f.engine(), q, "tries", cancel)?;
                        let question = match q.question() {
                            Question::TryingAgain { .. } => Rolled::Tries,
                            Question::Extended { .. } => Rolled::Extended,
                        };
                        Check {
                            question,
                            run,
                            exact: q.exact(a.tail),
                        }
                    }
                    None => {
                        let s = MarksRoll { pool, opts: *opts };
                        let (run, _) = f.execute(&f.engine(), &s, "rolls", cancel)?;
                        Check {
                            question: Rolled::Roll,
                            run,
                            exact: marks.clone(),
                        }
                    }
                },
            )
        }
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
        // Each level's P(at least) as a number of its own: a column of a sweep's summary.
        for (n, k) in LEVELS {
            o[format!("p_{n}")] = json!(marks.p_at_least(k));
        }
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
        if let Some(t) = &tries {
            o["level"] = json!(a.level);
            o["p_first_success_at_try"] = json!(t);
            o["p_success_within_tries"] = json!(t.iter().sum::<f64>());
            o["done_at_hist"] = json!(outcome_pairs(t));
        }
        if let Some((p, min, max, done)) = &extended {
            o["plateau"] = json!(p);
            o["periods"] = json!([min, max]);
            o["p_done_at_period"] = json!(done);
            o["p_done"] = json!(done.iter().sum::<f64>());
            if tries.is_none() {
                o["done_at_hist"] = json!(outcome_pairs(done));
            }
        }
        if let Some(c) = &check {
            let t = &c.run.tally;
            let fit = chi_squared(&t.marks, &c.exact);
            let key = check_estimate(c);
            let mut m = json!({
                "question": c.question.name(),
                "trials": t.trials,
                "seed": a.seed,
                "p": key.point,
                "ci_p": key.ci,
                "p_exact": check_exact(c),
                "chi_squared": {"statistic": fit.statistic, "dof": fit.dof, "p_value": fit.p_value},
                "agrees": fit.p_value >= 0.001 && fit.impossible == 0,
            });
            if c.question == Rolled::Roll {
                let (s, q) = t.marks.moments();
                let e = Estimate::mean(s, q, t.trials, 0.95);
                m["mean"] = json!(e.point);
                m["ci_mean"] = json!(e.ci);
            }
            o["mc"] = m;
            // Flat copies for a sweep's summary columns (p_mc with its CI, the fit's p).
            o["p_mc"] = json!(key.point);
            o["ci_mc"] = json!(key.ci);
            o["mc_p_value"] = json!(fit.p_value);
            o["trials"] = json!(t.trials);
        }
        let none = empty_run();
        flags(a).json(o, check.as_ref().map_or(&none, |c| &c.run))?
    } else {
        let mut t = table(a, &pool, &marks, &levels, opponent.as_ref(), opts);
        if let Some(tr) = &tries {
            t.push_str(&format!(
                "\n  trying again for {} ({}+ Marks), a die fewer after each failure:\n",
                a.level, asked.need
            ));
            let mut cum = 0.0;
            for (i, p) in tr.iter().enumerate() {
                cum += p;
                t.push_str(&format!("    by try {:>3}: {cum:.6}\n", i + 1));
            }
        }
        if let Some((p, min, max, done)) = &extended {
            t.push_str(&format!(
                "\n  extended roll: {p} Marks, periods {min} to {max}: done within {max} periods \
                 {:.6}\n",
                done.iter().sum::<f64>()
            ));
            for (k, d) in done.iter().enumerate().filter(|(_, d)| **d > 0.0) {
                t.push_str(&format!("    done at period {:>3}: {d:.6}\n", k + 1));
            }
        }
        if let Some(c) = &check {
            t.push_str(&check_lines(c, a.seed));
        }
        t
    };
    io(out.write_all(text.as_bytes()))?;
    match &check {
        Some(c) if c.run.ended == Ended::Interrupted => Err(super::interrupted(c.run.trials)),
        _ => Ok(()),
    }
}

/// No run: for the JSON of a command that rolled nothing.
fn empty_run() -> Run<MarksTally> {
    Run {
        tally: MarksTally::default(),
        trials: 0,
        ended: Ended::Complete,
        elapsed: std::time::Duration::ZERO,
    }
}

/// `(k, P(done at k))` pairs with `(0, P(never))` first: the outcome of a question over time.
fn outcome_pairs(done: &[f64]) -> Vec<(u32, f64)> {
    let never = (1.0 - done.iter().sum::<f64>()).max(0.0);
    std::iter::once((0, never))
        .chain(done.iter().enumerate().map(|(k, &p)| (k as u32 + 1, p)))
        .collect()
}

/// The checked chance, estimated: P(at least 1 Mark) for a roll, P(done) over time.
fn check_estimate(c: &Check) -> Estimate {
    let t = &c.run.tally;
    let zero = t.marks.count(0);
    Estimate::proportion(t.trials - zero, t.trials, 0.95)
}

/// The same chance, exactly.
fn check_exact(c: &Check) -> f64 {
    1.0 - c.exact.prob(0)
}

/// The Monte Carlo check as lines of the table.
fn check_lines(c: &Check, seed: u64) -> String {
    let t = &c.run.tally;
    let fit = chi_squared(&t.marks, &c.exact);
    let key = check_estimate(c);
    let what = c.question.chance();
    format!(
        "\n  Monte Carlo: {} {} (seed {seed}): {what} {:.4} [{:.4}, {:.4}] (95% CI), exact \
         {:.4}; chi-squared {:.1} on {} df, p = {:.3}: {}\n",
        t.trials,
        if c.question == Rolled::Roll {
            "rolls"
        } else {
            "trials"
        },
        key.point,
        key.ci[0],
        key.ci[1],
        check_exact(c),
        fit.statistic,
        fit.dof,
        fit.p_value,
        if fit.p_value >= 0.001 && fit.impossible == 0 {
            "agrees with the exact table (alpha 0.001)"
        } else {
            "DISAGREES with the exact table (alpha 0.001)"
        }
    )
}

/// "2..6": the minimum and maximum periods.
fn periods(text: &str) -> Result<(u32, u32), Failure> {
    let bad = || {
        Failure::input(format!(
            "--periods {text:?}: expected MIN..MAX with 1 <= MIN <= MAX <= 1000, e.g. 2..6"
        ))
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (u32, u32) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a == 0 || a > b || b > 1000 {
        return Err(bad());
    }
    Ok((a, b))
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
    opts: &RuleOptions,
) -> String {
    let mut s = if pool.keep() == 0 {
        format!(
            "Marks: the difficulty (-{}) leaves no die to keep: no Mark can be rolled\n\n",
            a.difficulty
        )
    } else {
        format!(
            "Marks: roll {} (exact; at most {:.1e} of the mass cut from re-roll chains)\n\n",
            pool.describe(),
            marks.truncated()
        )
    };
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
    s
}

/// A whole number as the sheet writes it, with one message for anything else (clap's own
/// says "number too large to fit in target type").
fn parse_whole(s: &str) -> Result<u32, String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a whole number from 0, got {s:?}"));
    }
    t.parse().map_err(|_| {
        format!(
            "expected a whole number from 0 to {}, got {s:?} (a pool holds at most {} dice)",
            u32::MAX,
            crate::marks::pool::MAX_DICE
        )
    })
}
