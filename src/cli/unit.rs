//! `diemon unit list` and `diemon unit show NAME`: stat cards and CP breakdowns.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;

use super::{Failure, io};
use crate::catalog::cost::{breakdown, unit_inches};
use crate::catalog::unit::{Armament, Mount, Unit};
use crate::catalog::variant::Swap;

#[derive(Args, Debug)]
pub struct UnitArgs {
    #[command(subcommand)]
    pub command: UnitCommand,
    /// A catalog file (TOML) whose units are added to the built-in ones, replacing any with
    /// the same key.
    #[arg(long, value_name = "FILE", global = true)]
    pub catalog: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum UnitCommand {
    /// Every unit in the catalog, with its CP.
    List,
    /// One unit's stat card and CP breakdown.
    #[command(
        after_help = "Examples:\n  diemon unit show minifig\n  diemon unit show horse --json\n  diemon unit show hero --unit-inches\n  diemon unit show minifig+hand-weapon+body-armor"
    )]
    Show {
        /// The unit's key, as `diemon unit list` prints it, with any armory items added as
        /// `duel` takes them: `minifig+hand-weapon+body-armor`.
        name: String,
        /// Print one JSON object: name, cp, breakdown ([item, cp] pairs), unpriced.
        #[arg(long)]
        json: bool,
        /// Also give the 2020 price in Unit Inches (Ü), where the texts give one.
        #[arg(long)]
        unit_inches: bool,
    },
}

pub fn run(a: &UnitArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let cat = crate::question::catalog(a.catalog.as_ref(), None)?;
    match &a.command {
        UnitCommand::List => {
            let mut s = format!("{:<30} {:>6}  {}\n", "unit", "CP", "source");
            for u in cat.units() {
                let b = breakdown(u);
                let cp = if b.items.is_empty() {
                    "-".to_string()
                } else {
                    b.total().to_string()
                };
                s.push_str(&format!("{:<30} {:>6}  {}\n", u.key, cp, u.spec.source));
            }
            s.push_str(
                "\nSources are chapters and sections of the rule texts; \"readings §N\" is \
                 section N of docs/readings.md.\n",
            );
            io(out.write_all(s.as_bytes()))
        }
        UnitCommand::Show {
            name,
            json,
            unit_inches: ui,
        } => {
            // `NAME+ITEM+...` as `duel` takes it: the unit with armory items added.
            let u = cat
                .equipped(name)
                .map_err(|e| Failure::input(e.to_string()))?;
            let text = if *json { show_json(&u) } else { card(&u, *ui) };
            io(out.write_all(text.as_bytes()))
        }
    }
}

fn show_json(u: &Unit) -> String {
    let b = breakdown(u);
    let v = json!({
        "name": u.key,
        "title": u.spec.name,
        "cp": b.total(),
        "breakdown": b.items.iter().map(|(i, c)| json!([i, c])).collect::<Vec<_>>(),
        "unpriced": b.unpriced,
        "unit_inches": unit_inches(u),
        "size": u.spec.size,
        "structure": u.spec.structure.to_string(),
        "armor": u.armor.to_string(),
        "move": u.spec.move_inches,
        "skill": u.skill.to_string(),
        "power": u.power(),
        "weapons": u.weapons,
        "assumed": u.spec.assumed,
    });
    format!("{v}\n")
}

fn card(u: &Unit, ui: bool) -> String {
    let s = &u.spec;
    let b = breakdown(u);
    let mut t = format!("{}  ({})\n", s.name, s.source);
    t.push_str(&format!(
        "  Size {}\"   Structure Level {} (limbs {})   {}\n",
        s.size,
        s.structure,
        s.structure.limb(),
        match s.connection_strength {
            // Ch. 10.4: "a Connection Strength rating rather than an Armor rating".
            Some(c) => format!("Connection Strength {c} (a Construct: in place of Armor)"),
            None => format!("Armor {}", u.armor),
        }
    ));
    t.push_str(&format!(
        "  Move {}\" {:?}   Skill 1{}   Mind {:?}   Power {}\"   hands {}\n",
        s.move_inches,
        s.propulsion,
        u.skill,
        s.mind,
        u.power(),
        s.hands
    ));
    if s.multitasking + s.multidexterity > 0 {
        t.push_str(&format!(
            "  Multitasking {}   Multidexterity {}\n",
            s.multitasking, s.multidexterity
        ));
    }
    for w in &u.weapons {
        t.push_str(&format!("  weapon: {}\n", weapon_line(w)));
    }
    for (label, list) in [
        ("specialties", &s.specialties),
        ("traits", &s.traits),
        ("assumed by diemon, not in the texts", &s.assumed),
    ] {
        if !list.is_empty() {
            t.push_str(&format!("  {label}: {}\n", list.join(", ")));
        }
    }
    if !u.sn_dice.is_empty() {
        let dice: Vec<String> = u.sn_dice.iter().map(|d| d.to_string()).collect();
        t.push_str(&format!("  SuperNatural dice: {}\n", dice.join(", ")));
    }
    t.push_str("\nCost\n");
    for (item, cp) in &b.items {
        t.push_str(&format!("  {item:<46} {cp:>6} CP\n"));
    }
    t.push_str(&format!("  {:<46} {:>6} CP\n", "total", b.total()));
    for x in &b.unpriced {
        t.push_str(&format!("  not counted: {x}\n"));
    }
    if ui {
        match unit_inches(u) {
            Some(v) => t.push_str(&format!("  Unit Inches (2020): {v} Ü\n")),
            None => t.push_str("  Unit Inches (2020): not given in the texts for this unit\n"),
        }
    }
    t
}

fn weapon_line(w: &Armament) -> String {
    match w {
        Armament::Item(i) => {
            let mut s = i.name.to_string();
            if let Some(u) = i.use_rating {
                s.push_str(&format!("  Use {u}"));
            }
            if i.damage.is_some() || i.use_rating.is_some() {
                s.push_str(&format!("  Range {}", i.range));
            }
            if let Some(d) = i.damage {
                s.push_str(&format!("  Damage {d}"));
            }
            for n in i.notes {
                s.push_str(&format!("; {n}"));
            }
            s
        }
        Armament::Sized {
            name,
            stats,
            mount,
            variant,
        } => format!(
            "{name} ({}\" {}{}{}{})  Use {}  Range {}  Damage {}",
            stats.size,
            match variant {
                Swap::All(v) if !v.is_standard() => format!("{v} "),
                _ => String::new(),
            },
            stats.kind,
            match variant {
                Swap::Some(_) if !variant.is_standard() => format!(", {variant} swapped in"),
                _ => String::new(),
            },
            match mount {
                Mount::Hand => "",
                Mount::Carriage => " on a carriage: hauled at Half Speed",
            },
            stats.use_rating.map_or("-".to_string(), |u| u.to_string()),
            stats.range,
            stats.damage
        ),
    }
}
