//! `diemon duel`'s squad question: two squads of catalog units, each with its policies,
//! filled to a CP budget when one is given.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::Error;
use super::duel::{DuelArgs, first};
use super::outcomes::Outcomes;
use super::run::Ran;
use diemon_core::catalog::Catalog;
use diemon_core::catalog::cp::Cp;
use diemon_core::options::RuleOptions;
use diemon_core::scenario::duel::First;
use diemon_core::scenario::squad::Conduct;
use diemon_core::scenario::squad::board::Objective;
use diemon_core::scenario::squad::roster::{self, FieldError, MAX_PER_SIDE};
use diemon_core::scenario::squad::tally::TRACK;
use diemon_core::scenario::squad::{Policy, SideSpec, Squad, SquadTally};
use diemon_core::sim::progress::Progress;

/// Whether the arguments ask for squads rather than the shorthand duel.
pub fn wanted(a: &DuelArgs) -> bool {
    a.a_squad.is_some()
        || a.b_squad.is_some()
        || a.budget.is_some()
        || !a.a.contains('/')
        || !a.b.contains('/')
}

/// Checks every flag and builds the squad duel, without running it.
pub fn build(a: &DuelArgs, opts: &RuleOptions) -> Result<Squad, Error> {
    let shorthand_flags = a.a_skill.is_some()
        || a.a_use.is_some()
        || a.a_damage.is_some()
        || a.a_armor.is_some()
        || a.b_skill.is_some()
        || a.b_use.is_some()
        || a.b_damage.is_some()
        || a.b_armor.is_some();
    if shorthand_flags {
        return Err(Error::input(
            "--a-skill/--a-use/--a-damage/--a-armor (and B's) change a SKILL/USE/DAMAGE/ARMOR \
             side, not catalog units\nhint: write both sides as shorthand, e.g. d6/2/1d6/4, or \
             drop those flags",
        ));
    }
    if !(1..=10_000).contains(&a.max_turns) {
        return Err(Error::input(format!(
            "--max-turns {}: expected 1 to 10000 player turns",
            a.max_turns
        )));
    }
    if let Some(d) = a.distance.filter(|&d| d > 1000) {
        return Err(Error::input(format!(
            "--distance {d}: expected 0 to 1000 inches"
        )));
    }
    a.flags().check()?;
    let catalog = super::catalog(a.catalog.as_ref(), a.run.out.part.catalog_text.as_deref())?;
    let sa = side('A', a.a_squad.as_deref().unwrap_or(&a.a), a, &catalog, opts)?;
    let sb = side('B', a.b_squad.as_deref().unwrap_or(&a.b), a, &catalog, opts)?;
    let squad = Squad::new(
        sa,
        sb,
        a.distance.unwrap_or(DISTANCE),
        first(a),
        a.max_turns,
        *opts,
    )
    .map(|s| s.with_room(a.room))
    .map_err(|e| Error::input(e.to_string()))?;
    on_table(squad, a)
}

/// Replays trial `n` of the battle `a` asks under `opts` into `log` (a narration, a map's
/// picture): the battle and how that trial ended.
pub fn replay<L: diemon_core::dice::Log>(
    a: &DuelArgs,
    opts: &RuleOptions,
    n: u64,
    log: &mut L,
) -> Result<(Squad, diemon_core::scenario::squad::SquadOutcome), Error> {
    let squad = build(a, opts)?;
    let o = a.flags().engine().replay(&squad, n, log);
    Ok((squad, o))
}

/// Inches between the squads when `--distance` is not given, off a table.
pub use diemon_core::scenario::squad::DISTANCE;

/// The battle on `a`'s table, if it names one (an objective needs one).
fn on_table(squad: Squad, a: &DuelArgs) -> Result<Squad, Error> {
    let Some(name) = &a.table else {
        if a.objective != Objective::LastStanding {
            return Err(Error::input(format!(
                "--objective {} is fought on a table\nhint: add --table scattered (or another layout)",
                a.objective.name()
            )));
        }
        // A conduct off a table would change nothing: refused rather than ignored.
        for (flag, c) in [("--a-conduct", a.a_conduct), ("--b-conduct", a.b_conduct)] {
            if c != Conduct::Advance {
                return Err(Error::input(format!(
                    "{flag} {} walks on a table (off one there is nothing to hide behind)\nhint: add --table scattered (or another layout)",
                    serde_json::to_string(&c)
                        .unwrap_or_default()
                        .trim_matches('"')
                )));
            }
        }
        return Ok(squad);
    };
    let depth = super::table::depth(a.table_depth, a.distance, a.room);
    let (table, _) = super::table::load(name, a.table_width, depth, a.distance, a.table_seed)?;
    squad
        .on_table(table, a.objective)
        .map_err(|e| Error::input(format!("--table {name}: {e}")))
}

fn side(
    name: char,
    text: &str,
    a: &DuelArgs,
    catalog: &Catalog,
    opts: &RuleOptions,
) -> Result<SideSpec, Error> {
    let bad = |m: String| Error::input(format!("side {name}: {m}"));
    if text.contains('/') {
        return Err(bad(format!(
            "{text:?} is a SKILL/USE/DAMAGE/ARMOR stat line, but the other side is catalog \
             units\nhint: give both sides as catalog units (`diemon unit list`) or both as stat \
             lines"
        )));
    }
    let units = roster::fielded(catalog, text, a.budget).map_err(|e| match e {
        FieldError::Budget(b) => Error::input(format!(
            "--budget {b}: expected a CP amount above 0, in quarter points (44, 22.5)"
        )),
        FieldError::NotOne(t) => bad(format!(
            "--budget fills a side with one unit; {t:?} lists more\nhint: drop the counts, \
             e.g. --budget 44 minifig-hand-weapon hero-hand-weapon"
        )),
        FieldError::Fill { key, error } => bad(format!(
            "{key}: {error}{}",
            if matches!(error, roster::FillError::TooMany { .. }) {
                format!(" (lower --budget; {MAX_PER_SIDE} units a side at most)")
            } else {
                String::new()
            }
        )),
        other => bad(other.to_string()),
    })?;
    let policy = if name == 'A' {
        Policy {
            target: a.a_target,
            position: a.a_position,
            response: a.a_response,
            sprint: a.a_sprint,
            cover: a.a_cover,
            blind: a.a_blind,
            spend: a.a_spend,
            amputate: a.a_amputate,
            aim: a.a_aim,
            spacing: a.a_spacing,
            auto: a.a_auto,
            bail: a.a_bail,
            formation: a.a_formation,
            throw: a.a_throw,
            divert: a.a_divert,
            lob: a.a_lob,
            conduct: a.a_conduct,
        }
    } else {
        Policy {
            target: a.b_target,
            position: a.b_position,
            response: a.b_response,
            sprint: a.b_sprint,
            cover: a.b_cover,
            blind: a.b_blind,
            spend: a.b_spend,
            amputate: a.b_amputate,
            aim: a.b_aim,
            spacing: a.b_spacing,
            auto: a.b_auto,
            bail: a.b_bail,
            formation: a.b_formation,
            throw: a.b_throw,
            divert: a.b_divert,
            lob: a.b_lob,
            conduct: a.b_conduct,
        }
    };
    SideSpec::from_catalog(catalog, &units, policy, opts).map_err(|e| bad(e.to_string()))
}

/// A side's CP as fielded.
pub fn side_cp(squad: &Squad, side: u8) -> Cp {
    squad.side_cp(side)
}

/// Side `side` as fielded: "6 x minifig-hand-weapon (7 CP each)  = 42 CP".
pub fn describe(squad: &Squad, side: u8) -> String {
    squad.described(side)
}

/// Side `side`'s parts that cost CP and do nothing in this battle, one line each.
pub fn inert(squad: &Squad, side: u8) -> Vec<String> {
    squad.inert_lines(side)
}

/// Who moves first, as the answer names it.
pub fn first_name(a: &DuelArgs) -> &'static str {
    match first(a) {
        First::A => "A",
        First::B => "B",
        First::Random => "random",
    }
}

/// One player turn of [`SquadAnswer::by_turn`]: units standing after it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TurnRow {
    /// The player turn, from 1.
    pub turn: usize,
    /// A's units standing after it.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub standing_a: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_standing_a: [f64; 2],
    /// B's units standing after it.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub standing_b: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_standing_b: [f64; 2],
    /// Minds converted by then; only with a Contagious unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub converted: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_converted: Option<[f64; 2]>,
}

/// What a squad duel answers. Columns: docs/columns.md.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SquadAnswer {
    /// Side A as fielded: "6 x minifig-hand-weapon (7 CP each)  = 42 CP".
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
    /// `cp_a - cp_b`: how far from even the sides are (whole units only).
    pub cp_gap: Cp,
    /// A float as in `blast`, so the column has one type in every experiment.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub distance: f64,
    /// Inches of the table's depth beyond the start (`--room`).
    pub room: u32,
    /// Who moves first: `A`, `B` or `random`.
    pub first: String,
    /// A's policies.
    pub policy_a: Policy,
    /// B's policies.
    pub policy_b: Policy,
    /// How the run went.
    #[serde(flatten)]
    pub ran: Ran,
    /// Who won how often.
    #[serde(flatten)]
    pub outcomes: Outcomes,
    /// Player turns until the end.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub mean_turns: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_mean_turns: [f64; 2],
    /// A's units standing at the end.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub survivors_a: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_survivors_a: [f64; 2],
    /// B's units standing at the end.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub survivors_b: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_survivors_b: [f64; 2],
    /// CP of A's units standing at the end.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub cp_left_a: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_cp_left_a: [f64; 2],
    /// CP of B's units standing at the end.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub cp_left_b: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_cp_left_b: [f64; 2],
    /// Hits whose Damage exactly equalled Armor, over all trials.
    pub armor_ties: u64,
    /// `[turns, share]` pairs; the same for survivors.
    pub turns_hist: Vec<(usize, f64)>,
    /// `[survivors, share]` of side A.
    pub survivors_a_hist: Vec<(usize, f64)>,
    /// `[survivors, share]` of side B.
    pub survivors_b_hist: Vec<(usize, f64)>,
    /// The player-turn limit.
    pub max_turns: u32,
    /// The rule options it ran under.
    pub options: RuleOptions,
    /// Units standing after each player turn.
    pub by_turn: Vec<TurnRow>,
    /// What a side pays CP for and never uses in this battle, with why (issue 21).
    pub inert_a: Vec<String>,
    /// The same for side B.
    pub inert_b: Vec<String>,
    /// CP of A's inert parts.
    pub inert_cp_a: Cp,
    /// CP of B's inert parts.
    pub inert_cp_b: Cp,
    /// Minds converted by Monstrous Contagion; only with a Contagious unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub converted: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_converted: Option<[f64; 2]>,
    /// Units a Medik revived; only with a Medik.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub revived: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_revived: Option<[f64; 2]>,
    /// Per side A, B: enemies its Explosives felled, and its own units they felled.
    #[serde(flatten)]
    pub explosives: Option<Blasted>,
    /// Per side A, B: enemies its automatic weapons felled.
    #[serde(flatten)]
    pub automatic: Option<Swept>,
    /// Which sides carry Explosives, and automatic weapons (for the table).
    #[serde(skip)]
    pub explosives_on: [bool; 2],
    /// Which sides carry automatic weapons.
    #[serde(skip)]
    pub automatic_on: [bool; 2],
}

/// What the Explosives of each side felled (a squad with Explosives): absent for a side
/// without any, so a frame holds null there, not a zero it never counted.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Blasted {
    /// Enemies A's Explosives felled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub blasted_a: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_blasted_a: Option<[f64; 2]>,
    /// A's own units its Explosives felled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub blasted_own_a: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_blasted_own_a: Option<[f64; 2]>,
    /// Enemies B's Explosives felled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub blasted_b: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_blasted_b: Option<[f64; 2]>,
    /// B's own units its Explosives felled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub blasted_own_b: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_blasted_own_b: Option<[f64; 2]>,
}

/// What the automatic weapons of each side felled (a squad with one): absent for a side
/// without any.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Swept {
    /// Enemies A's automatic weapons felled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub swept_a: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_swept_a: Option<[f64; 2]>,
    /// Enemies B's automatic weapons felled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub swept_b: Option<f64>,
    /// Its 95% CI.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_swept_b: Option<[f64; 2]>,
}

impl SquadAnswer {
    /// The answer of a run's tally.
    pub fn new(squad: &Squad, a: &DuelArgs, ran: Ran, t: &SquadTally) -> SquadAnswer {
        let turns = t.mean_turns();
        let (sa, sb) = (t.mean_survivors(0), t.mean_survivors(1));
        let (ca, cb) = (t.mean_cp_left(0), t.mean_cp_left(1));
        let converted = squad.contagious().then(|| t.mean_converted());
        let revived = squad.mediks().then(|| t.mean_revived());
        let by_turn = (0..(squad.max_turns() as usize).min(TRACK))
            .map(|k| {
                let (a, b) = (t.standing_after(0, k), t.standing_after(1, k));
                let c = squad.contagious().then(|| t.converted_after(k));
                TurnRow {
                    turn: k + 1,
                    standing_a: a.point,
                    ci_standing_a: a.ci,
                    standing_b: b.point,
                    ci_standing_b: b.ci,
                    converted: c.map(|c| c.point),
                    ci_converted: c.map(|c| c.ci),
                }
            })
            .collect();
        let blasted = |side, own| t.mean_blasted(side, own);
        SquadAnswer {
            a: describe(squad, 0),
            b: describe(squad, 1),
            units_a: squad.count()[0],
            units_b: squad.count()[1],
            cp_a: side_cp(squad, 0),
            cp_b: side_cp(squad, 1),
            cp_gap: side_cp(squad, 0) - side_cp(squad, 1),
            distance: squad.distance() as f64,
            room: a.room,
            first: first_name(a).to_string(),
            policy_a: *squad.policy(0),
            policy_b: *squad.policy(1),
            ran,
            outcomes: Outcomes::from(t),
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
            turns_hist: t.shares(&t.turns_hist),
            survivors_a_hist: t.shares(&t.survivors_a_hist),
            survivors_b_hist: t.shares(&t.survivors_b_hist),
            max_turns: a.max_turns,
            options: *squad.opts(),
            by_turn,
            inert_a: inert(squad, 0),
            inert_b: inert(squad, 1),
            inert_cp_a: squad.inert_cp(0),
            inert_cp_b: squad.inert_cp(1),
            converted: converted.map(|c| c.point),
            ci_converted: converted.map(|c| c.ci),
            revived: revived.map(|r| r.point),
            ci_revived: revived.map(|r| r.ci),
            explosives: squad.explosives().then(|| {
                let on = |side: usize, own: bool| {
                    squad.explosives_on(side as u8).then(|| blasted(side, own))
                };
                Blasted {
                    blasted_a: on(0, false).map(|e| e.point),
                    ci_blasted_a: on(0, false).map(|e| e.ci),
                    blasted_own_a: on(0, true).map(|e| e.point),
                    ci_blasted_own_a: on(0, true).map(|e| e.ci),
                    blasted_b: on(1, false).map(|e| e.point),
                    ci_blasted_b: on(1, false).map(|e| e.ci),
                    blasted_own_b: on(1, true).map(|e| e.point),
                    ci_blasted_own_b: on(1, true).map(|e| e.ci),
                }
            }),
            automatic: squad.automatic().then(|| {
                let on = |side: usize| squad.automatic_on(side as u8).then(|| t.mean_swept(side));
                Swept {
                    swept_a: on(0).map(|e| e.point),
                    ci_swept_a: on(0).map(|e| e.ci),
                    swept_b: on(1).map(|e| e.point),
                    ci_swept_b: on(1).map(|e| e.ci),
                }
            }),
            explosives_on: [squad.explosives_on(0), squad.explosives_on(1)],
            automatic_on: [squad.automatic_on(0), squad.automatic_on(1)],
        }
    }
}

/// Asks a squad duel: builds it, runs it on its own pool and answers.
pub fn ask(
    a: &DuelArgs,
    opts: &RuleOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<SquadAnswer, Error> {
    let squad = build(a, opts)?;
    let (run, ran) = a.flags().ran(&squad, progress, cancel)?;
    Ok(SquadAnswer::new(&squad, a, ran, &run.tally))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> DuelArgs {
        crate::question::tests::parse("duel", line)
    }

    #[test]
    fn a_budget_fills_each_side_with_whole_units() {
        let opts = RuleOptions::default();
        let a = args("--budget 44 minifig-hand-weapon hero-hand-weapon");
        assert!(wanted(&a));
        let s = build(&a, &opts).unwrap();
        // 44 CP: seven 6-CP minifigs against three 13-CP Heroes (Ch. 10 costs).
        assert_eq!(s.count(), [7, 3]);
        let e = build(&args("--budget 4000 minifig-hand-weapon minifig"), &opts).unwrap_err();
        assert!(e.message().contains("lower --budget"), "{e}");
        let e = build(&args("--budget 44 minifig*2 hero"), &opts).unwrap_err();
        assert!(e.message().contains("one unit"), "{e}");
    }

    #[test]
    fn stat_line_flags_are_refused_on_squads() {
        let e = build(&args("--a-skill d8 minifig hero"), &RuleOptions::default()).unwrap_err();
        assert!(e.message().contains("not catalog units"), "{e}");
    }
}
