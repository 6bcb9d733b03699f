//! Squad duels: side A against side B on a line, turn by turn, until one side is gone.
//!
//! Each side is a list of catalog units with counts, or one unit filling a CP budget. The
//! sides start `distance` inches apart; turns alternate (who starts: a, b or a d6 roll-off).
//! On its side's turn each unit, in roster order:
//! 1. fights in Close Combat if an enemy is within an inch of it, without moving;
//! 2. else shoots if an enemy is within Range of a ranged weapon;
//! 3. else moves toward the nearest enemy (Half Speed when recovering from Disruption or in
//!    heavy armor; Sprinting by policy), stopping in contact (melee) or at Range (shooters).
//!    Enemies with a saved Action may strike it first (the `response` policy); if it
//!    survives and is not Disrupted, it then attacks.
//!
//! A unit that does not act keeps its Action for a Response in the enemy's turn (Ch. 4.3).
//! Ch. 10's creatures fight by their own rules: Vermin are stomped at Use 0; a Contagious
//! Bite converts a minifig, who rises on the biters' side at their next turn; a side with
//! more than one Incompetent unit hands one to the enemy each turn (Stupidity); Mediks
//! revive the fallen with Amputations; Constructs lose Modular Parts; Spawners return
//! fallen Cannon Fodder; a fallen Thrall may give its Master an Instant Benny; SuperNatural
//! units spend their dice by the `spend` policy (Damage, a 10amyte, a ward, Blessings,
//! Curses). Units standing and Minds converted are tallied turn by turn.
//! Attacks are [`AttackPlan`]s, one per (attacker kind, weapon, target kind), built once;
//! the rules around them are in [`crate::rules::combat`]. What the line leaves out, and why
//! it does not bias the questions asked of it, is in docs/model.md.
//!
//! A battle is played in one of three forms, chosen once per question (issue 27): the
//! general turn; its plain form, compiled without the creature, SN, fire, Explosive and
//! automatic-weapon branches when no unit needs them; and the line form, for a plain
//! battle of one-weapon melee fighters, on a few arrays. All three play the same rules and
//! draw the same dice (differential tests hold them together).
//!
//! - [`kind`]: a catalog unit as the duel fights it.
//! - [`roster`]: `NAME*COUNT` lists and CP budgets.
//! - [`policy`]: targeting, Response and Sprint policies per side.
//! - [`tally`]: outcomes and their sums.

pub mod board;
pub mod kind;
pub mod policy;
pub mod roster;
pub mod tally;

mod battle;
mod fielded;
mod setup;

use crate::catalog::Catalog;
use crate::catalog::cost::breakdown;
use crate::catalog::cp::Cp;
use crate::catalog::unit::{self, Unit};
use crate::dice::SkillRoll;
use crate::dice::expr::RollPlan;
use crate::dice::skill::{SkillError, SkillPlan};
use crate::dice::{Die, Expr};
use crate::rules::attack::{AttackPlan, Attacker, PlainAttack};
use crate::rules::explosion::ExplosionPlan;
use crate::rules::{
    ArmorTie, Cutting, RuleOptions, Stacking, Stupidity, Usefulness, combat, supernatural,
};
use crate::scenario::blast::Launch;

pub use kind::{Inert, Kind, KindError, Summons};
pub use policy::{
    AreaAim, AutoFire, Bail, Conduct, Divert, Formation, Lob, Policy, PolicyError, Position,
    Response, Spacing, Spend, Sprint, Targeting, Throw,
};
pub use tally::{SquadOutcome, SquadTally};

use super::duel::First;
use roster::MAX_PER_SIDE;

/// One side: its units (kind and count) and its policies.
#[derive(Clone, Debug)]
pub struct SideSpec {
    /// Each kind of unit and how many.
    pub units: Vec<(Kind, u32)>,
    /// The side's policies.
    pub policy: Policy,
}

impl SideSpec {
    /// Looks `units` up in `catalog` and prices each kind by the CP calculator.
    pub fn from_catalog(
        catalog: &Catalog,
        units: &[(String, u32)],
        policy: Policy,
        opts: &RuleOptions,
    ) -> Result<SideSpec, SideError> {
        let mut out = Vec::new();
        let mut built = Vec::new();
        for (entry, n) in units {
            // `wizard@bless`: this unit's own spend policy (Ch. D.4 Aspects);
            // `mystik@arm:hand-weapon`: the item its `arm` policy summons (Ch. D.3).
            let (key, spend, item) = match entry.split_once('@') {
                None => (entry.as_str(), None, None),
                Some((k, p)) => {
                    let (p, item) = match p.split_once(':') {
                        Some((p, i)) => (p.trim(), Some(i.trim())),
                        None => (p.trim(), None),
                    };
                    let s = Spend::named(p).ok_or_else(|| SideError::NotASpend {
                        entry: entry.clone(),
                        policy: p.to_string(),
                    })?;
                    if item.is_some() != (s == Spend::Arm) {
                        return Err(SideError::ItemWithoutArm {
                            entry: entry.clone(),
                            key: k.trim().to_string(),
                        });
                    }
                    (k.trim(), Some(s), item)
                }
            };
            let key = &key.to_string();
            let u = catalog
                .equipped(key)
                .map_err(|e| SideError::Unknown(e.to_string()))?;
            let mut kind = Kind::from_unit(&u, breakdown(&u).total(), opts).map_err(|e| {
                SideError::CannotFight {
                    kind: e.key,
                    message: e.message,
                    key: key.clone(),
                    armed: catalog
                        .units()
                        .map(|x| x.key.clone())
                        .filter(|k| k.starts_with(&format!("{key}-")))
                        .collect(),
                }
            })?;
            if spend.is_some() {
                if kind.sn.is_empty() {
                    return Err(SideError::NoSnDice {
                        entry: entry.clone(),
                        key: key.clone(),
                    });
                }
                kind.key = entry.trim().to_string();
                kind.spend = spend;
            }
            if kind.sn.contains(&Die::D4) {
                let u = catalog
                    .equipped("4pion")
                    .map_err(|e| SideError::Unknown(e.to_string()))?;
                let pion = Kind::diemon(&u, opts).map_err(|e| SideError::Fourpion(e.message))?;
                kind.fourpion = Some(Box::new(pion));
            }
            if let Some(item) = item {
                kind.summons =
                    Some(summons(catalog, key, &kind, item, opts).map_err(SideError::Summons)?);
            }
            if kind.summons.is_none()
                && !kind.sn.is_empty()
                && kind.spend.unwrap_or(policy.spend) == Spend::Arm
            {
                return Err(SideError::ArmWithoutItem {
                    entry: entry.clone(),
                    key: key.clone(),
                });
            }
            out.push((kind, *n));
            built.push(u);
        }
        let lent = teamwork(&mut out, &built, opts).map_err(SideError::Crew)?;
        short_of_power(&mut out, &built, lent, policy);
        Ok(SideSpec { units: out, policy })
    }
}

/// Why a side cannot be built from a catalog ([`SideSpec::from_catalog`]): each says what
/// was given and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SideError {
    /// `UNIT@POLICY` names no spend policy.
    #[error("{entry}: {policy:?} is not a spend policy ({})", Spend::names().join(", "))]
    NotASpend {
        /// The roster entry.
        entry: String,
        /// The policy named.
        policy: String,
    },
    /// An item given without the `arm` policy, or `arm` given without an item.
    #[error(
        "{entry}: an item goes with the arm policy only, and it needs one (hint: {key}@arm:hand-weapon)"
    )]
    ItemWithoutArm {
        /// The roster entry.
        entry: String,
        /// The unit's key.
        key: String,
    },
    /// The catalog has no such unit or item (its message names the entry and a hint).
    #[error("{0}")]
    Unknown(String),
    /// Kind `kind` of catalog unit `key` cannot fight a squad battle as it is; `armed`
    /// lists the catalog's armed versions of it.
    #[error("{kind} {message} (hint: {})", equip_hint(.key, .armed))]
    CannotFight {
        /// The kind's name.
        kind: String,
        /// Why it cannot fight.
        message: String,
        /// The unit's catalog key.
        key: String,
        /// The catalog's armed versions of it.
        armed: Vec<String>,
    },
    /// A spend policy on a unit with no SuperNatural dice.
    #[error("{entry}: {key} has no SuperNatural dice to spend (hint: drop @...)")]
    NoSnDice {
        /// The roster entry.
        entry: String,
        /// The unit's key.
        key: String,
    },
    /// The `arm` policy with no item to summon.
    #[error(
        "{entry}: the arm policy needs the item to summon (hint: {key}@arm:hand-weapon in the roster)"
    )]
    ArmWithoutItem {
        /// The roster entry.
        entry: String,
        /// The unit's key.
        key: String,
    },
    /// The 4pion its SN d4s summon cannot be built.
    #[error("4pion: {0}")]
    Fourpion(String),
    /// The item its `arm` policy summons cannot be.
    #[error("{0}")]
    Summons(String),
    /// A Gunner with nothing to crew.
    #[error("{0}")]
    Crew(String),
}

/// How to arm unit `key`: its armed versions in the catalog, or an item.
fn equip_hint(key: &str, armed: &[String]) -> String {
    if armed.is_empty() {
        format!("equip it, e.g. {key}+hand-weapon")
    } else {
        format!(
            "armed versions: {}; or equip it, e.g. {key}+hand-weapon",
            armed.join(", ")
        )
    }
}

impl SideSpec {
    /// What the side fields that costs CP and does nothing ([`side_inert`]).
    pub fn inert(&self) -> Vec<(String, Inert)> {
        let kinds: Vec<&Kind> = self.units.iter().map(|(k, _)| k).collect();
        side_inert(&kinds, self.policy.spend)
    }
}

/// What a side of `kinds` (its SN units spending by `spend` unless their own) fields that
/// costs CP and does nothing: each kind's inert parts (with its kind), the Specialties whose
/// partner the side lacks, and SN dice kept in hand.
pub fn side_inert(kinds: &[&Kind], spend: Spend) -> Vec<(String, Inert)> {
    let has = |f: fn(&Kind) -> bool| kinds.iter().any(|k| f(k));
    let mut v = Vec::new();
    for kind in kinds {
        for x in &kind.inert {
            v.push((kind.key.clone(), x.clone()));
        }
        // Ch. 10.4 Masters and Thralls: each needs the other on its side.
        for (is, partner, name, lack) in [
            (
                kind.master,
                has(|k| k.thrall),
                "master",
                "no Thrall on its side",
            ),
            (
                kind.thrall,
                has(|k| k.master),
                "thrall",
                "no Master on its side",
            ),
        ] {
            if is && !partner {
                v.push((
                    kind.key.clone(),
                    Inert {
                        part: format!("Specialty: {name}"),
                        cp: crate::catalog::cost::SPECIALTY,
                        why: lack.into(),
                    },
                ));
            }
        }
        if !kind.sn.is_empty() && kind.spend.unwrap_or(spend) == Spend::Hold {
            v.push((
                kind.key.clone(),
                Inert {
                    part: "SuperNatural dice".into(),
                    cp: kind
                        .sn
                        .iter()
                        .filter_map(|d| crate::catalog::cost::sn_die(*d))
                        .sum(),
                    why: "the spend policy hold never spends them".into(),
                },
            ));
        }
    }
    v
}

/// Ch. 8.1 Teamwork: "Creations using teamwork add their Effective Sizes together for the
/// purpose of satisfying a weapon's Power requirement". A side's crew Gunners (Ch. 8.5) lend
/// their Power to its mounted Launchers and Cannons, so a gun beyond its own unit's Power
/// is worked when enough of them stand in contact; without them it stays inert. Returns
/// the Power the side's crew could lend.
fn teamwork(out: &mut [(Kind, u32)], built: &[Unit], opts: &RuleOptions) -> Result<u32, String> {
    let lent: u32 = out
        .iter()
        .filter(|(k, _)| k.crew())
        .map(|(k, n)| n.saturating_mul(k.power.inches(k.size)))
        .fold(0, u32::saturating_add);
    if lent == 0 {
        return Ok(0);
    }
    // Only a carriage's gun takes teamwork (a mounted gun is one on a carriage, Ch. 8.1),
    // and of the build only the Explosive delivery depends on `lent`.
    for ((kind, _), u) in out.iter_mut().zip(built) {
        if kind.crew() || !kind.carriage {
            continue;
        }
        let k = Kind::with_teamwork(u, kind.cp, opts, lent)
            .map_err(|e| format!("{} {}", e.key, e.message))?;
        kind.explosives = k.explosives;
        kind.inert = k.inert;
        kind.team = k.team;
    }
    Ok(lent)
}

/// A weapon beyond its unit's Power at full Size that neither teamwork (a mounted gun and
/// `lent` inches of crew Power) nor Diverting All Power (the side's `divert` policy, Ch.
/// 8.1) ever works: named as priced but inert, since no strike picks it.
fn short_of_power(out: &mut [(Kind, u32)], built: &[Unit], lent: u32, policy: Policy) {
    for ((kind, _), u) in out.iter_mut().zip(built) {
        let own = kind.power.inches(kind.size);
        let diverts = policy.divert != Divert::Never && kind.power != unit::Power::Half;
        let idle: Vec<(String, u32)> = kind
            .arms
            .iter()
            .filter_map(|a| Some((a, a.power?)))
            .filter(|&(a, p)| p > own && !diverts && !(a.mounted && p <= own + lent))
            .map(|(a, p)| (a.name.clone(), p))
            .collect();
        for (name, p) in idle {
            let cp = u
                .weapons
                .iter()
                .find(|w| w.name() == name)
                .and_then(|w| w.cost())
                .unwrap_or(Cp::ZERO);
            kind.inert.push(Inert {
                part: name,
                cp,
                why: format!(
                    "{p}\" of Power to work and it has {own}\" (Ch. 8.1: Diverting All Power, \
                     policy `divert`, or crew Gunners' teamwork on a mounted gun would work it)"
                ),
            });
        }
    }
}

/// What unit `key` (as `kind`) summons with the `arm` policy: `item`, priced by its length
/// (Ch. D.3 Summoned Items), and the unit holding it.
fn summons(
    catalog: &Catalog,
    key: &str,
    kind: &Kind,
    item: &str,
    opts: &RuleOptions,
) -> Result<Summons, String> {
    let price = supernatural::item_length(item)
        .map(|(l, ranged)| supernatural::item_price(l, ranged))
        .ok_or_else(|| {
            format!(
                "{key}@arm:{item}: diemon knows the SN Price of the minifig weapons only ({})",
                supernatural::ITEM_LENGTHS
                    .iter()
                    .map(|x| x.0)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
    let u = catalog
        .equipped(&format!("{key}+{item}"))
        .map_err(|e| e.to_string())?;
    let mut armed = Kind::from_unit(&u, kind.cp, opts).map_err(|e| e.message)?;
    armed.key = kind.key.clone();
    armed.spend = kind.spend;
    Ok(Summons {
        item: item.to_string(),
        price,
        armed: Box::new(armed),
    })
}

/// A squad duel, validated, with every attack resolved once.
#[derive(Clone, Debug)]
pub struct Squad {
    kinds: Vec<Kind>,
    /// Every unit in roster order, side A first: (side 0 or 1, kind index).
    roster: Vec<(u8, u16)>,
    count: [usize; 2],
    policy: [Policy; 2],
    distance: u32,
    first: First,
    max_turns: u32,
    opts: RuleOptions,
    /// `plans[(attacker kind * weapons + weapon) * kinds + target kind]`.
    plans: Vec<Option<AttackPlan>>,
    /// The same plans where they are plain d6 attacks ([`PlainAttack::all_d6`]): the plain
    /// form rolls those specialised (issue 27), drawing the same dice.
    quick: Vec<Option<PlainAttack>>,
    weapons: usize,
    /// Each kind's own Skill roll, for Sprinting (Ch. 4.1) and Parrying (Ch. 8.2).
    skill: Vec<SkillPlan>,
    /// A side of nothing but Vermin attacks as a Swarm, ignoring the Close Combat limit.
    all_vermin: [bool; 2],
    /// Some kind carries Monstrous Contagion / is Stupid: the checks a plain duel skips.
    any_contagion: bool,
    any_stupid: bool,
    /// Some unit may fight for the other side during a trial (Contagion, Stupidity).
    sides_move: bool,
    /// Some kind owns SuperNatural dice / is a Medik.
    any_sn: bool,
    /// The `spend` policies the battle's SN units follow, a bit each ([`Squad::spends`]):
    /// the defences and hexes are asked for only where some unit uses them.
    spends: u32,
    any_medik: bool,
    /// Each kind's Armor, resolved for rolling.
    armor: Vec<RollPlan>,
    /// The 10amyte's self-destruct: "a 1d10 Explosion" (Ch. D.1).
    amyte: ExplosionPlan,
    /// Some Thrall has a Master on its side.
    any_thrall: bool,
    /// Usefulness is the `masters` rule and some kind is Submissive or Subjugated.
    any_useless: bool,
    /// Some unit carries a Spawner.
    any_spawner: bool,
    /// Some unit may lose limbs (Mediks' Amputations, Constructs' Modular Parts).
    any_limbs: bool,
    /// Each kind's Skill roll Blessed by one SN die of each size in `Die::ALL`, where the
    /// die may Bless it (Ch. D.4).
    blessed: Vec<[Option<SkillPlan>; 6]>,
    /// The same Cursed.
    cursed: Vec<[Option<SkillPlan>; 6]>,
    /// An SN Mind's Action roll, one per die in `Die::ALL` (Ch. D.4 Minds and Specialties).
    minds: [SkillPlan; 6],
    /// Kinds fielded by the rosters; the kinds after them are units holding the item they
    /// summon, and `bare` gives each kind the one it is without it (itself if fielded).
    fielded: usize,
    bare: Vec<u16>,
    /// Fielded units: the roster's slots after them hold 4pions, one per SN d4 of a unit
    /// that summons, with (that unit's slot, the d4's bit) in `pions` (Ch. D.1).
    units: usize,
    pions: Vec<(u8, u8)>,
    /// Some minifig may catch Fire: from SN d4s of Damage, a 4pion or a weapon's Fire
    /// damage (a FlameThrower, Ch. 8.3).
    any_fire: bool,
    /// A side throws hand weapons (its `throw` policy) and carries one to throw (Ch. 8.4).
    any_throw: bool,
    /// A side Diverts All Power (its `divert` policy) and fields a kind with a weapon its
    /// Power may fall short of (Ch. 8.1).
    any_divert: bool,
    /// A side fires its Explosives beyond 12" (its `lob` policy) and has some that fly that
    /// far (Ch. 8.4 Trajectories).
    any_lob: bool,
    /// Where the creature rules above join the turn ([`battle::Hooks`]).
    hooks: battle::Hooks,
    /// None of the rules behind the flags above (creatures that join the turn, SuperNatural
    /// dice, fire and limbs, Explosives, automatic weapons, Gunners, Bail): the trial runs
    /// its plain form, compiled without those branches (issue 27). A kind's own traits
    /// (Vermin, Cannon Fodder, shields, Heavy Armor) are read per unit in both forms.
    plain: bool,
    /// The battle in the line form, where it qualifies ([`battle::Line::of`]): a plain
    /// battle of melee fighters, played on a few arrays (issue 27).
    line: Option<battle::Line>,
    /// Half-inches of table behind each side's starting line: no unit steps back past it.
    room: i32,
    /// The farthest, in half-inches, that a unit of each side may stand from a mover and
    /// still Respond to it (contact, the Angry Inch, or its longest Range): the plain form
    /// skips the Responses to a move when the nearest enemy stands farther.
    answers: [i32; 2],
    /// Each slot's place across the line in inches: its side's figures stand abreast,
    /// `spacing` apart and centred on the line (a 4pion where its summoner stands).
    lateral: Vec<f64>,
    /// Every figure starts on one line across (every `lateral` equal) and nothing moves one
    /// off it (no Explosion, which pushes and scatters away from a burst off the line):
    /// the figures stay on that line, and a distance is a difference of positions
    /// ([`battle`]'s `plane`).
    flat: bool,
    /// Each slot's starting position along the line, in half-inches: its side's line, less
    /// its rank's depth behind it (the side's `formation` policy; Ch. 4 leaves it to the
    /// player).
    start: Vec<i32>,
    /// Some unit carries Explosives; each kind's Action roll to deliver them (its Skill
    /// against the delivery's Use) and their Explosion (XSize d10 Exp, Ch. 8.4).
    any_explosive: bool,
    /// Some unit carries an automatic weapon, which sweeps a Firing Arc (Ch. 8.3).
    any_arc: bool,
    /// Some side fields Gunners to crew its mounted gun (Ch. 8.5).
    any_crew: bool,
    /// `any_crew || any_arc || any_dodge`: one check in the hot ranged Action.
    gunnery_or_arc: bool,
    /// Some side Bails from shots (`bail = all`, Ch. 4.3).
    any_dodge: bool,
    /// Some side Bails out of Explosions (Ch. 4.3).
    any_bail: bool,
    /// Explosions may fall (Explosives, a 10amyte) and their Damage stacks
    /// (`stacking=cumulative`): each figure keeps its turn's Explosive Damage.
    stacks: bool,
    launches: Vec<Option<AttackPlan>>,
    /// The table the battle stands on ([`Squad::on_table`]), if any.
    board: Option<std::sync::Arc<board::Board>>,
    /// Each kind's Explosion, and the same with an Overskill Benny's extra die.
    explosions: Vec<Option<[ExplosionPlan; 2]>>,
}

/// Inches of table behind each side's starting line by default: a 4' table with the sides
/// a foot in from its ends at 24" apart.
pub const ROOM: u32 = 12;

/// Inches between the squads when a question names no distance, off a table.
pub const DISTANCE: u32 = 12;

/// Why a squad duel cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SquadError {
    /// The side so named fields no unit.
    Empty(char),
    /// The side so named fields more units than a side holds.
    TooMany(char),
    /// More 4pions than the slots left after the fielded units.
    Diemons(usize),
    /// A Gunner with no weapon of its own on a side with no gun it could crew.
    Crew(char, String),
}

impl std::fmt::Display for SquadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SquadError::Empty(s) => write!(f, "side {s} has no units"),
            SquadError::TooMany(s) => write!(f, "side {s} has more than {MAX_PER_SIDE} units"),
            SquadError::Diemons(n) => write!(
                f,
                "the units and the {n} 4pions their SN d4s may summon fill more than {} slots \
                 (hint: field fewer units that summon, or spend their d4s otherwise)",
                2 * MAX_PER_SIDE
            ),
            SquadError::Crew(s, key) => write!(
                f,
                "side {s}: {key} has no weapon and crews a mounted gun of 2\" or more, and side \
                 {s} fields none (Ch. 8.5 Gunnery Support; hint: add a unit such as gunner-cannon)"
            ),
        }
    }
}

impl Squad {
    /// Sides `a` and `b`, `distance` inches apart; a draw after `max_turns` player turns.
    pub fn new(
        a: SideSpec,
        b: SideSpec,
        distance: u32,
        first: First,
        max_turns: u32,
        opts: RuleOptions,
    ) -> Result<Squad, SquadError> {
        let (mut kinds, mut roster, count) = setup::fielded(&a, &b)?;
        let units = roster.len();
        let setup::Summoned {
            fielded,
            bare,
            pions,
        } = setup::summoned(&mut kinds, &mut roster, [a.policy.spend, b.policy.spend]);
        if roster.len() > 2 * MAX_PER_SIDE as usize {
            return Err(SquadError::Diemons(roster.len() - units));
        }
        let has_pions = !pions.is_empty();
        let (plans, weapons) = setup::attack_plans(&kinds, &opts);
        let all_vermin = [&a, &b].map(|s| s.units.iter().all(|(k, _)| k.vermin));
        let blessed = setup::with_one(&kinds, &opts, SkillRoll::blessed);
        let cursed = setup::with_one(&kinds, &opts, SkillRoll::cursed);
        let (lateral, start) = setup::places([&a, &b], count, &roster, &pions, distance);
        let (launches, explosions) = setup::explosives(&kinds, &opts);
        let mut squad = Squad {
            flat: true,
            lateral,
            start,
            any_explosive: kinds.iter().any(|k| k.explosives.is_some()),
            any_arc: kinds
                .iter()
                .any(|k| k.arms.iter().any(|a| a.auto.is_some())),
            gunnery_or_arc: false,
            any_bail: a.policy.bail != Bail::Never || b.policy.bail != Bail::Never,
            any_throw: setup::any_throw([&a, &b]),
            any_divert: setup::any_divert([&a, &b]),
            any_lob: setup::any_lob([&a, &b]),
            stacks: opts.stacking == Stacking::Cumulative
                && kinds
                    .iter()
                    .any(|k| k.explosives.is_some() || !k.sn.is_empty()),
            any_dodge: a.policy.bail == Bail::All || b.policy.bail == Bail::All,
            any_crew: setup::any_side([&a, &b], Kind::crew, |k| k.team >= 2),
            launches,
            board: None,
            explosions,
            hooks: battle::Hooks::default(),
            plain: false,
            line: None,
            room: 2 * ROOM as i32,
            answers: [0; 2],
            units,
            any_fire: has_pions || kinds.iter().any(Kind::sets_fire),
            pions,
            fielded,
            bare,
            cursed,
            minds: Die::ALL.map(|d| SkillRoll::new(d).plan(&opts)),
            armor: kinds.iter().map(|k| k.armor.plan(&opts)).collect(),
            amyte: ExplosionPlan::new(&Expr::parse("1d10 exp").expect("parses"), &opts)
                .expect("an Exp die explodes"),
            any_sn: kinds.iter().any(|k| !k.sn.is_empty()),
            spends: setup::spends([&a, &b]),
            any_medik: kinds.iter().any(|k| k.medik.is_some()),
            any_spawner: kinds.iter().any(|k| k.spawn > 0),
            any_useless: opts.usefulness == Usefulness::Masters
                && kinds.iter().any(|k| k.submissive || k.subjugated),
            any_thrall: setup::any_side([&a, &b], |k| k.master, |k| k.thrall),
            // Burning takes limbs too (Ch. 8.3), and so does a cutting weapon's tie under
            // Dismemberment (Ch. 10.2).
            any_limbs: (opts.armor_tie == ArmorTie::Dismemberment && opts.cutting != Cutting::None)
                || kinds
                    .iter()
                    .any(|k| k.medik.is_some() || k.connection.is_some() || k.sets_fire()),
            blessed,
            skill: kinds.iter().map(|k| k.skill.plan(&opts)).collect(),
            all_vermin,
            any_contagion: kinds.iter().any(Kind::contagious),
            any_stupid: kinds.iter().any(|k| k.stupid),
            sides_move: has_pions
                || setup::any_spend([&a, &b], Spend::Control)
                || kinds.iter().any(Kind::contagious)
                || (kinds.iter().any(|k| k.stupid) && opts.stupidity != Stupidity::Off)
                || (opts.usefulness == Usefulness::Masters
                    && kinds.iter().any(|k| k.submissive || k.subjugated)),
            kinds,
            roster,
            count,
            policy: [a.policy, b.policy],
            distance,
            first,
            max_turns,
            opts,
            quick: setup::quick(&plans),
            plans,
            weapons,
        };
        squad.gunnery_or_arc = squad.any_crew || squad.any_arc || squad.any_dodge;
        for &(side, kind) in &squad.roster {
            let k = &squad.kinds[kind as usize];
            let range = 2 * k.reach().unwrap_or(0) as i32;
            let a = &mut squad.answers[side as usize];
            *a = (*a).max(battle::RESPONSE_REACH).max(range);
        }
        squad.flat = setup::flat(&squad.lateral, squad.any_explosive);
        squad.hooks = battle::Hooks::of(&squad);
        squad.plain = squad.is_plain();
        squad.line = battle::Line::of(&squad);
        Ok(squad)
    }

    /// The same battle with `inches` of table behind each side's starting line: how far a
    /// shooter keeping its range may step back.
    pub fn with_room(mut self, inches: u32) -> Squad {
        self.room = 2 * inches as i32;
        self
    }

    /// The kinds in roster order, side A's first.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds[..self.fielded]
    }

    /// Units per side.
    pub fn count(&self) -> [usize; 2] {
        self.count
    }

    /// Units of kind `kind`.
    pub fn units_of(&self, kind: usize) -> usize {
        self.roster
            .iter()
            .filter(|(_, k)| *k as usize == kind)
            .count()
    }

    /// Side 0 (A) or 1 (B)'s policies.
    pub fn policy(&self, side: usize) -> &Policy {
        &self.policy[side]
    }

    /// The rule options it fights under.
    pub fn opts(&self) -> &RuleOptions {
        &self.opts
    }

    /// Whether some unit carries Monstrous Contagion.
    pub fn contagious(&self) -> bool {
        self.any_contagion
    }

    /// Whether some unit is a Medik who can operate.
    /// Some unit carries Explosives it can deliver.
    pub fn explosives(&self) -> bool {
        self.any_explosive
    }

    /// Some unit of side `side` (0 or 1) carries Explosives it can deliver.
    pub fn explosives_on(&self, side: u8) -> bool {
        self.roster
            .iter()
            .any(|&(s, k)| s == side && self.kinds[k as usize].explosives.is_some())
    }

    /// Some unit carries an automatic weapon (Ch. 8.3).
    pub fn automatic(&self) -> bool {
        self.any_arc
    }

    /// Some unit of side `side` carries an automatic weapon.
    pub fn automatic_on(&self, side: u8) -> bool {
        self.roster.iter().any(|&(s, k)| {
            s == side && self.kinds[k as usize].arms.iter().any(|a| a.auto.is_some())
        })
    }

    /// Whether some unit is a Medik who can operate.
    pub fn mediks(&self) -> bool {
        self.any_medik
    }

    /// The player-turn limit.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// The side of each kind (0 for A, 1 for B).
    pub fn kind_side(&self, kind: usize) -> u8 {
        self.roster
            .iter()
            .find(|(_, k)| *k as usize == kind)
            .map_or(0, |(s, _)| *s)
    }

    /// What side `side` fields that costs CP and does nothing in this battle
    /// ([`side_inert`]).
    pub fn inert(&self, side: u8) -> Vec<(String, Inert)> {
        let mine: Vec<&Kind> = (0..self.fielded)
            .filter(|&k| self.kind_side(k) == side)
            .map(|k| &self.kinds[k])
            .collect();
        side_inert(&mine, self.policy[side as usize].spend)
    }

    /// The CP side `side` pays for parts that do nothing in this battle, over every unit.
    pub fn inert_cp(&self, side: u8) -> Cp {
        let mut total = Cp::ZERO;
        for (key, x) in self.inert(side) {
            let n = (0..self.fielded)
                .filter(|&k| self.kinds[k].key == key && self.kind_side(k) == side)
                .map(|k| self.units_of(k))
                .sum::<usize>();
            total = total + x.cp * n as i64;
        }
        total
    }

    /// Where the plan of `attacker`'s `weapon` against `target` (kinds) stands in `plans`
    /// and `quick`.
    #[inline(always)]
    fn plan_index(&self, attacker: usize, weapon: usize, target: usize) -> usize {
        (attacker * self.weapons + weapon) * self.kinds.len() + target
    }

    #[inline]
    fn plan(&self, attacker: usize, weapon: usize, target: usize) -> &AttackPlan {
        self.plan_at(self.plan_index(attacker, weapon, target))
    }

    #[inline(always)]
    fn plan_at(&self, index: usize) -> &AttackPlan {
        self.plans[index]
            .as_ref()
            .expect("a plan exists for every weapon a kind has")
    }

    /// The plan at `index` as a plain d6 attack, if it is one.
    #[inline(always)]
    fn quick(&self, index: usize) -> Option<&PlainAttack> {
        self.quick[index].as_ref()
    }
}

/// The Skill die a unit rolls with a weapon: "Gunnery allows the Gunner to roll their
/// Specialty d8 rather than their Action d6" with a mounted weapon (Ch. 8.5).
fn gunnery_skill(k: &Kind, mounted: bool) -> SkillRoll {
    if k.gunnery && mounted {
        SkillRoll::new(Die::D8)
    } else {
        k.skill
    }
}
