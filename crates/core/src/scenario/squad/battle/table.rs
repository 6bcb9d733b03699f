//! What a table adds to the turn (issue 43; the board is set in `squad::board`):
//! - walks round what a walker cannot cross, the leaps of Ch. 4.1 included ([`Squad::walk_to`]),
//!   and straight steps (stepping back, Bailing, KnockBack) that stop short of terrain and
//!   the table's edge ([`Squad::room_along`]);
//! - sight (Ch. 8.3, 8.4): no attack but an Explosive's parabolic flight reaches a target
//!   wholly behind solid terrain ([`Squad::walled_off`]); a shot takes -1 a third of its
//!   target hidden, and -5 blind when all of it is hidden ([`Squad::sight_modifier`]);
//! - the Cone of Vision (Ch. 4.3): a Response answers only a mover its figure sees
//!   ([`Squad::aware`]); each figure ends its own turn facing its nearest enemy;
//! - the objective ([`Squad::holds`]) and the `rush` conduct that goes for it.
//!
//! Places stay the battle's half-inches; the board turns them into the table's inches.

use super::*;
use crate::dice::Log;
use crate::rules::combat;
use crate::scenario::squad::board::{Board, CENTRE, EDGE_REACH, Objective};
use crate::scenario::table::{self, Point, Sight};

/// A way no walker can take, in half-inches: longer than any table.
const NO_WAY: i32 = i32::MAX / 4;

impl Board {
    /// The table's point at the battle's spot `s`.
    #[inline]
    pub(super) fn point(&self, s: Spot) -> Point {
        Point::new(
            self.origin.x + s.1 as f64 / 2.0,
            self.origin.y + s.0 as f64 / 2.0,
        )
    }

    /// The battle's spot at the table's point `p`.
    #[inline]
    pub(super) fn spot(&self, p: Point) -> Spot {
        (
            ((p.y - self.origin.y) * 2.0) as f32,
            ((p.x - self.origin.x) * 2.0) as f32,
        )
    }

    /// The centre of the table, as a spot.
    pub(super) fn centre(&self) -> Spot {
        self.spot(Point::new(
            self.table.width() / 2.0,
            self.table.depth() / 2.0,
        ))
    }
}

/// Inches rounded up to whole half-inches ([`plane::SLACK`] over counts as on one).
fn halves(inches: f64) -> i32 {
    if !inches.is_finite() {
        return NO_WAY;
    }
    ((inches * 2.0 - plane::SLACK as f64).ceil().max(0.0) as i32).min(NO_WAY)
}

impl Squad {
    /// The board, in the general form only.
    #[inline(always)]
    pub(super) fn board(&self) -> Option<&Board> {
        self.board.as_deref()
    }

    /// Whether unit `u` may not leap this turn (Half Speed, Ch. 4.1).
    fn slow(&self, fl: &Field, u: usize) -> bool {
        fl.f[u].recovering || self.kinds[fl.f[u].kind as usize].half_speed
    }

    /// Unit `u` as sight sees it: where it stands, as tall as its Size (half an inch for
    /// the smallest).
    fn figure(&self, b: &Board, fl: &Field, u: usize) -> table::Figure {
        Self::figure_at(fl, u, b.point(fl.at(u)))
    }

    /// Unit `u` as sight would see it standing at `at`.
    pub(super) fn figure_at(fl: &Field, u: usize, at: Point) -> table::Figure {
        table::Figure {
            at,
            height: (fl.f[u].size as f64).max(0.5),
        }
    }

    /// Half-inches of unit `u`'s shortest way to the spot `s` (rounded up).
    pub(super) fn way_gap(&self, fl: &Field, u: usize, s: Spot) -> i32 {
        match self.board() {
            Some(b) => {
                let v = self.slow(fl, u) as usize;
                let mut kept = fl.seen[v].get();
                let d = b.ways[v].length(b.point(fl.at(u)), b.point(s), &mut kept);
                fl.seen[v].set(kept);
                halves(d)
            }
            None => fl.gap_to(u, s),
        }
    }

    /// Unit `u` walks `by` half-inches toward the spot `s`: on a table along its shortest
    /// way, else straight.
    #[inline(always)]
    pub(super) fn walk_to(&self, fl: &mut Field, u: usize, s: Spot, by: i32) {
        let Some(b) = self.board() else {
            let h = fl.toward(u, s);
            return fl.step(u, h, by);
        };
        let v = self.slow(fl, u) as usize;
        let mut kept = fl.seen[v].get();
        let p = b.ways[v].after(b.point(fl.at(u)), b.point(s), by as f64 / 2.0, &mut kept);
        fl.seen[v].set(kept);
        (fl.f[u].pos, fl.lat[u]) = b.spot(p);
    }

    /// How far, up to `by` half-inches, unit `u` may step along `h` before the table's
    /// edge or, on a table, terrain it cannot cross.
    pub(super) fn room_along(&self, fl: &Field, u: usize, h: Heading, by: i32) -> i32 {
        let Some(b) = self.board() else {
            return fl.before_edge(u, h, by, self.room, 2 * self.distance as i32);
        };
        let w = &b.ways[self.slow(fl, u) as usize];
        let (a, to) = (b.point(fl.at(u)), b.point(fl.ahead(u, h, by)));
        let clear = w.clear(a, to, by as f64 / 2.0);
        ((clear * 2.0 + plane::SLACK as f64).floor() as i32).clamp(0, by)
    }

    /// What `i` sees of `t` on the table (nothing hidden off one).
    pub(super) fn sight(&self, fl: &Field, i: usize, t: usize) -> Sight {
        match self.board() {
            Some(b) => b.table.sight(self.figure(b, fl, i), self.figure(b, fl, t)),
            None => Sight {
                hidden: 0,
                walled: 0,
            },
        }
    }

    /// Whether `t` stands wholly behind solid terrain from `i`: no straight attack, shot
    /// or blow, reaches it (Ch. 8.4: only parabolic fire goes over obstacles).
    #[inline]
    pub(super) fn walled_off(&self, fl: &Field, i: usize, t: usize) -> bool {
        self.board.is_some() && self.sight(fl, i, t).walled == 3
    }

    /// The Skill modifier of `i`'s shot at `t` on the table: -1 a third hidden (Ch. 8.3),
    /// or -5 for firing blind at a target wholly hidden (Ch. 8.4).
    pub(super) fn sight_modifier(&self, fl: &Field, i: usize, t: usize) -> i64 {
        match self.sight(fl, i, t).hidden {
            3 => combat::BLIND_FIRE,
            h => combat::cover(h),
        }
    }

    /// Whether responder `j` sees `mover`: within its Cone of Vision, facing as it does,
    /// and not wholly hidden (Ch. 4.3: "he has to be able to see it"). Off a table, always.
    pub(super) fn aware(&self, fl: &Field, j: usize, mover: usize) -> bool {
        let Some(b) = self.board() else {
            return true;
        };
        let f = fl.face[j];
        b.table.sees(
            self.figure(b, fl, j),
            Point::new(f.1 as f64, f.0 as f64),
            self.figure(b, fl, mover),
        )
    }

    /// Unit `u` turns to face its nearest enemy (the end of its own turn).
    pub(super) fn face_nearest(&self, fl: &mut Field, u: usize) {
        if let Some((_, t)) = self.nearest(fl, u) {
            let h = fl.toward(u, fl.at(t));
            if h != (0.0, 0.0) {
                fl.face[u] = h;
            }
        }
    }

    /// Where unit `i`, with no enemy to strike this turn, walks under the `rush` conduct
    /// when the objective is to hold the centre: from outside the circle, to within 2" of
    /// the centre; inside it, nowhere while no enemy stands in it (it holds). `None`: it
    /// goes for the nearest enemy (an enemy contests the circle, or no objective).
    pub(super) fn rush_goal(&self, fl: &Field, i: usize) -> Option<(Spot, i32)> {
        let b = self.board()?;
        if b.objective == Objective::Edge {
            return self.edge_goal(b, fl, i);
        }
        let Objective::Hold { .. } = b.objective else {
            return None;
        };
        let (c, r) = (b.centre(), 2 * CENTRE as i32);
        if !fl.within(i, c, r) {
            let stop = 2 * (CENTRE as i32 - 1);
            // No way to the centre: it goes for the enemy instead.
            let d = self.way_gap(fl, i, c);
            return (d < NO_WAY).then(|| (c, (d - stop).max(0)));
        }
        let them = 1 - fl.f[i].side;
        let contested = (0..self.roster.len())
            .any(|u| fl.f[u].alive && fl.f[u].side == them && fl.within(u, c, r));
        (!contested).then_some((c, 0))
    }

    /// Where unit `i` rushes the enemy's edge ([`Objective::Edge`]): straight across to the
    /// spot on that edge in front of it, the whole way; `None` (it goes for the nearest
    /// enemy) when no way leads there.
    fn edge_goal(&self, b: &Board, fl: &Field, i: usize) -> Option<(Spot, i32)> {
        let at = b.point(fl.at(i));
        let far = if fl.f[i].side == 0 {
            b.table.depth()
        } else {
            0.0
        };
        let goal = b.spot(Point::new(at.x, far));
        let d = self.way_gap(fl, i, goal);
        (d < NO_WAY).then_some((goal, d))
    }

    /// At the end of `side`'s player turn: whether a unit of its own stands within
    /// [`EDGE_REACH`] of the enemy's edge, which wins the battle ([`Objective::Edge`]).
    fn reached<L: Log + ?Sized>(&self, b: &Board, fl: &mut Field, side: u8, log: &mut L) -> bool {
        let far = if side == 0 { b.table.depth() } else { 0.0 };
        let there = (0..self.roster.len()).any(|u| {
            fl.f[u].alive
                && fl.f[u].side == side
                && (b.point(fl.at(u)).y - far).abs() <= EDGE_REACH + 1e-9
        });
        if there {
            fl.won = side + 1;
            log.note(format_args!(
                "side {} has reached the enemy's edge: it wins",
                if side == 0 { 'A' } else { 'B' }
            ));
        }
        there
    }

    /// At the end of `side`'s player turn: counts the turns running it has held the centre
    /// (a unit of its own inside the circle, none of the enemy's) and returns whether that
    /// wins the battle ([`Objective::Hold`]).
    pub(super) fn holds<L: Log + ?Sized>(&self, fl: &mut Field, side: u8, log: &mut L) -> bool {
        let Some(b) = self.board() else {
            return false;
        };
        if b.objective == Objective::Edge {
            return self.reached(b, fl, side, log);
        }
        let Objective::Hold { turns } = b.objective else {
            return false;
        };
        let c = b.centre();
        let r = 2 * CENTRE as i32;
        let mut inside = [false; 2];
        for u in 0..self.roster.len() {
            if fl.f[u].alive && fl.within(u, c, r) {
                inside[fl.f[u].side as usize] = true;
            }
        }
        let s = side as usize;
        fl.held[s] = if inside[s] && !inside[1 - s] {
            fl.held[s] + 1
        } else {
            0
        };
        if fl.held[s] >= turns {
            fl.won = side + 1;
            log.note(format_args!(
                "side {} has held the centre {turns} turn{} running: it wins",
                if side == 0 { 'A' } else { 'B' },
                crate::plural::s(turns)
            ));
            return true;
        }
        false
    }

    /// On a table, how far unit `i` walks to its nearest enemy `t` (its way's
    /// half-inches), where it stops short, and where the `rush` conduct sends it instead.
    /// It has nothing to strike from where it stands (the caller asked). A shooter stops
    /// at the first half inch of its way from which `t` stands in its Range and not wholly
    /// behind a wall ("advance into sight"); anyone else stops `stop` short, or nowhere
    /// short when it stands in reach by its way (a corner stands between: it goes round).
    pub(super) fn on_board(
        &self,
        fl: &Field,
        i: usize,
        t: usize,
        stop: i32,
    ) -> (i32, i32, Option<(Spot, i32)>) {
        let goal = fl.at(t);
        let d = self.way_gap(fl, i, goal);
        let rush = self.rush_goal(fl, i);
        if d >= NO_WAY {
            // Walled in: it stays, the enemy as far as it stands.
            let g = fl.gap_to(i, goal);
            return (g, g, rush);
        }
        let k = &self.kinds[fl.f[i].kind as usize];
        let (Some(b), Some(range)) = (self.board(), k.reach()) else {
            return (d, if d <= stop { 0 } else { stop }, rush);
        };
        let v = self.slow(fl, i) as usize;
        let mut kept = fl.seen[v].get();
        let (from, to) = (b.point(fl.at(i)), self.figure(b, fl, t));
        let reach = 2.0 * range as f64 + plane::SLACK as f64 * 2.0;
        let most = self.at_speed(fl, i, k.move_halves).min(d);
        let route = b.ways[v].route(from, to.at, &mut kept);
        for s in 0..=most {
            let p = b.ways[v].along(from, to.at, route, s as f64 / 2.0);
            let eye = Self::figure_at(fl, i, p);
            if 2.0 * p.to(to.at) <= reach && b.table.sight(eye, to).walled < 3 {
                fl.seen[v].set(kept);
                return (d, d - s, rush);
            }
        }
        fl.seen[v].set(kept);
        (d, 0, rush)
    }

    /// Whether unit `i` has a target it may strike from where it stands (on a table the
    /// nearest enemy may stand behind a wall).
    pub(super) fn any_target(&self, fl: &Field, i: usize) -> bool {
        self.mode_of::<false>(fl, i, None)
            .is_some_and(|(mode, reach)| self.pick::<false>(fl, i, mode, reach).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::dice::Script;

    /// A rectangle by its opposite corners: (x0, y0, x1, y1).
    type Rect = (f64, f64, f64, f64);
    use crate::scenario::table::{Outline, Table, Terrain, TerrainKind};

    /// A 24" square table whose zones reach `zone` inches in (the fronts `24 - 2 zone`
    /// apart), with `pieces`: (kind, (x0, y0, x1, y1)) at the kind's own height.
    fn table(zone: f64, pieces: &[(TerrainKind, Rect)]) -> Table {
        let terrain = pieces
            .iter()
            .map(|&(kind, (x0, y0, x1, y1))| Terrain {
                kind,
                outline: Outline::rectangle(Point::new(x0, y0), Point::new(x1, y1)).unwrap(),
                height: kind.height(),
            })
            .collect();
        square(terrain, zone)
    }

    /// One `a` against one `b` on `t`, A first, for `turns` player turns.
    fn duel(a: &str, b: &str, t: Table, objective: Objective, turns: u32) -> Squad {
        let ro = RuleOptions::default();
        let s = Squad::new(
            side(&[(a, 1)], &ro),
            side(&[(b, 1)], &ro),
            12,
            First::A,
            turns,
            ro,
        );
        s.unwrap().on_table(t, objective).unwrap()
    }

    /// A rifleman against a minifig with a Hand Weapon on `t`, A first, one turn.
    fn rifle(t: Table) -> Squad {
        duel(
            "minifig-rifle",
            "minifig-hand-weapon",
            t,
            Objective::LastStanding,
            1,
        )
    }

    fn point(s: &Squad, fl: &Field, u: usize) -> Point {
        s.board().unwrap().point(fl.at(u))
    }

    #[test]
    fn issue_43_the_sides_deploy_on_their_zones_fronts() {
        let s = duel(
            "minifig-rifle",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::LastStanding,
            1,
        );
        let fl = s.start();
        assert_eq!(point(&s, &fl, 0), Point::new(12.0, 6.0));
        assert_eq!(point(&s, &fl, 1), Point::new(12.0, 18.0));
        assert_eq!(fl.face[0], (1.0, 0.0), "A faces B's edge");
        // Only the general turn reads a board: the plain and line forms never play it.
        assert!(!s.plain && s.line.is_none() && !s.flat);
        // A building on B's front: refused, named, with a hint.
        let t = table(6.0, &[(TerrainKind::Building, (10.0, 17.0, 14.0, 20.0))]);
        let ro = RuleOptions::default();
        let e = Squad::new(side(&[MF], &ro), side(&[MF], &ro), 12, First::A, 1, ro)
            .unwrap()
            .on_table(t, Objective::LastStanding)
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("side B's unit 1 would deploy at (12.00, 18.00), inside terrain"),
            "{e}"
        );
    }

    #[test]
    fn issue_43_a_walker_goes_round_a_building_not_through_it() {
        // Ch. 4.1: no passing through obstacles. A 4" x 2" building stands across the
        // straight line between the two: A's 5" walk bends round a corner.
        let t = table(6.0, &[(TerrainKind::Building, (10.0, 9.0, 14.0, 11.0))]);
        let s = duel(
            "minifig-hand-weapon",
            "minifig-hand-weapon",
            t,
            Objective::LastStanding,
            1,
        );
        let mut fl = s.start();
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        let p = point(&s, &fl, 0);
        assert!(s.board().unwrap().ways[0].standable(p), "{p:?}");
        // Round a corner: off the straight line, and 5" along the way (less straight).
        assert!((p.x - 12.0).abs() > 1.0, "{p:?}");
        let straight = Point::new(12.0, 6.0).to(p);
        assert!(straight < 5.0 - 1e-6, "{straight}");
        // Off a table the same walk is straight.
        let ro = RuleOptions::default();
        let plane = Squad::new(side(&[MF], &ro), side(&[MF], &ro), 12, First::A, 1, ro).unwrap();
        let mut fl = plane.start();
        plane.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        assert_eq!((fl.f[0].pos, fl.lat[0]), (10.0, 0.0));
    }

    #[test]
    fn issue_43_a_shot_takes_minus_one_a_third_hidden_and_minus_five_blind() {
        // Ch. 8.3: -1 a third hidden; Ch. 8.4: -5 at a target it cannot see. A low wall
        // (0.5") just before B's feet hides its lower third from A 8" off; woods hide it
        // all (past their first inch) but stop no shot.
        let low = rifle(table(
            8.0,
            &[(TerrainKind::LowWall, (8.0, 15.5, 16.0, 15.9))],
        ));
        let fl = low.start();
        let one_third = Sight {
            hidden: 1,
            walled: 1,
        };
        assert_eq!(low.sight(&fl, 0, 1), one_third);
        assert_eq!(low.sight_modifier(&fl, 0, 1), -1);
        // Scripted: a Skill 3 meets the rifle's Use 3 in the open, not behind the wall.
        let hit = run(&rifle(table(8.0, &[])), &[(D6, 3), (D6, 5)]);
        assert_eq!(hit.winner, Some(crate::scenario::duel::Side::A));
        let missed = run(&low, &[(D6, 3)]);
        assert_eq!(missed.winner, None, "a 3 less 1 misses Use 3");
        let s = rifle(table(8.0, &[(TerrainKind::Woods, (8.0, 10.0, 16.0, 14.0))]));
        let fl = s.start();
        let all = Sight {
            hidden: 3,
            walled: 0,
        };
        assert_eq!(s.sight(&fl, 0, 1), all);
        assert_eq!(s.sight_modifier(&fl, 0, 1), -5);
        assert!(!s.walled_off(&fl, 0, 1));
    }

    #[test]
    fn issue_43_no_straight_attack_reaches_a_figure_wholly_behind_a_wall() {
        // A 2" wall between the rifleman and its target 8" off: no shot (no die is rolled);
        // it walks 5" round the wall's end instead.
        let wall = table(8.0, &[(TerrainKind::Wall, (8.0, 11.8, 16.0, 12.2))]);
        let s = duel(
            "minifig-rifle",
            "minifig-hand-weapon",
            wall,
            Objective::LastStanding,
            1,
        );
        let mut fl = s.start();
        assert!(s.walled_off(&fl, 0, 1));
        assert!(!s.any_target(&fl, 0));
        let mut dice = Script::new(&[]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        let p = point(&s, &fl, 0);
        assert!((Point::new(12.0, 8.0).to(p) - 5.0).abs() < 0.1, "{p:?}");
        assert!(p.x < 8.0 || p.x > 16.0 || p.y < 11.8, "{p:?}");
    }

    #[test]
    fn issue_43_a_response_answers_only_a_mover_in_the_cone_of_vision() {
        // Ch. 4.3: a Responding figure must see what it responds to: 45 degrees either
        // side of where it faces. A rifleman with its saved Action faces B's edge; a mover
        // stepping an inch beside and behind it draws no shot; faced toward, it does.
        let s = duel(
            "minifig-rifle",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::LastStanding,
            1,
        );
        let mut fl = s.start();
        assert!(fl.f[0].saved);
        // B 4" behind A and 4" to the side (side A faces along +y: B is 135 degrees off).
        (fl.f[1].pos, fl.lat[1]) = (-8.0, 8.0);
        let answer = |fl: &mut Field, script: &[(crate::dice::Die, u32)]| {
            let from = fl.at(1);
            s.walk_to(fl, 1, (-6.0, 6.0), 2);
            let mut dice = Script::new(script);
            let _ = s.respond::<false, _, _>(fl, 1, from, false, &mut dice, &mut NoLog);
            assert!(dice.is_done());
        };
        answer(&mut fl, &[]);
        assert!(fl.f[0].saved, "unseen: no Response");
        s.face_nearest(&mut fl, 0);
        (fl.f[1].pos, fl.lat[1]) = (-8.0, 8.0);
        // A natural 1: a Critical Failure, the Action spent.
        answer(&mut fl, &[(D6, 1)]);
        assert!(!fl.f[0].saved, "seen: it answers");
    }

    #[test]
    fn issue_43_holding_the_centre_wins_and_both_sides_rush_it() {
        // The centre (12, 12) of a 24" table; A 6" from it walks 5" to 1" off and holds it
        // at the end of its turn: `hold:1` wins there. Fought to the last, it walks at B.
        let s = duel(
            "minifig-hand-weapon",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::Hold { turns: 1 },
            4,
        );
        let o = run(&s, &[]);
        assert_eq!(
            (o.winner, o.turns),
            (Some(crate::scenario::duel::Side::A), 1)
        );
        let s = duel(
            "minifig-hand-weapon",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::LastStanding,
            1,
        );
        assert_eq!(run(&s, &[]).winner, None);
        // B contesting the circle: neither holds it.
        let s = duel(
            "minifig-hand-weapon",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::Hold { turns: 1 },
            4,
        );
        let mut fl = s.start();
        (fl.f[0].pos, fl.lat[0]) = (11.0, 0.0);
        (fl.f[1].pos, fl.lat[1]) = (13.0, 0.0);
        assert!(!s.holds(&mut fl, 0, &mut NoLog));
        assert_eq!(fl.held, [0, 0]);
    }

    #[test]
    fn issue_43_reaching_the_enemys_edge_wins_and_both_sides_rush_it() {
        // A 24" table, zones 6" deep: A's front at 6", B's edge at 24". A rushes the spot
        // on B's edge straight ahead of it, the whole 18"; standing on the edge's last half
        // inch at the end of its turn wins, an inch short does not.
        let s = duel(
            "minifig-hand-weapon",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::Edge,
            4,
        );
        let mut fl = s.start();
        let (goal, walk) = s.rush_goal(&fl, 0).expect("a way to the edge");
        assert_eq!(goal, (36.0, 0.0));
        assert_eq!(walk, 36);
        // B rushes A's edge the same way.
        assert_eq!(s.rush_goal(&fl, 1).map(|(g, _)| g), Some((-12.0, 0.0)));
        (fl.f[0].pos, fl.lat[0]) = (34.0, 0.0);
        assert!(!s.holds(&mut fl, 0, &mut NoLog), "an inch short");
        (fl.f[0].pos, fl.lat[0]) = (35.0, 0.0);
        assert!(!s.holds(&mut fl, 1, &mut NoLog), "B's edge is not B's goal");
        assert!(s.holds(&mut fl, 0, &mut NoLog));
        assert_eq!(fl.won, 1);
        // Fought for the last side standing, nothing rushes.
        let s = duel(
            "minifig-hand-weapon",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::LastStanding,
            4,
        );
        assert_eq!(s.rush_goal(&s.start(), 0), None);
    }

    #[test]
    fn issue_43_a_step_back_stops_short_of_a_wall_and_the_tables_edge() {
        let wall = table(6.0, &[(TerrainKind::Wall, (8.0, 3.0, 16.0, 3.5))]);
        let s = duel(
            "minifig-rifle",
            "minifig-hand-weapon",
            wall,
            Objective::LastStanding,
            1,
        );
        let fl = s.start();
        // From (12, 6) back toward A's edge: the wall's face 2.5" off, less a clearance:
        // whole half-inches, 2".
        assert_eq!(s.room_along(&fl, 0, (-1.0, 0.0), 10), 4);
        let open = duel(
            "minifig-rifle",
            "minifig-hand-weapon",
            table(6.0, &[]),
            Objective::LastStanding,
            1,
        );
        let fl = open.start();
        assert_eq!(
            open.room_along(&fl, 0, (-1.0, 0.0), 20),
            12,
            "the edge, 6\" back"
        );
    }

    #[test]
    fn issue_43_a_unit_walled_in_stays_and_says_so() {
        // Walls all round side A's rifleman: no way to its enemy or anywhere. It stays
        // where it is (and says the straight distance), rather than claim a walk.
        let pen = [
            (TerrainKind::Wall, (9.0, 3.0, 15.0, 4.0)),
            (TerrainKind::Wall, (9.0, 8.0, 15.0, 9.0)),
            (TerrainKind::Wall, (9.0, 3.0, 10.0, 9.0)),
            (TerrainKind::Wall, (14.0, 3.0, 15.0, 9.0)),
        ];
        let s = rifle(table(6.0, &pen));
        let mut fl = s.start();
        let mut log = crate::dice::Narration::default();
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut log);
        assert_eq!(point(&s, &fl, 0), Point::new(12.0, 6.0));
        assert_eq!(
            log.notes(),
            ["  A1 minifig-rifle stays, 12\" from the nearest enemy"]
        );
    }
}
