//! SuperNatural units in a squad duel (Ch. D.3, D.4; Ch. 10.3): the side's `spend` policy
//! puts each unit's SN dice on Damage (its first hit of the turn), on its own Armor, or on
//! Blessings for its allies; the rules are in [`crate::rules::supernatural`].
//!
//! Spent dice return at the beginning of their owner's turn; dice in a Lasting Effect (an
//! Armor ward, a Blessing) stay out until the Effect ends: when the owner falls, or when
//! its Blessed ally falls (cancelled at the owner's next turn). Every die out costs the
//! owner -1 Skill. All of it is cold code: a duel without SN units never calls it.

use super::{CONTACT, Field, Who};
use crate::dice::{Die, Faces, Log, SnRoll};
use crate::rules::attack::Deflection;
use crate::rules::supernatural::{self as sn_rules, MAX_SN_DICE};

/// The highest Move rating Movement Dice can give, in inches (Ch. 10.3; Flying Move's 24" has
/// no use on the field).
const MAX_SN_MOVE: i32 = 16;
use crate::scenario::squad::{Spend, Squad};

/// SN Damage dice rolled into one hit: each die's net total (Bonus and Fumble Dice
/// included) that a Parry may deflect, the d12s' total that it may not, and the radius.
/// Kept small (32-bit totals): every hit of a duel with SN units starts one.
#[derive(Copy, Clone, Debug)]
pub(super) struct SnDamage {
    totals: [i32; MAX_SN_DICE],
    dice: [Die; MAX_SN_DICE],
    n: u8,
    pub undeflectable: i64,
    /// Effect radius in inches (SN d10s).
    pub radius: u32,
    /// The SN d4s' Fire Damage: a point of it sets a minifig on fire (Ch. 8.3, D.4).
    pub fire: i32,
}

impl Default for SnDamage {
    fn default() -> SnDamage {
        SnDamage {
            totals: [0; MAX_SN_DICE],
            dice: [Die::D4; MAX_SN_DICE],
            n: 0,
            undeflectable: 0,
            radius: 0,
            fire: 0,
        }
    }
}

impl SnDamage {
    /// The dice a Deflection may take, (die, total), and how many there are.
    pub fn deflectable(&self) -> ([(Die, i64); MAX_SN_DICE], usize) {
        let mut out = [(Die::D4, 0); MAX_SN_DICE];
        for (k, o) in out.iter_mut().enumerate().take(self.n as usize) {
            *o = (self.dice[k], self.totals[k] as i64);
        }
        (out, self.n as usize)
    }

    pub fn total(&self) -> i64 {
        let n = self.n as usize;
        self.totals[..n].iter().map(|&t| t as i64).sum::<i64>() + self.undeflectable
    }
}

/// The mean face of the dice of `sn` marked in `bits` (Bonus and Fumble Dice aside): what
/// a policy expects of them before rolling.
pub(super) fn mean_of(sn: &[Die], bits: u8) -> f64 {
    (0..sn.len())
        .filter(|&b| bits & (1 << b) != 0)
        .map(|b| (sn[b].sides() as f64 + 1.0) / 2.0)
        .sum()
}

/// The bit of `Figure::blessing` that makes it a Curse.
pub(super) const CURSE: u8 = 0x80;

impl Squad {
    /// The bits of unit `i`'s SN dice in hand (not spent, not in a Lasting Effect).
    pub(super) fn sn_ready(&self, fl: &Field, i: usize) -> u8 {
        let n = self.kinds[fl.f[i].kind as usize].sn.len();
        let all = ((1u16 << n) - 1) as u8;
        all & !(fl.f[i].spent | fl.f[i].lasting)
    }

    /// Unit `i`'s Skill modifier for its SN dice out (Ch. 10.3).
    #[inline]
    pub(super) fn sn_penalty(&self, fl: &Field, i: usize) -> i64 {
        sn_rules::skill_penalty((fl.f[i].spent | fl.f[i].lasting).count_ones())
    }

    /// Unit `i`'s spend policy: its own (`wizard@bless`), else its side's.
    pub(super) fn spend_of(&self, fl: &Field, i: usize) -> Spend {
        let k = &self.kinds[fl.f[i].kind as usize];
        k.spend.unwrap_or(self.policy[fl.f[i].side as usize].spend)
    }

    /// Whether SN unit `i` aims an Effect of its own this turn rather than walking or using
    /// a weapon: it has SN dice and no weapon that reaches an enemy.
    #[inline]
    pub(super) fn sn_effect_first(&self, fl: &Field, i: usize) -> bool {
        !self.kinds[fl.f[i].kind as usize].sn.is_empty() && !self.weapon_reaches(fl, i)
    }

    /// Whether unit `i` spends SN dice on the Damage of its next hit.
    #[inline]
    pub(super) fn spends_on_damage(&self, fl: &Field, i: usize) -> bool {
        self.spend_of(fl, i).damage_too() && self.sn_ready(fl, i) != 0
    }

    /// Whether unit `t`'s ward is Deflection rather than Armor (the `deflect` policy).
    #[inline]
    pub(super) fn deflects(&self, fl: &Field, t: usize) -> bool {
        self.spend_of(fl, t) == Spend::Deflect
    }

    /// The ward of unit `t` as it bears on Armor: its dice, unless they are Deflection.
    #[inline]
    pub(super) fn armor_ward(&self, fl: &Field, t: usize) -> u8 {
        if fl.f[t].ward != 0 && self.deflects(fl, t) {
            0
        } else {
            fl.f[t].ward
        }
    }

    /// Adds unit `t`'s SN Deflection to `d`: a level per die of its ward, of the die's
    /// size, Size Dependent (Ch. D.4 Deflection, Ch. 10.3).
    #[inline]
    pub(super) fn sn_deflection(&self, fl: &Field, t: usize, d: &mut Deflection) {
        let f = &fl.f[t];
        if f.ward == 0 || !self.deflects(fl, t) {
            return;
        }
        let mut dice = [Die::D4; MAX_SN_DICE];
        let n = self.ward_dice(f.kind as usize, f.ward, f.size, &mut dice);
        for die in &dice[..n] {
            d.sn[die.index()] += 1;
        }
    }

    /// SN unit `i`'s Skill roll missed by `by` (not a Critical Failure): with the `aim`
    /// policy its dice in hand are added as Action modifiers, smallest first, one at a
    /// time, when their mean reaches `by` (Ch. D.4: "a direct modifier to be added to ...
    /// a single Action ... Roll"). Returns whether the roll now hits.
    #[cold]
    #[inline(never)]
    pub(super) fn aim<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        by: i64,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        if self.spend_of(fl, i) != Spend::Aim {
            return false;
        }
        let k = &self.kinds[fl.f[i].kind as usize];
        let ready = self.sn_ready(fl, i);
        if ready == 0 || (by as f64) > mean_of(&k.sn, ready) {
            return false;
        }
        let added = self.sn_modifier(fl, i, by, faces, log);
        log.note(format_args!(
            "    {} adds SN dice to the roll: {added:+} of {by} short",
            Who(self, fl, i)
        ));
        added >= by
    }

    /// SN unit `i` must walk and is `short` half-inches from reaching an enemy this turn:
    /// with the `move` policy its dice in hand are Movement dice, largest first, one at a
    /// time until it reaches (Ch. D.4: "The die roll is added to ... the inches in its Move
    /// rating for the turn"); with `mind` its largest die in hand is a new SN Mind whose
    /// Action Sprints, the die rolled as its Action die (Ch. D.4 Minds and Specialties; Ch.
    /// 4.1 Sprint), leaving the unit's own Action. Returns the half-inches added (before
    /// Half Speed).
    #[cold]
    #[inline(never)]
    pub(super) fn sn_walk<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        short: i32,
        faces: &mut F,
        log: &mut L,
    ) -> i32 {
        let k = &self.kinds[fl.f[i].kind as usize];
        let ready = self.sn_ready(fl, i);
        if ready == 0 {
            return 0;
        }
        match self.spend_of(fl, i) {
            Spend::Move => {
                let mut added = 0;
                for b in 0..k.sn.len() {
                    if 2 * added >= short as i64 {
                        break;
                    }
                    if ready & (1 << b) != 0 {
                        fl.f[i].spent |= 1 << b;
                        added += self.sn_roll(k.sn[b], faces, log);
                    }
                }
                // Ch. 10.3 Movement Dice: a Move rating rises "to ... a maximum of 16\"".
                let cap = (2 * MAX_SN_MOVE - k.move_halves).max(0);
                let added = (2 * added.max(0) as i32).min(cap);
                log.note(format_args!(
                    "  {} adds {}\" of SN Movement",
                    Who(self, fl, i),
                    added / 2
                ));
                added
            }
            Spend::Mind => {
                // Largest ready die: the dice are sorted largest first.
                let b = ready.trailing_zeros() as usize;
                fl.f[i].spent |= 1 << b;
                let r = self.minds[k.sn[b].index()].roll(faces, log, 0);
                log.note(format_args!(
                    "  {} Sprints {}\" with an SN {} Mind",
                    Who(self, fl, i),
                    r.total.max(0),
                    k.sn[b]
                ));
                2 * r.total.max(0) as i32
            }
            // Listed, so that a new policy must say whether it walks.
            Spend::Damage
            | Spend::Armor
            | Spend::Bless
            | Spend::Summon
            | Spend::Curse
            | Spend::Aim
            | Spend::Deflect
            | Spend::Arm
            | Spend::Hold
            | Spend::Nullify
            | Spend::Hinder
            | Spend::Weaken
            | Spend::Suppress
            | Spend::Control => 0,
        }
    }

    /// One SN die rolled for an Aspect: its Bonus and Fumble Dice included (Ch. D.3).
    pub(super) fn sn_roll<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        die: Die,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        SnRoll { count: 1, die }
            .roll(&self.opts, faces, log, 0)
            .total
    }

    /// SN unit `i` summons its item while it holds none (Ch. D.3 Summoned Items): its dice
    /// in hand, largest first until their mean reaches the item's SN Price, rolled against
    /// it ([`sn_rules::summon`]). A summoned item is kept as a Lasting Effect, its dice out
    /// until the unit falls; dice short of the Price are wasted for the turn, and a
    /// Fumbled summoning (all 1s) brings nothing it can use. An Effect on itself: no
    /// Action.
    fn arm<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        let kind = fl.f[i].kind as usize;
        let Some(summons) = &self.kinds[kind].summons else {
            // Nothing to summon: it holds its item (the armed kind names none), or it is
            // played by a side whose `arm` policy it was not fielded with.
            return;
        };
        let k = &self.kinds[kind];
        let ready = self.sn_ready(fl, i);
        let mut dice = [Die::D4; MAX_SN_DICE];
        let (mut n, mut bits) = (0, 0u8);
        for b in 0..k.sn.len() {
            if mean_of(&dice[..n], u8::MAX) >= summons.price as f64 {
                break;
            }
            if ready & (1 << b) != 0 {
                dice[n] = k.sn[b];
                n += 1;
                bits |= 1 << b;
            }
        }
        if mean_of(&dice[..n], u8::MAX) < summons.price as f64 {
            return;
        }
        let got = sn_rules::summon(&dice[..n], summons.price, &self.opts, faces, log);
        log.note(format_args!(
            "  {} summons a {} with {n} SN dice: {got:?}",
            Who(self, fl, i),
            summons.item
        ));
        if got == sn_rules::Summoning::Summoned {
            fl.f[i].lasting |= bits;
            fl.f[i].kind = (self.fielded..self.kinds.len())
                .find(|&j| self.bare[j] as usize == kind)
                .expect("every kind that summons has its armed kind")
                as u16;
        } else {
            fl.f[i].spent |= bits;
        }
    }

    /// The beginning of SN unit `i`'s turn: Lasting Effects by its side's policy. Neither
    /// costs an Action: a ward is on itself, a Blessing touches a willing ally (Ch. D.3).
    #[cold]
    #[inline(never)]
    pub(super) fn sn_turn<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        match self.spend_of(fl, i) {
            spend @ (Spend::Armor | Spend::Deflect) => {
                let ready = self.sn_ready(fl, i);
                if ready != 0 {
                    fl.f[i].ward |= ready;
                    fl.f[i].lasting |= ready;
                    log.note(format_args!(
                        "  {} wards itself with {} SN dice of {}",
                        Who(self, fl, i),
                        ready.count_ones(),
                        if spend == Spend::Armor {
                            "Armor"
                        } else {
                            "Deflection"
                        }
                    ));
                }
            }
            Spend::Bless => {
                self.reclaim(fl, i);
                self.bless(fl, i, log);
            }
            Spend::Curse => self.reclaim(fl, i),
            Spend::Summon => self.summon(fl, i, faces, log),
            Spend::Arm => self.arm(fl, i, faces, log),
            Spend::Weaken | Spend::Suppress | Spend::Control => self.lift_hexes(fl, i, log),
            Spend::Damage
            | Spend::Aim
            | Spend::Move
            | Spend::Mind
            | Spend::Hold
            | Spend::Nullify
            | Spend::Hinder => {}
        }
    }

    /// Cancels the Blessings and Curses of `i` on units that fell (the dice come back now:
    /// "cancel the Effect to get the Dice back immediately", Ch. D.3).
    fn reclaim(&self, fl: &mut Field, i: usize) {
        let k = &self.kinds[fl.f[i].kind as usize];
        let me = i as u8 + 1;
        // Which of its dice are out in Blessings and Curses that still stand.
        let mut out = 0u8;
        for t in 0..self.roster.len() {
            if fl.f[t].blesser != me {
                continue;
            }
            let die = Die::ALL[(fl.f[t].blessing & !CURSE) as usize - 1];
            let free = (0..k.sn.len()).find(|&b| k.sn[b] == die && out & (1 << b) == 0);
            match free {
                Some(b) if fl.f[t].alive => out |= 1 << b,
                _ => (fl.f[t].blessing, fl.f[t].blesser) = (0, 0),
            }
        }
        fl.f[i].lasting = out;
    }

    /// Blesses the allies within touch with the strongest weapons, largest die first. The
    /// Undead are passed over: to them "Blessings are treated as Curses" (Ch. 10.4).
    fn bless<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, log: &mut L) {
        let k = &self.kinds[fl.f[i].kind as usize];
        let me = i as u8 + 1;
        loop {
            let ready = self.sn_ready(fl, i);
            if ready == 0 {
                return;
            }
            // Largest ready die: the dice are sorted largest first.
            let b = ready.trailing_zeros() as usize;
            let die = k.sn[b];
            let side = fl.f[i].side;
            let best = self.least(fl, side, |t| {
                let f = &fl.f[t];
                let kt = &self.kinds[f.kind as usize];
                let ok = f.alive
                    && f.blessing == 0
                    && f.size <= 1
                    && !kt.undead
                    && fl.gap(t, i) <= CONTACT
                    && self.blessed[f.kind as usize][die.index()].is_some()
                    && sn_rules::can_bless(die, kt.skill.die());
                // Strongest weapon first; the mean in thousandths orders it.
                ok.then(|| -(kt.arms.first().map_or(0.0, |a| a.mean) * 1000.0) as i64)
            });
            let Some((_, t)) = best else {
                return;
            };
            fl.f[t].blessing = die.index() as u8 + 1;
            fl.f[t].blesser = me;
            fl.f[i].lasting |= 1 << b;
            log.note(format_args!(
                "  {} Blesses {} with an SN {die}",
                Who(self, fl, i),
                Who(self, fl, t)
            ));
        }
    }

    /// SN unit `i` has hit `t`: with the `curse` policy its largest die in hand that may
    /// Curse `t`'s Skill die is left on it as a Lasting Curse (Ch. D.4: delivered by "a
    /// successful Close Combat or Ranged attack", D.3). One Curse a target, Size 1" targets
    /// only (Size Dependent), never the Undead (to them a Curse is a Blessing).
    #[cold]
    #[inline(never)]
    pub(super) fn curse<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, t: usize, log: &mut L) {
        if self.spend_of(fl, i) != Spend::Curse {
            return;
        }
        let f = fl.f[t];
        let kt = &self.kinds[f.kind as usize];
        if !f.alive || f.blessing != 0 || f.size > 1 || kt.undead {
            return;
        }
        let k = &self.kinds[fl.f[i].kind as usize];
        let ready = self.sn_ready(fl, i);
        let Some(b) = (0..k.sn.len()).find(|&b| {
            ready & (1 << b) != 0
                && sn_rules::can_bless(k.sn[b], kt.skill.die())
                && self.cursed[f.kind as usize][k.sn[b].index()].is_some()
        }) else {
            return;
        };
        fl.f[t].blessing = CURSE | (k.sn[b].index() as u8 + 1);
        fl.f[t].blesser = i as u8 + 1;
        fl.f[i].lasting |= 1 << b;
        log.note(format_args!(
            "    {} Curses {} with an SN {}",
            Who(self, fl, i),
            Who(self, fl, t),
            k.sn[b]
        ));
    }

    /// SN unit `i` spends its dice in hand on the Damage of its hit on `t` (Ch. D.4): d8s
    /// lose a point an inch, d10s widen the radius, d12s pass a Parry. The d10s stay in hand
    /// when their radius would catch the caster or an ally: the radius takes "friend and foe
    /// alike", and a player would not fireball his own side.
    #[cold]
    #[inline(never)]
    pub(super) fn sn_damage<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        faces: &mut F,
        log: &mut L,
    ) -> SnDamage {
        let k = &self.kinds[fl.f[i].kind as usize];
        let mut ready = self.sn_ready(fl, i);
        let d10s = (0..k.sn.len())
            .filter(|&b| ready & (1 << b) != 0 && k.sn[b] == Die::D10)
            .fold(0u8, |m, b| m | (1 << b));
        if d10s != 0 {
            let reach = 2 * sn_rules::radius_inches(d10s.count_ones()) as i32;
            let side = fl.f[i].side;
            let friend = (0..self.roster.len()).any(|u| {
                let f = &fl.f[u];
                u != t && f.alive && f.side == side && fl.gap(u, t) <= reach
            });
            if friend {
                ready &= !d10s;
            }
        }
        let mut out = SnDamage::default();
        if ready == 0 {
            return out;
        }
        fl.f[i].spent |= ready;
        let dist = fl.gap(t, i);
        let mut blast_loss = (dist / 2).max(0) as u32;
        for (b, &die) in k.sn.iter().enumerate() {
            if ready & (1 << b) == 0 {
                continue;
            }
            let mut t = self.sn_roll(die, faces, log);
            match die {
                Die::D8 => {
                    // The loss is taken across the d8s until it is used up.
                    let kept = sn_rules::blast_damage(t, blast_loss);
                    blast_loss -= (t - kept).clamp(0, blast_loss as i64) as u32;
                    t = kept;
                }
                Die::D10 => out.radius += sn_rules::radius_inches(1),
                // Net of its Fumble Die: Fire "reduced to zero ... has no effect" (Ch. 8.3).
                Die::D4 => {
                    let t = t.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                    out.fire = out.fire.saturating_add(t);
                }
                _ => {}
            }
            if sn_rules::deflectable(die) {
                // An SN die's total fits 32 bits but for absurd Bonus chains.
                out.totals[out.n as usize] = t.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                out.dice[out.n as usize] = die;
                out.n += 1;
            } else {
                out.undeflectable += t;
            }
        }
        // Two notes, not a `format!`: a log that keeps none must not allocate.
        if out.radius > 0 {
            log.note(format_args!(
                "    {} SN dice of Damage: {:+}, radius {}\"",
                ready.count_ones(),
                out.total(),
                out.radius
            ));
        } else {
            log.note(format_args!(
                "    {} SN dice of Damage: {:+}",
                ready.count_ones(),
                out.total()
            ));
        }
        out
    }

    /// The dice of unit kind `kind`'s ward `ward` on Size `size`, Size Dependent (Ch.
    /// 10.3), written to the front of `dice`: returns how many.
    fn ward_dice(&self, kind: usize, ward: u8, size: u32, dice: &mut [Die; MAX_SN_DICE]) -> usize {
        let mut n = 0;
        for (b, &d) in self.kinds[kind].sn.iter().enumerate() {
            if ward & (1 << b) != 0 {
                dice[n] = d;
                n += 1;
            }
        }
        sn_rules::size_dependent(&mut dice[..n], size)
    }

    /// An SN Armor ward's roll for unit `t`: its ward dice, Size Dependent (Ch. 10.3), each
    /// rolled as an SN die (a Fumble is the attacker's to subtract).
    #[cold]
    #[inline(never)]
    pub(super) fn ward_roll<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        kind: usize,
        ward: u8,
        size: u32,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        let mut dice = [Die::D4; MAX_SN_DICE];
        let m = self.ward_dice(kind, ward, size, &mut dice);
        dice[..m]
            .iter()
            .map(|&die| self.sn_roll(die, faces, log))
            .sum()
    }

    /// A hit's Armor `armor` on a unit of kind `kind` and Size `size` with what an Armor
    /// ward adds (its roll), an enemy's `weaken` dice take off ([`Squad::weakened`]) and
    /// burning takes off (-1d4, Ch. 8.3).
    #[cold]
    #[inline(never)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn armor_sn<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        armor: i64,
        kind: usize,
        ward: u8,
        size: u32,
        burning: bool,
        hex: &super::hexes::HexDice,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        let mut a = armor;
        if ward != 0 {
            a += self.ward_roll(kind, ward, size, faces, log);
        }
        if hex.any() {
            a = self.weakened(a, hex, faces, log);
        }
        if burning {
            a -= crate::rules::fire::penalty(faces, log);
        }
        a
    }

    /// Ends the Lasting Effects of SN unit `c`, incapacitated: "until the SuperNatural
    /// minifig who owns the Dice is incapacitated" (Ch. D.3).
    #[cold]
    #[inline(never)]
    pub(super) fn sn_end(&self, fl: &mut Field, c: usize) {
        let me = c as u8 + 1;
        for f in fl.f.iter_mut().take(self.roster.len()) {
            if f.blesser == me {
                (f.blessing, f.blesser) = (0, 0);
            }
        }
        if self.spend_of(fl, c).hexes() {
            self.end_hexes(fl, c);
        }
        (fl.f[c].ward, fl.f[c].lasting, fl.f[c].spent) = (0, 0, 0);
        if !self.pions.is_empty() {
            self.dismiss_pions(fl, c);
        }
        // A summoned item is gone with the Effect.
        fl.f[c].kind = self.bare[fl.f[c].kind as usize];
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::standing;
    use super::*;
    use crate::catalog::Catalog;
    use crate::dice::NoLog;
    use crate::rules::RuleOptions;
    use crate::scenario::duel::{First, Side};
    use crate::scenario::squad::{Policy, SideSpec, SquadOutcome};

    const D6: Die = Die::D6;
    const D8: Die = Die::D8;
    const D10: Die = Die::D10;

    pub(in crate::scenario::squad::battle) fn squad(
        a: &[(&str, u32)],
        spend: Spend,
        b: &[(&str, u32)],
        distance: u32,
        turns: u32,
    ) -> Squad {
        squad_with(a, spend, b, distance, turns, RuleOptions::default())
    }

    /// [`squad`] under options `o`.
    pub(in crate::scenario::squad::battle) fn squad_with(
        a: &[(&str, u32)],
        spend: Spend,
        b: &[(&str, u32)],
        distance: u32,
        turns: u32,
        o: RuleOptions,
    ) -> Squad {
        // These tests are about SN dice: no Response before a unit's first turn keeps the
        // scripts to the caster's own rolls.
        let o = RuleOptions {
            opening_response: crate::rules::OpeningResponse::None,
            ..o
        };
        let side = |units: &[(&str, u32)], spend| {
            let units: Vec<(String, u32)> =
                units.iter().map(|(k, n)| (k.to_string(), *n)).collect();
            // On one spot: a caster in touch with the allies it Blesses.
            let p = Policy {
                spend,
                spacing: crate::scenario::squad::Spacing(0),
                ..Policy::default()
            };
            SideSpec::from_catalog(&Catalog::builtin(), &units, p, &o).unwrap()
        };
        Squad::new(
            side(a, spend),
            side(b, Spend::Damage),
            distance,
            First::A,
            turns,
            o,
        )
        .unwrap()
    }

    pub(in crate::scenario::squad::battle) fn run(
        s: &Squad,
        script: &[(Die, u32)],
    ) -> SquadOutcome {
        crate::scenario::scripted(s, script)
    }

    const WIZ: (&str, u32) = ("wizard", 1);
    const MF: (&str, u32) = ("minifig-hand-weapon", 1);

    #[test]
    fn sn_damage_rides_the_staff_d8s_fade_and_d10s_blast_the_rest() {
        // 8" apart; the Staff reaches 10". Turn 1: hit (3 vs Use 3); SN d10 2, d8 5 (less
        // 8" of Blast: 0), d6 2: Damage 4 ties B1's Armor 4; the d10's 2" radius takes B2
        // standing with it: 4 vs 4 again. Turn 2: B walks 5", out of reach. A draw.
        let s = squad(&[WIZ], Spend::Damage, &[("minifig-hand-weapon", 2)], 8, 2);
        let o = run(&s, &[(D6, 3), (D10, 2), (D8, 5), (D6, 2)]);
        assert_eq!((o.winner, o.ties, o.survivors), (None, 2, [1, 2]));
        // Better dice: 9 kills both, the one hit and the one in the radius.
        let s = squad(&[WIZ], Spend::Damage, &[("minifig-hand-weapon", 2)], 8, 2);
        let o = run(&s, &[(D6, 3), (D10, 5), (D8, 5), (D6, 4)]);
        assert_eq!((o.winner, o.turns, o.survivors), (Some(Side::A), 1, [1, 0]));
    }

    #[test]
    fn a_caster_in_contact_keeps_its_d10s_out_of_its_own_radius() {
        // In contact the d10's radius would take the Wizard too: it spends the d8 (no
        // inches of Blast lost) and the d6 only. 2 + 2 ties Armor 4.
        let s = squad(&[WIZ], Spend::Damage, &[MF], 0, 1);
        let o = run(&s, &[(D6, 4), (D8, 2), (D6, 2)]);
        assert_eq!((o.winner, o.ties), (None, 1));
    }

    #[test]
    fn a_ward_is_rolled_with_armor_and_its_dice_cost_skill_while_out() {
        // Turn 1: the Wizard wards itself with all three dice (-3 Skill from now on): a 6
        // hits (6 - 3 vs Use 3) for no Damage. Turn 2: B hits (3), Damage 6 vs Armor 4 +
        // ward d10 5, d8 3, d6 2: no effect. Turn 3: a 5 misses (5 - 3 < 3).
        let s = squad(&[WIZ], Spend::Armor, &[MF], 0, 3);
        let script = [
            (D6, 6),
            (D6, 3),
            (D6, 6),
            (D6, 1), // the d6 Damage's Bonus d6
            (D10, 5),
            (D8, 3),
            (D6, 2),
            (D6, 5),
        ];
        let o = run(&s, &script);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn a_summoned_10amyte_runs_at_the_enemy_and_explodes() {
        // 6" apart. The Wizard's d10 summons a 10amyte: its Move roll 7 takes it the 6" to
        // the two minifigs; no ally within 2" of them, so it blows itself up: 1d10 Exp 6
        // beats Armor 4 on both. Side B is gone in turn 1.
        let s = squad(&[WIZ], Spend::Summon, &[("minifig-hand-weapon", 2)], 6, 1);
        let o = run(&s, &[(D10, 7), (D10, 6)]);
        assert_eq!((o.winner, o.turns, o.survivors), (Some(Side::A), 1, [1, 0]));
        // In contact the Wizard would be in the ring: the 10amyte is dismissed, its d10
        // spent (-1 Skill). The Staff hits (4 - 1 vs Use 3) with the d8 and d6: 2 + 2.
        let s = squad(&[WIZ], Spend::Summon, &[MF], 0, 1);
        let o = run(&s, &[(D10, 7), (D6, 4), (D8, 2), (D6, 2)]);
        assert_eq!((o.winner, o.ties), (None, 1));
    }

    #[test]
    fn a_hit_leaves_a_curse_that_keeps_the_lower_roll() {
        // Turn 1: the Wizard's Staff hits (4) and leaves its d10 on B1 as a Curse (no
        // Damage). Turn 2: B1 rolls 5 and the Curse 1: the kept 1 is a Critical Failure.
        // Turn 3: the Wizard, -1 for the die out, hits with a 4; B1 already carries a
        // Curse. A draw after three turns.
        let s = squad(&[WIZ], Spend::Curse, &[MF], 0, 3);
        let o = run(&s, &[(D6, 4), (D6, 5), (D10, 1), (D6, 4)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn a_bare_handed_caster_grabs_or_spends_range_dice() {
        // In contact the Mystik Grabs (an Automatic Hit, no roll) and spends both dice on
        // Damage: d8 3 + d6 2 > Armor 4.
        let s = squad(&[("mystik", 1)], Spend::Damage, &[MF], 0, 1);
        let o = run(&s, &[(D8, 3), (D6, 2)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // 3" off: the d6's mean 3.5" reaches, so it goes on Range (4"), no Skill roll; the
        // d8 on Damage, 7 less 3" of Blast: 4 ties Armor 4.
        let s = squad(&[("mystik", 1)], Spend::Damage, &[MF], 3, 1);
        let o = run(&s, &[(D6, 4), (D8, 7)]);
        assert_eq!((o.winner, o.ties), (None, 1));
        // 4" off the mean falls short: it walks 3" into contact instead and Grabs: d8 5
        // less 1" of Blast, and the d6's 1 is a Fumble the opponent rolls (2) and takes
        // off: 2, no effect.
        let s = squad(&[("mystik", 1)], Spend::Damage, &[MF], 4, 1);
        let o = run(&s, &[(D8, 5), (D6, 1), (D6, 2)]);
        assert_eq!(
            (o.winner, o.ties),
            (None, 0),
            "the d6's Fumble (opponent's 2) leaves 3"
        );
    }

    #[test]
    fn aim_dice_rescue_a_missed_roll_but_never_a_critical_failure() {
        // In contact: the Staff's 2 misses Use 3 by 1; the SN d6 (smallest first) adds 3:
        // a hit. The d10 stays out of its own radius; the d8's 5 beats Armor 4.
        let s = squad(&[("wizard@aim", 1)], Spend::Damage, &[MF], 0, 1);
        let o = run(&s, &[(D6, 2), (D6, 3), (D8, 5)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // Fumbled aim dice are the opponent's to subtract: the d6's 1 (he rolls 2), the
        // d8's 2, the d10's 1 (he rolls 3): -3, still short after every die in hand.
        let o = run(
            &s,
            &[(D6, 2), (D6, 1), (D6, 2), (D8, 2), (D10, 1), (D10, 3)],
        );
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // A natural 1 is a Critical Failure whatever the SN dice (Ch. D.4): nothing rolled.
        let o = run(&s, &[(D6, 1)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn movement_dice_carry_a_bare_handed_caster_into_contact() {
        // 12" off, the Mystik walks 5" and is 6" short of contact: its d8 (largest first)
        // adds 6" of Movement; in contact it Grabs with the d6 left: 5 > Armor 4.
        let s = squad(&[("mystik@move", 1)], Spend::Damage, &[MF], 12, 1);
        let o = run(&s, &[(D8, 6), (D6, 5)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // 2" and then 2" (the d6 rolled too) leave it 2" short: no Grab, no dice left.
        let o = run(&s, &[(D8, 2), (D6, 2)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn movement_dice_raise_move_to_16_inches_at_most() {
        // 40" off, 34" short after its 5" Move: the d8 rolls 8, 8, 3 (19") and the d6 2, but
        // a Move rating rises to 16" at most (Ch. 10.3): 11" added, 16" walked.
        let s = squad(&[("mystik@move", 1)], Spend::Damage, &[MF], 0, 1);
        let mut fl = standing(&s, 80);
        let mut dice = crate::dice::Script::new(&[(D8, 8), (D8, 8), (D8, 3), (D6, 2)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(fl.f[0].pos, 32.0);
    }

    #[test]
    fn an_sn_mind_sprints_so_the_units_own_action_still_attacks() {
        // 16" off with a 10" Staff: 1" short after its 5" Move. The d10 becomes a Mind and
        // Sprints 4" (its roll); the Wizard, -1 for the die out, hits with a 5 (4 vs Use 3)
        // and puts the d8 (7, less 10" of Blast: 0) and the d6 (5) on Damage: 5 > 4.
        let s = squad(&[("wizard@mind", 1)], Spend::Damage, &[MF], 16, 1);
        let o = run(&s, &[(D10, 4), (D6, 5), (D8, 7), (D6, 5)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // The penalty counts the Mind: a 3 (2 vs Use 3) misses.
        let o = run(&s, &[(D10, 4), (D6, 3)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn a_deflection_ward_takes_damage_dice_of_its_size_or_smaller() {
        // Turn 1: the Wizard wards itself with three levels of Deflection (d10, d8, d6;
        // -3 Skill): its 6 hits for nothing. Turn 2: the minifig hits (3); its Hand
        // Weapon's d6 (6 and a Bonus 2) is Deflected: no effect.
        let s = squad(&[("wizard@deflect", 1)], Spend::Damage, &[MF], 0, 2);
        let o = run(&s, &[(D6, 6), (D6, 3), (D6, 6), (D6, 2)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // Unwarded (the Wizard holds its dice) the same 8 beats Armor 4.
        let s = squad(&[("wizard@hold", 1)], Spend::Damage, &[MF], 0, 2);
        let o = run(&s, &[(D6, 6), (D6, 3), (D6, 6), (D6, 2)]);
        assert_eq!(o.winner, Some(Side::B));
    }

    #[test]
    fn a_summoned_item_is_kept_as_a_lasting_effect() {
        // 4" off, the Mystik summons a Hand Weapon (SN Price 2: the d8 alone, mean 4.5):
        // 3 >= 2, it holds one, -1 Skill while the d8 is out. It walks into contact and
        // strikes: 4 - 1 vs Use 2 hits; the SN d6 (2) and the weapon's d6 (4): 6 > 4.
        let s = squad(&[("mystik@arm:hand-weapon", 1)], Spend::Damage, &[MF], 4, 1);
        let o = run(&s, &[(D8, 3), (D6, 4), (D6, 2), (D6, 4)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // All 1s: a Fumbled summoning (the opponent's Fumble Die 3 is rolled), nothing to
        // hold. It walks in and Grabs with its d6: 2 vs Armor 4.
        let o = run(&s, &[(D8, 1), (D8, 3), (D6, 2)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // The item is gone when its summoner falls: the kind reverts.
        let mut fl = standing(&s, 8);
        s.sn_turn(
            &mut fl,
            0,
            &mut crate::dice::Script::new(&[(D8, 5)]),
            &mut NoLog,
        );
        assert_ne!(fl.f[0].kind, 0);
        assert_eq!(s.sn_penalty(&fl, 0), -1);
        s.kill(&mut fl, 0);
        assert_eq!((fl.f[0].kind, fl.f[0].lasting), (0, 0));
    }

    #[test]
    fn the_arm_policy_names_its_item() {
        let o = RuleOptions::default();
        let bad = |text: &str, spend| {
            let p = Policy {
                spend,
                ..Policy::default()
            };
            SideSpec::from_catalog(&Catalog::builtin(), &[(text.into(), 1)], p, &o).unwrap_err()
        };
        // Typed, and said with a hint.
        assert!(matches!(
            bad("mystik@arm", Spend::Damage),
            crate::scenario::squad::SideError::ItemWithoutArm { .. }
        ));
        let bad = |text: &str, spend| bad(text, spend).to_string();
        assert!(bad("mystik@arm", Spend::Damage).contains("mystik@arm:hand-weapon"));
        assert!(bad("mystik", Spend::Arm).contains("needs the item"));
        assert!(bad("mystik@bless:hand-weapon", Spend::Damage).contains("arm policy only"));
        let e = bad("mystik@arm:bazooka", Spend::Damage);
        assert!(e.contains("minifig weapons only"), "{e}");
        assert!(bad("mystik@zap", Spend::Damage).contains("aim, move, mind, deflect, arm"));
    }

    #[test]
    fn a_unit_may_carry_its_own_spend_policy() {
        // `wizard@armor` wards itself although its side spends on Damage: the same script
        // as the ward test, with the side's policy `damage`.
        let s = squad(&[("wizard@armor", 1)], Spend::Damage, &[MF], 0, 3);
        let script = [
            (D6, 6),
            (D6, 3),
            (D6, 6),
            (D6, 1),
            (D10, 5),
            (D8, 3),
            (D6, 2),
            (D6, 5),
        ];
        assert_eq!(run(&s, &script).survivors, [1, 1]);
        assert_eq!(s.kinds()[0].key, "wizard@armor");
        let o = RuleOptions::default();
        let bad = |text: &str| {
            SideSpec::from_catalog(
                &Catalog::builtin(),
                &[(text.into(), 1)],
                Policy::default(),
                &o,
            )
            .unwrap_err()
            .to_string()
        };
        assert!(
            bad("wizard@zap").contains("not a spend policy"),
            "{}",
            bad("wizard@zap")
        );
        assert!(bad("minifig-hand-weapon@bless").contains("no SuperNatural dice"));
    }

    #[test]
    fn blessings_go_to_the_strongest_ally_and_end_with_their_caster() {
        // Turn 1: the Wizard Blesses A2 (a Hand Weapon beats a Staff) with its d10 and
        // itself with the d8, -2 Skill. Its own roll: 2 and the Blessing's 7, less 2, hits
        // for nothing. A2 rolls 1 and the d10's 9: the kept 9 hits (no Critical Failure),
        // an Overskill Benny adds a Damage d6: 3 + 2 > 4.
        let s = squad(&[WIZ, MF], Spend::Bless, &[MF], 0, 1);
        let o = run(&s, &[(D6, 2), (D8, 7), (D6, 1), (D10, 9), (D6, 3), (D6, 2)]);
        assert_eq!((o.winner, o.survivors), (Some(Side::A), [2, 0]));

        // The Blessings end when the Wizard falls (Ch. D.3).
        let mut fl = standing(&s, 0);
        s.sn_turn(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        assert_eq!(
            (fl.f[1].blessing, fl.f[1].blesser),
            (D10.index() as u8 + 1, 1)
        );
        assert_eq!(fl.f[0].blessing, D8.index() as u8 + 1);
        assert_eq!(s.sn_penalty(&fl, 0), -2);
        s.kill(&mut fl, 0);
        assert_eq!((fl.f[1].blessing, fl.f[0].lasting), (0, 0));
    }
}
