//! A squad battle on a table (issue 43): the [`Board`] a battle stands on, and the
//! [`Objective`] it is fought for.
//!
//! [`Squad::on_table`] sets a battle on a [`Table`]: each side deploys on its zone's front
//! (the edge nearest the enemy), abreast by its `spacing` and in its `formation`, centred
//! across the zone. The battle's own line then runs from side A's front (along = the
//! table's depth, across = its width), so every rule that measures on the plane measures
//! on the table. What the table adds is read in `battle::table`: walks round terrain (Ch.
//! 4.1), cover and sight for every attack (Ch. 8.3, 8.4), the table's edges, and the
//! objective. A battle without a table has no board and keeps its digits.

use std::sync::Arc;

use super::Squad;
use crate::scenario::table::ways::{Ways, WaysError};
use crate::scenario::table::{Point, Table};

/// What a battle on a table is fought for (a battle option): the last side standing, or
/// holding the table's centre.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Objective {
    /// The side with units left when the other has none wins (as every battle off a
    /// table).
    #[default]
    LastStanding,
    /// A side wins at the end of its own player turn once it has ended `turns` of its
    /// turns running with a unit of its own inside the [`CENTRE`] circle and no enemy in
    /// it. Both sides rush the centre (the `rush` conduct: a unit with no enemy to strike
    /// this turn walks there); the last side standing still wins.
    Hold {
        /// The turns running a side must hold the centre.
        turns: u32,
    },
    /// A side wins at the end of its own player turn with a unit of its own standing
    /// within [`EDGE_REACH`] of the enemy's edge of the table. Both sides rush it: a unit
    /// with no enemy to strike this turn walks straight for the far edge, round terrain;
    /// the last side standing still wins.
    Edge,
}

/// How near the enemy's edge a unit stands to have reached it ([`Objective::Edge`]), in
/// inches: its base on the table's last half inch.
pub const EDGE_REACH: f64 = 0.5;

/// The radius of the centre circle an [`Objective::Hold`] is fought over, in inches.
pub const CENTRE: f64 = 3.0;

impl Objective {
    /// Reads `last`, `edge` or `hold:N` (N from 1 to 20).
    pub fn parse(s: &str) -> Result<Objective, String> {
        let hint = "expected `last`, `edge` or `hold:N` (N turns running, 1 to 20)";
        match s.split_once(':') {
            None if s == "last" => Ok(Objective::LastStanding),
            None if s == "edge" => Ok(Objective::Edge),
            Some(("hold", n)) => match n.parse::<u32>() {
                Ok(turns) if (1..=20).contains(&turns) => Ok(Objective::Hold { turns }),
                _ => Err(format!("{n:?} is no number of turns from 1 to 20 ({hint})")),
            },
            _ => Err(format!("no objective {s:?} ({hint})")),
        }
    }

    /// The objective as [`Objective::parse`] reads it.
    pub fn name(self) -> String {
        match self {
            Objective::LastStanding => "last".to_string(),
            Objective::Hold { turns } => format!("hold:{turns}"),
            Objective::Edge => "edge".to_string(),
        }
    }
}

/// A table prepared for one battle: the table, its ways worked out for walkers who leap
/// and for those who may not (Half Speed, Ch. 4.1), where the battle's line starts on it,
/// and the objective.
#[derive(Clone, Debug)]
pub struct Board {
    pub(super) table: Table,
    /// `ways[0]` for walkers who may leap, `ways[1]` for those at Half Speed.
    pub(super) ways: [Ways; 2],
    /// The table's point at the battle's origin: across, the middle of side A's zone;
    /// along, side A's front.
    pub(super) origin: Point,
    pub(super) objective: Objective,
}

/// Why a battle cannot stand on a table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// The ways cannot be worked out.
    #[error(transparent)]
    Ways(#[from] WaysError),
    /// The zones' fronts leave no room between the sides.
    #[error(
        "side A's zone reaches {a}\" along the table and side B's starts at {b}\": the sides need at least an inch between them (hint: shallower zones or a deeper table)"
    )]
    Fronts {
        /// Side A's front.
        a: f64,
        /// Side B's front.
        b: f64,
    },
    /// A unit would deploy inside terrain it cannot stand in, or off the table.
    #[error(
        "side {side}'s unit {unit} would deploy at ({x:.2}, {y:.2}), {why} (hint: a narrower `spacing`, or clear the zone's front of terrain)"
    )]
    Deploy {
        /// `A` or `B`.
        side: char,
        /// The unit, from 1.
        unit: usize,
        /// Where.
        x: f64,
        /// Where.
        y: f64,
        /// Off the table, or inside terrain.
        why: &'static str,
    },
}

impl Squad {
    /// The same battle on `table`, fought for `objective` (see the module overview). The
    /// sides stand on their zones' fronts: the battle's distance becomes the gap between
    /// them, rounded down to a half inch.
    pub fn on_table(mut self, table: Table, objective: Objective) -> Result<Squad, BoardError> {
        let (za, zb) = (table.zone(0).corners(), table.zone(1).corners());
        let front_a = za.iter().map(|p| p.y).fold(f64::MIN, f64::max);
        let front_b = zb.iter().map(|p| p.y).fold(f64::MAX, f64::min);
        if front_b - front_a < 1.0 {
            return Err(BoardError::Fronts {
                a: front_a,
                b: front_b,
            });
        }
        let middle = |z: &[Point]| {
            let (lo, hi) = z.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p.x), hi.max(p.x))
            });
            (lo + hi) / 2.0
        };
        let origin = Point::new(middle(za), front_a);
        // Side B's line stands the whole half inches off that fit: its front, or just short.
        let gap = ((front_b - front_a) * 2.0).floor() as i32;
        let shift = middle(zb) - origin.x;
        let units = self.roster.len();
        for n in 0..units {
            let side = self.roster[n].0;
            if side == 1 {
                self.start[n] += gap - 2 * self.distance as i32;
                self.lateral[n] += shift;
            }
        }
        self.distance = (gap / 2) as u32;
        let ways = [Ways::new(&table, true)?, Ways::new(&table, false)?];
        for n in 0..units {
            let p = Point::new(
                origin.x + self.lateral[n],
                origin.y + self.start[n] as f64 / 2.0,
            );
            let side = self.roster[n].0;
            let why =
                if !(0.0..=table.width()).contains(&p.x) || !(0.0..=table.depth()).contains(&p.y) {
                    Some("off the table")
                } else if !ways[1].standable(p) {
                    Some("inside terrain it cannot stand in")
                } else {
                    None
                };
            if let Some(why) = why {
                let first = if side == 0 { 0 } else { self.count[0] };
                return Err(BoardError::Deploy {
                    side: if side == 0 { 'A' } else { 'B' },
                    unit: n.saturating_sub(first) + 1,
                    x: p.x,
                    y: p.y,
                    why,
                });
            }
        }
        self.board = Some(Arc::new(Board {
            table,
            ways,
            origin,
            objective,
        }));
        // Off one line, and only the general form reads the board.
        self.flat = false;
        self.plain = false;
        self.line = None;
        Ok(self)
    }

    /// Inches between the sides at the start (on a table, between their zones' fronts,
    /// to the half inch below).
    pub fn distance(&self) -> u32 {
        self.distance
    }

    /// The table the battle stands on, if any.
    pub fn table(&self) -> Option<&Table> {
        self.board.as_ref().map(|b| &b.table)
    }

    /// Each slot's name as narration gives it first ("A2 minifig-rifle"; a 4pion by its
    /// summoner's), for maps.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.roster.len());
        for (u, &(side, kind)) in self.roster.iter().enumerate() {
            let key = &self.kinds[kind as usize].key;
            if u >= self.units {
                let c = self.pions[u - self.units].0 as usize;
                out.push(format!("{}'s {key}", out[c]));
                continue;
            }
            let first = if side == 0 { 0 } else { self.count[0] };
            let letter = if side == 0 { 'A' } else { 'B' };
            out.push(format!("{letter}{} {key}", u - first + 1));
        }
        out
    }

    /// What the battle is fought for.
    pub fn objective(&self) -> Objective {
        self.board
            .as_ref()
            .map_or(Objective::LastStanding, |b| b.objective)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_43_an_objective_reads_last_or_hold_for_n_turns() {
        assert_eq!(Objective::parse("last"), Ok(Objective::LastStanding));
        assert_eq!(Objective::parse("hold:3"), Ok(Objective::Hold { turns: 3 }));
        assert_eq!(Objective::parse("edge"), Ok(Objective::Edge));
        for bad in ["hold:0", "hold:21", "hold:x", "hold", "edges", "edge:2"] {
            let e = Objective::parse(bad).unwrap_err();
            assert!(
                e.contains("expected `last`, `edge` or `hold:N`"),
                "{bad}: {e}"
            );
        }
        assert_eq!(Objective::Hold { turns: 4 }.name(), "hold:4");
        assert_eq!(Objective::Edge.name(), "edge");
    }
}
