//! `diemon blast`: a turn of Explosive fire at a formation, seeded Monte Carlo.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};
use serde_json::json;

use super::duel::{ended, finish, parse_count};
use super::progress::Bar;
use super::{Failure, io};
use crate::analysis::Estimate;
use crate::catalog::cost::breakdown;
use crate::dice::{Die, Entry, Narration, SkillRoll};
use crate::rules::{RuleOptions, combat};
use crate::scenario::blast::{
    Aim, BlastTally, Delivery, Dud, Formation, Launch, Scatter, Target, Volley, VolleySpec,
};
use crate::sim::engine::{Engine, Run, Stop};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum WeaponArg {
    Launcher,
    Cannon,
    Rocket,
    Thrown,
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon blast                                       a 3\" Launcher, XSize 1 missiles, 25 minifigs at 18\"
  diemon blast --formation grid:5x5 --spacing 1 --distance 18 --json
  diemon blast --weapon cannon --size 2 --xsize 2 --shooter gunner --support 1
  diemon blast --weapon thrown --use 3 --distance 4 --formation cluster:7
  diemon blast --weapon rocket --xsize 3 --formation line:10 --aim densest

One trial is one turn of fire (a Cannon's volley is two turns: fire, then reload). See
docs/model.md for where Missed Shots come down.")]
pub struct BlastArgs {
    /// What fires the Explosives.
    #[arg(long, value_enum, default_value_t = WeaponArg::Launcher)]
    pub weapon: WeaponArg,
    /// Weapon Size in inches (Launcher, Cannon).
    #[arg(long, default_value_t = 3)]
    pub size: u32,
    /// Explosive Size of each missile, grenade, shell or Rocket, in bricks.
    #[arg(long, default_value_t = 1)]
    pub xsize: u32,
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
    /// Inches from the shooter to the formation's centre.
    #[arg(long, default_value_t = 18.0, allow_negative_numbers = true)]
    pub distance: f64,
    #[arg(long, value_enum, default_value_t = Aim::Centre)]
    pub aim: Aim,
    /// Where a Missed Shot comes down.
    #[arg(long, value_enum, default_value_t = Scatter::Margin)]
    pub scatter: Scatter,
    /// Whether the defender declares critically failed Explosives duds.
    #[arg(long, value_enum, default_value_t = Dud::Declared)]
    pub dud: Dud,
    /// Trials (turns of fire) to run.
    #[arg(long, value_parser = parse_count, default_value = "200000")]
    pub trials: u64,
    /// Stop once the 95% CI half-width of the mean kills is at most X.
    #[arg(long, value_name = "X")]
    pub target_ci: Option<f64>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub threads: Option<usize>,
    /// Narrate trial N of this run, die by die.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub replay_trial: Option<u64>,
    /// A catalog file (TOML) whose units are added to the built-in ones.
    #[arg(long, value_name = "FILE")]
    pub catalog: Option<PathBuf>,
    #[arg(long, short)]
    pub quiet: bool,
    #[arg(long)]
    pub json: bool,
}

pub fn run(
    a: &BlastArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let volley = build(a, opts)?;
    if a.trials == 0 {
        return Err(Failure::input("--trials 0: expected at least one trial"));
    }
    if let Some(x) = a.target_ci
        && !(x > 0.0 && x.is_finite())
    {
        return Err(Failure::input(format!(
            "--target-ci {x}: expected a half-width above 0, e.g. 0.01 (kills)"
        )));
    }
    if a.threads == Some(0) {
        return Err(Failure::input("--threads 0: expected at least one thread"));
    }
    let engine = Engine {
        seed: a.seed,
        cell: 0,
        stop: match a.target_ci {
            Some(x) => Stop::Precision {
                half_width: x,
                max_trials: a.trials,
            },
            None => Stop::Trials(a.trials),
        },
    };
    if let Some(n) = a.replay_trial {
        if n >= a.trials {
            return Err(Failure::input(format!(
                "--replay-trial {n}: this run has trials 0 to {}",
                a.trials - 1
            )));
        }
        return replay(&volley, &engine, n, a, out);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::other(format!("cannot start worker threads: {e}")))?;
    let threads = pool.current_num_threads();
    let run = pool.install(|| {
        if a.quiet || a.json {
            engine.run(&volley, &crate::sim::progress::Silent, cancel)
        } else {
            engine.run(&volley, &Bar::new("turns of fire"), cancel)
        }
    });
    let text = if a.json {
        format!("{}\n", json_report(&volley, &run, a, threads, opts))
    } else {
        table(&volley, &run, a, threads)
    };
    finish(&text, &run, out)
}

fn build(a: &BlastArgs, opts: &RuleOptions) -> Result<Volley, Failure> {
    let catalog = super::unit::load(a.catalog.as_ref())?;
    let shooter = catalog
        .equipped(&a.shooter)
        .map_err(|m| Failure::input(format!("--shooter: {m}")))?;
    let target_unit = catalog
        .equipped(&a.target)
        .map_err(|m| Failure::input(format!("--target: {m}")))?;
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
    };
    if a.use_rating.is_some() && a.weapon != WeaponArg::Thrown {
        return Err(Failure::input(
            "--use sets a thrown object's Use; a Launcher, Cannon or Rocket has its own (Ch. 8.4)",
        ));
    }
    if matches!(launch, Launch::Launcher(0) | Launch::Cannon(0)) {
        return Err(Failure::input(
            "--size 0: a weapon has a Weapon Size of at least 1 inch",
        ));
    }
    let delivery = Delivery::new(launch, a.xsize).map_err(Failure::input)?;
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

fn header(v: &Volley, a: &BlastArgs) -> String {
    let d = v.delivery();
    let mut s = format!(
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
    if v.out_of_range() > 0 {
        s.push_str(&format!(
            " ({}\" Out of Range: -{} Action and Damage)",
            v.out_of_range(),
            v.out_of_range()
        ));
    }
    s.push('\n');
    s
}

fn json_report(
    v: &Volley,
    run: &Run<BlastTally>,
    a: &BlastArgs,
    threads: usize,
    opts: &RuleOptions,
) -> serde_json::Value {
    let t = &run.tally;
    let m = t.mean_kills();
    let d = v.delivery();
    let cp = (d.weapon_cp + d.ammo_cp).as_f64();
    json!({
        "weapon": d.to_string(),
        "shooter": a.shooter,
        "action_die": v.skill().die().to_string(),
        "target": v.target().key,
        "figures": v.formation().len(),
        "formation": v.formation().to_string(),
        "distance": v.distance(),
        "out_of_range": v.out_of_range(),
        "shots_per_trial": d.shots,
        "turns_per_trial": d.turns,
        "trials": run.trials,
        "seed": a.seed,
        "ended": ended(run.ended),
        "mean_kills": m.point,
        "ci_mean_kills": m.ci,
        "kills_per_shot": m.point / d.shots as f64,
        "cp_weapon": d.weapon_cp,
        "cp_ammo_per_trial": d.ammo_cp,
        "kills_per_cp": if cp > 0.0 { Some(m.point / cp) } else { None },
        "cp_killed": m.point * v.target().cp.as_f64(),
        "kills_hist": t.kills_hist().iter().map(|(k, p)| json!([k, p])).collect::<Vec<_>>(),
        "by_ring": (0..t.rings_used()).map(|r| json!({
            "ring": r,
            "inches": [2 * r, 2 * r + 2],
            "mean_kills": t.by_ring[r] as f64 / t.trials as f64,
        })).collect::<Vec<_>>(),
        "p_hit": Estimate::proportion(t.hits, t.shots, 0.95).point,
        "duds_per_trial": t.duds as f64 / t.trials as f64,
        "knocked_back_per_trial": t.knocked_back as f64 / t.trials as f64,
        "armor_ties": t.ties,
        "aim": a.aim,
        "scatter": a.scatter,
        "dud": a.dud,
        "threads": threads,
        "trials_per_sec": run.trials_per_sec(),
        "options": opts,
    })
}

fn table(v: &Volley, run: &Run<BlastTally>, a: &BlastArgs, threads: usize) -> String {
    let t = &run.tally;
    let d = v.delivery();
    let mut s = header(v, a);
    s.push_str(&format!(
        "trials {}   seed {}   ({})   aim {}, scatter {}, duds {}\n\n",
        run.trials,
        a.seed,
        ended(run.ended),
        name(a.aim),
        name(a.scatter),
        name(a.dud)
    ));
    let m = t.mean_kills();
    let per = if d.turns == 1 { "turn" } else { "volley" };
    s.push_str(&format!(
        "  mean kills a {per:<6}      {:>8.4}  95% CI [{:.4}, {:.4}]\n",
        m.point, m.ci[0], m.ci[1]
    ));
    s.push_str(&format!(
        "  per shot                 {:>8.4}   ({} shot{} a {per})\n",
        m.point / d.shots as f64,
        d.shots,
        if d.shots == 1 { "" } else { "s" }
    ));
    let cp = (d.weapon_cp + d.ammo_cp).as_f64();
    if cp > 0.0 {
        s.push_str(&format!(
            "  per CP of weapon + ammo  {:>8.4}   ({} CP weapon, {} CP ammo a {per})\n",
            m.point / cp,
            d.weapon_cp,
            d.ammo_cp
        ));
    }
    let hit = Estimate::proportion(t.hits, t.shots, 0.95);
    s.push_str(&format!(
        "  P(a shot hits)           {:>8.4}  95% CI [{:.4}, {:.4}]\n",
        hit.point, hit.ci[0], hit.ci[1]
    ));
    s.push_str(&format!(
        "  Knocked Back (survivors) {:>8.4}\n  duds                     {:>8.4}\n",
        t.knocked_back as f64 / t.trials as f64,
        t.duds as f64 / t.trials as f64
    ));
    s.push_str("\n  kills by ring (mean a trial)\n");
    for r in 0..t.rings_used() {
        let ring = format!("{}\"-{}\"", 2 * r, 2 * r + 2);
        s.push_str(&format!(
            "    {ring:<8} {:.4}\n",
            t.by_ring[r] as f64 / t.trials as f64
        ));
    }
    s.push_str("\n  kills  P\n");
    for (k, p) in t.kills_hist() {
        s.push_str(&format!("  {k:>5}  {p:.6}\n"));
    }
    s.push_str(&format!(
        "\n{:.3} M turns of fire/s on {threads} thread{} ({:.2} s)\n",
        run.trials_per_sec() / 1e6,
        if threads == 1 { "" } else { "s" },
        run.elapsed.as_secs_f64()
    ));
    s
}

fn replay(
    v: &Volley,
    engine: &Engine,
    n: u64,
    a: &BlastArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut log = Narration::default();
    let o = engine.replay(v, n, &mut log);
    let mut s = format!("trial {n} of seed {}\n{}", a.seed, header(v, a));
    for e in &log.0 {
        match e {
            Entry::Note(t) => s.push_str(&format!("{t}\n")),
            Entry::Die(d) => s.push_str(&format!("    {}\n", super::roll::line(d, v.opts()))),
        }
    }
    s.push_str(&format!(
        "{} killed, {} Knocked Back, {} hit of {} shots, {} duds\n",
        o.kills, o.knocked_back, o.hits, o.shots, o.duds
    ));
    io(out.write_all(s.as_bytes()))
}
