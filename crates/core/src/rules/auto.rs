//! Automatic weapons (Ch. 8.3): the Auto Penalty, MachineGun bursts and jams, and the
//! BlastGun's Damage falling off with distance.

use super::{AutoPenalty, RuleOptions};
use crate::dice::{Die, DieEvent, Faces, Log, Pmf, Role};
use crate::rules::measure::EDGE;

/// The Auto Penalty on shot `k` (1-based) of an attack of `shots` shots (a burst) or of
/// `shots` points of Firing Arc (option `auto_penalty`): "a cumulative -1 for each intended
/// shot in the burst" (Ch. 8.3).
pub fn auto_penalty(k: u32, shots: u32, opt: AutoPenalty) -> u32 {
    match opt {
        AutoPenalty::PerShot => k,
        AutoPenalty::Overall => shots,
    }
}

/// A MachineGun shot jams the gun when "the number on the Action Roll (before applying
/// bonuses or penalties) is less than the Auto Penalty for that shot"; the shot still fires
/// (Ch. 8.3).
pub fn jams(natural: u32, penalty: u32) -> bool {
    natural < penalty
}

/// BlastGun Damage modifier: -1 "for every full inch between the target and the end of the
/// BlastGun barrel", plus the target's Size and cover modifiers, which arc fire applies to
/// Damage as well as to the Action Roll (Ch. 8.3).
pub fn blast_damage_modifier(inches: f64, target_size: i64, cover: i64) -> i64 {
    -(inches.max(0.0).floor() as i64) + target_size + cover
}

/// How many whole points of a Firing Arc a target spans, each an extra attack on it:
/// "Larger targets suffer an extra attack for each point of the Firing Arc they span
/// completely" (Ch. 8.3), counting "only ... the portion of the target within the Firing
/// Arc". The target stands `off` radians off the arc's centre line, `inches` from the
/// gunner, and is `width` inches across; the arc is `points` points of `point` radians,
/// centred on the line. A point's edge on the target's edge counts as spanned.
pub fn spanned(off: f64, inches: f64, width: f64, points: u32, point: f64) -> u32 {
    if width <= 0.0 {
        return 0;
    }
    let beta = (width / 2.0).atan2(inches);
    let half = points as f64 * point / 2.0;
    let (lo, hi) = (off - beta, off + beta);
    (0..points)
        .filter(|&k| {
            let a = -half + k as f64 * point;
            lo <= a + EDGE && a + point <= hi + EDGE
        })
        .count() as u32
}

/// One burst as rolled: how many shots were fired, and whether the gun jammed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Burst {
    /// Shots fired (the jamming shot included).
    pub fired: u32,
    /// The gun jammed and the burst ended.
    pub jammed: bool,
}

/// Fires a burst of `shots` with a `die` Skill die: each shot's natural face is checked for
/// a jam before the next; `each(k, natural)` sees every shot fired (to resolve its hit).
pub fn burst<F: Faces + ?Sized, L: Log + ?Sized, E: FnMut(u32, u32)>(
    die: Die,
    shots: u32,
    opts: &RuleOptions,
    faces: &mut F,
    log: &mut L,
    mut each: E,
) -> Burst {
    for k in 1..=shots {
        let natural = faces.face(die);
        log.die(DieEvent {
            term: 0,
            die,
            face: natural,
            role: Role::Skill,
            counted: natural as i64,
        });
        each(k, natural);
        if jams(natural, auto_penalty(k, shots, opts.auto_penalty)) {
            return Burst {
                fired: k,
                jammed: true,
            };
        }
    }
    Burst {
        fired: shots,
        jammed: false,
    }
}

/// The exact distribution of shots fired in a burst of `shots` with a `die` Skill die:
/// `P(fired = k)`, and the probability that the gun jams.
pub fn exact_burst(die: Die, shots: u32, opts: &RuleOptions) -> (Pmf, f64) {
    let sides = die.sides() as f64;
    let mut pairs = Vec::new();
    let mut alive = 1.0; // P(no jam before shot k)
    let mut p_jam = 0.0;
    for k in 1..=shots {
        let pen = auto_penalty(k, shots, opts.auto_penalty);
        // Faces 1..pen-1 jam.
        let q = (pen.saturating_sub(1) as f64).min(sides) / sides;
        if k < shots {
            pairs.push((k as i64, alive * q));
        } else {
            pairs.push((k as i64, alive));
        }
        p_jam += alive * q;
        alive *= 1.0 - q;
    }
    (Pmf::from_pairs(&pairs, 0.0), p_jam)
}

/// One shot of a burst as a table shows it.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct BurstShot {
    /// The shot, from 1.
    pub shot: u32,
    /// Its Auto Penalty.
    pub penalty: u32,
    /// P(the gun jams on it).
    pub p_jams: f64,
    /// P(the burst fires exactly this many shots).
    pub p_fired: f64,
}

/// Each shot of a burst ([`exact_burst`]): its penalty, the chance the gun jams on it, and
/// the chance the burst ends there (a jam ends it; the last shot ends it either way).
pub fn burst_shots(die: Die, shots: u32, opts: &RuleOptions) -> Vec<BurstShot> {
    let (pmf, p_jam) = exact_burst(die, shots, opts);
    (1..=shots)
        .map(|k| {
            let p = pmf.prob(k as i64);
            BurstShot {
                shot: k,
                penalty: auto_penalty(k, shots, opts.auto_penalty),
                p_jams: if k == shots { p - (1.0 - p_jam) } else { p },
                p_fired: p,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_spans_the_points_it_covers_completely() {
        let p = 20f64.to_radians();
        // 3" wide at 3": 2 atan(0.5) = 53.1 degrees across. Centred in a 1-point arc it
        // covers the point; in a 3-point arc (-30..30) it covers the middle one only.
        assert_eq!(spanned(0.0, 3.0, 3.0, 1, p), 1);
        assert_eq!(spanned(0.0, 3.0, 3.0, 3, p), 1);
        // At 8" it is 21.2 degrees across: one point if centred on it, none if it
        // straddles two (a 2-point arc's centre is a point's edge).
        assert_eq!(spanned(0.0, 8.0, 3.0, 1, p), 1);
        assert_eq!(spanned(0.0, 8.0, 3.0, 2, p), 0);
        // At 9" (18.9 degrees) it covers none.
        assert_eq!(spanned(0.0, 9.0, 3.0, 1, p), 0);
        // 10" wide at 1" (157 degrees) covers a 5-point arc whole.
        assert_eq!(spanned(0.0, 1.0, 10.0, 5, p), 5);
        // Off to one side of a 3-point arc: 8" wide at 4" (90 degrees), 15 degrees off,
        // covers -30..60, so all three points (-30..30); 40 degrees off (-5..85), one.
        assert_eq!(spanned(15f64.to_radians(), 4.0, 8.0, 3, p), 3);
        assert_eq!(spanned(40f64.to_radians(), 4.0, 8.0, 3, p), 1);
        // A point of width: nothing.
        assert_eq!(spanned(0.0, 1.0, 0.0, 1, p), 0);
    }
    use crate::dice::{NoLog, Script};

    #[test]
    fn shotgun_wedding() {
        // Ch. 8.3: a ShotGun (1d8 blast + 1) with its Firing Arc of 1. Constance (first
        // inch): +1; her baby: -1 for a small target; Wooyang (1"): 0; Virginia (2", 1/3
        // cover): -1 - 1; her exposed baby: -1 - 1; Purity (3", -2 for tiny portions): -2 - 2;
        // the parson (4"): -3.
        let base = 1;
        let total =
            |inches: f64, size: i64, cover: i64| base + blast_damage_modifier(inches, size, cover);
        assert_eq!(total(0.5, 0, 0), 1, "Constance: 1d8+1");
        assert_eq!(total(0.5, -1, 0), 0, "her baby: 1d8");
        assert_eq!(total(1.0, 0, 0), 0, "Wooyang: 1d8");
        assert_eq!(total(2.0, 0, -1), -2, "Virginia: 1d8-2");
        assert_eq!(total(2.0, -1, 0), -2, "Virginia's left-hand baby");
        assert_eq!(total(3.0, 0, -2), -4, "Purity: 1d8-4");
        assert_eq!(total(4.0, 0, 0), -3, "the parson: 1d8-3");
        assert_eq!(total(1.9, 0, 0), 0, "only full inches count");
    }

    #[test]
    fn auto_penalty_readings() {
        assert_eq!(auto_penalty(2, 4, AutoPenalty::PerShot), 2);
        assert_eq!(auto_penalty(2, 4, AutoPenalty::Overall), 4);
        assert!(jams(1, 2) && !jams(2, 2));
    }

    #[test]
    fn a_burst_jams_on_a_low_natural_face() {
        // Four shots, per-shot penalties 1, 2, 3, 4: shot 3 shows 2 < 3, fires and jams.
        let o = RuleOptions::default();
        let mut dice = Script::new(&[(Die::D6, 5), (Die::D6, 4), (Die::D6, 2)]);
        let mut seen = Vec::new();
        let b = burst(Die::D6, 4, &o, &mut dice, &mut NoLog, |k, n| {
            seen.push((k, n))
        });
        assert!(dice.is_done());
        assert_eq!(
            b,
            Burst {
                fired: 3,
                jammed: true
            }
        );
        assert_eq!(seen, [(1, 5), (2, 4), (3, 2)]);
    }

    #[test]
    fn exact_jam_chances() {
        // Per shot, d6, 3 shots: shot 1 never jams; shot 2 on a 1 (1/6); shot 3 on 1-2.
        // P(jam) = 1/6 + 5/6 * 2/6 = 0.4444...; P(3 fired) = 5/6.
        let o = RuleOptions::default();
        let (pmf, p_jam) = exact_burst(Die::D6, 3, &o);
        assert!((p_jam - (1.0 / 6.0 + 5.0 / 6.0 * 2.0 / 6.0)).abs() < 1e-12);
        assert!((pmf.prob(2) - 1.0 / 6.0).abs() < 1e-12);
        assert!((pmf.prob(3) - 5.0 / 6.0).abs() < 1e-12);
        // Overall: every shot at -3 jams on 1-2.
        let mut ov = o;
        ov.auto_penalty = AutoPenalty::Overall;
        let (pmf, _) = exact_burst(Die::D6, 3, &ov);
        assert!((pmf.prob(1) - 2.0 / 6.0).abs() < 1e-12);
    }
}
