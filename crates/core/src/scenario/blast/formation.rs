//! Target formations in the plane. The shooter stands at the origin and fires along +y; a
//! formation's centre is `distance` inches away at `(0, distance)`.

use super::BlastError;
use std::fmt;

use crate::dice::{Die, DieEvent, Faces, Log, Role};

/// A uniform fraction in [0, 1) from two d20s (400 steps), so positions and directions come
/// from the dice stream and replay.
#[inline]
pub fn fraction<F: Faces + ?Sized, L: Log + ?Sized>(faces: &mut F, log: &mut L) -> f64 {
    let mut d20 = || {
        let face = faces.face(Die::D20);
        log.die(DieEvent {
            term: 0,
            die: Die::D20,
            face,
            role: Role::Regular,
            counted: 0,
        });
        face - 1
    };
    let a = d20();
    let b = d20();
    (a * 20 + b) as f64 / 400.0
}

/// Puts the figures of `formation` (whose fixed `offsets` were computed once) around its
/// centre `distance` inches down the line of fire; a scatter draws its positions.
pub fn place<F: Faces + ?Sized, L: Log + ?Sized>(
    formation: &Formation,
    offsets: &[(f64, f64)],
    distance: f64,
    faces: &mut F,
    log: &mut L,
    pos: &mut [(f64, f64)],
) {
    match formation.shape {
        Shape::Scatter { width, .. } => {
            for p in pos.iter_mut().take(formation.len()) {
                let x = (fraction(faces, log) - 0.5) * width;
                let y = (fraction(faces, log) - 0.5) * width;
                *p = (x, distance + y);
            }
        }
        _ => {
            for (p, o) in pos.iter_mut().zip(offsets) {
                *p = (o.0, distance + o.1);
            }
        }
    }
}

/// How the figures stand.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Shape {
    /// `rows` by `cols`, rows across the line of fire.
    Grid {
        /// Rows, one behind another.
        rows: u32,
        /// Figures abreast in each row.
        cols: u32,
    },
    /// `n` abreast, across the line of fire.
    Line(u32),
    /// `n` one behind another, along the line of fire.
    Column(u32),
    /// `n` packed in rings around the centre (hexagonal packing).
    Cluster(u32),
    /// `n` placed at random in a square `width` inches across, anew each trial.
    Scatter {
        /// Figures.
        n: u32,
        /// The square's side in inches.
        width: f64,
    },
}

/// Most figures a formation may hold: a trial keeps them on the stack.
pub const MAX_FIGURES: usize = 256;

/// A formation and its spacing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Formation {
    /// How the figures stand.
    pub shape: Shape,
    /// Inches between neighbours (centre to centre).
    pub spacing: f64,
}

impl Formation {
    /// Parses `grid:5x5`, `line:8`, `column:6`, `cluster:12`, `scatter:20:10` (20 figures in a
    /// 10" square).
    pub fn parse(text: &str, spacing: f64) -> Result<Formation, BlastError> {
        let bad = || BlastError::Formation(text.to_string());
        if !(spacing > 0.0 && spacing.is_finite()) {
            return Err(BlastError::Spacing(spacing));
        }
        let (kind, rest) = text.split_once(':').ok_or_else(bad)?;
        let num = |s: &str| s.trim().parse::<u32>().ok().filter(|&n| n > 0);
        let shape = match kind.trim() {
            "grid" => {
                let (r, c) = rest.split_once('x').ok_or_else(bad)?;
                Shape::Grid {
                    rows: num(r).ok_or_else(bad)?,
                    cols: num(c).ok_or_else(bad)?,
                }
            }
            "line" => Shape::Line(num(rest).ok_or_else(bad)?),
            "column" => Shape::Column(num(rest).ok_or_else(bad)?),
            "cluster" => Shape::Cluster(num(rest).ok_or_else(bad)?),
            "scatter" => {
                let (n, w) = rest.split_once(':').ok_or_else(bad)?;
                let width: f64 = w.trim().parse().map_err(|_| bad())?;
                if !(width > 0.0 && width.is_finite()) {
                    return Err(bad());
                }
                Shape::Scatter {
                    n: num(n).ok_or_else(bad)?,
                    width,
                }
            }
            _ => return Err(bad()),
        };
        let f = Formation { shape, spacing };
        if f.len() > MAX_FIGURES {
            return Err(BlastError::TooManyFigures {
                text: text.to_string(),
                figures: f.len(),
                most: MAX_FIGURES,
            });
        }
        Ok(f)
    }

    /// Figures in it.
    pub fn len(&self) -> usize {
        match self.shape {
            Shape::Grid { rows, cols } => (rows * cols) as usize,
            Shape::Line(n) | Shape::Column(n) | Shape::Cluster(n) => n as usize,
            Shape::Scatter { n, .. } => n as usize,
        }
    }

    /// No figures.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether positions are drawn each trial.
    pub fn is_random(&self) -> bool {
        matches!(self.shape, Shape::Scatter { .. })
    }

    /// Fixed positions relative to the formation centre (empty for `Scatter`).
    pub fn offsets(&self) -> Vec<(f64, f64)> {
        let s = self.spacing;
        let centred = |i: u32, n: u32| (i as f64 - (n as f64 - 1.0) / 2.0) * s;
        match self.shape {
            Shape::Grid { rows, cols } => (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (centred(c, cols), centred(r, rows))))
                .collect(),
            Shape::Line(n) => (0..n).map(|i| (centred(i, n), 0.0)).collect(),
            Shape::Column(n) => (0..n).map(|i| (0.0, centred(i, n))).collect(),
            Shape::Cluster(n) => {
                // Hexagonal rings: 1, 6, 12, 18 ... figures at ring radius k * spacing.
                let mut out = vec![(0.0, 0.0)];
                let mut ring = 1;
                while out.len() < n as usize {
                    let k = 6 * ring;
                    for j in 0..k {
                        if out.len() == n as usize {
                            break;
                        }
                        let a = std::f64::consts::TAU * j as f64 / k as f64;
                        out.push((ring as f64 * s * a.cos(), ring as f64 * s * a.sin()));
                    }
                    ring += 1;
                }
                out
            }
            Shape::Scatter { .. } => Vec::new(),
        }
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape {
            Shape::Grid { rows, cols } => write!(f, "grid {rows}x{cols}")?,
            Shape::Line(n) => write!(f, "line of {n}")?,
            Shape::Column(n) => write!(f, "column of {n}")?,
            Shape::Cluster(n) => write!(f, "cluster of {n}")?,
            Shape::Scatter { n, width } => write!(f, "{n} scattered in a {width}\" square")?,
        }
        if !self.is_random() {
            write!(f, ", {}\" apart", self.spacing)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_centres() {
        let g = Formation::parse("grid:5x5", 1.5).unwrap();
        let o = g.offsets();
        assert_eq!(o.len(), 25);
        assert_eq!(o[12], (0.0, 0.0), "the middle figure is at the centre");
        assert_eq!(o[0], (-3.0, -3.0));
        let l = Formation::parse("line:4", 1.0).unwrap().offsets();
        assert_eq!(l, [(-1.5, 0.0), (-0.5, 0.0), (0.5, 0.0), (1.5, 0.0)]);
        let c = Formation::parse("column:3", 2.0).unwrap().offsets();
        assert_eq!(c, [(0.0, -2.0), (0.0, 0.0), (0.0, 2.0)]);
        let k = Formation::parse("cluster:7", 1.0).unwrap().offsets();
        assert_eq!(k.len(), 7);
        assert!(
            k[1..]
                .iter()
                .all(|(x, y)| ((x * x + y * y).sqrt() - 1.0).abs() < 1e-12)
        );
        assert!(Formation::parse("scatter:20:10", 1.0).unwrap().is_random());
    }

    #[test]
    fn bad_formations_say_what_was_expected() {
        for t in ["grid:5", "blob:3", "line:0", "scatter:5", "grid:17x17"] {
            assert!(Formation::parse(t, 1.0).is_err(), "{t}");
        }
        assert!(Formation::parse("line:3", 0.0).is_err());
    }
}
