//! Arc fire (Ch. 8.3): MachineGuns, BlastGuns and FlameThrowers sweeping a Firing Arc.
//!
//! "Every target within the attacker's Firing Arc receives a single attack from the weapon,
//! and Missed Shots are ignored." The arc is centred on the aim point; its width is `arc`
//! points of the option `arc_point` degrees. Targets are attacked from one end of the arc to
//! the other, each with its own Action roll at the Auto Penalty (-1 per point of arc;
//! BlastGuns take none). A MachineGun jams when a natural roll is below that penalty: the
//! shot fires and the sweep ends. Target Size and cover modify Damage as well as the Action
//! roll; a BlastGun loses a point of Damage per full inch from its barrel. A figure taking
//! Fire damage is set on fire (Ch. 8.3 Catching On Fire; its later Burning Rolls are not part
//! of this one turn).

use super::BlastError;
pub use super::error::WeaponError;
use std::f64::consts::PI;

use super::formation::{self, Formation, MAX_FIGURES};
use super::{Aim, BlastOutcome, BlastTally, Target};
use crate::catalog::armory::item_named;
use crate::catalog::weapon::{Damage as WDamage, Reach, WeaponKind};
use crate::dice::{Expr, Faces, Log, SkillRoll};
use crate::rules::attack::{AttackPlan, Attacker, Hit};
use crate::rules::measure::{self, within};
use crate::rules::{ArcSpan, RuleOptions, Stacking, auto, combat};
use crate::scenario::Scenario;
use crate::sim::Estimate;

/// The kind of automatic weapon.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Gun {
    /// Arc fire with the Auto Penalty; bursts; jams (Ch. 8.3).
    MachineGun,
    /// Fixed arc 1, no Auto Penalty, Damage - distance.
    BlastGun,
    /// Fire damage, an arc of at least 1.
    FlameThrower,
}

/// An automatic weapon's stats.
#[derive(Clone, Debug)]
pub struct Weapon {
    /// Its name as printed.
    pub name: String,
    /// How it fires.
    pub gun: Gun,
    /// Its Use rating.
    pub use_rating: i64,
    /// Its Range in inches.
    pub range: u32,
    /// Damage before any modifier (a BlastGun's before its distance falloff).
    pub damage: Expr,
    /// Its price, if the texts give one.
    pub cost: Option<crate::catalog::Cp>,
    /// KnockBack inches to targets of Size 1" or less on a hit (the ShotGun's 1", Ch. 8.1).
    pub knockback: u32,
}

impl Weapon {
    /// A MachineGun, BlastGun or FlameThrower of Weapon Size `size` (Ch. 8.3).
    pub fn sized(kind: WeaponKind, size: u32) -> Result<Weapon, WeaponError> {
        let st = kind.at(size).map_err(WeaponError::Size)?;
        let damage = match &st.damage {
            WDamage::Dice(e) | WDamage::MinusDistance(e) => e.clone(),
            other => return Err(missing(&format!("dice Damage ({other})"), kind.key())),
        };
        Ok(Weapon {
            name: format!("{size}\" {kind}"),
            gun: gun_of(kind).ok_or_else(|| missing("automatic fire", kind.key()))?,
            use_rating: st.use_rating.ok_or_else(|| missing("Use", kind.key()))? as i64,
            range: inches(&st.range, kind.key())?,
            damage: Expr::parse(&damage).map_err(WeaponError::Damage)?,
            cost: Some(st.cost),
            knockback: 0,
        })
    }

    /// A minifig Bastard gun of the armory (Ch. 8.1): `shotgun` fires as a BlastGun,
    /// `autogun` as a MachineGun, `flamegun` as a FlameThrower.
    pub fn named(key: &str) -> Result<Weapon, WeaponError> {
        let gun = match key {
            "shotgun" => Gun::BlastGun,
            "autogun" => Gun::MachineGun,
            "flamegun" => Gun::FlameThrower,
            _ => return Err(missing("automatic fire", key)),
        };
        let i = item_named(key).ok_or_else(|| WeaponError::NoItem(key.to_string()))?;
        Ok(Weapon {
            name: i.name.to_string(),
            gun,
            use_rating: i.use_rating.ok_or_else(|| missing("Use", key))? as i64,
            range: inches(&i.range, key)?,
            damage: Expr::parse(i.damage.ok_or_else(|| missing("Damage", key))?)
                .map_err(WeaponError::Damage)?,
            cost: i.cost,
            knockback: i.knockback,
        })
    }
}

/// How an automatic weapon kind fires.
fn gun_of(kind: WeaponKind) -> Option<Gun> {
    match kind {
        WeaponKind::MachineGun => Some(Gun::MachineGun),
        WeaponKind::BlastGun => Some(Gun::BlastGun),
        WeaponKind::FlameThrower => Some(Gun::FlameThrower),
        _ => None,
    }
}

fn missing(what: &str, of: &str) -> WeaponError {
    WeaponError::Missing {
        what: what.to_string(),
        of: of.to_string(),
    }
}

fn inches(r: &Reach, of: &str) -> Result<u32, WeaponError> {
    match r {
        Reach::Inches(n) => Ok(*n),
        _ => Err(missing("Range in inches", of)),
    }
}

/// A turn of arc fire.
#[derive(Clone, Debug)]
pub struct ArcSpec {
    /// The weapon fired.
    pub weapon: Weapon,
    /// Points of Firing Arc swept.
    pub arc: u32,
    /// A MachineGun burst of this many shots at one figure instead of arc fire (Ch. 8.3).
    pub burst: Option<u32>,
    /// The shooter's Skill roll.
    pub skill: SkillRoll,
    /// Action bonus from Gunnery Support (Ch. 8.5).
    pub support: i64,
    /// How the figures fired at stand.
    pub formation: Formation,
    /// The figures fired at.
    pub target: Target,
    /// Inches from the shooter to the formation's centre.
    pub distance: f64,
    /// Where the arc is centred.
    pub aim: Aim,
}

/// A turn of arc fire, validated and resolved for rolling.
#[derive(Clone, Debug)]
pub struct ArcFire {
    spec: ArcSpec,
    opts: RuleOptions,
    plan: AttackPlan,
    offsets: Vec<(f64, f64)>,
    penalty: u32,
    fire: bool,
}

impl ArcFire {
    /// Checks the turn of fire and resolves it for rolling.
    pub fn new(spec: ArcSpec, opts: RuleOptions) -> Result<ArcFire, BlastError> {
        if let Some(b) = spec.burst {
            if spec.weapon.gun != Gun::MachineGun {
                return Err(BlastError::BurstNotMachineGun);
            }
            if !(1..=100).contains(&b) {
                return Err(BlastError::BurstShots(b));
            }
        }
        match (spec.weapon.gun, spec.arc) {
            (Gun::BlastGun, a) if a != 1 => {
                return Err(BlastError::BlastGunArc);
            }
            (_, 0) => {
                return Err(BlastError::NoArc);
            }
            (_, a) if a as f64 * opts.arc_point.degrees() >= 360.0 => {
                return Err(BlastError::FullCircle(a));
            }
            _ => {}
        }
        if !(spec.distance > 0.0 && spec.distance <= 1000.0) {
            return Err(BlastError::ArcDistance(spec.distance));
        }
        let plan = Attacker {
            skill: spec.skill,
            use_rating: spec.weapon.use_rating,
            damage: spec.weapon.damage.clone(),
        }
        .against(&spec.target.armor, &opts);
        let penalty = match (spec.weapon.gun, spec.burst) {
            (Gun::BlastGun, _) => 0,
            (_, Some(b)) => b,
            _ => spec.arc,
        };
        let fire = spec.weapon.damage.text().contains("fire");
        Ok(ArcFire {
            offsets: spec.formation.offsets(),
            plan,
            penalty,
            fire,
            opts,
            spec,
        })
    }

    /// The turn of fire as asked.
    pub fn spec(&self) -> &ArcSpec {
        &self.spec
    }

    /// The rule options it rolls under.
    pub fn opts(&self) -> &RuleOptions {
        &self.opts
    }

    /// The Auto Penalty on every Action roll of the sweep.
    pub fn penalty(&self) -> u32 {
        self.penalty
    }
}

/// The signed angle from `a` to `b`, in (-pi, pi].
pub(crate) fn turn(a: f64, b: f64) -> f64 {
    let mut d = b - a;
    while d > PI {
        d -= 2.0 * PI;
    }
    while d <= -PI {
        d += 2.0 * PI;
    }
    d
}

impl ArcFire {
    /// The figures at `pos` in the arc around `aim` and in Range, ordered from one end of
    /// the arc to the other (ties by slot): the first `m` of the array.
    fn in_arc(&self, pos: &[(f64, f64)], aim: (f64, f64)) -> ([(f64, usize); MAX_FIGURES], usize) {
        let s = &self.spec;
        let bearing = aim.0.atan2(aim.1);
        let half = s.arc as f64 * self.opts.arc_point.degrees().to_radians() / 2.0;
        let mut order = [(0.0f64, 0usize); MAX_FIGURES];
        let mut m = 0;
        for (i, p) in pos.iter().enumerate() {
            let a = turn(bearing, p.0.atan2(p.1));
            if within(a.abs(), half) && within(measure::length(p.0, p.1), s.weapon.range as f64) {
                order[m] = (a, i);
                m += 1;
            }
        }
        order[..m].sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        (order, m)
    }

    /// The points of the arc a figure `off` radians off its centre line and `inches` away
    /// spans completely, each an extra attack (Ch. 8.3, option `arc_span`; a figure is as
    /// wide as the target's Size).
    fn spans(&self, off: f64, inches: f64) -> u32 {
        let size = self.spec.target.size;
        let point = self.opts.arc_point.degrees().to_radians();
        match self.opts.arc_span {
            ArcSpan::Larger if size > 1 => {
                auto::spanned(off, inches, size as f64, self.spec.arc, point)
            }
            ArcSpan::Any => auto::spanned(off, inches, size as f64, self.spec.arc, point),
            _ => 0,
        }
    }

    /// A burst's one target: the figure nearest the aim point within Range (ties to the
    /// lower slot); none in Range, none.
    fn burst_target(&self, pos: &[(f64, f64)], aim: (f64, f64)) -> Option<usize> {
        let range = self.spec.weapon.range as f64;
        (0..pos.len())
            .filter(|&i| within(measure::length(pos[i].0, pos[i].1), range))
            .min_by(|&a, &b| {
                let d = |i: usize| measure::apart(pos[i], aim);
                d(a).total_cmp(&d(b)).then(a.cmp(&b))
            })
    }

    /// What a hit of `damage` against `armor` does to its figure, counted in `out`; whether
    /// it falls. A minifig-sized figure falls to Damage above its Armor; a larger one is
    /// wounded (Ch. 10.2); a tie stands. Fire sets it alight, KnockBack pushes a small one
    /// (Ch. 8.3, 8.1).
    #[inline(always)]
    fn lands(&self, out: &mut BlastOutcome, damage: i64, armor: i64) -> bool {
        let s = &self.spec;
        if damage > armor && s.target.size <= 1 {
            out.kills += 1;
            return true;
        }
        if damage > armor {
            out.wounded += 1;
        } else if damage == armor {
            out.ties += 1;
        }
        if self.fire && damage >= 1 {
            out.on_fire += 1;
        }
        if s.weapon.knockback > 0 && s.target.size <= 1 {
            out.knocked_back += 1;
        }
        false
    }
}

impl Scenario for ArcFire {
    type Outcome = BlastOutcome;
    type Tally = BlastTally;

    fn trial<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> BlastOutcome {
        let s = &self.spec;
        let n = s.formation.len();
        let mut pos = [(0.0f64, 0.0f64); MAX_FIGURES];
        formation::place(
            &s.formation,
            &self.offsets,
            s.distance,
            faces,
            log,
            &mut pos,
        );
        let aim = match s.aim {
            Aim::Centre => (0.0, s.distance),
            Aim::Densest => super::densest(&pos[..n], &[true; MAX_FIGURES][..n], s.distance),
        };
        let (order, m) = self.in_arc(&pos[..n], aim);
        let mut out = BlastOutcome::EMPTY;
        let size = combat::target_size(s.target.size, self.opts.target_size);
        let burst_target = s.burst.and_then(|_| self.burst_target(&pos[..n], aim));
        let count = match (s.burst, burst_target) {
            (Some(b), Some(_)) => b as usize,
            (Some(_), None) => 0,
            (None, _) => m,
        };
        let mut pooled = 0i64;
        let mut pool_armor: Option<i64> = None;
        #[allow(
            clippy::needless_range_loop,
            reason = "a burst's count may pass order.len(): it fires at one target"
        )]
        'shots: for k in 0..count {
            let (i, penalty) = match (s.burst, burst_target) {
                (Some(b), Some(t)) => (
                    t,
                    auto::auto_penalty(k as u32 + 1, b, self.opts.auto_penalty),
                ),
                _ => (order[k].1, self.penalty),
            };
            let inches = measure::length(pos[i].0, pos[i].1);
            // Ch. 8.3: a larger target takes an extra attack for each point it spans.
            let spans = match s.burst {
                Some(_) => 0,
                None => self.spans(order[k].0, inches),
            };
            for _ in 0..=spans {
                out.shots += 1;
                let (hit, natural) =
                    self.plan
                        .hit_natural(faces, log, s.support + size - penalty as i64);
                let mut down = false;
                if let Hit::Hit { benny } = hit {
                    out.hits += 1;
                    if s.target.any_hit_kills {
                        out.kills += 1;
                        down = true;
                    } else {
                        let falloff = match s.weapon.gun {
                            Gun::BlastGun => auto::blast_damage_modifier(inches, size, 0),
                            _ => size,
                        };
                        let damage = self.plan.damage(faces, log, benny) + falloff;
                        // A burst's shots all hit one figure in one Action: with
                        // `stacking=cumulative` their Damage adds up (readings §2).
                        let (damage, armor) =
                            if s.burst.is_some() && self.opts.stacking == Stacking::Cumulative {
                                pooled += damage.max(0);
                                let a = match pool_armor {
                                    Some(a) => a,
                                    None => {
                                        let a = self.plan.armor(faces, log);
                                        pool_armor = Some(a);
                                        a
                                    }
                                };
                                (pooled, a)
                            } else {
                                (damage, self.plan.armor(faces, log))
                            };
                        log.note(format_args!(
                            "  figure {}: Damage {damage} vs Armor {armor}",
                            i + 1
                        ));
                        down = self.lands(&mut out, damage, armor);
                    }
                }
                // Ch. 8.3: the shot fires, then the gun is inoperative.
                if s.weapon.gun == Gun::MachineGun && auto::jams(natural, penalty) {
                    log.note(format_args!("  the MachineGun jams"));
                    out.jams += 1;
                    break 'shots;
                }
                if down && s.burst.is_some() {
                    break 'shots; // the burst's one target is down
                }
                if down {
                    break;
                }
            }
        }
        out
    }

    fn key(&self, t: &BlastTally) -> Estimate {
        t.mean_kills()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Catalog, Cp};
    use crate::dice::Die;

    fn fire(weapon: Weapon, arc: u32, formation: &str, distance: f64) -> ArcFire {
        let o = RuleOptions::default();
        let c = Catalog::builtin();
        let spec = ArcSpec {
            weapon,
            arc,
            burst: None,
            skill: SkillRoll::new(Die::D6),
            support: 0,
            formation: Formation::parse(formation, 1.0).unwrap(),
            target: Target::from_unit(c.get("minifig").unwrap(), Cp::whole(4), &o),
            distance,
            aim: Aim::Centre,
        };
        ArcFire::new(spec, o).unwrap()
    }

    fn gun(gun: Gun, use_rating: i64, range: u32, damage: &str) -> Weapon {
        Weapon {
            name: "test".into(),
            gun,
            use_rating,
            range,
            damage: Expr::parse(damage).unwrap(),
            cost: None,
            knockback: 0,
        }
    }

    fn run(a: &ArcFire, script: &[(Die, u32)]) -> BlastOutcome {
        crate::scenario::scripted(a, script)
    }

    const D6: Die = Die::D6;

    #[test]
    fn issue_40_a_large_target_takes_an_extra_attack_for_each_point_it_spans() {
        // A Size 3 Scorpiosaurus Rex alone at 5" spans a 1-point arc (3" across is 33
        // degrees there): two attacks, both missing (2 - 1 + 1 < Use 4). Under option
        // `arc_span = off` one.
        let c = Catalog::builtin();
        let shots = |span: ArcSpan| {
            let o = RuleOptions {
                arc_span: span,
                ..RuleOptions::default()
            };
            let mut a = fire(gun(Gun::MachineGun, 4, 8, "2d6"), 1, "line:1", 5.0);
            a.spec.target =
                Target::from_unit(c.get("scorpiosaurus-rex").unwrap(), Cp::whole(20), &o);
            a.opts = o;
            let mut dice = crate::dice::Script::new(&[(D6, 2), (D6, 2)]);
            a.trial(&mut dice, &mut crate::dice::NoLog).shots
        };
        assert_eq!(shots(ArcSpan::Larger), 2);
        assert_eq!(shots(ArcSpan::Off), 1);
    }

    #[test]
    fn every_figure_in_the_arc_gets_one_attack_at_the_auto_penalty() {
        // A 2" MachineGun (Use 4, Range 8", 2d6) sweeping 1 point (20 degrees) over a line of
        // three at 6": all within 10 degrees of the aim. -1 each (Ch. 8.3). Left figure: 5 - 1
        // hits, 3 + 4 > 4. Centre: a natural 1. Right: 4 - 1 misses.
        let a = fire(gun(Gun::MachineGun, 4, 8, "2d6"), 1, "line:3", 6.0);
        assert_eq!(a.penalty(), 1);
        let o = run(&a, &[(D6, 5), (D6, 3), (D6, 4), (D6, 1), (D6, 4)]);
        assert_eq!((o.shots, o.hits, o.kills, o.jams), (3, 1, 1, 0));
        // Out of the arc: a column's figures are all dead ahead; a line 2" apart at 3" puts
        // the outer two 33 degrees off the aim, outside a 1-point arc.
        let a = fire(gun(Gun::MachineGun, 4, 8, "2d6"), 1, "line:3", 3.0);
        let wide = Formation::parse("line:3", 2.0).unwrap();
        let a = ArcFire::new(
            ArcSpec {
                formation: wide,
                ..a.spec().clone()
            },
            *a.opts(),
        )
        .unwrap();
        assert_eq!(run(&a, &[(D6, 2)]).shots, 1);
    }

    #[test]
    fn a_machine_gun_jams_when_the_natural_roll_is_below_the_penalty() {
        // A 2-point arc: -2. The first shot shows a natural 1: a Critical Failure, and the gun
        // jams (1 < 2); the rest of the sweep is not fired.
        let a = fire(gun(Gun::MachineGun, 4, 8, "2d6"), 2, "line:3", 6.0);
        let o = run(&a, &[(D6, 1)]);
        assert_eq!((o.shots, o.jams), (1, 1));
        // A FlameThrower never jams.
        let f = fire(gun(Gun::FlameThrower, 3, 6, "1d4 fire"), 2, "line:1", 4.0);
        let o = run(&f, &[(D6, 1)]);
        assert_eq!((o.shots, o.jams), (1, 0));
    }

    #[test]
    fn a_burst_fires_at_one_figure_with_growing_penalties() {
        // A MachineGun (Use 3, 2d6) bursts 3 shots at the figure nearest the aim point, at
        // -1, -2, -3 (auto_penalty=per_shot). Shot 1: 4 - 1 hits, 2 + 1 = 3 (Armor 4). Shot
        // 2: 5 - 2 hits, 1 + 1 = 2; stacked with the first, 5 > 4: down, the burst ends.
        let mg = fire(gun(Gun::MachineGun, 3, 8, "2d6"), 1, "line:3", 6.0);
        let b = ArcFire::new(
            ArcSpec {
                burst: Some(3),
                ..mg.spec().clone()
            },
            *mg.opts(),
        )
        .unwrap();
        #[rustfmt::skip]
        let o = run(&b, &[(D6, 4), (D6, 2), (D6, 1), (D6, 5), (D6, 1), (D6, 1)]);
        assert_eq!((o.shots, o.hits, o.kills), (2, 2, 1));
        // Shot 2's natural 1 is below its -2: it fires (a Critical Failure), then the gun
        // jams.
        let o = run(&b, &[(D6, 4), (D6, 2), (D6, 1), (D6, 1)]);
        assert_eq!((o.shots, o.jams, o.kills), (2, 1, 0));
        let sg = fire(gun(Gun::BlastGun, 2, 6, "1d8 blast + 1"), 1, "line:1", 3.0);
        assert!(
            ArcFire::new(
                ArcSpec {
                    burst: Some(2),
                    ..sg.spec().clone()
                },
                *sg.opts()
            )
            .is_err()
        );
    }

    #[test]
    fn shotgun_damage_falls_off_and_fire_catches() {
        // The ShotGun (1d8 blast + 1, Use 2, Range 6") at a minifig 3" away: 8 + 1 - 3 = 6 > 4.
        let s = fire(gun(Gun::BlastGun, 2, 6, "1d8 blast + 1"), 1, "line:1", 3.0);
        let o = run(&s, &[(D6, 2), (Die::D8, 8), (D6, 1)]);
        assert_eq!(o.kills, 1);
        // At 3" a 6 (+1 - 3 = 4) ties Armor 4; the ShotGun knocks him back 1" (Ch. 8.1).
        let o = run(&s, &[(D6, 2), (Die::D8, 6)]);
        assert_eq!((o.kills, o.ties, o.knocked_back), (0, 1, 0));
        let shotgun = ArcFire::new(
            ArcSpec {
                weapon: Weapon {
                    knockback: 1,
                    ..s.spec().weapon.clone()
                },
                ..s.spec().clone()
            },
            *s.opts(),
        )
        .unwrap();
        let o = run(&shotgun, &[(D6, 2), (Die::D8, 6)]);
        assert_eq!((o.ties, o.knocked_back), (1, 1));
        // A FlameThrower's 1d4 Fire: 3 does not beat 4, but sets him on fire.
        let f = fire(gun(Gun::FlameThrower, 3, 6, "1d4 fire"), 1, "line:1", 4.0);
        let o = run(&f, &[(D6, 4), (Die::D4, 3)]);
        assert_eq!((o.kills, o.on_fire), (0, 1));
        assert!(
            ArcFire::new(
                ArcSpec {
                    arc: 2,
                    ..s.spec().clone()
                },
                *s.opts()
            )
            .is_err()
        );
    }
}
