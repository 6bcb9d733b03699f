//! What one turn of Explosive fire did, and the counts over many.

use super::formation::MAX_FIGURES;
use crate::rules::explosion::MAX_EXP_DICE;
use crate::scenario::Tally;
use crate::sim::Estimate;
use crate::sim::tally::Moments;

/// One turn (or Cannon volley) of fire.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BlastOutcome {
    /// Explosives (or arc-fire attacks) fired.
    pub shots: u32,
    /// Action rolls that met the Use.
    pub hits: u32,
    /// Explosives declared duds.
    pub duds: u32,
    /// Figures killed.
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

/// Sums over many turns of fire (integers only): every per-turn count with its squares,
/// so each mean comes with its CI.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlastTally {
    /// Turns of fire counted.
    pub trials: u64,
    /// Shots a turn.
    pub shots: Moments,
    /// Action rolls that met the Use, over all turns.
    pub hits: u64,
    /// Duds a turn.
    pub duds: Moments,
    /// Kills, over all turns.
    pub kills: u64,
    /// Sum of each turn's kills squared.
    pub kills_sq: u128,
    /// Sum of kills x shots a turn: kills per shot's CI (a ratio of two means).
    pub kills_shots: u128,
    /// `kills_hist[k]`: turns that killed exactly `k`.
    #[serde(with = "crate::sim::tally::fixed")]
    pub kills_hist: [u64; MAX_FIGURES + 1],
    /// Kills a turn in each ring.
    #[serde(with = "crate::sim::tally::fixed")]
    pub by_ring: [Moments; MAX_EXP_DICE],
    /// Survivors Knocked Back a turn.
    pub knocked_back: Moments,
    /// Damage exactly equal to Armor, over all turns.
    pub ties: u64,
    /// Survivors set on fire a turn.
    pub on_fire: Moments,
    /// Turns a MachineGun jammed (a jam ends the sweep or burst: at most one a turn).
    pub jams: u64,
    /// Turns the wall was destroyed.
    pub walls: u64,
    /// Carried Explosives set off a turn.
    pub chain: Moments,
    /// Survivors that lost Effective Size a turn.
    pub wounded: Moments,
}

impl Default for BlastTally {
    fn default() -> BlastTally {
        BlastTally {
            trials: 0,
            shots: Moments::ZERO,
            hits: 0,
            duds: Moments::ZERO,
            kills: 0,
            kills_sq: 0,
            kills_shots: 0,
            kills_hist: [0; MAX_FIGURES + 1],
            by_ring: [Moments::ZERO; MAX_EXP_DICE],
            knocked_back: Moments::ZERO,
            ties: 0,
            on_fire: Moments::ZERO,
            jams: 0,
            walls: 0,
            chain: Moments::ZERO,
            wounded: Moments::ZERO,
        }
    }
}

crate::sim::tally::add_by_field!(BlastTally {
    trials,
    shots,
    hits,
    duds,
    kills,
    kills_sq,
    kills_shots,
    kills_hist,
    by_ring,
    knocked_back,
    ties,
    on_fire,
    jams,
    walls,
    chain,
    wounded,
});

impl Tally<BlastOutcome> for BlastTally {
    #[inline]
    fn record(&mut self, o: &BlastOutcome) {
        self.trials += 1;
        self.shots.record(o.shots as u64);
        self.hits += o.hits as u64;
        self.duds.record(o.duds as u64);
        self.kills += o.kills as u64;
        self.kills_sq += (o.kills as u128).pow(2);
        self.kills_shots += o.kills as u128 * o.shots as u128;
        self.kills_hist[(o.kills as usize).min(MAX_FIGURES)] += 1;
        // A zero adds nothing to either sum: only the rings that killed are touched.
        for (a, &b) in self.by_ring.iter_mut().zip(&o.by_ring) {
            if b > 0 {
                a.record(b as u64);
            }
        }
        self.knocked_back.record(o.knocked_back as u64);
        self.ties += o.ties as u64;
        self.on_fire.record(o.on_fire as u64);
        self.jams += o.jams as u64;
        self.walls += o.walls as u64;
        self.chain.record(o.chain as u64);
        self.wounded.record(o.wounded as u64);
    }

    fn trials(&self) -> u64 {
        self.trials
    }
}

impl BlastTally {
    /// Mean kills a turn, with its 95% CI.
    pub fn mean_kills(&self) -> Estimate {
        Estimate::count_mean(
            self.kills as i128,
            self.kills_sq as i128,
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }

    /// Kills per shot fired (total kills / total shots), with a 95% CI by the delta method
    /// for a ratio of means (shots a turn vary when a MachineGun jams).
    pub fn kills_per_shot(&self) -> Option<Estimate> {
        (self.shots.sum > 0).then(|| {
            Estimate::ratio(
                [self.kills as f64, self.shots.sum as f64],
                [
                    self.kills_sq as f64,
                    self.shots.sum_sq as f64,
                    self.kills_shots as f64,
                ],
                self.trials,
                crate::sim::CONFIDENCE,
            )
        })
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
            .rposition(|c| c.sum > 0)
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
        assert_eq!((t.trials, t.shots.sum, t.kills, t.kills_sq), (2, 6, 3, 9));
        assert_eq!((t.shots.sum_sq, t.kills_shots), (18, 9));
        assert_eq!(t.kills_hist(), vec![(0, 0.5), (3, 0.5)]);
        assert_eq!(
            (t.by_ring[0].sum, t.by_ring[1].sum, t.rings_used()),
            (2, 1, 2)
        );
        assert_eq!(t.mean_kills().point, 1.5);
    }
}
