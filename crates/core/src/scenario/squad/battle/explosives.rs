//! Explosives in a squad battle (Ch. 8.4): grenades thrown by a minifig's arms and Payloads
//! fired from a Launcher. Each shot is an Action roll against the delivery's Use; a miss
//! scatters, and the Explosion catches friend and foe alike in its rings, each against its
//! own Armor, with KnockBack for those left standing.
//!
//! Explosions need a plane where a line cannot show the spread: a figure stands at its place
//! across the line ([`Squad::lateral`], from its side's `spacing`) and its position along
//! it. The delivery (Use, Range, shots a turn: [`crate::scenario::blast::Delivery`]), the
//! scatter of a miss (`landing`, two d20s for the direction) and the rings (`ring_of`, an
//! edge in the inner ring) are `diemon blast`'s own code.

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::attack::Hit;
use crate::rules::explosion::RING_INCHES;
use crate::rules::measure::{apart, near};
use crate::rules::{BlastKnockback, CarriedExplosives, OverskillPolicy, combat};
use crate::scenario::blast::formation::fraction;
use crate::scenario::blast::{Launch, Swap, Variant, landing, ring_of};
use crate::scenario::squad::AreaAim;

/// What a unit's Explosive weapon did with its Action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Shot {
    No,
    Fired,
    /// It reloaded its Cannon: the Action is spent, it may still walk.
    Reloaded,
}

impl Squad {
    /// Where slot `u` stands on the plane, in inches: (across the line, along it).
    pub(super) fn spot(&self, fl: &Field, u: usize) -> (f64, f64) {
        (fl.lat[u] as f64 / 2.0, fl.f[u].pos as f64 / 2.0)
    }

    /// A point on the plane in inches (across the line, along it) as a [`Spot`].
    pub(super) fn spot_of(at: (f64, f64)) -> Spot {
        ((2.0 * at.1) as f32, (2.0 * at.0) as f32)
    }

    /// How near unit `i` walks to its nearest enemy (half-inches): within reach of its
    /// weapons, or, while it has Explosives to use, half an inch inside their Range (up to
    /// 12" unless it lobs them farther, [`Squad::lob_range`]), so that an enemy standing a little across the line is in Range too: a Launcher
    /// or Cannon keeps its distance, and a grenadier closes to 2.5" to throw.
    pub(super) fn stand_off(&self, fl: &Field, i: usize) -> i32 {
        let k = &self.kinds[fl.f[i].kind as usize];
        let reach = self.stop_at(k);
        match k.explosives {
            Some(x) if !x.used_up || fl.f[i].fired < x.count => {
                reach.max(2 * self.lob_range(fl, i, x.delivery.range) as i32 - 1)
            }
            _ => reach,
        }
    }

    /// Under `hold`, an Explosive user whose nearest enemy stands within its own blast (so
    /// it has no target it may fire at), in Close Combat too unless it has a melee weapon
    /// to fight there with, first steps back along the
    /// line, as far as its Move and the table allow, until that enemy stands just beyond the
    /// blast: a unit moves its Move "in any direction" (Ch. 4.1), and no text among the
    /// rules holds it in Close Combat; a competent thrower does not stand idle in reach of a
    /// swarm (issue 39). Returns whether it stepped back.
    pub(super) fn step_out_of_blast<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        log: &mut L,
    ) -> bool {
        let f = fl.f[i];
        let k = &self.kinds[f.kind as usize];
        let (Some(x), Some(plan)) = (k.explosives, &self.explosions[f.kind as usize]) else {
            return false;
        };
        // The scan only for a unit with Explosives left: every unit's turn asks.
        if x.used_up && f.fired >= x.count {
            return false;
        }
        // Half-inches beyond the blast's radius along the line.
        let clear = 2 * (RING_INCHES * plan[0].rings() as f64) as i32 + 1;
        // Mostly no enemy stands nearer than `clear`: a pass without a square root says so
        // before the nearest is measured.
        let s = fl.at(i);
        let them = 1 - f.side;
        let close_by =
            |t: usize| fl.f[t].alive && fl.f[t].side == them && fl.may_reach(t, s, clear - 1);
        let any_near = if self.sides_move {
            (0..self.roster.len()).any(close_by)
        } else {
            self.own(them).any(close_by)
        };
        if !any_near {
            return false;
        }
        let Some((d, t)) = self.nearest(fl, i) else {
            return false;
        };
        // In Close Combat, one with a melee weapon fights there instead.
        if d <= CONTACT && k.any_close() {
            return false;
        }
        if d >= clear || self.explosive_target(fl, i, true).is_some() {
            return false;
        }
        let step = self.at_speed(fl, i, k.move_halves);
        // Face to face, away is toward its own side's edge.
        let away = fl.away(i, fl.at(t));
        let want = (clear - d).min(step);
        let back = self.room_along(fl, i, away, want);
        if back <= 0 {
            return false;
        }
        fl.step(i, away, back);
        fl.moved(f.side);
        log.note(format_args!(
            "  {} steps back {}\" out of its own blast",
            Who(self, fl, i),
            back as f64 / 2.0
        ));
        true
    }

    /// The enemy unit `i` would aim an Explosive at: one in the delivery's Range whose blast
    /// catches none of `i`'s side (itself included), chosen by its side's aim policy (ties
    /// to the lower slot). `any` takes the first such enemy, without ranking (whether there
    /// is a target at all).
    fn explosive_target(&self, fl: &Field, i: usize, any: bool) -> Option<usize> {
        let me = fl.f[i];
        let kind = me.kind as usize;
        let (Some(x), Some(plan)) = (self.kinds[kind].explosives, &self.explosions[kind]) else {
            return None;
        };
        let from = self.spot(fl, i);
        let range = self.lob_range(fl, i, x.delivery.range);
        let radius = RING_INCHES * plan[0].rings() as f64;
        let aim = self.policy[me.side as usize].aim;
        let mut best: Option<(i64, usize)> = None;
        let them = 1 - me.side;
        let caught = |at: (f64, f64), u: usize, side: u8| {
            let fu = &fl.f[u];
            fu.side == side && fu.alive && near(self.spot(fl, u), at, radius)
        };
        // Where no unit changes sides, each side is its roster range: half the scan.
        let (mine, foes) = if self.sides_move {
            (0..self.roster.len(), 0..self.roster.len())
        } else {
            (self.own(me.side), self.own(them))
        };
        // The best is the least (key, slot), whatever order the enemies in Range come in.
        for t in foes.clone() {
            let ft = &fl.f[t];
            if !ft.alive || ft.side == me.side {
                continue;
            }
            let at = self.spot(fl, t);
            if !near(from, at, range) {
                continue;
            }
            // A blast that catches one of its own side is never aimed (its own first: most
            // spots are ruled out by them).
            if mine.clone().any(|u| caught(at, u, me.side)) {
                continue;
            }
            if any {
                return Some(t);
            }
            let enemies = || foes.clone().filter(move |&u| caught(at, u, them));
            let key = match aim {
                AreaAim::Densest => -(enemies().count() as i64),
                // Thousandths of an inch: exact enough to order, and ties go to the slot.
                AreaAim::Nearest => (apart(from, at) * 1000.0).round() as i64,
                AreaAim::MostCp => -enemies()
                    .map(|u| self.kinds[fl.f[u].kind as usize].cp.in_quarters())
                    .sum::<i64>(),
            };
            if best.is_none_or(|b| (key, t) < b) {
                best = Some((key, t));
            }
        }
        best.map(|(_, t)| t)
    }

    /// Unit `i` throws or fires its Explosives, if it has any left and
    /// [`Squad::explosive_target`] finds a target: as many shots as its delivery fires a
    /// turn (a Launcher: XSize up to its WSize; a throw: one), each aimed afresh, each an
    /// Action roll against the delivery's Use with a ranged attack's modifiers, made where
    /// it comes down ([`Squad::come_down`]): at once within 12", else a turn or more later
    /// ([`flight`]). A Cannon fires one round, then spends its next Action reloading.
    #[cold]
    #[inline(never)]
    pub(super) fn fire_explosives<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) -> Shot {
        let f = fl.f[i];
        let kind = f.kind as usize;
        let (Some(x), Some(_)) = (self.kinds[kind].explosives, &self.launches[kind]) else {
            return Shot::No;
        };
        if f.disrupted {
            return Shot::No;
        }
        // A Cannon "must be reloaded after each shot ... reloading spends an Action ... A
        // Cannon can't be fired and reloaded on the same turn" (Ch. 8.4): `fired` is 1 while
        // it waits to be reloaded.
        if !x.used_up && f.fired == 1 {
            fl.f[i].fired = 0;
            log.note(format_args!("  {} reloads its Cannon", Who(self, fl, i)));
            return Shot::Reloaded;
        }
        // Its gun takes more Power than its Effective Size gives: crew lend theirs (Ch. 8.1).
        let own = self.kinds[kind].power.inches(f.size);
        if x.power > own && !(self.any_crew && self.teamwork(fl, i, x.power - own, log)) {
            return Shot::No;
        }
        let mut fired = Shot::No;
        // Gunnery Support, given once for the Action's shots (Ch. 8.5).
        let mut support = None;
        for _ in 0..x.delivery.shots {
            if (x.used_up && fl.f[i].fired >= x.count) || !fl.f[i].alive {
                break;
            }
            let Some(t) = self.explosive_target(fl, i, false) else {
                break;
            };
            fired = Shot::Fired;
            fl.f[i].fired = if x.used_up { fl.f[i].fired + 1 } else { 1 };
            let target = self.spot(fl, t);
            let bonus = match support {
                Some(b) => b,
                None => {
                    let b = if self.any_crew && self.kinds[kind].team >= 2 {
                        let support = self.support(fl, i, log);
                        self.home_in(fl, i, t, support, log)
                    } else {
                        0
                    };
                    support = Some(b);
                    b
                }
            };
            // On a table, the table's cover and blindness: the flight is parabolic, so a
            // wall hides the target but does not stop the shot (Ch. 8.4).
            let cover = if self.board.is_some() {
                self.sight_modifier(fl, i, t)
            } else {
                combat::cover(self.policy[fl.f[t].side as usize].cover)
            };
            let mut m = combat::target_size(fl.f[t].size, self.opts.target_size) + cover + bonus;
            if fl.f[t].disrupted {
                m += combat::DISRUPTED_RANGED;
            }
            if self.policy[f.side as usize].blind {
                m += combat::BLIND_FIRE;
            }
            // The thrower's own Action penalties: SN dice out, -1d4 while burning (Ch. 8.3).
            m += self.penalty(fl, i) + self.fire_penalty(fl, i, faces, log);
            let from = self.spot(fl, i);
            log.note(format_args!(
                "  {} {} {} at {} ({:.1}\")",
                Who(self, fl, i),
                if matches!(x.delivery.launch, Launch::Thrown { .. }) {
                    "throws"
                } else {
                    "fires"
                },
                match x.delivery.swap {
                    Swap::All(Variant::Explosive) => "an Explosive",
                    Swap::All(Variant::Incendiary) => "an Incendiary Explosive",
                    Swap::All(Variant::ArmorPiercing) => "an Armor Piercing Explosive",
                    Swap::All(Variant::Concussion) => "a Concussion Explosive",
                    Swap::All(Variant::Phased) => "a Phased Explosive",
                    Swap::Some(_) => "an Explosive of mixed dice",
                },
                Who(self, fl, t),
                apart(from, target)
            ));
            if self.any_lob && Squad::beyond_flight(from, target) {
                self.launch(fl, i, target, m, log);
                continue;
            }
            self.come_down(fl, i, kind, f.side, target, m, faces, log);
        }
        fired
    }

    /// The Action roll of an Explosive unit `i` (of `kind`, fighting for `side`) threw or
    /// fired at the spot `target`, with modifier `m`, made as it comes down there: a hit
    /// bursts on the spot; a miss comes down as many inches away as it missed by, in a
    /// direction of two d20s; a Critical Failure is a dud (the defender declares it,
    /// Ch. 8.4). Its Explosion, and any carried Explosives it sets off, follow.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn come_down<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        kind: usize,
        side: u8,
        target: (f64, f64),
        m: i64,
        faces: &mut F,
        log: &mut L,
    ) {
        let Some(roll) = &self.launches[kind] else {
            return;
        };
        let mut boosted = false;
        let centre = match roll.hit(faces, log, m) {
            Hit::Hit { benny } => {
                log.note(format_args!(
                    "    hit (modifier {m:+}): it bursts on the target"
                ));
                // Ch. 4.2: an Overskill Benny makes it "twice as Explosive": one more die,
                // and a ring more. The Benny is the player's to spend ("an Overskill
                // Benny can be spent"): under `auto` a competent thrower leaves it when
                // the wider blast would catch its own side (issue 39).
                boosted = benny
                    && match self.opts.overskill {
                        OverskillPolicy::Skill => false,
                        OverskillPolicy::Damage => true,
                        OverskillPolicy::Auto => !self.catches_own(fl, kind, side, target),
                    };
                if benny && !boosted && self.opts.overskill == OverskillPolicy::Auto {
                    log.note(format_args!(
                        "    Overskill: the Benny is not spent (a second die's ring would reach its own side)"
                    ));
                }
                target
            }
            Hit::Miss { by } => {
                let margin = by.max(1) as f64;
                log.note(format_args!(
                    "    miss (modifier {m:+}): it comes down {margin}\" away (direction: two d20s)"
                ));
                landing(target, margin, fraction(faces, log))
            }
            Hit::CriticalFailure => {
                log.note(format_args!(
                    "    Critical Failure: the enemy declares it a dud"
                ));
                if self.any_crew {
                    self.lose_homing(fl, i);
                }
                return;
            }
        };
        self.explode(fl, kind, side, centre, boosted, faces, log);
        self.chain_reaction(fl, faces, log);
    }

    /// A new player turn: no figure has taken Damage from its Explosions yet (`stacking`).
    /// Out of line, so the trial loop that calls it keeps its size (and its inlining).
    #[cold]
    #[inline(never)]
    pub(super) fn new_stack(&self, fl: &mut Field) {
        fl.blast[..self.roster.len()].fill(Pool::EMPTY);
    }

    /// Whether a boosted Explosive of `kind` bursting at `centre` would catch a living figure
    /// of `side` in its rings (the thrower included).
    fn catches_own(&self, fl: &Field, kind: usize, side: u8, centre: (f64, f64)) -> bool {
        let Some(plans) = &self.explosions[kind] else {
            return false;
        };
        let radius = RING_INCHES * plans[1].rings() as f64;
        (0..self.roster.len()).any(|u| {
            fl.f[u].alive && fl.f[u].side == side && near(self.spot(fl, u), centre, radius)
        })
    }

    /// Ch. 8.4 Premature Detonation: the Explosives unit `u` still carries take an
    /// Explosion's `damage` (its Armor does not shield them). Unstable ones, and semi-stable
    /// ones already activated, go off now; a semi-stable one is activated by more Damage
    /// than its XSize and goes off at the end of the player turn (option
    /// `carried_explosives`). Only Explosives used up as they go carry: a Cannon's Ammo is
    /// not counted.
    fn set_off(&self, fl: &mut Field, u: usize, damage: i64) {
        let f = fl.f[u];
        let Some(x) = self.kinds[f.kind as usize].explosives else {
            return;
        };
        let stability = self.opts.carried_explosives;
        if stability == CarriedExplosives::Inert || !x.used_up || f.fired >= x.count || damage < 1 {
            return;
        }
        let bit = 1u128 << u;
        if stability == CarriedExplosives::Unstable || fl.primed & bit != 0 {
            fl.primed &= !bit;
            fl.blown |= bit;
        } else if damage > x.delivery.xsize as i64 {
            fl.primed |= bit;
        }
    }

    /// Every carried Explosive set off goes off where its carrier stands (or fell), each its
    /// own Explosion, and any these set off in turn: each Explosive goes off once, so the
    /// chain ends. The carrier's side is credited with whom they fell.
    pub(super) fn chain_reaction<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        faces: &mut F,
        log: &mut L,
    ) {
        while fl.blown != 0 {
            let u = fl.blown.trailing_zeros() as usize;
            fl.blown &= fl.blown - 1;
            let f = fl.f[u];
            let Some(x) = self.kinds[f.kind as usize].explosives else {
                continue;
            };
            let left = x.count.saturating_sub(f.fired);
            fl.f[u].fired = x.count;
            log.note(format_args!(
                "    {} carries {left} Explosive{}: {} goes off (premature detonation)",
                Who(self, fl, u),
                crate::plural::s(left),
                if left == 1 { "it" } else { "each" }
            ));
            let at = self.spot(fl, u);
            for _ in 0..left {
                self.explode(fl, f.kind as usize, f.side, at, false, faces, log);
            }
        }
    }

    /// The end of a player turn: activated semi-stable Explosives go off ("at the end of the
    /// current player's turn", Ch. 8.4).
    #[cold]
    #[inline(never)]
    pub(super) fn primed_go_off<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        faces: &mut F,
        log: &mut L,
    ) {
        log.note(format_args!(
            "  the end of the turn: the activated Explosives go off"
        ));
        while fl.primed != 0 {
            fl.blown |= fl.primed;
            fl.primed = 0;
            self.chain_reaction(fl, faces, log);
        }
    }

    /// The Explosion of kind `kind`'s Explosive, delivered by `side`, at `centre`, counting
    /// whom it fells (`boosted`: with an Overskill Benny's extra die): one Damage Roll, and every
    /// standing figure in a ring takes that ring's Damage against its own Armor (Vermin and
    /// Cannon Fodder fall to any of it). A survivor in a ring with KnockBack is pushed that
    /// many inches straight away from the burst, and Disrupted (option `blast_knockback`).
    /// A Critical Failure of the Damage Roll is a dud.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    fn explode<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        kind: usize,
        side: u8,
        centre: (f64, f64),
        boosted: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        let Some(plans) = &self.explosions[kind] else {
            return;
        };
        if self.any_bail {
            let radius = RING_INCHES * plans[boosted as usize].rings() as f64;
            self.bail_from(fl, centre, radius, faces, log);
        }
        let blast = plans[boosted as usize].roll(faces, log);
        if blast.critical_failure {
            return log.note(format_args!(
                "    the Damage Roll is a Critical Failure: the enemy declares it a dud"
            ));
        }
        // Past the blast's last ring nothing is caught: most of a wide line is ruled out
        // unmeasured.
        let reach = RING_INCHES * blast.rings() as f64;
        if L::NOTES {
            log.scene(crate::dice::Scene::Blast {
                at: self.map_of(centre),
                inches: reach,
            });
        }
        for u in 0..self.roster.len() {
            if !fl.f[u].alive {
                continue;
            }
            let at = self.spot(fl, u);
            if !near(at, centre, reach) {
                continue;
            }
            let ring = ring_of(at, centre);
            let Some(damage) = blast.damage(ring) else {
                continue;
            };
            self.set_off(fl, u, damage);
            // Heavy Armor's Deflection removes the highest Damage dice of the hit (Ch. 8.2):
            // here the ring's highest dice, as the next rings out do, less a layer for each
            // Armor Piercing die and never a Phased d12 (Ch. 8.4 Explosive Variants).
            let levels = self.kinds[fl.f[u].kind as usize].deflection;
            let hit = blast.hit(ring, levels).expect("a ring with Damage");
            if hit.damage != damage {
                log.note(format_args!(
                    "    Deflection takes {} off the Damage",
                    damage - hit.damage
                ));
            }
            self.wound(fl, u, hit.damage, true, faces, log);
            // "Any minifig who takes at least one point of Fire damage is on fire" (Ch. 8.3):
            // an Incendiary Explosion's survivors.
            if hit.fire >= 1 {
                self.ignite(fl, u, log);
            }
            if !fl.f[u].alive {
                if fl.f[u].side == side {
                    fl.blasted_own[side as usize] += 1;
                } else {
                    fl.blasted[side as usize] += 1;
                }
            }
            // Ch. 8.4: "an inch of KnockBack for every die of Explosion Damage"; knocked
            // over by an Explosion, a figure is Disrupted (Ch. 4.1; option `blast_knockback`).
            let inches = blast.knockback(ring) as i32;
            if fl.f[u].alive && inches > 0 && self.opts.blast_knockback != BlastKnockback::Off {
                let away = fl.away(u, Squad::spot_of(centre));
                self.shove(fl, u, away, inches, log);
                if self.opts.blast_knockback == BlastKnockback::Disrupt {
                    fl.f[u].disrupted = true;
                    log.note(format_args!("    {} is Disrupted", Who(self, fl, u)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::rules::Stacking;
    use crate::scenario::blast::{Aim, Delivery, Dud, Formation, Scatter, Volley, VolleySpec};
    use crate::scenario::squad::Spacing;

    const D10: Die = Die::D10;

    #[test]
    fn a_grenade_bursts_on_its_target_and_catches_its_neighbours() {
        // A grenadier 3" from three minifigs standing abreast 1.5" apart (laterals -1.5, 0,
        // 1.5); its own lateral is 0, so only the middle one is in Range (3"; the others
        // 3.35"). The throw, 4 against Use 2, hits; 1d10 = 7 beats Armor 4 on all three
        // (0", 1.5", 1.5" from the burst). A wins in one turn.
        let o = RuleOptions::default();
        let s = squad(
            &[("minifig-grenadier", 1)],
            &[("minifig-hand-weapon", 3)],
            3,
            o,
        );
        let out = run(&s, &[(D6, 4), (D10, 7)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 1));
    }

    #[test]
    fn a_burning_thrower_takes_its_d4_off_the_throw() {
        // A grenadier on fire (a FlameThrower on the other side brings fire to the battle)
        // throws at -1d4 (Ch. 8.3): the d4 of 1 comes first, then 3 - 1 meets Use 2, and
        // the 9 fells the minifig with the FlameThrower.
        let o = RuleOptions::default();
        let s = squad(
            &[("minifig-grenadier", 1)],
            &[("minifig-flamethrower", 1)],
            3,
            o,
        );
        let mut fl = s.start();
        fl.f[0].burning = true;
        let mut dice = crate::dice::Script::new(&[(Die::D4, 1), (D6, 3), (D10, 9)]);
        assert_eq!(
            s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog),
            Shot::Fired
        );
        assert!(dice.is_done() && !fl.f[1].alive);
    }

    #[test]
    fn spread_out_the_neighbours_are_spared() {
        // The same at 2.5" spacing: the neighbours stand 2.5" from the burst, outside its
        // 2" ring. The target falls, and the turn ends.
        let o = RuleOptions::default();
        let spread = Policy {
            spacing: Spacing(10),
            ..Policy::default()
        };
        let mut s = Squad::new(
            side(&[("minifig-grenadier", 1)], &o),
            side_with(&[("minifig-hand-weapon", 3)], spread, &o),
            3,
            First::A,
            50,
            o,
        )
        .unwrap();
        s.max_turns = 1;
        let out = run(&s, &[(D6, 4), (D10, 7)]);
        assert_eq!((out.winner, out.survivors), (None, [1, 2]));
    }

    #[test]
    fn a_miss_scatters_by_its_margin_and_still_catches_the_target() {
        // 2 against Use 3 (`thrown_use = 3`) misses by 1: the grenade comes down 1" away
        // (d20s 1 and 1: direction 0, straight across the line). The lone target, 3" off,
        // is 1" from the burst and the thrower 3.2": 9 beats Armor 4.
        let mut o = RuleOptions::default();
        o.thrown_use = crate::rules::ThrownUse::Heavy;
        let s = squad(&[("minifig-grenadier", 1)], &[MF], 3, o);
        let out = run(&s, &[(D6, 2), (Die::D20, 1), (Die::D20, 1), (D10, 9)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 1));
    }

    #[test]
    fn no_grenade_lands_on_its_own_side_and_each_is_thrown_once() {
        // In contact (0" apart) the thrower would stand in its own blast: it fights with its
        // Hand Weapon instead (2 hits Use 2, 5 beats Armor 4).
        let o = RuleOptions::default();
        let s = squad(&[("minifig-grenadier", 1)], &[MF], 0, o);
        let out = run(&s, &[(D6, 2), (D6, 5)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 1));
        // Two grenadiers at 2": the first throws and misses (a Critical Failure, a dud);
        // the second throws its own and hits: 7 kills. The first's grenade is gone.
        let mut s = squad(&[("minifig-grenadier", 2)], &[MF], 2, o);
        s.max_turns = 1;
        let out = run(&s, &[(D6, 1), (D6, 4), (D10, 7)]);
        assert_eq!(out.winner, Some(Side::A));
    }

    #[test]
    fn the_aim_policies_choose_differently() {
        // B's two minifigs and a Hero stand abreast at laterals -1.5, 0 and 1.5 (slots 1, 2,
        // 3), the minifigs 3" from the grenadier (lateral 0), the Hero 2" along the line.
        // In Range (3"): the middle minifig (3.0") and the Hero (2.5"); slot 1 is 3.35".
        let o = RuleOptions::default();
        let s = squad(
            &[("minifig-grenadier", 1)],
            &[("minifig-hand-weapon", 2), ("hero-hand-weapon", 1)],
            2,
            o,
        );
        let mut fl = s.start();
        fl.f[1].pos += 2.0;
        fl.f[2].pos += 2.0;
        // Densest: a burst on the middle one catches all three (the Hero 1.8" off), one on
        // the Hero two of them. Nearest: the Hero. Most CP: the middle one (25 CP to 19).
        assert_eq!(s.explosive_target(&fl, 0, false), Some(2));
        let mut nearest = s.clone();
        nearest.policy[0].aim = AreaAim::Nearest;
        assert_eq!(nearest.explosive_target(&fl, 0, false), Some(3));
        let mut most = s.clone();
        most.policy[0].aim = AreaAim::MostCp;
        assert_eq!(most.explosive_target(&fl, 0, false), Some(2));
        // A friend within 2" of the target: nothing is safe to throw at.
        let mut fl = s.start();
        fl.f[0].pos = 3.0;
        assert_eq!(s.explosive_target(&fl, 0, false), None);
    }

    #[test]
    fn cannon_fodder_and_the_handless_do_not_throw() {
        let o = RuleOptions::default();
        let c = Catalog::builtin();
        // (A creature without hands never gets one: the catalog refuses `horse+explosive`.)
        let roster = [("cannon-fodder+explosive".to_string(), 1)];
        let s = SideSpec::from_catalog(&c, &roster, Policy::default(), &o).unwrap();
        let k = &s.units[0].0;
        assert_eq!(k.explosives, None);
        assert!(
            k.inert
                .iter()
                .any(|x| x.why.contains("Cannon Fodder cannot throw")),
            "{:?}",
            k.inert
        );
        let s = side(&[("minifig-grenadier", 1)], &o);
        assert_eq!(s.units[0].0.explosives.map(|x| x.count), Some(1));
    }

    #[test]
    fn a_launcher_fires_its_payloads_a_turn_at_a_time() {
        // A minifig with a 2" Launcher (Use 4, Range 12", two XSize 1 a turn) 12" from two
        // minifigs 3" apart (laterals -1.5 and 1.5: 12.09" away). It steps half an inch in
        // (11.5" along the line: 11.6" to each, in Range). Shot 1: 4 hits
        // B1; 1d10 = 7 fells it (B2 is 3" off, outside the 2" ring). Shot 2: 5 hits B2; 6
        // fells it. A wins in its first turn, both with its Explosives.
        let o = RuleOptions::default();
        let wide = Policy {
            spacing: Spacing(12),
            ..Policy::default()
        };
        let s = Squad::new(
            side(&[("minifig-launcher", 1)], &o),
            side_with(&[("minifig-hand-weapon", 2)], wide, &o),
            12,
            First::A,
            50,
            o,
        )
        .unwrap();
        let out = run(&s, &[(D6, 4), (D10, 7), (D6, 5), (D10, 6)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 1));
        assert_eq!((out.blasted, out.blasted_own), ([2, 0], [0, 0]));
    }

    /// A Launcher 10" from two grenadiers 3" apart, and the start of its turn.
    fn launcher_v_grenadiers(o: RuleOptions) -> (Squad, Box<Field>) {
        let wide = Policy {
            spacing: Spacing(12),
            ..Policy::default()
        };
        let s = Squad::new(
            side(&[("minifig-launcher", 1)], &o),
            side_with(&[("minifig-grenadier", 2)], wide, &o),
            10,
            First::A,
            50,
            o,
        )
        .unwrap();
        let fl = s.start();
        (s, fl)
    }

    #[test]
    fn a_grenade_caught_in_a_blast_goes_off_at_the_end_of_the_turn() {
        // Ch. 8.4 Premature Detonation, semi-stable (the default). Shot 1 hits B1: 1d10 = 3
        // is no kill against Armor 4, but more than the grenade's XSize 1: activated. Shot 2
        // is a Critical Failure, a dud. At the end of the turn B1's grenade goes off where
        // B1 stands: 7 fells B1 (B2, 3" off, is outside the 2" ring), credited to B's own
        // Explosives.
        let (s, mut fl) = launcher_v_grenadiers(RuleOptions::default());
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 3), (D6, 1)]);
        assert_eq!(
            s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog),
            Shot::Fired
        );
        assert!(dice.is_done() && fl.f[1].alive);
        assert_eq!((fl.primed, fl.blown, fl.f[1].fired), (1 << 1, 0, 0));
        let mut dice = crate::dice::Script::new(&[(D10, 7)]);
        s.primed_go_off(&mut fl, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive && fl.f[2].alive);
        assert_eq!((fl.primed, fl.f[1].fired), (0, 1));
        assert_eq!((fl.blasted, fl.blasted_own), ([0, 0], [0, 1]));
    }

    #[test]
    fn an_unstable_grenade_goes_off_at_once_and_an_inert_one_never() {
        // The same shot under `carried_explosives=unstable`: B1's grenade goes off right
        // after the blast that touched it (7 fells B1), before shot 2.
        let mut o = RuleOptions::default();
        o.carried_explosives = CarriedExplosives::Unstable;
        let (s, mut fl) = launcher_v_grenadiers(o);
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 3), (D10, 7), (D6, 1)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
        assert_eq!((fl.primed, fl.blasted_own), (0, [0, 1]));
        // `inert`: nothing is activated, B1 stands.
        o.carried_explosives = CarriedExplosives::Inert;
        let (s, mut fl) = launcher_v_grenadiers(o);
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 3), (D6, 1)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.f[1].alive);
        assert_eq!((fl.primed, fl.blown), (0, 0));
    }

    #[test]
    fn a_launcher_beyond_its_power_leaves_its_explosives_to_be_thrown() {
        // A minifig (Power 2") with a 3" Launcher: it cannot work it alone, so the Launcher
        // is priced but inert and its XSize 1 Explosives are thrown (Range 3").
        let text = "[m]\nname = \"M\"\nsource = \"test\"\nsize = 1\nstructure = \"0\"\n\
                    armor = \"4\"\nmove = 5\nweapons = [{ kind = \"launcher\", size = 3, mount = \"carriage\" }, \
                    { kind = \"explosive\", size = 1 }, { kind = \"explosive\", size = 1 }]\n";
        let c = Catalog::with_text("t.toml", text).unwrap();
        let o = RuleOptions::default();
        let s = SideSpec::from_catalog(&c, &[("m".to_string(), 1)], Policy::default(), &o).unwrap();
        let k = &s.units[0].0;
        assert!(
            k.inert.iter().any(|x| x.why.contains("needs 3\" of Power")),
            "{:?}",
            k.inert
        );
        let x = k.explosives.unwrap();
        assert_eq!(
            (x.count, x.delivery.range, x.delivery.use_rating),
            (2, 3, 2)
        );
    }

    #[test]
    fn a_cannon_fires_every_other_turn_and_never_runs_out() {
        // A minifig with a 2" Cannon (Use 5, Range 8") 8" from a minifig. Turn 1: a natural
        // 1, a dud. Turn 2: B walks 5" in. Turn 3: A reloads (no roll: the script has none
        // left, so a second shot would fail the test). Its one round is still there.
        let o = RuleOptions::default();
        let mut s = squad(&[("minifig-cannon", 1)], &[MF], 8, o);
        s.max_turns = 3;
        let out = run(&s, &[(D6, 1)]);
        assert_eq!((out.winner, out.turns), (None, 3));
        let x = s.kinds[0].explosives.unwrap();
        assert_eq!(
            (x.used_up, x.delivery.use_rating, x.delivery.range),
            (false, 5, 8)
        );
    }

    #[test]
    fn rockets_fly_themselves_one_a_turn() {
        // Rocket XSize 1: Use 2, Range 6"; 4 hits, 1d10 = 7 fells the lone minifig 6" off.
        let o = RuleOptions::default();
        let s = squad(&[("minifig-rocketeer", 1)], &[MF], 6, o);
        let out = run(&s, &[(D6, 4), (D10, 7)]);
        assert_eq!(
            (out.winner, out.turns, out.blasted),
            (Some(Side::A), 1, [1, 0])
        );
        let x = s.kinds[0].explosives.unwrap();
        assert_eq!((x.count, x.delivery.shots, x.used_up), (2, 1, true));
    }

    #[test]
    fn an_overskill_benny_makes_it_twice_as_explosive() {
        // A natural 6 hits with an Overskill Benny: under `overskill = damage` the grenade
        // rolls 2d10 Exp, not 1d10 (Ch. 4.2). 2 + 3 = 5 beats Armor 4 in ring 0 (the thrower,
        // 3" off, stands in the wider blast's outer ring and survives it). Under
        // `overskill = skill` the Benny is not spent on Damage: one die, 2, and the minifig
        // stands (the turn limit ends it).
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Damage;
        let s = squad(&[("minifig-grenadier", 1)], &[MF], 3, o);
        let out = run(&s, &[(D6, 6), (D10, 2), (D10, 3)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 1));
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Skill;
        let mut s = squad(&[("minifig-grenadier", 1)], &[MF], 3, o);
        s.max_turns = 1;
        let out = run(&s, &[(D6, 6), (D10, 2)]);
        assert_eq!((out.winner, out.survivors), (None, [1, 1]));
    }

    #[test]
    fn issue_39_a_competent_thrower_keeps_a_benny_whose_ring_reaches_its_own_side() {
        // Under the default `auto`, the same throw 3" off: a second d10 would widen the blast
        // to 4" and catch the thrower, so it stays one die: 2 does not beat Armor 4 and the
        // turn limit ends the battle. The script's spare d10 is never rolled.
        let mut s = squad(
            &[("minifig-grenadier", 1)],
            &[MF],
            3,
            RuleOptions::default(),
        );
        s.max_turns = 1;
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 6), (D10, 2), (D10, 3)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(fl.f[1].alive && fl.f[0].alive);
        assert!(!dice.is_done(), "one die rolled, not two");
        // A Rocket 6" off: the 4" blast reaches no one of its own side, so the Benny adds
        // the die (1 + 4 = 5 beats Armor 4).
        let s = squad(
            &[("minifig-rocketeer", 1)],
            &[MF],
            6,
            RuleOptions::default(),
        );
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 6), (D10, 1), (D10, 4)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
    }

    #[test]
    fn issue_48_a_step_out_of_the_blast_draws_the_responses_a_walk_does() {
        // A Launcher in Close Combat with two minifigs (0" apart, each side on one spot),
        // with 1" of table behind it: it steps back 1" to the edge, still in contact, and
        // both minifigs' saved Actions answer the move first (Ch. 4.3). The first hits (4)
        // for 5 against Armor 4: the Launcher falls before it fires.
        let o = RuleOptions::default();
        let s = squad_on_spot(
            &[("minifig-launcher", 1)],
            &[("minifig-hand-weapon", 2)],
            0,
            o,
        )
        .with_room(1);
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D6, 5)]);
        let mut log = crate::dice::Narration::default();
        s.act(&mut fl, 0, &mut dice, &mut log);
        assert!(dice.is_done() && !fl.f[0].alive, "{log:?}");
        assert!(!fl.f[1].saved && fl.f[2].saved, "one Response was enough");
        // With 12" behind it, the step ends 2.5" off, beyond the Angry Inch: no Response,
        // and it fires (4 hits, 1d10 = 7 fells both).
        let s = squad_on_spot(
            &[("minifig-launcher", 1)],
            &[("minifig-hand-weapon", 2)],
            0,
            o,
        );
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 7)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.f[0].alive && !fl.f[1].alive && !fl.f[2].alive);
    }

    #[test]
    fn issue_39_a_launcher_steps_out_of_its_own_blast_before_firing() {
        // A Launcher 2" from a minifig: its 2" blast would catch itself, so it has no
        // target. Under `hold` it steps back 0.5" (to 2.5", just beyond the blast), then
        // fires: 4 hits, 1d10 = 7 fells the minifig. Under `advance` it does not step back:
        // with no safe target it goes on to walk in.
        let s = squad(&[("minifig-launcher", 1)], &[MF], 2, RuleOptions::default());
        let mut fl = s.start();
        assert_eq!(s.explosive_target(&fl, 0, false), None);
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 7)]);
        let mut log = crate::dice::Narration::default();
        s.act(&mut fl, 0, &mut dice, &mut log);
        assert!(dice.is_done() && !fl.f[1].alive, "{log:?}");
        assert_eq!(fl.gap(1, 0), 5, "2.5\" apart, in half-inches");
        let advance = Policy {
            position: crate::scenario::squad::Position::Advance,
            ..Policy::default()
        };
        let o = RuleOptions::default();
        let s = Squad::new(
            side_with(&[("minifig-launcher", 1)], advance, &o),
            side(&[MF], &o),
            2,
            First::A,
            50,
            o,
        )
        .unwrap();
        let mut fl = s.start();
        let flow = s.unit_turn(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        assert_eq!(
            flow,
            super::super::hooks::Flow::Act,
            "no shot: on to its walk"
        );
        assert_eq!(fl.gap(1, 0), 4, "still 2\" apart");
        // In Close Combat (0" apart) it steps 2.5" back out of it, then fires.
        let s = squad(&[("minifig-launcher", 1)], &[MF], 0, RuleOptions::default());
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 7)]);
        let mut log = crate::dice::Narration::default();
        s.act(&mut fl, 0, &mut dice, &mut log);
        assert!(dice.is_done() && !fl.f[1].alive, "{log:?}");
        assert_eq!(fl.gap(1, 0), 5);
    }

    #[test]
    fn heavy_armor_deflects_the_highest_die_of_an_explosion() {
        // A grenade hits a minifig in Heavy Armor (one level of Deflection): its one d10 is
        // removed, so 9 does nothing (0 against Armor 4); the turn limit ends the battle. The
        // same 9 fells a minifig without it.
        let o = RuleOptions::default();
        let mut s = squad(
            &[("minifig-grenadier", 1)],
            &[("minifig-hand-weapon+heavy-armor", 1)],
            3,
            o,
        );
        s.max_turns = 1;
        let out = run(&s, &[(D6, 4), (D10, 9)]);
        assert_eq!(out.survivors, [1, 1]);
        let s = squad(&[("minifig-grenadier", 1)], &[MF], 3, o);
        let out = run(&s, &[(D6, 4), (D10, 9)]);
        assert_eq!(out.winner, Some(Side::A));
    }

    // Issue 40: a turn's Explosions stack, and knock their survivors over.

    /// A Launcher 10" from one minifig; `stacking` as given.
    fn launcher_v_one(stacking: Stacking) -> Squad {
        let o = RuleOptions {
            stacking,
            ..RuleOptions::default()
        };
        squad(&[("minifig-launcher", 1)], &[MF], 10, o)
    }

    /// `diemon blast`'s turn of fire on the same geometry: the same 2" Launcher's two
    /// XSize 1 Payloads from a d6 at one minifig 10" away.
    fn blast_v_one(stacking: Stacking) -> Volley {
        let o = RuleOptions {
            stacking,
            ..RuleOptions::default()
        };
        let c = Catalog::builtin();
        let spec = VolleySpec {
            delivery: Delivery::new(Launch::Launcher(2), 1).unwrap(),
            skill: crate::dice::SkillRoll::new(D6),
            support: 0,
            formation: Formation::parse("line:1", 1.0).unwrap(),
            target: crate::scenario::blast::Target::from_unit(
                c.get("minifig").unwrap(),
                crate::catalog::cp::Cp::whole(4),
                &o,
            ),
            distance: 10.0,
            aim: Aim::Centre,
            scatter: Scatter::Margin,
            dud: Dud::Declared,
            wall: None,
            carried: None,
        };
        Volley::new(spec, o).unwrap()
    }

    #[test]
    fn issue_40_a_turn_s_explosions_stack_against_one_armor_roll() {
        // Ch. 8.4 "Damage and KnockBack from more than one Explosion can stack". Both
        // Payloads hit (4 against Use 4): 1d10 = 2 leaves the minifig standing against
        // Armor 4 (Knocked Back 1", still in Range), then 3: 2 + 3 = 5 beats it under
        // `cumulative`; 3 alone does not under `separate`.
        for (stacking, falls) in [(Stacking::Cumulative, true), (Stacking::Separate, false)] {
            let s = launcher_v_one(stacking);
            let mut fl = s.start();
            let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 2), (D6, 4), (D10, 3)]);
            s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
            assert!(dice.is_done());
            assert_eq!(!fl.f[1].alive, falls, "{stacking:?}");
        }
    }

    #[test]
    fn issue_40_the_first_turn_of_fire_is_diemon_blast_s_under_both_readings() {
        // The same two hits on the same geometry, every pair of Damage rolls from 2 to 9
        // (a 1 is a dud): the squad's Launcher fells the minifig exactly when `diemon
        // blast`'s turn of fire does, under both readings, and each when the text's sum
        // says so.
        for stacking in [Stacking::Cumulative, Stacking::Separate] {
            let (s, v) = (launcher_v_one(stacking), blast_v_one(stacking));
            for a in 2..=9 {
                for b in 2..=9 {
                    let script = [(D6, 4), (D10, a), (D6, 4), (D10, b)];
                    let first = if a > 4 { 2 } else { 4 };
                    let mut fl = s.start();
                    let mut dice = crate::dice::Script::new(&script[..first]);
                    s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
                    assert!(dice.is_done());
                    let out = crate::scenario::scripted(&v, &script[..first]);
                    let felled = a > 4
                        || match stacking {
                            Stacking::Cumulative => a + b > 4,
                            Stacking::Separate => b > 4,
                        };
                    assert_eq!(out.kills == 1, felled, "blast {stacking:?} {a} {b}");
                    assert_eq!(!fl.f[1].alive, felled, "squad {stacking:?} {a} {b}");
                }
            }
        }
    }

    #[test]
    fn issue_40_the_stack_starts_afresh_each_player_turn() {
        // Turn 1: Payload 1 hits, 1d10 = 3 against Armor 4 (Knocked Back 1"); Payload 2
        // is a Critical Failure. Turn 2: the minifig walks 5" in. Turn 3: a hit for 2: the
        // 3 of turn 1 is gone, so 2 does not beat 4 (5 would); Payload 2 fails again. A
        // draw at the turn limit.
        let mut s = launcher_v_one(Stacking::Cumulative);
        s.max_turns = 3;
        let mut log = crate::dice::Narration::default();
        let script = [(D6, 4), (D10, 3), (D6, 1), (D6, 4), (D10, 2), (D6, 1)];
        let mut dice = crate::dice::Script::new(&script);
        let out = crate::scenario::Scenario::trial(&s, &mut dice, &mut log);
        assert!(dice.is_done(), "{log:?}");
        assert_eq!((out.winner, out.turns), (None, 3), "{log:?}");
    }

    #[test]
    fn issue_40_an_explosion_s_knockback_disrupts() {
        // Ch. 4.1: "Knocked over by a Shove, Explosion, or Collision: Disrupted". Payload 1
        // hits, 1d10 = 2 against Armor 4: the minifig is Knocked Back 1" and, by default,
        // Disrupted; under `blast_knockback=push` it keeps its feet, under `off` its place.
        // Payload 2 is a Critical Failure.
        for (kb, disrupted, pushed) in [
            (BlastKnockback::Disrupt, true, true),
            (BlastKnockback::Push, false, true),
            (BlastKnockback::Off, false, false),
        ] {
            let o = RuleOptions {
                blast_knockback: kb,
                ..RuleOptions::default()
            };
            let s = squad(&[("minifig-launcher", 1)], &[MF], 10, o);
            let mut fl = s.start();
            let at = fl.f[1].pos;
            let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 2), (D6, 1)]);
            s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
            assert!(dice.is_done() && fl.f[1].alive);
            assert_eq!(fl.f[1].disrupted, disrupted, "{kb:?}");
            assert_eq!(fl.f[1].pos - at, if pushed { 2.0 } else { 0.0 }, "{kb:?}");
        }
    }

    // Issue 40: Explosive Variants in squad battles (Ch. 8.4 Explosive Variants).

    /// One minifig with a Hand Weapon and `weapon` (a catalog's weapon entry) against
    /// `b` at `distance`, both sides by default policy.
    fn bomber_v(weapon: &str, b: (&str, u32), distance: u32) -> Squad {
        let text = format!(
            "[bomber]\nname = \"Minifig with a Hand Weapon and a variant\"\nsource = \"Ch. 8.4\"\n\
             size = 1\nstructure = \"0\"\narmor = \"4\"\nmove = 5\n\
             weapons = [\"hand-weapon\", {weapon}]\n"
        );
        let cat = Catalog::with_text("variants.toml", &text).unwrap();
        let o = RuleOptions::default();
        let side = |k: &str, n: u32| {
            let units = [(k.to_string(), n)];
            SideSpec::from_catalog(&cat, &units, Policy::default(), &o).unwrap()
        };
        Squad::new(side("bomber", 1), side(b.0, b.1), distance, First::A, 50, o).unwrap()
    }

    /// A thrown XSize 1 grenade of `variant`.
    fn grenade(variant: &str) -> String {
        format!("{{ kind = \"explosive\", size = 1, variant = \"{variant}\" }}")
    }

    #[test]
    fn issue_40_an_incendiary_grenade_sets_its_survivor_on_fire() {
        // The throw, 4 against Use 2, hits; 1d4 Fire = 3 does not beat Armor 4, but "any
        // minifig who takes at least one point of Fire damage is on fire" (Ch. 8.3). A
        // standard grenade's 3 leaves it as it was.
        for (variant, die, burning) in [("incendiary", Die::D4, true), ("explosive", D10, false)] {
            let s = bomber_v(&grenade(variant), MF, 3);
            let mut fl = s.start();
            let mut dice = crate::dice::Script::new(&[(D6, 4), (die, 3)]);
            s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
            assert!(dice.is_done() && fl.f[1].alive, "{variant}");
            assert_eq!(fl.f[1].burning, burning, "{variant}");
        }
        // A fire weapon brings the burning rules (its -1d4, its Burning Rolls) to battle.
        assert!(bomber_v(&grenade("incendiary"), MF, 3).any_fire);
        assert!(!bomber_v(&grenade("explosive"), MF, 3).any_fire);
    }

    #[test]
    fn issue_40_a_concussion_grenade_pushes_its_roll_in_inches_and_harms_no_one() {
        // 1d6 KnockBack = 5: no Damage, 5" of KnockBack (a standard die's 1"), and knocked
        // over, Disrupted (Ch. 4.1). The minifig stands 3" off, so it goes to 8".
        let s = bomber_v(&grenade("concussion"), MF, 3);
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D6, 5)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.f[1].alive);
        assert!(fl.f[1].disrupted);
        assert_eq!(fl.gap(1, 0), 16);
    }

    #[test]
    fn issue_40_armor_piercing_cancels_heavy_armor_s_layer_and_a_phased_d12_passes_it() {
        // Against a minifig in Heavy Armor (one level of Deflection, Armor 4): an Armor
        // Piercing d6 of 5 cancels the layer and fells it; a standard d10 of 5 is deflected
        // whole (0 against 4).
        let heavy = ("minifig-hand-weapon+heavy-armor", 1);
        for (variant, die, felled) in [("armor-piercing", D6, true), ("explosive", D10, false)] {
            let s = bomber_v(&grenade(variant), heavy, 3);
            let mut fl = s.start();
            let mut dice = crate::dice::Script::new(&[(D6, 4), (die, 5)]);
            s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
            assert!(dice.is_done());
            assert_eq!(!fl.f[1].alive, felled, "{variant}");
        }
        // An XSize 2 Phased Rocket (Use 4, Range 12"): one d12 at two dice' cost, which
        // Deflection never touches (Ch. 8.2, 8.4): 5 beats Armor 4 through Heavy Armor.
        let rocket = "{ kind = \"rocket\", size = 2, variant = \"phased\" }";
        let s = bomber_v(rocket, heavy, 10);
        let mut fl = s.start();
        let mut dice = crate::dice::Script::new(&[(D6, 4), (Die::D12, 5)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
    }

    #[test]
    fn issue_40_a_mixed_rocket_burns_and_pushes_with_its_own_dice() {
        // An XSize 2 Rocket with one d10 swapped for a Fire d4 (Ch. 8.4 "any combination"):
        // 1d10 Exp + 1d4 Fire. The hit rolls 1 and 2: 3 does not beat Armor 4, but the point
        // of Fire sets the minifig alight and the d10's inch of KnockBack knocks it over.
        let rocket = "{ kind = \"rocket\", size = 2, variant = { incendiary = 1 } }";
        let s = bomber_v(rocket, MF, 10);
        let mut fl = s.start();
        let at = fl.f[1].pos;
        let mut dice = crate::dice::Script::new(&[(D6, 4), (D10, 1), (Die::D4, 2)]);
        s.fire_explosives(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.f[1].alive);
        assert!(fl.f[1].burning && fl.f[1].disrupted);
        assert_eq!((fl.f[1].pos - at).abs(), 2.0);
    }
}
