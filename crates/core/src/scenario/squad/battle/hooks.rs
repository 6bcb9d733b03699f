//! The named points where creature rules join the turn of a plain battle.
//!
//! A battle of minifigs and their weapons runs the turn, the walk and the strike alone. Each
//! creature rule (Ch. 10, Ch. D, fire) joins at one of a few points. A battle that fields
//! no such creature sets none of them, and runs the trial's plain form (`Squad::plain`),
//! compiled with every point and flag known false, so it pays nothing for them:
//! - [`Hooks::turn_start`]: the start of a side's turn (shells coming down, Contagion's
//!   risen, Spawners, Stupidity, Half-Mind Usefulness);
//! - [`Hooks::unit_turn`]: before and after a unit's walk (fire and 4pions, SN dice and their
//!   Effects, Mediks, spawned units, useless Half Minds, Explosives thrown or launched, a
//!   jammed MachineGun reloaded, crew Gunners at their gun, Power Diverted);
//! - [`Hooks::walk`]: how far a unit walks and whether it may Sprint (lost legs, SN Movement
//!   dice);
//! - [`Hooks::unit_end`]: after a unit's turn (Sacrifices of fallen Thralls);
//! - [`Hooks::fall`]: a unit falls (its Lasting SN Effects end, a Thrall's fall).
//!
//! The strike's own points (SN dice, fire, lost limbs, Instant Bennies) are in `strike`.

use super::explosives::Shot;
use super::*;
use crate::dice::{Faces, Log};
use crate::rules::Stupidity;
use crate::scenario::squad::Position;

/// Which points a battle's creatures join, fixed when the battle is built.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    pub turn_start: bool,
    pub unit_turn: bool,
    pub walk: bool,
    pub unit_end: bool,
    pub fall: bool,
}

impl Hooks {
    /// The points `s`'s creatures need.
    pub(in crate::scenario::squad) fn of(s: &Squad) -> Hooks {
        Hooks {
            turn_start: s.any_lob
                || s.any_contagion
                || s.any_spawner
                || (s.any_stupid && s.opts.stupidity != Stupidity::Off)
                || s.any_useless,
            unit_turn: s.any_sn
                || s.any_fire
                || s.any_medik
                || s.any_spawner
                || s.any_useless
                || s.any_explosive
                || s.any_arc
                || s.any_crew
                || s.any_divert,
            walk: s.any_limbs || s.any_sn,
            unit_end: s.any_thrall,
            fall: s.any_sn || s.any_thrall,
        }
    }
}

/// What is left of a unit's turn after the creature rules had their say.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    /// Its turn is over (it burned out, it operated, it delivered an Effect, it fell).
    Over,
    /// It may walk and act.
    Act,
    /// It may walk only (spawned this turn).
    Walk,
}

impl Squad {
    /// The start of `side`'s turn: its shells fly on and may come down, the victims of
    /// Contagion rise, Spawners bring back the fallen, the enemy takes a Stupid unit,
    /// masterless Half Minds change hands. Returns the Stupid unit taken (and whether it
    /// acts for the enemy), and the units lent to `side`.
    #[inline(never)]
    pub(super) fn turn_start<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        side: u8,
        faces: &mut F,
        log: &mut L,
    ) -> (Option<(usize, bool)>, u128) {
        if self.any_lob && fl.flying != 0 {
            self.fly(fl, side, faces, log);
        }
        if self.any_contagion {
            self.rise(fl, side, log);
        }
        if self.any_spawner {
            self.spawn(fl, side, log);
        }
        let taken = if self.any_stupid && self.opts.stupidity != Stupidity::Off {
            self.stupidity(fl, side, log)
        } else {
            None
        };
        let lent = if self.any_useless {
            self.usefulness(fl, side, log)
        } else {
            0
        };
        (taken, lent)
    }

    /// Before unit `i` walks: a 4pion's turn, a burning unit's Burning Roll, SN dice, a
    /// Medik's operation, an Effect delivered without a weapon; and whether it may act.
    #[inline(never)]
    pub(super) fn unit_turn<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> Flow {
        if self.any_fire {
            if i >= self.units {
                self.fourpion_turn(fl, i, faces, log);
                return Flow::Over;
            }
            if fl.f[i].burning {
                self.burn(fl, i, faces, log);
            }
        }
        // A suppressed unit lies in a stupor; a Mind-Controlled one waits for its
        // controller's next turn (Ch. 10.3).
        if self.any_sn && self.suppressed(fl, i) {
            fl.f[i].acted = true;
            log.note(format_args!(
                "  {} lies in a SuperNatural stupor",
                Who(self, fl, i)
            ));
            return Flow::Over;
        }
        if self.any_sn && fl.f[i].acted && self.controlled_skill(fl, i).is_some() {
            log.note(format_args!(
                "  {} waits for its new master's turn",
                Who(self, fl, i)
            ));
            return Flow::Over;
        }
        if self.any_sn && !fl.f[i].disrupted && !self.kinds[fl.f[i].kind as usize].sn.is_empty() {
            self.sn_turn(fl, i, faces, log);
            if !fl.f[i].alive || self.over(fl) {
                return Flow::Over;
            }
        }
        if fl.f[i].disrupted {
            return Flow::Over;
        }
        if self.any_divert && self.divert(fl, i, log) {
            return Flow::Over;
        }
        // A crew Gunner keeps its Action for its gun (Ch. 8.5).
        if self.any_crew && self.kinds[fl.f[i].kind as usize].crew() && self.crew_turn(fl, i, log) {
            return Flow::Over;
        }
        if self.any_medik
            && self.kinds[fl.f[i].kind as usize].medik.is_some()
            && self.medik_turn(fl, i, faces, log)
        {
            return Flow::Over;
        }
        // "Spawning uses up a spawned unit's Action for the turn" (Ch. 10.4).
        if self.any_spawner && fl.f[i].spawned {
            return Flow::Walk;
        }
        if self.any_sn && self.sn_effect_first(fl, i) && self.effect(fl, i, faces, log) {
            fl.f[i].acted = true;
            return Flow::Over;
        }
        // Explosives thrown or fired from where it stands are its Action, and it holds its
        // ground; reloading a Cannon is its Action, and it may still walk.
        if self.any_explosive {
            // Under `hold`, out of its own blast first (issue 39); its Move is spent on it.
            let from = fl.at(i);
            let stepped = self.policy[fl.f[i].side as usize].position == Position::Hold
                && self.step_out_of_blast(fl, i, log);
            // A step back is a move: a saved Action it ends within reach of answers it
            // first (Ch. 4.3), as it answers a walk.
            if stepped {
                self.respond::<false, F, L>(fl, i, from, false, faces, log);
                if !fl.f[i].alive || self.over(fl) {
                    return Flow::Over;
                }
            }
            match self.fire_explosives(fl, i, faces, log) {
                Shot::Fired => {
                    fl.f[i].acted = true;
                    return Flow::Over;
                }
                _ if stepped => return Flow::Over,
                Shot::Reloaded => {
                    fl.f[i].acted = true;
                    return Flow::Walk;
                }
                Shot::No => {}
            }
        }
        // "any minifig operating the weapon ... can reload it with a single Action ... A
        // MachineGun can't be reloaded and fired on the same turn" (Ch. 8.3).
        if self.any_arc && fl.f[i].jammed {
            fl.f[i].jammed = false;
            fl.f[i].acted = true;
            log.note(format_args!(
                "  {} reloads its MachineGun",
                Who(self, fl, i)
            ));
            return Flow::Walk;
        }
        Flow::Act
    }

    /// After unit `i` walked: whether it may still act (a useless Half Mind Moves or acts,
    /// Ch. 10.1), and an SN Effect it delivers instead of a weapon (`Some(delivered)`).
    #[inline(never)]
    pub(super) fn unit_turn_after_walk<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> Option<bool> {
        if self.any_useless && fl.restricted & (1 << i) != 0 {
            return Some(false);
        }
        if self.any_sn && self.sn_effect_first(fl, i) {
            return Some(self.effect(fl, i, faces, log));
        }
        if self.any_explosive && self.fire_explosives(fl, i, faces, log) != Shot::No {
            return Some(true);
        }
        None
    }

    /// How far unit `i` walks this turn in half-inches, `want` being how far it would go,
    /// and whether it may Sprint: lost legs slow it or stop it, SN Movement dice add to it.
    #[inline(never)]
    pub(super) fn walk<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        want: i32,
        faces: &mut F,
        log: &mut L,
    ) -> (i32, bool) {
        let mut step = if self.any_limbs {
            self.step(fl, i)
        } else {
            self.kinds[fl.f[i].kind as usize].move_halves
        };
        // A unit without legs "may not Sprint" (Ch. 10.2).
        let legless = self.any_limbs && self.legless(fl, i);
        if self.any_sn
            && step < want
            && !self.kinds[fl.f[i].kind as usize].sn.is_empty()
            && !legless
        {
            step += self.sn_walk(fl, i, want - step, faces, log);
        }
        (step, !legless)
    }

    /// After a unit's turn: the Thralls that fell in it may be Sacrificed.
    #[inline(never)]
    pub(super) fn unit_end<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        faces: &mut F,
        log: &mut L,
    ) {
        if self.any_thrall && fl.fallen_thralls != 0 {
            self.sacrifices(fl, faces, log);
        }
    }

    /// Unit `t` fell: its Lasting SN Effects end, and a Thrall's fall is noted for a
    /// Sacrifice.
    #[inline(never)]
    pub(super) fn fall(&self, fl: &mut Field, t: usize) {
        if self.any_sn && (fl.f[t].lasting | fl.f[t].spent) != 0 {
            self.sn_end(fl, t);
        }
        if self.any_thrall && self.kinds[fl.f[t].kind as usize].thrall {
            fl.fallen_thralls |= 1 << t;
        }
    }
}
