//! `diemon blast`: a turn of Explosive fire at a formation, seeded Monte Carlo.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use clap::ValueEnum;
use serde_json::json;

use super::runs::{ended, execute, finish, json};
use super::{Failure, io};
use crate::analysis::Estimate;
use crate::catalog::Cp;
use crate::dice::{Entry, Narration};
use crate::options::RuleOptions;
use crate::question::blast::{BlastArgs, build, build_arc, explosive_flags, flags};
use crate::question::run::RunFlags;
use crate::scenario::Scenario;
use crate::scenario::blast::arc::ArcFire;
use crate::scenario::blast::{BlastOutcome, BlastTally, Volley};
use crate::sim::engine::{Engine, Run};
use crate::sim::tally::Moments;

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
    if let Some(n) = a.run.replay_trial {
        return replay(scenario, s, &engine, n, a, opts, out);
    }
    let (run, threads) = execute(flags, &engine, scenario, "turns of fire", cancel)?;
    let text = if a.run.out.json {
        json(flags, json_report(s, &run, a, threads, opts), &run)?
    } else {
        table(s, &run, a, threads)
    };
    finish(&text, &run, out)
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
        "seed": a.run.out.seed,
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
        a.run.out.seed,
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
    let mut text = format!("trial {n} of seed {}\n{}", a.run.out.seed, s.header);
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
