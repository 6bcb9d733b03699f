//! Conduct on a table (issue 43): where a side's walks end, by its `conduct` policy.
//! `advance` walks its way as far as it wants to go; `cover` walks it all where it ends
//! unseen, else ends the walk, between half of it and all of it, where the fewest thirds
//! of the walker stand in the sight of enemy shooters that could reach it
//! ([`Squad::exposure`]), the nearest to its goal (straight) among equals: a player moving
//! from cover to cover (Ch. 8.3's cover is his to seek). `spread` weighs the same places
//! by the friends within an Explosion's first ring ([`Squad::crowding`]), and `flank` by
//! the enemies that could Respond there ([`Squad::watched`], Ch. 4.3's Cone of Vision).

use super::*;
use crate::dice::Log;
use crate::scenario::squad::Conduct;
use crate::scenario::table::Point;
use crate::scenario::table::ways::Seen;

/// How far to either side of its way a walker under `cover` looks for cover, in
/// half-inches, and how many places it weighs.
const ASIDE: [i32; 5] = [0, -2, 2, -4, 4];
const ALONG: [i32; 3] = [4, 3, 2];

impl Squad {
    /// Unit `i` walks `by` half-inches toward `s` (its goal: the enemy, or an objective),
    /// drawn for a map: along its way, or to the place its conduct picks. Returns the
    /// half-inches it walked where its conduct stopped it elsewhere (for the narration,
    /// which alone asks), else `None`.
    #[inline(always)]
    pub(super) fn walk_on<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        s: Spot,
        by: i32,
        log: &mut L,
    ) -> Option<i32> {
        let conduct = self.policy[fl.f[i].side as usize].conduct;
        if self.board.is_some() && by > 0 && conduct != Conduct::Advance {
            let stop = self.cover_stop(fl, i, s, by, conduct).unwrap_or(s);
            let walked = L::NOTES.then(|| self.way_gap(fl, i, stop).min(by));
            self.walk_drawn(fl, i, stop, by, log);
            return walked;
        }
        self.walk_drawn(fl, i, s, by, log);
        None
    }

    /// Narrates unit `i`'s walk, `d` half-inches from its nearest enemy `t` before it:
    /// `moved` half-inches, or, where its conduct stopped it short or aside (`walked`),
    /// the half-inches it walked and the way left, measured anew.
    pub(super) fn say_walk<L: Log + ?Sized>(
        &self,
        fl: &Field,
        i: usize,
        (d, t): (i32, usize),
        (moved, walked): (i32, Option<i32>),
        sprints: bool,
        log: &mut L,
    ) {
        if moved == 0 {
            return log.note(format_args!(
                "  {} stays, {}\" from the nearest enemy",
                Who(self, fl, i),
                d as f64 / 2.0
            ));
        }
        let (moved, left) = match walked {
            Some(w) => (w, self.way_gap(fl, i, fl.at(t))),
            None => (moved, d - moved),
        };
        log.note(format_args!(
            "  {} moves {}\"{}, {}\" from the nearest enemy",
            Who(self, fl, i),
            moved as f64 / 2.0,
            if sprints { " (Sprinting)" } else { "" },
            left as f64 / 2.0
        ));
    }

    /// Where unit `i`, walking `by` half-inches toward `goal`, ends its walk under `cover`
    /// or `spread`: the whole walk where it scores nothing; else among the places a half,
    /// three quarters and all of the way along, each straight there or 1" or 2" to either
    /// side, those it can stand on and reach within `by`, the least scored (under `cover`
    /// [`Squad::exposure`], under `spread` [`Squad::crowding`]), then the nearest its goal
    /// straight (then the first named). `None` off a table.
    pub(super) fn cover_stop(
        &self,
        fl: &Field,
        i: usize,
        goal: Spot,
        by: i32,
        conduct: Conduct,
    ) -> Option<Spot> {
        let score = |p: Point, cap: u32| match conduct {
            Conduct::Spread => self.crowding(fl, i, p),
            Conduct::Flank => self.watched(fl, i, p),
            _ => self.exposure(fl, i, p, cap),
        };
        let b = self.board()?;
        let slow = (fl.f[i].recovering || self.kinds[fl.f[i].kind as usize].half_speed) as usize;
        let w = &b.ways[slow];
        let mut kept = fl.seen[slow].get();
        let (from, to) = (b.point(fl.at(i)), b.point(goal));
        let inches = by as f64 / 2.0;
        let route = w.route(from, to, &mut kept);
        // The whole walk ends where no shooter sees it (no friend stands by it): nothing to
        // hide from.
        let whole = w.along(from, to, route, inches);
        if score(whole, 0) == 0 {
            fl.seen[slow].set(kept);
            return Some(b.spot(whole));
        }
        let mut best: Option<(u32, f64, Point)> = None;
        // Ways from the walker to each place: each a goal of its own, kept apart.
        let mut fresh = Seen::NONE;
        for quarters in ALONG {
            let along = inches * quarters as f64 / 4.0;
            let on = w.along(from, to, route, along);
            // Across the way here: square to where it heads.
            let ahead = w.along(from, to, route, (along + 0.5).min(inches));
            let (dx, dy) = (ahead.x - on.x, ahead.y - on.y);
            let l = (dx * dx + dy * dy).sqrt();
            for aside in ASIDE {
                if aside != 0 && l == 0.0 {
                    continue;
                }
                let off = aside as f64 / 2.0;
                let p = if aside == 0 {
                    on
                } else {
                    Point::new(on.x - dy / l * off, on.y + dx / l * off)
                };
                let on_table = (0.0..=b.table.width()).contains(&p.x)
                    && (0.0..=b.table.depth()).contains(&p.y);
                // Cheap tests first: the table, standing room, the straight distance.
                let limit = inches + plane::SLACK as f64;
                if !on_table || !w.standable(p) || from.to(p) > limit {
                    continue;
                }
                let cap = best.map_or(u32::MAX, |(e, _, _)| e);
                let seen = score(p, cap);
                if seen > cap || !(w.open(from, p) || w.length(from, p, &mut fresh) <= limit) {
                    continue;
                }
                // Nearest its goal as the crow flies: a way from each place would cost a
                // way's search a place, and the places lie within 2" of one another.
                let left = p.to(to);
                if best.is_none_or(|(e, d, _)| seen < e || (seen == e && left < d - 1e-9)) {
                    best = Some((seen, left, p));
                }
            }
        }
        fl.seen[slow].set(kept);
        best.map(|(_, _, p)| b.spot(p))
    }

    /// How many enemies could Respond to unit `i` were it standing at `p` (Ch. 4.3): each
    /// standing, not Disrupted, with its Action saved, `p` within its Angry Inch or its
    /// Range, and `i` there inside its Cone of Vision and not wholly hidden from it.
    pub(super) fn watched(&self, fl: &Field, i: usize, p: Point) -> u32 {
        let Some(b) = self.board() else {
            return 0;
        };
        let me = Self::figure_at(fl, i, p);
        let them = 1 - fl.f[i].side;
        (0..self.roster.len())
            .filter(|&u| {
                let f = &fl.f[u];
                if !(f.alive && f.side == them && f.saved && !f.disrupted) {
                    return false;
                }
                let k = &self.kinds[f.kind as usize];
                let reach = RESPONSE_REACH.max(2 * k.reach().unwrap_or(0) as i32);
                let at = b.point(fl.at(u));
                if 2.0 * at.to(p) > reach as f64 + plane::SLACK as f64 {
                    return false;
                }
                let face = fl.face[u];
                let eye = Self::figure_at(fl, u, at);
                b.table
                    .sees(eye, Point::new(face.1 as f64, face.0 as f64), me)
            })
            .count() as u32
    }

    /// How many of unit `i`'s friends stand within 2" of `p` (an Explosion's first ring,
    /// Ch. 8.4: one burst there would catch them both).
    pub(super) fn crowding(&self, fl: &Field, i: usize, p: Point) -> u32 {
        let Some(b) = self.board() else {
            return 0;
        };
        let side = fl.f[i].side;
        (0..self.roster.len())
            .filter(|&u| u != i && fl.f[u].alive && fl.f[u].side == side)
            .filter(|&u| b.point(fl.at(u)).to(p) <= crate::rules::explosion::RING_INCHES + 1e-9)
            .count() as u32
    }

    /// How much of unit `i`, were it standing at `p`, enemy shooters see: over every
    /// standing enemy with a Range that its Move and Range reach `p` by, the thirds of `i`
    /// it sees (none behind a wall that hides all of it). Counting stops past `cap`.
    pub(super) fn exposure(&self, fl: &Field, i: usize, p: Point, cap: u32) -> u32 {
        let Some(b) = self.board() else {
            return 0;
        };
        let me = Self::figure_at(fl, i, p);
        let them = 1 - fl.f[i].side;
        let mut seen = 0;
        for u in 0..self.roster.len() {
            let f = &fl.f[u];
            if !f.alive || f.side != them {
                continue;
            }
            let k = &self.kinds[f.kind as usize];
            let Some(range) = k.reach() else {
                continue;
            };
            let at = b.point(fl.at(u));
            if 2.0 * at.to(p) > (2 * range as i32 + k.move_halves) as f64 + plane::SLACK as f64 {
                continue;
            }
            let eye = Self::figure_at(fl, u, at);
            let s = b.table.sight(eye, me);
            if s.walled < 3 {
                seen += 3 - s.hidden;
                if seen > cap {
                    break;
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::dice::Script;
    use crate::scenario::squad::board::Objective;
    use crate::scenario::table::{Outline, Terrain, TerrainKind};

    #[test]
    fn issue_43_under_cover_a_walk_ends_behind_the_wall_rather_than_in_the_open() {
        // A rifleman 8" up a 24" table (its zone 8" deep); a minifig with a Hand Weapon
        // 8" down from the far edge... 8" off it. A 2" wall 1" wide stands 3" ahead of the
        // minifig and 1" to its right. Advancing, its 5" walk ends in the open, 3" from the
        // rifle's Range; under cover, behind the wall, where the rifle sees none of it.
        let wall = Terrain {
            kind: TerrainKind::Wall,
            outline: Outline::rectangle(Point::new(12.5, 12.5), Point::new(15.5, 13.0)).unwrap(),
            height: 2.0,
        };
        let t = square(vec![wall], 8.0);
        let ro = RuleOptions::default();
        let mut b = side(&[MF], &ro);
        let a = side(&[("minifig-rifle", 1)], &ro);
        let plain = Squad::new(a.clone(), b.clone(), 12, First::B, 1, ro).unwrap();
        let plain = plain.on_table(t.clone(), Objective::LastStanding).unwrap();
        b.policy.conduct = Conduct::Cover;
        let covered = Squad::new(a, b, 12, First::B, 1, ro).unwrap();
        let covered = covered.on_table(t, Objective::LastStanding).unwrap();
        for (s, hidden) in [(&plain, false), (&covered, true)] {
            let mut fl = s.start();
            // B walks (A has its Action saved: a shot at B if it sees it within 10").
            let mut dice = Script::new(&[(D6, 1)]);
            s.act(&mut fl, 1, &mut dice, &mut NoLog);
            let p = s.board().unwrap().point(fl.at(1));
            let seen = s.exposure(&fl, 1, p, u32::MAX);
            assert_eq!(seen == 0, hidden, "{p:?}: {seen} thirds seen");
            // In the open it drew the rifle's shot (a natural 1); behind the wall, none.
            assert_eq!(dice.is_done(), !hidden, "{p:?}");
        }
    }

    #[test]
    fn issue_43_spread_out_a_walk_ends_out_of_one_burst_with_a_friend() {
        // Two minifigs of side A, 1.5" apart, walk 5" at side B, 12" off. Advancing, they
        // end 1.5" apart (one 2" burst catches both); spread out, the second ends its walk
        // more than 2" from the first.
        let t = square(vec![], 6.0);
        let ro = RuleOptions::default();
        for (conduct, apart) in [(Conduct::Advance, false), (Conduct::Spread, true)] {
            let mut a = side(&[("minifig-hand-weapon", 2)], &ro);
            a.policy.conduct = conduct;
            let s = Squad::new(a, side(&[MF], &ro), 12, First::A, 1, ro).unwrap();
            let s = s.on_table(t.clone(), Objective::LastStanding).unwrap();
            let mut fl = s.start();
            for u in [0, 1] {
                s.act(&mut fl, u, &mut Script::new(&[]), &mut NoLog);
            }
            let b = s.board().unwrap();
            let gap = b.point(fl.at(0)).to(b.point(fl.at(1)));
            assert_eq!(gap > 2.0, apart, "{conduct:?}: {gap}\" apart");
            assert_eq!(s.crowding(&fl, 1, b.point(fl.at(1))), u32::from(!apart));
        }
    }

    #[test]
    fn issue_43_flanking_a_walk_ends_where_no_enemy_could_respond() {
        // A minifig of side A, 2.5" from one of side B that faces it (it lined up outside
        // B's Angry Inch last turn). Advancing, it charges through B's Cone of Vision and
        // Angry Inch: B Responds first (the scripted 1s miss). Flanking, its walk ends where
        // no enemy could Respond, and draws none: B must step in.
        let t = square(vec![], 10.75);
        let ro = RuleOptions::default();
        for (conduct, flanked) in [(Conduct::Advance, false), (Conduct::Flank, true)] {
            let mut a = side(&[MF], &ro);
            a.policy.conduct = conduct;
            let s = Squad::new(a, side(&[MF], &ro), 12, First::A, 1, ro).unwrap();
            let s = s.on_table(t.clone(), Objective::LastStanding).unwrap();
            let mut fl = s.start();
            let mut dice = Script::new(&[(D6, 1); 4]);
            s.act(&mut fl, 0, &mut dice, &mut NoLog);
            let b = s.board().unwrap();
            let (me, them) = (b.point(fl.at(0)), b.point(fl.at(1)));
            // (B's Response spends its saved Action: it watches no more after one.)
            assert_eq!(fl.f[1].saved, flanked, "{conduct:?}: {me:?} {them:?}");
            if flanked {
                assert_eq!(s.watched(&fl, 0, me), 0, "{me:?}");
            }
            // Advancing, it charges into contact through B's first blow; flanking, it
            // holds off outside B's reach and leaves B the step in.
            assert_eq!(me.to(them) > 2.0, flanked, "{conduct:?}: {me:?}");
        }
    }
}
