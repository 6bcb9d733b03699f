//! The value of a small two-player zero-sum game: a price's conduct matrix (issue 39).
//!
//! In a price's cell the unit's side picks a row (its conduct) and the reference's side a
//! column; the entry is the unit's win chance. A competent unit plays the row that does
//! best against the reference's best answer, and a competent reference answers so. When no
//! pure pair is stable (the maximin row's worst answer differs from the minimax column's
//! best row), each side mixes: the game's value is then the mixed one (von Neumann's
//! minimax theorem), found here by the simplex method on the game's linear program.

/// A solved game: its value, each side's optimal mix, and the pure bounds around it.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The value: what the row side wins under both sides' optimal (possibly mixed) play.
    pub value: f64,
    /// The row side's optimal mix (sums to 1).
    pub rows: Vec<f64>,
    /// The column side's optimal mix (sums to 1).
    pub cols: Vec<f64>,
    /// The best the row side can be sure of with one conduct (its maximin row), and that row.
    pub maximin: (f64, usize),
    /// The least the column side can hold it to with one conduct, and that column.
    pub minimax: (f64, usize),
}

impl Solution {
    /// The saddle point, when pure play is optimal: the maximin row and the minimax column.
    pub fn pure(&self) -> Option<(usize, usize)> {
        (self.minimax.0 - self.maximin.0 <= EPS).then_some((self.maximin.1, self.minimax.1))
    }
}

const EPS: f64 = 1e-12;

/// Solves the game of `m` (`rows` x `cols`, row-major; the row side maximises). Every
/// entry must be finite, and the matrix not empty.
pub fn solve(m: &[f64], rows: usize, cols: usize) -> Solution {
    assert!(rows > 0 && cols > 0 && m.len() == rows * cols);
    assert!(m.iter().all(|x| x.is_finite()));
    let at = |i: usize, j: usize| m[i * cols + j];
    // Pure bounds: the first row (and column) among equals, so defaults listed first win ties.
    let mut maximin = (f64::NEG_INFINITY, 0);
    for i in 0..rows {
        let worst = (0..cols).map(|j| at(i, j)).fold(f64::INFINITY, f64::min);
        if worst > maximin.0 + EPS {
            maximin = (worst, i);
        }
    }
    let mut minimax = (f64::INFINITY, 0);
    for j in 0..cols {
        let best = (0..rows)
            .map(|i| at(i, j))
            .fold(f64::NEG_INFINITY, f64::max);
        if best < minimax.0 - EPS {
            minimax = (best, j);
        }
    }
    if minimax.0 - maximin.0 <= EPS {
        let mut r = vec![0.0; rows];
        let mut c = vec![0.0; cols];
        r[maximin.1] = 1.0;
        c[minimax.1] = 1.0;
        return Solution {
            value: at(maximin.1, minimax.1),
            rows: r,
            cols: c,
            maximin,
            minimax,
        };
    }
    let (value, r, c) = mixed(m, rows, cols);
    Solution {
        value: value.clamp(maximin.0, minimax.0),
        rows: r,
        cols: c,
        maximin,
        minimax,
    }
}

/// The mixed solution by the simplex method. Shifted so every entry is at least 1, the
/// column side's program is: maximise sum y subject to B y <= 1, y >= 0; the value is
/// 1 / sum y, its mix y / sum y, and the row side's mix the program's dual (the final
/// objective row under the slacks). Bland's rule: no cycling.
fn mixed(m: &[f64], rows: usize, cols: usize) -> (f64, Vec<f64>, Vec<f64>) {
    let shift = 1.0 - m.iter().copied().fold(f64::INFINITY, f64::min);
    let width = cols + rows + 1;
    // Constraint rows, then the objective row (z - sum y = 0).
    let mut t = vec![0.0; (rows + 1) * width];
    for i in 0..rows {
        for j in 0..cols {
            t[i * width + j] = m[i * cols + j] + shift;
        }
        t[i * width + cols + i] = 1.0;
        t[i * width + width - 1] = 1.0;
    }
    for j in 0..cols {
        t[rows * width + j] = -1.0;
    }
    let mut basis: Vec<usize> = (cols..cols + rows).collect();
    while let Some(enter) = (0..width - 1).find(|&j| t[rows * width + j] < -EPS) {
        let mut leave: Option<(f64, usize)> = None;
        for i in 0..rows {
            let a = t[i * width + enter];
            if a > EPS {
                let r = t[i * width + width - 1] / a;
                let better = match leave {
                    None => true,
                    Some((best, l)) => r < best - EPS || (r <= best + EPS && basis[i] < basis[l]),
                };
                if better {
                    leave = Some((r, i));
                }
            }
        }
        // Bounded: B > 0, so every entering column has a positive entry.
        let (_, l) = leave.expect("a game's program is bounded");
        let p = t[l * width + enter];
        for k in 0..width {
            t[l * width + k] /= p;
        }
        for i in 0..=rows {
            let f = t[i * width + enter];
            if i != l && f != 0.0 {
                for k in 0..width {
                    t[i * width + k] -= f * t[l * width + k];
                }
            }
        }
        basis[l] = enter;
    }
    let mut y = vec![0.0; cols];
    for (i, &b) in basis.iter().enumerate() {
        if b < cols {
            y[b] = t[i * width + width - 1];
        }
    }
    let sum: f64 = y.iter().sum();
    let x: Vec<f64> = (0..rows)
        .map(|i| t[rows * width + cols + i].max(0.0))
        .collect();
    let sx: f64 = x.iter().sum();
    (
        1.0 / sum - shift,
        x.iter().map(|v| v / sx).collect(),
        y.iter().map(|v| v / sum).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saddle_point_is_played_pure() {
        // Row 1's worst (0.4) is column 0's best among rows' worsts; column 0's best is 0.4.
        let s = solve(&[0.2, 0.9, 0.4, 0.6], 2, 2);
        assert_eq!(s.pure(), Some((1, 0)));
        assert_eq!(s.value, 0.4);
        assert_eq!((s.rows, s.cols), (vec![0.0, 1.0], vec![1.0, 0.0]));
    }

    #[test]
    fn matching_pennies_is_mixed_half_and_half() {
        let s = solve(&[1.0, 0.0, 0.0, 1.0], 2, 2);
        assert_eq!(s.pure(), None);
        assert!((s.value - 0.5).abs() < 1e-12, "{s:?}");
        for v in s.rows.iter().chain(&s.cols) {
            assert!((v - 0.5).abs() < 1e-12, "{s:?}");
        }
        assert_eq!((s.maximin.0, s.minimax.0), (0.0, 1.0));
    }

    #[test]
    fn a_known_mixed_game_has_its_textbook_value() {
        // [[0.8, 0.3], [0.4, 0.6]]: p = (0.6-0.4)/(0.8-0.3-0.4+0.6) = 2/7 on row 0; value
        // 0.8*2/7 + 0.4*5/7 = 3.6/7; the column side puts (0.6-0.3)/0.7 = 3/7 on column 0.
        let s = solve(&[0.8, 0.3, 0.4, 0.6], 2, 2);
        assert!((s.value - 3.6 / 7.0).abs() < 1e-12, "{s:?}");
        assert!((s.rows[0] - 2.0 / 7.0).abs() < 1e-12, "{s:?}");
        assert!((s.cols[0] - 3.0 / 7.0).abs() < 1e-12, "{s:?}");
    }

    #[test]
    fn rock_paper_scissors_in_win_chances() {
        // 1 win, 0 loss, 0.5 tie: a third each, value one half.
        let m = [0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.5];
        let s = solve(&m, 3, 3);
        assert!((s.value - 0.5).abs() < 1e-12, "{s:?}");
        for v in s.rows.iter().chain(&s.cols) {
            assert!((v - 1.0 / 3.0).abs() < 1e-9, "{s:?}");
        }
    }

    #[test]
    fn one_conduct_a_side_is_its_entry_and_ties_keep_the_first() {
        assert_eq!(solve(&[0.7], 1, 1).value, 0.7);
        // The reference's two columns are alike: the first (its default) answers.
        let s = solve(&[0.3, 0.3], 1, 2);
        assert_eq!(s.pure(), Some((0, 0)));
        // A dominated column with a 3x2 mixed core: the value lies within the pure bounds.
        let s = solve(&[0.9, 0.1, 0.95, 0.2, 0.8, 0.9, 0.5, 0.5, 0.99], 3, 3);
        assert!(s.value >= s.maximin.0 - 1e-12 && s.value <= s.minimax.0 + 1e-12);
        // Each side's mix guarantees the value against every pure answer.
        for j in 0..3 {
            let got: f64 = (0..3)
                .map(|i| s.rows[i] * [0.9, 0.1, 0.95, 0.2, 0.8, 0.9, 0.5, 0.5, 0.99][i * 3 + j])
                .sum();
            assert!(got >= s.value - 1e-9, "{s:?}");
        }
    }
}
