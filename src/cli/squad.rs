//! `diemon duel` with catalog units: squads, CP budgets, policies per side.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use serde_json::json;

use super::runs::{ended, execute, extend, finish, json};
use super::{Failure, io};
use crate::analysis::Estimate;
use crate::catalog::cp::Cp;
use crate::dice::{Entry, Narration};
use crate::question::duel::{DuelArgs, first};
use crate::question::outcomes::Outcomes;
use crate::question::squad::build;
use crate::rules::RuleOptions;
use crate::scenario::duel::Side;
use crate::scenario::squad::tally::TRACK;
use crate::scenario::squad::{Squad, SquadTally};
use crate::sim::engine::Run;

pub fn run(
    a: &DuelArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let squad = build(a, opts)?;
    let flags = a.flags();
    let engine = flags.engine();
    if let Some(n) = a.run.replay_trial {
        return replay(&squad, &engine, n, a, out);
    }
    let (run, threads) = execute(&flags, &engine, &squad, "squad duels", cancel)?;
    let text = if a.run.out.json {
        json(&flags, json_report(&squad, &run, a, threads, opts), &run)?
    } else {
        table(&squad, &run, a, threads)
    };
    finish(&text, &run, out)
}

/// A side's CP as fielded.
fn side_cp(squad: &Squad, side: u8) -> Cp {
    (0..squad.kinds().len())
        .filter(|&i| squad.kind_side(i) == side)
        .map(|i| squad.kinds()[i].cp * squad.units_of(i) as i64)
        .fold(Cp::ZERO, |a, b| a + b)
}

fn describe(squad: &Squad, side: u8) -> String {
    let kinds = squad.kinds();
    let mut parts = Vec::new();
    let mut total = Cp::ZERO;
    for (i, k) in kinds.iter().enumerate() {
        if squad.kind_side(i) != side {
            continue;
        }
        let n = squad.units_of(i);
        total = total + k.cp * n as i64;
        parts.push(format!("{n} x {} ({} CP each)", k.key, k.cp));
    }
    format!("{}  = {total} CP", parts.join(" + "))
}

/// Side `side`'s parts that cost CP and do nothing in this battle, one line each.
fn inert(squad: &Squad, side: u8) -> Vec<String> {
    let mut v = Vec::new();
    for (key, x) in squad.inert(side) {
        let line = format!("{key}: {x}");
        if !v.contains(&line) {
            v.push(line);
        }
    }
    v
}

fn first_name(a: &DuelArgs) -> &'static str {
    match first(a) {
        crate::scenario::duel::First::A => "A",
        crate::scenario::duel::First::B => "B",
        crate::scenario::duel::First::Random => "random",
    }
}

fn json_report(
    squad: &Squad,
    run: &Run<SquadTally>,
    a: &DuelArgs,
    threads: usize,
    opts: &RuleOptions,
) -> serde_json::Value {
    let t = &run.tally;
    let outcomes = Outcomes {
        trials: t.trials,
        a_wins: t.a_wins,
        b_wins: t.b_wins,
        draws: t.draws,
        first_wins: t.first_wins,
    };
    let turns = t.mean_turns();
    let (sa, sb) = (t.mean_survivors(0), t.mean_survivors(1));
    let (ca, cb) = (t.mean_cp_left(0), t.mean_cp_left(1));
    let mut o = json!({
        "a": describe(squad, 0),
        "b": describe(squad, 1),
        "units_a": squad.count()[0],
        "units_b": squad.count()[1],
        "cp_a": side_cp(squad, 0),
        "cp_b": side_cp(squad, 1),
        // A float as in `blast`, so the column has one type in every experiment.
        "distance": a.distance as f64,
        "room": a.room,
        "first": first_name(a),
        "policy_a": squad.policy(0),
        "policy_b": squad.policy(1),
        "trials": run.trials,
        "seed": a.run.out.seed,
        "ended": ended(run.ended),
        "mean_turns": turns.point,
        "ci_mean_turns": turns.ci,
        "survivors_a": sa.point,
        "ci_survivors_a": sa.ci,
        "survivors_b": sb.point,
        "ci_survivors_b": sb.ci,
        "cp_left_a": ca.point,
        "ci_cp_left_a": ca.ci,
        "cp_left_b": cb.point,
        "ci_cp_left_b": cb.ci,
        "armor_ties": t.ties,
        "turns_hist": t.shares(&t.turns_hist).iter().map(|(k, p)| json!([k, p])).collect::<Vec<_>>(),
        "survivors_a_hist": t.shares(&t.survivors_a_hist).iter().map(|(k, p)| json!([k, p])).collect::<Vec<_>>(),
        "survivors_b_hist": t.shares(&t.survivors_b_hist).iter().map(|(k, p)| json!([k, p])).collect::<Vec<_>>(),
        "max_turns": a.max_turns,
        "trials_per_sec": run.trials_per_sec(),
        "threads": threads,
        "options": opts,
        "by_turn": by_turn(squad, t),
    });
    extend(&mut o, &outcomes);
    // Fielded CP, their gap, and what is paid for nothing (issue 21).
    o["cp_gap"] = json!(side_cp(squad, 0) - side_cp(squad, 1));
    o["inert_a"] = json!(inert(squad, 0));
    o["inert_b"] = json!(inert(squad, 1));
    o["inert_cp_a"] = json!(squad.inert_cp(0));
    o["inert_cp_b"] = json!(squad.inert_cp(1));
    if squad.contagious() {
        let c = t.mean_converted();
        o["converted"] = json!(c.point);
        o["ci_converted"] = json!(c.ci);
    }
    if squad.mediks() {
        let r = t.mean_revived();
        o["revived"] = json!(r.point);
        o["ci_revived"] = json!(r.ci);
    }
    if squad.explosives() {
        for (side, name) in [(0, "a"), (1, "b")] {
            for (own, what) in [(false, "blasted"), (true, "blasted_own")] {
                let e = t.mean_blasted(side, own);
                o[format!("{what}_{name}")] = json!(e.point);
                o[format!("ci_{what}_{name}")] = json!(e.ci);
            }
        }
    }
    if squad.automatic() {
        for (side, name) in [(0, "a"), (1, "b")] {
            let e = t.mean_swept(side);
            o[format!("swept_{name}")] = json!(e.point);
            o[format!("ci_swept_{name}")] = json!(e.ci);
        }
    }
    o
}

/// Units standing on each side (and Minds converted, with Monstrous Contagion) after each
/// player turn, with 95% CIs: the attrition curve, one object a turn.
fn by_turn(squad: &Squad, t: &SquadTally) -> Vec<serde_json::Value> {
    let turns = (squad.max_turns() as usize).min(TRACK);
    (0..turns)
        .map(|k| {
            let (a, b) = (t.standing_after(0, k), t.standing_after(1, k));
            let mut o = json!({
                "turn": k + 1,
                "standing_a": a.point,
                "ci_standing_a": a.ci,
                "standing_b": b.point,
                "ci_standing_b": b.ci,
            });
            if squad.contagious() {
                let c = t.converted_after(k);
                o["converted"] = json!(c.point);
                o["ci_converted"] = json!(c.ci);
            }
            o
        })
        .collect()
}

fn table(squad: &Squad, run: &Run<SquadTally>, a: &DuelArgs, threads: usize) -> String {
    let t = &run.tally;
    let mut s = format!("A: {}\nB: {}\n", describe(squad, 0), describe(squad, 1));
    let (ca, cb) = (side_cp(squad, 0), side_cp(squad, 1));
    let gap = ca - cb;
    s.push_str(&format!(
        "CP fielded: A {ca}, B {cb} ({}){}\n",
        match gap.in_quarters().signum() {
            0 => "even".to_string(),
            1 => format!("A fields {gap} CP more"),
            _ => format!("B fields {} CP more", cb - ca),
        },
        match a.budget {
            Some(b) => format!("; budget {b} CP, whole units only"),
            None => String::new(),
        }
    ));
    s.push_str(&format!(
        "{}\" apart   first: {}   trials {}   seed {}   ({})\n\n",
        a.distance,
        match first_name(a) {
            "random" => "d6 roll-off",
            x => x,
        },
        run.trials,
        a.run.out.seed,
        ended(run.ended)
    ));
    let row = |name: &str, k: u64| {
        let e = Estimate::proportion(k, t.trials, 0.95);
        format!(
            "  {name:<22} {:>10.6}  [{:.6}, {:.6}]\n",
            e.point, e.ci[0], e.ci[1]
        )
    };
    let mean = |name: &str, e: Estimate| {
        format!(
            "  {name:<22} {:>10.4}  [{:.4}, {:.4}]\n",
            e.point, e.ci[0], e.ci[1]
        )
    };
    s.push_str("                                  95% CI\n");
    s.push_str(&row("P(A wins)", t.a_wins));
    s.push_str(&row("P(B wins)", t.b_wins));
    s.push_str(&row("P(draw)", t.draws));
    s.push_str(&format!(
        "    both sides fell, or both stood after {} turns\n",
        a.max_turns
    ));
    s.push_str(&row("P(first side wins)", t.first_wins));
    s.push_str(&mean("mean turns", t.mean_turns()));
    s.push_str(&mean("A survivors (mean)", t.mean_survivors(0)));
    s.push_str(&mean("B survivors (mean)", t.mean_survivors(1)));
    s.push_str(&mean("A CP left (mean)", t.mean_cp_left(0)));
    s.push_str(&mean("B CP left (mean)", t.mean_cp_left(1)));
    if squad.contagious() {
        s.push_str(&mean("Minds converted (mean)", t.mean_converted()));
    }
    if squad.mediks() {
        s.push_str(&mean("revived (mean)", t.mean_revived()));
    }
    if squad.explosives() {
        // Kills by weapon: what the Explosives felled, the rest fell to everything else.
        for (side, name) in [(0, 'A'), (1, 'B')] {
            if !squad.explosives_on(side as u8) {
                continue;
            }
            s.push_str(&mean(
                &format!("{name}'s Explosives fell"),
                t.mean_blasted(side, false),
            ));
            s.push_str(&mean(
                &format!("  of {name}'s own side"),
                t.mean_blasted(side, true),
            ));
        }
    }
    if squad.automatic() {
        for (side, name) in [(0, 'A'), (1, 'B')] {
            if squad.automatic_on(side as u8) {
                s.push_str(&mean(
                    &format!("{name}'s auto fire fell"),
                    t.mean_swept(side),
                ));
            }
        }
    }
    for (side, name) in [(0, 'A'), (1, 'B')] {
        let lines = inert(squad, side);
        if !lines.is_empty() {
            s.push_str(&format!(
                "\npriced but inert in this battle, side {name} ({} CP fielded for nothing):\n",
                squad.inert_cp(side)
            ));
            for l in lines {
                s.push_str(&format!("  {l}\n"));
            }
        }
    }
    s.push_str(&format!(
        "\n{:.3} M squad duels/s on {threads} thread{} ({:.2} s)\n",
        run.trials_per_sec() / 1e6,
        if threads == 1 { "" } else { "s" },
        run.elapsed.as_secs_f64()
    ));
    s
}

fn replay(
    squad: &Squad,
    engine: &crate::sim::engine::Engine,
    n: u64,
    a: &DuelArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut log = Narration::default();
    let o = engine.replay(squad, n, &mut log);
    let mut s = format!(
        "trial {n} of seed {}\nA: {}\nB: {}\n",
        a.run.out.seed,
        describe(squad, 0),
        describe(squad, 1)
    );
    for e in &log.0 {
        match e {
            Entry::Note(t) => s.push_str(&format!("{t}\n")),
            Entry::Die(d) => s.push_str(&format!("      {}\n", super::roll::line(d, squad.opts()))),
        }
    }
    s.push_str(&format!(
        "{} after {} turns ({} went first); survivors A {} B {}\n",
        match o.winner {
            Some(Side::A) => "A wins",
            Some(Side::B) => "B wins",
            None => "draw",
        },
        o.turns,
        match o.first {
            Side::A => "A",
            Side::B => "B",
        },
        o.survivors[0],
        o.survivors[1]
    ));
    io(out.write_all(s.as_bytes()))
}
