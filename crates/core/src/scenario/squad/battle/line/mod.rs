//! The line form (issues 27 and 48): a battle of plain fighters and shooters, played on a
//! few arrays.
//!
//! Most CP questions about minifigs are this battle: two lines of one-weapon units walk at
//! each other, strike in Close Combat or shoot. [`Line::of`] finds such a battle once per
//! question (qualify.rs), and the trial then plays it here, on each side's positions and
//! Sizes and a standing, a saved and an acted mask, rather than through the general turn with
//! its 64-byte figures and the checks of rules this battle never meets. It is the same
//! battle: the same rules in the same order draw the same dice. The tests hold the forms
//! equal, outcome for outcome, and every scripted squad test plays in every form that
//! qualifies (the line, the general turn's plain form and the general turn:
//! `testing::run`, issue 42).
//!
//! What qualifies is decided field by field: `plays_options`, `plays_policy` and `fighter`
//! name every rule option, every policy and every field of a unit and its weapon, each read
//! by the line, required, or never reached (and why). A new option, policy or unit trait
//! does not compile until it is decided there.
//!
//! A battle qualifies when it is plain ([`Squad::plain`]) and flat ([`Squad::flat`]: every
//! figure on one line, so the line's positions are the plane's; a side abreast, `spacing`
//! apart, plays the general turn, where figures walk across the line too), and
//! - every unit takes one Action a turn with its one weapon: a Close Combat weapon without
//!   Range, or a ranged weapon without Close Combat (a shooter: it keeps its range to the
//!   table's edge, shoots the first enemy in Range, and answers a mover in contact or one
//!   that walked an inch within Range; a shot takes the target's cover and blind fire),
//!   neither with Size (KnockBack), Poison, Contagion, Fire, a mount, a channel or an
//!   automatic action, and it carries no shield, Deflection, Structure, Vermin or Cannon
//!   Fodder trait (the checks a strike skips here);
//! - every attack between its kinds is a plain d6 plan ([`PlainAttack::all_d6`]);
//! - no unit carries Explosives or an automatic weapon (not plain), so options
//!   `stacking`, `blast_knockback`, `swap_tie` (Explosive Variants' ties), `arc_aim` and
//!   `arc_span` (larger targets' extra arc attacks) and the `aim` and `lob` policies
//!   (shells in flight beyond 12") never reach it; none carries a shield (`parry_fumble`)
//!   or is at Half Speed (Heavy Armor deflects);
//! - every unit strikes with one weapon, so option `action_damage` never reaches it, and
//!   nobody Sprints (so neither does `sprint_fumble`); option `combined_fire` plays here,
//!   each target's hits in a player turn pooled against its Armor (a number);
//! - no unit has SN dice (not plain), so option `sn_subtract` and the `spend` policies
//!   (among them the hexes and defences of issue 40) never reach it;
//! - no side throws a hand weapon (its `throw` policy; not plain), and none Diverts All
//!   Power (its `divert` policy, with a weapon Size Damage may put beyond its Power: not
//!   plain);
//! - both sides focus their attacks (`focus`; `combined` and the other target policies play
//!   in the general turn) and never Sprint, Responses strike first
//!   (`response_order = counter`) and a tie leaves the target standing (`armor_tie =
//!   survive`, so option `cutting` never reaches it): nothing Disrupts a unit, so nothing
//!   recovers or is hit automatically.
//!
//! The trial takes it only for a log that keeps no notes ([`Log::NOTES`]): narration comes
//! from the general turn.

mod qualify;

use super::field::{hold_at, line_up};
use super::*;
use crate::dice::{Faces, Log};
use crate::rules::RuleOptions;
use crate::rules::attack::{Hit, PlainAttack};
use crate::rules::{ArmorTie, CombinedFire, OpeningResponse, ResponseOrder, TargetSize, combat};
use crate::scenario::duel::Side;
use crate::scenario::squad::kind::Arm;
use crate::scenario::squad::{Kind, Policy, Position, Response, Sprint, SquadOutcome, Targeting};

const SIDE: usize = MAX_PER_SIDE as usize;

/// What the line form reads of a battle, resolved once ([`Line::of`]).
#[derive(Clone, Debug)]
pub(in crate::scenario::squad) struct Line {
    /// Each side's units in roster order: their kind.
    kind: [[u16; SIDE]; 2],
    count: [usize; 2],
    /// Per kind: its Move (half-inches), its threat (Move and reach), its Size and CP
    /// (quarter points).
    moves: Vec<i32>,
    threat: Vec<i32>,
    size: Vec<u32>,
    cp: Vec<i64>,
    /// Per kind: its Range (half-inches; 0 for a Close Combat weapon), and whether it
    /// fights in Close Combat (else it shoots).
    range: Vec<i32>,
    close: Vec<bool>,
    /// Some kind shoots.
    shooters: bool,
    /// `attacks[attacker kind * kinds + target kind]`: its weapon against that target.
    attacks: Vec<PlainAttack>,
    kinds: usize,
    /// Per side: the modifier a shot at it takes for its cover, and one by it for firing
    /// blind (Ch. 8.3, 8.4).
    cover: [i64; 2],
    blind: [i64; 2],
    /// Per side: the farthest one of its units may stand from a mover and Respond.
    answers: [i32; 2],
    /// Per side: it holds (the `hold` position policy), and how it Responds.
    hold: [bool; 2],
    response: [Response; 2],
    target_size: TargetSize,
    /// Every unit starts with an Action saved (`opening_response = ready`).
    ready: bool,
    /// A target's hits in a player turn add up (`combined_fire = turn`).
    combined: bool,
}

/// A trial's state: per side, positions (half-inches) and Sizes, Close Combat attackers
/// and the Damage pooled on each this turn (Combined Fire), masks (a bit per unit) of who stands and who has an Action saved, and the
/// side's [`Ends`] while fresh.
struct State {
    pos: [[i32; SIDE]; 2],
    size: [[u32; SIDE]; 2],
    engaged: [[u16; SIDE]; 2],
    taken: [[i32; SIDE]; 2],
    up: [u64; 2],
    saved: [u64; 2],
    ends: [Option<Ends>; 2],
    ties: u32,
    standing: [[u8; TRACK]; 2],
    /// The table's edges behind each side (half-inches along the line): `room` behind
    /// side A's starting line and behind side B's.
    edge: [i32; 2],
}

/// A side's standing units at the two ends of its stretch of the line, as the general
/// turn's fronts keep them: (position, unit), ties to the first in the roster. A unit
/// beyond either end has that end as its nearest enemy, found without a scan.
#[derive(Copy, Clone)]
struct Ends {
    low: (i32, usize),
    high: (i32, usize),
}

impl State {
    /// Unit `j` of `side` moves to `at`.
    #[inline(always)]
    fn step(&mut self, side: usize, j: usize, at: i32) {
        self.pos[side][j] = at;
        self.ends[side] = None;
    }

    /// Unit `t` of `side` falls.
    #[inline(always)]
    fn fall(&mut self, side: usize, t: usize) {
        self.up[side] &= !(1 << t);
        self.ends[side] = None;
    }
}

/// The units of a side of `n` (at most 64), a bit each.
fn all(n: usize) -> u64 {
    u64::MAX.checked_shr(64 - n as u32).unwrap_or(0)
}

impl Line {
    /// One battle ([`Squad::trial`] in the line form): sides alternate player turns (Ch. 4),
    /// and a unit that did not act in its own keeps its Action for a Response (Ch. 4.3).
    /// A battle of Close Combat alone plays a turn without the shooters' checks.
    pub(super) fn fight<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        s: &Squad,
        faces: &mut F,
        log: &mut L,
    ) -> SquadOutcome {
        if self.shooters {
            self.fight_as::<true, F, L>(s, faces, log)
        } else {
            self.fight_as::<false, F, L>(s, faces, log)
        }
    }

    /// [`Line::fight`], with shooters in it (`S`) or not.
    #[inline(always)]
    fn fight_as<const S: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        s: &Squad,
        faces: &mut F,
        log: &mut L,
    ) -> SquadOutcome {
        let mut st = self.place(s);
        let first = s.first.resolve(faces);
        let mut side = if first == Side::A { 0 } else { 1 };
        for turn in 1..=s.max_turns {
            for n in 0..2 {
                st.engaged[n][..self.count[n]].fill(0);
                if self.combined {
                    st.taken[n][..self.count[n]].fill(0);
                }
            }
            // A saved Action not spent in the enemy's turn is gone.
            st.saved[side] = 0;
            let mut acted = 0u64;
            // The side's units standing as the turn starts, in roster order.
            let mut order = st.up[side];
            while order != 0 {
                let j = order.trailing_zeros() as usize;
                order &= order - 1;
                if st.up[side] & (1 << j) == 0 {
                    continue;
                }
                if self.act::<S, F, L>(&mut st, side, j, faces, log) {
                    acted |= 1 << j;
                }
                if st.up[0] == 0 || st.up[1] == 0 {
                    record(&mut st, turn);
                    return self.outcome(&st, first, turn);
                }
            }
            st.saved[side] = st.up[side] & !acted;
            record(&mut st, turn);
            side = 1 - side;
        }
        self.outcome(&st, first, s.max_turns)
    }

    /// The state before the first turn: each side on its starting line.
    #[inline(always)]
    fn place(&self, s: &Squad) -> State {
        let mut st = State {
            pos: [[0; SIDE]; 2],
            size: [[0; SIDE]; 2],
            engaged: [[0; SIDE]; 2],
            taken: [[0; SIDE]; 2],
            up: self.count.map(all),
            saved: [0; 2],
            ends: [None; 2],
            ties: 0,
            standing: [[0; TRACK]; 2],
            edge: [-s.room, 2 * s.distance as i32 + s.room],
        };
        for side in 0..2 {
            let start = s.own(side as u8).start;
            for j in 0..self.count[side] {
                st.pos[side][j] = s.start[start + j];
                st.size[side][j] = self.size[self.kind[side][j] as usize];
            }
        }
        if self.ready {
            st.saved = st.up;
        }
        st
    }

    /// Unit `j` of `side`'s turn ([`Squad::act_as`], Ch. 4.1): strike if an enemy is in
    /// reach (a shooter first keeps its range); else walk toward the nearest enemy, draw the
    /// Responses, and strike if one stands in reach then. Returns whether it took its
    /// Action.
    #[inline(always)]
    fn act<const S: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        st: &mut State,
        side: usize,
        j: usize,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let o = 1 - side;
        let from = st.pos[side][j];
        let Some((d, t)) = self.nearest(st, o, from) else {
            return false;
        };
        let kind = self.kind[side][j] as usize;
        // Contact, or a shooter's Range ([`Squad::stop_at`], [`Squad::in_reach`]).
        let stop = self.range_of::<S>(kind).max(CONTACT);
        if d <= stop {
            if S && !self.close[kind] && self.hold[side] {
                self.keep_range(st, side, j, d);
            }
            return self.action::<S, F, L>(st, side, j, None, faces, log);
        }
        let closing = d - stop;
        let want = if self.hold[side] {
            self.hold_want::<S>(st, side, j, t, d, closing)
        } else {
            closing
        };
        let moved = self.moves[kind].min(want);
        st.step(side, j, from + (st.pos[o][t] - from).signum() * moved);
        self.respond::<S, F, L>(st, side, j, moved, faces, log);
        if st.up[side] & (1 << j) == 0 || st.up[o] == 0 {
            return false;
        }
        let at = st.pos[side][j];
        match self.nearest(st, o, at) {
            Some((d, _)) if d <= stop => self.action::<S, F, L>(st, side, j, None, faces, log),
            _ => false,
        }
    }

    /// How far unit `j` of `side` walks toward its nearest enemy `t`, `d` away, under
    /// `hold` ([`Squad::hold_want`]; on one line no neighbour's Angry Inch lies beside the
    /// way in, so there is no step into the target's alone).
    #[inline(always)]
    fn hold_want<const S: bool>(
        &self,
        st: &State,
        side: usize,
        j: usize,
        t: usize,
        d: i32,
        closing: i32,
    ) -> i32 {
        let o = 1 - side;
        let (kind, theirs) = (self.kind[side][j] as usize, self.kind[o][t] as usize);
        // It strikes this turn unless the enemy's saved Action strikes first.
        let first = st.saved[o] & (1 << t) != 0 && self.response[o] != Response::None;
        let now = closing <= self.moves[kind] && !first;
        let walk = hold_at(d, closing, now, self.threat[kind], self.threat[theirs]);
        let end = walk.min(self.moves[kind]);
        if now || walk != closing || end <= 0 {
            return walk;
        }
        // Only where the target cannot strike the edge from where it stands (a shooter's
        // Range takes it in); asked first, as it needs no scan.
        let Some(edge) =
            line_up(d, end).filter(|&e| self.range_of::<S>(theirs).max(CONTACT) < d - e)
        else {
            return walk;
        };
        let from = st.pos[side][j];
        let (walks, waits) = self.strikers::<S>(st, o, from, t, end, edge);
        if walks > 0 && waits <= walks {
            edge
        } else {
            walk
        }
    }

    /// How many of side `o`'s units with a saved Action and a Close Combat weapon would
    /// strike first a unit at `from` that walks toward unit `t` of `o` and stops `end` on,
    /// and how many if it stopped `edge` on ([`Squad::first_strikers`]), in one scan.
    #[allow(
        clippy::too_many_arguments,
        reason = "two stops measured in one scan of the roster, on the hot path"
    )]
    #[inline(always)]
    fn strikers<const S: bool>(
        &self,
        st: &State,
        o: usize,
        from: i32,
        t: usize,
        end: i32,
        edge: i32,
    ) -> (u32, u32) {
        let reach = match self.response[o] {
            Response::None => return (0, 0),
            Response::Close => CONTACT,
            _ => RESPONSE_REACH,
        };
        let dir = (st.pos[o][t] - from).signum();
        let (a, b) = (from + dir * end, from + dir * edge);
        let mut ready = st.up[o] & st.saved[o];
        let (mut walks, mut waits) = (0, 0);
        while ready != 0 {
            let r = ready.trailing_zeros() as usize;
            ready &= ready - 1;
            if self.close_of::<S>(self.kind[o][r] as usize) {
                walks += ((st.pos[o][r] - a).abs() <= reach) as u32;
                waits += ((st.pos[o][r] - b).abs() <= reach) as u32;
            }
        }
        (walks, waits)
    }

    /// A shooter in reach of its nearest enemy, `d` away, steps straight back toward its
    /// own edge, up to its Range and as far as its Move and the table allow
    /// ([`Squad::keep_range`]); in Close Combat it stays.
    #[inline(always)]
    fn keep_range(&self, st: &mut State, side: usize, j: usize, d: i32) {
        let kind = self.kind[side][j] as usize;
        let gap = self.range[kind] - d;
        if d <= CONTACT || gap <= 0 {
            return;
        }
        let at = st.pos[side][j];
        let (dir, left) = if side == 0 {
            (-1, at - st.edge[0])
        } else {
            (1, st.edge[1] - at)
        };
        let back = gap.min(self.moves[kind]).min(left.max(0));
        if back > 0 {
            st.step(side, j, at + dir * back);
        }
    }

    /// Whether kind `kind` fights in Close Combat: every kind does in a battle without
    /// shooters (`S` false), known at compile time.
    #[inline(always)]
    fn close_of<const S: bool>(&self, kind: usize) -> bool {
        !S || self.close[kind]
    }

    /// Kind `kind`'s Range in half-inches (none without shooters).
    #[inline(always)]
    fn range_of<const S: bool>(&self, kind: usize) -> i32 {
        if S { self.range[kind] } else { 0 }
    }

    /// The enemy of `o` nearest to `at`: the distance and the unit (ties to the first in the
    /// roster), as [`Squad::nearest`] finds it: from `o`'s ends where `at` lies beyond
    /// them, else by a scan.
    #[inline(always)]
    fn nearest(&self, st: &mut State, o: usize, at: i32) -> Option<(i32, usize)> {
        let ends = match st.ends[o] {
            Some(e) => e,
            None => {
                // None standing: no ends, and no enemy.
                let (_, ends) = ends_of(self.standing(st, o));
                let (low, high) = ends?;
                let e = Ends { low, high };
                st.ends[o] = Some(e);
                e
            }
        };
        // Which end faces it is a select, not a branch: sides alternate.
        let (below, above) = (at <= ends.low.0, at >= ends.high.0);
        if below | above {
            let (p, t) = if below { ends.low } else { ends.high };
            return Some(((p - at).abs(), t));
        }
        nearest_of(self.standing(st, o), at)
    }

    /// Side `o`'s units in roster order: (position, standing).
    #[inline(always)]
    fn standing<'a>(&self, st: &'a State, o: usize) -> impl Iterator<Item = (i32, bool)> + 'a {
        let up = st.up[o];
        let pos = &st.pos[o][..self.count[o]];
        pos.iter()
            .enumerate()
            .map(move |(t, &p)| (p, up & (1 << t) != 0))
    }

    /// The Responses to unit `j` of `side`, which just moved ([`Squad::respond`], Ch. 4.3): each enemy
    /// with a saved Action, in roster order, strikes it in contact or after the Angry Inch
    /// (not under `response = close`), first, while it stands.
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice and the log are passed as they are, as in the general turn"
    )]
    fn respond<const S: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        st: &mut State,
        side: usize,
        j: usize,
        moved: i32,
        faces: &mut F,
        log: &mut L,
    ) {
        let o = 1 - side;
        let policy = self.response[o];
        if policy == Response::None {
            return;
        }
        // No enemy stands near enough to answer (contact after the Angry Inch, or a Range).
        let at = st.pos[side][j];
        let answers = if S { self.answers[o] } else { RESPONSE_REACH };
        if self.nearest(st, o, at).is_none_or(|(d, _)| d > answers) {
            return;
        }
        let mut ready = st.up[o] & st.saved[o];
        while ready != 0 && st.up[side] & (1 << j) != 0 {
            let r = ready.trailing_zeros() as usize;
            ready &= ready - 1;
            let (at, mover) = (st.pos[o][r], st.pos[side][j]);
            let d = (at - mover).abs();
            let kind = self.kind[o][r] as usize;
            if self.close_of::<S>(kind) {
                let inch = d > CONTACT && policy != Response::Close && d <= RESPONSE_REACH;
                // It responds only if it can strike the mover (in contact after the Angry
                // Inch, and fewer than the limit engage it): else it keeps Action and place.
                if (d > CONTACT && !inch) || !self.room(st, side, j) {
                    continue;
                }
                if inch {
                    st.step(o, r, at + (mover - at).signum() * (d - CONTACT));
                }
            } else {
                // A shooter answers a mover in contact, or (`all`) one that ended a move of
                // an inch or more within its Range.
                let shoots = policy == Response::All && moved >= 2 && d <= self.range[kind];
                if d > CONTACT && !shoots {
                    continue;
                }
            }
            st.saved[o] &= !(1 << r);
            self.action::<S, F, L>(st, o, r, Some(j), faces, log);
        }
    }

    /// One Action of unit `j` of `side` ([`Squad::action_in`]): strike `forced` if it stands
    /// in contact and may be engaged, else the first enemy in the roster that does (the
    /// `focus` policy). Returns whether it struck.
    #[inline(always)]
    fn action<const S: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        st: &mut State,
        side: usize,
        j: usize,
        forced: Option<usize>,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let o = 1 - side;
        let at = st.pos[side][j];
        // In Close Combat within contact and the limit of attackers; a shot within Range.
        let kind = self.kind[side][j] as usize;
        let close = self.close_of::<S>(kind);
        let reach = if close { CONTACT } else { self.range[kind] };
        let open = |st: &State, t: usize| {
            (st.pos[o][t] - at).abs() <= reach && (!close || self.room(st, o, t))
        };
        let target = match forced {
            Some(t) => open(st, t).then_some(t),
            None => {
                let mut up = st.up[o];
                let mut found = None;
                while up != 0 {
                    let t = up.trailing_zeros() as usize;
                    up &= up - 1;
                    if open(st, t) {
                        found = Some(t);
                        break;
                    }
                }
                found
            }
        };
        let Some(t) = target else {
            return false;
        };
        self.strike(st, side, j, t, close, faces, log);
        true
    }

    /// Whether unit `t` of side `o` may still be engaged: Close Combat takes three
    /// attackers per inch of target Size (Ch. 10.4).
    #[inline(always)]
    fn room(&self, st: &State, o: usize, t: usize) -> bool {
        (st.engaged[o][t] as u32) < combat::close_combat_limit(st.size[o][t])
    }

    /// Unit `j` of `side` strikes unit `t` of the other, in Close Combat (`close`) or with
    /// a shot ([`Squad::strike`] and [`Squad::resolve`]): the Skill roll with the target's
    /// Size modifier (Ch. 4.2, 8.2), and a shot's cover and blind fire (Ch. 8.3, 8.4), then
    /// Damage against Armor; a success takes an inch of Size, and the last inch fells it
    /// (Ch. 10.2).
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice and the log are passed as they are, as in the general turn"
    )]
    #[inline(always)]
    fn strike<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        st: &mut State,
        side: usize,
        j: usize,
        t: usize,
        close: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        let o = 1 - side;
        let (a, b) = (self.kind[side][j] as usize, self.kind[o][t] as usize);
        let q = &self.attacks[a * self.kinds + b];
        let mut m = combat::target_size(st.size[o][t], self.target_size);
        if close {
            st.engaged[o][t] += 1;
        } else {
            m += self.cover[o] + self.blind[side];
        }
        let benny = match q.hit::<true, F, L>(faces, log, m).0 {
            Hit::Hit { benny } => benny,
            Hit::Miss { .. } | Hit::CriticalFailure => return,
        };
        let mut damage = q.damage::<true, F, L>(faces, log, benny);
        if self.combined {
            // With the hits it took earlier this turn, as `Pool::add` sums them.
            let sum = (st.taken[o][t] as i64 + damage).clamp(-(i32::MAX as i64), i32::MAX as i64);
            st.taken[o][t] = sum as i32;
            damage = sum;
        }
        match damage.cmp(&q.armor()) {
            std::cmp::Ordering::Greater => {
                st.taken[o][t] = 0;
                let size = &mut st.size[o][t];
                *size = combat::size_damage(*size);
                if *size == 0 {
                    st.fall(o, t);
                }
            }
            std::cmp::Ordering::Equal => st.ties += 1,
            std::cmp::Ordering::Less => {}
        }
    }

    fn outcome(&self, st: &State, first: Side, turns: u32) -> SquadOutcome {
        let survivors = st.up.map(u64::count_ones);
        let winner = match survivors {
            [0, 0] => None,
            [_, 0] => Some(Side::A),
            [0, _] => Some(Side::B),
            _ => None,
        };
        let mut cp_left = [0i64; 2];
        for (side, cp) in cp_left.iter_mut().enumerate() {
            let mut up = st.up[side];
            while up != 0 {
                let j = up.trailing_zeros() as usize;
                up &= up - 1;
                *cp += self.cp[self.kind[side][j] as usize];
            }
        }
        SquadOutcome {
            winner,
            first,
            turns,
            survivors,
            cp_left,
            ties: st.ties,
            converted: 0,
            revived: 0,
            blasted: [0; 2],
            blasted_own: [0; 2],
            swept: [0; 2],
            standing: st.standing,
            converted_by: [0; TRACK],
        }
    }
}

/// The units standing after player turn `turn` ([`Squad::record_turn`]).
fn record(st: &mut State, turn: u32) {
    if let Some(k) = (turn as usize).checked_sub(1).filter(|&k| k < TRACK) {
        st.standing[0][k] = st.up[0].count_ones() as u8;
        st.standing[1][k] = st.up[1].count_ones() as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::rules::TargetSize;
    use crate::scenario::Scenario;
    use crate::scenario::squad::{Formation, Policy};

    /// `s` with the line form switched off: the general turn's plain form plays it.
    fn general(s: &Squad) -> Squad {
        let mut g = s.clone();
        g.line = None;
        g
    }

    #[test]
    fn the_line_form_plays_the_general_turn_outcome_for_outcome() {
        // Issue 27: both forms play one battle. Each case qualifies; on the same stream
        // every trial's whole outcome is the same (a draw out of step would show at once).
        let base = RuleOptions::default();
        let mut late = base;
        late.assign("opening_response=none").unwrap();
        let mut no_size = base;
        no_size.target_size = TargetSize::Off;
        let mut alone = base;
        alone.assign("combined_fire=off").unwrap();
        let with = |position, response| Policy {
            position,
            response,
            formation: Formation::parse("ranks:2").unwrap(),
            ..Policy::default()
        };
        let (advance, close) = (
            with(Position::Advance, Response::Inch),
            with(Position::Hold, Response::Close),
        );
        let none = with(Position::Advance, Response::None);
        const SIX: (&str, u32) = ("minifig-hand-weapon", 6);
        type Units<'a> = &'a [(&'a str, u32)];
        let cases: [(Units, Units, Policy, Policy, RuleOptions, u32); 8] = [
            (
                &[SIX],
                &[SIX],
                Policy::default(),
                Policy::default(),
                base,
                12,
            ),
            (
                &[("minifig-heavy-weapon", 3), ("minifig-two-handed", 2)],
                &[("minifig-body-armor", 4), ("kultist", 2)],
                Policy::default(),
                advance,
                base,
                8,
            ),
            (&[("kult-master", 2)], &[SIX], close, none, base, 5),
            (
                &[SIX],
                &[("minifig-heavy-weapon", 5)],
                advance,
                close,
                late,
                20,
            ),
            (
                &[("minifig-two-handed", 9)],
                &[SIX],
                none,
                Policy::default(),
                no_size,
                3,
            ),
            (
                &[("minifig-hand-weapon", 1)],
                &[("minifig-body-armor", 1)],
                advance,
                advance,
                base,
                0,
            ),
            (
                &[("minifig-hand-weapon", 64)],
                &[("kultist", 40)],
                Policy::default(),
                close,
                base,
                30,
            ),
            // Each hit alone (`combined_fire = off`).
            (
                &[SIX],
                &[("minifig-heavy-weapon", 4), ("kultist", 2)],
                Policy::default(),
                close,
                alone,
                10,
            ),
        ];
        // Each side on one spot: the line form plays flat battles only.
        let spot = |p: Policy| Policy {
            spacing: crate::scenario::squad::Spacing(0),
            ..p
        };
        for (n, (a, b, pa, pb, opts, distance)) in cases.into_iter().enumerate() {
            let s = Squad::new(
                side_with(a, spot(pa), &opts),
                side_with(b, spot(pb), &opts),
                distance,
                First::Random,
                100,
                opts,
            )
            .unwrap();
            same_battles(n, &s);
        }
    }

    /// Whether `s` qualifies for the line form and plays, trial for trial on one stream,
    /// the battles of the general turn's plain form, and of a narrated replay.
    fn same_battles(n: usize, s: &Squad) {
        assert!(s.line.is_some(), "case {n} qualifies for the line form");
        let g = general(s);
        let (mut x, mut y) = (
            crate::sim::seed::stream(5, n as u64, 0),
            crate::sim::seed::stream(5, n as u64, 0),
        );
        for trial in 0..2_000 {
            let line = s.trial(&mut x, &mut NoLog);
            let turn = g.trial(&mut y, &mut NoLog);
            assert_eq!(line, turn, "case {n}, trial {trial}");
        }
        // A narrated replay plays the general turn: the same battles.
        let (mut x, mut z) = (
            crate::sim::seed::stream(6, n as u64, 0),
            crate::sim::seed::stream(6, n as u64, 0),
        );
        for trial in 0..100 {
            let line = s.trial(&mut x, &mut NoLog);
            let told = s.trial(&mut z, &mut crate::dice::Narration::default());
            assert_eq!(line, told, "case {n}, narrated trial {trial}");
        }
    }

    #[test]
    fn issue_48_the_line_form_plays_shooters_as_the_general_turn_does() {
        // Riflemen and pistols (one ranged weapon, no Close Combat) in the line form: they
        // keep their range to the table's edge, shoot the first enemy in Range, answer a
        // mover in contact or one that walked an inch within Range, take cover and blind
        // fire on their rolls, and draw no Angry Inch from melee lining up. Each case plays
        // the general turn's battles trial for trial.
        let base = RuleOptions::default();
        let mut alone = base;
        alone.assign("combined_fire=off").unwrap();
        let spot = |p: Policy| Policy {
            spacing: crate::scenario::squad::Spacing(0),
            ..p
        };
        let covered = |cover| Policy {
            cover,
            ..Policy::default()
        };
        let blind = Policy {
            blind: true,
            ..Policy::default()
        };
        let with = |position, response| Policy {
            position,
            response,
            ..Policy::default()
        };
        const RIFLE: &str = "minifig-rifle";
        const PISTOL: &str = "minifig-pistol";
        const HAND: &str = "minifig-hand-weapon";
        type Units<'a> = &'a [(&'a str, u32)];
        let cases: [(Units, Units, Policy, Policy, RuleOptions, u32, u32); 13] = [
            // Mixed sides close in: lines-up, half-inch steps and shots held for a walk of
            // an inch.
            (
                &[(HAND, 4), (RIFLE, 2)],
                &[(HAND, 5), (PISTOL, 2)],
                Policy::default(),
                Policy::default(),
                base,
                7,
                2,
            ),
            (
                &[(PISTOL, 2), (HAND, 4)],
                &[(RIFLE, 1), (HAND, 5)],
                Policy::default(),
                with(Position::Hold, Response::Inch),
                base,
                3,
                0,
            ),
            (
                &[(HAND, 3), (PISTOL, 3)],
                &[("minifig-two-handed", 3), (RIFLE, 3)],
                with(Position::Advance, Response::All),
                Policy::default(),
                alone,
                11,
                1,
            ),
            (
                &[(RIFLE, 4)],
                &[(HAND, 6)],
                Policy::default(),
                Policy::default(),
                base,
                6,
                12,
            ),
            (
                &[(RIFLE, 4)],
                &[(HAND, 6)],
                Policy::default(),
                covered(2),
                base,
                12,
                0,
            ),
            (&[(RIFLE, 6)], &[(HAND, 9)], blind, covered(3), base, 24, 3),
            (
                &[(PISTOL, 5)],
                &[(RIFLE, 3)],
                Policy::default(),
                covered(1),
                base,
                20,
                12,
            ),
            (
                &[(RIFLE, 3), (HAND, 3)],
                &[(PISTOL, 2), ("minifig-heavy-weapon", 4)],
                Policy::default(),
                with(Position::Advance, Response::Inch),
                base,
                14,
                6,
            ),
            (
                &[(HAND, 5)],
                &[(PISTOL, 5)],
                with(Position::Hold, Response::Close),
                with(Position::Hold, Response::All),
                alone,
                9,
                1,
            ),
            (
                &[(RIFLE, 4)],
                &[(HAND, 6)],
                with(Position::Advance, Response::All),
                with(Position::Hold, Response::None),
                base,
                3,
                12,
            ),
            (
                &[(RIFLE, 30)],
                &[("kultist", 40)],
                Policy::default(),
                Policy::default(),
                base,
                30,
                24,
            ),
            (
                &[(PISTOL, 3)],
                &[(PISTOL, 3)],
                Policy::default(),
                blind,
                base,
                4,
                2,
            ),
            (
                &[(RIFLE, 2), (PISTOL, 2)],
                &[(HAND, 3), (RIFLE, 1)],
                with(Position::Hold, Response::Inch),
                covered(1),
                alone,
                16,
                5,
            ),
        ];
        for (n, (a, b, pa, pb, opts, distance, room)) in cases.into_iter().enumerate() {
            let s = Squad::new(
                side_with(a, spot(pa), &opts),
                side_with(b, spot(pb), &opts),
                distance,
                First::Random,
                100,
                opts,
            )
            .unwrap()
            .with_room(room);
            same_battles(100 + n, &s);
        }
    }

    #[test]
    fn issue_48_a_shooter_in_the_line_form_answers_only_a_move_of_an_inch_or_more() {
        // As the general turn (field.rs): a half-inch step within a rifleman's Range draws
        // no shot from its saved Action; an inch does.
        let s = squad_on_spot(&[("minifig-rifle", 1)], &[MF], 6, RuleOptions::default());
        let line = s.line.as_ref().expect("the line form plays it");
        let mut st = line.place(&s);
        let answer = |st: &mut State, by: i32, script: &[(crate::dice::Die, u32)]| {
            let at = st.pos[1][0];
            st.step(1, 0, at - by);
            let mut dice = crate::dice::Script::new(script);
            line.respond::<true, _, _>(st, 1, 0, by, &mut dice, &mut NoLog);
            assert!(dice.is_done());
        };
        answer(&mut st, 1, &[]);
        assert_eq!(st.saved[0] & 1, 1, "half an inch: no shot");
        answer(&mut st, 2, &[(D6, 1)]);
        assert_eq!(st.saved[0] & 1, 0);
    }

    #[test]
    fn the_ends_find_the_nearest_enemy_the_scan_finds() {
        // Ten thousand random steps and falls in a 64 v 40 battle; after each, the nearest
        // enemy of a random place, on either side, is the standing unit a full scan finds
        // (least distance, ties to the first in the roster).
        use rand::RngExt;
        let (mf, k) = (("minifig-hand-weapon", 64), ("kultist", 40));
        let s = squad_on_spot(&[mf], &[k], 30, RuleOptions::default());
        let line = s.line.as_ref().unwrap();
        let mut st = line.place(&s);
        let mut rng = crate::sim::seed::stream(3, 0, 0);
        for step in 0..10_000 {
            let side = rng.random_range(0..2usize);
            let j = rng.random_range(0..line.count[side]);
            if rng.random_range(0..8) == 0 && st.up[side].count_ones() > 1 {
                st.fall(side, j);
            } else {
                // Few places, so many units share one: ties are common.
                st.step(side, j, rng.random_range(-4..16) * 4);
            }
            let (o, at) = (rng.random_range(0..2usize), rng.random_range(-20..70));
            let scan = (0..line.count[o])
                .filter(|&t| st.up[o] & (1 << t) != 0)
                .map(|t| ((st.pos[o][t] - at).abs(), t))
                .min();
            assert_eq!(line.nearest(&mut st, o, at), scan, "step {step}");
        }
    }

    #[test]
    fn battles_with_other_rules_keep_the_general_turn() {
        // Each breaks one condition of the line form; the general turn plays them.
        let opts = RuleOptions::default();
        let mf = &[MF];
        for other in [
            "minifig-sword-shield",
            "hero-hand-weapon",
            "vermin",
            // Explosions (`stacking`, `blast_knockback`, `swap_tie`, policy `lob`): not
            // plain.
            "minifig-launcher",
            // Half Speed (Heavy Armor's Deflection; its Sprint is halved).
            "minifig-hand-weapon+heavy-armor",
            // Two weapons (`action_damage`), an automatic weapon (`arc_aim`, `arc_span`).
            "minifig+hand-weapon+hand-weapon",
            "minifig-machinegunner",
            // SN dice (`sn_subtract`, every `spend` policy): not plain.
            "wizard",
            "wizard@nullify",
        ] {
            assert!(squad(mf, &[(other, 1)], 6, opts).line.is_none(), "{other}");
        }
        for option in ["response_order=timing", "armor_tie=dismemberment"] {
            let mut o = opts;
            o.assign(option).unwrap();
            assert!(squad(mf, mf, 6, o).line.is_none(), "{option}");
        }
        let spread = Policy {
            target: Targeting::Spread,
            ..Policy::default()
        };
        let sprint = Policy {
            sprint: Sprint::Close,
            ..Policy::default()
        };
        // Joining the combined attack under way (`combined`) reads each target's pool.
        let combined = Policy {
            target: Targeting::Combined,
            ..Policy::default()
        };
        // A side that throws its Hand Weapons (`throw`, Ch. 8.4) is not plain.
        let throw = Policy {
            throw: crate::scenario::squad::Throw::Last,
            ..Policy::default()
        };
        for p in [spread, sprint, combined, throw] {
            let s = Squad::new(
                side(mf, &opts),
                side_with(mf, p, &opts),
                6,
                First::A,
                50,
                opts,
            );
            assert!(s.unwrap().line.is_none(), "{p:?}");
        }
        assert!(squad(mf, mf, 6, opts).line.is_some());
    }

    #[test]
    fn a_saved_action_steps_the_angry_inch_and_strikes_first_in_the_line_form() {
        // 12" apart, A first. A walks 5" (no reach yet); B (`advance`) walks 5" and stops 2"
        // short of A; A's saved Action steps the Angry Inch and strikes first (Ch. 4.3):
        // Skill 4 hits Use 2, Damage 5 beats Armor 4, and B falls in player turn 2.
        let o = RuleOptions::default();
        let mut b = side(&[MF], &o);
        b.policy.position = Position::Advance;
        let s = Squad::new(side(&[MF], &o), b, 12, First::A, 100, o).unwrap();
        assert!(s.line.is_some());
        let o = run(&s, &[(D6, 4), (D6, 5)]);
        assert_eq!((o.winner, o.turns, o.survivors), (Some(Side::A), 2, [1, 0]));
        assert_eq!(
            (&o.standing[0][..2], &o.standing[1][..2]),
            (&[1, 1][..], &[1, 0][..])
        );
        assert_eq!(o.cp_left, [24, 0]);
    }
}
