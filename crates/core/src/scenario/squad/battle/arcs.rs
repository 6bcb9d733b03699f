//! Automatic weapons in a squad battle (Ch. 8.3). Fired alone, an automatic weapon sweeps
//! its Firing Arc, centred on its target (or turned to hold the most enemies, option
//! `arc_aim`): "every target within the attacker's Firing Arc
//! receives a single attack from the weapon", each its own Action roll, taken from one end
//! of the arc to the other, and target Size and cover modify the Damage as well as the roll.
//! - A MachineGun (or AutoGun) sweeps the arc its side's `auto` policy names, at -1 per
//!   point (the Auto Penalty); or, under `burst:N`, fires N shots at its target alone, shot
//!   k at -k (option `auto_penalty`), their Damage adding up under `stacking=cumulative`.
//!   A natural roll below the shot's penalty jams it: that shot fires, and the gun is
//!   inoperative until an Action reloads it (the next turn's, in [`super::hooks`]).
//! - A BlastGun (or ShotGun) sweeps a fixed arc of 1 with no Auto Penalty, and loses a point
//!   of Damage per full inch to each target; the ShotGun knocks minifigs back 1".
//! - A FlameThrower (or FlameGun) sweeps its arc (1 point under a burst policy) at the Auto
//!   Penalty; a point of its Fire damage sets a minifig on fire ([`super::fire`]).
//!
//! Each attack is the battle's own strike (modifiers, Deflection, Damage against Armor);
//! the arc is measured on the plane ([`super::explosives`]) with `diemon blast`'s angle
//! code and its Auto Penalty, jam and falloff rules ([`crate::rules::auto`]). Readings
//! (docs/model.md): the gunner holds its fire over friends in the arc; a figure beyond the
//! Range on the plane is not attacked, save the target itself, the nearest enemy.

use super::strike::Extra;
use super::*;
use crate::dice::{Faces, Log};
use crate::rules::measure::{self, within};
use crate::rules::{ArcAim, ArcSpan, Stacking, auto, combat};
use crate::scenario::blast::arc::{Gun, turn};
use crate::scenario::squad::AutoFire;

impl Squad {
    /// Unit `i` fires automatic weapon `w` at its target `t`: a sweep of its Firing Arc, or
    /// a MachineGun's burst; `support` is its Gunnery Support (Ch. 8.5).
    #[cold]
    #[inline(never)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn sweep<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        support: i64,
        faces: &mut F,
        log: &mut L,
    ) {
        let arm = &self.kinds[fl.f[i].kind as usize].arms[w];
        let Some(gun) = arm.auto else {
            return;
        };
        let side = fl.f[i].side;
        let fire = self.policy[side as usize].auto;
        if let (Gun::MachineGun, AutoFire::Burst(n)) = (gun, fire) {
            return self.burst(fl, i, w, t, n as u32, support, faces, log);
        }
        // "BlastGuns have a fixed Firing Arc of 1 and take no Auto Penalty".
        let (points, penalty) = match gun {
            Gun::BlastGun => (1, 0),
            _ => (fire.arc(), fire.arc() as i64),
        };
        let from = self.spot(fl, i);
        let at = self.spot(fl, t);
        let half = points as f64 * self.opts.arc_point.degrees().to_radians() / 2.0;
        let range = arm.range.unwrap_or(0) as f64;
        let mut bearing = (at.0 - from.0).atan2(at.1 - from.1);
        if self.opts.arc_aim == ArcAim::Most {
            bearing += self.arc_turn(fl, i, t, bearing, half, range);
        }
        // The enemies in the arc, ordered from one end to the other (ties by slot), with
        // their distance.
        let gunner = (from, side);
        let mut m = 0;
        for u in 0..self.roster.len() {
            let Some((a, d)) = self.off_bearing(fl, gunner, u, bearing) else {
                continue;
            };
            if u == t || (within(a.abs(), half) && within(d, range)) {
                fl.arc[m] = (a, u, d);
                m += 1;
            }
        }
        fl.arc[..m].sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        'arc: for k in 0..m {
            let (off, u, inches) = fl.arc[k];
            if !fl.f[u].alive || !self.may_engage(fl, i, u, Mode::Ranged) {
                continue;
            }
            let spans = self.spans(fl, u, off, inches, points);
            if spans > 0 {
                log.note(format_args!(
                    "    {} spans {spans} point{} of the arc: {} attacks",
                    Who(self, fl, u),
                    crate::plural::s(spans),
                    spans + 1,
                ));
            }
            for _ in 0..=spans {
                if !fl.f[u].alive {
                    break;
                }
                let size = combat::target_size(fl.f[u].size, self.opts.target_size);
                // Arc fire's cover counts toward its Damage too (Ch. 8.3).
                let cover = if self.board.is_some() {
                    combat::cover(self.sight(fl, i, u).hidden)
                } else {
                    combat::cover(self.policy[fl.f[u].side as usize].cover)
                };
                let damage = match gun {
                    Gun::BlastGun => auto::blast_damage_modifier(inches, size, cover),
                    _ => size + cover,
                };
                log.note(format_args!(
                    "    at {} {inches:.1}\" off (Auto Penalty -{penalty}, Damage {damage:+})",
                    Who(self, fl, u)
                ));
                let extra = Extra {
                    action: support - penalty,
                    damage,
                };
                let s =
                    self.strike::<false, F, L>(fl, i, w, u, Mode::Ranged, false, extra, faces, log);
                fl.swept[side as usize] += !fl.f[u].alive as u32;
                if gun == Gun::MachineGun && auto::jams(s.natural, penalty as u32) {
                    self.jam(fl, i, log);
                    break 'arc;
                }
            }
        }
    }

    /// The points of an arc `points` wide that unit `u`, `off` radians off its centre line
    /// and `inches` away, spans completely: an extra attack each (Ch. 8.3, option
    /// `arc_span`; a figure is as wide as its Effective Size).
    fn spans(&self, fl: &Field, u: usize, off: f64, inches: f64, points: u32) -> u32 {
        let size = fl.f[u].size;
        let point = self.opts.arc_point.degrees().to_radians();
        match self.opts.arc_span {
            ArcSpan::Larger if size > 1 => auto::spanned(off, inches, size as f64, points, point),
            ArcSpan::Any => auto::spanned(off, inches, size as f64, points, point),
            _ => 0,
        }
    }

    /// Unit `u`, if it stands against `side`: its angle off `bearing` (radians, either way)
    /// seen `from` the gunner's spot, and its distance on the plane.
    #[inline(always)]
    fn off_bearing(
        &self,
        fl: &Field,
        (from, side): ((f64, f64), u8),
        u: usize,
        bearing: f64,
    ) -> Option<(f64, f64)> {
        let fu = fl.f[u];
        if !fu.alive || fu.side == side {
            return None;
        }
        let p = self.spot(fl, u);
        let a = turn(bearing, (p.0 - from.0).atan2(p.1 - from.1));
        Some((a, measure::apart(p, from)))
    }

    /// Under `arc_aim=most`, how far to turn an arc of half-width `half` from its target
    /// `t`'s `bearing` so that, still holding `t`, it takes in the most enemies within
    /// `range`: each placement with an enemy on one edge is counted, and of equal counts the
    /// turn nearest zero (centred) wins, then the lesser.
    fn arc_turn(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        bearing: f64,
        half: f64,
        range: f64,
    ) -> f64 {
        // Each enemy in Range by its angle off the bearing, in the sweep's scratch.
        let gunner = (self.spot(fl, i), fl.f[i].side);
        let mut m = 0;
        for u in 0..self.roster.len() {
            let Some((a, d)) = self.off_bearing(fl, gunner, u, bearing) else {
                continue;
            };
            if u == t || within(d, range) {
                fl.arc[m].0 = a;
                m += 1;
            }
        }
        let off = &fl.arc[..m];
        let count = |centre: f64| {
            off.iter()
                .filter(|&&(a, _, _)| within(turn(centre, a).abs(), half))
                .count()
        };
        let mut best = (count(0.0), 0.0f64);
        for &(a, _, _) in off {
            // The arc's near edge on `a`, either way, if it still holds the target (at 0).
            for centre in [a + half, a - half] {
                if !within(centre.abs(), half) {
                    continue;
                }
                let n = count(centre);
                let better = n > best.0
                    || (n == best.0
                        && (centre.abs() < best.1.abs()
                            || (centre.abs() == best.1.abs() && centre < best.1)));
                if better {
                    best = (n, centre);
                }
            }
        }
        best.1
    }

    /// A MachineGun's burst of `n` shots at `t` (Ch. 8.3): shot k at the Auto Penalty of
    /// option `auto_penalty`; under `stacking=cumulative` the shots' Damage adds up against
    /// one Armor roll, as one Action's attacks do (readings §2). The burst ends when its
    /// target falls or the gun jams.
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    fn burst<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        n: u32,
        support: i64,
        faces: &mut F,
        log: &mut L,
    ) {
        let pooled = n > 1 && self.opts.stacking == Stacking::Cumulative;
        fl.f[t].combo = self.action_pool(&fl.f[t]);
        if self.any_sn {
            Squad::forget_struck(fl, t);
        }
        let mut landed = false;
        for k in 1..=n {
            if !fl.f[t].alive {
                break;
            }
            let penalty = auto::auto_penalty(k, n, self.opts.auto_penalty);
            log.note(format_args!(
                "    shot {k} of {n} at {} (Auto Penalty -{penalty})",
                Who(self, fl, t)
            ));
            let extra = Extra {
                action: support - penalty as i64,
                damage: 0,
            };
            let s =
                self.strike::<false, F, L>(fl, i, w, t, Mode::Ranged, pooled, extra, faces, log);
            landed |= s.deferred;
            let Pool { damage, armor } = fl.f[t].combo;
            if landed && damage > armor {
                // The pools are emptied with the inch of Size it takes.
                self.resolve_action(fl, i, w, t, faces, log);
                landed = false;
            }
            if auto::jams(s.natural, penalty) {
                self.jam(fl, i, log);
                break;
            }
        }
        if landed && fl.f[t].alive {
            self.resolve_action(fl, i, w, t, faces, log);
        }
        fl.swept[fl.f[i].side as usize] += !fl.f[t].alive as u32;
    }

    /// "the MachineGun fires that last round and then becomes inoperative" (Ch. 8.3).
    fn jam<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, log: &mut L) {
        fl.f[i].jammed = true;
        log.note(format_args!("    {}'s MachineGun jams", Who(self, fl, i)));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    const D6_: Die = Die::D6;

    use crate::dice::Script;
    use crate::rules::{ArcAim, CombinedFire, Stacking};
    use crate::scenario::squad::{AutoFire, Position, Spacing};

    const D4_: Die = Die::D4;
    const D8_: Die = Die::D8;

    /// One A unit against B's, each side with its own policy; A goes first.
    fn duel(
        a: (&str, u32),
        pa: Policy,
        b: (&str, u32),
        pb: Policy,
        d: u32,
        o: RuleOptions,
    ) -> Squad {
        Squad::new(
            side_with(&[a], pa, &o),
            side_with(&[b], pb, &o),
            d,
            First::A,
            50,
            o,
        )
        .unwrap()
    }

    /// Unit `i` sweeps its first weapon at `t` with `dice`, which must all be used.
    fn sweep(s: &Squad, fl: &mut super::Field, i: usize, t: usize, dice: &[(Die, u32)]) {
        let mut script = Script::new(dice);
        s.sweep(fl, i, 0, t, 0, &mut script, &mut NoLog);
        assert!(script.is_done(), "dice left over");
    }

    #[test]
    fn a_flamethrower_sets_a_minifig_burning_with_a_point_of_fire() {
        // A 1" FlameThrower (Use 2, Range 4", 1d4 Fire) 4" from a minifig: -1 for its arc.
        // A 4 hits (4 - 1 >= 2); a 3 of Fire does not beat Armor 4 but sets him on fire
        // ("any minifig who takes at least one point of Fire damage is on fire", Ch. 8.3).
        let o = RuleOptions::default();
        let p = Policy::default();
        let s = duel(("minifig-flamethrower", 1), p, MF, p, 4, o);
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D4_, 3)]);
        assert!(fl.f[1].alive && fl.f[1].burning);
        // Half behind cover (1/3: -1): arc fire takes cover off the Damage too. 4 - 1 - 1
        // still hits; a 1 of Fire less 1 is no Fire at all, a 2 less 1 is.
        let hidden = Policy { cover: 1, ..p };
        let s = duel(("minifig-flamethrower", 1), p, MF, hidden, 4, o);
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D4_, 1)]);
        assert!(!fl.f[1].burning);
        sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D4_, 2)]);
        assert!(fl.f[1].burning);
        // Burning, his Armor loses 1d4 on the next hit, in a later player turn (a new pool
        // for Combined Fire): a 3 of Fire less cover against 4 - 3 falls him.
        fl.f[1].combined = super::super::Pool::EMPTY;
        sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D4_, 3), (D4_, 3)]);
        assert!(!fl.f[1].alive);
    }

    #[test]
    fn the_fire_it_starts_burns_on_in_a_battle_without_supernatural_dice() {
        // The victim's turn begins with a Burning Roll (Ch. 8.3): a 2 keeps him burning and
        // costs a limb; a 1 puts the fire out.
        let p = Policy::default();
        let s = duel(
            ("minifig-flamethrower", 1),
            p,
            MF,
            p,
            4,
            RuleOptions::default(),
        );
        let mut fl = s.start();
        fl.f[1].burning = true;
        let mut dice = Script::new(&[(D4_, 2)]);
        s.unit_turn(&mut fl, 1, &mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert!(fl.f[1].burning && fl.f[1].lost != 0);
        let mut dice = Script::new(&[(D4_, 1)]);
        s.unit_turn(&mut fl, 1, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].burning);
    }

    #[test]
    fn a_blastgun_takes_no_auto_penalty_and_loses_a_point_a_full_inch() {
        // A 1" BlastGun (Use 2, Range 4", 1d8 blast): a natural 2 hits (no Auto Penalty).
        // At 3" a 6 does 6 - 3 = 3 against Armor 4; at 1.5" the same 6 does 6 - 1 = 5.
        let o = RuleOptions::default();
        let p = Policy::default();
        let s = duel(("minifig-blastgunner", 1), p, MF, p, 3, o);
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 2), (D8_, 6)]);
        assert!(fl.f[1].alive);
        fl.f[1].pos = 3.0;
        sweep(&s, &mut fl, 0, 1, &[(D6_, 2), (D8_, 6)]);
        assert!(!fl.f[1].alive);
    }

    #[test]
    fn a_shotgun_knocks_a_minifig_back_an_inch_without_disruption() {
        // The ShotGun (Use 2, Range 6", 1d8 blast + 1) at 2": 5 + 1 - 2 = 4 ties Armor 4;
        // the hit pushes him 1" away, on his feet ("no Disruption", Ch. 8.1).
        let o = RuleOptions::default();
        let p = Policy::default();
        let s = duel(("minifig+shotgun", 1), p, MF, p, 2, o);
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 2), (D8_, 5)]);
        assert!(fl.f[1].alive && !fl.f[1].disrupted);
        assert_eq!(fl.f[1].pos, 6.0, "2\" + 1\" in half-inches");
    }

    #[test]
    fn a_wider_arc_costs_more_and_a_jammed_machinegun_reloads_with_its_next_action() {
        // arc:2 over three minifigs on one spot 5" off: -2 each. 4 - 2 misses Use 3; 5 - 2
        // hits and 5 fells the second; the third shot's natural 1 is below 2: it jams and
        // the sweep ends (Ch. 8.3).
        let o = RuleOptions::default();
        let two = Policy {
            auto: AutoFire::Arc(2),
            ..Policy::default()
        };
        let close = on_spot();
        let s = duel(
            ("minifig-machinegunner", 1),
            two,
            ("minifig-hand-weapon", 3),
            close,
            5,
            o,
        );
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D6_, 5), (D6_, 5), (D6_, 1)]);
        assert_eq!(fl.alive[1], 2);
        assert_eq!(fl.swept, [1, 0], "kills by weapon: one to A's MachineGun");
        assert!(fl.f[0].jammed);
        // Its next turn: the Action reloads the gun, and it may only walk. The narration
        // says so, and does not call the walk a Sprint (issue 40).
        let mut dice = Script::new(&[]);
        let mut told = crate::dice::Narration::default();
        // Its whole turn: the reload, and no step (it stands at its Range) and no shot (the
        // script holds no dice).
        s.act(&mut fl, 0, &mut dice, &mut told);
        assert!(!fl.f[0].jammed && fl.f[0].acted && dice.is_done());
        let notes = told.notes();
        assert!(
            notes.iter().any(|n| n.contains("reloads its MachineGun")),
            "{notes:?}"
        );
        assert!(notes.iter().any(|n| n.contains("stays, 5\"")), "{notes:?}");
        assert!(!notes.iter().any(|n| n.contains("Sprinting")), "{notes:?}");
        // With a 1-point arc a natural 1 is never below the penalty: no jam.
        let s = duel(
            ("minifig-machinegunner", 1),
            close,
            ("minifig-hand-weapon", 3),
            close,
            5,
            o,
        );
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 1), (D6_, 1), (D6_, 1)]);
        assert!(!fl.f[0].jammed);
    }

    #[test]
    fn a_burst_fires_at_one_target_with_growing_penalties_and_adds_its_damage() {
        // burst:3 (Use 3, 1d6): shots at -1, -2, -3 (auto_penalty=per_shot). Shot 1: 4 - 1
        // hits for 2; shot 2: 5 - 2 hits for 3; 2 + 3 > 4 (stacking=cumulative): he falls
        // and the burst ends.
        let burst = Policy {
            auto: AutoFire::Burst(3),
            position: Position::Advance,
            ..Policy::default()
        };
        let p = Policy::default();
        let o = RuleOptions::default();
        let s = duel(("minifig-machinegunner", 1), burst, MF, p, 5, o);
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D6_, 2), (D6_, 5), (D6_, 3)]);
        assert!(!fl.f[1].alive);
        assert_eq!(fl.swept, [1, 0]);
        // stacking=separate (and each unit's hits alone, `combined_fire=off`): 2 and 3
        // each fall short; shot 3's 5 - 3 misses.
        let o = RuleOptions {
            stacking: Stacking::Separate,
            combined_fire: CombinedFire::Off,
            ..o
        };
        let s = duel(("minifig-machinegunner", 1), burst, MF, p, 5, o);
        let mut fl = s.start();
        sweep(
            &s,
            &mut fl,
            0,
            1,
            &[(D6_, 4), (D6_, 2), (D6_, 5), (D6_, 3), (D6_, 5)],
        );
        assert!(fl.f[1].alive);
        // Shot 2's natural 1 is below its -2: it fires, and the gun jams.
        let mut fl = s.start();
        sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D6_, 2), (D6_, 1)]);
        assert!(fl.f[0].jammed && fl.f[1].alive);
    }

    #[test]
    fn issue_40_a_burst_joins_the_damage_pooled_on_its_target_this_turn() {
        // Combined Fire (the default): the minifig already carries 2 Damage this turn.
        // burst:2 (Use 3, 1d6): shot 1, 4 - 1 hits for 1 (3 pooled); shot 2, 5 - 2 hits for
        // 2: 5 > 4, and he falls. Under `combined_fire=off` the burst's own 1 + 2 = 3 < 4.
        let burst = Policy {
            auto: AutoFire::Burst(2),
            position: Position::Advance,
            ..Policy::default()
        };
        let p = Policy::default();
        for (reading, falls) in [(CombinedFire::Turn, true), (CombinedFire::Off, false)] {
            let o = RuleOptions {
                combined_fire: reading,
                ..RuleOptions::default()
            };
            let s = duel(("minifig-machinegunner", 1), burst, MF, p, 5, o);
            let mut fl = s.start();
            fl.f[1].combined.add(2, || 4);
            sweep(&s, &mut fl, 0, 1, &[(D6_, 4), (D6_, 1), (D6_, 5), (D6_, 2)]);
            assert_eq!(!fl.f[1].alive, falls, "{reading:?}");
        }
    }

    #[test]
    fn issue_40_an_arc_turned_to_the_most_enemies_still_holds_its_target() {
        // A 1" MachineGun (Range 5"; one point, 20 degrees) 4" from three minifigs 1" apart:
        // the neighbours stand 14 degrees off the middle one, 4.1" away. Centred on the
        // middle one (the default) the arc holds it alone: one attack. Under
        // `arc_aim=most` it turns 4 degrees and holds a neighbour too: two attacks. Each
        // roll is a 3, a miss at -1.
        for (aim, rolls) in [(ArcAim::Centred, 1), (ArcAim::Most, 2)] {
            let o = RuleOptions {
                arc_aim: aim,
                ..RuleOptions::default()
            };
            let apart = Policy {
                spacing: Spacing(4),
                ..Policy::default()
            };
            let b = side_with(&[("minifig-hand-weapon", 3)], apart, &o);
            let a = side(&[("minifig-machinegunner", 1)], &o);
            let s = Squad::new(a, b, 4, First::A, 50, o).unwrap();
            let middle = (1..4).find(|&u| s.lateral[u] == s.lateral[0]).unwrap();
            let mut fl = s.start();
            sweep(&s, &mut fl, 0, middle, &vec![(D6_, 3); rolls]);
        }
    }

    #[test]
    fn a_machinegun_attacks_every_enemy_in_its_arc_at_minus_one() {
        // A minifig with a 1" MachineGun (Use 3, Range 5", 1d6) 5" from three minifigs
        // standing on one spot (spacing 0): the arc (1 point, 20 degrees) holds all three. Each is attacked at -1: 4 - 1 = 3 hits, 5 fells; again; again. A wins.
        let o = RuleOptions::default();
        let close = on_spot();
        let b = side_with(&[("minifig-hand-weapon", 3)], close, &o);
        let s = Squad::new(
            side(&[("minifig-machinegunner", 1)], &o),
            b,
            5,
            First::A,
            50,
            o,
        )
        .unwrap();
        let out = run(
            &s,
            &[(D6_, 4), (D6_, 5), (D6_, 4), (D6_, 5), (D6_, 4), (D6_, 5)],
        );
        assert_eq!((out.winner, out.turns), (Some(Side::A), 1));
        // At -1, a 3 misses Use 3: the first target stands, the sweep goes on.
        let mut s = s.clone();
        s.max_turns = 1;
        let out = run(&s, &[(D6_, 3), (D6_, 4), (D6_, 5), (D6_, 4), (D6_, 5)]);
        assert_eq!(out.survivors, [1, 1]);
    }

    #[test]
    fn issue_40_a_large_target_takes_an_extra_attack_for_each_point_it_spans() {
        // A 1" MachineGun's 1-point arc (20 degrees) at a Size 3 Scorpiosaurus Rex 5" off:
        // 3" across is 33 degrees there, so it spans the point and takes two attacks (two
        // Skill rolls of 2: at -1 and +1 for its Size, both miss Use 3). Option `arc_span`
        // decides who counts: `off` gives one attack; a minifig (1" across, 11 degrees at
        // 5") takes one under `any` too, two at 2" (28 degrees), one there under `larger`.
        use crate::rules::ArcSpan;
        let attacks = |span: ArcSpan, b: &str, inches: u32| {
            let o = RuleOptions {
                arc_span: span,
                ..RuleOptions::default()
            };
            let s = squad(&[("minifig-machinegunner", 1)], &[(b, 1)], inches, o);
            let mut fl = s.start();
            let mut dice = crate::dice::Script::new(&[(D6_, 2), (D6_, 2)]);
            s.sweep(&mut fl, 0, 0, 1, 0, &mut dice, &mut NoLog);
            dice.used()
        };
        assert_eq!(attacks(ArcSpan::Larger, "scorpiosaurus-rex", 5), 2);
        assert_eq!(attacks(ArcSpan::Off, "scorpiosaurus-rex", 5), 1);
        assert_eq!(attacks(ArcSpan::Any, "minifig-hand-weapon", 5), 1);
        assert_eq!(attacks(ArcSpan::Any, "minifig-hand-weapon", 2), 2);
        assert_eq!(attacks(ArcSpan::Larger, "minifig-hand-weapon", 2), 1);
    }

    #[test]
    fn the_gunner_holds_its_fire_over_friends_in_the_arc() {
        // A's gunner (slot 0) and a friend (slot 1) abreast 0.25" apart; the friend has
        // walked 4" forward, into the arc toward B's minifig (slot 2) 5" off. The sweep
        // attacks B alone: one roll (a natural 1), and the friend is never rolled against.
        let o = RuleOptions::default();
        let close = Policy {
            spacing: crate::scenario::squad::Spacing(1),
            ..Policy::default()
        };
        let a = side_with(&[("minifig-machinegunner", 1), MF], close, &o);
        let s = Squad::new(a, side(&[MF], &o), 5, First::A, 50, o).unwrap();
        let mut fl = s.start();
        fl.f[1].pos = 8.0;
        let mut dice = crate::dice::Script::new(&[(D6_, 1)]);
        s.sweep(&mut fl, 0, 0, 2, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done(), "one attack, on the enemy only");
        assert!(fl.f[1].alive && fl.f[2].alive);
    }
}
