//! `diemon marks`: the Marks dice-pool system's odds for one roll, exactly.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use serde_json::json;

use super::runs::execute;
use super::{Failure, io};
use crate::analysis::Estimate;
use crate::analysis::gof::chi_squared;
use crate::dice::Pmf;
use crate::marks::exact;
use crate::marks::levels::{LEVELS, contest, exactly};
use crate::marks::pool::Pool;
use crate::marks::roll::{MarksRoll, MarksTally};
use crate::marks::tries::Question;
use crate::question::marks::{MarksArgs, asked, flags};
use crate::rules::RuleOptions;
use crate::sim::engine::{Ended, Run};

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
                        let (run, _) = execute(&f, &f.engine(), q, "tries", cancel)?;
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
                        let (run, _) = execute(&f, &f.engine(), &s, "rolls", cancel)?;
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
    let text = if a.out.json {
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
                "seed": a.out.seed,
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
        super::runs::json(&flags(a), o, check.as_ref().map_or(&none, |c| &c.run))?
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
            t.push_str(&check_lines(c, a.out.seed));
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
