//! Shells in flight (Ch. 8.4 Trajectories): "Explosives and other launched physical objects
//! have a maximum speed of 12" per turn". A shot at a target farther off makes no Action
//! roll as it is fired: a marker goes down on the target's spot, the shell flies 12" toward
//! it, and 12" more at the beginning of each of its side's turns. When it reaches the
//! marker, the Action roll is made there, and the shell bursts on the marker or scatters
//! from it, whoever stands there by then.
//!
//! Only a side under `lob = far` fires beyond 12" ([`crate::scenario::squad::Lob`]); under
//! the default `near` its units walk within 12" and fire at once.

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::explosion::FLIGHT_INCHES;
use crate::rules::measure::{apart, within};
use crate::scenario::squad::Lob;

/// Most shells in flight at once on a field: a unit finding every place taken fires within
/// 12" only ([`Squad::lob_range`]), as under `lob = near`.
pub(super) const SHELLS: usize = 32;

/// One shell in flight.
#[derive(Copy, Clone, Debug)]
pub(super) struct Shell {
    /// Its firer's slot, kind and side: the side credited with whom it fells, and the kind
    /// whose Action roll and Explosion it makes (the firer may have fallen since).
    firer: u8,
    kind: u16,
    side: u8,
    /// The marker on the target's spot (inches across the line, along it).
    at: (f64, f64),
    /// Inches still to fly.
    left: f64,
    /// The Action roll's modifier, as it was fired (target Size, cover, Gunnery, the
    /// firer's own penalties).
    m: i64,
}

impl Shell {
    pub(super) const NONE: Shell = Shell {
        firer: 0,
        kind: 0,
        side: 0,
        at: (0.0, 0.0),
        left: 0.0,
        m: 0,
    };
}

impl Squad {
    /// The farthest, in inches, unit `i` fires Explosives of delivery Range `range` at:
    /// all of it under `lob = far` while a shell may still take flight, else 12" at most.
    #[inline]
    pub(super) fn lob_range(&self, fl: &Field, i: usize, range: u32) -> f64 {
        let range = range as f64;
        if self.any_lob
            && self.policy[fl.f[i].side as usize].lob == Lob::Far
            && (fl.flying as usize) < SHELLS
        {
            range
        } else {
            range.min(FLIGHT_INCHES)
        }
    }

    /// Whether a shot from `from` at `target` flies past one turn's 12".
    pub(super) fn beyond_flight(from: (f64, f64), target: (f64, f64)) -> bool {
        !within(apart(from, target), FLIGHT_INCHES)
    }

    /// Unit `i` fires at the spot `target`, more than 12" off, with the Action roll's
    /// modifier `m`: the marker goes down and the shell flies its first 12".
    pub(super) fn launch<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        target: (f64, f64),
        m: i64,
        log: &mut L,
    ) {
        let f = fl.f[i];
        let left = apart(self.spot(fl, i), target) - FLIGHT_INCHES;
        let n = fl.flying as usize;
        fl.shells[n] = Shell {
            firer: i as u8,
            kind: f.kind,
            side: f.side,
            at: target,
            left,
            m,
        };
        fl.flying += 1;
        let turns = (left / FLIGHT_INCHES - crate::rules::measure::EDGE)
            .ceil()
            .max(1.0);
        // Two notes, not a formatted word: nothing is allocated while no one narrates.
        if turns == 1.0 {
            log.note(format_args!(
                "    a marker goes down on its spot; the shell flies 12\", {left:.1}\" short: \
                 it comes down as its side's next turn starts"
            ));
        } else {
            log.note(format_args!(
                "    a marker goes down on its spot; the shell flies 12\", {left:.1}\" short: \
                 it comes down as its side's turn starts, {turns} of its turns from now"
            ));
        }
    }

    /// The beginning of `side`'s turn: its shells fly 12" more, and those that reach their
    /// markers come down there, in the order they were fired, each with its Action roll.
    #[cold]
    #[inline(never)]
    pub(super) fn fly<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        side: u8,
        faces: &mut F,
        log: &mut L,
    ) {
        let mut kept = 0;
        for n in 0..fl.flying as usize {
            let mut s = fl.shells[n];
            if s.side != side {
                fl.shells[kept] = s;
                kept += 1;
                continue;
            }
            s.left -= FLIGHT_INCHES;
            if !within(s.left, 0.0) {
                fl.shells[kept] = s;
                kept += 1;
                continue;
            }
            // Come down now. Kept shells are written below `n`, never past it.
            let firer = s.firer as usize;
            log.note(format_args!(
                "  {}'s shell reaches its marker",
                Who(self, fl, firer)
            ));
            self.come_down(fl, firer, s.kind as usize, s.side, s.at, s.m, faces, log);
        }
        fl.flying = kept as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    /// A Size 4 creature with Skill d12 and a 5" Launcher (Use 10, Range 30") and one
    /// Explosive on side A, under
    /// `lob`, `distance` inches from one minifig.
    fn battle(lob: Lob, distance: u32) -> Squad {
        let catalog = Catalog::with_text(
            "test.toml",
            r#"
[ogre-launcher]
name = "Ogre with a 5-inch Launcher"
source = "test"
size = 4
structure = "0"
armor = "4"
move = 5
skill = "d12"
weapons = [
    { kind = "launcher", size = 5, name = "Mortar" },
    { kind = "explosive", size = 1, name = "Missile" },
]
"#,
        )
        .unwrap();
        let opts = RuleOptions::default();
        let p = Policy {
            lob,
            ..Policy::default()
        };
        let units = |k: &str| vec![(k.to_string(), 1)];
        let a = SideSpec::from_catalog(&catalog, &units("ogre-launcher"), p, &opts).unwrap();
        let b = SideSpec::from_catalog(&catalog, &units(MF.0), Policy::default(), &opts).unwrap();
        Squad::new(a, b, distance, First::A, 50, opts).unwrap()
    }

    #[test]
    fn issue_40_a_shell_beyond_12_inches_makes_its_action_roll_where_it_comes_down() {
        let s = battle(Lob::Far, 16);
        let mut fl = s.start();
        // Turn 1, side A: the Launcher fires at the minifig 16" off. No die is rolled: the
        // shell flies 12" and waits, 4" short.
        let shot = s.fire_explosives(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        assert_eq!(shot, explosives::Shot::Fired);
        assert_eq!(fl.flying, 1);
        assert!(fl.f[1].alive);
        // The minifig walks 5" toward it: off the marker, out of a 1-ring blast (2").
        fl.f[1].pos -= 10.0;
        // Side B's turn start moves no shell of side A.
        s.fly(&mut fl, 1, &mut crate::dice::Script::new(&[]), &mut NoLog);
        assert_eq!(fl.flying, 1);
        // Side A's next turn: the shell comes down; its Action roll hits (11 against Use
        // 10), and the Explosion's 2d10 on the marker catch nobody: the minifig has gone.
        let mut dice = crate::dice::Script::new(&[(Die::D12, 11), (Die::D10, 9), (Die::D10, 9)]);
        s.fly(&mut fl, 0, &mut dice, &mut NoLog);
        assert_eq!(fl.flying, 0);
        assert!(dice.is_done(), "the Action roll was made on arrival");
        assert!(fl.f[1].alive);
        // Had it stood still, the same dice fell it on the marker.
        let mut fl = s.start();
        s.fire_explosives(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        s.fly(
            &mut fl,
            0,
            &mut crate::dice::Script::new(&[(Die::D12, 11), (Die::D10, 9), (Die::D10, 9)]),
            &mut NoLog,
        );
        assert!(!fl.f[1].alive);
    }

    #[test]
    fn issue_40_a_shell_flies_12_inches_a_turn_and_lob_near_fires_within_12_only() {
        // 30" off: 12" as fired, 12" at the next turn's start, and down at the one after.
        let s = battle(Lob::Far, 30);
        let mut fl = s.start();
        s.fire_explosives(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        s.fly(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        assert_eq!(fl.flying, 1, "6\" to go");
        let mut dice = crate::dice::Script::new(&[(Die::D12, 11), (Die::D10, 9), (Die::D10, 9)]);
        s.fly(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.flying == 0 && !fl.f[1].alive);
        // Under `near` nothing is fired at 16": the unit walks within 12" first.
        let s = battle(Lob::Near, 16);
        let mut fl = s.start();
        let shot = s.fire_explosives(&mut fl, 0, &mut crate::dice::Script::new(&[]), &mut NoLog);
        assert_eq!((shot, fl.flying), (explosives::Shot::No, 0));
        // Shells come down at the start of a turn: a hook only where a side lobs.
        assert!(!s.hooks.turn_start);
        assert!(battle(Lob::Far, 16).hooks.turn_start);
        // Explosives never play in the line form.
        assert!(battle(Lob::Far, 16).line.is_none());
    }
}
