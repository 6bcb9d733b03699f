//! Points, outlines and sight lines on the table, in inches.
//!
//! Every test here allows the same rounding: a distance or a height within
//! [`EDGE`] of a limit counts as on it, as everywhere else diemon measures (a sight line
//! that grazes a wall's top or corner is not blocked by it). Outlines are simple polygons
//! (validated where a table is built, [`Outline::new`]); figures are vertical segments from
//! the ground to their height.

use crate::rules::measure::EDGE;

/// A point on the table: inches across (`x`) and along (`y`) it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Point {
    /// Inches from the table's left edge.
    pub x: f64,
    /// Inches from the table's near edge (side A's).
    pub y: f64,
}

impl Point {
    /// The point `x` across and `y` along.
    pub const fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// The straight distance to `p`.
    pub fn to(self, p: Point) -> f64 {
        crate::rules::measure::apart((self.x, self.y), (p.x, p.y))
    }

    /// The point a fraction `t` of the way to `p`.
    pub fn lerp(self, p: Point, t: f64) -> Point {
        Point::new(self.x + (p.x - self.x) * t, self.y + (p.y - self.y) * t)
    }
}

/// Twice the signed area of triangle `a b c`: positive when it turns left.
fn cross(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// Where segment `a b` crosses segment `c d`, as the fraction of the way along `a b`:
/// `None` when they do not cross, or are parallel (a sight line along a wall's face is
/// not blocked by that face; the faces it meets end-on block it).
fn crossing(a: Point, b: Point, c: Point, d: Point) -> Option<f64> {
    let (r, s) = ((b.x - a.x, b.y - a.y), (d.x - c.x, d.y - c.y));
    let denom = r.0 * s.1 - r.1 * s.0;
    if denom.abs() < EDGE * EDGE {
        return None;
    }
    let (qx, qy) = (c.x - a.x, c.y - a.y);
    let t = (qx * s.1 - qy * s.0) / denom;
    let u = (qx * r.1 - qy * r.0) / denom;
    (0.0..=1.0)
        .contains(&t)
        .then_some(t)
        .filter(|_| (0.0..=1.0).contains(&u))
}

/// The fractions of the way along segment `a b` where it enters and leaves the box from
/// `low` to `high` (edges included), if it meets it (Liang and Barsky's clipping).
fn clip(low: Point, high: Point, a: Point, b: Point) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, d, lo, hi) in [
        (a.x, b.x - a.x, low.x, high.x),
        (a.y, b.y - a.y, low.y, high.y),
    ] {
        if d == 0.0 {
            if p < lo || p > hi {
                return None;
            }
            continue;
        }
        let (u, v) = ((lo - p) / d, (hi - p) / d);
        let (u, v) = if u < v { (u, v) } else { (v, u) };
        t0 = t0.max(u);
        t1 = t1.min(v);
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}

/// A simple polygon (no edge crosses another), its corners in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Outline {
    corners: Vec<Point>,
    /// The least and greatest corner coordinates: a segment wholly outside this box, by
    /// more than [`EDGE`], meets nothing of the outline (the quick test every sight line
    /// and step makes first).
    low: Point,
    high: Point,
    /// A rectangle square to the table (most terrain): segments are clipped to its box
    /// rather than crossed with each edge.
    square: bool,
}

/// Why corners make no outline.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OutlineError {
    /// Fewer than three corners.
    #[error("an outline needs at least 3 corners, not {0}")]
    TooFew(usize),
    /// No area: every corner on one line.
    #[error("its corners lie on one line: it has no area")]
    Flat,
    /// Two edges that are not neighbours cross.
    #[error("edges {0} and {1} cross: an outline goes round its area once")]
    Crossed(usize, usize),
    /// More than [`MAX_CORNERS`] corners.
    #[error("an outline has at most {MAX_CORNERS} corners, not {0}")]
    TooMany(usize),
}

/// The most corners an outline may have: a sight line's crossings are kept on the stack.
pub const MAX_CORNERS: usize = 64;

impl Outline {
    /// The outline through `corners`, checked: at least three, some area, and no two edges
    /// crossing, so that inside and outside are well defined.
    pub fn new(corners: Vec<Point>) -> Result<Outline, OutlineError> {
        let n = corners.len();
        if n < 3 {
            return Err(OutlineError::TooFew(n));
        }
        if n > MAX_CORNERS {
            return Err(OutlineError::TooMany(n));
        }
        for i in 0..n {
            for j in i + 2..n {
                if i == 0 && j == n - 1 {
                    continue;
                }
                let (a, b) = (corners[i], corners[(i + 1) % n]);
                let (c, d) = (corners[j], corners[(j + 1) % n]);
                if crossing(a, b, c, d).is_some() {
                    return Err(OutlineError::Crossed(i + 1, j + 1));
                }
            }
        }
        let area: f64 = (0..n)
            .map(|i| cross(Point::new(0.0, 0.0), corners[i], corners[(i + 1) % n]))
            .sum();
        if area.abs() < EDGE {
            return Err(OutlineError::Flat);
        }
        let low = corners
            .iter()
            .fold(corners[0], |m, p| Point::new(m.x.min(p.x), m.y.min(p.y)));
        let high = corners
            .iter()
            .fold(corners[0], |m, p| Point::new(m.x.max(p.x), m.y.max(p.y)));
        let square = n == 4
            && (0..4).all(|i| {
                let (a, b) = (corners[i], corners[(i + 1) % 4]);
                a.x == b.x || a.y == b.y
            });
        Ok(Outline {
            corners,
            low,
            high,
            square,
        })
    }

    /// Whether segment `a b` stays wholly beside the outline's box: then it meets nothing
    /// of the outline.
    #[inline]
    pub fn beside(&self, a: Point, b: Point) -> bool {
        a.x.max(b.x) < self.low.x - EDGE
            || a.x.min(b.x) > self.high.x + EDGE
            || a.y.max(b.y) < self.low.y - EDGE
            || a.y.min(b.y) > self.high.y + EDGE
    }

    /// The outline's corners, in order.
    pub fn corners(&self) -> &[Point] {
        &self.corners
    }

    /// The rectangle with opposite corners `a` and `b`.
    pub fn rectangle(a: Point, b: Point) -> Result<Outline, OutlineError> {
        Outline::new(vec![a, Point::new(b.x, a.y), b, Point::new(a.x, b.y)])
    }

    /// Whether `p` lies on one of the outline's edges.
    pub fn on_edge(&self, p: Point) -> bool {
        let n = self.corners.len();
        (0..n).any(|i| {
            let (a, b) = (self.corners[i], self.corners[(i + 1) % n]);
            let along = (p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y);
            let length = (b.x - a.x).powi(2) + (b.y - a.y).powi(2);
            cross(a, b, p).abs() <= EDGE * length.sqrt() && (0.0..=length).contains(&along)
        })
    }

    /// Whether `p` lies inside (or on the edge of) the outline.
    pub fn contains(&self, p: Point) -> bool {
        let n = self.corners.len();
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (self.corners[i], self.corners[(i + 1) % n]);
            // On an edge counts as inside.
            let along = (p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y);
            let length = (b.x - a.x).powi(2) + (b.y - a.y).powi(2);
            if cross(a, b, p).abs() <= EDGE * length.sqrt() && (0.0..=length).contains(&along) {
                return true;
            }
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
                inside = !inside;
            }
        }
        inside
    }

    /// The stretches of segment `a b` that lie inside the outline, each as the fractions of
    /// the way along it where it enters and leaves, in order; `out` receives them and the
    /// count is returned. At most `out.len()` are written: an outline of `n` corners makes at
    /// most `n / 2 + 1`.
    pub fn inside_of(&self, a: Point, b: Point, out: &mut [(f64, f64)]) -> usize {
        if self.beside(a, b) || out.is_empty() {
            return 0;
        }
        if self.square {
            return match clip(self.low, self.high, a, b) {
                Some((t0, t1)) if t1 - t0 > EDGE => {
                    out[0] = (t0, t1);
                    1
                }
                _ => 0,
            };
        }
        let n = self.corners.len();
        // The crossings, with the ends: at most MAX_CORNERS + 2, on the stack.
        let mut ts = [0.0f64; MAX_CORNERS + 2];
        let mut k = 0;
        ts[k] = 0.0;
        k += 1;
        for i in 0..n {
            if let Some(t) = crossing(a, b, self.corners[i], self.corners[(i + 1) % n]) {
                ts[k] = t;
                k += 1;
            }
        }
        ts[k] = 1.0;
        k += 1;
        let ts = &mut ts[..k];
        ts.sort_by(f64::total_cmp);
        let mut m = 0;
        for w in ts.windows(2) {
            let (t0, t1) = (w[0], w[1]);
            if t1 - t0 <= EDGE || m == out.len() {
                continue;
            }
            if self.contains(a.lerp(b, (t0 + t1) / 2.0)) {
                // Neighbouring stretches inside join.
                if m > 0 && (out[m - 1].1 - t0).abs() <= EDGE {
                    out[m - 1].1 = t1;
                } else {
                    out[m] = (t0, t1);
                    m += 1;
                }
            }
        }
        m
    }
}

/// Whether segment `a b` passes through the outline's inside: along its edges or through a
/// corner is not through it (a walker may skirt a wall), across it is.
pub fn crosses(o: &Outline, a: Point, b: Point) -> bool {
    if o.beside(a, b) {
        return false;
    }
    if o.square {
        // Strictly inside: the box less the rounding allowance on every side.
        let e = Point::new(EDGE, EDGE);
        let (low, high) = (
            Point::new(o.low.x + e.x, o.low.y + e.y),
            Point::new(o.high.x - e.x, o.high.y - e.y),
        );
        return clip(low, high, a, b).is_some_and(|(t0, t1)| (t1 - t0) * a.to(b) > EDGE);
    }
    let mut stretches = [(0.0, 0.0); MAX_CORNERS / 2 + 1];
    let n = o.inside_of(a, b, &mut stretches);
    stretches[..n].iter().any(|&(t0, t1)| {
        // Strictly inside somewhere: a point of the stretch off every edge. A stretch that
        // runs along an edge has all its points on it.
        [0.25, 0.5, 0.75].iter().any(|f| {
            let p = a.lerp(b, t0 + (t1 - t0) * f);
            o.contains(p) && !o.on_edge(p)
        })
    })
}

/// Whether a sight line from height `from` at `a` to height `to` at `b` passes through a
/// block of outline `o` and height `h` standing on the table: somewhere inside the outline
/// the line runs lower than the block's top (by more than [`EDGE`]). The line's height is
/// straight between its ends, so each stretch inside is checked at its two ends.
pub fn blocks(o: &Outline, h: f64, a: Point, from: f64, b: Point, to: f64) -> bool {
    if o.beside(a, b) {
        return false;
    }
    let mut stretches = [(0.0, 0.0); MAX_CORNERS / 2 + 1];
    let n = o.inside_of(a, b, &mut stretches);
    stretches[..n].iter().any(|&(t0, t1)| {
        let low = (from + (to - from) * t0).min(from + (to - from) * t1);
        low < h - EDGE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Outline {
        Outline::rectangle(Point::new(x0, y0), Point::new(x1, y1)).unwrap()
    }

    #[test]
    fn an_outline_needs_three_corners_area_and_no_crossing_edges() {
        let p = Point::new;
        assert_eq!(
            Outline::new(vec![p(0.0, 0.0), p(1.0, 1.0)]),
            Err(OutlineError::TooFew(2))
        );
        assert_eq!(
            Outline::new(vec![p(0.0, 0.0), p(1.0, 1.0), p(2.0, 2.0)]),
            Err(OutlineError::Flat)
        );
        // A bow tie: edges 1 and 3 cross.
        let bow = vec![p(0.0, 0.0), p(2.0, 2.0), p(2.0, 0.0), p(0.0, 2.0)];
        assert_eq!(Outline::new(bow), Err(OutlineError::Crossed(1, 3)));
        assert!(Outline::new(vec![p(0.0, 0.0), p(2.0, 0.0), p(1.0, 2.0)]).is_ok());
    }

    /// An L 4" each way, its arms 1" wide, the notch at the top right.
    fn l_shape() -> Outline {
        let p = Point::new;
        Outline::new(vec![
            p(0.0, 0.0),
            p(4.0, 0.0),
            p(4.0, 1.0),
            p(1.0, 1.0),
            p(1.0, 4.0),
            p(0.0, 4.0),
        ])
        .unwrap()
    }

    #[test]
    fn inside_counts_the_edge_and_an_l_shape_has_its_notch() {
        let p = Point::new;
        let l = l_shape();
        assert!(l.contains(p(0.5, 3.0)) && l.contains(p(3.0, 0.5)));
        assert!(!l.contains(p(3.0, 3.0)), "the notch");
        assert!(
            l.contains(p(4.0, 0.5)) && l.contains(p(1.0, 2.0)),
            "on an edge"
        );
        assert!(!l.contains(p(4.0 + 1e-6, 0.5)));
    }

    #[test]
    fn a_segment_meets_an_l_shape_in_two_stretches() {
        let p = Point::new;
        let l = l_shape();
        // Along y = 0.5 from x = -1 to 5: inside from 0 to 4 (fractions 1/6 to 5/6).
        let mut out = [(0.0, 0.0); 4];
        let n = l.inside_of(p(-1.0, 0.5), p(5.0, 0.5), &mut out);
        assert_eq!(n, 1);
        assert!((out[0].0 - 1.0 / 6.0).abs() < 1e-12 && (out[0].1 - 5.0 / 6.0).abs() < 1e-12);
        // Across the corner: one stretch; across the notch: through one arm, out over the
        // notch, and through the other.
        let n = l.inside_of(p(-0.5, 1.0), p(1.0, -0.5), &mut out);
        assert_eq!(n, 1, "{:?}", &out[..n]);
        let n = l.inside_of(p(0.5, 3.5), p(3.5, 0.5), &mut out);
        assert_eq!(n, 2, "{:?}", &out[..n]);
        // x + y = 4 from x = 0.5: inside to x = 1 (a sixth of the way), again from x = 3.
        assert!((out[0].1 - 1.0 / 6.0).abs() < 1e-12 && (out[1].0 - 5.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn a_wall_blocks_a_sight_line_below_its_top_and_not_one_over_it() {
        // A 2" wall from x = 4 to 5, the sight line along y = 1 from x = 0 to 10.
        let wall = square(4.0, 0.0, 5.0, 2.0);
        let (a, b) = (Point::new(0.0, 1.0), Point::new(10.0, 1.0));
        assert!(blocks(&wall, 2.0, a, 1.0, b, 1.0), "1\" high all the way");
        assert!(!blocks(&wall, 2.0, a, 3.0, b, 3.0), "3\" high all the way");
        // From 1" up to 3": at the wall (x 4 to 5) it runs 1.8" to 2.0": blocked by its
        // near face; grazing the top exactly is not.
        assert!(blocks(&wall, 2.0, a, 1.0, b, 3.0));
        assert!(
            !blocks(&wall, 1.8, a, 1.0, b, 3.0),
            "1.8\" at the near face: on it"
        );
        // Beside the wall: nothing.
        let beside = Point::new(10.0, 3.0);
        assert!(!blocks(&wall, 2.0, Point::new(0.0, 3.0), 0.5, beside, 0.5));
    }
}
