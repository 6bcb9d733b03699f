//! SN dice left on an enemy (Ch. D.4 Armor; Ch. 10.3 Armor and Mind), delivered by a hit
//! ("a successful Close Combat or Ranged attack", Ch. D.3), by the caster's `spend` policy:
//! - `weaken`: Armor dice, rolled off the enemy's Armor each time it is called for;
//! - `suppress`: a Mind die that rolled higher than the enemy's Skill die: a comatose
//!   stupor, in which it neither moves nor acts, Responds, Parries nor Bails;
//! - `control`: then a second Mind die: the enemy fights for the caster, the die its Skill,
//!   until it Critically Fails a Skill roll.
//!
//! The dice stay out as a Lasting Effect, each costing the caster -1 Skill (Ch. 10.3), until
//! the enemy falls (they come back at the caster's next turn) or the caster falls (its
//! Effects end at once). One hex a target, Size 1" targets for the Mind dice (Size
//! Dependent). The hexes live in `Field::hex`, beside the figures: a [`Figure`] fills its
//! cache line.

use super::*;
use crate::dice::{Die, Faces, Log};
use crate::rules::attack::Deflection;
use crate::rules::supernatural::{self as sn_rules, MAX_SN_DICE};
use crate::scenario::squad::Spend;

/// What a hex's dice do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum HexKind {
    None,
    Weakened,
    /// `weaken` on a target with Deflection: its levels no longer reach the dice's size.
    Undeflected,
    Suppressed,
    Controlled,
}

/// One target's hex.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Hex {
    pub what: HexKind,
    /// 1 + the caster's slot.
    caster: u8,
    /// The caster's dice in it (a bit per die of its kind).
    dice: u8,
    /// Under Mind Control: the controlling die's bit, and the side the target came from.
    mind: u8,
    home: u8,
}

impl Hex {
    pub const NONE: Hex = Hex {
        what: HexKind::None,
        caster: 0,
        dice: 0,
        mind: 0,
        home: 0,
    };
}

/// The dice of a `weaken` hex as they bear on Armor (Size Dependent).
#[derive(Copy, Clone, Debug)]
pub(super) struct HexDice {
    dice: [Die; MAX_SN_DICE],
    n: u8,
}

impl HexDice {
    pub const NONE: HexDice = HexDice {
        dice: [Die::D4; MAX_SN_DICE],
        n: 0,
    };

    pub fn any(&self) -> bool {
        self.n > 0
    }
}

impl Squad {
    /// SN unit `i` hit `t`: a hex by its policy, before the hit's Damage (the dice left go
    /// on it).
    #[cold]
    #[inline(never)]
    pub(super) fn hex_hit<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        match self.spend_of(fl, i) {
            Spend::Weaken => self.weaken(fl, i, t, log),
            spend @ (Spend::Suppress | Spend::Control) => {
                self.suppress(fl, i, t, faces, log);
                if spend == Spend::Control {
                    self.control(fl, i, t, log);
                }
            }
            _ => {}
        }
    }

    /// `weaken`: the smallest `t`'s Size of `i`'s dice in hand go on `t`'s Armor (Size
    /// Dependent: their smallest is the die that comes off); on its Deflection instead if
    /// it has any (Heavy Armor, an SN Deflection ward), where a level that takes a whole
    /// Damage die outweighs a die's roll off Armor.
    fn weaken<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, t: usize, log: &mut L) {
        let f = fl.f[t];
        if !f.alive || fl.hex[t].what != HexKind::None {
            return;
        }
        let k = &self.kinds[fl.f[i].kind as usize];
        let ready = self.sn_ready(fl, i);
        let need = f.size.max(1) as usize;
        if (ready.count_ones() as usize) < need {
            return;
        }
        // Smallest first: the dice are sorted largest first.
        let bits = (0..k.sn.len())
            .rev()
            .filter(|&b| ready & (1 << b) != 0)
            .take(need)
            .fold(0u8, |m, b| m | (1 << b));
        let kt = &self.kinds[f.kind as usize];
        let deflects = kt.deflection > 0 || (f.ward != 0 && self.deflects(fl, t));
        fl.f[i].lasting |= bits;
        fl.hex[t] = Hex {
            what: if deflects {
                HexKind::Undeflected
            } else {
                HexKind::Weakened
            },
            caster: i as u8 + 1,
            dice: bits,
            ..Hex::NONE
        };
        log.note(format_args!(
            "    {} leaves {} SN dice on {}'s {}",
            Who(self, fl, i),
            bits.count_ones(),
            Who(self, fl, t),
            if deflects { "Deflection" } else { "Armor" }
        ));
    }

    /// The dice of a `weaken` hex on `t`'s Armor, Size Dependent.
    #[inline]
    pub(super) fn hex_dice(&self, fl: &Field, t: usize) -> HexDice {
        if !self.spends(Spend::Weaken) || fl.hex[t].what != HexKind::Weakened {
            return HexDice::NONE;
        }
        self.hexed(fl, t)
    }

    /// Takes the levels of a `weaken` hex on `t`'s Deflection off `d` (Ch. D.4: "remove
    /// one level of Deflection against damage dice of the SuperNatural Die's size or
    /// smaller").
    #[inline]
    pub(super) fn hex_deflection(&self, fl: &Field, t: usize, d: &mut Deflection) {
        if !self.spends(Spend::Weaken) || fl.hex[t].what != HexKind::Undeflected {
            return;
        }
        let h = self.hexed(fl, t);
        for die in &h.dice[..h.n as usize] {
            d.less[die.index()] += 1;
        }
    }

    /// A hex's dice on `t`, Size Dependent (Ch. 10.3).
    fn hexed(&self, fl: &Field, t: usize) -> HexDice {
        let h = fl.hex[t];
        let caster = &self.kinds[fl.f[h.caster as usize - 1].kind as usize];
        let mut out = HexDice::NONE;
        let mut n = 0;
        for (b, &d) in caster.sn.iter().enumerate() {
            if h.dice & (1 << b) != 0 {
                out.dice[n] = d;
                n += 1;
            }
        }
        out.n = sn_rules::size_dependent(&mut out.dice[..n], fl.f[t].size) as u8;
        out
    }

    /// Armor `armor` with a `weaken` hex's dice rolled off it (each an SN die, a Fumble the
    /// target's to subtract: Ch. D.3), never below zero.
    #[cold]
    #[inline(never)]
    pub(super) fn weakened<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        armor: i64,
        hex: &HexDice,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        let off: i64 = hex.dice[..hex.n as usize]
            .iter()
            .map(|&d| self.sn_roll(d, faces, log))
            .sum();
        let a = sn_rules::armor_lowered(armor, off);
        log.note(format_args!(
            "    SN dice take {off} off Armor {armor}: {a}"
        ));
        a
    }

    /// `suppress`: `i`'s largest die in hand at least as large as `t`'s Skill die is rolled
    /// against that Skill die; if higher, `t`'s Actions are suppressed while the die stays on
    /// it, else the die is spent for nothing. A Size 1" target that is not already hexed.
    fn suppress<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        let f = fl.f[t];
        if !f.alive || f.size > 1 || fl.hex[t].what != HexKind::None {
            return;
        }
        let kt = &self.kinds[f.kind as usize];
        let k = &self.kinds[fl.f[i].kind as usize];
        let ready = self.sn_ready(fl, i);
        // Largest first: the dice are sorted largest first.
        let Some(b) = (0..k.sn.len())
            .find(|&b| ready & (1 << b) != 0 && sn_rules::can_bless(k.sn[b], kt.skill.die()))
        else {
            return;
        };
        let mind = self.sn_roll(k.sn[b], faces, log);
        let skill = self.skill[f.kind as usize].roll(faces, log, 0).total;
        let die = k.sn[b];
        let done = if sn_rules::suppresses(mind, skill) {
            "suppresses"
        } else {
            "fails to suppress"
        };
        log.note(format_args!(
            "    {}'s SN {die} Mind die ({mind}) {done} {}'s Actions (Skill {skill})",
            Who(self, fl, i),
            Who(self, fl, t)
        ));
        if !sn_rules::suppresses(mind, skill) {
            fl.f[i].spent |= 1 << b;
            return;
        }
        fl.f[i].lasting |= 1 << b;
        fl.hex[t] = Hex {
            what: HexKind::Suppressed,
            caster: i as u8 + 1,
            dice: 1 << b,
            ..Hex::NONE
        };
        // No saved Action to Respond with.
        (fl.f[t].saved, fl.f[t].acted) = (false, true);
    }

    /// `control`: `i`'s largest die in hand gives `t`, which `i` suppressed, a new Mind under
    /// its control (Ch. 10.3): `t` fights for `i`'s side from `i`'s next turn, the die its
    /// Skill.
    fn control<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, t: usize, log: &mut L) {
        let h = fl.hex[t];
        if !fl.f[t].alive || h.what != HexKind::Suppressed || h.caster != i as u8 + 1 {
            return;
        }
        let ready = self.sn_ready(fl, i);
        if ready == 0 {
            return;
        }
        let b = ready.trailing_zeros() as usize;
        fl.f[i].lasting |= 1 << b;
        let (home, side) = (fl.f[t].side, fl.f[i].side);
        fl.hex[t] = Hex {
            what: HexKind::Controlled,
            dice: h.dice | (1 << b),
            mind: 1 << b,
            home,
            ..h
        };
        self.change_side(fl, t, side);
        log.note(format_args!(
            "    {} Mind Controls {} with an SN {}",
            Who(self, fl, i),
            Who(self, fl, t),
            self.kinds[fl.f[i].kind as usize].sn[b]
        ));
    }

    /// Unit `u`, alive, now fights for `side`.
    fn change_side(&self, fl: &mut Field, u: usize, side: u8) {
        let from = fl.f[u].side;
        if from == side {
            return;
        }
        fl.f[u].side = side;
        if fl.f[u].alive {
            fl.alive[from as usize] -= 1;
            fl.alive[side as usize] += 1;
        }
        fl.moved(0);
        fl.moved(1);
    }

    /// Whether unit `u`'s Actions are suppressed (it neither moves nor acts).
    #[inline]
    pub(super) fn suppressed(&self, fl: &Field, u: usize) -> bool {
        self.mind_hexes() && fl.hex[u].what == HexKind::Suppressed
    }

    /// Whether some unit of the battle may suppress or control an enemy.
    #[inline(always)]
    fn mind_hexes(&self) -> bool {
        self.spends(Spend::Suppress) || self.spends(Spend::Control)
    }

    /// The Skill roll of a Mind-Controlled unit `u`: its controller's die (Ch. 10.3).
    #[inline]
    pub(super) fn controlled_skill(&self, fl: &Field, u: usize) -> Option<Die> {
        if !self.spends(Spend::Control) {
            return None;
        }
        let h = fl.hex[u];
        if h.what != HexKind::Controlled {
            return None;
        }
        let caster = &self.kinds[fl.f[h.caster as usize - 1].kind as usize];
        Some(caster.sn[h.mind.trailing_zeros() as usize])
    }

    /// Unit `u` Critically Failed a Skill roll: a Mind Control on it is broken (Ch. 10.3);
    /// it goes back to its side, still suppressed, and the controlling die is spent.
    #[cold]
    #[inline(never)]
    pub(super) fn critical<L: Log + ?Sized>(&self, fl: &mut Field, u: usize, log: &mut L) {
        let h = fl.hex[u];
        if h.what != HexKind::Controlled {
            return;
        }
        let c = h.caster as usize - 1;
        fl.f[c].lasting &= !h.mind;
        fl.f[c].spent |= h.mind;
        fl.hex[u] = Hex {
            what: HexKind::Suppressed,
            dice: h.dice & !h.mind,
            mind: 0,
            ..h
        };
        self.change_side(fl, u, h.home);
        fl.f[u].acted = true;
        log.note(format_args!(
            "    the Critical Failure breaks the Mind Control on {}",
            Who(self, fl, u)
        ));
    }

    /// The beginning of caster `i`'s turn: its hexes on fallen enemies end, their dice back
    /// in hand ("cancel the Effect to get the Dice back immediately", Ch. D.3).
    pub(super) fn lift_hexes<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, log: &mut L) {
        let me = i as u8 + 1;
        for t in 0..self.roster.len() {
            let h = fl.hex[t];
            if h.caster == me && !fl.f[t].alive {
                fl.f[i].lasting &= !h.dice;
                fl.hex[t] = Hex::NONE;
                log.note(format_args!(
                    "  {} takes back its dice from the fallen {}",
                    Who(self, fl, i),
                    Who(self, fl, t)
                ));
            }
        }
    }

    /// Caster `c` fell: its hexes end; a Mind-Controlled unit goes back to its side.
    pub(super) fn end_hexes(&self, fl: &mut Field, c: usize) {
        let me = c as u8 + 1;
        for t in 0..self.roster.len() {
            let h = fl.hex[t];
            if h.caster != me {
                continue;
            }
            if h.what == HexKind::Controlled {
                self.change_side(fl, t, h.home);
            }
            fl.hex[t] = Hex::NONE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::supernatural::tests::{run, squad};
    use super::*;
    use crate::scenario::duel::Side;

    const D6: Die = Die::D6;
    const D8: Die = Die::D8;
    const D10: Die = Die::D10;
    const MF: (&str, u32) = ("minifig-hand-weapon", 1);
    const WIZ: (&str, u32) = ("wizard", 1);

    #[test]
    fn issue_40_weaken_dice_stay_on_the_enemys_armor() {
        // In contact: the Staff hits (4 vs Use 3) and leaves the smallest die, the d6, on
        // the minifig's Armor; the d10 stays out of its own radius and the d8 rolls 2 of
        // Damage. The Armor 4 loses the d6's 3: 1, and 2 fells it.
        let s = squad(&[WIZ], Spend::Weaken, &[MF], 0, 1);
        let o = run(&s, &[(D6, 4), (D8, 2), (D6, 3)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // Two turns: 2 against 4 less the d6's 1 (a Fumble Die, which the minifig's player
        // rolls, 2, and adds back: 6) stands; the minifig misses (1); the Wizard, -1 Skill
        // for the d6 out, hits with 4 and its d8 rolls 5 against 4 less the d6's 2: it falls.
        let s = squad(&[WIZ], Spend::Weaken, &[MF], 0, 3);
        let o = run(
            &s,
            &[
                (D6, 4),
                (D8, 2),
                (D6, 1),
                (D6, 2),
                (D6, 1),
                (D6, 4),
                (D8, 5),
                (D6, 2),
            ],
        );
        assert_eq!((o.winner, o.turns), (Some(Side::A), 3));
    }

    #[test]
    fn issue_40_weaken_dice_take_a_level_of_deflection_off_a_heavy_armored_enemy() {
        // The Wizard's hit leaves its d6 on the Heavy Armor's Deflection: its layer now
        // reaches only dice above a d6. It still takes the Wizard's d8 (5), but not the
        // Hand Weapon's d6 that follows (5), which fells the minifig with the turn's
        // Combined Fire (0 + 5 > 4).
        let a = [WIZ, MF];
        let b = [("minifig-hand-weapon+heavy-armor", 1)];
        let script = [(D6, 4), (D8, 5), (D6, 3), (D6, 5)];
        let s = squad(&a, Spend::Weaken, &b, 0, 1);
        let o = run(&s, &script);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // Spending on Damage instead, the layer takes the d6 too: the d8 5 and d6 2 pool to
        // 7, less the 5, and the Hand Weapon's 5 is taken: 2, no effect.
        let s = squad(&a, Spend::Damage, &b, 0, 1);
        let o = run(&s, &[(D6, 4), (D8, 5), (D6, 2), (D6, 3), (D6, 5)]);
        assert_eq!((o.winner, o.survivors), (None, [2, 1]));
    }

    #[test]
    fn issue_40_a_mind_die_that_rolls_higher_suppresses_the_enemy() {
        // The Staff hits (4); its d10 (the largest at least the minifig's d6) rolls 5
        // against the minifig's Skill roll 3: suppressed. The d8 and d6 go on Damage: 2 + 2
        // ties Armor 4. In turn 2 the minifig lies still: no roll.
        let s = squad(&[WIZ], Spend::Suppress, &[MF], 0, 2);
        let o = run(&s, &[(D6, 4), (D10, 5), (D6, 3), (D8, 2), (D6, 2)]);
        assert_eq!((o.winner, o.ties, o.survivors), (None, 1, [1, 1]));
        // A tie does not suppress: the d10 is spent (-1 Skill), and the minifig strikes in
        // turn 2 (5, Damage 5 > 4).
        let o = run(
            &s,
            &[
                (D6, 4),
                (D10, 3),
                (D6, 3),
                (D8, 2),
                (D6, 2),
                (D6, 5),
                (D6, 5),
            ],
        );
        assert_eq!(o.winner, Some(Side::B));
    }

    #[test]
    fn issue_40_mind_control_takes_the_enemy_until_a_critical_failure() {
        // Suppressed as above, the next die (the d8) takes the minifig under the Wizard's
        // control: side B has no one left fighting for it.
        let s = squad(&[WIZ], Spend::Control, &[MF], 0, 1);
        let o = run(&s, &[(D6, 4), (D10, 5), (D6, 3)]);
        assert_eq!((o.winner, o.survivors), (Some(Side::A), [2, 0]));
        // Against two, the controlled minifig strikes its old comrade at the Wizard's next
        // turn with the d8 as its Skill: a natural 1 is a Critical Failure that breaks the
        // control (it goes back, still suppressed).
        let s = squad(&[WIZ], Spend::Control, &[("minifig-hand-weapon", 2)], 0, 3);
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 5), (D6, 3)]);
        s.act(&mut fl, 0, &mut dice, &mut crate::dice::NoLog);
        assert!(dice.is_done());
        assert_eq!(fl.hex[1].what, HexKind::Controlled);
        assert_eq!((fl.f[1].side, fl.alive), (0, [2, 1]));
        assert_eq!(s.skill_of(&fl, 1), &s.minds[D8.index()]);
        s.new_turn::<false>(&mut fl, 0);
        let mut dice = crate::dice::Script::new(&[(D8, 1)]);
        s.act(&mut fl, 1, &mut dice, &mut crate::dice::NoLog);
        assert!(dice.is_done());
        assert_eq!(fl.hex[1].what, HexKind::Suppressed);
        assert_eq!((fl.f[1].side, fl.alive), (1, [1, 2]));
        // The Wizard falls: its suppression ends with it.
        s.end_hexes(&mut fl, 0);
        assert_eq!(fl.hex[1], Hex::NONE);
    }
}
