//! What one turn of Explosive fire did, and the counts over many.

use std::ops::Add;

use super::formation::MAX_FIGURES;
use crate::analysis::Estimate;
use crate::rules::explosion::MAX_EXP_DICE;
use crate::scenario::Tally;

/// One turn (or Cannon volley) of fire.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BlastOutcome {
    pub shots: u32,
    /// Action rolls that met the Use.
    pub hits: u32,
    /// Explosives declared duds.
    pub duds: u32,
    pub kills: u32,
    /// Kills by the ring they stood in.
    pub by_ring: [u16; MAX_EXP_DICE],
    /// Survivors Knocked Back at least an inch.
    pub knocked_back: u32,
    /// Damage exactly equal to Armor.
    pub ties: u32,
    /// Survivors set on fire (Ch. 8.3 Catching On Fire).
    pub on_fire: u32,
    /// MachineGuns that jammed.
    pub jams: u32,
    /// The wall destroyed (0 or 1).
    pub walls: u32,
    /// Carried Explosives set off (Ch. 8.4 Premature Detonation).
    pub chain: u32,
    /// Survivors that lost Effective Size.
    pub wounded: u32,
}

impl BlastOutcome {
    /// Nothing fired, nothing hit.
    pub const EMPTY: BlastOutcome = BlastOutcome {
        shots: 0,
        hits: 0,
        duds: 0,
        kills: 0,
        by_ring: [0; MAX_EXP_DICE],
        knocked_back: 0,
        ties: 0,
        on_fire: 0,
        jams: 0,
        walls: 0,
        chain: 0,
        wounded: 0,
    };
}

/// Sums over many turns of fire (integers only).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlastTally {
    pub trials: u64,
    pub shots: u64,
    pub hits: u64,
    pub duds: u64,
    pub kills: u64,
    pub kills_sq: u128,
    /// `kills_hist[k]`: turns that killed exactly `k`.
    #[serde(with = "crate::sim::tally::fixed")]
    pub kills_hist: [u64; MAX_FIGURES + 1],
    #[serde(with = "crate::sim::tally::fixed")]
    pub by_ring: [u64; MAX_EXP_DICE],
    pub knocked_back: u64,
    pub ties: u64,
    pub on_fire: u64,
    pub jams: u64,
    pub walls: u64,
    pub chain: u64,
    pub wounded: u64,
}

impl Default for BlastTally {
    fn default() -> BlastTally {
        BlastTally {
            trials: 0,
            shots: 0,
            hits: 0,
            duds: 0,
            kills: 0,
            kills_sq: 0,
            kills_hist: [0; MAX_FIGURES + 1],
            by_ring: [0; MAX_EXP_DICE],
            knocked_back: 0,
            ties: 0,
            on_fire: 0,
            jams: 0,
            walls: 0,
            chain: 0,
            wounded: 0,
        }
    }
}

impl Add for BlastTally {
    type Output = BlastTally;
    fn add(mut self, o: BlastTally) -> BlastTally {
        self.trials += o.trials;
        self.shots += o.shots;
        self.hits += o.hits;
        self.duds += o.duds;
        self.kills += o.kills;
        self.kills_sq += o.kills_sq;
        for (a, b) in self.kills_hist.iter_mut().zip(o.kills_hist) {
            *a += b;
        }
        for (a, b) in self.by_ring.iter_mut().zip(o.by_ring) {
            *a += b;
        }
        self.knocked_back += o.knocked_back;
        self.ties += o.ties;
        self.on_fire += o.on_fire;
        self.jams += o.jams;
        self.walls += o.walls;
        self.chain += o.chain;
        self.wounded += o.wounded;
        self
    }
}

impl Tally<BlastOutcome> for BlastTally {
    #[inline]
    fn record(&mut self, o: &BlastOutcome) {
        self.trials += 1;
        self.shots += o.shots as u64;
        self.hits += o.hits as u64;
        self.duds += o.duds as u64;
        self.kills += o.kills as u64;
        self.kills_sq += (o.kills as u128).pow(2);
        self.kills_hist[(o.kills as usize).min(MAX_FIGURES)] += 1;
        for (a, &b) in self.by_ring.iter_mut().zip(&o.by_ring) {
            *a += b as u64;
        }
        self.knocked_back += o.knocked_back as u64;
        self.ties += o.ties as u64;
        self.on_fire += o.on_fire as u64;
        self.jams += o.jams as u64;
        self.walls += o.walls as u64;
        self.chain += o.chain as u64;
        self.wounded += o.wounded as u64;
    }

    fn trials(&self) -> u64 {
        self.trials
    }
}

impl BlastTally {
    /// Mean kills a turn, with its 95% CI.
    pub fn mean_kills(&self) -> Estimate {
        Estimate::mean(self.kills as i128, self.kills_sq as i128, self.trials, 0.95)
    }

    /// `(kills, probability)` for every kill count seen.
    pub fn kills_hist(&self) -> Vec<(usize, f64)> {
        self.kills_hist
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(k, &c)| (k, c as f64 / self.trials as f64))
            .collect()
    }

    /// Rings up to the last one with a kill.
    pub fn rings_used(&self) -> usize {
        self.by_ring
            .iter()
            .rposition(|&c| c > 0)
            .map_or(0, |i| i + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_adds() {
        let mut by_ring = [0u16; MAX_EXP_DICE];
        by_ring[0] = 2;
        by_ring[1] = 1;
        let o = BlastOutcome {
            shots: 3,
            hits: 1,
            duds: 0,
            kills: 3,
            by_ring,
            knocked_back: 4,
            ties: 1,
            on_fire: 0,
            jams: 0,
            walls: 0,
            chain: 0,
            wounded: 0,
        };
        let mut a = BlastTally::default();
        a.record(&o);
        let mut b = BlastTally::default();
        b.record(&BlastOutcome {
            kills: 0,
            by_ring: [0; MAX_EXP_DICE],
            ..o
        });
        let t = a + b;
        assert_eq!((t.trials, t.shots, t.kills, t.kills_sq), (2, 6, 3, 9));
        assert_eq!(t.kills_hist(), vec![(0, 0.5), (3, 0.5)]);
        assert_eq!((t.by_ring[0], t.by_ring[1], t.rings_used()), (2, 1, 2));
        assert_eq!(t.mean_kills().point, 1.5);
    }
}
