//! SN dice spent against an attack on their owner (Ch. D.4, Ch. 10.3), by its `spend` policy:
//! - `nullify`: Damage dice subtracted from a hit that would harm it, once the Damage is
//!   rolled (Ch. D.3: dice "affect events as they occur"): a die of the same size as one of
//!   the hit's Damage dice cancels it unrolled ("There is no rolling involved"), and under
//!   option `sn_subtract=points` the others are rolled off the total;
//! - `hinder`: Action modifiers subtracted from an enemy's Skill roll that hits it.
//!
//! Both are Effects centred on the owner (readings §2): they need no Range and no Action.
//! The dice are spent until their owner's next turn, and cost it -1 Skill each while out.

use super::*;
use crate::dice::{Die, Faces, Log};
use crate::options::SnSubtract;
use crate::rules::ArmorTie;
use crate::rules::attack::{AttackPlan, Hit};
use crate::scenario::squad::Spend;

/// Most Damage dice of one hit kept for cancelling (a hit rolls a handful).
const STRUCK: usize = 16;

/// The Damage dice of a hit on a unit that may cancel them: (total, die), and for whom.
#[derive(Copy, Clone, Debug)]
pub(super) struct Struck {
    dice: [(i64, Die); STRUCK],
    n: u8,
    /// 1 + the target's slot (0: none).
    on: u8,
}

impl Struck {
    pub const EMPTY: Struck = Struck {
        dice: [(0, Die::D4); STRUCK],
        n: 0,
        on: 0,
    };

    /// Adds the dice of `more` (a hit's) to these, or replaces them if they are another
    /// target's.
    pub fn join(&mut self, more: Struck) {
        if self.on != more.on {
            *self = more;
            return;
        }
        for &d in &more.dice[..more.n as usize] {
            if (self.n as usize) < STRUCK {
                self.dice[self.n as usize] = d;
                self.n += 1;
            }
        }
    }

    /// Keeps one more die of the hit on slot `t`.
    pub fn keep(&mut self, t: usize, d: (i64, Die)) {
        if self.on != t as u8 + 1 {
            *self = Struck {
                on: t as u8 + 1,
                ..Struck::EMPTY
            };
        }
        if (self.n as usize) < STRUCK {
            self.dice[self.n as usize] = d;
            self.n += 1;
        }
    }
}

impl Squad {
    /// Whether some SN unit of the battle spends its dice by `spend`.
    #[inline(always)]
    pub(super) fn spends(&self, spend: Spend) -> bool {
        self.spends & (1 << spend as u32) != 0
    }

    /// Whether unit `t` spends its SN dice by `spend` and has one in hand.
    #[inline]
    pub(super) fn guards(&self, fl: &Field, t: usize, spend: Spend) -> bool {
        self.spends(spend)
            && !self.kinds[fl.f[t].kind as usize].sn.is_empty()
            && self.spend_of(fl, t) == spend
            && self.sn_ready(fl, t) != 0
    }

    /// The dice kept of a hit on `t` are forgotten (it was resolved, or what comes is no
    /// weapon's hit).
    #[inline]
    pub(super) fn forget_struck(fl: &mut Field, t: usize) {
        if fl.struck.on == t as u8 + 1 {
            fl.struck.on = 0;
        }
    }

    /// The Damage `damage` on `t` against `armor` after its `nullify` dice, if it has any:
    /// the pools the hit sits in lose what they took.
    #[inline(always)]
    pub(super) fn guarded<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        damage: i64,
        armor: i64,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        if !self.spends(Spend::Nullify) || self.kinds[fl.f[t].kind as usize].sn.is_empty() {
            return damage;
        }
        let left = self.nullify(fl, t, damage, armor, faces, log);
        let off = damage - left;
        if off != 0 {
            let f = &mut fl.f[t];
            for pool in [&mut f.combined, &mut f.combo] {
                if pool.armor != Pool::NOT_ROLLED {
                    pool.damage = (pool.damage as i64 - off) as i32;
                }
            }
        }
        left
    }

    /// An enemy's Skill roll `hit`, `over` past its Use, on unit `t`, with `t`'s `hinder`
    /// dice taken off: a hit they take below Use misses, unless the attacker's unspent
    /// Overskill Benny adds its d6 back (Ch. 4.2).
    #[cold]
    #[inline(never)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn hindered<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        hit: Hit,
        over: i64,
        plan: &AttackPlan,
        faces: &mut F,
        log: &mut L,
    ) -> Hit {
        let Hit::Hit { benny } = hit else {
            return hit;
        };
        let left = over - self.hinder(fl, t, over, faces, log);
        if left >= 0 {
            return hit;
        }
        if benny && let Some(d6) = plan.benny_rescue(faces, log) {
            log.note(format_args!("    the Overskill Benny adds {d6} back"));
            return if left + d6 >= 0 {
                Hit::Hit { benny: false }
            } else {
                Hit::Miss { by: -(left + d6) }
            };
        }
        Hit::Miss { by: -left }
    }

    /// Unit `t` with the `nullify` policy takes `damage` against `armor`: if that would
    /// harm it (a tie only where option `armor_tie` makes a tie do something), its dice in
    /// hand cancel the hit's Damage dice of their own size, the highest first, until it is
    /// safe; then, under `sn_subtract=points`, the dice left are rolled off the Damage,
    /// smallest first, when their mean reaches what is left to save (as `aim` spends).
    /// Returns the Damage left.
    #[cold]
    #[inline(never)]
    pub(super) fn nullify<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        damage: i64,
        armor: i64,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        let mut struck = if fl.struck.on == t as u8 + 1 {
            fl.struck
        } else {
            Struck::EMPTY
        };
        Squad::forget_struck(fl, t);
        if !self.guards(fl, t, Spend::Nullify) {
            return damage;
        }
        // The most Damage that leaves it unharmed.
        let safe = if self.opts.armor_tie == ArmorTie::Survive {
            armor
        } else {
            armor - 1
        };
        if damage <= safe {
            return damage;
        }
        let k = &self.kinds[fl.f[t].kind as usize];
        let mut left = damage;
        // Cancels: the highest Damage die that a die in hand matches, while not yet safe.
        while left > safe {
            let ready = self.sn_ready(fl, t);
            let best = (0..struck.n as usize)
                .filter(|&j| struck.dice[j].0 > 0)
                .filter_map(|j| {
                    let die = struck.dice[j].1;
                    let b = (0..k.sn.len()).find(|&b| ready & (1 << b) != 0 && k.sn[b] == die)?;
                    Some((struck.dice[j].0, j, b))
                })
                .max_by_key(|&(total, j, _)| (total, std::cmp::Reverse(j)));
            let Some((total, j, b)) = best else {
                break;
            };
            fl.f[t].spent |= 1 << b;
            struck.dice[j].0 = 0;
            left -= total;
            log.note(format_args!(
                "    {} cancels a {} of Damage ({total}) with an SN {}",
                Who(self, fl, t),
                k.sn[b],
                k.sn[b]
            ));
        }
        if left > safe && self.opts.sn_subtract == SnSubtract::Points {
            left -= self.sn_modifier(fl, t, left - safe, faces, log);
            log.note(format_args!(
                "    {} takes {left} Damage of {damage}",
                Who(self, fl, t)
            ));
        }
        left
    }

    /// Unit `t` with the `hinder` policy was hit by a Skill roll `over` past its Use (0 or
    /// more): its dice in hand are subtracted from that roll, smallest first, when their
    /// mean reaches `over + 1` (Ch. D.4 Action Modifiers; a Critical Failure is the die's
    /// own, so only hits are hindered). Returns what they took off.
    #[cold]
    #[inline(never)]
    pub(super) fn hinder<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        over: i64,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        let need = over + 1;
        let took = self.sn_modifier(fl, t, need, faces, log);
        if took != 0 {
            log.note(format_args!(
                "    {} takes {took} off the roll with SN dice ({need} would make it miss)",
                Who(self, fl, t)
            ));
        }
        took
    }

    /// Unit `u` rolls its dice in hand, smallest first, one at a time, until they reach
    /// `need`, if their mean reaches it (else it spends none): the sum rolled (Fumble Dice
    /// net, Ch. D.3).
    pub(super) fn sn_modifier<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        u: usize,
        need: i64,
        faces: &mut F,
        log: &mut L,
    ) -> i64 {
        let k = &self.kinds[fl.f[u].kind as usize];
        let ready = self.sn_ready(fl, u);
        if ready == 0 || (need as f64) > supernatural::mean_of(&k.sn, ready) {
            return 0;
        }
        let mut got = 0;
        // Smallest first: the dice are sorted largest first.
        for b in (0..k.sn.len()).rev() {
            if got >= need {
                break;
            }
            if ready & (1 << b) != 0 {
                fl.f[u].spent |= 1 << b;
                got += self.sn_roll(k.sn[b], faces, log);
            }
        }
        got
    }
}

#[cfg(test)]
mod tests {
    use super::super::supernatural::tests::{run, squad, squad_with};
    use super::*;
    use crate::rules::RuleOptions;
    use crate::scenario::duel::Side;

    const D6: Die = Die::D6;
    const D8: Die = Die::D8;
    const MF: (&str, u32) = ("minifig-hand-weapon", 1);

    #[test]
    fn issue_40_a_nullify_die_cancels_a_damage_die_of_its_size_unrolled() {
        // In contact, A's minifig hits the Wizard (4 vs Use 2) for 1d6 5 > Armor 4: the
        // Wizard's SN d6 cancels that d6 with no roll (Ch. 10.3), and both stand.
        let s = squad(&[MF], Spend::Damage, &[("wizard@nullify", 1)], 0, 1);
        let o = run(&s, &[(D6, 4), (D6, 5)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // Holding its dice instead, it falls to the same rolls.
        let s = squad(&[MF], Spend::Damage, &[("wizard@hold", 1)], 0, 1);
        let o = run(&s, &[(D6, 4), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::A));
        // Damage that would not harm it draws no die: 3 < 4, and the Wizard's turn 2 Staff
        // hit (4) spends nothing on Damage either (0 vs 4).
        let s = squad(&[MF], Spend::Damage, &[("wizard@nullify", 1)], 0, 2);
        let o = run(&s, &[(D6, 4), (D6, 3), (D6, 4)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn issue_40_unmatched_nullify_dice_subtract_their_roll_by_option() {
        // A Two-Handed Weapon hits (4 vs Use 4) for 2d6: 5 + 5 = 10 against Armor 4. The
        // d6 cancels a 5; 5 is still one too many, and under `sn_subtract=points` (Ch. D.4)
        // the d8 (smallest first, its mean 4.5 reaches 1) rolls 3 off: 2, no effect.
        let two = [("minifig-two-handed", 1)];
        let s = squad(&two, Spend::Damage, &[("wizard@nullify", 1)], 0, 1);
        let o = run(&s, &[(D6, 4), (D6, 5), (D6, 5), (D8, 3)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // Under `match_only` (Ch. 10.3) only the d6 may subtract: 5 > 4, the Wizard falls.
        let mut opts = RuleOptions::default();
        opts.set("sn_subtract", "match_only").unwrap();
        let s = squad_with(&two, Spend::Damage, &[("wizard@nullify", 1)], 0, 1, opts);
        let o = run(&s, &[(D6, 4), (D6, 5), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::A));
    }

    #[test]
    fn issue_40_hinder_dice_turn_an_enemys_hit_into_a_miss() {
        // The minifig's 4 passes Use 2 by 2: the Wizard's d6 (smallest first; its mean 3.5
        // reaches 3) rolls 3 off the roll: 1, a miss, and no Damage is rolled.
        let s = squad(&[MF], Spend::Damage, &[("wizard@hinder", 1)], 0, 1);
        let o = run(&s, &[(D6, 4), (D6, 3)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        // The d6's 1 is a Fumble Die the minifig's player rolls (2) and adds back (Ch.
        // D.3): -2; the d8's 4 makes +2 of the 3 needed, and the d10's 2 makes 4: a miss.
        let o = run(&s, &[(D6, 4), (D6, 1), (D6, 2), (D8, 4), (Die::D10, 2)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }
}
