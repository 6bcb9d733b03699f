//! `diemon blast`: a turn of Explosive fire at a formation, seeded Monte Carlo.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use super::runs::answer;
use super::{Failure, io};
use crate::dice::{Entry, Narration};
use crate::options::RuleOptions;
use crate::question::blast::{
    BlastAnswer, BlastArgs, Summary, arc_summary, ask, build, build_arc, explosive_flags, flags,
    name, volley_summary,
};
use crate::scenario::Scenario;
use crate::scenario::blast::{BlastOutcome, BlastTally};
use crate::sim::engine::Engine;

pub fn run(
    a: &BlastArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let flags = flags(a);
    if let Some(n) = a.run.replay_trial {
        flags.check()?;
        let engine = flags.engine();
        return if a.weapon.arc_fire() {
            let fire = build_arc(a, opts)?;
            replay(&fire, &arc_summary(&fire, a), &engine, n, a, opts, out)
        } else {
            explosive_flags(a)?;
            let volley = build(a, opts)?;
            replay(
                &volley,
                &volley_summary(&volley, a),
                &engine,
                n,
                a,
                opts,
                out,
            )
        };
    }
    answer(
        &flags,
        "turns of fire",
        a.run.out.json,
        |progress| ask(a, opts, progress, cancel),
        |r| &r.ran,
        |r| table(r, a),
        out,
    )
}

fn table(r: &BlastAnswer, a: &BlastArgs) -> String {
    let s = &r.summary;
    let mut out = s.header.clone();
    out.push_str(&format!(
        "trials {}   seed {}   ({})   aim {}{}\n\n",
        r.ran.trials,
        r.ran.seed,
        r.ran.ended,
        name(a.aim),
        if a.weapon.arc_fire() {
            String::new()
        } else {
            format!(", scatter {}, duds {}", name(a.scatter), name(a.dud))
        }
    ));
    let (m, mci) = (r.mean_kills, r.ci_mean_kills);
    let per = s.per;
    out.push_str(&format!(
        "  mean kills a {per:<6}      {m:>8.4}  95% CI [{:.4}, {:.4}]\n",
        mci[0], mci[1]
    ));
    if let (Some(k), Some(ci)) = (r.kills_per_shot, r.ci_kills_per_shot) {
        out.push_str(&format!(
            "  per shot                 {k:>8.4}  95% CI [{:.4}, {:.4}]   ({:.3} shots a {per})\n",
            ci[0], ci[1], r.shots_per_trial
        ));
    }
    match s.cp_weapon {
        Some(w) if (w + s.cp_ammo).as_f64() > 0.0 => {
            let c = (w + s.cp_ammo).as_f64();
            out.push_str(&format!(
                "  per CP of weapon + ammo  {:>8.4}  95% CI [{:.4}, {:.4}]   ({w} CP weapon, {} CP ammo a {per})\n",
                m / c,
                mci[0] / c,
                mci[1] / c,
                s.cp_ammo
            ))
        }
        Some(_) => {}
        None => out.push_str(
            "  per CP                        -   (the texts give this weapon no price)\n",
        ),
    }
    match (r.p_hit, r.ci_hit) {
        (Some(p), Some(ci)) => out.push_str(&format!(
            "  P(a shot hits)           {p:>8.4}  95% CI [{:.4}, {:.4}]\n",
            ci[0], ci[1]
        )),
        _ => out.push_str("  no shot was fired: the target is out of Range\n"),
    }
    if let (Some(p), Some(ci)) = (r.p_wall_destroyed, r.ci_wall_destroyed) {
        out.push_str(&format!(
            "  P(the wall falls)        {p:>8.4}  95% CI [{:.4}, {:.4}]\n",
            ci[0], ci[1]
        ));
    }
    // Only what happened at all (counts never fall below 0, so a mean above 0 saw one).
    for (label, point, ci) in [
        (
            "Knocked Back (survivors)",
            r.knocked_back_per_trial,
            r.ci_knocked_back_per_trial,
        ),
        (
            "Fire hits on survivors",
            r.on_fire_per_trial,
            r.ci_on_fire_per_trial,
        ),
        ("duds", r.duds_per_trial, r.ci_duds_per_trial),
        ("P(a MachineGun jams)", r.p_jam, r.ci_jam),
        (
            "carried Explosives set off",
            r.chain_detonations_per_trial,
            r.ci_chain_detonations_per_trial,
        ),
        (
            "wounded (lost Size)",
            r.wounded_per_trial,
            r.ci_wounded_per_trial,
        ),
    ] {
        if let (Some(p), Some(ci)) = (point, ci)
            && p > 0.0
        {
            out.push_str(&format!(
                "  {label:<26} {p:>6.4}  95% CI [{:.4}, {:.4}]\n",
                ci[0], ci[1]
            ));
        }
    }
    if let Some(b) = &r.burning {
        let limbs: f64 = b
            .limbs_lost_in_3_turns
            .iter()
            .map(|(k, p)| *k as f64 * p)
            .sum();
        out.push_str(&format!(
            "  a figure set on fire makes a Burning Roll each turn: out on a 1 on 1d4, else a \
             limb lost\n  (Ch. 8.3): {} Burning Rolls on average until the fire goes out, {limbs:.4} limbs lost over the \
             next 3 turns\n",
            b.mean_turns_alight
        ));
    }
    if !r.by_ring.is_empty() {
        out.push_str("\n  kills by ring (mean a trial, 95% CI)\n");
        for ring in &r.by_ring {
            let label = format!("{}\"-{}\"", ring.inches[0], ring.inches[1]);
            out.push_str(&format!(
                "    {label:<8} {:.4}  [{:.4}, {:.4}]\n",
                ring.mean_kills, ring.ci_mean_kills[0], ring.ci_mean_kills[1]
            ));
        }
    }
    out.push_str("\n  kills  P\n");
    for (k, p) in &r.kills_hist {
        out.push_str(&format!("  {k:>5}  {p:.6}\n"));
    }
    out.push_str(&format!("\n{}\n", r.ran.speed("turns of fire", 3)));
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
