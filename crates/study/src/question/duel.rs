//! `diemon duel`'s question: two stat lines in base contact (`SKILL/USE/DAMAGE/ARMOR`), or
//! two squads of catalog units ([`super::squad`], which reads the same [`DuelArgs`]).
//! [`build`] checks the flags of a stat-line duel and builds the [`Duel`] they ask about.

use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};

use super::Error;
use super::outcomes::Outcomes;
use super::run::{Ran, RunArgs, RunFlags};
use diemon_core::options::RuleOptions;
use diemon_core::rules::medik::Amputate;
use diemon_core::scenario::duel::{Duel, DuelTally, Fighter, FighterError, First};
use diemon_core::scenario::squad::{
    AreaAim, AutoFire, Bail, Conduct, Divert, Formation, Lob, Position, Response, Spacing, Spend,
    Sprint, Targeting, Throw,
};
use diemon_core::sim::progress::Progress;

/// Who attacks first (`--first`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FirstArg {
    /// Side A.
    A,
    /// Side B.
    B,
    /// A d6 roll-off: odd A, even B.
    Random,
}

/// `diemon duel`'s flags: two stat lines or two squads, their policies, and the run.
#[derive(Args, Debug, Clone)]
#[command(mut_arg("target_ci", |a| a.help(
    "Stop once the 95% CI half-width of P(A wins) is at most X (at most --trials trials)"
)))]
#[command(after_help = "Examples:
  diemon duel d6/2/1d6/4 d10/3/1d6+1/2d6          two stat lines in base contact
  diemon duel --budget 44 minifig-hand-weapon hero-hand-weapon    CP-matched squads, 12\" apart
  diemon duel --a \"minifig-hand-weapon*6\" --b \"hero-hand-weapon*2\" --distance 8
  diemon duel --a \"minifig-rifle*4\" --b \"cannon-fodder*10\" --b-target spread --json
  diemon duel --budget 42 minifig-launcher minifig-hand-weapon --b-bail blast --b-spacing 3
  diemon duel --a \"minifig-machinegunner*3\" --a-auto burst:3 --b \"minifig-hand-weapon*6\"
  diemon duel --a \"gunner-cannon,gunner\" --b \"minifig-hand-weapon*3\" --b-formation ranks:2

A side is SKILL/USE/DAMAGE/ARMOR (a single fighter in base contact) or catalog units,
NAME or NAME*COUNT joined by commas (`diemon unit list`); NAME+ITEM adds named items
(`diemon weapon list`), e.g. hero+heavy-weapon+body-armor*2; NAME@POLICY gives one
SuperNatural unit its own --a-spend policy, e.g. \"wizard@bless, wizard@summon\", and
NAME@arm:ITEM the minifig weapon it summons, e.g. mystik@arm:hand-weapon. Squads
start --distance inches apart, their figures abreast on a plane (--a-spacing,
--a-formation) where every reach, Range, Response, Firing Arc and Explosion measures;
see docs/model.md for what the field leaves out.")]
pub struct DuelArgs {
    /// Side A: SKILL/USE/DAMAGE/ARMOR, e.g. "d6/2/1d6/4" (a minifig with a Hand Weapon, the
    /// default; the --a-skill/use/damage/armor flags override single fields), or catalog
    /// units such as "minifig-hand-weapon*6".
    #[arg(value_name = "A", default_value = "d6/2/1d6/4")]
    pub a: String,
    /// Side B, the same way.
    #[arg(value_name = "B", default_value = "d6/2/1d6/4")]
    pub b: String,

    /// Side A's squad, e.g. "minifig-hand-weapon*6,hero-hand-weapon" (instead of A).
    #[arg(long = "a", value_name = "UNITS")]
    pub a_squad: Option<String>,
    /// Side B's squad.
    #[arg(long = "b", value_name = "UNITS")]
    pub b_squad: Option<String>,
    /// Fill each side with as many of its one unit as this many CP buy ("CP-matched").
    #[arg(long, value_name = "CP")]
    pub budget: Option<f64>,
    /// Inches between the squads at the start [default: 12]. On a table, the gap between
    /// the sides' fronts, either side of its middle line (a named layout lays its terrain
    /// between them) [default: as the zones stand].
    #[arg(long, value_name = "INCHES")]
    pub distance: Option<u32>,
    /// Inches of table behind each side's starting line: how far a shooter keeping its
    /// range may step back before the table's edge stops it. On a named table with
    /// --distance, the room behind each front (unless --table-depth says).
    #[arg(long, value_name = "INCHES", default_value_t = diemon_core::scenario::squad::ROOM,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub room: u32,
    /// Player turns (both sides' together) after which a squad duel is a draw.
    #[arg(long, default_value_t = 100)]
    pub max_turns: u32,
    /// Whom side A attacks among the enemies it can reach.
    #[arg(long, value_enum, default_value_t = Targeting::Focus)]
    pub a_target: Targeting,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Targeting::Focus)]
    pub b_target: Targeting,
    /// Where side A walks when it cannot strike from where it stands (Ch. 4.1, 4.3).
    #[arg(long, value_enum, default_value_t = Position::Hold)]
    pub a_position: Position,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Position::Hold)]
    pub b_position: Position,
    /// When side A spends a saved Action in B's turn (Ch. 4.3).
    #[arg(long, value_enum, default_value_t = Response::All)]
    pub a_response: Response,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Response::All)]
    pub b_response: Response,
    /// Whether side A Sprints when it cannot attack this turn (Ch. 4.1).
    #[arg(long, value_enum, default_value_t = Sprint::Never)]
    pub a_sprint: Sprint,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Sprint::Never)]
    pub b_sprint: Sprint,
    /// What side A's SuperNatural units spend their SN dice on (Ch. D.4).
    #[arg(long, value_enum, default_value_t = Spend::Damage)]
    pub a_spend: Spend,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Spend::Damage)]
    pub b_spend: Spend,
    /// Which limbs side A's Mediks Amputate first in Ker-Triage! (Ch. 10.2).
    #[arg(long, value_enum, default_value_t = Amputate::LegsFirst)]
    pub a_amputate: Amputate,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Amputate::LegsFirst)]
    pub b_amputate: Amputate,
    /// Where side A's Explosives (thrown, launched, Cannon rounds, Rockets) aim: the enemy
    /// whose blast catches the most enemies, the nearest, or the most enemy CP; never where
    /// A's own figures stand in the blast.
    #[arg(long, value_enum, default_value_t = AreaAim::Densest)]
    pub a_aim: AreaAim,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = AreaAim::Densest)]
    pub b_aim: AreaAim,
    /// Inches between side A's figures standing abreast, across the line: what an
    /// Explosion can catch, and how far each stands from each enemy (0 stands the whole
    /// side on one spot).
    #[arg(long, value_name = "INCHES", default_value = "1.5", value_parser = Spacing::parse)]
    pub a_spacing: Spacing,
    /// The same for side B.
    #[arg(long, value_name = "INCHES", default_value = "1.5", value_parser = Spacing::parse)]
    pub b_spacing: Spacing,
    /// How side A stands at the start: line (abreast), column, or ranks:N, ranks one behind
    /// another, the spacing apart; its units fill the front rank first.
    #[arg(long, value_name = "FORMATION", default_value = "line", value_parser = Formation::parse)]
    pub a_formation: Formation,
    /// The same for side B.
    #[arg(long, value_name = "FORMATION", default_value = "line", value_parser = Formation::parse)]
    pub b_formation: Formation,
    /// When side A's units Bail, a Response that takes their saved Action (Ch. 4.3): never;
    /// out of an Explosion they stand in (blast); or also away from a shot whose Range a
    /// dive could carry them out of (all). A dive is their Skill roll in inches, and leaves
    /// them Disrupted unless the roll earns an Overskill Benny.
    #[arg(long, value_enum, default_value_t = Bail::Never)]
    pub a_bail: Bail,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Bail::Never)]
    pub b_bail: Bail,
    /// When side A's units throw a hand weapon at an enemy within 3" as their Action
    /// (Ch. 8.4 Thrown Minifig Weapons): never; a spare, keeping another Close Combat
    /// weapon in hand; or even the last one. A thrown weapon lies where its target stood
    /// until the thrower comes within an inch of it (picked up at no cost, Ch. 4.1).
    #[arg(long, value_enum, default_value_t = Throw::Never)]
    pub a_throw: Throw,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Throw::Never)]
    pub b_throw: Throw,
    /// When side A's units Divert All Power (Ch. 8.1) to a weapon too big for their Power,
    /// such as a Scorpiosaurus Rex's 5" stinger once Size Damage leaves it 4" of Power:
    /// never; or while an enemy stands within that weapon's reach, a full turn without
    /// moving or acting, until the Power saved lets it strike.
    #[arg(long, value_enum, default_value_t = Divert::Never)]
    pub a_divert: Divert,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Divert::Never)]
    pub b_divert: Divert,
    /// Whether side A's Explosives (Launchers, Cannons, Rockets) fire at targets beyond 12"
    /// (Ch. 8.4: a projectile flies 12" a turn): near walks within 12" and fires at once;
    /// far fires at any target in Range, and a shell beyond 12" comes down on the spot its
    /// target stood at, a turn or more later, where its Action roll is made.
    #[arg(long, value_enum, default_value_t = Lob::Near)]
    pub a_lob: Lob,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Lob::Near)]
    pub b_lob: Lob,
    /// How side A's automatic weapons fire (Ch. 8.3): arc:N sweeps N points of Firing
    /// Arc, one attack at -N on each figure in it (a BlastGun or ShotGun: 1 point, no
    /// penalty); burst:N fires N MachineGun shots at one figure, shot k at -k. A
    /// MachineGun jams when its natural roll is below the penalty.
    #[arg(long, value_name = "FIRE", default_value = "arc:1", value_parser = AutoFire::parse)]
    pub a_auto: AutoFire,
    /// The same for side B.
    #[arg(long, value_name = "FIRE", default_value = "arc:1", value_parser = AutoFire::parse)]
    pub b_auto: AutoFire,
    /// Thirds of each side-A unit behind cover against ranged attacks (0-3, Ch. 8.3).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=3))]
    pub a_cover: u32,
    /// The same for side B.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=3))]
    pub b_cover: u32,
    /// Side A fires blind (-5, Ch. 8.3).
    #[arg(long)]
    pub a_blind: bool,
    /// The same for side B.
    #[arg(long)]
    pub b_blind: bool,
    /// A catalog file (TOML) whose units are added to the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<std::path::PathBuf>,

    /// Fight on a table: a named layout (open, scattered, wall-line, town) or a layout
    /// file (`diemon table --help`). The sides deploy on their zones' fronts (with
    /// --distance, that far apart either side of the middle line), walk round terrain, and
    /// take their cover and sight from it (--a-cover and --a-blind give way to it).
    #[arg(long, value_name = "LAYOUT", help_heading = "Table")]
    pub table: Option<String>,
    /// Inches across a named table.
    #[arg(
        long,
        value_name = "INCHES",
        default_value_t = 48,
        help_heading = "Table"
    )]
    pub table_width: u32,
    /// Inches along a named table, from side A's edge to side B's [default: 48; with
    /// --distance, the distance and --room behind each side's front].
    #[arg(long, value_name = "INCHES", help_heading = "Table")]
    pub table_depth: Option<u32>,
    /// The seed a named table is laid out from (apart from the battle's --seed).
    #[arg(long, value_name = "SEED", default_value_t = 1, help_heading = "Table")]
    pub table_seed: u64,
    /// What a battle on a table is fought for: `last` (the last side standing), `hold:N`
    /// (hold the table's centre, a 3" circle, N turns running) or `edge` (reach the
    /// enemy's edge of the table); both sides rush an objective.
    #[arg(long, value_name = "OBJECTIVE", default_value = "last", value_parser = diemon_core::scenario::squad::board::Objective::parse, help_heading = "Table")]
    pub objective: diemon_core::scenario::squad::board::Objective,
    /// How side A's units walk on a table: advance along the way at the enemy (or the
    /// objective); from cover to cover (each walk ends, between half of it and all of it,
    /// where the fewest enemy shooters see it; a shooter with a target holds and shoots);
    /// or spread out against Explosives (where the fewest friends stand within 2").
    #[arg(long, value_enum, default_value_t = Conduct::Advance, help_heading = "Table")]
    pub a_conduct: Conduct,
    /// The same for side B.
    #[arg(long, hide_possible_values = true, value_enum, default_value_t = Conduct::Advance, help_heading = "Table")]
    pub b_conduct: Conduct,
    /// With --replay-trial and --table: draw the battle to this SVG file, turn by turn
    /// (the table, each walk, attack, Explosion and fall).
    #[arg(long, value_name = "FILE.svg", help_heading = "Table")]
    pub map: Option<std::path::PathBuf>,

    /// Side A's Skill die (d4 to d12), in place of its stat line's SKILL.
    #[arg(long, value_name = "DIE")]
    pub a_skill: Option<String>,
    /// Side A's Use rating (what its Skill roll must meet), in place of its stat line's USE.
    #[arg(long, value_name = "USE", allow_negative_numbers = true)]
    pub a_use: Option<i64>,
    /// Side A's Damage, a dice expression such as 1d6+1, in place of its stat line's DAMAGE.
    #[arg(long, value_name = "EXPR")]
    pub a_damage: Option<String>,
    /// Side A's Armor, a number or dice rolled for every hit (2d6), in place of its stat line's ARMOR.
    #[arg(long, value_name = "ARMOR")]
    pub a_armor: Option<String>,
    /// Side B's Skill die (d4 to d12), in place of its stat line's SKILL.
    #[arg(long, value_name = "DIE")]
    pub b_skill: Option<String>,
    /// Side B's Use rating (what its Skill roll must meet), in place of its stat line's USE.
    #[arg(long, value_name = "USE", allow_negative_numbers = true)]
    pub b_use: Option<i64>,
    /// Side B's Damage, a dice expression such as 1d6+1, in place of its stat line's DAMAGE.
    #[arg(long, value_name = "EXPR")]
    pub b_damage: Option<String>,
    /// Side B's Armor, a number or dice rolled for every hit (2d6), in place of its stat line's ARMOR.
    #[arg(long, value_name = "ARMOR")]
    pub b_armor: Option<String>,

    /// Who attacks first (random: a d6 roll-off, odd A, even B).
    #[arg(long, value_enum, default_value_t = FirstArg::Random)]
    pub first: FirstArg,

    /// The run: trials, precision, seed, threads, a replayed trial, output.
    #[command(flatten)]
    pub run: RunArgs,

    /// Attacks after which a duel is a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_attacks: u32,
}

fn fighter(
    name: &str,
    spec: &str,
    skill: &Option<String>,
    use_rating: Option<i64>,
    damage: &Option<String>,
    armor: &Option<String>,
) -> Result<Fighter, Error> {
    let parts: Vec<&str> = spec.split('/').map(str::trim).collect();
    let [s, u, d, a] = parts[..] else {
        return Err(Error::input(format!(
            "side {name} {spec:?}: expected SKILL/USE/DAMAGE/ARMOR, e.g. d6/2/1d6/4"
        )));
    };
    let use_text = use_rating.map(|u| u.to_string());
    Fighter::from_parts(
        name,
        skill.as_deref().unwrap_or(s),
        use_text.as_deref().unwrap_or(u),
        damage.as_deref().unwrap_or(d),
        armor.as_deref().unwrap_or(a),
    )
    .map_err(|e| match e {
        FighterError::Expr { field, text, error } => {
            Error::expr(&format!("{name} {field}"), &text, &error)
        }
        FighterError::Skill(t) => Error::input(format!(
            "side {name}: skill {t:?} must be a single Skill die like d6 (Ch. 10.1)"
        )),
        FighterError::Use(t) => Error::input(format!(
            "side {name}: Use {t:?} is not a whole number (Ch. 4.2 Use ratings)"
        )),
        FighterError::SkillIn(field) => {
            Error::input(format!("side {name}: {field} cannot contain a Skill die"))
        }
        FighterError::Shape(t) => Error::input(format!(
            "side {name} {t:?}: expected SKILL/USE/DAMAGE/ARMOR, e.g. d6/2/1d6/4"
        )),
        other => Error::input(format!("side {name}: {other}")),
    })
}

/// Checks every flag and builds the stat-line duel, without running it.
pub fn build(a: &DuelArgs, opts: &RuleOptions) -> Result<Duel, Error> {
    let fa = fighter("A", &a.a, &a.a_skill, a.a_use, &a.a_damage, &a.a_armor)?;
    let fb = fighter("B", &a.b, &a.b_skill, a.b_use, &a.b_damage, &a.b_armor)?;
    if a.max_attacks == 0 {
        return Err(Error::input(
            "--max-attacks 0: expected at least one attack",
        ));
    }
    a.flags().check()?;
    Ok(Duel::new(fa, fb, first(a), a.max_attacks, *opts))
}

impl DuelArgs {
    /// The run flags every duel shares.
    pub fn flags(&self) -> RunFlags {
        self.run.flags(0.5, "of P(A wins), e.g. 0.001")
    }
}

/// Who attacks first, as the duel takes it.
pub fn first(a: &DuelArgs) -> First {
    match a.first {
        FirstArg::A => First::A,
        FirstArg::B => First::B,
        FirstArg::Random => First::Random,
    }
}

/// A stat-line fighter as the answer names it: "A (Skill d6, Use 2, Damage 1d6, Armor 4)".
pub fn describe(f: &Fighter) -> String {
    f.described()
}

/// What a stat-line duel answers: who won how often, and how long it took.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DuelAnswer {
    /// Side A as fielded ([`describe`]).
    pub a: String,
    /// Side B as fielded.
    pub b: String,
    /// Who attacks first: `a`, `b` or `random` (a d6 roll-off).
    pub first: String,
    /// How the run went.
    #[serde(flatten)]
    pub ran: Ran,
    /// Who won how often.
    #[serde(flatten)]
    pub outcomes: Outcomes,
    /// Attacks until one falls.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub mean_attacks: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_mean_attacks: [f64; 2],
    /// Hits whose Damage exactly equalled Armor, over all trials (option `armor_tie`).
    pub armor_ties: u64,
    /// The rule options it ran under.
    pub options: RuleOptions,
}

impl DuelAnswer {
    /// The answer of a run's tally.
    pub fn new(duel: &Duel, a: &DuelArgs, ran: Ran, t: &DuelTally) -> DuelAnswer {
        let m = t.mean_attacks();
        DuelAnswer {
            a: describe(duel.a()),
            b: describe(duel.b()),
            first: format!("{:?}", a.first).to_lowercase(),
            ran,
            outcomes: Outcomes::from(t),
            mean_attacks: m.point,
            ci_mean_attacks: m.ci,
            armor_ties: t.ties,
            options: *duel.opts(),
        }
    }
}

/// Asks a stat-line duel: builds it, runs it on its own pool and answers.
pub fn ask(
    a: &DuelArgs,
    opts: &RuleOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<DuelAnswer, Error> {
    let duel = build(a, opts)?;
    let (run, ran) = a.flags().ran(&duel, progress, cancel)?;
    Ok(DuelAnswer::new(&duel, a, ran, &run.tally))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> DuelArgs {
        crate::question::tests::parse("duel", line)
    }

    #[test]
    fn single_fields_override_the_stat_line() {
        let d = build(
            &args("d6/2/1d6/4 d6/2/1d6/4 --b-skill d10 --b-armor 2d6"),
            &RuleOptions::default(),
        )
        .unwrap();
        assert_eq!(
            describe(d.b()),
            "B (Skill d10, Use 2, Damage 1d6, Armor 2d6)"
        );
        assert_eq!(describe(d.a()), "A (Skill d6, Use 2, Damage 1d6, Armor 4)");
    }

    #[test]
    fn a_bad_stat_line_names_its_side_and_field() {
        let opts = RuleOptions::default();
        let e = build(&args("d6/2/1d6 d6/2/1d6/4"), &opts).unwrap_err();
        assert!(
            e.message().contains("side A") && e.message().contains("SKILL/USE"),
            "{e}"
        );
        let e = build(&args("2d6/2/1d6/4 d6/2/1d6/4"), &opts).unwrap_err();
        assert!(e.message().contains("single Skill die"), "{e}");
        let e = build(
            &args("d6/2/1d6/4 d6/2/1d6/4 --trials 10 --replay-trial 10"),
            &opts,
        )
        .unwrap_err();
        assert!(e.message().contains("trials 0 to 9"), "{e}");
    }
}
