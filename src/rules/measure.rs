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
}
