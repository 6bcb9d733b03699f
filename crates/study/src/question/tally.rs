//! A run's raw tally, typed by its question ([`AnyTally`]): what `diemon merge` adds up across
//! shards, what a price's race goes on from, and what an analysis counts its wins from.
//!
//! In a cell file it is written as JSON text inside the answer ([`as_text`]): its 128-bit
//! sums of squares fit no field the answer's flattened parts can carry as a number.

use serde::{Deserialize, Serialize};

use diemon_core::marks::roll::MarksTally;
use diemon_core::scenario::blast::tally::BlastTally;
use diemon_core::scenario::duel::DuelTally;
use diemon_core::scenario::rolls::DiceTally;
use diemon_core::scenario::squad::SquadTally;

/// The raw tally of one run, by the kind of question that made it (boxed: a squad's
/// tally holds its per-turn counts, kilobytes; a run keeps one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnyTally {
    /// A stat-line duel's.
    Duel(Box<DuelTally>),
    /// A squad battle's.
    Squad(Box<SquadTally>),
    /// A turn of fire's.
    Blast(Box<BlastTally>),
    /// A Marks check's.
    Marks(Box<MarksTally>),
    /// A dice expression's rolls.
    Dice(Box<DiceTally>),
}

impl AnyTally {
    /// Wins of side A, of side B, and trials: a duel's or a squad battle's counts.
    pub fn wins(&self) -> Option<(u64, u64, u64)> {
        match self {
            AnyTally::Duel(t) => Some((t.a_wins, t.b_wins, t.trials)),
            AnyTally::Squad(t) => Some((t.a_wins, t.b_wins, t.trials)),
            _ => None,
        }
    }
}

/// A scenario's own tally type, kept as an [`AnyTally`] and taken back from one.
pub trait Kept: Sized {
    /// The tally as an [`AnyTally`].
    fn kept(self) -> AnyTally;
    /// The tally, if `t` is one of this type.
    fn from_kept(t: AnyTally) -> Option<Self>;
}

macro_rules! kept {
    ($($ty:ty => $variant:ident),+ $(,)?) => {
        $(impl Kept for $ty {
            fn kept(self) -> AnyTally {
                AnyTally::$variant(Box::new(self))
            }
            fn from_kept(t: AnyTally) -> Option<Self> {
                match t {
                    AnyTally::$variant(t) => Some(*t),
                    _ => None,
                }
            }
        })+
    };
}

kept!(
    DuelTally => Duel,
    SquadTally => Squad,
    BlastTally => Blast,
    MarksTally => Marks,
    DiceTally => Dice,
);

/// A tally field written as its JSON text (`#[serde(with = "...::as_text")]`).
pub mod as_text {
    use super::AnyTally;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the tally as its JSON text.
    pub fn serialize<S: Serializer>(t: &Option<AnyTally>, s: S) -> Result<S::Ok, S::Error> {
        let text = t
            .as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(serde::ser::Error::custom)?;
        text.serialize(s)
    }

    /// Reads the tally from its JSON text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<AnyTally>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| serde_json::from_str(&text))
            .transpose()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_is_taken_back_only_as_its_own_type() {
        let t = DuelTally {
            trials: 10,
            a_wins: 6,
            b_wins: 3,
            ..DuelTally::default()
        };
        let kept = t.kept();
        assert_eq!(kept.wins(), Some((6, 3, 10)));
        assert_eq!(DuelTally::from_kept(kept.clone()), Some(t));
        assert_eq!(MarksTally::from_kept(kept.clone()), None);
        // Written as text inside an answer, read back the same.
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Holder {
            #[serde(with = "as_text", default, skip_serializing_if = "Option::is_none")]
            tally: Option<AnyTally>,
        }
        let h = Holder { tally: Some(kept) };
        let text = serde_json::to_string(&h).unwrap();
        assert!(text.starts_with("{\"tally\":\"{"), "{text}");
        assert_eq!(serde_json::from_str::<Holder>(&text).unwrap(), h);
        assert_eq!(
            serde_json::from_str::<Holder>("{}").unwrap(),
            Holder { tally: None }
        );
    }
}
