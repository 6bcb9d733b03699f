//! A Launcher team against a swarm, written by hand from the readings (issue 48):
//! `minifig-launcher`s (Skill d6, a 2" Launcher on a carriage hauled at Half Speed, four
//! XSize 1 Explosives, no melee weapon) against minifigs with a Hand Weapon (Use 2, Damage
//! 1d6, Close Combat), every minifig Move 5" and Armor 4, each side abreast across the line
//! (`spacing` apart, centred on it), on the plane.
//!
//! It is written from docs/model.md ("A plane, walked in straight lines", "Grenades and
//! Launchers", "Positioning is a policy", "Responses"), docs/pricing.md ("Competent by
//! default") and docs/readings.md §1 and §2 at diemon's defaults, from Ch. 8.4's Explosions
//! and from watching `--replay-trial` narrations, never from diemon's code, so it can
//! disagree: a test holds its win chance to diemon's inside their joint CI.
//! - Distances are straight lines on the plane, rounded up to the half inch with an
//!   allowance of a thousandth of a half inch. A unit walks straight at (or away from) its
//!   target in whole half inches, as the rounded distances say (from 7.1" away, a unit
//!   stopping 4" off walks 3.5" and stands 3.6" off, as the narration shows).
//! - A Launcher (`hold`, `aim = densest`, `lob = near`) works its Launcher at Half Speed
//!   (2.5"). With Explosives left: if its nearest enemy stands inside its own blast (2")
//!   and it has no target from where it stands, it steps straight back from that enemy to
//!   2.5", and a swarm minifig with a saved Action it ends within 2" of answers the move
//!   first; if the enemy is beyond its Range (12"), it
//!   walks to half an inch inside it. It then fires two Payloads (XSize up to the Weapon
//!   Size of 2 a turn), each at Use 4 (2 x WSize), each at the enemy within 12" whose 2"
//!   burst catches the most enemies and none of its own side (itself included; the first
//!   of the roster among equals). With none left it is unarmed: it walks at its nearest
//!   enemy as a closing melee fighter does (lining up half an inch outside an Angry Inch a
//!   saved enemy would strike it from) and strikes nobody. It never Responds: Explosives
//!   are not fired in a Response.
//! - A Hand-Weapon minifig (`hold`) out-reaches a Launcher (Move and reach 6" against its
//!   Half Speed's 3.5"): an enemy it can reach this turn (within 6"), which can never
//!   strike first, it closes with straight to contact and strikes; a farther one it walks
//!   at, no nearer than 4" (half an inch outside the Launcher's Move and reach), keeping
//!   its Action. Recovering from Disruption it moves at Half Speed, does not out-reach,
//!   and closes. With a saved Action and not Disrupted it Responds to an enemy that ends a
//!   move within 2" of it, stepping the Angry Inch to contact and striking first.
//! - An Explosive's Action roll: a d6 plus 1 at a Disrupted target; a natural 1 is a dud
//!   (the enemy always declares it). A hit bursts on the target; a miss comes down as many
//!   inches from it as it missed by (at least 1"), in one of 400 directions given by two
//!   d20s. A natural 6 earns an Overskill Benny: one more Exp die, when the wider (4")
//!   blast catches none of the firer's side; otherwise it goes unspent. The Damage Roll is
//!   a d10 an XSize, each 10 adding a Bonus d6 that chains on 6; all 1s is a dud.
//! - An Explosion (Ch. 8.4): every figure within 2" takes the whole roll, the next 2" the
//!   roll less its highest die (with its Bonus Dice), and so on; a survivor is knocked
//!   back an inch a die of its ring, straight away from the burst (a figure on the burst
//!   itself, away from the firer), and is Disrupted until its following turn. A figure's
//!   Damage in one player turn adds up against its Armor of 4 (`stacking`, `combined_fire
//!   = turn`); more fells it.
//! - A Launcher caught in an Explosion: each Explosive it still carries takes the ring's
//!   Damage, unshielded; more than its XSize activates it (semi-stable), and it goes off
//!   at the end of the player turn as its own 1d10 Explosion where the carrier stands or
//!   fell.
//! - A Hand Weapon strike (`focus`) takes the first enemy of the roster within 1" that
//!   fewer than three engage this turn: a Skill d6 at least 2 (a natural 1 fails; a
//!   Disrupted target is hit whatever the roll), then 1d6 with chaining Bonus d6es, and
//!   one more for a natural 6's Benny.

use rand::distr::{Distribution, Uniform};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::dice;

/// Most units a side.
const MAX: usize = 24;
/// Inches: a Launcher's Half Speed, a minifig's Move, the Launcher's Range (and the
/// nearest a long shot may be lobbed), an XSize 1 blast, the Angry Inch's reach.
const HALF: f64 = 2.5;
const MOVE: f64 = 5.0;
const RANGE: f64 = 12.0;
const BLAST: f64 = 2.0;
const ANGRY: f64 = 2.0;
/// The Launcher's Use (2 x WSize) and the Explosives each carries.
const USE: i32 = 4;
const CARRIED: u8 = 4;

/// One battle's setting: Launchers (side A) against Hand-Weapon minifigs (side B).
#[derive(Copy, Clone, Debug)]
pub struct Setting {
    pub launchers: usize,
    pub swarm: usize,
    /// Inches apart at the start, and between neighbours of side A and of side B.
    pub distance: f64,
    pub a_spacing: f64,
    pub b_spacing: f64,
    /// Who has the first turn: side A, side B, or (`None`) a d6 roll-off.
    pub a_first: Option<bool>,
    /// Player turns (both sides') before a battle is a draw.
    pub turns: u32,
}

/// The distance from `a` to `b` as the battle measures it: rounded up to the half inch,
/// a thousandth of a half inch allowed.
fn measure(a: [f64; 2], b: [f64; 2]) -> f64 {
    let d = length(a, b);
    (d * 2.0 - 0.001).ceil().max(0.0) / 2.0
}

/// The straight distance from `a` to `b` (a square root: `hypot`'s overflow guard is for
/// lengths no table has).
fn length(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (x, y) = (a[0] - b[0], a[1] - b[1]);
    (x * x + y * y).sqrt()
}

/// Whether `a` and `b` stand within `r` (a whole or half inch) as [`measure`] says, without
/// the square root.
fn within_of(a: [f64; 2], b: [f64; 2], r: f64) -> bool {
    let (x, y) = (a[0] - b[0], a[1] - b[1]);
    let edge = r + 0.0005;
    x * x + y * y <= edge * edge
}

struct Dice {
    d6: Uniform<u32>,
    d10: Uniform<u32>,
    d20: Uniform<u32>,
}

struct Battle {
    pos: [[f64; 2]; 2 * MAX],
    up: [bool; 2 * MAX],
    saved: [bool; 2 * MAX],
    acted: [bool; 2 * MAX],
    /// Knocked over: Disrupted until its side's next turn, which it spends recovering.
    disrupted: [bool; 2 * MAX],
    recovering: [bool; 2 * MAX],
    engaged: [u8; 2 * MAX],
    /// Damage taken this player turn (Combined Fire, and stacked Explosions).
    taken: [u32; 2 * MAX],
    /// A Launcher's Explosives still carried; activated (to go off at the turn's end, or
    /// at once if caught again); set off, to go off now.
    carried: [u8; 2 * MAX],
    primed: [bool; 2 * MAX],
    blown: [bool; 2 * MAX],
    count: [usize; 2],
    standing: [usize; 2],
}

/// What `n` battles of a setting came to.
#[derive(Copy, Clone, Debug, Default)]
pub struct Tally {
    /// Battles the Launchers won (every enemy felled while one of them stands).
    pub wins: u64,
    /// The swarm's figures standing at each battle's end, summed, and their squares summed.
    pub swarm: u64,
    pub swarm_sq: u64,
}

/// The [`Tally`] of `n` battles of `s`.
pub fn tally(s: Setting, rng: &mut Xoshiro256PlusPlus, n: u64) -> Tally {
    assert!(s.launchers <= MAX && s.swarm <= MAX);
    let dice = Dice {
        d6: Uniform::new_inclusive(1u32, 6).unwrap(),
        d10: Uniform::new_inclusive(1u32, 10).unwrap(),
        d20: Uniform::new_inclusive(1u32, 20).unwrap(),
    };
    let mut tally = Tally::default();
    for _ in 0..n {
        let mut b = Battle {
            pos: [[0.0; 2]; 2 * MAX],
            up: [false; 2 * MAX],
            saved: [true; 2 * MAX],
            acted: [false; 2 * MAX],
            disrupted: [false; 2 * MAX],
            recovering: [false; 2 * MAX],
            engaged: [0; 2 * MAX],
            taken: [0; 2 * MAX],
            carried: [0; 2 * MAX],
            primed: [false; 2 * MAX],
            blown: [false; 2 * MAX],
            count: [s.launchers, s.swarm],
            standing: [s.launchers, s.swarm],
        };
        for side in 0..2 {
            let (x, spacing) = if side == 0 {
                (0.0, s.a_spacing)
            } else {
                (s.distance, s.b_spacing)
            };
            let middle = (b.count[side] as f64 - 1.0) / 2.0;
            for (k, i) in b.slots(side).enumerate() {
                b.up[i] = true;
                b.pos[i] = [x, (k as f64 - middle) * spacing];
                b.carried[i] = if side == 0 { CARRIED } else { 0 };
            }
        }
        let a_first = s.a_first.unwrap_or_else(|| dice.d6.sample(rng) % 2 == 1);
        let mut side = if a_first { 0 } else { 1 };
        'battle: for _ in 0..s.turns {
            b.engaged = [0; 2 * MAX];
            b.taken = [0; 2 * MAX];
            for i in b.slots(side) {
                b.saved[i] = false;
                b.acted[i] = false;
                b.recovering[i] = b.disrupted[i];
                b.disrupted[i] = false;
            }
            for i in b.slots(side) {
                // Knocked over earlier in its own side's turn, it lies until its next.
                if b.up[i] && !b.disrupted[i] {
                    if side == 0 {
                        b.launcher(i, &dice, rng);
                    } else {
                        b.swarm(i, &dice, rng);
                    }
                }
                if b.standing[0] == 0 || b.standing[1] == 0 {
                    break;
                }
            }
            b.detonate(&dice, rng);
            if b.standing[0] == 0 || b.standing[1] == 0 {
                break 'battle;
            }
            for i in b.slots(side) {
                b.saved[i] = b.up[i] && !b.acted[i];
            }
            side = 1 - side;
        }
        tally.wins += (b.standing[1] == 0 && b.standing[0] > 0) as u64;
        tally.swarm += b.standing[1] as u64;
        tally.swarm_sq += (b.standing[1] * b.standing[1]) as u64;
    }
    tally
}

impl Battle {
    fn slots(&self, side: usize) -> std::ops::Range<usize> {
        side * MAX..side * MAX + self.count[side]
    }

    fn gap(&self, a: usize, b: usize) -> f64 {
        measure(self.pos[a], self.pos[b])
    }

    /// The exact distance, for a walk's direction.
    fn exact(&self, a: usize, b: usize) -> f64 {
        let (p, q) = (self.pos[a], self.pos[b]);
        length(p, q)
    }

    /// The nearest standing enemy of `i` (the first in the roster among equals).
    fn nearest(&self, i: usize) -> Option<(f64, usize)> {
        let mut best: Option<(f64, usize)> = None;
        for t in self.slots(1 - i / MAX) {
            if self.up[t] && best.is_none_or(|(g, _)| self.gap(t, i) < g) {
                best = Some((self.gap(t, i), t));
            }
        }
        best
    }

    /// Moves `i` `by` inches straight toward `t` (away, when `by` is negative).
    fn walk(&mut self, i: usize, t: usize, by: f64) {
        let d = self.exact(i, t);
        if d > 0.0 {
            for k in 0..2 {
                self.pos[i][k] += (self.pos[t][k] - self.pos[i][k]) / d * by;
            }
        }
    }

    /// How many standing figures of `side` stand within `r` of `at`.
    fn within(&self, side: usize, at: [f64; 2], r: f64) -> usize {
        self.slots(side)
            .filter(|&j| self.up[j] && within_of(self.pos[j], at, r))
            .count()
    }

    fn launcher(&mut self, i: usize, dice: &Dice, rng: &mut Xoshiro256PlusPlus) {
        let Some((d, t)) = self.nearest(i) else {
            return;
        };
        if self.carried[i] == 0 {
            self.close(i, t, d, HALF, dice, rng);
            return;
        }
        if d <= BLAST && self.aim(i).is_none() {
            let back = (HALF - d).min(HALF);
            self.walk(i, t, -back);
            if self.respond_to(i, dice, rng) {
                return;
            }
        } else if d > RANGE {
            let by = HALF.min(d - (RANGE - 0.5));
            self.walk(i, t, by);
        }
        for _ in 0..2 {
            if self.carried[i] == 0 || !self.up[i] {
                return;
            }
            let Some(t) = self.aim(i) else {
                return;
            };
            self.carried[i] -= 1;
            self.acted[i] = true;
            self.fire(t, dice, rng);
        }
    }

    /// The enemy within 12" whose burst catches the most enemies and none of `i`'s side.
    fn aim(&self, i: usize) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for t in self.slots(1) {
            if !self.up[t] || self.gap(i, t) > RANGE || self.within(0, self.pos[t], BLAST) > 0 {
                continue;
            }
            let caught = self.within(1, self.pos[t], BLAST);
            if best.is_none_or(|(c, _)| caught > c) {
                best = Some((caught, t));
            }
        }
        best.map(|(_, t)| t)
    }

    /// One Payload at `t`.
    fn fire(&mut self, t: usize, dice: &Dice, rng: &mut Xoshiro256PlusPlus) {
        let skill = dice.d6.sample(rng) as i32;
        if skill == 1 {
            return;
        }
        let total = skill + self.disrupted[t] as i32;
        let mut at = self.pos[t];
        if total < USE {
            let off = (USE - total).max(1) as f64;
            let (a, b) = (dice.d20.sample(rng), dice.d20.sample(rng));
            let angle = ((a - 1) * 20 + (b - 1)) as f64 * std::f64::consts::TAU / 400.0;
            at[0] += off * angle.cos();
            at[1] += off * angle.sin();
        }
        let wide = skill == 6 && total >= USE && self.within(0, at, 2.0 * BLAST) == 0;
        self.explode(at, 1 + wide as usize, dice, rng);
        self.chain(dice, rng);
    }

    /// An Explosion of `n` Exp d10s at `at`; a Damage Roll of all 1s is a dud.
    fn explode(&mut self, at: [f64; 2], n: usize, dice: &Dice, rng: &mut Xoshiro256PlusPlus) {
        let mut rolled = [0u32; 2];
        for r in rolled.iter_mut().take(n) {
            *r = dice::exploding_d10(&dice.d10, &dice.d6, rng);
        }
        if rolled[..n].iter().all(|&r| r == 1) {
            return;
        }
        rolled[..n].sort_unstable_by(|a, b| b.cmp(a));
        let mut hit = [(0usize, 0u32, 0usize); 2 * MAX];
        let mut caught = 0;
        for side in 0..2 {
            for j in self.slots(side) {
                if !self.up[j] {
                    continue;
                }
                let ring = (measure(self.pos[j], at) / BLAST).ceil().max(1.0) as usize - 1;
                if ring < n {
                    hit[caught] = (j, rolled[ring..n].iter().sum(), n - ring);
                    caught += 1;
                }
            }
        }
        for &(j, damage, dice_left) in &hit[..caught] {
            if self.carried[j] > 0 {
                // Activated ones are unstable: any Damage sets them off.
                if self.primed[j] {
                    self.primed[j] = false;
                    self.blown[j] = true;
                } else if damage > 1 {
                    self.primed[j] = true;
                }
            }
            self.taken[j] += damage;
            if self.taken[j] > 4 {
                self.fall(j);
                continue;
            }
            // Straight away from the burst; a figure on it, back toward its own side.
            let (p, q) = (self.pos[j], at);
            let d = length(p, q);
            if d > 0.0 {
                for k in 0..2 {
                    self.pos[j][k] += (p[k] - q[k]) / d * dice_left as f64;
                }
            } else {
                self.pos[j][0] += if side_of(j) == 0 { -1.0 } else { 1.0 } * dice_left as f64;
            }
            self.disrupted[j] = true;
        }
    }

    /// Explosives set off go off now, each its own Explosion where its carrier stands or
    /// fell, and any these set off after them.
    fn chain(&mut self, dice: &Dice, rng: &mut Xoshiro256PlusPlus) {
        while let Some(j) = self.slots(0).find(|&j| self.blown[j]) {
            self.blown[j] = false;
            let at = self.pos[j];
            for _ in 0..std::mem::take(&mut self.carried[j]) {
                self.explode(at, 1, dice, rng);
            }
        }
    }

    /// Activated Explosives go off at the end of the player turn.
    fn detonate(&mut self, dice: &Dice, rng: &mut Xoshiro256PlusPlus) {
        while let Some(j) = self.slots(0).find(|&j| self.primed[j]) {
            self.primed[j] = false;
            self.blown[j] = true;
            self.chain(dice, rng);
        }
    }

    fn fall(&mut self, j: usize) {
        self.up[j] = false;
        self.standing[side_of(j)] -= 1;
    }

    fn swarm(&mut self, i: usize, dice: &Dice, rng: &mut Xoshiro256PlusPlus) {
        let Some((d, t)) = self.nearest(i) else {
            return;
        };
        let speed = if self.recovering[i] { HALF } else { MOVE };
        if d - 1.0 <= speed {
            self.close(i, t, d, speed, dice, rng);
        } else {
            let by = speed.min(d - (HALF + 1.5));
            if by > 0.0 {
                self.walk(i, t, by);
                self.respond_to(i, dice, rng);
            }
        }
    }

    /// `i` closes with `t` (`d` away) up to `speed`, lining up half an inch outside the
    /// Angry Inch where it would stop within 2" of a saved enemy while it cannot strike
    /// unanswered, and strikes what it reaches.
    fn close(
        &mut self,
        i: usize,
        t: usize,
        d: f64,
        speed: f64,
        dice: &Dice,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        if d > 1.0 {
            let exact = self.exact(i, t);
            let mut by = speed.min(d - 1.0);
            let armed = i / MAX == 1;
            let unanswered = armed && (d - 1.0 <= speed) && !self.responds(t);
            let (p, q) = (self.pos[i], self.pos[t]);
            let end = [
                p[0] + (q[0] - p[0]) / exact * by,
                p[1] + (q[1] - p[1]) / exact * by,
            ];
            let answered = self
                .slots(1 - side_of(i))
                .any(|j| self.responds(j) && measure(self.pos[j], end) <= ANGRY);
            let line_up = d - (ANGRY + 0.5);
            if !unanswered && answered && line_up > 0.0 && line_up < by {
                by = line_up;
            }
            self.walk(i, t, by);
            if self.respond_to(i, dice, rng) {
                return;
            }
        }
        if i / MAX == 1 {
            let target = self
                .slots(0)
                .find(|&u| self.up[u] && self.gap(u, i) <= 1.0 && self.engaged[u] < 3);
            if let Some(u) = target {
                self.acted[i] = true;
                self.strike(u, dice, rng);
            }
        }
    }

    /// Whether `j` would strike an enemy that ends a move within its Angry Inch: a swarm
    /// minifig with a saved Action, not Disrupted.
    fn responds(&self, j: usize) -> bool {
        side_of(j) == 1 && self.up[j] && self.saved[j] && !self.disrupted[j]
    }

    /// The Responses to `i`'s move; returns whether it fell.
    fn respond_to(&mut self, i: usize, dice: &Dice, rng: &mut Xoshiro256PlusPlus) -> bool {
        for j in self.slots(1 - side_of(i)) {
            if !self.responds(j) || self.gap(i, j) > ANGRY || self.engaged[i] >= 3 {
                continue;
            }
            let by = self.gap(j, i) - 1.0;
            if by > 0.0 {
                self.walk(j, i, by);
            }
            self.saved[j] = false;
            self.strike(i, dice, rng);
            if !self.up[i] {
                return true;
            }
        }
        false
    }

    /// One Hand Weapon strike on `t`.
    fn strike(&mut self, t: usize, dice: &Dice, rng: &mut Xoshiro256PlusPlus) {
        self.engaged[t] += 1;
        let skill = dice.d6.sample(rng);
        if !self.disrupted[t] && skill < 2 {
            return;
        }
        self.taken[t] += dice::damage(skill, 0, &dice.d6, rng);
        if self.taken[t] > 4 {
            self.fall(t);
        }
    }
}

fn side_of(i: usize) -> usize {
    i / MAX
}
