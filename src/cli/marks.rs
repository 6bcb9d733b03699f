//! `diemon marks`: the Marks dice-pool system's odds for one roll, exactly.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use super::runs::{bar, to_json};
use super::{Failure, io};
use crate::dice::Pmf;
use crate::marks::levels::{LEVELS, contest, exactly};
use crate::marks::pool::Pool;
use crate::options::RuleOptions;
use crate::question::marks::{MarksArgs, McCheck, Rolled, against_marks, ask, flags};

pub fn run(
    a: &MarksArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let what = if a.tries.is_some() || a.plateau.is_some() {
        "tries"
    } else {
        "rolls"
    };
    let r = {
        let _guard = super::interrupt::Guard::new();
        ask(a, opts, &*bar(&flags(a), what), cancel)?
    };
    let text = if a.out.json {
        to_json(&r)?
    } else {
        let x = &r.exact;
        let levels = exactly(&x.marks);
        let mut t = table(a, &x.pool, &x.marks, &levels, x.opponent.as_ref(), opts);
        if let Some(tr) = &r.p_first_success_at_try {
            t.push_str(&format!(
                "\n  trying again for {} ({}+ Marks), a die fewer after each failure:\n",
                a.level, x.need
            ));
            let mut cum = 0.0;
            for (i, p) in tr.iter().enumerate() {
                cum += p;
                t.push_str(&format!("    by try {:>3}: {cum:.6}\n", i + 1));
            }
        }
        if let (Some(p), Some([min, max]), Some(done)) = (r.plateau, r.periods, &r.p_done_at_period)
        {
            t.push_str(&format!(
                "\n  extended roll: {p} Marks, periods {min} to {max}: done within {max} periods \
                 {:.6}\n",
                done.iter().sum::<f64>()
            ));
            for (k, d) in done.iter().enumerate().filter(|(_, d)| **d > 0.0) {
                t.push_str(&format!("    done at period {:>3}: {d:.6}\n", k + 1));
            }
        }
        if let Some(c) = &r.mc {
            t.push_str(&check_lines(c));
        }
        t
    };
    io(out.write_all(text.as_bytes()))?;
    match r.interrupted {
        Some(trials) => Err(super::interrupted(trials)),
        None => Ok(()),
    }
}

/// The Monte Carlo check in words.
fn check_lines(c: &McCheck) -> String {
    format!(
        "\n  Monte Carlo: {} {} (seed {}): {} {:.4} [{:.4}, {:.4}] (95% CI), exact \
         {:.4}; chi-squared {:.1} on {} df, p = {:.3}: {}\n",
        c.trials,
        if c.rolled == Rolled::Roll {
            "rolls"
        } else {
            "trials"
        },
        c.seed,
        c.chance,
        c.p,
        c.ci_p[0],
        c.ci_p[1],
        c.p_exact,
        c.chi_squared.statistic,
        c.chi_squared.dof,
        c.chi_squared.p_value,
        if c.agrees {
            "agrees with the exact table (alpha 0.001)"
        } else {
            "DISAGREES with the exact table (alpha 0.001)"
        }
    )
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
