//! `diemon table NAME|FILE`: a table's layout (issue 43, first part): its size, its
//! deployment zones and its terrain, drawn an inch a character, or a layout file's errors,
//! each at its line and column (exit 2).

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::{Failure, io};
use diemon_core::scenario::table::{Point, Table, TerrainKind};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  diemon table scattered --seed 7\n  diemon table town --width 36 --depth 36\n  diemon table my-table.toml\n  diemon table wall-line --json\n\nA layout file gives `width` and `depth` in inches, `zone` (how deep each side deploys, 6\" by default) and a [[terrain]] table a piece: `kind` (wall, low-wall, building, woods), `corners` ([[across, along], ...], in order) and `height` (the kind's own if left out). docs/model.md, \"Tables\", says how sight and cover are read from it."
)]
pub struct TableArgs {
    /// A named layout (open, scattered, wall-line, town) or a layout file (TOML).
    pub layout: String,
    /// Inches across a named layout.
    #[arg(long, default_value_t = 48)]
    pub width: u32,
    /// Inches along a named layout, from side A's edge to side B's [default: 48; with
    /// --distance, the distance and 12" behind each side's front].
    #[arg(long)]
    pub depth: Option<u32>,
    /// The sides' fronts this many inches apart, either side of the middle line (as
    /// `duel --table --distance`): a named layout lays its terrain between them.
    #[arg(long, value_name = "INCHES")]
    pub distance: Option<u32>,
    /// The seed a named layout is laid out from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &TableArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (table, from) = load(a)?;
    let text = if a.json {
        format!("{}\n", to_json(&table))
    } else {
        format!("{from}\n{}", draw(&table))
    };
    io(out.write_all(text.as_bytes()))
}

/// The table `a` names, and a line saying where it came from.
fn load(a: &TableArgs) -> Result<(Table, String), Failure> {
    Ok(crate::question::table::load(
        &a.layout,
        a.width,
        crate::question::table::depth(a.depth, a.distance, diemon_core::scenario::squad::ROOM),
        a.distance,
        a.seed,
    )?)
}

/// The largest table drawn in the terminal, in inches a side.
const MAP: usize = 120;

/// The character of a terrain kind on the map.
fn glyph(k: TerrainKind) -> char {
    match k {
        TerrainKind::Wall => '=',
        TerrainKind::LowWall => '-',
        TerrainKind::Building => '#',
        TerrainKind::Woods => '%',
    }
}

/// The table an inch a character, side B's edge at the top, with a key and the pieces
/// listed.
fn draw(t: &Table) -> String {
    let (w, d) = (t.width().ceil() as usize, t.depth().ceil() as usize);
    let mut s = String::new();
    if w > MAP || d > MAP {
        s.push_str(&format!(
            "  (the map is drawn for tables up to {MAP}\" a side; --json gives every piece)\n"
        ));
    }
    for row in (0..d).rev().filter(|_| w <= MAP && d <= MAP) {
        s.push_str("  ");
        for col in 0..w {
            let p = Point::new(col as f64 + 0.5, row as f64 + 0.5);
            // A square inch shows terrain that covers any of nine points of it, so a
            // half-inch wall is not lost between two rows.
            let covers = |x: &diemon_core::scenario::table::Terrain| {
                [0.25, 0.5, 0.75].iter().any(|dx| {
                    [0.25, 0.5, 0.75].iter().any(|dy| {
                        x.outline
                            .contains(Point::new(col as f64 + dx, row as f64 + dy))
                    })
                })
            };
            let c = match t.terrain().iter().rev().find(|x| covers(x)) {
                Some(x) => glyph(x.kind),
                None if t.zone(1).contains(p) => 'b',
                None if t.zone(0).contains(p) => 'a',
                None => '.',
            };
            s.push(c);
        }
        s.push('\n');
    }
    if w <= MAP && d <= MAP {
        s.push_str("  key: a b  side A's and side B's zones   # building   = wall   - low wall   % woods\n");
    }
    for (n, x) in t.terrain().iter().enumerate() {
        let corners: Vec<String> = x
            .outline
            .corners()
            .iter()
            .map(|c| format!("({}, {})", c.x, c.y))
            .collect();
        s.push_str(&format!(
            "  {:>3}  {:<8} {}\" high  {}\n",
            n + 1,
            x.kind.name(),
            x.height,
            corners.join(" ")
        ));
    }
    s
}

fn to_json(t: &Table) -> serde_json::Value {
    let corners = |o: &diemon_core::scenario::table::Outline| {
        o.corners().iter().map(|c| [c.x, c.y]).collect::<Vec<_>>()
    };
    json!({
        "width": t.width(),
        "depth": t.depth(),
        "zones": [corners(t.zone(0)), corners(t.zone(1))],
        "terrain": t.terrain().iter().map(|x| json!({
            "kind": x.kind.name(),
            "height": x.height,
            "corners": corners(&x.outline),
        })).collect::<Vec<_>>(),
    })
}
