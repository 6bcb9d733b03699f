//! `diemon dist`: the exact distribution of an expression, with optional Monte Carlo check.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use clap::Args;
use serde_json::{Value, json};

use super::table::{bar, prob, stdout_is_terminal};
use super::{Failure, bad_expr, io};
use crate::analysis::Estimate;
use crate::analysis::gof::{Fit, chi_squared};
use crate::dice::expr::Exact;
use crate::dice::{Expr, Pmf};
use crate::question::run::RunFlags;
use crate::rules::{ArmorTie, RuleOptions};
use crate::scenario::rolls::{Against, DiceTally, Rolls};

/// Significance level at which Monte Carlo is said to agree with the exact table.
pub const ALPHA: f64 = 0.001;
/// Confidence level of every interval printed.
const LEVEL: f64 = crate::sim::CONFIDENCE;
/// Width of the bar chart in cells.
const BAR: usize = 40;

#[derive(Args, Debug)]
pub struct DistArgs {
    /// The dice expression, e.g. "2d10 exp", "d6 skill - 1", "sn d8 + 2".
    pub expr: String,

    /// Armor to beat: a number like 4 or an expression like 2d6 (beats = strictly greater).
    #[arg(long = "armor", visible_alias = "vs", value_name = "ARMOR")]
    pub vs: Option<String>,

    /// Use rating a Skill roll must meet (roll + modifiers >= Use; a natural 1 misses).
    #[arg(long = "use", value_name = "USE", allow_negative_numbers = true)]
    pub use_rating: Option<i64>,

    /// Also draw N seeded Monte Carlo rolls and test their agreement with the exact table.
    #[arg(long = "trials", visible_alias = "mc", value_name = "N", value_parser = crate::question::run::parse_trials, allow_negative_numbers = true)]
    pub mc: Option<u64>,

    /// Master seed for --trials (same seed, same digits, on any thread count).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Most probability mass that exact maths may cut from explosion tails.
    #[arg(long, value_name = "EPS", default_value_t = 1e-12)]
    pub tail: f64,

    /// Show every row, however unlikely.
    #[arg(long)]
    pub all: bool,

    /// Print one JSON object instead of the table (no progress bar).
    #[arg(long)]
    pub json: bool,

    /// No progress bar for --trials.
    #[arg(long, short)]
    pub quiet: bool,

    /// Also draw the distribution (and the --trials frequencies with their CIs) to FILE, an .svg
    /// or .png.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,
}

/// Most Monte Carlo rolls accepted (about a minute of work for a simple expression).
const MAX_MC: u64 = 10_000_000_000;

pub fn run(
    a: &DistArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let expr = Expr::parse(&a.expr).map_err(|e| bad_expr("<expression>", &a.expr, &e))?;
    let armor = match &a.vs {
        Some(t) => Some(Expr::parse(t).map_err(|e| bad_expr("--armor", t, &e))?),
        None => None,
    };
    if !(a.tail > 0.0 && a.tail <= 1e-3) {
        return Err(Failure::input(format!(
            "--tail {}: expected a probability in (0, 0.001]\nhint: the default 1e-12 is right for almost every question",
            a.tail
        )));
    }
    if a.use_rating.is_some() && expr.skill().is_none() {
        return Err(Failure::input(format!(
            "--use needs a Skill roll, but {:?} has no `skill` die\nhint: write e.g. \"d6 skill - 1\" (Ch. 4.2)",
            a.expr
        )));
    }
    let plot_kind = match &a.plot {
        None => None,
        Some(p) => match p.extension().and_then(|e| e.to_str()) {
            Some("svg") => Some(true),
            Some("png") => Some(false),
            _ => {
                return Err(Failure::input(format!(
                    "--plot {}: expected a file ending in .svg or .png",
                    p.display()
                )));
            }
        },
    };
    if let Some(n) = a.mc
        && !(1..=MAX_MC).contains(&n)
    {
        return Err(Failure::input(format!(
            "--trials {n}: expected 1 to {MAX_MC} rolls"
        )));
    }
    let exact = expr.exact(opts, a.tail);
    let armor_exact = armor.as_ref().map(|x| x.exact(opts, a.tail));
    let run = match a.mc {
        None => None,
        Some(n) => {
            let against = Against {
                armor: armor.as_ref(),
                use_rating: a.use_rating,
            };
            let rolls = Rolls::new(&expr, against, opts);
            let flags = RunFlags {
                trials: n,
                target_ci: None,
                max_half_width: f64::INFINITY,
                ci_unit: "",
                seed: a.seed,
                part: Default::default(),
                threads: None,
                replay: None,
                silent: a.quiet || a.json,
            };
            let _guard = super::interrupt::Guard::new();
            let bar = super::runs::bar(&flags, "rolls");
            Some(flags.ran(&rolls, &*bar, cancel)?.0)
        }
    };
    let mc = run.as_ref().map(|r| &r.tally);
    let report = Report {
        args: a,
        opts,
        expr: &expr,
        exact: &exact,
        armor: armor_exact.as_ref().map(|x| x.total()),
        mc,
    };
    let plotted = match (&a.plot, plot_kind) {
        (Some(path), Some(svg)) => {
            plot(&report, path, svg)?;
            Some(path.display().to_string())
        }
        _ => None,
    };
    // Say where the chart went: the last line of the table, or `plot` in the JSON.
    let text = if a.json {
        let mut json = report.json();
        if let Some(p) = &plotted {
            json["plot"] = serde_json::json!(p);
        }
        let mut s = serde_json::to_string(&json).map_err(|e| Failure::other(e.to_string()))?;
        s.push('\n');
        s
    } else {
        let mut t = report.table(stdout_is_terminal());
        if let Some(p) = &plotted {
            t.push_str(&format!("chart: {p}\n"));
        }
        t
    };
    io(out.write_all(text.as_bytes()))?;
    match &run {
        // Interrupted: the figures of the rolls finished, then exit 130.
        Some(r) if r.ended == crate::sim::engine::Ended::Interrupted => {
            Err(super::interrupted(r.trials))
        }
        _ => Ok(()),
    }
}

/// Probability mass left out at each end of a plot, so an exploding tail does not squash it.
const PLOT_TAIL: f64 = 0.0005;

/// The exact distribution as a line and any Monte Carlo frequencies as dots with their
/// Wilson CIs, written atomically to `path`.
fn plot(r: &Report, path: &std::path::Path, svg: bool) -> Result<(), Failure> {
    use crate::report::chart::{Body, Chart, Series};
    let total = r.exact.total();
    // Keep the values between the PLOT_TAIL and 1 - PLOT_TAIL quantiles.
    let mut cum = 0.0;
    let kept: Vec<(i64, f64)> = total
        .iter()
        .filter(|&(_, p)| {
            let before = cum;
            cum += p;
            p > 0.0 && cum > PLOT_TAIL && before < 1.0 - PLOT_TAIL
        })
        .collect();
    let mut series = vec![Series {
        label: "exact".into(),
        points: kept.iter().map(|&(v, p)| (v as f64, p, p, p)).collect(),
        dots: false,
        // A dice total is a whole number: the exact table as a histogram's steps.
        steps: true,
    }];
    if let Some(t) = r.mc {
        series.push(Series {
            label: format!("{} Monte Carlo rolls (95% CI)", t.trials),
            points: kept
                .iter()
                .map(|&(v, _)| {
                    let e = Estimate::proportion(t.totals.count(v), t.trials, LEVEL);
                    (v as f64, e.point, e.ci[0], e.ci[1])
                })
                .collect(),
            dots: true,
            steps: false,
        });
    }
    let chart = Chart {
        title: match r.mc {
            Some(_) => format!("{}: exact distribution against Monte Carlo", r.expr.text()),
            None => format!("{}: exact distribution", r.expr.text()),
        },
        x_label: format!(
            "total (values outside the middle {:.1}% of the mass not drawn)",
            100.0 * (1.0 - 2.0 * PLOT_TAIL)
        ),
        y_label: "probability".into(),
        body: Body::Lines {
            series,
            probability: false,
        },
    };
    let bad = |m: crate::report::chart::DrawError| {
        Failure::other(format!("cannot draw {}: {m}", path.display()))
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Failure::input(format!("--plot {}: not a file name", path.display())))?;
    if svg {
        let text = chart.svg().map_err(bad)?;
        crate::export::write_text_atomic(dir, &name, &text)
            .map_err(|e| Failure::other(e.to_string()))?;
    } else {
        let png = chart.png().map_err(bad)?;
        crate::export::write_bytes_atomic(dir, &name, &png)
            .map_err(|e| Failure::other(e.to_string()))?;
    }
    Ok(())
}

struct Report<'a> {
    args: &'a DistArgs,
    opts: &'a RuleOptions,
    expr: &'a Expr,
    exact: &'a Exact,
    armor: Option<&'a Pmf>,
    mc: Option<&'a DiceTally>,
}

/// Monte Carlo figures derived from a tally.
struct McFigures {
    trials: u64,
    mean: Estimate,
    fit: Fit,
    p_beats: Option<Estimate>,
    p_meets: Option<Estimate>,
    p_critical_failure: Estimate,
}

impl Report<'_> {
    fn mc_figures(&self) -> Option<McFigures> {
        let t = self.mc?;
        let (s, q) = t.totals.moments();
        Some(McFigures {
            trials: t.trials,
            mean: Estimate::mean(s, q, t.trials, LEVEL),
            fit: chi_squared(&t.totals, self.exact.total()),
            p_beats: self
                .armor
                .map(|_| Estimate::proportion(t.beats, t.trials, LEVEL)),
            p_meets: self
                .args
                .use_rating
                .map(|_| Estimate::proportion(t.meets, t.trials, LEVEL)),
            p_critical_failure: Estimate::proportion(t.critical_failures, t.trials, LEVEL),
        })
    }

    fn tie_meaning(&self) -> &'static str {
        match self.opts.armor_tie {
            ArmorTie::Survive => "nothing happens (armor_tie=survive, Ch. 10.2)",
            ArmorTie::Dismemberment => {
                "Amputation if cutting, else knocked over (armor_tie=dismemberment, Ch. 10.2)"
            }
            ArmorTie::SomethingBad => "Disrupted (armor_tie=something_bad)",
        }
    }

    fn json(&self) -> Value {
        let total = self.exact.total();
        let pmf: Vec<Value> = total
            .iter()
            .filter(|&(_, p)| p > 0.0)
            .map(|(v, p)| json!([v, p]))
            .collect();
        let mut o = json!({
            "expr": self.expr.text(),
            "canonical": self.expr.to_string(),
            "options": self.opts,
            "tail_bound": self.args.tail,
            "pmf": pmf,
            "mean": total.mean(),
            "sd": total.sd(),
            "truncated_mass": self.exact.truncated(),
            "p_critical_failure": self.exact.p_critical_failure(),
        });
        if self.expr.skill().is_some() {
            o["p_overskill"] = json!(self.exact.p_overskill());
        }
        if let Some(armor) = self.armor {
            o["vs"] = json!(self.args.vs);
            o["p_beats"] = json!(self.exact.p_beats(armor));
            o["p_tie"] = json!(self.exact.p_tie(armor));
            o["armor_tie"] = json!(self.opts.armor_tie);
        }
        if let Some(u) = self.args.use_rating {
            o["use"] = json!(u);
            o["p_meets"] = json!(self.exact.p_meets(u, self.opts, self.args.tail));
        }
        if let (Some(m), Some(t)) = (self.mc_figures(), self.mc) {
            let freq: Vec<Value> = t
                .totals
                .iter()
                .filter(|&(_, c)| c > 0)
                .map(|(v, c)| json!([v, c as f64 / t.trials as f64]))
                .collect();
            let mut mc = json!({
                "trials": m.trials,
                "seed": self.args.seed,
                "pmf": freq,
                "mean": m.mean,
                "p_critical_failure": m.p_critical_failure,
                "chi_squared": m.fit,
                "alpha": ALPHA,
                "agrees": agrees(&m),
            });
            if let Some(e) = m.p_beats {
                mc["p_beats"] = json!(e);
            }
            if let Some(e) = m.p_meets {
                mc["p_meets"] = json!(e);
            }
            o["mc"] = mc;
        }
        o
    }

    fn table(&self, unicode: bool) -> String {
        let total = self.exact.total();
        let mut s = format!("{}\n", self.expr);
        let changed: Vec<String> = self
            .opts
            .pairs()
            .into_iter()
            .zip(RuleOptions::default().pairs())
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| format!("{}={}", a.0, a.1))
            .collect();
        if !changed.is_empty() {
            s.push_str(&format!("options: {}\n", changed.join(", ")));
        }
        s.push_str(&format!(
            "exact; explosion tails cut at {:e}: {} of the mass left out (no figure is off by more)\n\n",
            self.args.tail,
            prob(self.exact.truncated())
        ));
        s.push_str(&self.rows(unicode));
        s.push_str(&format!(
            "\nmean {:.6}   sd {:.6}\n",
            total.mean(),
            total.sd()
        ));
        let crit_rule = if self.expr.skill().is_some() {
            "the Skill die shows a natural 1, Ch. D.4"
        } else {
            "every added die shows 1, Ch. 10.3"
        };
        s.push_str(&format!(
            "P(Critical Failure) {}   ({crit_rule})\n",
            prob(self.exact.p_critical_failure())
        ));
        if self.expr.skill().is_some() {
            s.push_str(&format!(
                "P(Overskill)        {}   (natural 6 or more, Ch. 4.2)\n",
                prob(self.exact.p_overskill())
            ));
        }
        if let Some(u) = self.args.use_rating {
            s.push_str(&format!(
                "P(meets Use {u})     {}   (overskill={})\n",
                prob(self.exact.p_meets(u, self.opts, self.args.tail)),
                self.opts.overskill
            ));
        }
        if let (Some(armor), Some(vs)) = (self.armor, &self.args.vs) {
            s.push_str(&format!(
                "vs {vs}: P(beats) {}   P(tie) {} -> {}\n",
                prob(self.exact.p_beats(armor)),
                prob(self.exact.p_tie(armor)),
                self.tie_meaning()
            ));
        }
        if let Some(m) = self.mc_figures() {
            s.push_str(&self.mc_lines(&m));
        }
        s
    }

    /// The exact table's rows (with the Monte Carlo frequencies beside them), the rows
    /// beyond a chance of 1e-6 folded unless `--all`.
    fn rows(&self, unicode: bool) -> String {
        let total = self.exact.total();
        let mut s = String::new();
        let freq = |v: i64| self.mc.map(|t| t.totals.count(v) as f64 / t.trials as f64);
        let peak = total.iter().map(|(_, p)| p).fold(0.0, f64::max);
        let (lo, hi) = if self.args.all {
            (total.min_value(), total.max_value())
        } else {
            total.likely_range(Pmf::FOLD)
        };
        s.push_str(&format!(
            "{:>6}  {:>10}  {:>10}{}\n",
            "value",
            "P(=)",
            "P(>=)",
            if self.mc.is_some() {
                "          MC"
            } else {
                ""
            }
        ));
        let below = total.p_at_most(lo - 1);
        if below > 0.0 {
            s.push_str(&format!("{:>6}  {:>10}\n", format!("<{lo}"), prob(below)));
        }
        for v in lo..=hi {
            let p = total.prob(v);
            let mc = match freq(v) {
                Some(f) => format!("  {:>10}", prob(f)),
                None => String::new(),
            };
            s.push_str(&format!(
                "{v:>6}  {:>10}  {:>10}{mc}  {}\n",
                prob(p),
                prob(total.p_at_least(v)),
                bar(if peak > 0.0 { p / peak } else { 0.0 }, BAR, unicode)
            ));
        }
        let above = total.p_at_least(hi + 1);
        if above > 0.0 {
            s.push_str(&format!("{:>6}  {:>10}\n", format!(">{hi}"), prob(above)));
        }
        if !self.args.all && (below > 0.0 || above > 0.0) {
            s.push_str("(rows beyond a chance of 1e-6 folded; --all shows them)\n");
        }
        s
    }

    /// The seeded check's lines: each figure with its interval, and the chi-squared test
    /// against the exact table at [`ALPHA`].
    fn mc_lines(&self, m: &McFigures) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "\nMonte Carlo: {} rolls, seed {}, {:.0}% intervals\n",
            m.trials,
            self.args.seed,
            LEVEL * 100.0
        ));
        s.push_str(&format!(
            "  mean {:.4} [{:.4}, {:.4}]\n",
            m.mean.point, m.mean.ci[0], m.mean.ci[1]
        ));
        s.push_str(&format!(
            "  P(Critical Failure) {} [{}, {}]\n",
            prob(m.p_critical_failure.point),
            prob(m.p_critical_failure.ci[0]),
            prob(m.p_critical_failure.ci[1])
        ));
        for (name, e) in [("P(meets Use)", m.p_meets), ("P(beats)", m.p_beats)] {
            if let Some(e) = e {
                s.push_str(&format!(
                    "  {name} {} [{}, {}]\n",
                    prob(e.point),
                    prob(e.ci[0]),
                    prob(e.ci[1])
                ));
            }
        }
        s.push_str(&format!(
            "  chi-squared {:.2} on {} df, p = {:.4}: {}\n",
            m.fit.statistic,
            m.fit.dof,
            m.fit.p_value,
            if agrees(m) {
                format!("agrees with the exact table (alpha {ALPHA})")
            } else {
                format!("DISAGREES with the exact table (alpha {ALPHA})")
            }
        ));
        s
    }
}

/// Monte Carlo agrees when the fit is not rejected at [`ALPHA`] and nothing impossible
/// was rolled.
fn agrees(m: &McFigures) -> bool {
    m.fit.p_value >= ALPHA && m.fit.impossible == 0
}
