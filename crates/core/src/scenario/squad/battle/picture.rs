//! The battle as a map draws it ([`crate::dice::Scene`]): where each figure stands after
//! each unit's turn, each walk's way, each attack and each Explosion, in the table's
//! inches (off a table, the plane's: across the line and along it from side A's line).
//! Built only for a log that keeps notes; a trial that narrates nothing builds none.

use super::*;
use crate::dice::scene::At;
use crate::dice::{Log, Scene};

impl Squad {
    /// Where unit `u` stands, as a map places it.
    pub(super) fn map_at(&self, fl: &Field, u: usize) -> At {
        self.map_of((fl.lat[u] as f64 / 2.0, fl.f[u].pos as f64 / 2.0))
    }

    /// A point of the plane (inches across the line, along it) as a map places it.
    pub(super) fn map_of(&self, c: (f64, f64)) -> At {
        match self.board() {
            Some(b) => (b.origin.x + c.0, b.origin.y + c.1),
            None => c,
        }
    }

    /// A new player turn (`turn`, `side`), if any, and where every figure stands.
    #[cold]
    pub(super) fn picture<L: Log + ?Sized>(
        &self,
        fl: &Field,
        turn: Option<(u32, u8)>,
        log: &mut L,
    ) {
        if let Some((turn, side)) = turn {
            log.scene(Scene::Turn { turn, side });
        }
        for u in 0..self.roster.len() {
            log.scene(Scene::Stand {
                slot: u as u16,
                side: fl.f[u].side,
                at: self.map_at(fl, u),
                alive: fl.f[u].alive,
            });
        }
    }

    /// After unit `i`'s turn: on a table it faces its nearest enemy (Ch. 4.3's Cone of
    /// Vision); a map learns where everyone stands.
    #[inline(always)]
    pub(super) fn after_act<const P: bool, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        log: &mut L,
    ) {
        if !P && self.board.is_some() && fl.f[i].alive {
            self.face_nearest(fl, i);
        }
        if L::NOTES {
            self.picture(fl, None, log);
        }
    }

    /// Unit `i` walks `by` half-inches toward `s` ([`Squad::walk_to`]), the way drawn first
    /// for a map.
    #[inline(always)]
    pub(super) fn walk_drawn<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        s: Spot,
        by: i32,
        log: &mut L,
    ) {
        if L::NOTES {
            log.scene(self.trail(fl, i, s, by));
        }
        self.walk_to(fl, i, s, by);
    }

    /// The way unit `i` is about to walk, `by` half-inches toward the spot `s`.
    #[cold]
    pub(super) fn trail(&self, fl: &Field, i: usize, s: Spot, by: i32) -> Scene {
        let from = self.map_at(fl, i);
        let path = match self.board() {
            Some(b) => {
                let v =
                    (fl.f[i].recovering || self.kinds[fl.f[i].kind as usize].half_speed) as usize;
                let mut kept = fl.seen[v].get();
                let to = crate::scenario::table::Point::new(from.0, from.1);
                let goal = self.map_of((s.1 as f64 / 2.0, s.0 as f64 / 2.0));
                let goal = crate::scenario::table::Point::new(goal.0, goal.1);
                let p = b.ways[v].path(to, goal, by as f64 / 2.0, &mut kept);
                fl.seen[v].set(kept);
                p.into_iter().map(|p| (p.x, p.y)).collect()
            }
            None => {
                let h = fl.toward(i, s);
                let end = fl.ahead(i, h, by);
                vec![from, self.map_of((end.1 as f64 / 2.0, end.0 as f64 / 2.0))]
            }
        };
        Scene::Walk {
            slot: i as u16,
            path,
        }
    }
}
