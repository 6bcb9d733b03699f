//! An attack's dice: the Skill roll that hits (Ch. 4.2), the Damage that follows less its
//! Deflection (Ch. 8.2, D.4), and a pooled Action's hits on a swarm (Ch. 10.4).

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::attack::{AttackPlan, Deflection, Hit, PlainAttack};
use crate::rules::{CombinedFire, combat};
use crate::scenario::squad::Spend;

impl Squad {
    /// The Skill roll of `i`'s attack on `t` (Ch. 4.2), with the target's Size, cover, a
    /// Disrupted target's +1 to ranged fire, blind fire, `action` and the SN and fire
    /// penalties: `Some(benny)` on a hit, `None` on a miss, and the Skill die's face.
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn roll_hit<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        mode: Mode,
        action: i64,
        plan: &AttackPlan,
        quick: Option<&PlainAttack>,
        faces: &mut F,
        log: &mut L,
    ) -> (Option<bool>, u32) {
        let mut m = combat::target_size(fl.f[t].size, self.opts.target_size) + action;
        if mode == Mode::Ranged {
            if !P && self.board.is_some() {
                // On a table the cover and blindness are the table's.
                m += self.sight_modifier(fl, i, t);
            } else {
                m += combat::cover(self.policy[fl.f[t].side as usize].cover);
                if self.policy[fl.f[i].side as usize].blind {
                    m += combat::BLIND_FIRE;
                }
            }
            if fl.f[t].disrupted {
                m += combat::DISRUPTED_RANGED;
            }
        }
        let (hit, natural) = if !P && self.any_sn {
            m += self.penalty(fl, i) + self.fire_penalty(fl, i, faces, log);
            if self.guards(fl, t, Spend::Hinder) {
                let (hit, natural, over) = plan.hit_as_over(self.skill_of(fl, i), faces, log, m);
                (self.hindered(fl, t, hit, over, plan, faces, log), natural)
            } else {
                plan.hit_as(self.skill_of(fl, i), faces, log, m)
            }
        } else {
            if !P && self.any_fire {
                m += self.fire_penalty(fl, i, faces, log);
            }
            match quick {
                Some(q) => q.hit::<true, F, L>(faces, log, m),
                None => plan.hit_natural(faces, log, m),
            }
        };
        let hit = if !P && self.any_thrall && fl.f[i].benny != 0 {
            self.instant_benny_to_hit(fl, i, hit, faces, log)
        } else {
            hit
        };
        let hit = match hit {
            Hit::Miss { by } if !P && self.any_sn && self.aim(fl, i, by, faces, log) => {
                Hit::Hit { benny: false }
            }
            hit => hit,
        };
        if L::NOTES {
            log.scene(crate::dice::Scene::Attack {
                from: i as u16,
                to: t as u16,
                hit: matches!(hit, Hit::Hit { .. }),
            });
        }
        match hit {
            Hit::Hit { benny } => {
                log.note(format_args!("    hit (modifier {m:+})"));
                (Some(benny), natural)
            }
            Hit::Miss { .. } => {
                log.note(format_args!("    miss (modifier {m:+})"));
                (None, natural)
            }
            Hit::CriticalFailure => {
                log.note(format_args!("    Critical Failure"));
                if !P && self.any_sn {
                    self.critical(fl, i, log);
                }
                if !P && self.any_crew {
                    self.lose_homing(fl, i);
                }
                (None, natural)
            }
        }
    }

    /// A hit's Damage roll (Ch. 4.2; an unspent Benny adds a die) less the `layers` of
    /// Deflection (a Parry, Heavy Armor, SN Armor dice: Ch. 8.2, D.4), with the SN dice `i`
    /// spends on Damage, which it also returns. SN units' part in one branch: a plain duel
    /// never builds an `SnDamage`.
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn roll_damage<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        layers: u32,
        benny: bool,
        (plan, quick): (&AttackPlan, Option<&PlainAttack>),
        faces: &mut F,
        log: &mut L,
    ) -> (i64, Option<supernatural::SnDamage>) {
        if !P && self.any_sn {
            self.curse(fl, i, t, log);
            if self.spends & Spend::HEXES != 0 && self.spend_of(fl, i).hexes() {
                self.hex_hit(fl, i, t, faces, log);
            }
            // No SN dice on the Damage of a unit it has just taken under its control.
            let s = if self.spends_on_damage(fl, i) && fl.f[t].side != fl.f[i].side {
                self.sn_damage(fl, i, t, faces, log)
            } else {
                supernatural::SnDamage::default()
            };
            let mut deflection = Deflection::layers(layers);
            self.sn_deflection(fl, t, &mut deflection);
            self.hex_deflection(fl, t, &mut deflection);
            let d = if self.guards(fl, t, Spend::Nullify) {
                // The same draws, each die kept for the SN dice that may cancel it.
                let (dice, n) = s.deflectable();
                let mut kept = defence::Struck::EMPTY;
                let d = plan.damage_each(faces, log, benny, &deflection, &dice[..n], |x| {
                    kept.keep(t, x)
                }) + s.undeflectable;
                fl.struck.join(kept);
                d
            } else if !deflection.is_none() {
                let (dice, n) = s.deflectable();
                plan.damage_deflected(faces, log, benny, &deflection, &dice[..n]) + s.undeflectable
            } else {
                plan.damage(faces, log, benny) + s.total()
            };
            return (d, Some(s));
        }
        let d = if layers > 0 {
            plan.damage_deflected(faces, log, benny, &Deflection::layers(layers), &[])
        } else if let Some(q) = quick {
            q.damage::<true, F, L>(faces, log, benny)
        } else {
            plan.damage(faces, log, benny)
        };
        (d, None)
    }

    /// A hit's `damage` on `t` into the pools (option `combined_fire`, readings §2; a Vermin
    /// swarm, Ch. 10.4; one Action's weapons, `combine`), its Armor rolled for the first of
    /// them: the Damage and Armor to compare now, or `None` when the Action resolves it
    /// after its last weapon.
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn pool_hit<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        t: usize,
        damage: i64,
        (plan, quick): (&AttackPlan, Option<&PlainAttack>),
        combine: bool,
        vermin: bool,
        faces: &mut F,
        log: &mut L,
    ) -> Option<(i64, i64)> {
        let kt = fl.f[t].kind as usize;
        let combined = self.opts.combined_fire == CombinedFire::Turn;
        let (ward, burning, size) = if !P && (self.any_sn || self.any_fire) {
            let f = &fl.f[t];
            (self.armor_ward(fl, t), self.any_fire && f.burning, f.size)
        } else {
            (0, false, 0)
        };
        let hex = if !P && self.any_sn {
            self.hex_dice(fl, t)
        } else {
            hexes::HexDice::NONE
        };
        let armor_roll = |faces: &mut F, log: &mut L| {
            let a = match quick {
                Some(q) => q.armor(),
                None => plan.armor(faces, log),
            };
            if ward != 0 || burning || hex.any() {
                self.armor_sn(a, kt, ward, size, burning, &hex, faces, log)
            } else {
                a
            }
        };
        let f = &mut fl.f[t];
        Some(if combine && (combined || !vermin) {
            // Added up with the Action's other weapons (on top of the turn's pool under
            // Combined Fire), resolved after the last of them.
            f.combo.add(damage, || armor_roll(faces, log));
            return None;
        } else if vermin || combined {
            // Ch. 10.4: "the Cumulative Damage of several Vermin attacking together", and
            // Combined Fire: added to the hits it took earlier this turn.
            let earlier = f.combined.armor != Pool::NOT_ROLLED;
            let pooled = f.combined.add(damage, || armor_roll(faces, log));
            if earlier {
                log.note(format_args!(
                    "    {damage} more on {}: Combined Fire with this turn's earlier hits",
                    Who(self, fl, t)
                ));
            }
            pooled
        } else {
            (damage, armor_roll(faces, log))
        })
    }
}
