//! A walker's way across a table (Ch. 4.1): the shortest path round what it cannot cross.
//!
//! "He can't pass through obstacles, or leap higher than 1" (three bricks) in a single
//! jump"; leaping costs no Move, and "Minifigs moving at Half Speed cannot jump". So a
//! wall, low wall or building more than an inch high is walked round, one an inch high or
//! less is leaped by a walker that may jump (at no cost) and walked round by one that may
//! not, and woods are walked through. diemon does not climb walls: a climb is a choice the
//! texts price by the climb (Ch. 4.1's table), left to a later part.
//!
//! The way is the shortest path in the visibility graph of the blocking outlines' corners
//! (a walker skirts a wall along its face and turns at its corners). This first version
//! builds the graph per query; precomputing it once a table is the speed part of issue 43.

use super::geometry::{self, Outline, Point};
use super::{Table, TerrainKind};
use crate::rules::measure::EDGE;

/// The highest a walker leaps in one jump, in inches (Ch. 4.1: "1" (three bricks)").
pub const LEAP: f64 = 1.0;

/// A way from a start: the points it turns at and ends on, and its length in inches.
#[derive(Clone, Debug, PartialEq)]
pub struct Way {
    /// The turns, then the end (the start left out).
    pub points: Vec<Point>,
    /// Its length in inches.
    pub length: f64,
}

impl Way {
    /// Where a walker that left `from` along the way stands after `by` inches (the end, if
    /// the way is shorter).
    pub fn after(&self, from: Point, by: f64) -> Point {
        let mut left = by.max(0.0);
        let mut at = from;
        for &p in &self.points {
            let leg = at.to(p);
            if leg >= left {
                return if leg > 0.0 { at.lerp(p, left / leg) } else { p };
            }
            left -= leg;
            at = p;
        }
        at
    }
}

impl Table {
    /// The pieces of terrain a walker cannot cross: solid ones, less those an inch high or
    /// lower when it `leaps`.
    fn barriers(&self, leaps: bool) -> impl Iterator<Item = &Outline> {
        self.terrain()
            .iter()
            .filter(move |t| t.kind != TerrainKind::Woods && !(leaps && t.height <= LEAP + EDGE))
            .map(|t| &t.outline)
    }

    /// Whether a walker may go straight from `a` to `b`.
    fn open(&self, a: Point, b: Point, leaps: bool) -> bool {
        !self.barriers(leaps).any(|o| geometry::crosses(o, a, b))
    }

    /// The shortest way from `a` to `b` for a walker that may jump (`leaps`) or not (at Half
    /// Speed): straight where nothing it cannot cross stands between, else round the
    /// corners of what does. `None` when `b` lies inside something it cannot cross, or no
    /// way reaches it.
    pub fn way(&self, a: Point, b: Point, leaps: bool) -> Option<Way> {
        if self.barriers(leaps).any(|o| o.contains(b) && !o.on_edge(b)) {
            return None;
        }
        if self.open(a, b, leaps) {
            return Some(Way {
                points: vec![b],
                length: a.to(b),
            });
        }
        // Nodes: the start, the end, every corner of every barrier.
        let mut nodes = vec![a, b];
        for o in self.barriers(leaps) {
            nodes.extend_from_slice(o.corners());
        }
        let n = nodes.len();
        // Dijkstra over the visibility graph, edges tested as they are needed.
        let mut dist = vec![f64::INFINITY; n];
        let mut prev = vec![usize::MAX; n];
        let mut done = vec![false; n];
        dist[0] = 0.0;
        loop {
            // None left to reach: no way.
            let u = (0..n)
                .filter(|&i| !done[i] && dist[i].is_finite())
                .min_by(|&i, &j| dist[i].total_cmp(&dist[j]))?;
            if u == 1 {
                break;
            }
            done[u] = true;
            for v in 0..n {
                if done[v] || v == u {
                    continue;
                }
                let d = dist[u] + nodes[u].to(nodes[v]);
                if d < dist[v] - EDGE && self.open(nodes[u], nodes[v], leaps) {
                    dist[v] = d;
                    prev[v] = u;
                }
            }
        }
        let mut points = Vec::new();
        let mut v = 1;
        while v != 0 {
            points.push(nodes[v]);
            v = prev[v];
        }
        points.reverse();
        Some(Way {
            points,
            length: dist[1],
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{Terrain, TerrainKind};
    use super::*;

    /// A rectangle by its opposite corners: (x0, y0, x1, y1).
    pub(in crate::scenario::table) type Rect = (f64, f64, f64, f64);

    /// A 24" square table with 6" zones and `pieces`: (kind, corners, height). The ways'
    /// tests build theirs with it too.
    pub(in crate::scenario::table) fn table(pieces: &[(TerrainKind, Rect, f64)]) -> Table {
        let terrain = pieces
            .iter()
            .map(|&(kind, (x0, y0, x1, y1), height)| Terrain {
                kind,
                outline: Outline::rectangle(Point::new(x0, y0), Point::new(x1, y1)).unwrap(),
                height,
            })
            .collect();
        let zones = Table::edge_zones(24.0, 24.0, 6.0).unwrap();
        Table::new(24.0, 24.0, terrain, zones).unwrap()
    }

    const BUILDING: Rect = (10.0, 6.0, 14.0, 8.0);

    #[test]
    fn a_walker_goes_round_a_building_by_its_nearer_corners() {
        // From (12, 2) to (12, 12), a 4" x 2" building across the way: round two of its
        // corners, sqrt(20) + 2 + sqrt(20) = 10.944".
        let t = table(&[(TerrainKind::Building, BUILDING, 4.0)]);
        let (a, b) = (Point::new(12.0, 2.0), Point::new(12.0, 12.0));
        let w = t.way(a, b, true).unwrap();
        assert!(
            (w.length - (2.0 * 20f64.sqrt() + 2.0)).abs() < 1e-9,
            "{w:?}"
        );
        assert_eq!(w.points.len(), 3);
        // Half-way along it the walker stands at the building's face, not in it.
        let mid = w.after(a, w.length / 2.0);
        assert!(
            (mid.x - 10.0).abs() < 1e-9 || (mid.x - 14.0).abs() < 1e-9,
            "{mid:?}"
        );
        assert_eq!(w.after(a, 100.0), b);
        // Nothing between: straight.
        let open = table(&[]);
        assert_eq!(open.way(a, b, true).unwrap().length, 10.0);
    }

    #[test]
    fn a_low_wall_is_leaped_unless_the_walker_may_not_jump() {
        // Ch. 4.1: no leap higher than 1"; at Half Speed no jump at all.
        let low = table(&[(TerrainKind::LowWall, (4.0, 6.8, 20.0, 7.2), 0.5)]);
        let (a, b) = (Point::new(12.0, 2.0), Point::new(12.0, 12.0));
        assert_eq!(low.way(a, b, true).unwrap().length, 10.0);
        let round = low.way(a, b, false).unwrap().length;
        assert!(round > 10.0 + 1.0, "{round}");
        // A 2" wall is not leaped by anyone.
        let high = table(&[(TerrainKind::Wall, (4.0, 6.8, 20.0, 7.2), 2.0)]);
        assert!(high.way(a, b, true).unwrap().length > 10.0 + 1.0);
        // Woods are walked through.
        let woods = table(&[(TerrainKind::Woods, BUILDING, 3.0)]);
        assert_eq!(woods.way(a, b, false).unwrap().length, 10.0);
    }

    #[test]
    fn no_way_into_a_building_and_skirting_a_face_is_allowed() {
        let t = table(&[(TerrainKind::Building, BUILDING, 4.0)]);
        assert_eq!(
            t.way(Point::new(12.0, 2.0), Point::new(12.0, 7.0), true),
            None
        );
        // Along its near face, from corner to corner: straight.
        let w = t
            .way(Point::new(8.0, 6.0), Point::new(16.0, 6.0), true)
            .unwrap();
        assert_eq!(w.length, 8.0);
    }
}
