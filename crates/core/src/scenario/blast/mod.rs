//! Explosives against formations in the plane: "how many minifigs does a 3" Launcher kill?"
//!
//! One trial is one turn of fire (a Cannon's volley takes two turns, fire and reload): each
//! Explosive the [`Delivery`] fires makes its own Action roll against the weapon's Use, with
//! -1 per inch Out of Range (Ch. 4.2, 8.4). A hit explodes at the aim point; a miss comes
//! down where the [`Scatter`] model puts it; a Critical Failure of the Action or Damage Roll
//! may be declared a dud ([`Dud`]). Every Explosion is resolved by
//! [`crate::rules::explosion`]: each standing figure takes its ring's damage (less the Out of
//! Range penalty) against its Armor rolled fresh; survivors in a ring are Knocked Back
//! straight away from the blast, so a later Explosion of the same turn finds them moved.
//!
//! - [`formation`]: grid, line, column, cluster, random scatter.
//! - [`delivery`]: Launchers, Cannons, Rockets, thrown grenades.
//! - [`policy`]: aim point, scatter model, duds.
//! - [`tally`]: outcomes and their sums.

pub mod arc;
pub mod delivery;
pub mod error;
pub mod formation;
pub mod policy;
pub mod tally;

use std::f64::consts::TAU;

use crate::catalog::Unit;
use crate::catalog::cp::Cp;
use crate::dice::expr::RollPlan;
use crate::dice::{Die, DieEvent, Expr, Faces, Log, Role, SkillRoll};
use crate::rules::attack::{Attacker, Hit};
use crate::rules::explosion::{ExplosionPlan, RING_INCHES, ring_at};
use crate::rules::measure::{self, within};
use crate::rules::{OverskillPolicy, RuleOptions, Stacking, combat};
use crate::scenario::Scenario;
use crate::sim::Estimate;

pub use delivery::{Delivery, Launch, Payload, Swap, Variant};
pub use error::BlastError;
pub use formation::{Formation, MAX_FIGURES, Shape};
pub use policy::{Aim, Dud, Scatter, Stability};
pub use tally::{BlastOutcome, BlastTally};

/// The figures fired at: one catalog unit, many times.
#[derive(Clone, Debug)]
pub struct Target {
    /// The unit's catalog key.
    pub key: String,
    /// One figure's CP.
    pub cp: Cp,
    /// Its Size in inches.
    pub size: u32,
    /// Its Armor roll.
    pub armor: Expr,
    /// Vermin and Cannon Fodder: any hit kills (Ch. 10.4).
    pub any_hit_kills: bool,
}

impl Target {
    /// The figures of catalog unit `u`, each costing `cp`.
    pub fn from_unit(u: &Unit, cp: Cp, opts: &RuleOptions) -> Target {
        Target {
            key: u.key.clone(),
            cp,
            size: u.spec.size,
            armor: crate::scenario::squad::kind::armor(u, opts),
            any_hit_kills: combat::any_hit_kills(
                u.has_trait("vermin"),
                u.has_trait("cannon-fodder"),
            ),
        }
    }
}

/// What a turn of fire is: who fires what, at whom, from how far, and the policies.
#[derive(Clone, Debug)]
pub struct VolleySpec {
    /// What fires, and the Explosives.
    pub delivery: Delivery,
    /// The Action die: the shooter's Skill, or Gunnery's d8 on a mounted weapon.
    pub skill: SkillRoll,
    /// Action bonus from Gunnery Support (Ch. 8.5).
    pub support: i64,
    /// How the figures fired at stand.
    pub formation: Formation,
    /// The figures fired at.
    pub target: Target,
    /// Inches from the shooter to the formation's centre.
    pub distance: f64,
    /// Where each shot aims.
    pub aim: Aim,
    /// Where a Missed Explosive lands.
    pub scatter: Scatter,
    /// Whether and how an Explosive fails to go off.
    pub dud: Dud,
    /// A wall or other creation among the figures (mixed targets).
    pub wall: Option<Wall>,
    /// Every figure carries an Explosive of this stability and XSize.
    pub carried: Option<(Stability, u32)>,
}

/// The Explosive every figure carries, resolved for rolling.
#[derive(Clone, Debug)]
struct Carried {
    stability: Stability,
    xsize: u32,
    plan: ExplosionPlan,
}

/// A stationary creation section with Armor dice, at an offset from the formation's
/// centre: destroyed when an Explosion's Damage in its ring beats its Armor, rolled fresh
/// each time (Ch. 8.4 Wall Demolition). It is not a loose object, so it is not Knocked Back.
#[derive(Clone, Debug)]
pub struct Wall {
    /// Its Armor roll.
    pub armor: Expr,
    /// Its offset from the formation's centre, in inches.
    pub at: (f64, f64),
}

/// One turn of Explosive fire at a formation, validated and resolved for rolling.
#[derive(Clone, Debug)]
pub struct Volley {
    delivery: Delivery,
    formation: Formation,
    target: Target,
    distance: f64,
    aim: Aim,
    scatter: Scatter,
    dud: Dud,
    opts: RuleOptions,
    skill: SkillRoll,
    support: i64,
    /// The Action roll: Skill against the delivery's Use (its Damage is not used).
    action: crate::rules::attack::AttackPlan,
    explosion: ExplosionPlan,
    /// With an Overskill Benny spent on Damage: one more Exp die (Ch. 4.2 "twice as
    /// Explosive").
    boosted: ExplosionPlan,
    armor: RollPlan,
    offsets: Vec<(f64, f64)>,
    /// Incendiary: survivors taking Fire damage catch fire (Ch. 8.3).
    fire: bool,
    wall: Option<(RollPlan, (f64, f64))>,
    wall_spec: Option<Wall>,
    carried: Option<Carried>,
}

impl Volley {
    /// Checks the turn of fire and resolves it for rolling.
    pub fn new(spec: VolleySpec, opts: RuleOptions) -> Result<Volley, BlastError> {
        let VolleySpec {
            delivery,
            skill,
            support,
            formation,
            target,
            distance,
            aim,
            scatter,
            dud,
            wall,
            carried,
        } = spec;
        let carried = match carried {
            None => None,
            Some((stability, xsize)) => {
                if xsize == 0 {
                    return Err(BlastError::NoCarriedXSize);
                }
                Some(Carried {
                    stability,
                    xsize,
                    plan: ExplosionPlan::of(Payload::of(Variant::Explosive, xsize), &opts)?,
                })
            }
        };
        if !(0.0..=1000.0).contains(&distance) {
            return Err(BlastError::Distance(distance));
        }
        // The Damage, and with an Overskill Benny one more of its dice (Ch. 4.2).
        let payload = delivery.payload();
        let explosion = ExplosionPlan::of(payload, &opts)?;
        let boosted = ExplosionPlan::of(payload.plus_one(opts.overskill_die), &opts)?;
        let fire = payload.has(Variant::Incendiary);
        let action = Attacker {
            skill,
            use_rating: delivery.use_rating,
            damage: explosion.expr().clone(),
        }
        .against(&target.armor, &opts);
        Ok(Volley {
            armor: target.armor.plan(&opts),
            offsets: formation.offsets(),
            delivery,
            formation,
            target,
            distance,
            aim,
            scatter,
            dud,
            opts,
            skill,
            support,
            action,
            explosion,
            boosted,
            fire,
            wall: wall.as_ref().map(|w| (w.armor.plan(&opts), w.at)),
            wall_spec: wall,
            carried,
        })
    }

    /// What fires, and the Explosives.
    pub fn delivery(&self) -> &Delivery {
        &self.delivery
    }

    /// How the figures stand.
    pub fn formation(&self) -> &Formation {
        &self.formation
    }

    /// The figures fired at.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Inches to the formation's centre.
    pub fn distance(&self) -> f64 {
        self.distance
    }

    /// The Action roll's Skill.
    pub fn skill(&self) -> &SkillRoll {
        &self.skill
    }

    /// The rule options it rolls under.
    pub fn opts(&self) -> &RuleOptions {
        &self.opts
    }

    /// Action bonus from Gunnery Support.
    pub fn support(&self) -> i64 {
        self.support
    }

    /// The wall among the figures, if any.
    pub fn wall(&self) -> Option<&Wall> {
        self.wall_spec.as_ref()
    }

    /// What every figure carries, if anything: (stability, XSize).
    pub fn carried(&self) -> Option<(Stability, u32)> {
        self.carried.as_ref().map(|c| (c.stability, c.xsize))
    }

    /// Inches beyond Range at this distance (Ch. 4.2, 8.4: -1 Action and Damage each).
    pub fn out_of_range(&self) -> i64 {
        combat::out_of_range(self.distance.ceil() as u32, self.delivery.range) as i64
    }

    fn aim_point(&self, pos: &[(f64, f64)], alive: &[bool]) -> (f64, f64) {
        match self.aim {
            Aim::Centre => (0.0, self.distance),
            Aim::Densest => densest(pos, alive, self.distance),
        }
    }
}

/// The standing figure with the most standing figures within 2" (the first such); the
/// formation's centre if none stands.
pub(crate) fn densest(pos: &[(f64, f64)], alive: &[bool], distance: f64) -> (f64, f64) {
    let mut best = (0.0, distance);
    let mut most = 0;
    for (i, p) in pos.iter().enumerate() {
        if !alive[i] {
            continue;
        }
        let n = pos
            .iter()
            .zip(alive)
            .filter(|(q, a)| **a && within(measure::apart(**q, *p), RING_INCHES))
            .count();
        if n > most {
            most = n;
            best = *p;
        }
    }
    best
}

/// Where a missed shot comes down: `margin` inches from `aim`, `turn` of a full turn round
/// (Ch. 8.4 Missed Shots).
pub(crate) fn landing(aim: (f64, f64), margin: f64, turn: f64) -> (f64, f64) {
    let a = TAU * turn;
    (aim.0 + margin * a.cos(), aim.1 + margin * a.sin())
}

/// From `centre` to `at`: the offset and the distance.
fn reach(at: (f64, f64), centre: (f64, f64)) -> (f64, f64, f64) {
    let (dx, dy) = (at.0 - centre.0, at.1 - centre.1);
    (dx, dy, measure::length(dx, dy))
}

/// The ring of a figure at `at` in an Explosion at `centre`; on a ring's edge is in the
/// inner ring, however the positions rounded.
pub(crate) fn ring_of(at: (f64, f64), centre: (f64, f64)) -> usize {
    ring_at(reach(at, centre).2)
}

/// The figures during one turn of fire.
struct Field {
    pos: [(f64, f64); MAX_FIGURES],
    alive: [bool; MAX_FIGURES],
    /// Effective Size.
    size: [u32; MAX_FIGURES],
    /// Still carries its Explosive.
    armed: [bool; MAX_FIGURES],
    /// A semi-stable Explosive activated: it goes off at the end of the turn.
    primed: [bool; MAX_FIGURES],
    /// On fire: -1d4 to Armor while it burns (Ch. 8.3 Catching On Fire).
    burning: [bool; MAX_FIGURES],
    /// Damage taken this turn and the Armor it is rolled against (`stacking=cumulative`).
    taken: [i64; MAX_FIGURES],
    armor_roll: [Option<i64>; MAX_FIGURES],
    /// Carried Explosives set off, waiting to explode.
    queue: [u16; MAX_FIGURES],
    queued: usize,
    n: usize,
}

impl Volley {
    /// One Explosion at `centre`: the wall, then every standing figure in reach. Carried
    /// Explosives it sets off are queued (Ch. 8.4 Premature Detonation).
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    fn detonate<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        centre: (f64, f64),
        plan: &ExplosionPlan,
        oor: i64,
        out: &mut BlastOutcome,
        faces: &mut F,
        log: &mut L,
    ) {
        let blast = plan.roll(faces, log);
        if blast.critical_failure && self.dud == Dud::Declared {
            log.note(format_args!(
                "  the Damage Roll is a Critical Failure: a dud"
            ));
            out.duds += 1;
            return;
        }
        if let Some((armor, at)) = &self.wall
            && out.walls == 0
            && let Some(damage) = blast.damage(ring_of((at.0, self.distance + at.1), centre))
        {
            let a = armor.roll(faces, log).total;
            log.note(format_args!(
                "  the wall: Damage {} vs Armor {a}",
                damage - oor
            ));
            if damage - oor > a {
                out.walls = 1;
            }
        }
        for i in 0..fl.n {
            let (dx, dy, d) = reach(fl.pos[i], centre);
            let ring = ring_at(d);
            let Some(damage) = blast.damage(ring) else {
                continue;
            };
            let damage = damage - oor;
            self.set_off(fl, i, damage);
            if !fl.alive[i] {
                continue;
            }
            if self.target.any_hit_kills && damage > 0 {
                fl.alive[i] = false;
                out.kills += 1;
                out.by_ring[ring] += 1;
                continue;
            }
            // Ch. 8.4: "Damage and KnockBack from more than one Explosion can stack": with
            // `stacking=cumulative` a figure's Damage this turn adds up against one Armor roll.
            let (damage, armor) = match self.opts.stacking {
                Stacking::Cumulative => {
                    let f = &mut fl.taken[i];
                    let a = match fl.armor_roll[i] {
                        Some(a) => a,
                        None => {
                            let a = self.armor.roll(faces, log).total;
                            fl.armor_roll[i] = Some(a);
                            a
                        }
                    };
                    *f += damage.max(0);
                    (*f, a)
                }
                Stacking::Separate => (damage, self.armor.roll(faces, log).total),
            };
            // Ch. 8.3: a burning minifig "takes a -1d4 penalty to Action Rolls and Armor".
            let armor = if fl.burning[i] {
                let p = faces.face(Die::D4) as i64;
                log.die(DieEvent {
                    term: 0,
                    die: Die::D4,
                    face: p as u32,
                    role: Role::Regular,
                    counted: -p,
                });
                armor - p
            } else {
                armor
            };
            if damage > armor {
                fl.taken[i] = 0;
                fl.armor_roll[i] = None;
                fl.size[i] = combat::size_damage(fl.size[i]);
                if fl.size[i] == 0 {
                    fl.alive[i] = false;
                    out.kills += 1;
                    out.by_ring[ring] += 1;
                    continue;
                }
            } else if damage == armor {
                out.ties += 1;
            }
            if self.fire && damage >= 1 {
                out.on_fire += 1;
                fl.burning[i] = true;
            }
            // Ch. 8.4: loose objects "Knocked Back one inch for every d10" left.
            let kb = blast.knockback(ring) as f64;
            if kb > 0.0 {
                out.knocked_back += 1;
                let (ux, uy) = if d > 0.0 {
                    (dx / d, dy / d)
                } else {
                    (0.0, 1.0)
                };
                fl.pos[i] = (fl.pos[i].0 + ux * kb, fl.pos[i].1 + uy * kb);
            }
        }
    }

    /// Ch. 8.4 Premature Detonation: an unstable Explosive (or an activated semi-stable
    /// one) goes off on any damage; a semi-stable one is activated by more damage than its
    /// XSize. The carrier's Armor does not shield it.
    fn set_off(&self, fl: &mut Field, i: usize, damage: i64) {
        let Some(c) = &self.carried else {
            return;
        };
        if !fl.armed[i] || damage < 1 {
            return;
        }
        let unstable = c.stability == Stability::Unstable || fl.primed[i];
        if unstable {
            fl.armed[i] = false;
            fl.primed[i] = false;
            fl.queue[fl.queued] = i as u16;
            fl.queued += 1;
        } else if damage > c.xsize as i64 {
            fl.primed[i] = true;
        }
    }

    /// Explodes every queued carried Explosive where its carrier stands (or fell), and any
    /// they set off in turn. Each Explosive goes off once, so the chain ends.
    fn chain_reaction<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        out: &mut BlastOutcome,
        faces: &mut F,
        log: &mut L,
    ) {
        let Some(c) = &self.carried else {
            return;
        };
        while fl.queued > 0 {
            fl.queued -= 1;
            let i = fl.queue[fl.queued] as usize;
            fl.armed[i] = false;
            log.note(format_args!("  figure {}'s Explosive goes off", i + 1));
            out.chain += 1;
            let at = fl.pos[i];
            self.detonate(fl, at, &c.plan, 0, out, faces, log);
        }
    }
}

impl Scenario for Volley {
    type Outcome = BlastOutcome;
    type Tally = BlastTally;

    fn trial<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> BlastOutcome {
        let n = self.formation.len();
        let mut fl = Field {
            pos: [(0.0, 0.0); MAX_FIGURES],
            alive: [false; MAX_FIGURES],
            size: [0; MAX_FIGURES],
            armed: [false; MAX_FIGURES],
            primed: [false; MAX_FIGURES],
            burning: [false; MAX_FIGURES],
            taken: [0; MAX_FIGURES],
            armor_roll: [None; MAX_FIGURES],
            queue: [0; MAX_FIGURES],
            queued: 0,
            n,
        };
        formation::place(
            &self.formation,
            &self.offsets,
            self.distance,
            faces,
            log,
            &mut fl.pos,
        );
        fl.alive[..n].fill(true);
        fl.size[..n].fill(self.target.size.max(1));
        fl.armed[..n].fill(self.carried.is_some());
        let oor = self.out_of_range();
        let mut out = BlastOutcome::EMPTY;
        let benny_damage = self.opts.overskill != OverskillPolicy::Skill;
        for shot in 0..self.delivery.shots {
            if !fl.alive[..n].contains(&true) {
                break; // nobody left to fire at
            }
            out.shots += 1;
            let aim = self.aim_point(&fl.pos[..n], &fl.alive[..n]);
            let (centre, benny) = match self.action.hit(faces, log, self.support - oor) {
                Hit::CriticalFailure if self.dud == Dud::Declared => {
                    log.note(format_args!("shot {}: Critical Failure, a dud", shot + 1));
                    out.duds += 1;
                    continue;
                }
                Hit::Hit { benny } => {
                    out.hits += 1;
                    log.note(format_args!(
                        "shot {}: hit, explodes at the aim point",
                        shot + 1
                    ));
                    (aim, benny && benny_damage)
                }
                miss => {
                    // It lands as many inches from the aim point as the roll missed by; a
                    // Critical Failure not declared a dud counts as missing by the whole Use.
                    let margin = match miss {
                        Hit::Miss { by } => by,
                        _ => self.delivery.use_rating,
                    }
                    .max(1) as f64;
                    log.note(format_args!(
                        "shot {}: miss, comes down {margin}\" from the aim point ({})",
                        shot + 1,
                        match self.scatter {
                            Scatter::Margin => "direction: two d20s",
                            Scatter::Short => "short, toward the shooter",
                        }
                    ));
                    let centre = match self.scatter {
                        Scatter::Margin => landing(aim, margin, formation::fraction(faces, log)),
                        Scatter::Short => (aim.0, aim.1 - margin),
                    };
                    (centre, false)
                }
            };
            let plan = if benny {
                &self.boosted
            } else {
                &self.explosion
            };
            self.detonate(&mut fl, centre, plan, oor, &mut out, faces, log);
            self.chain_reaction(&mut fl, &mut out, faces, log);
        }
        // Ch. 8.4: an activated semi-stable Explosive "will go off at the end of the current
        // player's turn".
        loop {
            for i in 0..n {
                if fl.primed[i] && fl.armed[i] {
                    fl.queue[fl.queued] = i as u16;
                    fl.queued += 1;
                    fl.primed[i] = false;
                }
            }
            if fl.queued == 0 {
                break;
            }
            self.chain_reaction(&mut fl, &mut out, faces, log);
        }
        out.wounded = (0..n)
            .filter(|&i| fl.alive[i] && fl.size[i] < self.target.size.max(1))
            .count() as u32;
        out
    }

    fn key(&self, t: &BlastTally) -> Estimate {
        t.mean_kills()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    /// A 3" Launcher's XSize 1 missiles fired by a d8 at one minifig 10" away, misses
    /// landing short: the tests change what they are about.
    fn spec(o: &RuleOptions) -> VolleySpec {
        let c = Catalog::builtin();
        VolleySpec {
            delivery: Delivery::new(Launch::Launcher(3), 1).unwrap(),
            skill: SkillRoll::new(D8),
            support: 0,
            formation: Formation::parse("line:1", 1.0).unwrap(),
            target: Target::from_unit(c.get("minifig").unwrap(), Cp::whole(4), o),
            distance: 10.0,
            aim: Aim::Centre,
            scatter: Scatter::Short,
            dud: Dud::Declared,
            wall: None,
            carried: None,
        }
    }

    fn volley(
        launch: Launch,
        xsize: u32,
        skill: Die,
        formation: &str,
        distance: f64,
        scatter: Scatter,
    ) -> Volley {
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Skill;
        let c = Catalog::builtin();
        let target = Target::from_unit(c.get("minifig").unwrap(), Cp::whole(4), &o);
        let spec = VolleySpec {
            delivery: Delivery::new(launch, xsize).unwrap(),
            skill: SkillRoll::new(skill),
            formation: Formation::parse(formation, 1.0).unwrap(),
            target,
            distance,
            scatter,
            ..spec(&o)
        };
        Volley::new(spec, o).unwrap()
    }

    fn run(v: &Volley, script: &[(Die, u32)]) -> BlastOutcome {
        crate::scenario::scripted(v, script)
    }

    const D10: Die = Die::D10;
    const D8: Die = Die::D8;
    const D6: Die = Die::D6;

    #[test]
    fn a_hit_kills_everyone_in_ring_zero() {
        // 3" Launcher (Use 6), three XSize 1 missiles; a line of 3 at 10". Missile 1: 7
        // hits; 1d10 = 5 > Armor 4 within 2": all three fall; the rest are not fired.
        let v = volley(Launch::Launcher(3), 1, D8, "line:3", 10.0, Scatter::Short);
        let o = run(&v, &[(D8, 7), (D10, 5)]);
        assert_eq!((o.kills, o.by_ring[0], o.hits, o.shots), (3, 3, 1, 1));
    }

    #[test]
    fn a_miss_lands_short_by_the_margin_and_survivors_are_knocked_back() {
        // A column of 3 (9", 10", 11"). Missile 1: 3 misses Use 6 by 3: lands at 7". The
        // figure at 9" is 2" away (ring 0): 1d10 = 4 ties Armor 4 and is Knocked Back 1".
        // Missiles 2 and 3: natural 1s, duds.
        let v = volley(Launch::Launcher(3), 1, D8, "column:3", 10.0, Scatter::Short);
        let o = run(&v, &[(D8, 3), (D10, 4), (D8, 1), (D8, 1)]);
        assert_eq!((o.kills, o.ties, o.knocked_back, o.duds), (0, 1, 1, 2));
    }

    #[test]
    fn variants_burn_and_push() {
        // Ch. 8.4 Explosive Variants, a 3" Launcher's XSize 1 missile at a line of 3 at 10".
        // Incendiary 1d4 Fire, each Explosion on its own (`stacking=separate`): 3 does not
        // beat Armor 4, but all three catch fire, three times.
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Skill;
        o.stacking = Stacking::Separate;
        let mk = |variant: Variant| {
            let spec = VolleySpec {
                delivery: Delivery::with_variant(Launch::Launcher(3), 1, variant).unwrap(),
                formation: Formation::parse("line:3", 1.0).unwrap(),
                ..spec(&o)
            };
            Volley::new(spec, o).unwrap()
        };
        let inc = mk(Variant::Incendiary);
        #[rustfmt::skip]
        let out = run(&inc, &[
            (D8, 7), (Die::D4, 3),
            // Burning: -1d4 Armor (Ch. 8.3); each 1 leaves Armor 3, tied by the 3.
            (D8, 7), (Die::D4, 3), (Die::D4, 1), (Die::D4, 1), (Die::D4, 1),
            (D8, 7), (Die::D4, 3), (Die::D4, 1), (Die::D4, 1), (Die::D4, 1),
        ]);
        assert_eq!(
            (out.kills, out.on_fire, out.ties),
            (0, 9, 6),
            "three figures, three missiles"
        );
        // Stacked (the default): 3 + 3 beats 4 - 1 on the second missile; the third is not
        // fired.
        let mut stacked = *inc.opts();
        stacked.stacking = Stacking::Cumulative;
        let inc = Volley::new(
            VolleySpec {
                delivery: *inc.delivery(),
                formation: *inc.formation(),
                target: inc.target().clone(),
                ..spec(&o)
            },
            stacked,
        )
        .unwrap();
        #[rustfmt::skip]
        let out = run(&inc, &[
            (D8, 7), (Die::D4, 3),
            (D8, 7), (Die::D4, 3), (Die::D4, 1), (Die::D4, 1), (Die::D4, 1),
        ]);
        assert_eq!((out.kills, out.on_fire, out.shots), (3, 3, 2));
        // Concussion 1d6 KnockBack: no Damage; 4" of KnockBack pushes all three 4" straight
        // away, out of the next two blasts' single 2" ring.
        let con = mk(Variant::Concussion);
        #[rustfmt::skip]
        let out = run(&con, &[
            (D8, 7), (D6, 4), (D8, 7), (D6, 4), (D8, 7), (D6, 4),
        ]);
        assert_eq!((out.kills, out.knocked_back), (0, 3));
        assert!(Delivery::with_variant(Launch::Launcher(3), 1, Variant::Phased).is_err());
        assert_eq!(
            Delivery::with_variant(Launch::Launcher(4), 4, Variant::Phased)
                .unwrap()
                .damage(),
            "2d12 phased"
        );
    }

    #[test]
    fn the_wall_demolition_as_a_mixed_target() {
        // Ch. 8.4: a 3d10 Explosion rolls 3, 6, 7; the wall's 3d10 Armor rolls 4, 2, 9 = 15.
        // At the blast point (ring 0, 16 > 15) it falls; 3" away (ring 1, 9) it stands. A
        // Size 3 Rocket (Use 6) fired from 10": 7 hits.
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Skill;
        let mk = |at: (f64, f64)| {
            let spec = VolleySpec {
                delivery: Delivery::new(Launch::Rocket, 3).unwrap(),
                formation: Formation::parse("line:1", 1.0).unwrap(),
                wall: Some(Wall {
                    armor: Expr::parse("3d10").unwrap(),
                    at,
                }),
                ..spec(&o)
            };
            Volley::new(spec, o).unwrap()
        };
        #[rustfmt::skip]
        let script = [
            (D8, 7), (D10, 3), (D10, 6), (D10, 7), // the Rocket hits: 16 / 9 / 3
            (D10, 4), (D10, 2), (D10, 9),          // the wall's Armor: 15
        ];
        let out = run(&mk((0.0, 0.0)), &script);
        assert_eq!((out.walls, out.kills), (1, 1));
        let out = run(&mk((0.0, 3.0)), &script);
        assert_eq!((out.walls, out.kills), (0, 1));
    }

    #[test]
    fn carried_explosives_go_off() {
        // Ch. 8.4 Premature Detonation. One minifig carrying an XSize 1 Explosive, at the
        // aim point. A missile hits; its 1d10 shows 2: no kill (Armor 4), but the carried
        // Explosive took damage. Unstable: it goes off at once, 8 > 4.
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Skill;
        let mk = |stability: Stability, xsize: u32| {
            let spec = VolleySpec {
                delivery: Delivery::new(Launch::Launcher(3), 1).unwrap(),
                formation: Formation::parse("line:1", 1.0).unwrap(),
                carried: Some((stability, xsize)),
                ..spec(&o)
            };
            Volley::new(spec, o).unwrap()
        };
        let out = run(&mk(Stability::Unstable, 1), &[(D8, 7), (D10, 2), (D10, 8)]);
        assert_eq!((out.kills, out.chain, out.shots), (1, 1, 1));
        // Semi-stable: 2 > XSize 1 activates it; it goes off at the end of the turn, after
        // the other two missiles (both natural 1s, duds).
        #[rustfmt::skip]
        let out = run(&mk(Stability::SemiStable, 1), &[
            (D8, 7), (D10, 2), (D8, 1), (D8, 1), (D10, 8),
        ]);
        assert_eq!((out.kills, out.chain, out.shots, out.duds), (1, 1, 3, 2));
        // 2 is not more than XSize 2: that semi-stable Explosive stays inert.
        #[rustfmt::skip]
        let out = run(&mk(Stability::SemiStable, 2), &[
            (D8, 7), (D10, 2), (D8, 1), (D8, 1),
        ]);
        assert_eq!((out.kills, out.chain), (0, 0));
    }

    #[test]
    fn larger_targets_are_wounded_an_inch_at_a_time() {
        // A Horse (Size 2", Armor 1d6) under a Size 1 Rocket (Use 2): 9 beats Armor 3, so it
        // loses an inch and stands, wounded (readings §2).
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Skill;
        let c = Catalog::builtin();
        let spec = VolleySpec {
            delivery: Delivery::new(Launch::Rocket, 1).unwrap(),
            formation: Formation::parse("line:1", 1.0).unwrap(),
            target: Target::from_unit(c.get("horse").unwrap(), Cp::whole(9), &o),
            distance: 5.0,
            ..spec(&o)
        };
        let v = Volley::new(spec, o).unwrap();
        let out = run(&v, &[(D8, 7), (D10, 9), (D6, 3)]);
        assert_eq!((out.kills, out.wounded), (0, 1));
    }

    #[test]
    fn rings_and_out_of_range() {
        // A 2" Launcher (Use 4, Range 12") firing one XSize 2 missile at a column of 3, 3"
        // apart, centred at 13": 1" Out of Range, -1 to the Action roll and to Damage
        // (Ch. 8.4). 5 - 1 = 4 hits; 2d10 = 6 and 3. Ring 0 (the middle figure) takes
        // 9 - 1 = 8 > 4; ring 1 (3" away) takes 3 - 1 = 2 and is Knocked Back 1".
        let mut o = RuleOptions::default();
        o.overskill = OverskillPolicy::Skill;
        let spec = VolleySpec {
            delivery: Delivery::new(Launch::Launcher(2), 2).unwrap(),
            formation: Formation::parse("column:3", 3.0).unwrap(),
            distance: 13.0,
            ..spec(&o)
        };
        let v = Volley::new(spec, o).unwrap();
        assert_eq!(v.out_of_range(), 1);
        let out = run(&v, &[(D8, 5), (D10, 6), (D10, 3)]);
        assert_eq!((out.kills, out.by_ring[0], out.by_ring[1]), (1, 1, 0));
        assert_eq!(
            out.knocked_back, 2,
            "ring 1 survivors: 1\" of KnockBack each"
        );
    }

    /// Issue 23: a figure exactly on a ring's edge (2", 4", 6" from the burst) is in the
    /// inner ring (Ch. 8.4 "within a two-inch radius"), in each of the 400 directions a
    /// scatter can take and at any distance diemon accepts; a hair past the edge is not.
    #[test]
    fn a_figure_on_a_rings_edge_is_in_the_inner_ring() {
        for distance in [0.0, 3.0, 10.0, 18.0, 47.5, 100.0, 333.3, 1000.0] {
            let aim = (0.0, distance);
            for k in 0..400 {
                let turn = k as f64 / 400.0;
                for (r, ring) in [(2.0, 0), (4.0, 1), (6.0, 2)] {
                    let at = |margin| ring_of(aim, landing(aim, margin, turn));
                    assert_eq!(at(r), ring, "{r}\" at {distance}\", direction {k}/400");
                    assert_eq!(at(r + 1e-6), ring + 1, "past {r}\" at {distance}\"");
                }
            }
            // Figures around an exact hit on 3-4-5 triangles, whose coordinates are not
            // exact in binary (1.2, 1.6).
            for (dx, dy, ring) in [
                (1.2, 1.6, 0),
                (-1.6, 1.2, 0),
                (2.4, -3.2, 1),
                (-3.6, -4.8, 2),
            ] {
                assert_eq!(ring_of((dx, distance + dy), aim), ring, "{dx},{dy}");
            }
        }
    }

    /// The same through a whole scripted turn of fire: a 3" Launcher's missile misses by 2"
    /// (XSize 1, one ring) or 4" (XSize 2, the second ring) in every direction two d20s
    /// can give; the figure at the aim point is on the edge and always takes the Damage.
    #[test]
    fn a_scattered_missile_always_reaches_a_figure_on_its_edge() {
        for distance in [10.0, 18.0] {
            for (xsize, roll, ring) in [(1, 4, 0), (2, 2, 1)] {
                let v = volley(
                    Launch::Launcher(3),
                    xsize,
                    D8,
                    "line:1",
                    distance,
                    Scatter::Margin,
                );
                for k in 0..400u32 {
                    let mut script =
                        vec![(D8, roll), (Die::D20, k / 20 + 1), (Die::D20, k % 20 + 1)];
                    script.extend(std::iter::repeat_n((D10, 9), xsize as usize));
                    let out = run(&v, &script);
                    assert_eq!(
                        (out.kills, out.by_ring[ring]),
                        (1, 1),
                        "XSize {xsize} at {distance}\", direction {k}/400"
                    );
                }
            }
        }
    }
}
