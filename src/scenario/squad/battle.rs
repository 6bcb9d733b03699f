//! One squad duel, turn by turn (see the module overview in `squad`). All state lives in a
//! fixed array on the stack, so a trial allocates nothing. The creatures with rules of
//! their own have rooms of their own: SuperNatural units in [`sorcery`], Summoned Diemons
//! in [`diemons`], burning minifigs in [`fire`], Mediks in
//! [`medik`], lost limbs in [`limbs`], Constructs in [`constructs`], Masters and Thralls in
//! [`thralls`].

mod constructs;
mod diemons;
mod fire;
mod limbs;
mod medik;
mod sorcery;
mod thralls;

use std::cmp::Ordering;

use super::roster::MAX_PER_SIDE;
use super::tally::TRACK;
use super::{Response, Sprint, Squad, SquadOutcome, SquadTally, Targeting};
use crate::analysis::Estimate;
use crate::dice::{Faces, Log};
use crate::rules::attack::{Deflection, Hit};
use crate::rules::{ContagionRise, Knockback, Parry, Stupidity};
use crate::rules::{combat, contagion};
use crate::scenario::Scenario;
use crate::scenario::duel::Side;

/// Within an inch is Close Combat reach (Ch. 4.3's "Angry Inch"); positions are half-inches.
const CONTACT: i32 = 2;
const SLOTS: usize = 2 * MAX_PER_SIDE as usize;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    Close,
    Ranged,
}

/// One unit's state in a trial.
#[derive(Copy, Clone, Debug)]
struct Figure {
    kind: u16,
    side: u8,
    alive: bool,
    /// Half-inches along the line.
    pos: i32,
    /// Effective Size (Size Damage lowers it).
    size: u32,
    /// An Action saved from its own last turn, for a Response (Ch. 4.3).
    saved: bool,
    acted: bool,
    disrupted: bool,
    recovering: bool,
    /// Close Combat attackers this turn (the three-per-inch limit).
    engaged: u16,
    /// Attacks received this turn (the `spread` policy).
    targeted: u16,
    /// Cumulative Vermin Damage this turn and the Armor it is rolled against (Ch. 10.4).
    swarm: Pool,
    /// Weapons used this turn (bit per weapon) and the Power they took (Ch. 8.1).
    used: u64,
    power_used: u32,
    /// Cumulative Damage of the weapons of one Multidexterity Action, and its Armor roll.
    combo: Pool,
    /// Its shield was knocked away by a critically failed Parry (Ch. 8.2).
    shield_lost: bool,
    /// Its Mind was destroyed by Monstrous Contagion: it rises as `rise_as` on side
    /// `rise_side` at the beginning of that side's next turn (Ch. 10.4).
    comatose: bool,
    rise_as: u16,
    rise_side: u8,
    /// Its SN dice (bit per die of its kind) spent this turn, and out in Lasting Effects;
    /// `ward` are those on its own Armor (Ch. D.3, D.4).
    spent: u8,
    lasting: u8,
    ward: u8,
    /// A Blessing on it: 1 + the SN die's index in `Die::ALL` (with `sorcery::CURSE` set,
    /// a Curse), and 1 + its caster's slot.
    blessing: u8,
    blesser: u8,
    /// An Instant Benny from a Sacrificed Thrall: 1 + the index in `Die::ALL` of the die
    /// (Ch. 10.4 Masters and Thralls); gone at the end of its side's turn.
    benny: u8,
    /// Spawned this turn: it has its Move but no Action (Ch. 10.4 Spawners).
    spawned: bool,
    /// Amputations from Ker-Triage! or fire ([`limbs::BEYOND`]: its head, beyond revival).
    lost: u8,
    /// On fire (Ch. 8.3).
    burning: bool,
}

const EMPTY: Figure = Figure {
    kind: 0,
    side: 0,
    alive: false,
    pos: 0,
    size: 0,
    saved: false,
    acted: false,
    disrupted: false,
    recovering: false,
    engaged: 0,
    targeted: 0,
    swarm: Pool::EMPTY,
    used: 0,
    power_used: 0,
    combo: Pool::EMPTY,
    shield_lost: false,
    comatose: false,
    rise_as: 0,
    rise_side: 0,
    spent: 0,
    lasting: 0,
    ward: 0,
    blessing: 0,
    blesser: 0,
    spawned: false,
    benny: 0,
    lost: 0,
    burning: false,
};

/// Cumulative Damage on one target and the Armor it is rolled against, rolled once. Kept in
/// 32 bits (with a sentinel for "not rolled yet") so that a [`Figure`] stays 64 bytes: the
/// trial initialises every slot, and a larger one slowed every squad duel.
#[derive(Copy, Clone, Debug)]
struct Pool {
    damage: i32,
    armor: i32,
}

impl Pool {
    const NOT_ROLLED: i32 = i32::MIN;
    const EMPTY: Pool = Pool {
        damage: 0,
        armor: Pool::NOT_ROLLED,
    };

    /// Adds `damage` and rolls the pool's Armor the first time: (pooled Damage, Armor).
    #[inline(always)]
    fn add(&mut self, damage: i64, roll: impl FnOnce() -> i64) -> (i64, i64) {
        // Same sums as 64-bit ones for any Damage a roll can make.
        self.damage =
            (self.damage as i64 + damage).clamp(-(i32::MAX as i64), i32::MAX as i64) as i32;
        if self.armor == Pool::NOT_ROLLED {
            self.armor = roll().clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32;
        }
        (self.damage as i64, self.armor as i64)
    }
}

/// An attack's kind as narration names it, formatted only when a log keeps notes.
struct How(Mode, i32);

impl std::fmt::Display for How {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Mode::Close => f.write_str("Close Combat"),
            Mode::Ranged => write!(f, "ranged, {}\"", self.1 as f64 / 2.0),
        }
    }
}

/// A unit as narration names it: "A2 minifig-hand-weapon".
struct Who<'a>(&'a Squad, &'a Field, usize);

impl std::fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Who(s, fl, i) = *self;
        if i >= s.units {
            // "A1 pyromantik's 4pion": named by its summoner.
            let c = s.pions[i - s.units].0 as usize;
            return write!(
                f,
                "{}'s {}",
                Who(s, fl, c),
                s.kinds[fl.f[i].kind as usize].key
            );
        }
        // Named by its place in the roster, whichever side it fights for now.
        let side = s.roster[i].0;
        let n = i - s.own(side).start + 1;
        let name = if side == 0 { 'A' } else { 'B' };
        write!(f, "{name}{n} {}", s.kinds[fl.f[i].kind as usize].key)
    }
}

struct Field {
    f: [Figure; SLOTS],
    alive: [u32; 2],
    ties: u32,
    /// Minds destroyed by Monstrous Contagion.
    converted: u32,
    /// Fallen units revived by Mediks.
    revived: u32,
    /// Thralls fallen since the last Sacrifices were resolved (bit per slot).
    fallen_thralls: u128,
    /// Useless Half-Minded units this turn: Move or Action, not both (bit per slot).
    restricted: u128,
    /// Units standing on each side, and Minds converted so far, after each player turn.
    standing: [[u8; TRACK]; 2],
    converted_by: [u8; TRACK],
}

impl Field {
    /// An empty field with `alive` units a side (the slots are filled by the caller).
    /// Inlined so the 8 KB field is built in place, not copied.
    #[inline(always)]
    fn new(alive: [u32; 2]) -> Field {
        Field {
            f: [EMPTY; SLOTS],
            alive,
            ties: 0,
            converted: 0,
            revived: 0,
            fallen_thralls: 0,
            restricted: 0,
            standing: [[0; TRACK]; 2],
            converted_by: [0; TRACK],
        }
    }
}

/// A field with every fielded unit standing, side B `gap` half-inches from side A: for
/// tests that drive one step of a turn.
#[cfg(test)]
fn standing(s: &Squad, gap: i32) -> Field {
    let mut fl = Field::new([s.count[0] as u32, s.count[1] as u32]);
    for (slot, &(side, kind)) in fl.f.iter_mut().zip(&s.roster).take(s.units) {
        *slot = Figure {
            kind,
            side,
            alive: true,
            size: s.kinds[kind as usize].size,
            pos: if side == 0 { 0 } else { gap },
            ..EMPTY
        };
    }
    fl
}

impl Squad {
    /// The roster's slots of a side as first fielded (for names).
    fn own(&self, side: u8) -> std::ops::Range<usize> {
        if side == 0 {
            0..self.count[0]
        } else {
            self.count[0]..self.count[0] + self.count[1]
        }
    }

    /// The unit of `side` with the least `key` (ties to the lower slot), over the slots
    /// fighting for `side` now. Only Contagion and Stupidity move a unit between sides;
    /// without them the roster's range is scanned as is: two plain loops, because a
    /// side-checking filter on every scan cost squad duels a tenth of their speed.
    #[inline(always)]
    fn least<K: Ord + Copy>(
        &self,
        fl: &Field,
        side: u8,
        key: impl Fn(usize) -> Option<K>,
    ) -> Option<(K, usize)> {
        let mut best: Option<(K, usize)> = None;
        let mut see = |t: usize| {
            if let Some(k) = key(t)
                && best.is_none_or(|b| (k, t) < b)
            {
                best = Some((k, t));
            }
        };
        if self.sides_move {
            for t in 0..self.roster.len() {
                if fl.f[t].side == side {
                    see(t);
                }
            }
        } else {
            for t in self.own(side) {
                see(t);
            }
        }
        best
    }

    /// The distance in half-inches to the nearest living enemy, and that enemy.
    fn nearest(&self, fl: &Field, i: usize) -> Option<(i32, usize)> {
        let me = fl.f[i];
        self.least(fl, 1 - me.side, |t| {
            fl.f[t].alive.then(|| (fl.f[t].pos - me.pos).abs())
        })
    }

    /// Whether unit `i` can attack anyone from where it stands.
    fn can_attack(&self, fl: &Field, i: usize) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        let reach = k.reach().map_or(CONTACT, |r| (2 * r as i32).max(CONTACT));
        self.nearest(fl, i).is_some_and(|(d, _)| d <= reach)
    }

    /// Whether some weapon of unit `i` reaches the nearest enemy.
    fn weapon_reaches(&self, fl: &Field, i: usize) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        self.nearest(fl, i).is_some_and(|(d, _)| {
            k.arms
                .iter()
                .any(|a| (a.close && d <= CONTACT) || a.range.is_some_and(|r| 2 * r as i32 >= d))
        })
    }

    /// Unit `i`'s turn. Called from one place (the trial's loop): with a second caller
    /// LLVM stops inlining it and every squad duel runs slower.
    #[inline]
    fn act<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        // Fire needs SN d4s, so one check of `any_sn` keeps plain duels fast.
        if self.any_sn {
            if self.any_fire {
                if i >= self.units {
                    return self.fourpion_turn(fl, i, faces, log);
                }
                if fl.f[i].burning {
                    self.burn(fl, i, faces, log);
                }
            }
            if !fl.f[i].disrupted && !self.kinds[fl.f[i].kind as usize].sn.is_empty() {
                self.sn_turn(fl, i, faces, log);
                if !fl.f[i].alive || self.over(fl) {
                    return;
                }
            }
        }
        if fl.f[i].disrupted {
            return;
        }
        if self.any_medik
            && self.kinds[fl.f[i].kind as usize].medik.is_some()
            && self.medik_turn(fl, i, faces, log)
        {
            return;
        }
        // "Spawning uses up a spawned unit's Action for the turn" (Ch. 10.4).
        let may_act = !(self.any_spawner && fl.f[i].spawned);
        if may_act && self.any_sn && self.sn_effect_first(fl, i) && self.effect(fl, i, faces, log) {
            fl.f[i].acted = true;
            return;
        }
        if may_act && self.can_attack(fl, i) {
            let a = self.attack_turn(fl, i, faces, log);
            fl.f[i].acted |= a;
            return;
        }
        let Some((d, t)) = self.nearest(fl, i) else {
            return;
        };
        let k = &self.kinds[fl.f[i].kind as usize];
        let stop_at = k.reach().map_or(CONTACT, |r| 2 * r as i32);
        let want = (d - stop_at).max(0);
        let mut step = if self.any_limbs {
            self.step(fl, i)
        } else {
            k.move_halves
        };
        let legless = |fl: &Field| self.any_limbs && self.legless(fl, i);
        if self.any_sn
            && step < want
            && !self.kinds[fl.f[i].kind as usize].sn.is_empty()
            && !legless(fl)
        {
            step += self.sn_walk(fl, i, want - step, faces, log);
        }
        if fl.f[i].recovering {
            step /= 2; // Ch. 4.1: "Recovering after being Disrupted: Half Speed (1 turn)"
        }
        // A unit without legs "may not Sprint" (Ch. 10.2).
        if self.policy[fl.f[i].side as usize].sprint == Sprint::Close && step < want && !legless(fl)
        {
            // Ch. 4.1 Sprint: + Skill roll inches (Bonus Dice included); costs the Action.
            let r = self.skill_of(fl, i).roll(faces, log, 0);
            let burn = self.fire_penalty(fl, i, faces, log);
            let mut extra = 2 * (r.total + self.penalty(fl, i) + burn).max(0) as i32;
            if fl.f[i].recovering {
                extra /= 2;
            }
            step += extra;
            fl.f[i].acted = true;
        }
        let moved = step.min(want);
        let dir = (fl.f[t].pos - fl.f[i].pos).signum();
        fl.f[i].pos += dir * moved;
        log.note(format_args!(
            "  {} moves {}\"{}, {}\" from the nearest enemy",
            Who(self, fl, i),
            moved as f64 / 2.0,
            if fl.f[i].acted { " (Sprinting)" } else { "" },
            (d - moved) as f64 / 2.0
        ));
        self.respond(fl, i, moved, faces, log);
        // A useless Half Mind is directed to Move or to act, not both (Ch. 10.1).
        if self.any_useless && fl.restricted & (1 << i) != 0 {
            return;
        }
        if !may_act || !fl.f[i].alive || fl.f[i].disrupted || fl.f[i].acted || self.over(fl) {
            return;
        }
        if self.any_sn && self.sn_effect_first(fl, i) {
            fl.f[i].acted |= self.effect(fl, i, faces, log);
            return;
        }
        if self.can_attack(fl, i) {
            let a = self.attack_turn(fl, i, faces, log);
            fl.f[i].acted |= a;
        }
    }

    /// Enemies with a saved Action strike the unit that just moved (policy `response`).
    fn respond<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        mover: usize,
        moved: i32,
        faces: &mut F,
        log: &mut L,
    ) {
        let them = 1 - fl.f[mover].side;
        let policy = self.policy[them as usize].response;
        if policy == Response::None {
            return;
        }
        let slots = if self.sides_move {
            0..self.roster.len()
        } else {
            self.own(them)
        };
        for j in slots {
            if !fl.f[mover].alive {
                return;
            }
            let r = fl.f[j];
            if r.side != them || !r.alive || !r.saved || r.disrupted {
                continue;
            }
            let d = (r.pos - fl.f[mover].pos).abs();
            let k = &self.kinds[r.kind as usize];
            let in_range = k.reach().is_some_and(|x| 2 * x as i32 >= d);
            let strikes = d <= CONTACT || (policy == Response::All && moved >= 2 && in_range);
            if strikes {
                log.note(format_args!(
                    "  {} responds with its saved Action",
                    Who(self, fl, j)
                ));
                fl.f[j].saved = false;
                self.action(fl, j, Some(mover), faces, log);
            }
        }
    }

    /// A unit's Actions this turn: 1 + Multitasking, each with its own target and weapons.
    fn attack_turn<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let mut any = false;
        for _ in 0..self.kinds[fl.f[i].kind as usize].actions {
            if !self.action(fl, i, None, faces, log) {
                break;
            }
            any = true;
        }
        any
    }

    /// One Action: pick a target (or attack `forced`), then strike with up to 1 + extra
    /// weapons for Multidexterity, within the Power limit. Returns whether it attacked.
    fn action<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        forced: Option<usize>,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        let in_contact = self
            .least(fl, 1 - fl.f[i].side, |t| {
                (fl.f[t].alive && (fl.f[t].pos - fl.f[i].pos).abs() <= CONTACT).then_some(())
            })
            .is_some();
        let close = in_contact && k.arms.iter().any(|a| a.close);
        let (mode, reach) = if close {
            (Mode::Close, CONTACT)
        } else if let Some(r) = k.reach() {
            (Mode::Ranged, 2 * r as i32)
        } else {
            return false;
        };
        let target = match forced {
            Some(t) => {
                let d = (fl.f[t].pos - fl.f[i].pos).abs();
                (d <= reach && self.may_engage(fl, i, t, mode)).then_some(t)
            }
            None => self.pick(fl, i, mode, reach),
        };
        let Some(t) = target else {
            return false;
        };
        let dist = (fl.f[t].pos - fl.f[i].pos).abs();
        if mode == Mode::Close
            && self.kinds[fl.f[t].kind as usize].vermin
            && !fl.f[t].disrupted
            && fl.f[i].size >= 1
        {
            self.stomp(fl, i, t, faces, log);
            return true;
        }
        log.note(format_args!(
            "  {} attacks {} ({})",
            Who(self, fl, i),
            Who(self, fl, t),
            How(mode, dist)
        ));
        // Ch. 10.1 Multidexterity: "up to two additional weapons in Close Combat ... one
        // additional weapon in a Ranged attack".
        let most = 1 + match mode {
            Mode::Close => 2 * k.multidexterity,
            Mode::Ranged => k.multidexterity,
        };
        let power = k.power.inches(fl.f[i].size);
        let mut used = 0;
        // "Several attacks on one target in one action add their damage" (RULES-NOTES 2).
        let combine = most > 1;
        fl.f[t].combo = Pool::EMPTY;
        for (w, arm) in k.arms.iter().enumerate() {
            if used == most || !fl.f[t].alive {
                break;
            }
            let fits = match mode {
                Mode::Close => arm.close,
                Mode::Ranged => arm.range.is_some_and(|r| 2 * r as i32 >= dist),
            };
            let p = arm.power.unwrap_or(0);
            // Ch. 8.1 Power Limits: the sizes added together stay within Power.
            if !fits || fl.f[i].used & (1 << w) != 0 || fl.f[i].power_used + p > power {
                continue;
            }
            // Burning, it "is limited to using one of his two Hands at most" (Ch. 8.3);
            // fire comes with limbs, so it is checked under `any_limbs`.
            if self.any_limbs && (!self.wields(fl, i, arm) || (fl.f[i].burning && arm.hands > 1)) {
                continue;
            }
            fl.f[i].used |= 1 << w;
            fl.f[i].power_used += p;
            used += 1;
            log.note(format_args!("    with {}", arm.name));
            self.strike(fl, i, w, t, mode, combine, faces, log);
        }
        used > 0
    }

    /// Whether `i` may attack `t` this way: Vermin cannot engage the Armored or hard, and
    /// Close Combat takes three attackers per inch of target Size unless a pure Vermin swarm
    /// attacks (Ch. 10.4).
    fn may_engage(&self, fl: &Field, i: usize, t: usize, mode: Mode) -> bool {
        if mode == Mode::Ranged {
            return true;
        }
        let k = &self.kinds[fl.f[i].kind as usize];
        let kt = &self.kinds[fl.f[t].kind as usize];
        if k.vermin && !combat::vermin_can_engage(kt.structure, kt.armored) {
            return false;
        }
        let swarm = k.vermin && self.all_vermin[fl.f[i].side as usize];
        swarm || (fl.f[t].engaged as u32) < combat::close_combat_limit(fl.f[t].size)
    }

    /// The target policy's choice among the enemies `i` can reach.
    fn pick(&self, fl: &Field, i: usize, mode: Mode, reach: i32) -> Option<usize> {
        let me = fl.f[i];
        let policy = self.policy[me.side as usize].target;
        self.least(fl, 1 - me.side, |t| {
            let ok = fl.f[t].alive
                && (fl.f[t].pos - me.pos).abs() <= reach
                && self.may_engage(fl, i, t, mode);
            ok.then(|| match policy {
                Targeting::Focus => 0,
                Targeting::Spread => fl.f[t].targeted as i64,
                Targeting::Nearest => (fl.f[t].pos - me.pos).abs() as i64,
                Targeting::Threat => -self.kinds[fl.f[t].kind as usize].cp.in_quarters(),
            })
        })
        .map(|(_, t)| t)
    }

    /// One weapon's attack on `t`: modifiers, the Skill roll (or an Automatic Hit on a
    /// Disrupted target in Close Combat), then Damage against Armor.
    #[allow(clippy::too_many_arguments)]
    fn strike<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        mode: Mode,
        combine: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        let (ki, kt) = (fl.f[i].kind as usize, fl.f[t].kind as usize);
        let (att, tgt) = (&self.kinds[ki], &self.kinds[kt]);
        let plan = self.plan(ki, w, kt);
        fl.f[t].targeted += 1;
        if mode == Mode::Close {
            fl.f[t].engaged += 1;
        }
        let helpless = fl.f[t].disrupted || (self.any_limbs && self.legless(fl, t));
        let benny = if mode == Mode::Close && helpless {
            // Ch. 4.1: "Automatic Hits for attackers standing close enough to touch him"
            log.note(format_args!("    Automatic Hit on a Disrupted target"));
            false
        } else {
            let mut m = combat::target_size(fl.f[t].size, self.opts.target_size);
            if mode == Mode::Ranged {
                m += combat::cover(self.policy[fl.f[t].side as usize].cover);
                if fl.f[t].disrupted {
                    m += combat::DISRUPTED_RANGED;
                }
                if self.policy[fl.f[i].side as usize].blind {
                    m += combat::BLIND_FIRE;
                }
            }
            let hit = if self.any_sn {
                m += self.penalty(fl, i) + self.fire_penalty(fl, i, faces, log);
                plan.hit_as(self.skill_of(fl, i), faces, log, m)
            } else {
                plan.hit(faces, log, m)
            };
            let hit = if self.any_thrall && fl.f[i].benny != 0 {
                self.instant_benny_to_hit(fl, i, hit, faces, log)
            } else {
                hit
            };
            let hit = match hit {
                Hit::Miss { by } if self.any_sn && self.aim(fl, i, by, faces, log) => {
                    Hit::Hit { benny: false }
                }
                hit => hit,
            };
            match hit {
                Hit::Hit { benny } => {
                    log.note(format_args!("    hit (modifier {m:+})"));
                    benny
                }
                Hit::Miss { .. } => return log.note(format_args!("    miss (modifier {m:+})")),
                Hit::CriticalFailure => return log.note(format_args!("    Critical Failure")),
            }
        };
        if att.arms[w].contagion {
            return self.contagion(fl, i, w, t, mode, benny, faces, log);
        }
        if combat::any_hit_kills(tgt.vermin, tgt.cannon_fodder) {
            log.note(format_args!(
                "    {} falls: any hit kills it",
                Who(self, fl, t)
            ));
            self.kill(fl, t);
            return;
        }
        if att.arms[w].poison && !combat::poison_affects(tgt.non_living) {
            return log.note(format_args!("    Poison does nothing to the Non-Living"));
        }
        let layers = if mode == Mode::Close {
            self.parry(fl, i, w, t, faces, log)
        } else {
            0
        };
        // SN units' part in one branch: a plain duel never builds an `SnDamage`.
        let mut sn = None;
        let mut damage = if self.any_sn {
            self.curse(fl, i, t, log);
            let s = if self.spends_on_damage(fl, i) {
                self.sn_damage(fl, i, t, faces, log)
            } else {
                sorcery::SnDamage::default()
            };
            let mut deflection = Deflection::layers(layers);
            self.sn_deflection(fl, t, &mut deflection);
            let d = if !deflection.is_none() {
                let (dice, n) = s.deflectable();
                plan.damage_deflected(faces, log, benny, &deflection, &dice[..n]) + s.undeflectable
            } else {
                plan.damage(faces, log, benny) + s.total()
            };
            sn = Some(s);
            d
        } else if layers > 0 {
            plan.damage_deflected(faces, log, benny, &Deflection::layers(layers), &[])
        } else {
            plan.damage(faces, log, benny)
        };
        if self.any_thrall && fl.f[i].benny != 0 {
            damage += self.instant_benny(fl, i, faces, log);
        }
        if let Some(cs) = tgt.connection {
            self.knock_apart(fl, t, damage, cs, log);
            if let Some(sn) = &sn {
                self.sn_radius(fl, t, sn, faces, log);
            }
            return;
        }
        let (ward, burning, size) = if self.any_sn {
            let f = &fl.f[t];
            (self.armor_ward(fl, t), self.any_fire && f.burning, f.size)
        } else {
            (0, false, 0)
        };
        let armor_roll = |faces: &mut F, log: &mut L| {
            let a = plan.armor(faces, log);
            if ward != 0 || burning {
                a + self.armor_sn(kt, ward, size, burning, faces, log)
            } else {
                a
            }
        };
        let f = &mut fl.f[t];
        let (damage, armor) = if att.vermin {
            // Ch. 10.4: "the Cumulative Damage of several Vermin attacking together".
            f.swarm.add(damage, || armor_roll(faces, log))
        } else if combine {
            f.combo.add(damage, || armor_roll(faces, log))
        } else {
            (damage, armor_roll(faces, log))
        };
        let who = Who(self, fl, t);
        match damage.cmp(&armor) {
            Ordering::Greater if fl.f[t].size > 1 => log.note(format_args!(
                "    Damage {damage} vs Armor {armor}: {who} loses an inch of Size"
            )),
            Ordering::Greater => log.note(format_args!(
                "    Damage {damage} vs Armor {armor}: {who} falls"
            )),
            Ordering::Equal if combat::tie_disrupts(self.opts.armor_tie) => log.note(format_args!(
                "    Damage {damage} = Armor {armor}: {who} is Disrupted"
            )),
            Ordering::Equal => log.note(format_args!(
                "    Damage {damage} = Armor {armor}: nothing happens"
            )),
            Ordering::Less => log.note(format_args!(
                "    Damage {damage} vs Armor {armor}: no effect"
            )),
        }
        if !(damage > armor && fl.f[t].size <= 1) {
            self.knock_back(fl, i, w, t, log);
        }
        match damage.cmp(&armor) {
            Ordering::Greater => {
                let f = &mut fl.f[t];
                (f.swarm, f.combo) = (Pool::EMPTY, Pool::EMPTY);
                f.size = combat::size_damage(f.size);
                if f.size == 0 {
                    self.kill(fl, t);
                }
            }
            Ordering::Equal => {
                fl.ties += 1;
                if combat::tie_disrupts(self.opts.armor_tie) {
                    fl.f[t].disrupted = true;
                }
            }
            Ordering::Less => {}
        }
        if let Some(sn) = &sn {
            self.sn_radius(fl, t, sn, faces, log);
        }
    }

    /// A stomp on a Vermin that is not Disrupted: "an Attack with Use:0" (Ch. 10.4), so
    /// only a Critical Failure misses, and any hit kills it. No weapon is used; the Vermin's
    /// Bail out of the way is not modelled.
    fn stomp<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        log.note(format_args!(
            "  {} stomps on {}",
            Who(self, fl, i),
            Who(self, fl, t)
        ));
        fl.f[t].targeted += 1;
        fl.f[t].engaged += 1;
        let m = combat::target_size(fl.f[t].size, self.opts.target_size);
        let r = self.skill[fl.f[i].kind as usize].roll(faces, log, 0);
        if !r.critical_failure && r.total + m >= combat::STOMP_USE {
            log.note(format_args!("    squashed"));
            self.kill(fl, t);
        } else {
            log.note(format_args!("    missed"));
        }
    }

    /// A Contagious Bite that hit: its Poison against the victim's Skill roll; a higher
    /// Poison destroys the Mind, and the victim rises on the biter's side at the beginning
    /// of its next turn (Ch. 10.4). Only minifigs are affected, never the Non-Living, and a
    /// unit that carries the Contagion itself is already converted.
    #[allow(clippy::too_many_arguments)]
    fn contagion<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        mode: Mode,
        benny: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        let (ki, kt) = (fl.f[i].kind as usize, fl.f[t].kind as usize);
        let tgt = &self.kinds[kt];
        if !tgt.minifig || tgt.non_living || tgt.contagious() {
            return log.note(format_args!(
                "    the Contagion does nothing to {}",
                Who(self, fl, t)
            ));
        }
        let plan = self.plan(ki, w, kt);
        let deflection = self.deflection(fl, i, w, t, mode, faces, log);
        let poison = if !deflection.is_none() {
            plan.damage_deflected(faces, log, benny, &deflection, &[])
        } else {
            plan.damage(faces, log, benny)
        };
        let skill = self.skill[kt].roll(faces, log, 0).total;
        let who = Who(self, fl, t);
        if contagion::mind_destroyed(poison, skill) {
            log.note(format_args!(
                "    Poison {poison} vs Skill {skill}: {who}'s Mind is destroyed; it will rise \
                 with the biters"
            ));
            self.kill(fl, t);
            let (kind, side) = (fl.f[i].kind, fl.f[i].side);
            let f = &mut fl.f[t];
            (f.comatose, f.rise_as, f.rise_side) = (true, kind, side);
            fl.converted += 1;
        } else {
            log.note(format_args!(
                "    Poison {poison} vs Skill {skill}: {who} resists"
            ));
        }
    }

    /// The victims of Monstrous Contagion bitten by `side` rise on it, as its biters' kind
    /// (option `contagion_rise`: they act this turn, or wait for the next).
    #[cold]
    #[inline(never)]
    fn rise<L: Log + ?Sized>(&self, fl: &mut Field, side: u8, log: &mut L) {
        for t in 0..self.roster.len() {
            let f = fl.f[t];
            if !f.comatose || f.rise_side != side {
                continue;
            }
            fl.f[t] = Figure {
                kind: f.rise_as,
                side,
                alive: true,
                pos: f.pos,
                size: self.kinds[f.rise_as as usize].size,
                acted: self.opts.contagion_rise == ContagionRise::Waits,
                ..EMPTY
            };
            fl.alive[side as usize] += 1;
            log.note(format_args!(
                "  {} rises as a {}",
                Who(self, fl, t),
                self.kinds[f.rise_as as usize].key
            ));
        }
    }

    /// The Spawners of `side` bring back its fallen Cannon Fodder, up to each one's Spawn
    /// Capacity in Size inches a turn, touching the Spawner: "respawned from fallen Cannon
    /// Fodder corpses (which conveniently disappear from the field and reappear at the
    /// Spawner, along with their Mook Weapon)", with full Movement but no Action (Ch. 10.4).
    /// A Spawner works while its carrier stands; units held in reserve are not modelled.
    #[cold]
    #[inline(never)]
    fn spawn<L: Log + ?Sized>(&self, fl: &mut Field, side: u8, log: &mut L) {
        for s in 0..self.roster.len() {
            let sp = fl.f[s];
            let capacity = self.kinds[sp.kind as usize].spawn;
            if !sp.alive || sp.side != side || capacity == 0 {
                continue;
            }
            let mut left = capacity;
            for t in 0..self.roster.len() {
                let f = fl.f[t];
                let k = &self.kinds[f.kind as usize];
                if f.alive || f.comatose || f.side != side || !k.cannon_fodder || k.size > left {
                    continue;
                }
                left -= k.size;
                fl.f[t] = Figure {
                    kind: f.kind,
                    side,
                    alive: true,
                    pos: sp.pos,
                    size: k.size,
                    spawned: true,
                    acted: true,
                    ..EMPTY
                };
                fl.alive[side as usize] += 1;
                log.note(format_args!(
                    "  {} respawns at {}",
                    Who(self, fl, t),
                    Who(self, fl, s)
                ));
            }
        }
    }

    /// Stupidity (Ch. 10.1): with more than one Stupid unit on `side`, the enemy takes the
    /// first of them in roster order for this turn (option `stupidity`). Returns that unit,
    /// and whether it acts now for the enemy: then it fights for the other side until
    /// [`Squad::release`].
    #[cold]
    #[inline(never)]
    fn stupidity<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        side: u8,
        log: &mut L,
    ) -> Option<(usize, bool)> {
        let stupid = |t: usize| {
            fl.f[t].side == side && fl.f[t].alive && self.kinds[fl.f[t].kind as usize].stupid
        };
        if (0..self.roster.len()).filter(|&t| stupid(t)).count() < 2 {
            return None;
        }
        let u = (0..self.roster.len()).find(|&t| stupid(t))?;
        log.note(format_args!(
            "  Stupidity: the enemy takes {} for this turn",
            Who(self, fl, u)
        ));
        // Its turn is the enemy's: it keeps no Action for a Response.
        fl.f[u].acted = true;
        let turncoat = self.opts.stupidity == Stupidity::Turncoat && !fl.f[u].disrupted;
        if turncoat {
            // "control it as if it were his own": it fights for the other side this turn.
            let other = 1 - side;
            fl.alive[side as usize] -= 1;
            fl.alive[other as usize] += 1;
            fl.f[u].side = other;
            // `act` skips a unit that has acted only for attacks after a move; clear it.
            fl.f[u].acted = false;
        }
        Some((u, turncoat))
    }

    /// Half-Mind Usefulness at the beginning of `side`'s turn (option `usefulness`,
    /// Ch. 10.1). Without a full-Minded unit standing on the other side, its Subjugated
    /// units break free to `side` for good and its Submissive units are lent to `side` for
    /// this turn (returned: they act first, then go back); `side`'s own Submissive units
    /// without a master are directed by it. Each of them may Move or act, not both.
    #[cold]
    #[inline(never)]
    fn usefulness<L: Log + ?Sized>(&self, fl: &mut Field, side: u8, log: &mut L) -> u128 {
        let n = self.roster.len();
        // A summoned Diemon (after the fielded units) is no one's master.
        let master = |fl: &Field, s: u8| {
            (0..self.units).any(|u| {
                let f = &fl.f[u];
                f.alive && f.side == s && self.kinds[f.kind as usize].full_mind
            })
        };
        fl.restricted = 0;
        let mut lent = 0u128;
        let other = 1 - side;
        let other_has_master = master(fl, other);
        let own_has_master = master(fl, side);
        for u in 0..n {
            let f = fl.f[u];
            let k = &self.kinds[f.kind as usize];
            if !f.alive || !(k.submissive || k.subjugated) {
                continue;
            }
            if f.side == other && !other_has_master {
                fl.alive[other as usize] -= 1;
                fl.alive[side as usize] += 1;
                fl.f[u].side = side;
                fl.f[u].acted = false;
                fl.restricted |= 1 << u;
                if k.subjugated {
                    log.note(format_args!("  {} breaks free", Who(self, fl, u)));
                } else {
                    log.note(format_args!(
                        "  {} has no master: the enemy directs it",
                        Who(self, fl, u)
                    ));
                    lent |= 1 << u;
                }
            } else if f.side == side && (!own_has_master || self.roster[u].0 != side) {
                // Its owner directs it (a useless Submissive one, or a Subjugated one that
                // broke free to this side): Move or Action.
                fl.restricted |= 1 << u;
            }
        }
        lent
    }

    /// Hands unit `u`, taken by the enemy for its action, back to `side`.
    #[cold]
    #[inline(never)]
    fn release(&self, fl: &mut Field, u: usize, side: u8) {
        let other = 1 - side;
        fl.f[u].side = side;
        fl.f[u].acted = true;
        if fl.f[u].alive {
            fl.alive[other as usize] -= 1;
            fl.alive[side as usize] += 1;
        }
    }

    /// Records the standing units and conversions after player turn `turn`.
    fn record_turn(&self, fl: &mut Field, turn: u32) {
        if let Some(k) = (turn as usize).checked_sub(1).filter(|&k| k < TRACK) {
            fl.standing[0][k] = fl.alive[0] as u8;
            fl.standing[1][k] = fl.alive[1] as u8;
            fl.converted_by[k] = fl.converted as u8;
        }
    }

    /// A hit from a sized weapon larger than its target pushes it straight away from the
    /// attacker (option `knockback`, Ch. 8.1).
    fn knock_back<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        log: &mut L,
    ) {
        if self.opts.knockback == Knockback::Off {
            return;
        }
        let ws = self.kinds[fl.f[i].kind as usize].arms[w].power.unwrap_or(0);
        let inches = combat::knockback(ws, fl.f[t].size) as i32;
        if inches == 0 {
            return;
        }
        let away = match (fl.f[t].pos - fl.f[i].pos).signum() {
            0 if fl.f[t].side == 0 => -1, // side A's back is toward 0
            0 => 1,
            s => s,
        };
        fl.f[t].pos += away * 2 * inches;
        log.note(format_args!(
            "    {} is knocked back {inches}\"",
            Who(self, fl, t)
        ));
        if self.opts.knockback == Knockback::Disrupt {
            fl.f[t].disrupted = true;
        }
    }

    /// The Deflection on `i`'s hit on `t` with weapon `w`: a Parry's layers in Close
    /// Combat, and `t`'s SN Deflection ward.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn deflection<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        mode: Mode,
        faces: &mut F,
        log: &mut L,
    ) -> Deflection {
        let layers = if mode == Mode::Close {
            self.parry(fl, i, w, t, faces, log)
        } else {
            0
        };
        let mut d = Deflection::layers(layers);
        if self.any_sn {
            self.sn_deflection(fl, t, &mut d);
        }
        d
    }

    /// A shield-bearer's Parry of a Close Combat hit (option `parry`): its Skill roll, +1 per
    /// 2" of the attacking weapon, against the shield's Use; success gives the shield's
    /// layers of Deflection against this hit, a Critical Failure knocks the shield away
    /// (Ch. 8.2). Returns the layers.
    fn parry<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        faces: &mut F,
        log: &mut L,
    ) -> u32 {
        let (ki, kt) = (fl.f[i].kind as usize, fl.f[t].kind as usize);
        let Some(shield) = self.kinds[kt].shield else {
            return 0;
        };
        let d = fl.f[t];
        let may = match self.opts.parry {
            Parry::Off => false,
            Parry::Free => true,
            Parry::Saved => d.saved,
        };
        if !may || d.disrupted || d.shield_lost || !combat::can_parry(d.size, fl.f[i].size) {
            return 0;
        }
        if self.opts.parry == Parry::Saved {
            fl.f[t].saved = false;
        }
        let bonus = combat::parry_bonus(self.kinds[ki].arms[w].power.unwrap_or(0));
        let r = self.skill_of(fl, t).roll(faces, log, 0);
        let bonus = bonus + self.penalty(fl, t) + self.fire_penalty(fl, t, faces, log);
        let who = Who(self, fl, t);
        if r.critical_failure {
            log.note(format_args!(
                "    {who} fumbles the Parry and drops its shield"
            ));
            fl.f[t].shield_lost = true;
            0
        } else if r.total + bonus >= shield.use_rating {
            log.note(format_args!(
                "    {who} Parries: {} layers of Deflection",
                shield.layers
            ));
            shield.layers
        } else {
            log.note(format_args!("    {who} fails to Parry"));
            0
        }
    }

    fn kill(&self, fl: &mut Field, t: usize) {
        if fl.f[t].alive {
            if t >= self.units {
                return self.pion_gone(fl, t);
            }
            fl.f[t].alive = false;
            fl.alive[fl.f[t].side as usize] -= 1;
            if self.any_sn && (fl.f[t].lasting | fl.f[t].spent) != 0 {
                self.sn_end(fl, t);
            }
            if self.any_thrall && self.kinds[fl.f[t].kind as usize].thrall {
                fl.fallen_thralls |= 1 << t;
            }
        }
    }

    /// Unit `i`'s Skill roll: its kind's, or with the SN die Blessing it (Ch. D.4).
    #[inline(always)]
    fn skill_of(&self, fl: &Field, i: usize) -> &crate::dice::action::SkillPlan {
        let f = &fl.f[i];
        if f.blessing != 0 {
            let (plans, idx) = if f.blessing & sorcery::CURSE != 0 {
                (&self.cursed, f.blessing & !sorcery::CURSE)
            } else {
                (&self.blessed, f.blessing)
            };
            if let Some(p) = &plans[f.kind as usize][idx as usize - 1] {
                return p;
            }
        }
        &self.skill[f.kind as usize]
    }

    /// Unit `i`'s Skill modifier for SN dice it has out (0 without SN units).
    #[inline(always)]
    fn penalty(&self, fl: &Field, i: usize) -> i64 {
        if self.any_sn {
            self.sn_penalty(fl, i)
        } else {
            0
        }
    }

    fn over(&self, fl: &Field) -> bool {
        fl.alive[0] == 0 || fl.alive[1] == 0
    }

    fn outcome(&self, fl: &mut Field, first: Side, turns: u32) -> SquadOutcome {
        let winner = match (fl.alive[0], fl.alive[1]) {
            (0, 0) => None,
            (_, 0) => Some(Side::A),
            (0, _) => Some(Side::B),
            _ => None,
        };
        let mut cp_left = [0i64; 2];
        for f in fl.f.iter().take(self.roster.len()) {
            if f.alive {
                cp_left[f.side as usize] += self.kinds[f.kind as usize].cp.in_quarters();
            }
        }
        SquadOutcome {
            winner,
            first,
            turns,
            survivors: fl.alive,
            cp_left,
            ties: fl.ties,
            converted: fl.converted,
            revived: fl.revived,
            standing: fl.standing,
            converted_by: fl.converted_by,
        }
    }
}

impl Scenario for Squad {
    type Outcome = SquadOutcome;
    type Tally = SquadTally;

    fn trial<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> SquadOutcome {
        let mut fl = Field::new([self.count[0] as u32, self.count[1] as u32]);
        for (n, (slot, &(side, kind))) in fl.f.iter_mut().zip(&self.roster).enumerate() {
            *slot = Figure {
                kind,
                side,
                // The slots after the fielded units wait for 4pions.
                alive: n < self.units,
                pos: if side == 0 {
                    0
                } else {
                    2 * self.distance as i32
                },
                size: self.kinds[kind as usize].size,
                ..EMPTY
            };
        }
        let first = self.first.resolve(faces);
        log.note(format_args!("{first:?} goes first"));
        let mut side: u8 = if first == Side::A { 0 } else { 1 };
        for turn in 1..=self.max_turns {
            log.note(format_args!(
                "turn {turn}: side {}",
                if side == 0 { 'A' } else { 'B' }
            ));
            for f in fl.f.iter_mut().take(self.roster.len()) {
                f.engaged = 0;
                f.targeted = 0;
                f.swarm = Pool::EMPTY;
                f.used = 0;
                f.power_used = 0;
                if f.side == side {
                    // Spent SN dice return at the beginning of their owner's turn (Ch. D.3).
                    f.spent = 0;
                    f.spawned = false;
                    // Disruption lasts "until his following turn" (Ch. 4.1); a saved Action
                    // not spent in the enemy's turn is gone.
                    f.recovering = f.disrupted;
                    f.disrupted = false;
                    f.saved = false;
                    f.acted = false;
                }
            }
            if self.any_contagion {
                self.rise(&mut fl, side, log);
            }
            if self.any_spawner {
                self.spawn(&mut fl, side, log);
            }
            let taken = if self.any_stupid && self.opts.stupidity != Stupidity::Off {
                self.stupidity(&mut fl, side, log)
            } else {
                None
            };
            // The unit the enemy plays against its own side goes first, if any; then the
            // side's units in roster order (one call site keeps `act` inlined). Without
            // Contagion or Stupidity no unit changes sides: the side's own range will do.
            let slots = if self.sides_move {
                0..self.roster.len()
            } else {
                self.own(side)
            };
            // Units of the other side this side plays this turn: the Stupid one taken from
            // this side (it plays for the enemy) and useless Half Minds lent by the enemy.
            let mut lent: u128 = match taken {
                Some((u, true)) => 1 << u,
                _ => 0,
            };
            if self.any_useless {
                lent |= self.usefulness(&mut fl, side, log);
            }
            let n_lent = lent.count_ones() as usize;
            let lent_units = std::iter::from_fn(move || {
                (lent != 0).then(|| {
                    let u = lent.trailing_zeros() as usize;
                    lent &= lent - 1;
                    u
                })
            });
            for (k, i) in lent_units.chain(slots.clone()).enumerate() {
                let for_enemy = k < n_lent;
                if !for_enemy
                    && (fl.f[i].side != side
                        || !fl.f[i].alive
                        || taken.is_some_and(|(u, _)| u == i))
                {
                    continue;
                }
                self.act(&mut fl, i, faces, log);
                if self.any_thrall && fl.fallen_thralls != 0 {
                    self.sacrifices(&mut fl, faces, log);
                }
                if for_enemy {
                    let home = 1 - fl.f[i].side;
                    self.release(&mut fl, i, home);
                }
                if self.over(&fl) {
                    self.record_turn(&mut fl, turn);
                    return self.outcome(&mut fl, first, turn);
                }
            }
            for i in slots {
                let f = &mut fl.f[i];
                if f.side == side {
                    f.saved = f.alive && !f.acted;
                    // "the Master must use the Benny before the end of his turn".
                    f.benny = 0;
                }
            }
            self.record_turn(&mut fl, turn);
            side = 1 - side;
        }
        self.outcome(&mut fl, first, self.max_turns)
    }

    fn key(&self, t: &SquadTally) -> Estimate {
        Estimate::proportion(t.a_wins, t.trials, 0.95)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::dice::{Die, NoLog};
    use crate::rules::{ArmorTie, RuleOptions};
    use crate::scenario::duel::First;
    use crate::scenario::squad::{Policy, SideSpec};

    fn side(units: &[(&str, u32)], opts: &RuleOptions) -> SideSpec {
        let units: Vec<(String, u32)> = units.iter().map(|(k, n)| (k.to_string(), *n)).collect();
        SideSpec::from_catalog(&Catalog::builtin(), &units, Policy::default(), opts).unwrap()
    }

    fn squad(a: &[(&str, u32)], b: &[(&str, u32)], distance: u32, opts: RuleOptions) -> Squad {
        Squad::new(side(a, &opts), side(b, &opts), distance, First::A, 50, opts).unwrap()
    }

    fn run(s: &Squad, script: &[(Die, u32)]) -> SquadOutcome {
        crate::scenario::scripted(s, script)
    }

    const D6: Die = Die::D6;
    const MF: (&str, u32) = ("minifig-hand-weapon", 1);

    #[test]
    fn in_contact_they_trade_blows_like_the_duel() {
        let s = squad(&[MF], &[MF], 0, RuleOptions::default());
        // A misses (1, Critical Failure); B hits (3 vs Use 2), Damage 4 ties Armor 4; A hits,
        // Damage 5 > 4: B dies on turn 3.
        let o = run(&s, &[(D6, 1), (D6, 3), (D6, 4), (D6, 2), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!((o.turns, o.ties), (3, 1));
        assert_eq!(o.survivors, [1, 0]);
        assert_eq!(o.cp_left, [24, 0], "6 CP in quarters");
    }

    #[test]
    fn a_saved_action_strikes_the_unit_that_closes_in() {
        // 8" apart. Turn 1: A moves 5" (3" left), cannot attack, saves its Action. Turn 2: B
        // moves 2" into contact; A's Response comes first (Ch. 4.1): hit (4), Damage 3, no
        // effect. B survives and attacks: hit (5), Damage 6 > 4. A dies.
        let s = squad(&[MF], &[MF], 8, RuleOptions::default());
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
    fn a_disrupted_target_is_hit_automatically_in_close_combat() {
        // armor_tie = dismemberment: a tie knocks the target over (Ch. 10.2), and the next
        // attacker standing next to him hits without a Skill roll (Ch. 4.1).
        let mut o = RuleOptions::default();
        o.armor_tie = ArmorTie::Dismemberment;
        let s = squad(&[("minifig-hand-weapon", 2)], &[MF], 0, o);
        // A1 hits (2), Damage 4 = Armor 4: Disrupted. A2: no Skill roll; Damage 5 kills.
        let out = run(&s, &[(D6, 2), (D6, 4), (D6, 5)]);
        assert_eq!(out.winner, Some(Side::A));
        assert_eq!(out.turns, 1);
        // Under `survive` the tie does nothing and A2 must roll.
        let s = squad(
            &[("minifig-hand-weapon", 2)],
            &[MF],
            0,
            RuleOptions::default(),
        );
        let out = run(&s, &[(D6, 2), (D6, 4), (D6, 2), (D6, 5)]);
        assert_eq!((out.winner, out.ties), (Some(Side::A), 1));
    }

    #[test]
    fn three_attackers_per_inch_of_target() {
        // Four minifigs on one: only three may strike in Close Combat (Ch. 10.4). All three
        // fail (natural 1s); then B's turn: B misses; then A again.
        let mut s = squad(
            &[("minifig-hand-weapon", 4)],
            &[MF],
            0,
            RuleOptions::default(),
        );
        s.max_turns = 2;
        let o = run(&s, &[(D6, 1), (D6, 1), (D6, 1), (D6, 1)]);
        assert_eq!(o.winner, None);
        assert_eq!(o.survivors, [4, 1]);
    }

    #[test]
    fn any_hit_kills_cannon_fodder_without_a_damage_roll() {
        let s = squad(&[MF], &[("cannon-fodder", 1)], 0, RuleOptions::default());
        let o = run(&s, &[(D6, 2)]);
        assert_eq!(o.winner, Some(Side::A));
    }

    #[test]
    fn vermin_bites_add_up_and_cannot_touch_the_armored() {
        // Ch. 10.4: five Vermin bite a minifig (Armor 4): each bite does 1; the fifth makes
        // the Cumulative Damage 5 > 4.
        let s = squad(&[("vermin", 5)], &[MF], 0, RuleOptions::default());
        let o = run(&s, &[(D6, 2), (D6, 2), (D6, 2), (D6, 2), (D6, 2)]);
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!(o.turns, 1);
        // Against a minifig in Body Armor they cannot engage at all: nobody rolls on turn 1;
        // on turn 2 the minifig kills one Vermin with any hit: 3 - 1 (a Size 0 target) meets
        // Use 2.
        let mut s = squad(
            &[("vermin", 2)],
            &[("minifig-body-armor", 1)],
            0,
            RuleOptions::default(),
        );
        s.max_turns = 2;
        let o = run(&s, &[(D6, 3)]);
        assert_eq!(o.survivors, [1, 1]);
    }

    #[test]
    fn larger_creations_lose_an_inch_per_successful_hit() {
        // A Horse (Size 2", Armor 1d6) takes two successful hits (RULES-NOTES 2). Its
        // Kick or Bite is 1 Action die (d6, Ch. 8.1). Target size +1 for 2" (Ch. 8.2).
        let s = squad(
            &[("minifig-hand-weapon", 2)],
            &[("horse", 1)],
            0,
            RuleOptions::default(),
        );
        // A1: Skill 1+1 = 2 meets Use 2; Damage 5 vs Armor 3: 1" lost. A2: 2, Damage 6 (a
        // Bonus d6 1: 7) vs Armor 2: the Horse falls.
        let o = run(
            &s,
            &[
                (D6, 1 + 1),
                (D6, 5),
                (D6, 3),
                (D6, 2),
                (D6, 6),
                (D6, 1),
                (D6, 2),
            ],
        );
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!(o.turns, 1);
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
    fn target_policies_choose_differently() {
        // A minifig in contact with two Cannon Fodder, the first already attacked this turn.
        let ro = RuleOptions::default();
        let mk = |t: Targeting| {
            let mut a = side(&[MF], &ro);
            a.policy.target = t;
            let b = side(&[("cannon-fodder", 1), ("minifig-hand-weapon", 1)], &ro);
            Squad::new(a, b, 0, First::A, 1, ro).unwrap()
        };
        let s = mk(Targeting::Focus);
        let mut fl = standing(&s, 0);
        fl.f[1].targeted = 1;
        fl.f[2].pos = 1;
        // Focus: the first in the roster; spread: the one attacked least; threat: the
        // minifig (6 CP) over the Cannon Fodder (2 CP); nearest: the Fodder, at 0".
        assert_eq!(s.pick(&fl, 0, Mode::Close, CONTACT), Some(1));
        assert_eq!(
            mk(Targeting::Spread).pick(&fl, 0, Mode::Close, CONTACT),
            Some(2)
        );
        assert_eq!(
            mk(Targeting::Threat).pick(&fl, 0, Mode::Close, CONTACT),
            Some(2)
        );
        assert_eq!(
            mk(Targeting::Nearest).pick(&fl, 0, Mode::Close, CONTACT),
            Some(1)
        );
        // Past the three-per-inch limit the Fodder cannot be picked at all.
        fl.f[1].engaged = 3;
        assert_eq!(s.pick(&fl, 0, Mode::Close, CONTACT), Some(2));
    }

    #[test]
    fn multitasking_and_multidexterity_spread_weapons_over_actions() {
        // Professor Monkeyhead (d10, Multitasking 2, Multidexterity 1; Ch. 10.1) with a Heavy
        // Weapon and two Hand Weapons, targeting `spread`, against two minifigs and a Cannon
        // Fodder. Action 1: the Heavy Weapon (strongest) kills B1. Action 2: both Hand
        // Weapons at B2 (Multidexterity), whose Damage adds up (RULES-NOTES 2): 2, then 2 + 3
        // beats Armor 4 where 3 alone would not. Action 3: no weapon is left
        // unused this turn. Without Multidexterity the second Hand Weapon would be a third
        // Action at the Cannon Fodder, which dies to any hit without a Damage roll.
        let ro = RuleOptions::default();
        let c = Catalog::builtin();
        let mut spec = c.get("professor-monkeyhead").unwrap().spec.clone();
        spec.weapons = ["heavy-weapon", "hand-weapon", "hand-weapon"]
            .map(|w| crate::catalog::unit::WeaponRef::Item(w.into()))
            .to_vec();
        let prof = spec.resolve("prof").unwrap();
        let kind =
            crate::scenario::squad::Kind::from_unit(&prof, crate::catalog::Cp::ZERO, &ro).unwrap();
        let a = SideSpec {
            units: vec![(kind, 1)],
            policy: Policy {
                target: Targeting::Spread,
                ..Policy::default()
            },
        };
        let b = side(&[("minifig-hand-weapon", 2), ("cannon-fodder", 1)], &ro);
        let s = Squad::new(a, b, 0, First::A, 2, ro).unwrap();
        let d10 = Die::D10;
        #[rustfmt::skip]
        let o = run(&s, &[
            (d10, 5), (D6, 6), (D6, 1), // Heavy Weapon at B1: 1d6+2 = 6+1+2 = 9 > 4
            (d10, 5), (D6, 2),          // Hand Weapon at B2: 2
            (d10, 5), (D6, 3),          // the other Hand Weapon at B2: 2 + 3 > 4 combined
            (D6, 1),                    // the Cannon Fodder fails
        ]);
        assert_eq!(o.winner, None);
        assert_eq!(o.survivors, [1, 1]);
        assert_eq!(o.cp_left[1], 8, "the 2 CP Cannon Fodder is left");
    }

    #[test]
    fn power_follows_effective_size() {
        // Ch. 8.1 Scorpiosaurus Rex: at Size 3" his 6" of Power moves the 5" BioStinger; after
        // an inch of Size Damage (Power 4") "he no longer has the strength to use it" and
        // attacks with a 1" Claw Blade.
        let ro = RuleOptions::default();
        let s = Squad::new(
            side(&[("scorpiosaurus-rex", 1)], &ro),
            side(&[MF], &ro),
            0,
            First::B,
            2,
            ro,
        )
        .unwrap();
        #[rustfmt::skip]
        let o = run(&s, &[
            (D6, 3), (D6, 6), (D6, 1), (D6, 2), // B: 3 + 1 (Size 3"), Damage 7 > Armor 2
            (D6, 5), (D6, 5),                   // Rex: Claw Blade, Use 2; Damage 5 > 4
        ]);
        assert_eq!(o.winner, Some(Side::A));
        // Undamaged, he strikes with the BioStinger (Use 6): a 5 misses.
        let s = Squad::new(
            side(&[("scorpiosaurus-rex", 1)], &ro),
            side(&[MF], &ro),
            0,
            First::A,
            1,
            ro,
        )
        .unwrap();
        let o = run(&s, &[(D6, 5)]);
        assert_eq!(o.winner, None);
    }

    #[test]
    fn a_melee_shield_parry_deflects_damage_dice() {
        // Automaton against Automaton (Ch. 8.1): A's Giant Sword hits (3 + 1 for a 2"
        // target meets Use 4); B Parries with the Giant Shield: 6 + 1 (a 3" weapon) meets
        // Use 6, three layers of Deflection remove all three Damage dice (8, 5, 4): 0
        // against Armor 2d10. B's turn: a natural 1.
        let ro = RuleOptions::default();
        let auto = [("automaton", 1)];
        let mk = |o: RuleOptions| Squad::new(side(&auto, &o), side(&auto, &o), 0, First::A, 2, o);
        let d10 = Die::D10;
        #[rustfmt::skip]
        let o = run(&mk(ro).unwrap(), &[
            (D6, 3), (D6, 6),                     // hit; Parry 6 + 1 >= 6
            (D6, 6), (D6, 2), (D6, 5), (D6, 4),   // 3d6 = 8 + 5 + 4, all deflected
            (d10, 3), (d10, 4),                   // Armor 7
            (D6, 1),                              // B: Critical Failure
        ]);
        assert_eq!((o.winner, o.ties), (None, 0));
        // parry=off: no Parry roll; 17 > 7 costs B an inch, and at Effective Size 1" its
        // Power (2") no longer moves the 3" sword (Ch. 8.1): B cannot attack.
        let mut off = ro;
        off.parry = Parry::Off;
        #[rustfmt::skip]
        let o = run(&mk(off).unwrap(), &[
            (D6, 3), (D6, 6), (D6, 2), (D6, 5), (D6, 4), (d10, 3), (d10, 4),
        ]);
        assert_eq!(o.winner, None);
        // A critically failed Parry knocks the shield away: the next hit is not Parried.
        let s = Squad::new(
            side(&[("automaton", 2)], &ro),
            side(&auto, &ro),
            0,
            First::A,
            1,
            ro,
        )
        .unwrap();
        #[rustfmt::skip]
        let o = run(&s, &[
            (D6, 3), (D6, 1), (D6, 2), (D6, 2), (D6, 2), (d10, 5), (d10, 5), // Parry fails: 6 vs 10
            (D6, 3), (D6, 6), (D6, 1), (D6, 6), (D6, 1), (D6, 6), (D6, 1), (d10, 2), (d10, 2),
        ]);
        assert_eq!(o.winner, None, "21 > 4 takes one inch of two");
        // Too Large: the 2" Automaton cannot Parry a 1" minifig.
        let s = Squad::new(side(&[MF], &ro), side(&auto, &ro), 0, First::A, 1, ro).unwrap();
        let o = run(&s, &[(D6, 1)]);
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
            assert_eq!((fl.f[1].pos, fl.f[1].disrupted), (pos, disrupted), "{kb:?}");
            // The minifig's Hand Weapon has no Weapon Size: no KnockBack on the Automaton.
            s.knock_back(&mut fl, 1, 0, 0, &mut NoLog);
            assert_eq!(fl.f[0].pos, 0);
        }
    }

    #[test]
    fn a_contagious_bite_converts_and_the_victim_rises_with_the_biters() {
        // Ch. 10.4: a Dimmy against two minifigs, in contact.
        let s = squad(
            &[("dimmy", 1)],
            &[("minifig-hand-weapon", 2)],
            0,
            RuleOptions::default(),
        );
        const D4: Die = Die::D4;
        let o = run(
            &s,
            &[
                // Turn 1, A1 bites B1: Skill 3 vs Use 2 hits; Poison 4 vs B1's Skill 2: B1's
                // Mind is destroyed.
                (D4, 3),
                (D4, 4),
                (D6, 2),
                // Turn 2, B2 strikes A1: hit (3), Damage 2 vs Armor 4: no effect.
                (D6, 3),
                (D6, 2),
                // Turn 3: B1 rises on side A; two Stupid Dimmies, so B takes A1 and turns it
                // on B1: a hit (2), but the Contagion does nothing to a Dimmy. Then B1 bites
                // B2: hit (4), Poison 3 vs Skill 1: converted; side B is gone.
                (D4, 2),
                (D4, 4),
                (D4, 3),
                (D6, 1),
            ],
        );
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!((o.turns, o.converted), (3, 2));
        assert_eq!(o.survivors, [2, 0]);
        // Turn by turn: A standing 1, 1, 2; B 1, 1, 0; converted 1, 1, 2.
        assert_eq!(&o.standing[0][..3], &[1, 1, 2]);
        assert_eq!(&o.standing[1][..3], &[1, 1, 0]);
        assert_eq!(&o.converted_by[..3], &[1, 1, 2]);
        // Stupidity `idle`: the enemy only holds A1 still, so its roll is not made.
        let mut idle = RuleOptions::default();
        idle.stupidity = Stupidity::Idle;
        let s = squad(&[("dimmy", 1)], &[("minifig-hand-weapon", 2)], 0, idle);
        let o = run(
            &s,
            &[
                (D4, 3),
                (D4, 4),
                (D6, 2),
                (D6, 3),
                (D6, 2),
                (D4, 4),
                (D4, 3),
                (D6, 1),
            ],
        );
        assert_eq!((o.winner, o.turns, o.converted), (Some(Side::A), 3, 2));
        // A resisted bite: Poison 2 vs Skill 2 (a tie keeps the Mind).
        let s = squad(
            &[("dimmy", 1)],
            &[("minifig-hand-weapon", 1)],
            0,
            RuleOptions::default(),
        );
        let s = Squad { max_turns: 1, ..s };
        let o = run(&s, &[(D4, 2), (D4, 2), (D6, 2)]);
        assert_eq!((o.winner, o.converted), (None, 0));
    }

    #[test]
    fn stupid_units_are_turned_on_their_own_side() {
        // Ch. 10.1 Stupidity: two armed civilians (Incompetent, d4) against a minifig. On
        // A's turn B takes A1 and strikes A2 with it: hit (3), Damage 5 > 4. A1 keeps no
        // Action; B1 then kills A1: hit (3), Damage 5.
        let s = squad(
            &[("civilian+hand-weapon", 2)],
            &[MF],
            0,
            RuleOptions::default(),
        );
        let o = run(&s, &[(Die::D4, 3), (D6, 5), (D6, 3), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::B));
        assert_eq!((o.turns, o.survivors), (2, [0, 1]));
        // Stupidity `off`: both strike B1: A1 fails critically (1), A2 hits (2) and kills (5).
        let mut off = RuleOptions::default();
        off.stupidity = Stupidity::Off;
        let s = squad(&[("civilian+hand-weapon", 2)], &[MF], 0, off);
        let o = run(&s, &[(Die::D4, 1), (Die::D4, 2), (D6, 5)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
    }

    #[test]
    fn a_vermin_is_stomped_at_use_0() {
        // Ch. 10.4: "a unit can choose one of them to try to stomp on ... an Attack with
        // Use:0". A natural 2, -1 for the Size 0 target: 1 misses a Hand Weapon's Use 2 but
        // squashes the Vermin, with no Damage roll.
        let s = squad(&[MF], &[("vermin", 1)], 0, RuleOptions::default());
        let o = run(&s, &[(D6, 2)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // Only a Critical Failure misses; then the Vermin bites back (hit 4, Damage 1 vs
        // Armor 4: nothing).
        let s = Squad {
            max_turns: 2,
            ..squad(&[MF], &[("vermin", 1)], 0, RuleOptions::default())
        };
        let o = run(&s, &[(D6, 1), (D6, 4)]);
        assert_eq!((o.winner, o.turns), (None, 2));
    }

    #[test]
    fn a_spawner_brings_fallen_cannon_fodder_back_without_an_action() {
        // B first, in contact. Turn 1: B1 hits A1 (3): any hit kills Cannon Fodder. Turn 2:
        // the Spawner amulet returns A1, which has no Action; A2's Mook Weapon hits (4) for
        // 1 point, no effect; A3 hits (3), Damage 5: side B is gone, A has all three.
        let o = RuleOptions::default();
        let a = side(&[("cannon-fodder", 2), ("fodder-summoner", 1)], &o);
        let b = side(&[MF], &o);
        let s = Squad::new(a, b, 0, First::B, 10, o).unwrap();
        let out = run(&s, &[(D6, 3), (D6, 4), (D6, 3), (D6, 5)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 2));
        assert_eq!(out.survivors, [3, 0]);
    }

    #[test]
    fn masterless_horses_are_played_by_the_enemy_under_usefulness_masters() {
        // Ch. 10.1: a Submissive Horse "loses its Usefulness if its master is killed".
        // B first, in contact. Turn 1: B1 kills A1 (3, Damage 5), the side's only full
        // Mind. Turn 2: A's player directs its Horses: A2 hits (4) for 2 against B1's 4;
        // A3 rolls a Critical Failure. Turn 3: B plays both Horses first: A2 finds no
        // enemy of B's but its fellow, which is B's too; A3 kicks A2 (4), Damage 5 against
        // its Armor 1d6 (2): A2 loses an inch. B1 then finishes A2 (3; Damage 6 + 1 against
        // 3). A draw after three turns: A3 and B1 stand.
        let mut o = RuleOptions::default();
        o.usefulness = crate::rules::Usefulness::Masters;
        let a = side(&[MF, ("horse", 2)], &o);
        let b = side(&[MF], &o);
        let s = Squad::new(a, b, 0, First::B, 3, o).unwrap();
        let script = [
            (D6, 3),
            (D6, 5),
            (D6, 4),
            (D6, 2),
            (D6, 1),
            (D6, 4),
            (D6, 5),
            (D6, 2),
            (D6, 3),
            (D6, 6),
            (D6, 1),
            (D6, 3),
        ];
        let out = run(&s, &script);
        assert_eq!((out.winner, out.survivors), (None, [1, 1]));
    }

    #[test]
    fn a_figure_fits_in_a_cache_line() {
        // Every trial initialises all slots: at 96 bytes a squad duel ran 25% slower.
        assert!(std::mem::size_of::<Figure>() <= 64);
    }
}
