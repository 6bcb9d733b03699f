//! Measuring on the table: whether a figure is "within" a distance (Ch. 8.4's "within a
//! two-inch radius", a weapon's Range, an arc's edge).
//!
//! diemon keeps positions as `f64` inches. A figure exactly 2" from a burst can compute as
//! 2.0000000000000004": the positions are offset by the firing distance and a scatter's
//! direction goes through `cos` and `sin`, so rounding, not the table, would decide which
//! side of an edge it is on. A distance within [`EDGE`] of a limit counts as on it, and so
//! within. The rounding is at most about 1e-13" at 1000" (the largest distance diemon
//! accepts); no table measures a billionth of an inch.

/// How near a limit a measured distance (inches) or angle (radians) counts as on it.
pub const EDGE: f64 = 1e-9;

/// Whether `measured` is within `limit`, a figure on the edge included.
#[inline]
pub fn within(measured: f64, limit: f64) -> bool {
    measured <= limit + EDGE
}

/// How far apart two points on the table are, in inches: `sqrt(dx² + dy²)`. This is within
/// an ulp or two of `f64::hypot`, far inside [`EDGE`], and several times cheaper: glibc's
/// `hypot` guards against overflow that inches never reach, and it was 14% of a catalog's
/// battles.
#[inline(always)]
pub fn apart(a: (f64, f64), b: (f64, f64)) -> f64 {
    length(a.0 - b.0, a.1 - b.1)
}

/// The length of an offset `(dx, dy)` in inches ([`apart`]).
#[inline(always)]
pub fn length(dx: f64, dy: f64) -> f64 {
    (dx * dx + dy * dy).sqrt()
}

/// Whether `a` and `b` stand within `limit` of each other: [`within`] of [`apart`], the
/// cheap test first. Points farther apart than `limit` along either axis are not within it
/// (their distance is at least that far, less rounding far below [`EDGE`]), so most of a
/// wide line is ruled out without a square root.
#[inline(always)]
pub fn near(a: (f64, f64), b: (f64, f64), limit: f64) -> bool {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    let past = limit + 2.0 * EDGE;
    if dx.abs() > past || dy.abs() > past {
        return false;
    }
    within(length(dx, dy), limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edge_is_within_and_a_hair_past_it_is_not() {
        assert!(within(2.0, 2.0));
        assert!(within(2.0000000000000004, 2.0));
        assert!(within(1.9999999999999998, 2.0));
        assert!(!within(2.000001, 2.0));
        assert!(!within(2.0 + 2.0 * EDGE, 2.0));
    }

    #[test]
    fn near_is_within_of_apart() {
        // Points around circles of 2", 4" and 12" (Explosion rings and a Range), on their
        // edges to the last bit and either side, on and off the axes.
        for limit in [2.0, 4.0, 12.0] {
            for k in 0..720 {
                let a = k as f64 * std::f64::consts::TAU / 720.0;
                for r in [
                    limit * 0.5,
                    limit,
                    limit * (1.0 + 1e-12),
                    limit + 1.5 * EDGE,
                    limit + 1e-6,
                    2.0 * limit,
                ] {
                    let b = (3.0 + r * a.cos(), -1.5 + r * a.sin());
                    let c = (3.0, -1.5);
                    assert_eq!(
                        near(b, c, limit),
                        within(apart(b, c), limit),
                        "{b:?} at {limit}"
                    );
                }
            }
            for edge in [limit, limit + EDGE, limit + 2.0 * EDGE, limit + 3.0 * EDGE] {
                let b = (edge, 0.0);
                assert_eq!(near(b, (0.0, 0.0), limit), within(edge, limit), "{edge}");
            }
        }
    }

    #[test]
    fn apart_is_hypot_to_far_inside_the_edge() {
        // A 3-4-5 triangle is exact; offsets from 1e-3" to 1000" (the largest distance
        // diemon accepts) agree with hypot to a billionth of EDGE.
        assert_eq!(apart((1.0, 2.0), (4.0, 6.0)), 5.0);
        let mut x = 1e-3f64;
        while x < 1000.0 {
            for y in [0.0, 0.3 * x, x, 7.1 * x] {
                let d = length(x, y);
                assert!((d - x.hypot(y)).abs() < EDGE * 1e-3, "{x}, {y}");
                assert_eq!(length(-x, -y), d);
            }
            x *= 1.37;
        }
    }
}
