//! `diemon blast`: a turn of Explosive fire at a formation, seeded Monte Carlo.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::duel::{parse_count, parse_trials};
use super::runs::{RunFlags, ended, finish};
use super::{Failure, io};
use crate::analysis::Estimate;
use crate::catalog::armory::item_named;
use crate::catalog::cost::breakdown;
use crate::catalog::weapon::{Damage as WDamage, Reach, WeaponKind};
use crate::catalog::{Cp, Unit};
use crate::dice::Expr;
use crate::dice::{Die, Entry, Narration, SkillRoll};
use crate::rules::{RuleOptions, combat};
use crate::scenario::Scenario;
use crate::scenario::blast::arc::{ArcFire, ArcSpec, Gun, Weapon};
use crate::scenario::blast::{
    Aim, BlastOutcome, BlastTally, Delivery, Dud, Formation, Launch, Scatter, Stability, Target,
    Variant, Volley, VolleySpec, Wall,
};
use crate::sim::engine::{Engine, Run};
use crate::sim::tally::Moments;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum WeaponArg {
    Launcher,
    Cannon,
    Rocket,
    Thrown,
    /// Arc fire, by Weapon Size (Ch. 8.3).
    MachineGun,
    BlastGun,
    FlameThrower,
    /// The minifig Bastard guns (Ch. 8.1): arc fire with their table stats.
    Shotgun,
    Autogun,
    Flamegun,
}

impl WeaponArg {
    fn arc_fire(self) -> bool {
        !matches!(
            self,
            WeaponArg::Launcher | WeaponArg::Cannon | WeaponArg::Rocket | WeaponArg::Thrown
        )
    }
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon blast                                       a 3\" Launcher, XSize 1 missiles, 25 minifigs at 18\"
  diemon blast --formation grid:5x5 --spacing 1 --distance 18 --json
  diemon blast --weapon cannon --size 2 --xsize 2 --shooter gunner --support 1
  diemon blast --weapon thrown --use 3 --distance 4 --formation cluster:7
  diemon blast --weapon rocket --xsize 3 --formation line:10 --aim densest
  diemon blast --weapon machine-gun --size 2 --arc 2 --distance 6 --formation line:8
  diemon blast --weapon shotgun --distance 3 --formation cluster:7

One trial is one turn of fire (a Cannon's volley is two turns: fire, then reload). See
docs/model.md for where Missed Shots come down.")]
pub struct BlastArgs {
    /// What fires the Explosives.
    #[arg(long, value_enum, default_value_t = WeaponArg::Launcher)]
    pub weapon: WeaponArg,
    /// Weapon Size in inches (Launcher, Cannon).
    #[arg(long, default_value_t = 3)]
    pub size: u32,
    /// A MachineGun burst of N shots at the figure nearest the aim point, instead of arc fire.
    #[arg(long, value_name = "N")]
    pub burst: Option<u32>,
    /// Points of Firing Arc for arc fire (a finger gap each; option arc_point sets degrees).
    #[arg(long, default_value_t = 1)]
    pub arc: u32,
    /// Explosive Size of each missile, grenade, shell or Rocket, in bricks.
    #[arg(long, default_value_t = 1)]
    pub xsize: u32,
    /// Which Explosive Damage dice the Explosives carry (Ch. 8.4 Explosive Variants).
    #[arg(long, value_enum, default_value_t = Variant::Explosive)]
    pub variant: Variant,
    /// The Use of a thrown Explosive: its Close Combat Use, which the texts do not give.
    #[arg(long = "use", value_name = "USE")]
    pub use_rating: Option<i64>,
    /// Who fires (a catalog unit): its Skill die, or Gunnery's d8 on a mounted weapon.
    #[arg(long, default_value = "minifig")]
    pub shooter: String,
    /// Gunners giving Gunnery Support (+1 each; the team is at most the Weapon Size).
    #[arg(long, default_value_t = 0)]
    pub support: u32,
    /// The formation: grid:ROWSxCOLS, line:N, column:N, cluster:N, scatter:N:WIDTH.
    #[arg(long, default_value = "grid:5x5")]
    pub formation: String,
    /// Inches between neighbouring figures.
    #[arg(long, default_value_t = 1.5)]
    pub spacing: f64,
    /// The figures fired at (a catalog unit).
    #[arg(long, default_value = "minifig")]
    pub target: String,
    /// A wall among the targets: ARMOR@X,Y, Armor dice at an offset (inches) from the
    /// formation's centre, e.g. "3d10@0,2" (the Wall Demolition's wall, 2" behind).
    #[arg(long, value_name = "ARMOR@X,Y")]
    pub wall: Option<String>,
    /// Every figure carries an Explosive that the blasts can set off (Ch. 8.4 Premature
    /// Detonation).
    #[arg(long, value_enum, value_name = "STABILITY")]
    pub carrying: Option<Stability>,
    /// XSize of the carried Explosives.
    #[arg(long, default_value_t = 1)]
    pub carried_xsize: u32,
    /// Inches from the shooter to the formation's centre.
    #[arg(long, default_value_t = 18.0, allow_negative_numbers = true)]
    pub distance: f64,
    /// Where each shot is aimed: the formation's centre, or the standing figure with the
    /// most others within 2".
    #[arg(long, value_enum, default_value_t = Aim::Centre)]
    pub aim: Aim,
    /// Where a Missed Shot comes down.
    #[arg(long, value_enum, default_value_t = Scatter::Margin)]
    pub scatter: Scatter,
    /// Whether the defender declares critically failed Explosives duds.
    #[arg(long, value_enum, default_value_t = Dud::Declared)]
    pub dud: Dud,
    /// Trials (turns of fire) to run.
    #[arg(long, value_parser = parse_trials, allow_negative_numbers = true, default_value = "200000")]
    pub trials: u64,
    /// Stop once the 95% CI half-width of the mean kills is at most X.
    #[arg(long, value_name = "X")]
    pub target_ci: Option<f64>,
    /// The seed: the same seed gives the same digits on any thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one a core); the digits do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Narrate trial N of this run, die by die.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub replay_trial: Option<u64>,
    /// What `diemon run` tells the command about the cell it runs (hidden flags).
    #[command(flatten)]
    pub part: super::runs::CellArgs,
    /// A catalog file (TOML) whose units are added to the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object (no progress bar).
    #[arg(long)]
    pub json: bool,
}

pub fn run(
    a: &BlastArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let flags = flags(a);
    flags.check()?;
    if a.weapon.arc_fire() {
        let fire = build_arc(a, opts)?;
        let s = arc_summary(&fire, a);
        go(&fire, &s, &flags, a, opts, cancel, out)
    } else {
        explosive_flags(a)?;
        let volley = build(a, opts)?;
        let s = volley_summary(&volley, a);
        go(&volley, &s, &flags, a, opts, cancel, out)
    }
}

/// The run flags of a blast.
fn flags(a: &BlastArgs) -> RunFlags {
    RunFlags {
        trials: a.trials,
        target_ci: a.target_ci,
        // Half the range of the mean, as a duel's 0.5 is of a probability's: kills run
        // from 0 to the targets, so a wider half-width asks for nothing. An unreadable
        // formation is refused later, with its own message.
        max_half_width: Formation::parse(&a.formation, a.spacing)
            .map_or(f64::INFINITY, |f| f.len() as f64 / 2.0),
        ci_unit: "kills, half the number of targets at most; e.g. 0.01",
        seed: a.seed,
        part: a.part.clone(),
        threads: a.threads,
        replay: a.replay_trial,
        silent: a.quiet || a.json,
    }
}

/// `--arc` and `--burst` belong to automatic weapons, not Explosives.
fn explosive_flags(a: &BlastArgs) -> Result<(), Failure> {
    if a.arc != 1 || a.burst.is_some() {
        return Err(Failure::input(
            "--arc and --burst are for automatic weapons (machine-gun, blast-gun, \
             flame-thrower, shotgun, autogun, flamegun); Explosives burst in rings",
        ));
    }
    Ok(())
}

/// Checks a blast's flags exactly as `run` does, without running anything: what an
/// experiment checks of every cell before it writes anything.
pub(super) fn validate(a: &BlastArgs, opts: &RuleOptions) -> Result<(), Failure> {
    flags(a).check()?;
    if a.weapon.arc_fire() {
        build_arc(a, opts).map(|_| ())
    } else {
        explosive_flags(a)?;
        build(a, opts).map(|_| ())
    }
}

/// What the report says about the weapon and the targets, beyond the tally.
struct Summary {
    header: String,
    weapon: String,
    action_die: String,
    target: String,
    target_cp: f64,
    figures: usize,
    formation: String,
    distance: f64,
    out_of_range: i64,
    /// "turn" or "volley".
    per: &'static str,
    cp_weapon: Option<Cp>,
    cp_ammo: Cp,
    /// A wall stands among the targets.
    wall: bool,
}

fn go<S: Scenario<Outcome = BlastOutcome, Tally = BlastTally>>(
    scenario: &S,
    s: &Summary,
    flags: &RunFlags,
    a: &BlastArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let engine = flags.engine();
    if let Some(n) = a.replay_trial {
        return replay(scenario, s, &engine, n, a, opts, out);
    }
    let (run, threads) = flags.execute(&engine, scenario, "turns of fire", cancel)?;
    let text = if a.json {
        flags.json(json_report(s, &run, a, threads, opts), &run)?
    } else {
        table(s, &run, a, threads)
    };
    finish(&text, &run, out)
}

/// `ARMOR@X,Y`: a wall's Armor dice and its offset from the formation's centre.
fn parse_wall(text: &str) -> Result<Wall, Failure> {
    let bad = |why: String| {
        Failure::input(format!(
            "--wall {text:?}: {why}\nhint: write ARMOR@X,Y, e.g. 3d10@0,2 (Armor 3d10, 2\" behind the centre)"
        ))
    };
    let (armor, at) = text
        .split_once('@')
        .ok_or_else(|| bad("expected ARMOR@X,Y".into()))?;
    let armor = Expr::parse(armor.trim()).map_err(|e| bad(format!("Armor: {e}")))?;
    if armor.skill().is_some() {
        return Err(bad("Armor cannot hold a Skill die".into()));
    }
    let (x, y) = at
        .split_once(',')
        .ok_or_else(|| bad("expected X,Y after @".into()))?;
    let num = |v: &str| {
        v.trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite() && f.abs() <= 1000.0)
            .ok_or_else(|| bad(format!("{v:?} is not a number of inches")))
    };
    Ok(Wall {
        armor,
        at: (num(x)?, num(y)?),
    })
}

/// The shooter and the target unit, from the catalog.
fn units(a: &BlastArgs) -> Result<(Unit, Unit), Failure> {
    let catalog = super::unit::load(a.catalog.as_ref(), a.part.catalog_text.as_deref())?;
    let shooter = catalog
        .equipped(&a.shooter)
        .map_err(|m| Failure::input(format!("--shooter: {m}")))?;
    let target = catalog
        .equipped(&a.target)
        .map_err(|m| Failure::input(format!("--target: {m}")))?;
    Ok((shooter, target))
}

fn build(a: &BlastArgs, opts: &RuleOptions) -> Result<Volley, Failure> {
    let (shooter, target_unit) = units(a)?;
    let launch = match a.weapon {
        WeaponArg::Launcher => Launch::Launcher(a.size),
        WeaponArg::Cannon => Launch::Cannon(a.size),
        WeaponArg::Rocket => Launch::Rocket,
        WeaponArg::Thrown => Launch::Thrown {
            use_rating: a.use_rating.ok_or_else(|| {
                Failure::input(
                    "--weapon thrown needs --use: a thrown object has its Close Combat Use \
                     (Ch. 8.4), and the texts give none for an Explosive\nhint: --use 2 is a \
                     Hand Weapon's Use, --use 3 a Heavy Weapon's",
                )
            })?,
        },
        _ => {
            return Err(Failure::other(
                "an arc-fire weapon reached the Explosive path",
            ));
        }
    };
    if a.use_rating.is_some() && a.weapon != WeaponArg::Thrown {
        return Err(Failure::input(
            "--use sets a thrown object's Use; a Launcher, Cannon or Rocket has its own (Ch. 8.4)",
        ));
    }
    if !(1..=100).contains(&a.size) {
        return Err(Failure::input(format!(
            "--size {}: expected a Weapon Size of 1 to 100 inches",
            a.size
        )));
    }
    let delivery = Delivery::with_variant(launch, a.xsize, a.variant).map_err(Failure::input)?;
    let mounted = match launch {
        Launch::Launcher(w) | Launch::Cannon(w) => combat::mounted(w, shooter.spec.size),
        _ => false,
    };
    let gunner = shooter.spec.specialties.iter().any(|s| s == "gunnery");
    // Ch. 8.5: Gunnery rolls its d8 "rather than their Action d6" on mounted weapons.
    let skill = SkillRoll::new(if mounted && gunner {
        Die::D8
    } else {
        shooter.skill
    });
    let support = match launch {
        Launch::Launcher(w) | Launch::Cannon(w) => combat::gunnery_support(a.support, w)
            .ok_or_else(|| {
                Failure::input(format!(
                    "--support {}: the firing team (shooter and supporters) is at most the Weapon \
                     Size, {w} (Ch. 8.5)",
                    a.support
                ))
            })?,
        _ if a.support > 0 => {
            return Err(Failure::input(
                "--support: Gunnery Support helps with mounted weapons (a Launcher or Cannon)",
            ));
        }
        _ => 0,
    };
    let formation = Formation::parse(&a.formation, a.spacing).map_err(Failure::input)?;
    let target = Target::from_unit(&target_unit, breakdown(&target_unit).total(), opts);
    Volley::new(
        VolleySpec {
            delivery,
            skill,
            support,
            formation,
            target,
            distance: a.distance,
            aim: a.aim,
            scatter: a.scatter,
            dud: a.dud,
            wall: a.wall.as_deref().map(parse_wall).transpose()?,
            carried: a.carrying.map(|s| (s, a.carried_xsize)),
        },
        *opts,
    )
    .map_err(Failure::input)
}

/// A policy's command-line name.
fn name<T: ValueEnum>(v: T) -> String {
    v.to_possible_value()
        .map_or_else(String::new, |p| p.get_name().to_string())
}

fn volley_summary(v: &Volley, a: &BlastArgs) -> Summary {
    let d = v.delivery();
    let mut header = format!(
        "{} fired by {} (Action 1{}{})\n  at {} x {} ({}) {}\" away",
        d,
        a.shooter,
        v.skill().die(),
        if v.support() > 0 {
            format!(", Gunnery Support +{}", v.support())
        } else {
            String::new()
        },
        v.formation().len(),
        v.target().key,
        v.formation(),
        v.distance()
    );
    if let Some((st, x)) = v.carried() {
        header.push_str(&format!(
            ", each carrying an XSize {x} {} Explosive",
            name(st)
        ));
    }
    if let Some(w) = v.wall() {
        header.push_str(&format!(
            " and a wall (Armor {}) {}\" across, {}\" behind the centre",
            w.armor, w.at.0, w.at.1
        ));
    }
    if v.out_of_range() > 0 {
        header.push_str(&format!(
            " ({}\" Out of Range: -{} Action and Damage)",
            v.out_of_range(),
            v.out_of_range()
        ));
    }
    header.push('\n');
    Summary {
        header,
        weapon: d.to_string(),
        action_die: v.skill().die().to_string(),
        target: v.target().key.clone(),
        target_cp: v.target().cp.as_f64(),
        figures: v.formation().len(),
        formation: v.formation().to_string(),
        distance: v.distance(),
        out_of_range: v.out_of_range(),
        per: if d.turns == 1 { "turn" } else { "volley" },
        cp_weapon: Some(d.weapon_cp),
        cp_ammo: d.ammo_cp,
        wall: v.wall().is_some(),
    }
}

fn arc_summary(f: &ArcFire, a: &BlastArgs) -> Summary {
    let s = f.spec();
    let w = &s.weapon;
    let header = format!(
        "{} (Use {}, Range {}\", Damage {}) sweeping {} point{} of Firing Arc ({} degrees), \
         Auto Penalty -{}\n  fired by {} (Action 1{}) at {} x {} ({}) {}\" away\n",
        w.name,
        w.use_rating,
        w.range,
        w.damage,
        s.arc,
        if s.arc == 1 { "" } else { "s" },
        s.arc as f64 * f.opts().arc_point.degrees(),
        f.penalty(),
        a.shooter,
        s.skill.die(),
        s.formation.len(),
        s.target.key,
        s.formation,
        s.distance
    );
    Summary {
        header,
        weapon: w.name.clone(),
        action_die: s.skill.die().to_string(),
        target: s.target.key.clone(),
        target_cp: s.target.cp.as_f64(),
        figures: s.formation.len(),
        formation: s.formation.to_string(),
        distance: s.distance,
        out_of_range: 0,
        per: "turn",
        cp_weapon: w.cost,
        cp_ammo: Cp::ZERO,
        wall: false,
    }
}

fn build_arc(a: &BlastArgs, opts: &RuleOptions) -> Result<ArcFire, Failure> {
    if !(1..=100).contains(&a.size) {
        return Err(Failure::input(format!(
            "--size {}: expected a Weapon Size of 1 to 100 inches",
            a.size
        )));
    }
    let (shooter, target_unit) = units(a)?;
    // The automatic weapons all have a Use, a Range in inches and Damage dice; a catalog
    // entry without them is a bug, said as such rather than read as 0.
    let need = |what: &str, of: &str| Failure::other(format!("{of} has no {what} in the catalog"));
    let inches = |r: &Reach, of: &str| match r {
        Reach::Inches(n) => Ok(*n),
        _ => Err(need("Range in inches", of)),
    };
    let sized = |k: WeaponKind, gun: Gun| -> Result<Weapon, Failure> {
        let st = k.at(a.size).map_err(|e| Failure::input(e.to_string()))?;
        let damage = match &st.damage {
            WDamage::Dice(e) | WDamage::MinusDistance(e) => e.clone(),
            other => return Err(Failure::other(format!("{k} has no dice Damage: {other}"))),
        };
        Ok(Weapon {
            name: format!("{}\" {k}", a.size),
            gun,
            use_rating: st.use_rating.ok_or_else(|| need("Use", k.key()))? as i64,
            range: inches(&st.range, k.key())?,
            damage: Expr::parse(&damage).map_err(|e| Failure::other(e.to_string()))?,
            cost: Some(st.cost),
            knockback: 0,
        })
    };
    let named = |key: &str, gun: Gun| -> Result<Weapon, Failure> {
        let i = item_named(key).ok_or_else(|| Failure::other(format!("no item {key}")))?;
        Ok(Weapon {
            name: i.name.to_string(),
            gun,
            use_rating: i.use_rating.ok_or_else(|| need("Use", key))? as i64,
            range: inches(&i.range, key)?,
            damage: Expr::parse(i.damage.ok_or_else(|| need("Damage", key))?)
                .map_err(|e| Failure::other(e.to_string()))?,
            cost: i.cost,
            knockback: i.knockback,
        })
    };
    let weapon = match a.weapon {
        WeaponArg::MachineGun => sized(WeaponKind::MachineGun, Gun::MachineGun)?,
        WeaponArg::BlastGun => sized(WeaponKind::BlastGun, Gun::BlastGun)?,
        WeaponArg::FlameThrower => sized(WeaponKind::FlameThrower, Gun::FlameThrower)?,
        WeaponArg::Shotgun => named("shotgun", Gun::BlastGun)?,
        WeaponArg::Autogun => named("autogun", Gun::MachineGun)?,
        WeaponArg::Flamegun => named("flamegun", Gun::FlameThrower)?,
        _ => {
            return Err(Failure::other(
                "an Explosive weapon reached the arc-fire path",
            ));
        }
    };
    if a.support > 0
        || a.use_rating.is_some()
        || a.xsize != 1
        || a.variant != Variant::Explosive
        || a.wall.is_some()
        || a.carrying.is_some()
    {
        return Err(Failure::input(
            "--support, --use, --xsize, --variant, --wall and --carrying are for Explosives; arc \
             fire takes --size and --arc",
        ));
    }
    let formation = Formation::parse(&a.formation, a.spacing).map_err(Failure::input)?;
    let target = Target::from_unit(&target_unit, breakdown(&target_unit).total(), opts);
    ArcFire::new(
        ArcSpec {
            weapon,
            arc: a.arc,
            burst: a.burst,
            skill: SkillRoll::new(shooter.skill),
            support: 0,
            formation,
            target,
            distance: a.distance,
            aim: a.aim,
        },
        *opts,
    )
    .map_err(Failure::input)
}

fn json_report(
    s: &Summary,
    run: &Run<BlastTally>,
    a: &BlastArgs,
    threads: usize,
    opts: &RuleOptions,
) -> serde_json::Value {
    let t = &run.tally;
    let m = t.mean_kills();
    let cp = s
        .cp_weapon
        .map(|w| (w + s.cp_ammo).as_f64())
        .filter(|c| *c > 0.0);
    let mut r = json!({
        "weapon": s.weapon,
        "shooter": a.shooter,
        "action_die": s.action_die,
        "target": s.target,
        "figures": s.figures,
        "formation": s.formation,
        "distance": s.distance,
        "out_of_range": s.out_of_range,
        "per": s.per,
        "trials": run.trials,
        "seed": a.seed,
        "ended": ended(run.ended),
        "cp_weapon": s.cp_weapon,
        "cp_ammo_per_trial": s.cp_ammo,
        "kills_hist": t.kills_hist().iter().map(|(k, p)| json!([k, p])).collect::<Vec<_>>(),
        "by_ring": (0..t.rings_used()).map(|r| {
            let e = t.by_ring[r].mean(t.trials);
            json!({
                "ring": r,
                "inches": [2 * r, 2 * r + 2],
                "mean_kills": e.point,
                "ci_mean_kills": e.ci,
            })
        }).collect::<Vec<_>>(),
        "burning": (t.on_fire.sum > 0).then(|| json!({
            "p_out_per_burning_roll": crate::rules::fire::P_OUT,
            "mean_turns_alight": crate::rules::fire::mean_turns_alight(),
            "limbs_lost_in_3_turns": crate::rules::fire::limbs_lost(3).iter().map(|(k, p)| json!([k, p])).collect::<Vec<_>>(),
        })),
        "armor_ties": t.ties,
        "aim": a.aim,
        "scatter": a.scatter,
        "dud": a.dud,
        "threads": threads,
        "trials_per_sec": run.trials_per_sec(),
        "options": opts,
    });
    // Every Monte Carlo figure with its CI: `key` and `ci_key` (`ci_hit` for `p_hit`).
    let scaled = |e: Estimate, k: f64| Estimate {
        point: e.point * k,
        standard_error: e.standard_error * k,
        ci: [e.ci[0] * k, e.ci[1] * k],
        level: e.level,
    };
    let figures: [(&str, Option<Estimate>); 13] = [
        ("mean_kills", Some(m)),
        ("shots_per_trial", Some(t.shots.mean(t.trials))),
        ("kills_per_shot", t.kills_per_shot()),
        ("kills_per_cp", cp.map(|c| scaled(m, 1.0 / c))),
        ("cp_killed", Some(scaled(m, s.target_cp))),
        (
            "p_hit",
            (t.shots.sum > 0).then(|| Estimate::proportion(t.hits, t.shots.sum, 0.95)),
        ),
        ("duds_per_trial", Some(t.duds.mean(t.trials))),
        (
            "knocked_back_per_trial",
            Some(t.knocked_back.mean(t.trials)),
        ),
        ("on_fire_per_trial", Some(t.on_fire.mean(t.trials))),
        ("p_jam", Some(Estimate::proportion(t.jams, t.trials, 0.95))),
        ("chain_detonations_per_trial", Some(t.chain.mean(t.trials))),
        ("wounded_per_trial", Some(t.wounded.mean(t.trials))),
        (
            "p_wall_destroyed",
            s.wall
                .then(|| Estimate::proportion(t.walls, t.trials, 0.95)),
        ),
    ];
    for (key, e) in figures {
        let ci = format!("ci_{}", key.strip_prefix("p_").unwrap_or(key));
        r[key] = json!(e.map(|e| e.point));
        r[ci] = json!(e.map(|e| e.ci));
    }
    r
}

fn table(s: &Summary, run: &Run<BlastTally>, a: &BlastArgs, threads: usize) -> String {
    let t = &run.tally;
    let mut out = s.header.clone();
    out.push_str(&format!(
        "trials {}   seed {}   ({})   aim {}{}\n\n",
        run.trials,
        a.seed,
        ended(run.ended),
        name(a.aim),
        if a.weapon.arc_fire() {
            String::new()
        } else {
            format!(", scatter {}, duds {}", name(a.scatter), name(a.dud))
        }
    ));
    let m = t.mean_kills();
    let per = s.per;
    out.push_str(&format!(
        "  mean kills a {per:<6}      {:>8.4}  95% CI [{:.4}, {:.4}]\n",
        m.point, m.ci[0], m.ci[1]
    ));
    if let Some(k) = t.kills_per_shot() {
        let shots = t.shots.mean(t.trials);
        out.push_str(&format!(
            "  per shot                 {:>8.4}  95% CI [{:.4}, {:.4}]   ({:.3} shots a {per})\n",
            k.point, k.ci[0], k.ci[1], shots.point
        ));
    }
    match s.cp_weapon {
        Some(w) if (w + s.cp_ammo).as_f64() > 0.0 => {
            let c = (w + s.cp_ammo).as_f64();
            out.push_str(&format!(
                "  per CP of weapon + ammo  {:>8.4}  95% CI [{:.4}, {:.4}]   ({w} CP weapon, {} CP ammo a {per})\n",
                m.point / c,
                m.ci[0] / c,
                m.ci[1] / c,
                s.cp_ammo
            ))
        }
        Some(_) => {}
        None => out.push_str(
            "  per CP                        -   (the texts give this weapon no price)\n",
        ),
    }
    if t.shots.sum == 0 {
        out.push_str("  no shot was fired: the target is out of Range\n");
    } else {
        let hit = Estimate::proportion(t.hits, t.shots.sum, 0.95);
        out.push_str(&format!(
            "  P(a shot hits)           {:>8.4}  95% CI [{:.4}, {:.4}]\n",
            hit.point, hit.ci[0], hit.ci[1]
        ));
    }
    if s.wall {
        let w = Estimate::proportion(t.walls, t.trials, 0.95);
        out.push_str(&format!(
            "  P(the wall falls)        {:>8.4}  95% CI [{:.4}, {:.4}]\n",
            w.point, w.ci[0], w.ci[1]
        ));
    }
    // Only what happened at all: a mean over turns, with its CI.
    let seen = |m: Moments| (m.sum > 0).then(|| m.mean(t.trials));
    for (label, e) in [
        ("Knocked Back (survivors)", seen(t.knocked_back)),
        ("Fire hits on survivors", seen(t.on_fire)),
        ("duds", seen(t.duds)),
        (
            "P(a MachineGun jams)",
            (t.jams > 0).then(|| Estimate::proportion(t.jams, t.trials, 0.95)),
        ),
        ("carried Explosives set off", seen(t.chain)),
        ("wounded (lost Size)", seen(t.wounded)),
    ] {
        if let Some(e) = e {
            out.push_str(&format!(
                "  {label:<26} {:>6.4}  95% CI [{:.4}, {:.4}]\n",
                e.point, e.ci[0], e.ci[1]
            ));
        }
    }
    if t.on_fire.sum > 0 {
        out.push_str(&format!(
            "  a figure set on fire makes a Burning Roll each turn: out on a 1 on 1d4, else a \
             limb lost\n  (Ch. 8.3): {} Burning Rolls on average until the fire goes out, {:.4} limbs lost over the \
             next 3 turns\n",
            crate::rules::fire::mean_turns_alight(),
            crate::rules::fire::limbs_lost(3).mean()
        ));
    }
    if t.rings_used() > 0 {
        out.push_str("\n  kills by ring (mean a trial, 95% CI)\n");
        for r in 0..t.rings_used() {
            let ring = format!("{}\"-{}\"", 2 * r, 2 * r + 2);
            let e = t.by_ring[r].mean(t.trials);
            out.push_str(&format!(
                "    {ring:<8} {:.4}  [{:.4}, {:.4}]\n",
                e.point, e.ci[0], e.ci[1]
            ));
        }
    }
    out.push_str("\n  kills  P\n");
    for (k, p) in t.kills_hist() {
        out.push_str(&format!("  {k:>5}  {p:.6}\n"));
    }
    out.push_str(&format!(
        "\n{:.3} M turns of fire/s on {threads} thread{} ({:.2} s)\n",
        run.trials_per_sec() / 1e6,
        if threads == 1 { "" } else { "s" },
        run.elapsed.as_secs_f64()
    ));
    out
}

fn replay<S: Scenario<Outcome = BlastOutcome, Tally = BlastTally>>(
    scenario: &S,
    s: &Summary,
    engine: &Engine,
    n: u64,
    a: &BlastArgs,
    opts: &RuleOptions,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut log = Narration::default();
    let o = engine.replay(scenario, n, &mut log);
    let mut text = format!("trial {n} of seed {}\n{}", a.seed, s.header);
    for e in &log.0 {
        match e {
            Entry::Note(t) => text.push_str(&format!("{t}\n")),
            Entry::Die(d) => text.push_str(&format!("    {}\n", super::roll::line(d, opts))),
        }
    }
    text.push_str(&format!(
        "{} killed, {} Knocked Back, {} hit of {} shots, {} duds\n",
        o.kills, o.knocked_back, o.hits, o.shots, o.duds
    ));
    io(out.write_all(text.as_bytes()))
}
