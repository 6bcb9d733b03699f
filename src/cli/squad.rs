//! `diemon duel` with catalog units: squads, CP budgets, policies per side.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use super::runs::answer;
use super::{Failure, io};
use crate::dice::Entry;
use crate::question::duel::DuelArgs;
use crate::question::outcomes::Share;
use crate::question::squad::{SquadAnswer, ask, build, describe};
use crate::report::map;
use crate::rules::RuleOptions;
use crate::scenario::squad::Squad;

pub fn run(
    a: &DuelArgs,
    opts: &RuleOptions,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let flags = a.flags();
    if a.map.is_some() && (a.run.replay_trial.is_none() || a.table.is_none()) {
        return Err(Failure::input(
            "--map draws one replayed battle on a table\nhint: add --replay-trial N and --table LAYOUT (open, scattered, wall-line, town or a file)",
        ));
    }
    if let Some(n) = a.run.replay_trial {
        let squad = build(a, opts)?;
        return replay(&squad, n, a, opts, out);
    }
    answer(
        &flags,
        "squad duels",
        a.run.out.json,
        |progress| ask(a, opts, progress, cancel),
        |r| &r.ran,
        |r| table(r, a),
        out,
    )
}

/// Where the battle stands: so far apart, or on a table and for what.
fn where_(r: &SquadAnswer, a: &DuelArgs) -> String {
    let Some(t) = &a.table else {
        return format!("{}\" apart", r.distance);
    };
    let named = diemon_core::scenario::table::named::NAMES.contains(&t.as_str());
    let size = if named {
        format!(
            " {}\" x {}\" (table seed {})",
            a.table_width,
            crate::question::table::depth(a.table_depth, a.distance, a.room),
            a.table_seed
        )
    } else {
        String::new()
    };
    format!(
        "table {t}{size}, fronts {}\" apart, objective {}",
        r.distance,
        a.objective.name()
    )
}

fn table(r: &SquadAnswer, a: &DuelArgs) -> String {
    let mut s = format!("A: {}\nB: {}\n", r.a, r.b);
    let (ca, cb) = (r.cp_a, r.cp_b);
    s.push_str(&format!(
        "CP fielded: A {ca}, B {cb} ({}){}\n",
        match r.cp_gap.in_quarters().signum() {
            0 => "even".to_string(),
            1 => format!("A fields {} CP more", r.cp_gap),
            _ => format!("B fields {} CP more", cb - ca),
        },
        match a.budget {
            Some(b) => format!("; budget {b} CP, whole units only"),
            None => String::new(),
        }
    ));
    s.push_str(&format!(
        "{}   first: {}   trials {}   seed {}   ({})\n\n",
        where_(r, a),
        match r.first.as_str() {
            "random" => "d6 roll-off",
            x => x,
        },
        r.ran.trials,
        r.ran.seed,
        r.ran.ended
    ));
    let row = |name: &str, e: &Share| {
        format!(
            "  {name:<22} {:>10.6}  [{:.6}, {:.6}]\n",
            e.point, e.ci[0], e.ci[1]
        )
    };
    let mean = |name: &str, point: f64, ci: [f64; 2]| {
        format!("  {name:<22} {point:>10.4}  [{:.4}, {:.4}]\n", ci[0], ci[1])
    };
    let [wa, wb, draw, first] = r.outcomes.shares;
    s.push_str("                                  95% CI\n");
    s.push_str(&row("P(A wins)", &wa));
    s.push_str(&row("P(B wins)", &wb));
    s.push_str(&row("P(draw)", &draw));
    s.push_str(&format!(
        "    both sides fell, or both stood after {} turns\n",
        a.max_turns
    ));
    s.push_str(&row("P(first side wins)", &first));
    s.push_str(&mean("mean turns", r.mean_turns, r.ci_mean_turns));
    s.push_str(&mean("A survivors (mean)", r.survivors_a, r.ci_survivors_a));
    s.push_str(&mean("B survivors (mean)", r.survivors_b, r.ci_survivors_b));
    s.push_str(&mean("A CP left (mean)", r.cp_left_a, r.ci_cp_left_a));
    s.push_str(&mean("B CP left (mean)", r.cp_left_b, r.ci_cp_left_b));
    if let (Some(c), Some(ci)) = (r.converted, r.ci_converted) {
        s.push_str(&mean("Minds converted (mean)", c, ci));
    }
    if let (Some(v), Some(ci)) = (r.revived, r.ci_revived) {
        s.push_str(&mean("revived (mean)", v, ci));
    }
    if let Some(x) = &r.explosives {
        // Kills by weapon: what the Explosives felled, the rest fell to everything else.
        let sides = [
            (
                'A',
                x.blasted_a.zip(x.ci_blasted_a),
                x.blasted_own_a.zip(x.ci_blasted_own_a),
            ),
            (
                'B',
                x.blasted_b.zip(x.ci_blasted_b),
                x.blasted_own_b.zip(x.ci_blasted_own_b),
            ),
        ];
        for (name, enemy, own) in sides {
            if let (Some(enemy), Some(own)) = (enemy, own) {
                s.push_str(&mean(
                    &format!("{name}'s Explosives fell"),
                    enemy.0,
                    enemy.1,
                ));
                s.push_str(&mean(&format!("  of {name}'s own side"), own.0, own.1));
            }
        }
    }
    if let Some(x) = &r.automatic {
        let sides = [
            ('A', x.swept_a.zip(x.ci_swept_a)),
            ('B', x.swept_b.zip(x.ci_swept_b)),
        ];
        for (name, got) in sides {
            if let Some((v, ci)) = got {
                s.push_str(&mean(&format!("{name}'s auto fire fell"), v, ci));
            }
        }
    }
    for (name, lines, cp) in [
        ('A', &r.inert_a, r.inert_cp_a),
        ('B', &r.inert_b, r.inert_cp_b),
    ] {
        if !lines.is_empty() {
            s.push_str(&format!(
                "\npriced but inert in this battle, side {name} ({cp} CP fielded for nothing):\n"
            ));
            for l in lines {
                s.push_str(&format!("  {l}\n"));
            }
        }
    }
    s.push_str(&format!("\n{}\n", r.ran.speed("squad duels", 3)));
    s
}

fn replay(
    squad: &Squad,
    n: u64,
    a: &DuelArgs,
    opts: &RuleOptions,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut picture = map::Picture::default();
    let (_, o) = crate::question::squad::replay(a, opts, n, &mut picture)?;
    let mut s = format!(
        "trial {n} of seed {}\nA: {}\nB: {}\n",
        a.run.out.seed,
        describe(squad, 0),
        describe(squad, 1)
    );
    for e in &picture.narration.0 {
        match e {
            Entry::Note(t) => s.push_str(&format!("{t}\n")),
            Entry::Die(d) => s.push_str(&format!("      {}\n", super::roll::line(d, squad.opts()))),
        }
    }
    let ending = map::ending(&o);
    s.push_str(&format!("{ending}\n"));
    if let Some(path) = &a.map {
        let title = format!(
            "A: {}   B: {}\ntrial {n} of seed {}: {ending}",
            describe(squad, 0),
            describe(squad, 1),
            a.run.out.seed
        );
        let svg = map::draw(squad, &picture, &title, true)
            .ok_or_else(|| Failure::input("--map draws a battle on a table: add --table"))?;
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
        let dir = dir.unwrap_or(std::path::Path::new("."));
        let name = path.file_name().ok_or_else(|| {
            Failure::input(format!("--map {}: expected a file name", path.display()))
        })?;
        crate::export::write_text_atomic(dir, &name.to_string_lossy(), &svg)
            .map_err(|e| Failure::input(e.to_string()))?;
        s.push_str(&format!("map written to {}\n", path.display()));
    }
    io(out.write_all(s.as_bytes()))
}
