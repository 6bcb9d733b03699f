//! `diemon blast`'s question: a turn of Explosive or automatic fire at a formation.
//! [`BlastArgs`] are the flags; [`build`] and [`build_arc`] check them and build the
//! scenario they ask about.

use std::path::PathBuf;

use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};
use serde::{Deserialize, Serialize};

use super::Error;
use super::run::{Ran, RunArgs, RunFlags};
use diemon_core::catalog::cost::breakdown;
use diemon_core::catalog::weapon::WeaponKind;
use diemon_core::catalog::{Cp, Unit};
use diemon_core::dice::Expr;
use diemon_core::dice::SkillRoll;
use diemon_core::options::RuleOptions;
use diemon_core::rules::combat;
use diemon_core::scenario::blast::arc::{ArcFire, ArcSpec, Weapon, WeaponError};
use diemon_core::scenario::blast::{
    Aim, BlastTally, Delivery, Dud, Formation, Launch, Scatter, Stability, Target, Variant, Volley,
    VolleySpec, Wall,
};
use diemon_core::sim::CONFIDENCE;
use diemon_core::sim::Estimate;
use diemon_core::sim::progress::Progress;

mod answer;
pub use answer::{BlastAnswer, Burning, RingRow};

/// The weapon `diemon blast` fires (`--weapon`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum WeaponArg {
    /// A Launcher's Payload of Explosives (Ch. 8.4).
    Launcher,
    /// A Cannon's Explosive Ammo (Ch. 8.4).
    Cannon,
    /// A Rocket (Ch. 8.4).
    Rocket,
    /// A grenade thrown by a minifig's arm (Ch. 8.4).
    Thrown,
    /// Arc fire, by Weapon Size (Ch. 8.3).
    MachineGun,
    /// Arc fire, by Weapon Size (Ch. 8.3).
    BlastGun,
    /// Arc fire, by Weapon Size (Ch. 8.3).
    FlameThrower,
    /// The minifig Bastard guns (Ch. 8.1): arc fire with their table stats.
    Shotgun,
    /// The minifig Bastard guns (Ch. 8.1): arc fire with their table stats.
    Autogun,
    /// The minifig Bastard guns (Ch. 8.1): arc fire with their table stats.
    Flamegun,
}

impl WeaponArg {
    /// It fires arcs or bursts rather than Explosives.
    pub fn arc_fire(self) -> bool {
        !matches!(
            self,
            WeaponArg::Launcher | WeaponArg::Cannon | WeaponArg::Rocket | WeaponArg::Thrown
        )
    }
}

/// `diemon blast`'s flags: what fires, at what, from how far, and the run.
#[derive(Args, Debug, Clone)]
#[command(mut_arg("trials", |a| a
    .default_value("200000")
    .help("Trials (turns of fire) to run (accepts 1e7, 10M, 10_000_000)")))]
#[command(mut_arg("target_ci", |a| a.help(
    "Stop once the 95% CI half-width of the mean kills is at most X (at most --trials trials)"
)))]
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
    /// The run: trials (turns of fire), precision, seed, threads, a replayed trial, output.
    #[command(flatten)]
    pub run: RunArgs,
    /// A catalog file (TOML) whose units are added to the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
}

/// The run flags of a blast.
pub fn flags(a: &BlastArgs) -> RunFlags {
    // Half the range of the mean, as a duel's 0.5 is of a probability's: kills run from 0
    // to the targets, so a wider half-width asks for nothing. An unreadable formation is
    // refused later, with its own message.
    let max =
        Formation::parse(&a.formation, a.spacing).map_or(f64::INFINITY, |f| f.len() as f64 / 2.0);
    a.run
        .flags(max, "kills, half the number of targets at most; e.g. 0.01")
}

/// `--arc` and `--burst` belong to automatic weapons, not Explosives.
pub fn explosive_flags(a: &BlastArgs) -> Result<(), Error> {
    if a.arc != 1 || a.burst.is_some() {
        return Err(Error::input(
            "--arc and --burst are for automatic weapons (machine-gun, blast-gun, \
             flame-thrower, shotgun, autogun, flamegun); Explosives burst in rings",
        ));
    }
    Ok(())
}

/// Checks a blast's flags exactly as `run` does, without running anything: what an
/// experiment checks of every cell before it writes anything.
pub fn validate(a: &BlastArgs, opts: &RuleOptions) -> Result<(), Error> {
    flags(a).check()?;
    if a.weapon.arc_fire() {
        build_arc(a, opts).map(|_| ())
    } else {
        explosive_flags(a)?;
        build(a, opts).map(|_| ())
    }
}

/// `ARMOR@X,Y`: a wall's Armor dice and its offset from the formation's centre.
pub fn parse_wall(text: &str) -> Result<Wall, Error> {
    let bad = |why: String| {
        Error::input(format!(
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

impl From<WeaponError> for Error {
    fn from(e: WeaponError) -> Error {
        if e.is_catalog() {
            Error::other(e)
        } else {
            Error::input(e)
        }
    }
}

/// The shooter and the target unit, from the catalog.
pub fn units(a: &BlastArgs) -> Result<(Unit, Unit), Error> {
    let catalog = super::catalog(a.catalog.as_ref(), a.run.out.part.catalog_text.as_deref())?;
    let shooter = catalog
        .equipped(&a.shooter)
        .map_err(|m| Error::input(format!("--shooter: {m}")))?;
    let target = catalog
        .equipped(&a.target)
        .map_err(|m| Error::input(format!("--target: {m}")))?;
    Ok((shooter, target))
}

/// Checks every flag and builds the turn of Explosive fire, without running it.
pub fn build(a: &BlastArgs, opts: &RuleOptions) -> Result<Volley, Error> {
    let (shooter, target_unit) = units(a)?;
    let launch = match a.weapon {
        WeaponArg::Launcher => Launch::Launcher(a.size),
        WeaponArg::Cannon => Launch::Cannon(a.size),
        WeaponArg::Rocket => Launch::Rocket,
        WeaponArg::Thrown => Launch::Thrown {
            use_rating: a.use_rating.ok_or_else(|| {
                Error::input(
                    "--weapon thrown needs --use: a thrown object has its Close Combat Use \
                     (Ch. 8.4), and the texts give none for an Explosive\nhint: --use 2 is a \
                     Hand Weapon's Use, --use 3 a Heavy Weapon's",
                )
            })?,
        },
        _ => {
            return Err(Error::other(
                "an arc-fire weapon reached the Explosive path",
            ));
        }
    };
    if a.use_rating.is_some() && a.weapon != WeaponArg::Thrown {
        return Err(Error::input(
            "--use sets a thrown object's Use; a Launcher, Cannon or Rocket has its own (Ch. 8.4)",
        ));
    }
    if !(1..=100).contains(&a.size) {
        return Err(Error::input(format!(
            "--size {}: expected a Weapon Size of 1 to 100 inches",
            a.size
        )));
    }
    let delivery = Delivery::with_variant(launch, a.xsize, a.variant).map_err(Error::input)?;
    let gunner = shooter.spec.specialties.iter().any(|s| s == "gunnery");
    let skill = SkillRoll::new(match launch {
        Launch::Launcher(w) | Launch::Cannon(w) => {
            combat::action_die(shooter.skill, gunner, w, shooter.spec.size)
        }
        _ => shooter.skill,
    });
    let support = match launch {
        Launch::Launcher(w) | Launch::Cannon(w) => combat::gunnery_support(a.support, w)
            .ok_or_else(|| {
                Error::input(format!(
                    "--support {}: the firing team (shooter and supporters) is at most the Weapon \
                     Size, {w} (Ch. 8.5)",
                    a.support
                ))
            })?,
        _ if a.support > 0 => {
            return Err(Error::input(
                "--support: Gunnery Support helps with mounted weapons (a Launcher or Cannon)",
            ));
        }
        _ => 0,
    };
    let formation = Formation::parse(&a.formation, a.spacing).map_err(Error::input)?;
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
    .map_err(Error::input)
}

/// Checks every flag and builds the turn of arc fire, without running it.
pub fn build_arc(a: &BlastArgs, opts: &RuleOptions) -> Result<ArcFire, Error> {
    if !(1..=100).contains(&a.size) {
        return Err(Error::input(format!(
            "--size {}: expected a Weapon Size of 1 to 100 inches",
            a.size
        )));
    }
    let (shooter, target_unit) = units(a)?;
    let weapon = match a.weapon {
        WeaponArg::MachineGun => Weapon::sized(WeaponKind::MachineGun, a.size)?,
        WeaponArg::BlastGun => Weapon::sized(WeaponKind::BlastGun, a.size)?,
        WeaponArg::FlameThrower => Weapon::sized(WeaponKind::FlameThrower, a.size)?,
        WeaponArg::Shotgun => Weapon::named("shotgun")?,
        WeaponArg::Autogun => Weapon::named("autogun")?,
        WeaponArg::Flamegun => Weapon::named("flamegun")?,
        _ => {
            return Err(Error::other(
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
        return Err(Error::input(
            "--support, --use, --xsize, --variant, --wall and --carrying are for Explosives; arc \
             fire takes --size and --arc",
        ));
    }
    let formation = Formation::parse(&a.formation, a.spacing).map_err(Error::input)?;
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
    .map_err(Error::input)
}

/// What the report says about the weapon and the targets, beyond the tally.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// The report's first line.
    pub header: String,
    /// The weapon, as printed.
    pub weapon: String,
    /// The Action roll's die.
    pub action_die: String,
    /// The unit fired at.
    pub target: String,
    /// One target figure's CP.
    pub target_cp: f64,
    /// Figures in the formation.
    pub figures: usize,
    /// The formation as given.
    pub formation: String,
    /// Inches to the formation's centre.
    pub distance: f64,
    /// Inches past the weapon's Range.
    pub out_of_range: i64,
    /// "turn" or "volley".
    pub per: &'static str,
    /// The delivering weapon's price.
    pub cp_weapon: Option<Cp>,
    /// The Explosives fired a turn, priced.
    pub cp_ammo: Cp,
    /// A wall stands among the targets.
    pub wall: bool,
}

/// A policy's command-line name.
pub fn name<T: ValueEnum>(v: T) -> String {
    v.to_possible_value()
        .map_or_else(String::new, |p| p.get_name().to_string())
}

/// What the report says of a turn of Explosive fire.
pub fn volley_summary(v: &Volley, a: &BlastArgs) -> Summary {
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

/// What the report says of a turn of arc fire.
pub fn arc_summary(f: &ArcFire, a: &BlastArgs) -> Summary {
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
        diemon_core::plural::s(s.arc),
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

/// Asks a turn of fire: checks the flags, builds the Explosive or automatic fire, runs it on
/// its own pool and answers.
pub fn ask(
    a: &BlastArgs,
    opts: &RuleOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<BlastAnswer, Error> {
    let flags = flags(a);
    flags.check()?;
    if a.weapon.arc_fire() {
        let fire = build_arc(a, opts)?;
        let (run, ran) = flags.ran(&fire, progress, cancel)?;
        Ok(BlastAnswer::new(
            arc_summary(&fire, a),
            a,
            opts,
            ran,
            &run.tally,
        ))
    } else {
        explosive_flags(a)?;
        let volley = build(a, opts)?;
        let (run, ran) = flags.ran(&volley, progress, cancel)?;
        Ok(BlastAnswer::new(
            volley_summary(&volley, a),
            a,
            opts,
            ran,
            &run.tally,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> BlastArgs {
        crate::question::tests::parse("blast", line)
    }

    #[test]
    fn a_gunner_on_a_mounted_launcher_rolls_the_d8_and_a_minifig_its_d6() {
        let opts = RuleOptions::default();
        let v = build(&args("--shooter gunner --size 3"), &opts).unwrap();
        assert_eq!(v.skill().die(), diemon_core::dice::Die::D8);
        let v = build(&args("--shooter minifig --size 3"), &opts).unwrap();
        assert_eq!(v.skill().die(), diemon_core::dice::Die::D6);
    }

    #[test]
    fn flags_of_the_other_kind_of_fire_are_refused() {
        let opts = RuleOptions::default();
        let e = validate(&args("--weapon launcher --arc 2"), &opts).unwrap_err();
        assert!(e.message().contains("automatic weapons"), "{e}");
        let e = validate(&args("--weapon machine-gun --xsize 2"), &opts).unwrap_err();
        assert!(e.message().contains("for Explosives"), "{e}");
        let e = validate(&args("--weapon thrown"), &opts).unwrap_err();
        assert!(e.message().contains("needs --use"), "{e}");
        // A team larger than the Weapon Size (Ch. 8.5).
        let e = validate(&args("--size 2 --support 2"), &opts).unwrap_err();
        assert!(e.message().contains("at most the Weapon"), "{e}");
        assert!(validate(&args("--size 3 --support 2"), &opts).is_ok());
    }
}
