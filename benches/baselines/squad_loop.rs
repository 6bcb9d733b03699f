//! Melee against melee, written by hand from the readings (issues 27 and 48): minifigs with
//! a Hand Weapon (Skill d6, Use 2, Damage 1d6, Close Combat, Move 5", Armor 4) on both
//! sides, each side on one spot (`spacing` 0, so distances along the line are the plane's).
//!
//! It is written from docs/model.md ("Positioning is a policy", "Responses", "Who strikes
//! first", "Turn order inside a side") and docs/readings.md §2 at diemon's defaults, not from
//! diemon's code, so it can disagree: a test holds its win chance to diemon's at several
//! settings with either side first, and at the default setting (6 v 6, 12", a roll-off) it
//! draws the same dice in the same order and wins exactly the engine's battles.
//! - A d6 roll-off for the first turn when neither side is named (odd: A); then sides
//!   alternate for up to 100 player turns; units act in roster order.
//! - Before its own first turn every unit stands ready to respond (`opening_response =
//!   ready`); after that a unit that did not act on its own turn keeps its Action.
//! - Standing within 1" of an enemy, a unit strikes. Otherwise (`hold`: equal Move and reach,
//!   so neither out-reaches and waiting gains nothing) it walks straight at its nearest enemy,
//!   up to 5", stopping in contact; but where it cannot strike unanswered (its target keeps
//!   an Action, or lies beyond a Move) and that stop would be within 2" of an enemy with a
//!   saved Action, it lines up half an inch outside its target's Angry Inch instead, when
//!   that is on its way.
//! - Responses (`response = all`, `response_order = counter`): each enemy with a saved
//!   Action within 2" of where the mover stopped, in roster order, steps the Angry Inch to
//!   contact and strikes it first, until it falls; one that could not strike it (three
//!   already engage it) keeps its Action and its place (issue 47). A mover still standing
//!   and in reach strikes.
//! - A strike (`focus`) takes the first enemy of the roster within 1" that fewer than three
//!   engage this turn: Skill d6 at least Use 2 (a natural 1 fails; a natural 6 earns an
//!   Overskill Benny, one more Damage die), then 1d6 with chaining Bonus d6es, added to the
//!   Damage the target took earlier in the player turn (`combined_fire = turn`), against
//!   Armor 4: more fells it, a tie does nothing (`armor_tie = survive`).

use rand::distr::{Distribution, Uniform};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::dice;

/// Most units a side.
const MAX: usize = 16;
/// Turns before a battle is called a draw (diemon's default cap).
const TURNS: u32 = 100;
/// Half-inches: contact, the Angry Inch's reach, a minifig's Move.
const CONTACT: i32 = 2;
const ANGRY: i32 = 4;
const MOVE: i32 = 10;

/// One battle's setting.
#[derive(Copy, Clone, Debug)]
pub struct Setting {
    /// Units of side A and of side B.
    pub a: usize,
    pub b: usize,
    /// Inches apart at the start.
    pub distance: i32,
    /// Who has the first turn: side A, side B, or (`None`) a d6 roll-off.
    pub a_first: Option<bool>,
}

/// The issue-27 floor: six a side, 12" apart, a roll-off.
pub const SIX: Setting = Setting {
    a: 6,
    b: 6,
    distance: 12,
    a_first: None,
};

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
}

/// Returns how many of `n` battles of `s` side A won (every B felled while an A stands).
pub fn battles(s: Setting, rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    assert!(s.a <= MAX && s.b <= MAX);
    let d6 = Uniform::new_inclusive(1u32, 6).unwrap();
    let mut a_wins = 0;
    for _ in 0..n {
        let mut b = Battle {
            pos: [0; 2 * MAX],
            up: [false; 2 * MAX],
            saved: [true; 2 * MAX],
            acted: [false; 2 * MAX],
            engaged: [0; 2 * MAX],
            taken: [0; 2 * MAX],
            count: [s.a, s.b],
            standing: [s.a, s.b],
        };
        for side in 0..2 {
            for i in b.slots(side) {
                b.up[i] = true;
                b.pos[i] = if side == 0 { 0 } else { 2 * s.distance };
            }
        }
        let a_first = s.a_first.unwrap_or_else(|| d6.sample(rng) % 2 == 1);
        let mut side = if a_first { 0 } else { 1 };
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
                b.turn(i, side, &d6, rng);
                if b.standing[0] == 0 || b.standing[1] == 0 {
                    break 'battle;
                }
            }
            for i in b.slots(side) {
                b.saved[i] = b.up[i] && !b.acted[i];
            }
            side = 1 - side;
        }
        a_wins += (b.standing[1] == 0 && b.standing[0] > 0) as u64;
    }
    a_wins
}

impl Battle {
    fn slots(&self, side: usize) -> std::ops::Range<usize> {
        side * MAX..side * MAX + self.count[side]
    }

    fn gap(&self, a: usize, b: usize) -> i32 {
        (self.pos[a] - self.pos[b]).abs()
    }

    /// The nearest standing enemy of `i` (the first in the roster among equals).
    fn nearest(&self, i: usize, side: usize) -> Option<(i32, usize)> {
        let mut best: Option<(i32, usize)> = None;
        for t in self.slots(1 - side) {
            if self.up[t] && best.is_none_or(|(g, _)| self.gap(t, i) < g) {
                best = Some((self.gap(t, i), t));
            }
        }
        best
    }

    /// Unit `i`'s turn.
    fn turn(&mut self, i: usize, side: usize, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) {
        let Some((d, t)) = self.nearest(i, side) else {
            return;
        };
        if d > CONTACT {
            let dir = (self.pos[t] - self.pos[i]).signum();
            let mut step = (d - CONTACT).min(MOVE);
            let unanswered = d - CONTACT <= MOVE && !self.saved[t];
            let end = self.pos[i] + step * dir;
            let answered = self
                .slots(1 - side)
                .any(|j| self.up[j] && self.saved[j] && (self.pos[j] - end).abs() <= ANGRY);
            // Half an inch outside the target's Angry Inch.
            let line_up = d - ANGRY - 1;
            if !unanswered && answered && line_up > 0 && line_up < step {
                step = line_up;
            }
            self.pos[i] += step * dir;
            for j in self.slots(1 - side) {
                let d = self.gap(i, j);
                if !self.up[j] || !self.saved[j] || d > ANGRY || self.engaged[i] >= 3 {
                    continue;
                }
                self.pos[j] += (self.pos[i] - self.pos[j]).signum() * (d - CONTACT).max(0);
                self.saved[j] = false;
                self.strike(i, d6, rng);
                if !self.up[i] {
                    return;
                }
            }
        }
        let target = self
            .slots(1 - side)
            .find(|&t| self.up[t] && self.gap(t, i) <= CONTACT && self.engaged[t] < 3);
        if let Some(t) = target {
            self.acted[i] = true;
            self.strike(t, d6, rng);
        }
    }

    /// One Hand Weapon strike on `t`.
    fn strike(&mut self, t: usize, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) {
        self.engaged[t] += 1;
        let skill = d6.sample(rng);
        if skill < 2 {
            return;
        }
        self.taken[t] += dice::damage(skill, 0, d6, rng);
        if self.taken[t] > 4 {
            self.up[t] = false;
            self.standing[t / MAX] -= 1;
        }
    }
}
