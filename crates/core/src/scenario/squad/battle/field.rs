//! The field and movement: who is nearest, who can reach whom (distances on the plane,
//! [`super::plane`]), where a unit walks (the `hold` policy: out-reach and wait, or line
//! up outside the Angry Inch and close), its Sprint, the Responses it draws (Ch. 4.1,
//! 4.3), and KnockBack (Ch. 8.1).

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::attack::{benny_d6, benny_skill_d6};
use crate::rules::{Knockback, OverskillPolicy, ResponseOrder, SprintFumble, combat};
use crate::scenario::squad::{Kind, Response};

/// When a Response lands against the mover's own Action (Ch. 4.1, 4.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Order {
    First,
    Together,
    After,
}

/// What the Responses to a move left to do: kills to settle after the mover's attack
/// (`together`), and responders who strike after it (`late`, a bit per slot).
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Responses {
    pub together: bool,
    pub late: u128,
}

/// The `hold` policy's walk ([`Squad::hold_want`]) for a unit `d` from its nearest enemy,
/// `closing` short of reach: all of it when it strikes this turn and the enemy cannot strike
/// first (`now`); when it out-reaches the enemy (its threat, Move and reach, beats `theirs`),
/// to half an inch outside the enemy's (never back); else all of it.
#[inline(always)]
pub(super) fn hold_at(d: i32, closing: i32, now: bool, mine: i32, theirs: i32) -> i32 {
    if !now && mine > theirs {
        return (d - (theirs + 1)).clamp(0, closing);
    }
    closing
}

/// Where a holding unit that cannot strike this turn stops when its walk to `end` would
/// draw first strikes: just outside the Angry Inch of its target `d` away (where the
/// target cannot strike it from where it stands), when that lies on its way; it
/// closes from there next turn. A competent player lines up out of reach rather than walk
/// into saved Actions with none of its own to spend (Ch. 4.3).
#[inline(always)]
pub(super) fn line_up(d: i32, end: i32) -> Option<i32> {
    let edge = d - RESPONSE_REACH - 1;
    (edge > 0 && edge < end).then_some(edge)
}

impl Squad {
    /// The roster's slots of a side as first fielded (for names).
    #[inline(always)]
    pub(super) fn own(&self, side: u8) -> std::ops::Range<usize> {
        // Without a branch: sides alternate, and a branch on the side mispredicted often.
        let s = (side & 1) as usize;
        let start = s * self.count[0];
        start..start + self.count[s]
    }

    /// The unit of `side` with the least `key` (ties to the lower slot), over the slots
    /// fighting for `side` now. Only Contagion and Stupidity move a unit between sides;
    /// without them the roster's range is scanned as is: two plain loops, because a
    /// side-checking filter on every scan cost squad duels a tenth of their speed.
    #[inline(always)]
    pub(super) fn least<K: Ord + Copy>(
        &self,
        fl: &Field,
        side: u8,
        key: impl Fn(usize) -> Option<K>,
    ) -> Option<(K, usize)> {
        let mut best: Option<(K, usize)> = None;
        // The same step in both loops, written out: as a closure LLVM stopped inlining it.
        // Slots rise, so a strictly smaller key is the only way to beat the best so far.
        if self.sides_move {
            for t in 0..self.roster.len() {
                if fl.f[t].side == side
                    && let Some(k) = key(t)
                    && best.is_none_or(|b| k < b.0)
                {
                    best = Some((k, t));
                }
            }
        } else {
            for t in self.own(side) {
                if let Some(k) = key(t)
                    && best.is_none_or(|b| k < b.0)
                {
                    best = Some((k, t));
                }
            }
        }
        best
    }

    /// The distance in half-inches to the nearest living enemy, and that enemy.
    #[inline(always)]
    pub(super) fn nearest(&self, fl: &Field, i: usize) -> Option<(i32, usize)> {
        self.nearest_as::<false>(fl, i)
    }

    /// [`Squad::nearest`]; `P`: the plain form, which asks the enemy's [`Front`] first.
    #[inline(always)]
    pub(super) fn nearest_as<const P: bool>(&self, fl: &Field, i: usize) -> Option<(i32, usize)> {
        let me = &fl.f[i];
        // On one line the nearest is at an end of the enemy's line, or found by position.
        if P && self.flat {
            // Without sides that move, a side's units are its roster range.
            let f = self.front(fl, 1 - me.side);
            if !f.any {
                return None;
            }
            // Which end faces it is a select, not a branch: sides alternate, and a branch on
            // it mispredicted.
            let pos = me.pos as i32;
            let (below, above) = (pos <= f.low.0, pos >= f.high.0);
            if below | above {
                let (at, slot) = if below { f.low } else { f.high };
                return Some(((at - pos).abs(), slot as usize));
            }
            // Enemies on both sides of it: the scan below.
        }
        if !self.sides_move && self.flat {
            // The scan every unit's turn starts with.
            let slots = self.own(1 - me.side);
            let units = fl.f[slots.clone()].iter().map(|u| (u.pos as i32, u.alive));
            return nearest_of(units, me.pos as i32).map(|(d, t)| (d, slots.start + t));
        }
        let side = 1 - me.side;
        if self.sides_move {
            fl.nearest_to((0..self.roster.len()).filter(|&t| fl.f[t].side == side), i)
        } else {
            fl.nearest_to(self.own(side), i)
        }
    }

    /// `side`'s [`Front`], rebuilt if stale: its lowest and highest living units, ties to
    /// the lower slot (the order [`Squad::nearest`] breaks ties in). Only where no unit
    /// changes sides.
    #[inline(always)]
    pub(super) fn front(&self, fl: &Field, side: u8) -> Front {
        let cell = &fl.fronts[(side & 1) as usize];
        let f = cell.get();
        if f.fresh {
            return f;
        }
        let slots = self.own(side);
        // Positions are whole half-inches where the ends are read ([`Squad::flat`]).
        let (up, ends) = ends_of(fl.f[slots.clone()].iter().map(|u| (u.pos as i32, u.alive)));
        let at = |(p, t): (i32, usize)| (p, (slots.start + t) as u8);
        let f = match ends {
            Some((low, high)) => Front {
                low: at(low),
                high: at(high),
                any: true,
                up,
                fresh: true,
            },
            None => Front {
                fresh: true,
                ..Front::STALE
            },
        };
        cell.set(f);
        f
    }

    /// Whether unit `i` can attack anyone from where it stands; `P`: the plain form.
    #[inline(always)]
    pub(super) fn can_attack_as<const P: bool>(&self, fl: &Field, i: usize) -> bool {
        self.in_reach(fl, i, self.nearest_as::<P>(fl, i))
    }

    /// Whether unit `i`'s reach takes in `near`, its nearest enemy and the distance.
    #[inline(always)]
    pub(super) fn in_reach(&self, fl: &Field, i: usize, near: Option<(i32, usize)>) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        let reach = k.reach().map_or(CONTACT, |r| (2 * r as i32).max(CONTACT));
        near.is_some_and(|(d, _)| d <= reach)
    }

    /// Whether some weapon of unit `i` reaches the nearest enemy.
    pub(super) fn weapon_reaches(&self, fl: &Field, i: usize) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        self.nearest(fl, i).is_some_and(|(d, _)| {
            k.arms
                .iter()
                .any(|a| (a.close && d <= CONTACT) || a.range.is_some_and(|r| 2 * r as i32 >= d))
        })
    }

    /// How close unit kind `k` walks to strike: contact, or its longest Range.
    #[inline(always)]
    pub(super) fn stop_at(&self, k: &Kind) -> i32 {
        k.reach().map_or(CONTACT, |r| 2 * r as i32)
    }

    /// How far kind `k` can strike on its own turn: its Move and its reach.
    pub(super) fn threat(&self, k: &Kind) -> i32 {
        k.move_halves + self.stop_at(k).max(CONTACT)
    }

    /// How far unit `i` walks toward its nearest enemy `t`, `d` away, under the `hold`
    /// policy (`closing` would take it into reach). It closes when it can strike this turn
    /// and `t` cannot strike first; it stops just outside `t`'s Move and reach when it
    /// out-reaches `t`; otherwise waiting gains it nothing, and it closes, but not into a
    /// saved enemy's Angry Inch from afar: it lines up outside it first ([`line_up`]).
    pub(super) fn hold_want(
        &self,
        fl: &Field,
        i: usize,
        t: usize,
        d: i32,
        closing: i32,
        may_act: bool,
    ) -> i32 {
        let (k, e) = (
            &self.kinds[fl.f[i].kind as usize],
            &self.kinds[fl.f[t].kind as usize],
        );
        let step = self.at_speed(fl, i, k.move_halves);
        let now = may_act && closing <= step && !self.strikes_first(fl, t, i, d);
        let walk = hold_at(d, closing, now, self.threat(k), self.threat(e));
        let end = walk.min(step);
        if now || walk != closing || end <= 0 {
            return walk;
        }
        let h = fl.toward(i, fl.at(t));
        let strikers = |by: i32| self.first_strikers(fl, i, fl.ahead(i, h, by));
        let walks = strikers(end);
        if walks == 0 {
            return walk;
        }
        // Only where the target cannot strike the edge from where it stands: with a Range
        // or Explosives reaching it (a grenade's 3" takes in 2.5"), waiting there gains
        // nothing, and a side lined up there is one blast's catch.
        if let Some(edge) = line_up(d, end)
            && self.stand_off(fl, t) < d - edge
            && strikers(edge) <= walks
        {
            return edge;
        }
        // Off the line, when the way into reach passes within the Angry Inch of `t`'s
        // neighbours too, it steps into `t`'s alone: `t`'s Response brings it to contact,
        // and it strikes back. (Not on one line: the line form has no such step, and a
        // side on one spot draws the same there.)
        let bait = d - RESPONSE_REACH;
        let lures = self.policy[fl.f[t].side as usize].response != Response::Close
            && self.strikes_first(fl, t, i, d);
        if !fl.flat && lures && bait > 0 && bait < end && strikers(bait) < walks {
            return bait;
        }
        walk
    }

    /// How many enemies of unit `i` with a saved Action and a Close Combat weapon would
    /// answer it in Close Combat, striking first, were it to stop at `s` (its side's
    /// `response` policy: within the Angry Inch, or in contact under `close`).
    fn first_strikers(&self, fl: &Field, i: usize, s: Spot) -> u32 {
        let them = 1 - fl.f[i].side;
        let response = self.policy[them as usize].response;
        if response == Response::None || self.opts.response_order != ResponseOrder::Counter {
            return 0;
        }
        let reach = if response == Response::Close {
            CONTACT
        } else {
            RESPONSE_REACH
        };
        let slots = if self.sides_move {
            0..self.roster.len()
        } else {
            self.own(them)
        };
        slots
            .filter(|&j| {
                let r = &fl.f[j];
                r.side == them
                    && r.alive
                    && r.saved
                    && !r.disrupted
                    && fl.within(j, s, reach)
                    && self.kinds[r.kind as usize].any_close()
            })
            .count() as u32
    }

    /// Whether `t`'s saved Action would strike `i` first if `i` closed on it from `d` away
    /// (Ch. 4.3: the mover "still has to move at least a full inch" inside its range). A
    /// unit with no weapon its Response may use (a Launcher's Explosives, a crew Gunner's
    /// empty hands) strikes no one first, so it is no reason to wait.
    fn strikes_first(&self, fl: &Field, t: usize, i: usize, d: i32) -> bool {
        let r = &fl.f[t];
        let response = self.policy[r.side as usize].response;
        if !r.saved || r.disrupted || response == Response::None {
            return false;
        }
        // As `answer` finds: a Close Combat weapon, else a Range.
        let rk = &self.kinds[r.kind as usize];
        if !rk.any_close() && rk.reach().is_none() {
            return false;
        }
        if self.opts.response_order == ResponseOrder::Counter {
            return true;
        }
        let range = if response == Response::Close {
            CONTACT
        } else {
            RESPONSE_REACH
        };
        let stop = self.stop_at(&self.kinds[fl.f[i].kind as usize]);
        d.min(range) - stop >= ANGRY_INCH
    }

    /// A shooter in reach of its nearest enemy first steps straight back toward its own
    /// edge, up to its longest Range and as far as its Move and the table allow, to keep out
    /// of the enemy's reach ("shooters keep their range"); a unit in Close Combat stays.
    /// `near`: its nearest enemy as [`Squad::nearest`] finds it where it stands now.
    pub(super) fn keep_range<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        near: Option<(i32, usize)>,
        log: &mut L,
    ) {
        let k = &self.kinds[fl.f[i].kind as usize];
        let Some(range) = k.reach() else {
            return;
        };
        let Some((d, _)) = near else {
            return;
        };
        let gap = 2 * range as i32 - d;
        if d <= CONTACT || gap <= 0 {
            return;
        }
        let step = self.at_speed(fl, i, k.move_halves);
        // Straight back toward its own edge: the table has no edge across the line, and a
        // shooter backing away on a slant from a slower enemy could kite it for ever.
        let away = fl.away(i, fl.at(i));
        // Not off the table: `room` behind either side's starting line.
        let back = self.room_along(fl, i, away, gap.min(step));
        if back <= 0 {
            return;
        }
        let from = fl.at(i);
        fl.step(i, away, back);
        fl.moved(fl.f[i].side);
        if self.any_crew && k.team >= 2 {
            self.carry(fl, i, from, log);
        }
        log.note(format_args!(
            "  {} steps back {}\" to keep its range",
            Who(self, fl, i),
            back as f64 / 2.0
        ));
    }

    /// Ch. 4.1 Sprint: + a Skill roll of inches (Bonus Dice included), at Half Speed while
    /// recovering or burdened (Heavy Armor); it costs the Action. An Overskill Benny adds +1d6 inches ("+1d6 inches to
    /// the distance of a Sprint", Ch. 4.2) as the `overskill` policy spends it: `auto` when
    /// the unit is still short, `skill` always, `damage` never. Returns the half-inches.
    pub(super) fn sprint<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        short: i32,
        faces: &mut F,
        log: &mut L,
    ) -> i32 {
        let r = self.skill_of(fl, i).roll(faces, log, 0);
        let burn = self.fire_penalty(fl, i, faces, log);
        if r.critical_failure && self.any_sn {
            self.critical(fl, i, log);
        }
        // Option `sprint_fumble`: a natural 1 adds its 1" by default.
        if r.critical_failure && self.opts.sprint_fumble == SprintFumble::Nothing {
            log.note(format_args!(
                "    a Critical Failure: the Sprint adds nothing"
            ));
            fl.f[i].acted = true;
            return 0;
        }
        let mut inches = r.total + self.penalty(fl, i) + burn;
        let spend = match self.opts.overskill {
            OverskillPolicy::Auto => 2 * inches.max(0) < short as i64,
            OverskillPolicy::Skill => true,
            OverskillPolicy::Damage => false,
        };
        if r.overskill
            && spend
            && let Some(bonus) = benny_skill_d6(&self.opts)
        {
            log.note(format_args!("    the Overskill Benny adds 1d6 inches"));
            inches += benny_d6(bonus, self.opts.bonus_chain, faces, log);
        }
        // "Minifigs moving at Half Speed can still put in the extra effort to Sprint, but
        // the extra Sprint inches are also at Half Speed" (Ch. 4.1): a Move of 5" and a
        // Sprint roll of 2 go 3.5".
        let extra = 2 * inches.max(0) as i32;
        fl.f[i].acted = true;
        if fl.f[i].recovering || self.kinds[fl.f[i].kind as usize].half_speed {
            extra / 2
        } else {
            extra
        }
    }

    /// Unit `i`'s Move this turn from `step` half-inches at full speed, or its kind's (a
    /// kind at Half Speed has it halved already): halved while it recovers from Disruption
    /// ("Recovering after being Disrupted: Half Speed (1 turn)", Ch. 4.1), but only once:
    /// "If a minifig is already reduced to Half Speed, additional Half Speed conditions
    /// have no effect".
    #[inline]
    pub(super) fn at_speed(&self, fl: &Field, i: usize, step: i32) -> i32 {
        if fl.f[i].recovering && !self.kinds[fl.f[i].kind as usize].half_speed {
            step / 2
        } else {
            step
        }
    }

    /// Enemies with a saved Action strike the unit that just moved from `from` (policy
    /// `response`): in contact, after the Angry Inch, or (`all`) at Range after it moved an
    /// inch. Who acts first follows option `response_order`: a Response that lands with the
    /// mover's own attack (`acting`) defers its kills until [`Squad::settle`]; one that
    /// comes after it waits in [`Responses::late`] for [`Squad::late_responses`].
    // Always inlined: left to the compiler, a 1 KB larger field tipped it out of line and
    // a rifle battle ran 4% more instructions.
    #[inline(always)]
    pub(super) fn respond<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        mover: usize,
        from: Spot,
        acting: bool,
        faces: &mut F,
        log: &mut L,
    ) -> Responses {
        let mut out = Responses::default();
        let them = 1 - fl.f[mover].side;
        let policy = self.policy[them as usize].response;
        if policy == Response::None {
            return out;
        }
        let moved = fl.gap_to(mover, from);
        // No unit of theirs stands near enough to answer: the loop below would find none.
        if P && self
            .nearest_as::<P>(fl, mover)
            .is_none_or(|(d, _)| d > self.answers[them as usize])
        {
            return out;
        }
        let slots = if !P && self.sides_move {
            0..self.roster.len()
        } else {
            self.own(them)
        };
        // The plain form visits only the units standing now (none rises during the
        // Responses); each is tested below as in the general form.
        let mut up = if P { self.front(fl, them).up } else { 0 };
        let mut k = slots.start;
        loop {
            let j = if P {
                match next_standing(&mut up, slots.start) {
                    Some(j) => j,
                    None => break,
                }
            } else {
                if k == slots.end {
                    break;
                }
                k += 1;
                k - 1
            };
            if !fl.f[mover].alive {
                break;
            }
            // Read in place: a copy of the whole Figure cost a memcpy per enemy per move.
            let r = &fl.f[j];
            // One test of all four (`&`): each of them alone mispredicted.
            if !((r.side == them) & r.alive & r.saved & !r.disrupted) {
                continue;
            }
            let r_kind = r.kind;
            let k = &self.kinds[r_kind as usize];
            // Beyond the Angry Inch and its Range it answers nothing: ruled out without
            // the square root.
            let reach = RESPONSE_REACH.max(2 * k.reach().unwrap_or(0) as i32);
            if !fl.may_reach(j, fl.at(mover), reach) {
                continue;
            }
            let d = fl.gap(j, mover);
            let close = d <= CONTACT;
            // The Angry Inch: one inch toward the mover to strike it in Close Combat.
            let inch = !close && policy != Response::Close && d <= RESPONSE_REACH && k.any_close();
            let shoots = policy == Response::All
                && moved >= 2
                && k.reach().is_some_and(|x| 2 * x as i32 >= d);
            if !(close || inch || shoots) {
                continue;
            }
            // It responds only if it can strike the mover: else it keeps Action and place.
            let Some(contact) = self.answer::<P>(fl, j, mover, d, close || inch) else {
                continue;
            };
            let when = if acting {
                self.when(fl, j, mover, from, d, close || inch, faces, log)
            } else {
                Order::First
            };
            if when == Order::After {
                // The mover acts first; this Response waits for it.
                out.late |= 1 << j;
                continue;
            }
            let first = when == Order::First;
            if inch {
                self.walk_to(fl, j, fl.at(mover), d - CONTACT);
                fl.moved(fl.f[j].side);
            }
            log.note(format_args!(
                "  {} responds with its saved Action{}",
                Who(self, fl, j),
                match (inch, first) {
                    (true, true) => " (the Angry Inch)",
                    (true, false) => " (the Angry Inch; at the same time)",
                    (false, true) => "",
                    (false, false) => " (at the same time)",
                }
            ));
            fl.f[j].saved = false;
            if first {
                self.action_in::<P, F, L>(fl, j, Some(mover), Some(contact), faces, log);
            } else {
                fl.deferring = true;
                self.action_in::<P, F, L>(fl, j, Some(mover), Some(contact), faces, log);
                fl.deferring = false;
                out.together = true;
            }
        }
        out
    }

    /// Whether responder `j`, `d` from `mover`, can strike it: a Response is a saved Action
    /// spent on an attack (Ch. 4.3), so one that could not strike (three attackers per inch
    /// of Size already engage the mover, Ch. 10.4, or it stands beyond the responder's
    /// reach) is not made. `near`: it stands in contact, or will after the Angry Inch.
    /// Returns whether its Action then finds an enemy in contact, as [`Squad::action_in`]
    /// takes it.
    #[inline(always)]
    fn answer<const P: bool>(
        &self,
        fl: &Field,
        j: usize,
        mover: usize,
        d: i32,
        near: bool,
    ) -> Option<bool> {
        if !P && !self.aware(fl, j, mover) {
            return None;
        }
        let (mode, reach) = self.mode_of::<P>(fl, j, near.then_some(true))?;
        let at = if near { d.min(CONTACT) } else { d };
        self.may_strike(fl, j, mover, mode, reach, at)
            .then_some(mode == Mode::Close)
    }

    /// The Responses that come after the mover's own Action (`late`, from
    /// [`Squad::respond`]): each responder still standing and not Disrupted strikes the
    /// mover if it can.
    #[cold]
    #[inline(never)]
    pub(super) fn late_responses<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        mover: usize,
        mut late: u128,
        faces: &mut F,
        log: &mut L,
    ) {
        while late != 0 {
            let j = late.trailing_zeros() as usize;
            late &= late - 1;
            if !fl.f[mover].alive || !fl.f[j].alive || fl.f[j].disrupted {
                continue;
            }
            let d = fl.gap(j, mover);
            let Some(contact) = self.answer::<false>(fl, j, mover, d, d <= RESPONSE_REACH) else {
                continue;
            };
            if d > CONTACT && d <= RESPONSE_REACH {
                self.walk_to(fl, j, fl.at(mover), d - CONTACT);
                fl.moved(fl.f[j].side);
            }
            log.note(format_args!(
                "  {} responds with its saved Action, after the mover",
                Who(self, fl, j)
            ));
            fl.f[j].saved = false;
            self.action_in::<false, F, L>(fl, j, Some(mover), Some(contact), faces, log);
        }
    }

    /// When responder `j`, `d` from `mover` (which came from `from` and attacks in its own
    /// turn), acts against it (option `response_order`): first if the mover crossed a full
    /// inch of its range (Ch. 4.3: the range of Close Combat after the Angry Inch when
    /// `near`, else its longest Range), else as the option reads it.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    fn when<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &Field,
        j: usize,
        mover: usize,
        from: Spot,
        d: i32,
        near: bool,
        faces: &mut F,
        log: &mut L,
    ) -> Order {
        let k = &self.kinds[fl.f[j].kind as usize];
        let range = if !near {
            d.max(2 * k.reach().unwrap_or(0) as i32)
        } else if self.policy[fl.f[j].side as usize].response == Response::Close {
            CONTACT
        } else {
            RESPONSE_REACH
        };
        if fl.gap_to(j, from).min(range) - d >= ANGRY_INCH {
            return Order::First;
        }
        match self.opts.response_order {
            ResponseOrder::Counter => Order::First,
            ResponseOrder::Timing => Order::Together,
            ResponseOrder::RollOff => self.roll_off(fl, j, mover, faces, log),
        }
    }

    /// Ch. 4.3's order when neither is automatically faster: "a minifig moving at regular
    /// speed takes his Action before a minifig moving at Half Speed ... If both minifigs
    /// are moving at the same speed, then both minifigs roll their Skill, and the higher
    /// roll goes first." When responder `j` acts against `mover` (a tie is simultaneous).
    #[cold]
    #[inline(never)]
    fn roll_off<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &Field,
        j: usize,
        mover: usize,
        faces: &mut F,
        log: &mut L,
    ) -> Order {
        let slow = |u: usize| fl.f[u].recovering || self.kinds[fl.f[u].kind as usize].half_speed;
        match (slow(j), slow(mover)) {
            (false, true) => Order::First,
            (true, false) => Order::After,
            _ => {
                let a = self.skill_of(fl, j).roll(faces, log, 0).total;
                let b = self.skill_of(fl, mover).roll(faces, log, 0).total;
                match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Order::First,
                    std::cmp::Ordering::Less => Order::After,
                    std::cmp::Ordering::Equal => Order::Together,
                }
            }
        }
    }

    /// The kills of Responses that landed together with the attack they answered.
    pub(super) fn settle(&self, fl: &mut Field) {
        let mut p = std::mem::take(&mut fl.pending);
        while p != 0 {
            let t = p.trailing_zeros() as usize;
            p &= p - 1;
            self.kill(fl, t);
        }
    }

    /// A hit from a sized weapon larger than its target pushes it straight away from the
    /// attacker (option `knockback`, Ch. 8.1); a ShotGun's hit pushes a minifig or smaller
    /// 1" "(no Disruption)" (Ch. 8.1 Minifig Bastard Guns).
    pub(super) fn knock_back<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        log: &mut L,
    ) {
        let arm = &self.kinds[fl.f[i].kind as usize].arms[w];
        if arm.knockback > 0 && fl.f[t].size <= 1 {
            let away = fl.away(t, fl.at(i));
            return self.shove(fl, t, away, arm.knockback as i32, log);
        }
        if self.opts.knockback == Knockback::Off {
            return;
        }
        let ws = arm.power.unwrap_or(0);
        let inches = combat::knockback(ws, fl.f[t].size) as i32;
        if inches == 0 {
            return;
        }
        self.push(fl, t, fl.away(t, fl.at(i)), inches, log);
    }

    /// A weapon's KnockBack (Ch. 8.1): `t` pushed `inches` along the line, `away` (+1 or -1; 0
    /// from its own spot: toward its own side's back), and Disrupted under
    /// `knockback = disrupt`.
    pub(super) fn push<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        away: Heading,
        inches: i32,
        log: &mut L,
    ) {
        self.shove(fl, t, away, inches, log);
        if self.opts.knockback == Knockback::Disrupt {
            fl.f[t].disrupted = true;
        }
    }

    /// KnockBack without Disruption: `t` moved `inches` along the line, as [`Squad::push`].
    pub(super) fn shove<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        away: Heading,
        inches: i32,
        log: &mut L,
    ) {
        // None (from its own spot): toward its own side's back.
        let away = if away == (0.0, 0.0) {
            fl.away(t, fl.at(t))
        } else {
            away
        };
        // On a table it stops short of what it cannot cross and of the edge.
        let by = if self.board.is_some() {
            self.room_along(fl, t, away, 2 * inches)
        } else {
            2 * inches
        };
        fl.step(t, away, by);
        fl.moved(fl.f[t].side);
        log.note(format_args!(
            "    {} is knocked back {inches}\"",
            Who(self, fl, t)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    #[allow(unused_imports)]
    use super::*;
    use crate::dice::Script;
    use crate::rules::{OpeningResponse, ResponseOrder};
    use crate::scenario::squad::Position;

    /// Minifigs with a Hand Weapon that Move `fast` inches, from a user catalog.
    fn movers(fast: u32, n: u32, opts: &RuleOptions) -> SideSpec {
        let text = format!(
            "[fast]\nname = \"Fast\"\nsource = \"test\"\nsize = 1\nstructure = \"0\"\n\
             armor = \"4\"\nmove = {fast}\nskill = \"d6\"\nweapons = [\"hand-weapon\"]\n"
        );
        let c = Catalog::with_text("test", &text).unwrap();
        SideSpec::from_catalog(&c, &[("fast".to_string(), n)], Policy::default(), opts).unwrap()
    }

    #[test]
    fn the_front_finds_the_nearest_enemy_the_scan_finds() {
        // Issue 27: the plain form asks each side's ends first. Ties go to the lower slot,
        // the fallen take no part, and enemies on both sides of a unit fall back to the
        // scan; every unit's answer is the full scan's.
        let o = RuleOptions::default();
        let s = squad(
            &[("minifig-hand-weapon", 4)],
            &[("minifig-hand-weapon", 4)],
            0,
            o,
        );
        let layouts: [([i32; 8], u8); 5] = [
            ([0, 0, 0, 0, 24, 24, 24, 24], 0),
            ([0, 3, 1, 3, 9, 7, 7, 12], 0),
            ([10, -4, 10, 2, 6, 6, 14, 6], 0b0100_0001),
            ([5, 5, 5, 5, 5, 5, 5, 5], 0b1000_0010),
            ([0, 1, 2, 3, 4, 5, 6, 7], 0b1111_0000),
        ];
        for (pos, fallen) in layouts {
            let mut fl = standing(&s, 0);
            for (t, &p) in pos.iter().enumerate() {
                fl.f[t].pos = p as f32;
                if fallen & (1 << t) != 0 {
                    fl.f[t].alive = false;
                }
            }
            for i in 0..8 {
                let scan = s.nearest_as::<false>(&fl, i);
                assert_eq!(
                    s.nearest_as::<true>(&fl, i),
                    scan,
                    "{pos:?} {fallen:b} unit {i}"
                );
            }
        }
        // A move marks the mover's front stale; the next question rebuilds it.
        let mut fl = standing(&s, 24);
        assert_eq!(s.nearest_as::<true>(&fl, 0), Some((24, 4)));
        fl.f[6].pos = 10.0;
        fl.moved(1);
        assert_eq!(s.nearest_as::<true>(&fl, 0), Some((10, 6)));
        fl.f[6].alive = false;
        fl.moved(1);
        assert_eq!(s.nearest_as::<true>(&fl, 0), Some((24, 4)));
    }

    #[test]
    fn a_front_rebuilt_through_steps_and_falls_matches_the_scan() {
        // Ten thousand seeded steps and falls, each told to the field as the battle tells
        // it; after each, every unit's nearest enemy by its front is the full scan's, and
        // its focus target among the front's standing units is the roster search's.
        use rand::RngExt as _;
        let o = RuleOptions::default();
        let s = squad(
            &[("minifig-hand-weapon", 5)],
            &[("minifig-hand-weapon", 5)],
            0,
            o,
        );
        let mut rng = crate::sim::stream(11, 0, 0);
        let mut checked = 0;
        for _ in 0..200 {
            let mut fl = standing(&s, 0);
            for t in 0..10 {
                fl.f[t].pos = rng.random_range(-6..30) as f32;
            }
            fl.moved(0);
            fl.moved(1);
            for _ in 0..50 {
                let j = rng.random_range(0..10);
                if !fl.f[j].alive {
                    continue;
                }
                if rng.random_range(0..8) == 0 {
                    fl.f[j].alive = false;
                } else {
                    fl.f[j].pos += rng.random_range(-4..=4) as f32;
                }
                fl.moved(fl.f[j].side);
                for i in 0..10 {
                    let scan = s.nearest_as::<false>(&fl, i);
                    assert_eq!(s.nearest_as::<true>(&fl, i), scan, "unit {i}");
                    checked += scan.is_some() as u32;
                    // The focus pick over the front's standing units, too.
                    assert_eq!(
                        s.pick::<true>(&fl, i, Mode::Ranged, 12),
                        s.pick::<false>(&fl, i, Mode::Ranged, 12),
                        "unit {i}"
                    );
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn a_faster_unit_holds_outside_the_enemys_reach_and_strikes_first() {
        // Move 8 against Move 5, 12" apart, A first. A out-reaches B (8" + 1" against
        // 5" + 1"), so it stops half an inch outside B's reach, 6.5" away, its Action saved.
        // B cannot reach and gains nothing by waiting, but walking 5" would stop it in A's
        // Angry Inch: it lines up 2.5" from A. A waits; B walks in, and A steps the Angry
        // Inch and strikes first (Ch. 4.3): hit (3), Damage 5 > 4, in player turn 4.
        let o = RuleOptions::default();
        let s = Squad::new(movers(8, 1, &o), side(&[MF], &o), 12, First::A, 4, o).unwrap();
        let out = run(&s, &[(D6, 3), (D6, 5)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 4));
        let mut fl = standing(&s, 24);
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        assert_eq!(fl.f[0].pos, 24.0 - 13.0, "6.5\" from B");
        // `advance`: A walks 8" to 4" away; B closes into contact and A's Response
        // strikes first anyway, but A did not choose the ground.
        let mut fast = movers(8, 1, &o);
        fast.policy.position = Position::Advance;
        let s = Squad::new(fast, side(&[MF], &o), 12, First::A, 4, o).unwrap();
        let mut fl = standing(&s, 24);
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        assert_eq!(fl.f[0].pos, 16.0);
    }

    #[test]
    fn issue_40_a_holding_unit_lines_up_outside_the_angry_inch_then_closes() {
        // Two minifigs 6" apart, B's Action saved. A cannot strike unanswered: its 5" walk
        // into contact would stop in B's Angry Inch, so it stops 2.5" from B instead (no
        // die). From there it closes: B's Response strikes first (a 1 misses), then A (a
        // 1). With B's Action spent A walks straight into contact and strikes (a 1).
        let o = RuleOptions::default();
        let s = squad_on_spot(&[MF], &[MF], 0, o);
        let mut fl = standing(&s, 12);
        fl.f[1].saved = true;
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        assert_eq!((fl.gap(0, 1), fl.f[1].saved), (5, true));
        let mut dice = Script::new(&[(D6, 1), (D6, 1)]);
        fl.f[0].acted = false;
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].saved && fl.gap(0, 1) <= CONTACT);
        let mut fl = standing(&s, 12);
        fl.f[1].saved = false;
        let mut dice = Script::new(&[(D6, 1)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.gap(0, 1) <= CONTACT);
        // A grenadier's 3" takes in the edge: no line-up, A walks in; the grenadier's
        // Response strikes first with its Hand Weapon (a 1), then A (a 1).
        let s = squad_on_spot(&[MF], &[("minifig-grenadier", 1)], 0, o);
        let mut fl = standing(&s, 12);
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 1), (D6, 1)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].saved && fl.gap(0, 1) <= CONTACT);
        // `advance` walks into reach whatever waits there: B strikes first.
        let mut a = side_on_spot(&[MF], &o);
        a.policy.position = Position::Advance;
        let s = Squad::new(a, side_on_spot(&[MF], &o), 0, First::A, 1, o).unwrap();
        let mut fl = standing(&s, 12);
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 1), (D6, 1)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].saved);
    }

    #[test]
    fn issue_40_off_the_line_a_unit_steps_into_its_targets_angry_inch_alone() {
        // A 2.5" from B1; B2 1.5" to B1's side; both Actions saved. Into contact with B1,
        // A would stand within 2" of B2 as well (two first strikes); half an inch on, it
        // stands in B1's Angry Inch alone. B1 steps in and strikes (a 1 misses), then A
        // strikes back (a 1); B2 keeps its Action.
        let o = RuleOptions::default();
        let mut s = squad(&[MF], &[(MF.0, 2)], 0, o);
        s.flat = false;
        s.line = None;
        let mut fl = s.start();
        fl.flat = false;
        (fl.f[0].pos, fl.lat[0]) = (0.0, 0.0);
        (fl.f[1].pos, fl.lat[1]) = (5.0, 0.0);
        (fl.f[2].pos, fl.lat[2]) = (5.0, 3.0);
        fl.f[1].saved = true;
        fl.f[2].saved = true;
        fl.moved(0);
        fl.moved(1);
        let mut dice = Script::new(&[(D6, 1), (D6, 1)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(
            (fl.f[0].pos, fl.f[1].saved, fl.f[2].saved),
            (1.0, false, true)
        );
    }

    #[test]
    fn a_unit_ready_from_the_start_responds_to_the_first_charge() {
        // 6" apart, A first (`advance`: it closes at once): A can close and strike, but B
        // has taken no Action yet and stands ready (`opening_response = ready`): B strikes
        // first (hit 2, Damage 5 > 4).
        let o = RuleOptions::default();
        let charger = |o: &RuleOptions| {
            let mut a = side(&[MF], o);
            a.policy.position = Position::Advance;
            a
        };
        let s = Squad::new(charger(&o), side(&[MF], &o), 6, First::A, 1, o).unwrap();
        let out = run(&s, &[(D6, 2), (D6, 5)]);
        assert_eq!(out.winner, Some(Side::B));
        // Under `hold` A lines up 2.5" from B instead, out of its Angry Inch: no die.
        let s = Squad::new(side(&[MF], &o), side(&[MF], &o), 6, First::A, 1, o).unwrap();
        let out = run(&s, &[]);
        assert_eq!(out.winner, None);
        // `none`: B has no previous turn, so no saved Action; A strikes first.
        let mut none = o;
        none.opening_response = OpeningResponse::None;
        let s = Squad::new(charger(&none), side(&[MF], &none), 6, First::A, 1, none).unwrap();
        let out = run(&s, &[(D6, 2), (D6, 5)]);
        assert_eq!(out.winner, Some(Side::A));
    }

    #[test]
    fn issue_47_a_response_that_cannot_strike_keeps_its_action() {
        // Two minifigs walk 5" at four, 6" away, all ready (one turn). A1 closes into contact
        // with all four; B1, B2 and B3 respond (Critical Failures, 1s): three engage it, the
        // Close Combat limit for an inch of Size (Ch. 10.4), so B4 cannot strike it and
        // keeps its Action and its place. A1 attacks B1 (1, a miss). A2 closes; B4 answers it
        // (hit 2, Damage 5 > 4) and A2 falls before it strikes. Every form plays it so.
        use crate::dice::Narration;
        use crate::scenario::Scenario;
        let o = RuleOptions::default();
        let mut a = side_on_spot(&[("minifig-hand-weapon", 2)], &o);
        a.policy.position = Position::Advance;
        let b = side_on_spot(&[("minifig-hand-weapon", 4)], &o);
        let s = Squad::new(a, b, 6, First::A, 1, o).unwrap();
        let script = [(D6, 1), (D6, 1), (D6, 1), (D6, 1), (D6, 2), (D6, 5)];
        let mut plain = s.clone();
        plain.line = None;
        let mut general = plain.clone();
        general.plain = false;
        assert!(
            s.line.is_some() && plain.plain,
            "the battle qualifies for every form"
        );
        for (form, sq) in [("line", &s), ("plain", &plain), ("general", &general)] {
            let out = run(sq, &script);
            assert_eq!(out.survivors, [1, 4], "{form}");
        }
        // Narrated: a unit "responds" only to attack, and B4 responds once, to A2.
        let mut dice = Script::new(&script);
        let mut told = Narration::default();
        let out = s.trial(&mut dice, &mut told);
        assert!(dice.is_done());
        assert_eq!(out.survivors, [1, 4]);
        let notes = told.notes();
        let responses: Vec<usize> = (0..notes.len())
            .filter(|&n| notes[n].contains("responds"))
            .collect();
        assert_eq!(responses.len(), 4, "{notes:#?}");
        for &n in &responses {
            assert!(notes[n + 1].contains("attacks"), "{notes:#?}");
        }
        let b4 = responses[3];
        assert!(
            notes[b4].contains("B4") && notes[b4 + 1].contains("A2"),
            "{notes:#?}"
        );
    }

    #[test]
    fn a_short_close_lands_together_under_ch_4_3_timing() {
        // B 1.5" from A, both ready. A steps half an inch into contact, less than a full
        // inch inside B's reach (Ch. 4.3), and attacks.
        let mk = |order: ResponseOrder| {
            let mut o = RuleOptions::default();
            o.response_order = order;
            Squad::new(side(&[MF], &o), side(&[MF], &o), 0, First::A, 1, o).unwrap()
        };
        let script = [(D6, 2), (D6, 6), (D6, 1), (D6, 3), (D6, 5)];
        // `timing`: B's Response (hit 2, Damage 6 + 1) and A's attack (hit 3, Damage 5)
        // land together: both fall.
        let s = mk(ResponseOrder::Timing);
        let mut fl = standing(&s, 3);
        fl.f[1].saved = true;
        let mut dice = Script::new(&script);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(fl.alive, [0, 0], "both attacks land");
        // `counter` (Ch. 4.1): B strikes first and A, slain, never Counters.
        let s = mk(ResponseOrder::Counter);
        let mut fl = standing(&s, 3);
        fl.f[1].saved = true;
        let mut dice = Script::new(&script[..3]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(fl.alive, [0, 1]);
        // `roll_off`: same speed, so Skill roll-off: A's 4 beats B's 2, A first (hit 3,
        // Damage 5): B falls before it strikes.
        let s = mk(ResponseOrder::RollOff);
        let mut fl = standing(&s, 3);
        fl.f[1].saved = true;
        let mut dice = Script::new(&[(D6, 2), (D6, 4), (D6, 3), (D6, 5)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(fl.alive, [1, 0]);
    }

    #[test]
    fn heavy_armor_spends_a_turn_standing_up() {
        // Ch. 4.1: a Heavy Armored minifig recovering from Disruption uses up its Movement
        // and its Action: no roll, no step, no Response left.
        let o = RuleOptions::default();
        let s = Squad::new(
            side(&[("minifig-hand-weapon+heavy-armor", 1)], &o),
            side(&[MF], &o),
            0,
            First::A,
            1,
            o,
        )
        .unwrap();
        let mut fl = standing(&s, 8);
        fl.f[0].recovering = true;
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        assert_eq!((fl.f[0].pos, fl.f[0].acted), (0.0, true));
        // Recovering without Heavy Armor: Half Speed, 2.5" toward the enemy.
        let s = Squad::new(side(&[MF], &o), side(&[MF], &o), 0, First::A, 1, o).unwrap();
        let mut fl = standing(&s, 20);
        fl.f[0].recovering = true;
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        assert_eq!((fl.f[0].pos, fl.f[0].acted), (5.0, false));
    }

    /// Where a lone `unit` that Sprints (policy `close`, advancing) 15" from a minifig
    /// that never Responds stands after its turn, in half-inches, on the dice `rolls`.
    fn sprinted(unit: &str, o: RuleOptions, rolls: &[(Die, u32)]) -> i32 {
        let mut a = side(&[(unit, 1)], &o);
        a.policy.sprint = Sprint::Close;
        a.policy.position = Position::Advance;
        let mut b = side(&[MF], &o);
        b.policy.response = Response::None;
        let s = Squad::new(a, b, 0, First::A, 1, o).unwrap();
        let mut fl = standing(&s, 30);
        let mut dice = Script::new(rolls);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.f[0].acted, "{unit} Sprints");
        fl.f[0].pos as i32
    }

    #[test]
    fn issue_40_heavy_armor_halves_a_sprint_as_it_halves_a_walk() {
        // Ch. 4.1 Sprint: "Minifigs moving at Half Speed can still put in the extra effort
        // to Sprint, but the extra Sprint inches are also at Half Speed". A Sprint roll of
        // 2 (no Benny): without Heavy Armor 5" + 2" = 7"; in Heavy Armor half of it, 3.5"
        // (4.5" before: the Move halved, the Sprint not).
        let o = RuleOptions::default();
        assert_eq!(sprinted("minifig-hand-weapon", o, &[(D6, 2)]), 14, "7\"");
        assert_eq!(
            sprinted("minifig-hand-weapon+heavy-armor", o, &[(D6, 2)]),
            7,
            "3.5\""
        );
    }

    #[test]
    fn issue_40_a_sprint_s_critical_failure_adds_its_one_or_nothing_by_option() {
        // A Sprint roll of 1: 5" + 1" = 6" by default; under `sprint_fumble=nothing` the
        // Critical Failure adds nothing (5"). The Action is spent either way.
        for (reading, at) in [(SprintFumble::Adds, 12), (SprintFumble::Nothing, 10)] {
            let o = RuleOptions {
                sprint_fumble: reading,
                ..RuleOptions::default()
            };
            assert_eq!(
                sprinted("minifig-hand-weapon", o, &[(D6, 1)]),
                at,
                "{reading:?}"
            );
        }
    }

    #[test]
    fn issue_40_a_unit_with_nothing_to_respond_with_is_no_reason_to_hold_back() {
        // A Hand-Weapon minifig 3" from a minifig with a Launcher on a carriage (Half Speed,
        // so its threat, 2.5" + contact, is short of the swordsman's) and a saved Action.
        // Explosives are never fired in a Response (Ch. 4.3 takes an attack), so the
        // Launcher strikes no one first: under `hold` the swordsman closes all the way.
        let o = RuleOptions::default();
        let s = squad(&[MF], &[("minifig-launcher", 1)], 3, o);
        let mut fl = s.start();
        fl.f[1].saved = true;
        assert_eq!(s.hold_want(&fl, 0, 1, 6, 6 - CONTACT, true), 6 - CONTACT);
        // Give the Launcher a Hand Weapon and its Response would strike first: it waits.
        let s = squad(&[MF], &[("minifig-launcher+hand-weapon", 1)], 3, o);
        let mut fl = s.start();
        fl.f[1].saved = true;
        assert_eq!(s.hold_want(&fl, 0, 1, 6, 6 - CONTACT, true), 0);
    }

    #[test]
    fn issue_40_half_speed_does_not_halve_twice() {
        // "If a minifig is already reduced to Half Speed, additional Half Speed conditions
        // have no effect" (Ch. 4.1). Every Half-Speed kind in the catalog wears Heavy
        // Armor, which spends its recovery standing up; so a Heavy Armored kind stripped of
        // that rule stands for any other burden: recovering, it walks its Half-Speed 2.5",
        // not 1.25".
        let o = RuleOptions::default();
        let mut a = side(&[("minifig-hand-weapon+heavy-armor", 1)], &o);
        a.policy.position = Position::Advance;
        let mut s = Squad::new(a, side(&[MF], &o), 0, First::A, 1, o).unwrap();
        let k = s.roster[0].1 as usize;
        s.kinds[k].heavy_armor = false;
        assert!(s.kinds[k].half_speed);
        let mut fl = standing(&s, 30);
        fl.f[0].recovering = true;
        s.act(&mut fl, 0, &mut Script::new(&[]), &mut NoLog);
        assert_eq!(fl.f[0].pos, 5.0, "2.5\"");
    }

    #[test]
    fn an_overskill_benny_adds_a_d6_to_a_sprint() {
        // 15" apart, Sprint policy: 5" of Move, a Sprint roll of 6 (an Overskill Benny) makes
        // 11" of the 14" wanted; the Benny's d6 (3) adds 3": into contact (Ch. 4.2).
        let o = RuleOptions::default();
        assert_eq!(sprinted(MF.0, o, &[(D6, 6), (D6, 3)]), 28);
        // `overskill = damage` never spends it on inches.
        let mut dm = o;
        dm.overskill = crate::rules::OverskillPolicy::Damage;
        assert_eq!(sprinted(MF.0, dm, &[(D6, 6)]), 22);
    }

    #[test]
    fn a_saved_action_strikes_the_unit_that_closes_in() {
        // 8" apart. Turn 1: A moves 5" (3" left), cannot attack, saves its Action. Turn 2: B
        // (`advance`: it does not line up outside A's Angry Inch) moves 2" into contact; A's
        // Response comes first (Ch. 4.1): hit (4), Damage 3, no effect. B survives and
        // attacks: hit (5), Damage 6 > 4. A dies.
        let ro = RuleOptions::default();
        let mut b = side(&[MF], &ro);
        b.policy.position = Position::Advance;
        let s = Squad::new(side(&[MF], &ro), b, 8, First::A, 100, ro).unwrap();
        let o = run(&s, &[(D6, 4), (D6, 3), (D6, 5), (D6, 6), (D6, 2)]);
        assert_eq!(o.winner, Some(Side::B));
        assert_eq!(o.turns, 2);
        // With no Response, B strikes first and A never rolls: B's 6 earns an Overskill
        // Benny, which adds a Damage die (auto): 1 + 2 = 3, no effect; then A's turn 3.
        let ro = RuleOptions::default();
        let mut a = side(&[MF], &ro);
        a.policy.response = Response::None;
        let s = Squad::new(a, side(&[MF], &ro), 8, First::A, 3, ro).unwrap();
        let o = run(&s, &[(D6, 6), (D6, 1), (D6, 2), (D6, 1)]);
        assert_eq!(o.winner, None, "a draw at the 3-turn limit");
        assert_eq!(o.turns, 3);
    }

    #[test]
    fn issue_48_a_shooter_answers_only_a_move_of_an_inch_or_more() {
        // Ch. 4.3, `response = all`: a rifleman with a saved Action shoots an enemy that ends
        // a move of at least an inch within its Range; a half-inch step draws no shot. The
        // general turn and its plain form alike.
        let s = squad_on_spot(&[("minifig-rifle", 1)], &[MF], 6, RuleOptions::default());
        for plain in [false, true] {
            let mut fl = s.start();
            assert!(fl.f[0].saved, "ready before its first turn");
            let answer = |fl: &mut Field, by: i32, script: &[(crate::dice::Die, u32)]| {
                let from = fl.at(1);
                fl.walk(1, 0, by);
                let mut dice = crate::dice::Script::new(script);
                let _ = if plain {
                    s.respond::<true, _, _>(fl, 1, from, false, &mut dice, &mut NoLog)
                } else {
                    s.respond::<false, _, _>(fl, 1, from, false, &mut dice, &mut NoLog)
                };
                assert!(dice.is_done());
            };
            answer(&mut fl, 1, &[]);
            assert!(fl.f[0].saved, "half an inch: no shot");
            // An inch: the shot (a natural 1, a Critical Failure) spends the Action.
            answer(&mut fl, 2, &[(D6, 1)]);
            assert!(!fl.f[0].saved);
        }
    }

    #[test]
    fn shooters_fire_from_range_without_closing() {
        // A Short-Ranged Weapon (6") at 6": A shoots at once; B (a Hand Weapon) must walk.
        let s = squad(&[("minifig-pistol", 1)], &[MF], 6, RuleOptions::default());
        // A: 3 meets Use 3, Damage 5 > 4.
        let o = run(&s, &[(D6, 3), (D6, 5)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
    }

    #[test]
    fn sprinting_closes_the_gap_but_spends_the_action() {
        // 12" apart, Sprint policy close: A moves 5" and Sprints a Skill roll of 4 (9" of 11"
        // wanted); no attack. B then walks 2" into contact; A's Action went on the Sprint, so
        // no Response: B attacks (2 hits, Damage 1).
        let ro = RuleOptions::default();
        let mut a = side(&[MF], &ro);
        a.policy.sprint = Sprint::Close;
        let mut s = Squad::new(a, side(&[MF], &ro), 12, First::A, 2, ro).unwrap();
        s.max_turns = 2;
        let o = run(&s, &[(D6, 4), (D6, 2), (D6, 1)]);
        assert_eq!(o.winner, None);
    }

    #[test]
    fn knockback_pushes_smaller_targets_away() {
        // Ch. 8.1: the Automaton's 3" Giant Sword knocks a 1" minifig back 2" (4 half-inches),
        // away from the attacker; `disrupt` also knocks him over; `off` does nothing.
        for (kb, pos, disrupted) in [
            (Knockback::Push, 4, false),
            (Knockback::Disrupt, 4, true),
            (Knockback::Off, 0, false),
        ] {
            let mut o = RuleOptions::default();
            o.knockback = kb;
            let s = Squad::new(
                side(&[("automaton", 1)], &o),
                side(&[MF], &o),
                0,
                First::A,
                1,
                o,
            )
            .unwrap();
            let mut fl = standing(&s, 0);
            s.knock_back(&mut fl, 0, 0, 1, &mut NoLog);
            assert_eq!(
                (fl.f[1].pos, fl.f[1].disrupted),
                (pos as f32, disrupted),
                "{kb:?}"
            );
            // The minifig's Hand Weapon has no Weapon Size: no KnockBack on the Automaton.
            s.knock_back(&mut fl, 1, 0, 0, &mut NoLog);
            assert_eq!(fl.f[0].pos, 0.0);
        }
    }
}
