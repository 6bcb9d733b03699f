//! Who won how often: the figures every duel answer shares, stat lines and squads alike,
//! so their columns are named in one place.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use diemon_core::scenario::duel::DuelTally;
use diemon_core::scenario::squad::SquadTally;
use diemon_core::sim::CONFIDENCE;
use diemon_core::sim::Estimate;

/// A duel's integer counts. Serialised as `p_X` and `ci_X` (95% Wilson) for `a_wins`,
/// `b_wins`, `draw` and `first_side_wins`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcomes {
    pub trials: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    /// Trials won by the side that acted first.
    pub first_wins: u64,
}

impl Outcomes {
    /// The column stems, in the order they are written.
    pub const NAMES: [&'static str; 4] = ["a_wins", "b_wins", "draw", "first_side_wins"];

    /// The four estimates, in [`Outcomes::NAMES`] order.
    pub fn estimates(&self) -> [Estimate; 4] {
        [self.a_wins, self.b_wins, self.draws, self.first_wins]
            .map(|k| Estimate::proportion(k, self.trials, CONFIDENCE))
    }
}

impl From<&DuelTally> for Outcomes {
    fn from(t: &DuelTally) -> Outcomes {
        Outcomes {
            trials: t.trials,
            a_wins: t.a_wins,
            b_wins: t.b_wins,
            draws: t.draws,
            first_wins: t.first_wins,
        }
    }
}

impl From<&SquadTally> for Outcomes {
    fn from(t: &SquadTally) -> Outcomes {
        Outcomes {
            trials: t.trials,
            a_wins: t.a_wins,
            b_wins: t.b_wins,
            draws: t.draws,
            first_wins: t.first_wins,
        }
    }
}

impl Serialize for Outcomes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(8))?;
        for (name, e) in Self::NAMES.iter().zip(self.estimates()) {
            m.serialize_entry(&format!("p_{name}"), &e.point)?;
            m.serialize_entry(&format!("ci_{name}"), &e.ci)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_are_named_once_for_both_duels() {
        let o = Outcomes {
            trials: 10,
            a_wins: 6,
            b_wins: 3,
            draws: 1,
            first_wins: 5,
        };
        let v = serde_json::to_value(o).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys.len(), 8, "{keys:?}");
        for k in ["p_a_wins", "ci_b_wins", "p_draw", "ci_first_side_wins"] {
            assert!(keys.contains(&k), "{k} in {keys:?}");
        }
        assert_eq!(v["p_a_wins"], 0.6);
        assert_eq!(v["p_draw"], 0.1);
    }
}
