//! The floor for squad battles (issue 27): a hand-written loop of diemon's 6 v 6
//! battle of minifigs with Hand Weapons, 12" apart, with nothing general left.
//!
//! It plays the battle as diemon's defaults do, Responses included, in the same order, so on
//! the same stream it draws the same dice and reaches the same results (the integration test
//! `squad::the_hand_written_loop_plays_the_default_battle` holds it to that):
//! - two sides of six, each on one spot (`spacing` 0, so distances along the line are the
//!   plane's), 12" apart (positions in half-inches), a d6 roll-off for the
//!   first turn (odd: A), then sides alternate for up to 100 turns;
//! - every unit starts with an Action saved (`opening_response = ready`); at the end of its
//!   side's turn a unit that did not act keeps its Action for a Response;
//! - in its turn a unit within 1" of an enemy strikes; otherwise it walks up to 5" toward
//!   the nearest enemy, stopping at 1" (the `hold` policy closes here: both sides are the
//!   same, so waiting gains neither anything), or at 2.5" where stopping at 1" would put it
//!   within 2" of an enemy with a saved Action while it cannot strike unanswered (it lines
//!   up outside the Angry Inch first), and enemies with a saved Action within 2" of
//!   where it stopped step the Angry Inch and strike it first (`response = all`,
//!   `response_order = counter`), in roster order, until it falls, each only while fewer
//!   than three engage the mover (one that cannot strike keeps its Action and its place);
//!   if it stands in reach, it strikes;
//! - a strike picks the first enemy in the roster within 1" that fewer than three attackers
//!   engaged this turn (`focus`); Skill d6 against Use 2 (a natural 1 fails; a natural 6
//!   earns a Benny that adds a Damage die), then 1d6 with chaining Bonus d6es, added to the
//!   Damage the target took earlier in the player turn (Combined Fire, `combined_fire =
//!   turn`), against Armor 4, felling it when more.

use rand::distr::{Distribution, Uniform};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::dice;

const SIDE: usize = 6;
const UNITS: usize = 2 * SIDE;
/// Turns before a battle is called a draw (diemon's default cap).
const TURNS: u32 = 100;
/// Half-inches: contact, the Angry Inch's reach, a minifig's Move.
const CONTACT: i32 = 2;
const ANGRY: i32 = 4;
const MOVE: i32 = 10;

struct Battle {
    pos: [i32; UNITS],
    up: [bool; UNITS],
    saved: [bool; UNITS],
    acted: [bool; UNITS],
    engaged: [u8; UNITS],
    /// Damage taken this player turn (Combined Fire).
    taken: [u32; UNITS],
    standing: [u32; 2],
}

/// The slots of `side`.
fn slots(side: usize) -> std::ops::Range<usize> {
    side * SIDE..(side + 1) * SIDE
}

/// Returns how many of `n` battles side A won (every B felled while an A stands).
pub fn battles(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    let d6 = Uniform::new_inclusive(1u32, 6).unwrap();
    let mut a_wins = 0;
    for _ in 0..n {
        let mut b = Battle {
            pos: [0, 0, 0, 0, 0, 0, 24, 24, 24, 24, 24, 24],
            up: [true; UNITS],
            saved: [true; UNITS],
            acted: [false; UNITS],
            engaged: [0; UNITS],
            taken: [0; UNITS],
            standing: [SIDE as u32; 2],
        };
        let mut side = if d6.sample(rng) % 2 == 1 { 0 } else { 1 };
        'battle: for _ in 0..TURNS {
            b.engaged = [0; UNITS];
            b.taken = [0; UNITS];
            for i in slots(side) {
                b.saved[i] = false;
                b.acted[i] = false;
            }
            for i in slots(side) {
                if !b.up[i] {
                    continue;
                }
                b.turn(i, side, &d6, rng);
                if b.standing[0] == 0 || b.standing[1] == 0 {
                    break 'battle;
                }
            }
            for i in slots(side) {
                b.saved[i] = b.up[i] && !b.acted[i];
            }
            side = 1 - side;
        }
        a_wins += (b.standing[1] == 0 && b.standing[0] > 0) as u64;
    }
    a_wins
}

impl Battle {
    /// The nearest standing enemy of `i` (the first in the roster among equals).
    fn nearest(&self, i: usize, side: usize) -> Option<(i32, usize)> {
        let mut best = None;
        for t in slots(1 - side) {
            let d = (self.pos[t] - self.pos[i]).abs();
            if self.up[t] && best.is_none_or(|(g, _)| d < g) {
                best = Some((d, t));
            }
        }
        best
    }

    /// Unit `i`'s turn.
    fn turn(&mut self, i: usize, side: usize, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) {
        let Some((d, t)) = self.nearest(i, side) else {
            return;
        };
        if d <= CONTACT {
            self.acted[i] |= self.strike_first_in_reach(i, side, d6, rng);
            return;
        }
        let dir = (self.pos[t] - self.pos[i]).signum();
        let mut step = (d - CONTACT).min(MOVE);
        // It cannot strike this turn unanswered (its target has an Action saved, or is out
        // of a Move): where its walk would stop within 2" of a saved enemy, it lines up
        // half an inch outside that instead, if that is on its way.
        let now = d - CONTACT <= MOVE && !self.saved[t];
        let end = self.pos[i] + step * dir;
        let draws = slots(1 - side)
            .any(|j| self.up[j] && self.saved[j] && (self.pos[j] - end).abs() <= ANGRY);
        let edge = d - ANGRY - 1;
        if !now && draws && edge > 0 && edge < step {
            step = edge;
        }
        self.pos[i] += step * dir;
        // Responses, first, in roster order, until the mover falls.
        for j in slots(1 - side) {
            if !self.up[i] {
                break;
            }
            let d = (self.pos[j] - self.pos[i]).abs();
            // A unit that could not strike the mover (three already engage it) keeps its
            // Action and its place for the next mover.
            if !self.up[j] || !self.saved[j] || d > ANGRY || self.engaged[i] >= 3 {
                continue;
            }
            self.pos[j] += (self.pos[i] - self.pos[j]).signum() * (d - CONTACT).max(0);
            self.saved[j] = false;
            self.strike(j, i, d6, rng);
        }
        if self.up[i] && self.nearest(i, side).is_some_and(|(d, _)| d <= CONTACT) {
            self.acted[i] |= self.strike_first_in_reach(i, side, d6, rng);
        }
    }

    /// `i` strikes the first enemy in the roster in reach that may still be engaged.
    fn strike_first_in_reach(
        &mut self,
        i: usize,
        side: usize,
        d6: &Uniform<u32>,
        rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        let target = slots(1 - side).find(|&t| {
            self.up[t] && (self.pos[t] - self.pos[i]).abs() <= CONTACT && self.engaged[t] < 3
        });
        match target {
            Some(t) => {
                self.strike(i, t, d6, rng);
                true
            }
            None => false,
        }
    }

    /// One Hand Weapon strike of `i` on `t`.
    fn strike(&mut self, _i: usize, t: usize, d6: &Uniform<u32>, rng: &mut Xoshiro256PlusPlus) {
        self.engaged[t] += 1;
        let skill = d6.sample(rng);
        if skill < 2 {
            return;
        }
        self.taken[t] += dice::damage(skill, 0, d6, rng);
        if self.taken[t] > 4 {
            self.up[t] = false;
            self.standing[t / SIDE] -= 1;
        }
    }
}
