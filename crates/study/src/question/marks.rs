//! `diemon marks`'s question: one roll of a Marks pool, the chance over tries or an
//! extended roll, against Marks a GM assigns or a contested pool. [`MarksArgs`] are the
//! flags; [`asked`] checks them and builds what they ask.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use clap::Args;
use serde::{Deserialize, Serialize};

use super::Error;
use super::run::{RunFlags, Seeded, parse_trials};
use super::tally::Kept;
use crate::analysis::gof::chi_squared;
use diemon_core::dice::Pmf;
use diemon_core::marks::exact;
use diemon_core::marks::levels::{LEVELS, contest, exactly};
use diemon_core::marks::pool::{Pool, Sheet};
use diemon_core::marks::roll::{MarksRoll, MarksTally};
use diemon_core::marks::tries::{OverTime, Question};
use diemon_core::options::RuleOptions;
use diemon_core::sim::CONFIDENCE;
use diemon_core::sim::Estimate;
use diemon_core::sim::engine::{Ended, Run};
use diemon_core::sim::progress::Progress;

/// `diemon marks`'s flags: the pool, the question over time, and the check.
#[derive(Args, Debug, Clone)]
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
    #[arg(long = "trials", visible_alias = "mc", value_name = "N", value_parser = parse_trials, allow_negative_numbers = true)]
    pub mc: Option<u64>,
    /// The seed, threads and output of the Monte Carlo check.
    #[command(flatten)]
    pub out: Seeded,
    /// Most probability mass exact maths may cut from re-roll chains.
    #[arg(long, value_name = "EPS", default_value_t = 1e-12)]
    pub tail: f64,
}

/// A sheet from the flags.
pub fn sheet(a: &MarksArgs) -> Sheet {
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
pub fn parse_vs(text: &str) -> Result<Sheet, Error> {
    let bad = |m: String| {
        Error::input(format!(
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
        let list = || -> Result<Vec<u32>, Error> {
            v.split(',')
                .map(parse_whole)
                .collect::<Result<_, _>>()
                .map_err(|e| bad(format!("{k}={v}: {e}")))
        };
        let one =
            || -> Result<u32, Error> { parse_whole(v).map_err(|e| bad(format!("{k}={v}: {e}"))) };
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
pub struct Asked {
    /// The pool rolled.
    pub pool: Pool,
    /// Marks that make --level.
    pub need: u32,
    /// Trying again: the tries and the question.
    pub tries: Option<OverTime>,
    /// The plateau, the minimum and maximum periods, and the question.
    pub extended: Option<(u32, u32, u32, OverTime)>,
    /// A contested roll's opposing pool.
    pub opponent: Option<Pool>,
}

/// Checks the flags as running them would (what an experiment checks of every cell).
pub fn validate(a: &MarksArgs, opts: &RuleOptions) -> Result<(), Error> {
    asked(a, opts).map(|_| ())
}

/// Checks the flags and reads what they ask.
pub fn asked(a: &MarksArgs, opts: &RuleOptions) -> Result<Asked, Error> {
    if !(a.tail > 0.0 && a.tail < 1e-3) {
        return Err(Error::input(format!(
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
    .map_err(|m| Error::input(format!("{m}\nhint: a pool has at most 60 dice")))?;
    if unpenalised.dice() == 0 {
        return Err(Error::input(
            "the pool has no dice\nhint: give --attr (e.g. --attr 3,3), --tempo, --super-attr \
             or --superpower",
        ));
    }
    if unpenalised.keep() == 0 {
        return Err(Error::input(format!(
            "{}: no Attribute or Superpower dice, so no die can be kept\nhint: a roll is made \
             with Attributes (--attr A,B or --tempo N) or a Super Attribute or Superpower; \
             Skills only add dice to choose from",
            unpenalised.describe()
        )));
    }
    let pool = Pool::new(&sheet(a), opts).map_err(Error::input)?;
    let need = LEVELS
        .iter()
        .find(|(n, _)| *n == a.level)
        .map(|(_, k)| *k as u32)
        .ok_or_else(|| {
            Error::input(format!(
                "--level {:?}: expected basic, competent, mastery or super_human",
                a.level
            ))
        })?;
    let tries = match a.tries {
        Some(0) => return Err(Error::input("--tries 0: expected at least one try")),
        Some(n) if n > 100 => {
            return Err(Error::input(format!("--tries {n}: expected at most 100")));
        }
        Some(n) => Some(OverTime::trying_again(&sheet(a), need, n, opts).map_err(Error::input)?),
        None => None,
    };
    let extended = match (a.plateau, &a.periods) {
        (Some(0), _) => {
            return Err(Error::input(
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
        return Err(Error::input(
            "--trials checks one question: give --tries or --plateau, not both",
        ));
    }
    let opponent = match &a.vs {
        Some(t) => Some(Pool::new(&parse_vs(t)?, opts).map_err(Error::input)?),
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
pub fn flags(a: &MarksArgs) -> RunFlags {
    RunFlags {
        trials: a.mc.unwrap_or(0),
        target_ci: None,
        max_half_width: 0.5,
        ci_unit: "",
        seed: a.out.seed,
        part: a.out.part.clone(),
        threads: a.out.threads,
        replay: None,
        silent: a.out.quiet || a.out.json,
    }
}

/// "2..6": the minimum and maximum periods.
pub fn periods(text: &str) -> Result<(u32, u32), Error> {
    let bad = || {
        Error::input(format!(
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

/// A whole number as the sheet writes it, with one message for anything else (clap's own
/// says "number too large to fit in target type").
pub fn parse_whole(s: &str) -> Result<u32, WholeError> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(WholeError::NotWhole(s.to_string()));
    }
    t.parse().map_err(|_| WholeError::TooBig(s.to_string()))
}

/// A pool's number that is not a whole number it can hold, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WholeError {
    /// Not digits.
    #[error("expected a whole number from 0, got {0:?}")]
    NotWhole(String),
    /// Digits past what a u32 holds.
    #[error(
        "expected a whole number from 0 to {max}, got {0:?} (a pool holds at most {dice} dice)",
        max = u32::MAX,
        dice = diemon_core::marks::pool::MAX_DICE
    )]
    TooBig(String),
}

/// What `--trials` rolls: the question the flags ask.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Rolled {
    /// One roll.
    #[default]
    Roll,
    /// Trying again.
    Tries,
    /// An extended roll.
    Extended,
}

impl Rolled {
    /// As the JSON names it.
    pub fn name(self) -> &'static str {
        match self {
            Rolled::Roll => "roll",
            Rolled::Tries => "tries",
            Rolled::Extended => "extended",
        }
    }

    /// The chance the check estimates.
    pub fn chance(self) -> &'static str {
        match self {
            Rolled::Roll => "P(at least 1 Mark)",
            Rolled::Tries => "P(success within the tries)",
            Rolled::Extended => "P(done by the last period)",
        }
    }
}

/// The Monte Carlo check of `--trials`: the question rolled, its key chance with a CI, the
/// exact chance, and Pearson's chi-squared of the rolled Marks against the exact table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct McCheck {
    /// The question rolled (`roll`, `tries`, `extended`).
    pub question: String,
    /// Rolls made.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// The key chance, rolled.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub p: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_p: [f64; 2],
    /// The key chance, exact.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub p_exact: f64,
    /// The rolled Marks against the exact table.
    pub chi_squared: ChiSquared,
    /// The fit's p-value is at least alpha 0.001, and nothing impossible was rolled.
    pub agrees: bool,
    /// Mean Marks rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub mean: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_mean: Option<[f64; 2]>,
    /// What the key chance is, in words.
    #[serde(skip)]
    pub chance: &'static str,
    /// The question rolled.
    #[serde(skip)]
    pub rolled: Rolled,
}

/// Pearson's chi-squared test of rolled counts against an exact table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChiSquared {
    /// The statistic.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub statistic: f64,
    /// Its degrees of freedom.
    pub dof: u32,
    /// `P(chi2 >= statistic)`.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub p_value: f64,
}

/// What a Marks roll answers, exactly; with `--trials`, also its Monte Carlo check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MarksAnswer {
    /// The pool, as printed.
    pub pool: String,
    /// Human dice rolled.
    pub d6: u32,
    /// Super dice rolled.
    pub d10: u32,
    /// Dice kept.
    pub keep: u32,
    /// `[marks, probability]` pairs of positive probability.
    pub pmf: Vec<(i64, f64)>,
    /// Mean Marks of one roll (exact).
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub mean: f64,
    /// Probability left out of the exact table by cutting re-roll chains.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub truncated_mass: f64,
    /// Each success level's exact chance, by name.
    pub p_levels: BTreeMap<String, f64>,
    /// The chance of at least each level, by name.
    pub p_at_least: BTreeMap<String, f64>,
    /// Each level's P(at least) as a number of its own (`p_basic`, ...): a sweep's columns.
    #[serde(flatten)]
    pub p_level: BTreeMap<String, f64>,
    /// The rule options it rolled under.
    pub options: RuleOptions,
    /// Marks a GM assigned the opposition (a static roll against them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs_marks: Option<u32>,
    /// The opposing pool, as printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs: Option<String>,
    /// A contested roll: more Marks than the other side.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_wins: Option<f64>,
    /// Equal Marks.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_tie: Option<f64>,
    /// Fewer Marks.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_loses: Option<f64>,
    /// The success level asked for (`--level`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// Trying again: the chance the first success comes at each try.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_first_success_at_try: Option<Vec<f64>>,
    /// Trying again: success within the tries.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_success_within_tries: Option<f64>,
    /// `[period or try, probability]`, 0 for never.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done_at_hist: Option<Vec<(u32, f64)>>,
    /// The extended roll's Mark Plateau.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plateau: Option<u32>,
    /// The extended roll's fewest and most periods.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub periods: Option<[u32; 2]>,
    /// The chance the extended roll is done at each period.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_done_at_period: Option<Vec<f64>>,
    /// The chance it is done within the periods.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_done: Option<f64>,
    /// The Monte Carlo check, with `--trials`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mc: Option<McCheck>,
    /// Flat copies of the check for a sweep's summary columns.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_mc: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_mc: Option<[f64; 2]>,
    /// The check's chi-squared p-value.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub mc_p_value: Option<f64>,
    /// The check's rolls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    /// The check's raw tally (empty without one), when an experiment asks for it.
    #[serde(
        with = "super::tally::as_text",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub tally: Option<super::tally::AnyTally>,
    /// For the text: the pool, its exact Marks, the opponent's, the Marks --level needs.
    #[serde(skip)]
    pub exact: Exact,
    /// Trials finished when Ctrl-C stopped the check.
    #[serde(skip)]
    pub interrupted: Option<u64>,
}

/// The exact tables behind a [`MarksAnswer`], for its text (a kept answer, read back,
/// has none: [`Exact::default`] is an empty pool rolling no Marks).
#[derive(Debug, Clone)]
pub struct Exact {
    /// The pool.
    pub pool: Pool,
    /// Its Marks, exactly.
    pub marks: Pmf,
    /// The opposing pool and its Marks.
    pub opponent: Option<(Pool, Pmf)>,
    /// Marks `--level` needs.
    pub need: u32,
}

impl Default for Exact {
    fn default() -> Exact {
        Exact {
            pool: Pool::default(),
            marks: Pmf::point(0),
            opponent: None,
            need: 0,
        }
    }
}

/// `(k, P(done at k))` pairs with `(0, P(never))` first: the outcome of a question over time.
pub fn outcome_pairs(done: &[f64]) -> Vec<(u32, f64)> {
    let never = (1.0 - done.iter().sum::<f64>()).max(0.0);
    std::iter::once((0, never))
        .chain(done.iter().enumerate().map(|(k, &p)| (k as u32 + 1, p)))
        .collect()
}

/// A static roll against `n` Marks a GM assigns: more Marks wins, a tie as `marks_tie`.
pub fn against_marks(marks: &Pmf, n: u32, opts: &RuleOptions) -> (f64, f64, f64) {
    contest(marks, &Pmf::point(n as i64), opts)
}

/// The seeded check of a Marks question: what was rolled (the pool, or the trying-again or
/// extended question), its run, and the exact table it is tested against.
fn rolled(
    a: &MarksArgs,
    asked: &Asked,
    marks: &Pmf,
    f: &RunFlags,
    opts: &RuleOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<(Rolled, Run<MarksTally>, Pmf), Error> {
    Ok(
        match asked
            .tries
            .as_ref()
            .or(asked.extended.as_ref().map(|e| &e.3))
        {
            Some(q) => {
                let (run, _) = f.ran(q, progress, cancel)?;
                let rolled = match q.question() {
                    Question::TryingAgain { .. } => Rolled::Tries,
                    Question::Extended { .. } => Rolled::Extended,
                };
                (rolled, run, q.exact(a.tail))
            }
            None => {
                let s = MarksRoll {
                    pool: asked.pool,
                    opts: *opts,
                };
                let (run, _) = f.ran(&s, progress, cancel)?;
                (Rolled::Roll, run, marks.clone())
            }
        },
    )
}

/// The seeded check's figures in the answer `r`: what was rolled, its run (seed `seed`) and
/// the exact table it is tested against (chi-squared at alpha 0.001).
fn checked(r: &mut MarksAnswer, (rolled, run, exact): &(Rolled, Run<MarksTally>, Pmf), seed: u64) {
    let t = &run.tally;
    let fit = chi_squared(&t.marks, exact);
    let key = Estimate::proportion(t.trials - t.marks.count(0), t.trials, CONFIDENCE);
    let moments = (*rolled == Rolled::Roll).then(|| {
        let (s, q) = t.marks.moments();
        Estimate::mean(s, q, t.trials, CONFIDENCE)
    });
    r.mc = Some(McCheck {
        question: rolled.name().to_string(),
        trials: t.trials,
        seed,
        p: key.point,
        ci_p: key.ci,
        p_exact: 1.0 - exact.prob(0),
        chi_squared: ChiSquared {
            statistic: fit.statistic,
            dof: fit.dof,
            p_value: fit.p_value,
        },
        agrees: fit.p_value >= 0.001 && fit.impossible == 0,
        mean: moments.map(|e| e.point),
        ci_mean: moments.map(|e| e.ci),
        chance: rolled.chance(),
        rolled: *rolled,
    });
    r.p_mc = Some(key.point);
    r.ci_mc = Some(key.ci);
    r.mc_p_value = Some(fit.p_value);
    r.trials = Some(t.trials);
    if run.ended == Ended::Interrupted {
        r.interrupted = Some(run.trials);
    }
}

/// Asks a Marks question: the exact tables, and with `--trials` the seeded check, run on
/// its own pool.
pub fn ask(
    a: &MarksArgs,
    opts: &RuleOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<MarksAnswer, Error> {
    let asked = asked(a, opts)?;
    let pool = asked.pool;
    let marks = exact::marks(&pool, opts, a.tail);
    let tries = asked.tries.as_ref().map(|q| q.done(a.tail));
    let extended = asked
        .extended
        .as_ref()
        .map(|(p, min, max, q)| (*p, *min, *max, q.done(a.tail)));
    let opponent = asked.opponent.map(|p| (p, exact::marks(&p, opts, a.tail)));
    let f = flags(a);
    let check = match a.mc {
        None => None,
        Some(_) => Some(rolled(a, &asked, &marks, &f, opts, progress, cancel)?),
    };
    let levels = exactly(&marks);
    let mut r = MarksAnswer {
        pool: pool.describe(),
        d6: pool.d6(),
        d10: pool.d10(),
        keep: pool.keep(),
        pmf: marks.iter().filter(|&(_, p)| p > 0.0).collect(),
        mean: marks.mean(),
        truncated_mass: marks.truncated(),
        p_levels: levels.iter().map(|(n, p)| (n.to_string(), *p)).collect(),
        p_at_least: LEVELS
            .iter()
            .map(|(n, k)| (n.to_string(), marks.p_at_least(*k)))
            .collect(),
        p_level: LEVELS
            .iter()
            .map(|(n, k)| (format!("p_{n}"), marks.p_at_least(*k)))
            .collect(),
        options: *opts,
        vs_marks: None,
        vs: None,
        p_wins: None,
        p_tie: None,
        p_loses: None,
        level: None,
        p_first_success_at_try: None,
        p_success_within_tries: None,
        done_at_hist: None,
        plateau: None,
        periods: None,
        p_done_at_period: None,
        p_done: None,
        mc: None,
        p_mc: None,
        ci_mc: None,
        mc_p_value: None,
        trials: None,
        tally: None,
        exact: Exact {
            pool,
            marks: marks.clone(),
            opponent: opponent.clone(),
            need: asked.need,
        },
        interrupted: None,
    };
    if let Some(n) = a.vs_marks {
        let (w, t, l) = against_marks(&marks, n, opts);
        (r.vs_marks, r.p_wins, r.p_tie, r.p_loses) = (Some(n), Some(w), Some(t), Some(l));
    }
    if let Some((p, m)) = &opponent {
        let (w, t, l) = contest(&marks, m, opts);
        (r.vs, r.p_wins, r.p_tie, r.p_loses) = (Some(p.describe()), Some(w), Some(t), Some(l));
    }
    if let Some(t) = &tries {
        r.level = Some(a.level.clone());
        r.p_first_success_at_try = Some(t.clone());
        r.p_success_within_tries = Some(t.iter().sum::<f64>());
        r.done_at_hist = Some(outcome_pairs(t));
    }
    if let Some((p, min, max, done)) = &extended {
        r.plateau = Some(*p);
        r.periods = Some([*min, *max]);
        r.p_done_at_period = Some(done.clone());
        r.p_done = Some(done.iter().sum::<f64>());
        if tries.is_none() {
            r.done_at_hist = Some(outcome_pairs(done));
        }
    }
    let empty = MarksTally::default();
    if f.part.with_tally {
        let t = check.as_ref().map_or(&empty, |c| &c.1.tally);
        r.tally = Some(t.clone().kept());
    }
    if let Some(check) = &check {
        checked(&mut r, check, f.seed);
    }
    Ok(r)
}
