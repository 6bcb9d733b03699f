//! Spawners (Ch. 10.4): fallen Cannon Fodder come back touching the Spawner.

use super::*;
use crate::dice::Log;

impl Squad {
    /// The Spawners of `side` bring back its fallen Cannon Fodder, up to each one's Spawn
    /// Capacity in Size inches a turn, touching the Spawner: "respawned from fallen Cannon
    /// Fodder corpses (which conveniently disappear from the field and reappear at the
    /// Spawner, along with their Mook Weapon)", with full Movement but no Action (Ch. 10.4).
    /// A Spawner works while its carrier stands; units held in reserve are not modelled.
    #[cold]
    #[inline(never)]
    pub(super) fn spawn<L: Log + ?Sized>(&self, fl: &mut Field, side: u8, log: &mut L) {
        for s in 0..self.roster.len() {
            let sp = fl.f[s];
            let capacity = self.kinds[sp.kind as usize].spawn;
            if !sp.alive || sp.side != side || capacity == 0 {
                continue;
            }
            let mut left = capacity;
            for t in 0..self.roster.len() {
                let f = fl.f[t];
                let k = &self.kinds[f.kind as usize];
                if f.alive || f.comatose || f.side != side || !k.cannon_fodder || k.size > left {
                    continue;
                }
                left -= k.size;
                fl.moved(side);
                fl.lat[t] = fl.lat[s];
                fl.f[t] = Figure {
                    kind: f.kind,
                    side,
                    alive: true,
                    pos: sp.pos,
                    size: k.size,
                    spawned: true,
                    acted: true,
                    ..EMPTY
                };
                fl.alive[side as usize] += 1;
                log.note(format_args!(
                    "  {} respawns at {}",
                    Who(self, fl, t),
                    Who(self, fl, s)
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn a_spawner_brings_fallen_cannon_fodder_back_without_an_action() {
        // B first, in contact. Turn 1: B1 hits A1 (3): any hit kills Cannon Fodder. Turn 2:
        // the Spawner amulet returns A1, which has no Action; A2's Mook Weapon hits (4) for
        // 1 point, no effect; A3 hits (3), Damage 5: side B is gone, A has all three.
        let o = RuleOptions::default();
        let a = side(&[("cannon-fodder", 2), ("fodder-summoner", 1)], &o);
        let b = side(&[MF], &o);
        let s = Squad::new(a, b, 0, First::B, 10, o).unwrap();
        let out = run(&s, &[(D6, 3), (D6, 4), (D6, 3), (D6, 5)]);
        assert_eq!((out.winner, out.turns), (Some(Side::A), 2));
        assert_eq!(out.survivors, [3, 0]);
    }
}
