//! `diemon weapon KIND --size N`: a weapon's stats by the Ch. 8.1 formulas; `diemon weapon
//! list`: the kinds and the named items.

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::{Failure, io};
use crate::catalog::armory::{ARMORY, item_named};
use crate::catalog::weapon::{Stats, WeaponKind};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  diemon weapon launcher --size 3\n  diemon weapon melee-weapon --size 4 --json\n  diemon weapon shotgun\n  diemon weapon list"
)]
pub struct WeaponArgs {
    /// A kind (melee-weapon, melee-shield, gun, machine-gun, blast-gun, flame-thrower,
    /// explosive, rocket, cannon, launcher), a named item (hand-weapon, shotgun ...), or
    /// `list`.
    pub kind: String,
    /// Weapon Size in inches (Explosive Size in bricks for explosive and rocket).
    #[arg(long, short)]
    pub size: Option<u32>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &WeaponArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if a.kind == "list" {
        return io(out.write_all(list().as_bytes()));
    }
    if let Some(k) = WeaponKind::from_key(&a.kind) {
        let size = a.size.ok_or_else(|| {
            Failure::input(format!(
                "{k} needs --size N\nhint: e.g. `diemon weapon {k} --size 2`"
            ))
        })?;
        let st = k.at(size).map_err(|e| Failure::input(e.to_string()))?;
        let text = if a.json {
            format!("{}\n", stats_json(&st))
        } else {
            stats_text(&st)
        };
        return io(out.write_all(text.as_bytes()));
    }
    if let Some(i) = item_named(&a.kind) {
        if a.size.is_some() {
            return Err(Failure::input(format!(
                "{} has fixed stats; --size applies to the Ch. 8.1 kinds",
                i.key
            )));
        }
        let text = if a.json {
            format!("{}\n", json!(i))
        } else {
            let mut s = format!("{}  ({})\n", i.name, i.source);
            s.push_str(&format!(
                "  Use {}   Range {}   Damage {}   hands {}\n",
                i.use_rating.map_or("-".into(), |u| u.to_string()),
                i.range,
                i.damage.unwrap_or("-"),
                i.hands
            ));
            for n in i.notes {
                s.push_str(&format!("  {n}\n"));
            }
            s.push_str(&format!(
                "  cost {}\n",
                i.cost
                    .map_or("not priced in the texts".into(), |c| format!("{c} CP"))
            ));
            for c in i.assumed {
                s.push_str(&format!(
                    "  assumed: {c} (the text's table lost this cell; see `diemon weapon list`)\n"
                ));
            }
            s
        };
        return io(out.write_all(text.as_bytes()));
    }
    Err(Failure::input(format!(
        "no weapon kind or item called {:?}\nhint: `diemon weapon list` shows them",
        a.kind
    )))
}

fn stats_json(st: &Stats) -> serde_json::Value {
    json!({
        "kind": st.kind,
        "size": st.size,
        "use": st.use_rating,
        "range": st.range.to_string(),
        "damage": st.damage.to_string(),
        "notes": st.notes,
        "cost": st.cost,
        "power": st.power,
        "assumed": st.assumed,
    })
}

fn stats_text(st: &Stats) -> String {
    let unit = if st.kind.sized_in_bricks() {
        "XSize"
    } else {
        "WSize"
    };
    let mark = |cell: &str| {
        if st.assumed.contains(&cell) {
            " (assumed)"
        } else {
            ""
        }
    };
    let mut s = format!(
        "{} at {unit} {}  ({})\n",
        st.kind,
        st.size,
        st.kind.source()
    );
    let no_use = match st.kind {
        WeaponKind::Spawner => "none (automatic)",
        _ => "of its launcher",
    };
    s.push_str(&format!(
        "  Use     {}{}\n",
        st.use_rating.map_or(no_use.into(), |u| u.to_string()),
        mark("use")
    ));
    s.push_str(&format!("  Range   {}{}\n", st.range, mark("range")));
    s.push_str(&format!("  Damage  {}{}\n", st.damage, mark("damage")));
    for n in &st.notes {
        s.push_str(&format!("  note    {n}\n"));
    }
    s.push_str(&format!("  Power   {}\" to activate\n", st.power));
    s.push_str(&format!(
        "  cost    {} CP ({})\n",
        st.cost,
        st.kind.cost_source()
    ));
    if !st.assumed.is_empty() {
        s.push_str(
            "  (assumed) cells are missing from the text's table; diemon's fill is documented in docs/rules-coverage.md\n",
        );
    }
    s
}

fn list() -> String {
    let mut s = String::from("Kinds by Weapon Size (diemon weapon KIND --size N):\n");
    for k in WeaponKind::ALL {
        s.push_str(&format!("  {k}\n"));
    }
    s.push_str("\nNamed items (diemon weapon NAME):\n");
    for i in ARMORY {
        s.push_str(&format!(
            "  {:<20} {:<34} {}\n",
            i.key,
            i.name,
            i.cost.map_or("-".into(), |c| format!("{c} CP"))
        ));
    }
    s
}
