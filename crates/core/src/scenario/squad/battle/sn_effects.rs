//! An SN unit's Effects on others (Ch. D.4): the Effect it makes on a target in reach or with
//! Range dice, the rest of the Effect's radius around that target, and what an area's
//! Damage (an Effect's radius, a 10amyte's Explosion) does to each unit in it.

use super::supernatural::*;
use super::{CONTACT, Field, Spot, Who};
use crate::dice::{Faces, Log};
use crate::rules::combat;
use crate::scenario::squad::Squad;

impl Squad {
    /// The rest of an SN Effect's radius around its target `t`: the SN dice's own total for
    /// everything else within it (Ch. D.4).
    #[inline]
    pub(super) fn sn_radius<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        sn: &SnDamage,
        faces: &mut F,
        log: &mut L,
    ) {
        if sn.radius > 0 {
            let centre = fl.at(t);
            let reach = 2 * sn.radius as i32;
            self.area(
                fl,
                centre,
                reach,
                sn.total(),
                sn.fire > 0,
                false,
                Some(t),
                faces,
                log,
            );
        }
        if self.any_fire && sn.fire > 0 {
            self.ignite(fl, t, log);
        }
    }

    /// Everything within `reach` half-inches of `centre` but `except` takes `damage`
    /// against its own Armor (ward included), friend and foe alike: the rest of an SN
    /// Effect's radius (Ch. D.4), or a 10amyte's Explosion (`blast`).
    #[cold]
    #[inline(never)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn area<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        centre: Spot,
        reach: i32,
        damage: i64,
        fire: bool,
        blast: bool,
        except: Option<usize>,
        faces: &mut F,
        log: &mut L,
    ) {
        for u in 0..self.roster.len() {
            let f = fl.f[u];
            if Some(u) == except || !f.alive || fl.gap_to(u, centre) > reach {
                continue;
            }
            self.wound(fl, u, damage, blast, faces, log);
            if fire {
                self.ignite(fl, u, log);
            }
        }
    }

    /// `damage` from an SN Effect or an Explosion (`blast`) on unit `u`, against its own
    /// Armor (ward included); Vermin and Cannon Fodder fall to any of it, Constructs lose
    /// parts. Under `stacking=cumulative` an Explosion's Damage adds to the Damage the
    /// unit took from this player turn's earlier Explosions, against the Armor rolled for
    /// the first of them (Ch. 8.4 "Damage and KnockBack from more than one Explosion can
    /// stack"); burning takes its d4 off each check, as in `diemon blast`.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn wound<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        u: usize,
        damage: i64,
        blast: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        let f = fl.f[u];
        let ku = f.kind as usize;
        let kt = &self.kinds[ku];
        if let Some(cs) = kt.connection {
            return self.knock_apart(fl, u, damage, cs, log);
        }
        if combat::any_hit_kills(kt.vermin, kt.cannon_fodder) {
            log.note(format_args!("    {} is caught and falls", Who(self, fl, u)));
            return self.kill(fl, u);
        }
        let stacked = blast && self.stacks;
        // The Armor of the turn's first Explosion stands for the rest (`stacking`).
        let mut armor = if stacked && fl.blast[u].armor != super::Pool::NOT_ROLLED {
            fl.blast[u].armor as i64
        } else {
            let ward = self.armor_ward(fl, u);
            let mut a = self.armor[ku].roll(faces, log).total;
            if ward != 0 {
                a += self.ward_roll(ku, ward, f.size, faces, log);
            }
            let hex = self.hex_dice(fl, u);
            if hex.any() {
                a = self.weakened(a, &hex, faces, log);
            }
            a
        };
        let damage = if stacked {
            let taken = damage;
            let (damage, rolled) = fl.blast[u].add(damage, || armor);
            armor = rolled;
            if damage != taken {
                log.note(format_args!(
                    "    {} takes {taken} more: the turn's Explosions stack",
                    Who(self, fl, u)
                ));
            }
            damage
        } else {
            damage
        };
        armor += self.fire_penalty(fl, u, faces, log);
        // An Explosion's dice are rolled per ring, not per figure: nothing to cancel.
        Squad::forget_struck(fl, u);
        let left = self.guarded(fl, u, damage, armor, faces, log);
        if stacked && left != damage {
            let b = &mut fl.blast[u];
            b.damage = (b.damage as i64 - (damage - left)) as i32;
        }
        let damage = left;
        self.verdict(fl, u, damage, armor, false, log);
        match damage.cmp(&armor) {
            std::cmp::Ordering::Greater => {
                fl.blast[u] = super::Pool::EMPTY;
                fl.f[u].size = combat::size_damage(f.size);
                if fl.f[u].size == 0 {
                    self.kill(fl, u);
                }
            }
            std::cmp::Ordering::Equal => {
                fl.ties += 1;
                if combat::tie_disrupts(self.opts.armor_tie) {
                    fl.f[u].disrupted = true;
                }
            }
            std::cmp::Ordering::Less => {}
        }
    }

    /// SN unit `i` aims an Effect at the nearest enemy without a weapon (Ch. D.3 Effect
    /// Delivery, D.4 Range): in Close Combat by a Grab with Bare Hands ("Automatic Hit for
    /// Shoves and Grabs"); farther off with Range dice, rolled one at a time, smallest
    /// first, until their inches reach the target ("Hitting a target with a Ranged Effect
    /// automatically costs an Action, but doesn't require an Action Roll"). The largest
    /// die is kept for Damage, so the Effect is tried only when the other dice's mean
    /// inches reach; the dice left after the Range go on Damage. Dice rolled short of the
    /// target are wasted. Returns whether it spent its Action.
    #[cold]
    #[inline(never)]
    pub(super) fn effect<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        if !self.spend_of(fl, i).damage_too() {
            return false;
        }
        let Some((d, t)) = self.nearest(fl, i) else {
            return false;
        };
        let k = &self.kinds[fl.f[i].kind as usize];
        let ready = self.sn_ready(fl, i);
        if ready == 0 {
            return false;
        }
        let need = if d <= CONTACT { 0 } else { (d + 1) / 2 } as i64;
        // Range dice: all but the largest in hand (the dice are sorted largest first).
        let largest = ready & ready.wrapping_neg();
        let range = ready & !largest;
        if (need as f64) > mean_of(&k.sn, range) {
            return false;
        }
        let mut reached = 0i64;
        for b in (0..k.sn.len()).rev() {
            if reached >= need {
                break;
            }
            if range & (1 << b) == 0 {
                continue;
            }
            fl.f[i].spent |= 1 << b;
            reached += self.sn_roll(k.sn[b], faces, log);
        }
        if reached < need {
            log.note(format_args!(
                "  {}'s Effect falls short of {}: {reached}\" of {need}\"",
                Who(self, fl, i),
                Who(self, fl, t)
            ));
            return true;
        }
        if need == 0 {
            log.note(format_args!(
                "  {} aims an Effect at {} (a Grab with Bare Hands)",
                Who(self, fl, i),
                Who(self, fl, t)
            ));
        } else {
            log.note(format_args!(
                "  {} aims an Effect at {} ({reached}\" of Range dice)",
                Who(self, fl, i),
                Who(self, fl, t)
            ));
        }
        let sn = self.sn_damage(fl, i, t, faces, log);
        self.wound(fl, t, sn.total(), false, faces, log);
        self.sn_radius(fl, t, &sn, faces, log);
        true
    }
}
