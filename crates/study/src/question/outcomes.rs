//! Who won how often: the figures every duel answer shares, stat lines and squads alike,
//! so their columns are named in one place.

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use diemon_core::scenario::duel::DuelTally;
use diemon_core::scenario::squad::SquadTally;
use diemon_core::sim::CONFIDENCE;
use diemon_core::sim::Estimate;

/// A share of the trials and its 95% CI (Wilson).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Share {
    /// The share.
    pub point: f64,
    /// Its 95% CI.
    pub ci: [f64; 2],
}

/// Who won how often, from a duel's integer counts (the raw tally keeps the counts).
/// Serialised as `p_X` and `ci_X` for `a_wins`, `b_wins`, `draw` and `first_side_wins`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Outcomes {
    /// In [`Outcomes::NAMES`] order.
    pub shares: [Share; 4],
}

impl Outcomes {
    /// The column stems, in the order they are written.
    pub const NAMES: [&'static str; 4] = ["a_wins", "b_wins", "draw", "first_side_wins"];

    /// From the counts: wins of A, of B, draws and wins of the side that acted first.
    pub fn of(trials: u64, counts: [u64; 4]) -> Outcomes {
        Outcomes {
            shares: counts.map(|k| {
                let e = Estimate::proportion(k, trials, CONFIDENCE);
                Share {
                    point: e.point,
                    ci: e.ci,
                }
            }),
        }
    }

    /// P(draw) and its CI.
    pub fn draw(&self) -> Share {
        self.shares[2]
    }
}

impl From<&DuelTally> for Outcomes {
    fn from(t: &DuelTally) -> Outcomes {
        Outcomes::of(t.trials, [t.a_wins, t.b_wins, t.draws, t.first_wins])
    }
}

impl From<&SquadTally> for Outcomes {
    fn from(t: &SquadTally) -> Outcomes {
        Outcomes::of(t.trials, [t.a_wins, t.b_wins, t.draws, t.first_wins])
    }
}

impl Serialize for Outcomes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(8))?;
        for (name, e) in Self::NAMES.iter().zip(self.shares) {
            m.serialize_entry(&format!("p_{name}"), &e.point)?;
            m.serialize_entry(&format!("ci_{name}"), &e.ci)?;
        }
        m.end()
    }
}

/// The eight figures as written, read back.
#[derive(Deserialize)]
struct Written {
    #[serde(deserialize_with = "crate::question::kept::real")]
    p_a_wins: f64,
    #[serde(deserialize_with = "crate::question::kept::pair")]
    ci_a_wins: [f64; 2],
    #[serde(deserialize_with = "crate::question::kept::real")]
    p_b_wins: f64,
    #[serde(deserialize_with = "crate::question::kept::pair")]
    ci_b_wins: [f64; 2],
    #[serde(deserialize_with = "crate::question::kept::real")]
    p_draw: f64,
    #[serde(deserialize_with = "crate::question::kept::pair")]
    ci_draw: [f64; 2],
    #[serde(deserialize_with = "crate::question::kept::real")]
    p_first_side_wins: f64,
    #[serde(deserialize_with = "crate::question::kept::pair")]
    ci_first_side_wins: [f64; 2],
}

impl<'de> Deserialize<'de> for Outcomes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Outcomes, D::Error> {
        let w = Written::deserialize(d)?;
        let share = |point, ci| Share { point, ci };
        Ok(Outcomes {
            shares: [
                share(w.p_a_wins, w.ci_a_wins),
                share(w.p_b_wins, w.ci_b_wins),
                share(w.p_draw, w.ci_draw),
                share(w.p_first_side_wins, w.ci_first_side_wins),
            ],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_are_named_once_for_both_duels() {
        let o = Outcomes::of(10, [6, 3, 1, 5]);
        let v = serde_json::to_value(o).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 8, "{keys:?}");
        for k in ["p_a_wins", "ci_b_wins", "p_draw", "ci_first_side_wins"] {
            assert!(keys.contains(&k), "{k} in {keys:?}");
        }
        assert_eq!(v["p_a_wins"], 0.6);
        assert_eq!(v["p_draw"], 0.1);
        // Written and read back, the same figures to the bit; none (no trials) as NaN.
        let back: Outcomes = serde_json::from_value(v).unwrap();
        assert_eq!(back, o);
        let empty = Outcomes::of(0, [0; 4]);
        let back: Outcomes = serde_json::from_str(&serde_json::to_string(&empty).unwrap()).unwrap();
        assert!(back.shares[0].point.is_nan() && empty.shares[0].point.is_nan());
    }
}
