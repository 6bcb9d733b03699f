//! `diemon duel` of two squads of catalog units in the page: the built-in catalog or one
//! pasted in, each side a roster or one unit filled to a CP budget, the main policies, the
//! battle stepped by the core engine and answered with the main figures (and keys) of
//! `diemon duel --json`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::duel::FirstSide;
use crate::error::Error;
use crate::options;
use crate::run::{Answers, Ran, RunSpec, Running, Shares};
use diemon_core::catalog::Catalog;
use diemon_core::catalog::cp::Cp;
use diemon_core::options::RuleOptions;
use diemon_core::scenario::squad::policy::{Position, Response, Sprint, Targeting};
use diemon_core::scenario::squad::roster;
use diemon_core::scenario::squad::{DISTANCE, Policy, ROOM, SideSpec, Squad};

/// Two rosters, how they meet, and how long to run.
#[derive(Clone, Debug, Deserialize)]
pub struct SquadQuestion {
    /// Side A: `minifig-hand-weapon*6, hero-hand-weapon`, or one unit with a budget.
    pub a: String,
    /// Side B.
    pub b: String,
    /// Fill each side with its one unit to this many CP (`--budget`).
    #[serde(default)]
    pub budget: Option<String>,
    /// Inches between the squads.
    #[serde(default = "distance")]
    pub distance: u32,
    /// Inches behind each side's starting line.
    #[serde(default = "room")]
    pub room: u32,
    /// Player turns after which it is a draw.
    #[serde(default = "max_turns")]
    pub max_turns: u32,
    /// Who moves first.
    #[serde(default)]
    pub first: FirstSide,
    /// Whom side A attacks.
    #[serde(default)]
    pub a_target: Targeting,
    /// Whom side B attacks.
    #[serde(default)]
    pub b_target: Targeting,
    /// Where side A walks.
    #[serde(default)]
    pub a_position: Position,
    /// Where side B walks.
    #[serde(default)]
    pub b_position: Position,
    /// When side A Responds.
    #[serde(default)]
    pub a_response: Response,
    /// When side B Responds.
    #[serde(default)]
    pub b_response: Response,
    /// When side A Sprints.
    #[serde(default)]
    pub a_sprint: Sprint,
    /// When side B Sprints.
    #[serde(default)]
    pub b_sprint: Sprint,
    /// A catalog pasted in (TOML, as `--catalog` reads it), on top of the built-in one.
    #[serde(default)]
    pub catalog: Option<String>,
    /// How long to run.
    #[serde(flatten)]
    pub run: RunSpec,
    /// Rule options that differ from the defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
}

fn distance() -> u32 {
    DISTANCE
}
fn room() -> u32 {
    ROOM
}
fn max_turns() -> u32 {
    100
}

/// The name a pasted catalog's errors give it.
pub const PASTED: &str = "catalog.toml";

/// The catalog a question fields its units from.
pub fn catalog(text: Option<&str>) -> Result<Catalog, Error> {
    match text.map(str::trim) {
        None | Some("") => Ok(Catalog::builtin()),
        Some(t) => Catalog::with_text(PASTED, t).map_err(|es| {
            Error::input(
                "catalog",
                es.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        }),
    }
}

/// A battle under way.
pub type SquadRun = Running<Squad, SquadQuestion>;

impl SquadRun {
    /// Checks the question and builds the battle, ready to step.
    pub fn start(q: SquadQuestion) -> Result<SquadRun, Error> {
        let opts = options::apply(&q.options)?;
        if !(1..=10_000).contains(&q.max_turns) {
            return Err(Error::input(
                "max_turns",
                format!(
                    "max turns {}: expected 1 to 10000 player turns",
                    q.max_turns
                ),
            ));
        }
        if q.distance > 1000 {
            return Err(Error::input(
                "distance",
                format!("distance {}: expected 0 to 1000 inches", q.distance),
            ));
        }
        let run = q.run.check(0.5)?;
        let budget = match q.budget.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(t) => Some(t.parse::<f64>().map_err(|_| {
                Error::input(
                    "budget",
                    format!(
                        "budget {t:?}: expected a CP amount above 0, in quarter points (44, 22.5)"
                    ),
                )
            })?),
        };
        let cat = catalog(q.catalog.as_deref())?;
        let side = |field: &str, text: &str, policy: Policy| -> Result<SideSpec, Error> {
            let name = field.to_uppercase();
            let units = roster::fielded(&cat, text, budget).map_err(|e| match e {
                roster::FieldError::Budget(_) => Error::input("budget", e.to_string()),
                other => Error::input(field, format!("side {name}: {other}")),
            })?;
            SideSpec::from_catalog(&cat, &units, policy, &opts)
                .map_err(|e| Error::input(field, format!("side {name}: {e}")))
        };
        let policy = |target, position, response, sprint| Policy {
            target,
            position,
            response,
            sprint,
            ..Policy::default()
        };
        let a = side(
            "a",
            &q.a,
            policy(q.a_target, q.a_position, q.a_response, q.a_sprint),
        )?;
        let b = side(
            "b",
            &q.b,
            policy(q.b_target, q.b_position, q.b_response, q.b_sprint),
        )?;
        let squad = Squad::new(a, b, q.distance, q.first.first(), q.max_turns, opts)
            .map_err(|e| Error::input("squad", e.to_string()))?
            .with_room(q.room);
        Ok(Running::new(q, run, squad))
    }

    /// `diemon duel --a ... --b ... --json`: the same figures.
    fn command(&self, stopped: bool, ran: u64) -> String {
        let q = &self.question;
        let quote = crate::command::quote;
        let mut c = String::from("diemon duel");
        if q.catalog.as_deref().is_some_and(|t| !t.trim().is_empty()) {
            c.push_str(&format!(" --catalog {PASTED}"));
        }
        c.push_str(&format!(" --a {} --b {}", quote(&q.a), quote(&q.b)));
        if let Some(b) = q.budget.as_deref().map(str::trim).filter(|b| !b.is_empty()) {
            c.push_str(&format!(" --budget {b}"));
        }
        c.push_str(&format!(" --distance {}", q.distance));
        if q.room != ROOM {
            c.push_str(&format!(" --room {}", q.room));
        }
        if q.max_turns != max_turns() {
            c.push_str(&format!(" --max-turns {}", q.max_turns));
        }
        c.push_str(q.first.flag());
        let d = Policy::default();
        for (flag, now, was) in [
            ("a-target", name(&q.a_target), name(&d.target)),
            ("b-target", name(&q.b_target), name(&d.target)),
            ("a-position", name(&q.a_position), name(&d.position)),
            ("b-position", name(&q.b_position), name(&d.position)),
            ("a-response", name(&q.a_response), name(&d.response)),
            ("b-response", name(&q.b_response), name(&d.response)),
            ("a-sprint", name(&q.a_sprint), name(&d.sprint)),
            ("b-sprint", name(&q.b_sprint), name(&d.sprint)),
        ] {
            if now != was {
                c.push_str(&format!(" --{flag} {now}"));
            }
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

/// A policy value as its flag writes it (its serde name). The policies are plain enums,
/// which always serialize; were one not to, the text says so rather than naming nothing.
pub fn name<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(e) => format!("<unnamed policy value: {e}>"),
    }
}

impl Answers for SquadQuestion {
    type Scenario = Squad;
    type Answer = SquadAnswer;

    fn figures(r: &SquadRun, seconds: f64) -> SquadAnswer {
        let (run, stopped) = r.now(seconds);
        let t = &run.tally;
        let s = &r.scenario;
        let turns = t.mean_turns();
        let (sa, sb) = (t.mean_survivors(0), t.mean_survivors(1));
        let (ca, cb) = (t.mean_cp_left(0), t.mean_cp_left(1));
        SquadAnswer {
            a: s.described(0),
            b: s.described(1),
            units_a: s.count()[0],
            units_b: s.count()[1],
            cp_a: s.side_cp(0),
            cp_b: s.side_cp(1),
            cp_gap: s.side_cp(0) - s.side_cp(1),
            distance: s.distance() as f64,
            room: r.question.room,
            first: match r.question.first {
                FirstSide::A => "A",
                FirstSide::B => "B",
                FirstSide::Random => "random",
            },
            policy_a: *s.policy(0),
            policy_b: *s.policy(1),
            ran: r.ran(&run),
            shares: Shares::of(t.trials, [t.a_wins, t.b_wins, t.draws, t.first_wins]),
            mean_turns: turns.point,
            ci_mean_turns: turns.ci,
            survivors_a: sa.point,
            ci_survivors_a: sa.ci,
            survivors_b: sb.point,
            ci_survivors_b: sb.ci,
            cp_left_a: ca.point,
            ci_cp_left_a: ca.ci,
            cp_left_b: cb.point,
            ci_cp_left_b: cb.ci,
            armor_ties: t.ties,
            max_turns: r.question.max_turns,
            options: *s.opts(),
            inert_a: s.inert_lines(0),
            inert_b: s.inert_lines(1),
            inert_cp_a: s.inert_cp(0),
            inert_cp_b: s.inert_cp(1),
            command: r.command(stopped, run.trials),
        }
    }
}

/// The main figures of a squad `diemon duel --json`, key for key, and its command.
#[derive(Clone, Debug, Serialize)]
pub struct SquadAnswer {
    /// Side A as fielded.
    pub a: String,
    /// Side B as fielded.
    pub b: String,
    /// A's units.
    pub units_a: usize,
    /// B's units.
    pub units_b: usize,
    /// A's CP.
    pub cp_a: Cp,
    /// B's CP.
    pub cp_b: Cp,
    /// `cp_a - cp_b`.
    pub cp_gap: Cp,
    /// Inches apart at the start.
    pub distance: f64,
    /// Inches behind each start.
    pub room: u32,
    /// Who moves first: `A`, `B` or `random`.
    pub first: &'static str,
    /// A's policies.
    pub policy_a: Policy,
    /// B's policies.
    pub policy_b: Policy,
    /// How the run went.
    #[serde(flatten)]
    pub ran: Ran,
    /// Who won how often.
    #[serde(flatten)]
    pub shares: Shares,
    /// Player turns until the end.
    pub mean_turns: f64,
    /// Its 95% CI.
    pub ci_mean_turns: [f64; 2],
    /// A's units standing at the end.
    pub survivors_a: f64,
    /// Its 95% CI.
    pub ci_survivors_a: [f64; 2],
    /// B's units standing at the end.
    pub survivors_b: f64,
    /// Its 95% CI.
    pub ci_survivors_b: [f64; 2],
    /// CP of A's units standing at the end.
    pub cp_left_a: f64,
    /// Its 95% CI.
    pub ci_cp_left_a: [f64; 2],
    /// CP of B's units standing at the end.
    pub cp_left_b: f64,
    /// Its 95% CI.
    pub ci_cp_left_b: [f64; 2],
    /// Hits whose Damage exactly equalled Armor.
    pub armor_ties: u64,
    /// The player-turn limit.
    pub max_turns: u32,
    /// The rule options it ran under.
    pub options: RuleOptions,
    /// What side A pays CP for and never uses in this battle, with why.
    pub inert_a: Vec<String>,
    /// The same for side B.
    pub inert_b: Vec<String>,
    /// CP of A's inert parts.
    pub inert_cp_a: Cp,
    /// CP of B's inert parts.
    pub inert_cp_b: Cp,
    /// The command line that prints the same figures.
    pub command: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::same::{assert_same, cli, stepped};

    fn question(a: &str, b: &str, budget: Option<&str>) -> SquadQuestion {
        SquadQuestion {
            a: a.into(),
            b: b.into(),
            budget: budget.map(Into::into),
            distance: 16,
            room: ROOM,
            max_turns: 100,
            first: FirstSide::Random,
            a_target: Targeting::Focus,
            b_target: Targeting::Spread,
            a_position: Position::Hold,
            b_position: Position::Advance,
            a_response: Response::All,
            b_response: Response::All,
            a_sprint: Sprint::default(),
            b_sprint: Sprint::default(),
            catalog: None,
            run: RunSpec {
                trials: "6000".into(),
                target_ci: None,
                seed: "5".into(),
            },
            options: vec![("armor_tie".into(), "dismemberment".into())],
        }
    }

    #[test]
    fn the_page_answers_what_the_command_line_does() {
        for q in [
            question("minifig-hand-weapon", "hero-hand-weapon", Some("44")),
            question(
                "minifig-hand-weapon*3, hero-hand-weapon",
                "minifig-rifle*4",
                None,
            ),
        ] {
            let mut r = SquadRun::start(q).unwrap();
            let page = stepped(&mut r, 1000);
            let command = page["command"].as_str().unwrap();
            // The command's quoting is for a shell; the study reads words.
            let line = command["diemon ".len()..]
                .replace('"', "")
                .replace(", ", ",");
            assert_same(&page, &cli(&line), &[]);
        }
    }

    #[test]
    fn bad_rosters_and_catalogs_name_their_field() {
        let e = SquadRun::start(question("minifig-hand-weapon*2", "hero", Some("44"))).err();
        assert_eq!(e.unwrap().field, "a");
        let e = SquadRun::start(question("minifig", "hero", Some("-3"))).err();
        assert_eq!(e.unwrap().field, "budget");
        let mut q = question("minifig", "hero", None);
        q.catalog = Some("[units.x]\nskill = 7".into());
        let e = SquadRun::start(q).err().unwrap();
        assert_eq!(e.field, "catalog");
        assert!(e.message.starts_with(PASTED), "{}", e.message);
    }
}
