//! `diemon marks`'s question: one roll of a Marks pool, the chance over tries or an
//! extended roll, against Marks a GM assigns or a contested pool. [`MarksArgs`] are the
//! flags; [`asked`] checks them and builds what they ask.

use clap::Args;

use super::Error;
use super::run::{RunFlags, Seeded, parse_trials};
use crate::marks::levels::LEVELS;
use crate::marks::pool::{Pool, Sheet};
use crate::marks::tries::OverTime;
use crate::options::RuleOptions;

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
    #[arg(long = "trials", visible_alias = "mc", value_name = "N", value_parser = parse_trials, allow_negative_numbers = true)]
    pub mc: Option<u64>,
    // The seed, threads and output of the Monte Carlo check.
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
    pub pool: Pool,
    /// Marks that make --level.
    pub need: u32,
    pub tries: Option<OverTime>,
    /// The plateau, the minimum and maximum periods, and the question.
    pub extended: Option<(u32, u32, u32, OverTime)>,
    pub opponent: Option<Pool>,
}

/// Checks the flags as running them would (what an experiment checks of every cell).
pub fn validate(a: &MarksArgs, opts: &RuleOptions) -> Result<(), Error> {
    asked(a, opts).map(|_| ())
}

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
pub fn parse_whole(s: &str) -> Result<u32, String> {
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
