//! `diemon duel` of two stat lines in the page: the duel built by the core, run by the core
//! engine's steps ([`crate::run::Running`]) a few thousand duels at a time, answered with
//! the figures (and keys) of `diemon duel --json`.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::options;
use crate::run::{Answers, Ran, RunSpec, Running, Shares};
use diemon_core::options::RuleOptions;
use diemon_core::scenario::duel::{Duel, Fighter, FighterError, First};

/// One side's stat line (`SKILL/USE/DAMAGE/ARMOR` on the command line).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StatLine {
    /// A single Skill die (`d6`).
    pub skill: String,
    /// The weapon's Use rating.
    #[serde(rename = "use")]
    pub use_rating: String,
    /// Its Damage expression.
    pub damage: String,
    /// Armor: a number or dice.
    pub armor: String,
}

/// Who attacks (or moves) first (`--first`).
#[derive(Copy, Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum FirstSide {
    /// Side A.
    A,
    /// Side B.
    B,
    /// A d6 roll-off.
    #[default]
    Random,
}

impl FirstSide {
    /// As the core takes it.
    pub fn first(self) -> First {
        match self {
            FirstSide::A => First::A,
            FirstSide::B => First::B,
            FirstSide::Random => First::Random,
        }
    }

    /// `--first X`, when not the default.
    pub fn flag(self) -> &'static str {
        match self {
            FirstSide::A => " --first a",
            FirstSide::B => " --first b",
            FirstSide::Random => "",
        }
    }
}

/// A stat-line duel and how long to run it.
#[derive(Clone, Debug, Deserialize)]
pub struct DuelQuestion {
    /// Side A.
    pub a: StatLine,
    /// Side B.
    pub b: StatLine,
    /// Who attacks first.
    #[serde(default)]
    pub first: FirstSide,
    /// Attacks after which a duel is a draw.
    #[serde(default = "max_attacks")]
    pub max_attacks: u32,
    /// How long to run.
    #[serde(flatten)]
    pub run: RunSpec,
    /// Rule options that differ from the defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
}

fn max_attacks() -> u32 {
    1000
}

/// A duel under way.
pub type DuelRun = Running<Duel, DuelQuestion>;

fn fighter(side: &str, s: &StatLine) -> Result<Fighter, Error> {
    let name = side.to_uppercase();
    Fighter::from_parts(&name, &s.skill, &s.use_rating, &s.damage, &s.armor).map_err(|e| match e {
        FighterError::Expr { field, text, error } => Error::expr(
            &format!("{side}.{}", field.to_lowercase()),
            &format!("side {name} {field}"),
            &text,
            &error,
        ),
        FighterError::Skill(_) => {
            Error::input(&format!("{side}.skill"), format!("side {name}: {e}"))
        }
        FighterError::Use(_) => Error::input(&format!("{side}.use"), format!("side {name}: {e}")),
        FighterError::SkillIn(f) => Error::input(
            &format!("{side}.{}", f.to_lowercase()),
            format!("side {name}: {e}"),
        ),
        other => Error::input(side, format!("side {name}: {other}")),
    })
}

impl DuelRun {
    /// Checks the question and builds the duel, ready to step.
    pub fn start(q: DuelQuestion) -> Result<DuelRun, Error> {
        let opts = options::apply(&q.options)?;
        let a = fighter("a", &q.a)?;
        let b = fighter("b", &q.b)?;
        if q.max_attacks == 0 {
            return Err(Error::input(
                "max_attacks",
                "max attacks 0: expected at least one attack",
            ));
        }
        let run = q.run.check(0.5)?;
        let duel = Duel::new(a, b, q.first.first(), q.max_attacks, opts);
        Ok(Running::new(q, run, duel))
    }

    /// `diemon duel A B ... --json`: the same figures.
    fn command(&self, stopped: bool, ran: u64) -> String {
        let q = &self.question;
        let line = |s: &StatLine| {
            crate::command::quote(&format!(
                "{}/{}/{}/{}",
                s.skill, s.use_rating, s.damage, s.armor
            ))
        };
        let mut c = format!(
            "diemon duel {} {}{}",
            line(&q.a),
            line(&q.b),
            q.first.flag()
        );
        if q.max_attacks != max_attacks() {
            c.push_str(&format!(" --max-attacks {}", q.max_attacks));
        }
        c.push_str(&self.run.flags(stopped, ran));
        for f in options::flags(self.scenario.opts()) {
            c.push(' ');
            c.push_str(&f);
        }
        c.push_str(" --json");
        c
    }
}

impl Answers for DuelQuestion {
    type Scenario = Duel;
    type Answer = DuelAnswer;

    fn figures(r: &DuelRun, seconds: f64) -> DuelAnswer {
        let (run, stopped) = r.now(seconds);
        let t = &run.tally;
        let m = t.mean_attacks();
        DuelAnswer {
            a: r.scenario.a().described(),
            b: r.scenario.b().described(),
            first: r.question.first,
            ran: r.ran(&run),
            shares: Shares::of(t.trials, [t.a_wins, t.b_wins, t.draws, t.first_wins]),
            mean_attacks: m.point,
            ci_mean_attacks: m.ci,
            armor_ties: t.ties,
            options: *r.scenario.opts(),
            command: r.command(stopped, run.trials),
        }
    }
}

/// The figures of `diemon duel --json`, key for key, and the command that prints them.
#[derive(Clone, Debug, Serialize)]
pub struct DuelAnswer {
    /// Side A as fielded.
    pub a: String,
    /// Side B as fielded.
    pub b: String,
    /// Who attacks first.
    pub first: FirstSide,
    /// How the run went.
    #[serde(flatten)]
    pub ran: Ran,
    /// Who won how often.
    #[serde(flatten)]
    pub shares: Shares,
    /// Attacks until one falls.
    pub mean_attacks: f64,
    /// Its 95% CI.
    pub ci_mean_attacks: [f64; 2],
    /// Hits whose Damage exactly equalled Armor.
    pub armor_ties: u64,
    /// The rule options it ran under.
    pub options: RuleOptions,
    /// The command line that prints the same figures.
    pub command: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Stepped;
    use crate::same::{assert_same, cli, stepped};

    fn question(trials: &str, target_ci: Option<&str>) -> DuelQuestion {
        let line = |s: &str, u: &str, d: &str, a: &str| StatLine {
            skill: s.into(),
            use_rating: u.into(),
            damage: d.into(),
            armor: a.into(),
        };
        DuelQuestion {
            a: line("d6", "2", "1d6", "4"),
            b: line("d10", "3", "1d6+1", "2d6"),
            first: FirstSide::Random,
            max_attacks: 1000,
            run: RunSpec {
                trials: trials.into(),
                target_ci: target_ci.map(Into::into),
                seed: "7".into(),
            },
            options: vec![],
        }
    }

    #[test]
    fn the_page_answers_what_the_command_line_does() {
        for (trials, target, size) in [("200k", None, 5000), ("1M", Some("0.004"), 777)] {
            let mut r = DuelRun::start(question(trials, target)).unwrap();
            let page = stepped(&mut r, size);
            let want = cli(&page["command"].as_str().unwrap()["diemon ".len()..]);
            assert_same(&page, &want, &[]);
            assert_eq!(
                page["ended"],
                if target.is_some() {
                    "precision target met"
                } else {
                    "complete"
                }
            );
        }
    }

    #[test]
    fn stopped_it_keeps_its_duels_and_says_how_to_rerun_them() {
        let mut r = DuelRun::start(question("1G", None)).unwrap();
        for _ in 0..40 {
            assert!(!r.step(3000));
        }
        let page = r.answer(1.0).unwrap();
        let command = page["command"].as_str().unwrap();
        assert_eq!(page["ended"], "interrupted");
        assert!(
            command.contains(&format!("--trials {} ", page["trials"])),
            "{command}"
        );
        assert_same(&page, &cli(&command["diemon ".len()..]), &["ended"]);
    }

    #[test]
    fn a_bad_side_names_its_field() {
        let mut q = question("1M", None);
        q.b.damage = "1d7".into();
        let e = DuelRun::start(q).err().unwrap();
        assert_eq!((e.field.as_str(), e.column), ("b.damage", Some(3)));
        let mut q = question("1M", None);
        q.a.skill = "2d6".into();
        assert_eq!(DuelRun::start(q).err().unwrap().field, "a.skill");
    }
}
