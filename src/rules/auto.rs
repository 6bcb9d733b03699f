//! Automatic weapons (Ch. 8.3): the Auto Penalty, MachineGun bursts and jams, and the
//! BlastGun's Damage falling off with distance.

use super::{AutoPenalty, RuleOptions};
use crate::dice::{Die, DieEvent, Faces, Log, Pmf, Role};

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

/// One burst as rolled: how many shots were fired, and whether the gun jammed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Burst {
    /// Shots fired (the jamming shot included).
    pub fired: u32,
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

#[cfg(test)]
mod tests {
    use super::*;
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
