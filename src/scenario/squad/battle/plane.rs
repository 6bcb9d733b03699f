//! Where figures stand and how they move: every distance between two figures, or between a
//! figure and a spot, and every step a figure takes goes through here (issue 40, item 4).
//!
//! Positions are still kept along the line of battle only, in half-inches; a figure's
//! place across the line ([`Squad::lateral`]) counts for area effects alone. Reach on the
//! plane changes these few functions and the types [`Spot`] and [`Heading`], not the rules
//! that call them: a distance stays a whole number of half-inches (rounded up, which is
//! exact for every "within" test against a whole limit), and a step a whole number of
//! half-inches along a heading.

use super::*;

/// A place on the table: half-inches along the line.
pub(super) type Spot = i32;

/// A direction to step in: +1 up the line (toward side B's start), -1 down it.
pub(super) type Heading = i32;

impl Field {
    /// Where unit `u` stands.
    #[inline(always)]
    pub(super) fn at(&self, u: usize) -> Spot {
        self.f[u].pos
    }

    /// Half-inches between units `a` and `b`.
    #[inline(always)]
    pub(super) fn gap(&self, a: usize, b: usize) -> i32 {
        (self.f[a].pos - self.f[b].pos).abs()
    }

    /// Half-inches between unit `a` and the spot `s`.
    #[inline(always)]
    pub(super) fn gap_to(&self, a: usize, s: Spot) -> i32 {
        (self.f[a].pos - s).abs()
    }

    /// The heading from unit `u` toward the spot `s` (none if it stands on it).
    #[inline(always)]
    pub(super) fn toward(&self, u: usize, s: Spot) -> Heading {
        (s - self.f[u].pos).signum()
    }

    /// The heading from the spot `s` away to unit `u`; from its own spot, toward its own
    /// side's back (side A's is down the line).
    #[inline(always)]
    pub(super) fn away(&self, u: usize, s: Spot) -> Heading {
        match (self.f[u].pos - s).signum() {
            0 if self.f[u].side == 0 => -1,
            0 => 1,
            h => h,
        }
    }

    /// The spot `by` half-inches from unit `u` along `h`.
    #[inline(always)]
    pub(super) fn ahead(&self, u: usize, h: Heading, by: i32) -> Spot {
        self.f[u].pos + h * by
    }

    /// Unit `u` steps `by` half-inches along `h`.
    #[inline(always)]
    pub(super) fn step(&mut self, u: usize, h: Heading, by: i32) {
        self.f[u].pos += h * by;
    }

    /// Unit `u` walks `by` half-inches straight toward unit `t`.
    #[inline(always)]
    pub(super) fn walk(&mut self, u: usize, t: usize, by: i32) {
        let h = self.toward(u, self.at(t));
        self.step(u, h, by);
    }

    /// How far, up to `by` half-inches, unit `u` can step along `h` before the table's
    /// edge: `room` half-inches behind each side's starting line, `span` apart (never less
    /// than nothing: a rear rank or a KnockBack may stand past it).
    #[inline(always)]
    pub(super) fn before_edge(&self, u: usize, h: Heading, by: i32, room: i32, span: i32) -> i32 {
        let edge = if h < 0 { -room } else { span + room };
        by.min(((edge - self.f[u].pos) * h).max(0))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn distances_headings_and_the_edge_along_the_line() {
        let s = squad(&[MF], &[MF], 12, RuleOptions::default());
        let mut fl = s.start();
        assert_eq!((fl.at(0), fl.at(1)), (0, 24));
        assert_eq!((fl.gap(0, 1), fl.gap_to(0, -3)), (24, 3));
        assert_eq!(
            (fl.toward(0, 24), fl.toward(1, 0), fl.toward(0, 0)),
            (1, -1, 0)
        );
        // On its own spot, each backs toward its own side's back.
        assert_eq!((fl.away(0, 0), fl.away(1, 24), fl.away(0, 5)), (-1, 1, -1));
        fl.walk(0, 1, 10);
        assert_eq!(fl.gap(0, 1), 14);
        // 12" of room behind each line, 12" apart: from 10 half-inches up, 34 are left down
        // the line and 38 up it.
        assert_eq!(fl.before_edge(0, -1, 40, 24, 24), 34);
        assert_eq!(fl.before_edge(0, 1, 40, 24, 24), 38);
        fl.step(0, -1, 34);
        assert_eq!(fl.before_edge(0, -1, 4, 24, 24), 0);
    }
}
