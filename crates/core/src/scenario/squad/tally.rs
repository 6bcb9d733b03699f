//! What one squad duel produced, and the counts over many.

use crate::scenario::Tally;
use crate::scenario::duel::Side;
use crate::sim::Estimate;

/// One squad duel's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquadOutcome {
    /// `None` for a draw at the turn limit.
    pub winner: Option<Side>,
    /// The side that moved first.
    pub first: Side,
    /// Player turns taken (each side's turn counts one).
    pub turns: u32,
    /// Units standing on side A and B at the end.
    pub survivors: [u32; 2],
    /// CP of the units still standing, in quarter points.
    pub cp_left: [i64; 2],
    /// Hits whose Damage exactly matched Armor.
    pub ties: u32,
    /// Minds destroyed by Monstrous Contagion (Ch. 10.4).
    pub converted: u32,
    /// Units standing on side A and B after player turn k + 1, for the turns played (up
    /// to [`TRACK`]); after the end the counts are `survivors` and `converted`.
    pub standing: [[u8; TRACK]; 2],
    /// Minds converted by the end of player turn k + 1, likewise.
    pub converted_by: [u8; TRACK],
    /// Fallen units a Medik revived with Ker-Triage! (Ch. 10.2).
    pub revived: u32,
    /// Units felled by side A's and B's Explosives (Ch. 8.4): enemies, and their own side.
    pub blasted: [u32; 2],
    /// Units of its own side each side's Explosives felled.
    pub blasted_own: [u32; 2],
    /// Enemies felled by side A's and B's automatic weapons (Ch. 8.3: arcs and bursts).
    pub swept: [u32; 2],
}

/// Player turns tracked turn by turn.
pub const TRACK: usize = 32;

/// Sums over many squad duels (integers only, so any merge order gives the same digits).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SquadTally {
    /// Battles counted.
    pub trials: u64,
    /// Battles A won.
    pub a_wins: u64,
    /// Battles B won.
    pub b_wins: u64,
    /// Battles drawn.
    pub draws: u64,
    /// Battles won by the side that moved first.
    pub first_wins: u64,
    /// Player turns, over all battles.
    pub turns: u64,
    /// Sum of each battle's turns squared.
    pub turns_sq: u128,
    /// Survivors of A and B, over all battles.
    pub survivors: [u64; 2],
    /// Sums of each battle's survivors squared.
    pub survivors_sq: [u128; 2],
    /// CP left standing on A and B, in quarter points, over all battles.
    pub cp_left: [i128; 2],
    /// Sums of each battle's CP left squared.
    pub cp_left_sq: [i128; 2],
    /// Hits whose Damage exactly equalled Armor, over all battles.
    pub ties: u64,
    /// `turns_hist[t]`: fights that ended after `t` player turns (the last bin: that many
    /// or more).
    #[serde(with = "crate::sim::tally::fixed")]
    pub turns_hist: [u64; TURNS_BINS],
    /// `survivors_hist[s][n]`: fights that left side `s` with `n` units standing.
    #[serde(with = "crate::sim::tally::fixed")]
    pub survivors_a_hist: [u64; SURVIVOR_BINS],
    /// The same for side B.
    #[serde(with = "crate::sim::tally::fixed")]
    pub survivors_b_hist: [u64; SURVIVOR_BINS],
    /// Units revived, over all battles.
    #[serde(default)]
    pub revived: u64,
    /// Sum of each battle's revived squared.
    #[serde(default)]
    pub revived_sq: u128,
    /// Sums and sums of squares of [`SquadOutcome::blasted`] and `blasted_own`.
    #[serde(default)]
    pub blasted: [u64; 2],
    /// Their squares.
    #[serde(default)]
    pub blasted_sq: [u128; 2],
    /// Own units felled by each side's Explosives.
    #[serde(default)]
    pub blasted_own: [u64; 2],
    /// Their squares.
    #[serde(default)]
    pub blasted_own_sq: [u128; 2],
    /// Sums and sums of squares of [`SquadOutcome::swept`].
    #[serde(default)]
    pub swept: [u64; 2],
    /// Their squares.
    #[serde(default)]
    pub swept_sq: [u128; 2],
    /// Minds converted, over all battles.
    #[serde(default)]
    pub converted: u64,
    /// Sum of each battle's conversions squared.
    #[serde(default)]
    pub converted_sq: u128,
    /// Sums and sums of squares of units standing (A, B) and Minds converted after each
    /// tracked player turn, over the fights still going then; the `_tail` arrays add each
    /// ended fight's final counts once, at the turn after its end, and count for every later
    /// turn (a difference array: recording costs the turns played, not all [`TRACK`]).
    #[serde(default)]
    pub standing: [[u64; TRACK]; 2],
    /// Their squares.
    #[serde(default)]
    pub standing_sq: [[u64; TRACK]; 2],
    /// Minds converted after each tracked turn.
    #[serde(default)]
    pub converted_by: [u64; TRACK],
    /// Their squares.
    #[serde(default)]
    pub converted_by_sq: [u64; TRACK],
    /// Ended battles' final standing counts, from the turn after the end.
    #[serde(default)]
    pub standing_tail: [[u64; TRACK]; 2],
    /// Their squares.
    #[serde(default)]
    pub standing_tail_sq: [[u64; TRACK]; 2],
    /// Ended battles' final conversions, from the turn after the end.
    #[serde(default)]
    pub converted_tail: [u64; TRACK],
    /// Their squares.
    #[serde(default)]
    pub converted_tail_sq: [u64; TRACK],
}

/// Bins of the turns histogram: 0 to 200 turns, the last holding 200 or more.
pub const TURNS_BINS: usize = 201;
/// Bins of a survivors histogram: 0 to the most units a side may field.
pub const SURVIVOR_BINS: usize = super::roster::MAX_PER_SIDE as usize + 1;

impl Default for SquadTally {
    fn default() -> SquadTally {
        SquadTally {
            trials: 0,
            a_wins: 0,
            b_wins: 0,
            draws: 0,
            first_wins: 0,
            turns: 0,
            turns_sq: 0,
            survivors: [0; 2],
            survivors_sq: [0; 2],
            cp_left: [0; 2],
            cp_left_sq: [0; 2],
            ties: 0,
            turns_hist: [0; TURNS_BINS],
            survivors_a_hist: [0; SURVIVOR_BINS],
            survivors_b_hist: [0; SURVIVOR_BINS],
            revived: 0,
            revived_sq: 0,
            blasted: [0; 2],
            blasted_sq: [0; 2],
            blasted_own: [0; 2],
            blasted_own_sq: [0; 2],
            swept: [0; 2],
            swept_sq: [0; 2],
            converted: 0,
            converted_sq: 0,
            standing: [[0; TRACK]; 2],
            standing_sq: [[0; TRACK]; 2],
            converted_by: [0; TRACK],
            converted_by_sq: [0; TRACK],
            standing_tail: [[0; TRACK]; 2],
            standing_tail_sq: [[0; TRACK]; 2],
            converted_tail: [0; TRACK],
            converted_tail_sq: [0; TRACK],
        }
    }
}

crate::sim::tally::add_by_field!(SquadTally {
    trials,
    a_wins,
    b_wins,
    draws,
    first_wins,
    turns,
    turns_sq,
    survivors,
    survivors_sq,
    cp_left,
    cp_left_sq,
    ties,
    turns_hist,
    survivors_a_hist,
    survivors_b_hist,
    revived,
    revived_sq,
    blasted,
    blasted_sq,
    blasted_own,
    blasted_own_sq,
    swept,
    swept_sq,
    converted,
    converted_sq,
    standing,
    standing_sq,
    converted_by,
    converted_by_sq,
    standing_tail,
    standing_tail_sq,
    converted_tail,
    converted_tail_sq,
});

impl Tally<SquadOutcome> for SquadTally {
    #[inline]
    fn record(&mut self, o: &SquadOutcome) {
        self.trials += 1;
        match o.winner {
            Some(Side::A) => self.a_wins += 1,
            Some(Side::B) => self.b_wins += 1,
            None => self.draws += 1,
        }
        self.first_wins += (o.winner == Some(o.first)) as u64;
        self.turns += o.turns as u64;
        self.turns_sq += (o.turns as u128).pow(2);
        for s in 0..2 {
            self.survivors[s] += o.survivors[s] as u64;
            self.survivors_sq[s] += (o.survivors[s] as u128).pow(2);
            self.cp_left[s] += o.cp_left[s] as i128;
            self.cp_left_sq[s] += (o.cp_left[s] as i128).pow(2);
        }
        self.ties += o.ties as u64;
        self.turns_hist[(o.turns as usize).min(TURNS_BINS - 1)] += 1;
        self.survivors_a_hist[(o.survivors[0] as usize).min(SURVIVOR_BINS - 1)] += 1;
        self.survivors_b_hist[(o.survivors[1] as usize).min(SURVIVOR_BINS - 1)] += 1;
        self.converted += o.converted as u64;
        self.converted_sq += (o.converted as u128).pow(2);
        self.revived += o.revived as u64;
        self.revived_sq += (o.revived as u128).pow(2);
        for s in 0..2 {
            self.blasted[s] += o.blasted[s] as u64;
            self.blasted_sq[s] += (o.blasted[s] as u128).pow(2);
            self.blasted_own[s] += o.blasted_own[s] as u64;
            self.blasted_own_sq[s] += (o.blasted_own[s] as u128).pow(2);
            self.swept[s] += o.swept[s] as u64;
            self.swept_sq[s] += (o.swept[s] as u128).pow(2);
        }
        let played = (o.turns as usize).min(TRACK);
        for k in 0..played {
            for s in 0..2 {
                let n = o.standing[s][k] as u64;
                self.standing[s][k] += n;
                self.standing_sq[s][k] += n * n;
            }
            let c = o.converted_by[k] as u64;
            self.converted_by[k] += c;
            self.converted_by_sq[k] += c * c;
        }
        if played < TRACK {
            for s in 0..2 {
                let n = o.survivors[s] as u64;
                self.standing_tail[s][played] += n;
                self.standing_tail_sq[s][played] += n * n;
            }
            let c = o.converted as u64;
            self.converted_tail[played] += c;
            self.converted_tail_sq[played] += c * c;
        }
    }

    fn trials(&self) -> u64 {
        self.trials
    }
}

impl SquadTally {
    /// `(value, share of fights)` for every bin with a count.
    pub fn shares(&self, hist: &[u64]) -> Vec<(usize, f64)> {
        hist.iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(v, &c)| (v, c as f64 / self.trials as f64))
            .collect()
    }

    /// Player turns a battle lasts, with its CI.
    pub fn mean_turns(&self) -> Estimate {
        Estimate::count_mean(
            self.turns as i128,
            self.turns_sq as i128,
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }

    /// Mean survivors of side 0 (A) or 1 (B).
    pub fn mean_survivors(&self, side: usize) -> Estimate {
        Estimate::count_mean(
            self.survivors[side] as i128,
            self.survivors_sq[side] as i128,
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }

    /// Mean fallen units revived by Mediks.
    pub fn mean_revived(&self) -> Estimate {
        Estimate::count_mean(
            self.revived as i128,
            self.revived_sq as i128,
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }

    /// Mean units side `side`'s Explosives felled: of the enemy, or (`own`) of its own side.
    pub fn mean_blasted(&self, side: usize, own: bool) -> Estimate {
        let (sum, sq) = if own {
            (self.blasted_own[side], self.blasted_own_sq[side])
        } else {
            (self.blasted[side], self.blasted_sq[side])
        };
        Estimate::count_mean(sum as i128, sq as i128, self.trials, crate::sim::CONFIDENCE)
    }

    /// Mean enemies side `side`'s automatic weapons felled.
    pub fn mean_swept(&self, side: usize) -> Estimate {
        Estimate::count_mean(
            self.swept[side] as i128,
            self.swept_sq[side] as i128,
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }

    /// Mean Minds converted by Monstrous Contagion.
    pub fn mean_converted(&self) -> Estimate {
        Estimate::count_mean(
            self.converted as i128,
            self.converted_sq as i128,
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }

    /// Mean units standing on side 0 (A) or 1 (B) after tracked player turn `k + 1` (a
    /// fight that ended counts its survivors).
    pub fn standing_after(&self, side: usize, k: usize) -> Estimate {
        let (sums, sq) = (&self.standing[side], &self.standing_sq[side]);
        let tails = (&self.standing_tail[side], &self.standing_tail_sq[side]);
        self.by_turn(k, (sums, sq), tails)
    }

    /// Mean Minds converted by the end of tracked player turn `k + 1`.
    pub fn converted_after(&self, k: usize) -> Estimate {
        let sums = (&self.converted_by, &self.converted_by_sq);
        self.by_turn(k, sums, (&self.converted_tail, &self.converted_tail_sq))
    }

    /// The mean at turn `k + 1` of a per-turn count: the fights still going at `k` plus the
    /// final counts of those that ended at or before it (the tails' prefix sums).
    fn by_turn(
        &self,
        k: usize,
        (sums, sq): (&[u64; TRACK], &[u64; TRACK]),
        (tail, tail_sq): (&[u64; TRACK], &[u64; TRACK]),
    ) -> Estimate {
        let upto = |a: &[u64; TRACK]| a[..=k].iter().sum::<u64>() as i128;
        Estimate::count_mean(
            sums[k] as i128 + upto(tail),
            sq[k] as i128 + upto(tail_sq),
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }

    /// Mean CP left standing on a side, in CP.
    pub fn mean_cp_left(&self, side: usize) -> Estimate {
        let q = Estimate::count_mean(
            self.cp_left[side],
            self.cp_left_sq[side],
            self.trials,
            crate::sim::CONFIDENCE,
        );
        Estimate {
            point: q.point / 4.0,
            standard_error: q.standard_error / 4.0,
            ci: [q.ci[0] / 4.0, q.ci[1] / 4.0],
            ..q
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_adds() {
        let o = SquadOutcome {
            winner: Some(Side::B),
            first: Side::B,
            turns: 3,
            survivors: [0, 2],
            cp_left: [0, 24],
            ties: 1,
            converted: 1,
            standing: [[0; TRACK], [2; TRACK]],
            converted_by: [1; TRACK],
            revived: 2,
            blasted: [0, 3],
            blasted_own: [0, 1],
            swept: [2, 0],
        };
        let mut t = SquadTally::default();
        t.record(&o);
        let mut u = SquadTally::default();
        u.record(&SquadOutcome {
            winner: None,
            first: Side::A,
            ..o
        });
        let s = t + u;
        assert_eq!((s.trials, s.b_wins, s.draws, s.first_wins), (2, 1, 1, 1));
        assert_eq!((s.turns, s.turns_sq), (6, 18));
        assert_eq!(s.survivors, [0, 4]);
        assert_eq!(s.mean_cp_left(1).point, 6.0);
        assert_eq!(s.ties, 2);
        assert_eq!(s.shares(&s.turns_hist), [(3, 1.0)]);
        assert_eq!(s.shares(&s.survivors_b_hist), [(2, 1.0)]);
        assert_eq!((s.converted, s.converted_sq), (2, 2));
        assert_eq!((s.revived, s.revived_sq), (4, 8));
        assert_eq!(s.mean_revived().point, 2.0);
        assert_eq!((s.blasted, s.blasted_sq), ([0, 6], [0, 18]));
        assert_eq!(s.mean_blasted(1, false).point, 3.0);
        assert_eq!(s.mean_blasted(1, true).point, 1.0);
        assert_eq!((s.swept, s.swept_sq), ([4, 0], [8, 0]));
        assert_eq!(s.mean_swept(0).point, 2.0);
        // Three turns played, then the final counts: A had 0 standing throughout.
        assert_eq!(s.standing_after(1, 5).point, 2.0);
        assert_eq!(s.standing_after(0, 1).point, 0.0);
        assert_eq!(s.converted_after(31).point, 1.0);
        assert_eq!(s.converted_after(0).point, 1.0);
    }
}
