//! `diemon roll`: one roll, narrated die by die, reproducible from its seed.

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::{Failure, bad_expr, io};
use crate::dice::bonus::{DieUse, bonus_die};
use crate::dice::{DieEvent, Expr, Role, TermKind};
use crate::rules::{DoubleFumble, FumbleUse, RuleOptions};
use crate::sim::stream;

#[derive(Args, Debug)]
pub struct RollArgs {
    /// The dice expression, e.g. "2d10 exp + 1" or "d6 skill bless d8".
    pub expr: String,

    /// Seed (printed when not given, so any roll can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,

    /// Print one JSON object: total, flags and every die.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &RollArgs, opts: &RuleOptions, out: &mut dyn Write) -> Result<(), Failure> {
    let expr = Expr::parse(&a.expr).map_err(|e| bad_expr("<expression>", &a.expr, &e))?;
    let seed = a.seed.unwrap_or_else(rand::random);
    // `roll` uses cell u64::MAX so it never shares a stream with `dist --mc`'s first rolls.
    let mut rng = stream(seed, u64::MAX, 0);
    let mut log: Vec<DieEvent> = Vec::new();
    let o = expr.roll(opts, &mut rng, &mut log);
    let text = if a.json {
        let dice: Vec<_> = log
            .iter()
            .map(|e| {
                json!({"term": e.term, "die": e.die.to_string(), "face": e.face,
                       "role": format!("{:?}", e.role), "counted": e.counted})
            })
            .collect();
        format!(
            "{}\n",
            json!({"expr": expr.text(), "seed": seed, "total": o.total,
                   "critical_failure": o.critical_failure, "overskill": o.overskill,
                   "fumbles": o.fumbles, "dice": dice})
        )
    } else {
        let mut s = format!("{expr}   (seed {seed})\n");
        s.push_str(&narrate(&expr, &log, opts));
        s.push_str(&format!("total {}", o.total));
        if o.critical_failure {
            s.push_str("   Critical Failure");
        }
        if o.overskill {
            s.push_str("   Overskill Benny");
        }
        if o.fumbles > 0 {
            s.push_str(&format!("   {} Fumble Dice to the opponent", o.fumbles));
        }
        s.push('\n');
        s
    };
    io(out.write_all(text.as_bytes()))
}

/// One line per die, grouped under its term.
fn narrate(expr: &Expr, log: &[DieEvent], opts: &RuleOptions) -> String {
    let mut s = String::new();
    for (i, term) in expr.terms().iter().enumerate() {
        let sign = if term.negative { "-" } else { "+" };
        match term.kind {
            TermKind::Const(c) => s.push_str(&format!("  {sign} {c}\n")),
            _ => {
                let events: Vec<&DieEvent> = log.iter().filter(|e| e.term == i).collect();
                let head = match term.kind {
                    TermKind::Dice { count, die, kind } => {
                        format!(
                            "{count}{die}{}{}",
                            if kind.tag().is_empty() { "" } else { " " },
                            kind.tag()
                        )
                    }
                    TermKind::Skill(r) => r.to_string(),
                    TermKind::Sn(r) => format!("sn {}{}", r.count, r.die),
                    TermKind::Const(_) => String::new(),
                };
                s.push_str(&format!("  {sign} {head}\n"));
                for e in events {
                    s.push_str(&format!("      {}\n", line(e, opts)));
                }
            }
        }
    }
    s
}

pub(super) fn line(e: &DieEvent, opts: &RuleOptions) -> String {
    let top = e.face == e.die.sides();
    // Regular d4s earn none unless `d4_bonus` says so (Ch. 10.3); a die that counts for
    // nothing (a scatter's direction d20) earns none.
    let earns = top && e.counted != 0 && bonus_die(e.die, DieUse::Regular, opts).is_some();
    let (who, note) = match e.role {
        Role::Regular | Role::Bonus => (
            if e.role == Role::Bonus { "Bonus " } else { "" },
            if earns {
                "top face: earns a Bonus Die (Ch. 4.2)"
            } else {
                ""
            }
            .to_string(),
        ),
        Role::Skill => (
            "Skill ",
            if e.face == 1 {
                "natural 1: Critical Failure (Ch. D.4)".into()
            } else if e.face >= 6 {
                "natural 6+: Overskill Benny (Ch. 4.2)".into()
            } else {
                String::new()
            },
        ),
        Role::Blessing => ("Blessing ", "the higher is kept (Ch. D.4)".into()),
        Role::Curse => ("Curse ", "the lower is kept (Ch. D.4)".into()),
        Role::SuperNatural | Role::SnBonus | Role::DoubleFumble => (
            match e.role {
                Role::SnBonus => "SN Bonus ",
                Role::DoubleFumble => "double-Fumbled back, owner rolls ",
                _ => "SN ",
            },
            if e.counted == 0 && e.face == 1 {
                match opts.fumble {
                    FumbleUse::Subtract => {
                        "1: Fumble, the opponent rolls it against the Effect (Ch. D.3)".into()
                    }
                    FumbleUse::Ignore => "1: Fumble, lost to the Effect (fumble=ignore)".into(),
                }
            } else if top {
                "top face: earns a same-size SN Bonus Die (Ch. D.3)".into()
            } else {
                String::new()
            },
        ),
        Role::Fumble | Role::FumbleBonus => (
            if e.role == Role::Fumble {
                "Fumble (opponent) "
            } else {
                "Bonus Fumble (opponent) "
            },
            if e.counted == 0 && e.face == 1 {
                match opts.double_fumble {
                    DoubleFumble::OwnerRolls => {
                        "1: double Fumble, back to the owner (Ch. D.3)".into()
                    }
                    DoubleFumble::Lost => {
                        "1: double Fumble, back to the owner, adds nothing".into()
                    }
                }
            } else if top {
                format!(
                    "subtracts {}; top face: a Bonus Fumble Die (Ch. D.3)",
                    e.face
                )
            } else {
                format!("subtracts {}", e.face)
            },
        ),
    };
    let mut l = format!("{who}{}: {}", e.die, e.face);
    if !note.is_empty() {
        l.push_str("   ");
        l.push_str(&note);
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;

    #[test]
    fn a_direction_die_on_its_top_face_earns_no_bonus_die() {
        let o = RuleOptions::default();
        let die = |counted| DieEvent {
            term: 0,
            die: Die::D20,
            face: 20,
            role: Role::Regular,
            counted,
        };
        assert!(line(&die(20), &o).contains("earns a Bonus Die"));
        assert!(
            !line(&die(0), &o).contains("Bonus"),
            "{}",
            line(&die(0), &o)
        );
    }
}
