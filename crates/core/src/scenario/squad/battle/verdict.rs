//! What a hit does to its target: its Damage against its Armor (a tie by option
//! `armor_tie`), a stomp on a Vermin (Ch. 10.4), the Deflection of a Parry (Ch. 8.2) and
//! the kill.

use std::cmp::Ordering;

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::attack::Deflection;
use crate::rules::{ArmorTie, Parry, ParryFumble, combat};

impl Squad {
    /// Narrates `damage` against `armor` on `t` and what it does (before it is done).
    pub(super) fn verdict<L: Log + ?Sized>(
        &self,
        fl: &Field,
        t: usize,
        damage: i64,
        armor: i64,
        cuts: bool,
        log: &mut L,
    ) {
        let who = Who(self, fl, t);
        match damage.cmp(&armor) {
            Ordering::Greater if fl.f[t].size > 1 => log.note(format_args!(
                "    Damage {damage} vs Armor {armor}: {who} loses an inch of Size"
            )),
            Ordering::Greater => log.note(format_args!(
                "    Damage {damage} vs Armor {armor}: {who} falls"
            )),
            Ordering::Equal if cuts => log.note(format_args!(
                "    Damage {damage} = Armor {armor}: a cutting weapon Dismembers {who}"
            )),
            Ordering::Equal if combat::tie_disrupts(self.opts.armor_tie) => log.note(format_args!(
                "    Damage {damage} = Armor {armor}: {who} is Disrupted"
            )),
            Ordering::Equal => log.note(format_args!(
                "    Damage {damage} = Armor {armor}: {who} stands"
            )),
            Ordering::Less => log.note(format_args!(
                "    Damage {damage} vs Armor {armor}: no effect on {who}"
            )),
        }
    }

    /// Damage `damage` against Armor `armor` on `t`, from `i`'s weapon `w`: a successful hit
    /// takes an inch of Size (a minifig falls), a tie is the `armor_tie` option's, and a
    /// sized weapon larger than `t` knocks it back.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn resolve<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        damage: i64,
        armor: i64,
        log: &mut L,
    ) {
        // Dismemberment (Ch. 10.2): a tie from a cutting weapon on a minifig Amputates.
        let cuts = damage == armor
            && self.opts.armor_tie == ArmorTie::Dismemberment
            && self.cuts(fl, i, w, t);
        self.verdict(fl, t, damage, armor, cuts, log);
        // The weapon first: a Hand Weapon's hit skips the data-dependent test.
        if self.kinds[fl.f[i].kind as usize].arms[w].knocks_back()
            && !(damage > armor && fl.f[t].size <= 1)
        {
            self.knock_back(fl, i, w, t, log);
        }
        match damage.cmp(&armor) {
            Ordering::Greater => {
                fl.blast[t] = Pool::EMPTY;
                let f = &mut fl.f[t];
                (f.combined, f.combo) = (Pool::EMPTY, Pool::EMPTY);
                f.size = combat::size_damage(f.size);
                if f.size == 0 {
                    self.kill(fl, t);
                }
            }
            Ordering::Equal => {
                fl.ties += 1;
                if cuts {
                    self.dismember(fl, t, log);
                } else if combat::tie_disrupts(self.opts.armor_tie) {
                    fl.f[t].disrupted = true;
                }
            }
            Ordering::Less => {}
        }
    }

    /// A stomp on a Vermin that is not Disrupted: "an Attack with Use:0" (Ch. 10.4), so
    /// only a Critical Failure misses, and any hit kills it. No weapon is used; the Vermin's
    /// Bail out of the way is not modelled.
    pub(super) fn stomp<F: Faces + ?Sized, L: Log + ?Sized>(
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

    /// The Deflection on `i`'s hit on `t` with weapon `w`: a Parry's layers in Close
    /// Combat, and `t`'s SN Deflection ward.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    #[inline(always)]
    pub(super) fn deflection<F: Faces + ?Sized, L: Log + ?Sized>(
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
        } + self.kinds[fl.f[t].kind as usize].deflection;
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
    pub(super) fn parry<F: Faces + ?Sized, L: Log + ?Sized>(
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
        if !may
            || d.disrupted
            || d.shield_lost
            || !combat::can_parry(d.size, fl.f[i].size)
            || (self.any_sn && self.suppressed(fl, t))
        {
            return 0;
        }
        if self.opts.parry == Parry::Saved {
            fl.f[t].saved = false;
        }
        let bonus = combat::parry_bonus(self.kinds[ki].arms[w].power.unwrap_or(0));
        let r = self.skill_of(fl, t).roll(faces, log, 0);
        let bonus = bonus + self.penalty(fl, t) + self.fire_penalty(fl, t, faces, log);
        if r.critical_failure && self.any_sn {
            self.critical(fl, t, log);
        }
        let who = Who(self, fl, t);
        if r.critical_failure && self.opts.parry_fumble == ParryFumble::KnockedAway {
            log.note(format_args!(
                "    {who} fumbles the Parry and drops its shield"
            ));
            fl.f[t].shield_lost = true;
            0
        } else if r.critical_failure {
            log.note(format_args!(
                "    {who} fumbles the Parry and keeps its shield"
            ));
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

    pub(super) fn kill(&self, fl: &mut Field, t: usize) {
        if fl.f[t].alive {
            if fl.deferring {
                fl.pending |= 1 << t;
                return;
            }
            if t >= self.units {
                return self.pion_gone(fl, t);
            }
            fl.f[t].alive = false;
            fl.moved(fl.f[t].side);
            fl.alive[fl.f[t].side as usize] -= 1;
            if self.hooks.fall {
                self.fall(fl, t);
            }
        }
    }
}
