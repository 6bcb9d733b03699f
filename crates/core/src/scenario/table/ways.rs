//! Ways across a table worked out once (issue 43, item 7): what a battle asks of every walk,
//! with nothing allocated per question.
//!
//! [`Ways::new`] takes a table and whether its walkers may leap ([`super::way::LEAP`]), and
//! keeps what never moves: the outlines a walker cannot cross, the corners it turns at, and
//! the shortest way between every two corners (with the next corner on it). A question
//! from one spot to another then only looks for the corners each end sees. The ways are
//! [`Table::way`]'s (tests hold the two to each other), but a walker turns a
//! [`CLEARANCE`] off each corner rather than on it: a figure's place is kept in `f32`, and
//! a corner it stood exactly on would, rounded, lie inside the wall it skirts.

use super::geometry::{self, Outline, Point};
use super::way::LEAP;
use super::{Table, TerrainKind};
use crate::rules::measure::EDGE;

/// How far off a corner a walker turns, in inches: far above `f32`'s rounding of a place
/// on a 1000" table (a ten-thousandth of an inch), far below anything a rule measures.
pub const CLEARANCE: f64 = 1.0 / 64.0;

/// The most corners a table's walkers turn at: a question keeps what each end sees on
/// the stack.
pub const MAX_TURNS: usize = 512;

/// Why a table's ways cannot be worked out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WaysError {
    /// More corners than [`MAX_TURNS`].
    #[error(
        "the table's terrain has {0} corners to walk round, more than {MAX_TURNS} (hint: a smaller table, or fewer pieces)"
    )]
    TooMany(usize),
}

/// The turns one spot sees, kept between questions to the same spot: a squad's walkers
/// often walk to one target. A cache only: any [`Seen`] gives the same ways, and a
/// fresh one ([`Seen::NONE`]) forgets. It belongs to one [`Ways`]; keep one a table.
#[derive(Copy, Clone, Debug)]
pub struct Seen {
    at: Option<Point>,
    bits: [u64; MAX_TURNS / 64],
}

impl Seen {
    /// Nothing kept.
    pub const NONE: Seen = Seen {
        at: None,
        bits: [0; MAX_TURNS / 64],
    };
}

/// A table's ways for walkers that leap, or not (see the module overview).
#[derive(Clone, Debug)]
pub struct Ways {
    barriers: Vec<Outline>,
    turns: Vec<Point>,
    /// `apart[i * n + j]`: the shortest way from turn `i` to turn `j` (infinite: none).
    apart: Vec<f64>,
    /// `next[i * n + j]`: the turn after `i` on that way.
    next: Vec<u16>,
    width: f64,
    depth: f64,
}

/// A way worked out once ([`Ways::route`]): straight, or round by its turns.
#[derive(Copy, Clone, Debug)]
pub struct Route(Option<Via>);

/// The first and last turns of a way round something, and its length.
#[derive(Copy, Clone, Debug)]
struct Via {
    first: usize,
    last: usize,
    length: f64,
}

impl Ways {
    /// The ways on `table` for walkers that may jump (`leaps`) or not.
    pub fn new(table: &Table, leaps: bool) -> Result<Ways, WaysError> {
        let barriers: Vec<Outline> = table
            .terrain()
            .iter()
            .filter(|t| t.kind != TerrainKind::Woods && !(leaps && t.height <= LEAP + EDGE))
            .map(|t| t.outline.clone())
            .collect();
        let (width, depth) = (table.width(), table.depth());
        let on_table = |p: &Point| (0.0..=width).contains(&p.x) && (0.0..=depth).contains(&p.y);
        let mut turns = Vec::new();
        for o in &barriers {
            for p in turning_points(o) {
                if on_table(&p) && !barriers.iter().any(|b| b.contains(p)) {
                    turns.push(p);
                }
            }
        }
        let n = turns.len();
        if n > MAX_TURNS {
            return Err(WaysError::TooMany(n));
        }
        let mut ways = Ways {
            barriers,
            turns,
            apart: vec![f64::INFINITY; n * n],
            next: vec![u16::MAX; n * n],
            width,
            depth,
        };
        for i in 0..n {
            ways.apart[i * n + i] = 0.0;
            ways.next[i * n + i] = i as u16;
            for j in i + 1..n {
                let (a, b) = (ways.turns[i], ways.turns[j]);
                if ways.open(a, b) {
                    let d = a.to(b);
                    (ways.apart[i * n + j], ways.apart[j * n + i]) = (d, d);
                    (ways.next[i * n + j], ways.next[j * n + i]) = (j as u16, i as u16);
                }
            }
        }
        // Floyd-Warshall: once a table, a few hundred corners at most.
        for k in 0..n {
            for i in 0..n {
                let ik = ways.apart[i * n + k];
                if !ik.is_finite() {
                    continue;
                }
                for j in 0..n {
                    let d = ik + ways.apart[k * n + j];
                    if d < ways.apart[i * n + j] - EDGE {
                        ways.apart[i * n + j] = d;
                        ways.next[i * n + j] = ways.next[i * n + k];
                    }
                }
            }
        }
        Ok(ways)
    }

    /// Whether a walker may go straight from `a` to `b`.
    #[inline]
    pub fn open(&self, a: Point, b: Point) -> bool {
        !self
            .barriers
            .iter()
            .any(|o| !o.beside(a, b) && geometry::crosses(o, a, b))
    }

    /// The first and last turns of the shortest way from `a` to `b` round what stands
    /// between, or `None` when it is straight (`Some` with an infinite length: no way).
    fn via(&self, a: Point, b: Point, kept: &mut Seen) -> Option<Via> {
        if self.open(a, b) {
            return None;
        }
        let n = self.turns.len();
        // The turns the far end sees, a bit each (kept for the next question to `b`).
        if kept.at != Some(b) {
            kept.bits = [0; MAX_TURNS / 64];
            for (k, &p) in self.turns.iter().enumerate() {
                if self.open(p, b) {
                    kept.bits[k / 64] |= 1 << (k % 64);
                }
            }
            kept.at = Some(b);
        }
        let seen = &kept.bits;
        let mut best = Via {
            first: 0,
            last: 0,
            length: f64::INFINITY,
        };
        for (i, &p) in self.turns.iter().enumerate() {
            let di = a.to(p);
            // No way through this turn can beat the best so far: skip its sight test.
            if di + p.to(b) >= best.length - EDGE || !self.open(a, p) {
                continue;
            }
            for (w, &word) in seen.iter().enumerate().take(n.div_ceil(64)) {
                let mut bits = word;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let d = di + self.apart[i * n + j] + self.turns[j].to(b);
                    if d < best.length - EDGE {
                        best = Via {
                            first: i,
                            last: j,
                            length: d,
                        };
                    }
                }
            }
        }
        Some(best)
    }

    /// The length of the shortest way from `a` to `b` in inches (infinite: no way).
    pub fn length(&self, a: Point, b: Point, kept: &mut Seen) -> f64 {
        self.via(a, b, kept).map_or(a.to(b), |v| v.length)
    }

    /// Where a walker that sets out from `a` toward `b` stands after `by` inches of the
    /// shortest way (at `b` if the way is shorter; where it stands, if there is none).
    pub fn after(&self, a: Point, b: Point, by: f64, kept: &mut Seen) -> Point {
        self.along(a, b, self.route(a, b, kept), by)
    }

    /// The shortest way from `a` to `b`, worked out once for several [`Ways::along`].
    pub fn route(&self, a: Point, b: Point, kept: &mut Seen) -> Route {
        Route(self.via(a, b, kept))
    }

    /// [`Ways::after`] on the way `r` from `a` to `b` ([`Ways::route`]).
    pub fn along(&self, a: Point, b: Point, r: Route, by: f64) -> Point {
        let Some(v) = r.0 else {
            let d = a.to(b);
            return if by >= d || d == 0.0 {
                b
            } else {
                a.lerp(b, by.max(0.0) / d)
            };
        };
        if !v.length.is_finite() {
            return a;
        }
        let n = self.turns.len();
        let (mut at, mut left, mut k) = (a, by.max(0.0), v.first);
        loop {
            let p = self.turns[k];
            let leg = at.to(p);
            if leg >= left {
                return at.lerp(p, if leg > 0.0 { left / leg } else { 1.0 });
            }
            (left, at) = (left - leg, p);
            if k == v.last {
                break;
            }
            k = self.next[k * n + v.last] as usize;
        }
        let leg = at.to(b);
        if leg > left {
            at.lerp(b, left / leg)
        } else {
            b
        }
    }

    /// The points a walker passes setting out from `a` toward `b` for `by` inches of the
    /// shortest way: `a`, each corner it turns at, and where it stops ([`Ways::after`]).
    /// It allocates: for maps, not for the trial loop.
    pub fn path(&self, a: Point, b: Point, by: f64, kept: &mut Seen) -> Vec<Point> {
        let end = self.after(a, b, by, kept);
        let mut out = vec![a];
        if let Some(v) = self.via(a, b, kept).filter(|v| v.length.is_finite()) {
            let n = self.turns.len();
            let (mut k, mut walked, mut at) = (v.first, 0.0, a);
            loop {
                let p = self.turns[k];
                walked += at.to(p);
                if walked >= by {
                    break;
                }
                out.push(p);
                at = p;
                if k == v.last {
                    break;
                }
                k = self.next[k * n + v.last] as usize;
            }
        }
        out.push(end);
        out
    }

    /// How far, up to `by` inches, a figure at `a` moves straight toward `b` before it
    /// would meet what it cannot cross or the table's edge: it stops [`CLEARANCE`] short.
    pub fn clear(&self, a: Point, b: Point, by: f64) -> f64 {
        let d = a.to(b);
        if d == 0.0 {
            return 0.0;
        }
        let mut t = (by / d).min(1.0);
        let mut stretches = [(0.0, 0.0); geometry::MAX_CORNERS / 2 + 1];
        for o in &self.barriers {
            let k = o.inside_of(a, b, &mut stretches);
            if let Some(&(t0, _)) = stretches[..k].iter().find(|s| s.1 - s.0 > EDGE) {
                t = t.min(t0 - CLEARANCE / d);
            }
        }
        // The edges: x in [0, width], y in [0, depth].
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        for (p, q, edge) in [
            (a.x, dx, 0.0),
            (a.x, dx, self.width),
            (a.y, dy, 0.0),
            (a.y, dy, self.depth),
        ] {
            if q != 0.0 {
                let te = (edge - p) / q;
                if te >= 0.0 {
                    t = t.min(te);
                }
            }
        }
        (t * d).max(0.0)
    }

    /// Whether a figure may stand at `p`: inside nothing it cannot cross (its edge is
    /// outside).
    pub fn standable(&self, p: Point) -> bool {
        !self.barriers.iter().any(|o| o.contains(p) && !o.on_edge(p))
    }

    /// The turns a walker takes, for the map and tests.
    pub fn turns(&self) -> &[Point] {
        &self.turns
    }
}

/// The points a walker turns at round outline `o`: each corner that juts out (a walker
/// never turns at one that juts in), [`CLEARANCE`] off it along the line that halves it.
fn turning_points(o: &Outline) -> impl Iterator<Item = Point> + '_ {
    let c = o.corners();
    let n = c.len();
    // Which way the outline winds: its corners that jut out turn the same way.
    let area: f64 = (0..n)
        .map(|i| c[i].x * c[(i + 1) % n].y - c[(i + 1) % n].x * c[i].y)
        .sum();
    (0..n).filter_map(move |i| {
        let (p, q, r) = (c[(i + n - 1) % n], c[i], c[(i + 1) % n]);
        let turn = (q.x - p.x) * (r.y - q.y) - (q.y - p.y) * (r.x - q.x);
        if turn * area <= 0.0 {
            return None;
        }
        let unit = |a: Point, b: Point| {
            let l = a.to(b);
            ((b.x - a.x) / l, (b.y - a.y) / l)
        };
        // Away from both neighbours: outward at a corner that juts out.
        let (u, v) = (unit(p, q), unit(r, q));
        let (bx, by) = (u.0 + v.0, u.1 + v.1);
        let l = (bx * bx + by * by).sqrt();
        // The offset along the bisector that leaves both faces CLEARANCE off.
        let off = CLEARANCE * std::f64::consts::SQRT_2;
        Some(Point::new(q.x + bx / l * off, q.y + by / l * off))
    })
}

#[cfg(test)]
mod tests {
    use super::super::way::tests::table;
    use super::*;

    /// Nothing kept between questions.
    fn fresh() -> Seen {
        Seen::NONE
    }

    #[test]
    fn issue_43_worked_out_ways_match_the_way_round_a_building_within_the_clearance() {
        let t = table(&[(TerrainKind::Building, (10.0, 6.0, 14.0, 8.0), 4.0)]);
        let w = Ways::new(&t, true).unwrap();
        assert_eq!(w.turns().len(), 4);
        let (a, b) = (Point::new(12.0, 2.0), Point::new(12.0, 12.0));
        let exact = t.way(a, b, true).unwrap().length;
        let got = w.length(a, b, &mut fresh());
        // Turning a CLEARANCE off each of two corners adds less than 4 clearances.
        assert!(
            got > exact && got < exact + 4.0 * CLEARANCE,
            "{got} vs {exact}"
        );
        // Halfway, the walker stands beside the building, not in it.
        let mid = w.after(a, b, got / 2.0, &mut fresh());
        assert!(mid.x < 10.0 || mid.x > 14.0, "{mid:?}");
        assert!(w.after(a, b, 100.0, &mut fresh()) == b);
        // Nothing between: straight, and `after` walks the straight line.
        assert_eq!(
            w.length(a, Point::new(2.0, 12.0), &mut fresh()),
            a.to(Point::new(2.0, 12.0))
        );
        assert_eq!(
            w.after(a, Point::new(12.0, 0.0), 1.0, &mut fresh()),
            Point::new(12.0, 1.0)
        );
    }

    #[test]
    fn issue_43_a_low_wall_is_a_barrier_only_to_those_who_may_not_leap() {
        let t = table(&[(TerrainKind::LowWall, (4.0, 6.8, 20.0, 7.2), 0.5)]);
        let (a, b) = (Point::new(12.0, 2.0), Point::new(12.0, 12.0));
        assert_eq!(
            Ways::new(&t, true).unwrap().length(a, b, &mut fresh()),
            10.0
        );
        let slow = Ways::new(&t, false).unwrap();
        let exact = t.way(a, b, false).unwrap().length;
        assert!((slow.length(a, b, &mut fresh()) - exact).abs() < 4.0 * CLEARANCE);
    }

    #[test]
    fn issue_43_a_step_stops_short_of_a_wall_and_at_the_tables_edge() {
        let t = table(&[(TerrainKind::Wall, (4.0, 10.0, 20.0, 10.5), 2.0)]);
        let w = Ways::new(&t, true).unwrap();
        let a = Point::new(12.0, 6.0);
        // 4" to the wall's face: it stops a clearance short of it.
        let c = w.clear(a, Point::new(12.0, 20.0), 10.0);
        assert!((c - (4.0 - CLEARANCE)).abs() < 1e-9, "{c}");
        // Backward, the table's near edge 6" away.
        assert!((w.clear(a, Point::new(12.0, 0.0), 10.0) - 6.0).abs() < 1e-9);
        // Nothing in the way: the whole step.
        assert_eq!(w.clear(a, Point::new(0.0, 6.0), 3.0), 3.0);
    }

    #[test]
    fn issue_43_no_way_into_a_walled_pen() {
        // A pen of four walls round (12, 12), overlapping at its corners: no way in.
        let t = table(&[
            (TerrainKind::Wall, (8.0, 8.0, 16.0, 9.0), 2.0),
            (TerrainKind::Wall, (8.0, 15.0, 16.0, 16.0), 2.0),
            (TerrainKind::Wall, (8.0, 8.0, 9.0, 16.0), 2.0),
            (TerrainKind::Wall, (15.0, 8.0, 16.0, 16.0), 2.0),
        ]);
        let w = Ways::new(&t, true).unwrap();
        let (a, b) = (Point::new(2.0, 2.0), Point::new(12.0, 12.0));
        assert!(w.length(a, b, &mut fresh()).is_infinite());
        assert_eq!(w.after(a, b, 5.0, &mut fresh()), a);
    }

    #[test]
    fn issue_43_a_kept_sight_gives_the_ways_a_fresh_one_does() {
        // Walkers from 300 spots toward three goals, one kept Seen throughout: the same
        // lengths and steps as with nothing kept.
        let t = super::super::named::layout("town", 48.0, 48.0, 1).unwrap();
        let w = Ways::new(&t, true).unwrap();
        let goals = [
            Point::new(2.0, 45.0),
            Point::new(24.0, 24.5),
            Point::new(46.0, 15.5),
        ];
        let mut kept = fresh();
        let mut differ = 0;
        for k in 0..300 {
            let a = Point::new(0.5 + (k * 7 % 47) as f64, 0.5 + (k * 13 % 47) as f64);
            if !w.standable(a) {
                continue;
            }
            let b = goals[k % 3];
            let l = w.length(a, b, &mut kept);
            assert_eq!(l, w.length(a, b, &mut fresh()));
            assert_eq!(
                w.after(a, b, 7.5, &mut kept),
                w.after(a, b, 7.5, &mut fresh())
            );
            differ += (l > a.to(b) + 1e-9) as u32;
        }
        assert!(differ > 50, "most ways go round: {differ}");
    }
}
