//! `diemon duel`: two units in base contact attack in turn until one dies (`SKILL/USE/
//! DAMAGE/ARMOR` shorthand), or two squads of catalog units fight it out ([`super::squad`]).

use std::io::Write;
use std::sync::atomic::AtomicBool;

use serde_json::json;

use super::runs::{ended, execute, extend, finish, json};
use super::{Failure, io};
use crate::dice::DieEvent;
use crate::question::duel::{DuelArgs, FirstArg, build};
use crate::question::outcomes::Outcomes;
use crate::rules::RuleOptions;
use crate::scenario::duel::{Duel, DuelTally, Fighter, Side};
use crate::sim::engine::{Engine, Run};

fn describe(f: &Fighter) -> String {
    format!(
        "{} (Skill {}, Use {}, Damage {}, Armor {})",
        f.name,
        f.attacker.skill.die(),
        f.attacker.use_rating,
        f.attacker.damage,
        f.armor
    )
}

pub fn run(
    a: &DuelArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if crate::question::squad::wanted(a) {
        return super::squad::run(a, opts, cancel, out);
    }
    let duel = build(a, opts)?;
    let flags = a.flags();
    let engine = flags.engine();
    if let Some(n) = a.run.replay_trial {
        return replay(&engine, &duel, n, a, out);
    }
    let (run, threads) = execute(&flags, &engine, &duel, "duels", cancel)?;
    let text = if a.run.out.json {
        json(&flags, json_report(&duel, &run, a, threads, opts), &run)?
    } else {
        table(&duel, &run, a, threads)
    };
    finish(&text, &run, out)
}

/// A replayed trial's dice, one narrated line each.
pub(super) fn log_lines(log: &[DieEvent], opts: &RuleOptions) -> String {
    log.iter()
        .map(|e| format!("  {}\n", super::roll::line(e, opts)))
        .collect()
}

fn json_report(
    duel: &Duel,
    run: &Run<DuelTally>,
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
    let m = t.mean_attacks();
    let mut o = json!({
        "a": describe(duel.a()),
        "b": describe(duel.b()),
        "first": format!("{:?}", a.first).to_lowercase(),
        "trials": run.trials,
        "seed": a.run.out.seed,
        "ended": ended(run.ended),
        "mean_attacks": m.point,
        "ci_mean_attacks": m.ci,
        "armor_ties": t.ties,
        "trials_per_sec": run.trials_per_sec(),
        "threads": threads,
        "options": opts,
    });
    extend(&mut o, &outcomes);
    o
}

fn table(duel: &Duel, run: &Run<DuelTally>, a: &DuelArgs, threads: usize) -> String {
    use crate::analysis::Estimate;
    let t = &run.tally;
    let mut s = format!("{}\n  vs {}\n", describe(duel.a()), describe(duel.b()));
    s.push_str(&format!(
        "first attacker: {}   trials {}   seed {}   ({})\n\n",
        match a.first {
            FirstArg::A => "A",
            FirstArg::B => "B",
            FirstArg::Random => "d6 roll-off",
        },
        run.trials,
        a.run.out.seed,
        ended(run.ended)
    ));
    let row = |name: &str, k: u64| {
        let e = Estimate::proportion(k, t.trials, 0.95);
        format!(
            "  {name:<22} {:.6}  [{:.6}, {:.6}]\n",
            e.point, e.ci[0], e.ci[1]
        )
    };
    s.push_str("                         P         95% CI\n");
    s.push_str(&row("A wins", t.a_wins));
    s.push_str(&row("B wins", t.b_wins));
    if t.draws > 0 || a.max_attacks < 1000 {
        s.push_str(&row(&format!("draw ({} attacks)", a.max_attacks), t.draws));
    }
    s.push_str(&row("first attacker wins", t.first_wins));
    let m = t.mean_attacks();
    s.push_str(&format!(
        "  {:<22} {:.4}  [{:.4}, {:.4}]\n",
        "mean attacks", m.point, m.ci[0], m.ci[1]
    ));
    s.push_str(&format!(
        "\n{:.2} M duels/s on {threads} thread{} ({:.2} s)\n",
        run.trials_per_sec() / 1e6,
        if threads == 1 { "" } else { "s" },
        run.elapsed.as_secs_f64()
    ));
    s
}

fn replay(
    engine: &Engine,
    duel: &Duel,
    n: u64,
    a: &DuelArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut log: Vec<DieEvent> = Vec::new();
    let o = engine.replay(duel, n, &mut log);
    let mut s = format!(
        "trial {n} of seed {} : {}\n  vs {}\n",
        a.run.out.seed,
        describe(duel.a()),
        describe(duel.b())
    );
    s.push_str(&log_lines(&log, duel.opts()));
    s.push_str(&format!(
        "{} after {} attacks ({} attacked first)\n",
        match o.winner {
            Some(Side::A) => "A wins",
            Some(Side::B) => "B wins",
            None => "draw",
        },
        o.attacks,
        match o.first {
            Side::A => "A",
            Side::B => "B",
        }
    ));
    io(out.write_all(s.as_bytes()))
}
