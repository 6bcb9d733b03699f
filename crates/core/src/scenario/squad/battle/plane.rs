//! Where figures stand and how they move (Ch. 4.1: a unit moves "in any direction"): every
//! distance between two figures, or between a figure and a spot, and every step a figure
//! takes goes through here (issue 40, item 4).
//!
//! Figures stand on the plane: along the line of battle (`Figure::pos`) and across it
//! ([`Field::lat`]), both in half-inches. A distance is rounded up to a whole half-inch,
//! which is exact for every "within" test against a whole limit (a reach, a Range, the
//! Angry Inch: the texts measure in inches, diemon in half-inches), and less than
//! [`SLACK`] over a whole number counts as on it: a diagonal step leaves rounding in the
//! last bits, never a table's worth. A step is a whole number of half-inches along a
//! [`Heading`], straight toward or away from a figure or a spot.
//!
//! A battle whose figures all stand on one line and never leave it is flat
//! ([`Squad::flat`]): every heading runs along the line, positions stay whole numbers, and a
//! distance is a difference of positions, as it always was before the plane.

use super::*;

/// A place on the table: half-inches along the line and across it.
pub(super) type Spot = (f32, f32);

/// A direction to step in: a unit vector (along, across) in half-inches.
pub(super) type Heading = (f32, f32);

/// How far past a whole half-inch a measured distance may be and still count as on it:
/// positions are `f32`, whose rounding after a few diagonal steps is a millionth of an
/// inch; a thousandth of a half-inch is far above it and far below any table.
pub(super) const SLACK: f32 = 1e-3;

/// Half-inches between two spots `d` = (along, across) apart, rounded up ([`SLACK`]).
#[inline(always)]
fn measure(flat: bool, d: (f32, f32)) -> i32 {
    if flat {
        return d.0.abs() as i32;
    }
    measure_squared(false, d.0 * d.0 + d.1 * d.1)
}

/// [`measure`] of an offset whose squared length is `squared` (on the plane; flat, the
/// length is the square root of it).
#[inline(always)]
fn measure_squared(flat: bool, squared: f32) -> i32 {
    let l = squared.sqrt();
    if flat {
        return l as i32;
    }
    // `ceil` by hand: without SSE4.1 it is a libm call, a sixth of a pistol battle's time.
    let x = (l - SLACK).max(0.0);
    let whole = x as i32;
    whole + ((whole as f32) < x) as i32
}

impl Field {
    /// Where unit `u` stands.
    #[inline(always)]
    pub(super) fn at(&self, u: usize) -> Spot {
        (self.f[u].pos, self.lat[u])
    }

    /// Half-inches between units `a` and `b`.
    #[inline(always)]
    pub(super) fn gap(&self, a: usize, b: usize) -> i32 {
        self.gap_to(a, self.at(b))
    }

    /// The living unit of `slots` nearest unit `i` and its [`Field::gap`], ties to the
    /// first: [`Squad::least`] of the gap, in two passes without a square root a unit.
    /// The gap only grows with the squared length, so the least squared length gives the
    /// least gap; the first unit measuring that gap is then found among those whose squared
    /// length could (the square root and rounding were a fifth of a battle on the plane).
    #[inline(always)]
    pub(super) fn nearest_to(
        &self,
        slots: impl Iterator<Item = usize> + Clone,
        i: usize,
    ) -> Option<(i32, usize)> {
        let s = self.at(i);
        let length = |t: usize| {
            let d = (self.f[t].pos - s.0, self.lat[t] - s.1);
            d.0 * d.0 + d.1 * d.1
        };
        // The least squared length alone, without a branch a unit: which unit it is, the
        // second pass finds.
        let mut least = f32::INFINITY;
        for t in slots.clone() {
            let l = if self.f[t].alive {
                length(t)
            } else {
                f32::INFINITY
            };
            least = if l < least { l } else { least };
        }
        if least == f32::INFINITY {
            return None;
        }
        let gap = measure_squared(self.flat, least);
        // A unit measures `gap` or less only within `gap + 1` (flat, whole numbers) or `gap
        // + SLACK` (on the plane): a hundredth of a half-inch over either is far above
        // `f32`'s rounding at any table's length.
        let within = ((gap + 1) as f32 + 0.01).powi(2);
        slots
            .filter(|&t| self.f[t].alive && length(t) <= within)
            // The least length measures the gap: no square root for it.
            .find(|&t| length(t) == least || self.gap_to(t, s) == gap)
            .map(|t| (gap, t))
    }

    /// Half-inches between unit `a` and the spot `s`.
    #[inline(always)]
    pub(super) fn gap_to(&self, a: usize, s: Spot) -> i32 {
        measure(self.flat, (self.f[a].pos - s.0, self.lat[a] - s.1))
    }

    /// Whether unit `a` stands within `reach` half-inches of the spot `s`: `gap_to(a, s) <=
    /// reach`, without the square root.
    #[inline(always)]
    pub(super) fn within(&self, a: usize, s: Spot, reach: i32) -> bool {
        let d = (self.f[a].pos - s.0, self.lat[a] - s.1);
        if self.flat {
            return d.0.abs() <= reach as f32;
        }
        let r = reach as f32 + SLACK;
        d.0 * d.0 + d.1 * d.1 <= r * r
    }

    /// Whether unit `a` may stand within `reach` half-inches of the spot `s`: within it and
    /// half an inch more, far over `within`'s rounding. False only where
    /// [`Field::gap_to`] surely exceeds `reach`, so a scan rules a unit out with it before
    /// measuring the rest.
    #[inline(always)]
    pub(super) fn may_reach(&self, a: usize, s: Spot, reach: i32) -> bool {
        self.within(a, s, reach.saturating_add(1))
    }

    /// The heading from unit `u` toward the spot `s` (none if it stands on it).
    #[inline(always)]
    pub(super) fn toward(&self, u: usize, s: Spot) -> Heading {
        let d = (s.0 - self.f[u].pos, s.1 - self.lat[u]);
        if self.flat {
            return (d.0.signum() * (d.0 != 0.0) as i32 as f32, 0.0);
        }
        let l = (d.0 * d.0 + d.1 * d.1).sqrt();
        if l == 0.0 {
            (0.0, 0.0)
        } else {
            (d.0 / l, d.1 / l)
        }
    }

    /// The heading from the spot `s` away to unit `u`; from its own spot, toward its own
    /// side's back (side A's is down the line).
    #[inline(always)]
    pub(super) fn away(&self, u: usize, s: Spot) -> Heading {
        let h = self.toward(u, s);
        if h == (0.0, 0.0) {
            return (if self.f[u].side == 0 { -1.0 } else { 1.0 }, 0.0);
        }
        (-h.0, -h.1)
    }

    /// The spot `by` half-inches from unit `u` along `h`.
    #[inline(always)]
    pub(super) fn ahead(&self, u: usize, h: Heading, by: i32) -> Spot {
        let by = by as f32;
        (self.f[u].pos + h.0 * by, self.lat[u] + h.1 * by)
    }

    /// Unit `u` steps `by` half-inches along `h`.
    #[inline(always)]
    pub(super) fn step(&mut self, u: usize, h: Heading, by: i32) {
        (self.f[u].pos, self.lat[u]) = self.ahead(u, h, by);
    }

    /// Unit `u` walks `by` half-inches straight toward unit `t` (the turn walks by
    /// [`Squad::walk_to`], which on a table goes round terrain).
    #[cfg(test)]
    pub(super) fn walk(&mut self, u: usize, t: usize, by: i32) {
        let h = self.toward(u, self.at(t));
        self.step(u, h, by);
    }

    /// How far, up to `by` half-inches, unit `u` can step along `h` before the table's
    /// edge: `room` half-inches behind each side's starting line, `span` apart (never less
    /// than nothing: a rear rank or a KnockBack may stand past it). The table has no edge
    /// across the line.
    #[inline(always)]
    pub(super) fn before_edge(&self, u: usize, h: Heading, by: i32, room: i32, span: i32) -> i32 {
        if h.0 == 0.0 {
            return by;
        }
        let edge = if h.0 < 0.0 { -room } else { span + room } as f32;
        let left = ((edge - self.f[u].pos) / h.0 + SLACK).floor().max(0.0);
        by.min(left as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn within_agrees_with_the_rounded_distance() {
        // Spots around reaches 0 to 6: whole half-inches on the line (where positions stay
        // whole), quarter and eighth inches off it.
        let s = squad(&[MF], &[MF], 12, RuleOptions::default());
        for flat in [true, false] {
            let mut fl = s.start();
            fl.flat = flat;
            for x in -16..=16 {
                for y in -16..=16 {
                    let spot = if flat {
                        (x as f32, 0.0)
                    } else {
                        (x as f32 * 0.5, y as f32 * 0.25)
                    };
                    for reach in 0..=6 {
                        assert_eq!(
                            fl.within(0, spot, reach),
                            fl.gap_to(0, spot) <= reach,
                            "{spot:?} {reach}"
                        );
                        // The cheap test rules out only what is out of reach, and whatever
                        // is more than half an inch past it.
                        let gap = fl.gap_to(0, spot);
                        assert!(gap > reach || fl.may_reach(0, spot, reach));
                        assert_eq!(fl.may_reach(0, spot, reach), gap <= reach + 1);
                    }
                }
            }
        }
    }

    #[test]
    fn the_nearest_is_the_least_measured_gap_ties_to_the_first() {
        // `nearest_to` finds the least squared length, then names the first living unit
        // measuring that gap: the same answer as measuring every unit. Spots a quarter inch
        // apart across the line make many ties of the rounded gap with unequal lengths.
        let s = squad(
            &[("minifig-hand-weapon", 8)],
            &[MF],
            12,
            RuleOptions::default(),
        );
        let mut fl = s.start();
        fl.flat = false;
        let mut ties = 0;
        for layout in 0..40u32 {
            for t in 0..8 {
                let k = (layout * 7 + t as u32 * 13) % 17;
                fl.f[t].pos = (k % 5) as f32 * 0.5;
                fl.lat[t] = k as f32 * 0.25;
                fl.f[t].alive = !(layout + t as u32).is_multiple_of(5);
            }
            fl.f[8].pos = 1.0;
            fl.lat[8] = (layout % 9) as f32 * 0.5;
            let brute = (0..8)
                .filter(|&t| fl.f[t].alive)
                .map(|t| (fl.gap(t, 8), t))
                .min();
            assert_eq!(fl.nearest_to(0..8, 8), brute, "layout {layout}");
            // A tie the least length alone would break the other way.
            let length = |t: usize| {
                let d = (fl.f[t].pos - fl.f[8].pos, fl.lat[t] - fl.lat[8]);
                d.0 * d.0 + d.1 * d.1
            };
            let shortest = (0..8)
                .filter(|&t| fl.f[t].alive)
                .min_by(|&a, &b| length(a).total_cmp(&length(b)));
            ties += (shortest != brute.map(|(_, t)| t)) as u32;
        }
        assert!(ties > 0, "the layouts make no tie of the gap");
        for t in 0..8 {
            fl.f[t].alive = false;
        }
        assert_eq!(fl.nearest_to(0..8, 8), None);
    }

    #[test]
    fn distances_headings_and_the_edge_along_the_line() {
        let s = squad(&[MF], &[MF], 12, RuleOptions::default());
        let mut fl = s.start();
        assert!(fl.flat);
        assert_eq!((fl.at(0), fl.at(1)), ((0.0, 0.0), (24.0, 0.0)));
        assert_eq!((fl.gap(0, 1), fl.gap_to(0, (-3.0, 0.0))), (24, 3));
        assert_eq!(fl.toward(0, (24.0, 0.0)), (1.0, 0.0));
        assert_eq!(fl.toward(1, (0.0, 0.0)), (-1.0, 0.0));
        assert_eq!(fl.toward(0, (0.0, 0.0)), (0.0, 0.0));
        // On its own spot, each backs toward its own side's back.
        assert_eq!(fl.away(0, (0.0, 0.0)), (-1.0, 0.0));
        assert_eq!(fl.away(1, (24.0, 0.0)), (1.0, 0.0));
        assert_eq!(fl.away(0, (5.0, 0.0)), (-1.0, 0.0));
        fl.walk(0, 1, 10);
        assert_eq!(fl.gap(0, 1), 14);
        // 12" of room behind each line, 12" apart: from 10 half-inches up, 34 are left down
        // the line and 38 up it.
        assert_eq!(fl.before_edge(0, (-1.0, 0.0), 40, 24, 24), 34);
        assert_eq!(fl.before_edge(0, (1.0, 0.0), 40, 24, 24), 38);
        fl.step(0, (-1.0, 0.0), 34);
        assert_eq!(fl.before_edge(0, (-1.0, 0.0), 4, 24, 24), 0);
    }

    #[test]
    fn issue_40_distances_and_steps_on_the_plane() {
        let s = squad(&[MF], &[MF], 12, RuleOptions::default());
        let mut fl = s.start();
        fl.flat = false;
        // B stands 12" off to the side of A: 24 half-inches, not 0.
        fl.f[1].pos = 0.0;
        fl.lat[1] = 24.0;
        assert_eq!(fl.gap(0, 1), 24);
        // 3-4-5: 3" along and 4" across is 5" (10 half-inches), and a hair over is 5".
        fl.f[1].pos = 6.0;
        fl.lat[1] = 8.0;
        assert_eq!(fl.gap(0, 1), 10);
        fl.lat[1] = 8.0 + 1e-5;
        assert_eq!(fl.gap(0, 1), 10);
        // 5.01" rounds up to the next half-inch.
        fl.lat[1] = 8.02;
        assert_eq!(fl.gap(0, 1), 11);
        // A walks 4" straight at it: 1" short, along the 3-4-5 line.
        fl.lat[1] = 8.0;
        fl.walk(0, 1, 8);
        assert_eq!(fl.gap(0, 1), 2);
        assert!((fl.f[0].pos - 4.8).abs() < 1e-5 && (fl.lat[0] - 6.4).abs() < 1e-5);
        // Backing away from B, it meets A's table edge (12" behind its line) along the line
        // only: 24 + 4.8 half-inches of room at 0.6 of each step along, 48 whole steps.
        let h = fl.away(0, fl.at(1));
        assert_eq!(fl.before_edge(0, h, 100, 24, 24), 48);
    }

    #[test]
    fn issue_40_a_unit_12_inches_to_the_side_cannot_strike_in_close_combat() {
        // Two minifigs level along the line, B 12" off to A's side (a battle off the line:
        // not flat). Measured along the line they stand in contact; on the plane B is out
        // of reach, so A strikes no one from where it stands (in either form of the turn),
        // and its turn walks it 5" straight at B without an attack (no die is rolled).
        let mut s = squad(&[MF], &[MF], 0, RuleOptions::default());
        s.flat = false;
        s.line = None;
        let mut fl = s.start();
        fl.flat = false;
        fl.lat[1] = 24.0;
        assert!(!s.can_attack_as::<true>(&fl, 0) && !s.can_attack_as::<false>(&fl, 0));
        s.act(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        assert_eq!((fl.gap(0, 1), fl.f[0].pos, fl.lat[0]), (14, 0.0, 10.0));
        assert!(fl.f[1].alive);
        // Half an inch to the side it is in contact, and strikes: a 1 misses.
        let mut fl = s.start();
        fl.flat = false;
        fl.lat[1] = 1.0;
        assert!(s.can_attack_as::<true>(&fl, 0));
        let mut dice = crate::dice::Script::new(&[(D6, 1)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
    }
}
