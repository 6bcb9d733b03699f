//! Named tables, laid out from a seed: the same name, size and seed give the same table on
//! any machine.
//!
//! - `open`: no terrain.
//! - `scattered`: pieces of cover (low walls, woods and small buildings) in the no-man's-land
//!   between the zones, about one a 60 square inches of it, an inch or more apart, on a
//!   quarter-inch grid.
//! - `wall-line`: a low wall across the middle, an inch gap every 6".
//! - `town`: blocks of buildings 6" square with 3" streets between, filling the middle.
//!
//! Every layout is its own mirror across the line halfway between the sides' edges, so
//! neither side deploys facing better terrain: two equal sides, first by a roll-off, fight
//! the same battle from either side.
//!
//! Each side deploys within [`super::layout::ZONE`] inches of its edge.

use rand::RngExt;

use super::layout::ZONE;
use super::{Outline, Point, Table, TableError, Terrain, TerrainKind};

/// The named layouts.
pub const NAMES: [&str; 4] = ["open", "scattered", "wall-line", "town"];

/// Why a named table cannot be laid out.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NamedError {
    /// No layout of that name.
    #[error("no table layout named {0:?} (the layouts are open, scattered, wall-line, town)")]
    Unknown(String),
    /// The size is refused.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The table is too shallow for two zones and a middle.
    #[error("a {0}\" deep table leaves no middle between two {ZONE}\" zones")]
    Shallow(f64),
}

/// The table `name`, `width` by `depth` inches, laid out from `seed`, each side deploying
/// within [`ZONE`] inches of its edge.
pub fn layout(name: &str, width: f64, depth: f64, seed: u64) -> Result<Table, NamedError> {
    checked(name, width, depth)?;
    let zones = Table::edge_zones(width, depth, ZONE).map_err(|_| NamedError::Shallow(depth));
    let (low, high) = (ZONE, depth - ZONE);
    if name != "open" && high - low < 2.0 {
        return Err(NamedError::Shallow(depth));
    }
    laid(name, width, depth, seed, low, high, zones)
}

/// The table `name` with the sides' fronts `gap` inches apart, either side of its middle
/// line (a battle's `--distance` on a table): each zone runs from its edge to its front,
/// and the terrain is laid in the middle between the fronts, as [`layout`] lays it between
/// [`ZONE`]-deep zones. Fronts under 2" apart leave no middle, so no terrain: the sides
/// start in reach of each other.
pub fn layout_apart(
    name: &str,
    width: f64,
    depth: f64,
    gap: f64,
    seed: u64,
) -> Result<Table, NamedError> {
    checked(name, width, depth)?;
    let zone = Table::zone_apart(depth, gap)?;
    let zones = Table::edge_zones(width, depth, zone).map_err(|_| NamedError::Shallow(depth));
    let (low, high) = (zone, depth - zone);
    let name = if high - low < 2.0 { "open" } else { name };
    laid(name, width, depth, seed, low, high, zones)
}

/// Refuses an unknown name or a size off [`super::MAX_SIDE`], before any terrain is placed.
fn checked(name: &str, width: f64, depth: f64) -> Result<(), NamedError> {
    if !NAMES.contains(&name) {
        return Err(NamedError::Unknown(name.to_string()));
    }
    for (what, inches) in [("width", width), ("depth", depth)] {
        if !(inches > 0.0 && inches <= super::MAX_SIDE) {
            return Err(TableError::Side { what, inches }.into());
        }
    }
    Ok(())
}

/// The table `name` (checked) with its terrain laid between `low` and `high` along, and
/// `zones`.
fn laid(
    name: &str,
    width: f64,
    depth: f64,
    seed: u64,
    low: f64,
    high: f64,
    zones: Result<[super::Outline; 2], NamedError>,
) -> Result<Table, NamedError> {
    let terrain = match name {
        "open" => vec![],
        "scattered" => scattered(width, low, high, seed),
        "wall-line" => wall_line(width, (low + high) / 2.0),
        _ => town(width, low, high),
    };
    Ok(Table::new(width, depth, terrain, zones?)?)
}

/// A rectangle of `kind` at its own height.
fn block(kind: TerrainKind, a: Point, b: Point) -> Terrain {
    Terrain {
        kind,
        outline: Outline::rectangle(a, b).expect("a rectangle with area"),
        height: kind.height(),
    }
}

/// Cover scattered over the middle band (`low` to `high` along), from `seed`: pieces drawn
/// into its near half, each with its twin mirrored across the middle line in the far half,
/// so each side meets the terrain the other does (both sides stand abreast in the same
/// order across the table, so a mirror, not a half turn, makes the battle the same from
/// either side).
fn scattered(width: f64, low: f64, high: f64, seed: u64) -> Vec<Terrain> {
    // A stream of its own: the layout's draws never share a battle's.
    let mut rng = crate::sim::seed::stream(seed, u64::MAX, 0);
    let wanted = ((width * (high - low)) / 120.0).round().max(1.0) as usize;
    // The near half, half an inch short of the middle: twins stand an inch apart across it.
    let (mid, depth) = ((low + high) / 2.0, low + high);
    let mut placed: Vec<(Point, Point)> = Vec::new();
    let mut terrain = Vec::new();
    // Bounded tries: a crowded table takes fewer pieces, never hangs.
    for _ in 0..wanted * 20 {
        if terrain.len() == 2 * wanted {
            break;
        }
        let kind = [
            TerrainKind::LowWall,
            TerrainKind::Woods,
            TerrainKind::Building,
        ][rng.random_range(0..3usize)];
        let (w, d) = match kind {
            TerrainKind::LowWall => (rng.random_range(3.0..6.0), 0.5),
            TerrainKind::Woods => (rng.random_range(2.0..4.0), rng.random_range(2.0..4.0)),
            _ => (rng.random_range(2.0..3.0), rng.random_range(2.0..3.0)),
        };
        // On a quarter-inch grid, as a table built by hand measures.
        let q = |v: f64| (v * 4.0).round() / 4.0;
        let (w, d) = (q(w), q(d));
        let top = mid - 0.5;
        if w > width || d > top - low {
            continue;
        }
        let x = q(rng.random_range(0.0..=width - w)).min(width - w);
        let y = q(rng.random_range(low..=top - d)).clamp(low, top - d);
        let (a, b) = (Point::new(x, y), Point::new(x + w, y + d));
        let twin = (Point::new(a.x, depth - b.y), Point::new(b.x, depth - a.y));
        // An inch clear of every other piece, so units can pass between.
        let clear = |(a, b): (Point, Point)| {
            placed.iter().all(|(p, q)| {
                a.x > q.x + 1.0 || b.x + 1.0 < p.x || a.y > q.y + 1.0 || b.y + 1.0 < p.y
            })
        };
        if clear((a, b)) && clear(twin) {
            placed.extend([(a, b), twin]);
            terrain.push(block(kind, a, b));
            terrain.push(block(kind, twin.0, twin.1));
        }
    }
    terrain
}

/// A low wall across the table at `y`, half an inch deep, 5" lengths with an inch between,
/// centred across the table (the same seen from either side).
fn wall_line(width: f64, y: f64) -> Vec<Terrain> {
    let n = ((width + 1.0) / 6.0).floor().max(1.0);
    let mut x = ((width - (6.0 * n - 1.0)) / 2.0).max(0.0);
    let mut terrain = Vec::new();
    while x < width {
        let end = (x + 5.0).min(width);
        let (a, b) = (Point::new(x, y - 0.25), Point::new(end, y + 0.25));
        terrain.push(block(TerrainKind::LowWall, a, b));
        x += 6.0;
    }
    terrain
}

/// Buildings 6" square on a 9" grid (3" streets), centred in the middle band with an inch
/// of street at least round it and at the table's sides (the same seen from either side).
fn town(width: f64, low: f64, high: f64) -> Vec<Terrain> {
    // How many blocks fit in `span` inches with an inch spare at each end, and where the
    // first starts to centre them.
    let fit = |from: f64, span: f64| {
        let n = ((span - 2.0 + 3.0) / 9.0 + 1e-9).floor().max(0.0);
        (n as usize, from + (span - (9.0 * n - 3.0)) / 2.0)
    };
    let (rows, y0) = fit(low, high - low);
    let (cols, x0) = fit(0.0, width);
    let mut terrain = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let (x, y) = (x0 + 9.0 * c as f64, y0 + 9.0 * r as f64);
            let (a, b) = (Point::new(x, y), Point::new(x + 6.0, y + 6.0));
            terrain.push(block(TerrainKind::Building, a, b));
        }
    }
    terrain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_table_is_the_same_from_the_same_seed_and_differs_by_seed() {
        let a = layout("scattered", 48.0, 48.0, 7).unwrap();
        assert_eq!(a, layout("scattered", 48.0, 48.0, 7).unwrap());
        assert_ne!(a, layout("scattered", 48.0, 48.0, 8).unwrap());
        // 48 x 36 inches of middle: about 29 pieces, in twins.
        let n = a.terrain().len();
        assert!((20..=30).contains(&n) && n.is_multiple_of(2), "{n} pieces");
        // None in a zone.
        for t in a.terrain() {
            for c in t.outline.corners() {
                assert!((ZONE..=48.0 - ZONE).contains(&c.y), "{c:?}");
            }
        }
    }

    #[test]
    fn issue_43_every_named_layout_is_its_own_mirror_across_the_middle_line() {
        // Neither side's zone faces better terrain: each piece has a twin mirrored across
        // the line halfway between the sides' edges (itself, for a piece on the line).
        for name in NAMES {
            for (w, d) in [(48.0, 48.0), (36.0, 60.0), (25.0, 24.0)] {
                let t = layout(name, w, d, 3).unwrap();
                let turned = |p: &Point| Point::new(p.x, d - p.y);
                for piece in t.terrain() {
                    let mut twin: Vec<Point> = piece.outline.corners().iter().map(turned).collect();
                    twin.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
                    let found = t.terrain().iter().any(|o| {
                        let mut c = o.outline.corners().to_vec();
                        c.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
                        o.kind == piece.kind
                            && c.len() == twin.len()
                            && c.iter().zip(&twin).all(|(a, b)| a.to(*b) < 1e-9)
                    });
                    assert!(found, "{name} {w}x{d}: {piece:?} has no twin");
                }
            }
        }
    }

    #[test]
    fn issue_43_fronts_apart_deepen_the_zones_and_lay_the_terrain_between_them() {
        // 12" apart on a 48" table: each zone 18" deep, the terrain between 18" and 30".
        let t = layout_apart("scattered", 48.0, 48.0, 12.0, 7).unwrap();
        let fronts = (t.zone(0).corners(), t.zone(1).corners());
        let front_a = fronts.0.iter().map(|p| p.y).fold(f64::MIN, f64::max);
        let front_b = fronts.1.iter().map(|p| p.y).fold(f64::MAX, f64::min);
        assert_eq!((front_a, front_b), (18.0, 30.0));
        assert!(!t.terrain().is_empty());
        for c in t.terrain().iter().flat_map(|p| p.outline.corners()) {
            assert!((18.0..=30.0).contains(&c.y), "{c:?}");
        }
        // 36" apart is the default zones' table, piece for piece.
        assert_eq!(
            layout_apart("scattered", 48.0, 48.0, 36.0, 7),
            layout("scattered", 48.0, 48.0, 7)
        );
        // Under 2" apart there is no middle to lay terrain in; a misspelt name still fails.
        assert!(
            layout_apart("town", 48.0, 48.0, 1.0, 7)
                .unwrap()
                .terrain()
                .is_empty()
        );
        assert_eq!(
            layout_apart("twon", 48.0, 48.0, 1.0, 7),
            Err(NamedError::Unknown("twon".into()))
        );
        // No zone left: refused.
        assert_eq!(
            layout_apart("open", 48.0, 48.0, 47.5, 7),
            Err(NamedError::Table(TableError::Apart {
                gap: 47.5,
                depth: 48.0
            }))
        );
    }

    #[test]
    fn each_layout_stands_where_its_name_says() {
        assert!(layout("open", 24.0, 24.0, 1).unwrap().terrain().is_empty());
        let wall = layout("wall-line", 24.0, 24.0, 1).unwrap();
        assert_eq!(
            wall.terrain().len(),
            4,
            "5\" of wall, an inch of gap, over 24\""
        );
        assert!(
            wall.terrain()
                .iter()
                .all(|t| t.kind == TerrainKind::LowWall)
        );
        let town = layout("town", 24.0, 24.0, 1).unwrap();
        assert_eq!(
            town.terrain().len(),
            2,
            "a 12\" middle holds one row of two blocks"
        );
        assert_eq!(
            layout("twon", 24.0, 24.0, 1),
            Err(NamedError::Unknown("twon".into()))
        );
        assert_eq!(
            layout("town", 24.0, 13.0, 1),
            Err(NamedError::Shallow(13.0))
        );
    }
}
