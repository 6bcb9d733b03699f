//! The matchup matrix: every unit of a list against every other at equal CP.
//!
//! Each pair is played once, the first-listed unit as side A (who moves first is random, so
//! the sides are alike); the matrix reads the pair from both ends: row X, column Y holds the
//! chance X's side wins, with its Wilson CI. A unit's score is its mean chance over its
//! opponents, a draw counting half: the ranking of the list at that budget.

use super::Estimate;

/// One played pair: A's and B's wins and the draws, out of `trials`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// A's wins.
    pub a_wins: u64,
    /// B's wins.
    pub b_wins: u64,
    /// Battles fought.
    pub trials: u64,
}

/// Row X, column Y: X's side's wins against Y's (None on the diagonal).
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// The units, rows and columns alike.
    pub units: Vec<String>,
    /// `wins[x][y]`: X's win chance against Y.
    pub wins: Vec<Vec<Option<Estimate>>>,
    /// Mean score over the opponents (a win 1, a draw 1/2), with a normal CI: the pairs are
    /// independent runs, so the variances add.
    pub score: Vec<Estimate>,
}

/// The matrix of `units` from the pairs in the order [`super::super::experiment`] plays
/// them: (0,1), (0,2), ..., (1,2), ...
pub fn matrix(units: &[String], pairs: &[Pair], level: f64) -> Matrix {
    let n = units.len();
    let mut wins = vec![vec![None; n]; n];
    // Per unit: sum of pair scores and of their variances.
    let mut sum = vec![(0.0, 0.0); n];
    let mut k = 0;
    #[allow(
        clippy::needless_range_loop,
        reason = "each pair writes two cells of wins, (i, j) and (j, i)"
    )]
    for i in 0..n {
        for j in i + 1..n {
            let Some(p) = pairs.get(k) else { break };
            k += 1;
            let draws = p.trials - p.a_wins - p.b_wins;
            wins[i][j] = Some(Estimate::proportion(p.a_wins, p.trials, level));
            wins[j][i] = Some(Estimate::proportion(p.b_wins, p.trials, level));
            let t = p.trials as f64;
            let d = draws as f64 / t;
            for (me, w) in [(i, p.a_wins), (j, p.b_wins)] {
                let w = w as f64 / t;
                let mean = w + d / 2.0;
                // A trial scores 1, 1/2 or 0: variance E[y^2] - E[y]^2, over t trials.
                let var = (w + d / 4.0 - mean * mean) / t;
                sum[me].0 += mean;
                sum[me].1 += var;
            }
        }
    }
    let others = n.saturating_sub(1).max(1) as f64;
    let score = sum
        .iter()
        .map(|&(s, v)| Estimate::normal(s / others, v.sqrt() / others, level))
        .collect();
    Matrix {
        units: units.to_vec(),
        wins,
        score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pair_fills_both_ends() {
        let units: Vec<String> = ["x", "y", "z"].iter().map(|s| s.to_string()).collect();
        let pairs = [
            Pair {
                a_wins: 60,
                b_wins: 40,
                trials: 100,
            },
            Pair {
                a_wins: 50,
                b_wins: 40,
                trials: 100,
            },
            Pair {
                a_wins: 30,
                b_wins: 70,
                trials: 100,
            },
        ];
        let m = matrix(&units, &pairs, 0.95);
        assert_eq!(m.wins[0][1].unwrap().point, 0.6);
        assert_eq!(m.wins[1][0].unwrap().point, 0.4);
        assert_eq!(m.wins[2][0].unwrap().point, 0.4);
        assert_eq!(m.wins[2][1].unwrap().point, 0.7);
        assert!(m.wins[1][1].is_none());
        // x: 0.6 and 0.5 + 0.05 (10 draws): mean 0.575.
        assert!((m.score[0].point - 0.575).abs() < 1e-12);
        assert!((m.score[2].point - (0.45 + 0.7) / 2.0).abs() < 1e-12);
        // y's score against z alone: 0.3 of 100 trials, variance 0.21 / 100; halved (two
        // opponents) with x's 0.4: var (0.24 + 0.21) / 100 / 4.
        let se = ((0.24 + 0.21) / 100.0f64).sqrt() / 2.0;
        assert!((m.score[1].standard_error - se).abs() < 1e-12);
    }
}
