//! `diemon duel`: two units in base contact attack in turn until one dies (`SKILL/USE/
//! DAMAGE/ARMOR` shorthand), or two squads of catalog units fight it out ([`super::squad`]).

use std::io::Write;
use std::sync::atomic::AtomicBool;

use super::runs::answer;
use super::{Failure, io};
use crate::dice::{Entry, Narration};
use crate::question::duel::{DuelAnswer, DuelArgs, FirstArg, ask, build, describe};
use crate::question::outcomes::Share;
use crate::rules::RuleOptions;
use crate::scenario::duel::{Duel, Side};
use crate::sim::engine::Engine;

pub fn run(
    a: &DuelArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if crate::question::squad::wanted(a) {
        return super::squad::run(a, opts, cancel, out);
    }
    let flags = a.flags();
    if let Some(n) = a.run.replay_trial {
        let duel = build(a, opts)?;
        return replay(&flags.engine(), &duel, n, a, out);
    }
    answer(
        &flags,
        "duels",
        a.run.out.json,
        |progress| ask(a, opts, progress, cancel),
        |r| &r.ran,
        |r| table(r, a),
        out,
    )
}

fn table(r: &DuelAnswer, a: &DuelArgs) -> String {
    let mut s = format!("{}\n  vs {}\n", r.a, r.b);
    s.push_str(&format!(
        "first attacker: {}   trials {}   seed {}   ({})\n\n",
        match a.first {
            FirstArg::A => "A",
            FirstArg::B => "B",
            FirstArg::Random => "d6 roll-off",
        },
        r.ran.trials,
        r.ran.seed,
        r.ran.ended
    ));
    let row = |name: &str, e: &Share| {
        format!(
            "  {name:<22} {:.6}  [{:.6}, {:.6}]\n",
            e.point, e.ci[0], e.ci[1]
        )
    };
    let [wa, wb, draw, first] = r.outcomes.shares;
    s.push_str("                         P         95% CI\n");
    s.push_str(&row("A wins", &wa));
    s.push_str(&row("B wins", &wb));
    if r.outcomes.draw().point > 0.0 || a.max_attacks < 1000 {
        s.push_str(&row(&format!("draw ({} attacks)", a.max_attacks), &draw));
    }
    s.push_str(&row("first attacker wins", &first));
    s.push_str(&format!(
        "  {:<22} {:.4}  [{:.4}, {:.4}]\n",
        "mean attacks", r.mean_attacks, r.ci_mean_attacks[0], r.ci_mean_attacks[1]
    ));
    s.push_str(&format!("\n{}\n", r.ran.speed("duels", 2)));
    s
}

/// A replayed trial: who attacks, its dice, and what each attack did.
fn replay(
    engine: &Engine,
    duel: &Duel,
    n: u64,
    a: &DuelArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut log = Narration::default();
    let o = engine.replay(duel, n, &mut log);
    let mut s = format!(
        "trial {n} of seed {} : {}\n  vs {}\n",
        a.run.out.seed,
        describe(duel.a()),
        describe(duel.b())
    );
    for e in &log.0 {
        match e {
            Entry::Note(t) => s.push_str(&format!("{t}\n")),
            Entry::Die(d) => s.push_str(&format!("    {}\n", super::roll::line(d, duel.opts()))),
        }
    }
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
