//! Battles on a table (issue 43, first part): a rectangle of the user's size, terrain on it
//! and a deployment zone a side, and what one figure sees of another across it.
//!
//! Overview:
//! - [`Table`]: the rectangle, its [`Terrain`] (walls, low walls, buildings and woods, each
//!   an [`Outline`] standing to a height) and the two sides' zones. Built checked
//!   ([`Table::new`]), from a TOML layout with located errors ([`layout::parse`]), or by
//!   name and seed ([`named::layout`]: open, scattered, wall-line, town).
//! - Sight ([`Table::hidden_thirds`]): Ch. 8.3 counts cover in thirds of the target hidden,
//!   -1 to a shot a third. diemon draws a sight line from the shooter's eye (the top of its
//!   figure) to the middle of each third of the target's height and counts the lines that
//!   terrain blocks (docs/model.md, "Tables"). Three thirds hidden: the shooter cannot see
//!   its target (Ch. 8.4: -5 to fire at it).
//! - Ways ([`way`]): the shortest path round what a walker cannot cross (Ch. 4.1: no
//!   passing through obstacles, no leap above 1", no jump at Half Speed).
//! - Geometry ([`geometry`]): every test allows the rounding every other measure in diemon
//!   allows ([`crate::rules::measure::EDGE`]); sight allocates nothing (a way still does).
//!
//! Battles do not stand on a table yet: the turn, its movement around terrain, facing and
//! objectives come in the next parts of the issue.

pub mod geometry;
pub mod layout;
pub mod named;
pub mod way;
pub mod ways;

pub use geometry::{Outline, OutlineError, Point};

use crate::rules::measure::EDGE;

/// The largest table side diemon accepts, in inches (as the largest distance).
pub const MAX_SIDE: f64 = 1000.0;

/// What a piece of terrain is. Each hides what stands behind it up to its height; what it
/// does to a unit's walk comes with movement on the table (Ch. 4.1: a wall or low wall is
/// climbed or leaped, a building walked round, woods walked through).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainKind {
    /// A wall: solid, 2" high unless the layout says.
    Wall,
    /// A low wall: solid, half an inch high unless the layout says: partial cover for a
    /// minifig (Size 1": one inch tall, Ch. 10).
    LowWall,
    /// A building: solid, 4" high unless the layout says.
    Building,
    /// Woods: they hide, 3" high unless the layout says, but units walk through them.
    Woods,
}

impl TerrainKind {
    /// Every kind, in the order layouts name them.
    pub const ALL: [TerrainKind; 4] = [
        TerrainKind::Wall,
        TerrainKind::LowWall,
        TerrainKind::Building,
        TerrainKind::Woods,
    ];

    /// Its name in a layout.
    pub fn name(self) -> &'static str {
        match self {
            TerrainKind::Wall => "wall",
            TerrainKind::LowWall => "low-wall",
            TerrainKind::Building => "building",
            TerrainKind::Woods => "woods",
        }
    }

    /// Its height when a layout gives none, in inches.
    pub fn height(self) -> f64 {
        match self {
            TerrainKind::Wall => 2.0,
            TerrainKind::LowWall => 0.5,
            TerrainKind::Building => 4.0,
            TerrainKind::Woods => 3.0,
        }
    }
}

/// A piece of terrain: its kind, its outline on the table and its height.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// What it is.
    pub kind: TerrainKind,
    /// Where it stands.
    pub outline: Outline,
    /// How high it stands, in inches.
    pub height: f64,
}

/// A figure as sight sees it: where it stands and how tall it is (its Size in inches:
/// a minifig is Size 1", "one inch tall", Ch. 10).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Figure {
    /// Where it stands.
    pub at: Point,
    /// Its height in inches.
    pub height: f64,
}

/// A table: `width` inches across, `depth` along (side A deploys at the near edge, side B
/// at the far one), its terrain and each side's deployment zone.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    width: f64,
    depth: f64,
    terrain: Vec<Terrain>,
    zones: [Outline; 2],
    see_into_woods: f64,
}

/// Why a table cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// A side not above 0 or beyond [`MAX_SIDE`].
    #[error("a table's {what} is {inches}\": it must be above 0\" and at most {MAX_SIDE}\"")]
    Side {
        /// `width` or `depth`.
        what: &'static str,
        /// What was given.
        inches: f64,
    },
    /// A corner off the table.
    #[error("terrain {piece}'s corner ({x}, {y}) lies off the {width}\" x {depth}\" table")]
    OffTable {
        /// The piece, from 1.
        piece: usize,
        /// The corner.
        x: f64,
        /// The corner.
        y: f64,
        /// The table's width.
        width: f64,
        /// The table's depth.
        depth: f64,
    },
    /// A height not above 0 (or not a number).
    #[error("terrain {piece} stands {height}\" high: a height must be above 0\"")]
    Height {
        /// The piece, from 1.
        piece: usize,
        /// What was given.
        height: f64,
    },
    /// Fronts too far apart for the table.
    #[error(
        "fronts {gap}\" apart leave no deployment zone on a table {depth}\" deep (each zone needs half an inch)"
    )]
    Apart {
        /// The fronts' gap asked for.
        gap: f64,
        /// The table's depth.
        depth: f64,
    },
    /// A deployment zone off the table.
    #[error("side {side}'s deployment zone reaches off the table")]
    Zone {
        /// `A` or `B`.
        side: char,
    },
}

impl Table {
    /// The table `width` by `depth` inches with `terrain`, side A deploying in `zones[0]`
    /// and side B in `zones[1]`, checked: its sides within (0, [`MAX_SIDE`]], every
    /// terrain corner and zone on it, every height above 0.
    pub fn new(
        width: f64,
        depth: f64,
        terrain: Vec<Terrain>,
        zones: [Outline; 2],
    ) -> Result<Table, TableError> {
        for (what, inches) in [("width", width), ("depth", depth)] {
            if !(inches > 0.0 && inches <= MAX_SIDE) {
                return Err(TableError::Side { what, inches });
            }
        }
        let on = |p: &Point| {
            (-EDGE..=width + EDGE).contains(&p.x) && (-EDGE..=depth + EDGE).contains(&p.y)
        };
        for (n, t) in terrain.iter().enumerate() {
            if let Some(p) = t.outline.corners().iter().find(|p| !on(p)) {
                return Err(TableError::OffTable {
                    piece: n + 1,
                    x: p.x,
                    y: p.y,
                    width,
                    depth,
                });
            }
            if !(t.height > 0.0 && t.height.is_finite()) {
                return Err(TableError::Height {
                    piece: n + 1,
                    height: t.height,
                });
            }
        }
        for (zone, side) in zones.iter().zip(['A', 'B']) {
            if !zone.corners().iter().all(on) {
                return Err(TableError::Zone { side });
            }
        }
        Ok(Table {
            width,
            depth,
            terrain,
            zones,
            see_into_woods: 1.0,
        })
    }

    /// The default zones of a `width` by `depth` table: the `inches` nearest each side's
    /// edge (side A's the near edge, side B's the far one), the whole width across.
    pub fn edge_zones(width: f64, depth: f64, inches: f64) -> Result<[Outline; 2], OutlineError> {
        let inches = inches.min(depth / 2.0);
        Ok([
            Outline::rectangle(Point::new(0.0, 0.0), Point::new(width, inches))?,
            Outline::rectangle(Point::new(0.0, depth - inches), Point::new(width, depth))?,
        ])
    }

    /// The same table with the sides' fronts `gap` inches apart, either side of its
    /// middle line: each zone runs the whole width from its edge to its front (a battle's
    /// `--distance` on a table; the terrain stays where it stands).
    pub fn apart(mut self, gap: f64) -> Result<Table, TableError> {
        let zone = Table::zone_apart(self.depth, gap)?;
        self.zones =
            Table::edge_zones(self.width, self.depth, zone).map_err(|_| TableError::Apart {
                gap,
                depth: self.depth,
            })?;
        Ok(self)
    }

    /// How deep each zone is when the fronts of a `depth` deep table stand `gap` apart:
    /// at least half an inch, so each side has an edge to stand on.
    pub fn zone_apart(depth: f64, gap: f64) -> Result<f64, TableError> {
        let zone = (depth - gap) / 2.0;
        match gap >= 0.0 && zone >= 0.5 {
            true => Ok(zone),
            false => Err(TableError::Apart { gap, depth }),
        }
    }

    /// Inches across.
    pub fn width(&self) -> f64 {
        self.width
    }

    /// Inches along, from side A's edge to side B's.
    pub fn depth(&self) -> f64 {
        self.depth
    }

    /// Its terrain.
    pub fn terrain(&self) -> &[Terrain] {
        &self.terrain
    }

    /// Side `side`'s deployment zone (0: A, 1: B).
    pub fn zone(&self, side: usize) -> &Outline {
        &self.zones[side]
    }

    /// How many thirds of `to` are hidden from `from`'s eye (0 to 3): a sight line from the
    /// top of `from` to the middle of each third of `to`'s height, each hidden when a piece
    /// of terrain blocks it. Woods hide only past the first inch of them at either end: a
    /// figure at the edge of woods, or an inch inside, sees out and is seen.
    pub fn hidden_thirds(&self, from: Figure, to: Figure) -> u32 {
        (0..3)
            .filter(|k| {
                let h = to.height * (2 * k + 1) as f64 / 6.0;
                self.blocked(from.at, from.height, to.at, h)
            })
            .count() as u32
    }

    /// Whether `from` cannot see any of `to` (every third hidden).
    pub fn unseen(&self, from: Figure, to: Figure) -> bool {
        self.hidden_thirds(from, to) == 3
    }

    /// Whether `from`, its head turned toward `facing` (a direction on the table), sees
    /// any of `to`: within its Cone of Vision, "forty-five degrees to either side" of
    /// where it faces (Ch. 4.3), and not wholly hidden by terrain. A Responding figure must
    /// see what it responds to. Where the text settles a hard case with a What I Say Goes
    /// roll, diemon counts the cone's edge in (the same allowance as every other measure).
    pub fn sees(&self, from: Figure, facing: Point, to: Figure) -> bool {
        in_cone(from.at, facing, to.at) && !self.unseen(from, to)
    }

    /// What `from` sees of `to` ([`Sight`]): each third of `to`'s height hidden, and
    /// walled off by solid terrain (anything but woods).
    pub fn sight(&self, from: Figure, to: Figure) -> Sight {
        let mut s = Sight {
            hidden: 0,
            walled: 0,
        };
        // Nothing near the line: one pass of boxes, not six of sight lines.
        if self
            .terrain
            .iter()
            .all(|t| t.outline.beside(from.at, to.at))
        {
            return s;
        }
        for k in 0..3 {
            let h = to.height * (2 * k + 1) as f64 / 6.0;
            if self.blocked_by(from.at, from.height, to.at, h, false) {
                s.hidden += 1;
                s.walled += 1;
            } else if self.blocked_by(from.at, from.height, to.at, h, true) {
                s.hidden += 1;
            }
        }
        s
    }

    /// Whether terrain blocks the sight line from height `ha` at `a` to height `hb` at `b`.
    fn blocked(&self, a: Point, ha: f64, b: Point, hb: f64) -> bool {
        self.blocked_by(a, ha, b, hb, false) || self.blocked_by(a, ha, b, hb, true)
    }

    /// [`Table::blocked`] by woods only (`woods`), or by solid terrain only.
    fn blocked_by(&self, a: Point, ha: f64, b: Point, hb: f64, woods: bool) -> bool {
        let length = a.to(b);
        self.terrain.iter().any(|t| {
            if (t.kind == TerrainKind::Woods) != woods {
                return false;
            }
            if t.kind != TerrainKind::Woods {
                return geometry::blocks(&t.outline, t.height, a, ha, b, hb);
            }
            if t.outline.beside(a, b) {
                return false;
            }
            // Woods: the line's stretches inside them, less an inch at either end.
            let mut stretches = [(0.0, 0.0); geometry::MAX_CORNERS / 2 + 1];
            let n = t.outline.inside_of(a, b, &mut stretches);
            let skip = if length > 0.0 {
                self.see_into_woods / length
            } else {
                1.0
            };
            stretches[..n].iter().any(|&(t0, t1)| {
                let (t0, t1) = (t0.max(skip), t1.min(1.0 - skip));
                t1 - t0 > EDGE && (ha + (hb - ha) * t0).min(ha + (hb - ha) * t1) < t.height - EDGE
            })
        })
    }
}

/// What a shooter sees of its target, in thirds of the target's height (Ch. 8.3): those
/// `hidden` by any terrain, and of them those `walled` off by solid terrain, which a
/// straight shot cannot pass (woods hide a figure; a shot still goes through them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sight {
    /// Thirds hidden (0 to 3).
    pub hidden: u32,
    /// Thirds behind solid terrain (at most `hidden`).
    pub walled: u32,
}

/// Whether `p` lies within the 90-degree Cone of Vision of a figure at `at` facing
/// direction `facing` (Ch. 4.3): at most 45 degrees off it, the edge included. A figure
/// with no facing (a zero direction) sees all round; one on the figure's own spot is seen.
pub fn in_cone(at: Point, facing: Point, p: Point) -> bool {
    let (fx, fy, dx, dy) = (facing.x, facing.y, p.x - at.x, p.y - at.y);
    let (f, d) = ((fx * fx + fy * fy).sqrt(), (dx * dx + dy * dy).sqrt());
    if f == 0.0 || d <= EDGE {
        return true;
    }
    // cos of the angle off the facing, against cos 45 degrees.
    (fx * dx + fy * dy) / (f * d) >= std::f64::consts::FRAC_1_SQRT_2 - EDGE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Outline {
        Outline::rectangle(Point::new(x0, y0), Point::new(x1, y1)).unwrap()
    }

    fn table(terrain: Vec<Terrain>) -> Table {
        let zones = Table::edge_zones(24.0, 24.0, 6.0).unwrap();
        Table::new(24.0, 24.0, terrain, zones).unwrap()
    }

    fn minifig(x: f64, y: f64) -> Figure {
        Figure {
            at: Point::new(x, y),
            height: 1.0,
        }
    }

    #[test]
    fn issue_43_a_table_apart_moves_only_its_zones() {
        let zone = Outline::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 2.0)).unwrap();
        let far = Outline::rectangle(Point::new(0.0, 18.0), Point::new(10.0, 20.0)).unwrap();
        let wall = Terrain {
            kind: TerrainKind::Wall,
            outline: Outline::rectangle(Point::new(4.0, 9.0), Point::new(6.0, 11.0)).unwrap(),
            height: 2.0,
        };
        let t = Table::new(10.0, 20.0, vec![wall.clone()], [zone, far]).unwrap();
        let t = t.apart(6.0).unwrap();
        assert_eq!(t.terrain(), &[wall][..]);
        let ys = |s: usize| t.zone(s).corners().iter().map(|p| p.y).collect::<Vec<_>>();
        assert!(ys(0).contains(&7.0) && ys(0).contains(&0.0), "{:?}", ys(0));
        assert!(
            ys(1).contains(&13.0) && ys(1).contains(&20.0),
            "{:?}",
            ys(1)
        );
        assert_eq!(
            t.clone().apart(19.5),
            Err(TableError::Apart {
                gap: 19.5,
                depth: 20.0
            })
        );
        assert!(t.apart(19.0).is_ok(), "half an inch a zone is enough");
    }

    #[test]
    fn a_table_refuses_bad_sides_corners_off_it_and_flat_heights() {
        let zones = || Table::edge_zones(24.0, 24.0, 6.0).unwrap();
        assert!(matches!(
            Table::new(0.0, 24.0, vec![], zones()),
            Err(TableError::Side { what: "width", .. })
        ));
        let off = Terrain {
            kind: TerrainKind::Wall,
            outline: rect(20.0, 10.0, 25.0, 11.0),
            height: 2.0,
        };
        assert!(matches!(
            Table::new(24.0, 24.0, vec![off], zones()),
            Err(TableError::OffTable { piece: 1, .. })
        ));
        let flat = Terrain {
            kind: TerrainKind::Woods,
            outline: rect(2.0, 10.0, 5.0, 11.0),
            height: 0.0,
        };
        assert!(matches!(
            Table::new(24.0, 24.0, vec![flat], zones()),
            Err(TableError::Height { piece: 1, .. })
        ));
    }

    #[test]
    fn cover_in_thirds_behind_walls_of_three_heights() {
        // Ch. 8.3: -1 a third hidden. A minifig (1" tall) 10" from the shooter, a wall from
        // 1.2" to 1" before it. Its thirds' middles stand 1/6", 1/2" and 5/6" high and the
        // shooter's eye 1" up, so over the wall the three lines run no lower than 0.25",
        // 0.55" and 0.85".
        let (shooter, target) = (minifig(12.0, 2.0), minifig(12.0, 12.0));
        let wall = |height| Terrain {
            kind: TerrainKind::Wall,
            outline: rect(6.0, 10.8, 18.0, 11.0),
            height,
        };
        let hidden = |h| table(vec![wall(h)]).hidden_thirds(shooter, target);
        assert_eq!(hidden(0.2), 0, "under every line");
        assert_eq!(hidden(0.3), 1, "the lowest third's line passes lowest");
        assert_eq!(hidden(0.6), 2);
        assert_eq!(hidden(0.9), 3);
        assert!(table(vec![wall(0.9)]).unseen(shooter, target));
        // A line grazing the wall's top is not blocked: 0.25" exactly at its far face.
        assert_eq!(hidden(0.25), 0);
        // Off to the side of the wall: nothing hidden.
        let beside = minifig(22.0, 12.0);
        assert_eq!(
            table(vec![wall(0.9)]).hidden_thirds(minifig(22.0, 2.0), beside),
            0
        );
    }

    #[test]
    fn a_low_wall_at_the_targets_feet_hides_its_lower_third() {
        // Half an inch high, just in front of the target: the line to its lowest third's
        // middle (1/6") runs lower than it there; the line to the middle third (1/2") runs
        // no lower than 0.505" over it, so that third is seen.
        let low = Terrain {
            kind: TerrainKind::LowWall,
            outline: rect(6.0, 11.5, 18.0, 11.9),
            height: TerrainKind::LowWall.height(),
        };
        let t = table(vec![low]);
        assert_eq!(t.hidden_thirds(minifig(12.0, 2.0), minifig(12.0, 12.0)), 1);
    }

    #[test]
    fn the_cone_of_vision_is_ninety_degrees_about_the_facing() {
        // Ch. 4.3: "forty-five degrees to either side". Facing along the table (+y).
        let (at, ahead) = (Point::new(0.0, 0.0), Point::new(0.0, 1.0));
        assert!(in_cone(at, ahead, Point::new(0.0, 5.0)));
        assert!(
            in_cone(at, ahead, Point::new(3.0, 3.0)),
            "on the cone's edge: in"
        );
        assert!(!in_cone(at, ahead, Point::new(3.01, 3.0)));
        assert!(!in_cone(at, ahead, Point::new(-3.01, 3.0)));
        assert!(!in_cone(at, ahead, Point::new(0.0, -2.0)), "behind it");
        // Terrain still hides what the cone takes in: a building between.
        let building = Terrain {
            kind: TerrainKind::Building,
            outline: rect(10.0, 6.0, 14.0, 8.0),
            height: 4.0,
        };
        let t = table(vec![building]);
        let (from, to) = (minifig(12.0, 2.0), minifig(12.0, 12.0));
        assert!(!t.sees(from, ahead, to));
        assert!(t.sees(from, ahead, minifig(17.0, 12.0)));
        assert!(
            !t.sees(from, Point::new(0.0, -1.0), minifig(17.0, 12.0)),
            "facing away"
        );
    }

    #[test]
    fn woods_hide_past_their_first_inch() {
        // 3" deep woods from y = 8 to 11. A target at y = 10.5 (2.5" in) is hidden from a
        // shooter at y = 2; one at y = 8.5 (half an inch in) is seen, and sees out.
        let woods = Terrain {
            kind: TerrainKind::Woods,
            outline: rect(6.0, 8.0, 18.0, 11.0),
            height: 3.0,
        };
        let t = table(vec![woods]);
        let shooter = minifig(12.0, 2.0);
        assert_eq!(t.hidden_thirds(shooter, minifig(12.0, 10.5)), 3);
        assert_eq!(t.hidden_thirds(shooter, minifig(12.0, 8.5)), 0);
        assert_eq!(t.hidden_thirds(minifig(12.0, 8.5), shooter), 0);
        // Through all 3" of them to the far side: hidden.
        assert_eq!(t.hidden_thirds(shooter, minifig(12.0, 14.0)), 3);
    }
}
