//! A battle's map (issue 43): one replayed battle on its table as SVG, turn by turn.
//!
//! [`Picture`] is the log a replay keeps: the narration and the [`Scene`]s the battle
//! passes it. [`svg`] draws them over the table: the zones, the terrain, the centre an
//! objective is fought over, then a group a player turn (`<g class="turn"
//! data-turn="N">`) holding its walks, attacks, Explosions and falls, and the figures where
//! each turn left them (`<g class="at" data-turn="N">`, only the last shown). A page steps
//! through the battle by showing the turns up to N and the places after N; the file alone
//! shows it all. The SVG is written by hand rather than by plotters: plotters draws charts,
//! and has no groups a page could step through.

use std::fmt::Write;

use diemon_core::dice::{DieEvent, Log, Narration, Scene};
use diemon_core::scenario::duel::Side;
use diemon_core::scenario::squad::board::{CENTRE, Objective};
use diemon_core::scenario::squad::{Squad, SquadOutcome};
use diemon_core::scenario::table::{Table, TerrainKind};

/// A replay's narration and what its map draws.
#[derive(Clone, Debug, Default)]
pub struct Picture {
    /// The dice and notes, as `--replay-trial` prints them.
    pub narration: Narration,
    /// The scenes, in order.
    pub scenes: Vec<Scene>,
}

impl Log for Picture {
    const NOTES: bool = true;

    fn die(&mut self, event: DieEvent) {
        self.narration.die(event);
    }

    fn note(&mut self, what: std::fmt::Arguments<'_>) {
        self.narration.note(what);
    }

    fn scene(&mut self, what: Scene) {
        self.scenes.push(what);
    }
}

/// What a map needs besides its scenes.
pub struct Map<'a> {
    /// The table fought on.
    pub table: &'a Table,
    /// What it was fought for.
    pub objective: Objective,
    /// Each slot's name (`A1 minifig-rifle`).
    pub names: &'a [String],
    /// The title: up to two lines (the sides; the seed and the outcome).
    pub title: &'a str,
    /// Names and title drawn as text; without, only as tooltips (a report's page gives
    /// them in its own words, at a size a phone can read).
    pub labels: bool,
}

/// How a battle ended, in one line.
pub fn ending(o: &SquadOutcome) -> String {
    let side = |s: Side| if s == Side::A { "A" } else { "B" };
    format!(
        "{} after {} turns ({} went first); survivors A {} B {}",
        match o.winner {
            Some(s) => format!("{} wins", side(s)),
            None => "draw".to_string(),
        },
        o.turns,
        side(o.first),
        o.survivors[0],
        o.survivors[1]
    )
}

/// The map of a replayed `squad` (`None` off a table), titled `title`.
pub fn draw(squad: &Squad, picture: &Picture, title: &str, labels: bool) -> Option<String> {
    let table = squad.table()?;
    let names = squad.names();
    let map = Map {
        table,
        objective: squad.objective(),
        names: &names,
        title,
        labels,
    };
    Some(svg(&map, &picture.scenes))
}

const SIDE_COLOUR: [&str; 2] = ["#1f5fbf", "#c0392b"];

fn terrain_style(k: TerrainKind) -> &'static str {
    match k {
        TerrainKind::Wall => "fill:#555;stroke:#333",
        TerrainKind::LowWall => "fill:#aaa;stroke:#777",
        TerrainKind::Building => "fill:#a9825a;stroke:#6b4f33",
        TerrainKind::Woods => "fill:#5a9e5a;fill-opacity:0.55;stroke:#3c6e3c",
    }
}

/// A point `x,y` (as [`svg`]'s `pt` writes it) as two attributes: `cx="x" cy="y"`.
fn attrs(names: (&str, &str), p: String) -> String {
    let (x, y) = p.split_once(',').unwrap_or((&p, "0"));
    format!(r#"{}="{x}" {}="{y}""#, names.0, names.1)
}

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The map of `scenes` as an SVG document.
pub fn svg(map: &Map, scenes: &[Scene]) -> String {
    let (w, d) = (map.table.width(), map.table.depth());
    // Table inches are the SVG's units; y runs up the table (side A's edge at the bottom).
    let y = |v: f64| d - v;
    let pt = |p: (f64, f64)| format!("{:.3},{:.3}", p.0, y(p.1));
    let scale = (900.0 / w.max(d)).max(4.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -5 {vw} {vh}" width="{pw:.0}" height="{ph:.0}" font-family="sans-serif">"#,
        vw = w + 2.0,
        vh = d + 6.0,
        pw = (w + 2.0) * scale,
        ph = (d + 6.0) * scale,
    );
    let _ = write!(
        s,
        r#"<title>{}</title>"#,
        esc(&map.title.replace('\n', " "))
    );
    let title = if map.labels { map.title } else { "" };
    for (k, line) in title.lines().take(2).enumerate() {
        let _ = write!(
            s,
            r#"<text x="0" y="{}" font-size="{:.2}">{}</text>"#,
            -3.4 + 1.6 * k as f64,
            (w + 2.0) / 60.0,
            esc(line)
        );
    }
    let _ = write!(
        s,
        r##"<rect x="0" y="0" width="{w}" height="{d}" fill="#f4f1e8" stroke="#888" stroke-width="0.1"/>"##
    );
    for (side, colour) in SIDE_COLOUR.iter().enumerate() {
        let z = map.table.zone(side);
        let pts: Vec<String> = z.corners().iter().map(|p| pt((p.x, p.y))).collect();
        let _ = write!(
            s,
            r#"<polygon points="{}" fill="{colour}" fill-opacity="0.08"/>"#,
            pts.join(" "),
        );
    }
    for t in map.table.terrain() {
        let pts: Vec<String> = t.outline.corners().iter().map(|p| pt((p.x, p.y))).collect();
        let _ = write!(
            s,
            r#"<polygon points="{}" style="{};stroke-width:0.08"><title>{} {}"</title></polygon>"#,
            pts.join(" "),
            terrain_style(t.kind),
            t.kind.name(),
            t.height
        );
    }
    if let Objective::Hold { .. } = map.objective {
        let _ = write!(
            s,
            r##"<circle cx="{}" cy="{}" r="{CENTRE}" fill="none" stroke="#b8860b" stroke-width="0.15" stroke-dasharray="0.5 0.3"/>"##,
            w / 2.0,
            y(d / 2.0)
        );
    }
    turns(&mut s, map, scenes);
    s.push_str("</svg>\n");
    s
}

/// Where a figure stands, whether it stands, and its side.
type Placed = ((f64, f64), bool, u8);

/// A map being drawn, scene by scene: the turn's group so far, and where each figure was
/// left after each turn.
struct Drawing<'a> {
    map: &'a Map<'a>,
    depth: f64,
    at: Vec<Option<Placed>>,
    turn: u32,
    group: String,
    places: Vec<(u32, String)>,
}

impl Drawing<'_> {
    /// `x,y` of a table point in the SVG (y runs up the table).
    fn pt(&self, p: (f64, f64)) -> String {
        format!("{:.3},{:.3}", p.0, self.depth - p.1)
    }

    fn colour(&self, slot: usize) -> &'static str {
        let side = self.at.get(slot).and_then(|a| a.map(|a| a.2)).unwrap_or(0);
        SIDE_COLOUR[side as usize]
    }

    /// Ends the turn's group into `s`, and keeps where the figures stand after it.
    fn flush(&mut self, s: &mut String) {
        let _ = write!(
            s,
            r#"<g class="turn" data-turn="{}">{}</g>"#,
            self.turn, self.group
        );
        self.group.clear();
        let mut p = String::new();
        for (slot, a) in self.at.iter().enumerate() {
            let Some((xy, true, side)) = a else {
                continue;
            };
            let name = self.map.names.get(slot).map_or("", String::as_str);
            let _ = write!(
                p,
                r##"<circle {} r="0.45" fill="{}" stroke="#fff" stroke-width="0.08"><title>{}</title></circle>"##,
                attrs(("cx", "cy"), self.pt(*xy)),
                SIDE_COLOUR[*side as usize],
                esc(name),
            );
            if self.map.labels {
                let label = name.split(' ').next().unwrap_or("");
                let _ = write!(
                    p,
                    r#"<text {} font-size="0.8">{}</text>"#,
                    attrs(("x", "y"), self.pt((xy.0 + 0.55, xy.1 - 0.25))),
                    esc(label)
                );
            }
        }
        self.places.push((self.turn, p));
    }

    /// A figure placed: a cross where it fell, a dotted line where it moved by no walk
    /// of its own (a step back, the Angry Inch, a KnockBack).
    fn stand(&mut self, slot: usize, side: u8, xy: (f64, f64), alive: bool) {
        let Some(was) = self.at.get(slot).copied() else {
            return;
        };
        let colour = SIDE_COLOUR[side as usize];
        if let Some((from, true, _)) = was {
            if !alive {
                let (a, b) = (
                    self.pt((xy.0 - 0.4, xy.1 - 0.4)),
                    self.pt((xy.0 + 0.4, xy.1 + 0.4)),
                );
                let (c, e) = (
                    self.pt((xy.0 - 0.4, xy.1 + 0.4)),
                    self.pt((xy.0 + 0.4, xy.1 - 0.4)),
                );
                let _ = write!(
                    self.group,
                    r#"<path d="M{a} L{b} M{c} L{e}" stroke="{colour}" stroke-width="0.2"><title>{} falls</title></path>"#,
                    esc(&self.map.names[slot])
                );
            } else if (from.0 - xy.0).hypot(from.1 - xy.1) > 1e-6 {
                let (a, b) = (self.pt(from), self.pt(xy));
                let _ = write!(
                    self.group,
                    r#"<polyline points="{a} {b}" fill="none" stroke="{colour}" stroke-width="0.1" stroke-dasharray="0.2 0.2"/>"#,
                );
            }
        }
        self.at[slot] = Some((xy, alive, side));
    }

    /// A walk along its way; the figure stands where it ends.
    fn walk(&mut self, slot: usize, path: &[(f64, f64)]) {
        let pts: Vec<String> = path.iter().map(|p| self.pt(*p)).collect();
        let colour = self.colour(slot);
        if let (Some(Some(a)), Some(end)) = (self.at.get_mut(slot), path.last()) {
            a.0 = *end;
        }
        let _ = write!(
            self.group,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="0.15" stroke-opacity="0.7"/>"#,
            pts.join(" "),
        );
    }

    /// An attack: orange when it hit, grey dashes when it missed.
    fn attack(&mut self, from: usize, to: usize, hit: bool) {
        let (Some(Some(a)), Some(Some(b))) = (self.at.get(from), self.at.get(to)) else {
            return;
        };
        let (a, b) = (
            attrs(("x1", "y1"), self.pt(a.0)),
            attrs(("x2", "y2"), self.pt(b.0)),
        );
        let style = if hit {
            r##"stroke="#e67e22""##
        } else {
            r##"stroke="#999" stroke-dasharray="0.3 0.3""##
        };
        let _ = write!(self.group, r#"<line {a} {b} {style} stroke-width="0.08"/>"#);
    }

    /// An Explosion's reach.
    fn blast(&mut self, xy: (f64, f64), inches: f64) {
        let c = attrs(("cx", "cy"), self.pt(xy));
        let _ = write!(
            self.group,
            r##"<circle {c} r="{inches}" fill="#e67e22" fill-opacity="0.25" stroke="#e67e22" stroke-width="0.08"/>"##,
        );
    }
}

/// Each player turn's group, then where the figures stood after each (only the last
/// turn's shown).
fn turns(s: &mut String, map: &Map, scenes: &[Scene]) {
    let mut d = Drawing {
        map,
        depth: map.table.depth(),
        at: vec![None; map.names.len()],
        turn: 0,
        group: String::new(),
        places: Vec::new(),
    };
    for sc in scenes {
        match sc {
            Scene::Turn { turn, .. } => {
                if d.turn > 0 {
                    d.flush(s);
                }
                d.turn = *turn;
            }
            Scene::Stand {
                slot,
                side,
                at,
                alive,
            } => d.stand(*slot as usize, *side, *at, *alive),
            Scene::Walk { slot, path } => d.walk(*slot as usize, path),
            Scene::Attack { from, to, hit } => d.attack(*from as usize, *to as usize, *hit),
            Scene::Blast { at, inches } => d.blast(*at, *inches),
        }
    }
    d.flush(s);
    let last = d.places.last().map_or(0, |p| p.0);
    for (t, p) in &d.places {
        let hide = if *t == last {
            ""
        } else {
            r#" style="display:none""#
        };
        let _ = write!(s, r#"<g class="at" data-turn="{t}"{hide}>{p}</g>"#);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diemon_core::scenario::table::named;

    #[test]
    fn issue_43_a_map_draws_the_table_each_turn_and_where_the_figures_stood() {
        let t = named::layout("wall-line", 24.0, 24.0, 1).unwrap();
        let names = vec!["A1 minifig".to_string(), "B1 minifig".to_string()];
        let scenes = vec![
            Scene::Turn { turn: 1, side: 0 },
            Scene::Stand {
                slot: 0,
                side: 0,
                at: (12.0, 6.0),
                alive: true,
            },
            Scene::Stand {
                slot: 1,
                side: 1,
                at: (12.0, 18.0),
                alive: true,
            },
            Scene::Walk {
                slot: 0,
                path: vec![(12.0, 6.0), (12.0, 11.0)],
            },
            Scene::Stand {
                slot: 0,
                side: 0,
                at: (12.0, 11.0),
                alive: true,
            },
            Scene::Stand {
                slot: 1,
                side: 1,
                at: (12.0, 18.0),
                alive: true,
            },
            Scene::Turn { turn: 2, side: 1 },
            Scene::Attack {
                from: 1,
                to: 0,
                hit: true,
            },
            Scene::Stand {
                slot: 0,
                side: 0,
                at: (12.0, 11.0),
                alive: false,
            },
        ];
        let map = Map {
            table: &t,
            objective: Objective::Hold { turns: 2 },
            names: &names,
            title: "A & B",
            labels: true,
        };
        let s = svg(&map, &scenes);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
        assert_eq!(s.matches(r#"<g class="turn""#).count(), 2);
        // The walk up the table: y flipped (6" from A's edge is 18 down a 24" table).
        assert!(s.contains(r#"points="12.000,18.000 12.000,13.000""#), "{s}");
        // The wall line's pieces, the centre circle, the fall, the escaped title.
        assert!(s.contains("low-wall 0.5\""));
        assert!(s.contains(r#"r="3""#));
        assert!(s.contains("A1 minifig falls"));
        assert!(s.contains("A &amp; B"));
        // Only the last turn's places show.
        assert_eq!(
            s.matches(r#"class="at" data-turn="1" style="display:none""#)
                .count(),
            1
        );
        assert!(s.contains(r#"class="at" data-turn="2">"#));
        // Without labels: no text at all, the names in tooltips.
        let bare = svg(
            &Map {
                labels: false,
                ..map
            },
            &scenes,
        );
        assert!(!bare.contains("<text") && bare.contains("<title>A1 minifig</title>"));
    }
}
