//! What the page offers to choose from: the built-in catalog's units, and each policy the
//! squad tab sets with its values and default. The values are read off the policies' own
//! serde names (a probe that records the variants an enum asks for), so they cannot drift.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::{self, Deserialize, Deserializer, Visitor};

use diemon_core::catalog::Catalog;
use diemon_core::scenario::squad::policy::{Position, Response, Sprint, Targeting};

/// A policy as a control.
#[derive(Clone, Debug, Serialize)]
pub struct Choice {
    /// Its values, as its flag writes them.
    pub values: Vec<&'static str>,
    /// Its default.
    pub default: String,
}

/// The units and the policies.
#[derive(Clone, Debug, Serialize)]
pub struct Offer {
    /// Every built-in unit's key, in catalog order.
    pub units: Vec<String>,
    /// `target`, `position`, `response`, `sprint`.
    pub policies: BTreeMap<&'static str, Choice>,
}

/// What the page offers.
pub fn offer() -> Offer {
    let mut policies = BTreeMap::new();
    policies.insert("target", choice::<Targeting>());
    policies.insert("position", choice::<Position>());
    policies.insert("response", choice::<Response>());
    policies.insert("sprint", choice::<Sprint>());
    Offer {
        units: Catalog::builtin().units().map(|u| u.key.clone()).collect(),
        policies,
    }
}

fn choice<T: for<'de> Deserialize<'de> + Serialize + Default>() -> Choice {
    Choice {
        values: variants::<T>(),
        default: crate::squad::name(&T::default()),
    }
}

/// The serde names of a plain enum's variants.
pub fn variants<T: for<'de> Deserialize<'de>>() -> Vec<&'static str> {
    let mut seen = None;
    let _ = T::deserialize(Probe(&mut seen));
    seen.unwrap_or_default().to_vec()
}

/// A deserializer that answers nothing and notes the variants asked for.
struct Probe<'a>(&'a mut Option<&'static [&'static str]>);

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not an enum"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(variants);
        Err(de::Error::custom("probed"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_offered_reads_back_and_the_defaults_are_the_cores() {
        let o = offer();
        assert_eq!(
            variants::<Targeting>(),
            ["focus", "spread", "nearest", "threat", "combined"]
        );
        for (name, c) in &o.policies {
            assert!(c.values.len() >= 2, "{name}");
            assert!(
                c.values.contains(&c.default.as_str()),
                "{name}: {}",
                c.default
            );
        }
        assert_eq!(o.policies["position"].default, "hold");
        assert!(o.units.iter().any(|u| u == "minifig-hand-weapon"));
    }
}
