//! Shooters against melee, written by hand from the readings (issue 48): riflemen
//! (`minifig-rifle`: Skill d6, a Long-Ranged Weapon of Use 3, Range 10", Damage 1d6+1) against
//! minifigs with a Hand Weapon (Use 2, Damage 1d6, Close Combat), every minifig Move 5" and
//! Armor 4, each side on one spot (so distances along the line are the plane's).
//!
//! It is written from docs/model.md ("Positioning is a policy", "Responses", "Who strikes
//! first") and docs/readings.md §2 at diemon's defaults, not from diemon's code, so it can
//! disagree: a test holds its win chance to diemon's inside their joint CI.
//! - Sides alternate player turns for up to 100; units act in roster order. Before its own
//!   first turn every unit stands ready to respond (`opening_response = ready`); after that a
//!   unit that did not act on its own turn keeps its Action for a Response.
//! - A rifleman (`hold`): in Close Combat (an enemy within 1") it stays; with its nearest
//!   enemy within Range it first steps straight back, up to its Range from that enemy, as far
//!   as its Move and the table (`room` behind its starting line) allow ("shooters keep their
//!   range"); with it beyond Range but within a Move of it, it walks up to its Range; beyond
//!   that it walks no nearer than half an inch outside the enemy's Move and reach (6.5") and
//!   keeps its Action. It then shoots the first enemy of the roster within its Range
//!   (`focus`; shooters have no limit of attackers).
//! - A Hand-Weapon minifig (`hold`): it cannot out-reach a rifle, so it closes, walking
//!   straight at its nearest enemy up to its Move, stopping in contact; the rifle's Range
//!   reaches where it would line up, so it does not wait outside an Angry Inch. When it ends
//!   a move of at least an inch within a rifleman's Range, every rifleman with a saved
//!   Action shoots it, in roster order, until it falls (`response = all`; the responder
//!   strikes first, `response_order = counter`). Standing in contact, it strikes the first
//!   enemy of the roster within 1" that fewer than three engage this turn.
//! - Cover (`--b-cover`, Ch. 8.3): each third of a melee fighter hidden takes 1 off a shot's
//!   Skill roll at it (not its Damage: only arc fire loses Damage to cover).
//! - A hit: a Skill d6 less its modifiers at least the Use, a natural 1 missing; a natural 6 earns an
//!   Overskill Benny, spent on one more Damage die. Damage dice add a Bonus d6 on a 6, which
//!   chains. Every hit a target takes in a player turn adds up against its Armor of 4
//!   (`combined_fire = turn`); more than 4 fells it, a tie does nothing (`armor_tie =
//!   survive`).

use rand::distr::{Distribution, Uniform};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::dice;

/// Most units a side.
const MAX: usize = 16;
/// Half-inches: contact, a minifig's Move, the rifle's Range, half an inch outside a Hand
/// Weapon's Move and reach.
const CONTACT: i32 = 2;
const MOVE: i32 = 10;
const RANGE: i32 = 20;
const OUTSIDE: i32 = 13;
const TURNS: u32 = 100;

/// One battle's setting: riflemen (side A) against Hand-Weapon minifigs (side B).
#[derive(Copy, Clone, Debug)]
pub struct Setting {
    pub rifles: usize,
    pub melee: usize,
    /// Inches apart at the start, and of table behind each side's starting line.
    pub distance: i32,
    pub room: i32,
    /// Side A (the riflemen) has the first turn.
    pub a_first: bool,
    /// Thirds of each melee fighter hidden behind cover from the rifles (0 to 3).
    pub cover: u32,
}

struct Battle {
    pos: [i32; 2 * MAX],
    up: [bool; 2 * MAX],
    saved: [bool; 2 * MAX],
    acted: [bool; 2 * MAX],
    engaged: [u8; 2 * MAX],
    /// Damage taken this player turn (Combined Fire).
    taken: [u32; 2 * MAX],
    count: [usize; 2],
    standing: [usize; 2],
    cover: u32,
    /// Side A's table edge (side B never steps back).
    edge: i32,
}

/// Returns how many of `n` battles of `s` the riflemen won (every enemy felled while one
/// of them stands).
pub fn battles(s: Setting, rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    assert!(s.rifles <= MAX && s.melee <= MAX);
    let d6 = Uniform::new_inclusive(1u32, 6).unwrap();
    let mut wins = 0;
    for _ in 0..n {
        let mut b = Battle {
            pos: [0; 2 * MAX],
            up: [false; 2 * MAX],
            saved: [true; 2 * MAX],
            acted: [false; 2 * MAX],
            engaged: [0; 2 * MAX],
            taken: [0; 2 * MAX],
            count: [s.rifles, s.melee],
            standing: [s.rifles, s.melee],
            edge: -2 * s.room,
            cover: s.cover,
        };
        for side in 0..2 {
            for i in b.slots(side) {
                b.up[i] = true;
                b.pos[i] = if side == 0 { 0 } else { 2 * s.distance };
            }
        }
        let mut side = if s.a_first { 0 } else { 1 };
        'battle: for _ in 0..TURNS {
            b.engaged = [0; 2 * MAX];
            b.taken = [0; 2 * MAX];
            for i in b.slots(side) {
                b.saved[i] = false;
                b.acted[i] = false;
            }
            for i in b.slots(side) {
                if !b.up[i] {
                    continue;
                }
                if side == 0 {
                    b.rifleman(i, &d6, rng);
                } else {
                    b.melee(i, &d6, rng);
                }
                if b.standing[0] == 0 || b.standing[1] == 0 {
                    break 'battle;
                }
            }
            for i in b.slots(side) {
                b.saved[i] = b.up[i] && !b.acted[i];
            }
            side = 1 - side;
        }
        wins += (b.standing[1] == 0 && b.standing[0] > 0) as u64;
    }
    wins
}

impl Battle {
    fn slots(&self, side: usize) -> std::ops::Range<usize> {
        side * MAX..side * MAX + self.count[side]
    }

    fn gap(&self, a: usize, b: usize) -> i32 {
        (self.pos[a] - self.pos[b]).abs()
    }

    /// The nearest standing enemy of `i` (the first in the roster among equals).
    fn nearest(&self, i: usize) -> Option<(i32, usize)> {
        let mut best: Option<(i32, usize)> = None;
        for t in self.slots(1 - i / MAX) {
            if self.up[t] && best.is_none_or(|(g, _)| self.gap(t, i) < g) {
                best = Some((self.gap(t, i), t));
            }
        }
        best
    }

    /// Moves `i` `by` half-inches toward `t` (away, when `by` is negative).
    fn walk(&mut self, i: usize, t: usize, by: i32) {
        self.pos[i] += (self.pos[t] - self.pos[i]).signum() * by;
    }

    fn rifleman(&mut self, i: usize, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) {
        let Some((d, t)) = self.nearest(i) else {
            return;
        };
        if d > CONTACT && d <= RANGE {
            // Back toward its own edge (side A's is behind it, at the lower positions).
            let back = MOVE.min(RANGE - d).min(self.pos[i] - self.edge).max(0);
            self.walk(i, t, -back);
        } else if d > RANGE && d - RANGE <= MOVE {
            self.walk(i, t, d - RANGE);
        } else if d > RANGE {
            self.walk(i, t, MOVE.min(d - OUTSIDE).max(0));
            return;
        }
        let target = self
            .slots(1)
            .find(|&t| self.up[t] && self.gap(t, i) <= RANGE);
        if let Some(t) = target {
            self.acted[i] = true;
            self.attack(t, 3 + self.cover, 1, d6, rng);
        }
    }

    fn melee(&mut self, i: usize, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) {
        let Some((d, t)) = self.nearest(i) else {
            return;
        };
        if d > CONTACT {
            let step = MOVE.min(d - CONTACT);
            self.walk(i, t, step);
            if step >= 2 {
                for j in self.slots(0) {
                    if self.up[i] && self.up[j] && self.saved[j] && self.gap(i, j) <= RANGE {
                        self.saved[j] = false;
                        self.attack(i, 3 + self.cover, 1, d6, rng);
                    }
                }
            }
            if !self.up[i] {
                return;
            }
        }
        let target = self
            .slots(0)
            .find(|&t| self.up[t] && self.gap(t, i) <= CONTACT && self.engaged[t] < 3);
        if let Some(t) = target {
            self.acted[i] = true;
            self.engaged[t] += 1;
            self.attack(t, 2, 0, d6, rng);
        }
    }

    /// One attack on `t`: Skill d6 against `use_rating` (its modifiers added to it), Damage
    /// 1d6 + `plus`.
    fn attack(
        &mut self,
        t: usize,
        use_rating: u32,
        plus: u32,
        d6: &Uniform<u32>,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let skill = d6.sample(rng);
        if skill == 1 || skill < use_rating {
            return;
        }
        self.taken[t] += dice::damage(skill, plus, d6, rng);
        if self.taken[t] > 4 {
            self.up[t] = false;
            self.standing[t / MAX] -= 1;
        }
    }
}
